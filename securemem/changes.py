"""The typed changes a command makes, on their one way from the dispatcher to the store.

The dispatcher reads what it needs once, decides the change (the final bytes of a file, the entry
a delete removes, the subtree a rename moves) and hands it to ``Call.apply``. There every layer's
check runs in chain order, outermost first, on the same typed object: the PII safety net may
replace the bytes, Access may refuse a read-only path, TTL sets the expiry, Quota counts what
will really be stored. Then, and only then, the store writes it. No layer wraps the transaction,
re-reads a row, or parses text back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from securemem.errors import InvalidInput
from securemem.paths import ROOT
from securemem.store.base import Ancestry, Entry, StoreTx, path_bytes
from securemem.text import count_lines

ALL_LEVELS = 1024  # deeper than any path can go (paths are at most 1,024 bytes)


def _keep(_name: str) -> bool:
    return False


@dataclass
class FileWrite:
    """A file created (``old`` None) or replaced by create, str_replace or insert."""

    path: str
    text: str
    old: Entry | None
    ancestry: Ancestry | None  # what lies on the way to a new file (None for an edit in place)
    expires: float | None = None
    memory: int = 0  # a new file's memory number when it is given (a deleted memory restored)

    @classmethod
    def of(cls, path: str, text: str, old: Entry | None, ancestry: Ancestry | None) -> FileWrite:
        """The write of ``text``, refused at once if UTF-8 cannot hold it (JSON can carry a lone surrogate)."""
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(
                f"Error: The text for {path} contains an unpaired surrogate "
                f"(U+{ord(text[exc.start]):04X}), which cannot be stored; remove it and retry."
            ) from None
        write = cls(path, text, old, ancestry)
        write.__dict__["data"] = data
        return write

    @cached_property
    def data(self) -> bytes:
        return self.text.encode("utf-8")

    @cached_property
    def lines(self) -> int:
        return count_lines(self.text)

    def replaced(self, text: str) -> FileWrite:
        """The same write with other text (a layer that rewrites content)."""
        return FileWrite(self.path, text, self.old, self.ancestry, self.expires, self.memory)


@dataclass
class Removal:
    """A file, or a directory and everything below it, deleted."""

    path: str
    entry: Entry

    def removed(self, tx: StoreTx) -> list[Entry]:
        """Every entry that goes, the target first (walked on demand: only a layer that needs it pays)."""
        below = tx.tree(self.path, ALL_LEVELS, _keep) if self.entry.is_dir else []
        return [self.entry, *below]


@dataclass
class Move:
    """A file or a subtree renamed from ``old`` to ``new``."""

    old: str
    new: str
    entry: Entry
    ancestry: Ancestry  # of ``new``
    expiries: dict[str, float | None] = field(default_factory=dict)  # new path of each moved file -> expiry
    _moved: list[tuple[Entry, str]] | None = None

    def moved(self, tx: StoreTx) -> list[tuple[Entry, str]]:
        """Each moved entry with the path it will have; the subtree is read once per command."""
        if self._moved is None:
            below = tx.tree(self.old, ALL_LEVELS, _keep) if self.entry.is_dir else []
            cut = len(self.old)
            self._moved = [(e, self.new + e.path[cut:]) for e in [self.entry, *below]]
        return self._moved

    @property
    def path_bytes_delta(self) -> int:
        """How much path text the move adds (negative: removes) over everything it moves."""
        return self.entry.entries * (path_bytes(self.new) - path_bytes(self.old))


Change = FileWrite | Removal | Move


def new_dirs(ancestry: Ancestry | None) -> tuple[str, ...]:
    """The directories a change will make (the root of a new namespace is not counted)."""
    return () if ancestry is None else tuple(d for d in ancestry.missing_dirs if d != ROOT)


def commit(change: Change, tx: StoreTx) -> None:
    """Write a change that every check has passed."""
    if isinstance(change, FileWrite):
        tx.put_file(change.path, change.data, change.lines, change.expires, change.old, memory=change.memory)
    elif isinstance(change, Removal):
        tx.delete(change.path, change.entry)
    else:
        tx.move(change.old, change.new, change.entry, change.expiries)
