"""One key change of a store at a time, and the wait of an open that meets one under way.

The lock is flock(2) on the store's directory, not on the store file: closing any descriptor of the
store file would drop the POSIX locks SQLite holds on it in this process. A key change (``securemem
rekey``, ``keys add``, ``keys adopt`` ...) holds it exclusively from its first read of the key files to
its last move of them; an open whose key does not open the store looks for it (shared, without
waiting) and, while a change holds it, waits for the change to end before it tries once more: a
process told "the store was re-keyed, reopen it" that reopens at once would otherwise read the key
file the change has not moved into place yet.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

_POLL = 0.005  # seconds between two looks at a key change under way
_held: dict[str, int] = {}  # directories whose key-change lock this process holds, and how many times
_held_lock = threading.Lock()


def _directory(db: str | os.PathLike[str]) -> str:
    return os.path.realpath(Path(db).parent)


@contextlib.contextmanager
def key_change(db: str | os.PathLike[str]) -> Iterator[None]:
    """One key change at a time: two ``keys add`` at once would otherwise lose one entry."""
    where = _directory(db)
    fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with _held_lock:
            _held[where] = _held.get(where, 0) + 1
        try:
            yield
        finally:
            with _held_lock:
                _held[where] -= 1
    finally:
        os.close(fd)


def awaited_key_change(db: str | os.PathLike[str], timeout: float) -> bool:
    """Whether another process's key change of the stores in ``db``'s directory was under way and
    ended within ``timeout`` seconds (then the key files are as it left them). False at once where
    none is under way, or where this process holds the lock itself (a change that opens its store)."""
    where = _directory(db)
    with _held_lock:
        if _held.get(where):
            return False
    try:
        fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    try:
        deadline = time.monotonic() + timeout
        waited = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                waited = True
                time.sleep(_POLL)
                continue
            except OSError:
                return False
            return waited
    finally:
        os.close(fd)
