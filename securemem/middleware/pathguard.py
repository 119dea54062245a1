"""PathGuard: every path of every command is canonical, inside /memories, or refused.

It is always the outermost layer and no policy can remove it. The root may be viewed and
nothing else: creating, editing, deleting or renaming it (in any spelling) is refused here, so
no later layer or store method ever sees a root mutation.
"""

from __future__ import annotations

from securemem.commands import RenameCommand, Result
from securemem.errors import InvalidPath
from securemem.middleware.base import Call, Handler
from securemem.paths import ROOT, canonical

_VERBS = {
    "create": "created",
    "str_replace": "edited",
    "insert": "edited",
    "delete": "deleted",
    "rename": "renamed or moved",
}


class PathGuard:
    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        if isinstance(command, RenameCommand):
            old, new = canonical(command.old_path), canonical(command.new_path)
            self._refuse_root(command.command, old, new)
            return call_next(call.with_command(command.model_copy(update={"old_path": old, "new_path": new})))
        path = canonical(command.path)
        if command.mutates:
            self._refuse_root(command.command, path)
        return call_next(call.with_command(command.model_copy(update={"path": path})))

    @staticmethod
    def _refuse_root(verb: str, *paths: str) -> None:
        if ROOT in paths:
            raise InvalidPath(
                f"Error: The {ROOT} directory itself cannot be {_VERBS[verb]}; "
                f"use a path below it, such as {ROOT}/notes.md."
            )
