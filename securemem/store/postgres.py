"""``postgresql://``: many agent hosts on one PostgreSQL database that holds only ciphertext.

The only module that imports ``psycopg`` and ``psycopg_pool``. Choices and why:

- **Encryption in the process** (pgseal.py): the server, its replicas, dumps and backups see
  ciphertext, tokens, and numbers (sizes, counts, times); never a path, a name or a content.
- **Rule 1, one writer per store, across hosts**: every write transaction takes
  ``pg_advisory_xact_lock`` on (its schema, the store's number) before it reads anything, and reads the clock
  (``tx.now``) after it holds it (rule 2). Writes run at READ COMMITTED, so each statement after
  the lock sees every commit made before it; reads run in one REPEATABLE READ snapshot. A
  sibling store's lock is taken when the sibling is first named; two sessions locking two stores
  in opposite orders are a deadlock PostgreSQL breaks after ``deadlock_timeout``: the loser gets
  ``StoreBusyError``, with nothing written.
- **Errors** (rule 9): every psycopg exception is translated here, by type, into the
  ``StorageError`` tree; a lost connection is one line.
- **Schema**: never created by an open. ``securemem migrate`` (``migrate()`` below) does it; an
  open checks the version (pgschema.py).
- **Erasure** (rule 5): a deleted row's ciphertext stays in dead tuples until VACUUM, and in WAL
  and base backups until they are recycled, still under the store's data key. Deleting a store
  deletes its data key (crypto-shredding): its rows are undecryptable in the live database at
  once. README: what erasure reaches.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pgerrors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from securemem.errors import (
    DamagedStoreError,
    KekError,
    OutcomeUnknownError,
    StorageError,
    StoreBusyError,
    StoreFullError,
)
from securemem.keys import KeyProvider
from securemem.keys.kek import KekProvider
from securemem.store import pgkeys, pgschema, pgseal
from securemem.store.base import Actor, Clock, History, MissingStore, NameTaken, StoreInfo, VersionRow
from securemem.store.history import EXPIRY_ACTOR, ROW_SHARE
from securemem.store.pgkeys import KekChange, KekEntry, OwnKeys, seal_keks, unlock
from securemem.store.pgrotate import rotate_store_key
from securemem.store.pgschema import MIGRATE, MIGRATION_LOCK, Db
from securemem.store.pgseal import TAMPERED, MasterKeys, StoreKeys, settings_digest
from securemem.store.pgtx import PgTx, purge
from securemem.store.pgupgrade import reseal_schema1
from securemem.store.pgversions import (
    HEAD_COLUMNS,
    HEAD_FROM,
    PgVersionLog,
    chain_rows,
    check_tail,
    empty_tail,
    seq_range,
)

_NOBODY = Actor()
# A store's write lock is the advisory lock (schema, store number): advisory locks are per
# database, and two deployments in two schemas of one database must never share one. The schema is
# the one holding sm_stores, by oid (as int4, the type of the two-key form); store numbers stay
# below 2**23 (history.SEQ_BITS), and the migration lock's second key, 0, is no store's number.
_SCHEMA_OF_STORES = "SELECT relnamespace::int8 FROM pg_class WHERE oid = 'sm_stores'::regclass"
_STORE_COLS = "id, public_id, name_ct, desc_ct, created, updated, dek"
_T = TypeVar("_T")
# Every store-wide setting and their sealed digest (pgseal.settings_digest), read together.
_SETTINGS = "SELECT key, value FROM sm_meta WHERE key LIKE 'setting:%' OR key = 'settings'"
# The same rows as one JSON array of [key, value], read in the statement that finds a store by name.
_SETTINGS_JSON = (
    "SELECT coalesce(json_agg(json_build_array(key, value)), '[]'::json) FROM sm_meta "
    "WHERE key LIKE 'setting:%%' OR key = 'settings'"
)
_UPSERT_META = "INSERT INTO sm_meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
LOCK_TIMEOUT_MS = 30_000  # a writer waits this long for another (stores-api.md: several seconds)
POOL_SIZE = 8


def translate(exc: psycopg.Error) -> StorageError:
    """A psycopg error as the project's own (mapped by type; the driver's text is never shown)."""
    if isinstance(exc, pgerrors.LockNotAvailable | pgerrors.DeadlockDetected | pgerrors.QueryCanceled):
        return StoreBusyError("the memory store is busy: another writer held the PostgreSQL store too long; retry")
    if isinstance(exc, pgerrors.UndefinedTable | pgerrors.UndefinedColumn | pgerrors.UndefinedObject):
        return StorageError(f"the PostgreSQL database has no securemem schema (or an older one); run: {MIGRATE}")
    if isinstance(exc, pgerrors.InsufficientPrivilege):
        return StorageError("the PostgreSQL role lacks a privilege securemem needs (see the README: roles and grants)")
    if isinstance(exc, pgerrors.DiskFull | pgerrors.OutOfMemory):
        return StoreFullError("the PostgreSQL server is out of disk or memory")
    if isinstance(exc, pgerrors.ReadOnlySqlTransaction):
        return StorageError("the PostgreSQL server is read-only (a standby?); connect to the primary")
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return StorageError(
            "lost the connection to the PostgreSQL server (or it refused one); check it is up and retry"
        )
    state = getattr(exc, "sqlstate", None) or "unknown"
    return StorageError(f"the PostgreSQL server refused an operation (SQLSTATE {state})")


class _Db:
    """One connection as pgschema.Db: every statement goes through here."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.made_keys: list[str] = []  # stores whose own key object this transaction made on the token
        self.heads: dict[int, tuple[Any, ...]] = {}  # a store's STORE_HEAD row, read with its name (_ns_of)
        self.deks: dict[int, tuple[str, bytes]] = {}  # a store's public id and sealed data key, read with it
        self.settings: list[tuple[Any, ...]] | None = None  # the _SETTINGS rows, read with a store's name

    def all(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params or None).fetchall()

    def one(self, sql: str, params: Any = ()) -> tuple[Any, ...] | None:
        return self.conn.execute(sql, params or None).fetchone()

    def run(self, sql: str, params: Any = ()) -> int:
        return self.conn.execute(sql, params or None).rowcount

    def run_many(self, sql: str, params: Any) -> None:
        if params:
            with self.conn.cursor() as cursor:
                cursor.executemany(sql, params)


def _configurer(lock_ms: int) -> Callable[[psycopg.Connection[Any]], None]:
    """What each new connection of the pool runs: the lock wait in milliseconds (PostgreSQL reads
    0 as "wait forever": a wait of 0 s is 1 ms, which fails as soon as the lock is held)."""
    setting = f"SET lock_timeout = {max(1, lock_ms)}"

    def configure(conn: psycopg.Connection[Any]) -> None:
        conn.execute(setting)

    return configure


class _DriverText(logging.Filter):
    """Drops the pool's records that carry a driver exception: psycopg_pool logs each failed
    connection attempt at WARNING with libpq's message, which for a malformed URL quotes the URL,
    password included, and Python prints an unconfigured WARNING to stderr. The caller gets
    securemem's own one-line error instead (``_connect_error``), which names no part of the URL."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return record.exc_info is None and not any(isinstance(arg, BaseException) for arg in args)


_QUIET = _DriverText()


def _quiet_pool_logs() -> None:
    for name in ("psycopg.pool", "psycopg_pool.sched"):
        logging.getLogger(name).addFilter(_QUIET)  # once: addFilter skips a filter already there


# The values libpq accepts for the connection parameters a URL names most; any other value is
# refused before a connection is tried, naming the parameter only (a value may be a secret).
_CHOICES = {
    "sslmode": ("disable", "allow", "prefer", "require", "verify-ca", "verify-full"),
    "gssencmode": ("disable", "prefer", "require"),
    "channel_binding": ("disable", "prefer", "require"),
    "target_session_attrs": ("any", "read-write", "read-only", "primary", "standby", "prefer-standby"),
    "load_balance_hosts": ("disable", "random"),
}


def _url_problem(url: str) -> StorageError | None:
    """What is wrong with ``url`` before any server is asked, or None: libpq reports a bad port or
    ``sslmode`` only as a failed connection, which reads as "the server is down"."""
    try:
        url.encode("utf-8")
        params = conninfo_to_dict(url)
    except UnicodeError:
        return StorageError("the PostgreSQL URL is not valid UTF-8")
    except psycopg.Error as exc:
        return _connect_error(exc)
    for port in str(params.get("port") or "").split(","):
        if port and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
            return StorageError("the PostgreSQL URL's port is not a number from 1 to 65535")
    for name, allowed in _CHOICES.items():
        if name in params and str(params[name]) not in allowed:
            return StorageError(f"the PostgreSQL URL's {name} is none of: {', '.join(allowed)}")
    timeout = str(params.get("connect_timeout") or "0")
    if not (timeout.isascii() and timeout.lstrip("-").isdigit()):
        return StorageError("the PostgreSQL URL's connect_timeout is not a whole number of seconds")
    return None


def _connect(url: str, **kwargs: Any) -> psycopg.Connection[Any]:
    """A connection to ``url``, or securemem's one-line error. The error is raised outside the
    driver's handler, so the driver's exception, whose text may quote the URL and its password, is
    not kept as its context (a logger or an error tracker would print it)."""
    failure = _url_problem(url)
    if failure is None:
        try:
            return psycopg.connect(url, **kwargs)
        except psycopg.Error as exc:
            failure = _connect_error(exc)
    raise failure


def _connect_error(exc: psycopg.Error) -> StorageError:
    if isinstance(exc, psycopg.ProgrammingError) and getattr(exc, "sqlstate", None) is None:
        # libpq could not read the URL (an unclosed "[", an unknown query parameter): no server was asked.
        return StorageError(
            "the PostgreSQL URL is malformed or has a query parameter libpq does not know (see libpq's "
            "connection URIs: postgresql://[user@]host[:port]/database[?param=value])"
        )
    if isinstance(exc, psycopg.OperationalError):
        return StorageError("cannot connect to the PostgreSQL server named by the URL (is it up? are the host, "
                            "port, database and role right?)")  # fmt: skip
    return translate(exc)


def migrate(
    url: str, *, schema: str | None = None, key: KeyProvider | None = None, kek: KekProvider | None = None
) -> tuple[int, int]:
    """Create or upgrade the schema of the database ``url`` names: (version before, version after).

    ``schema``: first create that PostgreSQL schema and migrate inside it (the tests' scratch
    schemas, in the same round trips). ``key`` or ``kek``: the deployment's, for an upgrade that
    seals every row again (pgschema.RESEALED); a schema with no rows yet needs neither."""

    def run(db: _Db) -> tuple[int, int]:
        if schema is not None:
            db.conn.execute(f'CREATE SCHEMA "{schema}"; SET LOCAL search_path = "{schema}"')
        db.run("SELECT pg_advisory_xact_lock(%s, %s)", MIGRATION_LOCK)
        return pgschema.migrate(db, None if key is None and kek is None else _resealer(key, kek))

    return _one_transaction(url, run)


def kek_entries(url: str, opener: KeyProvider | KekProvider | None) -> tuple[list[KekEntry], bool]:
    """The KEKs that wrap the deployment's master key; whether ``opener`` authenticated the list."""
    return _one_transaction(url, lambda db: pgkeys.kek_entries(db, opener))


def change_keks(url: str, opener: KeyProvider | KekProvider, **change: Any) -> KekChange:
    """``pgkeys.change_keks`` in one transaction of its own (``securemem keys`` on a PostgreSQL URL)."""
    return _one_transaction(url, lambda db: pgkeys.change_keks(db, opener, **change))


def _one_transaction(url: str, body: Callable[[_Db], _T]) -> _T:
    """``body`` on a connection of its own, in one transaction: committed if it returns, rolled
    back if it raises; psycopg's errors translated (the URL is never in a message)."""
    conn = _connect(url, autocommit=True)
    try:
        with conn:
            conn.execute("BEGIN")
            try:
                found = body(_Db(conn))
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except psycopg.OperationalError:
                raise OutcomeUnknownError(
                    "the connection to the PostgreSQL server broke as the change committed: it may have been "
                    "kept; look before you retry (securemem keys list after a key change; securemem migrate "
                    "again after a migration: it says the schema's version)"
                ) from None
            return found
    except (psycopg.OperationalError, psycopg.ProgrammingError) as exc:
        raise _connect_error(exc) from None
    except psycopg.Error as exc:
        raise translate(exc) from None


def _resealer(key: KeyProvider | None, kek: KekProvider | None) -> Callable[[Db, int], None]:
    """What seals a migrated database's rows again: its stores' keys, unwrapped on the migration's connection."""

    def reseal(db: Db, step: int) -> None:
        assert step == 1  # the only step in pgschema.RESEALED
        master, own_keys = unlock(db, key, kek, check=False)
        reseal_schema1(db, lambda ns, public_id, blob: store_keys(master, own_keys, ns, public_id, blob))
        listed = db.one("SELECT value FROM sm_meta WHERE key = 'master'")
        assert listed is not None  # unlock found it
        db.run("INSERT INTO sm_meta (key, value) VALUES ('keks', %s)", (seal_keks(master, str(listed[0])),))
        settings = {str(k): str(v) for k, v in db.all("SELECT key, value FROM sm_meta WHERE key LIKE 'setting:%'")}
        db.run("INSERT INTO sm_meta (key, value) VALUES ('settings', %s)",
               (master.seal_meta("settings", settings_digest(settings)),))  # fmt: skip

    return reseal


def store_keys(master: MasterKeys, own_keys: OwnKeys | None, ns: int, public_id: str, blob: bytes) -> StoreKeys:
    """A store's keys from its row's sealed data key: the master key's seal, and under it, where the
    deployment keeps one, the seal by the store's own key object on the token. A data key only the
    master key wraps is the key itself: a store's own-key seal found there is refused, never used."""
    sealed = master.unwrap_dek(ns, public_id, blob)
    if own_keys is not None:
        return StoreKeys(ns, own_keys.unwrap(public_id, sealed))
    if len(sealed) != pgseal.KEY_BYTES:
        raise DamagedStoreError(TAMPERED)
    return StoreKeys(ns, sealed)


class PostgresStore:
    """Every store of one deployment in one PostgreSQL database (or schema)."""

    def __init__(
        self, pool: ConnectionPool[Any], master: MasterKeys, own_keys: OwnKeys | None = None, lock_space: int = 0
    ) -> None:
        self._pool = pool
        self._lock_space = lock_space  # the first key of every store lock: see _SCHEMA_OF_STORES
        self._master = master
        self._own_keys = own_keys
        # Each store's keys, with the sealed data key they came from: a rotation by another handle
        # changes the row's, and the next transaction unwraps the new one (never serves the old).
        self._keys: dict[int, tuple[bytes, StoreKeys]] = {}
        self.history_settings = History()
        self._durability = "full"
        self._closed = False
        # The transaction this thread has open, if any: a setting read inside it (the policy check
        # each command makes under the lock) uses its connection, not a second one from the pool,
        # which eight threads each holding one and waiting for another would exhaust.
        self._local = threading.local()
        # The settings rows last checked, the sealed values they vouch for, and the values opened.
        self._opened_settings: tuple[tuple[tuple[str, str], ...], dict[str, str], dict[str, str]] | None = None

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        url: str,
        *,
        key: KeyProvider | None = None,
        kek: KekProvider | None = None,
        create: bool = True,
        wait: float | None = None,
    ) -> PostgresStore:
        """Connect, check the schema and unwrap the master key. ``create`` is accepted for the
        factory's sake: a migrated database gets its master key on its first open either way.
        ``wait``: the seconds a command waits for a lock another writer holds (None: 30)."""
        del create
        _quiet_pool_logs()
        # one direct attempt first: a refused login or a server that is down answers at once,
        # where the pool would retry until its timeout (10 s) before saying anything
        _connect(url, autocommit=True, connect_timeout=10).close()
        lock_ms = LOCK_TIMEOUT_MS if wait is None else round(wait * 1000)
        pool: ConnectionPool[Any] = ConnectionPool(
            url, min_size=1, max_size=POOL_SIZE, open=False, kwargs={"autocommit": True},
            configure=_configurer(lock_ms), num_workers=1, timeout=LOCK_TIMEOUT_MS / 1000,
        )  # fmt: skip
        failure = None
        try:
            pool.open(wait=True, timeout=10)
        except psycopg.Error as exc:
            pool.close()
            failure = _connect_error(exc)
        if failure is not None:
            raise failure  # outside the handler: see _connect
        try:
            with pool.connection() as conn:
                master, own_keys = unlock(_Db(conn), key, kek)
                space = _lock_space(_Db(conn))
        except psycopg.Error as exc:
            pool.close()
            raise translate(exc) from None
        except BaseException:
            pool.close()
            raise
        return cls(pool, master, own_keys, space)

    @property
    def store_id(self) -> str:
        return self._master.deployment

    @property
    def token_key(self) -> bytes:
        return self._master.token_key

    def configure(self, *, durability: str, erase_within: float, history: History | None = None) -> None:
        del erase_within  # rule 5 on a server: see the module's docstring and the README
        self._durability = durability
        if history is not None:
            self.history_settings = history

    # -- transactions ----------------------------------------------------------------------

    @contextmanager
    def _connection(self, *, write: bool) -> Iterator[_Db]:
        """A connection in a transaction: committed when the body returns, rolled back if it raises;
        psycopg's errors translated."""
        if self._closed:
            raise StorageError("the memory store is closed")
        begin = "BEGIN ISOLATION LEVEL READ COMMITTED" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        try:
            with self._checked_out(begin) as conn:
                if write and self._durability == "normal":
                    conn.execute("SET LOCAL synchronous_commit = off")
                db = _Db(conn)
                try:
                    yield db
                except BaseException:
                    if not conn.closed:
                        conn.execute("ROLLBACK")
                    self._forget_made_keys(db)
                    raise
                self._commit(db)
        except psycopg.Error as exc:
            raise translate(exc) from None

    def _commit(self, db: _Db) -> None:
        try:
            db.conn.execute("COMMIT")
        except psycopg.OperationalError:
            raise  # the outcome is unknown (the link broke): a key object of a store that exists stays
        except psycopg.Error:
            self._forget_made_keys(db)  # the server refused the commit: nothing of it was kept
            raise

    def _forget_made_keys(self, db: _Db) -> None:
        """The key objects a transaction that did not commit made on the token: destroyed, since no
        store row names them (each would stay on the HSM, shared with other applications, for good)."""
        if self._own_keys is not None:
            for public_id in db.made_keys:
                try:
                    self._own_keys.destroy(public_id)
                except KekError:  # the token is gone too: the error that ended the transaction is the one to tell
                    break
        db.made_keys.clear()

    def _statement(self, sql: str, params: Any) -> list[tuple[Any, ...]]:
        """One read statement on its own (atomic by itself): no BEGIN and COMMIT round trips. A
        pooled connection the server dropped is replaced, as in ``_checked_out``."""
        if self._closed:
            raise StorageError("the memory store is closed")
        try:
            for attempt in range(POOL_SIZE + 1):
                with self._pool.connection() as conn:
                    try:
                        rows: list[tuple[Any, ...]] = conn.execute(sql, params).fetchall()
                        return rows
                    except psycopg.OperationalError:
                        if attempt == POOL_SIZE or not conn.closed:
                            raise
            raise AssertionError("unreachable")
        except psycopg.Error as exc:
            raise translate(exc) from None

    @contextmanager
    def _checked_out(self, begin: str) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection on which ``begin`` ran. A connection the server dropped while it sat
        in the pool (a restart, a failover, an idle timeout) fails at BEGIN, before anything was
        done: it is discarded and the next one tried, so only a server still down is an error."""
        for attempt in range(POOL_SIZE + 1):
            with self._pool.connection() as conn:
                try:
                    conn.execute(begin)
                except psycopg.OperationalError:
                    if attempt == POOL_SIZE or not conn.closed:
                        raise
                    continue
                yield conn
                return

    @contextmanager
    def transaction(
        self,
        namespace: str,
        *,
        write: bool,
        clock: Clock,
        actor: Actor | None = None,
        create: bool = True,
        history: History | None = None,
        store_key: int | None = None,
    ) -> Iterator[PgTx]:
        with self._connection(write=write) as db:
            ns = self._resolve(db, namespace, write=write, create=create, store_key=store_key)
            if ns is not None and write:
                self.lock(db, ns)
                ns = self._relocked(db, namespace, ns, create=create, store_key=store_key)
            now = clock()  # rule 2: read once the lock is held
            keys = self.keys_of(db, ns) if ns is not None else StoreKeys(-1, os.urandom(32))
            head = db.heads.get(ns) if ns is not None else None
            log = PgVersionLog(db, keys, now, actor or _NOBODY, history or self.history_settings, head=head)
            tx = PgTx(self, db, keys, now, log)
            tx.write = write
            outer, self._local.db = getattr(self._local, "db", None), db
            try:
                yield tx
            finally:
                self._local.db = outer
                tx.release()

    def _resolve(self, db: _Db, namespace: str, *, write: bool, create: bool, store_key: int | None) -> int | None:
        if store_key is not None:
            self._still_there(db, store_key)
            return store_key
        ns = self._ns_of(db, namespace)
        if ns is None and write:
            if not create:
                raise MissingStore("the store does not exist (it was deleted)")
            ns = self._insert_store(db, namespace, "", time.time(), quiet=True)
            if ns is None:  # made by another process meanwhile
                ns = self._ns_of(db, namespace)
        return ns

    def _relocked(self, db: _Db, namespace: str, ns: int, *, create: bool, store_key: int | None) -> int:
        """The store to write, checked again once its lock is held: a delete queued ahead of this
        write may have committed while it waited, and (READ COMMITTED) this statement sees it. A
        store gone is an error, or, for a handle that may create, a new store of the name (as the
        SQLCipher store does): never rows written under a deleted store's number."""
        if store_key is not None:
            self._still_there(db, ns)
            return ns
        for _ in range(POOL_SIZE):
            now = self._ns_of(db, namespace)
            if now == ns:
                return ns
            if now is None and not create:
                raise MissingStore("the store does not exist (it was deleted)")
            found = self._resolve(db, namespace, write=True, create=create, store_key=None) if now is None else now
            if found is None:  # made by another process, and deleted again, meanwhile
                break
            ns = found
            self.lock(db, ns)
        raise StoreBusyError("the store was deleted and made again while this write waited; retry")

    def _still_there(self, db: _Db, ns: int) -> None:
        """The store numbered ``ns`` exists; its sealed data key is kept for the transaction."""
        row = db.one("SELECT public_id, dek FROM sm_stores WHERE id = %s", (ns,))
        if row is None:
            raise MissingStore("the store does not exist (it was deleted)")
        db.deks[ns] = (str(row[0]), bytes(row[1]))

    def _ns_by_key(self, db: Db, key: int) -> int | None:
        row = db.one("SELECT id FROM sm_stores WHERE id = %s", (key,))
        return None if row is None else int(row[0])

    def _ns_of(self, db: Db, name: str) -> int | None:
        """The store of that name, by its token; with the store's head (STORE_HEAD) kept on the
        connection for the transaction's version log, which then asks nothing more."""
        row = db.one(
            f"SELECT s.public_id, s.name_ct, s.dek, ({_SETTINGS_JSON}), {HEAD_COLUMNS} FROM {HEAD_FROM} "
            "WHERE s.name_tok = %s",
            (self._master.name_token(name),),
        )
        if row is None:
            return None
        ns = int(row[4])
        self._check_name(ns, str(row[0]), bytes(row[1]), bytes(row[2]), name)
        if isinstance(db, _Db):
            db.heads[ns] = row[4:]
            db.deks[ns] = (str(row[0]), bytes(row[2]))
            db.settings = [tuple(pair) for pair in row[3]]
        return ns

    def _check_name(self, ns: int, public_id: str, name_ct: bytes, dek: bytes, name: str) -> None:
        """The row a name token found is the store of that name: ``name_tok`` is a clear column, and a
        token moved to another row by SQL would send every agent of one store into another."""
        if self.unseal_dek(ns, public_id, dek).open_text("store-name", public_id, name_ct) != name:
            raise DamagedStoreError(TAMPERED)

    def lock(self, db: Db, ns: int) -> None:
        """The store's write lock until the transaction ends (rule 1, across processes and hosts)."""
        db.one("SELECT pg_advisory_xact_lock(%s::int4, %s::int4)", (self._lock_space, ns))

    def _try_lock(self, db: Db, ns: int) -> bool:
        row = db.one("SELECT pg_try_advisory_xact_lock(%s::int4, %s::int4)", (self._lock_space, ns))
        return bool(row and row[0])

    def keys_of(self, db: Db, ns: int) -> StoreKeys:
        """A store's data key as its row holds it now, unsealed with the master key (the sealed key
        read with the store in this transaction, else read here)."""
        known = db.deks.get(ns) if isinstance(db, _Db) else None
        if known is None:
            row = db.one("SELECT public_id, dek FROM sm_stores WHERE id = %s", (ns,))
            if row is None:
                raise MissingStore("the store does not exist (it was deleted)")
            known = (str(row[0]), bytes(row[1]))
        return self.unseal_dek(ns, *known)

    def unseal_dek(self, ns: int, public_id: str, blob: bytes) -> StoreKeys:
        """A store's keys from its row's sealed data key (kept while the row keeps that key)."""
        found = self._keys.get(ns)
        if found is None or found[0] != blob:
            found = self._keys[ns] = (blob, store_keys(self._master, self._own_keys, ns, public_id, blob))
        return found[1]

    def sibling_ns(self, db: Db, namespace: str, store_key: int | None) -> int | None:
        if store_key is not None:
            row = db.one("SELECT id FROM sm_stores WHERE id = %s", (store_key,))
            return None if row is None else int(row[0])
        return self._ns_of(db, namespace)

    def next_memory(self, db: Db, ns: int) -> int:
        """A memory number no file of the store and no version anywhere has had (the store's lock is
        held). The sequence alone is not trusted: SQL can restart it, and two files sharing a number
        would share their content's binding (pgseal.py). Both maxima are one index probe each."""
        row = db.one(
            "SELECT greatest(nextval('sm_memory_numbers'), coalesce((SELECT max(memory) FROM sm_versions), 0) + 1, "
            "coalesce((SELECT max(memory) FROM sm_entries WHERE ns = %s AND NOT is_dir), 0) + 1)",
            (ns,),
        )
        assert row is not None
        return int(row[0])

    # -- stores ----------------------------------------------------------------------------

    def _insert_store(self, db: _Db, name: str, description: str, now: float, *, quiet: bool = False) -> int | None:
        """A new store row (its own data key, sealed); None when the name is taken."""
        row = db.one("SELECT nextval(pg_get_serial_sequence('sm_stores', 'id'))")
        assert row is not None
        ns, public_id = int(row[0]), "memstore_" + secrets.token_hex(12)
        m, dek = self._master, os.urandom(32)
        sealed = dek if self._own_keys is None else b""  # its own key object: once the row is known new
        keys = StoreKeys(ns, dek)
        made = db.one(
            "INSERT INTO sm_stores (id, public_id, name_tok, name_ct, desc_ct, dek, created, updated, tail_ct) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (name_tok) DO NOTHING RETURNING id",
            (ns, public_id, m.name_token(name), keys.seal_text("store-name", public_id, name),
             keys.seal_text("store-description", public_id, description), m.wrap_dek(ns, public_id, sealed),
             now, now, keys.seal_tail(empty_tail(ns))),
        )  # fmt: skip
        del quiet
        if made is not None and self._own_keys is not None:
            self._own_key(db, ns, public_id, dek)
        return None if made is None else ns

    def _own_key(self, db: _Db, ns: int, public_id: str, dek: bytes) -> None:
        """The new store's key object on the token, made only once its row is in (a name already
        taken makes none), and destroyed if the transaction then fails (``_forget_made_keys``)."""
        assert self._own_keys is not None
        db.made_keys.append(public_id)
        sealed = self._own_keys.create(public_id, dek)
        db.run("UPDATE sm_stores SET dek = %s WHERE id = %s", (self._master.wrap_dek(ns, public_id, sealed), ns))

    def _info(self, row: tuple[Any, ...]) -> StoreInfo:
        ns, public_id = int(row[0]), str(row[1])
        keys = self.unseal_dek(ns, public_id, bytes(row[6]))
        name = keys.open_text("store-name", public_id, bytes(row[2]))
        description = keys.open_text("store-description", public_id, bytes(row[3]))
        return StoreInfo(ns, public_id, name, description, float(row[4]), float(row[5]))

    def namespaces(self) -> list[str]:
        with self._connection(write=False) as db:
            rows = db.all(f"SELECT {_STORE_COLS} FROM sm_stores")
            return sorted(self._info(r).name for r in rows)

    def list_stores(self, after: int | None, limit: int) -> list[StoreInfo]:
        with self._connection(write=False) as db:
            rows = db.all(
                f"SELECT {_STORE_COLS} FROM sm_stores WHERE id > %s ORDER BY id LIMIT %s", (after or 0, limit)
            )
            return [self._info(r) for r in rows]

    def find_store(self, *, store_id: str | None = None, name: str | None = None) -> StoreInfo | None:
        if name is not None:
            rows = self._statement(
                f"SELECT {_STORE_COLS} FROM sm_stores WHERE name_tok = %s", (self._master.name_token(name),)
            )
        else:
            rows = self._statement(f"SELECT {_STORE_COLS} FROM sm_stores WHERE public_id = %s", (store_id,))
        found = self._info(rows[0]) if rows else None
        if found is not None and name is not None and found.name != name:
            raise DamagedStoreError(TAMPERED)  # the token of another store's name (see _check_name)
        return found

    def create_store(self, name: str, description: str, now: float) -> StoreInfo | None:
        with self._connection(write=True) as db:
            ns = self._insert_store(db, name, description, now)
            if ns is None:
                return None
            row = db.one(f"SELECT {_STORE_COLS} FROM sm_stores WHERE id = %s", (ns,))
            assert row is not None
            return self._info(row)

    def update_store(self, store_id: str, name: str | None, description: str | None, now: float) -> StoreInfo | None:
        with self._connection(write=True) as db:
            row = db.one("SELECT id FROM sm_stores WHERE public_id = %s", (store_id,))
            if row is None:
                return None
            ns, m = int(row[0]), self._master
            # The store's write lock, as every writer of its rows takes it (a data key rotation
            # re-seals the name and description), then its row, read again under it.
            self.lock(db, ns)
            if db.one("SELECT id FROM sm_stores WHERE id = %s FOR UPDATE", (ns,)) is None:
                return None  # deleted while this waited
            self._still_there(db, ns)
            keys = self.keys_of(db, ns)
            if name is not None:
                try:
                    db.run("UPDATE sm_stores SET name_tok = %s, name_ct = %s WHERE id = %s",
                           (m.name_token(name), keys.seal_text("store-name", store_id, name), ns))  # fmt: skip
                except pgerrors.UniqueViolation:
                    raise NameTaken("a store with that name exists") from None
            if description is not None:
                db.run("UPDATE sm_stores SET desc_ct = %s WHERE id = %s",
                       (keys.seal_text("store-description", store_id, description), ns))  # fmt: skip
            db.run("UPDATE sm_stores SET updated = %s WHERE id = %s", (now, ns))
            found = db.one(f"SELECT {_STORE_COLS} FROM sm_stores WHERE id = %s", (ns,))
            assert found is not None
            return self._info(found)

    def drop_namespace(self, name: str) -> bool:
        """Delete a store: its rows, its versions and its data key (crypto-shredding: see README)."""
        with self._connection(write=True) as db:
            ns = self._ns_of(db, name)
            if ns is None:
                return False
            self.lock(db, ns)
            found = db.one("SELECT public_id FROM sm_stores WHERE id = %s", (ns,))
            if found is None:  # another deletion committed while this one waited for the lock
                return False
            db.run("DELETE FROM sm_versions WHERE seq BETWEEN %s AND %s", seq_range(ns))
            db.run("DELETE FROM sm_entries WHERE ns = %s", (ns,))
            db.run("DELETE FROM sm_stores WHERE id = %s", (ns,))
        self._keys.pop(ns, None)
        if self._own_keys is not None and found is not None:
            # After the commit: a deletion rolled back must not have lost its key. A crash in
            # between leaves the object on the token (the store's old dumps stay readable): the
            # README says how to find such objects.
            self._own_keys.destroy(str(found[0]))
        return True

    def chain(self, namespace: str, *, store_key: int | None = None) -> Iterator[VersionRow]:
        with self._connection(write=False) as db:
            ns = self._ns_of(db, namespace) if store_key is None else self._ns_by_key(db, store_key)
            if ns is not None:
                yield from chain_rows(db, self.keys_of(db, ns))

    # -- settings --------------------------------------------------------------------------

    def get_setting(self, name: str) -> str | None:
        """A store-wide setting (the policy), read with every other one and checked against their
        sealed digest: one written back from a dump, or deleted, by SQL alone is refused."""
        current: _Db | None = getattr(self._local, "db", None)
        if current is None:
            rows = self._statement(_SETTINGS, None)
        else:  # read with the store's name when the transaction began (after its lock, for a write)
            rows = current.settings if current.settings is not None else current.all(_SETTINGS)
        key = tuple(sorted((str(k), str(v)) for k, v in rows))
        cached = self._opened_settings
        if cached is None or cached[0] != key:  # rows as last checked (ciphertext and all): the same answer
            cached = self._opened_settings = (key, self._settings(rows), {})
        sealed = cached[1].get(f"setting:{name}")
        if sealed is None:
            return None
        if name not in cached[2]:
            cached[2][name] = self._master.open_setting(name, sealed)
        return cached[2][name]

    def set_setting(self, name: str, value: str) -> None:
        with self._connection(write=True) as db:
            db.run("SELECT pg_advisory_xact_lock(%s, %s)", MIGRATION_LOCK)  # one change of the settings at a time
            settings = self._settings(db.all(_SETTINGS))
            settings[f"setting:{name}"] = self._master.seal_setting(name, value)
            db.run(_UPSERT_META, (f"setting:{name}", settings[f"setting:{name}"]))
            db.run(_UPSERT_META, ("settings", self._master.seal_meta("settings", settings_digest(settings))))

    def _settings(self, rows: list[tuple[Any, ...]]) -> dict[str, str]:
        """The setting rows (``setting:<name>`` -> sealed value), once their sealed digest vouches for them."""
        found = {str(key): str(value) for key, value in rows}
        digest = self._master.open_meta("settings", found.pop("settings", None))
        if digest != settings_digest(found):
            raise DamagedStoreError(TAMPERED)
        return found

    # -- maintenance -----------------------------------------------------------------------

    def sweep_batch(self, now: float, limit: int) -> int:
        """Up to ``limit`` expired entries, store by store, each store in its own short transaction.

        A store another sweeper (or a writer) holds is skipped (``pg_try_advisory_xact_lock``),
        and rows are taken ``FOR UPDATE SKIP LOCKED``: several sweepers share the work, never
        repeat it. Only when every store with expired rows is busy does this one wait for one."""
        with self._connection(write=False) as db:
            due = [int(r[0]) for r in db.all(
                "SELECT DISTINCT ns FROM sm_entries WHERE expires IS NOT NULL AND expires <= %s LIMIT 64", (now,)
            )]  # fmt: skip
        done = 0
        for ns in due:
            if done >= limit:
                break
            done += self._sweep_store(ns, now, limit - done, wait=False)
        if done == 0 and due:
            done = self._sweep_store(due[0], now, limit, wait=True)
        return done

    def _sweep_store(self, ns: int, now: float, limit: int, *, wait: bool) -> int:
        with self._connection(write=True) as db:
            if wait:
                self.lock(db, ns)
            elif not self._try_lock(db, ns):
                return 0
            if db.one("SELECT 1 FROM sm_stores WHERE id = %s", (ns,)) is None:
                return 0
            log = PgVersionLog(db, self.keys_of(db, ns), now, _NOBODY, self.history_settings)
            return purge(db, log, limit, now)

    def count_expired(self, now: float) -> int:
        rows = self._statement("SELECT count(*) FROM sm_entries WHERE expires IS NOT NULL AND expires <= %s", (now,))
        return int(rows[0][0])

    def recount_history(self) -> None:
        """Each store's history total summed again from its versions, one store per transaction under
        its write lock: a sum read while a writer of the store held it would miss that writer's
        version when the writer commits, for good."""
        with self._connection(write=False) as db:
            stores = [int(r[0]) for r in db.all("SELECT id FROM sm_stores ORDER BY id")]
        for ns in stores:
            with self._connection(write=True) as db:
                self.lock(db, ns)
                db.run(
                    "UPDATE sm_stores SET history_bytes = (SELECT coalesce(sum(hbytes + CASE WHEN op = 4 THEN 0 "
                    "ELSE %s END), 0) FROM sm_versions WHERE seq BETWEEN %s AND %s) WHERE id = %s",
                    (ROW_SHARE, *seq_range(ns), ns),
                )

    def expire_history(self, now: float, before: float, limit: int) -> int:
        """Redact up to ``limit`` versions created before ``before`` that still hold content."""
        with self._connection(write=False) as db:
            rows = db.all(
                "SELECT seq, memory FROM sm_versions WHERE created < %s AND redacted IS NULL AND op < 4 "
                "AND meta_ct IS NOT NULL ORDER BY seq LIMIT %s",
                (before, limit),
            )
        by_store: dict[int, list[tuple[int, int]]] = {}
        for seq, memory in rows:
            by_store.setdefault(int(seq) >> 40, []).append((int(seq), int(memory)))
        done = 0
        for ns, found in by_store.items():
            with self._connection(write=True) as db:
                self.lock(db, ns)
                if db.one("SELECT 1 FROM sm_stores WHERE id = %s", (ns,)) is None:
                    continue
                log = PgVersionLog(db, self.keys_of(db, ns), now, Actor(None, EXPIRY_ACTOR), self.history_settings)
                for seq, memory in found:
                    if db.one("SELECT 1 FROM sm_versions WHERE seq = %s AND redacted IS NULL", (seq,)) is not None:
                        log.redact(seq, memory)
                        done += 1
        return done

    def rotate_data_keys(self) -> int:
        """Give every store a new data key, one store per transaction under its write lock
        (pgrotate.py); the number of stores. A store deleted meanwhile is skipped."""
        with self._connection(write=False) as db:
            stores = [(int(r[0]), str(r[1])) for r in db.all("SELECT id, public_id FROM sm_stores ORDER BY id")]
        done = 0
        for ns, public_id in stores:
            with self._connection(write=True) as db:
                self.lock(db, ns)
                row = db.one("SELECT dek FROM sm_stores WHERE id = %s", (ns,))
                if row is None:
                    continue
                old = self.unseal_dek(ns, public_id, bytes(row[0]))
                check_tail(db, old)  # the history whole first
                rotate_store_key(db, self._master, public_id=public_id, old=old, own=self._own_keys)
                done += 1
            self._keys.pop(ns, None)  # the row's new key is unwrapped at the next transaction
        return done

    def integrity_errors(self) -> list[str]:
        """Stores whose data key does not unseal (a row changed outside securemem)."""
        problems = []
        with self._connection(write=False) as db:
            for ns, public_id, dek in db.all("SELECT id, public_id, dek FROM sm_stores ORDER BY id"):
                try:
                    self._keys.pop(int(ns), None)
                    self.unseal_dek(int(ns), str(public_id), bytes(dek))
                except StorageError:
                    problems.append(f"store {public_id}: its data key fails its check")
        return problems

    def flush_erasure(self) -> None:
        return None  # nothing this handle can do; VACUUM (autovacuum) reclaims dead tuples (README)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._pool.close()


def _lock_space(db: _Db) -> int:
    """The schema's oid as an int4 (oids are unsigned 32-bit): the first key of its stores' locks."""
    row = db.one(_SCHEMA_OF_STORES)
    assert row is not None
    oid = int(row[0])
    return oid - (1 << 32) if oid >= 1 << 31 else oid
