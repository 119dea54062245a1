"""The operator's CLI: exit codes, one-line messages, no tracebacks, keys handled with care."""

from __future__ import annotations

import io
import json
import os
import shlex
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from securemem.cli import main
from tests.helpers import init_store, run_cli, write_many


@pytest.fixture
def store(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    return init_store(tmp_path, capsys, monkeypatch)


def test_init_creates_store_and_private_key_file(store: Path) -> None:
    key_file = Path(f"{store}.key")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(bytes.fromhex(key_file.read_text().strip())) == 32
    assert not store.read_bytes().startswith(b"SQLite format 3")


def test_init_never_overwrites(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key_before = Path(f"{store}.key").read_text()
    code, _, err = run_cli(capsys, "init", "--db", str(store))
    assert code == 2 and "already exists" in err and err.count("\n") == 1
    other = store.with_name("other.db")
    code, _, err = run_cli(capsys, "init", "--db", str(other), "--key-file", f"{store}.key")
    assert code == 2 and "refusing to overwrite" in err
    assert Path(f"{store}.key").read_text() == key_before and not other.exists()


def test_exec_success_and_command_error(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    create = json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "hello\n"})
    assert run_cli(capsys, "exec", "--db", str(store), create) == (
        0,
        "File created successfully at: /memories/a.md\n",
        "",
    )
    code, out, err = run_cli(capsys, "exec", "--db", str(store), json.dumps({"command": "view", "path": "/memories/b"}))
    assert code == 1 and out == "" and "does not exist" in err


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["exec", "--db", "{db}", "{not json"], "not valid JSON"),
        (["exec", "--db", "{missing}", '{"command":"view","path":"/memories"}'], "no key"),
        (["exec", "--db", "{db}", "--key-file", "{nokey}", '{"command":"view","path":"/memories"}'], "does not exist"),
        (["frobnicate"], "invalid choice"),
        (["exec"], "required"),
    ],
)
def test_usage_errors_are_one_line_exit_2(
    store: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    values = {"{db}": str(store), "{missing}": str(store.with_name("x.db")), "{nokey}": str(store.with_name("no.key"))}
    filled = [values.get(a, a) for a in argv]
    code, _, err = run_cli(capsys, *filled)
    assert code == 2 and needle in err
    assert err.startswith("securemem: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_wrong_key_and_open_key_file(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.key"
    other.write_text(os.urandom(32).hex())
    other.chmod(0o600)
    view = '{"command":"view","path":"/memories"}'
    code, _, err = run_cli(capsys, "exec", "--db", str(store), "--key-file", str(other), view)
    assert code == 2 and "does not open" in err and other.read_text() not in err
    other.chmod(0o644)
    code, _, err = run_cli(capsys, "exec", "--db", str(store), "--key-file", str(other), view)
    assert code == 2 and "chmod 600" in err


def test_passphrase_from_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECUREMEM_KEY", "a long passphrase for tests")
    db = tmp_path / "p.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    assert not Path(f"{db}.key").exists()
    assert run_cli(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories"}')[0] == 0
    monkeypatch.setenv("SECUREMEM_KEY", "another passphrase")
    assert run_cli(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories"}')[0] == 2


def test_replay_runs_every_line_and_counts_failures(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text(
        "\n".join(
            [
                json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "1\n"}),
                "not json",
                json.dumps({"command": "view", "path": "/memories/../x"}),
                json.dumps({"command": "view", "path": "/memories/a.md"}),
            ]
        )
        + "\n"
    )
    code, out, _ = run_cli(capsys, "replay", "--db", str(store), str(script))
    assert code == 1
    assert "replayed 4 commands, 2 failed" in out and "     1\t1" in out and "Invalid path" in out


def test_verify_and_rekey(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "verify", "--db", str(store))[0] == 0
    new_key = tmp_path / "new.key"
    assert run_cli(capsys, "rekey", "--db", str(store), "--new-key-file", str(new_key))[0] == 0
    assert run_cli(capsys, "verify", "--db", str(store))[0] == 2
    assert run_cli(capsys, "verify", "--db", str(store), "--key-file", str(new_key))[0] == 0


def test_demo_runs_and_finds_no_plaintext() -> None:
    run_ = subprocess.run([sys.executable, "-m", "securemem.cli", "demo"], capture_output=True, text=True, timeout=120)
    assert run_.returncode == 0, run_.stderr
    assert "No plaintext" in run_.stdout and "Invalid path" in run_.stdout and run_.stderr == ""


def test_entry_point_is_installed() -> None:
    exe = Path(sys.executable).with_name("securemem")
    done = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "init" in done.stdout and "demo" in done.stdout


def test_sweep_shows_progress_on_a_terminal_only(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from securemem import SecureMemory
    from securemem.cli import build_parser, key_of

    key = key_of(build_parser().parse_args(["sweep", "--db", str(store)]))
    with SecureMemory.open(store, key=key) as mem:
        paths = [f"/memories/old/f{i}.md" for i in range(24)]
        write_many(mem.store, paths, expires=time.time() - 60, now=time.time() - 120)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run_cli(capsys, "sweep", "--db", str(store), "--batch", "10")
    assert code == 0 and "swept 25 expired entries in 3 batches" in out
    assert "\rswept 10/25" in err and "\rswept 25/25" in err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    code, out, err = run_cli(capsys, "sweep", "--db", str(store))
    assert code == 0 and "swept 0 expired entries" in out and err == ""


# ---------------------------------------------------------------- behaves like the tools people know


def test_version_comes_from_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"securemem {metadata.version('securemem')}\n"


def run_into_closed_pipe(*argv: str, stderr_too: bool = False) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with its stdout a pipe whose reader is already gone, as with `| head`."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "securemem.cli", *argv],
            stdout=write_end,
            stderr=write_end if stderr_too else subprocess.PIPE,
            timeout=60,
        )
    finally:
        os.close(write_end)


@pytest.mark.slow
def test_a_reader_that_goes_away_ends_the_run_quietly(store: Path, tmp_path: Path) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text('{"command":"view","path":"/memories"}\n' * 2000)
    for argv in (("replay", "--db", str(store), str(script)), ("policy", "check", "regulated")):
        done = run_into_closed_pipe(*argv)
        assert (done.returncode, done.stderr) == (141, b""), argv  # 128 + SIGPIPE, as coreutils
    # `2>&1 | head`: an error message to a closed pipe ends quietly too.
    missing = '{"command":"view","path":"/memories/missing.md"}'
    assert run_into_closed_pipe("exec", "--db", str(store), missing, stderr_too=True).returncode == 141
    assert run_into_closed_pipe("exec", "--db", str(store), "{bad", stderr_too=True).returncode == 141


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Callable[[bytes], None]:
    def feed(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    return feed


CREATE = {"command": "create", "path": "/memories/a.md", "file_text": "mail dana.reyes@example.com\n"}
DONE = "File created successfully at: /memories/a.md\n"


def test_exec_reads_the_tool_input_from_stdin(
    store: Path, capsys: pytest.CaptureFixture[str], stdin: Callable[[bytes], None]
) -> None:
    stdin(json.dumps(CREATE).encode())
    assert run_cli(capsys, "exec", "--db", str(store), "-") == (0, DONE, "")


def test_exec_reads_the_tool_input_from_a_file(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool_input = tmp_path / "input.json"
    tool_input.write_text(json.dumps(CREATE))
    assert run_cli(capsys, "exec", "--db", str(store), f"@{tool_input}") == (0, DONE, "")
    view = '{"command":"view","path":"/memories/a.md"}'
    assert "dana.reyes@example.com" in run_cli(capsys, "exec", "--db", str(store), view)[1]


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("@{missing}", "cannot read the tool input from {missing}: No such file or directory"),
        ("@{binary}", "the tool input in {binary} is not UTF-8 (byte 1)"),
        ("{huge}", "the tool input is not valid JSON (a number has more than"),
        ("{deep}", "the tool input is not valid JSON (nested too deeply)"),
    ],
)
def test_exec_input_problems_are_one_line_exit_2(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, needle: str
) -> None:
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    values = {
        "missing": str(tmp_path / "missing.json"),
        "binary": str(binary),
        "huge": '{"command":"view","path":"/memories","view_range":[1,1' + "0" * 5000 + "]}",
        "deep": "[" * 100_000 + "]" * 100_000,
    }
    code, out, err = run_cli(capsys, "exec", "--db", str(store), source.format(**values))
    assert (code, out) == (2, "") and needle.format(**values) in err
    assert err.startswith("securemem: error:") and err.count("\n") == 1 and len(err) < 300


HOSTILE: list[bytes] = [
    json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "hi\n"}).encode(),
    b"not json",
    b'{"command":"insert","path":"/memories/a.md","insert_line":1' + b"0" * 5000 + b',"insert_text":"x"}',
    b"[" * 100_000 + b"]" * 100_000,
    b"\xff\xfe\x00binary\x80",
    b"\x00",
    b'{"command":"create","path":"/memories/big.md","file_text":"' + b"a" * 10_000_000 + b'"}',
    b'{"command":"create","path":"/memories/\\u0000x","file_text":"x"}',
    b"\x1b[31mred",
    b'"just a string"',
    b'{"command":"view","path":"/memories/a.md"}',
]


def test_replay_answers_every_line_whatever_it_holds(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "hostile.jsonl"
    script.write_bytes(b"\n".join(HOSTILE) + b"\n\n")
    code, out, err = run_cli(capsys, "replay", "--db", str(store), str(script))
    lines = out.splitlines()
    assert (code, err) == (1, "")
    assert lines[-1] == "replayed 11 commands, 8 failed"
    for number in range(1, len(HOSTILE) + 1):
        answers = [line for line in lines if line.startswith((f"[{number}] ok", f"[{number}] error"))]
        assert len(answers) == 1, (number, answers)
    assert "[7] ok:" in lines and "[11] ok:" in lines and "     1\thi" in lines  # bad lines did not stop the run
    assert max(len(line) for line in lines) < 400  # nothing huge is echoed in full
    assert "(cut: the line holds 10,000,061 bytes)" in out and "\x1b" not in out and "\x00" not in out
    assert "[5] error: the line is not valid UTF-8 (byte 1)" in lines
    assert "[4] error: the line is not valid JSON (nested too deeply)" in lines


def test_unencodable_text_in_a_result_is_escaped_never_a_crash(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lone surrogate (valid JSON) in old_str: refused (no file holds one), answered by replay, which
    goes on; exec prints the error. Neither crashes printing it."""
    lone = '{"command":"str_replace","path":"/memories/a.md","old_str":"x\\ud800y","new_str":"z"}'
    script = tmp_path / "s.jsonl"
    script.write_text(
        "\n".join(
            [
                json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "hello\n"}),
                lone,
                json.dumps({"command": "view", "path": "/memories/a.md"}),
            ]
        )
        + "\n"
    )
    code, out, err = run_cli(capsys, "replay", "--db", str(store), str(script))
    assert (code, err) == (1, "")
    assert "`old_str` contains an unpaired surrogate" in out and "     1\thello" in out
    assert out.endswith("replayed 3 commands, 1 failed\n")
    code, out, err = run_cli(capsys, "exec", "--db", str(store), lone)
    assert (code, out) == (1, "") and "`old_str` contains an unpaired surrogate" in err


def test_replay_reads_stdin(store: Path, capsys: pytest.CaptureFixture[str], stdin: Callable[[bytes], None]) -> None:
    stdin(b'{"command":"view","path":"/memories"}\n')
    code, out, _ = run_cli(capsys, "replay", "--db", str(store), "-")
    assert code == 0 and out.endswith("replayed 1 commands, 0 failed\n")


def replay_lines(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, Any]]
) -> tuple[int, str, str]:
    """``securemem replay`` of ``lines``, written as a JSONL file."""
    script = tmp_path / "s.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return run_cli(capsys, "replay", "--db", str(store), str(script))


def test_replay_echoes_no_personal_data_or_secret_of_its_lines(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The echo is the operator's log: a value is shown by its type, whatever the policy stores.
    lines = [
        {"command": "create", "path": "/memories/a.md", "file_text": "SSN 536-22-1234, mail jane.roe@corp.test\n"},
        {"command": "create", "path": "/memories/b.md", "file_text": "aws AKIAQ3EGRJ7ZK4XPLM2N\n"},
    ]
    _, out, _ = replay_lines(store, tmp_path, capsys, lines)
    echoes = [line for line in out.splitlines() if line.startswith("[") and "] > " in line]
    assert len(echoes) == 2 and "[US_SSN]" in echoes[0] and "[EMAIL]" in echoes[0], echoes
    assert not any(value in out for value in ("536-22-1234", "jane.roe@corp.test", "AKIAQ3EGRJ7ZK4XPLM2N")), out


def test_replay_shows_no_value_an_error_quotes_back(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The reference str_replace error repeats old_str (right for the model); in the operator's log
    # it would undo the echo's masking (attacker A).
    lines = [
        {"command": "create", "path": "/memories/p.md", "file_text": "x\n"},
        {"command": "str_replace", "path": "/memories/p.md", "old_str": "card 4111 1111 1111 1111", "new_str": "y"},
    ]
    code, out, _ = replay_lines(store, tmp_path, capsys, lines)
    assert code == 1
    assert "did not appear verbatim in /memories/p.md" in out and "[CREDIT_CARD]" in out, out
    assert "4111 1111 1111 1111" not in out, out


def test_replay_echo_reads_values_after_json_escapes_and_past_the_cut(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A value on a line of its own in file_text follows "\n" in the JSON line; a value the cut would
    # halve was read before cutting, and the echo shows none of it.
    script = tmp_path / "s.jsonl"
    text = "notes\n536-22-1234\n" + "mail x@corp.test " * 11 + "4111 1111 1111 1111 " + "pad " * 200
    script.write_text(json.dumps({"command": "create", "path": "/memories/a.md", "file_text": text}) + "\n")
    _, out, _ = run_cli(capsys, "replay", "--db", str(store), str(script))
    echo = next(line for line in out.splitlines() if line.startswith("[1] > "))
    assert "536-22-1234" not in echo and "[US_SSN]" in echo, echo
    assert not any(piece in echo for piece in ("4111 1111", "1111 111", "x@corp")), echo


def test_replay_of_a_missing_file_is_one_line_exit_2(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "replay", "--db", str(store), str(tmp_path / "gone.jsonl"))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "No such file or directory" in err


# ---------------------------------------------------------------- init leaves nothing behind


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("", "--db is empty; give the path of the store file to create, e.g. --db agent.db"),
        ("{dir}", "{dir} is a directory; give the path of a store file, e.g. --db {dir}/agent.db"),
        ("{dir}/no/such/m.db", "cannot create {dir}/no/such/m.db: the directory {dir}/no/such does not exist"),
        ("{dir}/file/m.db", "cannot create {dir}/file/m.db: {dir}/file is not a directory"),
        ("{dir}/old.db", "{dir}/old.db already exists; init never overwrites a store"),
    ],
)
def test_init_says_in_one_line_why_it_cannot_create(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, message: str
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    (tmp_path / "file").write_text("x")
    (tmp_path / "old.db").write_text("x")
    before = sorted(tmp_path.rglob("*"))
    code, out, err = run_cli(capsys, "init", "--db", db.format(dir=tmp_path))
    assert (code, out, err) == (2, "", f"securemem: error: {message.format(dir=tmp_path)}\n")
    assert sorted(tmp_path.rglob("*")) == before  # no key file left behind


def test_a_failed_init_removes_the_key_it_made_so_a_retry_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from securemem.errors import StoreFullError
    from securemem.store.sqlcipher import SQLCipherStore

    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = tmp_path / "m.db"

    def full(path: object, *_: object, **__: object) -> None:
        Path(f"{path}").write_bytes(b"half a store")  # as a store that fails midway could leave
        raise StoreFullError("the disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(SQLCipherStore, "open", full)
        code, _, err = run_cli(capsys, "init", "--db", str(db))
    assert (code, err) == (2, "securemem: error: the disk is full\n")
    assert list(tmp_path.iterdir()) == []
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0


# ---------------------------------------------------------------- demo --keep


@pytest.mark.slow
def test_demo_keep_leaves_a_store_that_opens_with_the_printed_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    kept = tmp_path / "kept"
    code, out, err = run_cli(capsys, "demo", "--keep", str(kept))
    assert (code, err) == (0, "") and "No plaintext" in out
    key_file = kept / "demo.db.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    commands = [line for line in out.splitlines() if " exec --db " in line]
    assert len(commands) == 2
    for command in commands:
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    assert (
        "customer_service_guidelines.xml"
        in subprocess.run(shlex.split(commands[0]), capture_output=True, text=True, timeout=60).stdout
    )


def test_demo_keep_never_replaces_a_store_without_a_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = tmp_path / "kept"
    assert run_cli(capsys, "demo", "--keep", str(kept))[0] == 0
    files = {path.name: path.read_bytes() for path in kept.iterdir()}
    # Not a terminal (a script, CI): refused without a prompt.
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    code, out, err = run_cli(capsys, "demo", "--keep", str(kept))
    assert (code, out) == (2, "")
    assert (
        err == f"securemem: error: {kept} already holds a demo store (demo.db); remove it or choose another directory\n"
    )
    # At a terminal: asked; anything but yes keeps the store.
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda: "n")
    assert run_cli(capsys, "demo", "--keep", str(kept))[0] == 2
    assert {path.name: path.read_bytes() for path in kept.iterdir()} == files
    monkeypatch.setattr("builtins.input", lambda: "y")
    code, _, err = run_cli(capsys, "demo", "--keep", str(kept))
    assert code == 0 and "already holds a demo store (demo.db, demo.db.key); replace it? [y/N]" in err
    assert (kept / "demo.db.key").read_bytes() != files["demo.db.key"]


def test_demo_keep_on_a_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "f"
    target.write_text("precious")
    assert run_cli(capsys, "demo", "--keep", str(target)) == (
        2,
        "",
        f"securemem: error: {target} is not a directory; --keep needs a directory for the demo store\n",
    )
    assert target.read_text() == "precious"


def test_huge_numbers_are_clear_errors_that_do_not_echo_them(capsys: pytest.CaptureFixture[str]) -> None:
    """Past Python's int-to-str limit a number cannot even be printed: the message says it is out of range."""
    from securemem import SecureMemory

    with SecureMemory.open("memory://") as memory:
        memory.execute({"command": "create", "path": "/memories/a.md", "file_text": "one\n"})
        huge = 10**5000
        results = [
            memory.execute({"command": "view", "path": "/memories/a.md", "view_range": [huge, 1]}),
            memory.execute({"command": "view", "path": "/memories/a.md", "view_range": [1, -huge]}),
            memory.execute({"command": "insert", "path": "/memories/a.md", "insert_line": huge, "insert_text": "x"}),
            memory.execute({"command": "insert", "path": "/memories/a.md", "insert_line": -huge, "insert_text": "x"}),
        ]
    assert [(r.is_error, r.error) for r in results] == [(True, "InvalidRange")] * 4
    assert all("internal error" not in r.text and "00000" not in r.text and "out of range" in r.text for r in results)


def test_a_policy_file_that_is_not_utf8_is_a_one_line_policy_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from securemem.errors import PolicyError
    from securemem.policy import load_policy

    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(PolicyError) as caught:
        load_policy(str(bad))
    assert str(caught.value) == f"{bad}: not UTF-8 text (byte 12)"
    expected = f"securemem: error: {bad}: not UTF-8 text (byte 12)\n"
    assert run_cli(capsys, "policy", "check", str(bad)) == (2, "", expected)


def test_a_sweep_batch_too_large_is_a_usage_error(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "sweep", "--db", str(store), "--batch", "99999999999999999999999")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("securemem: error: argument --batch: must be a whole number from 1 to ")
    assert run_cli(capsys, "sweep", "--db", str(store), "--batch", "9" * 5000)[0] == 2


def test_demo_keep_makes_its_directory_private(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    previous = os.umask(0o022)
    try:
        kept = tmp_path / "a" / "kept"
        assert run_cli(capsys, "demo", "--keep", str(kept))[0] == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o700


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_db_that_is_no_regular_file_is_one_line_exit_2_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    # A FIFO would block the open until a writer came (the command would hang); a device would be read.
    monkeypatch.setenv("SECUREMEM_KEY", "77" * 32)
    if kind == "fifo":
        db = tmp_path / "store.db"
        os.mkfifo(db)
    else:
        db = Path("/dev/null")
    code, out, err = run_cli(capsys, "exec", "--db", str(db), '{"command": "view", "path": "/memories"}')
    assert (code, out, err) == (2, "", f"securemem: error: {db} is not a regular file, not a securemem store\n")


def test_a_key_file_that_is_no_regular_file_is_one_line_exit_2(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "k.key"
    os.mkfifo(fifo)
    for key_file in (str(fifo), "/dev/zero"):  # a FIFO blocked the read, /dev/zero never ended it
        code, out, err = run_cli(
            capsys, "exec", "--db", str(store), "--key-file", key_file, '{"command": "view", "path": "/memories"}'
        )
        assert (code, out) == (2, "") and err == f"securemem: error: key file {key_file} cannot be read as a hex key\n"


def test_the_command_writes_no_core_dump_that_would_hold_its_keys(tmp_path: Path) -> None:
    # A crash of a long-running sweeper would otherwise dump its memory, data keys in clear, to a
    # core file wherever the host writes them (attacker B found the key three times in one).
    probe = (
        "import ctypes, resource, sys\n"
        "from securemem import cli\n"
        "sys.argv = ['securemem', '--help']\n"
        "try:\n"
        "    cli.main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "libc = ctypes.CDLL(None)\n"  # prctl 3: PR_GET_DUMPABLE
        "print(resource.getrlimit(resource.RLIMIT_CORE), libc.prctl(3, 0, 0, 0, 0), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    assert done.stderr.strip().splitlines()[-1] == "(0, 0) 0", done.stderr


_INIT_KILLED_AFTER_ITS_KEY = """
import os, signal, sys
import securemem.cli as cli

real = cli.open_store

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # the key file is made, the store not yet

cli.open_store = die
cli.main(sys.argv[1:])
"""


def test_an_init_killed_after_its_key_file_is_run_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An init killed between its key file and its store left DB.key alone: init then refused to overwrite
    the key and every other command said to run init. Run again, init keeps that key and makes the store."""
    import subprocess
    import sys

    db = tmp_path / "k.db"
    done = subprocess.run(
        [sys.executable, "-c", _INIT_KILLED_AFTER_ITS_KEY, "init", "--db", str(db)], capture_output=True, timeout=120
    )
    assert done.returncode == -9, done.stderr
    key = Path(f"{db}.key").read_text()
    assert not db.exists()
    code, out, err = run_cli(capsys, "init", "--db", str(db))
    assert code == 0 and err == "" and "it was there already and is kept" in out
    assert Path(f"{db}.key").read_text() == key
    create = json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "x\n"})
    assert run_cli(capsys, "exec", "--db", str(db), create)[0] == 0


def test_an_empty_key_file_left_by_an_init_is_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "e.db"
    Path(f"{db}.key").touch(mode=0o600)
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    assert len(bytes.fromhex(Path(f"{db}.key").read_text().strip())) == 32


def test_a_full_standard_output_is_said_as_such_and_the_write_is_kept(tmp_path: Path) -> None:
    """stdout on a full device: one line that says so (not "internal error"), exit 2, the write kept."""
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("this system has no /dev/full")
    db = tmp_path / "f.db"
    cli = [sys.executable, "-m", "securemem.cli"]
    assert subprocess.run([*cli, "init", "--db", str(db)], capture_output=True, timeout=60).returncode == 0
    create = json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "x\n"})
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*cli, "exec", "--db", str(db), create], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert done.returncode == 2
    assert done.stderr.startswith("securemem: error: cannot write to standard output (")
    assert done.stderr.count("\n") == 1
    view = json.dumps({"command": "view", "path": "/memories/a.md"})
    again = subprocess.run([*cli, "exec", "--db", str(db), view], capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "x" in again.stdout


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_on_a_full_standard_output_say_so(flag: str) -> None:
    """argparse's own printing swallows an OSError: its lost output is said all the same, exit 2."""
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("this system has no /dev/full")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "securemem.cli", flag], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert done.returncode == 2 and done.stderr.startswith("securemem: error: cannot write to standard output")
    ok = subprocess.run([sys.executable, "-m", "securemem.cli", flag], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout and ok.stderr == ""


_SLOW_INIT = """
import sys, time
import securemem.keys.file as keyfile
from securemem.cli import main

real = keyfile.create_private

def slow(path):
    fd = real(path)
    time.sleep(2)  # the key file is there, still empty
    return fd

keyfile.create_private = slow
sys.exit(main(sys.argv[1:]))
"""


def test_two_inits_of_one_store_at_once_leave_one_store_and_its_key(tmp_path: Path) -> None:
    """A second init while the first one writes its key file waits for it (the store's key-change lock),
    then refuses: it once took the first one's empty key file for a killed init's, wrote its own key, and
    the first one's clean-up then removed it, leaving a store no key opened (an attacker's round)."""
    import subprocess
    import sys
    import time

    db = tmp_path / "x.db"
    first = subprocess.Popen([sys.executable, "-c", _SLOW_INIT, "init", "--db", str(db)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not Path(f"{db}.key").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    second = subprocess.run(
        [sys.executable, "-m", "securemem.cli", "init", "--db", str(db)], capture_output=True, text=True, timeout=60
    )
    assert first.wait(timeout=60) == 0
    assert second.returncode == 2 and "already exists" in second.stderr
    view = json.dumps({"command": "view", "path": "/memories"})
    again = subprocess.run([sys.executable, "-m", "securemem.cli", "exec", "--db", str(db), view], capture_output=True)
    assert again.returncode == 0
