"""Access: paths under a read-only rule can be viewed but never changed.

A rule such as ``/memories/reference/**`` with ``read_only = true`` protects shared reference
material (the managed stores' read_only attachment). A mutation is refused when it would change
anything a read-only rule covers: the path it writes, the source and destination of a rename,
and, for a delete or rename of a directory, any read-only entry inside that directory or any
place a moved entry would land.
"""

from __future__ import annotations

from securemem.commands import DeleteCommand, RenameCommand, Result
from securemem.errors import ReadOnly
from securemem.middleware.base import Call, Handler
from securemem.policy import Policy, Rule
from securemem.store.base import StoreTx

# Deeper than any path can go (paths are at most 1,024 bytes, so at most 512 segments).
_ALL_LEVELS = 1024
_ADVICE = "it can be viewed but not created, edited, moved or deleted. Write your notes elsewhere."


def _keep(_name: str) -> bool:
    return False


class Access:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._any_read_only = any(r.read_only for r in policy.rules)

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        if command.mutates and self._any_read_only:
            for path in command.paths:
                self._check(path)
            if isinstance(command, DeleteCommand | RenameCommand):
                self._check_subtree(command, call.tx)
        return call_next(call)

    def _check(self, path: str) -> None:
        rule = self._covering(path)
        if rule is not None:
            raise ReadOnly(f"Error: {path} is read-only ({self._which(rule)}): {_ADVICE}")

    def _check_subtree(self, command: DeleteCommand | RenameCommand, tx: StoreTx) -> None:
        """Whatever lies below a deleted or moved directory, and wherever it would land.

        Globs can have wildcards before the protected part (``/memories/*/reference/**``), so
        the entries that exist are checked one by one rather than guessed from the glob's text.
        """
        source = command.path if isinstance(command, DeleteCommand) else command.old_path
        for entry in tx.tree(source, _ALL_LEVELS, _keep):
            rule = self._covering(entry.path)
            if rule is not None:
                raise ReadOnly(
                    f"Error: {source} contains {entry.path}, which is read-only ({self._which(rule)}): {_ADVICE}"
                )
            if isinstance(command, RenameCommand):
                self._check_landing(command, command.new_path + entry.path[len(source) :])

    def _check_landing(self, command: RenameCommand, landing: str) -> None:
        rule = self._covering(landing)
        if rule is not None:
            raise ReadOnly(
                f"Error: Moving {command.old_path} to {command.new_path} would put {landing} in a "
                f"read-only area ({self._which(rule)}): {_ADVICE}"
            )

    def _which(self, rule: Rule) -> str:
        return f"policy '{self.policy.name}', rule '{rule.glob}'"

    def _covering(self, path: str) -> Rule | None:
        """The read-only rule that covers ``path`` or would cover a child of it, if any."""
        for probe in (path, path + "/\x00"):  # the path itself, then any child it may have
            rule = self.policy.rule_for(probe)
            if rule is not None and rule.read_only:
                return rule
        return None
