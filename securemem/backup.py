"""Encrypted backups: one file, a consistent snapshot under its own fresh DEK, wrapped by chosen KEKs.

A backup file is::

    b"SECUREMEM-BACKUP1\\n" | header length (8 bytes, big-endian) | key header | SQLCipher file | MAC

The key header has the format of ``DB.keys`` (keys/header.py): the backup's own DEK sealed by
each KEK the operator named, the snapshot's salt and the store id. The SQLCipher file is the
store as it was when the backup began (``sqlcipher_export`` in one read transaction, written
already encrypted under the backup's DEK: no plaintext at any point, not even in a temp file).
The MAC (HMAC-SHA256 under a key derived from the backup's DEK) covers everything before it, so
a truncated or edited backup is refused before anything is restored.

``restore`` writes a new store (never over an existing one) whose DEK is the backup's, wrapped
by the same KEKs; ``verify_backup`` checks a backup end to end without restoring it (the
snapshot is opened from a private temporary copy of its encrypted bytes).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import os
import re
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from securemem import audit
from securemem.custody import actor
from securemem.errors import KeyHeaderError, RefusedError, StorageError, WrongKekError, WrongKeyError
from securemem.keys import KEY_BYTES, RawKey
from securemem.keys.header import MAX_BYTES, Entry, Header, keys_path, parse_header, serialize, utc_stamp, write_header
from securemem.keys.kek import KekProvider
from securemem.keys.raw import SALT_BYTES
from securemem.private_files import create_private
from securemem.store.sqlcipher import (
    LEFTOVER,
    REPLAYED,
    SIDE_FILES,
    SQLCipherStore,
    file_salt,
    leftover_side_file,
)

MAGIC = b"SECUREMEM-BACKUP1\n"
CHUNK = 1 << 20


def _mac_key(dek: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"securemem backup mac v1").derive(dek)


@dataclass(frozen=True)
class Opened:
    """A backup whose header a KEK opened: where its snapshot starts and how long it is."""

    path: Path
    header: Header
    dek: bytes
    used: Entry
    start: int
    length: int


def make_backup(store: SQLCipherStore, out: str | os.PathLike[str], keks: list[KekProvider]) -> Header:
    """Write a backup of ``store`` to ``out`` (never over an existing file), wrapped by ``keks``."""
    target = Path(out)
    if os.path.lexists(target):
        raise StorageError(f"{target} already exists; a backup never overwrites a file")
    dek, salt = os.urandom(KEY_BYTES), os.urandom(SALT_BYTES)
    entries = tuple(Entry(k.source, utc_stamp(), k.wrap(dek, store.store_id)) for k in keks)
    header = Header(store.store_id, salt, entries).signed(dek)
    clear_leftovers(target.parent)
    snapshot = target.with_name(f".{target.name}.snapshot-{os.getpid()}-{os.urandom(4).hex()}")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        os.close(create_private(snapshot))
        store.export_encrypted(snapshot, dek, salt)
        _write_container(partial, serialize(header), snapshot, dek)
        os.link(partial, target)  # never replaces a file that appeared meanwhile
    except FileExistsError:
        raise StorageError(f"{target} already exists; a backup never overwrites a file") from None
    except OSError as exc:
        raise StorageError(f"cannot write the backup {target}: {exc.strerror}") from None
    finally:
        for leftover in (snapshot, partial, Path(f"{snapshot}-journal")):
            leftover.unlink(missing_ok=True)
    audit.event("backup_made", store=store.store_id, by=actor(), key_ids=[e.key_id for e in entries])
    return header


# What a backup, a restore or a verification stages under a hidden name (or in a private temporary
# directory) before the result is in place: ".NAME.snapshot-PID-HEX", ".NAME.partial-PID-HEX",
# ".NAME.restoring-PID-HEX", their SQLite side files, "securemem-verify-PID-...".
_STAGED = re.compile(
    r"\..+\.(?:snapshot|partial|restoring)-(?P<pid>[0-9]{1,10})-[0-9a-f]{8}"
    r"(?:\.keys(?:\.tmp-[0-9]{1,10}-[0-9a-f]{8})?)?(?:-journal|-wal|-shm)?"
)
_VERIFY_PREFIX = "securemem-verify-"
_VERIFYING = re.compile(re.escape(_VERIFY_PREFIX) + r"(?P<pid>[0-9]{1,10})-.+")
# Staged files untouched for this long: a live run's are younger (it writes them, or has just checked
# them). The age as well as the process: a run in another PID namespace (a container sharing the
# directory, another host on NFS) has an id that is gone here.
_STALE_SECONDS = 3600


def _gone(pid: int) -> bool:
    """No process has this id (another user's process, or this one, counts as alive)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError, ValueError):
        return False
    return False


def _stale(path: Path, *, kind: int) -> bool:
    """``path`` is this user's, of the ``kind`` staging makes (a regular file; a directory for a
    verification), and untouched for _STALE_SECONDS."""
    try:
        info = path.lstat()
    except OSError:
        return False
    return (
        stat.S_IFMT(info.st_mode) == kind
        and info.st_uid == os.getuid()
        and time.time() - info.st_mtime > _STALE_SECONDS
    )


def clear_leftovers(directory: Path) -> int:
    """Remove what interrupted backups, restores and verifications left in ``directory`` and in the
    temporary directory, once the process that staged them is gone and they are an hour old: a run
    killed outright never reaches its clean-up, and its hidden files hold a copy of a store (under a
    backup's key) that no later delete, redaction or store deletion reaches. Only this user's regular
    files (a directory for a verification's scratch); never a symlink's target. Returns how many."""
    removed = 0
    folders = ((directory, _STAGED, stat.S_IFREG), (Path(tempfile.gettempdir()), _VERIFYING, stat.S_IFDIR))
    for folder, pattern, kind in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            found = pattern.fullmatch(name)
            path = folder / name
            if found is None or not _gone(int(found["pid"])) or not _stale(path, kind=kind):
                continue
            with contextlib.suppress(OSError):
                if kind == stat.S_IFDIR:
                    shutil.rmtree(path)
                else:
                    path.unlink()
                removed += 1
    if removed:
        audit.event("staged_files_removed", count=removed, by=actor())
    return removed


def _write_container(path: Path, header: bytes, snapshot: Path, dek: bytes) -> None:
    mac = hmac.new(_mac_key(dek), digestmod=hashlib.sha256)
    fd = create_private(path)
    with os.fdopen(fd, "wb") as out, snapshot.open("rb") as source:
        for part in (MAGIC, len(header).to_bytes(8, "big"), header):
            out.write(part)
            mac.update(part)
        while chunk := source.read(CHUNK):
            out.write(chunk)
            mac.update(chunk)
        out.write(mac.digest())
        out.flush()
        os.fsync(out.fileno())


def open_backup(path: str | os.PathLike[str], kek: KekProvider) -> Opened:
    """Read and check a backup's header and MAC with ``kek``; nothing is written."""
    where = Path(path)
    damaged = KeyHeaderError(f"the backup {where} is damaged (or not a securemem backup)")
    try:
        size = where.stat().st_size
        with where.open("rb") as source:
            prefix = source.read(len(MAGIC) + 8)
            length = int.from_bytes(prefix[len(MAGIC) :], "big")
            if prefix[: len(MAGIC)] != MAGIC or len(prefix) != len(MAGIC) + 8 or length > MAX_BYTES:
                raise damaged
            data = source.read(length)
            header = parse_header(data, f"the backup {where}", " (or not a securemem backup)")
            dek, used = _unwrap(where, header, kek)
            start = len(prefix) + length
            if size < start + 32 + SALT_BYTES or not _mac_ok(source, dek, prefix + data, size - start - 32):
                raise damaged
    except FileNotFoundError:
        raise StorageError(f"no backup at {where}") from None
    except IsADirectoryError:
        raise StorageError(f"{where} is a directory, not a backup") from None
    except OSError as exc:
        raise StorageError(f"cannot read the backup {where}: {exc.strerror}") from None
    return Opened(where, header, dek, used, start, size - start - 32)


def _unwrap(where: Path, header: Header, kek: KekProvider) -> tuple[bytes, Entry]:
    for entry in header.entries:
        try:
            dek = kek.unwrap(entry.wrapped, header.store_id)
        except KeyHeaderError as exc:
            raise KeyHeaderError(f"the backup {where} is damaged ({exc})") from None
        if dek is not None:
            if not header.mac_ok(dek):
                raise KeyHeaderError(f"the backup {where} is damaged (its MAC does not match)")
            return dek, entry
    raise WrongKekError(f"the KEK {kek.source} is not one of the KEKs of the backup {where} (wrong KEK)")


def _mac_ok(source: BinaryIO, dek: bytes, head: bytes, length: int) -> bool:
    mac = hmac.new(_mac_key(dek), head, hashlib.sha256)
    left = length
    while left > 0:
        chunk = source.read(min(CHUNK, left))
        if not chunk:
            return False
        mac.update(chunk)
        left -= len(chunk)
    return hmac.compare_digest(mac.digest(), source.read(32))


def _copy_snapshot(opened: Opened, fd: int) -> None:
    with opened.path.open("rb") as source, os.fdopen(fd, "wb") as out:
        source.seek(opened.start)
        left = opened.length
        while left > 0:
            chunk = source.read(min(CHUNK, left))
            if not chunk:
                raise StorageError(f"the backup {opened.path} changed while it was read")
            out.write(chunk)
            left -= len(chunk)
        out.flush()
        os.fsync(out.fileno())


def _check_snapshot(db: Path, opened: Opened) -> None:
    """The snapshot opens under the backup's DEK, is the store the header names, and passes both integrity checks."""
    try:
        store = SQLCipherStore.open(db, RawKey(opened.dek, source="the backup's data key"), create=False)
    except WrongKeyError:
        raise KeyHeaderError(f"the backup {opened.path} is damaged (its snapshot does not open)") from None
    try:
        if store.store_id != opened.header.store_id:
            raise KeyHeaderError(f"the backup {opened.path} is damaged (its snapshot is another store)")
        problems = store.integrity_errors()
    finally:
        store.close()
    if problems:
        raise RefusedError(f"the backup {opened.path} fails its integrity checks: {problems[0]}")


def restore(backup: str | os.PathLike[str], kek: KekProvider, db: str | os.PathLike[str]) -> Opened:
    """A new store at ``db`` holding exactly the backup's snapshot; never over an existing file."""
    target = Path(db)
    if os.path.lexists(target):
        raise StorageError(f"{target} already exists; restore never overwrites (choose a new --db)")
    if not target.parent.is_dir():
        raise StorageError(f"cannot restore to {target}: the directory {target.parent} does not exist")
    if (side := leftover_side_file(target)) is not None:
        raise StorageError(f"{side} exists: {REPLAYED}; {LEFTOVER}")
    opened = open_backup(backup, kek)
    clear_leftovers(target.parent)
    if os.path.lexists(keys_path(target)):
        _own_leftover_keys(target, opened, None)  # refused unless a restore of this backup left it
    # Staged under a hidden name, its key header beside it, and put in place whole, key header first:
    # a restore killed while it copies leaves nothing at --db (only hidden files, which the next backup
    # or restore here removes), one killed between the two links leaves the key header alone, which a
    # restore of the same backup takes as its own.
    staged = target.with_name(f".{target.name}.restoring-{os.getpid()}-{os.urandom(4).hex()}")
    linked_keys = False
    try:
        _copy_snapshot(opened, create_private(staged))
        _check_snapshot(staged, opened)
        header = Header(opened.header.store_id, file_salt(staged), opened.header.entries)
        write_header(staged, header.signed(opened.dek), new=True)
        try:
            link_or_move(keys_path(staged), keys_path(target))  # never over a file that appeared meanwhile
            linked_keys = True
        except FileExistsError:
            _own_leftover_keys(target, opened, keys_path(staged).read_bytes())
        link_or_move(staged, target)
    except BaseException as exc:
        if linked_keys and not os.path.lexists(target):  # a restore of the same backup may have taken it
            with contextlib.suppress(OSError):
                os.unlink(keys_path(target))
        if isinstance(exc, FileExistsError):
            raise StorageError(f"{target} already exists; restore never overwrites (choose a new --db)") from None
        if isinstance(exc, OSError):
            raise StorageError(f"cannot restore to {target}: {exc.strerror}") from None
        raise
    finally:
        for suffix in ("", *SIDE_FILES, ".keys"):
            with contextlib.suppress(OSError):
                os.unlink(f"{staged}{suffix}")
    audit.event("backup_restored", store=opened.header.store_id, by=actor(), key_id=opened.used.key_id)
    return opened


def link_or_move(source: Path | str, target: Path | str) -> None:
    """Put ``source`` at ``target``, never over a file there (FileExistsError): a hard link, or where the
    file system has none (FAT, some network mounts) a rename after a look (not atomic against a racer)."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.rename(source, target)


def _own_leftover_keys(target: Path, opened: Opened, written: bytes | None) -> None:
    """A key header at ``target``'s with no store beside it is taken as this restore's own only when a
    restore of this backup left it (killed between its two links): it is the header of the backup's store,
    and, once the snapshot is staged, byte for byte the one this restore writes. Anything else is refused
    (it may be the only key header of a store moved elsewhere)."""
    refused = StorageError(f"{keys_path(target)} already exists; restore never overwrites (choose a new --db)")
    try:
        data = keys_path(target).read_bytes()
        found = parse_header(data, f"the key header {keys_path(target)}", "")
    except (OSError, KeyHeaderError):
        raise refused from None
    if found.store_id != opened.header.store_id or (written is not None and data != written):
        raise refused


def verify_backup(backup: str | os.PathLike[str], kek: KekProvider) -> Opened:
    """Check a backup end to end (header, MAC, snapshot's integrity) without restoring it."""
    opened = open_backup(backup, kek)
    clear_leftovers(opened.path.parent)
    scratch = Path(tempfile.mkdtemp(prefix=f"{_VERIFY_PREFIX}{os.getpid()}-"))  # 0700: only its owner can enter it
    try:
        _copy_snapshot(opened, create_private(scratch / "snapshot.db"))
        _check_snapshot(scratch / "snapshot.db", opened)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return opened
