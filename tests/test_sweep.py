"""Sweeps: expired rows really deleted (content gone from the file and the WAL), in bounded batches,
safe next to a writer in another process; ``securemem sweep`` once and ``--every``; the in-process
background sweeper."""

from __future__ import annotations

import json
import logging
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.keys import create_key_file
from securemem.sweep import BackgroundSweeper, sweep
from tests.helpers import (
    DAY,
    REPO,
    T0,
    Clock,
    aggregate_errors,
    child_argv,
    dump,
    ok,
    read_state,
    run_cli,
    write_policy,
)
from tests.sqlcipher_pages import plaintext_of

POLICY = '[ttl]\nexpire_after = "1d"\nsince = "write"\n[[rules]]\nglob = "/memories/keep/**"\nnever_expire = true\n'
SUMMARY = r"swept {} expired entries in {} batches, \d+\.\d\ds"
MARKER = "QUOKKA-SWEEP-MARKER-51c2"


@pytest.fixture
def policy(tmp_path: Path) -> Path:
    return write_policy(tmp_path, POLICY, "ttl.toml")


@pytest.fixture
def mem(tmp_path: Path, key: bytes, clock: Clock, policy: Path) -> Iterator[SecureMemory]:
    with SecureMemory.open(tmp_path / "m.db", key=key, policy=policy, clock=clock) as memory:
        yield memory


def fill(mem: SecureMemory, count: int, prefix: str = "/memories/old", text: str = "x\n") -> None:
    for i in range(count):
        ok(mem, command="create", path=f"{prefix}/{i:03}.md", file_text=text)


def rows(mem: SecureMemory) -> list[str]:
    """Every row of the namespace, expired or not (seen from time 0, before any deadline)."""
    return sorted(dump(mem, now=0.0))


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.005)


# ---------------------------------------------------------------- the library


def test_a_sweep_deletes_expired_rows_and_keeps_the_rest(mem: SecureMemory, clock: Clock) -> None:
    fill(mem, 5)
    ok(mem, command="create", path="/memories/keep/k.md", file_text="kept\n")
    ok(mem, command="create", path="/memories/fresh.md", file_text="fresh\n")
    clock.now = T0 + DAY
    # the five, their directory (all its files have expired, so it has too) and fresh.md
    assert mem.store.count_expired(clock.now) == 7
    assert len(rows(mem)) == 10  # invisible is not deleted: the rows wait for the sweep
    report = mem.sweep()
    assert (report.deleted, report.batches) == (7, 1)
    assert rows(mem) == ["/memories", "/memories/keep", "/memories/keep/k.md"]
    assert dump(mem, now=0.0)["/memories"] == (True, None, 5)  # the totals lost the swept bytes
    assert mem.store.count_expired(clock.now) == 0 and mem.sweep().deleted == 0


def test_swept_content_is_gone_from_the_file_and_its_wal(
    tmp_path: Path, key: bytes, clock: Clock, policy: Path
) -> None:
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key=key, policy=policy, clock=clock) as memory:
        fill(memory, 20, text=f"{MARKER}\n" * 40)
        ok(memory, command="create", path="/memories/keep/k.md", file_text="KEPT-CONTENT\n")
        assert MARKER.encode() in plaintext_of(db, key)  # the control: before the sweep it is there
        clock.now = T0 + DAY
        assert memory.sweep(batch=7).deleted == 21  # twenty files and their directory
        memory.store.flush_erasure()  # what the store does within its erasure bound, done now
        plain = plaintext_of(db, key)  # the store is still open: the file and whatever the WAL holds
    assert MARKER.encode() not in plain and b"KEPT-CONTENT" in plain


def test_sweeps_run_in_bounded_batches(mem: SecureMemory, clock: Clock) -> None:
    fill(mem, 95)
    clock.now = T0 + DAY
    seen: list[tuple[int, int]] = []
    report = sweep(mem.store, clock.now, batch=10, progress=lambda done, total: seen.append((done, total)))
    assert (report.deleted, report.batches) == (96, 10)  # 95 files and their directory
    assert seen == [(n, 96) for n in (10, 20, 30, 40, 50, 60, 70, 80, 90, 96)]
    assert re.fullmatch(SUMMARY.format(96, 10), report.summary())


def test_an_exact_multiple_of_the_batch_takes_no_extra_batch(mem: SecureMemory, clock: Clock) -> None:
    fill(mem, 19)
    clock.now = T0 + DAY
    report = mem.sweep(batch=10)
    assert (report.deleted, report.batches) == (20, 2)  # 19 files and their directory


def test_a_sweep_that_erased_something_writes_one_audit_record_with_counts_only(
    mem: SecureMemory, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    fill(mem, 4)
    caplog.set_level(logging.INFO, logger="securemem.audit")
    assert mem.sweep().deleted == 0  # nothing erased: no record
    clock.now = T0 + DAY
    assert mem.sweep().deleted == 5
    records = [json.loads(r.getMessage()) for r in caplog.records if r.name == "securemem.audit"]
    assert [(r["event"], r["deleted"], r["redacted"]) for r in records] == [("sweep", 5, 0)]
    assert "/memories" not in caplog.text


def test_nothing_to_sweep(mem: SecureMemory) -> None:
    fill(mem, 3)
    report = mem.sweep()
    assert (report.deleted, report.batches) == (0, 0) and len(rows(mem)) == 5
    assert re.fullmatch(SUMMARY.format(0, 0), report.summary())


def test_a_sweep_covers_every_namespace(mem: SecureMemory, clock: Clock) -> None:
    other = mem.in_namespace("other")
    fill(mem, 2)
    fill(other, 3)
    clock.now = T0 + DAY
    assert mem.sweep().deleted == 7  # five files and the two directories they were in
    assert rows(other) == ["/memories"]


@pytest.mark.parametrize("batch", [0, -1])
def test_a_batch_is_at_least_one_entry(mem: SecureMemory, batch: int) -> None:
    # LIMIT 0 would never delete anything; a negative LIMIT means no limit at all in SQLite.
    with pytest.raises(ValueError, match="batch must be a positive number of entries"):
        mem.sweep(batch=batch)
    with pytest.raises(ValueError, match="batch must be a positive number of entries"):
        mem.sweeper(every=1, batch=batch)
    with pytest.raises(ValueError, match="every must be a positive number of seconds"):
        BackgroundSweeper(mem.store, every=0)


# ---------------------------------------------------------------- the background sweeper


def test_the_background_sweeper_deletes_as_time_passes(mem: SecureMemory, clock: Clock) -> None:
    fill(mem, 3)
    with mem.sweeper(every=0.005, batch=2) as sweeper:
        wait_for(lambda: sweeper.runs >= 3)
        assert sweeper.total_deleted == 0  # nothing has expired yet
        clock.now = T0 + DAY
        wait_for(lambda: sweeper.total_deleted == 4)
        thread = sweeper._thread
    assert thread is not None and not thread.is_alive()
    assert rows(mem) == ["/memories"]


def test_the_background_sweeper_starts_and_stops_by_hand(mem: SecureMemory, clock: Clock) -> None:
    sweeper = mem.sweeper(every=0.005)
    assert sweeper.start() is sweeper
    wait_for(lambda: sweeper.runs >= 1)
    sweeper.stop(timeout=10)
    runs = sweeper.runs
    fill(mem, 2)
    clock.now = T0 + DAY
    assert sweeper.runs == runs and len(rows(mem)) == 4  # stopped: nothing more happens
    sweeper.start()
    wait_for(lambda: sweeper.total_deleted == 3)
    sweeper.stop(timeout=10)


# ---------------------------------------------------------------- next to a writer in another process


def _writer(db: str, key_hex: str, policy: str, count: str) -> None:
    """Create files that are already expired and files that are not, and keep editing one file."""
    clock = Clock(time.time())
    with SecureMemory.open(db, key=bytes.fromhex(key_hex), policy=policy, clock=clock) as mem:
        clock.now = time.time()
        ok(mem, command="create", path="/memories/live/log.md", file_text="log\n")
        for i in range(int(count)):
            clock.now = time.time() - 2 * DAY  # expired the moment it is written: work for the sweeper
            ok(mem, command="create", path=f"/memories/old/{i:04}.md", file_text=f"old {i}\n" * 50)
            clock.now = time.time()
            ok(mem, command="create", path=f"/memories/live/{i:04}.md", file_text=f"live {i}\n")
            ok(mem, command="insert", path="/memories/live/log.md", insert_line=i + 1, insert_text=f"entry {i}")
            print(i, flush=True)


@pytest.mark.slow
def test_a_sweep_racing_a_writer_in_another_process(tmp_path: Path, key: bytes, policy: Path) -> None:
    db, count = tmp_path / "m.db", 150
    SecureMemory.open(db, key=key, policy=policy).close()
    writer = subprocess.Popen(
        child_argv(_writer, str(db), key.hex(), str(policy), str(count)),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deleted, batches_while_writing = 0, 0
    with SecureMemory.open(db, key=key, policy=policy) as mem:
        while writer.poll() is None:
            report = mem.sweep(batch=7)
            deleted += report.deleted
            batches_while_writing += report.batches
        out, err = writer.communicate(timeout=60)
        # A sweeper that takes the lock back to back can keep the writer's erasure checkpoint
        # waiting past its bound on a loaded machine: it says so and retries (never drops it), and
        # close() erases before the writer exits. Anything else on stderr is a failure.
        said = [line for line in err.splitlines() if "not yet erased after" not in line]
        assert (writer.returncode, said) == (0, []), err
        assert out.split() == [str(i) for i in range(count)]
        deleted += mem.sweep(batch=7).deleted
        everything = dump(mem, now=0.0)
    # Every old file, and /memories/old each time all its files had expired (the writer makes it again).
    assert deleted > count and batches_while_writing >= 3  # short transactions, between the writer's
    assert not [path for path in everything if path.startswith("/memories/old/")]
    for i in range(count):
        assert everything[f"/memories/live/{i:04}.md"] == (False, f"live {i}\n".encode(), 1)
    assert everything["/memories/live/log.md"][1] == ("log\n" + "".join(f"entry {i}\n" for i in range(count))).encode()


# ---------------------------------------------------------------- securemem sweep


@pytest.fixture
def keyed_store(tmp_path: Path, policy: Path) -> tuple[Path, Path]:
    """A store with its key file, holding 5 files that expired (in real time) and one that has not."""
    db, key_file = tmp_path / "cli.db", tmp_path / "cli.key"
    clock = Clock(time.time() - 2 * DAY)
    with SecureMemory.open(db, key=create_key_file(key_file), policy=policy, clock=clock) as memory:
        fill(memory, 5)
        clock.now = time.time()
        ok(memory, command="create", path="/memories/live.md", file_text="live\n")
    return db, key_file


@pytest.fixture
def restore_sigterm() -> Iterator[None]:
    """The sweep command installs a SIGTERM handler; give pytest its own back."""
    previous = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, previous)


@pytest.mark.usefixtures("restore_sigterm")
@pytest.mark.parametrize(("extra", "batches"), [((), 1), (("--batch", "2"), 3)])
def test_sweep_once_prints_one_summary_line(
    keyed_store: tuple[Path, Path], capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], batches: int
) -> None:
    db, key_file = keyed_store
    code, out, err = run_cli(capsys, "sweep", "--db", str(db), "--key-file", str(key_file), *extra)
    assert (code, err) == (0, "")
    # five files and their directory
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ " + SUMMARY.format(6, batches) + "\n", out)
    with SecureMemory.open(db, key=bytes.fromhex(key_file.read_text()), create=False) as memory:
        assert rows(memory) == ["/memories", "/memories/live.md"]


@pytest.mark.slow
def test_sweep_every_keeps_running_until_sigterm(keyed_store: tuple[Path, Path]) -> None:
    db, key_file = keyed_store
    sweeper = subprocess.Popen(
        [sys.executable, "-m", "securemem.cli", "sweep", "--db", str(db), "--key-file", str(key_file), "--every", "1s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        lines = read_lines(sweeper, 2, timeout=30)
        sweeper.send_signal(signal.SIGTERM)
        assert sweeper.wait(timeout=30) == 0
    finally:
        if sweeper.poll() is None:
            sweeper.kill()
            sweeper.wait(timeout=30)
    assert re.search(SUMMARY.format(6, 1) + "$", lines[0]) and re.search(SUMMARY.format(0, 0) + "$", lines[1])
    assert sweeper.stderr is not None and sweeper.stderr.read() == b""


def read_lines(process: subprocess.Popen[bytes], count: int, timeout: float) -> list[str]:
    """The first ``count`` lines a process prints, waiting at most ``timeout`` seconds in all."""
    assert process.stdout is not None
    fd, data, deadline = process.stdout.fileno(), b"", time.monotonic() + timeout
    while data.count(b"\n") < count:
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; got {data!r}"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 4096)
            assert chunk, f"the process ended early; got {data!r}"
            data += chunk
    return data.decode().splitlines()[:count]


FORMS = "'90s', '30m', '12h', '7d' or '2w'"


@pytest.mark.parametrize(
    ("every", "message"),
    [
        ("soon", f"'soon' is not a duration; write one like {FORMS}"),
        ("10", f"10 has no unit; write a duration like {FORMS}"),
        ("-5m", f"'-5m' is not a duration; write one like {FORMS}"),
        ("1 week", f"'1 week' is not a duration; write one like {FORMS}"),
    ],
)
def test_a_bad_interval_is_one_line_exit_2(
    keyed_store: tuple[Path, Path], capsys: pytest.CaptureFixture[str], every: str, message: str
) -> None:
    db, key_file = keyed_store
    assert run_cli(capsys, "sweep", "--db", str(db), "--key-file", str(key_file), f"--every={every}") == (
        2,
        "",
        f"securemem: error: --every: {message}\n",
    )


def test_a_zero_interval_is_refused_not_a_busy_loop(keyed_store: tuple[Path, Path]) -> None:
    # In a child process: were zero accepted, the sweeper would spin, and the timeout ends it.
    db, key_file = keyed_store
    done = subprocess.run(
        [sys.executable, "-m", "securemem.cli", "sweep", "--db", str(db), "--key-file", str(key_file), "--every", "0s"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    zero = f"securemem: error: --every: a duration must be above zero; write one like {FORMS}\n"
    assert (done.returncode, done.stdout, done.stderr) == (2, "", zero)


def test_sweeping_a_missing_store_creates_nothing(
    tmp_path: Path, keyed_store: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    code, out, err = run_cli(capsys, "sweep", "--db", str(missing), "--key-file", str(keyed_store[1]))
    assert (code, out) == (2, "") and err.startswith("securemem: error: no securemem store at") and err.count("\n") == 1
    assert not missing.exists()


def test_a_busy_batch_is_retried_not_raised() -> None:
    from securemem.errors import StoreBusyError
    from securemem.sweep import sweep as run_sweep

    class FlakyStore:
        def __init__(self) -> None:
            self.calls = 0
            self.left = 3

        def count_expired(self, now: float) -> int:
            return 3

        def sweep_batch(self, now: float, limit: int) -> int:
            self.calls += 1
            if self.calls <= 2:
                raise StoreBusyError("busy")
            done, self.left = self.left, 0
            return done

        def scrub_free_space(self) -> None:
            pass

    store = FlakyStore()
    report = run_sweep(store, 0.0, batch=10)  # type: ignore[arg-type]  # a fake with only what sweep calls
    assert (report.deleted, store.calls) == (3, 3)


def test_a_directory_goes_only_after_everything_below_it(mem: SecureMemory, clock: Clock) -> None:
    """Files first, then directories deepest first: a sweep cut anywhere never leaves a row whose
    directory is gone (a directory made again at that path would lose that row's share later)."""
    fill(mem, 5, prefix="/memories/d/e")
    clock.now = T0 + DAY
    assert mem.store.sweep_batch(clock.now, 2) == 2
    assert sorted(dump(mem, now=0.0))[:3] == ["/memories", "/memories/d", "/memories/d/e"]
    assert mem.store.sweep_batch(clock.now, 4) == 4  # the three other files, then e/ (deepest)
    assert sorted(dump(mem, now=0.0)) == ["/memories", "/memories/d"]
    assert mem.store.sweep_batch(clock.now, 4) == 1 and sorted(dump(mem, now=0.0)) == ["/memories"]
    assert dump(mem, now=0.0)["/memories"] == (True, None, 0)


def test_a_write_below_an_expired_directory_clears_its_leftovers_whole(mem: SecureMemory, clock: Clock) -> None:
    fill(mem, 5, prefix="/memories/d/e")
    clock.now = T0 + DAY
    assert mem.store.sweep_batch(clock.now, 2) == 2
    ok(mem, command="create", path="/memories/d/e/new.md", file_text="fresh\n")  # d/ and d/e/ made again
    assert mem.sweep().deleted == 0  # the expired rows under d/ went with the old d/, at once
    state = read_state(mem.store, now=clock.now)
    assert aggregate_errors(state) == [] and state.files == {"/memories/d/e/new.md": "fresh\n"}
