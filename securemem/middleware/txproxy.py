"""TxProxy: a StoreTx that forwards every call, for layers that guard one or two operations.

A layer that must see the final bytes of every write (the quota check, the PII safety net) wraps
the call's transaction in a subclass that overrides ``write_file``. It runs in the same
transaction as everything else, so what it checks is what gets committed.
"""

from __future__ import annotations

from collections.abc import Callable

from securemem.store.base import Entry, StoreTx, Usage


class TxProxy:
    def __init__(self, inner: StoreTx) -> None:
        self.inner = inner
        self.namespace = inner.namespace
        self.now = inner.now

    @property
    def freed(self) -> bool:
        return self.inner.freed

    def stat(self, path: str) -> Entry | None:
        return self.inner.stat(path)

    def read(self, path: str) -> bytes:
        return self.inner.read(path)

    def tree(self, path: str, depth: int, skip: Callable[[str], bool], limit: int | None = None) -> list[Entry]:
        return self.inner.tree(path, depth, skip, limit)

    def files_under(self, path: str) -> list[Entry]:
        return self.inner.files_under(path)

    def blocking_file(self, path: str) -> str | None:
        return self.inner.blocking_file(path)

    def write_file(self, path: str, data: bytes, lines: int, expires: float | None) -> None:
        self.inner.write_file(path, data, lines, expires)

    def make_dir(self, path: str) -> None:
        self.inner.make_dir(path)

    def delete(self, path: str) -> int:
        return self.inner.delete(path)

    def move(self, old: str, new: str) -> None:
        self.inner.move(old, new)

    def touch(self, path: str, expires: float | None) -> None:
        self.inner.touch(path, expires)

    def set_expiry(self, path: str, expires: float | None) -> None:
        self.inner.set_expiry(path, expires)

    def usage(self) -> Usage:
        return self.inner.usage()
