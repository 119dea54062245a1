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
from typing import Any
from urllib.parse import quote

import psycopg
import pytest

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
        if self.database is None:
            return
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        self.database = None


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
