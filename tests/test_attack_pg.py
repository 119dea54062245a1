"""Attacks on the PostgreSQL store by someone who holds the database but no key (the DBA, a stolen
backup restored, a compromised replica promoted), and by races between processes.

Each test here is a reproducer of a weakness found in the PostgreSQL backend: it asserts what
issue 12 promises, and FAILS on the code it was written against. The comment on each says what it
shows. Every test uses the real server of tests/pg.py (it skips with one line where none answers).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from contextlib import closing
from typing import Any

import psycopg
import pytest

from securemem import Admin, SecureMemory
from securemem.errors import DamagedStoreError, StorageError
from securemem.policy import TTLSettings, load_policy
from securemem.store.factory import open_store
from tests.helpers import ok
from tests.hsm import URI as HSM_URI
from tests.pg import (
    PG,
    SERVER,
    audit_verify,
    deleted_then_put_back,
    hold_store_lock,
    queued,
    redaction_undone,
    sql,
    until,
    view_of,
)

TAMPERED = "fails its authentication check"


# -- tampering by SQL that is served, not detected ---------------------------------------------------


def test_store_name_tokens_swapped_by_sql_send_each_agent_into_the_other_store(url: str, key: bytes) -> None:
    """HIGH. A store is found by the HMAC token of its name (``sm_stores.name_tok``, in clear), and
    nothing checks that the row found is the store asked for: its sealed name is never compared
    with the name looked up. A DBA who swaps two stores' tokens (three UPDATEs, no key) sends the
    agents of store "alice" into store "bob": they read bob's memories and write their own secrets
    into bob's store, where bob's agents read them. Each row's AEAD is intact, so nothing fails."""
    with SecureMemory.open(url, key=key, namespace="alice") as memory:
        ok(memory, command="create", path="/memories/alice.md", file_text="ALICE-SECRET\n")
    with SecureMemory.open(url, key=key, namespace="bob") as memory:
        ok(memory, command="create", path="/memories/bob.md", file_text="BOB-SECRET\n")
    with sql(url) as conn:
        (a, tok_a), (b, tok_b) = conn.execute("SELECT id, name_tok FROM sm_stores ORDER BY id").fetchall()
        conn.execute("UPDATE sm_stores SET name_tok = '\\x00' WHERE id = %s", (a,))
        conn.execute("UPDATE sm_stores SET name_tok = %s WHERE id = %s", (tok_a, b))
        conn.execute("UPDATE sm_stores SET name_tok = %s WHERE id = %s", (tok_b, a))
    with SecureMemory.open(url, key=key, namespace="alice") as memory:
        failed, text = view_of(memory, "/memories/bob.md")
        assert failed and "BOB-SECRET" not in text, "alice's agent is served bob's memory"
        failed, text = view_of(memory, "/memories")
        assert failed and "bob.md" not in text, "alice's agent lists bob's store as its own"


def test_an_older_ciphertext_of_the_same_file_replayed_by_sql_is_served(url: str, key: bytes) -> None:
    """HIGH. A file's content is sealed with associated data (field, store, memory number) only: an
    edit keeps the memory number, so every ciphertext the file ever had stays valid for its row.
    A DBA who kept an old ``data_ct`` (a dump, a replica, dead tuples) writes it back and the agent
    is served the old text as current, with no error, while the listing still shows the new size;
    ``audit verify`` checks the version chain only, so it does not see it either."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/pay.md", file_text="PAY ALICE 10\n")
    with sql(url) as conn:
        (old,) = conn.execute("SELECT data_ct FROM sm_entries WHERE NOT is_dir").fetchone()  # type: ignore[misc]
        with SecureMemory.open(url, key=key) as memory:
            ok(memory, command="str_replace", path="/memories/pay.md", old_str="10", new_str="0 (revoked)")
        conn.execute("UPDATE sm_entries SET data_ct = %s WHERE NOT is_dir", (old,))
    with SecureMemory.open(url, key=key) as memory:
        failed, text = view_of(memory, "/memories/pay.md")
        assert failed and "PAY ALICE 10" not in text, "the replayed old content is served as current"


def test_a_deleted_file_put_back_from_an_old_dump_is_served(url: str, key: bytes) -> None:
    """MEDIUM. The same gap for a whole row: a file's sealed path is bound to its token and memory
    number, its content to the memory number; neither to anything a deletion changes. A DBA who
    re-inserts the row of a deleted file (from any dump taken before the deletion) brings the file
    back, and the agent is served it: an erasure (a deleted PII note, say) undone by one INSERT."""
    with SecureMemory.open(url, key=key) as memory:
        deleted_then_put_back(memory, url, "/memories/pii.md", "jane@example.org 555-0100\n")
    with SecureMemory.open(url, key=key) as memory:
        failed, text = view_of(memory, "/memories/pii.md")
        assert failed and "jane@example.org" not in text, "a deleted file put back by SQL is served"


@pytest.mark.parametrize("head", ["kept", "zeroed"])
def test_a_deleted_files_row_put_back_is_not_listed(url: str, key: bytes, head: str) -> None:
    """MEDIUM. A listing unseals every path it shows: a deleted file's row put back from a dump
    must not come back as a name either, even with its ``head`` set to 0 (the value of a row
    written with the history off, which nothing witnesses): the sealed path names its head."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/other.md", file_text="other\n")
        deleted_then_put_back(memory, url, "/memories/jane-doe.md", "notes\n")
    if head == "zeroed":
        with sql(url) as conn:
            conn.execute("UPDATE sm_entries SET head = 0 WHERE NOT is_dir")
    with SecureMemory.open(url, key=key) as memory:
        failed, text = view_of(memory, "/memories")
        assert failed and "jane-doe" not in text, f"a deleted file's name is listed again: {text!r}"


def test_an_expired_file_given_back_its_life_by_sql_is_served(url: str, key: bytes) -> None:
    """MEDIUM. ``expires`` is a clear, unauthenticated column: a DBA who clears it on a row that
    has expired but not been swept yet makes the expired memory visible (and permanent) again, so
    "expiry invisible at once" holds only against agents, not against the database."""
    now = [1_900_000_000.0]
    policy = load_policy("default").model_copy(update={"ttl": TTLSettings(expire_after=60)})
    with SecureMemory.open(url, key=key, clock=lambda: now[0], policy=policy) as memory:
        ok(memory, command="create", path="/memories/short.md", file_text="SHORT-LIVED\n")
        assert "SHORT-LIVED" in ok(memory, command="view", path="/memories/short.md")  # the control
        now[0] += 120
        assert view_of(memory, "/memories/short.md")[0]  # expired: invisible at once
        with sql(url) as conn:
            conn.execute("UPDATE sm_entries SET expires = NULL")
        failed, text = view_of(memory, "/memories/short.md")
        assert failed and "SHORT-LIVED" not in text, "an expired file is served again after one UPDATE"


def test_a_size_changed_by_sql_is_served_as_the_files_size(url: str, key: bytes) -> None:
    """LOW. ``size`` (and ``lines``) are clear, unauthenticated columns that listings, stats and the
    quota read as they are: a DBA sets a 4 KiB file's size to 0 and the agent is told 0 bytes (and
    the store's total bytes, which ``max_total_bytes`` checks, drop by as much). Nothing ties the
    clear size to the sealed content it describes."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/big.md", file_text="x" * 4095 + "\n")
        with sql(url) as conn:
            conn.execute("UPDATE sm_entries SET size = 0, lines = 0 WHERE NOT is_dir")
        failed, text = view_of(memory, "/memories")
        assert failed or "4.0K\t/memories/big.md" in text, f"a false size is served: {text!r}"


def test_a_redacted_version_put_back_by_sql_is_served_and_passes_audit_verify(url: str, key: bytes) -> None:
    """HIGH. An operator redacts a version (PII in an old text, say): its ``meta_ct`` and ``data_ct``
    are erased and a ``redaction`` event naming it is chained. A DBA writes the row's old
    ciphertexts back from any earlier dump and clears ``redacted``: the version's sealed fields
    are bound to its number only, so they open; ``memory_versions.retrieve`` serves the erased
    text again, and ``securemem audit verify`` reports the chain whole (it does not check that a
    version a ``redaction`` event names is in fact redacted). The erasure is undone without a key."""
    served = redaction_undone(url, key)
    assert "jane@example.org" not in served, "a redacted version's text is served again"
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": false' in out, "audit verify finds the chain whole"


def test_a_version_moved_to_another_memory_by_sql_is_served_as_its_history(url: str, key: bytes) -> None:
    """MEDIUM. A version's sealed fields are bound to its store and number only; the memory it
    belongs to (``sm_versions.memory``), its operation, time, session and actor are clear columns
    that reads never check (only ``audit verify`` walks the chain). A DBA sets the memory of
    alice's versions to bob's: ``memory_versions.list(memory_id=bob)`` then lists alice's version,
    path and all, as bob's history, and ``retrieve`` serves her text under bob's memory."""
    with Admin.open(url, key=key) as admin:
        store = admin.memory_stores.create(name="s")
        admin.memories.write(store.id, path="/alice.md", content="ALICE-PRIVATE\n")
        bob = admin.memories.write(store.id, path="/bob.md", content="bob\n")
        with sql(url) as conn:
            alice_no, bob_no = (
                int(r[0]) for r in conn.execute("SELECT memory FROM sm_entries WHERE NOT is_dir ORDER BY memory")
            )
            conn.execute("UPDATE sm_versions SET memory = %s WHERE memory = %s", (bob_no, alice_no))
        try:
            listed = admin.memory_versions.list(store.id, memory_id=bob.id).data
        except StorageError:
            return  # refused: the tampering is detected
        assert [v.path for v in listed] == ["/bob.md"], f"bob's history lists {[v.path for v in listed]}"


def test_a_restarted_memory_sequence_lets_sql_swap_two_files_contents(url: str, key: bytes) -> None:
    """MEDIUM. A file's content is bound to its store and memory number, and memory numbers come
    from a sequence the DBA can restart (``ALTER SEQUENCE sm_memory_numbers RESTART``); nothing
    (no unique index on ``(ns, memory)``, no check at insert) refuses a number already in use. Once
    two files share a number, their content ciphertexts are interchangeable: the DBA copies one
    file's content over the other's and the agent is served it, with no error."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="A-CONTENT\n")
        with sql(url) as conn:
            conn.execute("ALTER SEQUENCE sm_memory_numbers RESTART WITH 1")
            ok(memory, command="create", path="/memories/b.md", file_text="B-CONTENT\n")
            conn.execute(
                "UPDATE sm_entries SET data_ct = (SELECT data_ct FROM sm_entries WHERE NOT is_dir AND memory = "
                "(SELECT memory FROM sm_entries WHERE NOT is_dir ORDER BY tok LIMIT 1) ORDER BY tok LIMIT 1) "
                "WHERE NOT is_dir"
            )
        served = [view_of(memory, p) for p in ("/memories/a.md", "/memories/b.md")]
        contents = {text.splitlines()[-1].split("\t")[-1] for failed, text in served if not failed}
        assert len(contents) == len([1 for failed, _ in served if not failed]), (
            f"one text served for two files: {served}"
        )


@pytest.mark.parametrize("attack", ["replayed", "deleted", "digest-deleted"])
def test_an_older_policy_replayed_by_sql_is_obeyed(url: str, key: bytes, attack: str) -> None:
    """MEDIUM. The store's policy is a sealed setting whose associated data names the setting only,
    so every ciphertext the setting ever had stays valid, and its row's absence means "no policy
    recorded yet". An operator tightens the policy (default -> refuse-pii); the DBA writes the old
    ciphertext back ("replayed"), or simply deletes the row ("deleted"): every agent that opens
    with the store's own policy then runs under the old or the shipped default one, with no error,
    and PII is stored."""
    with SecureMemory.open(url, key=key, policy="default"):
        pass
    with sql(url) as conn:
        (loose,) = conn.execute("SELECT value FROM sm_meta WHERE key = 'setting:policy'").fetchone()  # type: ignore[misc]
        with SecureMemory.open(url, key=key, policy="refuse-pii", adopt_policy=True) as memory:
            assert memory.policy.name == "refuse-pii"
        if attack == "replayed":
            conn.execute("UPDATE sm_meta SET value = %s WHERE key = 'setting:policy'", (loose,))
        elif attack == "deleted":
            conn.execute("DELETE FROM sm_meta WHERE key = 'setting:policy'")
        else:  # the sealed digest of the settings goes with the setting: "no policy recorded yet"
            conn.execute("DELETE FROM sm_meta WHERE key IN ('setting:policy', 'settings')")
    try:
        memory = SecureMemory.open(url, key=key)
    except StorageError:
        return  # refused: the tampering is detected
    with memory:
        assert memory.policy.name == "refuse-pii", f"the agent runs under the policy {memory.policy.name!r}"


def test_a_directory_row_flagged_a_file_by_sql_is_an_internal_error(url: str, key: bytes) -> None:
    """LOW. ``is_dir`` is clear and unauthenticated: a directory row flipped to a file has no
    ``data_ct``, and ``view`` of it ends in ``bytes(None)``: "internal error in the memory store"
    (a TypeError logged), not the tampering error every other changed row gets."""
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/d/a.md", file_text="A\n")
        with sql(url) as conn:
            conn.execute("UPDATE sm_entries SET is_dir = false WHERE is_dir AND length(tok) = 16")
        failed, text = view_of(memory, "/memories/d")
        assert failed and TAMPERED in text, text


# -- crypto-shredding --------------------------------------------------------------------------------


def test_the_per_store_key_mode_flipped_by_sql_silently_ends_shredding(hsm: str) -> None:
    """MEDIUM-HIGH. Whether each store's data key is wrapped by a key object of its own on the token
    is read from ``sm_meta.store_keys``, a clear, unauthenticated row. A DBA who sets it to
    'master' makes every process that opens next create stores whose data key only the master key
    wraps: deleting such a store destroys nothing on the token, so a dump taken before the deletion
    still decrypts it, though the deployment runs with a PKCS#11 KEK and issue 12 promises erasure
    that reaches old dumps. Nothing fails or warns."""
    url = PG.fresh_url()
    with Admin.open(url, kek=HSM_URI) as admin:
        admin.memory_stores.create(name="Before")
    with sql(url) as conn:
        conn.execute("UPDATE sm_meta SET value = 'master' WHERE key = 'store_keys'")
    opened = None
    try:
        opened = Admin.open(url, kek=HSM_URI)
        late = opened.memory_stores.create(name="Made after the flip")
        memory = opened.memories.write(late.id, path="/secret.md", content="SHOULD-BE-SHREDDED\n")
        with sql(url) as conn:
            saved = conn.execute("SELECT * FROM sm_stores WHERE public_id = %s", (late.id,)).fetchone()
            assert saved is not None
            rows = conn.execute("SELECT * FROM sm_entries").fetchall()
        opened.memory_stores.delete(late.id)  # the token's key objects: nothing of this store to destroy
        with sql(url) as conn:  # the "dump" put back: the store's row and its entries
            conn.execute(f"INSERT INTO sm_stores VALUES ({', '.join(['%s'] * len(saved))})", saved)
            for row in rows:
                conn.execute(
                    f"INSERT INTO sm_entries VALUES ({', '.join(['%s'] * len(row))}) ON CONFLICT DO NOTHING", row
                )
        with Admin.open(url, kek=HSM_URI) as admin:
            content = admin.memories.retrieve(late.id, memory.id).content
        raise AssertionError(f"a deleted store's memory decrypts from a dump taken before: {content!r}")
    except AssertionError:
        raise
    except Exception as exc:  # refused: at the open, the create, or the read of the restored store
        assert "SHOULD-BE-SHREDDED" not in str(exc)
    finally:
        if opened is not None:
            opened.close()


@pytest.mark.parametrize("change", ["DELETE FROM sm_meta", "UPDATE sm_meta SET value = 'own'"])
def test_the_per_store_key_mode_changed_or_deleted_by_sql_is_refused_at_open(url: str, key: bytes, change: str) -> None:
    """The fix of the finding above, without a token: the mode is sealed with the master key, so a
    row rewritten in clear or deleted is the tampering error at the next open, not a new mode."""
    with Admin.open(url, key=key) as admin:
        admin.memory_stores.create(name="s")
    with sql(url) as conn:
        conn.execute(f"{change} WHERE key = 'store_keys'")
    with pytest.raises(DamagedStoreError, match=TAMPERED):
        Admin.open(url, key=key)


def _token_keys(module: str) -> set[str]:
    """The labels of the secret keys on the test token."""
    import pkcs11
    from pkcs11 import Attribute, ObjectClass

    from tests.hsm import PIN, TOKEN

    with pkcs11.lib(module).get_token(token_label=TOKEN).open(user_pin=PIN) as session:
        return {str(o[Attribute.LABEL]) for o in session.get_objects({Attribute.CLASS: ObjectClass.SECRET_KEY})}


def test_a_store_name_already_taken_leaves_a_key_object_on_the_token(hsm: str) -> None:
    """LOW-MEDIUM. With per-store keys, ``_insert_store`` makes the store's key object on the token
    first, then inserts the row ``ON CONFLICT (name_tok) DO NOTHING``: when the name is taken (or
    the transaction fails or rolls back later) the object stays on the token, named after a store
    that never existed, and nothing ever destroys it. Each refused create leaks one; an agent or a
    script retrying a taken name fills the HSM's object storage, which other applications share."""
    url = PG.fresh_url()
    with Admin.open(url, kek=HSM_URI) as admin:
        admin.memory_stores.create(name="taken")
        before = _token_keys(hsm)
        for _ in range(3):
            with pytest.raises(Exception, match="exists"):
                admin.memory_stores.create(name="taken")
        leaked = _token_keys(hsm) - before
    assert leaked == set(), f"key objects of stores that were never made: {sorted(leaked)}"


# -- concurrency across handles ------------------------------------------------------------------------


def test_a_write_queued_behind_a_store_delete_is_acknowledged_and_lost(url: str, key: bytes) -> None:
    """MEDIUM. ``transaction()`` resolves a store by name, then waits for the store's lock, and (for
    an agent's namespace, ``create=True``) never checks after the wait that the store still
    exists. An agent whose handle already holds the store's data key writes while an operator
    deletes the store: the delete commits first, then the agent's write lands under the shredded
    key in rows of a store that no longer exists (no foreign key stops it), and the agent is told
    "File created successfully". The write is lost, and orphan ciphertext stays in the database."""
    agent = SecureMemory.open(url, key=key, namespace="doomed")
    try:
        ok(agent, command="create", path="/memories/first.md", file_text="first\n")  # the handle has the key
        with Admin.open(url, key=key) as admin, sql(url) as conn, sql(url) as holder:
            (ns, store_id) = conn.execute("SELECT id, public_id FROM sm_stores").fetchone()  # type: ignore[misc]
            hold_store_lock(holder, ns)  # another writer holds it
            results: dict[str, Any] = {}

            def delete() -> None:
                admin.memory_stores.delete(store_id)
                results["deleted"] = True

            def write() -> None:
                results["write"] = agent.execute(
                    {"command": "create", "path": "/memories/late.md", "file_text": "LATE\n"}
                )

            queued(conn, holder, ns, (delete, "the delete waits for the store's lock"),
                   (write, "the write waits behind the delete"))  # fmt: skip
            assert results.get("deleted") is True
            orphans = conn.execute("SELECT count(*) FROM sm_entries WHERE ns NOT IN (SELECT id FROM sm_stores)")
            count = orphans.fetchone()
        result = results["write"]
        if not result.is_error:  # a handle that may create makes a new store of the name (as on SQLCipher)
            assert "LATE" in ok(agent, command="view", path="/memories/late.md"), "the acknowledged write is lost"
            assert view_of(agent, "/memories/first.md")[0], "the deleted store's memory is served"
        assert count == (0,), "rows of a deleted store were written after its deletion"
    finally:
        agent.close()


# -- bad input: credentials in a URL -------------------------------------------------------------------


def test_a_password_in_a_bad_url_never_reaches_stderr() -> None:
    """HIGH (a secret in the output). The pool connects in a background worker and psycopg_pool logs
    each failed attempt at WARNING with libpq's message, which for a malformed URL quotes the
    whole URL, password included. With no logging configured Python prints WARNINGs to stderr, so
    ``securemem stores list --db 'postgresql://user:PASSWORD@[::1/db'`` prints the password four
    times (and an unreachable or refusing server prints four extra lines before the one-line error:
    not "one line"). An application that logs WARNINGs ships the password to its log."""
    password = "Pw-" + os.urandom(6).hex()
    host = SERVER.split("@", 1)[-1].split("/", 1)[0]
    bad = f"postgresql://agent:{password}@[{host}/test"  # an unclosed bracket: libpq quotes the URL back
    env = {**os.environ, "SECUREMEM_KEY": os.urandom(32).hex()}
    run = subprocess.run(
        [sys.executable, "-m", "securemem.cli", "stores", "list", "--db", bad],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert run.returncode == 2
    assert password not in run.stderr + run.stdout, "the URL's password is printed"
    assert run.stderr.count("\n") == 1, f"not one line: {run.stderr!r}"


def test_a_refused_login_is_one_line_on_stderr(url: str) -> None:
    """LOW. Any connection the pool cannot make (wrong role, wrong password, server down) prints
    psycopg_pool's WARNING lines before securemem's one-line error (see the test above)."""
    del url  # the session's database exists
    wrong = PG.url().replace("://postgres@", "://no_such_role_x@")
    run = subprocess.run(
        [sys.executable, "-m", "securemem.cli", "stores", "list", "--db", wrong],
        capture_output=True, text=True, timeout=120, env={**os.environ, "SECUREMEM_KEY": os.urandom(32).hex()},
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1, f"not one line: {run.stderr!r}"


def test_open_store_keeps_the_driver_quiet_about_the_url(key: bytes, caplog: pytest.LogCaptureFixture) -> None:
    """HIGH (same root as above, through the SDK): ``SecureMemory.open`` / ``open_store`` on a
    malformed URL logs it, password and all, through the ``psycopg.pool`` logger."""
    password = "Pw-" + os.urandom(6).hex()
    caplog.set_level("DEBUG")
    with pytest.raises(StorageError):
        open_store(f"postgresql://agent:{password}@[::1/test", key)
    leaked = [r.name for r in caplog.records if password in r.getMessage()]
    assert leaked == [], f"the password reached the log through {leaked}"


# -- what the DBA reads in clear -----------------------------------------------------------------------


def test_who_wrote_each_version_is_in_clear_in_a_dump(key: bytes) -> None:
    """LOW-MEDIUM. ``sm_versions.session`` and ``sm_versions.actor`` hold the handle's
    ``session_id`` and ``api_key_id`` in clear. Deployments name them after people (an e-mail, a
    user name): the DBA, a replica or a stolen dump then reads who wrote which memory, when and
    how often, PII that issue 12 keeps off the server. (Also in clear and unauthenticated:
    ``sm_versions.memory``, ``op``, ``created``: a per-memory activity timeline.)"""
    url = PG.fresh_url()
    who = "jane.quokka@example.org"
    with SecureMemory.open(url, key=key, session_id=f"sess-{who}", api_key_id=who) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="a\n")
    schema = url.rsplit("search_path%3D", 1)[1]
    dump = subprocess.run(["pg_dump", "-n", schema, PG.url()], capture_output=True, check=True).stdout
    assert b"sm_versions" in dump  # the control: the table was dumped
    assert who.encode() not in dump, "the api_key_id / session_id is in clear in the dump"


# -- the URL, password included, in the operator's output ----------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["stores", "list"],  # with no key: "no key for <URL> ... keep the key in <URL>.key"
        ["verify"],  # stdout: "<URL>: ok (integrity_check and cipher_integrity_check passed)"
        ["rekey"],  # "the store is not opened with <URL>.key"
        ["keys", "list"],  # "<URL> has no key header <URL>.keys"
        ["backup", "--out", "{tmp}/b.bak"],  # "<URL> has no KEKs"
        ["init"],  # "cannot create <URL>: the directory ... does not exist"
        ["policy", "set", "default"],  # success, stdout: "<URL> now runs under policy 'default'"
    ],
)
def test_the_urls_password_is_never_printed(url: str, argv: list[str], tmp_path: Any) -> None:
    """MEDIUM-HIGH. Many CLI messages quote ``--db`` as given; for a PostgreSQL URL that is the
    password, printed to the terminal (and to whatever collects an operator's output). Several of
    these commands also treat the URL as a file path (``<URL>.key``, ``<URL>.keys``, ``init``), and
    ``verify`` claims SQLite's integrity checks passed on a server that ran none."""
    password = "Pw-" + os.urandom(6).hex()
    with_password = url.replace("://postgres@", f"://postgres:{password}@")  # trust auth: the login works
    env = {k: v for k, v in os.environ.items() if k not in ("SECUREMEM_KEY", "SECUREMEM_KEK")}
    if argv != ["stores", "list"]:
        env["SECUREMEM_KEY"] = os.urandom(32).hex()
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    run = subprocess.run(
        [sys.executable, "-m", "securemem.cli", *args, "--db", with_password],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert "Traceback" not in run.stderr
    assert password not in run.stdout + run.stderr, f"the password is printed: {run.stdout + run.stderr!r}"


@pytest.mark.slow
def test_keys_rotate_dek_on_a_postgresql_url_is_never_an_internal_error(url: str, tmp_path: Any) -> None:
    """LOW. ``securemem keys rotate-dek --db postgresql://...`` ended in "internal error
    (FileNotFoundError); please report it": it looked for a SQLCipher file named like the URL. It
    now rotates the deployment's data keys (exit 0, one line), and a wrong KEK is exit 2, one line."""
    kek, wrong = tmp_path / "kek", tmp_path / "wrong"
    for path in (kek, wrong):
        path.write_text(os.urandom(32).hex())
        path.chmod(0o600)
    with SecureMemory.open(url, kek=f"file:{kek}"):
        pass  # the deployment is made, with its KEK
    for which, code in ((wrong, 2), (kek, 0)):
        run = subprocess.run(
            [sys.executable, "-m", "securemem.cli", "keys", "rotate-dek", "--db", url, "--kek", f"file:{which}"],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
        )  # fmt: skip
        assert run.returncode == code and (run.stderr if code else run.stdout).count("\n") == 1, run
        assert "internal error" not in run.stderr + run.stdout, run.stderr


# -- deployments side by side in one database ----------------------------------------------------------


def test_a_writer_of_one_deployment_never_waits_for_another_deployments_lock(key: bytes) -> None:
    """LOW. A store's write lock was ``pg_advisory_xact_lock(0x5EC1 << 32 | store number)``, and
    advisory locks are per database, not per schema: two deployments in two schemas of one
    database (as tests/pg.py lays them out, and as a host sharing one database between tenants
    would) share every lock. A long write in tenant A's store 1 stalls every writer of tenant B's
    store 1 (StoreBusyError after 30 s), sweeps skip each other's stores, and two tenants' sibling
    locks can deadlock each other."""
    one, two = PG.fresh_url(), PG.fresh_url()
    for url in (one, two):
        with SecureMemory.open(url, key=key) as memory:
            ok(memory, command="create", path="/memories/a.md", file_text="a\n")
    first = open_store(one, key)
    with closing(first), sql(one) as looker, sql(two) as watcher, SecureMemory.open(two, key=key) as memory:
        (ns,) = looker.execute("SELECT id FROM sm_stores").fetchone()  # type: ignore[misc]
        assert watcher.execute("SELECT id FROM sm_stores").fetchone() == (ns,)  # both stores are number 1
        done = threading.Event()

        def write() -> None:
            memory.execute({"command": "create", "path": "/memories/b.md", "file_text": "b\n"})
            done.set()

        writer = threading.Thread(target=write)
        with first.transaction("default", write=True, clock=time.time):  # a write of deployment one, its lock held
            writer.start()
            until(lambda: done.is_set() or _advisorylock_waiters(watcher) > 0, "the write ends or waits")
            waited = not done.is_set()
        writer.join(60)
    assert not waited, "a writer of deployment two waited for a lock deployment one held"


def _advisorylock_waiters(conn: psycopg.Connection[Any]) -> int:
    """Sessions waiting for any advisory lock of this database, whichever key: a shared key is found too."""
    row = conn.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    ).fetchone()
    return int(row[0]) if row else 0
