"""Second attack on schema 5 of the SQLCipher store (linked versions: ``versions.prev``,
``content.head``, ``versions_ends``), after the fixes of tests/test_attack_schema5.py.

Each test is a minimal reproducer of a problem found by attacking the change; each FAILS until the
product is fixed. The comment above each says what it shows and how bad it is. What held (the
honest sequences `audit verify` accepts, the edits of a link or a head it names, memory numbers
never reused, the schema 4 migration) is in the attack's report, not here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin
from securemem.admin.models import MemoryStore
from securemem.policy import Policy
from securemem.store import history
from tests.helpers import T0, Clock, connection_of, write_many

KEY = b"k" * 32
DEPTH = 3000  # versions of one memory: a memory a session rewrites often has many more


def _bytes_read() -> int:
    with open("/proc/self/io", encoding="ascii") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("rchar:"))


@contextmanager
def _statements(admin: Admin) -> Iterator[list[str]]:
    """The SQL statements the store's connection runs meanwhile."""
    seen: list[str] = []
    conn = connection_of(admin.store)
    conn.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)


def _deep(db: Path, clock: Clock, policy: Policy | None = None, *, expires: float | None = None) -> MemoryStore:
    """A store "s" whose memory /a.md has DEPTH + 1 versions (created at T0, rewritten DEPTH times
    at T0 + 100), interleaved with as many of /b.md: two memories rewritten in turn."""
    with Admin.open(db, key=KEY, clock=clock, policy=policy) as admin:
        store = admin.memory_stores.create(name="s")
        admin.memories.write(store.id, path="/a.md", content="a\n")
        admin.memories.write(store.id, path="/b.md", content="b\n")
        clock.at(100)
        with admin.store.transaction("s", write=True, clock=clock) as tx:
            for i in range(DEPTH):
                tx.put_file("/memories/a.md", f"a {i}\n".encode(), 1, expires, tx.stat("/memories/a.md"))
                tx.put_file("/memories/b.md", f"b {i}\n".encode(), 1, None, tx.stat("/memories/b.md"))
    return store


# FINDING (medium, performance: `audit verify` reads the whole file once per store): ``chain_rows``
# now compares heads with ``SELECT id, head FROM content WHERE head BETWEEN ? AND ?``. ``head`` has
# no index, so every store's check scans the whole ``content`` table: every memory of every store
# (a small memory lives in its leaf page, so its whole text is read and decrypted). `audit verify`
# checks each store in turn, so a file with N stores is read N times over (1000 tenants in a 1 GB
# file: a terabyte read and decrypted); verifying one store with a single version reads every
# other store's memories. Schema 4's check read the store's own versions only (here: 12 kB
# against 12 MB). The store's memories are reachable from its own versions (``newest``), by id.
@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts the bytes read through /proc/self/io")
def test_verifying_a_store_reads_no_other_stores_memories(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    with Admin.open(db, key=KEY) as admin:
        admin.memory_stores.create(name="bulk")
        tiny = admin.memory_stores.create(name="tiny")
        admin.memories.write(tiny.id, path="/t.md", content="tiny\n")
        # 3000 small memories (9 MB) in another store, written below the layers in one transaction
        write_many(admin.store, [f"/memories/d/f{i}.md" for i in range(3000)], b"z" * 3000, namespace="bulk")
    with Admin.open(db, key=KEY) as admin:
        info = admin.store.find_store(name="tiny")
        assert info is not None
        admin.memory_stores.list()
        before = _bytes_read()
        report = history.check(info.key, admin.store.chain(info.name, store_key=info.key))
        read = _bytes_read() - before
    assert report.versions == 1 and not report.problems
    assert read < 1_000_000, f"verifying a store of one version read {read} bytes (the other store's memories)"


# FINDING (medium, performance: a memory's filtered listing reads all of its history, one SQL
# statement per few versions): ``_memory_page`` walks a memory's links from its head in batches
# of ``limit + 1`` rows, one recursive statement per batch, and applies the page's filters after
# the walk. A filter that matches old versions only (``operation="created"``: "show me the
# original", ``created_at_lte``: "what did it say last month") walks every newer version first:
# with 3000 versions and the default page of 20 that is about 140 statements, with ``limit=1``
# about a thousand (20 000 versions: 2.3 s, against 1 ms with schema 4's ``(memory, seq)``
# index, which bounded ``created_at_lte`` by its key and read ``operation`` filters in one
# statement). ``created_at_lte`` is already a bound on seq (``_time_bounds``): the walk could
# start at the memory's newest version at or below it; an op filter could read a bounded
# number of links per statement rather than ``limit + 1``.
@pytest.mark.parametrize(
    "filters",
    [
        {"operation": "created"},
        {"created_at_lte": datetime.fromtimestamp(T0 + 50, UTC)},  # before every rewrite
    ],
    ids=["operation-created", "created-at-lte"],
)
@pytest.mark.parametrize("limit", [1, 20])
def test_a_filtered_listing_of_a_deep_memory_runs_few_statements(
    tmp_path: Path, filters: dict[str, Any], limit: int
) -> None:
    clock = Clock()
    db = tmp_path / "l.db"
    store = _deep(db, clock)
    with Admin.open(db, key=KEY, clock=clock) as admin:
        memory = next(m for m in admin.memories.list(store.id).data if m.path == "/a.md")
        admin.memory_versions.list(store.id, memory_id=memory.id, limit=1)  # schema and store rows read
        with _statements(admin) as seen:
            page = admin.memory_versions.list(store.id, memory_id=memory.id, limit=limit, **filters)
    assert [v.operation for v in page.data] == ["created"]
    assert len(seen) < 50, f"one page of {limit} of a memory's versions ran {len(seen)} statements"


# FINDING (low, performance, under the write lock): expiry redacts a memory's versions by walking
# its links (``_walk_back``), one statement per link depth: a memory with 3000 versions that
# expires costs 3000 sequential SELECTs inside the sweep's write transaction (20 000 versions:
# 1.4 s against schema 4's 0.5 s, which found them with one indexed statement), during which no
# other session of the file can write. The batching over 500 chains only helps many shallow
# memories, not one deep one.
def test_expiring_a_deep_memory_runs_few_statements(tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "x.db"
    ttl = Policy.model_validate({"name": "ttl", "ttl": {"expire_after": 100_000, "since": "write"}})
    store = _deep(db, clock, ttl, expires=T0 + 100_000)
    clock.at(200_000)
    with Admin.open(db, key=KEY, clock=clock, policy=ttl) as admin:
        with _statements(admin) as seen:
            assert admin.sweep().deleted == 1
        kept = admin.memory_versions.list(store.id, limit=5, operation="deleted").data
    assert [v.path for v in kept] == [None]  # the erase form: every version of /a.md redacted
    assert len(seen) < 200, f"expiring one memory ran {len(seen)} statements"


# FINDING (CI, bench/scale.py's sweep): expiry's walk along many memories' links was seeded by a
# VALUES list, one row per memory: with 500 memories in one batch it passed SQLite's cap on the
# terms of a compound SELECT, and the sweep failed with a storage error, erasing nothing.
@pytest.mark.slow
def test_a_sweep_of_more_than_500_expired_memories_redacts_every_version(tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "many.db"
    ttl = Policy.model_validate({"name": "ttl", "ttl": {"expire_after": 100, "since": "write"}})
    with Admin.open(db, key=KEY, clock=clock, policy=ttl) as admin:
        store = admin.memory_stores.create(name="many")
        for n in range(1200):
            admin.memories.write(store.id, path=f"/m{n:04d}.md", content=f"text {n}\n")
        clock.at(1_000)
        assert admin.sweep().deleted == 1200
        created = admin.memory_versions.list(store.id, limit=100, operation="created").data
        assert created and all(v.path is None and v.redacted_at is not None for v in created)
