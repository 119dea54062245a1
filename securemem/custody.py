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
from securemem.errors import KeyHeaderError, RefusedError, StorageError, WrongKeyError
from securemem.keys import KeyProvider, RawKey
from securemem.keys.header import Entry, Header, keys_path, read_header, utc_stamp, write_header
from securemem.keys.kek import FileKek, KekProvider
from securemem.store.envelope import Unlocked, unlock
from securemem.store.sqlcipher import file_salt, peek_store_id


def actor() -> str:
    """Who ran the operation, for the audit trail: the login name, else the uid."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


def _record(kind: str, unlocked: Unlocked | Header, **facts: object) -> None:
    header = unlocked.header if isinstance(unlocked, Unlocked) else unlocked
    audit.event(kind, store=header.store_id, by=actor(), **facts)


def list_keks(db: str | os.PathLike[str], kek: KekProvider | None) -> tuple[list[Entry], bool]:
    """The entries of ``DB.keys`` and whether they were authenticated (a KEK was given and opened it)."""
    if kek is None:
        return list(read_header(db).entries), False
    return list(unlock(db, kek).header.entries), True


def _wrap_new(unlocked: Unlocked, new: KekProvider) -> tuple[Entry, bool]:
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


def add_kek(db: str | os.PathLike[str], kek: KekProvider, new: KekProvider) -> tuple[Entry, bool]:
    """Wrap the DEK with ``new`` as well; the entry and whether a new KEK file was made."""
    unlocked = unlock(db, kek)
    entry, made = _wrap_new(unlocked, new)
    header = replace(unlocked.header, entries=(*unlocked.header.entries, entry))
    _write(unlocked, header, made, new)
    _record("kek_added", unlocked, key_id=entry.key_id, provider=entry.provider, opened_with=unlocked.used.key_id)
    return entry, made


def remove_kek(db: str | os.PathLike[str], kek: KekProvider, key_id: str) -> Entry:
    """Remove the entry ``key_id``; refused when it is the last one."""
    unlocked = unlock(db, kek)
    gone = unlocked.header.entry(key_id)
    if gone is None:
        raise KeyHeaderError(f"no KEK with key id {key_id} in {keys_path(db)} (see: securemem keys list)")
    kept = tuple(e for e in unlocked.header.entries if e.key_id != key_id)
    if not kept:
        raise RefusedError(
            f"{key_id} is the last KEK of {unlocked.db}: without it nothing opens the store; add another first"
        )
    _write(unlocked, replace(unlocked.header, entries=kept), False, None)
    _record("kek_removed", unlocked, key_id=key_id, provider=gone.provider, opened_with=unlocked.used.key_id)
    return gone


def rotate_kek(db: str | os.PathLike[str], kek: KekProvider, to: KekProvider) -> tuple[Entry, Entry, bool]:
    """Wrap the DEK with ``to`` and drop the entry ``kek`` opened, in one write: (added, removed, made)."""
    unlocked = unlock(db, kek)
    entry, made = _wrap_new(unlocked, to)
    kept = tuple(e for e in unlocked.header.entries if e.key_id != unlocked.used.key_id)
    _write(unlocked, replace(unlocked.header, entries=(*kept, entry)), made, to)
    _record("kek_rotated", unlocked, key_id=entry.key_id, provider=entry.provider, removed=unlocked.used.key_id)
    return entry, unlocked.used, made


def _write(unlocked: Unlocked, header: Header, made: bool, new: KekProvider | None) -> None:
    try:
        write_header(unlocked.db, header.signed(unlocked.dek))
    except BaseException:
        if made and isinstance(new, FileKek):
            Path(new.path).unlink(missing_ok=True)
        raise


def adopt(db: str | os.PathLike[str], key: KeyProvider, new: KekProvider) -> tuple[Entry, bool]:
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
