"""MountedTx: one store transaction over the stores of a session, seen through their mounts.

The dispatcher and every layer work on mounted paths (``/memories/<mount>/notes.md``): the paths
the model sends and every message shows. This proxy is the one place that maps them. Each call
goes to the transaction of the store its path is mounted from, with the path that store holds
(``/memories/notes.md``), and every entry that comes back carries the mounted path again. Stores
other than the command's own are reached with ``StoreTx.sibling``: the same SQL transaction, so
what a command writes in two stores is committed, or rolled back, as one.

``/memories`` itself belongs to no store: it is a directory holding one directory per mount. A
move between two mounts is a move between two stores: every file is written anew in the target
(a new memory there, with its ``created`` version) and the source is deleted (a ``deleted``
version for each file), in that one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from securemem.changes import ALL_LEVELS
from securemem.errors import InvalidPath
from securemem.mounts import Mount, MountTable
from securemem.paths import ROOT
from securemem.store.base import (
    Ancestry,
    Entry,
    MissingStore,
    Skip,
    StoreTx,
    Usage,
    VersionQuery,
    VersionRow,
    path_bytes,
)


def _keep(_name: str) -> bool:
    return False


def _prefix_bytes(mount: Mount) -> int:
    """What a mount adds to each path it shows: the bytes of ``/<mount>``."""
    return path_bytes(mount.root) - path_bytes(ROOT)


class MountedTx:
    """A StoreTx over the mounts of ``table``; ``tx`` is the transaction on ``home``'s store.

    ``home`` is the mount the command works in (a rename's destination): what takes no path
    (``usage``, ``purge_expired``) is about its store, so a quota is checked, and room made, in
    the store that grows.
    """

    def __init__(self, table: MountTable, home: Mount, tx: StoreTx) -> None:
        self._table = table
        self._home = home
        self._txs: dict[str, StoreTx] = {home.name: tx}

    @property
    def now(self) -> float:
        return self._txs[self._home.name].now

    def _tx(self, mount: Mount) -> StoreTx:
        if mount.name not in self._txs:
            self._txs[mount.name] = self._txs[self._home.name].sibling(mount.store.name, store_key=mount.store.key)
        return self._txs[mount.name]

    def _at(self, path: str) -> tuple[Mount, StoreTx, str]:
        mount = self._table.mount_of(path)
        if mount is None:  # the path guard refuses such a path first; never guess a store for it
            raise InvalidPath(f"Error: Invalid path: paths must lie inside a mounted store: {self._table.roots()}")
        return mount, self._tx(mount), self._table.stored(path)

    def _out(self, mount: Mount, entry: Entry) -> Entry:
        """A store's entry as the model sees it: the mounted path, and path bytes counted with it."""
        grown = entry.path_bytes + entry.entries * _prefix_bytes(mount)
        return replace(entry, path=self._table.shown(mount, entry.path), path_bytes=grown)

    def _in(self, mount: Mount, entry: Entry) -> Entry:
        shrunk = entry.path_bytes - entry.entries * _prefix_bytes(mount)
        return replace(entry, path=self._table.stored(entry.path), path_bytes=shrunk)

    # -- /memories: the mounts -----------------------------------------------------------------

    def _roots(self) -> list[tuple[Mount, Entry]]:
        """Each mount's directory (its store's root), in name order as a listing shows them."""
        roots = []
        for mount in sorted(self._table.mounts, key=lambda m: m.name):
            try:
                tx = self._tx(mount)
            except MissingStore:
                continue  # deleted by an operator since the session attached it: its commands fail
            root = tx.stat(ROOT)
            assert root is not None, "a store's root always exists"
            roots.append((mount, self._out(mount, root)))
        return roots

    def _root(self) -> Entry:
        roots = [root for _, root in self._roots()]
        return Entry(
            ROOT, True, sum(r.size for r in roots), 0, sum(r.files for r in roots),
            sum(r.dirs for r in roots) + len(roots), path_bytes(ROOT) + sum(r.path_bytes for r in roots),
            min(r.created for r in roots), max(r.modified for r in roots), max(r.accessed for r in roots), None,
        )  # fmt: skip

    def _root_tree(self, depth: int, skip: Skip, limit: int | None) -> list[Entry]:
        cap = None if limit is None else limit + 1  # as StoreTx.tree: one more than the limit
        out: list[Entry] = []
        for mount, root in self._roots():
            if cap is not None and len(out) >= cap:
                break
            if skip(mount.name):
                continue
            out.append(root)
            room = None if cap is None else cap - len(out)
            if depth > 1 and room != 0:
                below = self._tx(mount).tree(ROOT, depth - 1, skip, None if room is None else room - 1)
                out += [self._out(mount, entry) for entry in below]
        return out

    # -- reads -------------------------------------------------------------------------------

    def stat(self, path: str) -> Entry | None:
        if path == ROOT:
            return self._root()
        mount, tx, stored = self._at(path)
        entry = tx.stat(stored)
        return None if entry is None else self._out(mount, entry)

    def get(self, path: str) -> tuple[Entry, bytes | None] | None:
        if path == ROOT:
            return self._root(), None
        mount, tx, stored = self._at(path)
        found = tx.get(stored)
        return None if found is None else (self._out(mount, found[0]), found[1])

    def tree(self, path: str, depth: int, skip: Skip, limit: int | None = None) -> list[Entry]:
        if path == ROOT:
            return self._root_tree(depth, skip, limit)
        mount, tx, stored = self._at(path)
        return [self._out(mount, entry) for entry in tx.tree(stored, depth, skip, limit)]

    def ancestry(self, path: str) -> Ancestry:
        if path == ROOT:
            return Ancestry(self._root(), None, ())
        mount, tx, stored = self._at(path)
        found = tx.ancestry(stored)
        shown = self._table.shown
        return Ancestry(
            entry=None if found.entry is None else self._out(mount, found.entry),
            blocking_file=None if found.blocking_file is None else shown(mount, found.blocking_file),
            # A store makes its own root: like the root of a new namespace, it is no directory to count.
            missing_dirs=tuple(shown(mount, d) for d in found.missing_dirs if d != ROOT),
        )

    def usage(self) -> Usage:
        return self._tx(self._home).usage()

    # -- the admin surface's reads, on the home store (a session never calls them) ------------

    def memory(self, number: int) -> tuple[Entry, bytes] | None:
        found = self._tx(self._home).memory(number)
        return None if found is None else (self._out(self._home, found[0]), found[1])

    def files(self, prefix: str, after: str | None, limit: int) -> list[tuple[Entry, bytes]]:
        stored = self._table.stored
        found = self._tx(self._home).files(stored(prefix), None if after is None else stored(after), limit)
        return [(self._out(self._home, entry), data) for entry, data in found]

    def versions(self, query: VersionQuery) -> list[VersionRow]:
        return [self._shown_row(row) for row in self._tx(self._home).versions(query)]

    def version(self, seq: int) -> VersionRow | None:
        row = self._tx(self._home).version(seq)
        return None if row is None else self._shown_row(row)

    def _shown_row(self, row: VersionRow) -> VersionRow:
        return row if row.path is None else replace(row, path=self._table.shown(self._home, row.path))

    def redact(self, seq: int) -> None:
        self._tx(self._home).redact(seq)

    # -- writes ------------------------------------------------------------------------------

    def put_file(
        self, path: str, data: bytes, lines: int, expires: float | None, old: Entry | None, *, memory: int = 0
    ) -> None:
        mount, tx, stored = self._at(path)
        tx.put_file(stored, data, lines, expires, None if old is None else self._in(mount, old), memory=memory)

    def delete(self, path: str, entry: Entry) -> None:
        mount, tx, stored = self._at(path)
        tx.delete(stored, self._in(mount, entry))

    def move(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        source, tx, stored_old = self._at(old)
        if self._table.mount_of(new) is not source:
            self._transfer(old, new, entry, expiries)
            return
        stored = self._table.stored
        tx.move(stored_old, stored(new), self._in(source, entry), {stored(p): e for p, e in expiries.items()})

    def _transfer(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        """A move between two stores: each entry made anew in the target, then the source deleted.

        Parents come before what they hold (``tree`` is depth first), so each directory, empty
        ones too, is made with its own expiry before the files below push it later. An entry
        keeps its expiry unless the TTL layer stamped a new one for where it lands.
        """
        source, src, at = self._at(old)
        target, dst, to = self._at(new)
        top = self._in(source, entry)
        for item in [top, *src.tree(at, ALL_LEVELS, _keep)] if top.is_dir else [top]:
            landing = to + item.path[len(at) :]
            expires = expiries.get(self._table.shown(target, landing), item.expires)
            if item.is_dir:
                dst.make_dir(landing, expires)
                continue
            found = src.get(item.path)
            assert found is not None and found[1] is not None, "a file the tree listed"
            dst.put_file(landing, found[1], item.lines, expires, None)
        src.delete(at, top)

    def touch(self, path: str, expires: float | None) -> None:
        _, tx, stored = self._at(path)
        tx.touch(stored, expires)

    def set_expiry(self, path: str, expires: float | None) -> None:
        _, tx, stored = self._at(path)
        tx.set_expiry(stored, expires)

    def purge_expired(self, limit: int, *, memory: int | None = None) -> int:
        return self._tx(self._home).purge_expired(limit, memory=memory)

    def make_dir(self, path: str, expires: float | None) -> None:
        _, tx, stored = self._at(path)
        tx.make_dir(stored, expires)

    @property
    def store_key(self) -> int:
        return self._tx(self._home).store_key

    def sibling(self, namespace: str, *, store_key: int | None = None) -> StoreTx:
        return self._tx(self._home).sibling(namespace, store_key=store_key)
