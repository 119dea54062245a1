"""Attacks on schema 2 of the PostgreSQL store (securemem/store/pgtx.py, pgseal.py, pgversions.py).

Schema 2 promises that someone who can write the tables with SQL but holds no key cannot put back
an older ciphertext of a file or a deleted file's row, nor a redacted version's ciphertexts,
without the read being refused with the tampering error. Each test here asserts that promise and
FAILS on the code it was written against; its docstring says the severity and what it shows.
Every test uses the real server of tests/pg.py (it skips with one line where none answers).
"""

from __future__ import annotations

import pytest

from securemem import SecureMemory
from tests.helpers import ok
from tests.pg import (
    audit_verify,
    deleted_then_put_back,
    expiry_undone,
    newest_version,
    redaction_undone,
    sql,
    view_of,
)

TAMPERED = "fails its authentication check"

# Three ways to take a version out of what pgtx._LATEST reads as a memory's newest version
# (``max(seq) ... WHERE memory = m AND op < 4``) without touching any ciphertext a read opens.
HIDE = {
    "deleted": "DELETE FROM sm_versions WHERE seq = %s",
    "op-changed": "UPDATE sm_versions SET op = 4 WHERE seq = %s",
    "memory-changed": "UPDATE sm_versions SET memory = memory + 1000000 WHERE seq = %s",
}


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
        deleted_then_put_back(memory, url, "/memories/pii.md", "jane@example.org 555-0100\n")
    with sql(url) as conn:
        conn.execute(HIDE[hide], (newest_version(url),))
    with SecureMemory.open(url, key=key) as memory:
        failed, text = view_of(memory, "/memories/pii.md")
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
        conn.execute("DELETE FROM sm_versions WHERE seq = %s", (newest_version(url),))
        conn.execute(
            "UPDATE sm_entries SET size = %s, lines = %s, path_ct = %s, data_ct = %s, head = %s WHERE NOT is_dir", old
        )
    with SecureMemory.open(url, key=key) as memory:
        failed, text = view_of(memory, "/memories/pay.md")
        assert failed and "PAY ALICE 10" not in text, "the replayed old content is served as current"


def test_a_redaction_undone_by_deleting_its_event_is_served_and_passes_audit_verify(url: str, key: bytes) -> None:
    """HIGH. Reads refuse a version a redaction event names if it holds text again (``_STRUCK``),
    and ``audit verify`` reports one; but the redaction event is itself just a row of
    ``sm_versions``. The DBA writes the redacted version's old ciphertexts back, clears
    ``redacted``, and deletes the redaction event (the newest row of the chain): no event names
    the version any more, so ``memory_versions.retrieve`` serves the erased text, and ``audit
    verify`` (without a pinned head) finds the chain whole. The erasure is undone without a key,
    and nothing else in the database was rolled back (``history_bytes`` keeps the redaction's)."""
    served = redaction_undone(url, key, "DELETE FROM sm_versions WHERE op = 4")
    assert "jane@example.org" not in served, "a redacted version's text is served again"
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
    served = expiry_undone(url, key)
    assert not any("jane@example.org" in text for text in served), "an expired memory's text is served again"
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": false' in out, "audit verify finds the chain whole"


def test_a_version_removed_from_the_middle_of_the_history_is_found_by_audit_verify(url: str, key: bytes) -> None:
    """What reads do not check, the audit does. A read checks a row against its memory's newest
    version and the store's sealed newest version, not the whole chain: a deleted file's row put
    back with its ``deleted`` version removed from the middle of the history (later writes keep
    the chain's end intact) is the README's known limit for reads. ``audit verify`` walks the
    chain and names the gap."""
    deletions: list[int] = []

    def after_the_deletion() -> None:
        deletions.append(newest_version(url))
        ok(memory, command="create", path="/memories/later.md", file_text="later\n")

    with SecureMemory.open(url, key=key) as memory:
        deleted_then_put_back(memory, url, "/memories/pii.md", "jane@example.org 555-0100\n", after_the_deletion)
    with sql(url) as conn:
        conn.execute("DELETE FROM sm_versions WHERE seq = %s", (deletions[0],))
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": false' in out and "out of turn" in out
