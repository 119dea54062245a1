"""TTL: stamp each written or moved entry with its expiry, and apply the policy on every read.

Expiry is a timestamp on the row, decided by the policy rule for the entry's path. The store
hides an entry whose timestamp has passed from every read at once, so an expired file is
invisible and unmodifiable before any sweep runs; sweeps only reclaim the space.

- Every write stamps the file by the rule for its path now (``since`` access or write, both
  start at the write); an edit keeps a stamp that would move by less than min(1% of the TTL,
  1 h), so the file is never kept longer than its rule says, and at most that much less. A move
  is a write of every moved entry: each is stamped by the rules of where it lands, counted from
  the move.
- Every read of a file applies the rule as it is now, not as it was when the file was written:
  a ``never_expire`` rule clears a stamp; ``since = "access"`` with ``refresh_on_read`` pushes the
  expiry back (only when it moves by more than min(1% of the TTL, 1 h), like relatime, so
  repeated reads commit nothing); a shorter TTL brings it forward, and a file the current rule
  says has expired is not shown.

Rules match the path a file has in its store: in a session with several stores,
``/memories/<mount>/x`` lives by the rule for ``/memories/x``, as it does when its store is opened
alone, so how a store is opened never changes how long its files live.
"""

from __future__ import annotations

from securemem.changes import Change, FileWrite, Move
from securemem.commands import FileView, ImageView, Result
from securemem.errors import NotFound
from securemem.middleware.base import Call, Handler
from securemem.mounts import MountTable
from securemem.policy import Expiry, Policy
from securemem.store.base import Entry, StoreTx


class TTL:
    def __init__(self, policy: Policy, mounts: MountTable | None = None) -> None:
        self.policy = policy
        self.mounts = mounts or MountTable()
        self._refresh_on_read = policy.ttl.refresh_on_read

    def _expiry(self, path: str) -> Expiry:
        return self.policy.expiry_for(self.mounts.stored(path))  # the policy keeps each path's

    def __call__(self, call: Call, call_next: Handler) -> Result:
        if call.command.mutates:
            call.checks.append(self._stamp)
        result = call_next(call)
        view = result.view
        if isinstance(view, (FileView, ImageView)) and call.now is not None:
            self._on_read(view.path, view.entry, call.now, call)
        return result

    def _stamp(self, change: Change, tx: StoreTx) -> Change:
        if isinstance(change, FileWrite):
            expiry = self._expiry(change.path)
            deadline = expiry.deadline(tx.now)
            kept = None if change.old is None else change.old.expires
            # Like a read, an edit leaves a stamp that is early by less than the slack: the expiry
            # index is not rewritten for every edit, and the file still never outlives its rule.
            if kept is not None and deadline is not None and 0 <= deadline - kept <= _slack(expiry.after):
                deadline = kept
            change.expires = deadline
        elif isinstance(change, Move):
            for _, landing in change.moved(tx):
                change.expiries[landing] = self._expiry(landing).deadline(tx.now)
        return change

    def _on_read(self, path: str, entry: Entry, now: float, call: Call) -> None:
        expiry = self._expiry(path)
        if expiry.after is None:
            if entry.expires is not None:  # a never_expire rule applies to files stamped before it
                call.followups.append(lambda tx: tx.set_expiry(path, None))
            return
        refresh = expiry.since == "access" and self._refresh_on_read
        # A write (a move included: it stamps what it takes as modified) is an access too.
        base = now if refresh else max(entry.accessed, entry.modified) if expiry.since == "access" else entry.modified
        deadline = base + expiry.after
        if deadline <= now:
            call.followups.append(lambda tx: tx.set_expiry(path, deadline))
            raise NotFound(f"The path {path} does not exist. Please provide a valid path.")
        if entry.expires is None or abs(deadline - entry.expires) > _slack(expiry.after):
            if refresh:
                call.followups.append(lambda tx: tx.touch(path, deadline))
            else:
                call.followups.append(lambda tx: tx.set_expiry(path, deadline))


def _slack(after: float | None) -> float:
    """How early a stamp may be left, like relatime: min(1% of the time to live, 1 hour)."""
    return 0.0 if after is None else min(after * 0.01, 3600.0)
