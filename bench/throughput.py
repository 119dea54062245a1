"""Time per memory command: the SDK's filesystem tool, SecureMemory and the raw SQLCipher floor.

Run from the repository root:

    .venv/bin/python bench/throughput.py            # 2,000 files, 3 rounds (a few minutes)
    .venv/bin/python bench/throughput.py --smoke    # 60 files, 1 round (seconds)
    .venv/bin/python bench/throughput.py --think 1  # each command after 1 ms of idle disk, as in an agent

Workload per round, on a fresh store for every subject: create N ~1 KB note files in nested
directories (/memories/projP/topicT/noteI.md), N views, N str_replace, N inserts, L root listings,
N renames (into /memories/projP/archive/) and N deletes. The text has no PII, so the regulated
policy scrubs and refuses nothing but still scans every path and text.

Subjects, run phase by phase side by side, taking turns a block of 50 commands each within a phase
(the order rotates each round and reverses each block; every figure is the median of the rounds):
  floor                raw sqlcipher3, securemem's key form and PRAGMAs (WAL, synchronous=FULL,
                       secure_delete=ON), one table keyed by path, the minimal SQL per command in
                       BEGIN IMMEDIATE ... COMMIT (bench/floor.py): what no encrypted durable store beats.
  SDK                  anthropic's BetaLocalFilesystemMemoryTool, as shipped: create, str_replace and
                       insert fsync the file; rename and delete fsync nothing.
  SDK+dirsync          the same tool plus an fsync of each directory the command changed (NOT what the SDK
                       does: what "survives power loss", the durability securemem gives, would cost it).
  sm regulated/full    SecureMemory, shipped "regulated" policy (PII, quotas, expiry, rules), synchronous=FULL.
  sm default/full      SecureMemory, shipped "default" policy (no PII, quota or expiry layers).
  sm regulated/normal  "regulated" with storage.durability = "normal" (WAL, synchronous=NORMAL).
The regulated quotas (2,000 files, 16 MiB) hold the full workload as it is: no copy of the policy.

Erasure: securemem erases freed content within erase_within (1 s) with a background checkpoint;
the ones that ran during a phase are in its time, and the one still pending at the end of a phase
is run then (``store.flush_erasure()``), timed apart and added, spread over the phase's commands.
The floor does the same with one wal_checkpoint(TRUNCATE) after each phase that freed content.

Then, in a separate short pass with WAL auto-checkpoints off and erasure deferred to the end of
each phase: WAL frames (encrypted pages) appended and SQL statements run per command, floor and
securemem. Last, the fsync floor of the disk: what one fsync costs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floor import Floor
from harness import (
    machine,
    median,
    note_text,
    open_memory,
    policy_with,
    ratio,
    scratch_dir,
    table,
    timed,
    wal_frames,
)

Input = dict[str, Any]
COMMANDS = ("create", "view", "str_replace", "insert", "list root", "rename", "delete")
MUTATING = ("create", "str_replace", "insert", "rename", "delete")
# The targets: sm regulated/full against the SDK as shipped, speed-up (SDK ms / sm ms) at least.
TARGETS = {
    "create": 2.0,
    "view": 3.0,
    "str_replace": 2.0,
    "insert": 2.0,
    "list root": 5.0,
    "rename": 2.0,
    "delete": 1.0,
}
FLOOR, SDK, SM = "floor", "SDK", "sm regulated/full"
BLOCK = 50  # commands a subject runs in a row before the next one's turn


def path_of(i: int) -> str:
    return f"/memories/proj{i % 10}/topic{(i // 10) % 20}/note{i}.md"


def moved_of(i: int) -> str:
    return f"/memories/proj{i % 10}/archive/note{i}.md"


def listed_entries(files: int) -> int:
    """Entries a root listing (two levels below /memories) shows once the files exist."""
    shown: set[str] = set()
    for i in range(files):
        parts = path_of(i).split("/")  # "", "memories", projP, topicT, noteI.md
        shown.update("/".join(parts[: 3 + depth]) for depth in range(2))
    return len(shown)


def phases(files: int, listings: int) -> list[tuple[str, list[Input]]]:
    """Each phase's inputs, built before timing so that only the command is measured."""
    n = range(files)
    return [
        ("create", [{"command": "create", "path": path_of(i), "file_text": note_text(i)} for i in n]),
        ("view", [{"command": "view", "path": path_of(i)} for i in n]),
        (
            "str_replace",
            [
                {
                    "command": "str_replace",
                    "path": path_of(i),
                    "old_str": "Status: open",
                    "new_str": "Status: in review",
                }
                for i in n
            ],
        ),
        (
            "insert",
            [
                {
                    "command": "insert",
                    "path": path_of(i),
                    "insert_line": 3,
                    "insert_text": f"- Follow-up {i}: check the rollout with the platform team.\n",
                }
                for i in n
            ],
        ),
        ("list root", [{"command": "view", "path": "/memories"} for _ in range(listings)]),
        ("rename", [{"command": "rename", "old_path": path_of(i), "new_path": moved_of(i)} for i in n]),
        ("delete", [{"command": "delete", "path": moved_of(i)} for i in n]),
    ]


# -- subjects ---------------------------------------------------------------------------------


def _nothing() -> None:
    return None


@dataclass
class Runner:
    """One subject on one fresh store."""

    run: Callable[[Input], object]
    erase: Callable[[], None] = _nothing  # run the erasure still pending now (timed apart)
    close: Callable[[], None] = _nothing
    wal_frames: Callable[[], int] | None = None  # None: no WAL (the SDK)
    statements: Callable[[], int] | None = None  # SQL statements so far (counting mode only)
    page_size: int = 4096


@dataclass
class Subject:
    label: str
    # (store directory, counting) -> runner; counting: WAL auto-checkpoints off, erasure deferred
    # to erase(), SQL statements counted (the frames/statements pass; never timed).
    make: Callable[[Path, bool], Runner]


def floor_subject(list_limit: int) -> Callable[[Path, bool], Runner]:
    def make(where: Path, counting: bool) -> Runner:
        floor = Floor(where, list_limit, autocheckpoint=not counting)
        return Runner(floor.run, floor.erase, floor.close, floor.wal_frames, lambda: floor.statements, floor.page_size)

    return make


def sdk_subject(dirsync: bool) -> Callable[[Path, bool], Runner]:
    def make(where: Path, counting: bool) -> Runner:
        from anthropic.tools.memory import BetaLocalFilesystemMemoryTool

        tool = BetaLocalFilesystemMemoryTool(base_path=str(where))
        if not dirsync:
            return Runner(tool.call)
        base = where / "memories"

        def parent(memory_path: str) -> Path:
            return (base / memory_path[len("/memories/") :]).parent

        def run(inp: Input) -> object:
            out = tool.call(inp)
            if inp["command"] == "rename":
                dirs = {parent(inp["old_path"]), parent(inp["new_path"])}
            elif inp["command"] != "view":
                dirs = {parent(inp["path"])}
            else:
                dirs = set()
            for directory in dirs:
                fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            return out

        return Runner(run)

    return make


class CountingConnection:
    """The store's connection with every statement counted (BEGIN, COMMIT and PRAGMAs included)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.statements = 0

    def execute(self, *args: Any) -> Any:
        self.statements += 1
        return self._conn.execute(*args)

    def executemany(self, *args: Any) -> Any:
        self.statements += 1
        return self._conn.executemany(*args)

    def cursor(self) -> CountingCursor:
        return CountingCursor(self._conn.cursor(), self)  # the store runs BEGIN and COMMIT on one

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


class CountingCursor:
    """A cursor of the counted connection: its statements count there too."""

    def __init__(self, cursor: Any, counted: CountingConnection) -> None:
        self._cursor = cursor
        self._counted = counted

    def execute(self, *args: Any) -> Any:
        self._counted.statements += 1
        return self._cursor.execute(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


def securemem_subject(policy_name: str, durability: str) -> Callable[[Path, bool], Runner]:
    policy = policy_with(policy_name, durability=durability)

    def make(where: Path, counting: bool) -> Runner:
        mem = open_memory(where, policy)
        store: Any = mem.store  # the SQLCipher store (its connection is reached for counting only)

        def run(inp: Input) -> object:
            result = mem.execute(inp)
            if result.is_error:
                raise RuntimeError(f"{policy.name}: {inp['command']} failed: {result.text}")
            return result.text

        if not counting:
            return Runner(run, store.flush_erasure, mem.close)
        store.flush_erasure()  # the policy recorded at open leaves an erasure pending
        store.configure(durability=policy.storage.durability, erase_within=3600.0)
        conn = CountingConnection(store._conn)
        conn.execute("PRAGMA wal_autocheckpoint = 0").fetchall()
        store._conn = conn
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        conn.statements = 0
        wal = Path(f"{mem.store.path}-wal") if hasattr(mem.store, "path") else where / "store.db-wal"

        return Runner(run, store.flush_erasure, mem.close, lambda: wal_frames(wal), lambda: conn.statements, page_size)

    return make


def subjects(files: int) -> list[Subject]:
    out = [
        Subject(FLOOR, floor_subject(listed_entries(files))),
        Subject(SDK, sdk_subject(False)),
        Subject("SDK+dirsync", sdk_subject(True)),
    ]
    for label, name, durability in (
        (SM, "regulated", "full"),
        ("sm default/full", "default", "full"),
        ("sm regulated/normal", "regulated", "normal"),
    ):
        out.append(Subject(label, securemem_subject(name, durability)))
    return out


# -- running ----------------------------------------------------------------------------------


@dataclass
class Timings:
    """Per subject and command, one figure per round: seconds of the phase, and of its final erasure."""

    phase: dict[str, dict[str, list[float]]]
    erase: dict[str, dict[str, list[float]]]
    counts: dict[str, int]

    def ms(self, label: str, command: str, *, with_erasure: bool = True) -> float:
        """Median over rounds of ms per command (the final erasure spread over the phase)."""
        rounds = zip(self.phase[label][command], self.erase[label][command], strict=True)
        n = self.counts[command]
        return median([(p + (e if with_erasure else 0.0)) / n * 1e3 for p, e in rounds])

    def erase_ms(self, label: str, command: str) -> float:
        return median(self.erase[label][command]) * 1e3


def run_rounds(files: int, listings: int, rounds: int, base: str | None, think: float = 0.0) -> Timings:
    """``think``: seconds each subject sleeps before each command (not timed), as a model's turn
    leaves the disk idle between two commands of an agent; 0 runs them back to back."""
    subs = subjects(files)
    work = phases(files, listings)
    phase: dict[str, dict[str, list[float]]] = {s.label: {c: [] for c in COMMANDS} for s in subs}
    erase: dict[str, dict[str, list[float]]] = {s.label: {c: [] for c in COMMANDS} for s in subs}
    for r in range(rounds):
        order = subs[r % len(subs) :] + subs[: r % len(subs)]
        with ExitStack() as stack:
            runners = []
            for s in order:
                runner = s.make(stack.enter_context(scratch_dir(base, _slug(s.label))), False)
                stack.callback(runner.close)
                runners.append(runner)
            for command, inputs in work:
                # The subjects take turns, a block of commands each (the order reversed from one block
                # to the next): a shared machine's speed moves by half from one minute to the next, and
                # each subject should see the same machine.
                spent = dict.fromkeys((s.label for s in order), 0.0)
                for block, at in enumerate(range(0, len(inputs), BLOCK)):
                    turns = list(zip(order, runners, strict=True))
                    for subject, runner in turns if block % 2 == 0 else turns[::-1]:
                        block_inputs = inputs[at : at + BLOCK]
                        if think:
                            spent[subject.label] += _run_thinking(runner.run, block_inputs, think)
                        else:
                            spent[subject.label] += timed(partial(_run_all, runner.run, block_inputs))
                for subject, runner in zip(order, runners, strict=True):
                    phase[subject.label][command].append(spent[subject.label])
                    erase[subject.label][command].append(timed(runner.erase))
            print(f"  round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    return Timings(phase, erase, {command: len(inputs) for command, inputs in work})


def _run_all(run: Callable[[Input], object], inputs: list[Input]) -> None:
    for inp in inputs:
        run(inp)


def _run_thinking(run: Callable[[Input], object], inputs: list[Input], think: float) -> float:
    """Seconds spent in the commands alone, each one run after ``think`` seconds of sleep."""
    spent = 0.0
    for inp in inputs:
        time.sleep(think)
        started = time.perf_counter()
        run(inp)
        spent += time.perf_counter() - started
    return spent


def _slug(label: str) -> str:
    return label.replace(" ", "_").replace("/", "-")


@dataclass
class Costs:
    frames: dict[str, float]  # WAL frames appended per command
    statements: dict[str, float]  # SQL statements per command


def count_costs(subject: Subject, files: int, listings: int, base: str | None) -> Costs:
    """WAL frames and statements per command, on a fresh store with auto-checkpoints off."""
    frames: dict[str, float] = {}
    statements: dict[str, float] = {}
    with scratch_dir(base, f"costs-{_slug(subject.label)}") as where:
        runner = subject.make(where, True)
        assert runner.wal_frames is not None and runner.statements is not None
        try:
            for command, inputs in phases(files, listings):
                frames_before, stmts_before = runner.wal_frames(), runner.statements()
                _run_all(runner.run, inputs)
                frames_after, stmts_after = runner.wal_frames(), runner.statements()
                frames[command] = (frames_after - frames_before) / len(inputs)
                statements[command] = (stmts_after - stmts_before) / len(inputs)
                runner.erase()  # truncates the WAL: the next phase starts from an empty one
        finally:
            runner.close()
    return Costs(frames, statements)


# -- report -----------------------------------------------------------------------------------


def scan_ms(files: int, passes: int = 3) -> dict[str, float]:
    """What the regulated policy's PII scan of each command's input costs alone, in ms per command (the
    median of ``passes``): its text fields, the whole file an edit leaves (scanned again after the edit),
    and its paths, as the layer checks them (a path seen before, by an earlier command of the workload,
    comes from the layer's cache). No store with this scan can be faster than the floor plus this."""
    from securemem.middleware.pii import PIIScrub

    layer = PIIScrub(policy_with("regulated"), os.urandom(32))
    scrub = layer.scrubber.scrub

    def scan(inp: Input, i: int) -> None:
        for key in ("path", "old_path", "new_path"):
            if key in inp:
                layer._path_findings(inp[key])
        for key in ("file_text", "old_str", "new_str", "insert_text"):
            if key in inp:
                scrub(inp[key])
        if inp["command"] in ("str_replace", "insert"):
            scrub(note_text(i))  # the whole file, about as long as the note it was made from

    times: dict[str, list[float]] = {}
    for _ in range(passes):
        PIIScrub._path_findings.cache_clear()  # each pass runs the workload's commands in order, from cold
        for command, inputs in phases(files, 10):
            started = time.perf_counter()
            for i, inp in enumerate(inputs):
                scan(inp, i)
            times.setdefault(command, []).append((time.perf_counter() - started) / len(inputs) * 1e3)
    return {command: median(spent) for command, spent in times.items()}


def report(t: Timings, files: int, listings: int, rounds: int, scans: dict[str, float]) -> None:
    labels = list(t.phase)
    print(
        f"\nms per command, median of {rounds} round(s); {files:,} files of ~1 KB, {listings} root listings; "
        "erasure included"
    )
    rows = []
    for c in COMMANDS:
        rows.append(
            [
                c,
                t.counts[c],
                *[t.ms(label, c) if (label != "SDK+dirsync" or c in MUTATING) else None for label in labels],
            ]
        )
    print(table(["command", "ops", *labels], rows))
    print(
        "floor = raw SQLCipher, same key form and PRAGMAs, minimal SQL per command (bench/floor.py).\n"
        "SDK+dirsync = the SDK tool plus an fsync of each changed directory (not shipped): the cost of the "
        "durability\n  securemem's commits give. The SDK as shipped does not fsync rename/delete at all."
    )

    print(f"\n{SM} against the floor and the SDK as shipped (ms per command; speed-up = SDK ms / securemem ms)")
    rows = []
    for c in COMMANDS:
        floor, sm, sdk = t.ms(FLOOR, c), t.ms(SM, c), t.ms(SDK, c)
        target = TARGETS[c]
        speedup = sdk / sm if sm else float("nan")
        needed = sdk / target
        scan = scans[c]
        if speedup >= target:
            verdict = "met"
        elif floor > needed:
            verdict = "missed; out of reach (floor > needed)"
        elif floor + scan > needed:
            verdict = "missed; out of reach with this scan"
        else:
            verdict = "missed"
        rows.append(
            [
                c,
                floor,
                sm,
                f"{sm - floor:+.2f}",
                f"{100 * (sm - floor) / floor:+.0f}%" if floor else "-",
                scan,
                f"{sm - floor - scan:+.2f}",
                sdk,
                f"{speedup:.2f}x",
                f">= {target:g}x",
                needed,
                verdict,
            ]
        )
    print(
        table(
            [
                "command",
                "floor ms",
                "securemem ms",
                "over floor ms",
                "over floor",
                "PII scan ms",
                "over floor+scan ms",
                "SDK ms",
                "speed-up",
                "target",
                "needs ms <=",
                "verdict",
            ],
            rows,
            left=(0, 11),
        )
    )
    print(
        "needs ms <= : the securemem time the target asks for (SDK ms / target); the floor is one encrypted "
        "commit with\n  its fsync, so where it is above that figure no store with securemem's durability "
        "can meet the target.\nPII scan ms: the regulated policy's scan of the command's input alone (its "
        "text, the whole file an edit\n  leaves, its paths as the layer's cache has them; measured apart): "
        "where floor + scan is above the figure,\n  no store that scans with this scanner can meet it; over "
        "floor+scan: what securemem's store and layers\n  add beyond both."
    )
    print(
        f"\nthe erasure still pending at the end of each phase: run then, timed apart, and spread over the phase's "
        f"commands above\n(ms once per phase of {files:,} commands; the checkpoints that ran during the phase are "
        "in its time already)"
    )
    print(
        table(
            ["command", "securemem", "floor"],
            [[c, t.erase_ms(SM, c), t.erase_ms(FLOOR, c)] for c in MUTATING],
        )
    )

    print("\nspeed-up of each securemem variant (SDK ms / securemem ms)")
    rows = []
    for c in COMMANDS:
        rows.append(
            [
                c,
                ratio(t.ms(SDK, c), t.ms(SM, c)),
                ratio(t.ms("SDK+dirsync", c), t.ms(SM, c)) if c in MUTATING else "-",
                ratio(t.ms(SDK, c), t.ms("sm default/full", c)),
                ratio(t.ms(SDK, c), t.ms("sm regulated/normal", c)),
                ratio(t.ms(FLOOR, c), t.ms(SM, c)),
            ]
        )
    print(
        table(
            [
                "command",
                "reg/full vs SDK",
                "reg/full vs SDK+dirsync",
                "default/full vs SDK",
                "reg/normal vs SDK",
                "floor share of reg/full",
            ],
            rows,
        )
    )


def report_costs(costs: dict[str, Costs], files: int) -> None:
    labels = list(costs)
    print(
        f"\nWAL frames (encrypted pages) appended and SQL statements run per command; a separate pass of {files} "
        "files,\nWAL auto-checkpoints off, erasure at the end of each phase (statements: BEGIN and COMMIT "
        "included)"
    )
    rows = []
    for c in COMMANDS:
        rows.append(
            [c, *[costs[label].frames[c] for label in labels], *[costs[label].statements[c] for label in labels]]
        )
    print(table(["command", *[f"pages {label}" for label in labels], *[f"stmts {label}" for label in labels]], rows))
    print("a page is 4 KiB plus a 24-byte frame header; the COMMIT fsyncs them once (synchronous=FULL).")


def fsync_floor(base: str | None, reps: int) -> None:
    """What one fsync costs on this disk: no command that syncs once can beat 1/fsync per second."""
    with scratch_dir(base, "fsync-floor") as where:
        target = where / "wal"
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
        page = os.urandom(4096)
        try:
            os.pwrite(fd, page * 64, 0)
            os.fsync(fd)
            frames = page * 8  # what a create's commit writes (see the pages table), in one call

            def frames_sync(k: int) -> None:
                _write_sync(fd, frames, len(frames) * (k % 8), os.fsync)

            cases: dict[str, tuple[Callable[[int], None], Callable[[], None] | None]] = {
                "overwrite 4 KiB + fsync (a WAL commit, file size unchanged)": (
                    lambda k: _write_sync(fd, page, 4096 * (k % 64), os.fsync),
                    None,
                ),
                "overwrite 4 KiB + fdatasync": (lambda k: _write_sync(fd, page, 4096 * (k % 64), os.fdatasync), None),
                "append 4 KiB + fsync (a growing WAL)": (
                    lambda k: _write_sync(fd, page, 4096 * (64 + k), os.fsync),
                    None,
                ),
                "new 1 KiB file + fsync (the SDK's create)": (lambda k: _new_file(where / f"n{k}", page[:1024]), None),
                "overwrite 32 KiB + fsync, back to back": (frames_sync, None),
                "the same after 1 ms of CPU work (as between two commands)": (frames_sync, partial(_spin, 0.001)),
                "the same after 1 ms idle (as while a model thinks)": (frames_sync, partial(time.sleep, 0.001)),
            }
            rows = []
            for label, (fn, before) in cases.items():
                times = []
                for k in range(reps):
                    if before is not None:
                        before()  # not timed
                    started = time.perf_counter()
                    fn(k)
                    times.append(time.perf_counter() - started)
                rows.append([label, median(times) * 1e3, 1 / median(times)])
        finally:
            os.close(fd)
    print(f"\nfsync floor on this disk (median of {reps}): a command that fsyncs once cannot beat the ops/s shown")
    print(table(["operation", "ms", "ops/s ceiling"], rows))
    print(
        "A commit costs more when the disk was left alone a moment before: the floor above commits back to back,\n"
        "a command's commit comes after its own work (and an agent's after the model's turn)."
    )


def _spin(seconds: float) -> None:
    """Keep the CPU busy for ``seconds``, as a command's own work does between two commits."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _write_sync(fd: int, data: bytes, offset: int, sync: Callable[[int], None]) -> None:
    os.pwrite(fd, data, offset)
    sync(fd)


def _new_file(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=2000, help="files created (and viewed, edited, ...)")
    parser.add_argument("--listings", type=int, default=200, help="root listings")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, fresh stores each (the median is shown)")
    parser.add_argument("--cost-files", type=int, default=200, help="files in the WAL frames/statements pass")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument("--smoke", action="store_true", help="60 files, 10 listings, 1 round")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="MS",
        help="sleep MS milliseconds (untimed) before each command, as a model's turn does (default: back to back)",
    )
    options = parser.parse_args(argv)
    if options.smoke:
        options.files, options.listings, options.rounds, options.cost_files = 60, 10, 1, 20
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    print(machine())
    timings = run_rounds(options.files, options.listings, options.rounds, options.dir, options.think / 1000)
    if options.think:
        print(f"each command ran after {options.think:g} ms of sleep (not timed), as after a model's turn")
    report(timings, options.files, options.listings, options.rounds, scan_ms(options.files))
    counted = [s for s in subjects(options.cost_files) if s.label in (FLOOR, SM, "sm default/full")]
    costs = {s.label: count_costs(s, options.cost_files, 10, options.dir) for s in counted}
    report_costs(costs, options.cost_files)
    fsync_floor(options.dir, 20 if options.smoke else 300)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
