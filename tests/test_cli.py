"""The operator's CLI: exit codes, one-line messages, no tracebacks, keys handled with care."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from securemem.cli import main
from tests.helpers import write_many


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def store(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = tmp_path / "m.db"
    assert run(capsys, "init", "--db", str(db))[0] == 0
    return db


def test_init_creates_store_and_private_key_file(store: Path) -> None:
    key_file = Path(f"{store}.key")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(bytes.fromhex(key_file.read_text().strip())) == 32
    assert not store.read_bytes().startswith(b"SQLite format 3")


def test_init_never_overwrites(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key_before = Path(f"{store}.key").read_text()
    code, _, err = run(capsys, "init", "--db", str(store))
    assert code == 2 and "already exists" in err and err.count("\n") == 1
    other = store.with_name("other.db")
    code, _, err = run(capsys, "init", "--db", str(other), "--key-file", f"{store}.key")
    assert code == 2 and "refusing to overwrite" in err
    assert Path(f"{store}.key").read_text() == key_before and not other.exists()


def test_exec_success_and_command_error(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    create = json.dumps({"command": "create", "path": "/memories/a.md", "file_text": "hello\n"})
    assert run(capsys, "exec", "--db", str(store), create) == (0, "File created successfully at: /memories/a.md\n", "")
    code, out, err = run(capsys, "exec", "--db", str(store), json.dumps({"command": "view", "path": "/memories/b"}))
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
    code, _, err = run(capsys, *filled)
    assert code == 2 and needle in err
    assert err.startswith("securemem: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_wrong_key_and_open_key_file(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.key"
    other.write_text(os.urandom(32).hex())
    other.chmod(0o600)
    view = '{"command":"view","path":"/memories"}'
    code, _, err = run(capsys, "exec", "--db", str(store), "--key-file", str(other), view)
    assert code == 2 and "does not open" in err and other.read_text() not in err
    other.chmod(0o644)
    code, _, err = run(capsys, "exec", "--db", str(store), "--key-file", str(other), view)
    assert code == 2 and "chmod 600" in err


def test_passphrase_from_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECUREMEM_KEY", "a long passphrase for tests")
    db = tmp_path / "p.db"
    assert run(capsys, "init", "--db", str(db))[0] == 0
    assert not Path(f"{db}.key").exists()
    assert run(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories"}')[0] == 0
    monkeypatch.setenv("SECUREMEM_KEY", "another passphrase")
    assert run(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories"}')[0] == 2


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
    code, out, _ = run(capsys, "replay", "--db", str(store), str(script))
    assert code == 1
    assert "replayed 4 commands, 2 failed" in out and "     1\t1" in out and "Invalid path" in out


def test_verify_and_rekey(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "verify", "--db", str(store))[0] == 0
    new_key = tmp_path / "new.key"
    assert run(capsys, "rekey", "--db", str(store), "--new-key-file", str(new_key))[0] == 0
    assert run(capsys, "verify", "--db", str(store))[0] == 2
    assert run(capsys, "verify", "--db", str(store), "--key-file", str(new_key))[0] == 0


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
    code, out, err = run(capsys, "sweep", "--db", str(store), "--batch", "10")
    assert code == 0 and "swept 25 expired entries in 3 batches" in out
    assert "\rswept 10/25" in err and "\rswept 25/25" in err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    code, out, err = run(capsys, "sweep", "--db", str(store))
    assert code == 0 and "swept 0 expired entries" in out and err == ""
