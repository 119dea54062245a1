"""``memory://``: a Store in pure Python, in this process's memory, for tests and throwaway sessions.

It keeps the rules of ``store/base.py`` with the simplest data structures that can: one dict of
path -> node per namespace, every total computed on demand (O(entries), fine for what it is
for), one lock for every transaction, and a copy of the namespace taken when a write transaction
begins so that a failed command is rolled back. It has no files, so erasure is immediate. That it
passes the same contract suite as the SQLCipher store shows the Store interface is neutral.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace

from securemem.errors import StorageError
from securemem.paths import ROOT, ancestors, is_within, name_of, parent_of
from securemem.store.base import Ancestry, Clock, Entry, Skip, Usage, path_bytes


@dataclass(frozen=True, slots=True)
class _Node:
    is_dir: bool
    data: bytes
    lines: int
    created: float
    modified: float
    accessed: float
    expires: float | None


def _later(current: float | None, new: float | None) -> float | None:
    return None if current is None or new is None else max(current, new)


class MemoryTx:
    def __init__(self, space: dict[str, _Node], now: float) -> None:
        self._space = space
        self.now = now

    # -- reads -----------------------------------------------------------------------------

    def _visible(self, node: _Node | None) -> bool:
        return node is not None and (node.expires is None or node.expires > self.now)

    def _below(self, path: str) -> Iterator[tuple[str, _Node]]:
        prefix = path + "/"
        return ((p, n) for p, n in self._space.items() if p.startswith(prefix))

    def _entry(self, path: str, node: _Node) -> Entry:
        size, files, dirs, pbytes = (
            (0, 0, 0, path_bytes(path)) if node.is_dir else (len(node.data), 1, 0, path_bytes(path))
        )
        if node.is_dir:
            for below, child in self._below(path):
                if self._visible(child):
                    size += 0 if child.is_dir else len(child.data)
                    files += 0 if child.is_dir else 1
                    dirs += 1 if child.is_dir else 0
                    pbytes += path_bytes(below)
        return Entry(
            path,
            node.is_dir,
            size,
            node.lines,
            files,
            dirs,
            pbytes,
            node.created,
            node.modified,
            node.accessed,
            node.expires,
        )

    def stat(self, path: str) -> Entry | None:
        node = self._space.get(path)
        if node is None and path == ROOT:
            return Entry(ROOT, True, 0, 0, 0, 0, path_bytes(ROOT), self.now, self.now, self.now, None)
        return self._entry(path, node) if node is not None and self._visible(node) else None

    def get(self, path: str) -> tuple[Entry, bytes | None] | None:
        entry = self.stat(path)
        if entry is None:
            return None
        return entry, None if entry.is_dir else self._space[path].data

    def ancestry(self, path: str) -> Ancestry:
        above = ancestors(path)
        blocking = next((a for a in above if self._visible(self._space.get(a)) and not self._space[a].is_dir), None)
        missing = tuple(a for a in above if not self._visible(self._space.get(a)))
        return Ancestry(entry=self.stat(path), blocking_file=blocking, missing_dirs=missing)

    def tree(self, path: str, depth: int, skip: Skip, limit: int | None = None) -> list[Entry]:
        out: list[Entry] = []
        self._walk(path, depth, skip, out, None if limit is None else limit + 1)
        return out

    def _walk(self, path: str, depth: int, skip: Skip, out: list[Entry], cap: int | None) -> None:
        children = sorted(
            (p for p, n in self._below(path) if parent_of(p) == path and self._visible(n)),
            key=lambda p: name_of(p).encode("utf-8"),
        )
        for child in children:
            if cap is not None and len(out) >= cap:
                return
            if skip(name_of(child)):
                continue
            node = self._space[child]
            out.append(self._entry(child, node))
            if node.is_dir and depth > 1:
                self._walk(child, depth - 1, skip, out, cap)

    def usage(self) -> Usage:
        content = pbytes = files = dirs = 0
        for path, node in self._space.items():
            if path == ROOT:
                continue
            pbytes += path_bytes(path)
            files += 0 if node.is_dir else 1
            dirs += 1 if node.is_dir else 0
            content += len(node.data)
        return Usage(content, pbytes, files, dirs)

    # -- writes ----------------------------------------------------------------------------

    def _drop(self, path: str) -> None:
        for below in [p for p, _ in self._below(path)]:
            del self._space[below]
        self._space.pop(path, None)

    def _bump(self, path: str, expires: float | None, *, modified: bool = True) -> None:
        for above in ancestors(path):
            node = self._space[above]
            when = self.now if modified else node.modified
            self._space[above] = replace(
                node, modified=when, expires=None if above == ROOT else _later(node.expires, expires)
            )

    def _make_room(self, path: str) -> list[str]:
        for link in [*ancestors(path), path]:
            node = self._space.get(link)
            if node is not None and not self._visible(node):
                self._drop(link)
                break
        return [a for a in ancestors(path) if a not in self._space]

    def _make_dirs(self, dirs: list[str], expires: float | None) -> None:
        for directory in dirs:
            when = None if directory == ROOT else expires
            self._space[directory] = _Node(True, b"", 0, self.now, self.now, self.now, when)

    def put_file(self, path: str, data: bytes, lines: int, expires: float | None, old: Entry | None) -> None:
        if old is None:
            self._make_dirs(self._make_room(path), expires)
            self._space[path] = _Node(False, bytes(data), lines, self.now, self.now, self.now, expires)
        else:
            node = self._space[path]
            self._space[path] = replace(
                node, data=bytes(data), lines=lines, modified=self.now, accessed=self.now, expires=expires
            )
        self._bump(path, expires)

    def delete(self, path: str, entry: Entry) -> None:
        self._drop(path)
        for above in ancestors(path):
            self._space[above] = replace(self._space[above], modified=self.now)

    def move(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        for below, node in list(self._below(old)):
            if below in self._space and not self._visible(node):
                self._drop(below)
        missing = self._make_room(new)
        latest = _max(expiries.values()) if expiries else self._space[old].expires
        self._make_dirs(missing, latest)
        moving = [(p, n) for p, n in self._space.items() if is_within(p, old)]
        for path, _ in moving:
            del self._space[path]
        for path, node in moving:
            self._space[new + path[len(old) :]] = node
        self._space[new] = replace(self._space[new], modified=self.now)
        final = dict(expiries)
        for path, expires in expiries.items():
            for above in ancestors(path):
                if above in final and is_within(above, new):
                    final[above] = _later(final[above], expires)
        for path, expires in final.items():
            self._space[path] = replace(self._space[path], expires=expires)
        for above in ancestors(old):
            if above in self._space:
                self._space[above] = replace(self._space[above], modified=self.now)
        self._bump(new, latest)

    def touch(self, path: str, expires: float | None) -> None:
        self._space[path] = replace(self._space[path], accessed=self.now, expires=expires)
        self._bump(path, expires, modified=False)

    def set_expiry(self, path: str, expires: float | None) -> None:
        self._space[path] = replace(self._space[path], expires=expires)
        self._bump(path, expires, modified=False)

    def purge_expired(self, limit: int) -> int:
        expired = sorted(p for p, n in self._space.items() if not self._visible(n))[:limit]
        for path in expired:
            self._space.pop(path, None)
        return len(expired)


def _max(values: object) -> float | None:
    latest: float | None = None
    for value in values:  # type: ignore[attr-defined]
        if value is None:
            return None
        latest = value if latest is None else max(latest, value)
    return latest


class MemoryStore:
    """Every namespace in one process's memory; thread-safe (one lock for all transactions)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._spaces: dict[str, dict[str, _Node]] = {}
        self._settings: dict[str, str] = {}
        self._store_id = "memstore_" + secrets.token_hex(12)
        self._token_key = os.urandom(32)
        self._closed = False

    @property
    def store_id(self) -> str:
        return self._store_id

    @property
    def token_key(self) -> bytes:
        return self._token_key

    @contextmanager
    def transaction(self, namespace: str, *, write: bool, clock: Clock) -> Iterator[MemoryTx]:
        with self._lock:
            if self._closed:
                raise StorageError("the memory store is closed")
            space = self._spaces.setdefault(namespace, {}) if write else self._spaces.get(namespace, {})
            saved = dict(space) if write else None
            try:
                yield MemoryTx(space, clock())
            except BaseException:
                if saved is not None:
                    space.clear()
                    space.update(saved)
                raise

    def namespaces(self) -> list[str]:
        with self._lock:
            return sorted(self._spaces)

    def drop_namespace(self, name: str) -> bool:
        with self._lock:
            return self._spaces.pop(name, None) is not None

    def get_setting(self, name: str) -> str | None:
        return self._settings.get(name)

    def set_setting(self, name: str, value: str) -> None:
        self._settings[name] = value

    def sweep_batch(self, now: float, limit: int) -> int:
        with self._lock:
            done = 0
            for space in self._spaces.values():
                expired = sorted(p for p, n in space.items() if n.expires is not None and n.expires <= now)
                for path in expired[: limit - done]:
                    space.pop(path, None)
                    done += 1
                if done >= limit:
                    break
            return done

    def count_expired(self, now: float) -> int:
        with self._lock:
            return sum(
                1 for s in self._spaces.values() for n in s.values() if n.expires is not None and n.expires <= now
            )

    def integrity_errors(self) -> list[str]:
        return []

    def flush_erasure(self) -> None:
        return None  # no files: what is deleted is gone at once

    def configure(self, *, durability: str, erase_within: float) -> None:
        del durability, erase_within  # nothing to make durable, nothing to erase later

    def close(self) -> None:
        self._closed = True
