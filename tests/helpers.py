"""Assertions the layer suites share: a command succeeds, fails, or is refused without a trace."""

from __future__ import annotations

import time
from typing import Any

from securemem import SecureMemory
from securemem.store.base import Entry, Store
from securemem.store.sqlcipher import SQLCipherStore
from tests.conftest import dump


def ok(mem: SecureMemory, **tool_input: Any) -> str:
    """The command succeeds; its text."""
    result = mem.execute(tool_input)
    assert not result.is_error, result.content
    return result.text


def err(mem: SecureMemory, **tool_input: Any) -> str:
    """The command fails with a clean message; its text."""
    result = mem.execute(tool_input)
    assert result.is_error, result.content
    assert "Traceback" not in result.text
    return result.text


def refused(mem: SecureMemory, message: str, **tool_input: Any) -> None:
    """The command fails with exactly ``message`` and leaves the namespace as it was."""
    before = dump(mem)
    result = mem.execute(tool_input)
    assert (result.is_error, result.text) == (True, message)
    assert dump(mem) == before


# -- reading and writing the store directly (below every layer) ------------------------------


def stored(mem: SecureMemory, path: str, *, now: float | None = None) -> bytes:
    """The bytes the store holds for a file (not what a view shows)."""
    at = time.time() if now is None else now
    with mem.store.transaction(mem.namespace, write=False, clock=lambda: at) as tx:
        found = tx.get(path)
    assert found is not None and found[1] is not None, f"{path} is not a visible file"
    return found[1]


def entry_of(mem: SecureMemory, path: str, *, now: float | None = None) -> Entry | None:
    """The entry as the store sees it at ``now`` (the memory's clock by default); None once expired."""
    at = mem.clock() if now is None else now
    with mem.store.transaction(mem.namespace, write=False, clock=lambda: at) as tx:
        return tx.stat(path)


def write_raw(
    store: Store,
    path: str,
    data: bytes,
    *,
    namespace: str = "default",
    lines: int | None = None,
    expires: float | None = None,
    now: float | None = None,
) -> None:
    """Write a file straight into the store, as another tool or an older version might have."""
    at = time.time() if now is None else now
    count = lines if lines is not None else data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    with store.transaction(namespace, write=True, clock=lambda: at) as tx:
        found = tx.ancestry(path)
        tx.put_file(path, data, count, expires, found.entry)


def write_many(
    store: Store,
    paths: list[str],
    data: bytes = b"x",
    *,
    namespace: str = "default",
    expires: float | None = None,
    now: float | None = None,
) -> None:
    """Many small files in one transaction (fast set-up for big directories), written at ``now``.

    To set up files that have expired already, write them at a ``now`` before their ``expires``:
    a write below a directory that has expired replaces it (and whatever it held).
    """
    at = time.time() if now is None else now
    with store.transaction(namespace, write=True, clock=lambda: at) as tx:
        for path in paths:
            found = tx.ancestry(path)
            tx.put_file(path, data, 1, expires, found.entry)


# -- the SQLCipher backend's own parts (not on the Store protocol) -------------------------------


def sqlcipher_of(store: Store) -> SQLCipherStore:
    """``store`` as the SQLCipher backend it is: its meta, counters and internals are not on Store."""
    assert isinstance(store, SQLCipherStore), f"not a SQLCipher store: {type(store).__name__}"
    return store


def connection_of(store: Store) -> Any:
    """The open sqlcipher3 connection under a SQLCipher store (sqlcipher3 has no types: Any)."""
    conn = sqlcipher_of(store)._conn
    assert conn is not None, "the store is closed"
    return conn
