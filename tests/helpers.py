"""Helpers the test modules share: a clock and the store backends; commands that succeed, fail
or are refused; the store read and written directly (below every layer); policies; the CLI, the
audit log and child processes; and the reliability suites' whole-store state and forked workers.

Fixtures live in conftest.py. A module keeps a helper of its own only where it checks something
these do not, and its docstring says what.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.cli import main
from securemem.commands import Result
from securemem.memory import POLICY_CHECKED
from securemem.paths import ROOT, is_within
from securemem.policy import load_policy
from securemem.store.base import Entry, Store
from securemem.store.factory import open_store
from securemem.store.sqlcipher import SQLCipherStore
from tests.pg import PG

REPO = Path(__file__).parents[1]
T0 = 1_700_000_000.0  # where a test's Clock starts
DAY = 86_400.0


class Clock:
    """A clock that moves only when the test moves it: set ``now``, or ``at(offset)`` from T0."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def at(self, offset: float) -> None:
        """Move to ``offset`` seconds after T0."""
        self.now = T0 + offset


# Every Store backend, by name (conftest's ``store`` fixture runs over them): a new backend joins
# the store and command contracts here.
BACKENDS: dict[str, Callable[[Path], Store]] = {
    "memory": lambda _tmp: open_store("memory://"),
    "sqlcipher": lambda tmp: open_store(f"sqlcipher://{tmp / 'store.db'}", os.urandom(32)),
    "postgresql": lambda _tmp: PG.store(),  # a fresh schema of the session's database (tests/pg.py)
}


# -- commands ------------------------------------------------------------------------------------


def ok(mem: SecureMemory, **tool_input: Any) -> str:
    """The command succeeds and answers in text (not image blocks); its text."""
    result = mem.execute(tool_input)
    assert not result.is_error, result.content
    assert isinstance(result.content, str), "image blocks, not text"
    return result.content


def err(mem: SecureMemory, **tool_input: Any) -> str:
    """The command fails with a clean message; its text."""
    result = mem.execute(tool_input)
    assert result.is_error, result.content
    assert isinstance(result.content, str) and "Traceback" not in result.content
    return result.content


def refused(mem: SecureMemory, message: str, **tool_input: Any) -> None:
    """The command fails with exactly ``message`` and leaves the namespace as it was."""
    before = dump(mem)
    result = mem.execute(tool_input)
    assert (result.is_error, result.text) == (True, message)
    assert dump(mem) == before


def create(mem: SecureMemory, path: str, text: str = "x\n") -> str:
    """``create`` succeeds; its text."""
    return ok(mem, command="create", path=path, file_text=text)


def view(mem: SecureMemory, path: str, view_range: list[int] | None = None) -> str:
    """``view`` (with ``view_range`` if given) succeeds and answers in text; that text."""
    tool_input: dict[str, Any] = {"command": "view", "path": path}
    if view_range is not None:
        tool_input["view_range"] = view_range
    return ok(mem, **tool_input)


def pii_refusal(where: str, types: str, policy: str = "regulated") -> str:
    """The error for a write refused because ``where`` (a field) holds PII of ``types``."""
    return (
        f"Error: Nothing was written: {where} contains {types}, which the memory policy '{policy}' does not "
        "allow to be stored. Remove it, or refer to it without the value, and retry."
    )


# -- policies ------------------------------------------------------------------------------------


def write_policy(folder: Path, text: str, name: str = "p.toml") -> Path:
    """A policy file holding ``text``, in ``folder``."""
    path = folder / name
    path.write_text(text)
    return path


def seed(mem: SecureMemory, files: dict[str, str]) -> None:
    """Write files as an operator would: same store and namespace, under the default policy, so
    past any limit or read-only rule of the memory's own policy (its history settings kept: a
    history the memory's policy does not keep would count against its quota)."""
    policy = load_policy(None).model_copy(update={"history": mem.policy.history})
    operator = SecureMemory(mem.store, policy, namespace=mem.namespace, owns_store=False, _checked=POLICY_CHECKED)
    for path, text in files.items():
        ok(operator, command="create", path=path, file_text=text)


# -- reading and writing the store directly (below every layer) ------------------------------

# One entry of a namespace as a test sees it: (is_dir, content or None for a directory, lines).
EntryView = tuple[bool, bytes | None, int]


def dump(memory: SecureMemory, now: float | None = None) -> dict[str, EntryView]:
    """Every entry of the memory's namespace, hidden ones included, with file contents.

    Reads the store directly (not through view) so a test can tell that a failed command wrote
    nothing at all, even where a view would not show it. ``now`` defaults to the memory's clock.
    """
    at = memory.clock() if now is None else now
    with memory.store.transaction(memory.namespace, write=False, clock=lambda: at) as tx:
        root = tx.stat(ROOT)
        assert root is not None
        out: dict[str, EntryView] = {ROOT: (True, None, root.size)}
        for entry in tx.tree(ROOT, 1_000, lambda _name: False):
            found = None if entry.is_dir else tx.get(entry.path)
            out[entry.path] = (True, None, entry.size) if found is None else (False, found[1], entry.lines)
        return out


def stored(mem: SecureMemory, path: str, *, now: float | None = None) -> bytes:
    """The bytes the store holds for a file (not what a view shows), at ``now`` (the memory's clock
    by default)."""
    at = mem.clock() if now is None else now
    with mem.store.transaction(mem.namespace, write=False, clock=lambda: at) as tx:
        found = tx.get(path)
    assert found is not None and found[1] is not None, f"{path} is not a visible file"
    return found[1]


def stored_text(mem: SecureMemory, path: str) -> str:
    """What the store holds for a file, as text (see ``stored``)."""
    return stored(mem, path).decode()


def entry_of(mem: SecureMemory, path: str, *, now: float | None = None) -> Entry | None:
    """The entry as the store sees it at ``now`` (the memory's clock by default); None once expired."""
    at = mem.clock() if now is None else now
    with mem.store.transaction(mem.namespace, write=False, clock=lambda: at) as tx:
        return tx.stat(path)


def _store_and_namespace(into: SecureMemory | Store, namespace: str | None) -> tuple[Store, str]:
    if isinstance(into, SecureMemory):
        return into.store, into.namespace if namespace is None else namespace
    return into, "default" if namespace is None else namespace


def write_raw(
    into: SecureMemory | Store,
    path: str,
    data: bytes,
    *,
    namespace: str | None = None,
    lines: int | None = None,
    expires: float | None = None,
    now: float | None = None,
) -> None:
    """Write a file straight into the store, as another tool or an older version might have.

    ``into``: a memory (its store and namespace) or a store (namespace "default" unless given).
    ``lines``: what the store records as the file's line count; counted from ``data`` by default.
    """
    store, namespace = _store_and_namespace(into, namespace)
    at = time.time() if now is None else now
    count = lines if lines is not None else data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    with store.transaction(namespace, write=True, clock=lambda: at) as tx:
        found = tx.ancestry(path)
        tx.put_file(path, data, count, expires, found.entry)


def write_many(
    into: SecureMemory | Store,
    paths: list[str],
    data: bytes = b"x",
    *,
    namespace: str | None = None,
    expires: float | None = None,
    now: float | None = None,
) -> None:
    """Many small files in one transaction (fast set-up for big directories), written at ``now``.

    ``into`` as for ``write_raw``. To set up files that have expired already, write them at a
    ``now`` before their ``expires``: a write below a directory that has expired replaces it (and
    whatever it held).
    """
    store, namespace = _store_and_namespace(into, namespace)
    at = time.time() if now is None else now
    with store.transaction(namespace, write=True, clock=lambda: at) as tx:
        for path in paths:
            found = tx.ancestry(path)
            tx.put_file(path, data, 1, expires, found.entry)


# -- the SQLCipher backend's own parts (not on the Store protocol) -------------------------------


def sqlcipher_of(store: Store) -> SQLCipherStore:
    """``store`` as the SQLCipher backend it is: its meta, counters and internals are not on Store."""
    assert isinstance(store, SQLCipherStore), f"not a SQLCipher store: {type(store).__name__}"
    return store


def connection_of(store: Store) -> Any:
    """The open sqlcipher3 connection under a SQLCipher store (sqlcipher3 has no types: Any)."""
    conn = sqlcipher_of(store)._conn
    assert conn is not None, "the store is closed"
    return conn


def raw_edit(db: Path, key: bytes, sql: str, params: tuple[Any, ...] = ()) -> None:
    """A key holder's direct edit of the file, through the connection the store itself opens."""
    from securemem import Admin

    with Admin.open(db, key=key) as admin:
        conn = connection_of(admin.store)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(sql, params)
        conn.execute("COMMIT")


def sha256_of(path: Path) -> str:
    """The hex SHA-256 of a file's bytes: did the file change at all?"""
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- the CLI, the audit log, child processes -------------------------------------------------------


def require(available: bool, what: str) -> None:
    """Skip with one line when ``what`` is missing here; under CI (``CI`` set) fail instead.

    CI installs everything the tests need (.ci/run), so there a missing tool is a broken set-up,
    not a reason to pass quietly.
    """
    if available:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing, and CI is set: .ci/run should have installed it")
    pytest.skip(f"{what} is not installed")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``securemem ARGV`` in this process: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def init_store(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new store file made by ``securemem init`` (its key in DB.key), with no key in the environment."""
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = tmp_path / "m.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    return db


def audit_records(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    """The audit records caplog caught, parsed (set caplog's level for "securemem.audit" first)."""
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "securemem.audit"]


def child_argv(target: Callable[..., object], *args: str) -> list[str]:
    """The command line of a fresh interpreter that runs ``target(*args)``; run it with cwd=REPO.

    ``target`` must be a module-level function of an importable module (a test module will do).
    """
    code = f"import sys; from {target.__module__} import {target.__name__}; {target.__name__}(*sys.argv[1:])"
    return [sys.executable, "-c", code, *args]


# -- reliability: a store's whole state ----------------------------------------------------------


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


def read_state(store: Store, namespace: str = "default", *, now: float | None = None) -> State:
    """The namespace's whole content read straight from the store (hidden entries included)."""
    files: dict[str, str] = {}
    dirs: dict[str, tuple[int, int]] = {}
    at = time.time() if now is None else now
    with store.transaction(namespace, write=False, clock=lambda: at) as tx:
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


# -- reliability: forked workers -------------------------------------------------------------------
# Workers are forked ("fork" context) from the test process, which has already imported securemem:
# a fresh interpreter would spend most of each trial starting up. A forked child must never use a
# connection the parent opened (SQLite forbids carrying one across fork), so every caller closes
# its stores before forking and every child opens its own.

FORK = multiprocessing.get_context("fork")
WORKER_TIMEOUT = 120.0  # a bound on every wait for a child, never a performance assertion


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
    """``target(*args)`` in one forked child (see ``fork_all``); its return value."""
    return fork_all([(target, args)], workdir, timeout)[0]


def found(text: str) -> list[tuple[str, str]]:
    """Each PII finding in ``text`` as its type and the text it covers, in order."""
    from securemem.pii import detect

    return [(f.type, text[f.start : f.end]) for f in detect(text)]


def found_values(text: str) -> list[str]:
    """The text of each PII finding in ``text``, in order."""
    from securemem.pii import detect

    return [text[f.start : f.end] for f in detect(text)]
