"""Schema 2 of the PostgreSQL store: a database written by the schema-1 release, upgraded.

``tests/data/pg_schema1.json`` holds the four tables of a database the release before schema 2
wrote (two stores: files created, edited, renamed and deleted; an admin store with a redacted
version), with its key. The upgrade seals every row again under the bindings of schema 2
(securemem/store/pgupgrade.py), so it needs the key; without it, or with a wrong one, nothing
changes. Every test uses the real server of tests/pg.py (it skips with one line where none answers).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin, SecureMemory
from securemem.errors import StorageError
from securemem.store.pgschema import SCHEMA_VERSION, STEPS
from securemem.store.postgres import migrate
from tests.helpers import ok, run_cli
from tests.pg import PG, sql, totals_match

FIXTURE = Path(__file__).parent / "data" / "pg_schema1.json"


def _schema1() -> tuple[str, bytes]:
    """A fresh schema holding the fixture's rows, at schema version 1: its URL and the key."""
    doc = json.loads(FIXTURE.read_text())
    url = PG.fresh_url(migrated=False)
    with sql(url) as conn:
        conn.execute(";\n".join(STEPS[0]))
        conn.execute("DELETE FROM sm_meta")
        for table, rows in doc["tables"].items():
            columns = rows["columns"]
            for row in rows["rows"]:
                values = [bytes.fromhex(v["hex"]) if isinstance(v, dict) else v for v in row]
                marks = ", ".join(["%s"] * len(values))
                conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values)
        conn.execute("SELECT setval('sm_memory_numbers', %s)", (doc["memory_numbers"],))
        conn.execute("SELECT setval(pg_get_serial_sequence('sm_stores', 'id'), %s)", (doc["store_ids"],))
    return url, bytes.fromhex(doc["key"])


def _version(url: str) -> str:
    with sql(url) as conn:
        row = conn.execute("SELECT value FROM sm_meta WHERE key = 'schema_version'").fetchone()
        assert row is not None
        return str(row[0])


def _cells(url: str) -> list[Any]:
    with sql(url) as conn:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("sm_entries", "sm_versions")]


def test_an_upgrade_without_the_key_or_with_a_wrong_one_changes_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _ = _schema1()
    before = _cells(url)
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    monkeypatch.delenv("SECUREMEM_KEK", raising=False)
    code, out, err = run_cli(capsys, "migrate", "--db", url)
    assert code != 0 and out == "" and err.count("\n") == 1 and "with the store's key" in err
    monkeypatch.setenv("SECUREMEM_KEY", os.urandom(32).hex())
    code, out, err = run_cli(capsys, "migrate", "--db", url)
    assert code != 0 and out == "" and err.count("\n") == 1 and "does not open" in err
    assert _version(url) == "1" and _cells(url) == before


def test_the_upgrade_keeps_every_file_and_version_and_binds_them_anew(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, key = _schema1()
    with pytest.raises(StorageError, match="securemem migrate"):  # refused before the upgrade, with the way out
        SecureMemory.open(url, key=key)
    monkeypatch.setenv("SECUREMEM_KEY", key.hex())
    code, out, _ = run_cli(capsys, "migrate", "--db", url)
    assert (code, out) == (0, f"securemem: the PostgreSQL schema is upgraded from 1 to version {SCHEMA_VERSION}\n")
    with SecureMemory.open(url, key=key) as memory:
        assert "alpha 2" in ok(memory, command="view", path="/memories/notes/a.md")
        assert "bravo" in ok(memory, command="view", path="/memories/notes/b.md")
        listing = ok(memory, command="view", path="/memories")
        assert "/memories/notes/a.md" in listing and "gone.md" not in listing
        ok(memory, command="str_replace", path="/memories/notes/b.md", old_str="bravo", new_str="bravo 2")
        assert "bravo 2" in ok(memory, command="view", path="/memories/notes/b.md")
    with Admin.open(url, key=key) as admin:
        store = next(s for s in admin.memory_stores.list().data if s.name == "second")
        memory_id = admin.memories.list(store.id).data[0].id
        versions = admin.memory_versions.list(store.id, memory_id=memory_id).data
        assert [v.operation for v in versions] == ["modified", "created"]
        assert admin.memory_versions.retrieve(store.id, versions[0].id).content == "charlie new\n"
        assert admin.memory_versions.retrieve(store.id, versions[1].id).content is None  # redacted stays redacted
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", url)
    assert code == 0 and '"chain_ok": true' in out
    totals_match(url)  # the upgrade summed each store's rows into its totals
    # The new bindings hold for the upgraded rows: an old ciphertext of the edited file, written
    # back by SQL, names an older version than the history's newest.
    with sql(url) as conn:
        (old,) = conn.execute(  # type: ignore[misc]
            "SELECT data_ct FROM sm_entries WHERE NOT is_dir ORDER BY memory LIMIT 1"
        ).fetchone()
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="str_replace", path="/memories/notes/a.md", old_str="alpha one", new_str="alpha 1")
    with sql(url) as conn:
        conn.execute("UPDATE sm_entries SET data_ct = %s WHERE memory = (SELECT min(memory) FROM sm_entries "
                     "WHERE NOT is_dir)", (old,))  # fmt: skip
    with SecureMemory.open(url, key=key) as memory:
        result = memory.execute({"command": "view", "path": "/memories/notes/a.md"})
        assert result.is_error and "alpha" not in result.text


def _shape(url: str) -> list[tuple[Any, ...]]:
    """The schema's columns and indexes (their definitions, the schema's own name taken out)."""
    with sql(url) as conn:
        indexes = conn.execute(
            "SELECT c.relname, replace(pg_get_indexdef(i.indexrelid), current_schema() || '.', '') FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() ORDER BY 1"
        ).fetchall()
        columns = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY 1, 2"
        ).fetchall()
    return indexes + columns


def test_a_schema_upgraded_and_one_made_new_are_the_same() -> None:
    url, _ = _schema1()
    with sql(url) as conn:  # a schema never opened (no master key, no rows): its upgrade needs no key
        conn.execute("DELETE FROM sm_entries; DELETE FROM sm_versions; DELETE FROM sm_stores; "
                     "DELETE FROM sm_meta WHERE key <> 'schema_version'")  # fmt: skip
    assert migrate(url) == (1, SCHEMA_VERSION)
    assert _shape(url) == _shape(PG.fresh_url())
