"""``securemem audit verify | head``: the hash chain of each store's versions, for an auditor.

``verify`` walks every version of every store (or of ``--store``) and names each one the chain
does not vouch for: a row changed, removed or moved by someone who held the key and edited the
file directly. It then compares each memory's live row with what the chain vouches for: a memory
whose row is gone, or whose live path or content is not what its newest version records (the
content's SHA-256, which every version keeps, whatever the history keeps of the text), was
changed outside securemem, or while the history was off. A redaction made through securemem is
chained, so it is never flagged. The chain cannot vouch for its own end (a cut tail leaves a
shorter valid chain), so ``head`` prints each store's version count and last link, for the
auditor to keep outside the store; ``verify --pinned FILE`` (that output, kept) then checks that
each chain still runs through its pinned head and that no pinned store is gone.

Both read the store below the policy layers (no policy is loaded or recorded) and change nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from securemem.admin.ids import Ids
from securemem.cli import EXIT_COMMAND, EXIT_OK, UsageError, open_db
from securemem.cli_admin import Subcommands, command, emit, find_store, group
from securemem.errors import StorageError, StoreBusyError
from securemem.paths import ROOT, ancestors
from securemem.private_files import read_limited
from securemem.store.base import Store, StoreInfo, VersionRow
from securemem.store.history import ChainProblem, ChainReport, check, digest

LIST_BATCH = 100
HEAD_BYTES = 32  # a link is a SHA-256
GONE_BATCH = 500  # files read per transaction when the rows are compared with the history


def stores_of(store: Store, ref: str | None) -> Iterator[StoreInfo]:
    """The store ``ref`` names, or every store of the file in creation order."""
    if ref is not None:
        yield find_store(store, ref)
        return
    after = None
    while batch := store.list_stores(after, LIST_BATCH):
        yield from batch
        after = batch[-1].key


Recorded = tuple[str, bytes] | None  # the path and content hash a memory's newest version records


@dataclass
class Newest:
    """Per memory, what its newest version says: ``live``, whether it leaves the memory in the
    store; ``recorded``, the path and content SHA-256 it records (None: redacted, so the chain no
    longer vouches for them)."""

    live: dict[int, bool] = field(default_factory=dict)
    recorded: dict[int, Recorded] = field(default_factory=dict)


def chain_of(store: Store, info: StoreInfo, pinned: bytes | None = None, newest: Newest | None = None) -> ChainReport:
    # By number, not name: another process may rename the store (and give its name to a new one)
    # between the listing and this read; the chain checked is then still the listed store's.
    rows = store.chain(info.name, store_key=info.key)
    return check(info.key, rows if newest is None else _tracking(rows, newest), pinned=pinned)


def _tracking(rows: Iterator[VersionRow], newest: Newest) -> Iterator[VersionRow]:
    """The rows, noting for each memory what its newest version says (see ``Newest``)."""
    for row in rows:
        if row.malformed is None and row.op in ("created", "modified"):
            newest.live[row.memory] = True
            newest.recorded[row.memory] = _vouched(row)
        elif row.malformed is None and row.op in ("deleted", "expired"):
            newest.live[row.memory] = False
            newest.recorded.pop(row.memory, None)
        yield row


@dataclass
class RowsFound:
    """What the live rows say against the history: memories whose row is gone, files whose
    directory's row is gone, and files whose path (``moved``) or content (``changed``) is not what
    their newest version records."""

    gone: list[int] = field(default_factory=list)
    orphans: list[int] = field(default_factory=list)
    moved: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)


def _vouched(row: VersionRow) -> Recorded:
    """The path and content hash a version records, when its digest commits to them: not once it
    is redacted, nor when they were edited (the chain check names that row; a live row compared
    with them would only repeat it)."""
    path, sha = row.path, row.sha256
    if row.redacted is not None or path is None or sha is None:
        return None
    committed = digest(row.salt, path, sha, row.size, row.data is not None) == row.digest
    return (path, sha) if committed else None


def rows_gone(store: Store, info: StoreInfo, newest: Newest) -> RowsFound:
    """The memories the history says are in the store whose rows are not, the files whose
    directory's row is not (deleted outside securemem: a DBA's DELETE), and the files whose path or
    content differs from what their newest version records (edited outside securemem). Read as
    at time 0, when nothing has expired: a file expired and not yet swept still has its row (the
    sweep that removes it records an "expired" version)."""
    rows = RowsFound()
    present: set[int] = set()
    seen: dict[str, bool] = {ROOT: True}  # directory path -> its row is there
    after: str | None = None
    while True:
        with store.transaction(info.name, write=False, clock=lambda: 0.0, store_key=info.key) as tx:
            batch = tx.files(ROOT + "/", after, GONE_BATCH)
            for entry, _ in batch:
                for directory in ancestors(entry.path)[1:]:
                    if directory not in seen:
                        found = tx.stat(directory)
                        seen[directory] = found is not None and found.is_dir
                    if not seen[directory]:
                        rows.orphans.append(entry.memory)  # listings no longer reach it
                        break
        if not batch:
            break
        for entry, data in batch:
            _compare(entry.memory, entry.path, data, newest.recorded.get(entry.memory), rows)
        present.update(entry.memory for entry, _ in batch)
        after = batch[-1][0].path
    rows.gone = sorted(memory for memory, alive in newest.live.items() if alive and memory not in present)
    return rows


def _compare(memory: int, path: str, data: bytes, recorded: Recorded, found: RowsFound) -> None:
    """A live file against its newest version: a memory with no whole version to compare with (none
    recorded with the history off, redacted, or its deletion restored) is vouched for by nothing."""
    if recorded is None:
        return
    if path != recorded[0]:
        found.moved.append(memory)
    if not hmac.compare_digest(hashlib.sha256(data).digest(), recorded[1]):
        found.changed.append(memory)


def row_problems(store: Store, info: StoreInfo, newest: Newest, ids: Ids) -> list[dict[str, Any]]:
    """A problem line for each memory ``rows_gone`` names, or for rows a tampered store refuses to read."""
    try:
        found = rows_gone(store, info, newest)
    except StoreBusyError:
        raise  # another writer, not damage: the run's error (exit 2), never a broken chain (an attacker's round)
    except StorageError as exc:  # the chain is still reported
        return [{"version_id": None, "seq": None, "problem": f"its rows could not be read: {exc}"}]
    why = [
        (
            memory,
            "its history says it is in the store, but its row is gone (deleted outside securemem, "
            "or while the history was off)",
        )
        for memory in found.gone
    ]
    why += [(memory, "a directory above it has no row (deleted outside securemem): listings no longer show it")
            for memory in found.orphans]  # fmt: skip
    why += [(memory, f"its live {what} is not the {what} its newest version records (changed outside securemem, "
             "or while the history was off)") for what, memories in (("path", found.moved), ("content", found.changed))
            for memory in memories]  # fmt: skip
    return [{"version_id": None, "seq": None, "problem": f"memory {ids.encode('mem', m)}: {text}"} for m, text in why]


def head_line(info: StoreInfo, report: ChainReport) -> dict[str, Any]:
    return {
        "store_id": info.id,
        "name": info.name,
        "versions": report.versions,
        "head": report.head.hex(),
        "chain_ok": not report.found,
    }


Pin = tuple[str, bytes]  # the store's name when pinned, and its head then
_MAX_PINS_BYTES = 16 << 20  # a line per store: a file past this is not one


def read_pins(name: str | None) -> dict[str, Pin]:
    """``audit head`` lines kept by an auditor: store id -> (name, head). A usage error for a file
    that is not one: a check against a misread pin would prove nothing."""
    if name is None:
        return {}
    try:
        text = read_limited(name, _MAX_PINS_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the pinned heads in {name}: {getattr(exc, 'strerror', None) or exc}") from None
    pins: dict[str, Pin] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            store_id, pin = _pin(line, f"line {number} of {name}")
            pins[store_id] = pin
    return pins


def _pin(line: str, where: str) -> tuple[str, Pin]:
    try:
        item = json.loads(line)
        store_id, head, name = item["store_id"], bytes.fromhex(item["head"]), item.get("name", "")
    except (ValueError, TypeError, KeyError, AttributeError):
        raise UsageError(f"{where} is not a line printed by: securemem audit head") from None
    if not isinstance(store_id, str) or len(head) != HEAD_BYTES or not isinstance(name, str):
        raise UsageError(f"{where} is not a line printed by: securemem audit head")
    return store_id, (name, head)


def problem_line(ids: Ids, problem: ChainProblem, store_id: str) -> dict[str, Any]:
    """A problem, naming its version by the id ``versions show`` takes (None: the whole chain)."""
    version = None if problem.seq is None else ids.encode("memver", problem.seq, store_id)
    return {"version_id": version, "seq": problem.place, "problem": problem.why}


def cmd_verify(args: argparse.Namespace) -> int:
    pins = read_pins(args.pinned)
    broken = 0
    with closing(open_db(args)) as store:
        ids = Ids(store.token_key)
        checked: set[str] = set()
        for info in stores_of(store, args.store):
            newest = Newest()
            report = chain_of(store, info, pins[info.id][1] if info.id in pins else None, newest)
            problems = [problem_line(ids, p, info.id) for p in report.found]
            rows = row_problems(store, info, newest, ids)
            line = head_line(info, report) | {"rows_ok": not rows}
            emit(line | {"problems": problems + rows, "more_problems": report.more})
            broken += bool(report.found or rows)
            checked.add(info.id)
    if args.store is None:  # with --store, the other pinned stores were not looked for
        broken += report_missing(pins, checked)
    if broken:
        print(
            f"securemem: the version chain of {broken} store(s) is broken, or a memory it vouches for is gone "
            "or changed: see the problems above",
            file=sys.stderr,
        )
        return EXIT_COMMAND
    return EXIT_OK


def report_missing(pins: dict[str, Pin], checked: set[str]) -> int:
    """A line for each pinned store the file no longer holds (deleted, or its row removed)."""
    missing = [(store_id, name) for store_id, (name, _) in pins.items() if store_id not in checked]
    for store_id, name in missing:
        gone = {"version_id": None, "seq": None, "problem": "this pinned store is not in the file any more"}
        emit({"store_id": store_id, "name": name, "missing": True, "problems": [gone], "more_problems": 0})
    return len(missing)


def cmd_head(args: argparse.Namespace) -> int:
    with closing(open_db(args)) as store:
        for info in stores_of(store, args.store):
            emit(head_line(info, chain_of(store, info)))
    return EXIT_OK


def audit_commands(sub: Subcommands) -> None:
    actions = group(
        sub,
        "audit",
        "check the version history's hash chain, and print each chain's head to pin outside the store",
        ["securemem audit verify --db agent.db"],
    )
    verify = command(
        actions,
        "verify",
        "walk the hash chain of every store (or --store); exit 1 naming each broken version",
        [
            "securemem audit verify --db agent.db",
            "securemem audit verify --db agent.db --pinned heads-2026-01-31.jsonl",
        ],
        cmd_verify,
        admin=False,
    )
    head = command(
        actions,
        "head",
        "per store: id, name, number of versions and the chain's head (hex), for an auditor to keep",
        ["securemem audit head --db agent.db > heads-$(date +%F).jsonl  # keep it where key holders cannot write"],
        cmd_head,
        admin=False,
    )
    for parser in (verify, head):
        parser.add_argument("--store", metavar="NAME_OR_ID", help="only this store (a memstore_... id or a name)")
    verify.add_argument(
        "--pinned",
        metavar="FILE",
        help="heads printed earlier by audit head: each chain must still run through its pinned head",
    )
