"""The schema of a SQLCipher store, and the migrations that bring older stores up to it.

Schema 1 (the first release) kept one row per entry with its full path and three indexes;
schema 2 keys entries by ``(ns, parent, name)`` in one clustered table, keeps namespaces in
``stores`` (id, unique name, public id), and carries the totals a quota needs (directories and
path text included). Schema 3 adds the version history (``versions``, see
``sqlversions.py``), finds a file by its memory number (``entries_memory``), and never reuses a
memory number (``content`` is AUTOINCREMENT); every file a store held gets a ``created``
version. Schema 4 keeps the history's running total in each version row (``total``: the
store's total after that row) instead of a counter in ``stores``, so counting costs no write of
its own; and a new memory's number is one above any number used before (``sqltx.NEW_MEMORY``)
rather than an AUTOINCREMENT counter, whose row every create rewrote. Schema 5 links each
version to the previous version of its memory (``versions.prev``) and keeps a memory's newest
version in its ``content`` row (``head``), which every write of the memory rewrites anyway: a
memory's versions are a walk back from its head, and the ``(memory, seq)`` index, one more page
for every write, is gone. A deleted memory's head is its ``deleted`` or ``expired`` version, found
by a partial index that only those rows enter (see ``sqlversions.py``). A store is migrated on
open, inside one write transaction: a crash leaves it at its old schema, never half-way.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from typing import Any

from securemem.paths import ROOT, ancestors
from securemem.store.base import path_bytes
from securemem.store.sqltx import Connection, key_of, later

FORMAT = "securemem"
SCHEMA_VERSION = 5

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stores (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    public_id TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    ns INTEGER NOT NULL,
    parent TEXT NOT NULL,
    name TEXT NOT NULL,
    id INTEGER NOT NULL,
    is_dir INTEGER NOT NULL,
    size INTEGER NOT NULL,
    lines INTEGER NOT NULL,
    files INTEGER NOT NULL,
    dirs INTEGER NOT NULL,
    pbytes INTEGER NOT NULL,
    created REAL NOT NULL,
    modified REAL NOT NULL,
    accessed REAL NOT NULL,
    expires REAL,
    PRIMARY KEY (ns, parent, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_expires ON entries (expires, id) WHERE expires IS NOT NULL AND is_dir = 0;
CREATE INDEX IF NOT EXISTS entries_memory ON entries (id) WHERE is_dir = 0;
CREATE TABLE IF NOT EXISTS content (id INTEGER PRIMARY KEY, head INTEGER, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
    seq INTEGER PRIMARY KEY,
    ns INTEGER NOT NULL,
    memory INTEGER NOT NULL,
    op INTEGER NOT NULL,
    ref INTEGER,
    path TEXT,
    sha BLOB,
    size INTEGER,
    data BLOB,
    salt BLOB,
    session TEXT,
    actor TEXT,
    created REAL NOT NULL,
    redacted REAL,
    digest BLOB NOT NULL,
    link BLOB NOT NULL,
    total INTEGER,
    prev INTEGER
);
CREATE INDEX IF NOT EXISTS versions_ends ON versions (memory, seq) WHERE op IN (2, 3);
"""


def public_store_id() -> str:
    return "memstore_" + secrets.token_hex(12)


def new_meta() -> dict[str, str]:
    return {
        "format": FORMAT,
        "schema_version": str(SCHEMA_VERSION),
        "store_id": public_store_id(),
        "created": repr(time.time()),
        "token_key": os.urandom(32).hex(),
    }


def create(conn: Connection) -> None:
    """The tables of a new store (the caller holds a write transaction)."""
    for statement in filter(str.strip, SCHEMA.split(";")):
        conn.execute(statement)
    conn.executemany("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", list(new_meta().items()))


def migrate(conn: Connection, version: int) -> None:
    """Bring a store from ``version`` to SCHEMA_VERSION (the caller holds a write transaction)."""
    steps: dict[int, Callable[[Connection], None]] = {1: _from_1, 2: _from_2, 3: _from_3, 4: _from_4}
    while version < SCHEMA_VERSION:
        steps[version](conn)
        version += 1
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))


def _from_1(conn: Connection) -> None:
    """Schema 1 -> 2: re-key entries by (ns, parent, name), namespaces into ``stores``, totals recomputed."""
    old = conn.execute(
        "SELECT ns, path, is_dir, size, lines, created, modified, accessed, expires, id FROM entries"
    ).fetchall()
    conn.execute("ALTER TABLE entries RENAME TO entries_v1")
    conn.execute("ALTER TABLE blobs RENAME TO blobs_v1")
    for index in ("entries_path", "entries_parent", "entries_expires"):
        conn.execute(f"DROP INDEX IF EXISTS {index}")
    for statement in filter(str.strip, SCHEMA.split(";")):
        conn.execute(statement)
    now = time.time()
    names = sorted({row[0] for row in old})
    conn.executemany(
        "INSERT INTO stores (name, public_id, created, updated) VALUES (?, ?, ?, ?)",
        [(n, public_store_id(), now, now) for n in names],
    )
    ids = {str(n): int(i) for i, n in conn.execute("SELECT id, name FROM stores").fetchall()}
    conn.executemany(_INSERT_V2, _rows_v2(old, ids))
    conn.execute(
        "INSERT INTO content (id, data) SELECT b.id, b.data FROM blobs_v1 b JOIN entries_v1 e ON e.id = b.id "
        "WHERE e.is_dir = 0"
    )
    conn.execute("DROP TABLE entries_v1")
    conn.execute("DROP TABLE blobs_v1")
    conn.execute(
        "UPDATE meta SET value = ? WHERE key = 'store_id' AND value NOT LIKE 'memstore_%'", (public_store_id(),)
    )


def _from_2(conn: Connection) -> None:
    """Schema 2 -> 3: the history tables, memory numbers never reused, a version for every file."""
    from securemem.store.base import Actor, History
    from securemem.store.history import MIGRATION_ACTOR
    from securemem.store.sqlversions import VersionLog

    # A store's number is never given to another (AUTOINCREMENT): a handle that cached the number
    # of a store deleted since must find it gone, not find the next store made.
    conn.execute("ALTER TABLE stores RENAME TO stores_v2")
    conn.execute("ALTER TABLE content RENAME TO content_v2")
    for statement in filter(str.strip, SCHEMA.split(";")):
        conn.execute(statement)
    conn.execute("INSERT INTO content (id, data) SELECT id, data FROM content_v2")
    conn.execute("DROP TABLE content_v2")
    conn.execute(
        "INSERT INTO stores (id, name, public_id, description, created, updated) "
        "SELECT id, name, public_id, description, created, updated FROM stores_v2"
    )
    conn.execute("DROP TABLE stores_v2")
    now = time.time()
    files = conn.execute(
        "SELECT e.ns, e.id, e.parent, e.name, c.data FROM entries e JOIN content c ON c.id = e.id "
        "WHERE e.is_dir = 0 ORDER BY e.ns, e.created, e.id"
    ).fetchall()
    logs: dict[int, VersionLog] = {}
    for ns, memory, parent, name, data in files:
        log = logs.setdefault(ns, VersionLog(conn, ns, now, Actor(None, MIGRATION_ACTOR), History()))
        log.record("created", int(memory), f"{parent}/{name}", bytes(data))
        log._last = None  # each file its own version


def _from_3(conn: Connection) -> None:
    """Schema 3 -> 4: the history total moves from ``stores.history_bytes`` into the version rows.

    Schema 3 kept the counter only under a quota on total bytes; every store's total is rebuilt.
    """
    from securemem.store.sqltx import remember_numbers
    from securemem.store.sqlversions import recount

    if "total" not in _columns(conn, "versions"):
        conn.execute("ALTER TABLE versions ADD COLUMN total INTEGER")
    if "history_bytes" in _columns(conn, "stores"):
        conn.execute("ALTER TABLE stores DROP COLUMN history_bytes")
    recount(conn)
    # Schema 3's content table keeps its AUTOINCREMENT (rebuilding it would copy every file); the
    # highest number it ever gave joins those NEW_MEMORY stays above.
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'content'").fetchone()
    if row is not None:
        remember_numbers(conn, [int(row[0])])


def _from_4(conn: Connection) -> None:
    """Schema 4 -> 5: each version linked to its memory's previous one, each memory's head kept in
    its ``content`` row; the ``(memory, seq)`` index gives way to the index of deleted memories.

    One pass over every version in commit order. A memory whose last version is not a deletion
    yet has no live file (deleted while the history was off) keeps an empty ``content`` row that
    only carries its head, so its versions stay listable. ``content`` is rebuilt with ``head``
    before the text: reading a head never reads a large text's overflow pages.
    """
    from securemem.store.sqlversions import link_versions

    if "head" not in _columns(conn, "content"):
        conn.execute("CREATE TABLE content_v5 (id INTEGER PRIMARY KEY, head INTEGER, data BLOB NOT NULL)")
        conn.execute("INSERT INTO content_v5 (id, data) SELECT id, data FROM content")
        conn.execute("DROP TABLE content")
        conn.execute("ALTER TABLE content_v5 RENAME TO content")
    if "prev" not in _columns(conn, "versions"):
        conn.execute("ALTER TABLE versions ADD COLUMN prev INTEGER")
    conn.execute("DROP INDEX IF EXISTS versions_memory")
    conn.execute("CREATE INDEX IF NOT EXISTS versions_ends ON versions (memory, seq) WHERE op IN (2, 3)")
    link_versions(conn)


def _columns(conn: Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})").fetchall()}


_INSERT_V2 = (
    "INSERT INTO entries (ns, parent, name, id, is_dir, size, lines, files, dirs, pbytes, created, modified, "
    "accessed, expires) VALUES (:ns, :pa, :na, :id, :dir, :s, :l, :f, :d, :b, :c, :m, :a, :e)"
)


def _rows_v2(old: list[Any], ids: dict[str, int]) -> list[dict[str, Any]]:
    """Schema 2 rows from schema 1 rows, with every directory's totals and expiry recomputed."""
    rows: dict[tuple[int, str], dict[str, Any]] = {}
    for ns, path, is_dir, size, lines, created, modified, accessed, expires, row_id in old:
        pa, na = key_of(path)
        rows[(ids[ns], path)] = {
            "ns": ids[ns],
            "pa": pa,
            "na": na,
            "id": 0 if is_dir else row_id,
            "dir": int(is_dir),
            "s": 0 if is_dir else size,
            "l": 0 if is_dir else lines,
            "f": 0 if is_dir else 1,
            "d": 0,
            "b": path_bytes(path),
            "c": created,
            "m": modified,
            "a": accessed,
            "e": None if is_dir else expires,
            "_exp": None if is_dir else expires,
            "_first": True,
        }
    for (ns, path), row in list(rows.items()):
        own = (0, 0, 1) if row["dir"] else (row["s"], 1, 0)
        for above in ancestors(path):
            parent = rows.get((ns, above))
            if parent is None:
                continue
            parent["s"] += own[0]
            parent["f"] += own[1]
            parent["d"] += own[2]
            parent["b"] += path_bytes(path)
            if not row["dir"]:
                parent["e"] = row["_exp"] if parent["_first"] else later(parent["e"], row["_exp"])
                parent["_first"] = False
    for (_, path), row in rows.items():
        if path == ROOT:
            row["e"] = None
        del row["_exp"], row["_first"]
    return list(rows.values())
