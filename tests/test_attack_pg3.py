"""Attacks on the newest pieces of the PostgreSQL store: the sealed chain tail (``sm_stores.tail_ct``)
and the KEK custody commands on a ``postgresql://`` URL (``securemem keys``, pgkeys.py).

Each test asserts what the README promises (or what a key command must never do) and FAILS on the
code it was written against; its docstring says the severity and what it shows. Every test uses
the real server of tests/pg.py (it skips with one line where none answers).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import psycopg
import pytest

from securemem import SecureMemory
from securemem.errors import DamagedStoreError
from tests.helpers import ok, run_cli
from tests.pg import PG, expiry_undone, redaction_undone, sql

Cap = pytest.CaptureFixture[str]
MARK = "kept across every key change"


# -- the sealed tail vouches for four columns of the newest version, not the rest of it ---------------


def test_a_redaction_undone_by_editing_the_ref_of_the_newest_version_is_served(url: str, key: bytes) -> None:
    """MEDIUM. ``check_tail`` compares the newest version's (seq, memory, op, link) columns with
    ``tail_ct``, but never checks that the row's other columns hash to that link. The newest
    version is the operator's ``redaction`` event; its ``ref`` (which version it erased) is a clear
    column bound by nothing a read opens (a redaction event has no ciphertext). The DBA writes the
    redacted version's old ciphertexts back, clears ``redacted``, and sets the event's ``ref`` to
    NULL: no event names the version any more (``_STRUCK``), the tail still matches, and
    ``memory_versions.retrieve`` serves the erased PII with no error. The README promises reads
    notice a redacted version put back, and that they check the store's newest version; this is an
    edit at the end of the chain, not in the middle (only ``audit verify`` names it)."""
    served = redaction_undone(url, key, "UPDATE sm_versions SET ref = NULL WHERE op = 4")  # the newest: its event
    assert "jane@example.org" not in served, "a redacted version's text is served again"


def test_an_expiry_erasure_undone_by_editing_the_digest_of_the_newest_version_is_served(url: str, key: bytes) -> None:
    """MEDIUM. The same gap for an expiry: with ``history.redact_expired`` (the default) the
    sweep records an ``expired`` version whose ``digest`` is ``history.ERASED``, and that digest is
    what tells reads (``_STRUCK``) that every earlier version of the memory was erased. The
    ``expired`` version is the newest; its digest is a clear column the tail does not cover (only
    the link, which reads never recompute). The DBA puts the erased versions' ciphertexts back from
    a dump taken before the expiry, clears ``redacted``, and overwrites the expiry's digest: the
    tail still matches and the expired memory's text is served. (``audit verify`` names it.)"""
    served = expiry_undone(url, key, "UPDATE sm_versions SET digest = '\\x00' WHERE op = 3")  # the newest: the expiry
    assert not any("jane@example.org" in text for text in served), "an expired memory's text is served again"


# -- KEK custody of a PostgreSQL deployment ------------------------------------------------------------


def _kek(tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    path.write_text(os.urandom(32).hex())
    path.chmod(0o600)
    return f"file:{path}"


def _deployment(kek: str) -> str:
    url = PG.fresh_url()
    with SecureMemory.open(url, kek=kek) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text=MARK + "\n")
    return url


def _master(url: str) -> list[dict[str, Any]]:
    with sql(url) as conn:
        row = conn.execute("SELECT value FROM sm_meta WHERE key = 'master'").fetchone()
        assert row is not None
        docs: list[dict[str, Any]] = json.loads(row[0])
        return docs


def _opens(url: str, kek: str) -> bool:
    try:
        with SecureMemory.open(url, kek=kek) as memory:
            return MARK in ok(memory, command="view", path="/memories/a.md")
    except Exception:  # any refusal: this KEK does not open the deployment
        return False


def test_a_kek_entry_planted_by_sql_lets_the_last_real_kek_be_removed(capsys: Cap, tmp_path: Path) -> None:
    """MEDIUM. The list of wrapped master keys in ``sm_meta`` ('master') is plain JSON that no key
    vouches for (a store file's ``DB.keys`` carries a MAC under its data key, so an entry added by
    hand is refused there). A DBA with no key appends an entry that opens nothing but names a
    plausible backup KEK (a copy of the real entry, another key id, a ``pkcs11:`` provider).
    ``keys list --kek A`` prints it as a KEK of the deployment and calls the list authenticated (no
    warning), and ``keys remove --key-id A`` is no longer "the last KEK": it exits 0 and drops the
    only entry that opens the master key. Nothing opens the deployment any more; only the DBA's
    copy of the old row (a dump, dead tuples) does, which is a ransom position. The refusal that
    exists to stop exactly this is defeated by a row the DBA wrote."""
    first = _kek(tmp_path, "first")
    url = _deployment(first)
    (real,) = _master(url)
    planted = {**real, "key_id": "k" + os.urandom(10).hex(), "provider": "pkcs11:token=backup;object=securemem-kek"}
    with sql(url) as conn:
        conn.execute("UPDATE sm_meta SET value = %s WHERE key = 'master'", (json.dumps([real, planted]),))
    code, out, err = run_cli(capsys, "keys", "list", "--db", url, "--kek", first)
    assert code != 0 or planted["key_id"] not in out or "unauthenticated" in err, (
        "an entry no key vouches for is listed as an authenticated KEK of the deployment"
    )
    code, _, _ = run_cli(capsys, "keys", "remove", "--db", url, "--kek", first, "--key-id", real["key_id"])
    assert code != 0 and any(doc["key_id"] == real["key_id"] for doc in _master(url)), (
        "the only KEK that opens the deployment was removed"
    )
    # Fail closed, as a store file's damaged key header does: while the list is not the one the
    # master key sealed, nothing opens; put back as it was, the real KEK opens again.
    with pytest.raises(DamagedStoreError):
        SecureMemory.open(url, kek=first)
    with sql(url) as conn:
        conn.execute("UPDATE sm_meta SET value = %s WHERE key = 'master'", (json.dumps([real]),))
    assert _opens(url, first)


class _AnswerLost:
    """A connection whose COMMIT reaches the server, whose answer does not (the link breaks right
    after the server committed: a network partition, a proxy or a failover)."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def __enter__(self) -> _AnswerLost:
        return self

    def __exit__(self, *exc: object) -> None:
        self._conn.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, query: Any, params: Any = None) -> Any:
        if query == "COMMIT":
            self._conn.execute(query)
            self._conn.close()
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return self._conn.execute(query, params)


def test_a_rotation_whose_commit_answer_is_lost_deletes_the_only_kek_that_opens(
    capsys: Cap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MEDIUM (rare, unrecoverable). ``keys rotate-kek --to file:NEW`` makes the NEW KEK file, then
    wraps the master key with it and drops the old entry in one transaction; if the change raises,
    ``_pg_change`` unlinks the NEW file. But an error at COMMIT (the connection lost after the
    server committed) does not mean nothing was kept: the rotation is in the database, and the
    only KEK that now opens the master key is the file just deleted, the old one having been
    dropped. The command exits 2 ("cannot connect to the PostgreSQL server"), the operator retries
    with the old KEK, which no longer opens anything, and every store of the deployment is lost.
    (postgres.py's own ``_commit`` treats a lost COMMIT as an unknown outcome; this path does not.)"""
    first = _kek(tmp_path, "first")
    url = _deployment(first)
    new = tmp_path / "new.kek"
    real_connect = psycopg.connect

    def connect(*args: Any, **kwargs: Any) -> Any:
        return _AnswerLost(real_connect(*args, **kwargs))

    monkeypatch.setattr(psycopg, "connect", connect)  # what postgres._one_transaction calls
    code, _, _ = run_cli(capsys, "keys", "rotate-kek", "--db", url, "--kek", first, "--to", f"file:{new}")
    monkeypatch.setattr(psycopg, "connect", real_connect)
    assert code != 0  # the command saw the lost answer
    assert _opens(url, first) or (new.exists() and _opens(url, f"file:{new}")), (
        "after a rotation whose answer was lost, no KEK the operator holds opens the deployment"
    )
