"""StoreTx over PostgreSQL: every store operation on ``sm_entries``, with paths and contents sealed.

One row per file or directory, keyed by ``(ns, tok)``: ``tok`` is the path token (pgseal.py), so
a lookup is one key, and a subtree is one range of the key (``tok > T AND tok < T + 1``). The
server cannot sort names it never sees: a listing fetches the subtree's rows, unseals their
paths and sorts them here. Totals are not kept on directory rows (a write would rewrite every
ancestor row, and sealed rows at that): a directory's size, files, dirs and path bytes are summed
over the visible rows of its subtree when it is shown. A store's own totals (files, directories,
bytes, path bytes) are kept in its ``sm_stores`` row, moved by every write in the statement that
changes its rows (``_counted``): ``usage()``, which every quota check reads, is one row. Sizes,
line counts, path lengths, times and expiries stay in clear: quotas and expiry need them, and
they say nothing of what is written. What a read trusts of them is vouched for:
a file's sealed path is bound to its size, lines, expiry and ``head`` (the memory's newest version
when it was written, which its content is bound to as well), and every row read is checked
against the history's newest version of its memory (``_unseal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from securemem.errors import DamagedStoreError
from securemem.paths import ROOT, ancestors, is_within, name_of
from securemem.store.base import (
    Ancestry,
    Entry,
    MissingStore,
    Skip,
    Usage,
    VersionQuery,
    VersionRow,
    landing_expiries,
    latest_of,
    may_have_set,
    path_bytes,
    sooner,
)
from securemem.store.history import ROW_SHARE
from securemem.store.pgschema import Db
from securemem.store.pgseal import TAMPERED, StoreKeys, row_facts, subtree_bounds
from securemem.store.pgversions import PgVersionLog

if TYPE_CHECKING:
    from securemem.store.postgres import PostgresStore

# The newest version of a file's memory in the history (its own chain: created, modified, deleted,
# expired), read with the row: the witness a file's ``head`` must match (see ``_unseal``); not
# looked up for a row written with the history off (head 0), which nothing witnesses.
_LATEST = (
    "CASE WHEN is_dir OR head = 0 THEN NULL ELSE (SELECT max(v.seq) FROM sm_versions v "
    "WHERE v.memory = sm_entries.memory AND v.seq BETWEEN sm_entries.ns << 40 AND ((sm_entries.ns + 1) << 40) - 1 "
    "AND v.op < 4) END"
)
_COLS = f"tok, is_dir, memory, size, lines, pbytes, created, modified, accessed, expires, path_ct, head, {_LATEST}"
_DATA = 13  # the index of data_ct in a row of f"SELECT {_COLS}, data_ct"
_VISIBLE = "(expires IS NULL OR expires > %(now)s)"
# A subtree is one range of the key (pgseal.subtree_bounds): strictly below, or at and below.
_BELOW = "(tok > %(lo)s AND tok < %(hi)s)"
_AT_OR_BELOW = "(tok >= %(lo)s AND tok < %(hi)s)"
_ROOT_BYTES = path_bytes(ROOT)
_DIR = row_facts(True, 0, 0, None, 0)


@dataclass(frozen=True, slots=True)
class _Row:
    tok: bytes
    is_dir: bool
    memory: int
    size: int
    lines: int
    pbytes: int
    created: float
    modified: float
    accessed: float
    expires: float | None
    path: str
    head: int  # the memory's newest version when the content was written (0: written with the history off)


class PgTx:
    """One transaction on one store; the PostgresStore began it (and, for a write, holds the store's lock)."""

    def __init__(self, store: PostgresStore, db: Db, keys: StoreKeys, now: float, log: PgVersionLog) -> None:
        self._store = store
        self._db = db
        self.keys = keys
        self.ns = keys.ns
        self.now = now
        self.log = log
        self.write = False
        self.family: dict[int, PgTx] | None = None
        self._seen: dict[bytes, _Row] = {}  # rows read or written in this transaction, by token

    # -- helpers ---------------------------------------------------------------------------

    def _params(self, **more: Any) -> dict[str, Any]:
        return {"ns": self.ns, "now": self.now, **more}

    def _below(self, top: bytes, /, **more: Any) -> dict[str, Any]:
        lo, hi = subtree_bounds(top)
        return self._params(lo=lo, hi=hi, **more)

    def _unseal(self, r: Sequence[Any]) -> _Row:
        """A row read with _COLS, checked: its sealed path vouches for its token, memory number, kind,
        and a file's size, lines, expiry and head; its path bytes are its path's; and a file written with the
        history on is the newest state the history knows of its memory. A row SQL wrote back from an
        older dump (an older content, a deleted file) names an older version than the history's
        newest: refused, never served. (With the history off, nothing witnesses a row's age.)"""
        tok, is_dir, memory, size, lines = bytes(r[0]), bool(r[1]), int(r[2]), int(r[3]), int(r[4])
        expires = None if r[9] is None else float(r[9])
        head = int(r[11])
        path = self.keys.open_path(bytes(r[10]), tok, memory, row_facts(is_dir, size, lines, expires, head))
        if int(r[5]) != path_bytes(path) or (not is_dir and head != 0 and r[12] != head):
            raise DamagedStoreError(TAMPERED)
        row = _Row(tok, is_dir, memory, size, lines, int(r[5]), float(r[6]), float(r[7]), float(r[8]), expires, path,
                   head)  # fmt: skip
        self._seen[tok] = row
        return row

    def _content(self, blob: Any, row: _Row) -> bytes:
        """A file's content, unsealed. ``is_dir`` is a clear column: a directory row flagged a file by
        SQL has no content, which is the tampering error, like any other row changed outside securemem."""
        if blob is None:
            raise DamagedStoreError(TAMPERED)
        return self.keys.open_content(bytes(blob), row.memory, row.head)

    def _visible(self, row: _Row | None) -> bool:
        return row is not None and (row.expires is None or row.expires > self.now)

    def _raw(self, path: str) -> _Row | None:
        r = self._db.one(f"SELECT {_COLS} FROM sm_entries WHERE ns = %s AND tok = %s", (self.ns, self.keys.token(path)))
        return None if r is None else self._unseal(r)

    def _raws(self, paths: Sequence[str]) -> dict[str, _Row]:
        toks = [self.keys.token(p) for p in paths]
        rows = self._db.all(f"SELECT {_COLS} FROM sm_entries WHERE ns = %s AND tok = ANY(%s)", (self.ns, toks))
        found = [self._unseal(r) for r in rows]
        return {row.path: row for row in found}

    def _totals(self, tok: bytes) -> tuple[int, int, int, int]:
        """Size, files, dirs and path bytes of the visible rows strictly below ``tok``."""
        r = self._db.one(
            "SELECT coalesce(sum(size) FILTER (WHERE NOT is_dir), 0), count(*) FILTER (WHERE NOT is_dir), "
            f"count(*) FILTER (WHERE is_dir), coalesce(sum(pbytes), 0) FROM sm_entries WHERE ns = %(ns)s AND {_BELOW} "
            f"AND {_VISIBLE}",
            self._below(tok),
        )
        assert r is not None
        return int(r[0]), int(r[1]), int(r[2]), int(r[3])

    def _entry(self, row: _Row, totals: tuple[int, int, int, int] | None = None) -> Entry:
        if not row.is_dir:
            return Entry(row.path, False, row.size, row.lines, 1, 0, row.pbytes, row.created, row.modified,
                         row.accessed, row.expires, row.memory)  # fmt: skip
        size, files, dirs, pbytes = totals if totals is not None else self._totals(row.tok)
        return Entry(row.path, True, size, 0, files, dirs, row.pbytes + pbytes, row.created, row.modified,
                     row.accessed, row.expires, 0)  # fmt: skip

    def _root(self) -> Entry:
        return Entry(ROOT, True, 0, 0, 0, 0, _ROOT_BYTES, self.now, self.now, self.now, None)

    # -- reads -----------------------------------------------------------------------------

    @property
    def store_key(self) -> int:
        return self.ns

    def sibling(self, namespace: str, *, store_key: int | None = None) -> PgTx:
        """This transaction on another store: the same connection, instant and actor; its lock taken."""
        ns = self._store.sibling_ns(self._db, namespace, store_key)
        if ns is None:
            raise MissingStore("the store does not exist (it was deleted)")
        if self.family is None:
            self.family = {self.ns: self}
        if ns not in self.family:
            if self.write:
                self._store.lock(self._db, ns)
                if self._store.sibling_ns(self._db, namespace, store_key) != ns:  # deleted while it waited
                    raise MissingStore("the store does not exist (it was deleted)")
            # Its key once its lock is held: a data key rotation it waited for has put a new one there.
            keys = self._store.keys_of(self._db, ns)
            log = PgVersionLog(self._db, keys, self.now, self.log.actor, self.log.settings)
            tx = PgTx(self._store, self._db, keys, self.now, log)
            tx.write, tx.family = self.write, self.family
            self.family[ns] = tx
        return self.family[ns]

    def release(self) -> None:
        if self.family is not None:
            self.family.clear()

    def stat(self, path: str) -> Entry | None:
        row = self._raw(path)
        if row is None and path == ROOT:
            return self._root()
        return self._entry(row) if row is not None and self._visible(row) else None

    def get(self, path: str) -> tuple[Entry, bytes | None] | None:
        r = self._db.one(
            f"SELECT {_COLS}, data_ct FROM sm_entries WHERE ns = %s AND tok = %s", (self.ns, self.keys.token(path))
        )
        if r is None:
            return (self._root(), None) if path == ROOT else None
        row = self._unseal(r)
        if not self._visible(row):
            return None
        if row.is_dir:
            return self._entry(row), None
        return self._entry(row), self._content(r[_DATA], row)

    def ancestry(self, path: str) -> Ancestry:
        above = ancestors(path)
        rows = self._raws([*above, path])
        blocking = next((a for a in above if self._visible(rows.get(a)) and not rows[a].is_dir), None)
        missing = tuple(a for a in above if not self._visible(rows.get(a)))
        target = rows.get(path)
        if target is None:
            entry = self._root() if path == ROOT else None
        else:
            entry = self._entry(target) if self._visible(target) else None
        return Ancestry(entry=entry, blocking_file=blocking, missing_dirs=missing)

    def tree(self, path: str, depth: int, skip: Skip, limit: int | None = None) -> list[Entry]:
        top = self.keys.token(path)
        level = len(top)
        rows = self._db.all(
            "SELECT tok, is_dir, memory, size, lines, pbytes, created, modified, accessed, expires, "
            f"CASE WHEN length(tok) <= %(deep)s THEN path_ct END, head, CASE WHEN length(tok) <= %(deep)s THEN "
            f"{_LATEST} END FROM sm_entries WHERE ns = %(ns)s AND {_BELOW} AND {_VISIBLE}",
            self._below(top, deep=level + 8 * depth),
        )
        shown: dict[bytes, _Row] = {}
        totals: dict[bytes, list[int]] = {}
        children: dict[bytes, list[_Row]] = {}
        for r in rows:
            tok = bytes(r[0])
            for cut in range(level + 8, min(len(tok), level + 8 * depth + 8), 8):  # its listed ancestors
                if cut < len(tok):
                    share = totals.setdefault(tok[:cut], [0, 0, 0, 0])
                    share[0] += 0 if r[1] else int(r[3])
                    share[1] += 0 if r[1] else 1
                    share[2] += 1 if r[1] else 0
                    share[3] += int(r[5])
            if r[10] is not None:
                row = self._unseal(r)
                shown[tok] = row
                children.setdefault(tok[:-8], []).append(row)
        out: list[Entry] = []
        cap = None if limit is None else limit + 1
        self._walk(top, depth, skip, children, totals, out, cap)
        return out

    def _walk(  # noqa: PLR0917
        self, tok: bytes, depth: int, skip: Skip, children: dict[bytes, list[_Row]], totals: dict[bytes, list[int]],
        out: list[Entry], cap: int | None,
    ) -> None:  # fmt: skip
        for row in sorted(children.get(tok, []), key=lambda r: name_of(r.path).encode("utf-8")):
            if cap is not None and len(out) >= cap:
                return
            if skip(name_of(row.path)):
                continue
            share = totals.get(row.tok, [0, 0, 0, 0])
            out.append(self._entry(row, (share[0], share[1], share[2], share[3])))
            if row.is_dir and depth > 1:
                self._walk(row.tok, depth - 1, skip, children, totals, out, cap)

    def usage(self) -> Usage:
        r = self._db.one("SELECT bytes, files, dirs, pbytes FROM sm_stores WHERE id = %s", (self.ns,))
        if r is None:
            return Usage(0, 0, 0, 0, 0)
        versions = self.log.settings.versions
        history = self.log.history_bytes()  # kept history counts with versions off too
        files = int(r[1])
        reserved = files * ROW_SHARE if versions else 0  # each file's future deletion
        return Usage(int(r[0]), int(r[3]), files, int(r[2]), history + reserved)

    # -- writes ----------------------------------------------------------------------------

    def _drop(self, path: str) -> None:
        tok = self.keys.token(path)
        self._seen.clear()
        self._db.run(_counted(f"DELETE FROM sm_entries WHERE ns = %(ns)s AND {_AT_OR_BELOW}", "-"), self._below(tok))

    def _bump(self, path: str, expires: float | None, *, modified: bool = True) -> None:
        """Every ancestor: modified now (unless ``modified`` is False), expiry no earlier than ``expires``."""
        above = ancestors(path)
        if not above:
            return
        self._db.run(
            "UPDATE sm_entries SET modified = CASE WHEN %(m)s THEN %(now)s ELSE modified END, "
            "expires = CASE WHEN tok = %(root)s THEN NULL WHEN expires IS NULL OR %(e)s::float8 IS NULL THEN NULL "
            "ELSE greatest(expires, %(e)s::float8) END WHERE ns = %(ns)s AND tok = ANY(%(toks)s)",
            self._params(m=modified, root=self.keys.token(ROOT), e=expires, toks=[self.keys.token(a) for a in above]),
        )

    def _stamp_modified(self, paths: Sequence[str]) -> None:
        if paths:
            self._db.run(
                "UPDATE sm_entries SET modified = %(now)s WHERE ns = %(ns)s AND tok = ANY(%(toks)s)",
                self._params(toks=[self.keys.token(p) for p in paths]),
            )

    def _files_at(self, path: str, *, expired: bool = False) -> list[tuple[int, str, bool]]:
        """(memory, path, whether it has expired) of every file at or below ``path``, expired or not."""
        tok = self.keys.token(path)
        rows = self._db.all(
            f"SELECT {_COLS} FROM sm_entries WHERE ns = %(ns)s AND NOT is_dir AND {_AT_OR_BELOW}",
            self._below(tok),
        )
        return sorted((row.memory, row.path, expired and not self._visible(row)) for row in map(self._unseal, rows))

    def _make_room(self, path: str) -> list[str]:
        """Drop the shallowest expired row on the way to ``path`` (with its subtree); the dirs to make."""
        chain = [*ancestors(path), path]
        rows = self._raws(chain)
        dropped: str | None = None
        for link in chain:
            row = rows.get(link)
            if row is not None and not self._visible(row):
                self.log.expired([(m, p) for m, p, _ in self._files_at(link)])
                self._drop(link)
                dropped = link
                break
        return [a for a in chain[:-1] if a not in rows or (dropped is not None and is_within(a, dropped))]

    def _make_dirs(self, dirs: Sequence[str], expires: float | None) -> None:
        if not dirs:
            return
        params = []
        for directory in dirs:
            tok = self.keys.token(directory)
            params.append(
                self._params(
                    tok=tok,
                    b=path_bytes(directory),
                    e=None if directory == ROOT else expires,
                    p=self.keys.seal_path(directory, tok, 0, _DIR),
                )
            )
        self._db.run_many(
            _counted(
                "INSERT INTO sm_entries (ns, tok, is_dir, memory, size, lines, pbytes, created, modified, accessed, "
                "expires, path_ct) VALUES (%(ns)s, %(tok)s, true, 0, 0, 0, %(b)s, %(now)s, %(now)s, %(now)s, %(e)s, "
                "%(p)s)",
                "+",
            ),
            params,
        )

    def put_file(
        self, path: str, data: bytes, lines: int, expires: float | None, old: Entry | None, *, memory: int = 0
    ) -> None:
        tok = self.keys.token(path)
        if old is None:
            self._make_dirs(self._make_room(path), expires)
            number = memory or self._store.next_memory(self._db, self.ns)
            head = self.log.record("created", number, path, bytes(data))  # first: the row names it
            facts = row_facts(False, len(data), lines, expires, head)
            self._db.run(
                _counted(
                    "INSERT INTO sm_entries (ns, tok, is_dir, memory, size, lines, pbytes, created, modified, "
                    "accessed, expires, path_ct, data_ct, head) VALUES (%(ns)s, %(tok)s, false, %(m)s, %(s)s, %(l)s, "
                    "%(b)s, %(now)s, %(now)s, %(now)s, %(e)s, %(p)s, %(d)s, %(h)s)",
                    "+",
                ),
                self._params(tok=tok, m=number, s=len(data), l=lines, b=path_bytes(path), e=expires, h=head,
                             p=self.keys.seal_path(path, tok, number, facts),
                             d=self.keys.seal_content(bytes(data), number, head)),
            )  # fmt: skip
            created = self.now
        else:
            number = old.memory
            head = self.log.record("modified", number, path, bytes(data))
            facts = row_facts(False, len(data), lines, expires, head)
            self._db.run(
                "WITH ch AS (UPDATE sm_entries SET size = %(s)s, lines = %(l)s, modified = %(now)s, "
                "accessed = %(now)s, expires = %(e)s, path_ct = %(p)s, data_ct = %(d)s, head = %(h)s "
                "WHERE ns = %(ns)s AND tok = %(tok)s RETURNING 1) "
                "UPDATE sm_stores SET bytes = bytes + %(grew)s WHERE id = %(ns)s AND EXISTS (SELECT 1 FROM ch)",
                self._params(tok=tok, s=len(data), l=lines, e=expires, h=head, grew=len(data) - old.size,
                             p=self.keys.seal_path(path, tok, number, facts),
                             d=self.keys.seal_content(bytes(data), number, head)),
            )  # fmt: skip
            created = old.created
        self._seen[tok] = _Row(tok, False, number, len(data), lines, path_bytes(path), created, self.now, self.now,
                               expires, path, head)  # fmt: skip
        self._bump(path, expires)
        if old is not None and sooner(old.expires, expires):  # a rule made it expire sooner
            self._refit(path, old.expires)

    def delete(self, path: str, entry: Entry) -> None:
        files = self._files_at(path, expired=True)
        self.log.expired([(m, p) for m, p, gone in files if gone])  # expiry took these, not this delete
        for memory, was, gone in files:
            if not gone:
                self.log.record("deleted", memory, was)
        self._drop(path)
        self._stamp_modified(ancestors(path))
        self._refit(path, entry.expires)

    def _refit(self, path: str, was: float | None) -> None:
        """Rule 4 kept exact (as ``SqlTx._refit``): the entry at ``path``, which expired at ``was``,
        left its directory or expires sooner; each directory whose expiry it may have set, deepest
        first, takes the latest below it, until one keeps its own. The latest of a whole subtree is
        its children's: no row expires later than the directory above it."""
        for directory in reversed(ancestors(path)):
            if directory == ROOT:
                return
            row = self._raw(directory)
            if row is None or not may_have_set(was, row.expires):
                return
            tok = self.keys.token(directory)
            found = self._db.one(
                f"SELECT count(*), count(expires), max(expires) FROM sm_entries WHERE ns = %(ns)s AND {_BELOW}",
                self._below(tok),
            )
            assert found is not None
            below = int(found[0])
            exact = latest_of(below, int(found[1]), found[2])
            if not below or exact == row.expires:
                return
            self._db.run(
                "UPDATE sm_entries SET expires = %(e)s WHERE ns = %(ns)s AND tok = %(tok)s",
                self._params(e=exact, tok=tok),
            )
            self._seen.pop(tok, None)
            was = row.expires

    def _subtree(self, path: str, *, content: bool = False) -> list[tuple[_Row, bytes | None]]:
        """Every row at or below ``path`` (expired ones included), with a file's sealed content if asked."""
        tok = self.keys.token(path)
        extra = ", data_ct" if content else ""
        rows = self._db.all(
            f"SELECT {_COLS}{extra} FROM sm_entries WHERE ns = %(ns)s AND {_AT_OR_BELOW}",
            self._below(tok),
        )
        return [(self._unseal(r), bytes(r[_DATA]) if content and r[_DATA] is not None else None) for r in rows]

    def move(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        if entry.is_dir:  # expired rows do not travel: they go now
            stale = sorted((r.path for r, _ in self._subtree(old) if r.path != old and not self._visible(r)))
            done: list[str] = []
            for below in stale:
                if any(is_within(below, d) for d in done):
                    continue
                self.log.expired([(m, p) for m, p, _ in self._files_at(below)])
                self._drop(below)
                done.append(below)
        missing = self._make_room(new)
        moving = self._subtree(old, content=self.log.settings.versions)
        top = next(r for r, _ in moving if r.path == old)
        final = landing_expiries(expiries)
        latest = final.get(new, top.expires)  # what the landing place's ancestors must outlive
        self._make_dirs(missing, latest)
        # Each file moved gets its version first (the history on): its content is sealed again, naming it.
        heads: dict[bytes, tuple[int, bytes | None]] = {}
        for row, sealed in sorted(self._sealed_contents(moving), key=lambda m: m[0].path):
            if self.log.settings.versions and not row.is_dir and sealed is not None:
                data = self.keys.open_content(sealed, row.memory, row.head)
                head = self.log.record("modified", row.memory, new + row.path[len(old) :], data)
                heads[row.tok] = (head, self.keys.seal_content(data, row.memory, head))
            else:
                heads[row.tok] = (row.head, sealed)
        inserts = []
        for row, _ in moving:
            moved = new + row.path[len(old) :]
            tok = self.keys.token(moved)
            expires = final.get(moved, row.expires)
            head, sealed = heads[row.tok]
            facts = _DIR if row.is_dir else row_facts(False, row.size, row.lines, expires, head)
            inserts.append({
                "ns": self.ns, "tok": tok, "p": self.keys.seal_path(moved, tok, row.memory, facts),
                "b": path_bytes(moved), "e": expires, "m": self.now,
                "dir": row.is_dir, "memory": row.memory, "size": row.size, "lines": row.lines,
                "created": row.created, "accessed": row.accessed, "d": sealed, "h": head,
            })  # fmt: skip
        self._db.run(
            _counted(f"DELETE FROM sm_entries WHERE ns = %(ns)s AND {_AT_OR_BELOW}", "-"), self._below(top.tok)
        )
        self._seen.clear()
        self._db.run_many(
            _counted(
                "INSERT INTO sm_entries (ns, tok, is_dir, memory, size, lines, pbytes, created, modified, accessed, "
                "expires, path_ct, data_ct, head) VALUES (%(ns)s, %(tok)s, %(dir)s, %(memory)s, %(size)s, %(lines)s, "
                "%(b)s, %(created)s, %(m)s, %(accessed)s, %(e)s, %(p)s, %(d)s, %(h)s)",
                "+",
            ),
            inserts,
        )
        self._stamp_modified([a for a in ancestors(old) if a != old])
        self._bump(new, latest)
        self._refit(old, top.expires)

    def _sealed_contents(self, moving: list[tuple[_Row, bytes | None]]) -> list[tuple[_Row, bytes | None]]:
        """Each moving row with its content ciphertext (bound to the memory, not the path: it moves as is)."""
        if any(sealed is None and not row.is_dir for row, sealed in moving):
            toks = [row.tok for row, _ in moving if not row.is_dir]
            found = {
                bytes(r[0]): bytes(r[1])
                for r in self._db.all(
                    "SELECT tok, data_ct FROM sm_entries WHERE ns = %s AND tok = ANY(%s)", (self.ns, toks)
                )
            }
            return [(row, None if row.is_dir else found[row.tok]) for row, _ in moving]
        return moving

    def make_dir(self, path: str, expires: float | None) -> None:
        self._make_dirs([*self._make_room(path), path], expires)
        self._bump(path, expires)

    def touch(self, path: str, expires: float | None) -> None:
        was = self._set_expiry(path, expires, accessed=True)
        self._bump(path, expires, modified=False)
        if sooner(was, expires):
            self._refit(path, was)

    def set_expiry(self, path: str, expires: float | None) -> None:
        was = self._set_expiry(path, expires, accessed=False)
        self._bump(path, expires, modified=False)
        if sooner(was, expires):
            self._refit(path, was)

    def _set_expiry(self, path: str, expires: float | None, *, accessed: bool) -> float | None:
        """A row's expiry (and access time); a file's path is sealed again, since it vouches for it.
        The expiry it had before."""
        tok = self.keys.token(path)
        row = self._seen.get(tok) or self._raw(path)
        if row is None or row.is_dir:
            self._db.run(
                "UPDATE sm_entries SET accessed = CASE WHEN %(a)s THEN %(now)s ELSE accessed END, expires = %(e)s "
                "WHERE ns = %(ns)s AND tok = %(tok)s",
                self._params(a=accessed, e=expires, tok=tok),
            )
            return None if row is None else row.expires
        facts = row_facts(False, row.size, row.lines, expires, row.head)
        sealed = self.keys.seal_path(row.path, tok, row.memory, facts)
        self._db.run(
            "UPDATE sm_entries SET accessed = CASE WHEN %(a)s THEN %(now)s ELSE accessed END, expires = %(e)s, "
            "path_ct = %(p)s WHERE ns = %(ns)s AND tok = %(tok)s",
            self._params(a=accessed, e=expires, tok=tok, p=sealed),
        )
        self._seen[tok] = replace(row, expires=expires, accessed=self.now if accessed else row.accessed)
        return row.expires

    def purge_expired(self, limit: int, *, memory: int | None = None) -> int:
        return purge(self._db, self.log, limit, self.now, memory=memory)

    # -- memories and versions -------------------------------------------------------------

    def memory(self, number: int) -> tuple[Entry, bytes] | None:
        r = self._db.one(
            f"SELECT {_COLS}, data_ct FROM sm_entries WHERE ns = %s AND memory = %s AND NOT is_dir", (self.ns, number)
        )
        if r is None:
            return None
        row = self._unseal(r)
        if not self._visible(row):
            return None
        return self._entry(row), self._content(r[_DATA], row)

    def files(self, prefix: str, after: str | None, limit: int) -> list[tuple[Entry, bytes]]:
        # Every match lies below the directory the prefix names up to its last slash: one range of
        # the token; the paths are unsealed, filtered and sorted here (the server cannot).
        cut = prefix.rfind("/")
        top = prefix[:cut] if cut > 0 and is_within(prefix[:cut], ROOT) else ROOT
        tok = self.keys.token(top)
        rows = self._db.all(
            f"SELECT {_COLS} FROM sm_entries WHERE ns = %(ns)s AND NOT is_dir AND {_BELOW} AND {_VISIBLE}",
            self._below(tok),
        )
        found = sorted(
            (row for row in map(self._unseal, rows) if row.path.startswith(prefix) and row.path > (after or "")),
            key=lambda row: row.path,
        )[:limit]
        if not found:
            return []
        data = {
            bytes(r[0]): r[1]
            for r in self._db.all(
                "SELECT tok, data_ct FROM sm_entries WHERE ns = %s AND tok = ANY(%s)", (self.ns, [r.tok for r in found])
            )
        }
        return [(self._entry(row), self._content(data[row.tok], row)) for row in found]

    def versions(self, query: VersionQuery) -> list[VersionRow]:
        return self.log.page(query)

    def version(self, seq: int) -> VersionRow | None:
        return self.log.get(seq)

    def redact(self, seq: int) -> None:
        found = self.log.get(seq)
        if found is not None:
            self.log.redact(seq, found.memory)


_PURGED = "tok, memory, path_ct, size, lines, expires, is_dir, head"


def _counted(statement: str, sign: str) -> str:
    """``statement`` (an INSERT or DELETE on ``sm_entries``, named parameters, ``%(ns)s`` its store)
    with the store's totals moved by what it inserted (``sign`` "+") or deleted ("-"), in the same
    statement: the totals a quota reads (``usage``) are the rows' own, always. The root's row (the
    one 8-byte token) counts as neither a directory nor path text, as a quota sees it."""
    return (
        f"WITH ch AS ({statement} RETURNING is_dir, size, pbytes, length(tok) > 8 AS below) UPDATE sm_stores SET "
        f"files = files {sign} (SELECT count(*) FROM ch WHERE NOT is_dir), "
        f"dirs = dirs {sign} (SELECT count(*) FROM ch WHERE is_dir AND below), "
        f"bytes = bytes {sign} (SELECT coalesce(sum(size), 0) FROM ch WHERE NOT is_dir), "
        f"pbytes = pbytes {sign} (SELECT coalesce(sum(pbytes), 0) FROM ch WHERE below) WHERE id = %(ns)s"
    )


def purge(db: Db, log: PgVersionLog, limit: int, now: float, *, memory: int | None = None) -> int:
    """Delete up to ``limit`` expired rows of ``log``'s store (its lock held): files first, then
    directories deepest first; each file gets its ``expired`` version. Rows another transaction
    has locked are skipped (``SKIP LOCKED``): two sweepers never do the same work."""
    params = {"ns": log.ns, "now": now, "n": limit, "m": memory}
    due = "ns = %(ns)s AND expires IS NOT NULL AND expires <= %(now)s"
    rows = []
    if memory is not None:  # that memory's row first, if it has expired, wherever the batch would end
        mine = f"SELECT {_PURGED} FROM sm_entries WHERE {due} AND NOT is_dir AND memory = %(m)s"
        rows = db.all(mine, params)
    bulk = db.all(
        f"SELECT {_PURGED} FROM sm_entries WHERE {due} AND NOT is_dir LIMIT %(n)s FOR UPDATE SKIP LOCKED",
        params,
    )
    rows += [r for r in bulk if r not in rows]
    if len(rows) < limit:
        rows += db.all(
            f"SELECT {_PURGED} FROM sm_entries WHERE {due} AND is_dir ORDER BY length(tok) DESC "
            "LIMIT %(n)s FOR UPDATE SKIP LOCKED",
            {**params, "n": limit - len(rows)},
        )
    if not rows:
        return 0
    files = sorted(
        (int(r[1]), log.keys.open_path(bytes(r[2]), bytes(r[0]), int(r[1]), row_facts(False, r[3], r[4], r[5], r[7])))
        for r in rows
        if not r[6]
    )
    db.run(
        _counted("DELETE FROM sm_entries WHERE ns = %(ns)s AND tok = ANY(%(toks)s)", "-"),
        {"ns": log.ns, "toks": [bytes(r[0]) for r in rows]},
    )
    log.expired(files)
    return len(rows)
