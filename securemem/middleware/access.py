"""Access: paths under a read-only rule can be viewed but never changed.

A rule such as ``/memories/reference/**`` with ``read_only = true`` protects shared reference
material (the managed stores' read_only attachment). A mutation is refused when it would change
anything a read-only rule covers: the path it writes, the source and destination of a rename,
and, for a delete or rename of a directory, every entry inside it and every place a moved entry
would land. The paths a command names are checked before the store is touched; what lies below
a deleted or moved directory is checked on the change itself, under the store's lock.

In a session with several stores, a mount attached ``read_only`` refuses every command but
``view``, whatever the rules say, and a rename into or out of it. Rules match the path a file
has in its store (``/memories/x`` for ``/memories/<mount>/x``), so a rule protects a file the
same way whether its store is opened alone or mounted.
"""

from __future__ import annotations

from securemem.changes import Change, Move, Removal
from securemem.commands import DeleteCommand, RenameCommand, Result
from securemem.errors import ReadOnly
from securemem.middleware.base import Call, Handler
from securemem.mounts import MountTable
from securemem.policy import Policy, Rule, rule_pattern
from securemem.store.base import StoreTx

_ADVICE = "it can be viewed but not created, edited, moved or deleted. Write your notes elsewhere."


class Access:
    only_mutations = True  # a command that changes nothing is never refused here (see middleware.base.chain)

    def __init__(self, policy: Policy, mounts: MountTable | None = None) -> None:
        self.policy = policy
        self.mounts = mounts or MountTable()
        self._any_read_only = any(r.read_only for r in policy.rules)
        # The read-only globs, blind to case: "/memories/Reference" beside "/memories/reference/**"
        # would pass for the operator's material (and collide with it on a case-blind copy).
        # Compared case-folded (Unicode's full folding: "straße" is "strasse", "ǅ" is "ǆ").
        self._folded = [(rule, rule_pattern(rule.glob.casefold())) for rule in policy.rules if rule.read_only]

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        if command.mutates:
            for path in command.paths:
                self._refuse_read_only_mount(path)
        if command.mutates and self._any_read_only:
            for path in command.paths:
                rule = self._covering(path)
                if rule is not None:
                    raise ReadOnly(f"Error: {path} is read-only ({self._which(rule)}): {_ADVICE}")
                rule = self._covering_but_for_case(path)
                if rule is not None:
                    raise ReadOnly(
                        f"Error: {path} differs from a read-only area only in upper and lower case "
                        f"({self._which(rule)}); a look-alike of it is not allowed. Write your notes elsewhere."
                    )
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
                rule = self._covering_but_for_case(landing)
                if rule is not None:
                    raise ReadOnly(
                        f"Error: Moving {change.old} to {change.new} would put {landing} beside a read-only "
                        f"area it differs from only in upper and lower case ({self._which(rule)}); a look-alike "
                        "of it is not allowed."
                    )
        return change

    def _refuse_read_only_mount(self, path: str) -> None:
        refusal = self.mounts.read_only_refusal(path)
        if refusal is not None:
            raise ReadOnly(refusal)

    def _refuse_inside(self, source: str, path: str) -> None:
        rule = self._covering(path)
        if rule is not None:
            raise ReadOnly(f"Error: {source} contains {path}, which is read-only ({self._which(rule)}): {_ADVICE}")

    def _which(self, rule: Rule) -> str:
        return f"policy '{self.policy.name}', rule '{rule.glob}'"

    def _covering_but_for_case(self, path: str) -> Rule | None:
        """A read-only rule ``path`` matches but for case, unless a rule as specific matches it as written
        (a writable area inside a read-only one, "/memories/reference/inbox/**", is written to as it is)."""
        stored = self.mounts.stored(path)
        for probe in (stored, stored + "/\x00"):
            exact = self.policy.rule_for(probe)
            folded_probe = probe.casefold()
            for rule, folded in self._folded:
                if folded.match(folded_probe) is not None and (exact is None or exact.specificity < rule.specificity):
                    return rule
        return None

    def _covering(self, path: str) -> Rule | None:
        """The read-only rule that covers ``path`` or would cover a child of it, if any."""
        stored = self.mounts.stored(path)  # rules speak of a store's own paths
        for probe in (stored, stored + "/\x00"):  # the path itself, then any child it may have
            rule = self.policy.rule_for(probe)
            if rule is not None and rule.read_only:
                return rule
        return None
