"""StoreTx over an SQLite-dialect connection: the SQL of every store operation.

Layout (schema 2, see ``sqlschema.py``): ``entries`` is one clustered table keyed by
``(ns, parent, name)``: a path lookup, a directory's children in name order and a whole subtree
(``parent`` = the directory, or between ``dir/`` and ``dir0``) are each one range of that key, so
no secondary index on paths is needed and a write touches few pages. File content lives apart in
``content`` (keyed by the file's id), so listings and sweeps never read it. The only other index
is on ``expires`` (sweeps, and the expired rows a reader subtracts).

Raw totals: each directory row carries ``size``, ``files``, ``dirs`` and ``pbytes`` summed over
*every* row below it, expired or not. A write adds, and a deletion subtracts, each row's own
contribution from every ancestor, so the totals stay exact whatever order or batch size deletions
happen in. Readers subtract the expired rows below (few: sweeps remove them), so listings show
what is visible; ``usage()`` is the raw total: what is really stored.

The transaction remembers the rows it read (``_cache``) until its first write, so a command never
reads a row twice: the dispatcher's lookup serves the quota check and the write.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from securemem.paths import ROOT, ancestors, name_of, parent_of
from securemem.store.base import (
    Ancestry,
    Entry,
    MissingStore,
    Skip,
    Usage,
    VersionQuery,
    VersionRow,
    descendants_range,
    landing_expiries,
    may_have_set,
    path_bytes,
    sooner,
)
from securemem.store.history import ROW_SHARE

if TYPE_CHECKING:
    from securemem.store.sqlversions import Tail, VersionLog

Row = Sequence[Any]
Totals = tuple[int, int, int, int]  # content bytes, files, dirs, path bytes

_COLS = "parent, name, is_dir, size, lines, files, dirs, pbytes, created, modified, accessed, expires, id"
_E_COLS = ", ".join(f"e.{c.strip()}" for c in _COLS.split(","))
_VISIBLE = "(expires IS NULL OR expires > :now)"
_SUBTREE = "(parent = :p OR (parent >= :lo AND parent < :hi))"
_AT = "ns = :ns AND parent = :pa AND name = :na"
# A directory's expiry made the latest of its children's (rule 4; see SqlTx._refit): one statement.
_REFIT = (
    "UPDATE entries SET expires = (SELECT CASE WHEN count(*) = 0 THEN entries.expires "
    "WHEN count(c.expires) < count(*) THEN NULL ELSE max(c.expires) END FROM entries c "
    "WHERE c.ns = :ns AND c.parent = :p) WHERE ns = :ns AND parent = :pa AND name = :na RETURNING expires"
)
# Expired files of a namespace. INDEXED BY: left to itself the planner may walk the namespace by
# key, which grows with every file; expired-but-unswept files are few, since sweeps remove them.
# Only files are in that index: a directory's expiry moves with every write below it, and keeping
# it out of the index saves a page or two per write. Expired directories are found by a scan, and
# only once no expired file is left (so a directory never goes before what lies below it).
_EXPIRED = (
    "FROM entries INDEXED BY entries_expires WHERE expires IS NOT NULL AND expires <= :now AND is_dir = 0 AND ns = :ns"
)
_EXPIRED_DIRS = (
    "FROM entries WHERE is_dir = 1 AND expires IS NOT NULL AND expires <= :now AND ns = :ns "
    "ORDER BY length(parent) DESC"
)
_OWN_BYTES = "length(CAST(parent || '/' || name AS BLOB))"
_ROW = f"SELECT {_COLS} FROM entries WHERE ns = ? AND parent = ? AND name = ?"
_GET = (
    f"SELECT {_E_COLS}, c.data, c.head FROM entries e LEFT JOIN content c ON c.id = e.id AND e.is_dir = 0 "
    "WHERE e.ns = ? AND e.parent = ? AND e.name = ?"
)
_INSERT = (
    "INSERT INTO entries (ns, parent, name, id, is_dir, size, lines, files, dirs, pbytes, created, modified, "
    "accessed, expires) VALUES (:ns, :pa, :na, :id, :dir, :s, :l, :f, 0, :b, :now, :now, :now, :e)"
)
# A new memory's number: one above every number the store has given. The highest live file's is in
# ``content`` (as is that of a memory deleted with the history off that has versions: its row stays
# empty, keeping its head), a deleted or expired one's in its ``deleted``/``expired`` version
# (``versions_ends``; versions are never deleted while the store exists), and ``memory_top`` in
# ``meta`` keeps the highest of those whose last trace went (a deletion with the history off, a
# store deleted). Three index probes, no counter row to rewrite per create. The row carries the
# memory's newest version (``head``, see ``sqlversions.py``).
NEW_MEMORY = (
    "INSERT INTO content (id, data, head) VALUES ((SELECT max(coalesce((SELECT max(id) FROM content), 0), "
    "coalesce((SELECT memory FROM versions INDEXED BY versions_ends WHERE op IN (2, 3) ORDER BY memory DESC "
    "LIMIT 1), 0), coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'memory_top'), 0)) + 1), ?, ?) "
    "RETURNING id"
)
# A deleted memory back under its own number, its row naming the memory's newest version (the
# restore's own once it is recorded; its deletion while the history is off); an empty row left by
# a deletion with the history off takes the text back.
_RESTORED = (
    "INSERT INTO content (id, data, head) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, "
    "head = excluded.head RETURNING id"
)
_ROOT_KEY = ("", "memories")
_ROOT_BYTES = path_bytes(ROOT)


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def fetchmany(self, size: int = ..., /) -> list[Any]: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ..., /) -> Cursor: ...
    def executemany(self, sql: str, parameters: Any, /) -> Cursor: ...


def key_of(path: str) -> tuple[str, str]:
    return _ROOT_KEY if path == ROOT else (parent_of(path), name_of(path))


def blob(value: object) -> bytes:
    """A BLOB column's value; anything else (``bytes(42)`` is 42 zero bytes) is a damaged row."""
    if not isinstance(value, bytes):
        raise TypeError("a BLOB column holds another type")
    return value


def path_of(row: Row) -> str:
    return f"{row[0]}/{row[1]}"


def _entry(row: Row, minus: Totals = (0, 0, 0, 0)) -> Entry:
    # By position (every read makes one): path, is_dir, size, lines, files, dirs, path_bytes,
    # created, modified, accessed, expires, memory.
    return Entry(
        f"{row[0]}/{row[1]}",
        bool(row[2]),
        row[3] - minus[0],
        row[4],
        row[5] - minus[1],
        row[6] - minus[2],
        row[7] - minus[3],
        row[8],
        row[9],
        row[10],
        row[11],
        0 if row[2] else int(row[12]),
    )


def _listed(row: Row, expired: list[tuple[str, Totals]]) -> Entry:
    """A listed row: a directory's totals without what expired below it."""
    return _entry(row, _minus(path_of(row), expired)) if expired and row[2] else _entry(row)


def own_totals(row: Row) -> Totals:
    """A row's own contribution to each ancestor's totals."""
    own_bytes = path_bytes(path_of(row))
    return (0, 0, 1, own_bytes) if row[2] else (row[3], 1, 0, own_bytes)


def _subtree_totals(row: Row) -> Totals:
    """A row's contribution with everything below it (what deleting or moving it takes away)."""
    return (row[3], row[5], row[6] + 1, row[7]) if row[2] else own_totals(row)


def later(current: float | None, new: float | None) -> float | None:
    """The expiry of a directory once something expiring at ``new`` lies below it (None: never)."""
    return None if current is None or new is None else max(current, new)


def _chain_params(paths: Sequence[str]) -> tuple[str, dict[str, str]]:
    marks = ",".join(f"(:p{i}, :n{i})" for i in range(len(paths)))
    params: dict[str, str] = {}
    for i, path in enumerate(paths):
        params[f"p{i}"], params[f"n{i}"] = key_of(path)
    return marks, params


class SqlTx:
    """One transaction on one namespace; the store has begun it and holds its lock."""

    def __init__(
        self,
        conn: Connection,
        ns: int,
        now: float,
        log: VersionLog,
        tails: Mapping[int, Tail] | None = None,
        *,
        lookup: Connection | None = None,
    ) -> None:
        self._conn = conn
        # ``lookup``: a cursor of the connection kept by the store, for the one-row lookups that every
        # command makes, each fetched at once (the connection's execute makes a cursor per statement).
        self._lookup = conn if lookup is None else lookup
        self.ns = ns
        self.now = now
        self.log = log  # the versions this transaction records (statements counted there)
        self._tails = tails or {}  # each store's chain tail as the file holds it now, where known
        self.freed = False  # content was deleted or overwritten: the store schedules its erasure
        self._statements = 0  # this transaction's own, counted as they run; ``statements`` adds its log's
        self._cache: dict[str, Row | None] = {}  # raw rows read so far, expired ones included
        self._chain_of: str | None = None  # the path whose whole chain of rows is in the cache
        self.family: dict[int, SqlTx] | None = None  # with siblings: this transaction on each namespace

    @property
    def statements(self) -> int:
        """SQL statements run (a test holds each command to its budget)."""
        return self._statements + self.log.statements

    @statements.setter
    def statements(self, value: int) -> None:
        self._statements = value - self.log.statements

    def _q(self, sql: str, **params: Any) -> Cursor:
        self._statements += 1
        return self._conn.execute(sql, {"ns": self.ns, "now": self.now, **params})

    def _many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self._statements += 1
            self._conn.executemany(sql, [{"ns": self.ns, "now": self.now, **r} for r in rows])

    @property
    def family_freed(self) -> bool:
        """Content was freed in any namespace this transaction touched (its erasure is due)."""
        return self.freed if self.family is None else any(tx.freed for tx in self.family.values())

    @property
    def store_key(self) -> int:
        return self.ns

    def sibling(self, namespace: str, *, store_key: int | None = None) -> SqlTx:
        """This transaction on another namespace: the same connection, lock, instant and actor.

        One SqlTx per namespace, shared by the whole family: two would each keep their own
        chain tail for the namespace's versions and fork its hash chain.
        """
        self._statements += 1
        if store_key is None:
            row = self._conn.execute("SELECT id FROM stores WHERE name = ?", (namespace,)).fetchone()
        else:
            row = self._conn.execute("SELECT id FROM stores WHERE id = ?", (store_key,)).fetchone()
        if row is None:
            raise MissingStore("the store does not exist (it was deleted)")
        ns = int(row[0])
        if self.family is None:
            self.family = {self.ns: self}
        if ns not in self.family:
            log = self.log  # a VersionLog (its module imports this one: built through its type)
            sibling_log = type(log)(self._conn, ns, self.now, log.actor, log.settings, tail=self._tails.get(ns))
            tx = SqlTx(self._conn, ns, self.now, sibling_log, self._tails, lookup=self._lookup)
            tx.family = self.family
            self.family[ns] = tx
        return self.family[ns]

    def release(self) -> None:
        """At the end of the transaction: each member of a family refers to it, a cycle to break so
        that they (and their caches) are freed at once rather than by the cycle collector."""
        if self.family is not None:
            self.family.clear()

    def _visible(self, row: Row | None) -> bool:
        return row is not None and (row[11] is None or row[11] > self.now)

    def _wrote(self) -> None:
        self._cache.clear()
        self._chain_of = None

    def _row(self, path: str) -> Row | None:
        if path not in self._cache:
            self._statements += 1
            self._cache[path] = self._lookup.execute(_ROW, (self.ns, *key_of(path))).fetchone()
        return self._cache[path]

    # -- reads -----------------------------------------------------------------------------

    def stat(self, path: str) -> Entry | None:
        return self._shown(path, self._row(path))

    def _shown(self, path: str, row: Row | None) -> Entry | None:
        if row is None and path == ROOT:  # a namespace nobody has written to yet
            return Entry(ROOT, True, 0, 0, 0, 0, _ROOT_BYTES, self.now, self.now, self.now, None)
        if row is None or not self._visible(row):
            return None
        return _entry(row, self._expired_total(path)) if row[2] else _entry(row)

    def get(self, path: str) -> tuple[Entry, bytes | None] | None:
        self._statements += 1
        row = self._lookup.execute(_GET, (self.ns, *key_of(path))).fetchone()
        self._cache[path] = None if row is None else row[:13]
        if row is not None and not row[2]:
            self.log.know_head(int(row[12]), row[14])  # what its next version links to
        entry = self._shown(path, row)
        if entry is None:
            return None
        return entry, None if entry.is_dir or row is None else blob(row[13])

    def ancestry(self, path: str) -> Ancestry:
        chain = [*ancestors(path), path] if path != ROOT else [ROOT]
        params: list[Any] = [self.ns]
        for link in chain:
            params += key_of(link)
        self._statements += 1
        found = {f"{r[0]}/{r[1]}": r for r in self._conn.execute(_chain_sql(len(chain)), params).fetchall()}
        cache = self._cache
        blocking, missing = None, []
        for link in chain[:-1]:
            row = cache[link] = found.get(link)
            if row is None or not (row[11] is None or row[11] > self.now):
                missing.append(link)
            elif blocking is None and not row[2]:
                blocking = link
        target = cache[path] = found.get(path)
        self._chain_of = path
        return Ancestry(entry=self._shown(path, target), blocking_file=blocking, missing_dirs=tuple(missing))

    def tree(self, path: str, depth: int, skip: Skip, limit: int | None = None) -> list[Entry]:
        expired = [(path_of(r), own_totals(r)) for r in self._expired_rows(path)]
        out: list[Entry] = []
        cap = None if limit is None else limit + 1
        if depth == 2:  # a directory's listing: two statements, not one per subdirectory
            self._two_levels(path, skip, expired, out, cap)
        else:
            self._walk(path, depth, skip, expired, out, cap=cap)
        return out

    def _two_levels(
        self, path: str, skip: Skip, expired: list[tuple[str, Totals]], out: list[Entry], cap: int | None
    ) -> None:
        """What ``_walk`` gives at depth 2: the children, then the grandchildren of all of them at once.

        The grandchildren come in (parent, name) order, which for the children of one directory is
        the order ``_walk`` lists them in; with a cap, no more rows are read than the cap can show.
        """
        children: list[Row] = []
        for row in self._children(path, cap):
            if not skip(row[1]):
                children.append(row)
                if cap is not None and len(children) >= cap:
                    break
        below: dict[str, list[Row]] = {}
        dirs = [path_of(row) for row in children if row[2]]
        if dirs:
            for row in self._grandchildren(dirs, None if cap is None else cap - 1, skip):
                below.setdefault(row[0], []).append(row)
        for row in children:
            for listed in (row, *below.get(path_of(row), ())) if row[2] else (row,):
                if cap is not None and len(out) >= cap:
                    return
                out.append(_listed(listed, expired))

    def _grandchildren(self, parents: list[str], most: int | None, skip: Skip) -> list[Row]:
        """The visible children of ``parents`` that ``skip`` keeps, in (parent, name) order; ``most`` at most."""
        sql = (
            f"SELECT {_COLS} FROM entries WHERE ns = :ns AND parent IN (SELECT value FROM json_each(:ps)) "
            f"AND (parent, name) > (:ap, :an) AND {_VISIBLE} ORDER BY parent, name"
        )
        listed = json.dumps(parents)
        if most is None:
            return [row for row in self._q(sql, ps=listed, ap="", an="").fetchall() if not skip(row[1])]
        kept: list[Row] = []
        after = ("", "")
        while len(kept) < most:  # keyset pages: names skipped here never starve the page
            rows = self._q(f"{sql} LIMIT :n", ps=listed, ap=after[0], an=after[1], n=most).fetchall()
            kept += [row for row in rows if not skip(row[1])]
            if len(rows) < most:
                break
            after = (rows[-1][0], rows[-1][1])
        return kept[:most]

    def _walk(
        self, path: str, depth: int, skip: Skip, expired: list[tuple[str, Totals]], out: list[Entry], *, cap: int | None
    ) -> None:
        for row in self._children(path, cap):
            if cap is not None and len(out) >= cap:
                return
            if skip(row[1]):
                continue
            out.append(_listed(row, expired))
            if row[2] and depth > 1:
                self._walk(path_of(row), depth - 1, skip, expired, out, cap=cap)

    def _children(self, path: str, cap: int | None) -> Iterator[Row]:
        """Rows of ``path``'s visible children in name order, fetched a page at a time when capped."""
        sql = (
            f"SELECT {_COLS} FROM entries WHERE ns = :ns AND parent = :p AND name > :after AND {_VISIBLE} ORDER BY name"
        )
        if cap is None:
            yield from self._q(sql, p=path, after="").fetchall()
            return
        after = ""
        while True:  # keyset pages: hidden names skipped by the caller never starve the page
            rows = self._q(f"{sql} LIMIT :n", p=path, after=after, n=cap).fetchall()
            yield from rows
            if len(rows) < cap:
                return
            after = rows[-1][1]

    def usage(self) -> Usage:
        row = self._row(ROOT)
        # The history already kept counts whatever the settings say now: with versions switched off it
        # stays in the store (until redacted), and a quota that forgot it would let the store grow past it.
        history = self.log.history_bytes()
        if row is None:
            return Usage(0, 0, 0, 0, history)
        # Each live file holds a version row in reserve: the one its deletion (or expiry, or a move
        # out of the store) will add. A delete is never refused, so it must never grow the total.
        reserved = row[5] * ROW_SHARE if self.log.settings.versions else 0
        return Usage(
            content_bytes=row[3],
            path_bytes=row[7] - _ROOT_BYTES,
            files=row[5],
            dirs=row[6],
            history_bytes=history + reserved,
        )

    def _expired_rows(self, path: str) -> list[Row]:
        """Every expired, unswept row strictly below ``path``."""
        low, high = descendants_range(path)
        return self._q(f"SELECT {_COLS} {_EXPIRED} AND {_SUBTREE}", p=path, lo=low, hi=high).fetchall()

    def _expired_total(self, path: str) -> Totals:
        """What the expired, unswept rows below ``path`` add to its totals, summed by SQLite."""
        low, high = descendants_range(path)
        row = self._q(
            f"SELECT COALESCE(SUM(CASE WHEN is_dir THEN 0 ELSE size END), 0), COUNT(*) - COALESCE(SUM(is_dir), 0), "
            f"COALESCE(SUM(is_dir), 0), COALESCE(SUM({_OWN_BYTES}), 0) {_EXPIRED} AND {_SUBTREE}",
            p=path,
            lo=low,
            hi=high,
        ).fetchone()
        return int(row[0]), int(row[1]), int(row[2]), int(row[3])

    # -- writes ----------------------------------------------------------------------------

    def _adjust(
        self, path: str, delta: Totals, *, expires: float | None = None, stamp: bool = False, modified: bool = True
    ) -> None:
        """Add ``delta`` to every ancestor of ``path``; with ``stamp``, push their expiry to ``expires``."""
        above = ancestors(path)
        if not above:
            return
        marks, params = _chain_params(above)
        expiry = "expires = CASE WHEN parent = '' THEN NULL "
        expiry += (
            "WHEN expires IS NULL OR :e IS NULL THEN NULL ELSE max(expires, :e) END" if stamp else "ELSE expires END"
        )
        self._q(
            f"UPDATE entries SET size = size + :s, files = files + :f, dirs = dirs + :d, pbytes = pbytes + :b, "
            f"{expiry}{', modified = :now' if modified else ''} WHERE ns = :ns AND (parent, name) IN (VALUES {marks})",
            s=delta[0],
            f=delta[1],
            d=delta[2],
            b=delta[3],
            e=expires,
            **params,
        )

    def _make_room(self, path: str) -> list[str]:
        """Clear expired rows on the way to ``path`` (and at it); return the directories to make.

        The shallowest expired row goes with everything below it, which takes the deeper ones too.
        """
        if self._chain_of != path:
            self.ancestry(path)
        chain = [*ancestors(path), path]
        rows = {link: self._cache.get(link) for link in chain}
        missing = [a for a in chain[:-1] if not self._visible(rows[a])]
        for link in chain:
            row = rows[link]
            if row is not None and not self._visible(row):
                self._remove(link, row, expired=True)
                break
        return missing

    def _make_dirs(self, dirs: Sequence[str], expires: float | None) -> None:
        rows = [
            {
                "pa": key_of(d)[0],
                "na": key_of(d)[1],
                "id": 0,
                "dir": 1,
                "s": 0,
                "l": 0,
                "f": 0,
                "b": path_bytes(d),
                "e": None if d == ROOT else expires,
            }
            for d in dirs
        ]
        self._many(_INSERT, rows)
        for directory in dirs:
            self._adjust(directory, (0, 0, 1, path_bytes(directory)))

    def put_file(
        self, path: str, data: bytes, lines: int, expires: float | None, old: Entry | None, *, memory: int = 0
    ) -> None:
        """Create or replace a file: its content, then its row and every ancestor's in one upsert.

        Three statements in all for a file in an existing directory (the caller's lookup, the
        content, the upsert): each ancestor gets the file's share of the totals, and a missing
        directory is inserted with exactly that share, which is all it holds.
        """
        if old is None:
            new_dirs = set(self._make_room(path))
            self._statements += 1
            if memory:  # a deleted memory restored under its own number
                cid = self._conn.execute(_RESTORED, (memory, data, self.log.head_of(memory))).fetchone()[0]
                self.log.record("created", int(cid), path, data)
            else:  # the row names its first version, recorded next
                head = self.log.next_seq()
                cid = self._conn.execute(NEW_MEMORY, (data, head)).fetchone()[0]
                recorded = self.log.record("created", int(cid), path, data, new=True, head=False)
                assert recorded == (head or 0), "a new memory's first version is the chain's next"
        else:
            cached = self._cache.get(path)
            new_dirs = set()
            cid = cached[12] if cached is not None else self._content_id(path)
            seq = self.log.record("modified", int(cid), path, data, head=False)
            self._statements += 1
            self._conn.execute(
                "UPDATE content SET data = ?, head = coalesce(?, head) WHERE id = ?", (data, seq or None, cid)
            )
            self.freed = True  # the old text was overwritten: its pages must be scrubbed
        self._wrote()
        own = path_bytes(path)
        size = len(data)
        rows: list[tuple[Any, ...]] = [
            (self.ns, *key_of(path), cid, 0, size, lines, 0 if old else 1, 0, 0 if old else own, self.now,
             self.now, self.now, expires)
        ]  # fmt: skip
        grow = size - (old.size if old else 0)
        below_bytes, below_dirs = (0, 0) if old else (own, 0)
        for above in reversed(ancestors(path)):  # deepest first: each carries what is new below it
            made = above in new_dirs
            rows.append((self.ns, *key_of(above), 0, 1, grow, 0, 0 if old else 1, below_dirs,
                         below_bytes + (path_bytes(above) if made else 0), self.now, self.now, self.now,
                         None if above == ROOT else expires))  # fmt: skip
            if made:
                below_dirs += 1
                below_bytes += path_bytes(above)
        self._statements += 1
        self._conn.execute(_upsert_sql(len(rows)), [value for row in rows for value in row])
        if old is not None and sooner(old.expires, expires):  # a rule made it expire sooner
            self._refit(path, old.expires)

    def make_dir(self, path: str, expires: float | None) -> None:
        missing = self._make_room(path)
        self._wrote()
        self._make_dirs([*missing, path], expires)
        # Rule 4: no directory above may expire before the new one.
        self._adjust(path, (0, 0, 0, 0), expires=expires, stamp=True, modified=False)

    def _content_id(self, path: str) -> int:
        row = self._row(path)
        assert row is not None, "a replace of a file that was not read"
        return int(row[12])

    def _remove(self, path: str, row: Row, *, expired: bool = False) -> None:
        """Delete the row at ``path`` and everything below it, whatever their expiry.

        Each file removed gets its version: ``deleted``, or ``expired`` when expiry took it.
        """
        self._wrote()
        lapsed: list[tuple[int, str]] = []  # files below that had expired: expiry took them, not this delete
        if row[2]:
            low, high = descendants_range(path)
            files: list[tuple[int, str]] = []
            for r in self._q(
                f"SELECT id, parent, name, expires FROM entries WHERE ns = :ns AND {_SUBTREE} AND is_dir = 0",
                p=path,
                lo=low,
                hi=high,
            ).fetchall():
                gone = expired or (r[3] is not None and r[3] <= self.now)
                (lapsed if gone else files).append((int(r[0]), f"{r[1]}/{r[2]}"))
        elif expired:
            files, lapsed = [], [(int(row[12]), path)]
        else:
            files = [(int(row[12]), path)]
        # Their heads, known to the log, go with them. An expired memory gets its ``expired``
        # version even with the history off (when it has versions): no row need keep its head.
        self._drop_content([f[0] for f in files])
        self._drop_content([f[0] for f in lapsed], keep=False)
        self.log.expired(lapsed)
        for memory, was in files:
            self.log.record("deleted", memory, was)
        if row[2]:
            self._q(f"DELETE FROM entries WHERE ns = :ns AND {_SUBTREE}", p=path, lo=low, hi=high)
        pa, na = key_of(path)
        self._q(f"DELETE FROM entries WHERE {_AT}", pa=pa, na=na)
        gone = _subtree_totals(row)
        self._adjust(path, (-gone[0], -gone[1], -gone[2], -gone[3]))
        self.freed = True

    def _drop_content(self, ids: Sequence[int], *, keep: bool | None = None) -> None:
        """Delete the content rows of these memories. ``keep`` (default: the history is off, so no
        deletion is recorded): a memory that has versions keeps an empty row naming its head."""
        if keep is None:
            keep = not self.log.settings.versions
        for start in range(0, len(ids), 500):  # bounded IN lists, whatever the subtree's size
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            heads = []
            if keep:
                self._statements += 1
                heads += self._conn.execute(
                    f"UPDATE content SET data = x'' WHERE id IN ({marks}) AND head IS NOT NULL RETURNING id, head",
                    chunk,
                ).fetchall()
            self._statements += 1
            heads += self._conn.execute(
                f"DELETE FROM content WHERE id IN ({marks}){' AND head IS NULL' if keep else ''} RETURNING id, head",
                list(chunk),
            ).fetchall()
            for memory, head in heads:
                self.log.know_head(int(memory), head)
        if ids and not self.log.settings.versions:  # no version will remember these numbers
            self._statements += 1
            remember_numbers(self._conn, ids)

    def delete(self, path: str, entry: Entry) -> None:
        row = self._row(path)
        if row is not None:
            above = {a: self._cache[a] for a in ancestors(path) if a in self._cache}  # read before, still true
            self._remove(path, row)
            self._refit(path, row[11], above)

    def _refit(self, path: str, was: float | None, known: Mapping[str, Row | None] | None = None) -> None:
        """Rule 4 kept exact: the entry at ``path``, which expired at ``was``, left its directory or
        now expires sooner. Each directory above whose expiry it may have set, deepest first, takes
        the latest of its children's; the first that keeps its own ends the walk. ``known``: rows of
        directories above, read before this change and untouched by it (saves their reads)."""
        for directory in reversed(ancestors(path)):
            if directory == ROOT:
                return
            row = known[directory] if known is not None and directory in known else self._row(directory)
            known = None  # the levels above are changed by this walk: read again
            if row is None or not may_have_set(was, row[11]):
                return
            pa, na = key_of(directory)
            exact = self._q(_REFIT, p=directory, pa=pa, na=na).fetchone()[0]
            self._cache.pop(directory, None)
            self._chain_of = None
            if exact == row[11]:
                return
            was = row[11]

    def move(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        stale = self._expired_rows(old) if entry.is_dir else []
        for gone in stale:  # expired rows do not travel: they go now
            self._remove(path_of(gone), gone, expired=True)
        new_dirs = self._make_room(new)
        row = self._row(old)
        assert row is not None, "move() of an entry that stat() did not find"
        moving = self._moving_files(old, row) if self.log.settings.versions else []
        self._wrote()
        total = _subtree_totals(row)
        self._adjust(old, (-total[0], -total[1], -total[2], -total[3]))
        landing = landing_expiries(expiries)
        top = landing.get(new, row[11])  # what the ancestors of the landing place must outlive
        self._make_dirs(new_dirs, top)
        grow = path_bytes(new) - path_bytes(old)
        pa, na = key_of(old)
        new_pa, new_na = key_of(new)
        if row[2]:
            low, high = descendants_range(old)
            self._q(
                f"UPDATE entries SET parent = :new || substr(parent, :cut), modified = :now, pbytes = pbytes + :grow * "
                f"(CASE WHEN is_dir THEN dirs + files + 1 ELSE 1 END) WHERE ns = :ns AND {_SUBTREE}",
                new=new,
                cut=len(old) + 1,
                p=old,
                lo=low,
                hi=high,
                grow=grow,
            )
        count = row[5] + row[6] + 1 if row[2] else 1
        self._q(
            f"UPDATE entries SET parent = :np, name = :nn, modified = :now, pbytes = pbytes + :add WHERE {_AT}",
            np=new_pa,
            nn=new_na,
            pa=pa,
            na=na,
            add=grow * count,
        )
        self._many(
            f"UPDATE entries SET expires = :e WHERE {_AT}",
            [{"e": e, "pa": key_of(p)[0], "na": key_of(p)[1]} for p, e in landing.items()],
        )
        moved = (total[0], total[1], total[2], total[3] + grow * count)
        self._adjust(new, moved, expires=top, stamp=True)
        self._refit(old, row[11])
        self.freed = True  # the old path text is gone from its rows
        cut = len(old)
        for memory, was, data in moving:
            self.log.record("modified", memory, new + was[cut:], data)

    def _moving_files(self, old: str, row: Row) -> list[tuple[int, str, bytes]]:
        """Each file a move takes (memory, path, content): each gets a version at its new path."""
        if not row[2]:
            self._statements += 1
            data, head = self._conn.execute("SELECT data, head FROM content WHERE id = ?", (row[12],)).fetchone()
            self.log.know_head(int(row[12]), head)
            return [(int(row[12]), old, blob(data))]
        low, high = descendants_range(old)
        found = self._q(
            f"SELECT e.id, e.parent, e.name, c.data, c.head FROM entries e JOIN content c ON c.id = e.id "
            f"WHERE e.ns = :ns AND e.is_dir = 0 AND {_SUBTREE.replace('parent', 'e.parent')} ORDER BY e.parent, e.name",
            p=old,
            lo=low,
            hi=high,
        ).fetchall()
        for r in found:
            self.log.know_head(int(r[0]), r[4])
        return [(int(r[0]), f"{r[1]}/{r[2]}", blob(r[3])) for r in found]

    def touch(self, path: str, expires: float | None) -> None:
        self._set_expiry(path, expires, ", accessed = :now")

    def set_expiry(self, path: str, expires: float | None) -> None:
        self._set_expiry(path, expires, "")

    def _set_expiry(self, path: str, expires: float | None, also: str) -> None:
        pa, na = key_of(path)
        before = self._row(path)  # read already by the command, as a rule
        self._wrote()
        self._q(f"UPDATE entries SET expires = :e{also} WHERE {_AT}", e=expires, pa=pa, na=na)
        self._adjust(path, (0, 0, 0, 0), expires=expires, stamp=True, modified=False)
        if before is not None and sooner(before[11], expires):
            self._refit(path, before[11])

    def purge_expired(self, limit: int, *, memory: int | None = None) -> int:
        rows = []
        if memory is not None:  # that memory's row first, if it has expired, wherever the batch would end
            rows = self._q(
                f"SELECT ns, {_COLS} FROM entries INDEXED BY entries_memory WHERE id = :m AND is_dir = 0 AND ns = :ns "
                "AND expires IS NOT NULL AND expires <= :now",
                m=memory,
            ).fetchall()
        rows += [r for r in self._q(f"SELECT ns, {_COLS} {_EXPIRED} LIMIT :n", n=limit).fetchall() if r not in rows]
        if len(rows) < limit:  # no expired file left: the expired directories, deepest first
            rows += self._q(f"SELECT ns, {_COLS} {_EXPIRED_DIRS} LIMIT :n", n=limit - len(rows)).fetchall()
        self._wrote()
        self.log.expired([(int(r[13]), f"{r[1]}/{r[2]}") for r in rows if not r[3]])  # before their heads go
        self._statements += purge_rows(self._conn, rows, remember=not self.log.settings.versions)
        if rows:
            self.freed = True
        return len(rows)

    # -- memories and versions (the admin surface) -------------------------------------------

    def memory(self, number: int) -> tuple[Entry, bytes] | None:
        self._statements += 1
        row = self._conn.execute(
            f"SELECT {_E_COLS}, c.data FROM entries e INDEXED BY entries_memory JOIN content c ON c.id = e.id "
            "WHERE e.id = ? AND e.is_dir = 0 AND e.ns = ?",
            (number, self.ns),
        ).fetchone()
        if row is None or not self._visible(row):
            return None
        return _entry(row), blob(row[13])

    def files(self, prefix: str, after: str | None, limit: int) -> list[tuple[Entry, bytes]]:
        # Every match lies in the subtree of the directory the prefix names up to its last slash:
        # one range of the clustered key, filtered and sorted by the full path.
        top = prefix[: prefix.rfind("/")] if prefix.rfind("/") > 0 else "/memories"
        low, high = descendants_range(top)
        full = "(e.parent || '/' || e.name)"
        subtree = _SUBTREE.replace("parent", "e.parent")
        rows = self._q(
            f"SELECT {_E_COLS}, c.data FROM entries e JOIN content c ON c.id = e.id WHERE e.ns = :ns AND {subtree} "
            f"AND e.is_dir = 0 AND (e.expires IS NULL OR e.expires > :now) "
            f"AND substr({full}, 1, :plen) = :prefix AND {full} > :after ORDER BY {full} LIMIT :n",
            p=top,
            lo=low,
            hi=high,
            plen=len(prefix),
            prefix=prefix,
            after=after or "",
            n=limit,
        ).fetchall()
        return [(_entry(r), blob(r[13])) for r in rows]

    def versions(self, query: VersionQuery) -> list[VersionRow]:
        return self.log.page(query)

    def version(self, seq: int) -> VersionRow | None:
        return self.log.get(seq)

    def redact(self, seq: int) -> None:
        found = self.log.get(seq)
        if found is None:
            return
        self._wrote()
        self.log.redact(seq, found.memory)
        self.freed = True


@functools.lru_cache(maxsize=64)
def _chain_sql(links: int) -> str:
    """The rows of a path and of its ancestors, in one lookup by key."""
    marks = ",".join(["(?, ?)"] * links)
    return f"SELECT {_COLS} FROM entries WHERE ns = ? AND (parent, name) IN (VALUES {marks})"


@functools.lru_cache(maxsize=64)
def _upsert_sql(rows: int) -> str:
    """Insert the rows, or add each one to the row already there (its totals, its expiry).

    A file row is new (create) or takes the values given (replace); a directory row adds the
    share given to its totals, and its expiry becomes the later of the two (None: never; the root
    never expires). ``lines`` and ``accessed`` only change on the file's own row.
    """
    marks = ",".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * rows)
    return (
        "INSERT INTO entries (ns, parent, name, id, is_dir, size, lines, files, dirs, pbytes, created, modified, "
        f"accessed, expires) VALUES {marks} ON CONFLICT (ns, parent, name) DO UPDATE SET "
        "size = CASE WHEN is_dir THEN size + excluded.size ELSE excluded.size END, lines = excluded.lines, "
        "files = files + excluded.files, dirs = dirs + excluded.dirs, pbytes = pbytes + excluded.pbytes, "
        "modified = excluded.modified, accessed = CASE WHEN is_dir THEN accessed ELSE excluded.accessed END, "
        "expires = CASE WHEN is_dir = 0 THEN excluded.expires WHEN parent = '' THEN NULL "
        "WHEN expires IS NULL OR excluded.expires IS NULL THEN NULL ELSE max(expires, excluded.expires) END"
    )


def _minus(directory: str, expired: list[tuple[str, Totals]]) -> Totals:
    """The totals of the expired rows below ``directory``."""
    prefix = directory + "/"
    below = [own for path, own in expired if path.startswith(prefix)]
    return (sum(o[0] for o in below), sum(o[1] for o in below), sum(o[2] for o in below), sum(o[3] for o in below))


def remember_numbers(conn: Connection, numbers: Sequence[int]) -> None:
    """Keep ``numbers`` from ever being given to a new memory (see NEW_MEMORY), their last trace gone."""
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('memory_top', ?) ON CONFLICT (key) DO UPDATE SET "
        "value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
        (max(numbers),),
    )


def purge_rows(conn: Connection, rows: Sequence[Row], *, remember: bool = False) -> int:
    """Delete rows (each ``(ns, *columns)``) and subtract their own share from every ancestor.

    ``remember``: no version records the deleted files (the history is off), so their numbers
    are kept from reuse (``remember_numbers``).

    Subtracting each row's *own* contribution keeps the totals exact even when an expired
    directory and the expired rows below it are deleted in different batches. The shares are
    summed per parent first, then spread up once per parent: a batch of thousands of files in a
    few directories costs a few hundred additions, not one per file and ancestor. Returns the
    number of statements run.
    """
    if not rows:
        return 0
    by_parent: dict[tuple[int, str], list[int]] = {}
    keys: list[Any] = []
    ids: list[int] = []
    for raw in rows:
        ns, row = raw[0], raw[1:]
        own = own_totals(row)
        total = by_parent.setdefault((ns, row[0]), [0, 0, 0, 0])
        for i in range(4):
            total[i] += own[i]
        keys += (ns, row[0], row[1])
        if not row[2]:
            ids.append(row[12])
    deltas: dict[tuple[int, str], list[int]] = {}
    for (ns, parent), share in by_parent.items():
        for above in [*ancestors(parent), parent] if parent else []:
            total = deltas.setdefault((ns, above), [0, 0, 0, 0])
            for i in range(4):
                total[i] += share[i]
    statements = 1
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        conn.execute(f"DELETE FROM content WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        statements += 1
    if ids and remember:
        remember_numbers(conn, ids)
        statements += 1
    for start in range(0, len(keys), 3 * _CHUNK):
        chunk = keys[start : start + 3 * _CHUNK]
        marks = ",".join(["(?, ?, ?)"] * (len(chunk) // 3))
        conn.execute(f"DELETE FROM entries WHERE (ns, parent, name) IN (VALUES {marks})", chunk)
        statements += 1
    conn.executemany(
        "UPDATE entries SET size = size - ?, files = files - ?, dirs = dirs - ?, pbytes = pbytes - ? "
        "WHERE ns = ? AND parent = ? AND name = ?",
        [(*d, n, *key_of(p)) for (n, p), d in deltas.items()],
    )
    return statements


_CHUNK = 500  # rows per DELETE: bounded statements, whatever the batch


_FILES_DUE = "FROM entries INDEXED BY entries_expires WHERE expires IS NOT NULL AND expires <= ? AND is_dir = 0"
_DIRS_DUE = "FROM entries WHERE is_dir = 1 AND expires IS NOT NULL AND expires <= ?"


def expired_batch(conn: Connection, now: float, limit: int) -> list[Row]:
    """Up to ``limit`` expired entries of any namespace (``(ns, *columns)``): files first, by expiry
    and id; directories only once no expired file is left, deepest first."""
    rows = conn.execute(f"SELECT ns, {_COLS} {_FILES_DUE} LIMIT ?", (now, limit)).fetchall()
    if len(rows) < limit:
        rows += conn.execute(
            f"SELECT ns, {_COLS} {_DIRS_DUE} ORDER BY length(parent) DESC LIMIT ?", (now, limit - len(rows))
        ).fetchall()
    return rows


def count_expired(conn: Connection, now: float) -> int:
    files = conn.execute(f"SELECT count(*) {_FILES_DUE}", (now,)).fetchone()[0]
    return int(files) + int(conn.execute(f"SELECT count(*) {_DIRS_DUE}", (now,)).fetchone()[0])
