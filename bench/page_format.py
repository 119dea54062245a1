"""HMAC-SHA256 pages (stores of this release) against HMAC-SHA512 pages (SQLCipher's default).

Run from the repository root:

    .venv/bin/python bench/page_format.py            # about a minute
    .venv/bin/python bench/page_format.py --smoke

Two measures, each side by side in one run:
1. raw SQLCipher, opened as securemem opens a store, one row into each of N tables per
   transaction: the COMMIT's median time, with N encrypted pages (and page 1) to write and fsync;
2. bench/throughput.py's workload (regulated policy, full durability) on two stores in one
   process, one per format, in alternating blocks of 50 commands: each command's median time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqlcipher3
from harness import machine, open_memory, policy_with, scratch_dir, table
from throughput import phases

from securemem import SecureMemory
from securemem.store import pages

BLOCK = 50


def _raw(path: Path, page_format: pages.PageFormat) -> Any:
    conn = sqlcipher3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA cipher_log_level = NONE")
    conn.execute(f"PRAGMA key = \"x'{os.urandom(32).hex()}{os.urandom(16).hex()}'\"")
    conn.execute(f"PRAGMA cipher_hmac_algorithm = {page_format.pragma}")
    conn.execute("PRAGMA journal_mode = WAL").fetchall()
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA secure_delete = ON")
    return conn


def commit_ms(where: Path, page_format: pages.PageFormat, tables: int, commits: int) -> float:
    conn = _raw(where / f"raw-{page_format.digest}-{tables}.db", page_format)
    try:
        for t in range(tables):
            conn.execute(f"CREATE TABLE t{t} (k TEXT PRIMARY KEY, v BLOB)")
        body, times = os.urandom(600), []
        for i in range(commits):
            conn.execute("BEGIN IMMEDIATE")
            for t in range(tables):
                conn.execute(f"INSERT INTO t{t} VALUES (?, ?)", (f"/memories/f{i:05d}.md", body))
            started = time.perf_counter()
            conn.execute("COMMIT")
            times.append(time.perf_counter() - started)
        return statistics.median(times) * 1e3
    finally:
        conn.close()


def command_ms(where: Path, files: int) -> dict[str, dict[str, float]]:
    """Per command, per format: the median ms of one command, the two stores in alternating blocks."""
    stores: dict[str, SecureMemory] = {}
    original = pages.NEW_STORES
    try:
        for page_format in pages.FORMATS:
            pages.NEW_STORES = page_format
            stores[page_format.digest] = open_memory(where, policy_with("regulated"), f"{page_format.digest}.db")
    finally:
        pages.NEW_STORES = original
    out: dict[str, dict[str, float]] = {}
    try:
        for command, inputs in phases(files, max(files // 50, 4)):
            times: dict[str, list[float]] = {name: [] for name in stores}
            for block, at in enumerate(range(0, len(inputs), BLOCK)):
                order = list(stores.items())
                for name, memory in order if block % 2 == 0 else order[::-1]:
                    for inp in inputs[at : at + BLOCK]:
                        started = time.perf_counter()
                        result = memory.execute(inp)
                        times[name].append(time.perf_counter() - started)
                        if result.is_error:
                            raise RuntimeError(f"{command} failed: {result.text}")
            out[command] = {name: statistics.median(values) * 1e3 for name, values in times.items()}
    finally:
        for memory in stores.values():
            memory.close()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000, help="files in the command workload")
    parser.add_argument("--commits", type=int, default=1500, help="commits per raw measure")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument("--smoke", action="store_true", help="200 files, 200 commits")
    args = parser.parse_args(argv)
    files, commits = (200, 200) if args.smoke else (args.files, args.commits)
    print(machine())
    with scratch_dir(args.dir, "page-format") as where:
        rows = []
        for tables in (1, 4, 8):
            ms = {f.digest: commit_ms(where, f, tables, commits) for f in pages.FORMATS}
            rows.append([f"{tables} table(s)", ms["sha512"], ms["sha256"], f"{ms['sha256'] / ms['sha512'] - 1:+.0%}"])
        print(f"\nraw SQLCipher COMMIT, median ms of {commits:,} (one row into each table per transaction)")
        print(table(["insert into", "HMAC-SHA512", "HMAC-SHA256", "change"], rows))
        by_command = command_ms(where, files)
        rows = [
            [c, ms["sha512"], ms["sha256"], f"{ms['sha256'] / ms['sha512'] - 1:+.0%}"] for c, ms in by_command.items()
        ]
        print(f"\nsecuremem regulated/full, {files:,} files, median ms per command (stores in alternating blocks)")
        print(table(["command", "HMAC-SHA512", "HMAC-SHA256", "change"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
