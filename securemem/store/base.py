"""The Store protocol: the "hazmat" layer. It applies no policy and validates no path.

Callers hand it canonical paths (see ``securemem.paths``) inside a transaction. Expiry is the one
rule a store does enforce, because "nothing expired is ever visible" must hold for every caller,
not only for those that remember to filter: an entry whose ``expires`` is at or before the
transaction's ``now`` does not exist for any read, and a write to its path replaces it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Entry:
    """Metadata of one file or directory (never its content)."""

    path: str
    is_dir: bool
    size: int  # bytes of a file; for a directory, the total of the files below it
    files: int  # 1 for a file; for a directory, the number of files below it
    lines: int
    created: float
    modified: float
    accessed: float
    expires: float | None


@dataclass(frozen=True, slots=True)
class Usage:
    bytes: int
    files: int


class StoreTx(Protocol):
    """One transaction on one namespace, at one instant ``now``."""

    namespace: str
    now: float

    @property
    def freed(self) -> bool:
        """True when the transaction deleted content, so the caller can scrub the WAL after commit."""
        ...

    def stat(self, path: str) -> Entry | None: ...
    def read(self, path: str) -> bytes: ...
    def tree(self, path: str, depth: int, skip: Callable[[str], bool], limit: int | None = None) -> list[Entry]: ...
    def files_under(self, path: str) -> list[Entry]: ...
    def blocking_file(self, path: str) -> str | None: ...
    def write_file(self, path: str, data: bytes, lines: int, expires: float | None) -> None: ...
    def make_dir(self, path: str) -> None: ...
    def delete(self, path: str) -> int: ...
    def move(self, old: str, new: str) -> None: ...
    def touch(self, path: str, expires: float | None) -> None: ...
    def set_expiry(self, path: str, expires: float | None) -> None: ...
    def usage(self) -> Usage: ...


class Store(Protocol):
    """A backend holding every namespace of one deployment.

    ``meta`` holds the sentinel (format, schema_version, store_id) and ``token_key``, the secret
    that keyed PII tokens are made with; it lives inside the encrypted store.
    """

    meta: dict[str, str]

    def transaction(self, namespace: str, *, write: bool, now: float) -> AbstractContextManager[StoreTx]: ...

    def sweep_batch(self, now: float, limit: int) -> int: ...
    def count_expired(self, now: float) -> int: ...
    # Best effort, never raises: it runs after a delete has committed, which a failure here must
    # not report as "not applied".
    def scrub_free_space(self) -> None: ...
    def close(self) -> None: ...


def descendants_range(path: str) -> tuple[str, str]:
    """Bounds (inclusive low, exclusive high) of every path strictly below ``path``.

    Every descendant starts with ``path + '/'``; '0' is the character after '/', so
    ``[path + '/', path + '0')`` holds exactly the descendants under binary collation.
    """
    return path + "/", path + "0"
