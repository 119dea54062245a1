"""Opening a store (raw key vs passphrase) and memory use over a long run of commands.

Run from the repository root:

    .venv/bin/python bench/open_rss.py            # 15 opens each; 100,000 commands, sampled every 10,000
    .venv/bin/python bench/open_rss.py --smoke    # 3 opens each; 1,000 commands, sampled every 250

Open: median ms of ``SecureMemory.open`` on an existing store (the "regulated" policy), with a raw
32-byte key and with a passphrase (PBKDF2-HMAC-SHA512, 256,000 iterations, once per open), raw and
passphrase opens alternating; also the first open, which creates the store, and the SDK tool's
constructor as the anchor.

Memory: each subject runs in its own child process (so peaks do not mix): a cycle of create, view,
str_replace and delete over a bounded set of 100 files (100 creates, 100 views, 100 edits, 100 deletes,
repeat), through SecureMemory (regulated, full durability) and through the SDK tool. RSS comes from
/proc/self/statm (sampled every 1,000 commands; the table shows every --every commands) and the peak
from getrusage(RUSAGE_SELF).ru_maxrss.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Only the standard library at import time: the parent starts the memory children before it imports
# securemem or anthropic, because Linux carries a process's peak RSS over fork and exec into its
# children's ru_maxrss. The children read their own peak from VmHWM, which starts afresh at exec.
sys.path.insert(0, str(Path(__file__).resolve().parent))

PASSPHRASE = "correct horse battery staple, but longer and only for this benchmark"
SLOTS = 100
PAGE = os.sysconf("SC_PAGE_SIZE")


# -- open -------------------------------------------------------------------------------------


def measure_open(reps: int, base: str | None) -> list[list[object]]:
    from anthropic.tools.memory import BetaLocalFilesystemMemoryTool
    from harness import median, note_text, policy_with, scratch_dir

    from securemem import SecureMemory

    policy = policy_with("regulated")
    raw_key = os.urandom(32)
    rows: list[list[object]] = []
    with scratch_dir(base, "open") as where:
        first: dict[str, float] = {}
        for label, key in (("raw key", raw_key), ("passphrase", PASSPHRASE)):
            started = time.perf_counter()
            mem = SecureMemory.open(where / f"{label}.db", key=key, policy=policy)
            first[label] = time.perf_counter() - started
            mem.execute({"command": "create", "path": "/memories/a/b.md", "file_text": note_text(1)})
            mem.close()
        times: dict[str, list[float]] = {"raw key": [], "passphrase": [], "SDK tool": []}
        (where / "sdk").mkdir()
        for _ in range(reps):
            for label, key in (("raw key", raw_key), ("passphrase", PASSPHRASE)):
                started = time.perf_counter()
                mem = SecureMemory.open(where / f"{label}.db", key=key, policy=policy)
                times[label].append(time.perf_counter() - started)
                mem.close()
            started = time.perf_counter()
            BetaLocalFilesystemMemoryTool(base_path=str(where / "sdk"))
            times["SDK tool"].append(time.perf_counter() - started)
        for label, values in times.items():
            rows.append(
                [
                    label,
                    median(values) * 1e3,
                    min(values) * 1e3,
                    max(values) * 1e3,
                    first[label] * 1e3 if label in first else None,
                ]
            )
    return rows


# -- RSS (child process) ----------------------------------------------------------------------


def rss_kib() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * PAGE // 1024


def maxrss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def hwm_kib() -> int:
    """VmHWM: the peak RSS of this process image (reset at exec, unlike ru_maxrss)."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def sample(done: int, started: float, peak: int) -> str:
    return json.dumps(
        {
            "done": done,
            "rss": rss_kib(),
            "maxrss": maxrss_kib(),
            "hwm": hwm_kib(),
            "peak": peak,
            "s": time.perf_counter() - started,
        }
    )


def command(k: int, note_text: Callable[[int], str]) -> dict[str, Any]:
    phase, slot = (k // SLOTS) % 4, k % SLOTS
    path = f"/memories/s{slot % 10}/slot{slot}.md"
    if phase == 0:
        return {"command": "create", "path": path, "file_text": note_text(k % 997)}
    if phase == 1:
        return {"command": "view", "path": path}
    if phase == 2:
        return {"command": "str_replace", "path": path, "old_str": "Status: open", "new_str": "Status: done"}
    return {"command": "delete", "path": path}


def child(subject: str, commands: int, every: int, base: str | None) -> int:
    """Run the cycle, print one JSON line per sample (the parent reads them)."""
    from harness import note_text, policy_with, scratch_dir

    from securemem import SecureMemory

    with scratch_dir(base, f"rss-{subject}") as where:
        run: Callable[[dict[str, Any]], object]
        closers: list[Callable[[], None]] = []
        if subject == "securemem":
            # Quotas raised (the layer still runs): the history of 100,000 commands outgrows the regulated 16 MiB.
            policy = policy_with("regulated", big_quotas=True)
            mem = SecureMemory.open(where / "store.db", key=os.urandom(32), policy=policy)
            closers.append(mem.close)

            def run(inp: dict[str, Any]) -> object:
                result = mem.execute(inp)
                if result.is_error:
                    raise RuntimeError(f"{inp['command']} failed: {result.text}")
                return result

        else:
            from anthropic.tools.memory import BetaLocalFilesystemMemoryTool

            run = BetaLocalFilesystemMemoryTool(base_path=str(where)).call
        peak_sampled = rss_kib()
        started = time.perf_counter()
        print(sample(0, started, peak_sampled), flush=True)
        for k in range(commands):
            run(command(k, note_text))
            done = k + 1
            if done % 1000 == 0:
                peak_sampled = max(peak_sampled, rss_kib())
            if done % every == 0:
                print(sample(done, started, peak_sampled), flush=True)
        for close in closers:
            close()
    return 0


def run_child(subject: str, commands: int, every: int, base: str | None) -> list[dict[str, float]]:
    argv = [sys.executable, __file__, "--child", subject, "--commands", str(commands), "--every", str(every)]
    if base:
        argv += ["--dir", base]
    out = subprocess.run(argv, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{subject} child failed:\n{out.stderr[-2000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--reps", type=int, default=15, help="opens per key kind (the median is shown)")
    parser.add_argument("--commands", type=int, default=100_000, help="commands in the memory run")
    parser.add_argument("--every", type=int, default=10_000, help="commands between table rows")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument("--smoke", action="store_true", help="3 opens; 1,000 commands sampled every 250")
    parser.add_argument("--child", choices=("securemem", "sdk"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        return child(options.child, options.commands, options.every, options.dir)
    if options.smoke:
        options.reps, options.commands, options.every = 3, 1000, 250
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    samples = {s: run_child(s, options.commands, options.every, options.dir) for s in ("securemem", "sdk")}
    from harness import machine, table

    print(machine())
    print(f"\nopening an existing store, ms over {options.reps} opens each (regulated policy)")
    print(
        table(
            ["key", "median ms", "min ms", "max ms", "first open (creates) ms"], measure_open(options.reps, options.dir)
        )
    )

    print(
        f"\nmemory over {options.commands:,} commands (create/view/str_replace/delete over {SLOTS} files), "
        "MiB; each subject in its own process"
    )
    rows = []
    for sm, sdk in zip(samples["securemem"], samples["sdk"], strict=True):
        rows.append(
            [
                sm["done"],
                sm["rss"] / 1024,
                sm["hwm"] / 1024,
                sm["maxrss"] / 1024,
                sm["s"],
                sdk["rss"] / 1024,
                sdk["hwm"] / 1024,
                sdk["maxrss"] / 1024,
                sdk["s"],
            ]
        )
    print(
        table(
            [
                "commands",
                "sm RSS",
                "sm VmHWM",
                "sm ru_maxrss",
                "sm s",
                "SDK RSS",
                "SDK VmHWM",
                "SDK ru_maxrss",
                "SDK s",
            ],
            rows,
        )
    )
    print(
        "RSS: /proc/self/statm at that point; VmHWM and ru_maxrss: peak so far (ru_maxrss also counts the "
        "launcher's peak,\n  which Linux carries over exec: the parent starts the children before its heavy "
        "imports)."
    )
    for label, key in (("securemem", "securemem"), ("SDK", "sdk")):
        runs = samples[key]
        first, last = runs[1] if len(runs) > 2 else runs[0], runs[-1]
        growth = (last["rss"] - first["rss"]) / 1024
        verdict = "flat" if abs(growth) <= 2.0 else "GROWS"
        print(
            f"{label}: RSS from {first['done']:,} to {last['done']:,} commands {growth:+.2f} MiB ({verdict}; flat = "
            f"within 2 MiB); peak sampled every 1,000 commands {max(s['peak'] for s in runs) / 1024:.1f} MiB, "
            f"VmHWM {last['hwm'] / 1024:.1f} MiB, ru_maxrss {last['maxrss'] / 1024:.1f} MiB; "
            f"{last['done'] / last['s']:,.0f} commands/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
