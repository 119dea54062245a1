"""``securemem export | import``: a store's memories (and, on export, its versions) as JSON lines.

An export file is a header line, one line per head memory (path, content, content_sha256), then
with ``--with-versions`` one line per version (newest first, content while it is kept), then an end
line that counts them, so an import can tell a whole file from one cut short. It holds memory
content: it is created 0600 and never replaces a file unless ``--force``.

An export reads the memories in batches, each in a transaction of its own that ends before the
batch is written out: every transaction takes the store's write lock, and an output that blocks (a
slow pipe, a paused pager) must not keep every writer of the store waiting. Each memory is
exported whole, as one commit left it, but the export is not a snapshot of the whole store: a
memory written, deleted or renamed while it runs may be seen before or after that change (a
renamed one at both paths, or at neither). Stop the writers first for a snapshot.

An import writes each memory through ``admin.memories.write``, so every policy layer applies (path
guard, PII scrubbing, quotas). Nothing happens silently: each line not written prints why, each
memory the policy changed as it was written is named, and a summary ends the output; exit 1 if any
line failed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import secrets
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, TextIO

from securemem.admin import Admin, MemoryVersion
from securemem.admin.support import outer, translated
from securemem.cli import (
    EXIT_COMMAND,
    EXIT_OK,
    STORE_FILES,
    UsageError,
    _load_json,
    _Unreadable,
    given_key_files,
    old_key_of,
    store_file_at,
)
from securemem.cli_admin import (
    STORE_ID_PREFIX,
    Subcommands,
    command,
    emit,
    error_record,
    find_store,
    iso,
    opened,
    record,
)
from securemem.errors import ApiError, InvalidRequest, NotFound, PreconditionFailed
from securemem.paths import ROOT
from securemem.store.base import Entry, Store, StoreInfo

FORMAT, FORMAT_VERSION = "securemem-export", 1
BATCH = 100  # memories read per transaction of an export (each holds the write lock while it reads)


# -- export ----------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        info = find_store(admin.store, args.store)
        with export_file(args.out, force=args.force, db=args.db, keys=given_key_files(args)) as out:
            memories, versions = write_export(admin, info, out, with_versions=args.with_versions)
    if args.out != "-":  # on stdout the export itself is the output
        emit({"exported": memories, "versions": versions, "store_id": info.id})
    return EXIT_OK


def write_export(admin: Admin, info: StoreInfo, out: TextIO, *, with_versions: bool) -> tuple[int, int]:
    header = {"type": "header", "format": FORMAT, "format_version": FORMAT_VERSION}
    header |= {"store": {"name": info.name, "description": info.description}, "exported_at": iso(datetime.now(UTC))}
    _line(out, header | {"with_versions": with_versions})
    memories = versions = 0
    for entry, data in head_memories(admin.store, info):
        _line(out, memory_line(entry, data))
        memories += 1
    for version in all_versions(admin, info.id) if with_versions else ():
        _line(out, {"type": "version"} | record(version, content=version.content is not None))
        versions += 1
    _line(out, {"type": "end", "memories": memories, "versions": versions})
    return memories, versions


def _line(out: TextIO, item: dict[str, Any]) -> None:
    out.write(json.dumps(item, ensure_ascii=True) + "\n")


def head_memories(store: Store, info: StoreInfo) -> Iterator[tuple[Entry, bytes]]:
    """Every live memory, in path order, read BATCH at a time (keyset by path), each batch in a
    transaction that has ended before its memories are yielded: a caller that blocks writing them
    out holds no lock. Consistent per memory, not across batches (see the module's docstring)."""
    after = None
    while batch := _files_after(store, info, after):
        yield from batch
        after = batch[-1][0].path


def _files_after(store: Store, info: StoreInfo, after: str | None) -> list[tuple[Entry, bytes]]:
    # By number: a store renamed between two batches (its name given to another) is still this one.
    with translated(), store.transaction(info.name, write=False, clock=time.time, store_key=info.key) as tx:
        return tx.files(ROOT + "/", after, BATCH)


def memory_line(entry: Entry, data: bytes) -> dict[str, Any]:
    # The hash is of the stored bytes: an import that finds another hash for the content knows
    # the line was changed, whatever happened to it.
    return {
        "type": "memory",
        "path": outer(entry.path),
        "content": data.decode("utf-8", "replace"),
        "content_sha256": hashlib.sha256(data).hexdigest(),
    }


def all_versions(admin: Admin, store_id: str) -> Iterator[MemoryVersion]:
    page = None
    while True:
        found = admin.memory_versions.list(store_id, limit=1000, page=page)
        for version in found.data:  # the listing has no content: each version is read for it
            yield admin.memory_versions.retrieve(store_id, version.id)
        if found.next_page is None:
            return
        page = found.next_page


@contextmanager
def export_file(name: str, *, force: bool, db: str, keys: Sequence[str] = ()) -> Iterator[TextIO]:
    """The export's destination: stdout for '-', else a new file, mode 0600 (it holds memory
    content); with ``force`` an existing file is replaced only once the export is complete. ``keys``:
    the key files the store was opened with, never replaced either."""
    if name == "-":
        yield sys.stdout
        return
    final = Path(name)
    _check_destination(final, force=force, db=db, keys=keys)
    path = final.with_name(f".{final.name}.{secrets.token_hex(6)}.partial") if force else final
    fd = _create(path, name)
    try:
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if force:
            os.replace(path, final)
    except OSError as exc:  # the destination's disk, not the store: named, with its cause
        path.unlink(missing_ok=True)  # no half export left behind to be mistaken for a whole one
        raise UsageError(f"cannot write the export {name}: {exc.strerror or exc}") from None
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _check_destination(final: Path, *, force: bool, db: str, keys: Sequence[str]) -> None:
    if final.is_dir():
        raise UsageError(f"--out {final} is a directory; give the path of a file")
    # Even with --force: replacing the store, its journal, a key file beside it or the key file it
    # was opened with (a KEK kept elsewhere, say) with an export would lose the store.
    if store_file_at(final, db, STORE_FILES) or any(store_file_at(final, key, ("",)) for key in keys):
        raise UsageError("--out names the store's own file (or its key); choose another file")
    if old_key_of(final):
        raise UsageError(
            "--out names a key a rekey set aside (it may be the only key that opens an earlier backup); "
            "choose another file"
        )
    if os.path.lexists(final) and not force:
        raise UsageError(f"{final} exists; export never overwrites a file (it holds memory content): add --force")


def _create(path: Path, shown: str) -> int:
    # O_EXCL: never opens an existing file, nor follows a symlink planted at the name. 0600: the
    # file holds memory content; fchmod because the umask may have narrowed it to something odd.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise UsageError(f"{shown} exists; export never overwrites a file (it holds memory content)") from None
    except OSError as exc:
        raise UsageError(f"cannot create {shown}: {exc.strerror}") from None
    os.fchmod(fd, 0o600)
    return fd


# -- import ----------------------------------------------------------------------------------


@dataclass
class Tally:
    imported: int = 0
    skipped: int = 0
    failed: int = 0
    versions_ignored: int = 0
    changed_by_policy: int = 0  # written, but not as the line had it (PII scrubbed, say)
    memory_lines: int = 0
    header: bool = False  # the file is an export: it must end with its end line
    ended: bool = False

    def summary(self) -> dict[str, int]:
        return {
            "imported": self.imported,
            "skipped": self.skipped,
            "failed": self.failed,
            "versions_ignored": self.versions_ignored,
            "changed_by_policy": self.changed_by_policy,
        }


def cmd_import(args: argparse.Namespace) -> int:
    tally = Tally()
    try:
        _import_file(args, tally)
    except BaseException:
        if any(tally.summary().values()):  # what was done before the store failed, or ^C
            emit(tally.summary() | {"aborted": True})
        raise
    if tally.header and not tally.ended:
        _fail(tally, None, InvalidRequest("the file has no end line: it was cut short; lines may be missing"))
    emit(tally.summary())
    if tally.versions_ignored:
        print(f"securemem: {tally.versions_ignored} version lines ignored: an import writes the head memories "
              "only", file=sys.stderr)  # fmt: skip
    return EXIT_COMMAND if tally.failed else EXIT_OK


def _import_file(args: argparse.Namespace, tally: Tally) -> None:
    with _source(args.file) as source, opened(args) as admin:
        lines = enumerate(source, 1)
        first = next(lines, None)
        if first is None:  # what an export killed before its header leaves: nothing to import, no store made
            raise UsageError(f"{args.file} is empty: no export header and no memory lines (an export cut short?)")
        description = _header(first[1])
        tally.header = description is not None
        store_id = _target_store(admin, args.store, description or "")
        if not tally.header:
            _import_line(admin, store_id, args.if_exists, first, tally)
        for numbered in lines:
            _import_line(admin, store_id, args.if_exists, numbered, tally)


def _source(name: str) -> AbstractContextManager[IO[bytes]]:
    """The JSONL file as bytes (each line is decoded on its own), or stdin for '-'."""
    if name == "-":
        return nullcontext(sys.stdin.buffer)
    try:
        return open(name, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror}") from None


def _header(raw: bytes) -> str | None:
    """The description in an export's header line; None when the first line is no header (a plain
    JSONL file of memories); a usage error for a header this version cannot read."""
    try:
        item = _parse(raw, 1)
    except InvalidRequest:
        return None
    if item.get("type") != "header":
        return None
    if item.get("format") != FORMAT:
        raise UsageError(f"the header line does not name the format {FORMAT}: not a securemem export")
    version = item.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= FORMAT_VERSION:
        raise UsageError(f"the export's format_version is not one this securemem reads (1 to {FORMAT_VERSION})")
    store = item.get("store")
    description = store.get("description") if isinstance(store, dict) else None
    return description if isinstance(description, str) else ""


def _target_store(admin: Admin, ref: str, description: str) -> str:
    """The store's id; a store named ``ref`` is created when there is none (and says so). It stays if
    no line is imported: removing it again could remove what another writer put in it meanwhile."""
    try:
        return find_store(admin.store, ref).id
    except NotFound:
        if ref.startswith(STORE_ID_PREFIX):  # an id names a store that exists, never one to make
            raise
    made = admin.memory_stores.create(name=ref, description=description)
    emit({"store_created": record(made)})
    return made.id


def _import_line(admin: Admin, store_id: str, mode: str, numbered: tuple[int, bytes], tally: Tally) -> None:
    number, raw = numbered
    if not raw.strip():
        return
    try:
        _write_line(admin, store_id, mode, (number, _parse(raw, number)), tally)
    except PreconditionFailed as exc:
        if mode != "skip":
            _fail(tally, number, exc)
            return
        tally.skipped += 1
        emit({"line": number, "result": "skipped", "error": error_record(exc)})
    except ApiError as exc:
        _fail(tally, number, exc)


def _fail(tally: Tally, number: int | None, exc: ApiError) -> None:
    tally.failed += 1
    emit({"line": number, "result": "failed", "error": error_record(exc)})


def _parse(raw: bytes, number: int) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRequest(f"the line is not valid UTF-8 (byte {exc.start + 1})") from None
    try:
        item = _load_json(text)
    except _Unreadable as exc:
        raise InvalidRequest(f"the line is not valid JSON ({exc})") from None
    if not isinstance(item, dict):
        raise InvalidRequest("the line is not a JSON object")
    return item


def _write_line(admin: Admin, store_id: str, mode: str, line: tuple[int, dict[str, Any]], tally: Tally) -> None:
    item = line[1]
    kind = item.get("type", "memory")
    if tally.ended:
        raise InvalidRequest("a line after the end line")
    if kind == "version":
        tally.versions_ignored += 1
    elif kind == "end":
        _check_end(item, tally)
    elif kind == "memory":
        tally.memory_lines += 1
        _write_memory(admin, store_id, mode, line, tally)
    else:
        raise InvalidRequest('the line\'s "type" is none of: memory, version, end (a header is the first line only)')


def _write_memory(admin: Admin, store_id: str, mode: str, line: tuple[int, dict[str, Any]], tally: Tally) -> None:
    """Write the line's memory through the store's policy; say so when the policy changed it."""
    number, item = line
    path, content = _memory_fields(item)
    precondition = None if mode == "replace" else {"type": "not_exists"}
    written = admin.memories.write(store_id, path=path, content=content, precondition=precondition)
    tally.imported += 1
    if (written.path, written.content_sha256) != (path, _sha256(content)):
        tally.changed_by_policy += 1
        emit({"line": number, "result": "imported", "changed_by_policy": True})


def _sha256(content: str) -> str:
    # surrogatepass: a lone surrogate still hashes; a write then refuses it with its own message.
    return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


def _memory_fields(item: dict[str, Any]) -> tuple[str, str]:
    path, content, sha = item.get("path"), item.get("content"), item.get("content_sha256")
    if not isinstance(path, str):
        raise InvalidRequest('a memory line needs "path", a string')
    if not isinstance(content, str):
        raise InvalidRequest('a memory line needs "content", a string')
    if sha is not None and sha != _sha256(content):
        raise InvalidRequest("content_sha256 does not match the line's content: the line was changed")
    return path, content


def _check_end(item: dict[str, Any], tally: Tally) -> None:
    tally.ended = True
    if (item.get("memories"), item.get("versions")) != (tally.memory_lines, tally.versions_ignored):
        raise InvalidRequest("the end line's counts differ from the lines read: lines are missing or were added")


# -- parser ----------------------------------------------------------------------------------


def transfer_commands(sub: Subcommands) -> None:
    export = command(
        sub,
        "export",
        "write a store's head memories (and with --with-versions its versions) to a JSONL file",
        [
            "securemem export --db agent.db --store team-notes --out notes.jsonl",
            "securemem export --db agent.db --store team-notes --out - --with-versions | gzip > notes.jsonl.gz",
        ],
        cmd_export,
    )
    export.epilog = (  # above the examples; the help's formatter keeps these line breaks
        "Each memory is exported whole, as one commit left it, but an export is not a snapshot of\n"
        "the whole store: it reads in batches so that it never holds the store while it writes, and\n"
        "a memory written, deleted or renamed meanwhile may be seen before or after that change (a\n"
        f"renamed one at both paths, or at neither). Stop the writers for a snapshot.\n\n{export.epilog}"
    )
    export.add_argument("--store", required=True, metavar="NAME_OR_ID", help="a memstore_... id or a store's name")
    export.add_argument("--out", required=True, metavar="FILE", help="the file to create, mode 0600 ('-': stdout)")
    export.add_argument("--with-versions", action="store_true", help="every version too, with its content if kept")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    imports = command(
        sub,
        "import",
        "write the memories of a JSONL file (an export) into a store, through the store's policy",
        [
            "securemem import --db agent.db --store team-notes notes.jsonl",
            "securemem import --db agent.db --store 'Team notes (copy)' notes.jsonl --if-exists skip",
        ],
        cmd_import,
    )
    imports.add_argument("--store", required=True, metavar="NAME_OR_ID", help="created (by name) if missing")
    imports.add_argument("file", metavar="FILE.jsonl", help="the file to read ('-': stdin)")
    imports.add_argument(
        "--if-exists",
        choices=("skip", "fail", "replace"),
        default="fail",
        help="a memory already at a line's path: skip the line, fail it (default), or replace the memory",
    )
