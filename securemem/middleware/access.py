"""Access: paths under a read-only rule can be viewed but never changed.

A rule such as ``/memories/reference/**`` with ``read_only = true`` protects shared reference
material (the managed stores' read_only attachment). A mutation is refused when it would change
anything a read-only rule covers: the path it writes, the source and destination of a rename,
and, for a delete or rename of a directory, every entry inside it and every place a moved entry
would land. The paths a command names are checked before the store is touched; what lies below
a deleted or moved directory is checked on the change itself, under the store's lock.
"""

from __future__ import annotations

from securemem.changes import Change, Move, Removal
from securemem.commands import DeleteCommand, RenameCommand, Result
from securemem.errors import ReadOnly
from securemem.middleware.base import Call, Handler
from securemem.policy import Policy, Rule
from securemem.store.base import StoreTx

_ADVICE = "it can be viewed but not created, edited, moved or deleted. Write your notes elsewhere."


class Access:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._any_read_only = any(r.read_only for r in policy.rules)

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        if command.mutates and self._any_read_only:
            for path in command.paths:
                rule = self._covering(path)
                if rule is not None:
                    raise ReadOnly(f"Error: {path} is read-only ({self._which(rule)}): {_ADVICE}")
            if isinstance(command, DeleteCommand | RenameCommand):
                call.checks.append(self._check_subtree)
        return call_next(call)

    def _check_subtree(self, change: Change, tx: StoreTx) -> Change:
        """Whatever lies below a deleted or moved directory, and wherever it would land.

        Globs can have wildcards before the protected part (``/memories/*/reference/**``), so
        the entries that exist are checked one by one rather than guessed from the glob's text.
        """
        if isinstance(change, Removal) and change.entry.is_dir:
            for entry in change.removed(tx)[1:]:
                self._refuse_inside(change.path, entry.path)
        elif isinstance(change, Move):
            for entry, landing in change.moved(tx):
                self._refuse_inside(change.old, entry.path)
                rule = self._covering(landing)
                if rule is not None:
                    raise ReadOnly(
                        f"Error: Moving {change.old} to {change.new} would put {landing} in a read-only "
                        f"area ({self._which(rule)}): {_ADVICE}"
                    )
        return change

    def _refuse_inside(self, source: str, path: str) -> None:
        rule = self._covering(path)
        if rule is not None:
            raise ReadOnly(f"Error: {source} contains {path}, which is read-only ({self._which(rule)}): {_ADVICE}")

    def _which(self, rule: Rule) -> str:
        return f"policy '{self.policy.name}', rule '{rule.glob}'"

    def _covering(self, path: str) -> Rule | None:
        """The read-only rule that covers ``path`` or would cover a child of it, if any."""
        for probe in (path, path + "/\x00"):  # the path itself, then any child it may have
            rule = self.policy.rule_for(probe)
            if rule is not None and rule.read_only:
                return rule
        return None
