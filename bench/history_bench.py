"""The version history: what a version costs each write, how listing versions scales, how long a chain check takes.

Run from the repository root:

    .venv/bin/python bench/history_bench.py            # about 5-7 minutes on 2 cores
    .venv/bin/python bench/history_bench.py --smoke    # seconds

1. Cost of versioning (anchor: the same policy with the history off). create, str_replace and
   delete through ``SecureMemory.execute`` at full durability, N ~1 KB files per phase, on a fresh
   store per subject and round: the "default" and "regulated" policies, each with the history
   keeping content (as shipped), keeping metadata only, and off. Phases run side by side, the
   subjects' order rotating each round, so the machine's noise hits every subject alike; ops/s is
   N over the median phase time (the erasure still pending at the end of a phase included, as in
   throughput.py), ms the median of every command's own latency. Beside them, from separate
   passes: SQL statements per command (the store's ``last_statements``, BEGIN/COMMIT not counted)
   and WAL pages each commit writes (auto-checkpoints off).
2. Listing versions (anchor: the first page). One store grown to 20k, 100k and 1M versions (a
   memory with 10,000 of them); at each size ``admin.memory_versions.list`` is timed on its first
   page, on page 400 of limit 20 (walked to once with cursors, then fetched again with its cursor)
   and on the last page (the oldest versions), for the whole store, for one memory, for deleted
   versions, for time bounds, and for filters that no index serves (a session; deleted versions of
   a memory that has none), which read back through the history until a page is full.
3. Audit verify (anchor: linear in the versions, memory flat). ``history.check`` over the store's
   whole chain at each size, in a fresh process each time: wall time and peak RSS of that process.

Stores go to the system temp directory (``--dir`` to choose) and are removed.
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
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import machine, median, note_text, open_memory, policy_with, scratch_dir, table, timed, wal_frames

from securemem.admin import Admin, MemoryVersion, Page
from securemem.policy import Policy
from securemem.store.base import Actor
from securemem.text import count_lines

Input = dict[str, Any]
VARIANTS = ("keep", "metadata", "off")
POLICIES = ("default", "regulated")
COMMANDS = ("create", "str_replace", "delete")
TARGET_PRICE = 25.0  # percent: what versioning may add to a write at most

# -- 1. cost of versioning ----------------------------------------------------------------------


def variant_policy(base: str, variant: str) -> Policy:
    """A shipped policy at full durability with its history keeping content, metadata, or nothing."""
    policy = policy_with(base, durability="full")
    settings = policy.history.model_copy(
        update={"versions": variant != "off", "content": "metadata" if variant == "metadata" else "keep"}
    )
    return policy.model_copy(update={"history": settings, "name": f"{base}/full/history-{variant}"})


def path_of(i: int) -> str:
    return f"/memories/proj{i % 10}/topic{(i // 10) % 20}/note{i}.md"


def cost_phases(files: int) -> list[tuple[str, list[Input]]]:
    """Each phase's inputs, built before timing so that only the command is measured."""
    n = range(files)
    edit = {"command": "str_replace", "old_str": "Status: open", "new_str": "Status: in review"}
    return [
        ("create", [{"command": "create", "path": path_of(i), "file_text": note_text(i)} for i in n]),
        ("str_replace", [{**edit, "path": path_of(i)} for i in n]),
        ("delete", [{"command": "delete", "path": path_of(i)} for i in n]),
    ]


@dataclass
class Cell:
    """One subject's figures for one command, over every round."""

    phase: list[float] = field(default_factory=list)  # seconds of the phase, with its final erasure
    per_op: list[float] = field(default_factory=list)  # seconds of each command
    statements: list[int] = field(default_factory=list)
    pages: float = float("nan")  # WAL pages per commit (the counting pass)

    def ops_per_s(self, n: int) -> float:
        return n / median(self.phase)

    def ms(self) -> float:
        return median(self.per_op) * 1e3

    def prices(self, anchor: Cell) -> list[float]:
        """Percent of time added over ``anchor``, one figure per round (the pair ran side by side)."""
        return [100 * (mine / theirs - 1) for mine, theirs in zip(self.phase, anchor.phase, strict=True)]


Subject = tuple[str, str]  # (policy, variant)


def run_phase(mem: Any, inputs: list[Input], cell: Cell) -> None:
    store: Any = mem.store  # the SQLCipher store: last_statements and flush_erasure are its own
    started = time.perf_counter()
    for inp in inputs:
        t0 = time.perf_counter()
        result = mem.execute(inp)
        cell.per_op.append(time.perf_counter() - t0)
        if result.is_error:
            raise RuntimeError(f"{mem.policy.name}: {inp['command']} failed: {result.text}")
        cell.statements.append(int(store.last_statements))
    store.flush_erasure()  # the erasure still pending: the phase's own cost, as in throughput.py
    cell.phase.append(time.perf_counter() - started)


def round_order(r: int) -> list[Subject]:
    """The subjects of round ``r``: one policy's three variants always side by side (so one moment's
    disk weather hits them alike), the variants' order rotating and the policies' alternating."""
    variants = VARIANTS[r % 3 :] + VARIANTS[: r % 3]
    policies = POLICIES if r % 2 == 0 else POLICIES[::-1]
    return [(p, v) for p in policies for v in variants]


def measure_cost(files: int, rounds: int, base: str | None) -> dict[Subject, dict[str, Cell]]:
    subjects = [(p, v) for p in POLICIES for v in VARIANTS]
    policies = {s: variant_policy(*s) for s in subjects}
    cells = {s: {c: Cell() for c in COMMANDS} for s in subjects}
    work = cost_phases(files)
    for r in range(rounds):
        order = round_order(r)
        with ExitStack() as stack:
            mems = []
            for s in order:
                mem = open_memory(stack.enter_context(scratch_dir(base, f"cost-{s[0]}-{s[1]}")), policies[s])
                stack.callback(mem.close)
                mems.append(mem)
            for command, inputs in work:
                for s, mem in zip(order, mems, strict=True):
                    run_phase(mem, inputs, cells[s][command])
        print(f"  cost: round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    for s in subjects:
        count_pages(policies[s], min(files, 100), base, cells[s])
    return cells


def count_pages(policy: Policy, files: int, base: str | None, cells: dict[str, Cell]) -> None:
    """WAL pages per command on a fresh store, auto-checkpoints off and erasure at each phase's end."""
    with scratch_dir(base, "pages") as where:
        mem = open_memory(where, policy)
        store: Any = mem.store
        try:
            store.flush_erasure()
            store.configure(durability="full", erase_within=3600.0)
            store._conn.execute("PRAGMA wal_autocheckpoint = 0").fetchall()
            wal = Path(f"{store.path}-wal")
            for command, inputs in cost_phases(files):
                before = wal_frames(wal)
                for inp in inputs:
                    mem.execute(inp)
                cells[command].pages = (wal_frames(wal) - before) / len(inputs)
                store.flush_erasure()  # truncates the WAL: the next phase starts from an empty one
        finally:
            mem.close()


def report_cost(cells: dict[Subject, dict[str, Cell]], files: int, rounds: int) -> None:
    print(
        f"\n1. cost of versioning at full durability: ops/s and median ms per command; {files:,} files of ~1 KB "
        f"per phase,\n   {rounds} round(s) on fresh stores, subjects side by side in rotating order "
        "(history: keep = versions with content, as shipped;\n   meta = content 'metadata'; off = versions false)"
    )
    rows = []
    for policy in POLICIES:
        for command in COMMANDS:
            keep, meta, off = (cells[(policy, v)][command] for v in VARIANTS)
            per_round = keep.prices(off)
            price_keep, price_meta = median(per_round), median(meta.prices(off))
            rows.append(
                [
                    policy,
                    command,
                    *[c.ops_per_s(files) for c in (keep, meta, off)],
                    *[c.ms() for c in (keep, meta, off)],
                    f"{price_keep:+.1f}%",
                    f"{price_meta:+.1f}%",
                    f"{min(per_round):+.0f}..{max(per_round):+.0f}%",
                    "met" if price_keep < TARGET_PRICE else "missed",
                    "/".join(f"{median(c.statements):g}" for c in (keep, meta, off)),
                    "/".join(f"{c.pages:.1f}" for c in (keep, meta, off)),
                ]
            )
    headers = ["policy", "command", "ops/s keep", "ops/s meta", "ops/s off", "ms keep", "ms meta", "ms off"]
    headers += ["price keep", "price meta", "keep, rounds", f"keep < {TARGET_PRICE:g}%"]
    headers += ["stmts keep/meta/off", "pages keep/meta/off"]
    print(table(headers, rows, left=(0, 1, 11)))
    print(
        "price = time added per command over the history off: each round's phase time against the same round's "
        "'off' phase (run\n  side by side), the median over rounds; 'keep, rounds' = the lowest and the highest "
        "round. The erasure at the end of\n  each phase is included.\n"
        "stmts = median SQL statements of the command's transaction (store.last_statements; BEGIN and COMMIT not "
        "counted).\npages = encrypted 4 KiB WAL pages per commit (a separate pass, auto-checkpoints off), each "
        "written and fsynced at COMMIT."
    )


# -- 2. the history fixture ---------------------------------------------------------------------

HOT_PATH = "/memories/hot.md"
LIFE = 10  # an ordinary memory: created, 8 times modified, deleted
DIRS = 50
BATCH = 10_000  # versions per fixture transaction
SEED = 20  # the first versions, in a session of their own (the sparse-filter listings look for them)
SEED_SESSION = "sess_seed"


class Fixture:
    """One store whose history grows through the store's own write path (``tx.put_file``, ``tx.delete``).

    Until the hot memory has ``hot`` versions, every other version is one of its edits; the others
    come from ``slots`` files at a time, each living ``LIFE`` versions (created, modified, deleted),
    then replaced by a new file (a new memory). Each transaction is a session of its own, a minute
    after the one before; the first ``SEED`` versions are the session ``sess_seed``.
    """

    def __init__(self, where: Path, hot: int, slots: int) -> None:
        self.key = os.urandom(32)
        self.db = where / "history.db"
        self.admin = Admin.open(self.db, key=self.key, policy=policy_with("default", durability="normal"))
        self.store: Any = self.admin.store
        self.namespace = "default"
        self.hot_target, self.slots = hot, slots
        self.hot = self.others = self.deleted = self.batches = self.last_batch = 0
        texts = [note_text(k, 256) for k in range(500)]
        self.texts = [(t.encode("utf-8"), count_lines(t)) for t in texts]
        self.start = float(int(time.time()) - 365 * 86400)  # a year ago, whole seconds: exact as a datetime

    @property
    def versions(self) -> int:
        return self.hot + self.others

    def at(self, batch: int) -> float:
        return self.start + 60.0 * batch

    def grow(self, total: int) -> float:
        """Add versions until the store has ``total``; seconds taken (the final erasure included)."""
        started = time.perf_counter()
        if self.versions == 0:
            self._batch(SEED, SEED_SESSION)
        while self.versions < total:
            self._batch(min(BATCH, total - self.versions), f"sess_fixture{self.batches:05d}")
        self.store.flush_erasure()
        return time.perf_counter() - started

    def _batch(self, n: int, session: str) -> None:
        at = self.at(self.batches)
        actor = Actor(session, "fixture")
        with self.store.transaction(self.namespace, write=True, clock=lambda: at, actor=actor) as tx:
            for _ in range(n):
                # Alternating: a memory changed twice in a row in one transaction folds into one version.
                if self.hot < self.hot_target and self.hot <= self.others:
                    self._hot_edit(tx)
                else:
                    self._other(tx)
        self.batches, self.last_batch = self.batches + 1, n

    def _hot_edit(self, tx: Any) -> None:
        data, lines = self.texts[self.hot % len(self.texts)]
        tx.put_file(HOT_PATH, data, lines, None, tx.stat(HOT_PATH) if self.hot else None)
        self.hot += 1

    def _other(self, tx: Any) -> None:
        k = self.others
        slot, cycle = k % self.slots, k // self.slots
        path = f"/memories/s{slot % DIRS}/n{slot}g{cycle // LIFE}.md"
        data, lines = self.texts[k % len(self.texts)]
        step = cycle % LIFE
        if step == 0:
            tx.put_file(path, data, lines, None, None)
        elif step == LIFE - 1:
            tx.delete(path, tx.stat(path))
            self.deleted += 1
        else:
            tx.put_file(path, data, lines, None, tx.stat(path))
        self.others += 1

    def close(self) -> None:
        self.admin.close()


# -- 2. listing versions ------------------------------------------------------------------------

LIMIT = 20
DEEP_PAGE = 400
WALK_LIMIT = 1000  # the admin surface's largest page: the walks to deep pages use it


@dataclass
class Listing:
    label: str
    filters: dict[str, Any]
    matching: int
    paged: bool = True  # False: the first page only (each call may read the whole history)


@dataclass
class ListingTimes:
    size: int
    label: str
    matching: int
    first_ms: float
    deep_page: int | None = None
    deep_ms: float = float("nan")
    oldest_page: int | None = None
    oldest_ms: float = float("nan")


def listings(fx: Fixture, hot_id: str) -> list[Listing]:
    first, newest = (datetime.fromtimestamp(fx.at(b), UTC) for b in (0, fx.batches - 1))
    return [
        Listing("store", {}, fx.versions),
        Listing("memory_id (the hot memory)", {"memory_id": hot_id}, fx.hot),
        Listing("operation=deleted", {"operation": "deleted"}, fx.deleted),
        Listing("memory_id + operation=deleted", {"memory_id": hot_id, "operation": "deleted"}, 0),
        Listing(f"session_id ({SEED} oldest versions)", {"session_id": SEED_SESSION}, SEED),
        Listing("created_at_lte (oldest minute)", {"created_at_lte": first}, SEED),
        Listing("created_at_gte (since the oldest minute)", {"created_at_gte": first}, fx.versions, paged=False),
        Listing("created_at_gte (the newest minute)", {"created_at_gte": newest}, fx.last_batch, paged=False),
    ]


def time_ms(fn: Callable[[], object], reps: int = 9, budget: float = 1.5) -> float:
    """Median ms of ``fn`` after one warm-up call; stops early once ``budget`` seconds are spent (3 calls at least)."""
    fn()
    times: list[float] = []
    while len(times) < reps and (len(times) < 3 or sum(times) < budget):
        times.append(timed(fn))
    return median(times) * 1e3


Lister = Callable[..., Page[MemoryVersion]]


def walk(lister: Lister, cursor: str | None, rows: int) -> str | None:
    """The cursor after ``rows`` more rows of the listing, from ``cursor`` on."""
    while rows > 0:
        n = min(WALK_LIMIT, rows)
        page = lister(limit=n, page=cursor)
        assert len(page.data) == n and page.next_page is not None, "the fixture holds fewer versions than counted"
        cursor, rows = page.next_page, rows - n
    return cursor


def measure_listing(admin: Admin, store_id: str, size: int, listing: Listing) -> ListingTimes:
    def lister(**kw: Any) -> Page[MemoryVersion]:
        return admin.memory_versions.list(store_id, **listing.filters, **kw)

    first = lister(limit=LIMIT)
    assert len(first.data) == min(LIMIT, listing.matching), f"{listing.label}: {len(first.data)} rows"
    out = ListingTimes(size, listing.label, listing.matching, time_ms(lambda: lister(limit=LIMIT)))
    pages = -(-listing.matching // LIMIT)
    if pages < 3 or not listing.paged:
        return out
    out.deep_page = min(DEEP_PAGE, pages - 1)
    cursor = walk(lister, None, (out.deep_page - 1) * LIMIT)
    out.deep_ms = time_ms(lambda: lister(limit=LIMIT, page=cursor))
    out.oldest_page = pages
    last = walk(lister, cursor, (pages - out.deep_page) * LIMIT)
    oldest = lister(limit=LIMIT, page=last)
    assert oldest.next_page is None and oldest.data, f"{listing.label}: the last page is not where counted"
    out.oldest_ms = time_ms(lambda: lister(limit=LIMIT, page=last))
    return out


def report_listing(times: list[ListingTimes], fx: Fixture, built: dict[int, float]) -> None:
    sizes = ", ".join(f"{n:,} ({s:.0f} s)" for n, s in built.items())
    print(
        f"\n2. listing versions: admin.memory_versions.list, ms per call (median), limit {LIMIT}; one store grown to "
        f"{sizes}\n   fixture: built through the store's write path (tx.put_file / tx.delete, {BATCH:,} versions per "
        "transaction, durability normal,\n   each transaction its own session and minute); the hot memory "
        f"{HOT_PATH} had every other version until it had {fx.hot_target:,};\n   the others: {fx.slots:,} files at "
        f"a time, each created, modified {LIFE - 2} times, deleted ({100 / LIFE:.0f}% deletes); "
        "~256 B per version,\n   content kept. Page N was walked to once with cursors (limit 1,000), then timed with "
        "its cursor; 'last' is the page of the oldest versions."
    )
    labels = list(dict.fromkeys(t.label for t in times))
    rows = []
    for t in sorted(times, key=lambda t: (labels.index(t.label), t.size)):
        rows.append(
            [
                t.label,
                t.size,
                t.matching,
                t.first_ms,
                "-" if t.deep_page is None else f"{t.deep_page:,}",
                t.deep_ms,
                "-" if t.oldest_page is None else f"{t.oldest_page:,}",
                t.oldest_ms,
            ]
        )
    headers = ["listing", "store versions", "matching", "first page ms", "page N", "page N ms", "last", "last ms"]
    print(table(headers, rows))


# -- 3. audit verify ----------------------------------------------------------------------------


@dataclass
class VerifyRun:
    versions: int
    db_mib: float
    open_s: float
    check_s: float
    rss_open_mib: float
    rss_peak_mib: float
    problems: int


def peak_rss_kib() -> int:
    """This process's peak RSS. On Linux, VmHWM: ru_maxrss keeps the high-water mark of the process
    that forked this one across the exec (the bench's own 80+ MiB would show as the child's)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def verify_child(db: str, namespace: str) -> int:
    """In a fresh process: open the store and check its chain, as ``securemem audit verify`` would."""
    from securemem.store import history
    from securemem.store.factory import open_store

    key = bytes.fromhex(sys.stdin.readline().strip())
    started = time.perf_counter()
    store: Any = open_store(db, key, create=False)
    info = store.find_store(name=namespace)
    opened = time.perf_counter()
    rss_open = peak_rss_kib()
    report = history.check(info.key, store.chain(info.name))
    checked = time.perf_counter()
    rss_peak = peak_rss_kib()
    store.close()
    facts = {"versions": report.versions, "open_s": opened - started, "check_s": checked - opened}
    facts |= {"rss_open_kib": rss_open, "rss_peak_kib": rss_peak, "problems": len(report.problems)}
    print(json.dumps(facts))
    return 0


def verify(fx: Fixture) -> VerifyRun:
    fx.store.flush_erasure()  # nothing left in the WAL for the child's open to scrub
    child = subprocess.run(
        [sys.executable, __file__, "--verify-child", str(fx.db), fx.namespace],
        input=fx.key.hex() + "\n",  # on stdin: a key never goes on a command line
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(child.stdout.strip().splitlines()[-1])
    run = VerifyRun(
        got["versions"],
        fx.db.stat().st_size / 2**20,
        got["open_s"],
        got["check_s"],
        got["rss_open_kib"] / 1024,
        got["rss_peak_kib"] / 1024,
        got["problems"],
    )
    assert run.versions == fx.versions, f"the chain has {run.versions} versions, the fixture wrote {fx.versions}"
    assert run.problems == 0, "the fixture's chain does not check"
    return run


def report_verify(runs: list[VerifyRun]) -> None:
    print(
        "\n3. audit verify: securemem.store.history.check(info.key, store.chain(info.name)) over the whole chain, "
        "in a fresh\n   process per size (the store file just written: warm page cache); peak RSS = that process's "
        "VmHWM\n   (its ru_maxrss would include the bench's own RSS, inherited across fork and exec)"
    )
    rows = [
        [
            r.versions,
            r.db_mib,
            r.open_s * 1e3,
            r.check_s,
            r.versions / r.check_s,
            r.check_s / r.versions * 1e6,
            r.rss_open_mib,
            r.rss_peak_mib,
            r.rss_peak_mib - r.rss_open_mib,
            r.problems,
        ]
        for r in runs
    ]
    headers = ["versions", "store MiB", "open ms", "check s", "versions/s", "us/version"]
    headers += ["peak RSS at open MiB", "peak RSS MiB", "check adds MiB", "problems"]
    print(table(headers, rows, left=()))


# -- running ------------------------------------------------------------------------------------


def history_sizes(sizes: Sequence[int], hot: int, slots: int, base: str | None) -> None:
    times: list[ListingTimes] = []
    runs: list[VerifyRun] = []
    built: dict[int, float] = {}
    with scratch_dir(base, "history") as where:
        fx = Fixture(where, hot, slots)
        try:
            for size in sizes:
                built[size] = fx.grow(size)
                store_id = fx.admin.memory_stores.list().data[0].id
                hot_id = fx.admin.memories.list(store_id, path_prefix=HOT_PATH[len("/memories") :]).data[0].id
                print(f"  history: {size:,} versions built in {built[size]:.1f} s", file=sys.stderr, flush=True)
                times += [measure_listing(fx.admin, store_id, size, one) for one in listings(fx, hot_id)]
                runs.append(verify(fx))
                print(f"  history: {size:,} versions listed and checked", file=sys.stderr, flush=True)
        finally:
            fx.close()
    report_listing(times, fx, built)
    report_verify(runs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=500, help="files per phase in the cost of versioning")
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the cost of versioning (the median is shown)")
    parser.add_argument("--sizes", default="20000,100000,1000000", help="versions in the history, comma-separated")
    parser.add_argument("--hot", type=int, default=10_000, help="versions of the one memory listed alone")
    parser.add_argument("--slots", type=int, default=1000, help="ordinary memories alive at a time in the fixture")
    parser.add_argument("--dir", default=None, help="where stores go (default: the system temp directory)")
    parser.add_argument("--smoke", action="store_true", help="30 files, 1 round; histories of 400 and 2,000")
    parser.add_argument("--verify-child", nargs=2, metavar=("DB", "NAMESPACE"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.verify_child:
        return verify_child(*options.verify_child)
    if options.smoke:
        options.files, options.rounds, options.sizes, options.hot, options.slots = 30, 1, "400,2000", 200, 20
    sizes = sorted(int(s) for s in options.sizes.split(","))
    if sizes[0] < 2 * options.hot:
        parser.error(f"the smallest history must hold twice --hot ({2 * options.hot:,} versions)")
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    print(machine())
    report_cost(measure_cost(options.files, options.rounds, options.dir), options.files, options.rounds)
    history_sizes(sizes, options.hot, options.slots, options.dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
