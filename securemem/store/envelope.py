"""Envelope stores: a SQLCipher store whose key (the DEK) is kept only wrapped by KEKs in ``DB.keys``.

The DEK is the store's SQLCipher key in its raw form (``RawKey``): an envelope store is an
ordinary store whose key nobody holds in clear. Opening one (``unlock``) runs the header's checks
in an order that gives each failure its own message, before anything is written anywhere:

1. ``DB.keys`` is read and checked for damage (keys/header.py), and its salt (or, during a data
   key rotation, the pending one) must be the store file's: otherwise it is another store's header;
2. the KEK unwraps the entry whose key id is its own (no entry: a wrong KEK, named by its URI);
3. the header's MAC is checked under the DEK (an edit that fixed up the checksum);
4. the store opens under the DEK and its own store id is the header's (another store's header
   whose salt was forged).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from securemem.errors import KeyHeaderError, StorageError, WrongKekError, WrongKeyError
from securemem.keys import KEY_BYTES, RawKey
from securemem.keys.header import Entry, Header, keys_path, read_header, utc_stamp, write_header
from securemem.keys.kek import FileKek, KekProvider
from securemem.store import pages
from securemem.store.sqlcipher import BUSY_TIMEOUT, SIDE_FILES, SQLCipherStore, file_salt, peek_store_id


@dataclass(frozen=True)
class Unlocked:
    """A header whose DEK is known: what the key operations work on."""

    db: Path
    header: Header
    dek: bytes
    used: Entry  # the entry the KEK opened
    salt: bytes  # the salt that goes with this DEK
    pending: bool = False  # the DEK of a rotation under way (keys rotate-dek), not the current one

    def key(self) -> RawKey:
        return RawKey(self.dek, source=f"the data key in {keys_path(self.db)}")


def damaged(db: str | os.PathLike[str], why: str) -> KeyHeaderError:
    return KeyHeaderError(f"the key header {keys_path(db)} is damaged ({why}); restore it from a backup")


def foreign(db: str | os.PathLike[str]) -> KeyHeaderError:
    return KeyHeaderError(f"the key header {keys_path(db)} belongs to another store, not {os.fspath(db)}")


def candidates(db: str | os.PathLike[str], kek: KekProvider) -> list[Unlocked]:
    """Checks 1-3 for the current DEK and, during a rotation, the pending one; the likelier first.

    Nothing is written. After a crash in ``keys rotate-dek`` the store opens under one of the
    two; the salt at the head of the file says which is likelier (not surely: a re-key that
    committed but was not checkpointed has its new first page in the WAL only).
    """
    path = Path(db)
    header = read_header(path)
    salt = file_salt(path)
    sets = [(header.entries, header.db_salt, False)]
    if header.pending is not None:
        sets.append((header.pending.entries, header.pending.db_salt, True))
    if salt not in {s for _, s, _ in sets}:
        raise foreign(path)
    sets.sort(key=lambda found: found[1] != salt)
    opened = (_unwrap(path, header, kek, entries=entries, salt=s, pending=pending) for entries, s, pending in sets)
    found = [unlocked for unlocked in opened if unlocked is not None]
    if not found:
        diagnose = getattr(kek, "diagnose", None)
        if diagnose is not None:
            diagnose()  # an HSM's token or key out of reach is said as such (KekError)
        raise WrongKekError(
            f"the KEK {kek.source} is not one of the KEKs of {path} (wrong KEK); "
            f"securemem keys list --db {path} shows their key ids"
        )
    return found


def _unwrap(
    path: Path, header: Header, kek: KekProvider, *, entries: tuple[Entry, ...], salt: bytes, pending: bool
) -> Unlocked | None:
    for entry in entries:
        try:
            dek = kek.unwrap(entry.wrapped, header.store_id)
        except KeyHeaderError as exc:
            raise damaged(path, str(exc)) from None
        if dek is not None:
            if len(dek) != KEY_BYTES or not header.mac_ok(dek, pending=pending):
                raise damaged(path, "its MAC does not match")
            return Unlocked(path, header, dek, entry, salt, pending)
    return None


def unlock(db: str | os.PathLike[str], kek: KekProvider) -> Unlocked:
    """The DEK that opens ``db`` (checks 1-4; check 4 through a read-only connection). Nothing is written."""
    path = Path(db)
    for unlocked in candidates(path, kek):
        if _verifies_page_one(path, unlocked):
            # The DEK's page key authenticates the store file's first page: this header's key opens
            # this file, checked without a connection (which would leave empty -wal and -shm files).
            return unlocked
        try:
            store_id = peek_store_id(path, unlocked.key(), salt=unlocked.salt)
        except WrongKeyError:
            continue
        if store_id == unlocked.header.store_id:
            return unlocked
    raise foreign(path)


def _verifies_page_one(path: Path, unlocked: Unlocked) -> bool:
    """Page 1 of the file verifies under the DEK's page key (False: not this key, a page torn by a
    checkpoint being written, or the page only in the WAL; the caller then reads through SQLite)."""
    return pages.detect(path, unlocked.key().store_key(unlocked.salt), unlocked.salt) is not None


def open_envelope(
    db: str | os.PathLike[str], kek: KekProvider, *, create: bool = True, busy_timeout: float = BUSY_TIMEOUT
) -> SQLCipherStore:
    """Open the envelope store ``db`` with ``kek``; with ``create``, make it when neither file exists.
    ``busy_timeout``: the seconds a command waits for another writer."""
    path = Path(db)
    if create and not path.exists() and not keys_path(path).exists():
        return create_envelope(path, kek, busy_timeout=busy_timeout)
    if not path.exists():
        if keys_path(path).exists():
            raise StorageError(f"{path} does not exist, but its key header {keys_path(path)} does; refusing to create")
        raise StorageError(f"no securemem store at {path}; create one with: securemem init --db {path} --kek URI")
    for unlocked in candidates(path, kek):
        try:
            store = SQLCipherStore.open(
                path, unlocked.key(), create=False, salt=unlocked.salt, busy_timeout=busy_timeout
            )
        except WrongKeyError:
            continue
        if store.store_id == unlocked.header.store_id:
            return store
        store.close()
    raise foreign(path)


def create_envelope(
    db: str | os.PathLike[str], kek: KekProvider, *, busy_timeout: float = BUSY_TIMEOUT
) -> SQLCipherStore:
    """A new store under a fresh random DEK, wrapped by ``kek`` (a missing ``file:`` KEK is made).

    A creation that fails leaves nothing behind: not the store, not the header, not a KEK file
    it made.
    """
    path = Path(db)
    if os.path.lexists(path) or os.path.lexists(keys_path(path)):
        raise StorageError(f"{path} or its key header exists already; refusing to overwrite")
    made_kek = isinstance(kek, FileKek) and kek.create_if_missing()
    dek = os.urandom(KEY_BYTES)
    store: SQLCipherStore | None = None
    try:
        kek.wrap(dek, "probe")  # a KEK that cannot be had fails before any file is made
        store = SQLCipherStore.open(
            path, RawKey(dek, source="the new data key"), create=True, busy_timeout=busy_timeout
        )
        entry = Entry(kek.source, utc_stamp(), kek.wrap(dek, store.store_id))
        write_header(path, Header(store.store_id, file_salt(path), (entry,)).signed(dek), new=True)
    except BaseException:
        if store is not None:
            store.close()
            for suffix in ("", *SIDE_FILES):
                with contextlib.suppress(OSError):
                    os.unlink(f"{path}{suffix}")
        if made_kek and isinstance(kek, FileKek):
            Path(kek.path).unlink(missing_ok=True)
        raise
    return store
