"""How command latency and expiry sweeps grow with the namespace: 1,000 / 10,000 / 100,000 files.

Run from the repository root:

    .venv/bin/python bench/scale.py            # 1k, 10k, 100k files; 3 sweep rounds (a few minutes)
    .venv/bin/python bench/scale.py --smoke    # 300 and 3,000 files, 1 sweep round (seconds)

Each namespace is bulk-loaded in one store transaction (``tx.put_file``, no middleware) with ~1 KB
files at /memories/d{i%100}/f{i}.md, so a root listing (2 levels) walks 100 directories and every
file below them, plus /memories/fixed/ with 20 files, whose listing should not depend on the
namespace size. Policy: "regulated" (full durability) with its quotas raised to 10M files / 64 GiB so
that 100,000 files fit (the quota layer still runs its checks). Anchor: the SDK's filesystem tool on
a directory holding the same files (written directly, not through the tool).

Sweeps: a store whose N files all expired a minute ago; ``SecureMemory.sweep()`` (default batch)
with every batch timed, then the erasure checkpoint the sweep leaves pending (``store.flush_erasure()``),
timed apart. The longest batch is how long a writer can wait on the store's lock. One more run per
size adds a writer on its own connection (a create every 10 ms) and reports its worst latency;
before the first sweep of each size, a create and a root listing are timed while the expired files
wait to be swept (expired files are invisible, but they still cost whoever reads the totals).

The curves go to an SVG plot (log-scaled axes; bench/svgplot.py, no dependency): docs/scale.svg by
default, ``--plot PATH`` to choose; a ``--smoke`` run writes it to the temp directory unless
``--plot`` is given. The script prints where it wrote it.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floor import sweep_floor
from harness import ROOT, machine, median, note_text, open_memory, policy_with, quantile, ratio, scratch_dir, table
from svgplot import DASHED, PALETTE, HLine, Panel, Series, render

from securemem import SecureMemory
from securemem.text import count_lines

FIXED_FILES = 20
WRITER_PAUSE = 0.01  # seconds between the concurrent writer's commands during a sweep
DEFAULT_PLOT = ROOT / "docs" / "scale.svg"
TEXT_POOL = 500  # distinct file texts (a 100,000-file load reuses them; every one has "Status: open")
Input = dict[str, Any]


def file_path(i: int) -> str:
    return f"/memories/d{i % 100}/f{i}.md"


def files(n: int) -> list[tuple[str, str]]:
    texts = [note_text(k) for k in range(TEXT_POOL)]
    out = [(file_path(i), texts[i % TEXT_POOL]) for i in range(n)]
    return out + [(f"/memories/fixed/f{k}.md", texts[k]) for k in range(FIXED_FILES)]


def bulk_load(mem: SecureMemory, content: list[tuple[str, str]], expires: float) -> float:
    started = time.perf_counter()
    # Written a minute before ``expires`` at most, so a directory does not expire while it is loaded.
    at = min(time.time(), expires - 60)
    with mem.store.transaction(mem.namespace, write=True, clock=lambda: at) as tx:
        for path, text in content:
            tx.put_file(path, text.encode("utf-8"), count_lines(text), expires, tx.ancestry(path).entry)
    return time.perf_counter() - started


def settle(mem: SecureMemory) -> None:
    """Start from a steady state: WAL checkpointed and truncated, every dirty page on disk.

    Without this the first fsyncs measured pay for flushing the bulk load (ext4 commits the journal
    of every file written so far), which made str_replace look as if it grew with the namespace.
    """
    mem.store.flush_erasure()
    os.sync()


def sdk_load(base: Path, content: list[tuple[str, str]]) -> None:
    for path, text in content:
        target = base / "memories" / path[len("/memories/") :]
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        target.write_text(text, encoding="utf-8")


# -- latency ------------------------------------------------------------------------------------


def latencies(run: Callable[[Input], object], inputs: Sequence[Input], budget: float) -> list[float]:
    """Seconds per call, for the inputs in order, stopping early once ``budget`` seconds are spent
    (after at least 3 calls)."""
    out: list[float] = []
    spent = 0.0
    for inp in inputs:
        started = time.perf_counter()
        run(inp)
        out.append(time.perf_counter() - started)
        spent += out[-1]
        if spent > budget and len(out) >= 3:
            break
    return out


MEASURES = ("root listing", "list /memories/fixed", "view file", "str_replace")


def workload(n: int, reps: int) -> dict[str, list[Input]]:
    picks = random.Random(n).sample(range(n), min(reps, n))
    return {
        "root listing": [{"command": "view", "path": "/memories"}] * reps,
        "list /memories/fixed": [{"command": "view", "path": "/memories/fixed"}] * reps,
        "view file": [{"command": "view", "path": file_path(i)} for i in picks],
        "str_replace": [
            {"command": "str_replace", "path": file_path(i), "old_str": "Status: open", "new_str": "Status: in review"}
            for i in picks
        ],
    }


def measure_latency(n: int, reps: int, budget: float, base: str | None) -> dict[str, dict[str, float]]:
    """Median ms per measure for securemem and the SDK on an n-file namespace (run side by side)."""
    from anthropic.tools.memory import BetaLocalFilesystemMemoryTool

    content = files(n)
    work = workload(n, reps)
    out: dict[str, dict[str, float]] = {"sm": {}, "SDK": {}}
    with scratch_dir(base, f"scale{n}") as where:
        mem = open_memory(where, policy_with("regulated", big_quotas=True))
        load_s = bulk_load(mem, content, time.time() + 90 * 86400)
        sdk_dir = where / "sdk"
        sdk_load(sdk_dir, content)
        settle(mem)
        tool = BetaLocalFilesystemMemoryTool(base_path=str(sdk_dir))

        def sdk_run(inp: Input) -> str:
            return str(tool.call(inp))

        def sm_run(inp: Input) -> str:
            result = mem.execute(inp)
            if result.is_error:
                raise RuntimeError(f"{inp['command']} failed: {result.text}")
            return result.text

        try:
            sizes = {"sm": len(sm_run(work["root listing"][0])), "SDK": len(sdk_run(work["root listing"][0]))}
            for measure in MEASURES:
                # Side by side: the SDK then securemem for each measure (str_replace: different files).
                for label, run in (("SDK", sdk_run), ("sm", sm_run)):
                    out[label][measure] = median(latencies(run, work[measure], budget)) * 1e3
        finally:
            mem.close()
    out["sm"]["load s"], out["sm"]["listing chars"], out["SDK"]["listing chars"] = load_s, sizes["sm"], sizes["SDK"]
    return out


# -- sweeps -------------------------------------------------------------------------------------


@dataclass
class SweepRun:
    deleted: int
    batches: int
    seconds: float
    longest_batch: float
    median_batch: float
    checkpoint: float
    writer_worst: float = float("nan")
    writer_p99: float = float("nan")
    writer_ops: int = 0
    create_before: float = float("nan")  # ms, with every file expired and not swept yet
    listing_before: float = float("nan")
    erasure_lags: int = 0  # warnings that freed content was not erased within the store's bound


class _Lags(logging.Handler):
    """Counts the store's warnings that an erasure missed its bound (its message names no content)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += "not yet erased" in record.getMessage()


def probe_expired(mem: SecureMemory, run: SweepRun) -> None:
    """Latency of a create and of a root listing while N expired files wait for the sweep."""
    creates = [{"command": "create", "path": f"/memories/probe/p{k}.md", "file_text": note_text(k)} for k in range(5)]
    run.create_before = median(latencies(mem.execute, creates, 2.0)) * 1e3
    run.listing_before = median(latencies(mem.execute, [{"command": "view", "path": "/memories"}] * 3, 2.0)) * 1e3


def measure_floor(n: int, base: str | None) -> float:
    with scratch_dir(base, f"sweep-floor{n}") as where:
        return sweep_floor(where, [text for _, text in files(n)[:n]])


def sweep_once(n: int, base: str | None, with_writer: bool, probe: bool = False) -> SweepRun:
    policy = policy_with("regulated", big_quotas=True)
    key = os.urandom(32)
    with scratch_dir(base, f"sweep{n}") as where:
        mem = open_memory(where, policy, key=key)
        bulk_load(mem, files(n)[:n], time.time() - 60)
        settle(mem)
        before = SweepRun(0, 0, 0.0, 0.0, 0.0, 0.0)
        if probe:
            probe_expired(mem, before)
        store: Any = mem.store
        batch_times: list[float] = []
        checkpoint: list[float] = []
        store.sweep_batch = _timing(store.sweep_batch, batch_times)
        store.flush_erasure = _timing(store.flush_erasure, checkpoint)
        writer_lat: list[tuple[float, float]] = []  # (start, seconds) of each writer command
        stop = threading.Event()
        thread = None
        if with_writer:
            other = open_memory(where, policy, key=key)
            thread = threading.Thread(target=_writer, args=(other, stop, writer_lat))
            thread.start()
            time.sleep(0.2)
        try:
            lags = _Lags()
            logging.getLogger("securemem.store").addHandler(lags)
            try:
                sweep_started = time.perf_counter()
                report = mem.sweep()
                sweep_ended = time.perf_counter()
            finally:
                logging.getLogger("securemem.store").removeHandler(lags)
                stop.set()
                if thread is not None:
                    thread.join()
                    other.close()
            # The erasure the sweep leaves pending (due within the store's bound), timed apart and
            # once the writer has stopped: it is the cost of erasing, not of sharing the lock.
            store.flush_erasure()
        finally:
            mem.close()
    run = SweepRun(
        report.deleted,
        report.batches,
        report.seconds,
        max(batch_times, default=0.0),
        median(batch_times),
        sum(checkpoint),
        create_before=before.create_before,
        listing_before=before.listing_before,
        erasure_lags=lags.count,
    )
    # Only the writer's commands that overlapped the sweep.
    during = [took for start, took in writer_lat if start <= sweep_ended and start + took >= sweep_started]
    if during:
        run.writer_worst, run.writer_p99, run.writer_ops = max(during), quantile(during, 0.99), len(during)
    return run


def _timing(fn: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            into.append(time.perf_counter() - started)

    return wrapper


def _writer(mem: SecureMemory, stop: threading.Event, latencies_out: list[tuple[float, float]]) -> None:
    """An agent at work: a create, then WRITER_PAUSE seconds of thinking, until told to stop."""
    i = 0
    while not stop.wait(WRITER_PAUSE):
        started = time.perf_counter()
        result = mem.execute({"command": "create", "path": f"/memories/live/w{i}.md", "file_text": note_text(i)})
        latencies_out.append((started, time.perf_counter() - started))
        if result.is_error:
            raise RuntimeError(f"writer failed: {result.text}")
        i += 1


# -- report -------------------------------------------------------------------------------------


@dataclass
class SweepSummary:
    """Medians over the sweep rounds of one size."""

    files: int
    deleted: int
    batches: int
    seconds: float
    longest_batch: float
    median_batch: float
    checkpoint: float
    floor: float  # raw SQLCipher: one DELETE of the same files and its checkpoint (bench/floor.py)
    writer_worst: float = float("nan")  # from the run with a concurrent writer
    erasure_lags: int = 0  # the most in one round


def growth(values: list[float]) -> str:
    return f"{values[-1] / values[0]:.1f}x" if values and values[0] else "-"


SWEEP_TARGET, SWEEP_FILES = 1.0, 100_000  # the issue: a sweep of 100,000 expired files in 1.0 s at most
# One colour per measure; securemem solid with dots, the SDK dashed with squares.
COLOURS = dict(zip(MEASURES, PALETTE, strict=False))


def plot(path: Path, sizes: list[int], lat: dict[int, dict[str, dict[str, float]]], sweeps: list[SweepSummary]) -> None:
    latency = Panel(
        "Median latency per command",
        "files in the namespace",
        "ms (log scale)",
        [
            Series(
                f"{'securemem' if who == 'sm' else 'SDK'}: {measure}",
                sizes,
                [lat[n][who][measure] for n in sizes],
                COLOURS[measure],
                dash=None if who == "sm" else DASHED,
                marker="circle" if who == "sm" else "square",
            )
            for who in ("sm", "SDK")
            for measure in MEASURES
        ],
        xticks=sizes,
        legend_columns=2,
    )
    sweep = Panel(
        "securemem's expiry sweep (every file expired)",
        "expired files",
        "ms (log scale)",
        [
            Series("whole sweep", [s.files for s in sweeps], [s.seconds * 1e3 for s in sweeps], PALETTE[0]),
            Series(
                "longest batch (the write lock held at once)",
                [s.files for s in sweeps],
                [s.longest_batch * 1e3 for s in sweeps],
                PALETTE[2],
                marker="square",
            ),
            Series(
                "worst create of a writer during the sweep",
                [s.files for s in sweeps],
                [s.writer_worst * 1e3 for s in sweeps],
                PALETTE[3],
                dash=DASHED,
            ),
            Series(
                "floor: raw SQLCipher, one DELETE + checkpoint",
                [s.files for s in sweeps],
                [s.floor * 1e3 for s in sweeps],
                PALETTE[5],
                dash=DASHED,
                marker="square",
            ),
            Series(
                "erasure checkpoint after it",
                [s.files for s in sweeps],
                [s.checkpoint * 1e3 for s in sweeps],
                PALETTE[4],
                dash=DASHED,
                marker="square",
            ),
        ],
        xticks=sizes,
        hlines=[HLine(SWEEP_TARGET * 1e3, f"target: {SWEEP_FILES:,} files in <= {SWEEP_TARGET:g} s")],
    )
    svg = render(
        [latency, sweep],
        title="securemem (regulated policy, full durability) vs the SDK's BetaLocalFilesystemMemoryTool",
        notes=[
            "bench/scale.py. Left: securemem solid with dots, the SDK dashed with squares; securemem's listings "
            "stop at the view cap (16,000 chars), the SDK lists every line. Right: securemem only. Log-scaled axes.",
            machine(),
        ],
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(svg, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="namespace sizes, comma-separated")
    parser.add_argument("--reps", type=int, default=100, help="calls per latency measure (the median is shown)")
    parser.add_argument("--budget", type=float, default=3.0, help="seconds at most per measure and subject")
    parser.add_argument("--sweep-rounds", type=int, default=3, help="sweeps per size (fresh store each)")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument(
        "--plot",
        type=Path,
        default=None,
        help=f"where the SVG plot goes (default: {DEFAULT_PLOT.relative_to(ROOT)}; with --smoke, the temp directory)",
    )
    parser.add_argument("--smoke", action="store_true", help="300 and 3,000 files, 10 reps, 1 sweep round")
    options = parser.parse_args(argv)
    sizes = [int(s) for s in options.sizes.split(",")]
    if options.smoke:
        sizes, options.reps, options.budget, options.sweep_rounds = [300, 3000], 10, 0.5, 1
    plot_path: Path = options.plot or (
        Path(tempfile.gettempdir()) / "securemem-scale-smoke.svg" if options.smoke else DEFAULT_PLOT
    )
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    print(machine())

    lat = {n: measure_latency(n, options.reps, options.budget, options.dir) for n in sizes}
    heads = [f"{n:,}" for n in sizes]
    print(
        f"\nmedian latency in ms (up to {options.reps} calls each, at most {options.budget:g} s per cell); "
        "securemem = regulated/full, quotas raised"
    )
    rows: list[list[object]] = []
    for measure in MEASURES:
        sm = [lat[n]["sm"][measure] for n in sizes]
        sdk = [lat[n]["SDK"][measure] for n in sizes]
        rows.append([measure, *sm, growth(sm), *sdk, growth(sdk)])
    rows.append(
        [
            "root listing chars",
            *[int(lat[n]["sm"]["listing chars"]) for n in sizes],
            "",
            *[int(lat[n]["SDK"]["listing chars"]) for n in sizes],
            "",
        ]
    )
    print(
        table(["measure", *[f"sm {h}" for h in heads], "sm growth", *[f"SDK {h}" for h in heads], "SDK growth"], rows)
    )
    print("bulk load, one transaction: " + ", ".join(f"{n:,} files {lat[n]['sm']['load s']:.2f} s" for n in sizes))
    print("securemem cuts listings at the policy's view.max_chars (16,000); the SDK returns every line.")
    print("\nspeed-up against the SDK (SDK ms / securemem ms)")
    print(
        table(
            ["measure", *heads],
            [[m, *[ratio(lat[n]["SDK"][m], lat[n]["sm"][m]) for n in sizes]] for m in MEASURES],
        )
    )

    print(f"\nexpiry sweep of every file (all expired), default batch; median of {options.sweep_rounds} round(s)")
    sweeps: list[SweepSummary] = []
    writer_rows: list[list[object]] = []
    probe_rows: list[list[object]] = []
    for n in sizes:
        runs = [sweep_once(n, options.dir, with_writer=False, probe=r == 0) for r in range(options.sweep_rounds)]
        probe_rows.append([f"{n:,}", runs[0].create_before, runs[0].listing_before])
        sweeps.append(
            SweepSummary(
                n,
                runs[0].deleted,
                runs[0].batches,
                median([r.seconds for r in runs]),
                median([r.longest_batch for r in runs]),
                median([r.median_batch for r in runs]),
                median([r.checkpoint for r in runs]),
                median([measure_floor(n, options.dir) for _ in range(options.sweep_rounds)]),
                erasure_lags=max(r.erasure_lags for r in runs),
            )
        )
        busy = sweep_once(n, options.dir, with_writer=True)
        sweeps[-1].writer_worst = busy.writer_worst
        writer_rows.append(
            [
                f"{n:,}",
                busy.seconds,
                busy.writer_ops,
                busy.writer_p99 * 1e3,
                busy.writer_worst * 1e3,
                busy.longest_batch * 1e3,
                busy.erasure_lags,
            ]
        )
    print(
        table(
            [
                "files",
                "deleted",
                "batches",
                "sweep s",
                "files/s",
                "longest batch ms",
                "median batch ms",
                "erasure checkpoint ms",
                "floor s",
                "erasure lags",
            ],
            [
                [
                    f"{s.files:,}",
                    s.deleted,
                    s.batches,
                    s.seconds,
                    s.files / s.seconds if s.seconds else float("nan"),
                    s.longest_batch * 1e3,
                    s.median_batch * 1e3,
                    s.checkpoint * 1e3,
                    s.floor,
                    s.erasure_lags,
                ]
                for s in sweeps
            ],
        )
    )
    print(
        "deleted counts directories too; the erasure checkpoint (flush_erasure, after the sweep) is timed apart, "
        "not in sweep s;\nfloor s = the same files in raw SQLCipher (same key form and PRAGMAs, secure_delete on), "
        "deleted by one DELETE\nwith the checkpoint that erases them: the least an erasing sweep costs on this disk;"
        "\nerasure lags = the store's warnings, during the sweep, that freed content was not erased within 1 s."
    )
    print("\nbefore the sweep, with every file expired but not swept yet: median ms (5 creates, 3 root listings)")
    print(table(["expired files", "create ms", "root listing ms"], probe_rows))
    print(
        "\nthe same sweep with a writer on a second connection (a create, 10 ms pause, repeat; one run per size);"
        "\nhere a batch's time includes its wait for the write lock:"
    )
    print(
        table(
            [
                "files",
                "sweep s",
                "writer ops during",
                "writer p99 ms",
                "writer worst ms",
                "longest batch+wait ms",
                "erasure lags",
            ],
            writer_rows,
        )
    )

    print("\ntargets:")
    first, last = sizes[0], sizes[-1]
    for measure in MEASURES:
        a, b = lat[first]["sm"][measure], lat[last]["sm"][measure]
        verdict = "flat" if b <= 2 * a else "GROWS"
        print(f"  {measure:<22} {a:8.2f} ms at {first:,} -> {b:8.2f} ms at {last:,} ({b / a:.1f}x): {verdict}")
    big = sweeps[-1]
    if big.files == SWEEP_FILES:
        verdict = "met" if big.seconds <= SWEEP_TARGET else "missed"
        if big.seconds > SWEEP_TARGET and big.floor > SWEEP_TARGET:
            verdict += f"; out of reach (the floor alone takes {big.floor:.2f} s)"
    else:
        verdict = f"not judged (the target is for {SWEEP_FILES:,} files)"
    print(
        f"  sweep of {big.files:,} expired files in {big.seconds:.2f} s (target: {SWEEP_FILES:,} in <= "
        f"{SWEEP_TARGET:g} s): {verdict}; "
        f"{big.batches} batches, longest {big.longest_batch * 1e3:.0f} ms; erasure checkpoint after it "
        f"{big.checkpoint * 1e3:.0f} ms"
    )

    plot(plot_path, sizes, lat, sweeps)
    print(f"\nplot written to {plot_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
