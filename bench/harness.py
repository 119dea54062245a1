"""Shared pieces of the storage benchmarks: workload text, stores, timing, tables, machine facts.

Imported by bench/throughput.py, bench/scale.py and bench/open_rss.py (run from the repository
root: each script puts the repository on sys.path itself, like bench/pii_bench.py). Nothing here
changes securemem: it only builds stores and measures them.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from securemem import SecureMemory  # noqa: E402
from securemem.policy import Policy, QuotaSettings, StorageSettings, load_policy  # noqa: E402

# Words for ordinary working notes: no names, numbers long enough to look like a phone, card or
# account number, addresses or keys, so the regulated policy's PII layer scrubs and refuses nothing.
_SUBJECTS = (
    "the release plan",
    "the migration runbook",
    "the onboarding guide",
    "the cache layer",
    "the billing service",
    "the search index",
    "the design review",
    "the retro notes",
    "the deployment pipeline",
    "the test suite",
    "the API docs",
    "the dashboard",
)
_VERBS = (
    "needs another pass on",
    "was updated to cover",
    "still lacks a section on",
    "now describes",
    "should link to",
    "was reviewed together with",
    "depends on",
    "blocks work on",
)
_OBJECTS = (
    "error handling",
    "rollback steps",
    "the retry policy",
    "latency budgets",
    "the data model",
    "feature flags",
    "the support rota",
    "capacity planning",
    "the upgrade path",
    "log retention",
)
_TAILS = (
    "before the next sync.",
    "as agreed on Tuesday.",
    "once the freeze ends.",
    "if time allows.",
    "per the last retro.",
    "for the quarter.",
    "with the platform team.",
    "after the demo.",
)


def note_text(index: int, size: int = 1024) -> str:
    """About ``size`` bytes of realistic notes, different per ``index``, with LF line endings.

    Line 2 is ``Status: open`` (unique in the file): the str_replace workload edits it.
    """
    rng = random.Random(index)
    lines = [f"# Notes {index}: {rng.choice(_SUBJECTS)}", "Status: open", ""]
    while sum(len(line) + 1 for line in lines) < size - 80:
        lines.append(
            f"- {rng.choice(_SUBJECTS).capitalize()} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {rng.choice(_TAILS)}"
        )
    return "\n".join(lines) + "\n"


# -- stores -----------------------------------------------------------------------------------


def policy_with(base: str = "regulated", *, durability: str | None = None, big_quotas: bool = False) -> Policy:
    """A shipped policy, optionally with another durability and/or quotas raised for big namespaces.

    ``big_quotas`` keeps the quota layer running (its checks cost the same) but lifts the limits to
    10 million files, 20 million files and directories, and 64 GiB, for namespaces larger than the
    regulated 2,000 files / 4,000 entries / 16 MiB. (A write over a limit first purges the expired
    entries in its own transaction: with the regulated limits, a bench's first create in a big
    expired namespace would do a whole sweep.)
    """
    policy = load_policy(base)
    update: dict[str, Any] = {}
    if durability is not None:
        update["storage"] = StorageSettings(durability=durability)  # type: ignore[arg-type]
    if big_quotas:
        update["quota"] = policy.quota.model_copy(
            update={"max_files": 10_000_000, "max_entries": 20_000_000, "max_total_bytes": 64 << 30}
        )
        assert isinstance(update["quota"], QuotaSettings)
    policy = policy.model_copy(update=update) if update else policy
    return policy.model_copy(update={"name": f"{base}/{policy.storage.durability}"})


def open_memory(
    directory: str | Path, policy: Policy, name: str = "store.db", key: bytes | str | None = None
) -> SecureMemory:
    return SecureMemory.open(Path(directory) / name, key=os.urandom(32) if key is None else key, policy=policy)


@contextmanager
def scratch_dir(base: str | None, label: str) -> Iterator[Path]:
    """A fresh directory for one store, removed afterwards (``base`` None: the system temp dir)."""
    with tempfile.TemporaryDirectory(prefix=f"securemem-bench-{label}-", dir=base) as where:
        yield Path(where)


# -- timing -----------------------------------------------------------------------------------


WAL_FRAME_HEADER, WAL_HEADER = 24, 32


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def wal_frames(wal: Path) -> int:
    """The frames of the WAL's current generation: those whose header carries the WAL header's salts.

    The WAL's size says nothing once a store gives an emptied WAL its room back as zeros (securemem
    does after each erasure): commits then overwrite instead of append. Frame headers are SQLite's,
    in clear; only the pages are encrypted.
    """
    try:
        data = wal.read_bytes()
    except OSError:
        return 0
    if len(data) < WAL_HEADER or int.from_bytes(data[:4], "big") not in (0x377F0682, 0x377F0683):
        return 0
    frame = WAL_FRAME_HEADER + int.from_bytes(data[8:12], "big")
    salts, count, at = data[16:24], 0, WAL_HEADER
    while at + frame <= len(data) and data[at + 8 : at + 16] == salts:
        count, at = count + 1, at + frame
    return count


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- output -----------------------------------------------------------------------------------


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, left: Sequence[int] = (0,)) -> str:
    """A plain-text table: the ``left`` columns left-aligned (the first by default), the others right-aligned."""
    cells = [[str(c) for c in headers], *[[_fmt(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    out = []
    for n, row in enumerate(cells):
        out.append(
            "  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i]) for i, c in enumerate(row)).rstrip()
        )
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _fmt(value: object) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "-" if value is None else str(value)


def ratio(a: float, b: float) -> str:
    return "-" if not (a == a and b == b) or b == 0 else f"{a / b:.2f}x"


def machine() -> str:
    """One line about where the figures come from."""
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import sqlcipher3

        conn = sqlcipher3.connect(":memory:")
        cipher = f"SQLCipher {conn.execute('PRAGMA cipher_version').fetchone()[0]} (SQLite {sqlcipher3.sqlite_version})"
        conn.close()
    except Exception:  # only a label
        cipher = "sqlcipher3 ?"
    return (
        f"machine: {os.cpu_count()} CPUs, {model}; Python {platform.python_version()}; {cipher}; "
        f"temp fs: {_fs_type(tempfile.gettempdir())}; securemem at {_revision()}"
    )


def _revision() -> str:
    """The commit measured, and whether securemem/ had uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            timeout=5,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "securemem"],
            capture_output=True,
            text=True,
            check=False,
            timeout=5,
        ).stdout.strip()
    except Exception:  # only a label
        return "?"
    return f"{head or '?'}{' + uncommitted changes' if dirty else ''}"


def _fs_type(path: str) -> str:
    try:
        out = subprocess.run(["df", "-T", path], capture_output=True, text=True, check=False, timeout=5).stdout
        return out.splitlines()[1].split()[1]
    except Exception:  # only a label
        return "?"
