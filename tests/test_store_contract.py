"""The Store protocol's rules (store/base.py), held by every backend: the same tests, each backend.

The command contract (test_commands_contract.py) shows each command behaves the same on every
store; these tests hold the rules the layers rely on directly: isolation of writers, the clock read
inside the lock, all-or-nothing, expiry (of directories too), exact totals, and a bounded number of
statements per command.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.paths import ROOT
from securemem.policy import Policy, QuotaSettings, TTLSettings, load_policy
from securemem.store.base import Actor, MissingStore, Store, VersionQuery, VersionRow
from securemem.store.factory import split_url
from tests.helpers import T0, Clock, ok, read_state, sqlcipher_of, write_many, write_raw


def memory_on(store: Store, policy: Policy, clock: Clock, namespace: str = "default") -> SecureMemory:
    return SecureMemory(store, policy, namespace=namespace, clock=clock, owns_store=False)


class Writer:
    """A write transaction held open in another thread, from creation until ``finish()``."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        entered, self._release = threading.Event(), threading.Event()

        def hold() -> None:
            with store.transaction("default", write=True, clock=clock):
                entered.set()
                self._release.wait(10)

        self._thread = threading.Thread(target=hold)
        self._thread.start()
        assert entered.wait(10)

    def finish(self) -> None:
        self._release.set()
        self._thread.join(10)


# -- expiry ------------------------------------------------------------------------------------------


def test_a_directory_whose_files_have_all_expired_is_gone_at_once_and_swept(store: Store) -> None:
    clock = Clock()
    memory = memory_on(store, Policy(ttl=TTLSettings(expire_after=60, since="write")), clock)
    ok(memory, command="create", path="/memories/jane-doe/notes.md", file_text="a\n")
    ok(memory, command="create", path="/memories/jane-doe/deep/more.md", file_text="b\n")
    clock.now = T0 + 30
    ok(memory, command="create", path="/memories/keep/x.md", file_text="c\n")
    clock.now = T0 + 61  # the two files under jane-doe/ have expired; keep/x.md has 29 s to go
    listing = ok(memory, command="view", path="/memories")
    assert "jane-doe" not in listing and "/memories/keep/x.md" in listing
    assert memory.execute({"command": "view", "path": "/memories/jane-doe"}).is_error
    assert store.count_expired(clock.now) == 4  # two files, two directories
    assert memory.sweep().deleted == 4
    with store.transaction("default", write=False, clock=lambda: 0.0) as tx:  # seen from before any deadline
        assert [e.path for e in tx.tree(ROOT, 10, lambda _n: False)] == ["/memories/keep", "/memories/keep/x.md"]


def test_dropping_a_namespace_takes_everything_in_it_and_nothing_else(store: Store) -> None:
    clock = Clock()
    policy = load_policy("default")
    gone, kept = memory_on(store, policy, clock, "gone"), memory_on(store, policy, clock, "kept")
    ok(gone, command="create", path="/memories/a/b.md", file_text="bye\n")
    ok(kept, command="create", path="/memories/a/b.md", file_text="stay\n")
    assert store.drop_namespace("gone") is True
    assert store.namespaces() == ["kept"]
    assert gone.execute({"command": "view", "path": "/memories/a/b.md"}).is_error
    assert "stay" in ok(kept, command="view", path="/memories/a/b.md")
    assert store.drop_namespace("gone") is False and store.drop_namespace("never") is False
    ok(gone, command="create", path="/memories/again.md", file_text="new\n")  # the name can be used again
    assert "b.md" not in ok(gone, command="view", path="/memories")
    assert store.integrity_errors() == []


def test_a_write_below_keeps_every_directory_above_alive(store: Store) -> None:
    clock = Clock()
    memory = memory_on(store, Policy(ttl=TTLSettings(expire_after=60, since="write")), clock)
    ok(memory, command="create", path="/memories/a/old.md", file_text="old\n")
    clock.now = T0 + 50
    ok(memory, command="create", path="/memories/a/b/new.md", file_text="new\n")
    clock.now = T0 + 70  # old.md expired, new.md has 40 s left: a/ and a/b/ are still there
    listing = ok(memory, command="view", path="/memories")
    assert "/memories/a/\n" in listing + "\n" and "/memories/a/b/" in listing and "old.md" not in listing


def test_the_clock_is_read_once_the_lock_is_held(store: Store) -> None:
    """An edit queued behind a long transaction must not act on the instant it started waiting."""
    clock_reads: list[float] = []
    writer = Writer(store, time.time)
    released_at: list[float] = []

    def clock() -> float:
        clock_reads.append(time.monotonic())
        return time.time()

    def waiter() -> None:
        with store.transaction("default", write=True, clock=clock):
            pass

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.2)
    assert clock_reads == []  # still waiting for the lock: no instant chosen yet
    released_at.append(time.monotonic())
    writer.finish()
    thread.join(10)
    assert len(clock_reads) == 1 and clock_reads[0] >= released_at[0]


def test_an_expiry_reached_while_waiting_for_the_lock_is_honoured(store: Store) -> None:
    """The edit waits for a writer; meanwhile its file expires: the edit must not revive it."""
    clock = Clock()
    memory = memory_on(store, Policy(ttl=TTLSettings(expire_after=60, since="write")), clock)
    ok(memory, command="create", path="/memories/f.md", file_text="x\n")
    writer = Writer(store, clock)
    results: list[Any] = []
    editor = threading.Thread(
        target=lambda: results.append(
            memory.execute({"command": "str_replace", "path": "/memories/f.md", "old_str": "x", "new_str": "y"})
        )
    )
    editor.start()
    time.sleep(0.1)
    clock.now = T0 + 61  # the file expires while the edit waits
    writer.finish()
    editor.join(10)
    assert results[0].is_error and "does not exist" in results[0].text


# -- isolation and all-or-nothing -----------------------------------------------------------------


def test_writers_in_threads_lose_no_update(store: Store) -> None:
    memory = memory_on(store, load_policy(None), Clock(time.time()))
    ok(memory, command="create", path="/memories/n.md", file_text="0")

    def bump(n: int) -> None:
        for i in range(25):
            result = memory.execute(
                {"command": "insert", "path": "/memories/n.md", "insert_line": 0, "insert_text": f"t{n}-{i}"}
            )
            assert not result.is_error, result.text

    threads = [threading.Thread(target=bump, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    text = ok(memory, command="view", path="/memories/n.md")
    assert all(f"t{n}-{i}" in text for n in range(4) for i in range(25))


def test_a_failed_transaction_leaves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction("default", write=True, clock=time.time) as tx:
        found = tx.ancestry("/memories/a/b.md")
        tx.put_file("/memories/a/b.md", b"x", 1, None, found.entry)
        raise RuntimeError("after the write")
    with store.transaction("default", write=False, clock=time.time) as tx:
        assert tx.stat("/memories/a") is None and tx.usage().entries == 0


# -- totals ----------------------------------------------------------------------------------------


def test_usage_counts_contents_path_text_and_directories(store: Store) -> None:
    write_many(store, ["/memories/a/b/c.md", "/memories/a/d.md"], b"hello")
    with store.transaction("default", write=False, clock=time.time) as tx:
        usage = tx.usage()
    paths = ["/memories/a", "/memories/a/b", "/memories/a/b/c.md", "/memories/a/d.md"]
    assert (usage.content_bytes, usage.files, usage.dirs) == (10, 2, 2)
    assert usage.path_bytes == sum(len(p) for p in paths)


def test_a_move_keeps_the_totals_exact(store: Store) -> None:
    write_many(store, ["/memories/a/b/c.md", "/memories/a/d.md", "/memories/x.md"], b"12345")
    memory = memory_on(store, load_policy(None), Clock(time.time()))
    ok(memory, command="rename", old_path="/memories/a", new_path="/memories/zz/longer-name")
    with store.transaction("default", write=False, clock=time.time) as tx:
        usage = tx.usage()
        moved = tx.stat("/memories/zz")
    paths = ["/memories/x.md", "/memories/zz", "/memories/zz/longer-name", "/memories/zz/longer-name/b",
             "/memories/zz/longer-name/b/c.md", "/memories/zz/longer-name/d.md"]  # fmt: skip
    assert usage.path_bytes == sum(len(p) for p in paths)
    assert (usage.files, usage.dirs, usage.content_bytes) == (3, 3, 15)
    assert moved is not None and (moved.size, moved.files, moved.dirs) == (10, 2, 2)


def test_deep_empty_directories_count_against_the_quota(store: Store) -> None:
    policy = Policy(quota=QuotaSettings(max_total_bytes=400, max_entries=8))
    memory = memory_on(store, policy, Clock(time.time()))
    deep = "/memories/" + "/".join(f"d{i}" for i in range(20)) + "/f.md"
    result = memory.execute({"command": "create", "path": deep, "file_text": ""})
    assert result.is_error and "Quota exceeded" in result.text  # 21 entries of path text, no content
    long_name = "/memories/" + "n" * 250 + "/" + "m" * 150
    result = memory.execute({"command": "create", "path": long_name, "file_text": ""})
    assert result.is_error and "bytes (file contents and path names)" in result.text
    with store.transaction("default", write=False, clock=time.time) as tx:
        assert tx.usage().entries == 0


# -- siblings and empty directories (rule 10; a move between two stores) ---------------------------


def _versions(store: Store, namespace: str) -> list[VersionRow]:
    with store.transaction(namespace, write=False, clock=time.time) as tx:
        return tx.versions(VersionQuery(limit=50))


def test_a_sibling_is_the_same_transaction_on_another_namespace(store: Store) -> None:
    assert store.create_store("other", "", T0) is not None
    with store.transaction("default", write=True, clock=lambda: T0, actor=Actor("sess_x", "key_y")) as tx:
        other = tx.sibling("other")
        assert other.now == tx.now == T0 and tx.sibling("other") is other
        tx.put_file("/memories/a.md", b"a", 1, None, None)
        other.put_file("/memories/b.md", b"bb", 1, None, None)
    assert read_state(store, "default").files == {"/memories/a.md": "a"}
    assert read_state(store, "other").files == {"/memories/b.md": "bb"}
    (version,) = _versions(store, "other")
    assert (version.op, version.path, version.session_id, version.api_key_id) == (
        "created", "/memories/b.md", "sess_x", "key_y"
    )  # fmt: skip


def test_a_failed_transaction_leaves_nothing_in_any_namespace_it_touched(store: Store) -> None:
    assert store.create_store("other", "", T0) is not None
    write_raw(store, "/memories/kept.md", b"kept", namespace="other")
    before = (read_state(store, "other"), len(_versions(store, "other")))
    with pytest.raises(RuntimeError), store.transaction("default", write=True, clock=time.time) as tx:
        tx.put_file("/memories/a.md", b"a", 1, None, None)
        other = tx.sibling("other")
        kept = other.stat("/memories/kept.md")
        assert kept is not None
        other.delete("/memories/kept.md", kept)
        other.put_file("/memories/new/b.md", b"b", 1, None, None)
        raise RuntimeError("after writing in both")
    assert (read_state(store, "other"), len(_versions(store, "other"))) == before
    with store.transaction("default", write=False, clock=time.time) as tx:
        assert tx.stat("/memories/a.md") is None and tx.usage().entries == 0


def test_a_sibling_is_never_made(store: Store) -> None:
    with store.transaction("default", write=True, clock=time.time) as tx, pytest.raises(MissingStore):
        tx.sibling("missing")
    assert store.find_store(name="missing") is None


def test_make_dir_makes_an_empty_directory_and_its_parents(store: Store) -> None:
    write_raw(store, "/memories/keep/f.md", b"f", now=T0)
    write_raw(store, "/memories/soon/f.md", b"f", now=T0, expires=T0 + 10)
    with store.transaction("default", write=True, clock=lambda: T0) as tx:
        tx.make_dir("/memories/a/b/empty", T0 + 100)
        tx.make_dir("/memories/keep/e", T0 + 5)
        tx.make_dir("/memories/soon/later", T0 + 100)
    state = read_state(store, now=T0)
    made = {"/memories/a", "/memories/a/b", "/memories/a/b/empty", "/memories/keep/e", "/memories/soon/later"}
    assert set(state.dirs) == {"/memories", "/memories/keep", "/memories/soon", *made}
    with store.transaction("default", write=False, clock=lambda: T0) as tx:
        usage, keep, soon = tx.usage(), tx.stat("/memories/keep"), tx.stat("/memories/soon")
    dirs = [p for p in state.dirs if p != "/memories"]
    assert (usage.dirs, usage.files) == (7, 2)
    assert usage.path_bytes == sum(map(len, [*dirs, "/memories/keep/f.md", "/memories/soon/f.md"]))
    assert keep is not None and keep.expires is None  # a directory that never expires stays so
    assert soon is not None and soon.expires == T0 + 100  # rule 4: never before what lies below it
    with store.transaction("default", write=False, clock=lambda: T0 + 101) as tx:
        assert tx.stat("/memories/a") is None  # made with the expiry of what it was made for
        assert tx.stat("/memories/keep/e") is None and tx.stat("/memories/keep") is not None


# -- the factory -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "scheme", "where"),
    [
        ("memory://", "memory", ""),
        ("sqlcipher:///var/lib/a.db", "sqlcipher", "/var/lib/a.db"),
        ("a.db", "sqlcipher", "a.db"),
        ("postgresql://app@db:5432/memory", "postgresql", "postgresql://app@db:5432/memory"),
        ("postgres://app@db/memory", "postgresql", "postgres://app@db/memory"),
        # a scheme is read in any case (RFC 3986), and handed to libpq, which reads only lower case, lowered
        ("PostgreSQL://app@db/memory", "postgresql", "postgresql://app@db/memory"),
        ("SQLCIPHER:///var/lib/a.db", "sqlcipher", "/var/lib/a.db"),
        ("notes:2024.db", "sqlcipher", "notes:2024.db"),  # a file whose name holds a colon stays a file
        ("team@2024.db", "sqlcipher", "team@2024.db"),
        ("postgresql/agent.db", "sqlcipher", "postgresql/agent.db"),  # a directory named as a scheme is
    ],
)
def test_store_urls(url: str, scheme: str, where: str) -> None:
    assert split_url(url) == (scheme, where)


@pytest.mark.parametrize(
    "url",
    [
        "sqlcipher://relative.db", "ftp://x", "postgresql://",
        # a slash or two too few (an attacker's round): read as a file path, each was quoted back,
        # password and all, by "no securemem store at ..." or "cannot create ..."
        "postgresql:/app:Secret1@db/memory", "postgresql:app:Secret1@db/memory", "Postgres:/app@db/memory",
        "sqlcipher:/var/lib/a.db", "memory:", "mysql:/app:Secret1@db/memory",
        # its colon missing, a "/" in the password (a second attacker's round)
        "postgresql//app:Secret1@db/memory", "postgresq:/app:Secret1/x@db/memory",
    ],
)  # fmt: skip
def test_bad_store_urls_are_one_clear_error(url: str) -> None:
    from securemem.errors import StorageError

    with pytest.raises(StorageError) as caught:
        split_url(url)
    assert "\n" not in str(caught.value) and "Secret1" not in str(caught.value)


# -- the version chain ------------------------------------------------------------------------------


def test_a_chain_read_by_number_is_its_stores_whatever_name_it_has_now(store: Store) -> None:
    """``chain(..., store_key=)`` finds the store by its number: an auditor who listed a store reads
    that store's chain even after it was renamed and its old name given to another."""
    clock, policy = Clock(), Policy()
    ok(memory_on(store, policy, clock, "s"), command="create", path="/memories/a.md", file_text="a\n")
    listed = store.find_store(name="s")
    assert listed is not None
    store.update_store(listed.id, "renamed", None, clock.now)
    taker = memory_on(store, policy, clock, "s")
    for name in ("b", "c"):
        ok(taker, command="create", path=f"/memories/{name}.md", file_text="x\n")
    by_number = list(store.chain("s", store_key=listed.key))
    assert by_number == list(store.chain("renamed")) and len(by_number) == 1
    assert len(list(store.chain("s"))) == 2  # by name: the store that took the name
    assert store.drop_namespace("renamed") and list(store.chain("s", store_key=listed.key)) == []


# -- statements per command (SQLCipher) -------------------------------------------------------------

# Every statement inside the command's transaction counts, BEGIN and COMMIT excluded: the first is
# ``PRAGMA data_version``, which tells whether another connection committed since this handle's
# last transaction. When none did (as here), what the handle already knows stands unread: that the
# store exists, the policy it records, and its chain's newest row, which links the next version
# and carries the history total a quota check reads. A command that frees content (the text it
# replaced, the path it moved, the file it deleted) may run one more: the record that a scrub is
# owed, which the first such command after each erasure pass writes (``SQLCipherStore._note_debt``).
BUDGET = {
    "create": 5,  # the path and its ancestors (quota usage included), the content, one upsert of every row, the version
    "view": 2,
    # the file and its content, the usage (it grows), the content, the upsert, the version, the record
    "str_replace": 7,
    "insert": 7,
    # as above; and the directory's expiry made the latest of what remains, when the file deleted was
    # the last in it to expire (here: b.md, written after seed.md), rule 4
    "delete": 8,
    "rename": 11,  # as above, and the memory's head in its content row (the version links to it)
    # the directory, what has expired below it (twice: its total, then the rows shown), then one
    # query for each directory whose children are listed (here /memories and /memories/d)
    "list": 6,
}


def test_each_command_runs_a_bounded_number_of_statements(tmp_path: Path) -> None:
    """No row is read twice: the lookup a command makes serves its checks and its write."""
    with SecureMemory.open(tmp_path / "b.db", key=os.urandom(32), policy="regulated") as memory:
        ok(memory, command="create", path="/memories/d/seed.md", file_text="seed\n")
        seen: dict[str, int] = {}
        steps: list[tuple[str, dict[str, Any]]] = [
            ("create", {"command": "create", "path": "/memories/d/a.md", "file_text": "Status: open\n"}),
            ("view", {"command": "view", "path": "/memories/d/a.md"}),
            (
                "str_replace",
                {"command": "str_replace", "path": "/memories/d/a.md", "old_str": "open", "new_str": "done"},
            ),
            ("insert", {"command": "insert", "path": "/memories/d/a.md", "insert_line": 0, "insert_text": "top"}),
            ("rename", {"command": "rename", "old_path": "/memories/d/a.md", "new_path": "/memories/d/b.md"}),
            ("list", {"command": "view", "path": "/memories"}),
            ("delete", {"command": "delete", "path": "/memories/d/b.md"}),
        ]
        for name, tool_input in steps:
            ok(memory, **tool_input)
            seen[name] = sqlcipher_of(memory.store).last_statements
    assert {name: seen[name] <= BUDGET[name] for name in BUDGET} == dict.fromkeys(BUDGET, True), seen


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://app:Secret1@127.0.0.1:99999/test", "port"),
        ("postgresql://app:Secret1@127.0.0.1:54x/test", "port"),
        ("postgresql://app:Secret1@127.0.0.1/test?sslmode=bogus", "sslmode"),
        ("postgresql://app:Secret1@127.0.0.1/test?target_session_attrs=Secret1", "target_session_attrs"),
        ("postgresql://app:Secret1@[::1/test", "malformed"),
        ("postgresql://app:Secret1\udcff@127.0.0.1/test", "UTF-8"),  # a byte the command line could not decode
        ("postgresql://app:Secret1@127.0.0.1:1/test", "cannot connect"),  # nothing listens on port 1
    ],
)
def test_a_bad_postgresql_url_is_named_before_any_server_is_asked(url: str, said: str) -> None:
    """An attacker's round: a bad port or ``sslmode`` read "cannot connect to the server", a byte
    that is not UTF-8 an internal error, and the error kept the driver's exception, whose text
    quotes the URL and its password, as its context, for a logger or an error tracker to print."""
    from securemem.errors import StorageError
    from securemem.store.factory import open_store

    with pytest.raises(StorageError) as caught:
        open_store(url, bytes(32))
    assert said in str(caught.value) and "Secret1" not in str(caught.value)
    assert caught.value.__context__ is None and caught.value.__cause__ is None
