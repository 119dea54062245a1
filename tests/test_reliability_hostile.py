"""Hostile files and keys: each failure is one clear error, writes nothing, and goes away with its cause.

Damage is never silent (SQLCipher authenticates every page with an HMAC): a store that cannot be
opened raises one StorageError subclass at open; damage beyond the first page shows as a failed
integrity check or a clean ``is_error`` result, and never as wrong content. Then the bytes,
permissions or limits are put back and the same store works again.

Read-only files as root: root ignores permission bits (chmod 0400 does not stop its writes), so
these tests use the immutable attribute (``chattr +i``), which root does respect, and fall back to
chmod when not running as root. Full disk: ``PRAGMA max_page_count`` on the store's connection,
RLIMIT_FSIZE in a forked child, and, where mounting is allowed, a real full tmpfs.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.errors import DamagedStoreError, NotAStoreError, StorageError, WrongKeyError
from tests.helpers import (
    REPO,
    State,
    aggregate_errors,
    check_clean,
    child_argv,
    connection_of,
    fork_one,
    ok,
    read_state,
    sha256_of,
)
from tests.helpers import stored as stored_at

PAGE = 4096
NOT_APPLIED = "The command was not applied."


@dataclass
class Stored:
    db: Path
    key: bytes
    state: State
    pristine: bytes


def sidecars(db: Path) -> list[Path]:
    return [Path(f"{db}-wal"), Path(f"{db}-shm")]


def put_back(stored: Stored, data: bytes | None = None) -> None:
    """The file as it was (or ``data``), with no WAL or shared memory left from an attempt."""
    for path in [stored.db, *sidecars(stored.db)]:
        path.unlink(missing_ok=True)
    stored.db.write_bytes(stored.pristine if data is None else data)


def assert_usable(stored: Stored) -> None:
    """The store opens with its content intact, passes both integrity checks, and takes writes."""
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
        assert memory.store.integrity_errors() == []
        assert read_state(memory.store).files == stored.state.files
        check_clean(memory.execute({"command": "create", "path": "/memories/again.md", "file_text": "ok\n"}))
        check_clean(
            memory.execute({"command": "str_replace", "path": "/memories/again.md", "old_str": "ok", "new_str": "fine"})
        )
        assert "fine" in check_clean(memory.execute({"command": "view", "path": "/memories/again.md"}))
        assert not memory.execute({"command": "delete", "path": "/memories/again.md"}).is_error
        assert memory.store.integrity_errors() == []


@pytest.fixture
def stored(tmp_path: Path, key: bytes) -> Stored:
    """A closed store of a dozen pages: small files in two directories and one 24 KB file."""
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key=key) as memory:
        for n in range(6):
            text = f"file {n} line\n" * (2_000 if n == 3 else 5)
            check_clean(memory.execute({"command": "create", "path": f"/memories/d{n % 2}/f{n}.md", "file_text": text}))
        state = read_state(memory.store)
    assert not any(path.exists() for path in sidecars(db)), "closing checkpoints the WAL into the file"
    return Stored(db, key, state, db.read_bytes())


@pytest.fixture(autouse=True)
def _no_immutable_leftovers(tmp_path: Path) -> Iterator[None]:
    """Whatever happens, leave no immutable file behind (pytest could not delete tmp_path)."""
    yield
    if shutil.which("chattr"):
        subprocess.run(["chattr", "-R", "-i", str(tmp_path)], capture_output=True, check=False)


# -- wrong keys ------------------------------------------------------------------------------------


@pytest.mark.parametrize("wrong", [bytes(32), "a passphrase"], ids=["raw key", "passphrase"])
def test_a_wrong_key_is_one_clear_error_and_changes_nothing(stored: Stored, wrong: bytes | str) -> None:
    before = sha256_of(stored.db)
    with pytest.raises(WrongKeyError) as caught:
        SecureMemory.open(stored.db, key=wrong, create=False)
    text = str(caught.value)
    assert "wrong key" in text and stored.key.hex() not in text and "Traceback" not in text
    if isinstance(wrong, bytes):
        assert wrong.hex() not in text
    assert sha256_of(stored.db) == before
    assert_usable(stored)


# -- damaged files ---------------------------------------------------------------------------------


def how_damage_shows(stored: Stored) -> list[str]:
    """Use a damaged store the way an application would; how the damage showed (never silently wrong).

    Fails the test if any result is unclean, any read returns content other than what was
    written, or the attempt changed the file.
    """
    before = sha256_of(stored.db)
    try:
        memory = SecureMemory.open(stored.db, key=stored.key, create=False)
    except StorageError as exc:
        assert "Traceback" not in str(exc) and stored.key.hex() not in str(exc)
        assert sha256_of(stored.db) == before
        return [f"open: {type(exc).__name__}"]
    signs = []
    with memory:
        try:
            if memory.store.integrity_errors():
                signs.append("integrity check")
        except DamagedStoreError:
            signs.append("integrity check")
        for path, text in stored.state.files.items():
            result = memory.execute({"command": "view", "path": path, "view_range": [1, 2]})
            check_clean(result)
            if result.is_error:
                assert result.text.startswith("Error: the memory store is damaged") and NOT_APPLIED in result.text
                signs.append(f"view {path}")
            else:
                first, second = text.split("\n")[:2]
                assert result.text.endswith(f"\n     1\t{first}\n     2\t{second}"), result.text
            try:
                assert stored_at(memory, path, now=0.0) == text.encode("utf-8"), (
                    f"{path}: wrong content from a damaged store"
                )
            except StorageError:
                signs.append(f"read {path}")
        check_clean(memory.execute({"command": "view", "path": "/memories"}))
    assert sha256_of(stored.db) == before, "reading a damaged store wrote to it"
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:  # a write: clean, whatever it does
        write = memory.execute({"command": "create", "path": "/memories/during.md", "file_text": "x\n"})
        assert not write.is_error or check_clean(write).startswith("Error: the memory store is damaged"), write
    return signs


# Each maps the pristine file size to where the damage is done.
TRUNCATIONS: dict[str, Callable[[int], int]] = {
    "to one page": lambda size: PAGE,
    "last page dropped (page boundary)": lambda size: size - PAGE,
    "three pages dropped (page boundary)": lambda size: size - 3 * PAGE,
    "half of the last page": lambda size: size - PAGE // 2,
    "mid-page, two and a bit pages left": lambda size: 2 * PAGE + 1000,
    "inside the first page": lambda size: 100,
}


@pytest.mark.parametrize("cut", TRUNCATIONS, ids=list(TRUNCATIONS))
def test_a_truncated_file_is_noticed_and_recovers_when_restored(stored: Stored, cut: str) -> None:
    size = len(stored.pristine)
    assert size >= 8 * PAGE
    put_back(stored, stored.pristine[: TRUNCATIONS[cut](size)])
    signs = how_damage_shows(stored)
    assert signs, "the truncation went unnoticed"
    if cut == "inside the first page":
        assert signs == ["open: WrongKeyError"]
    put_back(stored)
    assert_usable(stored)


FLIPS: dict[
    str, Callable[[int], int]
] = {  # where a single byte is flipped; the first page carries the salt, the schema and the meta table
    "page 1, salt": lambda size: 5,
    "page 1, encrypted body": lambda size: 100,
    "page 1, HMAC": lambda size: PAGE - 10,
    "page 3, body": lambda size: 2 * PAGE + 50,
    "last page, body": lambda size: size - PAGE + 200,
    "last page, IV": lambda size: size - 70,
    "last page, HMAC": lambda size: size - 20,
}


@pytest.mark.parametrize("where", FLIPS, ids=list(FLIPS))
def test_a_flipped_byte_is_noticed_and_recovers_when_restored(stored: Stored, where: str) -> None:
    data = bytearray(stored.pristine)
    data[FLIPS[where](len(data))] ^= 0x01
    put_back(stored, bytes(data))
    signs = how_damage_shows(stored)
    assert signs, "the flipped byte went unnoticed"
    if where.startswith("page 1"):  # nothing can be read without page 1: indistinguishable from a wrong key
        assert signs == ["open: WrongKeyError"]
    else:  # the integrity check finds it, or the open does when the page holds what an open reads
        assert "integrity check" in signs or signs == ["open: DamagedStoreError"], signs
    put_back(stored)
    assert_usable(stored)


def _plain_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('plaintext')")
    conn.commit()
    conn.close()


FOREIGN: dict[str, tuple[Any, type[StorageError]]] = {
    "random bytes": (lambda p: p.write_bytes(os.urandom(3 * PAGE)), WrongKeyError),
    "zeros": (lambda p: p.write_bytes(bytes(2 * PAGE)), WrongKeyError),
    "a text file": (lambda p: p.write_text("remember the milk\n" * 500), WrongKeyError),
    "ten bytes": (lambda p: p.write_bytes(b"0123456789"), NotAStoreError),  # shorter than the salt
    "a PNG": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(5000)), WrongKeyError),
    "an empty file": (lambda p: p.write_bytes(b""), NotAStoreError),
    "a plain SQLite database": (_plain_sqlite, NotAStoreError),
    "a directory": (lambda p: p.mkdir(), NotAStoreError),
}


@pytest.mark.parametrize("kind", FOREIGN, ids=list(FOREIGN))
def test_a_file_that_is_not_a_store_is_refused_untouched(tmp_path: Path, key: bytes, kind: str) -> None:
    make, error = FOREIGN[kind]
    target = tmp_path / "not-a-store.db"
    make(target)
    before = {p.name: (sha256_of(p) if p.is_file() else "dir") for p in tmp_path.iterdir()}
    for create in (False, True):  # create=True must not "repair" it into a store either
        with pytest.raises(error) as caught:
            SecureMemory.open(target, key=key, create=create)
        assert "Traceback" not in str(caught.value) and key.hex() not in str(caught.value)
    assert {p.name: (sha256_of(p) if p.is_file() else "dir") for p in tmp_path.iterdir()} == before
    # The cause gone (the foreign file moved away), the path takes a fresh store.
    shutil.move(target, tmp_path / "moved-away")
    with SecureMemory.open(target, key=key) as memory:
        check_clean(memory.execute({"command": "create", "path": "/memories/a.md", "file_text": "a\n"}))
        assert memory.store.integrity_errors() == []


# -- read-only files ------------------------------------------------------------------------------


def _chattr(flag: str, paths: list[Path]) -> bool:
    run = (
        subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, check=False)
        if shutil.which("chattr")
        else None
    )
    return run is not None and run.returncode == 0


@contextlib.contextmanager
def read_only(paths: list[Path], *, while_open: bool) -> Iterator[str]:
    """Make ``paths`` read-only in a way the current user respects; yields how.

    Root ignores permission bits, so as root this uses the immutable attribute. A file made
    read-only by chmod stays writable through a descriptor opened before, so making a store
    read-only while it is open needs chattr.
    """
    if os.geteuid() != 0 and not while_open:
        modes = {p: p.stat().st_mode for p in paths}
        for path in paths:
            path.chmod(0o400)
        try:
            yield "chmod 0400"
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    if not _chattr("+i", paths):
        pytest.skip(
            "no way to make a file read-only here: running as root without chattr +i "
            "(CAP_LINUX_IMMUTABLE, or a file system with the immutable attribute)"
        )
    try:
        yield "chattr +i"
    finally:
        assert _chattr("-i", paths)


MUTATIONS: list[dict[str, Any]] = [
    {"command": "create", "path": "/memories/new.md", "file_text": "new\n" * 2000},
    {"command": "str_replace", "path": "/memories/d0/f0.md", "old_str": "file 0 line\n" * 5, "new_str": "x\n"},
    {"command": "insert", "path": "/memories/d1/f1.md", "insert_line": 0, "insert_text": "top"},
    {"command": "rename", "old_path": "/memories/d0", "new_path": "/memories/moved"},
    {"command": "delete", "path": "/memories/d1"},
]


def test_a_read_only_store_can_be_read_but_refuses_writes_cleanly(stored: Stored) -> None:
    with read_only([stored.db], while_open=False):
        before = sha256_of(stored.db)
        with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
            assert read_state(memory.store).files == stored.state.files
            assert "file 3 line" in check_clean(memory.execute({"command": "view", "path": "/memories/d1/f3.md"}))
            for tool in MUTATIONS:
                result = memory.execute(tool)
                assert result.is_error, tool
                assert check_clean(result) == (
                    f"Error: the memory store file is read-only; check its permissions. {NOT_APPLIED}"
                )
            assert read_state(memory.store).files == stored.state.files
        assert sha256_of(stored.db) == before
    assert_usable(stored)  # reopened once the file is writable again


def test_a_store_made_read_only_while_open_fails_cleanly_and_recovers(stored: Stored) -> None:
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
        check_clean(memory.execute({"command": "view", "path": "/memories"}))  # the WAL exists now
        # Not the -shm file: it is memory-mapped, and a write to an immutable mapping is SIGBUS.
        with read_only([stored.db, Path(f"{stored.db}-wal")], while_open=True):
            for tool in MUTATIONS:
                result = memory.execute(tool)
                assert result.is_error, tool
                assert check_clean(result).startswith(
                    "Error: the memory store file could not be read or written (disk I/O error)"
                ), result.text
            assert read_state(memory.store).files == stored.state.files
            assert "file 3 line" in check_clean(memory.execute({"command": "view", "path": "/memories/d1/f3.md"}))
        # The cause gone, the same open store takes writes again.
        for tool in MUTATIONS:
            assert not memory.execute(tool).is_error, tool
        assert memory.store.integrity_errors() == []
        assert aggregate_errors(read_state(memory.store)) == []


def test_a_delete_is_reported_as_done_even_if_the_checkpoint_after_it_fails(stored: Stored) -> None:
    """Only the file itself read-only: the delete commits to the WAL, then its scrub checkpoint fails.

    The result must say what happened (deleted), not "not applied" for a delete that was applied.
    """
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
        with read_only([stored.db], while_open=True):
            result = memory.execute({"command": "delete", "path": "/memories/d0"})
            assert check_clean(result) == "Successfully deleted /memories/d0"
            assert not any(path.startswith("/memories/d0") for path in read_state(memory.store).files)
        assert memory.store.integrity_errors() == []
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
        assert not any(path.startswith("/memories/d0") for path in read_state(memory.store).files)


# -- full disk -------------------------------------------------------------------------------------


def fill_until_refused(memory: SecureMemory, prefix: str, limit: int = 100) -> tuple[list[str], list[str]]:
    """Create up to ``limit`` 24 KB files, stopping at the third refusal; (paths created, error texts).

    Every refused write must leave the store exactly as it was.
    """
    created, errors = [], []
    for n in range(limit):
        before = read_state(memory.store).files
        path = f"{prefix}/{n}.md"
        result = memory.execute({"command": "create", "path": path, "file_text": f"{n}\n" * 8_000})
        check_clean(result)
        if result.is_error:
            errors.append(result.text)
            assert read_state(memory.store).files == before, "a failed write left something behind"
            if len(errors) == 3:
                break
        else:
            created.append(path)
    return created, errors


def test_a_page_limit_refuses_writes_cleanly_and_recovers_when_raised(stored: Stored) -> None:
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
        conn = connection_of(memory.store)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        default = conn.execute("PRAGMA max_page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 20}")
        created, errors = fill_until_refused(memory, "/memories/fill")
        assert created and errors
        assert set(errors) == {
            f"Error: the memory store is full (disk or page limit reached); free space and retry. {NOT_APPLIED}"
        }
        for tool in MUTATIONS[:3]:  # growing edits are refused the same way, or fit
            check_clean(memory.execute(tool))
        assert memory.store.integrity_errors() == []
        conn.execute(f"PRAGMA max_page_count = {default}")
        more, still_failing = fill_until_refused(memory, "/memories/more")
        assert len(more) == 100 and still_failing == []
        assert memory.store.integrity_errors() == []
        assert aggregate_errors(read_state(memory.store)) == []


def _under_a_file_size_limit(db: str, key: bytes) -> dict[str, Any]:
    """In a forked child: writes under RLIMIT_FSIZE, then with the limit lifted."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
    memory = SecureMemory.open(db, key=key, create=False)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    biggest = max(os.path.getsize(p) for p in (db, f"{db}-wal", f"{db}-shm") if os.path.exists(p))
    resource.setrlimit(resource.RLIMIT_FSIZE, (biggest + 16 * 1024, hard))
    try:
        created, errors = fill_until_refused(memory, "/memories/fill")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    more, still_failing = fill_until_refused(memory, "/memories/more")
    result = {
        "created": created,
        "errors": errors,
        "more": len(more),
        "still_failing": still_failing,
        "integrity": memory.store.integrity_errors(),
        "files": sorted(read_state(memory.store).files),
    }
    memory.close()
    return result


def test_a_file_size_limit_refuses_writes_cleanly_and_recovers_when_lifted(stored: Stored, tmp_path: Path) -> None:
    outcome = fork_one(_under_a_file_size_limit, str(stored.db), stored.key, workdir=tmp_path)
    assert outcome["errors"], "the limit never bit"
    assert set(outcome["errors"]) == {
        "Error: the memory store file could not be read or written (disk I/O error); check the disk, its free "
        f"space, file size limits and the file's permissions. {NOT_APPLIED}"
    }
    assert outcome["more"] == 100 and outcome["still_failing"] == [] and outcome["integrity"] == []
    with SecureMemory.open(stored.db, key=stored.key, create=False) as memory:
        assert sorted(read_state(memory.store).files) == outcome["files"]
        assert memory.store.integrity_errors() == []


@contextlib.contextmanager
def small_tmpfs(where: Path, size_kb: int) -> Iterator[Path]:
    where.mkdir()
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs CAP_SYS_ADMIN): {mount.stderr.strip()}")
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True, check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def test_the_wals_room_is_given_back_when_the_disk_cannot_hold_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # After a checkpoint the emptied WAL is filled with zeros (its room, so that commits overwrite
    # it). Where the disk has less room than that, the zeros written are taken back at once: the
    # store needs the space more, and an empty WAL is as good as a zeroed one.
    from securemem.store import sqlcipher

    with small_tmpfs(tmp_path / "fs", 512) as fs:
        wal = fs / "m.db-wal"
        wal.touch(mode=0o600)
        sqlcipher._give_room(wal, sqlcipher.wal_bytes(sqlcipher.ROOM_FRAMES))  # 16 MB on a 512 KB disk
        assert wal.stat().st_size == 0
        assert "could not give the WAL its room back" in caplog.text
        room = sqlcipher.wal_bytes(sqlcipher.MIN_ROOM_FRAMES)  # about 260 KB: it fits
        sqlcipher._give_room(wal, room)
        assert wal.stat().st_size == room and wal.read_bytes() == bytes(room)


def test_on_a_full_disk_a_write_the_file_cannot_take_is_refused_and_deletes_are_still_erased(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The zeros of the WAL's room let a write in on a full disk (it overwrites them), but the checkpoint
    # that erases what later deletes free must then grow the store file to the pages the WAL holds: it
    # failed for want of space, and the deleted text stayed decryptable in the WAL until space came back
    # (an attacker's round: ten deletes after a 200 KB create, all answered "deleted"). Such a write is
    # refused now, as any write on a full disk, and the deletes' text is erased.
    from securemem.policy import HistorySettings, Policy, StorageSettings
    from securemem.store import pages, sqlcipher
    from tests.helpers import err, ok, sqlcipher_of
    from tests.sqlcipher_pages import plaintext_of

    monkeypatch.setattr(sqlcipher, "COMPACT_FRAMES", 200)
    policy = Policy(history=HistorySettings(content="metadata"), storage=StorageSettings(erase_within=60.0))
    with small_tmpfs(tmp_path / "fs", 12 * 1024) as fs:
        db = fs / "m.db"
        wal = Path(f"{db}-wal")
        with SecureMemory.open(db, key=key, policy=policy) as memory:
            store = sqlcipher_of(memory.store)
            setattr(store._eraser, "soon", lambda: None)  # the test checkpoints, once, after the burst
            for i in range(60):
                ok(memory, command="create", path=f"/memories/b/{i:03d}.md", file_text=f"BULK{i:03d} " * 2000)
            for i in range(10):
                ok(memory, command="create", path=f"/memories/s/{i}.md", file_text=f"SECRET{i}MARK " * 400)
            assert store._checkpoint(5.0)
            used = pages.wal_frames(wal)
            assert wal.stat().st_size - sqlcipher.wal_bytes(used) > 200 * 1024  # a room of zeros to write into
            fd = os.open(fs / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
            with contextlib.suppress(OSError):
                while os.write(fd, bytes(PAGE)):  # the disk is full now
                    pass
            os.close(fd)
            refused = err(memory, command="create", path="/memories/big.md", file_text="BIGMARK " * 25000)
            full = "Error: the memory store is full (disk or page limit reached); free space and retry."
            assert refused == f"{full} {NOT_APPLIED}"
            for i in range(10):
                ok(memory, command="delete", path=f"/memories/s/{i}.md")
            memory.store.flush_erasure()
            assert memory.store.integrity_errors() == []
        found = plaintext_of(db, key)
    assert b"BULK059" in found and b"BIGMARK" not in found
    assert [i for i in range(10) if f"SECRET{i}MARK".encode() in found] == []


def test_a_delete_whose_own_frames_take_the_last_space_is_still_erased(tmp_path: Path, key: bytes) -> None:
    # A review of the space check: it weighed the store file's pending growth (writes still in the WAL)
    # against the free space, not the WAL frames the delete itself appends; with free space between the two,
    # the deletes answered "deleted" and the checkpoint that erases them could not grow the file. A write on a
    # disk nearly full now copies the WAL into the file first, so only its own growth is pending.
    from securemem.policy import HistorySettings, Policy
    from tests.helpers import connection_of, ok
    from tests.sqlcipher_pages import plaintext_of

    with small_tmpfs(tmp_path / "fs", 8 * 1024) as fs:
        db = fs / "s.db"
        with SecureMemory.open(db, key=key, policy=Policy(history=HistorySettings(versions=False))) as memory:
            for i in range(3):
                ok(memory, command="create", path=f"/memories/a{i}.md", file_text="x\n")
            for i in range(6):  # pending growth: pages in the WAL past the store file's end
                ok(memory, command="create", path=f"/memories/T{i}.md", file_text=f"TOPSECRET-{i} " * 4000)
            grows = int(connection_of(memory.store).execute("PRAGMA page_count").fetchone()[0]) * PAGE
            grows -= db.stat().st_size
            assert grows >= 4 * PAGE

            def free() -> int:
                found = os.statvfs(fs)
                return found.f_bfree * found.f_frsize

            with (fs / "filler").open("ab") as filler:  # free space: the pending growth and 50 KB
                while free() > grows + 50_000:
                    filler.write(bytes(PAGE))
                    filler.flush()
            for i in range(6):
                ok(memory, command="delete", path=f"/memories/T{i}.md")
            memory.store.flush_erasure()
        found = plaintext_of(db, key)
    assert [i for i in range(6) if f"TOPSECRET-{i} ".encode() in found] == []


def test_a_really_full_disk_refuses_writes_cleanly_and_recovers_when_space_is_freed(tmp_path: Path, key: bytes) -> None:
    with small_tmpfs(tmp_path / "fs", 1024) as fs:
        db = fs / "m.db"
        with SecureMemory.open(db, key=key) as memory:
            check_clean(memory.execute({"command": "create", "path": "/memories/keep.md", "file_text": "keep\n"}))
            filler = fs / "filler"
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            with contextlib.suppress(OSError):
                while os.write(fd, bytes(PAGE)):  # fill every block the store does not hold yet
                    pass
            os.close(fd)
            created, errors = fill_until_refused(memory, "/memories/fill")
            assert errors and set(errors) == {
                f"Error: the memory store is full (disk or page limit reached); free space and retry. {NOT_APPLIED}"
            }
            filler.unlink()
            more, still_failing = fill_until_refused(memory, "/memories/more", limit=5)
            assert len(more) == 5 and still_failing == []
            assert memory.store.integrity_errors() == []
            files = read_state(memory.store).files
            assert set(files) == {"/memories/keep.md", *created, *more}
        with SecureMemory.open(db, key=key, create=False) as memory:
            assert read_state(memory.store).files == files


def test_a_store_on_read_only_media_that_owes_a_scrub_says_so_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A writer crashed between its checkpoint and its scrub; the disk is then mounted read-only.
    An open there reads as usual; it cannot erase, and says so once instead of retrying all along
    (and its close waiting for the busy timeout)."""
    from tests.test_erasure_scrub import _churn_then_die_before_the_scrub

    key = os.urandom(32)
    with small_tmpfs(tmp_path / "fs", 64 * 1024) as fs:
        db = fs / "c.db"
        argv = child_argv(_churn_then_die_before_the_scrub, str(db), key.hex(), "1")
        crashed = subprocess.run(argv, cwd=REPO, timeout=120, stdout=subprocess.PIPE, text=True)
        assert crashed.returncode == -signal.SIGKILL
        subprocess.run(["mount", "-o", "remount,ro", str(fs)], check=True)
        try:
            with caplog.at_level("WARNING", logger="securemem.store"):
                memory = SecureMemory.open(db, key=key, create=False)
                assert "/memories" in ok(memory, command="view", path="/memories")
                memory.execute({"command": "view", "path": "/memories"})
                memory.close()
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(fs)], check=True)
    said = [record.getMessage() for record in caplog.records]
    assert sum("cannot be written here" in line for line in said) == 1, said
    assert [line for line in said if "erasure checkpoint failed" in line] == []
