"""Erasure through the history: what a redaction, a store deletion, an expiry or the history's
retention takes is gone from every decrypted page and WAL frame, within the erasure bound.

With a history that keeps content (the default), text a command replaced or deleted stays in its
versions by design (review, rollback); these tests prove the ways it leaves them.
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin, Conflict, SecureMemory
from securemem.memory import POLICY_CHECKED, configure_store
from securemem.policy import Policy
from securemem.store import history
from tests.helpers import BACKENDS, DAY, Clock, ok
from tests.pg import PG
from tests.sqlcipher_pages import plaintext_of

MARKER = "ZORILLA-HISTORY-51f0"
PATH_MARKER = "okapi-path-93"
BOUND = 1.5


def gone_within(db: Path, key: bytes, marker: str) -> None:
    started = time.monotonic()
    while marker.encode() in plaintext_of(db, key):
        assert time.monotonic() - started < BOUND, f"{marker} still decryptable after {BOUND}s"
        time.sleep(0.05)


def test_deleted_text_stays_in_the_history_until_every_version_of_it_is_redacted(tmp_path: Path) -> None:
    db, key = tmp_path / "h.db", b"h" * 32
    with Admin.open(db, key=key, api_key_id="ops") as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path=f"/{PATH_MARKER}.md", content=f"{MARKER}\n" * 40)
        agent = SecureMemory(admin.store, admin.policy, namespace="s", owns_store=False)
        ok(agent, command="rename", old_path=f"/memories/{PATH_MARKER}.md", new_path="/memories/renamed.md")
        admin.memories.update(store.id, memory.id, content="clean\n")
        admin.store.flush_erasure()
        assert MARKER.encode() in plaintext_of(db, key)  # the control: the history holds it
        for version in admin.memory_versions.list(store.id, memory_id=memory.id).data:
            admin.memory_versions.redact(store.id, version.id)
        gone_within(db, key, MARKER)
        gone_within(db, key, PATH_MARKER)
        assert admin.memories.retrieve(store.id, memory.id).content == "clean\n"


def test_deleting_a_store_erases_its_memories_and_versions_and_nothing_else(tmp_path: Path) -> None:
    db, key = tmp_path / "d.db", b"d" * 32
    with Admin.open(db, key=key) as admin:
        doomed = admin.memory_stores.create(name="doomed")
        kept = admin.memory_stores.create(name="kept")
        memory = admin.memories.write(doomed.id, path=f"/{PATH_MARKER}/a.md", content=f"{MARKER}\n" * 40)
        admin.memories.update(doomed.id, memory.id, content=f"{MARKER} again\n")
        admin.memories.write(kept.id, path="/k.md", content="KEPT-TEXT\n")
        admin.store.flush_erasure()
        assert MARKER.encode() in plaintext_of(db, key)
        admin.memory_stores.delete(doomed.id)
        gone_within(db, key, MARKER)
        gone_within(db, key, PATH_MARKER)
        assert b"KEPT-TEXT" in plaintext_of(db, key)
        assert [m.path for m in admin.memories.list(kept.id).data] == ["/k.md"]


def test_expiry_redacts_the_history_of_what_expires(tmp_path: Path) -> None:
    db, key = tmp_path / "e.db", b"e" * 32
    clock = Clock()
    policy = Policy.model_validate({"ttl": {"expire_after": 60, "since": "write"}})
    with Admin.open(db, key=key, policy=policy, clock=clock) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path=f"/{PATH_MARKER}.md", content=f"{MARKER}\n" * 40)
        admin.memories.update(store.id, memory.id, content=f"{MARKER} v2\n")
        clock.at(120)
        assert admin.sweep().deleted == 1
        gone_within(db, key, MARKER)
        gone_within(db, key, PATH_MARKER)


def retaining(db: Path, key: bytes, clock: Clock) -> Admin:
    """An admin handle on ``db`` under a policy that keeps versions' content for 30 days."""
    return Admin.open(
        db, key=key, policy=Policy.model_validate({"history": {"keep_content_for": 30 * DAY}}), clock=clock
    )


def test_the_history_retention_redacts_old_versions_at_the_sweep(tmp_path: Path) -> None:
    db, key = tmp_path / "r.db", b"r" * 32
    clock = Clock()
    with retaining(db, key, clock) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content=f"{MARKER}\n" * 40)
        admin.memories.update(store.id, memory.id, content="current text\n")
        clock.at(10 * DAY)
        assert admin.sweep().redacted == 0
        clock.at(31 * DAY)
        report = admin.sweep()
        assert report.redacted == 2
        gone_within(db, key, MARKER)
        assert admin.memories.retrieve(store.id, memory.id).content == "current text\n"  # the head is not history
        assert all(v.redacted_at is not None for v in admin.memory_versions.list(store.id).data)


def test_a_retention_sweep_with_nothing_to_redact_reads_where_the_last_one_stopped(tmp_path: Path) -> None:
    # Each sweep read every version's page to find none old enough (0.19 s at 100,000 versions, every sweep): a
    # store's versions are stamped in their chain's order, so the old ones are a prefix read from where the last
    # retention stopped, and a retention with nothing to redact costs the same however long the history.
    from tests.helpers import connection_of

    clock = Clock()
    with retaining(tmp_path / "r.db", b"r" * 32, clock) as admin:
        store = admin.memory_stores.create(name="s")
        conn = connection_of(admin.store)
        steps = [0]

        def count() -> int:
            steps[0] += 1
            return 0

        def measured(run: Any) -> int:
            steps[0] = 0
            conn.set_progress_handler(count, 10)
            try:
                run()
            finally:
                conn.set_progress_handler(None, 0)
            return steps[0]

        def old_scan() -> None:  # what each retention ran before
            conn.execute(
                "SELECT seq FROM versions WHERE created < ? AND redacted IS NULL AND op < 4 AND path IS NOT NULL "
                "ORDER BY seq LIMIT 1000",
                (clock() - 30 * DAY,),
            ).fetchall()

        costs: list[tuple[int, int]] = []
        for round_ in range(2):
            for index in range(300):
                admin.memories.write(store.id, path=f"/r{round_}/n{index}.md", content=f"{MARKER} {index}\n")
            clock.at((round_ + 1) * 31 * DAY)
            assert admin.sweep().redacted == 300  # what grew old is found and redacted
            now = clock()
            costs.append((measured(lambda: admin.store.expire_history(now, now - 30 * DAY, 1000)), measured(old_scan)))
        (empty_first, scan_first), (empty_second, scan_second) = costs
        assert scan_second > scan_first * 1.5  # the whole history's read grows with it
        assert empty_second < empty_first * 1.2  # the retention's does not
        assert all(v.redacted_at is not None for v in admin.memory_versions.list(store.id, limit=1000).data)


# -- two processes on one store ---------------------------------------------------------------------


def _increment(db: str, key: bytes, store_id: str, memory_id: str, rounds: int) -> int:
    """Read-modify-write with a content_sha256 precondition, retrying on a lost race."""
    from securemem import PreconditionFailed

    lost = 0
    with Admin.open(db, key=key, api_key_id="worker") as admin:
        for _ in range(rounds):
            while True:
                current = admin.memories.retrieve(store_id, memory_id)
                assert current.content is not None
                value = int(current.content) + 1
                try:
                    admin.memories.update(
                        store_id,
                        memory_id,
                        content=f"{value}\n",
                        precondition={"type": "content_sha256", "content_sha256": current.content_sha256},
                    )
                    break
                except PreconditionFailed:
                    lost += 1
    return lost


def _create_once(db: str, key: bytes, store_id: str, who: str, start: object) -> str:
    from securemem import PreconditionFailed

    with Admin.open(db, key=key) as admin:
        start.wait()  # type: ignore[attr-defined]
        try:
            admin.memories.write(store_id, path="/claim.md", content=f"{who}\n", precondition={"type": "not_exists"})
            return "won"
        except PreconditionFailed:
            return "lost"


@pytest.mark.parametrize("backend", ["sqlcipher", "postgresql"])
@pytest.mark.slow
def test_two_processes_never_lose_an_update_and_one_not_exists_write_wins(tmp_path: Path, backend: str) -> None:
    db, key = (str(tmp_path / "c.db") if backend == "sqlcipher" else PG.fresh_url()), b"c" * 32
    with Admin.open(db, key=key) as admin:
        store = admin.memory_stores.create(name="s")
        counter = admin.memories.write(store.id, path="/counter.md", content="0\n")
    # One pool of two fresh interpreters (and one manager for the start signals) serves every
    # round: each task opens and closes its own handle, so a round shares nothing with the last.
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(2)
    try:
        with ctx.Manager() as manager:
            _race(pool, manager, str(db), key, store.id, counter.id)
    finally:
        # Closed and joined, so each worker ends on its own once the queue is drained. Leaving the pool
        # by "with" calls terminate(), which now and then left one worker unsignalled (alive, waiting on
        # the pool's queue, a SIGTERM sent by hand ended it at once) and the test waited for it forever.
        pool.close()
        pool.join()


def _race(pool: Any, manager: Any, db: str, key: bytes, store_id: str, counter_id: str) -> None:
    """The rounds of test_two_processes_never_lose_an_update_and_one_not_exists_write_wins, on ``pool``."""
    results = [pool.apply_async(_increment, (db, key, store_id, counter_id, 25)) for _ in range(2)]
    [r.get(timeout=120) for r in results]
    with Admin.open(db, key=key) as admin:
        assert admin.memories.retrieve(store_id, counter_id).content == "50\n"
        assert len(admin.memory_versions.list(store_id, memory_id=counter_id, limit=100).data) == 51
    for _ in range(3):
        start = manager.Event()
        racers = [pool.apply_async(_create_once, (db, key, store_id, f"p{n}", start)) for n in range(2)]
        start.set()
        outcomes = sorted(r.get(timeout=120) for r in racers)
        assert outcomes == ["lost", "won"]
        with Admin.open(db, key=key) as admin:
            (claim,) = [m for m in admin.memories.list(store_id).data if m.path == "/claim.md"]
            admin.memories.delete(store_id, claim.id)


# -- a history switched off ---------------------------------------------------------------------


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_with_versions_off_expiry_and_redaction_still_erase_and_chain_the_existing_history(
    tmp_path: Path, backend: str
) -> None:
    """``history.versions = false`` records no new version, but the versions recorded before are
    still redacted when their memory expires, and every redaction is chained (the chain verifies);
    a store that never had versions gains none."""
    clock = Clock()
    ttl = {"expire_after": 60, "since": "write"}
    url = "memory://" if backend == "memory" else f"sqlcipher://{tmp_path / 'o.db'}"
    with Admin.open(url, key=b"o" * 32, policy=Policy.model_validate({"ttl": ttl}), clock=clock) as admin:
        store = admin.memory_stores.create(name="s")
        secret = admin.memories.write(store.id, path=f"/{PATH_MARKER}.md", content=f"{MARKER}\n")
        admin.memories.update(store.id, secret.id, content=f"{MARKER} v2\n")
        admin.memories.write(store.id, path="/other.md", content="other\n")
        off = Policy.model_validate({"ttl": ttl, "history": {"versions": False}})
        configure_store(admin.store, off)
        # A handle under the other policy beside the admin's (adopting it would stop the admin's).
        handle = Admin(
            SecureMemory(admin.store, off, namespace="s", owns_store=False, clock=clock, _checked=POLICY_CHECKED),
            api_key_id="ops",
        )
        fresh = handle.memory_stores.create(name="fresh")
        handle.memories.write(fresh.id, path="/f.md", content="f\n")
        other = handle.memory_versions.list(store.id, operation="created").data[0]
        handle.memory_versions.redact(store.id, other.id)
        clock.at(120)
        assert handle.sweep().deleted == 3
        versions = handle.memory_versions.list(store.id, memory_id=secret.id).data
        assert [(v.operation, v.path, v.redacted_at is not None) for v in versions] == [
            ("deleted", None, False),  # the chained expiry
            ("modified", None, True),
            ("created", None, True),
        ]
        assert all(handle.memory_versions.retrieve(store.id, v.id).content is None for v in versions)
        for name, count in (("s", 6), ("fresh", 0)):
            info = admin.store.find_store(name=name)
            assert info is not None
            rows = list(admin.store.chain(name))
            assert len(rows) == count and history.check(info.key, rows).problems == []
        if backend == "sqlcipher":
            gone_within(tmp_path / "o.db", b"o" * 32, MARKER)


def test_a_version_of_an_expired_memory_says_so_when_restored() -> None:
    """Found by an acceptance tester: before the sweep, a version of an expired memory is shown
    without its content (as it must be), and a restore of it said "redacted" though nothing was."""
    clock = Clock()
    ttl = {"expire_after": 60, "since": "write"}
    with Admin.open("memory://", key=b"o" * 32, policy=Policy.model_validate({"ttl": ttl}), clock=clock) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="a\n")
        [version] = admin.memory_versions.list(store.id, memory_id=memory.id).data
        clock.at(120)
        hidden = admin.memory_versions.retrieve(store.id, version.id)
        assert hidden.content_sha256 is None and hidden.redacted_at is None
        with pytest.raises(Conflict, match="has expired"):
            admin.memory_versions.restore(store.id, version.id)
