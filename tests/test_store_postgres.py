"""The PostgreSQL store beyond the shared contract: its schema check, its keys, tampering by SQL,
a lost connection, and nothing in clear on the server (dump, log, table files).

The contract suites run it like every backend (``BACKENDS`` in helpers.py); these tests use what
only a server has. Each test gets a fresh migrated schema of the session's database (tests/pg.py).
"""

from __future__ import annotations

import glob
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from securemem import Admin, SecureMemory
from securemem.errors import DamagedStoreError, StorageError, WrongKekError, WrongKeyError
from securemem.policy import Policy
from securemem.store import history
from securemem.store.factory import open_store
from securemem.store.pgschema import SCHEMA_VERSION
from tests.helpers import T0, fork_all, ok, read_state, run_cli, write_many
from tests.hsm import URI as HSM_URI
from tests.pg import PG, sql


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and text
    return text


# -- schema and keys -------------------------------------------------------------------------------


def test_an_unmigrated_database_is_refused_with_the_way_out(key: bytes) -> None:
    bare = PG.fresh_url(migrated=False)
    with pytest.raises(StorageError) as caught:
        SecureMemory.open(bare, key=key)
    assert "securemem migrate" in one_line(caught.value)
    with sql(bare) as conn:  # an open never creates a table
        assert conn.execute(
            "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'sm_%' AND schemaname = current_schema()"
        ).fetchone() == (0,)


@pytest.mark.parametrize(("version", "said"), [("0", "securemem migrate"), ("99", "upgrade securemem")])
def test_a_schema_at_another_version_is_refused(url: str, key: bytes, version: str, said: str) -> None:
    with sql(url) as conn:
        conn.execute("UPDATE sm_meta SET value = %s WHERE key = 'schema_version'", (version,))
    with pytest.raises(StorageError) as caught:
        SecureMemory.open(url, key=key)
    assert said in one_line(caught.value)


def test_securemem_migrate_creates_then_finds_the_schema_current(capsys: pytest.CaptureFixture[str]) -> None:
    bare = PG.fresh_url(migrated=False)
    assert run_cli(capsys, "migrate", "--db", bare)[:2] == (
        0,
        f"securemem: the PostgreSQL schema is created at version {SCHEMA_VERSION}\n",
    )
    code, out, _ = run_cli(capsys, "migrate", "--db", bare)
    assert (code, out) == (0, f"securemem: the PostgreSQL schema is already at version {SCHEMA_VERSION}\n")
    code, _, err = run_cli(capsys, "migrate", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 2 and err.count("\n") == 1 and "cannot connect" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate", "--db", "postgresql://[::1/test"],
        ["migrate", "--db", "postgresql://127.0.0.1/test?password=hunter2&sekret=1"],
        ["stores", "list", "--db", "postgresql://127.0.0.1/test?password=hunter2&sekret=1", "--key-file"],
        ["keys", "list", "--db", "postgresql://[::1/test?password=hunter2", "--key-file"],
    ],
)
def test_a_malformed_url_is_said_to_be_one_and_not_quoted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """libpq cannot read the URL: no server was asked, so none is said to have refused (an attacker's round)."""
    if argv[-1] == "--key-file":
        key_file = tmp_path / "key"
        key_file.write_text(os.urandom(32).hex())
        key_file.chmod(0o600)
        argv = [*argv, str(key_file)]
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "the PostgreSQL URL is malformed" in err
    assert "hunter2" not in err and "sekret" not in err and "::1" not in err


def test_the_wrong_key_or_kek_opens_nothing(url: str, key: bytes, tmp_path: Path) -> None:
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="a\n")
    with pytest.raises(WrongKeyError):
        SecureMemory.open(url, key=os.urandom(32))
    kek_url = PG.fresh_url()
    kek = tmp_path / "kek"
    kek.write_text(os.urandom(32).hex())
    kek.chmod(0o600)
    with SecureMemory.open(kek_url, kek=f"file:{kek}") as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="a\n")
    with SecureMemory.open(kek_url, kek=f"file:{kek}") as memory:
        assert "a" in ok(memory, command="view", path="/memories/a.md")
    other = tmp_path / "other"
    other.write_text(os.urandom(32).hex())
    other.chmod(0o600)
    with pytest.raises(WrongKekError) as caught:
        SecureMemory.open(kek_url, kek=f"file:{other}")
    assert f"file:{other}" in one_line(caught.value)


def test_the_admin_surface_runs_on_postgresql(url: str, key: bytes) -> None:
    with Admin.open(url, key=key, api_key_id="ops") as admin:
        store = admin.memory_stores.create(name="Team notes", description="shared")
        memory = admin.memories.write(store.id, path="/a.md", content="one\n")
        admin.memories.update(store.id, memory.id, content="two\n")
        versions = admin.memory_versions.list(store.id, memory_id=memory.id).data
        assert [v.operation for v in versions] == ["modified", "created"]
        assert admin.memory_versions.retrieve(store.id, versions[1].id).content == "one\n"
        admin.memory_versions.restore(store.id, versions[1].id)
        assert admin.memories.retrieve(store.id, memory.id).content == "one\n"
        assert [s.name for s in admin.memory_stores.list().data] == ["Team notes"]


# -- tampering by SQL: detected, never served ---------------------------------------------------------

TAMPERED = "fails its authentication check"


def _two_files(url: str, key: bytes) -> None:
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="ALPHA-TEXT\n")
        ok(memory, command="create", path="/memories/b.md", file_text="BETA-TEXT\n")


def _refused(memory: SecureMemory, path: str) -> None:
    result = memory.execute({"command": "view", "path": path})
    assert result.is_error and TAMPERED in result.text, result.text
    assert "ALPHA" not in result.text and "BETA" not in result.text


SWAP = (
    "WITH a AS (SELECT tok, {cols} FROM sm_entries WHERE NOT is_dir ORDER BY tok LIMIT 1), "
    "b AS (SELECT tok, {cols} FROM sm_entries WHERE NOT is_dir ORDER BY tok DESC LIMIT 1) "
    "UPDATE sm_entries e SET ({cols}) = (SELECT {cols} FROM b) FROM a WHERE e.tok = a.tok"
)


@pytest.mark.parametrize("cols", ["data_ct", "path_ct", "memory, data_ct", "memory, data_ct, path_ct"])
def test_content_or_paths_copied_between_rows_are_refused(url: str, key: bytes, cols: str) -> None:
    _two_files(url, key)
    with sql(url) as conn:
        if "memory" in cols:  # two files may not share a number: the DBA drops that index first
            with pytest.raises(psycopg.errors.UniqueViolation):
                conn.execute(SWAP.format(cols=cols))
            conn.execute("DROP INDEX sm_entries_memory")
        assert conn.execute(SWAP.format(cols=cols)).rowcount == 1
    with SecureMemory.open(url, key=key) as memory:
        damaged = [
            p for p in ("/memories/a.md", "/memories/b.md") if memory.execute({"command": "view", "path": p}).is_error
        ]
        assert len(damaged) == 1
        _refused(memory, damaged[0])
        if "path_ct" in cols:  # a listing unseals every path: it refuses too
            _refused(memory, "/memories")


def test_a_row_copied_into_another_store_is_refused(url: str, key: bytes) -> None:
    with SecureMemory.open(url, key=key, namespace="one") as memory:
        ok(memory, command="create", path="/memories/secret.md", file_text="ALPHA-TEXT\n")
    with SecureMemory.open(url, key=key, namespace="two") as memory:
        ok(memory, command="create", path="/memories/mine.md", file_text="BETA-TEXT\n")
    with sql(url) as conn:
        one, two = (int(r[0]) for r in conn.execute("SELECT id FROM sm_stores ORDER BY id").fetchall())
        # store one's file (its memory number, sealed path and content) put in place of store two's
        conn.execute(
            "UPDATE sm_entries t SET (memory, path_ct, data_ct) = (o.memory, o.path_ct, o.data_ct) "
            "FROM sm_entries o WHERE t.ns = %s AND NOT t.is_dir AND o.ns = %s AND NOT o.is_dir",
            (two, one),
        )
    with SecureMemory.open(url, key=key, namespace="two") as memory:
        _refused(memory, "/memories")
        _refused(memory, "/memories/mine.md")


def test_version_content_moved_to_another_version_is_refused(url: str, key: bytes) -> None:
    with Admin.open(url, key=key) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="ALPHA-TEXT\n")
        admin.memories.update(store.id, memory.id, content="BETA-TEXT\n")
        newest, oldest = admin.memory_versions.list(store.id, memory_id=memory.id).data
        with sql(url) as conn:
            conn.execute(
                "UPDATE sm_versions SET data_ct = (SELECT data_ct FROM sm_versions ORDER BY seq LIMIT 1), "
                "meta_ct = (SELECT meta_ct FROM sm_versions ORDER BY seq LIMIT 1) "
                "WHERE seq = (SELECT max(seq) FROM sm_versions)"
            )
        with pytest.raises(DamagedStoreError) as caught:
            admin.memory_versions.retrieve(store.id, newest.id)
        assert TAMPERED in one_line(caught.value) and "ALPHA" not in str(caught.value)
        assert admin.memory_versions.retrieve(store.id, oldest.id).content == "ALPHA-TEXT\n"


def test_store_names_swapped_between_stores_are_refused(url: str, key: bytes) -> None:
    with Admin.open(url, key=key) as admin:
        admin.memory_stores.create(name="first")
        admin.memory_stores.create(name="second")
    with sql(url) as conn:
        conn.execute(
            "UPDATE sm_stores SET name_ct = (SELECT name_ct FROM sm_stores ORDER BY id LIMIT 1) "
            "WHERE id = (SELECT max(id) FROM sm_stores)"
        )
    with Admin.open(url, key=key) as admin, pytest.raises(DamagedStoreError):
        admin.memory_stores.list()


# -- a lost connection -----------------------------------------------------------------------------


def test_a_lost_connection_is_one_clear_error_and_the_next_command_reconnects(url: str, key: bytes) -> None:
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="a\n")
        with (
            pytest.raises(StorageError) as caught,
            memory.store.transaction("default", write=True, clock=time.time) as tx,
        ):
            pid = tx._db.one("SELECT pg_backend_pid()")  # type: ignore[attr-defined]
            with sql(url) as conn:  # the server goes away in the middle of a transaction
                conn.execute("SELECT pg_terminate_backend(%s)", pid)
            tx.stat("/memories/a.md")
        assert "lost the connection to the PostgreSQL server" in one_line(caught.value)
        with sql(url) as conn:  # every idle connection of the pool dropped too (a server restart)
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                "AND datname = current_database()"
            )
        assert "a" in ok(memory, command="view", path="/memories/a.md")  # a fresh connection, no error


# -- nothing in clear on the server ------------------------------------------------------------------

MARKERS = {
    "content": "QUOKKA-CONTENT-4711",
    "path": "wombat-path-0815",
    "pii": "jane.quokka@example.org",
    "store": "Numbat Store 2231",
    "description": "Bilby description 9902",
    "old": "DINGO-OLD-VERSION-5150",
}


def _write_markers(url: str, key: bytes) -> None:
    policy = Policy()  # no PII scrubbing: the e-mail address is stored as written
    with Admin.open(url, key=key, policy=policy) as admin:
        store = admin.memory_stores.create(name=MARKERS["store"], description=MARKERS["description"])
        memory = admin.memories.write(store.id, path=f"/{MARKERS['path']}/notes.md", content=MARKERS["old"] + "\n")
        admin.memories.update(store.id, memory.id, content=f"{MARKERS['content']} {MARKERS['pii']}\n")
        admin.memories.write(store.id, path=f"/{MARKERS['path']}.md", content="x\n")


def _found(blob: bytes) -> list[str]:
    return [name for name, marker in MARKERS.items() if marker.encode() in blob]


def _server_log() -> Path | None:
    with psycopg.connect(PG.url(), autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_logfile(), current_setting('data_directory')").fetchone()
    if row and row[0]:
        return Path(str(row[1]), str(row[0]))
    found = sorted(glob.glob("/var/log/postgresql/*.log"), key=os.path.getmtime)
    return Path(found[-1]) if found else None


def _table_files(url: str) -> Iterator[Path]:
    with sql(url) as conn:
        conn.execute("CHECKPOINT")
        base = Path(conn.execute("SELECT current_setting('data_directory')").fetchone()[0])  # type: ignore[index]
        rows = conn.execute(
            "SELECT pg_relation_filepath(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() OR c.oid IN (SELECT reltoastrelid FROM pg_class d JOIN pg_namespace m "
            "ON m.oid = d.relnamespace WHERE m.nspname = current_schema())"
        ).fetchall()
    for (relative,) in rows:
        if relative is not None:
            yield from (Path(p) for p in glob.glob(str(base / relative) + "*"))


@pytest.mark.slow
def test_nothing_written_is_in_clear_in_a_dump_the_log_or_the_table_files(key: bytes) -> None:
    url = PG.fresh_url()
    logged = url + "%20-clog_statement%3Dall"  # the server logs every statement and its parameters
    log = _server_log()
    start = log.stat().st_size if log is not None and log.exists() else 0
    _write_markers(logged, key)
    with SecureMemory.open(url, key=key, namespace=MARKERS["store"]) as memory:  # the control: it all reads back
        assert MARKERS["content"] in ok(memory, command="view", path=f"/memories/{MARKERS['path']}/notes.md")
    schema = url.rsplit("search_path%3D", 1)[1]
    dump = subprocess.run(["pg_dump", "-n", schema, PG.url()], capture_output=True, check=True).stdout
    assert b"sm_entries" in dump and _found(dump) == []
    files = list(_table_files(url))
    assert files and all(_found(path.read_bytes()) == [] for path in files)
    if log is not None and log.exists():
        with log.open("rb") as handle:
            handle.seek(start)
            text = handle.read()
        assert b"sm_entries" in text  # the control: the statements were logged
        assert _found(text) == []


def test_the_store_reports_its_data_keys_whole(url: str, key: bytes) -> None:
    with Admin.open(url, key=key) as admin:
        made = admin.memory_stores.create(name="a")
        assert admin.store.integrity_errors() == []
    with sql(url) as conn:
        conn.execute("UPDATE sm_stores SET dek = set_byte(dek, 20, get_byte(dek, 20) # 1)")
    store = open_store(url, key)
    try:
        assert store.integrity_errors() == [f"store {made.id}: its data key fails its check"]
    finally:
        store.close()


# -- several processes: sweepers share the work ------------------------------------------------------

STORES, FILES, BATCH = 4, 60, 25


def _sweeper(url: str, key: bytes, now: float) -> int:
    """Sweep in batches until a batch finds nothing; how many entries this sweeper removed."""
    store = open_store(url, key)
    try:
        done = 0
        while removed := store.sweep_batch(now, BATCH):
            assert removed <= BATCH
            done += removed
        return done
    finally:
        store.close()


def test_several_sweepers_share_the_work_and_never_repeat_it(url: str, key: bytes, tmp_path: Path) -> None:
    store = open_store(url, key)
    for n in range(STORES):
        paths = [f"/memories/d{i % 3}/f{i}.md" for i in range(FILES)]
        write_many(store, paths, namespace=f"s{n}", expires=T0 + 10, now=T0)
        write_many(store, ["/memories/keep.md"], namespace=f"s{n}", now=T0)
    due = store.count_expired(T0 + 20)
    assert due == STORES * (FILES + 3)  # the files and their three directories, in each store
    store.close()
    swept = fork_all([(_sweeper, (url, key, T0 + 20)) for _ in range(3)], tmp_path)
    assert sum(swept) == due  # every entry removed once, by exactly one sweeper
    store = open_store(url, key)
    try:
        assert store.count_expired(T0 + 20) == 0
        for n in range(STORES):
            rows = list(store.chain(f"s{n}"))
            assert sum(1 for r in rows if r.op == "expired") == FILES  # one expiry version per file, never two
            assert history.check(rows[0].seq >> history.SEQ_BITS, rows).found == []
            assert read_state(store, f"s{n}", now=T0 + 20).files == {"/memories/keep.md": "x"}
    finally:
        store.close()


# -- crypto-shredding: a deleted store's key is gone from the token, so old dumps hold only noise ------


def _restore(dump: bytes, schema: str) -> str:
    """The dump loaded into a database of its own (as a restore from backup would); its store URL."""
    with psycopg.connect(PG.url(), autocommit=True) as conn:
        name = f"{PG.database}_restored"
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    base = PG.url().rsplit("/", 1)[0] + "/" + name
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", base], input=dump, capture_output=True, check=True)
    return f"{base}?options=-csearch_path%3D{schema}"


def _drop_restored(url: str) -> None:
    with psycopg.connect(PG.url(), autocommit=True) as conn:
        name = url.rsplit("/", maxsplit=1)[-1].split("?", maxsplit=1)[0]
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_deleted_store_is_shredded_in_old_dumps_when_its_key_lives_on_the_token(hsm: str) -> None:
    url = PG.fresh_url()
    with Admin.open(url, kek=HSM_URI) as admin:
        doomed = admin.memory_stores.create(name="Doomed", description="to be deleted")
        kept = admin.memory_stores.create(name="Kept")
        gone = admin.memories.write(doomed.id, path="/secret.md", content="SHREDDED-TEXT\n")
        admin.memories.write(kept.id, path="/stay.md", content="KEPT-TEXT\n")
    schema = url.rsplit("search_path%3D", 1)[1]
    dump = subprocess.run(["pg_dump", "-n", schema, PG.url()], capture_output=True, check=True).stdout
    with Admin.open(url, kek=HSM_URI) as admin:
        admin.memory_stores.delete(doomed.id)
    restored = _restore(dump, schema)
    try:
        with Admin.open(restored, kek=HSM_URI) as admin:
            (memory,) = admin.memories.list(kept.id).data
            assert admin.memories.retrieve(kept.id, memory.id).content == "KEPT-TEXT\n"  # every other store reads
            for attempt in (
                lambda: admin.memory_stores.retrieve(doomed.id),
                lambda: admin.memories.retrieve(doomed.id, gone.id),
                lambda: admin.memories.list(doomed.id),
                lambda: admin.memory_versions.list(doomed.id),
                admin.memory_stores.list,
            ):
                with pytest.raises(WrongKeyError) as caught:
                    attempt()
                assert "own key is not on the PKCS#11 token" in one_line(caught.value)
    finally:
        _drop_restored(restored)


def test_without_a_token_a_deleted_store_is_gone_from_the_live_database_only(key: bytes) -> None:
    """What the README says: a file, env or passphrase KEK cannot destroy a key, so a dump taken
    before the deletion still opens with it; the live database holds nothing of the store."""
    url = PG.fresh_url()
    with Admin.open(url, key=key) as admin:
        doomed = admin.memory_stores.create(name="Doomed")
        memory = admin.memories.write(doomed.id, path="/secret.md", content="SHREDDED-TEXT\n")
        schema = url.rsplit("search_path%3D", 1)[1]
        dump = subprocess.run(["pg_dump", "-n", schema, PG.url()], capture_output=True, check=True).stdout
        admin.memory_stores.delete(doomed.id)
    with sql(url) as conn:
        counts = [
            conn.execute(f"SELECT count(*) FROM {t}").fetchone() for t in ("sm_stores", "sm_entries", "sm_versions")
        ]
    assert counts == [(0,), (0,), (0,)]
    restored = _restore(dump, schema)
    try:
        with Admin.open(restored, key=key) as admin:
            assert admin.memories.retrieve(doomed.id, memory.id).content == "SHREDDED-TEXT\n"
    finally:
        _drop_restored(restored)


# -- least privilege: the agents' role runs no DDL ----------------------------------------------------


def test_an_app_role_with_the_readme_grants_runs_everything_and_no_ddl(url: str, key: bytes) -> None:
    schema = url.rsplit("search_path%3D", 1)[1]
    role = f"sm_app_{schema}"
    with sql(url) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}")
        conn.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}")
    app = re.sub(r"^postgres(ql)?://([^@/]*@)?", f"postgresql://{role}@", url)
    assert app != url
    try:
        with Admin.open(app, key=key, api_key_id="ops") as admin:
            store = admin.memory_stores.create(name="s")
            memory = admin.memories.write(store.id, path="/a.md", content="a\n")
            admin.memories.update(store.id, memory.id, path="/b.md")
            admin.memory_stores.delete(store.id)
        with SecureMemory.open(app, key=key) as agent:
            ok(agent, command="create", path="/memories/x/y.md", file_text="y\n")
            ok(agent, command="rename", old_path="/memories/x", new_path="/memories/z")
            assert agent.sweep().deleted == 0
        with psycopg.connect(app, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("CREATE TABLE sm_other (x int)")
    finally:
        with sql(url) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


def test_the_cli_takes_a_postgresql_url_and_never_echoes_it(
    url: str, key: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kek = tmp_path / "kek"
    kek.write_text(key.hex())
    kek.chmod(0o600)
    create = '{"command": "create", "path": "/memories/a.md", "file_text": "from the CLI"}'
    assert run_cli(capsys, "exec", "--db", url, "--kek", f"file:{kek}", create)[0] == 0
    code, out, _ = run_cli(
        capsys, "exec", "--db", url, "--kek", f"file:{kek}", '{"command": "view", "path": "/memories/a.md"}'
    )
    assert code == 0 and "from the CLI" in out
    code, _, err = run_cli(capsys, "exec", "--db", url, '{"command": "view", "path": "/memories"}')
    assert code == 2 and "no key for the PostgreSQL store" in err and url not in err
    code, out, _ = run_cli(capsys, "verify", "--db", url, "--kek", f"file:{kek}")
    assert (code, out) == (0, "the PostgreSQL store: ok (every store's data key unseals)\n")
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", url, "--kek", f"file:{kek}")
    assert code == 0 and '"chain_ok": true' in out


def test_wait_bounds_how_long_a_writer_waits_for_another(url: str, key: bytes) -> None:
    """``wait=`` sets the lock wait of the pool's connections (0 s is 1 ms: PostgreSQL reads 0 as
    "forever"). A writer held up longer gets "busy", and nothing of its command is written; one that
    may wait longer than the other holds the lock (3 s here) goes through. With the default 30 s the
    first would have gone through too."""
    import threading

    with SecureMemory.open(url, key=key) as holder, SecureMemory.open(url, key=key, wait=0) as hurried:
        ok(holder, command="create", path="/memories/a.md", file_text="one\n")
        holding, release = threading.Event(), threading.Event()

        def hold() -> None:
            with holder.store.transaction("default", write=True, clock=time.time):
                holding.set()
                release.wait(3.0)

        thread = threading.Thread(target=hold)
        thread.start()
        try:
            assert holding.wait(10)
            result = hurried.execute({"command": "create", "path": "/memories/b.md", "file_text": "two\n"})
            assert result.is_error and result.error == "StoreBusyError", result
            with SecureMemory.open(url, key=key, wait=20) as patient:
                ok(patient, command="create", path="/memories/c.md", file_text="three\n")  # after the 3 s
        finally:
            release.set()
            thread.join()
        assert hurried.execute({"command": "view", "path": "/memories/b.md"}).is_error
        ok(hurried, command="create", path="/memories/b.md", file_text="two\n")  # free again: it goes through
    with pytest.raises(StorageError, match="wait is a number of seconds"):
        SecureMemory.open(url, key=key, wait=-1)
