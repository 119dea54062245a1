"""PathGuard: every path of every command is canonical, inside /memories, or refused.

It is always the outermost layer and no policy can remove it. The root may be viewed and
nothing else: creating, editing, deleting or renaming it (in any spelling) is refused here, so
no later layer or store method ever sees a root mutation. A rename of a directory moves every
path below it too: each new path is held to the same length limit before anything moves.

In a session with several stores (``securemem.mounts``) every path must also be ``/memories``
or lie inside a mount, and each mount's own directory is a root like ``/memories``: it may be
viewed, never created, edited, deleted or renamed.
"""

from __future__ import annotations

from collections.abc import Callable

from securemem.changes import Change, Move
from securemem.commands import AdminCommand, Command, CreateCommand, RenameCommand, Result
from securemem.errors import AlreadyExists, InvalidPath, ReadOnly
from securemem.middleware.base import Call, Handler
from securemem.mounts import MountTable
from securemem.paths import MAX_PATH_BYTES, ROOT, canonical, too_long
from securemem.store.base import StoreTx, path_bytes

_VERBS = {
    "create": "created",
    "str_replace": "edited",
    "insert": "edited",
    "delete": "deleted",
    "rename": "renamed or moved",
    "write": "written",
    "update": "updated",
    "remove": "removed",
    "restore": "restored",
}


class PathGuard:
    def __init__(self, mounts: MountTable | None = None) -> None:
        self.mounts = mounts or MountTable()
        # Asked of every command, and a session's mounts never change: read once.
        self._mounted = bool(self.mounts)
        self._slack = self.mounts.slack()

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        given = command.paths
        # A mounted store's path is held to the length limit as its store holds it: the mount's
        # directory adds to what the model writes, never to what the store keeps.
        slack = self._slack
        paths = tuple([canonical(path, slack=slack) for path in given])  # a list: half a generator's cost
        if self._mounted:
            self._check_mounted(paths)
        if command.mutates:
            self._refuse_roots(command, paths)
            if isinstance(command, CreateCommand) and given[0].endswith("/"):
                raise InvalidPath(_FILE_AS_DIRECTORY)
            if isinstance(command, RenameCommand) and given[1].endswith("/"):
                call.checks.append(_file_not_to_directory)
        if paths != given:
            call.with_command(command.with_paths(paths))
        call.audit.paths = paths  # canonical: loggable unless a later path guard refuses them
        if isinstance(command, RenameCommand) or (isinstance(command, AdminCommand) and command.moves):
            call.checks.append(self._moved_paths)
        return call_next(call)

    def _refuse_roots(self, command: Command, paths: tuple[str, ...]) -> None:
        """A mutation of the root, or of a mount's own directory, in any spelling."""
        roots = [path for path in paths if self.mounts.is_root(path)]
        if isinstance(command, RenameCommand) and roots == [paths[1]]:
            # A move onto a root: the root always exists, and a destination that exists is refused
            # with the reference answer (nothing was asked of the root itself).
            raise AlreadyExists(f"Error: The destination {paths[1]} already exists")
        if roots and (refusal := self.mounts.read_only_refusal(roots[0])) is not None:
            # a read-only mount's own directory: refused as the mount refuses the rest (an attacker's round)
            raise ReadOnly(refusal)
        if roots:
            raise InvalidPath(
                f"Error: The {roots[0]} directory itself cannot be {_VERBS[command.command]}; "
                f"use a path below it, such as {roots[0]}/notes.md."
            )

    def _check_mounted(self, paths: tuple[str, ...]) -> None:
        """In a session with several stores: each path as its store holds it, and inside a mount."""
        for path in paths:
            refused = too_long(self.mounts.stored(path))
            if refused is not None:
                raise refused
        if any(self.mounts.outside(path) for path in paths):
            # The path is not quoted (see paths._refuse): the PII layer has not looked at it yet.
            raise InvalidPath(
                f"Error: Invalid path: this session's memory is in its mounted stores; every path must be {ROOT} "
                f"or lie inside one of: {self.mounts.roots()}"
            )

    def _moved_paths(self, change: Change, tx: StoreTx) -> Change:
        """Every path a rename creates obeys the path length limit as its store will keep it (a move
        between mounts lands in another store, under another mount's directory)."""
        if not (isinstance(change, Move) and change.entry.is_dir):
            return change
        stored = self.mounts.stored
        if path_bytes(stored(change.new)) <= path_bytes(stored(change.old)):
            return change  # no path below grows
        return _moved_within_limit(change, tx, stored)


# A name ending in "/" names a directory: a file written or moved there under that name would not be
# what the model asked for (create makes no directory of its own; rename moves nothing into one).
# The path is not quoted (see paths._refuse): the PII layer has not looked at it yet.
_FILE_AS_DIRECTORY = (
    "Error: Invalid path: a path ending in '/' names a directory, and create writes a file. Give the "
    "file's name, such as /memories/notes/todo.md (directories are made as files are created in them)."
)
_MOVE_INTO_DIRECTORY = (
    "Error: Invalid path: new_path ends in '/', which names a directory, but old_path is a file. "
    "rename does not move a file into a directory by the directory's name: give the file's whole new "
    "path, such as /memories/archive/todo.md."
)


def _file_not_to_directory(change: Change, tx: StoreTx) -> Change:
    """A rename whose ``new_path`` ends in "/" moves a directory, never a file."""
    if isinstance(change, Move) and not change.entry.is_dir:
        raise InvalidPath(_MOVE_INTO_DIRECTORY)
    return change


def _moved_within_limit(change: Move, tx: StoreTx, stored: Callable[[str], str]) -> Change:
    for _, landing in change.moved(tx):
        if path_bytes(stored(landing)) > MAX_PATH_BYTES:
            raise InvalidPath(
                f"Error: Invalid path: moving {change.old} to {change.new} would make a path below "
                f"it longer than {MAX_PATH_BYTES} bytes. Choose a shorter destination."
            )
    return change
