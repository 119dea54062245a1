"""What two independent acceptance testers found against the contracts (memory-tool.md, stores-api.md,
keys.md) and the README, each fixed: a test per finding, each failing before its fix."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin, InvalidRequest, NotFound, SecureMemory, StoreBusyError
from securemem.store.base import StoreInfo
from tests.helpers import err, ok, raw_edit, run_cli

Cap = pytest.CaptureFixture[str]


@pytest.fixture(params=["memory", "sqlcipher"])
def admin(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Admin]:
    url = "memory://" if request.param == "memory" else f"sqlcipher://{tmp_path / 'a.db'}"
    with Admin.open(url, key=b"k" * 32, api_key_id="ops-test") as handle:
        yield handle


def test_a_store_deleted_between_its_lookup_and_a_read_is_not_found(
    admin: Admin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process deletes the store while a call runs: the contract's NotFound, never the
    store's own MissingStore (no ``code``)."""
    store = admin.memory_stores.create(name="doomed")
    memory = admin.memories.write(store.id, path="/a.md", content="x")
    version = admin.memory_versions.list(store.id).data[0]
    found = admin.store.find_store

    def found_then_deleted(**how: Any) -> StoreInfo | None:
        info = found(**how)
        if info is not None:
            admin.store.drop_namespace(info.name)  # as another process would, right after the lookup
        return info

    calls: list[Callable[[], object]] = [
        lambda: admin.memories.list(store.id),
        lambda: admin.memories.retrieve(store.id, memory.id),
        lambda: admin.memories.update(store.id, memory.id, content="y"),
        lambda: admin.memory_versions.list(store.id),
        lambda: admin.memory_versions.retrieve(store.id, version.id),
    ]
    for call in calls:
        monkeypatch.setattr(admin.store, "find_store", found_then_deleted)
        with pytest.raises(NotFound) as caught:
            call()
        assert caught.value.code == "not_found"
        monkeypatch.undo()
        store = admin.memory_stores.create(name="doomed")  # the next call's store
        memory = admin.memories.write(store.id, path="/a.md", content="x")
        version = admin.memory_versions.list(store.id).data[0]


def test_a_session_opened_by_name_stays_with_its_store_when_an_operator_renames_it(admin: Admin) -> None:
    store = admin.memory_stores.create(name="casework")
    admin.memories.write(store.id, path="/a.md", content="kept")
    session = SecureMemory(admin.store, admin.policy, namespace="casework", owns_store=False, session_id="sess_a")
    assert "/memories/a.md" in ok(session, command="view", path="/memories")
    admin.memory_stores.update(store.id, name="casework-2024")
    # Same store: its file is still seen, and a new one lands beside it, not in a new "casework".
    assert "/memories/a.md" in ok(session, command="view", path="/memories")
    ok(session, command="create", path="/memories/b.md", file_text="new")
    assert [s.name for s in admin.memory_stores.list().data] == ["casework-2024"]
    assert sorted(m.path for m in admin.memories.list(store.id).data) == ["/a.md", "/b.md"]
    # Deleted, the name is free: the session goes on by name, in a new, empty store (as before).
    admin.memory_stores.delete(store.id)
    ok(session, command="create", path="/memories/c.md", file_text="after")
    (again,) = admin.memory_stores.list().data
    assert again.name == "casework" and again.id != store.id
    assert [m.path for m in admin.memories.list(again.id).data] == ["/c.md"]


def test_a_namespace_outside_the_rule_that_names_no_store_is_an_invalid_request(tmp_path: Path) -> None:
    with pytest.raises(InvalidRequest) as caught:
        SecureMemory.open(tmp_path / "s.db", key=os.urandom(32), namespace="New Store!")
    assert caught.value.code == "invalid_request"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[SecureMemory]:
    with SecureMemory.open(tmp_path / "s.db", key=os.urandom(32), policy="regulated") as handle:
        yield handle


def test_an_old_str_with_a_lone_surrogate_is_refused_not_echoed(memory: SecureMemory) -> None:
    ok(memory, command="create", path="/memories/a.md", file_text="one\n")
    message = err(memory, command="str_replace", path="/memories/a.md", old_str="x\udcff", new_str="y")
    message.encode("utf-8")  # the answer can be sent on, as every answer must
    assert "unpaired surrogate" in message


def test_str_replace_never_leaves_a_bare_lf_in_a_crlf_file(memory: SecureMemory) -> None:
    ok(memory, command="create", path="/memories/c.txt", file_text="a\r\nb\r\nc\r\n")
    assert "carriage return" in err(memory, command="str_replace", path="/memories/c.txt", old_str="c\r", new_str="C")
    ok(memory, command="str_replace", path="/memories/c.txt", old_str="c", new_str="C")
    with memory.store.transaction(memory.namespace, write=False, clock=memory.clock) as tx:
        found = tx.get("/memories/c.txt")
    assert found is not None and found[1] == b"a\r\nb\r\nC\r\n"


@pytest.mark.parametrize("path", ["/memories/Reference/x.md", "/memories/REFERENCE/x.md", "/memories/reFerence"])
def test_a_case_variant_of_a_read_only_area_is_refused(memory: SecureMemory, path: str) -> None:
    message = err(memory, command="create", path=path, file_text="looks official")
    assert "only in upper and lower case" in message and "/memories/reference/**" in message
    ok(memory, command="create", path="/memories/d/policy.md", file_text="x")
    assert "only in upper and lower case" in err(
        memory, command="rename", old_path="/memories/d", new_path=path.removesuffix("/x.md")
    )
    ok(memory, command="create", path="/memories/references/x.md", file_text="a different name")


def test_replay_answers_blank_lines_and_shows_results_as_its_echo(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "r.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    lines = [
        '{"command":"create","path":"/memories/ssn-123-45-6789.md","file_text":"x"}',
        "",
        "   ",
        '{"command":"bogus"}',
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    code, said, _ = run_cli(capsys, "replay", "--db", str(db), str(source))
    assert code == 1
    assert "123-45-6789" not in said  # the echo and the result both show it by type
    assert "File created successfully at: /memories/ssn-[US_SSN].md" in said
    assert "[2] skipped: the line is blank" in said and "[3] skipped: the line is blank" in said
    assert "[4] error:" in said and said.rstrip().endswith("replayed 2 commands, 1 failed")


def test_exec_with_an_empty_file_name_says_so(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "x.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    code, out, said = run_cli(capsys, "exec", "--db", str(db), "@")
    assert (code, out) == (2, "")
    assert said == "securemem: error: @ needs a file name: @input.json reads the tool input from input.json\n"


def test_the_last_page_of_a_long_line_says_where_the_file_goes_on(memory: SecureMemory) -> None:
    ok(memory, command="create", path="/memories/l.txt", file_text="a\n" + "X" * 20000 + "\ntail\n")
    first = ok(memory, command="view", path="/memories/l.txt", view_range=[2, 2])
    assert "Use view_range [2, 2, " in first
    last = ok(memory, command="view", path="/memories/l.txt", view_range=[2, 2, 15637])
    assert last.endswith("[End of line 2. The file has 3 lines; use view_range [3, -1] for the lines after it.]")
    assert "End of line" not in ok(memory, command="view", path="/memories/l.txt", view_range=[3, 3, 1])


def test_a_range_on_an_empty_listing_gives_advice_that_can_be_followed(memory: SecureMemory) -> None:
    message = err(memory, command="view", path="/memories", view_range=[2, -1])
    assert "has no entries below it; view it without view_range" in message and "<= 0" not in message


def test_admin_path_errors_speak_of_store_relative_paths(admin: Admin) -> None:
    """Advice in the memory tool's terms ("such as /memories/notes.md") made an admin write a memory
    at /memories/notes.md inside the store."""
    store = admin.memory_stores.create(name="paths")
    with pytest.raises(InvalidRequest) as caught:
        admin.memories.write(store.id, path="/", content="x")
    assert "such as /notes.md" in str(caught.value) and "/memories" not in str(caught.value)
    with pytest.raises(InvalidRequest) as caught:
        admin.memories.write(store.id, path="/notes/../x.md", content="x")
    assert "Paths are absolute inside the store (such as /notes/a.md)" in str(caught.value)
    assert "/memories" not in str(caught.value)


# -- a third reviewer, attacking the fixes above -------------------------------------------------------


def test_a_session_whose_first_write_failed_never_reaches_the_next_store_made(tmp_path: Path) -> None:
    """CRITICAL as first fixed: the session was bound to the store its failed first write made and
    rolled back; SQLite gave that number to the next store made (another tenant's), and the session
    read and wrote it. Bound only once its transaction commits."""
    db, key = tmp_path / "t.db", os.urandom(32)
    with (
        SecureMemory.open(db, key=key, namespace="alice") as alice,
        SecureMemory.open(db, key=key, namespace="bob") as bob,
    ):
        err(alice, command="str_replace", path="/memories/todo.md", old_str="a", new_str="b")
        ok(bob, command="create", path="/memories/bob.md", file_text="bob's private notes\n")
        assert "private" not in alice.execute({"command": "view", "path": "/memories/bob.md"}).content
        ok(alice, command="create", path="/memories/alice.md", file_text="alice\n")
        assert "alice.md" not in ok(bob, command="view", path="/memories")
        assert "bob.md" not in ok(alice, command="view", path="/memories")


def test_a_rename_of_a_parent_cannot_land_a_case_variant_beside_a_read_only_area(tmp_path: Path) -> None:
    from securemem.policy import Policy, Rule

    rules = [
        Rule(glob="/memories/team/reference/**", read_only=True, never_expire=True),
        Rule(glob="/memories/strasse/**", read_only=True, never_expire=True),
    ]
    with SecureMemory.open(tmp_path / "c.db", key=os.urandom(32), policy=Policy(name="custom", rules=rules)) as memory:
        ok(memory, command="create", path="/memories/tmp/Reference/official.md", file_text="x")
        assert "only in upper and lower case" in err(
            memory, command="rename", old_path="/memories/tmp", new_path="/memories/team"
        )
        # Unicode's full case folding: "straße" is "strasse".
        for path in ("/memories/straße/a.md", "/memories/STRAẞE/a.md", "/memories/STRASSE/a.md"):
            assert "only in upper and lower case" in err(memory, command="create", path=path, file_text="x")


@pytest.mark.parametrize(
    "text",
    [
        "Datadog agent commit: 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "Snyk project ID: 3e4f5a6b-1234-4abc-9def-0123456789ab",
        "Slack export file md5: d41d8cd98f00b204e9800998ecf8427e",
        "  * zendesk_api (gem) revision: 2a1b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",
        "Asana task: 0/1205551234567890/1205559876543210",
        "while(a)node.next=null",
        "!function(a)a.exports=b",
        "plot(a)axis.set_xlim(0, 10)",
        "MFA codes are 6 digits: 123456, 654321 are examples",
        "Backup codes: build 123456 789012 passed",
        "One-time codes: 483920 then 129384",
    ],
)
def test_ordinary_lines_the_new_detectors_altered_are_kept(text: str) -> None:
    from securemem.pii import detect

    assert detect(text) == []


# -- a fourth reviewer: erasure, expiry, backups, PostgreSQL, the CLI under cron ------------------------


def _cli(*argv: str) -> None:
    from securemem.cli import main

    sys.exit(main(list(argv)))


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 300 KB tmpfs: a real full disk (needs root; the CI machine is)."""
    where = tmp_path / "small"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(where)]).returncode:
        pytest.skip("needs root to mount a small tmpfs (a full disk)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_is_said_once_and_a_sweep_that_cannot_erase_fails(
    full_disk: Path, capsys: Cap, caplog: pytest.LogCaptureFixture
) -> None:
    """Every command on a full disk stalled 20 s and wrote about 3,700 log lines; a sweep exited 0.
    The commands run in this process: what a separate one would print on stderr is what they print
    there, and the warnings Python's last-resort handler would add are caught as records."""
    db = str(full_disk / "a.db")
    caplog.set_level(logging.WARNING)

    def run(*argv: str) -> tuple[int, list[str]]:
        caplog.clear()
        code, _, said = run_cli(capsys, *argv)
        return code, said.splitlines() + [record.getMessage() for record in caplog.records]

    assert run("init", "--db", db)[0] == 0
    for index in range(12):  # until the disk is full
        text = os.urandom(6000).hex()
        run("exec", "--db", db, json.dumps({"command": "create", "path": f"/memories/f{index}.md", "file_text": text}))
    code, lines = run(
        "exec", "--db", db, '{"command":"create","path":"/memories/x.md","file_text":"' + "y" * 9000 + '"}'
    )
    assert code == 2 and any("the memory store is full" in line for line in lines), lines  # the disk is full
    run("exec", "--db", db, '{"command":"delete","path":"/memories/f1.md"}')
    code, lines = run("exec", "--db", db, '{"command":"view","path":"/memories"}')
    assert code == 0 and len(lines) <= 2, lines[:10]
    code, lines = run("sweep", "--db", db)
    said = [line for line in lines if line.startswith("securemem: ")]  # stderr's lines, the records after them
    assert code == 2 and len(lines) <= 3, lines[:10]
    # The sweep's batch is refused before its commit (the file could not take what the WAL holds), or, where
    # it got in, its erasure fails: either way one error and exit 2.
    assert said[-1].startswith(
        ("securemem: error: the memory store is full", "securemem: error: freed content is not erased yet: the memory")
    ), lines


def test_an_export_or_a_backup_to_a_full_disk_names_that_disk(full_disk: Path, tmp_path: Path, capsys: Cap) -> None:
    """An export said 'internal error (OSError)'; a backup said the store was full."""
    db = tmp_path / "big.db"
    kek = f"file:{tmp_path / 'big.kek'}"
    assert run_cli(capsys, "init", "--db", str(db), "--kek", kek)[0] == 0
    for index in range(80):  # 400 KB of content: more than the 300 KB disk holds
        create = {"command": "create", "path": f"/memories/f{index}.md", "file_text": "x" * 5000}
        assert run_cli(capsys, "exec", "--db", str(db), "--kek", kek, json.dumps(create))[0] == 0
    out = full_disk / "out.jsonl"
    code, _, said = run_cli(capsys, "export", "--db", str(db), "--kek", kek, "--store", "default", "--out", str(out))
    assert (code, said) == (2, f"securemem: error: cannot write the export {out}: No space left on device\n")
    assert list(full_disk.iterdir()) == []  # nothing half written left behind
    code, _, said = run_cli(capsys, "backup", "--db", str(db), "--kek", kek, "--out", str(full_disk / "b.smb"))
    assert (code, said) == (2, f"securemem: error: cannot write the backup in {full_disk}: its disk is full\n")
    assert list(full_disk.iterdir()) == []


def test_a_truncated_backup_is_said_damaged_without_circular_advice(tmp_path: Path, capsys: Cap) -> None:
    db, kek = tmp_path / "s.db", f"file:{tmp_path / 's.kek'}"
    assert run_cli(capsys, "init", "--db", str(db), "--kek", kek)[0] == 0
    backup = tmp_path / "b.smb"
    assert run_cli(capsys, "backup", "--db", str(db), "--kek", kek, "--out", str(backup))[0] == 0
    tiny = tmp_path / "tiny.smb"
    tiny.write_bytes(backup.read_bytes()[:100])
    code, _, said = run_cli(capsys, "restore", "--backup", str(tiny), "--kek", kek, "--db", str(tmp_path / "new.db"))
    assert code == 2 and "restore it from a backup" not in said and "damaged" in said, said
    assert not (tmp_path / "new.db").exists()


@contextmanager
def _held(db: Path, release_after: float | None = None) -> Iterator[None]:
    """Another handle holds ``db``'s write lock inside the block (until ``release_after`` seconds, if given)."""
    import threading

    from securemem.keys import KeyFile

    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with (
            SecureMemory.open(db, key=KeyFile(f"{db}.key")) as other,
            other.store.transaction("default", write=True, clock=other.clock),
        ):
            holding.set()
            release.wait(30 if release_after is None else release_after)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        yield
    finally:
        release.set()
        holder.join()


def test_exec_on_a_store_another_handle_holds_exits_2_like_every_command(tmp_path: Path, capsys: Cap) -> None:
    """exec exited 1 (the model's command refused) where sweep said 2 (a database problem). The CLI
    waits its busy timeout first (10 s unless --wait says otherwise, as here)."""
    db = tmp_path / "held.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    # The other handle lets go after 3 s: a command that waited its default 10 s would go through then.
    with _held(db, release_after=3.0):
        code, out, said = run_cli(
            capsys, "exec", "--db", str(db), "--wait", "0.2", '{"command":"view","path":"/memories"}'
        )
        assert code == 2 and "busy" in said and out == "", (code, said)
        code, out, said = run_cli(capsys, "sweep", "--db", str(db), "--wait", "0")
        assert code == 2 and "busy" in said, (code, said)


def test_wait_lets_a_command_through_once_the_other_writer_is_done(tmp_path: Path, capsys: Cap) -> None:
    """--wait is how long a command waits for the lock, not a delay: a writer that finishes within
    it lets the command run."""
    db = tmp_path / "held.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    create = '{"command":"create","path":"/memories/a.md","file_text":"after the other writer\\n"}'
    with _held(db, release_after=0.3):
        code, out, said = run_cli(capsys, "exec", "--db", str(db), "--wait", "20", create)
    assert (code, said) == (0, "") and out.startswith("File created successfully"), (code, out, said)


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "3601", "ten", "1e999", "9" * 30])
def test_wait_takes_seconds_from_0_to_an_hour(tmp_path: Path, capsys: Cap, value: str) -> None:
    code, out, said = run_cli(capsys, "sweep", "--db", str(tmp_path / "none.db"), "--wait", value)
    assert code == 2 and out == "" and said.count("\n") == 1, said
    assert "--wait: must be a number of seconds from 0 to 3600" in said and value not in said, said


def test_wait_is_checked_by_the_library_too(tmp_path: Path) -> None:
    from securemem import StorageError

    class Huge(int):  # in range as an int, a billion seconds as the float the store would wait
        def __float__(self) -> float:
            return 1e9

    class Odd(float):
        def __float__(self) -> float:
            return float("nan")

    for value in (-1, float("nan"), True, "5", Huge(5), Odd(5.0)):
        with pytest.raises(StorageError, match="wait is a number of seconds from 0 to 3600"):
            SecureMemory.open(tmp_path / "s.db", key=bytes(32), wait=value)  # type: ignore[arg-type]
    assert not (tmp_path / "s.db").exists()


def test_admin_commands_and_the_admin_api_take_the_wait(tmp_path: Path, capsys: Cap) -> None:
    """The admin commands took --wait and waited the default 10 s all the same (an attacker's round)."""
    from securemem.keys import KeyFile

    db = tmp_path / "held.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    create = '{"command":"create","path":"/memories/a.md","file_text":"a\\n"}'
    assert run_cli(capsys, "exec", "--db", str(db), create)[0] == 0
    with _held(db, release_after=3.0):
        code, out, said = run_cli(capsys, "memories", "ls", "--db", str(db), "--store", "default", "--wait", "0")
        assert code == 2 and "busy" in said and out == "", (code, said)
        with Admin.open(db, key=KeyFile(f"{db}.key"), wait=0) as admin, pytest.raises(StoreBusyError):
            admin.memory_stores.create("other")


def test_audit_verify_on_a_busy_store_says_busy_not_broken(tmp_path: Path, capsys: Cap) -> None:
    """A busy store was reported as a broken chain with rows that could not be read, exit 1: a tamper
    alarm whenever another process wrote (an attacker's round). Busy is the run's error, exit 2."""
    db = tmp_path / "held.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    create = '{"command":"create","path":"/memories/a.md","file_text":"a\\n"}'
    assert run_cli(capsys, "exec", "--db", str(db), create)[0] == 0
    assert run_cli(capsys, "audit", "verify", "--db", str(db))[0] == 0  # whole when nobody else writes
    with _held(db, release_after=3.0):
        code, out, said = run_cli(capsys, "audit", "verify", "--db", str(db), "--wait", "0")
    assert code == 2 and "busy" in said and "broken" not in said, (code, out, said)


def test_a_long_running_sweeper_puts_off_a_sweep_the_store_is_too_busy_for(tmp_path: Path, capsys: Cap) -> None:
    """sweep --every ended, exit 2, the first time writers kept the store busy (an attacker's round)."""
    import threading

    db = tmp_path / "held.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    timer = threading.Timer(4.0, os.kill, (os.getpid(), signal.SIGTERM))  # systemd's stop, after a few sweeps
    with _held(db, release_after=3.0):
        timer.start()
        try:
            code, out, said = run_cli(capsys, "sweep", "--db", str(db), "--wait", "0", "--every", "1s")
        finally:
            timer.cancel()
    assert code == 0 and "sweep put off: the memory store is busy" in said, (code, said)
    assert "swept 0 expired entries" in out, out  # a sweep ran once the other writer let go


@pytest.mark.parametrize("backend", ["sqlcipher", "postgresql"])
def test_audit_verify_names_a_live_memory_whose_row_was_deleted_outside_securemem(
    backend: str, tmp_path: Path, key: bytes, request: pytest.FixtureRequest
) -> None:
    """A DBA's DELETE of a live file's row made the memory vanish from every read, and audit verify
    said the chain was whole. It now compares the history's live memories with the rows."""
    from tests.pg import audit_verify, sql

    if backend == "postgresql":
        url = request.getfixturevalue("url")
        with SecureMemory.open(url, key=key) as memory:
            ok(memory, command="create", path="/memories/a/keep.md", file_text="keep me\n")
            ok(memory, command="create", path="/memories/a/gone.md", file_text="delete me by SQL\n")
            ok(memory, command="create", path="/memories/a/old.md", file_text="deleted properly\n")
            ok(memory, command="delete", path="/memories/a/old.md")
        code, out = audit_verify(url, key)
        assert code == 0 and '"rows_ok": true' in out, out
        with sql(url) as conn:
            conn.execute(
                "DELETE FROM sm_entries WHERE NOT is_dir"
                " AND memory = (SELECT max(memory) FROM sm_entries WHERE NOT is_dir)"
            )
        code, out = audit_verify(url, key)
    else:
        db = tmp_path / "v.db"
        with SecureMemory.open(db, key=key) as memory:
            ok(memory, command="create", path="/memories/a/keep.md", file_text="keep me\n")
            ok(memory, command="create", path="/memories/a/gone.md", file_text="delete me by SQL\n")
        os.environ["SECUREMEM_KEY"] = key.hex()
        try:
            run = subprocess.run(
                [sys.executable, "-m", "securemem.cli", "audit", "verify", "--db", str(db)],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert run.returncode == 0 and '"rows_ok": true' in run.stdout, run.stdout + run.stderr
            import sqlcipher3

            from securemem.store.sqlcipher import file_salt

            conn = sqlcipher3.connect(str(db), isolation_level=None)
            conn.execute(f"PRAGMA key = \"x'{key.hex()}{file_salt(db).hex()}'\"")
            conn.execute("PRAGMA cipher_hmac_algorithm = HMAC_SHA256")
            conn.execute("DELETE FROM entries WHERE is_dir = 0 AND id = (SELECT max(id) FROM entries WHERE is_dir = 0)")
            conn.close()
            run = subprocess.run(
                [sys.executable, "-m", "securemem.cli", "audit", "verify", "--db", str(db)],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            code, out = run.returncode, run.stdout
        finally:
            os.environ.pop("SECUREMEM_KEY", None)
    assert code == 1, out
    assert '"rows_ok": false' in out and "its history says it is in the store, but its row is gone" in out
    assert out.count("row is gone") == 1  # the memory deleted properly is not named


def _honest_then_edited(url: str, key: bytes) -> tuple[str, str]:
    """A store whose history vouches for every live row (a rename, an edit, a metadata-only version, a
    redacted newest version); the store's id and the id of the memory a key holder will edit."""
    with Admin.open(url, key=key, api_key_id="ops") as admin:
        store = admin.memory_stores.create(name="S")
        policy = admin.memories.write(store.id, path="/policy.md", content="Refunds need manager approval.\n")
        moved = admin.memories.write(store.id, path="/dir/a.md", content="first\n")
        admin.memories.update(store.id, moved.id, path="/other/b.md", content="second\n")
        hidden = admin.memories.write(store.id, path="/hidden.md", content="to be redacted\n")
        newest = admin.memory_versions.list(store.id, memory_id=hidden.id).data[0]
        admin.memory_versions.redact(store.id, newest.id)
    with SecureMemory.open(url, key=key, namespace="S") as memory:
        ok(memory, command="rename", old_path="/memories/other", new_path="/memories/renamed")
        ok(memory, command="create", path="/memories/empty.md", file_text="")
    return store.id, policy.id


@pytest.mark.parametrize("backend", ["sqlcipher", "postgresql"])
def test_audit_verify_names_a_live_memory_whose_content_or_path_a_key_holder_changed(
    backend: str, tmp_path: Path, key: bytes, request: pytest.FixtureRequest
) -> None:
    """A key holder's direct edit of a memory's live row (its content, or its path) changed what
    every read serves, while its newest version still records the old content hash and path; audit
    verify said chain_ok and rows_ok, exit 0, although the README says such an edit is caught. It now
    compares each live memory with what its newest version records."""
    from tests.pg import audit_verify, sql

    url = request.getfixturevalue("url") if backend == "postgresql" else str(tmp_path / "v.db")
    store_id, memory_id = _honest_then_edited(url, key)
    code, out = audit_verify(url, key)
    assert code == 0 and '"rows_ok": true' in out, out
    if backend == "postgresql":
        from securemem.store.postgres import PostgresStore

        with Admin.open(url, key=key) as admin:
            assert isinstance(admin.store, PostgresStore)
            info = admin.store.find_store(store_id=store_id)
            assert info is not None
            with admin.store.transaction(info.name, write=False, clock=lambda: 0.0, store_key=info.key) as tx:
                keys = tx.keys
        with sql(url) as conn:  # the content re-sealed for the same row with the store's key (same size)
            rows = conn.execute("SELECT memory, head, data_ct FROM sm_entries WHERE NOT is_dir").fetchall()
            for number, head, blob in rows:
                text = keys.open_content(bytes(blob), number, head)
                if text.startswith(b"Refunds"):
                    sealed = keys.seal_content(text.replace(b"manager", b"nobody!"), number, head)
                    conn.execute("UPDATE sm_entries SET data_ct = %s WHERE memory = %s", (sealed, number))
        edits = ["content"]
    else:
        raw_edit(Path(url), key, "UPDATE content SET data = CAST(replace(data, 'manager', 'nobody!') AS BLOB)")
        raw_edit(Path(url), key, "UPDATE entries SET name = 'moved.md' WHERE name = 'empty.md'")
        edits = ["content", "path"]
    with Admin.open(url, key=key) as admin:  # what the edit achieved: reads serve it
        assert "nobody!" in (admin.memories.retrieve(store_id, memory_id).content or "")
    code, out = audit_verify(url, key)
    assert code == 1 and '"chain_ok": true' in out and '"rows_ok": false' in out, out
    for what in edits:
        assert out.count(f"its live {what} is not the {what} its newest version records") == 1, out


def test_audit_verify_names_files_whose_directory_row_was_deleted_by_sql(url: str, key: bytes) -> None:
    """A DBA's DELETE of a directory's row hid every file below it from listings (each still served
    by its path) and audit verify found nothing."""
    from tests.pg import audit_verify, sql

    with SecureMemory.open(url, key=key) as memory:
        for path in ("/memories/dir/a.md", "/memories/dir/sub/b.md", "/memories/top.md"):
            ok(memory, command="create", path=path, file_text="x\n")
    code, out = audit_verify(url, key)
    assert code == 0 and '"rows_ok": true' in out, out
    with sql(url) as conn:  # /memories/dir: the directory whose token is two segments long
        conn.execute("DELETE FROM sm_entries WHERE is_dir AND length(tok) = 16")
    with SecureMemory.open(url, key=key) as memory:
        assert "a.md" not in ok(memory, command="view", path="/memories")  # what the DBA achieved
    code, out = audit_verify(url, key)
    assert code == 1 and '"rows_ok": false' in out, out
    assert out.count("a directory above it has no row") == 2  # a.md and sub/b.md, not top.md


# -- a last short pass over the review's fixes --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "- Fastly API token setting: FASTLY_SERVICE_BACKEND_HOST_NAME",
        "- Heroku API key rotation, ticket: 123e4567-e89b-12d3-a456-426614174000",
        "- Snyk token rotation (see incident): 123e4567-e89b-12d3-a456-426614174000",
        "- Codecov token upload (GitHub Action v4): 123e4567-e89b-12d3-a456-426614174000",
        "- Okta API token prefix: 00xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "- Azure DevOps PAT (scope: Code): abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
    ],
)
def test_a_label_that_only_mentions_a_credential_or_a_placeholder_is_kept(text: str) -> None:
    from securemem.pii import detect

    assert detect(text) == []


def test_replay_masks_a_value_a_view_shows_over_two_numbered_lines(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "w.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    source = tmp_path / "w.jsonl"
    create = {"command": "create", "path": "/memories/d.md", "file_text": "card 4111 1111\n1111 1111\n"}
    source.write_text(json.dumps(create) + "\n" + '{"command":"view","path":"/memories/d.md"}\n')
    code, out, _ = run_cli(capsys, "replay", "--db", str(db), str(source))
    assert code == 0 and "1111" not in out and out.count("[CREDIT_CARD]") == 2, out
