"""Which b-tree each page a command writes belongs to: where a command's encrypted pages come from.

Run from the repository root (a diagnostic for whoever optimises, not part of run_all):

    .venv/bin/python bench/page_owners.py                         # regulated, 1,000 files, 40 commands a phase
    .venv/bin/python bench/page_owners.py --policy default --files 2000
    .venv/bin/python bench/page_owners.py --smoke

bench/throughput.py's workload fills a store (its creates), then, with WAL auto-checkpoints off, runs
``--sample`` commands of each phase and records the page numbers of the WAL frames each appends (the
frame headers are SQLite's, in clear). After the phase a checkpoint copies the pages into the file,
which is then decrypted with the store's own key (``store/pages.py``, the scrub's reader) and walked
from each table's and index's root page: every page reached is that b-tree's (a leaf or an interior
page); a page reached from none is an overflow page, a page on the freelist or page 1 (the file's
header, written whenever the file grows). The table prints, per command, the pages it wrote by owner.
Each page is 4 KiB of AES-256-CBC and an HMAC to compute, and 4 KiB to fsync at the COMMIT.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import WAL_FRAME_HEADER, WAL_HEADER, machine, open_memory, policy_with, scratch_dir, table
from throughput import phases

PHASES = ("create", "str_replace", "insert", "rename", "delete")
_INTERIOR = (2, 5)  # b-tree page types: interior index, interior table (10 and 13 are their leaves)
_LEAVES = (10, 13)
UNOWNED = "other (overflow, freelist, page 1)"


def wal_pages(wal: Path) -> list[int]:
    """The page numbers of the WAL's current generation's frames, in order."""
    try:
        data = wal.read_bytes()
    except OSError:
        return []
    if len(data) < WAL_HEADER:
        return []
    frame = WAL_FRAME_HEADER + int.from_bytes(data[8:12], "big")
    salts, found, at = data[16:24], [], WAL_HEADER
    while at + frame <= len(data) and data[at + 8 : at + 16] == salts:
        found.append(int.from_bytes(data[at : at + 4], "big"))
        at += frame
    return found


def owners(
    path: Path, page_size: int, decrypt: Callable[[bytes, int], Any], roots: list[tuple[str, int]]
) -> dict[int, str]:
    """Each page reached from a root: its b-tree's name and whether it is a leaf or an interior page."""
    raw = path.read_bytes()
    found: dict[int, str] = {}
    for name, root in roots:
        stack = [root]
        while stack:
            number = stack.pop()
            if number in found or not 0 < number <= len(raw) // page_size:
                continue
            page = decrypt(raw[(number - 1) * page_size : number * page_size], number)
            if page is None:
                found[number] = f"{name} (unreadable)"
                continue
            head = 100 if number == 1 else 0
            kind = page[head]
            found[number] = f"{name} {'leaf' if kind in _LEAVES else 'interior'}"
            if kind in _INTERIOR:
                cells = int.from_bytes(page[head + 3 : head + 5], "big")
                stack.append(int.from_bytes(page[head + 8 : head + 12], "big"))
                for index in range(cells):
                    at = int.from_bytes(page[head + 12 + 2 * index : head + 14 + 2 * index], "big")
                    stack.append(int.from_bytes(page[at : at + 4], "big"))
    return found


def measure(policy_name: str, files: int, sample: int, base: str | None) -> dict[str, tuple[float, Counter[str]]]:
    """Per phase: pages per command, and the pages by owner over the sampled commands."""
    inputs = dict(phases(files, 1))
    results: dict[str, tuple[float, Counter[str]]] = {}
    with scratch_dir(base, "owners") as where:
        mem = open_memory(where, policy_with(policy_name, durability="full"))
        store: Any = mem.store  # the SQLCipher store: its connection, path and page codec, read for this count only
        try:
            for inp in inputs["create"][: files - sample]:
                if mem.execute(inp).is_error:
                    raise RuntimeError(f"{policy_name}: create failed")
            store.flush_erasure()
            store.configure(durability="full", erase_within=3600.0)
            conn = store._conn
            conn.execute("PRAGMA wal_autocheckpoint = 0").fetchall()
            page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
            wal = Path(f"{store.path}-wal")
            for phase in PHASES:
                chosen = inputs[phase][files - sample : files] if phase == "create" else inputs[phase][:sample]
                written: list[int] = []
                for inp in chosen:
                    before = len(wal_pages(wal))
                    if mem.execute(inp).is_error:
                        raise RuntimeError(f"{policy_name}: {phase} failed")
                    written += wal_pages(wal)[before:]
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                roots = [
                    (str(n), int(r))
                    for n, r in conn.execute("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0")
                ]
                found = owners(Path(store.path), page_size, store._codec.decrypt, roots)
                results[phase] = (len(written) / len(chosen), Counter(found.get(page, UNOWNED) for page in written))
                store.flush_erasure()
        finally:
            mem.close()
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--policy", default="regulated")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=40, help="commands of each phase whose pages are counted")
    parser.add_argument("--dir", default=None, help="where the store is made (default: the system's temp dir)")
    parser.add_argument("--smoke", action="store_true", help="200 files, 10 commands a phase")
    options = parser.parse_args(argv)
    files, sample = (200, 10) if options.smoke else (options.files, options.sample)
    if sample * 2 > files:
        parser.error("--files must be at least twice --sample")
    print(machine())
    print(f"policy {options.policy}, durability full, {files:,} files, {sample} commands a phase\n")
    results = measure(options.policy, files, sample, options.dir)
    names = sorted({name for _, counts in results.values() for name in counts})
    rows = [[name, *[f"{results[p][1][name] / sample:.2f}" for p in PHASES]] for name in names]
    rows.append(["pages per command", *[f"{results[p][0]:.2f}" for p in PHASES]])
    print("WAL frames (encrypted pages) per command, by the b-tree that owns the page")
    print(table(["owner", *PHASES], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
