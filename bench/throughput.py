"""Throughput per memory command: the SDK's filesystem tool against SecureMemory, same workload.

Run from the repository root:

    .venv/bin/python bench/throughput.py            # 2,000 files, 3 rounds (a few minutes)
    .venv/bin/python bench/throughput.py --smoke    # 60 files, 1 round (seconds)

Workload per round, on a fresh store for every subject: create N ~1 KB note files in nested
directories (/memories/projP/topicT/noteI.md), N views, N str_replace, N inserts, L root listings,
N renames (into /memories/projP/archive/) and N deletes. The text has no PII, so the regulated
policy scrubs and refuses nothing but still scans every path and text.

Subjects, run phase by phase side by side (the order rotates each round; every figure is the median
of the rounds):
  SDK                  anthropic's BetaLocalFilesystemMemoryTool, as shipped: create, str_replace and
                       insert fsync the file; rename and delete fsync nothing.
  SDK+dirsync          the same tool plus an fsync of each directory the command changed (NOT what the SDK
                       does: what "survives power loss", the durability securemem gives, would cost it).
  sm regulated/full    SecureMemory, shipped "regulated" policy (PII, quotas, expiry, rules), synchronous=FULL.
  sm default/full      SecureMemory, shipped "default" policy (no PII, quota or expiry layers).
  sm regulated/normal  "regulated" with storage.durability = "normal" (WAL, synchronous=NORMAL).
The regulated quotas (2,000 files, 16 MiB) hold the full workload as it is: no copy of the policy.
Last, the fsync floor of the disk: what one fsync costs, so what no once-per-command fsync can beat.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import machine, median, note_text, open_memory, policy_with, ratio, scratch_dir, table, timed

from securemem import SecureMemory

Input = dict[str, Any]
COMMANDS = ("create", "view", "str_replace", "insert", "list root", "rename", "delete")
MUTATING = ("create", "str_replace", "insert", "rename", "delete")


def path_of(i: int) -> str:
    return f"/memories/proj{i % 10}/topic{(i // 10) % 20}/note{i}.md"


def moved_of(i: int) -> str:
    return f"/memories/proj{i % 10}/archive/note{i}.md"


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


@dataclass
class Subject:
    label: str
    make: Callable[[Path], Callable[[Input], str]]  # store directory -> run(input)
    closers: list[Callable[[], None]] = field(default_factory=list)


def sdk_subject(dirsync: bool) -> Callable[[Path], Callable[[Input], str]]:
    def make(where: Path) -> Callable[[Input], str]:
        from anthropic.tools.memory import BetaLocalFilesystemMemoryTool

        tool = BetaLocalFilesystemMemoryTool(base_path=str(where))
        if not dirsync:
            return tool.call  # type: ignore[return-value]
        base = where / "memories"

        def parent(memory_path: str) -> Path:
            return (base / memory_path[len("/memories/") :]).parent

        def run(inp: Input) -> str:
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
            return out  # type: ignore[return-value]

        return run

    return make


def securemem_subject(
    policy_name: str, durability: str, closers: list[Callable[[], None]]
) -> Callable[[Path], Callable[[Input], str]]:
    policy = policy_with(policy_name, durability=durability)

    def make(where: Path) -> Callable[[Input], str]:
        mem: SecureMemory = open_memory(where, policy)
        closers.append(mem.close)

        def run(inp: Input) -> str:
            result = mem.execute(inp)
            if result.is_error:
                raise RuntimeError(f"{policy.name}: {inp['command']} failed: {result.text}")
            return result.text

        return run

    return make


def subjects() -> list[Subject]:
    out = [Subject("SDK", sdk_subject(False)), Subject("SDK+dirsync", sdk_subject(True))]
    for label, name, durability in (
        ("sm regulated/full", "regulated", "full"),
        ("sm default/full", "default", "full"),
        ("sm regulated/normal", "regulated", "normal"),
    ):
        closers: list[Callable[[], None]] = []
        out.append(Subject(label, securemem_subject(name, durability, closers), closers))
    return out


# -- running ----------------------------------------------------------------------------------


def run_rounds(files: int, listings: int, rounds: int, base: str | None) -> dict[str, dict[str, list[float]]]:
    """ops/s per subject per command per round."""
    subs = subjects()
    work = phases(files, listings)
    rates: dict[str, dict[str, list[float]]] = {s.label: {c: [] for c in COMMANDS} for s in subs}
    for r in range(rounds):
        order = subs[r % len(subs) :] + subs[: r % len(subs)]
        with ExitStack() as stack:
            for s in order:
                stack.callback(_close_all, s.closers)
            runners = [s.make(stack.enter_context(scratch_dir(base, _slug(s.label)))) for s in order]
            for command, inputs in work:
                for subject, run in zip(order, runners, strict=True):
                    seconds = timed(lambda run=run, inputs=inputs: [run(inp) for inp in inputs])
                    rates[subject.label][command].append(len(inputs) / seconds)
            print(f"  round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    return rates


def _close_all(closers: list[Callable[[], None]]) -> None:
    while closers:
        closers.pop()()


def _slug(label: str) -> str:
    return label.replace(" ", "_").replace("/", "-")


def report(rates: dict[str, dict[str, list[float]]], files: int, listings: int, rounds: int) -> None:
    med = {label: {c: median(v) for c, v in per.items()} for label, per in rates.items()}
    labels = list(med)
    print(f"ops/s per command, median of {rounds} round(s); {files:,} files of ~1 KB, {listings} root listings")
    rows = []
    for c in COMMANDS:
        counts = listings if c == "list root" else files
        rows.append(
            [c, counts, *[med[label][c] if (label != "SDK+dirsync" or c in MUTATING) else None for label in labels]]
        )
    print(table(["command", "ops", *labels], rows))
    print(
        "SDK+dirsync = the SDK tool plus an fsync of each changed directory (not shipped): the cost of the "
        "durability\n  securemem's commits give. The SDK as shipped does not fsync rename/delete at all.\n"
    )

    sm, sdk, sdk_sync = med["sm regulated/full"], med["SDK"], med["SDK+dirsync"]
    rows = []
    for c in COMMANDS:
        anchor = sdk_sync[c] if c in ("rename", "delete") else sdk[c]
        verdict = "met" if sm[c] >= 2 * anchor else "MISSED"
        rows.append(
            [
                c,
                ratio(sm[c], sdk[c]),
                ratio(sm[c], sdk_sync[c]) if c in MUTATING else "-",
                ratio(med["sm default/full"][c], sdk[c]),
                ratio(med["sm regulated/normal"][c], sdk[c]),
                f"{verdict} ({sm[c] / anchor:.2f}x)",
            ]
        )
    print("ratios of ops/s (securemem / SDK); target: sm regulated/full >= 2x the SDK at equal durability")
    print(
        table(
            ["command", "reg/full÷SDK", "reg/full÷SDK+dirsync", "default/full÷SDK", "reg/normal÷SDK", "target >= 2x"],
            rows,
        )
    )
    print(
        "target anchor: SDK as shipped for view/list/create/str_replace/insert (it fsyncs the file there); "
        "SDK+dirsync for rename/delete."
    )


def fsync_floor(base: str | None, reps: int) -> None:
    """What one fsync costs on this disk: no command that syncs once can beat 1/fsync per second."""
    with scratch_dir(base, "fsync-floor") as where:
        target = where / "wal"
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
        page = os.urandom(4096)
        try:
            os.pwrite(fd, page * 64, 0)
            os.fsync(fd)
            cases: dict[str, Callable[[int], None]] = {
                "overwrite 4 KiB + fsync (a WAL commit, file size unchanged)": lambda k: _write_sync(
                    fd, page, 4096 * (k % 64), os.fsync
                ),
                "overwrite 4 KiB + fdatasync": lambda k: _write_sync(fd, page, 4096 * (k % 64), os.fdatasync),
                "append 4 KiB + fsync (a growing WAL)": lambda k: _write_sync(fd, page, 4096 * (64 + k), os.fsync),
                "new 1 KiB file + fsync (the SDK's create)": lambda k: _new_file(where / f"n{k}", page[:1024]),
            }
            rows = []
            for label, fn in cases.items():
                times = []
                for k in range(reps):
                    started = time.perf_counter()
                    fn(k)
                    times.append(time.perf_counter() - started)
                rows.append([label, median(times) * 1e3, 1 / median(times)])
        finally:
            os.close(fd)
    print(f"\nfsync floor on this disk (median of {reps}): a command that fsyncs once cannot beat the ops/s shown")
    print(table(["operation", "ms", "ops/s ceiling"], rows))


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=2000, help="files created (and viewed, edited, ...)")
    parser.add_argument("--listings", type=int, default=200, help="root listings")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, fresh stores each (the median is shown)")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument("--smoke", action="store_true", help="60 files, 10 listings, 1 round")
    options = parser.parse_args(argv)
    if options.smoke:
        options.files, options.listings, options.rounds = 60, 10, 1
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    print(machine())
    rates = run_rounds(options.files, options.listings, options.rounds, options.dir)
    report(rates, options.files, options.listings, options.rounds)
    fsync_floor(options.dir, 20 if options.smoke else 300)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
