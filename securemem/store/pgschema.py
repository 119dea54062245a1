"""The PostgreSQL store's schema and its versioned migrations (``securemem migrate``).

Migrations run only when an operator asks (``securemem migrate --db postgresql://...``), as a role
that may run DDL; an agent's role never does (README: roles and grants). An open checks the
schema version and refuses, with one line naming ``securemem migrate``, a database without the
schema or at another version. Each migration runs in one transaction under an advisory lock, so
two operators migrating at once apply it once; a failure leaves the schema at its old version.

Tables (every name and text a model or an operator wrote is ciphertext; see pgseal.py):

- ``sm_meta``: the schema version, the deployment id, the salt a ``key=`` passphrase is
  stretched with, the master key wrapped by the KEK, and the sealed store-wide settings;
- ``sm_stores``: one row per store: its public id, the HMAC token of its name, its sealed name
  and description, its data key sealed by the master key, times and the history total;
- ``sm_entries``: one row per file or directory, keyed by ``(ns, tok)``: the path token (a subtree
  is one range of it), sizes, times, expiry and ``head`` (schema 2: the memory's newest version
  when the row was written) in clear, the sealed path and content; a memory number is unique
  in its store (schema 2);
- ``sm_versions``: the version history, keyed by ``seq`` (the store's number in the high bits);
  the chain's digest and link in clear (they hide what they commit to), the sealed path, hash,
  size and salt, and the sealed content.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from securemem.errors import StorageError

SCHEMA_VERSION = 2
MIGRATE = "securemem migrate --db postgresql://..."
# The lock two migrations (or a migration and the first open) take: one at a time.
MIGRATION_LOCK = (0x5EC0, 0)

_V1 = [
    "CREATE TABLE sm_meta (key text PRIMARY KEY, value text NOT NULL)",
    """CREATE TABLE sm_stores (
        id bigserial PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        name_tok bytea NOT NULL UNIQUE,
        name_ct bytea NOT NULL,
        desc_ct bytea NOT NULL,
        dek bytea NOT NULL,
        created double precision NOT NULL,
        updated double precision NOT NULL,
        history_bytes bigint NOT NULL DEFAULT 0
    )""",
    "CREATE SEQUENCE sm_memory_numbers",
    """CREATE TABLE sm_entries (
        ns bigint NOT NULL,
        tok bytea NOT NULL,
        is_dir boolean NOT NULL,
        memory bigint NOT NULL,
        size bigint NOT NULL,
        lines bigint NOT NULL,
        pbytes integer NOT NULL,
        created double precision NOT NULL,
        modified double precision NOT NULL,
        accessed double precision NOT NULL,
        expires double precision,
        path_ct bytea NOT NULL,
        data_ct bytea,
        PRIMARY KEY (ns, tok)
    )""",
    "CREATE INDEX sm_entries_memory ON sm_entries (ns, memory) WHERE NOT is_dir",
    "CREATE INDEX sm_entries_expires ON sm_entries (expires) WHERE expires IS NOT NULL",
    """CREATE TABLE sm_versions (
        seq bigint PRIMARY KEY,
        memory bigint NOT NULL,
        op smallint NOT NULL,
        ref bigint,
        hbytes bigint NOT NULL,
        session text,
        actor text,
        created double precision NOT NULL,
        redacted double precision,
        digest bytea NOT NULL,
        link bytea NOT NULL,
        meta_ct bytea,
        data_ct bytea
    )""",
    "CREATE INDEX sm_versions_memory ON sm_versions (memory, seq)",
    f"INSERT INTO sm_meta (key, value) VALUES ('schema_version', '{SCHEMA_VERSION}')",
]

# Schema 2: what the database holds vouches for more of itself (pgseal.py, pgtx.py). A file row
# names its memory's newest version (``head``, bound into its content's ciphertext); a memory
# number is unique in its store; redaction events are found by the version they name; a store's
# row keeps its newest version sealed (``tail_ct``). Every
# row's ciphertexts are sealed again under the new bindings (pgupgrade.py): that needs the key.
# Every store's totals summed from its rows (the upgrade; a bulk load that bypassed the writes).
RECOUNT = (
    "UPDATE sm_stores s SET files = c.files, dirs = c.dirs, bytes = c.bytes, pbytes = c.pbytes FROM (SELECT ns, "
    "count(*) FILTER (WHERE NOT is_dir) AS files, count(*) FILTER (WHERE is_dir AND length(tok) > 8) AS dirs, "
    "coalesce(sum(size) FILTER (WHERE NOT is_dir), 0) AS bytes, coalesce(sum(pbytes) FILTER (WHERE length(tok) > 8), "
    "0) AS pbytes FROM sm_entries GROUP BY ns) c WHERE c.ns = s.id"
)
_V2 = [
    "ALTER TABLE sm_entries ADD COLUMN head bigint NOT NULL DEFAULT 0",
    "DROP INDEX sm_entries_memory",
    "CREATE UNIQUE INDEX sm_entries_memory ON sm_entries (ns, memory) WHERE NOT is_dir",
    "CREATE INDEX sm_versions_redactions ON sm_versions (ref) WHERE op = 4",
    "ALTER TABLE sm_stores ADD COLUMN tail_ct bytea",
    # A store's totals, kept by every write in the statement that changes its rows: a quota check
    # reads one row instead of summing the store's (pgtx.usage). The root's row (the only 8-byte
    # token) counts as neither a directory nor path text.
    "ALTER TABLE sm_stores ADD COLUMN files bigint NOT NULL DEFAULT 0, ADD COLUMN dirs bigint NOT NULL DEFAULT 0, "
    "ADD COLUMN bytes bigint NOT NULL DEFAULT 0, ADD COLUMN pbytes bigint NOT NULL DEFAULT 0",
    RECOUNT,
]

# Version n -> n + 1 (0: an empty database).
STEPS: dict[int, list[str]] = {0: _V1, 1: _V2}
# Steps after which rows written before them are sealed again (with the key): ``migrate``'s ``reseal``.
RESEALED = frozenset({1})
_NEWER = "the PostgreSQL schema is at version {version}, newer than this release ({ours}): upgrade securemem"
TABLES = ("sm_versions", "sm_entries", "sm_stores", "sm_meta")


class Db(Protocol):
    """What the schema and the transactions need of a connection (the backend module wraps psycopg)."""

    def all(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]: ...
    def one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> tuple[Any, ...] | None: ...
    def run(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int: ...
    def run_many(self, sql: str, params: Sequence[dict[str, Any]]) -> None: ...


def current_version(db: Db) -> int:
    """The schema version the database is at (0: no securemem schema at all)."""
    row = db.one("SELECT to_regclass('sm_meta') IS NOT NULL")
    if row is None or not row[0]:
        return 0
    found = db.one("SELECT value FROM sm_meta WHERE key = 'schema_version'")
    try:
        return int(found[0]) if found is not None else 0
    except ValueError:
        raise StorageError("the PostgreSQL schema version is unreadable; run: " + MIGRATE) from None


def check_version(db: Db) -> None:
    """Refuse a database whose schema is missing or at another version, with the way out."""
    version = current_version(db)
    if version == 0:
        raise StorageError(f"the PostgreSQL database has no securemem schema; run: {MIGRATE}")
    if version < SCHEMA_VERSION:
        raise StorageError(
            f"the PostgreSQL schema is at version {version}, this release needs {SCHEMA_VERSION}; run: {MIGRATE}"
        )
    if version > SCHEMA_VERSION:
        raise StorageError(_NEWER.format(version=version, ours=SCHEMA_VERSION))


def holds_rows(db: Db) -> bool:
    """Whether the deployment was opened once (it has a master key, maybe settings), or holds any
    store or version (a schema made and never opened needs no reseal)."""
    row = db.one(
        "SELECT EXISTS (SELECT 1 FROM sm_meta WHERE key = 'master') OR EXISTS (SELECT 1 FROM sm_stores) "
        "OR EXISTS (SELECT 1 FROM sm_versions)"
    )
    return bool(row and row[0])


def migrate(db: Db, reseal: Callable[[Db, int], None] | None = None) -> tuple[int, int]:
    """Bring the schema to SCHEMA_VERSION (the caller holds a transaction and the migration lock).

    ``reseal(db, step)`` seals again, with the key, the rows a step in RESEALED changed the bindings
    of; without it, a database that holds rows is refused before anything changes. Returns (from, to)."""
    start = version = current_version(db)
    if version > SCHEMA_VERSION:
        raise StorageError(_NEWER.format(version=version, ours=SCHEMA_VERSION))
    if reseal is None and RESEALED.intersection(range(version, SCHEMA_VERSION)) and version > 0 and holds_rows(db):
        raise StorageError(
            f"upgrading the PostgreSQL schema from version {version} seals every row again: run securemem "
            "migrate with the store's key (--kek URI, --key-file F, --passphrase-file F, $SECUREMEM_KEK or "
            "$SECUREMEM_KEY)"
        )
    while version < SCHEMA_VERSION:
        db.run(";\n".join(STEPS[version]))  # one script, one round trip (no parameters in DDL)
        step, version = version, version + 1
        db.run("UPDATE sm_meta SET value = %s WHERE key = 'schema_version'", (str(version),))
        if reseal is not None and step in RESEALED and step > 0 and holds_rows(db):
            reseal(db, step)
    return start, version
