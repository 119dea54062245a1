"""fsyncs and bytes written per memory command, counted with strace: the SDK tool vs SecureMemory.

Run from the repository root (needs strace: ``apt-get install strace``):

    .venv/bin/python bench/fsync_count.py            # 100 commands per phase
    .venv/bin/python bench/fsync_count.py --smoke    # 10 commands per phase

Each subject of bench/throughput.py (the raw SQLCipher floor included) runs the same phases
(create, view, str_replace, insert, list root, rename, delete) in a child process under
``strace -f``; the child marks each phase with an ``access("/securemem-bench-phase/<name>")``
call, and the parent counts, per phase, the fsync and fdatasync calls and the bytes that
write/pwrite64 returned, divided by the commands in the phase.
The erasure still pending at the end of a phase is run then, inside the phase (securemem's
``flush_erasure``, the floor's checkpoint). strace slows the child down a lot: these are counts,
not timings.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import scratch_dir, table
from throughput import COMMANDS, phases, subjects

MARK = "/securemem-bench-phase/"
SYSCALLS = "fsync,fdatasync,write,pwrite64,access,faccessat,faccessat2"
_RESULT = re.compile(r"=\s*(\d+)\s*$")


def _seccomp_flag() -> list[str]:
    """strace stops the child only at the traced calls with --seccomp-bpf (strace 5.3+): much faster."""
    try:
        probe = subprocess.run(
            ["strace", "--seccomp-bpf", "-f", "-e", "trace=fsync", "-o", os.devnull, "true"],
            capture_output=True,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    return ["--seccomp-bpf"] if probe.returncode == 0 else []


def child(label: str, files: int, listings: int, base: str | None) -> int:
    subject = next(s for s in subjects(files) if s.label == label)
    with scratch_dir(base, "fsyncs") as where:
        runner = subject.make(where, False)
        for command, inputs in phases(files, listings):
            os.access(MARK + command, os.F_OK)
            for inp in inputs:
                runner.run(inp)
            runner.erase()  # the erasure still pending counts to the phase that freed the content
        os.access(MARK + "end", os.F_OK)
        runner.close()
    return 0


def count(label: str, files: int, listings: int, base: str | None) -> dict[str, dict[str, float]]:
    with tempfile.NamedTemporaryFile(prefix="securemem-bench-strace-", suffix=".txt") as trace:
        seccomp = _seccomp_flag()
        argv = [
            "strace",
            *seccomp,
            "-f",
            "-qq",
            "-e",
            f"trace={SYSCALLS}",
            "-o",
            trace.name,
            sys.executable,
            __file__,
            "--child",
            label,
            "--files",
            str(files),
            "--listings",
            str(listings),
        ]
        if base:
            argv += ["--dir", base]
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{label} under strace failed:\n{done.stderr[-2000:]}")
        lines = Path(trace.name).read_text(errors="replace").splitlines()
    totals: dict[str, dict[str, float]] = {c: {"fsync": 0, "bytes": 0, "writes": 0} for c in COMMANDS}
    phase: str | None = None
    for line in lines:
        if MARK in line:
            name = line.split(MARK, 1)[1].split('"', 1)[0]
            phase = name if name in totals else None
            continue
        if phase is None:
            continue
        if " fsync(" in line or " fdatasync(" in line:
            totals[phase]["fsync"] += 1
        elif " write(" in line or " pwrite64(" in line:
            match = _RESULT.search(line)
            totals[phase]["writes"] += 1
            totals[phase]["bytes"] += int(match.group(1)) if match else 0
    for command, inputs in phases(files, listings):
        for key in totals[command]:
            totals[command][key] /= len(inputs)
    return totals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=100, help="commands per phase")
    parser.add_argument("--listings", type=int, default=10, help="root listings")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument(
        "--smoke", action="store_true", help="10 commands per phase; floor, SDK and sm regulated/full only"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.smoke:
        options.files, options.listings = 10, 3
    if options.child:
        return child(options.child, options.files, options.listings, options.dir)
    if shutil.which("strace") is None:
        print("strace is not installed (apt-get install strace): nothing counted.")
        return 0
    labels = [s.label for s in subjects(options.files)]
    if options.smoke:
        labels = ["floor", "SDK", "sm regulated/full"]
    counts = {label: count(label, options.files, options.listings, options.dir) for label in labels}
    print(f"fsync + fdatasync calls per command ({options.files} commands per phase, strace -f)")
    print(table(["command", *labels], [[c, *[counts[label][c]["fsync"] for label in labels]] for c in COMMANDS]))
    print("\nKiB written per command (write + pwrite64 return values: files, WAL, database, directories)")
    print(table(["command", *labels], [[c, *[counts[label][c]["bytes"] / 1024 for label in labels]] for c in COMMANDS]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
