"""Concurrency: processes editing one store lose no update, never beat a quota, never see a lock.

Every edit is a read-modify-write (str_replace and insert read the file, change it and write it
back), so without BEGIN IMMEDIATE two processes would read the same text and one edit would
silently vanish, or one would fail at once with "database is locked". Workers are forked from
this process (see ``helpers.fork_all``); each opens its own connection. Commits keep the
shipped durability (synchronous = FULL, an fsync per commit).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.policy import HistorySettings, Policy, QuotaSettings
from tests.helpers import Job, aggregate_errors, check_clean, fork_all, read_state
from tests.pg import PG

# Every test here races several processes through hundreds of commits: several seconds each.
pytestmark = pytest.mark.slow

WORKERS, EDITS = 4, 500


@dataclass(frozen=True)
class Target:
    """Where the workers meet, and how much each does there."""

    db: str
    edits: int  # per editor
    attempts: int  # per quota racer: twice what fits, in all
    fit: int


@pytest.fixture(params=["sqlcipher", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Target:
    """One SQLCipher file, or one PostgreSQL schema (several processes, one server). The server's
    round trips make each edit slower, so its races are shorter: still hundreds of overlapping
    read-modify-writes, which is what a lost update or a beaten quota needs to show."""
    if request.param == "sqlcipher":
        return Target(str(tmp_path / "c.db"), EDITS, ATTEMPTS, FIT)
    return Target(PG.fresh_url(), 100, 40, 80)


SHARED = "/memories/shared.md"
TAG = re.compile(r"W\d+-\d+")
TOTAL = re.compile(r"the file has (\d+) lines")


def _editor(db: str, key: bytes, worker: int, own_file: bool, edits: int) -> list[str]:
    """EDITS read-modify-write edits, each adding the line ``W<worker>-<step>``; the errors it got."""
    errors = []
    path = f"/memories/w{worker}.md" if own_file else SHARED
    with SecureMemory.open(db, key=key, create=False) as memory:
        for step in range(edits):
            tag = f"W{worker}-{step}"
            if step % 2:
                # Line 0 is always valid in the shared file; a worker knows the length of its own.
                tool_input: dict[str, Any] = {
                    "command": "insert",
                    "path": path,
                    "insert_text": tag,
                    "insert_line": step + 1 if own_file else 0,
                }
            else:
                tool_input = {"command": "str_replace", "path": path, "old_str": "HEAD\n", "new_str": f"HEAD\n{tag}\n"}
            result = memory.execute(tool_input)
            check_clean(result)
            if result.is_error:
                errors.append(result.text)
    return errors


def _reader(db: str, key: bytes, views: int) -> list[str]:
    """Views of the shared file during the edits: each a consistent snapshot, never older than the last."""
    problems, last = [], 0
    with SecureMemory.open(db, key=key, create=False) as memory:
        for _ in range(views):
            result = memory.execute({"command": "view", "path": SHARED})
            text = check_clean(result)
            tags = TAG.findall(text)
            noted = TOTAL.search(text)  # long views are cut and say how many lines the file has
            total = int(noted.group(1)) if noted else text.count("\n")
            if result.is_error or len(tags) != len(set(tags)) or total < last:
                problems.append(text[:300])
            last = total
    return problems


def _tags_in(text: str) -> Counter[str]:
    return Counter(TAG.findall(text))


@pytest.mark.parametrize("own_files", [False, True], ids=["same-file", "different-files"])
def test_four_processes_lose_no_edit_and_never_see_a_lock(
    tmp_path: Path, key: bytes, own_files: bool, target: Target
) -> None:
    db, edits = target.db, target.edits
    paths = [f"/memories/w{n}.md" for n in range(WORKERS)] if own_files else [SHARED]
    with SecureMemory.open(db, key=key) as memory:
        for path in paths:
            check_clean(memory.execute({"command": "create", "path": path, "file_text": "HEAD\n"}))
    jobs: list[Job] = [(_editor, (str(db), key, n, own_files, edits)) for n in range(WORKERS)]
    if not own_files:
        jobs.append((_reader, (str(db), key, 150)))
    results = fork_all(jobs, tmp_path)
    errors = [error for worker_errors in results[:WORKERS] for error in worker_errors]
    # With BEGIN IMMEDIATE and the busy timeout, no edit fails at all; any failure is counted here.
    assert errors == [], f"{len(errors)} of {WORKERS * edits} edits failed, e.g. {errors[:3]}"
    assert results[WORKERS:] in ([], [[]]), f"inconsistent views: {results[WORKERS:]}"
    with SecureMemory.open(db, key=key, create=False) as memory:
        assert memory.store.integrity_errors() == []
        state = read_state(memory.store)
    assert aggregate_errors(state) == []
    found: Counter[str] = Counter()
    for path in paths:
        text = state.files[path]
        found.update(_tags_in(text))
        assert text.count("HEAD\n") == 1 and text.count("\n") == 1 + edits * (1 if own_files else WORKERS)
    expected = Counter(f"W{n}-{step}" for n in range(WORKERS) for step in range(edits))
    assert found == expected, f"lost: {sorted(expected - found)[:10]}, duplicated: {sorted(found - expected)[:10]}"


# -- quotas under a race ---------------------------------------------------------------------------

UNIT = 100  # every successful write in the race stores exactly this many bytes (and one file, if a create)
ATTEMPTS = 150  # per worker: 600 in all, twice what fits
FIT = 300


def _racer(db: str, key: bytes, worker: int, policy: Policy, kind: str, attempts: int) -> dict[str, Any]:
    """UNIT-byte writes until the attempts run out: new files, and (bytes race) lines added to one file."""
    successes, errors = 0, []
    line = "x" * (UNIT - 1)
    with SecureMemory.open(db, key=key, policy=policy, create=False) as memory:
        for step in range(attempts):
            if kind == "max_files" or step % 2:
                path = f"/memories/r{worker}-{step:03}.md"  # a quota counts path text too: all the same length
                tool_input: dict[str, Any] = {
                    "command": "create",
                    "path": path,
                    "file_text": "x" * (UNIT - len(path) - 1) + "\n",
                }
            else:
                tool_input = {"command": "insert", "path": SHARED, "insert_line": 0, "insert_text": line}
            result = memory.execute(tool_input)
            check_clean(result)
            if result.is_error:
                errors.append(result.text)
            else:
                successes += 1
    return {"successes": successes, "errors": errors}


@pytest.mark.parametrize("kind", ["max_total_bytes", "max_files"])
def test_racing_processes_never_beat_a_quota(tmp_path: Path, key: bytes, kind: str, target: Target) -> None:
    db, attempts, fit = target.db, target.attempts, target.fit
    start = "HEAD\n"
    limits = (
        {"max_total_bytes": len(SHARED) + len(start) + fit * UNIT + UNIT // 2}
        if kind == "max_total_bytes"
        else {"max_files": 1 + fit}
    )
    policy = Policy(name="race", quota=QuotaSettings(**limits), history=HistorySettings(versions=False))
    with SecureMemory.open(db, key=key, policy=policy) as memory:
        check_clean(memory.execute({"command": "create", "path": SHARED, "file_text": start}))
    results = fork_all([(_racer, (str(db), key, n, policy, kind, attempts)) for n in range(WORKERS)], tmp_path)
    successes = sum(r["successes"] for r in results)
    errors = [error for r in results for error in r["errors"]]
    # Every write either fitted or was refused with the quota's own message: no lock error, no other
    # failure. Nothing is ever deleted, so once full the store stays full and exactly FIT writes
    # succeed: not one more (two checks raced), and not one fewer.
    assert all(error.startswith("Error: Quota exceeded") for error in errors), Counter(errors).most_common(3)
    assert (successes, len(errors)) == (fit, WORKERS * attempts - fit)
    with SecureMemory.open(db, key=key, policy=policy, create=False) as memory:
        state = read_state(memory.store)
        assert memory.store.integrity_errors() == [] and aggregate_errors(state) == []
        usage = sum(len(text.encode("utf-8")) + len(path.encode()) for path, text in state.files.items())
        if kind == "max_total_bytes":
            assert usage == len(SHARED) + len(start) + fit * UNIT <= limits["max_total_bytes"]
        else:
            assert len(state.files) == 1 + fit == limits["max_files"]
        refused = memory.execute({"command": "create", "path": "/memories/one-more.md", "file_text": "x" * UNIT})
        assert refused.is_error and refused.text.startswith("Error: Quota exceeded")


def _opener(db: str, key: bytes, start: float, worker: int) -> str:
    """Open a store that may not exist yet, at ``start`` (time.time()), and write one file; "ok" or the error."""
    while time.time() < start:
        pass
    try:
        with SecureMemory.open(db, key=key) as memory:
            result = memory.execute({"command": "create", "path": f"/memories/w{worker}.md", "file_text": "x\n"})
            return "ok" if not result.is_error else str(result.content)
    except Exception as exc:  # what a failed open raised, for the assertion to show
        return f"{type(exc).__name__}: {exc}"


def test_workers_opening_a_store_that_does_not_exist_yet_all_open_it(tmp_path: Path, key: bytes) -> None:
    # One creates the file; the others wait for its creation lock instead of reading an empty file,
    # or one with no schema yet, as "not a securemem store" (attacker A: 10 of 40 opens failed).
    for trial in range(5):
        db = tmp_path / f"new-{trial}.db"
        start = time.time() + 0.3
        answers = fork_all([(_opener, (str(db), key, start, n)) for n in range(4)], tmp_path)
        assert answers == ["ok"] * 4, answers
        with SecureMemory.open(db, key=key, create=False) as memory:
            listing = memory.execute({"command": "view", "path": "/memories"}).text
        assert all(f"w{n}.md" in listing for n in range(4)), listing
