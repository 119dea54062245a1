"""Where each memory command spends its time: per SQL statement, and per securemem layer.

Run from the repository root (not part of run_all: a diagnostic for whoever optimises):

    .venv/bin/python bench/profile_commands.py                                  # regulated/full, 2,000 files
    .venv/bin/python bench/profile_commands.py --policy default --durability normal --commands view,create
    .venv/bin/python bench/profile_commands.py --smoke

It runs bench/throughput.py's workload through SecureMemory three times, each on a fresh store:
1. plain, for the ms per command without any instrumentation;
2. with the store's connection wrapped, timing every SQL statement (BEGIN, COMMIT and the PRAGMAs
   included: with full durability the COMMIT is where the fsync happens);
3. under cProfile, with self time grouped by securemem layer (time in C code and in libraries is
   charged to the securemem file that called it). cProfile inflates Python-heavy parts against
   C-heavy parts, so read the shares as a ranking, not as exact fractions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import machine, open_memory, policy_with, scratch_dir, table
from throughput import COMMANDS, phases

PACKAGE = str(Path(__file__).resolve().parent.parent / "securemem") + "/"
LAYERS = (  # file (relative to securemem/) prefix -> layer; first match wins
    ("store/sqlcipher.py", "transaction: BEGIN/COMMIT/checkpoint"),
    ("store/", "store: SQL statements"),
    ("middleware/pii.py", "PII layer"),
    ("pii/", "PII layer"),
    ("middleware/pathguard.py", "path guard"),
    ("paths.py", "path guard"),
    ("middleware/ttl.py", "TTL + policy rules"),
    ("policy.py", "TTL + policy rules"),
    ("middleware/quota.py", "quota"),
    ("middleware/access.py", "access rules"),
    ("dispatcher.py", "dispatcher + text"),
    ("text.py", "dispatcher + text"),
    ("commands.py", "input parsing (pydantic)"),
)


class TimedConnection:
    """Wraps the store's connection and times each statement (by its SQL text)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.stats: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])

    def _timed(self, fn: Callable[..., Any], sql: str, *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(sql, *args)
        finally:
            entry = self.stats[re.sub(r"\s+", " ", sql).strip()]
            entry[0] += 1
            entry[1] += time.perf_counter() - started

    def execute(self, sql: str, *args: Any) -> Any:
        return self._timed(self._conn.execute, sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        return self._timed(self._conn.executemany, sql, *args)

    def cursor(self) -> TimedCursor:
        return TimedCursor(self._conn.cursor(), self)  # the store runs BEGIN and COMMIT on one

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


class TimedCursor:
    """A cursor of the timed connection: its statements are timed there too."""

    def __init__(self, cursor: Any, timed: TimedConnection) -> None:
        self._cursor = cursor
        self._timed = timed

    def execute(self, sql: str, *args: Any) -> Any:
        return self._timed._timed(self._cursor.execute, sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


def layer_of(filename: str) -> str | None:
    if not filename.startswith(PACKAGE):
        return None
    rel = filename[len(PACKAGE) :]
    return next((layer for prefix, layer in LAYERS if rel.startswith(prefix)), "chain, glue, truncation")


def layer_shares(stats: pstats.Stats) -> dict[str, float]:
    """Self time per layer; a function outside securemem is charged to its securemem callers."""
    shares: dict[str, float] = defaultdict(float)
    for (filename, _, _), (_, _, tottime, _, callers) in stats.stats.items():  # type: ignore[attr-defined]
        own = layer_of(filename)
        if own is not None:
            shares[own] += tottime
            continue
        charged = 0.0
        for (caller_file, _, _), (_, _, caller_tt, _) in callers.items():
            caller_layer = layer_of(caller_file)
            if caller_layer is not None:
                shares[caller_layer] += caller_tt
                charged += caller_tt
        if tottime - charged > 1e-9:
            shares["outside securemem (library to library)"] += tottime - charged
    return shares


def run_phases(
    mem: Any,
    work: list[tuple[str, list[dict[str, Any]]]],
    wanted: set[str],
    hook: Callable[[str, str], None] | None = None,
) -> dict[str, float]:
    """Seconds per command for each phase; ``hook(phase, "start"|"stop")`` around wanted phases."""
    out = {}
    for command, inputs in work:
        if hook and command in wanted:
            hook(command, "start")
        started = time.perf_counter()
        for inp in inputs:
            result = mem.execute(inp)
            if result.is_error:
                raise RuntimeError(f"{command} failed: {result.text}")
        out[command] = (time.perf_counter() - started) / len(inputs)
        if hook and command in wanted:
            hook(command, "stop")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--policy", default="regulated")
    parser.add_argument("--durability", default="full", choices=("full", "normal"))
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--listings", type=int, default=200)
    parser.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated phases to report")
    parser.add_argument("--top", type=int, default=8, help="SQL statements shown per command")
    parser.add_argument("--dir", default=None)
    parser.add_argument("--smoke", action="store_true")
    options = parser.parse_args(argv)
    if options.smoke:
        options.files, options.listings = 60, 10
    wanted = {c.strip() for c in options.commands.split(",") if c.strip()}
    policy = policy_with(options.policy, durability=options.durability)
    work = phases(options.files, options.listings)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    print(machine())
    print(f"policy {policy.name}, {options.files:,} files\n")

    with scratch_dir(options.dir, "profile-plain") as where:
        mem = open_memory(where, policy)
        plain = run_phases(mem, work, wanted)
        mem.close()

    sql: dict[str, dict[str, list[float]]] = {}
    with scratch_dir(options.dir, "profile-sql") as where:
        mem = open_memory(where, policy)
        timed_conn = TimedConnection(mem.store._conn)  # type: ignore[attr-defined]
        mem.store._conn = timed_conn  # type: ignore[attr-defined]

        def sql_hook(command: str, when: str) -> None:
            if when == "start":
                timed_conn.stats.clear()
            else:
                sql[command] = {k: list(v) for k, v in timed_conn.stats.items()}

        run_phases(mem, work, wanted, sql_hook)
        mem.close()

    profiles: dict[str, pstats.Stats] = {}
    with scratch_dir(options.dir, "profile-cprofile") as where:
        mem = open_memory(where, policy)
        profiler = cProfile.Profile()

        def profile_hook(command: str, when: str) -> None:
            if when == "start":
                profiler.enable()
            else:
                profiler.disable()
                profiles[command] = pstats.Stats(profiler)
                profiler.clear()

        run_phases(mem, work, wanted, profile_hook)
        mem.close()

    counts = {command: len(inputs) for command, inputs in work}
    for command in COMMANDS:
        if command not in wanted:
            continue
        n = counts[command]
        statements = sql[command]
        sql_ms = sum(v[1] for v in statements.values()) / n * 1e3
        print(
            f"=== {command}: {plain[command] * 1e3:.3f} ms per command ({1 / plain[command]:,.0f}/s) uninstrumented; "
            f"SQL {sql_ms:.3f} ms in {sum(v[0] for v in statements.values()) / n:.1f} statements per command"
        )
        rows = [
            [f"{v[1] / n * 1e3:.3f}", f"{v[0] / n:.2f}", sql_text[:100]]
            for sql_text, v in sorted(statements.items(), key=lambda kv: -kv[1][1])[: options.top]
        ]
        print(table(["ms/cmd", "calls/cmd", "statement"], rows, left=(2,)))
        shares = layer_shares(profiles[command])
        total = sum(shares.values()) or 1.0
        print(
            table(
                ["layer (cProfile self time, callees charged to caller)", "share", "ms/cmd profiled"],
                [
                    [layer, f"{100 * t / total:.0f}%", f"{t / n * 1e3:.3f}"]
                    for layer, t in sorted(shares.items(), key=lambda kv: -kv[1])
                    if t / total >= 0.005
                ],
            )
        )
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
