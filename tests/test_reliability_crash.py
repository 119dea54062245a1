"""Crash safety: a writer killed with SIGKILL at random moments never leaves a partial state.

Each trial forks one writer from this process (which has already imported securemem, so a trial
costs milliseconds, not an interpreter start-up). The writer reopens the store, which runs WAL
recovery after the previous kill, checks its integrity, reports the state it found, signals that
it is ready, and then runs a stream of commands (create, str_replace, insert, rename, delete,
view, and some that must fail) until it is killed 0-50 ms later.

Before each command the writer logs what the command will change if it succeeds; after it, that
it completed. The log is a plain file written with ``os.write``: once write() returns the kernel
holds the bytes, and SIGKILL kills the process, not the kernel, so nothing logged is lost. (fsync
only matters for power loss, which SIGKILL does not simulate.)

The parent accepts the state the next writer finds only if it is the state after the last
completed command or, for the command in flight, the state after it. The store is reused across
all trials, so state and WAL frames accumulate; every tenth trial the parent also checks the store
itself, redacts the history's old texts (so the file does not grow with every version the writers
kept) and checkpoints the WAL when it closes, and every tenth trial the kill does not wait for
the writer to be ready, so it can land during WAL recovery. Odd trials give the writer a tiny page
cache, so big transactions spill uncommitted frames into the WAL before they commit.
Reproduce a run with SECUREMEM_CRASH_SEED (and SECUREMEM_CRASH_TRIALS for a longer one).
"""

from __future__ import annotations

import json
import os
import random
import select
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.keys import RawKey
from securemem.paths import ROOT, ancestors, is_within
from securemem.policy import load_policy
from securemem.store.sqlcipher import SQLCipherStore
from tests.helpers import FORK, State, aggregate_errors, check_clean, connection_of, read_state

SEED = int(os.environ.get("SECUREMEM_CRASH_SEED", random.randrange(2**32)))
TRIALS = int(os.environ.get("SECUREMEM_CRASH_TRIALS", "200"))
MAX_DELAY = 0.050  # the kill lands 0-50 ms after the writer is ready
MAX_COMMANDS = 5_000  # a writer that is never killed stops by itself
READY_TIMEOUT = 60.0  # a bound on the wait for a writer to reopen the store, not a performance claim
POOL_DIRS = ("/memories/a", "/memories/a/x", "/memories/b", "/memories/c/d/e")
MAX_FILES, MAX_BYTES = 40, 600_000

# What a command changes if it succeeds: files and directories removed first, then the ones set.
Delta = dict[str, Any]
Model = tuple[dict[str, str], set[str]]  # files (path -> text), directories (root included)


def apply_delta(files: dict[str, str], dirs: set[str], delta: Delta) -> Model:
    files = {p: t for p, t in files.items() if p not in set(delta.get("del", ()))}
    dirs = dirs - set(delta.get("rmdir", ()))
    files.update(delta.get("set", {}))
    return files, dirs | set(delta.get("mkdir", ()))


class Plan:
    """The writer's picture of the store, and a random next command with its expected effect."""

    def __init__(self, state: State, rng: random.Random, tag: str) -> None:
        self.files, self.dirs = dict(state.files), set(state.dirs)
        self.rng, self.tag, self.count = rng, tag, 0

    def uid(self) -> str:
        self.count += 1
        return f"{self.tag}.{self.count}"

    def line(self) -> str:
        # A unique token starts every line, so an old_str of one whole line matches exactly once.
        return f"<{self.uid()}>{'x' * self.rng.choice([0, 10, 60, 60, 200])}\n"

    def text(self) -> str:
        # 1,500 lines (about 100 KB) outgrow the small page cache of odd trials: see _writer.
        return "".join(self.line() for _ in range(self.rng.choice([1, 3, 8, 40, 40, 200, 200, 1_500])))

    def apply(self, delta: Delta) -> None:
        self.files, self.dirs = apply_delta(self.files, self.dirs, delta)

    def next(self) -> tuple[dict[str, Any], bool, Delta]:
        size = sum(len(t) for t in self.files.values())
        if len(self.files) < 6:
            return self.create()
        if len(self.files) > MAX_FILES or size > MAX_BYTES:
            return self.rng.choice([self.delete_file, self.delete_file, self.delete_dir])()
        moves = (
            [self.create] * 15
            + [self.str_replace] * 25
            + [self.insert] * 20
            + [self.delete_file] * 10
            + [self.rename_file] * 10
            + [self.delete_dir] * 2
            + [self.rename_dir] * 3
            + [self.view] * 5
            + [self.failing] * 5
        )
        return self.rng.choice(moves)()

    def pick_file(self) -> tuple[str, list[str]]:
        path = self.rng.choice(sorted(self.files))
        return path, self.files[path].splitlines(keepends=True)

    def create(self) -> tuple[dict[str, Any], bool, Delta]:
        path = f"{self.rng.choice(sorted(self.dirs | set(POOL_DIRS)))}/f-{self.uid()}.md"
        text = self.text()
        return (
            {"command": "create", "path": path, "file_text": text},
            True,
            {"set": {path: text}, "mkdir": ancestors(path)},
        )

    def str_replace(self) -> tuple[dict[str, Any], bool, Delta]:
        path, lines = self.pick_file()
        at = self.rng.randrange(len(lines))
        new = "".join(self.line() for _ in range(self.rng.choice([0, 1, 1, 2]) or (len(lines) == 1)))
        tool_input = {"command": "str_replace", "path": path, "old_str": lines[at]}
        if new or self.rng.random() < 0.5:  # new_str is optional: missing means delete old_str
            tool_input["new_str"] = new
        return tool_input, True, {"set": {path: "".join(lines[:at]) + new + "".join(lines[at + 1 :])}}

    def insert(self) -> tuple[dict[str, Any], bool, Delta]:
        path, lines = self.pick_file()
        at, line = self.rng.randint(0, len(lines)), self.line()
        text = line if self.rng.random() < 0.5 else line[:-1]  # the file ends in LF: same result
        return (
            {"command": "insert", "path": path, "insert_line": at, "insert_text": text},
            True,
            {"set": {path: "".join([*lines[:at], line, *lines[at:]])}},
        )

    def delete_file(self) -> tuple[dict[str, Any], bool, Delta]:
        path, _ = self.pick_file()
        return {"command": "delete", "path": path}, True, {"del": [path]}

    def rename_file(self) -> tuple[dict[str, Any], bool, Delta]:
        path, _ = self.pick_file()
        new = f"{self.rng.choice(sorted(self.dirs | set(POOL_DIRS)))}/f-{self.uid()}.md"
        return (
            {"command": "rename", "old_path": path, "new_path": new},
            True,
            {"del": [path], "set": {new: self.files[path]}, "mkdir": ancestors(new)},
        )

    def delete_dir(self) -> tuple[dict[str, Any], bool, Delta]:
        candidates = sorted(self.dirs - {ROOT})
        if not candidates:
            return self.delete_file()
        gone = self.rng.choice(candidates)
        return (
            {"command": "delete", "path": gone},
            True,
            {
                "del": [p for p in self.files if is_within(p, gone)],
                "rmdir": [d for d in self.dirs if is_within(d, gone)],
            },
        )

    def rename_dir(self) -> tuple[dict[str, Any], bool, Delta]:
        candidates = sorted(self.dirs - {ROOT})
        if not candidates:
            return self.rename_file()
        old = self.rng.choice(candidates)
        parent = self.rng.choice(sorted(p for p in self.dirs | set(POOL_DIRS) if not is_within(p, old)))
        new = f"{parent}/d-{self.uid()}"

        def moved(path: str) -> str:
            return new + path[len(old) :]

        return (
            {"command": "rename", "old_path": old, "new_path": new},
            True,
            {
                "del": [p for p in self.files if is_within(p, old)],
                "rmdir": [d for d in self.dirs if is_within(d, old)],
                "set": {moved(p): t for p, t in self.files.items() if is_within(p, old)},
                "mkdir": [*ancestors(new), *(moved(d) for d in self.dirs if is_within(d, old))],
            },
        )

    def view(self) -> tuple[dict[str, Any], bool, Delta]:
        path, lines = self.pick_file()
        if self.rng.random() < 0.3:
            return {"command": "view", "path": self.rng.choice(sorted(self.dirs))}, True, {}
        return {"command": "view", "path": path, "view_range": [1, self.rng.choice([-1, len(lines)])]}, True, {}

    def failing(self) -> tuple[dict[str, Any], bool, Delta]:
        path, lines = self.pick_file()
        other = self.rng.choice(sorted(self.files))
        return (
            self.rng.choice(
                [
                    {"command": "str_replace", "path": path, "old_str": "<absent>", "new_str": "x"},
                    {"command": "create", "path": path, "file_text": "overwrite?\n"},
                    {"command": "rename", "old_path": other, "new_path": path},
                    {"command": "insert", "path": path, "insert_line": len(lines) + 1, "insert_text": "x"},
                ]
            ),
            False,
            {},
        )


# -- the writer (runs in the forked child) ---------------------------------------------------------


def _writer(db: str, key: bytes, seed: int, trial: int, log_path: str, ready_fd: int) -> None:
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def log(record: dict[str, Any]) -> None:
        os.write(fd, (json.dumps(record) + "\n").encode("utf-8"))

    store = SQLCipherStore.open(db, RawKey(key), create=False)
    if trial % 2:
        # A 64 KB page cache: big transactions spill uncommitted frames into the WAL before their
        # commit, and recovery after the kill must ignore them.
        connection_of(store).execute("PRAGMA cache_size = 16")
    memory = SecureMemory(store, load_policy(None))
    integrity = store.integrity_errors()
    state = read_state(store)
    log({"t": "S", "integrity": integrity, "state": state.as_json()})
    plan = Plan(state, random.Random(f"{seed}-{trial}"), f"t{trial}")
    os.write(ready_fd, b"R")
    for _ in range(MAX_COMMANDS):
        tool_input, expect_ok, delta = plan.next()
        log({"t": "B", "input": tool_input, "delta": delta})
        result = memory.execute(tool_input)
        if result.is_error == expect_ok or "Traceback" in result.text:
            log({"t": "X", "input": tool_input, "result": result.text})
            return
        log({"t": "D"})
        plan.apply(delta)


# -- the parent -------------------------------------------------------------------------------------


def _records(log: Path) -> list[dict[str, Any]]:
    """The log's complete lines. A line cut short by the kill is dropped: if it was a "D", its
    command counts as in flight, which allows both outcomes, so the check only gets weaker."""
    data = log.read_bytes()
    return [json.loads(line) for line in data[: data.rfind(b"\n") + 1].splitlines()]


def _short(value: object, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _diff(found: State, models: list[Model]) -> str:
    lines = [f"found {len(found.files)} files, {len(found.dirs)} dirs"]
    for files, dirs in models:
        lines.append(
            f"  vs model: missing {sorted(set(files) - set(found.files))[:5]}, extra "
            f"{sorted(set(found.files) - set(files))[:5]}, changed "
            f"{sorted(p for p in files if p in found.files and files[p] != found.files[p])[:5]}, "
            f"dirs missing {sorted(dirs - set(found.dirs))[:5]} extra {sorted(set(found.dirs) - dirs)[:5]}"
        )
    return "\n".join(lines)


def check_found(found: State, integrity: list[str], acceptable: list[Model], where: str) -> int:
    """Index in ``acceptable`` of the state found after a kill; fails the test if it is none."""
    assert integrity == [], f"{where}: integrity check failed: {integrity}"
    assert aggregate_errors(found) == [], f"{where}: directory totals wrong: {aggregate_errors(found)}"
    for index, (files, dirs) in enumerate(acceptable):
        if found.files == files and set(found.dirs) == dirs:
            return index
    raise AssertionError(f"{where}: the store holds a state no command sequence produced\n{_diff(found, acceptable)}")


def replay(records: list[dict[str, Any]], start: Model, where: str) -> tuple[list[Model], Counter[str]]:
    """The states a trial may have left: after its last completed command, and after the one in flight."""
    stats: Counter[str] = Counter()
    files, dirs = start
    in_flight: Delta | None = None
    for record in records:
        assert record["t"] != "X", f"{where}: unexpected result for {_short(record['input'])}: {record['result']}"
        if record["t"] == "B":
            in_flight = record["delta"]
        elif record["t"] == "D":
            assert in_flight is not None
            files, dirs = apply_delta(files, dirs, in_flight)
            stats["completed"] += 1
            in_flight = None
    acceptable = [(files, dirs)]
    if in_flight:  # an empty delta (a view, an expected failure) leaves one possible state
        acceptable.append(apply_delta(files, dirs, in_flight))
        stats["killed mid-write"] += 1
    return acceptable, stats


def _run_trial(db: Path, key: bytes, seed: int, trial: int, rng: random.Random, log: Path) -> list[dict[str, Any]]:
    """Fork a writer, kill it, return its log. Every tenth trial the kill does not wait for the
    writer to be ready: it may land while the store is being opened (WAL recovery) or checked."""
    early = trial % 10 == 5
    ready_r, ready_w = os.pipe()
    proc = FORK.Process(target=_writer, args=(str(db), key, seed, trial, str(log), ready_w), daemon=True)
    proc.start()
    os.close(ready_w)
    try:
        if early:
            time.sleep(rng.uniform(0, MAX_DELAY / 2))
            ready = True
        else:
            readable, _, _ = select.select([ready_r], [], [], READY_TIMEOUT)
            ready = bool(readable) and os.read(ready_r, 1) == b"R"
            if ready:
                time.sleep(rng.uniform(0, MAX_DELAY))
    finally:
        os.close(ready_r)
        proc.kill()
        proc.join(30)
    records = _records(log) if log.exists() else []
    assert ready, f"trial {trial}: the writer never became ready (exit {proc.exitcode}); log: {records[:1]}"
    assert not proc.is_alive(), f"trial {trial}: the writer survived SIGKILL"
    return records


# The trials run as two halves, each on its own store with its own seed (SEED, SEED + 1), so that
# two test workers share them: the same 200 kills, half the wall time.
@pytest.mark.parametrize("half", [0, 1])
@pytest.mark.slow
def test_sigkill_at_random_moments_never_leaves_a_partial_state(tmp_path: Path, key: bytes, half: int) -> None:
    seed, trials = SEED + half, TRIALS // 2 + (TRIALS % 2 if half == 0 else 0)
    db = tmp_path / "crash.db"
    with SecureMemory.open(db, key=key) as memory:
        for n, directory in enumerate(POOL_DIRS):
            check_clean(
                memory.execute({"command": "create", "path": f"{directory}/seed-{n}.md", "file_text": f"<seed.{n}>\n"})
            )
        start = read_state(memory.store)
    acceptable: list[Model] = [(start.files, set(start.dirs))]
    rng, stats = random.Random(seed), Counter[str]()
    for trial in range(trials):
        where = f"SECUREMEM_CRASH_SEED={SEED} half {half}, trial {trial}"
        records = _run_trial(db, key, seed, trial, rng, tmp_path / f"trial-{trial}.log")
        if not records:  # killed before it had read the store: nothing changed
            stats["killed while opening"] += 1
            continue
        assert records[0]["t"] == "S", f"{where}: no state report"
        found = State.from_json(records[0]["state"])
        stats[f"found state #{check_found(found, records[0]['integrity'], acceptable, where)}"] += 1
        acceptable, trial_stats = replay(records[1:], (found.files, set(found.dirs)), where)
        stats.update(trial_stats)
        if trial % 10 == 9:  # the parent checks too, and its close checkpoints the WAL
            store = SQLCipherStore.open(db, RawKey(key), create=False)
            try:
                here = read_state(store)
                index = check_found(here, store.integrity_errors(), acceptable, f"{where} (parent)")
                # The history keeps every text the writers replaced; redacting it here keeps the
                # file near the size of the live state instead of growing trial after trial (each
                # writer's open and integrity check read the whole file). The writers still keep
                # content in their versions until the next check.
                now = time.time()
                store.expire_history(now, now + 1, 1_000_000)
            finally:
                store.close()
            acceptable = [acceptable[index]]
    with SecureMemory.open(db, key=key, create=False) as memory:
        check_found(read_state(memory.store), memory.store.integrity_errors(), acceptable, "final")
        assert not memory.execute({"command": "create", "path": "/memories/after.md", "file_text": "ok\n"}).is_error
        assert "after.md" in check_clean(memory.execute({"command": "view", "path": "/memories"}))
        assert memory.store.integrity_errors() == []
    print(f"crash suite: SECUREMEM_CRASH_SEED={SEED} half {half}, {trials} trials, {dict(stats)}")
    # Not a timing claim: the kill can only test atomicity if commands were running when it landed.
    assert stats["completed"] > trials and stats["killed mid-write"] > 0, dict(stats)
