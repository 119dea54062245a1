"""Key custody: add, remove and rotate the KEKs of an envelope store, or adopt a legacy store.

Each operation unwraps the DEK with a KEK that opens the store, rewrites ``DB.keys`` in one
atomic step and never touches a byte of the store file: no data page is re-encrypted, so the
time is independent of the store's size. Each is written to the audit trail (who, when, which
key ids and provider URIs; never key material). Refusals that would leave the store without a
way to open it are ``RefusedError`` (exit 1 on the command line).
"""

from __future__ import annotations

import getpass
import os
from dataclasses import replace
from pathlib import Path

from securemem import audit
from securemem.errors import RefusedError, StorageError, WrongKeyError
from securemem.keys import KeyProvider, RawKey
from securemem.keys.header import Entry, Header, Pending, keys_path, read_header, utc_stamp, write_header
from securemem.keys.kek import FileKek, KekProvider, passphrase_twins, wraps_already
from securemem.keys.raw import SALT_BYTES
from securemem.progress import Report, watch_writes
from securemem.store.envelope import Unlocked, unlock
from securemem.store.keylock import key_change
from securemem.store.sqlcipher import SQLCipherStore, file_salt, peek_store_id


def actor() -> str:
    """Who ran the operation, for the audit trail: the login name, else the uid."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


def _record(kind: str, unlocked: Unlocked | Header, **facts: object) -> None:
    header = unlocked.header if isinstance(unlocked, Unlocked) else unlocked
    audit.event(kind, store=header.store_id, by=actor(), **facts)


def _settled(db: str | os.PathLike[str], kek: KekProvider) -> Unlocked:
    """``unlock``, refused while a data key rotation is unfinished (its KEKs would be changed twice)."""
    unlocked = unlock(db, kek)
    if unlocked.header.pending is not None:
        raise RefusedError(
            f"a data key rotation of {unlocked.db} was interrupted; finish it first: securemem keys rotate-dek"
        )
    return unlocked


def list_keks(db: str | os.PathLike[str], kek: KekProvider | None) -> tuple[list[Entry], bool]:
    """The entries of ``DB.keys`` and whether they were authenticated (a KEK was given and opened it)."""
    if kek is None:
        return list(read_header(db).entries), False
    return list(unlock(db, kek).header.entries), True


def _wrap_new(unlocked: Unlocked, new: KekProvider) -> tuple[Entry, bool]:
    twin = wraps_already(new, (e.wrapped for e in unlocked.header.entries), unlocked.header.store_id)
    if twin is not None:
        raise RefusedError(f"the KEK {new.source} (key id {twin}) already wraps the data key of {unlocked.db}")
    made = isinstance(new, FileKek) and new.create_if_missing()
    try:
        entry = Entry(new.source, utc_stamp(), new.wrap(unlocked.dek, unlocked.header.store_id))
    except BaseException:
        if made and isinstance(new, FileKek):
            Path(new.path).unlink(missing_ok=True)
        raise
    if unlocked.header.entry(entry.key_id) is not None:
        if made and isinstance(new, FileKek):
            Path(new.path).unlink(missing_ok=True)
        raise RefusedError(f"the KEK {new.source} (key id {entry.key_id}) already wraps the data key of {unlocked.db}")
    return entry, made


def _add_kek(db: str | os.PathLike[str], kek: KekProvider, new: KekProvider) -> tuple[Entry, bool]:
    """Wrap the DEK with ``new`` as well; the entry and whether a new KEK file was made."""
    unlocked = _settled(db, kek)
    entry, made = _wrap_new(unlocked, new)
    header = replace(unlocked.header, entries=(*unlocked.header.entries, entry))
    _write(unlocked, header, made, new)
    _record("kek_added", unlocked, key_id=entry.key_id, provider=entry.provider, opened_with=unlocked.used.key_id)
    return entry, made


def _remove_kek(db: str | os.PathLike[str], kek: KekProvider, key_id: str) -> Entry:
    """Remove the entry ``key_id``; refused when it is the last one."""
    unlocked = _settled(db, kek)
    gone = unlocked.header.entry(key_id)
    if gone is None:
        # A well-formed call the header cannot honour: refused (exit 1), as for a PostgreSQL deployment.
        raise RefusedError(f"no KEK with key id {key_id} in {keys_path(db)} (see: securemem keys list)")
    kept = tuple(e for e in unlocked.header.entries if e.key_id != key_id)
    if not kept:
        raise RefusedError(
            f"{key_id} is the last KEK of {unlocked.db}: without it nothing opens the store; add another first"
        )
    _write(unlocked, replace(unlocked.header, entries=kept), False, None)
    _record("kek_removed", unlocked, key_id=key_id, provider=gone.provider, opened_with=unlocked.used.key_id)
    return gone


def _rotate_kek(db: str | os.PathLike[str], kek: KekProvider, to: KekProvider) -> tuple[Entry, Entry, bool]:
    """Wrap the DEK with ``to`` and drop the entry ``kek`` opened, in one write: (added, removed, made)."""
    unlocked = _settled(db, kek)
    # Every entry the KEK opens goes: a passphrase wrapped twice by an earlier release has two (see wraps_already).
    gone = {
        unlocked.used.key_id,
        *passphrase_twins(kek, (e.wrapped for e in unlocked.header.entries), unlocked.header.store_id),
    }
    entry, made = _wrap_new(unlocked, to)
    kept = tuple(e for e in unlocked.header.entries if e.key_id not in gone)
    _write(unlocked, replace(unlocked.header, entries=(*kept, entry)), made, to)
    twins = sorted(gone - {unlocked.used.key_id})
    extra = {"also_removed": twins} if twins else {}  # a passphrase's twins an earlier release let in
    _record(
        "kek_rotated", unlocked, key_id=entry.key_id, provider=entry.provider, removed=unlocked.used.key_id, **extra
    )
    return entry, unlocked.used, made


def _write(unlocked: Unlocked, header: Header, made: bool, new: KekProvider | None) -> None:
    try:
        write_header(unlocked.db, header.signed(unlocked.dek))
    except BaseException:
        if made and isinstance(new, FileKek):
            Path(new.path).unlink(missing_ok=True)
        raise


def _adopt(db: str | os.PathLike[str], key: KeyProvider, new: KekProvider) -> tuple[Entry, bool]:
    """Move a legacy store to envelope keys without re-encrypting: its SQLCipher key becomes the DEK.

    A passphrase store's key is PBKDF2(passphrase, salt): that derived key, the RawKey form, is
    what gets wrapped. The legacy key keeps opening the store (it is the same key).
    """
    path = Path(db)
    if keys_path(path).exists():
        raise RefusedError(f"{path} has a key header {keys_path(path)} already: it uses KEKs")
    if not path.exists():
        raise StorageError(f"no securemem store at {path}")
    dek = key.store_key(file_salt(path))
    try:
        store_id = peek_store_id(path, RawKey(dek, source=key.source))
    except WrongKeyError:
        raise WrongKeyError(f"{key.source} does not open {path} (wrong key)") from None
    # A writer that died inside its erasure bound left deleted text in the file: erased first, as every
    # other command that opens the store does (a fresh attacker's round; a store with nothing owed is
    # left byte for byte as it was).
    SQLCipherStore.open(path, RawKey(dek, source=key.source), create=False).close()
    made = isinstance(new, FileKek) and new.create_if_missing()
    try:
        entry = Entry(new.source, utc_stamp(), new.wrap(dek, store_id))
        header = Header(store_id, file_salt(path), (entry,)).signed(dek)
        write_header(path, header, new=True)
    except BaseException:
        if made and isinstance(new, FileKek):
            Path(new.path).unlink(missing_ok=True)
        raise
    _record("store_adopted", header, key_id=entry.key_id, provider=entry.provider, legacy=key.source)
    return entry, made


def _rotate_dek(db: str | os.PathLike[str], keks: list[KekProvider], progress: Report | None = None) -> Header:
    """A new DEK, every page re-encrypted; wrapped by the same KEKs, each of which must be given.

    A new DEK must be wrapped by every KEK that is to open the store, and only a KEK that is
    here can wrap it: one not given is refused (remove it first with ``keys remove``), never
    dropped silently. Crash-safe at every point: the new DEK and its salt are written to DB.keys
    as "pending" (MACed under both DEKs) before the re-key, so the store opens with whichever
    of the two its pages are under (``store/envelope.py``); then the pending entries become the
    current ones. An interrupted rotation is finished (or undone, if the re-key never committed)
    by running this again. ``progress`` is told (bytes done, bytes in all) while pages are re-encrypted.
    """
    unlocked = _resume(db, keks[0])
    old = unlocked.header
    wraps = {entry.key_id: _kek_for(unlocked, entry, keks, "rotate-dek") for entry in old.entries}
    new_dek, new_salt = os.urandom(len(unlocked.dek)), os.urandom(SALT_BYTES)
    fresh = tuple(Entry(e.provider, e.added_at, wraps[e.key_id].wrap(new_dek, old.store_id)) for e in old.entries)
    write_header(db, replace(old, pending=Pending(new_salt, fresh)).signed(unlocked.dek, new_dek))
    store = SQLCipherStore.open(db, unlocked.key(), create=False, salt=unlocked.salt)
    try:
        size = _size(Path(db)) + _size(Path(f"{db}-wal"))
        # The re-key writes every page twice: into the WAL (plus a 24-byte frame header per
        # 4 KiB page), then back into the store file.
        with watch_writes(size, 2 * size + size * 24 // 4096, progress):
            store.rekey(RawKey(new_dek, source="the new data key"), salt=new_salt)
    finally:
        store.close()
    done = Header(old.store_id, new_salt, fresh).signed(new_dek)
    write_header(db, done)
    _record("dek_rotated", done, key_ids=[e.key_id for e in fresh], opened_with=unlocked.used.key_id)
    return done


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _kek_for(unlocked: Unlocked, entry: Entry, keks: list[KekProvider], what: str) -> KekProvider:
    for kek in keks:
        if kek.unwrap(entry.wrapped, unlocked.header.store_id) is not None:
            return kek
    how = "name the backup's KEKs with --backup-kek" if what == "a backup" else "remove it first with keys remove"
    raise RefusedError(
        f"{what} needs every KEK of {unlocked.db}: {entry.key_id} ({entry.provider}) was not given; "
        f"give it with another --kek, or {how}"
    )


def covering_keks(db: str | os.PathLike[str], keks: list[KekProvider], what: str) -> list[KekProvider]:
    """One given KEK per entry of the store's header (refused when an entry has none): a key for each to wrap."""
    unlocked = unlock(db, keks[0])
    return [_kek_for(unlocked, entry, keks, what) for entry in unlocked.header.entries]


def _resume(db: str | os.PathLike[str], kek: KekProvider) -> Unlocked:
    """The store's DEK with no rotation pending: an interrupted one is finished, or dropped if it never began."""
    unlocked = unlock(db, kek)
    header = unlocked.header
    if header.pending is None:
        return unlocked
    if unlocked.pending:  # the re-key committed: the pending entries are the current ones
        settled = Header(header.store_id, header.pending.db_salt, header.pending.entries).signed(unlocked.dek)
    else:  # it never committed: the pending DEK encrypts nothing
        settled = replace(header, pending=None).signed(unlocked.dek)
    write_header(db, settled)
    _record("dek_rotation_resumed", settled, finished=unlocked.pending)
    return unlock(db, kek)


def add_kek(db: str | os.PathLike[str], kek: KekProvider, new: KekProvider) -> tuple[Entry, bool]:
    """Wrap the DEK with ``new`` as well; the entry and whether a new KEK file was made."""
    with key_change(db):
        return _add_kek(db, kek, new)


def remove_kek(db: str | os.PathLike[str], kek: KekProvider, key_id: str) -> Entry:
    """Remove the entry ``key_id``; refused when it is the last one."""
    with key_change(db):
        return _remove_kek(db, kek, key_id)


def rotate_kek(db: str | os.PathLike[str], kek: KekProvider, to: KekProvider) -> tuple[Entry, Entry, bool]:
    """Wrap the DEK with ``to`` and drop the entry ``kek`` opened, in one write: (added, removed, made)."""
    with key_change(db):
        return _rotate_kek(db, kek, to)


def rotate_dek(db: str | os.PathLike[str], keks: list[KekProvider], progress: Report | None = None) -> Header:
    """A new DEK, every page re-encrypted (see ``_rotate_dek``)."""
    with key_change(db):
        return _rotate_dek(db, keks, progress)


def adopt(db: str | os.PathLike[str], key: KeyProvider, new: KekProvider) -> tuple[Entry, bool]:
    """Move a legacy store to envelope keys without re-encrypting (see ``_adopt``)."""
    with key_change(db):
        return _adopt(db, key, new)
