"""``securemem keys rotate-dek`` (custody.rotate_dek): a new DEK, every page re-encrypted, crash-safe.

Crashes are made two ways: at the two points between the steps (a forked child that dies with
``os._exit`` right there, no clean-up run), and with kill -9 at spread-out moments of a real
``securemem keys rotate-dek`` process. After each, the store opens with its KEK, holds exactly
what it held, and running rotate-dek again finishes the job.
"""

from __future__ import annotations

import logging
import os
import pty
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem import custody as custody_module
from securemem.custody import add_kek, rotate_dek
from securemem.errors import KeyHeaderError, RefusedError
from securemem.keys.header import keys_path, read_header
from securemem.keys.uri import parse_kek
from securemem.store.envelope import unlock
from securemem.store.sqlcipher import SQLCipherStore
from tests.helpers import FORK, REPO, State, fork_one, read_state, run_cli, sha256_of, write_many


def make(tmp_path: Path, files: int = 40, size: int = 2048) -> tuple[Path, str, State]:
    db, kek = tmp_path / "r.db", f"file:{tmp_path / 'r.kek'}"
    with SecureMemory.open(db, kek=kek) as memory:
        write_many(memory, [f"/memories/f{n:04d}.md" for n in range(files)], os.urandom(size // 2).hex().encode())
        state = read_state(memory.store)
    return db, kek, state


def content(db: Path, kek: str) -> State:
    with SecureMemory.open(db, kek=kek, create=False) as memory:
        assert not memory.store.integrity_errors()
        return read_state(memory.store)


def test_rotate_dek_re_encrypts_and_the_old_header_opens_nothing(tmp_path: Path) -> None:
    db, kek, state = make(tmp_path)
    old_header, old_db, old_dek = keys_path(db).read_bytes(), sha256_of(db), unlock(db, parse_kek(kek)).dek
    rotate_dek(db, [parse_kek(kek)])
    assert sha256_of(db) != old_db and content(db, kek) == state
    assert unlock(db, parse_kek(kek)).dek != old_dek and read_header(db).pending is None
    with pytest.raises(Exception, match="wrong key"):
        SecureMemory.open(db, key=old_dek, create=False)
    keys_path(db).write_bytes(old_header)
    with pytest.raises(KeyHeaderError, match="belongs to another store"):
        SecureMemory.open(db, kek=kek, create=False)


def test_every_kek_must_be_given_and_each_opens_the_new_key(tmp_path: Path) -> None:
    db, kek, state = make(tmp_path)
    recovery = f"file:{tmp_path / 'recovery.kek'}"
    add_kek(db, parse_kek(kek), parse_kek(recovery))
    before = (sha256_of(db), keys_path(db).read_bytes())
    with pytest.raises(RefusedError, match=r"rotate-dek needs every KEK of .*file:.*recovery.kek\) was not given"):
        rotate_dek(db, [parse_kek(kek)])
    assert (sha256_of(db), keys_path(db).read_bytes()) == before
    rotate_dek(db, [parse_kek(kek), parse_kek(recovery)])
    assert content(db, kek) == state == content(db, recovery)


def die_at(point: str) -> Callable[..., object]:
    """A stand-in for a step of rotate_dek that runs it (or not) and then kills the process on the spot."""
    real_write, real_rekey = custody_module.write_header, SQLCipherStore.rekey  # type: ignore[attr-defined]
    calls = {"n": 0}

    def write(*args: object, **kwargs: object) -> None:
        real_write(*args, **kwargs)  # type: ignore[arg-type]
        calls["n"] += 1
        if point == "after pending written" and calls["n"] == 1:
            os._exit(9)

    def rekey(self: SQLCipherStore, *args: object, **kwargs: object) -> None:
        real_rekey(self, *args, **kwargs)  # type: ignore[arg-type]
        if point == "after re-key":
            os._exit(9)

    custody_module.write_header = write  # type: ignore[attr-defined]
    SQLCipherStore.rekey = rekey  # type: ignore[method-assign]
    return write


def crash_child(db: str, kek: str, point: str) -> None:
    die_at(point)
    rotate_dek(db, [parse_kek(kek)])
    os._exit(0)  # not reached when the crash point is hit


@pytest.mark.parametrize("point", ["after pending written", "after re-key"])
def test_a_crash_between_the_steps_leaves_a_store_that_opens(tmp_path: Path, point: str) -> None:
    db, kek, state = make(tmp_path)
    child = FORK.Process(target=crash_child, args=(str(db), kek, point))
    child.start()
    child.join(60)
    assert child.exitcode == 9
    assert read_header(db).pending is not None  # the crash hit between the two header writes
    assert content(db, kek) == state
    rotate_dek(db, [parse_kek(kek)])  # finishes (or redoes) the rotation
    assert read_header(db).pending is None and content(db, kek) == state


@pytest.mark.slow
def test_kill_9_at_any_moment_of_a_rotation_loses_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, kek, state = make(tmp_path, files=1000, size=8192)  # ~8 MB: the re-key takes a while
    argv = [sys.executable, "-m", "securemem.cli", "keys", "rotate-dek", "--db", str(db), "--kek", kek]
    begins, ends = window(argv, keys_path(db))  # when the pending header appears, when the run ends
    seen_pending = 0
    for trial in range(12):
        child = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if trial < 2:  # before the rotation has written anything
            time.sleep(begins * 0.5)
        else:  # from the moment the pending header is there, spread over the re-key and past its end
            until_pending(child, keys_path(db))
            time.sleep((ends - begins) * (trial - 2) / 8)
        child.send_signal(signal.SIGKILL)
        child.wait(60)
        seen_pending += read_header(db).pending is not None
        assert content(db, kek) == state, f"trial {trial}"
    code, _, err = run_cli(capsys, "keys", "rotate-dek", "--db", str(db), "--kek", kek)
    assert code == 0, err
    assert read_header(db).pending is None and content(db, kek) == state
    print(f"kill -9 trials: {seen_pending} of 12 landed inside a rotation ({begins:.2f}s to {ends:.2f}s)")
    assert seen_pending >= 1  # the trials did reach the window where two data keys exist


def until_pending(child: subprocess.Popen[bytes], header: Path) -> None:
    while child.poll() is None and b'"pending"' not in header.read_bytes():
        time.sleep(0.0005)


def window(argv: list[str], header: Path) -> tuple[float, float]:
    """Seconds from start until a rotation's pending header is written, and until the process ends."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    begins = None
    while child.poll() is None:
        if begins is None and b'"pending"' in header.read_bytes():
            begins = time.perf_counter() - started
        time.sleep(0.001)
    assert child.returncode == 0
    ends = time.perf_counter() - started
    return (begins if begins is not None else ends * 0.5), ends


def rotate_in_child(db: str, kek: str) -> bool:
    rotate_dek(db, [parse_kek(kek)])
    return True


def test_a_process_that_had_the_store_open_is_told_to_reopen(tmp_path: Path) -> None:
    db, kek, state = make(tmp_path)
    with SecureMemory.open(db, kek=kek, create=False) as memory:
        memory.execute({"command": "view", "path": "/memories"})
        assert fork_one(rotate_in_child, str(db), kek, workdir=tmp_path)
        result = memory.execute({"command": "view", "path": "/memories/f0001.md"})
        assert result.is_error and "re-keyed by another process; reopen it" in result.text
        assert "damaged" not in result.text
    assert content(db, kek) == state  # reopened: all there


# -- progress: on stderr only, a bar on a terminal, a few lines elsewhere, nothing with --quiet ----------------


def rotate_argv(db: Path, kek: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "securemem.cli", "keys", "rotate-dek", "--db", str(db), "--kek", kek, *extra]


def run_with_stderr_a_terminal(argv: list[str]) -> tuple[int, str, str]:
    """Run ``argv`` with stderr a pseudo-terminal and stdout a pipe: (exit code, stdout, what the terminal got)."""
    controller, terminal = pty.openpty()
    child = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=terminal, stdin=subprocess.DEVNULL)
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    os.close(controller)
    out = child.stdout.read().decode() if child.stdout else ""
    return child.wait(60), out, seen.decode()


def test_rotate_dek_draws_a_progress_bar_on_a_terminal_and_nothing_on_stdout(tmp_path: Path) -> None:
    db, kek, state = make(tmp_path, files=200, size=8192)
    code, out, terminal = run_with_stderr_a_terminal(rotate_argv(db, kek))
    assert code == 0, terminal
    assert out.count("\n") == 1 and out.startswith(f"{db}: every page re-encrypted")  # stdout: the result only
    frames = terminal.split("\r")
    assert len(frames) >= 3 and f"re-encrypting {db} [" in terminal
    assert re.search(r"\[#{28}\] 100% ([0-9.]+)/\1 MB, [0-9.,]+ MB/s", terminal)  # done of total, rate
    assert re.search(r"\[\.{28}\]\s+0% 0\.0/[0-9.]+ MB", terminal)
    assert content(db, kek) == state


def test_rotate_dek_writes_a_few_plain_lines_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    db, kek, state = make(tmp_path, files=200, size=8192)
    done = subprocess.run(rotate_argv(db, kek), cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "\r" not in done.stderr and 2 <= len(lines) <= 5
    assert lines[0].startswith(f"re-encrypting {db}: 0% (0.0/")
    assert re.fullmatch(
        rf"re-encrypting {re.escape(str(db))}: done, [0-9.]+ MB in [0-9.]+ s \([0-9.,]+ MB/s\)", lines[-1]
    )
    assert done.stdout.count("\n") == 1
    quiet = subprocess.run(rotate_argv(db, kek, "--quiet"), cwd=REPO, capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout.count("\n") == 1
    assert content(db, kek) == state


# -- another process writing all through a rotation ----------------------------------------------------------
# What a writer sees while keys rotate-dek runs (README, "Key custody"): its transactions wait for
# the re-key's lock (at most its busy timeout, then "busy; try again shortly"); once the re-key has
# committed, its handle's next command is refused with "re-keyed by another process; reopen it",
# and a reopened handle writes under the new key. A write that returned success is in the rotated
# store; a refused one was not applied and says so. Never "damaged".


def writer(db: str, kek: str, log: str, stop: str) -> None:
    """Create /memories/wNNNNN.md one after another until ``stop`` exists, logging each outcome.

    On "re-keyed, reopen" it reopens (as the message says) and tries the same file again; on
    "busy" it tries again. Each line of ``log`` is written before the next attempt.
    """
    memory = SecureMemory.open(db, kek=kek, create=False)
    n = 0
    with open(log, "a", encoding="utf-8") as out:
        while not os.path.exists(stop):
            result = memory.execute({"command": "create", "path": f"/memories/w{n:05d}.md", "file_text": f"w{n}\n"})
            if not result.is_error:
                out.write(f"ok {n}\n")
                n += 1
            else:
                out.write(f"error {n} {result.error} {result.text.replace(chr(10), ' ')}\n")
                if result.error == "RekeyedError":
                    memory.close()
                    memory = SecureMemory.open(db, kek=kek, create=False)
                    out.write(f"reopened {n}\n")
            out.flush()
    memory.close()


def log_lines(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def wait_for(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 120  # a bound on the wait, not a timing assertion
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


@pytest.mark.slow
def test_a_writer_running_through_a_rotation_loses_nothing_and_never_sees_damage(tmp_path: Path) -> None:
    db, kek, state = make(tmp_path, files=1000, size=8192)  # ~8 MB: the re-key takes a while
    old_dek = unlock(db, parse_kek(kek)).dek
    log, stop = tmp_path / "writer.log", tmp_path / "stop"
    child = FORK.Process(target=writer, args=(str(db), kek, str(log), str(stop)), daemon=True)
    child.start()
    try:
        wait_for(lambda: sum(line.startswith("ok") for line in log_lines(log)) >= 20, "the writer's first writes")
        rotation = subprocess.run(
            rotate_argv(db, kek, "--quiet"), cwd=REPO, capture_output=True, text=True, timeout=120
        )
        assert rotation.returncode == 0, rotation.stderr
        during = len(log_lines(log))
        wait_for(lambda: sum(line.startswith("ok") for line in log_lines(log)[during:]) >= 20, "writes after it")
    finally:
        stop.touch()
        child.join(60)
    assert child.exitcode == 0
    lines = log_lines(log)
    committed = {int(line.split()[1]) for line in lines if line.startswith("ok")}
    errors = [line for line in lines if line.startswith("error")]
    assert any(line.startswith("reopened") for line in lines)  # its old handle was told to reopen
    for line in errors:
        assert " RekeyedError " in line or " StoreBusyError " in line, line
        assert "damaged" not in line and ("reopen it" in line or "try again" in line), line
    assert unlock(db, parse_kek(kek)).dek != old_dek and read_header(db).pending is None
    after = content(db, kek)  # opens under the new key; both integrity checks pass
    written = {path: text for path, text in after.files.items() if path.startswith("/memories/w")}
    assert written == {f"/memories/w{n:05d}.md": f"w{n}\n" for n in committed}  # every success, nothing else
    assert committed == set(range(len(committed)))  # no refused write went missing: each was retried and done
    assert {p: t for p, t in after.files.items() if p not in written} == state.files


def test_a_handle_left_behind_by_a_rotation_closes_without_waiting_on_its_eraser(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # It freed content and had not erased it yet when the store was re-keyed under it: its
    # checkpoints can never succeed again, so it must not spend its busy timeout retrying them
    # (the re-key scrubbed the file under the new key instead).
    db, kek, state = make(tmp_path)
    memory = SecureMemory.open(db, kek=kek, create=False)
    # A wide erasure bound: the eraser's timer must not erase before the rotation (on a loaded
    # machine the child takes longer than the default second), so close() finds it still pending.
    memory.store.configure(durability="full", erase_within=120.0)
    for n in range(20):
        memory.execute({"command": "create", "path": f"/memories/gone{n}.md", "file_text": "x" * 3000})
        memory.execute({"command": "delete", "path": f"/memories/gone{n}.md"})
    assert fork_one(rotate_in_child, str(db), kek, workdir=tmp_path)
    with caplog.at_level(logging.INFO, logger="securemem.store"):
        memory.close()
    assert "re-keyed by another process; this handle erases nothing more" in caplog.text
    assert "could not be erased" not in caplog.text
    assert content(db, kek) == state
