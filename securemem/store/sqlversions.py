"""The version history over an SQLite-dialect connection: recording, reading, redacting.

``versions`` (schema 3, see ``sqlschema.py``) holds one row per version and per chained event.
Its key ``seq`` is the store's number in the high bits and the version's place in that store's
chain in the low 40 (``ns << 40 | n``): the table itself is clustered by store, then commit
order, so a store's listing is one range of the key and needs no index (one page fewer for every
write), and the next number is the chain's tail, read anyway, plus one (no AUTOINCREMENT
counter to write). A memory's versions are linked: each row's ``prev`` is the seq of the
memory's previous version (``created``, ``modified``, ``deleted``, ``expired``; redaction events
are not in it), and the memory's ``content`` row keeps the newest (``head``), rewritten by every
write of the memory anyway. A memory's listing walks back from its head (from a cursor's row, for
a later page), so no ``(memory, seq)`` index costs every write a page. A deleted memory has no
``content`` row: its head is its ``deleted`` or ``expired`` version, found by ``versions_ends``,
a partial index only those rows enter. Either way a page costs the same, the first or the
ten-thousandth. A version keeps its own copy
of the content (when the history keeps content), so redacting a version never touches the
memory's live text, and deleting a memory keeps its history.

Every read and every change finds a store's versions by the key's range (``seq BETWEEN lo AND
hi``), never by the ``ns`` column, which is written but carries no meaning: a version's store is
the high bits of its key, which the chain vouches for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from securemem.errors import StorageError
from securemem.store import history
from securemem.store.base import Actor, History, MissingStore, VersionQuery, VersionRow
from securemem.store.sqltx import Connection, blob

_META = "v.seq, v.memory, v.op, v.path, v.sha, v.size, v.session, v.actor, v.created, v.redacted, v.ref"
# The memory's live row, to hide the versions of a memory that has expired (before any sweep).
_LIVE = "LEFT JOIN entries e INDEXED BY entries_memory ON e.id = v.memory AND e.is_dir = 0"
_INSERT = (
    "INSERT INTO versions (seq, ns, memory, op, ref, path, sha, size, data, salt, session, actor, created, digest, "
    "link, total, prev) VALUES (:seq, :ns, :memory, :op, :ref, :path, :sha, :size, :data, :salt, :session, :actor, "
    ":created, :digest, :link, :total, :prev)"
)
# An expiry's version: no text, so no hash, size or kept data.
_INSERT_EXPIRED = (
    "INSERT INTO versions (seq, ns, memory, op, path, salt, session, actor, created, digest, link, total, prev) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# A memory's newest version: its content row's head, or, once it was deleted, its deletion (the
# newer of the two: an expiry can follow the empty row a deletion with the history off left).
_HEAD = (
    "SELECT max(coalesce((SELECT head FROM content WHERE id = :m), 0), coalesce((SELECT max(seq) FROM versions "
    "INDEXED BY versions_ends WHERE memory = :m AND op IN (2, 3) AND seq BETWEEN :lo AND :hi), 0))"
)
_LINKED = frozenset({"created", "modified", "deleted", "expired"})  # the ops of a memory's own chain
SEQ_BITS = history.SEQ_BITS
# What redacting the versions a condition selects takes away from the store's history total.
_SHARE = "coalesce(length(data), 0) + coalesce(length(CAST(path AS BLOB)), 0)"
_SHRINK = f"SELECT coalesce(sum({_SHARE}), 0) FROM versions WHERE {{}}"
# What one version row costs besides its path and text (hashes, salt, link, actor, times): counted
# against the store's quota, so that no loop of renames or metadata-only versions grows it unseen.


def seq_range(ns: int) -> tuple[int, int]:
    """The keys of store ``ns``'s versions (inclusive bounds)."""
    return ns << SEQ_BITS, ((ns + 1) << SEQ_BITS) - 1


_IN_STORE = "v.seq BETWEEN :lo AND :hi"
_EXPIRY = Actor(None, history.EXPIRY_ACTOR)
_ERASED = "path = NULL, sha = NULL, size = NULL, data = NULL, salt = NULL, redacted = ?"


@dataclass
class _Pending:
    """A version recorded in this transaction, kept so a second change of the memory folds into it."""

    seq: int
    memory: int
    op: str
    prev: bytes
    share: int  # what it added to the history total


@dataclass(frozen=True, slots=True)
class Tail:
    """The newest row of a store's chain: what the next version links to and starts from.

    ``total`` is the store's history total after that row: what every version and event of the
    store keeps (text, path and the row itself), counted against its quota. Each row carries the
    total after it, so keeping the count costs no write of its own; only the newest one is read.
    """

    seq: int
    link: bytes
    created: float
    total: int


class VersionLog:
    """The versions one transaction records in one namespace's chain."""

    def __init__(
        self, conn: Connection, ns: int, now: float, actor: Actor, settings: History, *, tail: Tail | None = None
    ) -> None:
        self._conn = conn
        self.ns = ns
        self.now = now
        self.actor = actor
        self.settings = settings
        self.statements = 0
        # The chain's newest row; ``tail``: as the caller knows it is in the file now (None: read it).
        self.tail: Tail | None = tail
        self._last: _Pending | None = None
        self._heads: dict[int, int | None] = {}  # memory -> its newest version, as this transaction left it
        self._debt = 0  # what redactions of this transaction took from the total, not yet in a row
        self.lo, self.hi = seq_range(ns)

    def _q(self, sql: str, params: Sequence[Any] | dict[str, Any]) -> Any:
        self.statements += 1
        return self._conn.execute(sql, params)

    def _chain_tail(self) -> Tail:
        if self.tail is None:
            row = self._q(
                "SELECT seq, link, created, total FROM versions WHERE seq BETWEEN ? AND ? ORDER BY seq DESC LIMIT 1",
                (self.lo, self.hi),
            ).fetchone()
            if row is None:
                self.tail = Tail(self.lo, history.genesis(self.ns), 0.0, 0)
            else:
                self.tail = Tail(int(row[0]), blob(row[1]), float(row[2]), int(row[3] or 0))
        return self.tail

    def record(
        self,
        op: str,
        memory: int,
        path: str | None,
        data: bytes | None = None,
        *,
        ref: int | None = None,
        actor: Actor | None = None,
        new: bool = False,
        head: bool = True,
    ) -> int:
        """Chain one version; a second change of the memory just recorded folds into that version.

        With versions off nothing is recorded (0 is returned), but a redaction is always chained:
        it erases a version that exists, and the chain refuses a redaction it does not record.
        ``new``: the memory's number was never used (it has no earlier version to link to).
        ``head``: keep the memory's ``content.head`` here; False when the caller writes that row
        itself in the same statement as its text (the seq returned is the head)."""
        if not self.settings.versions and op != "redaction":
            return 0
        if new:
            self._heads[memory] = None
        return self._append(op, memory, path, data, ref=ref, actor=actor, head=head)

    def next_seq(self) -> int | None:
        """The seq the next version of a new memory gets (None: the history is off)."""
        return self._chain_tail().seq + 1 if self.settings.versions else None

    def know_head(self, memory: int, head: Any) -> None:
        """The memory's head as its live ``content`` row holds it, read by the caller anyway."""
        self._heads[memory] = head if type(head) is int and self.lo <= head <= self.hi else None

    def head_of(self, memory: int) -> int | None:
        """The memory's newest version in this store (None: it has none)."""
        if memory not in self._heads:
            row = self._q(_HEAD, {"m": memory, "lo": self.lo, "hi": self.hi}).fetchone()
            found = None if row is None or not row[0] else int(row[0])
            self._heads[memory] = found if found is not None and self.lo <= found <= self.hi else None
        return self._heads[memory]

    def _append(
        self,
        op: str,
        memory: int,
        path: str | None,
        data: bytes | None,
        *,
        ref: int | None,
        actor: Actor | None,
        head: bool = True,
    ) -> int:
        last = self._last
        if last is not None and history.folds(last.op, last.memory, op, memory):
            return self._fold(last, path, data)
        linked = op in _LINKED
        before = self.head_of(memory) if linked else None
        tail = self._chain_tail()
        seq = tail.seq + 1
        if seq > self.hi:
            raise StorageError("this store holds the most versions a store can hold; redact or delete it")
        fields = self._fields(op, memory, path, data, ref=ref, actor=actor or self.actor, prev=tail.link)
        share = history.share(op, path, fields["data"])
        total = tail.total + share - self._debt
        self._debt = 0
        self._q(_INSERT, {"seq": seq, "ns": self.ns, "total": total, "prev": before, **fields})
        if linked:
            self._heads[memory] = seq
            # A deletion's memory has no row, except the empty one a deletion with the history off
            # left (an expiry recorded then, for a memory that has versions, moves its head on).
            if head and (op in ("created", "modified") or not self.settings.versions):
                self._q("UPDATE content SET head = ? WHERE id = ?", (seq, memory))
        self.tail = Tail(seq, fields["link"], fields["created"], total)
        self._last = _Pending(seq, memory, op, tail.link, share) if op in ("created", "modified") else None
        return seq

    def _fold(self, last: _Pending, path: str | None, data: bytes | None) -> int:
        """The memory's version of this transaction (the chain's newest row) rewritten to the new state."""
        fields = self._fields(last.op, last.memory, path, data, ref=None, actor=self.actor, prev=last.prev)
        share = history.share(last.op, path, fields["data"])
        total = self._chain_tail().total - last.share + share
        last.share = share
        sets = ", ".join(f"{k} = :{k}" for k in fields if k not in ("memory", "op", "ref"))
        params = {"seq": last.seq, "total": total, **fields}
        self._q(f"UPDATE versions SET {sets}, total = :total WHERE seq = :seq", params)
        self.tail = Tail(last.seq, fields["link"], fields["created"], total)
        return last.seq

    def _fields(
        self, op: str, memory: int, path: str | None, data: bytes | None, *, ref: int | None, actor: Actor, prev: bytes
    ) -> dict[str, Any]:
        created = self._next_time()
        row = history.new_version(
            0, op, memory, path, data, ref=ref, actor=actor, prev=prev, created=created, keep=self.settings.content
        )
        return {
            "memory": memory,
            "op": history.OP_CODE[op],
            "ref": ref,
            "path": path,
            "sha": row.sha256,
            "size": row.size,
            "data": row.data,
            "salt": row.salt,
            "session": actor.session_id,
            "actor": actor.api_key_id,
            "created": created,
            "digest": row.digest,
            "link": row.link,
        }

    def _next_time(self) -> float:
        """The time of the next version: never earlier than the version before it."""
        return max(history.instant(self.now), self._chain_tail().created)

    # -- reads -----------------------------------------------------------------------------

    def history_bytes(self) -> int:
        """What the store's history keeps (every version's text, path and row), as of this instant."""
        return self._chain_tail().total - self._debt

    def _masked(self, expires: float | None) -> bool:
        return self.settings.redact_expired and expires is not None and expires <= self.now

    def page(self, query: VersionQuery) -> list[VersionRow]:
        where = [_IN_STORE, "v.op < 4"]
        params: dict[str, Any] = {"lo": self.lo, "hi": self.hi, "n": query.limit}
        index = "NOT INDEXED"  # the table's own key: the store's range, newest first
        codes: list[int] | None = None
        if query.before is not None:  # one range of the key: SQLite takes one bound per side
            params["hi"] = min(self.hi, query.before - 1)
        if query.ops is not None:
            codes = sorted({history.OP_CODE[o] for op in query.ops for o in history.PUBLIC_OPS[op]})
            where.append(f"v.op IN ({','.join(map(str, codes))})")
        for column, value in (("session", query.session_id), ("actor", query.api_key_id)):
            if value is not None:
                where.append(f"v.{column} = :{column}")
                params[column] = value
        self._time_bounds(query, params)
        if query.memory is not None:
            params["memory"] = query.memory
            where.append("v.memory = :memory")
            if codes is not None and set(codes) <= {2, 3}:  # a memory's deletions: the index they enter
                index = "INDEXED BY versions_ends"
            else:
                return self._memory_page(query, where, params)
        rows = self._q(
            f"SELECT {_META}, e.expires FROM versions v {index} {_LIVE} WHERE {' AND '.join(where)} "
            "ORDER BY v.seq DESC LIMIT :n",
            params,
        ).fetchall()
        return [self._row(r, r[11], None) for r in rows]

    def _memory_page(self, query: VersionQuery, where: list[str], params: dict[str, Any]) -> list[VersionRow]:
        """One memory's versions, newest first: a walk back along its links, from its head or from
        the cursor's row (a later page starts where the last one ended, however deep)."""
        memory = int(params["memory"])
        start: int | None = None
        if query.before is not None:
            row = self._q(
                "SELECT memory, prev FROM versions WHERE seq = ? AND seq BETWEEN ? AND ?",
                (query.before, self.lo, self.hi),
            ).fetchone()
            if row is not None and row[0] == memory:
                start = None if row[1] is None else int(row[1])
            else:
                start = self.head_of(memory)
        else:
            start = self.head_of(memory)
        if start is not None and not self.lo <= start <= self.hi:
            return []  # another store's memory
        found: list[VersionRow] = []
        batch = query.limit + 1  # a first page without filters is exactly one walk of this length
        filters = " AND ".join(where)
        while start is not None and start >= params["lo"] and len(found) < query.limit:
            # The next ``batch`` links of the chain (each older than the one before it, none older
            # than the range's low end), walked inside SQLite; only the rows the page's filters
            # pass come back, and the walk's last row, where the next walk starts.
            rows = self._q(
                "WITH RECURSIVE walk(seq, n) AS (SELECT :start, 0 UNION ALL SELECT v.prev, w.n + 1 FROM versions v "
                "JOIN walk w ON v.seq = w.seq WHERE v.prev < v.seq AND v.prev >= :lo AND v.memory = :memory "
                "AND w.n + 1 < :batch) "
                f"SELECT {_META}, e.expires, v.prev, ({filters}), walk.n FROM walk JOIN versions v ON v.seq = walk.seq "
                f"{_LIVE} WHERE ({filters}) OR walk.n = :batch - 1 ORDER BY v.seq DESC LIMIT :more",
                {**params, "start": start, "batch": batch, "more": query.limit - len(found) + 1},
            ).fetchall()
            start = None
            for r in rows:
                if r[13] and r[1] == memory and len(found) < query.limit:
                    found.append(self._row(r, r[11], None))
                if r[14] == batch - 1 and r[1] == memory and r[12] is not None and r[12] < r[0]:
                    start = int(r[12])  # the walk went the whole batch: the next one starts below it
            batch = min(batch * 8, 4096)
        return found

    def _time_bounds(self, query: VersionQuery, params: dict[str, Any]) -> None:
        """A time range as a range of seq: created never decreases along seq (see ``_fields``), so
        each bound is the newest version on the early side of it, found by a binary search."""
        lte, gte = query.created_lte, query.created_gte
        if lte is not None:
            top = self._newest_seq(lambda created: created <= lte)
            params["hi"] = min(params["hi"], self.lo - 1 if top is None else top)
        if gte is not None:
            floor = self._newest_seq(lambda created: created < gte)
            params["lo"] = max(params["lo"], self.lo if floor is None else floor + 1)

    def _newest_seq(self, early: Callable[[float], bool]) -> int | None:
        """The newest seq of this chain whose time is ``early`` (true for a prefix of the chain).

        Walking back from the newest version until one is early would read every version after
        the bound (a bound a year back: the whole history, a second per million versions). A
        binary search over seq takes one index probe for a bound at or after the newest version,
        and otherwise about log2 of the newest seq (20 for a million), wherever the bound lies.
        """
        newest = self._at_or_below(self.hi)
        if newest is None or early(newest[1]):
            return None if newest is None else newest[0]
        found, low, high = None, self.lo, newest[0] - 1
        while low <= high:
            mid = (low + high) // 2
            row = self._at_or_below(mid)
            if row is None:
                low = mid + 1
            elif early(row[1]):
                found, low = row[0], mid + 1
            else:
                high = row[0] - 1
        return found

    def _at_or_below(self, seq: int) -> tuple[int, float] | None:
        """This chain's newest version numbered ``seq`` or less: (seq, created)."""
        row = self._q(
            "SELECT seq, created FROM versions WHERE seq BETWEEN ? AND ? ORDER BY seq DESC LIMIT 1",
            (self.lo, seq),
        ).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    def get(self, seq: int) -> VersionRow | None:
        row = self._q(
            f"SELECT {_META}, e.expires, v.data FROM versions v {_LIVE} "
            "WHERE v.seq = ? AND v.seq BETWEEN ? AND ? AND v.op < 4",
            (seq, self.lo, self.hi),
        ).fetchone()
        return None if row is None else self._row(row, row[11], row[12])

    def _row(self, r: Sequence[Any], expires: float | None, data: Any) -> VersionRow:
        hide = self._masked(expires)
        return VersionRow(
            seq=int(r[0]),
            memory=int(r[1]),
            op=history.OPS[r[2]],
            path=None if hide else r[3],
            sha256=None if hide or r[4] is None else blob(r[4]),
            size=None if hide else r[5],
            session_id=r[6],
            api_key_id=r[7],
            created=float(r[8]),
            redacted=r[9],
            data=None if hide or data is None else blob(data),
            ref=r[10],
        )

    # -- redaction -------------------------------------------------------------------------

    def redact(self, seq: int, memory: int) -> None:
        """Erase one version's redactable fields and chain the redaction (even with versions off).

        The version's store is its key's (a caller that found the version by another column is
        not trusted with it): the redaction is chained in that store's chain."""
        if not self.lo <= seq <= self.hi:
            VersionLog(self._conn, seq >> SEQ_BITS, self.now, self.actor, self.settings).redact(seq, memory)
            return
        self._debt += int(self._q(_SHRINK.format("seq = ? AND redacted IS NULL"), (seq,)).fetchone()[0])
        # The redacted time is the redaction event's (the chain check holds them equal).
        self._q(f"UPDATE versions SET {_ERASED} WHERE seq = ?", (self._next_time(), seq))
        self._last = None
        self.record("redaction", memory, None, ref=seq)

    def expired(self, files: Sequence[tuple[int, str]]) -> None:
        """Expiry took these memories (number, path): an ``expired`` version each, then, if the
        settings say so, every version of them redacted (the expired version carries no path).

        The caller records this before it deletes the memories' ``content`` rows (their heads).
        With versions off, a memory that has versions (recorded while they were on) still gets
        both, so its text leaves the history and the chain records why; the others get nothing."""
        if not files:
            return
        heads = self._heads_of([m for m, _ in files])
        if not self.settings.versions:
            files = [(m, p) for m, p in files if heads.get(m) is not None]
            if not files:
                return
        erase = self.settings.redact_expired
        kept: list[int] = []  # the versions whose text and path the redaction below takes
        if erase:  # what it takes from the total, carried by the rows appended first
            for seq, share in self._walk_back({h: m for m, _ in files if (h := heads.get(m)) is not None}):
                kept.append(seq)
                self._debt += share
        self._append_expired(files, heads, erase)
        for start in range(0, len(kept), 500):
            chunk = kept[start : start + 500]
            self._q(
                f"UPDATE versions SET {_ERASED} WHERE seq IN ({','.join('?' * len(chunk))})",
                [self._chain_tail().created, *chunk],  # the expired versions' time
            )

    def _append_expired(self, files: Sequence[tuple[int, str]], heads: dict[int, int | None], erase: bool) -> None:
        """An ``expired`` version per memory, chained in order and written in one ``executemany``:
        what ``_append`` does for each, without a statement and a row of Python per memory (a
        sweep records one per file it deletes)."""
        tail = self._chain_tail()
        if tail.seq + len(files) > self.hi:
            raise StorageError("this store holds the most versions a store can hold; redact or delete it")
        created = self._next_time()  # the same for every row: none is earlier than the one before
        seq, prev, total = tail.seq, tail.link, tail.total - self._debt
        self._debt = 0
        code = history.OP_CODE["expired"]
        rows: list[tuple[Any, ...]] = []
        who = (_EXPIRY.session_id, _EXPIRY.api_key_id, created)
        for memory, path in files:
            if erase:  # no path, no salt: the digest of every such version is the same
                salt, digest = None, history.ERASED
                link = history.link(
                    prev,
                    memory=memory,
                    op="expired",
                    ref=None,
                    session_id=who[0],
                    api_key_id=who[1],
                    created=created,
                    digest_=digest,
                )
            else:
                row = history.new_version(
                    0, "expired", memory, path, None, ref=None, actor=_EXPIRY, prev=prev, created=created, keep=False
                )
                salt, digest, link = row.salt, row.digest, row.link
            kept_path = None if erase else path
            seq, prev = seq + 1, link
            total += history.share("expired", kept_path, None)
            rows.append((seq, self.ns, memory, code, kept_path, salt, *who, digest, link, total, heads.get(memory)))
            self._heads[memory] = seq
        self.statements += 1
        self._conn.executemany(_INSERT_EXPIRED, rows)
        if not self.settings.versions:  # the empty row a deletion with the history off left holds the head
            self.statements += 1
            self._conn.executemany("UPDATE content SET head = ? WHERE id = ?", [(r[0], r[2]) for r in rows])
        self.tail = Tail(seq, prev, created, total)
        self._last = None

    def _heads_of(self, memories: Sequence[int]) -> dict[int, int | None]:
        """Each memory's newest version in this store (None: it has none), read in bounded batches."""
        missing = [m for m in dict.fromkeys(memories) if m not in self._heads]
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            rows = self._q(f"SELECT id, head FROM content WHERE id IN ({','.join('?' * len(chunk))})", chunk).fetchall()
            for memory, head in rows:
                self._heads[int(memory)] = None if head is None or not self.lo <= head <= self.hi else int(head)
        for memory in missing:
            if memory not in self._heads:  # no content row: a deleted memory
                self.head_of(memory)
        return {m: self._heads[m] for m in memories}

    def _walk_back(self, heads: dict[int, int]) -> list[tuple[int, int]]:
        """Every version with text or a path still kept, along these chains: (seq, its share of
        the history total). ``heads``: head -> its memory. The heads are read by key (most expired
        memories have one version), and one that is another memory's version is left alone;
        what lies below them is walked inside SQLite, along links that stay in the store and in
        the memory: one statement per 500 chains, however long they are."""
        share = _SHARE.replace("data", "v.data").replace("path", "v.path")
        found: list[tuple[int, int]] = []
        below: list[int] = []
        mine = [h for h in heads if self.lo <= h <= self.hi]
        for start in range(0, len(mine), 500):
            chunk = mine[start : start + 500]
            for seq, memory, prev, op, redacted, size in self._q(
                f"SELECT v.seq, v.memory, v.prev, v.op, v.redacted, {share} FROM versions v WHERE v.seq IN "
                f"({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall():
                if memory != heads[seq]:
                    continue
                if op < 3 and redacted is None:
                    found.append((int(seq), int(size)))
                if prev is not None and self.lo <= prev < seq:
                    below.append(int(prev))
        for start in range(0, len(below), 500):
            chunk = below[start : start + 500]
            found += [
                (int(seq), int(size))
                for seq, size in self._q(
                    # seeded by an IN list: a VALUES list of 500 rows would pass SQLite's cap on the
                    # terms of one compound SELECT
                    "WITH RECURSIVE walk(seq) AS (SELECT seq FROM versions WHERE seq IN "
                    f"({','.join('?' * len(chunk))}) UNION ALL "
                    "SELECT v.prev FROM walk w JOIN versions v ON v.seq = w.seq JOIN versions p ON p.seq = v.prev "
                    "WHERE v.prev < v.seq AND v.prev >= ? AND p.memory = v.memory) "
                    f"SELECT v.seq, {share} FROM walk JOIN versions v ON v.seq = walk.seq "
                    "WHERE v.op < 3 AND v.redacted IS NULL",
                    [*chunk, self.lo],
                ).fetchall()
            ]
        return found


CHAIN_STEP = 2048  # versions read per transaction of a chain's walk


def chain_rows(in_tx: Callable[[Callable[[Connection], Any]], Any], ns: int) -> Iterator[VersionRow]:
    """Every version of a namespace in commit order, with its content and chain fields.

    The links listings follow are outside the hash chain, so they are checked on the way: each
    row's ``prev`` must be its memory's previous version in commit order (None for its first,
    and for a redaction event), and each memory's ``content.head`` its newest version. A row
    whose link was changed is named as malformed; heads are compared once every row is read, and
    a head that names another version (or none, or belongs to no memory of the store) is named
    on the newest row, held back until then. Memory grows with the store's memories, not its
    versions.

    The walk reads ``CHAIN_STEP`` versions per short transaction (``in_tx`` runs one), and the rows
    are yielded outside it: one read transaction over a whole history kept every checkpoint from
    erasing what other processes freed meanwhile for as long as an audit ran (2.4 s at 150,000
    versions, past the erasure bound: an attacker's round). Versions are only ever appended (a
    redaction rewrites a row in place and keeps its chain fields), so the walk goes on from the last
    number read; the heads are compared in the transaction that finds no version after it, so they
    and the rows read are one state. A store deleted during the walk ends it with ``MissingStore``.
    """
    lo, hi = seq_range(ns)
    newest: dict[int, tuple[int, int]] = {}  # memory -> (seq, op) of its newest version so far
    held: list[VersionRow] = []  # the newest row read, yielded once the next is (its heads are checked last)
    after = lo - 1

    def step(conn: Connection) -> tuple[list[VersionRow], bool]:
        nonlocal after
        if conn.execute("SELECT 1 FROM stores WHERE id = ?", (ns,)).fetchone() is None:
            raise MissingStore("the memory store was deleted while its history was read")
        rows = conn.execute(_CHAIN_SQL, (after, hi, CHAIN_STEP)).fetchall()
        out: list[VersionRow] = []
        for r in rows:
            if held:
                out.append(held.pop())
            row = _chain_row(r)
            held.append(row)
            after = r[0]
            if row.malformed is not None:
                continue
            seq, memory, op, prev = r[0], r[1], r[2], r[16]
            if op >= 4:  # a redaction event: in no memory's chain
                right = prev is None
            else:
                before = newest.get(memory)
                right = (type(prev) is int and before is not None and prev == before[0]) or prev is before is None
                newest[memory] = (seq, op)
            if not right:
                held[0] = replace(row, malformed="its link to the memory's previous change (prev) was edited")
        if len(rows) == CHAIN_STEP:
            return out, False
        if held:
            wrong = _wrong_heads(conn, newest)
            if wrong and held[0].malformed is None:
                held[0] = replace(
                    held[0],
                    malformed=f"{wrong} memories' rows name another change than their newest (a head edited, "
                    "or a row removed)",
                )
            out.append(held.pop())
        return out, True

    while True:
        out, done = in_tx(step)
        yield from out
        if done:
            return


_CHAIN_SQL = (
    "SELECT seq, memory, op, path, sha, size, session, actor, created, redacted, data, ref, salt, digest, link, "
    "total, prev FROM versions WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?"
)


def _wrong_heads(conn: Connection, newest: dict[int, tuple[int, int]]) -> int:
    """How many memories' ``content.head`` is not their newest version (see ``chain_rows``): each
    memory of the store looked up by number (never a scan of other stores' rows). A memory with
    no version here never reaches this store's chain: a head naming one of its versions only
    ends that memory's own listing (the walk stops at a version of another memory)."""
    wrong = 0
    memories = list(newest)
    for start in range(0, len(memories), 500):
        chunk = memories[start : start + 500]
        rows = conn.execute(
            f"SELECT id, head FROM content WHERE id IN ({','.join('?' * len(chunk))})", chunk
        ).fetchall()
        have = {int(m): h for m, h in rows}
        for memory in chunk:
            seq, op = newest[memory]
            head = have.get(memory)
            # A deleted memory has no row (or one naming its deletion: restored with the history off).
            if head != seq and not (op >= 2 and memory not in have):
                wrong += 1
    return wrong


def link_versions(conn: Connection) -> None:
    """Schema 5's links, from the versions in commit order: each row's ``prev``, each memory's
    head in its ``content`` row (an empty row for a memory deleted with the history off)."""
    newest: dict[int, tuple[int, int]] = {}  # memory -> (seq, op) of its newest version
    after = -1
    while rows := conn.execute(
        "SELECT seq, memory, op FROM versions WHERE seq > ? ORDER BY seq LIMIT 20000", (after,)
    ).fetchall():
        links = []
        for seq, memory, op in rows:
            if op < 4:
                found = newest.get(memory)
                links.append((None if found is None else found[0], seq))
                newest[memory] = (seq, op)
            else:
                links.append((None, seq))
        conn.executemany("UPDATE versions SET prev = ? WHERE seq = ?", links)
        after = rows[-1][0]
    live = {int(r[0]) for r in conn.execute("SELECT id FROM content").fetchall()}
    conn.executemany(
        "UPDATE content SET head = ? WHERE id = ?", [(seq, m) for m, (seq, _) in newest.items() if m in live]
    )
    conn.executemany(
        "INSERT INTO content (id, data, head) VALUES (?, x'', ?)",
        [(m, seq) for m, (seq, op) in newest.items() if m not in live and op not in (2, 3)],
    )


# The type each column of a chain row must hold, as securemem writes it (SQLite keeps whatever a
# direct edit puts in a column: a REAL in an INTEGER column, a BLOB in a TEXT one). A value of
# another type is named by the chain check, never coerced into a valid-looking one (7.5 read as
# memory 7, -1 read as the last operation).
_TYPES: tuple[tuple[str, tuple[type, ...], bool], ...] = (
    ("seq", (int,), False),
    ("memory", (int,), False),
    ("op", (int,), False),
    ("path", (str,), True),
    ("sha", (bytes,), True),
    ("size", (int,), True),
    ("session", (str,), True),
    ("actor", (str,), True),
    ("created", (float, int), False),
    ("redacted", (float, int), True),
    ("data", (bytes,), True),
    ("ref", (int,), True),
    ("salt", (bytes,), True),
    ("digest", (bytes,), False),
    ("link", (bytes,), False),
    ("total", (int,), True),
)


def _chain_row(r: Sequence[Any]) -> VersionRow:
    wrong = [
        name
        for (name, types, nullable), value in zip(_TYPES, r[: len(_TYPES)], strict=True)
        if not (value is None and nullable) and (type(value) not in types)
    ]
    if not wrong and not 0 <= r[2] < len(history.OPS):
        wrong.append("op")
    if wrong:
        return _malformed(r, f"a column holds a value securemem never writes there ({', '.join(wrong)})")
    return VersionRow(
        seq=r[0],
        memory=r[1],
        op=history.OPS[r[2]],
        path=r[3],
        sha256=r[4],
        size=r[5],
        session_id=r[6],
        api_key_id=r[7],
        created=float(r[8]),
        redacted=None if r[9] is None else float(r[9]),
        data=r[10],
        ref=r[11],
        salt=r[12],
        digest=r[13],
        link=r[14],
        total=r[15],
    )


def _malformed(r: Sequence[Any], why: str) -> VersionRow:
    """A row the chain cannot read as securemem wrote it: named by the check, its link kept if it is one."""
    seq = r[0] if type(r[0]) is int else 0
    link = r[14] if type(r[14]) is bytes else b""
    return VersionRow(seq, 0, "modified", None, None, None, None, None, 0.0, None, link=link, malformed=why)


def recount(conn: Connection) -> None:
    """Every store's history total rebuilt from its versions, into its newest row (see ``Tail``)."""
    for (ns,) in conn.execute("SELECT id FROM stores").fetchall():
        lo, hi = seq_range(int(ns))
        rows = "FROM versions WHERE seq BETWEEN ? AND ?"
        conn.execute(
            f"UPDATE versions SET total = (SELECT coalesce(sum({_SHARE} + CASE WHEN op = 4 THEN 0 ELSE ? END), 0) "
            f"{rows}) WHERE seq = (SELECT max(seq) {rows})",
            (history.ROW_SHARE, lo, hi, lo, hi),
        )
