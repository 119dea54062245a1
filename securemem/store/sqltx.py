"""StoreTx over an SQLite-dialect connection: the SQL of every store operation.

Layout: ``entries`` holds one row per file or directory (metadata only, so listings never touch
file pages), ``blobs`` holds file content by entry id. Every directory row carries the total
``size`` and ``files`` of its subtree, kept up to date on each write, so that a listing and a
quota check read a handful of rows instead of summing a subtree. Rows that have expired but are
not swept yet still count in those totals; readers subtract them (``_expired_total``,
``_expired_under``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from securemem.paths import ROOT, ancestors, parent_of
from securemem.store.base import Entry, Usage, descendants_range

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    ns TEXT NOT NULL,
    path TEXT NOT NULL,
    parent TEXT NOT NULL,
    is_dir INTEGER NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    files INTEGER NOT NULL DEFAULT 0,
    lines INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    modified REAL NOT NULL,
    accessed REAL NOT NULL,
    expires REAL
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_path ON entries (ns, path);
CREATE INDEX IF NOT EXISTS entries_parent ON entries (ns, parent, path);
CREATE INDEX IF NOT EXISTS entries_expires ON entries (expires) WHERE expires IS NOT NULL;
CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
"""

_COLUMNS = "path, is_dir, size, files, lines, created, modified, accessed, expires"
_VISIBLE = "(expires IS NULL OR expires > :now)"
# Expired rows below a path. INDEXED BY: left to itself the planner walks the namespace by path,
# which grows with every file; expired-but-unswept rows are few, since sweeps remove them.
_EXPIRED_BELOW = (
    "FROM entries INDEXED BY entries_expires WHERE expires IS NOT NULL AND expires <= :now "
    "AND ns = :ns AND path >= :lo AND path < :hi"
)


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Sequence[Any] | dict[str, Any] = ..., /) -> Cursor: ...


def _entry(row: Sequence[Any], minus: tuple[int, int] = (0, 0)) -> Entry:
    return Entry(
        path=row[0],
        is_dir=bool(row[1]),
        size=row[2] - minus[0],
        files=row[3] - minus[1],
        lines=row[4],
        created=row[5],
        modified=row[6],
        accessed=row[7],
        expires=row[8],
    )


class SqlTx:
    """One transaction on one namespace; the caller has already begun it."""

    def __init__(self, conn: Connection, namespace: str, now: float) -> None:
        self._conn = conn
        self.namespace = namespace
        self.now = now
        self.freed = False  # content was deleted: the WAL should be checkpointed after commit

    def _q(self, sql: str, **params: Any) -> Cursor:
        return self._conn.execute(sql, {"ns": self.namespace, "now": self.now, **params})

    # -- reads -----------------------------------------------------------------------------

    def stat(self, path: str) -> Entry | None:
        if path == ROOT:
            return self._root()
        row = self._q(f"SELECT {_COLUMNS} FROM entries WHERE ns = :ns AND path = :p AND {_VISIBLE}", p=path).fetchone()
        if row is None or not row[1]:
            return None if row is None else _entry(row)
        return _entry(row, self._expired_total(path))

    def _root(self) -> Entry:
        row = self._q(f"SELECT {_COLUMNS} FROM entries WHERE ns = :ns AND path = :p", p=ROOT).fetchone()
        if row is None:  # a namespace nobody has written to yet
            return Entry(ROOT, True, 0, 0, 0, self.now, self.now, self.now, None)
        return _entry(row, self._expired_total(ROOT))

    def read(self, path: str) -> bytes:
        row = self._q(
            f"SELECT b.data FROM entries e JOIN blobs b ON b.id = e.id "
            f"WHERE e.ns = :ns AND e.path = :p AND e.is_dir = 0 AND {_VISIBLE}",
            p=path,
        ).fetchone()
        if row is None:
            raise KeyError(path)
        return bytes(row[0])

    def tree(self, path: str, depth: int, skip: Callable[[str], bool], limit: int | None = None) -> list[Entry]:
        """Visible entries below ``path`` down to ``depth`` levels, depth-first, sorted by name.

        ``skip(name)`` hides an entry and everything below it. With ``limit``, the walk stops
        after ``limit + 1`` entries: a caller that shows at most ``limit`` rows learns that there
        are more without reading a 100,000-entry directory it would cut anyway.
        """
        expired = self._expired_under(path)
        out: list[Entry] = []
        self._walk(path, depth, skip, expired, out, cap=None if limit is None else limit + 1)
        return out

    def _walk(
        self,
        path: str,
        depth: int,
        skip: Callable[[str], bool],
        expired: list[tuple[str, int]],
        out: list[Entry],
        *,
        cap: int | None,
    ) -> None:
        for row in self._children(path, cap):
            if cap is not None and len(out) >= cap:
                return
            if skip(row[0].rsplit("/", 1)[1]):
                continue
            out.append(_entry(row, _minus(row[0], expired)) if row[1] else _entry(row))
            if row[1] and depth > 1:
                self._walk(row[0], depth - 1, skip, expired, out, cap=cap)

    def _children(self, path: str, cap: int | None) -> Iterator[Sequence[Any]]:
        """Rows of ``path``'s children in name order, fetched a page at a time when capped."""
        if cap is None:
            yield from self._q(
                f"SELECT {_COLUMNS} FROM entries WHERE ns = :ns AND parent = :p AND {_VISIBLE} ORDER BY path", p=path
            ).fetchall()
            return
        after = ""
        while True:  # keyset pages: hidden names skipped by the caller never starve the page
            rows = self._q(
                f"SELECT {_COLUMNS} FROM entries WHERE ns = :ns AND parent = :p AND path > :after "
                f"AND {_VISIBLE} ORDER BY path LIMIT :n",
                p=path,
                after=after,
                n=cap,
            ).fetchall()
            yield from rows
            if len(rows) < cap:
                return
            after = rows[-1][0]

    def files_under(self, path: str) -> list[Entry]:
        """Every visible file at or below ``path`` (a file gives itself)."""
        low, high = descendants_range(path)
        rows = self._q(
            f"SELECT {_COLUMNS} FROM entries WHERE ns = :ns AND is_dir = 0 AND {_VISIBLE} "
            "AND (path = :p OR (path >= :lo AND path < :hi))",
            p=path,
            lo=low,
            hi=high,
        ).fetchall()
        return [_entry(row) for row in rows]

    def blocking_file(self, path: str) -> str | None:
        """The first visible ancestor of ``path`` that is a file, if any."""
        above = ancestors(path)[1:]
        if not above:
            return None
        marks = ",".join(f":a{i}" for i in range(len(above)))
        row = self._q(
            f"SELECT path FROM entries WHERE ns = :ns AND path IN ({marks}) AND is_dir = 0 "
            f"AND {_VISIBLE} ORDER BY length(path) LIMIT 1",
            **{f"a{i}": a for i, a in enumerate(above)},
        ).fetchone()
        return None if row is None else str(row[0])

    def usage(self) -> Usage:
        root = self._root()
        return Usage(bytes=root.size, files=root.files)

    def _expired_under(self, path: str) -> list[tuple[str, int]]:
        """Path and size of each expired, unswept file below ``path``."""
        low, high = descendants_range(path)
        rows = self._q(f"SELECT path, size {_EXPIRED_BELOW}", lo=low, hi=high).fetchall()
        return [(r[0], r[1]) for r in rows]

    def _expired_total(self, path: str) -> tuple[int, int]:
        """Bytes and count of the expired, unswept files below ``path``, summed by SQLite."""
        low, high = descendants_range(path)
        row = self._q(f"SELECT COALESCE(SUM(size), 0), COUNT(*) {_EXPIRED_BELOW}", lo=low, hi=high).fetchone()
        return int(row[0]), int(row[1])

    # -- writes ----------------------------------------------------------------------------

    def _existing(self, paths: Sequence[str]) -> dict[str, tuple[int, bool, int, float | None]]:
        """id, is_dir, size and expires of whichever of ``paths`` have rows (expired or not)."""
        marks = ",".join(f":a{i}" for i in range(len(paths)))
        rows = self._q(
            f"SELECT path, id, is_dir, size, expires FROM entries WHERE ns = :ns AND path IN ({marks})",
            **{f"a{i}": p for i, p in enumerate(paths)},
        ).fetchall()
        return {r[0]: (r[1], bool(r[2]), r[3], r[4]) for r in rows}

    def _purge_if_expired(self, path: str, row: tuple[int, bool, int, float | None] | None) -> bool:
        """Drop an expired file's row so a write can reuse its path; True if the path is now free."""
        if row is None:
            return True
        row_id, is_dir, size, expires = row
        if is_dir or expires is None or expires > self.now:
            return False
        self._drop_ids([row_id])
        self._add_to_ancestors(path, -size, -1)
        self.freed = True
        return True

    def _drop_ids(self, ids: Sequence[int]) -> None:
        marks = ",".join("?" * len(ids))
        self._conn.execute(f"DELETE FROM blobs WHERE id IN ({marks})", list(ids))
        self._conn.execute(f"DELETE FROM entries WHERE id IN ({marks})", list(ids))

    def _add_to_ancestors(self, path: str, size: int, files: int) -> None:
        if size == 0 and files == 0:
            return
        above = ancestors(path)
        marks = ",".join(f":a{i}" for i in range(len(above)))
        self._q(
            f"UPDATE entries SET size = size + :s, files = files + :f, modified = :now "
            f"WHERE ns = :ns AND path IN ({marks})",
            s=size,
            f=files,
            **{f"a{i}": a for i, a in enumerate(above)},
        )

    def _make_dirs(self, chain: Sequence[str], found: dict[str, tuple[int, bool, int, float | None]]) -> None:
        """Create the directories of ``chain`` (root first) that do not exist yet."""
        for directory in chain:
            if self._purge_if_expired(directory, found.get(directory)):
                self._q(
                    "INSERT INTO entries (ns, path, parent, is_dir, created, modified, accessed) "
                    "VALUES (:ns, :p, :parent, 1, :now, :now, :now)",
                    p=directory,
                    parent=parent_of(directory) if directory != ROOT else "",
                )

    def make_dir(self, path: str) -> None:
        chain = [*ancestors(path), path] if path != ROOT else [ROOT]
        self._make_dirs(chain, self._existing(chain))

    def write_file(self, path: str, data: bytes, lines: int, expires: float | None) -> None:
        """Create or replace a file, making missing parent directories.

        One query reads the file's row and every ancestor's, so a write in an existing directory
        is four statements: that read, the row, the content, and the directory totals.
        """
        chain = ancestors(path)
        found = self._existing([*chain, path])
        self._make_dirs(chain, found)
        row = found.get(path)
        if self._purge_if_expired(path, row):
            cur = self._q(
                "INSERT INTO entries (ns, path, parent, is_dir, size, files, lines, created, "
                "modified, accessed, expires) VALUES (:ns, :p, :parent, 0, :s, 1, :l, :now, :now, "
                ":now, :e) RETURNING id",
                p=path,
                parent=parent_of(path),
                s=len(data),
                l=lines,
                e=expires,
            )
            new_id = cur.fetchone()[0]
            self._conn.execute("INSERT INTO blobs (id, data) VALUES (?, ?)", (new_id, data))
            self._add_to_ancestors(path, len(data), 1)
            return
        assert row is not None
        self._q(
            "UPDATE entries SET size = :s, lines = :l, modified = :now, accessed = :now, expires = :e WHERE id = :id",
            s=len(data),
            l=lines,
            e=expires,
            id=row[0],
        )
        self._conn.execute("UPDATE blobs SET data = ? WHERE id = ?", (data, row[0]))
        self._add_to_ancestors(path, len(data) - row[2], 0)

    def delete(self, path: str) -> int:
        """Delete a file or a directory with everything below it; returns entries removed."""
        low, high = descendants_range(path)
        row = self._q("SELECT id, size, files FROM entries WHERE ns = :ns AND path = :p", p=path).fetchone()
        if row is None:
            return 0
        below = self._q(
            "SELECT id FROM entries WHERE ns = :ns AND path >= :lo AND path < :hi", lo=low, hi=high
        ).fetchall()
        ids = [row[0], *(r[0] for r in below)]
        for start in range(0, len(ids), 500):  # bounded IN lists, whatever the subtree's size
            self._drop_ids(ids[start : start + 500])
        self._add_to_ancestors(path, -row[1], -row[2])
        self.freed = True
        return len(ids)

    def move(self, old: str, new: str) -> None:
        """Move a file or a subtree; the caller checked that ``new`` is free and not inside ``old``."""
        row = self._q("SELECT size, files FROM entries WHERE ns = :ns AND path = :p", p=old).fetchone()
        self._add_to_ancestors(old, -row[0], -row[1])
        chain = ancestors(new)
        found = self._existing([*chain, new])
        self._make_dirs(chain, found)
        self._purge_if_expired(new, found.get(new))
        low, high = descendants_range(old)
        cut = len(old) + 1
        self._q(
            "UPDATE entries SET path = :new || substr(path, :cut), parent = :new || substr(parent, :cut) "
            "WHERE ns = :ns AND path >= :lo AND path < :hi",
            new=new,
            cut=cut,
            lo=low,
            hi=high,
        )
        self._q(
            "UPDATE entries SET path = :new, parent = :np, modified = :now WHERE ns = :ns AND path = :old",
            new=new,
            np=parent_of(new),
            old=old,
        )
        self._add_to_ancestors(new, row[0], row[1])

    def touch(self, path: str, expires: float | None) -> None:
        """Record a read: the access time, and the expiry that the read refreshes."""
        self._q("UPDATE entries SET accessed = :now, expires = :e WHERE ns = :ns AND path = :p", p=path, e=expires)

    def set_expiry(self, path: str, expires: float | None) -> None:
        self._q("UPDATE entries SET expires = :e WHERE ns = :ns AND path = :p AND is_dir = 0", p=path, e=expires)


def _minus(directory: str, expired: list[tuple[str, int]]) -> tuple[int, int]:
    """Bytes and file count of the expired files below ``directory``."""
    prefix = directory + "/"
    below = [size for path, size in expired if path.startswith(prefix)]
    return sum(below), len(below)
