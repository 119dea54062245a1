"""Attacks on schema 2 of the PostgreSQL store (securemem/store/pgtx.py, pgseal.py, pgversions.py).

Schema 2 promises that someone who can write the tables with SQL but holds no key cannot put back
an older ciphertext of a file or a deleted file's row, nor a redacted version's ciphertexts,
without the read being refused with the tampering error. Each test here asserts that promise and
FAILS on the code it was written against; its docstring says the severity and what it shows.
Every test uses the real server of tests/pg.py (it skips with one line where none answers).
"""

from __future__ import annotations

import os

import pytest

from securemem import Admin, SecureMemory
from securemem.policy import TTLSettings, load_policy
from securemem.sweep import sweep
from tests.helpers import ok
from tests.pg import PG, audit_verify, put_row_back, sql

TAMPERED = "fails its authentication check"

# Three ways to take a version out of what pgtx._LATEST reads as a memory's newest version
# (``max(seq) ... WHERE memory = m AND op < 4``) without touching any ciphertext a read opens.
HIDE = {
    "deleted": "DELETE FROM sm_versions WHERE seq = %s",
    "op-changed": "UPDATE sm_versions SET op = 4 WHERE seq = %s",
    "memory-changed": "UPDATE sm_versions SET memory = memory + 1000000 WHERE seq = %s",
}


@pytest.fixture
def url() -> str:
    return PG.fresh_url()


@pytest.fixture
def key() -> bytes:
    return os.urandom(32)


def _view(memory: SecureMemory, path: str) -> tuple[bool, str]:
    result = memory.execute({"command": "view", "path": path})
    assert isinstance(result.content, str)
    return result.is_error, result.content


def _newest_version(url: str) -> int:
    with sql(url) as conn:
        row = conn.execute("SELECT max(seq) FROM sm_versions").fetchone()
        assert row is not None
        return int(row[0])


@pytest.mark.parametrize("hide", sorted(HIDE))
def test_a_deleted_file_put_back_with_its_deletion_hidden_is_served(url: str, key: bytes, hide: str) -> None:
    """HIGH. The witness of a file row's age is ``max(seq)`` of its memory's versions with
    ``op < 4``, read from ``sm_versions``, which SQL writes as freely as ``sm_entries``. A DBA
    puts a deleted file's row back from an old dump (the fixed attack) and also takes the
    ``deleted`` version out of the witness: deletes it, sets its ``op`` to 4, or sets its
    ``memory`` to another number. The read never opens that version, so its binding to memory and
    op (pgseal._version_place) is never checked: ``head`` equals the witness again and the deleted
    text (PII the agent erased) is served with no error. Only ``audit verify`` can notice, and for
    a deleted tail row not even that without a pinned head."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/pii.md", file_text="jane@example.org 555-0100\n")
        with sql(url) as conn:
            row = conn.execute("SELECT * FROM sm_entries WHERE NOT is_dir").fetchone()
            assert row is not None
            ok(memory, command="delete", path="/memories/pii.md")
            put_row_back(conn, row)
            conn.execute(HIDE[hide], (_newest_version(url),))
    with SecureMemory.open(url, key=key) as memory:
        failed, text = _view(memory, "/memories/pii.md")
        assert failed and "jane@example.org" not in text, "a deleted file put back by SQL is served"


def test_an_older_ciphertext_replayed_with_the_newer_version_removed_is_served(url: str, key: bytes) -> None:
    """HIGH. The same gap for an edit: the DBA keeps a file's whole row (size, lines, path_ct,
    data_ct, head) from before an edit, writes it back after the edit, and deletes the edit's
    version (the newest row of the store's chain). ``head`` matches the newest version left, the
    content opens under (memory, head), and the revoked text is served as current, with no error
    on any read; ``audit verify`` (with no pinned head) reports the chain whole."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/pay.md", file_text="PAY ALICE 10\n")
    with sql(url) as conn:
        old = conn.execute("SELECT size, lines, path_ct, data_ct, head FROM sm_entries WHERE NOT is_dir").fetchone()
        assert old is not None
        with SecureMemory.open(url, key=key) as memory:
            ok(memory, command="str_replace", path="/memories/pay.md", old_str="10", new_str="0 (revoked)")
        conn.execute("DELETE FROM sm_versions WHERE seq = %s", (_newest_version(url),))
        conn.execute(
            "UPDATE sm_entries SET size = %s, lines = %s, path_ct = %s, data_ct = %s, head = %s WHERE NOT is_dir", old
        )
    with SecureMemory.open(url, key=key) as memory:
        failed, text = _view(memory, "/memories/pay.md")
        assert failed and "PAY ALICE 10" not in text, "the replayed old content is served as current"


def test_a_redaction_undone_by_deleting_its_event_is_served_and_passes_audit_verify(url: str, key: bytes) -> None:
    """HIGH. Reads refuse a version a redaction event names if it holds text again (``_STRUCK``),
    and ``audit verify`` reports one; but the redaction event is itself just a row of
    ``sm_versions``. The DBA writes the redacted version's old ciphertexts back, clears
    ``redacted``, and deletes the redaction event (the newest row of the chain): no event names
    the version any more, so ``memory_versions.retrieve`` serves the erased text, and ``audit
    verify`` (without a pinned head) finds the chain whole. The erasure is undone without a key,
    and nothing else in the database was rolled back (``history_bytes`` keeps the redaction's)."""
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
            conn.execute("DELETE FROM sm_versions WHERE op = 4")
            conn.execute(
                "UPDATE sm_versions SET meta_ct = %s, data_ct = %s, hbytes = %s, redacted = NULL WHERE seq = %s",
                (saved[1], saved[2], saved[3], saved[0]),
            )
        try:
            served = admin.memory_versions.retrieve(store.id, first.id).content
        except Exception as exc:  # refused, whichever way: what it said is checked below
            served = str(exc)
        assert "jane@example.org" not in (served or ""), "a redacted version's text is served again"
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": false' in out, "audit verify finds the chain whole"


def test_a_version_an_expiry_redacted_put_back_by_sql_is_served_and_passes_audit_verify(url: str, key: bytes) -> None:
    """HIGH. With ``history.redact_expired`` (the default), a file that expires has every version
    of its memory redacted by one UPDATE (``PgVersionLog.expired``): no ``redaction`` event names
    those versions, only the ``expired`` event with the erased digest does. The read-side check
    (``_STRUCK``) looks for redaction events only, and ``audit verify``'s walk counts an erased
    expiry only for versions still redacted when it walks them. So the DBA writes the versions'
    old ciphertexts back from any dump taken before the expiry and clears ``redacted``:
    ``memory_versions.retrieve`` serves the expired memory's text again, and ``audit verify``
    reports the chain whole. The expiry's erasure is undone without a key, with no error."""
    now = [1_900_000_000.0]
    policy = load_policy("default").model_copy(update={"ttl": TTLSettings(expire_after=60)})
    with SecureMemory.open(url, key=key, clock=lambda: now[0], policy=policy) as memory:
        ok(memory, command="create", path="/memories/short.md", file_text="jane@example.org 555-0100\n")
        with sql(url) as conn:
            saved = conn.execute("SELECT seq, meta_ct, data_ct, hbytes FROM sm_versions").fetchall()
        now[0] += 120
        assert sweep(memory.store, now[0]).deleted >= 1  # the expiry: the row goes, its versions redacted
        with sql(url) as conn:
            assert conn.execute("SELECT count(*) FROM sm_versions WHERE redacted IS NULL AND op = 0").fetchone() == (0,)
            for seq, meta, data, hbytes in saved:
                conn.execute(
                    "UPDATE sm_versions SET meta_ct = %s, data_ct = %s, hbytes = %s, redacted = NULL WHERE seq = %s",
                    (meta, data, hbytes, seq),
                )
    with Admin.open(url, key=key, clock=lambda: now[0]) as admin:
        store = admin.memory_stores.list().data[0]
        served = []
        try:
            for version in admin.memory_versions.list(store.id).data:
                served.append(admin.memory_versions.retrieve(store.id, version.id).content or "")
        except Exception as exc:  # refused, whichever way (the listing or a version): checked below
            served.append(str(exc))
        assert not any("jane@example.org" in text for text in served), "an expired memory's text is served again"
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": false' in out, "audit verify finds the chain whole"


def test_a_version_removed_from_the_middle_of_the_history_is_found_by_audit_verify(url: str, key: bytes) -> None:
    """What reads do not check, the audit does. A read checks a row against its memory's newest
    version and the store's sealed newest version, not the whole chain: a deleted file's row put
    back with its ``deleted`` version removed from the middle of the history (later writes keep
    the chain's end intact) is the README's known limit for reads. ``audit verify`` walks the
    chain and names the gap."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/pii.md", file_text="jane@example.org 555-0100\n")
        with sql(url) as conn:
            row = conn.execute("SELECT * FROM sm_entries WHERE NOT is_dir").fetchone()
            assert row is not None
            ok(memory, command="delete", path="/memories/pii.md")
            deletion = _newest_version(url)
            ok(memory, command="create", path="/memories/later.md", file_text="later\n")
            put_row_back(conn, row)
            conn.execute("DELETE FROM sm_versions WHERE seq = %s", (deletion,))
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": false' in out and "out of turn" in out
