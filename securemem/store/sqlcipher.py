"""The default Store: one SQLCipher 4 file (through ``sqlcipher3``, the only module that imports it).

Choices and why:
- Fail closed. The stdlib ``sqlite3`` accepts ``PRAGMA key`` and silently writes plaintext, so we
  never fall back to it, check ``PRAGMA cipher_version`` after keying, refuse a file whose header
  is plain SQLite's, and check the header again after creating a store.
- A sentinel row (format, schema version, store id) tells a securemem store from any other
  database, and an empty file is never taken for an empty store.
- WAL with ``synchronous = FULL``: a committed command survives power loss (NORMAL would not in
  WAL mode). Writers use ``BEGIN IMMEDIATE``: with plain ``BEGIN`` two read-modify-write
  transactions deadlock on the upgrade and one fails at once, which the busy timeout cannot absorb.
- ``secure_delete = ON`` zeroes deleted content in its pages, and ``scrub_free_space`` checkpoints
  and truncates the WAL so that old page images do not linger there either.
- ``cipher_log_level = NONE``: SQLCipher otherwise writes key-check failures to stderr.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlcipher3

from securemem.errors import (
    DamagedStoreError,
    NotAStoreError,
    StorageError,
    StoreBusyError,
    StoreFullError,
    WrongKeyError,
)
from securemem.keys import KeyMaterial, new_salt
from securemem.paths import ancestors
from securemem.store.sqltx import SCHEMA, SqlTx

FORMAT = "securemem"
SCHEMA_VERSION = 1
PLAIN_SQLITE_HEADER = b"SQLite format 3\x00"
DURABILITY = {"full": "FULL", "normal": "NORMAL"}
logger = logging.getLogger("securemem.store")


def translate(exc: sqlcipher3.Error) -> StorageError:
    """Map a driver error to the project's error tree (no SQL, no key material in the text)."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StoreBusyError("the memory store is busy (another writer holds it); try again shortly")
    if "full" in text:
        return StoreFullError("the memory store is full (disk or page limit reached); free space and retry")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return DamagedStoreError("the memory store is damaged (a page failed its integrity check)")
    if "readonly" in text or "read-only" in text:
        return StorageError("the memory store file is read-only; check its permissions")
    if "unable to open" in text:
        return StorageError("the memory store file cannot be opened; check the path and permissions")
    if "disk i/o error" in text:
        # What a write refused by the OS becomes (file size limit, immutable file, failing disk).
        return StorageError(
            "the memory store file could not be read or written (disk I/O error); check "
            "the disk, its free space, file size limits and the file's permissions"
        )
    return StorageError(f"storage error: {type(exc).__name__}")


def _header(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(16)
    except IsADirectoryError:
        raise NotAStoreError(f"{path} is a directory, not a securemem store") from None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}") from None


def _check_existing(path: Path) -> bytes:
    header = _header(path)
    if not header:
        raise NotAStoreError(f"{path} is an empty file, not a securemem store")
    if header == PLAIN_SQLITE_HEADER:
        raise NotAStoreError(
            f"{path} is an unencrypted SQLite database, not a securemem store "
            "(securemem never opens plaintext databases)"
        )
    return header


class SQLCipherStore:
    """A Store in one encrypted file. Thread-safe; several processes may share the file."""

    def __init__(
        self, conn: sqlcipher3.Connection, path: Path, meta: dict[str, str], busy_timeout: float = 10.0
    ) -> None:
        self._conn = conn
        self._busy_ms = int(busy_timeout * 1000)
        self._lock = threading.RLock()
        self.path = path
        self.meta = meta

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        key: KeyMaterial,
        *,
        create: bool = True,
        durability: str = "full",
        busy_timeout: float = 10.0,
    ) -> SQLCipherStore:
        where = Path(path)
        exists = where.exists()
        if not exists and not create:
            raise NotAStoreError(f"no securemem store at {where}; create one with: securemem init --db {where}")
        header = _check_existing(where) if exists else None
        salt = (header if header else new_salt()) if key.is_passphrase else None
        conn = cls._connect(where, key, salt, busy_timeout)
        try:
            meta = cls._load_or_create(conn, where, fresh=not exists)
            cls._configure(conn, durability)
        except BaseException:
            conn.close()
            raise
        return cls(conn, where, meta, busy_timeout)

    @staticmethod
    def _connect(path: Path, key: KeyMaterial, salt: bytes | None, timeout: float) -> sqlcipher3.Connection:
        try:
            conn = sqlcipher3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=timeout)
            conn.execute("PRAGMA cipher_log_level = NONE")
            conn.execute(f'PRAGMA key = "{key.pragma_value(salt)}"')
            row = conn.execute("PRAGMA cipher_version").fetchone()
        except sqlcipher3.Error as exc:
            raise translate(exc) from None
        if not row or not row[0]:
            conn.close()
            raise StorageError("SQLCipher is not active in this build; refusing to store plaintext")
        return conn

    @classmethod
    def _load_or_create(cls, conn: sqlcipher3.Connection, path: Path, *, fresh: bool) -> dict[str, str]:
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlcipher3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise WrongKeyError(
                    f"the key does not open {path} (wrong key, or the file is not a "
                    "securemem store, or its first page is damaged)"
                ) from None
            raise translate(exc) from None
        if not tables and fresh:
            return cls._create_schema(conn, path)
        if "meta" not in tables:
            raise NotAStoreError(f"{path} is an encrypted database, but not a securemem store")
        return cls._read_meta(conn, path)

    @staticmethod
    def _read_meta(conn: sqlcipher3.Connection, path: Path) -> dict[str, str]:
        try:
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        except sqlcipher3.Error as exc:
            raise translate(exc) from None
        if meta.get("format") != FORMAT:
            raise NotAStoreError(f"{path} is an encrypted database, but not a securemem store")
        if int(meta.get("schema_version", "0")) > SCHEMA_VERSION:
            raise StorageError(
                f"{path} was written by a newer securemem (schema "
                f"{meta['schema_version']}); upgrade securemem to open it"
            )
        return meta

    @staticmethod
    def _create_schema(conn: sqlcipher3.Connection, path: Path) -> dict[str, str]:
        meta = {
            "format": FORMAT,
            "schema_version": str(SCHEMA_VERSION),
            "store_id": str(uuid.uuid4()),
            "created": repr(time.time()),
            "token_key": os.urandom(32).hex(),
        }
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            for statement in filter(str.strip, SCHEMA.split(";")):
                conn.execute(statement)
            conn.executemany("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", meta.items())
            conn.execute("COMMIT")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        except sqlcipher3.Error as exc:
            raise translate(exc) from None
        if _header(path) == PLAIN_SQLITE_HEADER:  # belt and braces: never leave plaintext behind
            raise StorageError("the store was written unencrypted; refusing to continue")
        os.chmod(path, 0o600)
        return meta

    @staticmethod
    def _configure(conn: sqlcipher3.Connection, durability: str) -> None:
        if durability not in DURABILITY:
            raise StorageError(f"durability must be one of {', '.join(DURABILITY)}")
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            conn.execute(f"PRAGMA synchronous = {DURABILITY[durability]}")
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("PRAGMA temp_store = MEMORY")
        except sqlcipher3.Error as exc:
            raise translate(exc) from None
        if str(mode).lower() != "wal":
            raise StorageError("the store could not switch to WAL mode")

    # -- transactions ----------------------------------------------------------------------

    @contextmanager
    def transaction(self, namespace: str, *, write: bool, now: float) -> Iterator[SqlTx]:
        with self._lock:
            self._run("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield SqlTx(self._conn, namespace, now)
            except sqlcipher3.Error as exc:
                self._rollback()
                raise translate(exc) from None
            except BaseException:
                self._rollback()
                raise
            self._run("COMMIT", rollback_on_error=True)

    def _run(self, sql: str, *, rollback_on_error: bool = False) -> None:
        try:
            self._conn.execute(sql)
        except sqlcipher3.Error as exc:
            if rollback_on_error:
                self._rollback()
            raise translate(exc) from None

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            # The transaction may already be gone (SQLite rolls back by itself on some errors).
            with contextlib.suppress(sqlcipher3.Error):
                self._conn.execute("ROLLBACK")

    # -- maintenance -----------------------------------------------------------------------

    def sweep_batch(self, now: float, limit: int) -> int:
        """Delete up to ``limit`` expired files in one short write transaction."""
        with self._lock:
            self._run("BEGIN IMMEDIATE")
            try:
                count = self._sweep_rows(now, limit)
            except sqlcipher3.Error as exc:
                self._rollback()
                raise translate(exc) from None
            self._run("COMMIT", rollback_on_error=True)
            return count

    def _sweep_rows(self, now: float, limit: int) -> int:
        rows = self._conn.execute(
            "SELECT id, ns, path, size FROM entries WHERE expires IS NOT NULL AND expires <= ? AND is_dir = 0 LIMIT ?",
            (now, limit),
        ).fetchall()
        if not rows:
            return 0
        deltas: dict[tuple[str, str], list[int]] = {}
        for _, ns, path, size in rows:
            for above in ancestors(path):
                total = deltas.setdefault((ns, above), [0, 0])
                total[0] += size
                total[1] += 1
        marks = ",".join("?" * len(rows))
        ids = [r[0] for r in rows]
        self._conn.execute(f"DELETE FROM blobs WHERE id IN ({marks})", ids)
        self._conn.execute(f"DELETE FROM entries WHERE id IN ({marks})", ids)
        self._conn.executemany(
            "UPDATE entries SET size = size - ?, files = files - ? WHERE ns = ? AND path = ?",
            [(s, f, ns, p) for (ns, p), (s, f) in deltas.items()],
        )
        return len(rows)

    def count_expired(self, now: float) -> int:
        with self._lock:
            try:
                row = self._conn.execute(
                    "SELECT count(*) FROM entries WHERE expires IS NOT NULL AND expires <= ?", (now,)
                ).fetchone()
            except sqlcipher3.Error as exc:
                raise translate(exc) from None
            return int(row[0])

    def scrub_free_space(self) -> None:
        """Copy the WAL into the file and truncate it, so no old page image stays behind.

        Best effort, and it never raises: it runs after a delete has committed, so a failure here
        (a read-only or full disk) must not report that delete as "not applied". The next call,
        or the checkpoint at close, finishes the job. A short busy timeout for the same reason:
        if readers pin the WAL, this writer does not wait for them.
        """
        with self._lock:
            try:
                self._conn.execute("PRAGMA busy_timeout = 200")
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except sqlcipher3.Error as exc:
                logger.warning("could not checkpoint the WAL after a delete: %s", translate(exc))
            finally:
                self._conn.execute(f"PRAGMA busy_timeout = {self._busy_ms}")

    def integrity_errors(self) -> list[str]:
        """Problems found by SQLite's integrity_check and SQLCipher's cipher_integrity_check."""
        with self._lock:
            try:
                found = [str(r[0]) for r in self._conn.execute("PRAGMA integrity_check")]
                found += [str(r[0]) for r in self._conn.execute("PRAGMA cipher_integrity_check")]
            except sqlcipher3.Error as exc:
                raise translate(exc) from None
        return [line for line in found if line != "ok"]

    def rekey(self, new_key: KeyMaterial) -> None:
        """Re-encrypt every page under ``new_key`` (the salt, kept in the header, stays)."""
        with self._lock:
            salt = _header(self.path) if new_key.is_passphrase else None
            try:
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._conn.execute(f'PRAGMA rekey = "{new_key.pragma_value(salt)}"')
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlcipher3.Error as exc:
                raise translate(exc) from None

    def close(self) -> None:
        with self._lock:
            # Another process may hold the WAL; the last one to close checkpoints it.
            with contextlib.suppress(sqlcipher3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()
