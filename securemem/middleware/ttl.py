"""TTL: stamp each written file with its expiry; refresh it on reads; re-stamp moved files.

Expiry is a timestamp on the row, decided by the policy rule for the file's path when the file
is written (or read, with ``refresh_on_read`` and ``since = "access"``). The store hides a row
whose timestamp has passed from every read at once, so an expired file is invisible and
unmodifiable before any sweep runs; sweeps only reclaim the space.
"""

from __future__ import annotations

from securemem.commands import CreateCommand, InsertCommand, RenameCommand, Result, StrReplaceCommand, ViewCommand
from securemem.middleware.base import Call, Handler
from securemem.policy import Policy


class TTL:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        if isinstance(command, CreateCommand | StrReplaceCommand | InsertCommand):
            call.expires = self.policy.expiry_for(command.path).deadline(call.now)
            return call_next(call)
        result = call_next(call)
        if result.is_error:
            return result
        if isinstance(command, ViewCommand) and result.meta.get("kind") in ("file", "image"):
            self._refresh(command.path, call, result)
        elif isinstance(command, RenameCommand):
            self._restamp(command.new_path, call)
        return result

    def _refresh(self, path: str, call: Call, result: Result) -> None:
        expiry = self.policy.expiry_for(path)
        if expiry.after is None or expiry.since != "access" or not self.policy.ttl.refresh_on_read:
            return
        deadline = call.now + expiry.after
        current = result.meta["expires"] if "expires" in result.meta else self._stored_expiry(path, call)
        # Like relatime: a read rewrites the row only when the deadline moves by more than a
        # small slack, so repeated reads of a file commit nothing (no fsync) and the expiry
        # is still never more than min(1% of the TTL, 1 hour) early.
        slack = min(expiry.after * 0.01, 3600.0)
        if current is None or deadline - current > slack:
            call.followups.append(lambda tx: tx.touch(path, deadline))

    @staticmethod
    def _stored_expiry(path: str, call: Call) -> float | None:
        entry = call.tx.stat(path)
        return None if entry is None else entry.expires

    def _restamp(self, moved: str, call: Call) -> None:
        """Files that moved live by the rules of where they are now, counted from the move.

        A move is a write (the path changed) and an access, so the clock starts now. Counting from
        the stored times instead would make a moved file vanish at once whenever its old area kept
        it longer than the new one allows: a folder last written a week ago moved into a one-day
        scratch area, or a file that sat unread in a never-expire area.
        """
        for entry in call.tx.files_under(moved):
            call.tx.set_expiry(entry.path, self.policy.expiry_for(entry.path).deadline(call.now))
