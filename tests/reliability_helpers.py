"""Helpers shared by the reliability suites: a store's whole state, forked workers, clean results.

Workers are forked (``multiprocessing`` "fork" context) from the test process, which has already
imported securemem: a fresh interpreter would spend most of each trial starting up. A forked
child must never use a connection the parent opened (SQLite forbids carrying one across fork),
so every caller closes its stores before forking and every child opens its own.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from securemem.commands import Result
from securemem.paths import ROOT, is_within
from securemem.store.base import Store

FORK = multiprocessing.get_context("fork")
WORKER_TIMEOUT = 120.0  # a bound on every wait for a child, never a performance assertion


@dataclass(frozen=True)
class State:
    """Every file (path -> text) and directory (path -> (size, files) as the store counts them)."""

    files: dict[str, str]
    dirs: dict[str, tuple[int, int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"files": self.files, "dirs": {p: list(v) for p, v in self.dirs.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(dict(data["files"]), {p: (int(v[0]), int(v[1])) for p, v in data["dirs"].items()})

    @property
    def shape(self) -> tuple[dict[str, str], frozenset[str]]:
        """What two states must share to be the same: file texts and the set of directories."""
        return self.files, frozenset(self.dirs)


def read_state(store: Store, namespace: str = "default") -> State:
    """The namespace's whole content read straight from the store (hidden entries included)."""
    files: dict[str, str] = {}
    dirs: dict[str, tuple[int, int]] = {}
    with store.transaction(namespace, write=False, clock=time.time) as tx:
        root = tx.stat(ROOT)
        assert root is not None
        dirs[ROOT] = (root.size, root.files)
        for entry in tx.tree(ROOT, 10_000, lambda _name: False):
            if entry.is_dir:
                dirs[entry.path] = (entry.size, entry.files)
            else:
                found = tx.get(entry.path)
                assert found is not None and found[1] is not None
                files[entry.path] = found[1].decode("utf-8")
    return State(files, dirs)


def aggregate_errors(state: State) -> list[str]:
    """Directories whose stored totals (bytes, files) differ from the files really below them."""
    problems = []
    for directory, (size, count) in state.dirs.items():
        below = [text for path, text in state.files.items() if path != directory and is_within(path, directory)]
        want = (sum(len(text.encode("utf-8")) for text in below), len(below))
        if (size, count) != want:
            problems.append(f"{directory}: stored {(size, count)}, actual {want}")
    return problems


def check_clean(result: Result) -> str:
    """The text of a result, after checking it is something a model can be shown."""
    assert isinstance(result, Result), result
    text = result.text
    assert "Traceback" not in text and "internal error" not in text, text
    if result.is_error:
        assert "locked" not in text.lower(), text
    return text


# -- forked workers ------------------------------------------------------------------------------


def _run_child(target: Callable[..., Any], args: tuple[Any, ...], out: str) -> None:
    try:
        payload = {"ok": True, "value": target(*args)}
    except BaseException:  # report everything: the parent turns it into a test failure
        payload = {"ok": False, "error": traceback.format_exc()}
    Path(out).write_text(json.dumps(payload), encoding="utf-8")


Job = tuple[Callable[..., Any], tuple[Any, ...]]


def fork_all(jobs: Iterable[Job], workdir: Path, timeout: float = WORKER_TIMEOUT) -> list[Any]:
    """Run each ``(target, args)`` in its own forked child, all at once; their return values, in order.

    Return values travel as JSON through a file per child. A child still running after ``timeout``
    is killed and the call fails: every wait is bounded.
    """
    procs = []
    for n, (target, args) in enumerate(jobs):
        out = workdir / f"worker-{os.getpid()}-{n}.json"
        out.unlink(missing_ok=True)
        proc = FORK.Process(target=_run_child, args=(target, args, str(out)), daemon=True)
        proc.start()
        procs.append((proc, out))
    deadline = time.monotonic() + timeout
    for proc, _ in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
    hung = [proc for proc, _ in procs if proc.is_alive()]
    for proc in hung:
        proc.kill()
        proc.join(10)
    assert not hung, f"{len(hung)} worker(s) still running after {timeout}s"
    values = []
    for proc, out in procs:
        assert out.exists(), f"worker {proc.pid} died without a result (exit code {proc.exitcode})"
        payload = json.loads(out.read_text(encoding="utf-8"))
        assert payload["ok"], payload["error"]
        values.append(payload["value"])
    return values


def fork_one(target: Callable[..., Any], *args: Any, workdir: Path, timeout: float = WORKER_TIMEOUT) -> Any:
    return fork_all([(target, args)], workdir, timeout)[0]
