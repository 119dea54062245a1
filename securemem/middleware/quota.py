"""Quota: per-file bytes and lines; per-namespace bytes, files and entries. Everything stored counts.

What counts against ``max_total_bytes`` is everything a model controls on disk: file contents
and the text of every path, directories included. ``max_files`` counts files, ``max_entries``
files and directories. So no sequence of commands (deep empty directories, long names, renames
that lengthen a whole subtree) can grow a namespace past its limits.

A text field larger than the per-file limit is refused before the store is touched. The exact
check runs on the change itself, under the write lock (so two writers in two processes cannot
both pass a check only one of them fits under), on the bytes that will really be stored (after
PII scrubbing, after an edit is applied). Usage counts expired entries not yet swept, since they
are still on disk; when a write would cross a limit, they are purged first and the check is made
again, so a model is never refused for what it can no longer see.

A write that makes a file or the namespace smaller is let through even if it is still over (a
limit lowered after the fact), so the model can always trim its way back under.

In a session with several stores each store has its own limits: a write counts against the
store it lands in, path text as that store holds it (``/memories/x``, not the mounted
``/memories/<mount>/x``). A rename between two stores brings everything it moves into the
target: every byte, file and directory counts there.
"""

from __future__ import annotations

from securemem.changes import Change, FileWrite, Move, new_dirs
from securemem.commands import AdminCommand, Result, TextField
from securemem.errors import QuotaExceeded
from securemem.middleware.base import Call, Handler
from securemem.mounts import Mount, MountTable
from securemem.policy import Policy
from securemem.store.base import StoreTx, Usage, path_bytes
from securemem.store.history import ROW_SHARE

_ADVICE = "Nothing was written."
_WHOLE = frozenset({"create", "write", "update", "restore"})  # commands whose text is the whole file
# Expired entries a write over a limit purges before it is refused: bounded, since the write holds
# the store's lock meanwhile; beyond this many, expired entries wait for a sweep.
PURGE_LIMIT = 2000


class Quota:
    only_mutations = True  # a command that changes nothing stores nothing (see middleware.base.chain)

    def __init__(self, policy: Policy, mounts: MountTable | None = None) -> None:
        self.limits = policy.quota
        self.where = f"policy '{policy.name}'"
        # Each version is stored too: its row, its path and (when kept) a copy of its text.
        self.versions = policy.history.versions
        self.history = policy.history.versions and policy.history.content == "keep"
        self.mounts = mounts or MountTable()

    def _bytes(self, path: str) -> int:
        """The path text a path costs: as its store holds it."""
        return path_bytes(self.mounts.stored(path))

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        where = command.paths[0] if command.paths else "the memory"
        for text, role in command.texts():
            self._precheck(where, text, role, whole=command.command in _WHOLE)
        if command.writes_content or command.command == "rename" or isinstance(command, AdminCommand):
            call.checks.append(self._check)
        return call_next(call)

    def _precheck(self, path: str, text: str, field: TextField, *, whole: bool) -> None:
        """A text larger than a whole file may be is refused before the store's lock is taken."""
        limit = self.limits.max_file_bytes
        if field != "old_str" and limit is not None and len(text) > limit // 4:  # cheap: 4 bytes at most per char
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > limit:
                what = f"{path} would be {size:,} bytes" if whole else f"the text for {path} alone is {size:,} bytes"
                raise QuotaExceeded(
                    f"Error: Quota exceeded: {what}; the limit per file is {limit:,} bytes "
                    f"({self.where}). {_ADVICE} Keep the file shorter or split it."
                )

    def _check(self, change: Change, tx: StoreTx) -> Change:
        if isinstance(change, FileWrite):
            self._check_file(change)
            grow = len(change.data) - (change.old.size if change.old else 0)
            dirs = new_dirs(change.ancestry)
            grow += sum(map(self._bytes, dirs)) + (0 if change.old else self._bytes(change.path))
            grow += self._version_cost(len(change.data), self._bytes(change.path), 1)
            grow += 0 if change.old or not self.versions else ROW_SHARE  # the row its deletion will add
            entries = len(dirs) + (0 if change.old else 1)
            self._check_namespace(tx, change.path, grow, files=0 if change.old else 1, entries=entries)
        elif isinstance(change, Move):
            dirs = new_dirs(change.ancestry)
            made = sum(map(self._bytes, dirs))
            landing = change.entry.path_bytes + change.path_bytes_delta  # the moved paths, as they will be
            copies = self._version_cost(change.entry.size, landing, max(1, change.entry.files))
            if self.mounts.mount_of(change.old) is self.mounts.mount_of(change.new):
                grow = change.path_bytes_delta + made + copies
                self._check_namespace(tx, change.new, grow, files=0, entries=len(dirs))
            else:  # into another store: all of it is new there (tx.usage() is the target's)
                moved = change.moved(tx)
                files = [entry for entry, _ in moved if not entry.is_dir]
                grow = made + sum(f.size for f in files) + sum(self._bytes(landing) for _, landing in moved) + copies
                grow += len(files) * ROW_SHARE if self.versions else 0  # their deletions' rows, held in reserve
                self._check_namespace(tx, change.new, grow, files=len(files), entries=len(dirs) + len(moved))
        return change

    def _check_file(self, write: FileWrite) -> None:
        old, size, lines = write.old, len(write.data), write.lines
        limit = self.limits.max_file_bytes
        if limit is not None and size > limit and (old is None or size > old.size):
            now = f" (it is {old.size:,} now)" if old is not None else ""
            raise QuotaExceeded(
                f"Error: Quota exceeded: {write.path} would be {size:,} bytes{now}; the limit per file "
                f"is {limit:,} bytes ({self.where}). {_ADVICE} Keep the file shorter or split it."
            )
        limit = self.limits.max_file_lines
        if limit is not None and lines > limit and (old is None or lines > old.lines):
            now = f" (it has {old.lines:,} now)" if old is not None else ""
            raise QuotaExceeded(
                f"Error: Quota exceeded: {write.path} would have {lines:,} lines{now}; the limit per "
                f"file is {limit:,} lines ({self.where}). {_ADVICE} Keep the file shorter or split it."
            )

    def _check_namespace(self, tx: StoreTx, path: str, grow: int, *, files: int, entries: int) -> None:
        if grow <= 0 and files <= 0 and entries <= 0:
            return  # nothing grows: no limit can be crossed (and a shrink over a lowered limit is let through)
        used = tx.usage()
        if self._over(used, grow, files, entries) and tx.purge_expired(PURGE_LIMIT):
            used = tx.usage()  # expired entries were still on disk; they are gone now
        self._refuse_if_over(used, grow, files, entries, self.mounts.mount_of(path))

    def _version_cost(self, text: int, paths: int, versions: int) -> int:
        """What new versions will store: rows, paths and (when the history keeps it) the text."""
        if not self.versions:
            return 0
        return versions * ROW_SHARE + paths + (text if self.history else 0)

    @staticmethod
    def _counted(used: Usage) -> str:
        if not used.history_bytes:
            return "file contents and path names"
        return f"file contents and path names, and {used.history_bytes:,} bytes of past versions kept in the history"

    @staticmethod
    def _advice(used: Usage) -> str:
        if used.history_bytes > used.content_bytes:
            # Deleting memories adds versions (a deletion is one), and a redaction frees a version's text but not
            # its record, which the audit trail keeps (an attacker's round: the old advice could not help).
            return (
                "Most of it is the history of past versions, which deleting memories does not free (a deletion "
                "is recorded too): ask an operator to raise the quota or to redact past versions' text."
            )
        return "Delete or shorten memories you no longer need, then retry."

    def _over(self, used: Usage, grow: int, files: int, entries: int) -> bool:
        limits = self.limits
        return (
            (limits.max_total_bytes is not None and grow > 0 and used.bytes + grow > limits.max_total_bytes)
            or (limits.max_files is not None and files > 0 and used.files + files > limits.max_files)
            or (limits.max_entries is not None and entries > 0 and used.entries + entries > limits.max_entries)
        )

    def _refuse_if_over(self, used: Usage, grow: int, files: int, entries: int, mount: Mount | None) -> None:
        limits = self.limits
        # In a session with several stores, say which store is full: each has its own limits.
        memory, within = ("your memory", "") if mount is None else (f"the store {mount.root}/", f" in {mount.root}/")
        if limits.max_total_bytes is not None and grow > 0 and used.bytes + grow > limits.max_total_bytes:
            raise QuotaExceeded(
                f"Error: Quota exceeded: this write would bring {memory} to {used.bytes + grow:,} "
                f"bytes ({self._counted(used)}); the limit is {limits.max_total_bytes:,} bytes "
                f"and {used.bytes:,} are in use ({self.where}). {_ADVICE} {self._advice(used)}"
            )
        if limits.max_files is not None and files > 0 and used.files + files > limits.max_files:
            raise QuotaExceeded(
                f"Error: Quota exceeded: the limit is {limits.max_files:,} files and {used.files:,} "
                f"exist{within} ({self.where}). {_ADVICE} Delete files you no longer need, or add to an "
                "existing file with str_replace or insert."
            )
        if limits.max_entries is not None and entries > 0 and used.entries + entries > limits.max_entries:
            raise QuotaExceeded(
                f"Error: Quota exceeded: the limit is {limits.max_entries:,} files and directories "
                f"and {used.entries:,} exist{within} ({self.where}). {_ADVICE} Delete files or directories "
                "you no longer need, or keep new files in existing directories."
            )
