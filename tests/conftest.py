"""Fixtures shared by every test module. Keep them generic: module-specific fixtures live in the module."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.paths import ROOT

# One entry of a namespace as a test sees it: (is_dir, content or None for a directory, lines).
EntryView = tuple[bool, bytes | None, int]


@pytest.fixture
def key() -> bytes:
    """A fresh raw 32-byte SQLCipher key (raw keys open in well under a millisecond)."""
    return os.urandom(32)


@pytest.fixture
def mem(tmp_path: Path, key: bytes) -> Iterator[SecureMemory]:
    """A fresh, empty store in tmp_path with the default policy."""
    with SecureMemory.open(tmp_path / "m.db", key=key) as memory:
        yield memory


def dump(memory: SecureMemory, now: float | None = None) -> dict[str, EntryView]:
    """Every entry of the memory's namespace, hidden ones included, with file contents.

    Reads the store directly (not through view) so a test can tell that a failed command wrote
    nothing at all, even where a view would not show it. ``now`` defaults to the memory's clock.
    """
    at = memory.clock() if now is None else now
    with memory.store.transaction(memory.namespace, write=False, clock=lambda: at) as tx:
        root = tx.stat(ROOT)
        assert root is not None
        out: dict[str, EntryView] = {ROOT: (True, None, root.size)}
        for entry in tx.tree(ROOT, 1_000, lambda _name: False):
            found = None if entry.is_dir else tx.get(entry.path)
            out[entry.path] = (True, None, entry.size) if found is None else (False, found[1], entry.lines)
        return out


@pytest.fixture
def snapshot() -> Callable[[SecureMemory], dict[str, EntryView]]:
    """``snapshot(memory)``: a comparable dump of a namespace (see ``dump``)."""
    return dump
