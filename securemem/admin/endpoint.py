"""The admin endpoint: what an admin write does inside the store transaction, after every layer.

It stands where the dispatcher stands for the memory tool. The layers in front of it (path guard,
PII scrubbing, TTL, quotas) have already guarded the new path and text the call brings (an
``AdminCommand``); here, under the store's write lock, the memory is looked up by its number, the
precondition is checked against what is stored now, and the change goes through ``call.apply`` so
that every layer's check runs on it, as for a tool command. A precondition checked here cannot be
overtaken: the write lock excludes every other writer until the commit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from securemem.changes import FileWrite, Move, Removal
from securemem.commands import AdminCommand, Result
from securemem.errors import Conflict, NotFound, PreconditionFailed
from securemem.middleware.base import Call
from securemem.middleware.quota import PURGE_LIMIT
from securemem.store.base import Entry, StoreTx

Found = tuple[Entry, bytes]


@dataclass(frozen=True, slots=True)
class Write:
    not_exists: bool  # create only: a memory at the path fails the call


@dataclass(frozen=True, slots=True)
class Update:
    memory: int
    content_sha256: str | None  # apply only if the stored content still has this hash
    not_exists: bool  # a rename onto a taken path is a no-op instead of a conflict


@dataclass(frozen=True, slots=True)
class Remove:
    memory: int
    content_sha256: str | None


@dataclass(frozen=True, slots=True)
class Restore:
    seq: int
    memory: int
    content_sha256: bytes  # of the version as read before the call: a redaction meanwhile is a conflict


Request = Write | Update | Remove | Restore
GONE = "no memory has that id in this store"


def hex_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def endpoint(call: Call) -> Result:
    request, command = call.request, call.command
    assert isinstance(command, AdminCommand), "the admin endpoint runs admin commands only"
    tx = call.txn
    if isinstance(request, Write):
        call.outcome = _write(call, tx, command, request)
    elif isinstance(request, Update):
        call.outcome = _update(call, tx, command, request)
    elif isinstance(request, Remove):
        found = _memory(tx, request.memory)
        _check_hash(found, request.content_sha256)
        call.apply(Removal(found[0].path, found[0]))
        call.outcome = None
    elif isinstance(request, Restore):
        call.outcome = _restore(call, tx, command, request)
    else:
        raise TypeError("unknown admin request")
    return Result("ok")


def _memory(tx: StoreTx, number: int) -> Found:
    found = tx.memory(number)
    if found is None:
        raise NotFound(GONE)
    return found


def _check_hash(found: Found, expected: str | None) -> None:
    if expected is not None and hex_sha256(found[1]) != expected:
        raise PreconditionFailed("the memory's content has changed (its content_sha256 differs); read it again")


def _text(command: AdminCommand) -> str:
    assert command.file_text is not None
    return command.file_text


def _write(call: Call, tx: StoreTx, command: AdminCommand, request: Write) -> Found:
    assert command.path is not None
    found = tx.ancestry(command.path)
    if found.entry is not None and found.entry.is_dir:
        raise Conflict("that path is a directory of other memories; a memory needs a path of its own")
    if found.blocking_file is not None:
        raise Conflict("a memory's path cannot lie below another memory's path")
    if found.entry is not None and request.not_exists:
        raise PreconditionFailed("a memory exists at that path (precondition not_exists)")
    if found.entry is not None:
        current = tx.get(command.path)
        if current is not None and current[1] == _text(command).encode("utf-8"):
            return current[0], current[1]  # the same text again: no change, no version
    write = call.apply(FileWrite.of(command.path, _text(command), found.entry, None if found.entry else found))
    return _after(tx, command.path, write.data)


def _after(tx: StoreTx, path: str, data: bytes) -> Found:
    entry = tx.stat(path)
    assert entry is not None, "a memory just written is there"
    return entry, data


def _move_to(call: Call, tx: StoreTx, entry: Entry, path: str, *, not_exists: bool) -> Entry | None:
    """Rename the memory to ``path``; None when ``not_exists`` and the path is taken (a no-op)."""
    if path == entry.path:
        return entry
    target = tx.ancestry(path)
    if target.entry is not None:
        if not_exists:
            return None
        raise Conflict("another memory (or a directory of them) is at that path")
    if target.blocking_file is not None:
        raise Conflict("a memory's path cannot lie below another memory's path")
    call.apply(Move(entry.path, path, entry, target))
    return replace(entry, path=path)


def _update(call: Call, tx: StoreTx, command: AdminCommand, request: Update) -> Found:
    entry, data = found = _memory(tx, request.memory)
    _check_hash(found, request.content_sha256)
    if command.path is not None:
        moved = _move_to(call, tx, entry, command.path, not_exists=request.not_exists)
        if moved is None:
            return found  # the whole update is a no-op: no change, no version
        entry = moved
    if command.file_text is not None and _text(command).encode("utf-8") != data:  # the same text: no write
        data = call.apply(FileWrite.of(entry.path, _text(command), entry, None)).data
    return _after(tx, entry.path, data)


def _restore(call: Call, tx: StoreTx, command: AdminCommand, request: Restore) -> Found:
    assert command.path is not None
    version = tx.version(request.seq)
    if version is None:
        raise NotFound("no memory version has that id in this store")
    if version.sha256 != request.content_sha256 or version.redacted is not None:
        raise Conflict("the version was redacted meanwhile; it has no content to restore")
    current = tx.memory(request.memory)
    if current is not None:
        moved = _move_to(call, tx, current[0], command.path, not_exists=False)
        assert moved is not None
        # A new version even where the head already holds that text (the contract: "a new `modified` version"):
        # the operator's restore is on the record (an attacker's round, stop 50).
        data = call.apply(FileWrite.of(moved.path, _text(command), moved, None)).data
        return _after(tx, moved.path, data)
    # An expired, unswept file may still hold the memory's number: it goes first, as a sweep would.
    tx.purge_expired(PURGE_LIMIT, memory=request.memory)
    found = tx.ancestry(command.path)
    if found.entry is not None or found.blocking_file is not None:
        raise Conflict("another memory is at the version's path; move it away first")
    write = FileWrite.of(command.path, _text(command), None, found)
    write.memory = request.memory  # a deleted memory comes back under its own id
    return _after(tx, command.path, call.apply(write).data)
