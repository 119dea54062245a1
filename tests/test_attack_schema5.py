"""Attack on schema 5 of the SQLCipher store: a memory's versions linked by ``versions.prev`` and
``content.head`` instead of the ``(memory, seq)`` index.

Each test is a minimal reproducer of a problem found by attacking the change; each FAILS until the
product is fixed. The comment above each says what it shows and how bad it is.

Most of them share one root: an admin restore of a deleted memory while the history is off
(``HistorySettings(versions=False)``) writes the memory's ``content`` row with no ``head``
(``_RESTORED`` in sqltx.py sets only ``data``), or keeps a stale one (``ON CONFLICT`` on the empty
row a deletion with the history off left). From then on the memory's versions are not reachable
from its row: what walks the links (the listing, the expiry redaction) misses them, and the next
version links to nothing, or to a version the chain check does not accept.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin, SecureMemory
from securemem.admin.models import MemoryStore
from securemem.errors import NotFound
from securemem.policy import Policy
from securemem.store import history
from securemem.store.sqlversions import seq_range
from tests.helpers import Clock, connection_of, ok, raw_edit, run_cli

KEY = b"k" * 32


def _policy(*, versions: bool = True, ttl: bool = False, content: str = "keep") -> Policy:
    """A file-wide policy; a store changes between them with adopt_policy=True."""
    spec: dict[str, Any] = {
        "name": f"p-{int(versions)}-{int(ttl)}-{content}",
        "history": {"versions": versions, "content": content},
    }
    if ttl:
        spec["ttl"] = {"expire_after": 60, "since": "write"}
    return Policy.model_validate(spec)


def _open(db: Path, *, versions: bool = True, ttl: bool = False, clock: Clock | None = None) -> Admin:
    policy = _policy(versions=versions, ttl=ttl)
    if clock is None:
        return Admin.open(db, key=KEY, policy=policy, adopt_policy=True, api_key_id="ops")
    return Admin.open(db, key=KEY, policy=policy, adopt_policy=True, api_key_id="ops", clock=clock)


def _tool(admin: Admin, store: MemoryStore) -> SecureMemory:
    """The memory tool on the store, as an agent's session would see it."""
    return SecureMemory(admin.store, admin.policy, namespace=store.name, owns_store=False, session_id="sess")


def _pages(admin: Admin, store_id: str, limit: int, **filters: Any) -> list[str]:
    """Every version id of a listing, newest first, page by page with its cursors."""
    ids: list[str] = []
    page = None
    while True:
        got = admin.memory_versions.list(store_id, limit=limit, page=page, **filters)
        ids += [v.id for v in got.data]
        if got.next_page is None:
            return ids
        page = got.next_page


def _expected(admin: Admin, store_id: str, memory_id: str) -> list[str]:
    """The memory's versions as the store-wide listing shows them (no link followed)."""
    return [v.id for v in admin.memory_versions.list(store_id, limit=100).data if v.memory_id == memory_id]


def _problems(admin: Admin, store_id: str) -> list[Any]:
    info = admin.store.find_store(store_id=store_id)
    assert info is not None
    return history.check(info.key, admin.store.chain(info.name)).problems


def _deleted_then_restored_with_the_history_off(db: Path) -> tuple[MemoryStore, str]:
    """A memory created and edited (history on), deleted (history on), then restored by an
    operator while the history is off. Returns the store and the memory's id."""
    with _open(db) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="first text\n")
        admin.memories.update(store.id, memory.id, content="second text\n")
        first = admin.memory_versions.list(store.id, memory_id=memory.id, operation="created").data[0]
        admin.memories.delete(store.id, memory.id)
    with _open(db, versions=False) as admin:
        admin.memory_versions.restore(store.id, first.id)
    return store, memory.id


# FINDING (medium: the per-memory listing loses history, silently): a deleted memory restored by
# an operator while the history is off gets a ``content`` row with no ``head``. The next change
# made through the memory tool (history on again) reads that NULL head in ``SqlTx.get`` and links
# its version to nothing (prev NULL). The memory's listing then stops at that version: its
# created, modified and deleted versions are gone from ``memory_versions.list(memory_id=...)``
# although the store-wide listing still shows them, and `audit verify` accepts the NULL link
# (after a deletion the check expects nothing). With schema 4's index the listing was complete.
def test_a_memory_restored_while_the_history_was_off_keeps_its_versions_in_its_listing(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    store, memory_id = _deleted_then_restored_with_the_history_off(db)
    with _open(db) as admin:
        ok(_tool(admin, store), command="str_replace", path="/memories/a.md", old_str="first", new_str="third")
        expected = _expected(admin, store.id, memory_id)
        assert len(expected) == 4  # modified, deleted, modified, created
        assert _problems(admin, store.id) == []
        for limit in (1, 2, 100):
            assert _pages(admin, store.id, limit, memory_id=memory_id) == expected, f"limit {limit}"


# FINDING (medium: `audit verify` reports tampering on an honest store): the same restore, but the
# next change is an admin update (``admin.memories.update``): the version log does not know the
# head (``tx.memory`` does not read it), falls back to ``_HEAD`` and links the new ``modified``
# version to the memory's ``deleted`` version. The chain check only lets a ``created`` link back
# to a deletion, so `audit verify` names the honest version as edited ("its link to the memory's
# previous version (prev) was changed") and exits 1: an auditor is told the file was tampered
# with. The same happens to every schema 4 store with such a memory after the migration
# (``link_versions`` gives the live row its deletion as head), even on a memory-tool edit.
def test_an_admin_update_after_a_restore_with_the_history_off_passes_audit_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.db"
    store, memory_id = _deleted_then_restored_with_the_history_off(db)
    with _open(db) as admin:
        admin.memories.update(store.id, memory_id, content="third text\n")
        assert _pages(admin, store.id, 100, memory_id=memory_id) == _expected(admin, store.id, memory_id)
    key_file = tmp_path / "k.key"
    key_file.write_text(KEY.hex())
    key_file.chmod(0o600)
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", str(db), "--key-file", str(key_file))
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert code == 0 and all(not line["problems"] for line in lines), lines


# The migration's side of the finding above: a schema 4 store in which a memory was deleted and
# then restored while the history was off (made here from a schema 5 store by taking its links
# away and marking it schema 4, which is what the previous release left: no head, no prev).
def test_a_migrated_store_with_a_memory_restored_while_the_history_was_off_passes_the_chain_check(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    store, memory_id = _deleted_then_restored_with_the_history_off(db)
    with _open(db) as admin:
        conn = connection_of(admin.store)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE content SET head = NULL")
        conn.execute("UPDATE versions SET prev = NULL")
        conn.execute("DROP INDEX versions_ends")
        conn.execute("CREATE INDEX versions_memory ON versions (memory, seq)")
        conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
        conn.execute("COMMIT")
    with _open(db) as admin:  # migrates to schema 5
        ok(_tool(admin, store), command="str_replace", path="/memories/a.md", old_str="first", new_str="third")
        assert _problems(admin, store.id) == []
        assert _pages(admin, store.id, 100, memory_id=memory_id) == _expected(admin, store.id, memory_id)


# FINDING (high: text that expiry must erase stays readable): with ``redact_expired`` (the
# default) expiry redacts every version of the memory that expires. Schema 4 found them with the
# ``(memory, seq)`` index; schema 5 walks back from the memory's ``content.head`` (``_heads_of`` /
# ``_walk_back``). For a memory restored while the history was off the head is NULL, so nothing
# is walked: its earlier versions keep their text and path after the expiry, retrievable by any
# operator (``memory_versions.retrieve``). With the history off at the expiry it is worse: the
# memory counts as having no versions at all, so neither the ``expired`` version nor the
# redaction happens (schema 4 asked the index whether it had versions).
@pytest.mark.parametrize("versions_at_expiry", [True, False], ids=["history-on", "history-off"])
def test_expiry_redacts_the_versions_of_a_memory_restored_while_the_history_was_off(
    tmp_path: Path, versions_at_expiry: bool
) -> None:
    db = tmp_path / "x.db"
    clock = Clock()
    with _open(db, ttl=True, clock=clock) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="Dana's diagnosis\n")
        first = admin.memory_versions.list(store.id, memory_id=memory.id).data[0]
        admin.memories.delete(store.id, memory.id)
    with _open(db, versions=False, ttl=True, clock=clock) as admin:
        admin.memory_versions.restore(store.id, first.id)
    clock.at(3600)  # the restored memory expires
    with _open(db, versions=versions_at_expiry, ttl=True, clock=clock) as admin:
        assert admin.sweep().deleted == 1
        kept = [
            (v.operation, shown.path, shown.content)
            for v in admin.memory_versions.list(store.id, limit=100).data
            if (shown := admin.memory_versions.retrieve(store.id, v.id)).content is not None or shown.path is not None
        ]
        assert kept == [], f"versions of an expired memory still hold its text or path: {kept}"


def _raw_edit(db: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    raw_edit(db, KEY, sql, params)


def _verify(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    key_file = db.parent / "k.key"
    key_file.write_text(KEY.hex())
    key_file.chmod(0o600)
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", str(db), "--key-file", str(key_file))
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.fixture
def restored(tmp_path: Path) -> Iterator[tuple[Path, str, str, int, list[str]]]:
    """A memory with a full life (history on): created, modified twice, deleted, restored, modified.
    Yields the file, the store's id, the memory's id, the store's number and the memory's version
    ids as the store-wide listing shows them (newest first)."""
    db = tmp_path / "t.db"
    with _open(db) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="one\n")
        other = admin.memories.write(store.id, path="/o.md", content="other\n")
        admin.memories.update(store.id, memory.id, content="two\n")
        admin.memories.update(store.id, other.id, content="other 2\n")
        admin.memories.update(store.id, memory.id, content="three\n")
        first = admin.memory_versions.list(store.id, memory_id=memory.id, operation="created").data[0]
        admin.memories.delete(store.id, memory.id)
        admin.memory_versions.restore(store.id, first.id)
        admin.memories.update(store.id, memory.id, content="four\n")
        info = admin.store.find_store(store_id=store.id)
        assert info is not None
        expected = _expected(admin, store.id, memory.id)
        assert len(expected) == 6
        assert _pages(admin, store.id, 100, memory_id=memory.id) == expected
        assert _problems(admin, store.id) == []
    yield db, store.id, memory.id, info.key, expected


def _number(db: Path, ns: int) -> int:
    """The memory's number (the public id is opaque): the memory of its restore."""
    with Admin.open(db, key=KEY) as admin:
        row = connection_of(admin.store).execute(f"SELECT memory FROM versions WHERE seq = {_restore_row(ns)}")
        return int(row.fetchone()[0])


def _restore_row(ns: int) -> str:
    """The seq of the memory's restore: the only ``created`` version that links back to something."""
    lo, hi = seq_range(ns)
    return f"(SELECT seq FROM versions WHERE op = 0 AND prev IS NOT NULL AND seq BETWEEN {lo} AND {hi})"


# FINDING (medium: versions hidden from a memory's listing, `audit verify` silent): the chain
# check lets a ``created`` version that follows a deletion (a restore) link to ANY older seq, or
# to nothing, because after a deletion it expects no link (``expected is None``, and then
# ``prev == expected`` or ``op == 0 and prev < seq``). A key holder who sets the restore's
# ``prev`` to NULL, or to the memory's first version, or to another memory's version, cuts the
# deletion and everything before it (or just the versions in between) out of the memory's
# listing; `audit verify` reports the chain as whole. The check could require the restore's link
# to be the memory's own deletion (the one it just dropped from ``newest``).
@pytest.mark.parametrize(
    "link",
    [
        "NULL",
        "(SELECT min(seq) FROM versions WHERE memory = {memory} AND seq BETWEEN {lo} AND {hi})",  # skips 3
        "(SELECT min(seq) FROM versions WHERE memory <> {memory} AND seq BETWEEN {lo} AND {hi})",  # another memory
    ],
    ids=["null", "first-version", "other-memory"],
)
def test_an_edited_link_of_a_restore_is_named_by_audit_verify(
    restored: tuple[Path, str, str, int, list[str]], capsys: pytest.CaptureFixture[str], link: str
) -> None:
    db, store_id, memory_id, ns, expected = restored
    lo, hi = seq_range(ns)
    number = _number(db, ns)
    _raw_edit(
        db, f"UPDATE versions SET prev = {link.format(memory=number, lo=lo, hi=hi)} WHERE seq = {_restore_row(ns)}"
    )
    with Admin.open(db, key=KEY) as admin:
        hidden = len(expected) - len(_pages(admin, store_id, 100, memory_id=memory_id))
    assert hidden > 0  # the edit hides versions of the memory from its listing
    code, lines = _verify(db, capsys)
    assert code == 1 and lines[0]["problems"], f"a restore's link edited to {link} hides {hidden} versions unseen"


# FINDING (medium: versions hidden from a memory's listing, `audit verify` silent): a memory's
# listing starts at ``content.head`` (or, for a deleted memory, at the newer of that and its
# deletion), and nothing checks that column: `audit verify` reads only the versions. A key
# holder who points a live memory's head at an older version of it, or at NULL, or gives a deleted
# memory a ``content`` row whose head is a newer version of another memory, hides the memory's
# newest versions (or all of them) from ``memory_versions.list(memory_id=...)`` while the chain
# check reports nothing. (The next write of the memory would then link to the edited head too.)
@pytest.mark.parametrize("edit", ["older", "null", "deleted-memory"])
def test_an_edited_head_is_named_by_audit_verify(
    restored: tuple[Path, str, str, int, list[str]], capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    db, store_id, memory_id, ns, expected = restored
    lo, hi = seq_range(ns)
    number = _number(db, ns)
    if edit == "deleted-memory":
        with Admin.open(db, key=KEY) as admin:
            admin.memories.delete(store_id, memory_id)
            other = next(m for m in admin.memories.list(store_id).data if m.path == "/o.md")
            admin.memories.update(store_id, other.id, content="other 3\n")  # a version newer than the deletion
            expected = _expected(admin, store_id, memory_id)
            assert _pages(admin, store_id, 100, memory_id=memory_id) == expected
    if edit == "older":
        _raw_edit(db, f"UPDATE content SET head = {_restore_row(ns)} WHERE id = ?", (number,))
    elif edit == "null":
        _raw_edit(db, "UPDATE content SET head = NULL WHERE id = ?", (number,))
    else:  # a row only carrying a head, as a deletion with the history off leaves one
        newest = f"(SELECT max(seq) FROM versions WHERE seq BETWEEN {lo} AND {hi})"  # the other memory's
        _raw_edit(db, f"INSERT INTO content (id, data, head) VALUES (?, x'', {newest})", (number,))
    with Admin.open(db, key=KEY) as admin:
        try:
            shown = _pages(admin, store_id, 100, memory_id=memory_id)
        except NotFound:  # every version hidden, and no file: the memory reads as unknown
            shown = []
    assert shown != expected  # the edit hides versions of the memory from its listing
    code, lines = _verify(db, capsys)
    assert code == 1 and lines[0]["problems"], f"content.head edited ({edit}) hides versions unseen"


def _bytes_read() -> int:
    with open("/proc/self/io", encoding="ascii") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("rchar:"))


BIG = ("y" * 99 + "\n") * 40_000  # a 4 MB memory: about a thousand overflow pages


# FINDING (medium, performance): ``admin.memory_stores.delete`` now runs ``DELETE FROM content
# WHERE head BETWEEN ? AND ?`` (the rows kept only for a head). ``head`` has no index, so that is
# a scan of the whole ``content`` table, every store's, and since ``head`` is stored after the
# ``data`` blob SQLite reads (and SQLCipher decrypts and authenticates) every overflow page of
# every memory in the file to reach it: deleting an empty store in a 1 GB file reads 1 GB under
# the write lock. Schema 4 deleted the store's own rows by id (a few pages).
@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts the bytes read through /proc/self/io")
def test_deleting_a_store_reads_no_other_stores_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The erasure the call makes before it returns reads the file's pages to scrub them (a handle's first
    # one reads them all, as its eraser would within a second): what is measured here is the deletion.
    from securemem.admin.support import Context

    monkeypatch.setattr(Context, "erase_now", lambda self: None)
    db = tmp_path / "p.db"
    with Admin.open(db, key=KEY) as admin:
        big = admin.memory_stores.create(name="big")
        admin.memories.write(big.id, path="/big.md", content=BIG)
        small = admin.memory_stores.create(name="small")
        admin.memories.write(small.id, path="/s.md", content="small\n")
    with Admin.open(db, key=KEY) as admin:
        admin.memory_stores.list()
        before = _bytes_read()
        admin.memory_stores.delete(small.id)
        read = _bytes_read() - before
    assert read < len(BIG) // 8, f"deleting a store of one small memory read {read} bytes"


# FINDING (low/medium, performance): a memory's listing starts at ``content.head``, a column
# stored after the ``data`` blob, so reading it reads the whole of the memory's live text, every
# overflow page decrypted: listing the versions of a 4 MB memory reads 4 MB more than before
# (with ``history.content = "metadata"``, where the versions hold no text, schema 4 read a few
# pages; schema 5 reads the file's text). Every admin update that does not go through
# ``SqlTx.get`` pays the same again in ``_HEAD``. Putting ``head`` before ``data`` (or in its own
# table) avoids it.
@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts the bytes read through /proc/self/io")
def test_listing_a_memorys_versions_does_not_read_its_text(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    metadata = _policy(content="metadata")
    with Admin.open(db, key=KEY, policy=metadata) as admin:
        store = admin.memory_stores.create(name="s")
        small = admin.memories.write(store.id, path="/small.md", content="x\n")
        big = admin.memories.write(store.id, path="/big.md", content=BIG)
    with Admin.open(db, key=KEY, policy=metadata) as admin:
        admin.memory_versions.list(store.id, memory_id=small.id)  # schema and store rows read
        before = _bytes_read()
        (version,) = admin.memory_versions.list(store.id, memory_id=big.id).data
        read = _bytes_read() - before
    assert version.operation == "created"
    assert read < len(BIG) // 8, f"listing one version of a memory read {read} bytes"
