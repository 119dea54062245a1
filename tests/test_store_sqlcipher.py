"""The SQLCipher store: fail closed, tell bad files apart, leave nothing readable behind."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path

import pytest
import sqlcipher3

from securemem import SecureMemory
from securemem.errors import DamagedStoreError, NotAStoreError, StorageError, WrongKeyError
from securemem.keys import RawKey, as_key_provider
from securemem.policy import HistorySettings, Policy
from securemem.store import pages
from securemem.store.sqlcipher import SQLCipherStore
from tests.helpers import REPO, T0, child_argv, connection_of, create, entry_of, raw_edit, sha256_of, sqlcipher_of
from tests.sqlcipher_pages import plaintext_of

MARKER = "ZEBRA-MARKER-7f3a91"


def test_marker_never_on_disk_but_readable_with_key(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=key) as mem:
        create(mem, f"/memories/{MARKER}.md", f"secret {MARKER}\n")
        # Checked while the store is open, so the WAL still holds the frames.
        raw = db.read_bytes() + Path(f"{db}-wal").read_bytes()
        assert MARKER.encode() not in raw
        assert not raw.startswith(b"SQLite format 3")
        # The page decryptor works: the marker is there once decrypted with the key.
        assert MARKER.encode() in plaintext_of(db, key)


def test_deleted_content_does_not_linger_in_free_pages_or_wal(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=key, policy=Policy(history=HistorySettings(versions=False))) as mem:
        create(mem, "/memories/keep.md", "kept\n")
        create(mem, "/memories/gone/secret.md", (MARKER + "\n") * 500)
        assert not mem.execute({"command": "delete", "path": "/memories/gone"}).is_error
        mem.store.flush_erasure()  # what the store does within its erasure bound, done now
        plain = plaintext_of(db, key)
    assert MARKER.encode() not in plain
    assert b"kept" in plain


def test_store_is_durable_and_versioned(tmp_path: Path) -> None:
    store = SQLCipherStore.open(tmp_path / "m.db", RawKey(os.urandom(32)))
    try:
        conn = connection_of(store)
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
        assert store.meta["format"] == "securemem" and store.meta["schema_version"] == "5"
        assert store.store_id.startswith("memstore_") and len(store.store_id) == 33
    finally:
        store.close()
    assert (tmp_path / "m.db").stat().st_mode & 0o077 == 0


def test_refuses_to_run_without_sqlcipher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The trap: the stdlib sqlite3 accepts PRAGMA key and silently writes plaintext.
    monkeypatch.setattr("securemem.store.sqlcipher.sqlcipher3.connect", sqlite3.connect)
    db = tmp_path / "m.db"
    with pytest.raises(StorageError, match="SQLCipher is not active"):
        SQLCipherStore.open(db, RawKey(os.urandom(32)))
    assert not db.exists() or db.stat().st_size == 0


@pytest.mark.parametrize("content", [b"", b"SQLite format 3\x00" + b"\x00" * 4080])
def test_empty_and_plain_files_are_not_stores(tmp_path: Path, content: bytes) -> None:
    db = tmp_path / "m.db"
    db.write_bytes(content)
    before = sha256_of(db)
    with pytest.raises(NotAStoreError):
        SecureMemory.open(db, key=os.urandom(32))
    assert sha256_of(db) == before


def test_real_plain_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.commit()
    before = sha256_of(db)
    with pytest.raises(NotAStoreError, match="unencrypted SQLite"):
        SecureMemory.open(db, key="a passphrase")
    assert sha256_of(db) == before


def test_wrong_key_and_random_bytes(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key=os.urandom(32)) as mem:
        create(mem, "/memories/a.md", "a\n")
    before = sha256_of(db)
    wrong = os.urandom(32)
    with pytest.raises(WrongKeyError) as caught:
        SecureMemory.open(db, key=wrong)
    assert wrong.hex() not in str(caught.value)
    assert sha256_of(db) == before
    noise = tmp_path / "noise.db"
    noise.write_bytes(os.urandom(8192))
    with pytest.raises(WrongKeyError):
        SecureMemory.open(noise, key=os.urandom(32))


def test_encrypted_database_that_is_not_a_securemem_store(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "other.db"
    conn = sqlcipher3.connect(str(db))
    conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAStoreError, match="not a securemem store"):
        SecureMemory.open(db, key=key)


def test_flipped_byte_in_a_data_page_is_reported_as_damage(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=key) as mem:
        create(mem, "/memories/big.md", "x" * 40_000)
    data = bytearray(db.read_bytes())
    last_page = len(data) - 4096
    data[last_page + 100] ^= 0xFF
    db.write_bytes(bytes(data))
    store = SQLCipherStore.open(db, RawKey(key), create=False)
    try:
        with pytest.raises(DamagedStoreError):
            store.integrity_errors()
    finally:
        store.close()


def test_passphrase_uses_the_file_salt_and_opens_again(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key="correct horse battery staple") as mem:
        create(mem, "/memories/a.md", "a\n")
    with SecureMemory.open(db, key="correct horse battery staple") as mem:
        assert "a" in str(mem.execute({"command": "view", "path": "/memories/a.md"}).content)
    with pytest.raises(WrongKeyError):
        SecureMemory.open(db, key="correct horse battery stapler")


def test_missing_store_is_not_created_when_create_is_false(tmp_path: Path) -> None:
    with pytest.raises(NotAStoreError, match="securemem init"):
        SecureMemory.open(tmp_path / "nope.db", key=os.urandom(32), create=False)
    assert not (tmp_path / "nope.db").exists()


def test_rekey_switches_keys(tmp_path: Path) -> None:
    old, new, db = os.urandom(32), os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=old) as mem:
        create(mem, "/memories/a.md", MARKER)
    store = SQLCipherStore.open(db, as_key_provider(old), create=False)
    store.rekey(as_key_provider(new))
    store.close()
    with pytest.raises(WrongKeyError):
        SecureMemory.open(db, key=old)
    with SecureMemory.open(db, key=new) as mem:
        assert MARKER in str(mem.execute({"command": "view", "path": "/memories/a.md"}).content)
    assert MARKER.encode() in plaintext_of(db, new)


def test_sqlcipher_writes_nothing_to_stderr_on_a_wrong_key(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key=os.urandom(32)) as mem:
        create(mem, "/memories/a.md", "a")
    code = (
        "import os, sys; from securemem import SecureMemory\n"
        "try:\n    SecureMemory.open(sys.argv[1], key=os.urandom(32))\n"
        "except Exception as e:\n    print(type(e).__name__)\n"
    )
    run = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "WrongKeyError"
    assert run.stderr == ""


EDITS = 60


def _append_lines(db: str, key_hex: str, tag: str) -> None:
    with SecureMemory.open(db, key=bytes.fromhex(key_hex)) as mem:
        for i in range(EDITS):
            view = mem.execute({"command": "view", "path": "/memories/shared.md"})
            lines = str(view.content).count("\n")
            result = mem.execute(
                {"command": "insert", "path": "/memories/shared.md", "insert_line": lines, "insert_text": f"{tag}-{i}"}
            )
            if result.is_error:  # the file grew between view and insert: the bound is exact
                result = mem.execute(
                    {
                        "command": "str_replace",
                        "path": "/memories/shared.md",
                        "old_str": "HEAD\n",
                        "new_str": f"HEAD\n{tag}-{i}\n",
                    }
                )
            assert not result.is_error, result.content


@pytest.mark.slow
def test_two_processes_editing_one_file_lose_no_update(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=key) as mem:
        create(mem, "/memories/shared.md", "HEAD\n")
    procs = [subprocess.Popen(child_argv(_append_lines, str(db), key.hex(), tag), cwd=REPO) for tag in ("A", "B")]
    assert [p.wait(timeout=180) for p in procs] == [0, 0]
    with SecureMemory.open(db, key=key) as mem:
        text = str(mem.execute({"command": "view", "path": "/memories/shared.md", "view_range": [1, -1]}).content)
    for tag in ("A", "B"):
        assert sum(f"\t{tag}-" in line for line in text.splitlines()) == EDITS


def test_writes_are_stamped_with_the_injected_clock(tmp_path: Path) -> None:
    ticks = iter([100.0, 200.0, 300.0])
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), clock=lambda: next(ticks)) as mem:
        create(mem, "/memories/a.md", "a")
        entry = entry_of(mem, "/memories/a.md", now=time.time())
    assert entry is not None and entry.created == 100.0


def test_hostile_passphrase_is_never_spliced_into_sql(tmp_path: Path) -> None:
    # The passphrase is stretched to bytes and reaches SQLCipher as app-made hex only, so quotes
    # and SQL in it are just characters of a passphrase.
    hostile = "x'; ATTACH DATABASE 'evil.db' AS e; --\"'"
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key=hostile) as mem:
        create(mem, "/memories/a.md", MARKER)
    with SecureMemory.open(db, key=hostile) as mem:
        assert MARKER in str(mem.execute({"command": "view", "path": "/memories/a.md"}).content)
    assert not (tmp_path / "evil.db").exists() and not Path("evil.db").exists()


def test_key_material_never_shows_in_repr() -> None:
    raw = os.urandom(32)
    assert raw.hex() not in repr(RawKey(raw))
    assert "hunter2-passphrase" not in repr(as_key_provider("hunter2-passphrase"))
    with pytest.raises(Exception, match="32 bytes"):
        RawKey(b"short")


# -- stores written by the previous release ---------------------------------------------------------

V1_STORE = Path(__file__).parent / "data" / "v1" / "store-v1.db"
V1_KEY = bytes(range(32))  # the fixture's published test key: it holds nothing secret


def test_a_store_written_by_the_previous_release_migrates_on_open(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copyfile(V1_STORE, db)
    os.chmod(db, 0o600)
    with SecureMemory.open(db, key=V1_KEY, clock=lambda: 1_800_000_100.0) as mem:
        assert sqlcipher_of(mem.store).meta["schema_version"] == "5"
        assert mem.execute({"command": "view", "path": "/memories/notes/a.md"}).text.endswith("1\talpha\n     2\tbeta")
        listing = mem.execute({"command": "view", "path": "/memories"}).text
        assert "/memories/notes/deep/" in listing and "/memories/日本語/" in listing and "empty.md" not in listing
        assert entry_of(mem, "/memories/notes/deep/b.md", now=1_800_000_100.0) is not None
        other = mem.in_namespace("user-42")
        assert other.execute({"command": "view", "path": "/memories/x/y.md"}).text.endswith("1\tother namespace")
        assert mem.store.integrity_errors() == []
        # the migrated totals are exact: the quota sees what the files hold
        with mem.store.transaction("default", write=False, clock=time.time) as tx:
            usage = tx.usage()
        expected = len("alpha\nbeta\n") + len("gamma\r\ndelta\r\n") + len("call back\n") + len("メモ\n".encode())
        assert usage.content_bytes == expected and usage.files == 4
        # and every command works on the migrated store
        assert not mem.execute({"command": "rename", "old_path": "/memories/notes", "new_path": "/memories/n"}).is_error
        assert not mem.execute({"command": "delete", "path": "/memories/n/deep"}).is_error
    with SecureMemory.open(db, key=V1_KEY) as again:  # a second open finds schema 3 and migrates nothing
        assert again.execute({"command": "view", "path": "/memories/n/a.md"}).text.endswith("2\tbeta")


# -- files and their modes ---------------------------------------------------------------------------


def test_every_file_the_store_makes_is_0600_from_its_first_byte(tmp_path: Path) -> None:
    previous = os.umask(0o022)  # a common umask: files would be 0644 if created by default
    try:
        db = tmp_path / "m.db"
        with SecureMemory.open(db, key=os.urandom(32)) as mem:
            create(mem, "/memories/a.md", "a")
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    finally:
        os.umask(previous)
    assert modes == {"m.db": 0o600, "m.db-wal": 0o600, "m.db-shm": 0o600}


def test_side_files_follow_the_store_file_mode(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=key) as mem:
        create(mem, "/memories/a.md", "a")
    shm = Path(f"{db}-shm")
    shm.touch()
    os.chmod(shm, 0o400)  # what a read under chmod 400 leaves behind
    with SecureMemory.open(db, key=key) as mem:  # the store is 0600 again: writes work at once
        create(mem, "/memories/b.md", "b")
        assert stat.S_IMODE(shm.stat().st_mode) == 0o600


def _immutable(folder: Path, on: bool) -> bool:
    """chattr +i / -i: what makes a directory read-only even for root (who ignores mode bits)."""
    flag = "+i" if on else "-i"
    return subprocess.run(["chattr", flag, str(folder)], capture_output=True).returncode == 0


def test_a_read_only_directory_is_reported_as_such(tmp_path: Path) -> None:
    key, folder = os.urandom(32), tmp_path / "ro"
    folder.mkdir()
    with SecureMemory.open(folder / "m.db", key=key) as mem:
        create(mem, "/memories/a.md", "a")
    for side in ("m.db-wal", "m.db-shm"):
        (folder / side).unlink(missing_ok=True)
    if not _immutable(folder, True):
        pytest.skip("chattr +i is not available here (needs root and a file system with attributes)")
    try:
        for db in (folder / "m.db", folder / "new.db"):  # an existing store, and a store to create
            with pytest.raises(StorageError) as caught:
                SecureMemory.open(db, key=key)
            assert f"the directory {folder} is read-only" in str(caught.value)
    finally:
        _immutable(folder, False)


# -- re-keyed under a running process ----------------------------------------------------------------


def test_a_handle_opened_before_a_rekey_says_re_keyed_not_damaged(tmp_path: Path) -> None:
    old, new, db = os.urandom(32), os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=old) as first:
        create(first, "/memories/a.md", "before the rekey")
        second = SecureMemory.open(db, key=old)
        rekeyer = SQLCipherStore.open(db, RawKey(old), create=False)
        rekeyer.rekey(RawKey(new))
        rekeyer.close()
        for memory in (first, second):
            result = memory.execute({"command": "view", "path": "/memories/a.md"})
            assert result.is_error and "re-keyed" in result.text and "damaged" not in result.text
        second.close()
    with SecureMemory.open(db, key=new) as memory:
        assert memory.execute({"command": "view", "path": "/memories/a.md"}).text.endswith("before the rekey")


def rekey_slowly(db: str, ready: str) -> None:
    """A key change as ``securemem rekey`` makes one, its last move held back: under the key-change lock,
    the store re-encrypted under ``DB.key.new``, then a second before that file takes ``DB.key``'s place."""
    from securemem.keys import KeyFile, create_key_file
    from securemem.store.keylock import key_change

    with key_change(db):
        create_key_file(f"{db}.key.new")
        store = SQLCipherStore.open(db, KeyFile(f"{db}.key"), create=False)
        store.rekey(KeyFile(f"{db}.key.new"))
        store.close()
        Path(ready).touch()
        time.sleep(1.0)
        os.replace(f"{db}.key.new", f"{db}.key")


def test_a_reopen_during_a_key_change_waits_for_the_new_key_file(tmp_path: Path) -> None:
    # A handle told "re-keyed, reopen it" reopened at once with the key file the change had not moved
    # into place yet: "does not open ... or its first page is damaged" (an attacker's round).
    from securemem.keys import KeyFile, create_key_file

    db, ready = tmp_path / "m.db", tmp_path / "ready"
    create_key_file(f"{db}.key")
    with SecureMemory.open(db, key=KeyFile(f"{db}.key")) as memory:
        create(memory, "/memories/a.md", "before the rekey")
    child = subprocess.Popen(child_argv(rekey_slowly, str(db), str(ready)), cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ready.exists()
        with SecureMemory.open(db, key=KeyFile(f"{db}.key")) as memory:  # waits for the move, then reads it
            assert memory.execute({"command": "view", "path": "/memories/a.md"}).text.endswith("before the rekey")
    finally:
        assert child.wait(timeout=60) == 0
    with pytest.raises(WrongKeyError):  # no change under way: a wrong key is said at once
        SecureMemory.open(db, key=os.urandom(32))


def test_every_command_after_a_rekey_keeps_saying_re_keyed(tmp_path: Path) -> None:
    """SQLite answers "read-only" after its first failed read of a re-keyed file; the message stays."""
    old, new, db = os.urandom(32), os.urandom(32), tmp_path / "m.db"
    with SecureMemory.open(db, key=old) as memory:
        create(memory, "/memories/a.md", "before the rekey")
        rekeyer = SQLCipherStore.open(db, RawKey(old), create=False)
        rekeyer.rekey(RawKey(new))
        rekeyer.close()
        commands: list[dict[str, object]] = [
            {"command": "view", "path": "/memories/a.md"},
            {"command": "view", "path": "/memories/a.md"},
            {"command": "create", "path": "/memories/b.md", "file_text": "b"},
            {"command": "delete", "path": "/memories/a.md"},
            {"command": "view", "path": "/memories"},
        ]
        results = [memory.execute(command) for command in commands]
        assert [(r.is_error, r.error) for r in results] == [(True, "RekeyedError")] * len(commands)
        assert all("re-keyed" in r.text and "read-only" not in r.text for r in results)


def test_a_rekey_not_yet_checkpointed_is_re_keyed_not_damaged_nor_read_only(tmp_path: Path) -> None:
    # A big store's re-key commits into the WAL and then spends seconds copying it back: meanwhile
    # the head of the file keeps the old salt, and only the WAL's first page has the new one.
    old, new, salt, db = os.urandom(32), os.urandom(32), os.urandom(16), tmp_path / "m.db"
    with SecureMemory.open(db, key=old) as first:
        create(first, "/memories/a.md", "before the rekey")
        rekeyer = SQLCipherStore.open(db, RawKey(old), create=False)
        conn = connection_of(rekeyer)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute(f"PRAGMA rekey = \"x'{new.hex()}{salt.hex()}'\"")  # no checkpoint after it
        assert db.read_bytes()[:16] != salt  # the window is there: the new salt is in the WAL only
        for _ in range(3):
            result = first.execute({"command": "create", "path": "/memories/b.md", "file_text": "x"})
            assert result.is_error and "re-keyed" in result.text, result.text
        rekeyer.close()
    with SecureMemory.open(db, key=new) as memory:
        assert memory.execute({"command": "view", "path": "/memories/a.md"}).text.endswith("before the rekey")


def _open_old_store(db: str) -> str:
    with SecureMemory.open(db, key=V1_KEY, create=False) as mem:
        return mem.execute({"command": "view", "path": "/memories/notes/a.md"}).text


def test_two_processes_opening_an_old_store_at_once_migrate_it_once(tmp_path: Path) -> None:
    from tests.helpers import fork_all

    db = tmp_path / "old.db"
    shutil.copyfile(V1_STORE, db)
    os.chmod(db, 0o600)
    views = fork_all([(_open_old_store, (str(db),)) for _ in range(3)], tmp_path)
    assert all(view.endswith("1\talpha\n     2\tbeta") for view in views), views
    with SecureMemory.open(db, key=V1_KEY) as mem:
        assert mem.store.integrity_errors() == []


# -- the store file removed or replaced under an open handle --------------------------------------


def _unlink_store(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


def _replace_store(db: Path) -> None:
    other = db.with_name("other.db")
    SecureMemory.open(other, key=os.urandom(32)).close()
    os.replace(other, db)


@pytest.mark.parametrize("change", [_unlink_store, _replace_store], ids=["removed", "replaced"])
def test_a_write_to_a_store_file_removed_or_replaced_fails_instead_of_vanishing(tmp_path: Path, change: object) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    memory = SecureMemory.open(db, key=key)
    try:
        create(memory, "/memories/a.md", "a")
        assert callable(change)
        change(db)
        result = memory.execute({"command": "create", "path": "/memories/important.md", "file_text": "must survive"})
        assert result.is_error and "the memory store file was removed or replaced" in result.text
        assert "reopen" in result.text
        later = memory.execute({"command": "delete", "path": "/memories/a.md"})
        assert later.is_error and "removed or replaced" in later.text
    finally:
        memory.close()


def _restore_a_copy(db: Path) -> None:
    """An operator puts back a copy of the store: the same key, the same namespaces, another file."""
    copy = db.with_name("copy.db")
    shutil.copy(db, copy)
    os.replace(copy, db)


def test_dropping_a_namespace_in_a_replaced_file_fails_and_drops_nothing(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    memory = SecureMemory.open(db, key=key, namespace="user-42")
    try:
        create(memory, "/memories/profile.md", "personal")
        memory.store.flush_erasure()
        _restore_a_copy(db)
        with pytest.raises(StorageError, match="removed or replaced"):
            memory.store.drop_namespace("user-42")
        with pytest.raises(StorageError, match="removed or replaced"):
            sqlcipher_of(memory.store).rekey(RawKey(os.urandom(32)))
    finally:
        memory.close()
    with SecureMemory.open(db, key=key, namespace="user-42") as again:  # the copy is whole, under its key
        assert "personal" in again.execute({"command": "view", "path": "/memories/profile.md"}).text


def test_a_handle_whose_file_was_replaced_never_scrubs_the_store_now_at_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, db = os.urandom(32), tmp_path / "m.db"
    scrubbed: list[Path] = []
    real = pages.scrub_file

    def spy(path: Path, codec: pages.PageCodec, only: Collection[int] | None = None) -> int:
        scrubbed.append(path)
        return real(path, codec, only)

    monkeypatch.setattr(pages, "scrub_file", spy)
    stale = SecureMemory.open(db, key=key)
    try:
        create(stale, "/memories/a.md", "a\n" * 50)
        stale.store.flush_erasure()
        assert scrubbed  # the control: an erasure scrubs
        scrubbed.clear()
        stale.execute({"command": "delete", "path": "/memories/a.md"})  # an erasure is now due
        _restore_a_copy(db)  # the same key: its pages would verify under this handle's codec
        stale.store.flush_erasure()
        assert scrubbed == []
        assert not Path(f"{db}-scrub").exists()
    finally:
        stale.close()


# -- memory numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("versions", [True, False], ids=["history", "no-history"])
def test_a_memory_number_is_never_given_twice(tmp_path: Path, versions: bool) -> None:
    """The newest memory deleted, swept or taken with its store: the next one still gets a new number
    (an admin's id for the old memory must never reach a new one), with or without the history."""
    clock = [T0]
    policy = Policy.model_validate(
        {"ttl": {"expire_after": 60, "since": "write"}, "history": {"versions": versions}, "name": "p"}
    )
    db = tmp_path / "n.db"
    with SecureMemory.open(db, key=b"n" * 32, policy=policy, clock=lambda: clock[0]) as mem:
        seen: list[int] = []

        def make(path: str, where: SecureMemory = mem) -> int:
            create(where, path)
            found = entry_of(where, path, now=clock[0])
            assert found is not None
            seen.append(found.memory)
            return found.memory

        make("/memories/a.md")
        make("/memories/b.md")
        mem.execute({"command": "delete", "path": "/memories/b.md"})  # the newest number goes
        make("/memories/c.md")
        clock[0] += 120  # everything expires; a sweep takes it
        assert mem.sweep().deleted == 2
        make("/memories/d.md")
        other = mem.in_namespace("other")
        make("/memories/x.md", other)
        assert mem.store.drop_namespace("other")
        make("/memories/e.md")
    assert seen == sorted(set(seen)), seen
    with SecureMemory.open(db, key=b"n" * 32, policy=policy, clock=lambda: clock[0]) as again:
        create(again, "/memories/f.md")
        found = entry_of(again, "/memories/f.md", now=clock[0])
        assert found is not None and found.memory > seen[-1]


class _Recording:
    """The store's connection wrapped as the benchmarks wrap it, recording every statement, its cursors' too."""

    def __init__(self, conn: object) -> None:
        self._conn = conn
        self.seen: list[str] = []

    def execute(self, sql: str, *args: object) -> object:
        self.seen.append(sql.split(maxsplit=1)[0])
        return self._conn.execute(sql, *args)  # type: ignore[attr-defined]

    def cursor(self) -> _RecordingCursor:
        return _RecordingCursor(self._conn.cursor(), self)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


class _RecordingCursor:
    def __init__(self, cursor: object, on: _Recording) -> None:
        self._cursor = cursor
        self._on = on

    def execute(self, sql: str, *args: object) -> object:
        self._on.seen.append(sql.split(maxsplit=1)[0])
        return self._cursor.execute(sql, *args)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._cursor, name)


def test_a_connection_swapped_in_carries_every_statement_of_a_view(tmp_path: Path) -> None:
    # BEGIN, data_version, the lookup and COMMIT run on a cursor the store keeps: one of the
    # connection it has now, so a wrapper put in its place (the benchmarks count and time
    # statements so) still sees all four.
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32)) as mem:
        create(mem, "/memories/a.md", "x\n")
        assert not mem.execute({"command": "view", "path": "/memories/a.md"}).is_error
        store = sqlcipher_of(mem.store)
        recording = _Recording(store._conn)
        store._conn = recording
        assert not mem.execute({"command": "view", "path": "/memories/a.md"}).is_error
        store._conn = recording._conn
    assert recording.seen == ["BEGIN", "PRAGMA", "SELECT", "COMMIT"]


@pytest.mark.parametrize(
    ("edit", "command"),
    [
        # Pages that decrypt (the editor held the key) with values of the wrong type: each used to be
        # an "internal error", or worse, 42 zero bytes shown as the file.
        ("UPDATE content SET data = 'plain text'", {"command": "view", "path": "/memories/a.md"}),
        ("UPDATE content SET data = 42", {"command": "view", "path": "/memories/a.md"}),
        (
            "UPDATE content SET data = 42",
            {"command": "str_replace", "path": "/memories/a.md", "old_str": "x", "new_str": "y"},
        ),
        ("UPDATE entries SET size = 'big' WHERE name = 'a.md'", {"command": "view", "path": "/memories"}),
        ("UPDATE entries SET size = 'big' WHERE name = 'a.md'", {"command": "view", "path": "/memories/a.md"}),
    ],
)
def test_a_row_of_the_wrong_type_is_reported_as_damage(tmp_path: Path, edit: str, command: dict[str, str]) -> None:
    db, key = tmp_path / "m.db", os.urandom(32)
    with SecureMemory.open(db, key=key) as memory:
        assert not memory.execute({"command": "create", "path": "/memories/a.md", "file_text": "hello\n"}).is_error
    raw_edit(db, key, edit)
    with SecureMemory.open(db, key=key) as memory:
        result = memory.execute(command)
    assert result.is_error
    assert "the memory store is damaged (a row of its" in str(result.content), result.content
