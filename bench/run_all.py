"""Run every benchmark, one after the other, and print every table.

Run from the repository root:

    .venv/bin/python bench/run_all.py            # full sizes (about 11-20 minutes on a 2-core machine)
    .venv/bin/python bench/run_all.py --smoke    # tiny sizes, well under a minute (`make bench-smoke`)
    .venv/bin/python bench/run_all.py --only throughput,scale

Each benchmark runs in its own process (so one's memory and caches do not colour the next), with
``--smoke`` passed on when given. The exit code is non-zero when any benchmark failed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
# name -> script, run in this order; pii_bench takes --smoke like the others.
BENCHMARKS = {
    "pii": "pii_bench.py",
    "throughput": "throughput.py",
    "fsyncs": "fsync_count.py",
    "scale": "scale.py",
    "open_rss": "open_rss.py",
    "keys": "keys_bench.py",
    "history": "history_bench.py",
    "page_format": "page_format.py",
    "postgres": "postgres_bench.py",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, for CI and `make bench-smoke`")
    parser.add_argument("--only", default="", help=f"comma-separated subset of: {', '.join(BENCHMARKS)}")
    options = parser.parse_args(argv)
    chosen = [n.strip() for n in options.only.split(",") if n.strip()] or list(BENCHMARKS)
    unknown = [n for n in chosen if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(BENCHMARKS)}")
    outcomes: list[tuple[str, int, float]] = []
    if options.smoke:
        print("smoke run: tiny sizes that check every benchmark still runs; its figures mean nothing.", flush=True)
    for name in chosen:
        if name == "fsyncs" and shutil.which("strace") is None:
            print(f"\n=== {name}: skipped (strace is not installed: apt-get install strace)", flush=True)
            continue
        argv_child = [sys.executable, str(HERE / BENCHMARKS[name]), *(["--smoke"] if options.smoke else [])]
        print(f"\n=== {name}: {' '.join(Path(a).name if i < 2 else a for i, a in enumerate(argv_child))}", flush=True)
        started = time.perf_counter()
        code = subprocess.call(argv_child)
        outcomes.append((name, code, time.perf_counter() - started))
    print("\n=== summary")
    for name, code, seconds in outcomes:
        print(f"  {name:<11} {'ok' if code == 0 else f'FAILED (exit {code})':<16} {seconds:7.1f} s")
    return 0 if all(code == 0 for _, code, _ in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
