"""The PostgreSQL server the tests use: one database per test session, one schema per store.

The server comes from ``$SECUREMEM_TEST_POSTGRES`` (default: the local server, trust auth). The
session makes its own database (``securemem_test_<pid>_<random>``) on first use and drops it at the
end (``pytest_sessionfinish`` in conftest.py); each test's store gets a fresh schema in it,
migrated by ``securemem.store.postgres.migrate`` as an operator would. Where no server answers,
the tests that need one skip with one line; with ``SECUREMEM_REQUIRE_POSTGRES=1`` (CI sets it) or
``CI`` set, they fail instead.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Collection
from typing import Any
from urllib.parse import quote

import psycopg
import pytest

from securemem import Admin, SecureMemory
from securemem.store.factory import open_store
from securemem.store.postgres import PostgresStore, migrate

SERVER = os.environ.get("SECUREMEM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


class Scratch:
    """The session's database, made on first use; a fresh schema (and store URL) per call."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.database: str | None = None
        self.failure: str | None = None
        self._lock = threading.Lock()
        self._count = 0

    def _admin(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.server, autocommit=True, connect_timeout=5)

    def _ensure(self) -> str:
        with self._lock:
            if self.database is None and self.failure is None:
                try:
                    with self._admin() as conn:
                        name = f"securemem_test_{os.getpid()}_{secrets.token_hex(4)}"
                        conn.execute(f'CREATE DATABASE "{name}"')
                        self.database = name
                except psycopg.Error:
                    self.failure = "no PostgreSQL server answers at $SECUREMEM_TEST_POSTGRES"
            if self.database is None:
                _require(False, self.failure or "PostgreSQL")
            assert self.database is not None
            return self.database

    def url(self, schema: str | None = None) -> str:
        """A URL of the session's database; with ``schema``, connections use that schema only."""
        database = self._ensure()
        base = self.server.rsplit("/", 1)[0] + "/" + database
        return base if schema is None else f"{base}?options={quote(f'-csearch_path={schema}')}"

    def fresh_url(self, *, migrated: bool = True) -> str:
        """A new, empty schema (migrated unless told otherwise): the URL of a store of its own."""
        with self._lock:
            self._count += 1
            schema = f"t{self._count}_{secrets.token_hex(3)}"
        if migrated:
            migrate(self.url(), schema=schema)  # made and migrated in one transaction
        else:
            with psycopg.connect(self.url(), autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
        return self.url(schema)

    def store(self, key: object = None, **kwargs: Any) -> PostgresStore:
        store = open_store(self.fresh_url(), key if key is not None or "kek" in kwargs else os.urandom(32), **kwargs)
        assert isinstance(store, PostgresStore)
        return store

    def drop(self) -> None:
        if self.database is not None:
            drop_databases(self.server, [self.database])
        self.database = None


def drop_databases(server: str, names: Collection[str]) -> None:
    """Drop the databases ``names`` of ``server`` together, each on a connection of its own.

    A DROP DATABASE discards its database's pages from the server's buffers, then forces a
    checkpoint, which writes every dirty page left, other databases' included: dropped one after
    the other, each session database's drop would first write the pages of those still to go
    (seconds, at the end of a session); dropped together, each one's pages are discarded before
    the checkpoints reach them."""

    def drop(name: str) -> None:
        with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    threads = [threading.Thread(target=drop, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def sql(url: str) -> psycopg.Connection[Any]:
    """A superuser's connection to a store's schema: the DBA, with full SQL and no key."""
    return psycopg.connect(url, autocommit=True)


def _require(available: bool, what: str) -> None:
    if available:
        return
    if os.environ.get("SECUREMEM_REQUIRE_POSTGRES") == "1" or os.environ.get("CI"):
        pytest.fail(f"{what}, and SECUREMEM_REQUIRE_POSTGRES or CI is set: start PostgreSQL or fix the URL")
    pytest.skip(f"{what} (set SECUREMEM_TEST_POSTGRES to a server to run the PostgreSQL tests)")


PG = Scratch(SERVER)


def audit_verify(url: str, key: bytes) -> tuple[int, str]:
    """``securemem audit verify --db URL`` in a child process with the key in its environment:
    its exit code and stdout."""
    run = subprocess.run(
        [sys.executable, "-m", "securemem.cli", "audit", "verify", "--db", url],
        capture_output=True, text=True, timeout=120, env={**os.environ, "SECUREMEM_KEY": key.hex()},
    )  # fmt: skip
    return run.returncode, run.stdout


def put_row_back(conn: psycopg.Connection[Any], row: tuple[Any, ...]) -> None:
    """Insert an ``sm_entries`` row as a DBA would from a dump (every column, as it was)."""
    conn.execute(f"INSERT INTO sm_entries VALUES ({', '.join(['%s'] * len(row))})", row)


def view_of(memory: SecureMemory, path: str) -> tuple[bool, str]:
    """A view's (is_error, text)."""
    result = memory.execute({"command": "view", "path": path})
    assert isinstance(result.content, str)
    return result.is_error, result.content


def newest_version(url: str) -> int:
    """The number of the newest version in the database."""
    with sql(url) as conn:
        row = conn.execute("SELECT max(seq) FROM sm_versions").fetchone()
        assert row is not None
        return int(row[0])


def deleted_then_put_back(
    memory: SecureMemory, url: str, path: str, text: str, between: Callable[[], object] | None = None
) -> None:
    """Create ``path``, keep its row as a dump would, delete it (then run ``between``), and put the
    row back by SQL: the DBA's undoing of a deletion."""
    from tests.helpers import ok

    ok(memory, command="create", path=path, file_text=text)
    with sql(url) as conn:
        row = conn.execute("SELECT * FROM sm_entries WHERE NOT is_dir ORDER BY memory DESC LIMIT 1").fetchone()
        assert row is not None
        ok(memory, command="delete", path=path)
        if between is not None:
            between()
        put_row_back(conn, row)


def served_versions(admin: Admin, store_id: str) -> list[str]:
    """The content of every version of the store a read hands out (or the error that refused it)."""
    served: list[str] = []
    try:
        for version in admin.memory_versions.list(store_id).data:
            served.append(admin.memory_versions.retrieve(store_id, version.id).content or "")
    except Exception as exc:  # refused, whichever way: what it said is checked by the caller
        served.append(str(exc))
    return served


def redaction_undone(url: str, key: bytes, also: str | None = None) -> str:
    """A version redacted by an operator, then its old ciphertexts written back by SQL with
    ``redacted`` cleared (and the SQL ``also`` run first): what retrieving it serves, or the error
    that refused it."""
    with Admin.open(url, key=key) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="jane@example.org 555-0100\n")
        admin.memories.update(store.id, memory.id, content="(contact removed)\n")
        first = admin.memory_versions.list(store.id, memory_id=memory.id).data[-1]
        with sql(url) as conn:
            saved = conn.execute(
                "SELECT seq, meta_ct, data_ct, hbytes FROM sm_versions ORDER BY seq LIMIT 1"
            ).fetchone()
            assert saved is not None
            admin.memory_versions.redact(store.id, first.id)
            if also is not None:
                conn.execute(also)
            conn.execute(_PUT_BACK, (saved[1], saved[2], saved[3], saved[0]))
        try:
            return admin.memory_versions.retrieve(store.id, first.id).content or ""
        except Exception as exc:  # refused, whichever way: the caller checks what it said
            return str(exc)


_SAVED = "SELECT seq, meta_ct, data_ct, hbytes FROM sm_versions"
_PUT_BACK = "UPDATE sm_versions SET meta_ct = %s, data_ct = %s, hbytes = %s, redacted = NULL WHERE seq = %s"


def expiry_undone(url: str, key: bytes, also: str | None = None) -> list[str]:
    """A file that expired (its versions erased by the sweep, ``redact_expired``), then its
    versions' old ciphertexts written back by SQL with ``redacted`` cleared (then the SQL ``also``
    run): what retrieving each version serves, or the error that refused it."""
    from securemem.policy import TTLSettings, load_policy
    from securemem.sweep import sweep
    from tests.helpers import ok

    now = [1_900_000_000.0]
    policy = load_policy("default").model_copy(update={"ttl": TTLSettings(expire_after=60)})
    with SecureMemory.open(url, key=key, clock=lambda: now[0], policy=policy) as memory:
        ok(memory, command="create", path="/memories/short.md", file_text="jane@example.org 555-0100\n")
        with sql(url) as conn:
            saved = conn.execute(_SAVED).fetchall()
        now[0] += 120
        assert sweep(memory.store, now[0]).deleted >= 1  # the expiry: the row goes, its versions erased
    with sql(url) as conn:
        assert conn.execute("SELECT count(*) FROM sm_versions WHERE redacted IS NULL AND op = 0").fetchone() == (0,)
        for seq, meta, data, hbytes in saved:
            conn.execute(_PUT_BACK, (meta, data, hbytes, seq))
        if also is not None:
            conn.execute(also)
    with Admin.open(url, key=key, clock=lambda: now[0]) as admin:
        return served_versions(admin, admin.memory_stores.list().data[0].id)


_SUMS = (
    "SELECT ns, count(*) FILTER (WHERE NOT is_dir), count(*) FILTER (WHERE is_dir AND length(tok) > 8), "
    "coalesce(sum(size) FILTER (WHERE NOT is_dir), 0), coalesce(sum(pbytes) FILTER (WHERE length(tok) > 8), 0) "
    "FROM sm_entries GROUP BY ns"
)


def totals_match(url: str) -> None:
    """Each store's totals in ``sm_stores`` are what its rows sum to (pgtx._counted)."""
    with sql(url) as conn:
        kept = {
            int(r[0]): tuple(int(v) for v in r[1:])
            for r in conn.execute("SELECT id, files, dirs, bytes, pbytes FROM sm_stores")
        }
        summed = {int(r[0]): tuple(int(v) for v in r[1:]) for r in conn.execute(_SUMS)}
    for ns, totals in kept.items():
        assert totals == summed.get(ns, (0, 0, 0, 0)), f"store {ns}: kept {totals}, rows hold {summed.get(ns)}"


def schema_oid(conn: psycopg.Connection[Any]) -> int:
    """store/postgres.py: a store's advisory lock is (the oid of the schema of sm_stores, its number)."""
    row = conn.execute("SELECT relnamespace::int8 FROM pg_class WHERE oid = 'sm_stores'::regclass").fetchone()
    assert row is not None
    return int(row[0])


def hold_store_lock(conn: psycopg.Connection[Any], ns: int) -> None:
    """Another writer of the store ``ns`` of ``conn``'s schema: its lock held until COMMIT."""
    conn.execute("BEGIN")
    conn.execute("SELECT pg_advisory_xact_lock(%s::int8::bit(32)::int4, %s::int4)", (schema_oid(conn), ns))


def lock_waiters(conn: psycopg.Connection[Any], ns: int) -> int:
    row = conn.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = %s AND objid = %s "
        "AND objsubid = 2",
        (schema_oid(conn), ns),
    ).fetchone()
    return int(row[0]) if row else 0


def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(600):  # bounded: at most about 30 s
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def queued(conn: psycopg.Connection[Any], holder: psycopg.Connection[Any], ns: int,
           *steps: tuple[Callable[[], object], str]) -> None:  # fmt: skip
    """Each step started in a thread of its own, in turn, once the one before waits for the store's
    lock (``holder`` holds it: hold_store_lock); then ``holder`` commits and every step finishes."""
    threads = []
    for waiting, (step, what) in enumerate(steps, 1):
        threads.append(threading.Thread(target=step))
        threads[-1].start()
        until(lambda waiting=waiting: lock_waiters(conn, ns) == waiting, what)  # type: ignore[misc]
    holder.execute("COMMIT")
    for thread in threads:
        thread.join(90)
