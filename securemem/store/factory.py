"""One store factory from a URL, used by ``SecureMemory.open``, the CLI and the tests.

- ``sqlcipher:///abs/path.db``, or a plain file path: the encrypted SQLite file (the default);
- ``memory://``: a fresh store in this process's memory (tests, throwaway sessions);
- ``postgresql://user@host:5432/db`` (or ``postgres://``): the PostgreSQL store (store/postgres.py),
  which holds only ciphertext; its schema is made by ``securemem migrate``, never by an open.

A backend module is imported only when its URL is opened, so each driver stays in its module.
"""

from __future__ import annotations

import os
import re

from securemem.errors import KeyFileError, StorageError
from securemem.keys import as_key_provider
from securemem.keys.kek import KekProvider
from securemem.keys.uri import parse_kek
from securemem.store.base import Store

SCHEMES = ("sqlcipher", "memory", "postgresql")


# A URL's scheme (RFC 3986: a letter, then letters, digits, "+", "-", "."), compared without case.
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(//)?")
_SERVER_SCHEMES = ("postgresql", "postgres")
# A mistyped URL: a known scheme's name and a colon with no "//" ("postgresql:/app:pw@db"), or any text with
# "user:password@" in one of its parts ("mysql:/app:pw@db", "postgresql//app:pw@db"). Read as a file's path it
# would be quoted back, password and all.
_CREDENTIALS = re.compile(r"(?:^|/)[^/:@]*:[^@]*@")


_MALFORMED = (
    "a store URL is written scheme://...: postgresql://user@host:5432/database, "
    "sqlcipher:///var/lib/agent/memory.db or memory://"
)


def split_url(target: str | os.PathLike[str]) -> tuple[str, str]:
    """(scheme, location) of a store URL; a plain path is ``sqlcipher``. A scheme is read in any
    case (``PostgreSQL://`` is ``postgresql://``); a URL missing its "//" (``postgresql:/u@h/db``) or
    its ":" (``postgresql//u:pw@h/db``) is refused, never taken for a file and quoted back with its
    password."""
    text = os.fspath(target)
    match = _SCHEME.match(text)
    if match is None or match.group(2) is None:
        if "://" in text:
            raise StorageError(f"unknown store URL scheme; use one of: {', '.join(s + '://' for s in SCHEMES)}")
        if _CREDENTIALS.search(text) or (match is not None and match.group(1).lower() in (*SCHEMES, *_SERVER_SCHEMES)):
            raise StorageError(_MALFORMED)
        return "sqlcipher", text
    scheme, rest = match.group(1).lower(), text[match.end() :]
    if scheme == "sqlcipher":
        if not rest.startswith("/"):
            raise StorageError("a sqlcipher URL names an absolute path: sqlcipher:///var/lib/agent/memory.db")
        return scheme, rest
    if scheme == "memory":
        return scheme, rest
    if scheme in _SERVER_SCHEMES:
        if not rest:
            raise StorageError("a PostgreSQL URL names its server: postgresql://user@host:5432/database")
        return "postgresql", f"{scheme}://{rest}"
    raise StorageError(f"unknown store URL scheme; use one of: {', '.join(s + '://' for s in SCHEMES)}")


def open_store(
    target: str | os.PathLike[str],
    key: object = None,
    *,
    create: bool = True,
    kek: object = None,
    wait: float | None = None,
) -> Store:
    """Open (or, with ``create``, make) the store ``target`` names, with ``key`` for encrypted backends.

    ``kek``: a KEK URI or provider instead of ``key``: the store's data key is unwrapped from its
    key header ``DB.keys`` (an envelope store; see store/envelope.py). The two are exclusive.
    ``wait``: the seconds a command waits for another writer before it fails as busy (None: the
    backend's own, 10 s for a file, 30 s for PostgreSQL; 0: fail at once).
    """
    wait = check_wait(wait)
    if key is not None and kek is not None:
        raise KeyFileError("give key= (a store key) or kek= (a key-encryption key), not both")
    scheme, location = split_url(target)
    if scheme == "memory":
        from securemem.store.memory import MemoryStore

        return MemoryStore()
    if key is None and kek is None:
        raise StorageError("an encrypted store needs a key (key=, kek=, or a key file)")
    if not location:
        raise StorageError("the store path is empty")
    if scheme == "postgresql":
        from securemem.store.postgres import PostgresStore

        return PostgresStore.open(
            location,
            key=None if key is None else as_key_provider(key),
            kek=None if kek is None else as_kek_provider(kek),
            create=create,
            wait=wait,
        )
    from securemem.store.sqlcipher import BUSY_TIMEOUT, SQLCipherStore

    busy_timeout = BUSY_TIMEOUT if wait is None else wait
    if kek is not None:
        from securemem.store.envelope import open_envelope

        return open_envelope(location, as_kek_provider(kek), create=create, busy_timeout=busy_timeout)
    return SQLCipherStore.open(location, as_key_provider(key), create=create, busy_timeout=busy_timeout)


MAX_WAIT = 3600.0  # an hour: a longer wait is a stuck writer, not a busy one


def check_wait(wait: object) -> float | None:
    """``wait`` as seconds (None stays None), or a StorageError that says what is allowed."""
    if wait is None:
        return None
    seconds = float(wait) if isinstance(wait, (int, float)) and not isinstance(wait, bool) else -1.0
    if not 0 <= seconds <= MAX_WAIT:  # NaN and infinities fail this too; checked as converted
        raise StorageError(f"wait is a number of seconds from 0 to {MAX_WAIT:.0f}")
    return seconds


def as_kek_provider(kek: object) -> KekProvider:
    if isinstance(kek, str):
        return parse_kek(kek)
    if isinstance(kek, KekProvider):
        return kek
    raise KeyFileError("kek= is a KEK URI (file:/path, env:VAR, passphrase:, command:, pkcs11:) or a KEK provider")
