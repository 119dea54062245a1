"""Access: paths under a read-only rule can be viewed but never changed.

A rule such as ``/memories/reference/**`` with ``read_only = true`` protects shared reference
material (the managed stores' read_only attachment). A mutation is refused when it would change
anything a read-only rule covers: the path it writes, the source and destination of a rename,
and, for a delete or rename of a directory, any read-only area inside that directory.
"""

from __future__ import annotations

from securemem.commands import Result
from securemem.errors import ReadOnly
from securemem.middleware.base import Call, Handler
from securemem.policy import Policy, Rule

_WILDCARDS = ("*", "?")


def _literal_prefix(glob: str) -> str:
    cut = min((glob.find(w) for w in _WILDCARDS if w in glob), default=len(glob))
    return glob[:cut]


class Access:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._read_only = [r for r in policy.rules if r.read_only]

    def __call__(self, call: Call, call_next: Handler) -> Result:
        if call.command.mutates and self._read_only:
            for path in call.command.paths:
                self._check(path)
        return call_next(call)

    def _check(self, path: str) -> None:
        rule = self._covering(path)
        if rule is not None:
            raise ReadOnly(f"Error: {path} is read-only (policy '{self.policy.name}', rule '{rule.glob}'): it can "
                           "be viewed but not created, edited, moved or deleted. Write your notes elsewhere.")

    def _covering(self, path: str) -> Rule | None:
        """The read-only rule that covers ``path`` or something below it, if any."""
        for probe in (path, path + "/\x00"):  # the path itself, then any child it may have
            rule = self.policy.rule_for(probe)
            if rule is not None and rule.read_only:
                return rule
        inside = path + "/"
        return next((r for r in self._read_only if _literal_prefix(r.glob).startswith(inside)), None)
