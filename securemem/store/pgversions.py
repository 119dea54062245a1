"""The version history of the PostgreSQL store: recording, reading, redacting, sealed.

The same history as the SQLCipher store's (``sqlversions.py``), built by the same
``history.new_version`` and checked by the same ``history.check``: ``seq`` is the store's number shifted left by
``history.SEQ_BITS``, plus the version's place in the store's chain.
What a redaction erases (path, hash, size, salt) is one ciphertext, ``meta_ct``; the content is
another, ``data_ct``; each bound to its store and version number. ``hbytes`` (in clear) is what
the version's text and path count against the store's quota.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from securemem.errors import DamagedStoreError, StorageError
from securemem.store import history
from securemem.store.base import Actor, History, VersionQuery, VersionRow
from securemem.store.pgschema import Db
from securemem.store.pgseal import TAMPERED, StoreKeys, Tail, VersionSecret

SEQ_BITS = history.SEQ_BITS
_EXPIRY = Actor(None, history.EXPIRY_ACTOR)
_META = "v.seq, v.memory, v.op, v.meta_ct, v.session, v.actor, v.created, v.redacted, v.ref"
# The memory's live row: the versions of a memory that has expired show nothing, before any sweep.
_LIVE = "LEFT JOIN sm_entries e ON e.ns = %(ns)s AND e.memory = v.memory AND NOT e.is_dir"
_ERASED = "meta_ct = NULL, data_ct = NULL, hbytes = 0, redacted = %(now)s"
# Whether a redaction event names the version: a version put back by SQL after its redaction
# (its old ciphertexts written back, ``redacted`` cleared) is refused, not served.
# Or an expiry recorded with the history's text erased (``redact_expired``) follows it in its
# memory: that expiry erased every version of the memory before it, with no event of their own.
_STRUCK = (
    f"(EXISTS (SELECT 1 FROM sm_versions r WHERE r.ref = v.seq AND r.op = {history.OP_CODE['redaction']} "
    "AND r.seq BETWEEN %(slo)s AND %(shi)s) OR (v.op < 3 AND EXISTS (SELECT 1 FROM sm_versions x WHERE "
    f"x.memory = v.memory AND x.op = {history.OP_CODE['expired']} AND x.seq > v.seq AND x.seq <= %(shi)s "
    "AND x.digest = %(erased)s)))"
)


def seq_range(ns: int) -> tuple[int, int]:
    return ns << SEQ_BITS, ((ns + 1) << SEQ_BITS) - 1


def empty_tail(ns: int) -> Tail:
    """The tail of a store with no version yet: its first key, and the chain's genesis link."""
    return ns << SEQ_BITS, -1, -1, history.genesis(ns)


# The columns of a version row the chain's tail vouches for, as stored: everything but its sealed
# fields, its quota share and its redaction time (which a later redaction changes, with an event).
TAIL_COLUMNS = "seq, memory, op, ref, session, actor, created, digest, link"


def tail_of(ns: int, r: Sequence[Any] | None) -> Tail:
    """The tail a version row (TAIL_COLUMNS, in order) makes: its number, memory and operation, and a
    hash of every column the tail vouches for (its redaction event's ``ref``, an expiry's erasing
    ``digest``...); the empty tail when there is no row."""
    if r is None or r[0] is None:
        return empty_tail(ns)
    seq, memory, op, ref, session, actor, created, digest, link = r
    doc = [int(seq), int(memory), int(op), None if ref is None else int(ref), session, actor, repr(float(created)),
           bytes(digest).hex(), bytes(link).hex()]  # fmt: skip
    return int(seq), int(memory), int(op), hashlib.sha256(json.dumps(doc).encode()).digest()


# A store's row with its newest version, in one statement: what ``check_tail`` checks, and what
# the log then knows of its chain's end and its history total without asking again. The backend
# reads it with the store's name when it resolves a transaction's store (``head=`` below).
HEAD_COLUMNS = f"s.id, s.tail_ct, s.history_bytes, {', '.join(f't.{c}' for c in TAIL_COLUMNS.split(', '))}"
HEAD_FROM = (
    f"sm_stores s LEFT JOIN LATERAL (SELECT {TAIL_COLUMNS} FROM sm_versions WHERE seq BETWEEN "
    "s.id << 40 AND ((s.id + 1) << 40) - 1 ORDER BY seq DESC LIMIT 1) t ON true"
)
STORE_HEAD = f"SELECT {HEAD_COLUMNS} FROM {HEAD_FROM}"
_TAIL = slice(3, 12)  # the TAIL_COLUMNS of a STORE_HEAD row


def check_tail(db: Db, keys: StoreKeys, head: Sequence[Any] | None = None) -> Sequence[Any] | None:
    """The store's history ends where its row says it does: newest versions cut off by SQL (a
    deletion, an edit rolled back with its version), or the newest one edited, are refused before
    anything is read. ``head``: the store's STORE_HEAD row read already in this transaction (else
    it is read here). Returns it."""
    row = head if head is not None else db.one(f"{STORE_HEAD} WHERE s.id = %s", (keys.ns,))
    if row is None:
        return None  # deleted meanwhile: the transaction finds no store
    seen = (None if row[1] is None else bytes(row[1]), tuple(row[_TAIL]))
    if seen == keys.checked_tail:  # the very row and seal this handle checked last: the same answer
        return row
    if keys.open_tail(seen[0]) != tail_of(keys.ns, row[_TAIL]):
        raise DamagedStoreError(TAMPERED)
    keys.checked_tail = seen
    return row


@dataclass
class _Pending:
    seq: int
    memory: int
    op: str
    prev: bytes


class PgVersionLog:
    """The versions one transaction records in one store's chain (the store's lock is held)."""

    def __init__(
        self, db: Db, keys: StoreKeys, now: float, actor: Actor, settings: History, *, head: Sequence[Any] | None = None
    ) -> None:
        self._db = db
        self.keys = keys
        self.ns = keys.ns
        self.now = now
        self.actor = actor
        self.settings = settings
        self._tail: tuple[int, bytes, float] | None = None
        self._history_bytes: int | None = None  # as the store's row said, until this log changes it
        self._last: _Pending | None = None
        self.lo, self.hi = seq_range(self.ns)
        if self.ns >= 0:  # every transaction on a store starts here: its history is whole, or nothing goes on
            row = check_tail(db, keys, head)
            if row is not None:
                self._history_bytes = int(row[2])
                self._tail = (self.lo, history.genesis(self.ns), 0.0) if row[3] is None else (
                    int(row[3]), bytes(row[11]), float(row[9]))  # fmt: skip

    def _chain_tail(self) -> tuple[int, bytes, float]:
        if self._tail is None:
            row = self._db.one(
                "SELECT seq, link, created FROM sm_versions WHERE seq BETWEEN %s AND %s ORDER BY seq DESC LIMIT 1",
                (self.lo, self.hi),
            )
            self._tail = (
                (self.lo, history.genesis(self.ns), 0.0) if row is None else (int(row[0]), bytes(row[1]), float(row[2]))
            )
        return self._tail

    def record(
        self, op: str, memory: int, path: str | None, data: bytes | None = None, *, ref: int | None = None,
        actor: Actor | None = None,
    ) -> int:  # fmt: skip
        """Chain one version; a second change of the memory just recorded folds into it (as sqlversions)."""
        if not self.settings.versions and op != "redaction":
            return 0
        return self._append(op, memory, path, data, ref=ref, actor=actor)

    def _append(
        self, op: str, memory: int, path: str | None, data: bytes | None, *, ref: int | None, actor: Actor | None
    ) -> int:
        last = self._last
        if last is not None and history.folds(last.op, last.memory, op, memory):
            return self._write(last.seq, last.op, memory, path, data, None, self.actor, last.prev, fold=True)
        tail, prev, _ = self._chain_tail()
        seq = tail + 1
        if seq > self.hi:
            raise StorageError("this store holds the most versions a store can hold; redact or delete it")
        self._write(seq, op, memory, path, data, ref, actor or self.actor, prev, fold=False)
        self._last = _Pending(seq, memory, op, prev) if op in ("created", "modified") else None
        return seq

    def _write(  # noqa: PLR0917
        self, seq: int, op: str, memory: int, path: str | None, data: bytes | None, ref: int | None, actor: Actor,
        prev: bytes, *, fold: bool,
    ) -> int:  # fmt: skip
        _, _, tail_created = self._chain_tail()
        created = max(history.instant(self.now), tail_created)
        row = history.new_version(
            seq, op, memory, path, data, ref=ref, actor=actor, prev=prev, created=created, keep=self.settings.content
        )
        hbytes = len(row.data or b"") + (0 if path is None else len(path.encode("utf-8")))
        params = {
            "seq": seq,
            "memory": memory,
            "op": history.OP_CODE[op],
            "ref": ref,
            "hbytes": hbytes,
            "session": self.keys.seal_who("session", seq, actor.session_id),
            "actor": self.keys.seal_who("actor", seq, actor.api_key_id),
            "created": created,
            "digest": row.digest,
            "link": row.link,
            "meta": self.keys.seal_version(
                seq, memory, history.OP_CODE[op], VersionSecret(path, row.sha256, row.size, row.salt)
            ),
            "data": None if row.data is None else self.keys.seal_version_data(seq, memory, row.data),
            "ns": self.ns,
            "grow": history.share(op, path, row.data),  # a redaction event's row was held in reserve
        }
        # a fold rewrites the tail too (it always folds into the newest version; a fold's ref is None)
        params["tail"] = self.keys.seal_tail(tail_of(self.ns, [params[c] for c in TAIL_COLUMNS.split(", ")]))
        if fold:
            sql = (
                "WITH old AS (SELECT hbytes FROM sm_versions WHERE seq = %(seq)s), "
                "upd AS (UPDATE sm_versions SET hbytes = %(hbytes)s, session = %(session)s, actor = %(actor)s, "
                "created = %(created)s, digest = %(digest)s, link = %(link)s, meta_ct = %(meta)s, data_ct = %(data)s "
                "WHERE seq = %(seq)s) "
                "UPDATE sm_stores SET history_bytes = history_bytes + %(hbytes)s - (SELECT hbytes FROM old), "
                "tail_ct = %(tail)s WHERE id = %(ns)s"
            )
        else:
            sql = (
                "WITH ins AS (INSERT INTO sm_versions (seq, memory, op, ref, hbytes, session, actor, created, digest, "
                "link, meta_ct, data_ct) VALUES (%(seq)s, %(memory)s, %(op)s, %(ref)s, %(hbytes)s, %(session)s, "
                "%(actor)s, %(created)s, %(digest)s, %(link)s, %(meta)s, %(data)s)) "
                "UPDATE sm_stores SET history_bytes = history_bytes + %(grow)s, tail_ct = %(tail)s WHERE id = %(ns)s"
            )
        self._db.run(sql, params)
        self._tail = (seq, row.link, created)
        self._history_bytes = None
        return seq

    # -- reads -----------------------------------------------------------------------------

    def history_bytes(self) -> int:
        if self._history_bytes is not None:
            return self._history_bytes
        row = self._db.one("SELECT history_bytes FROM sm_stores WHERE id = %s", (self.ns,))
        return 0 if row is None else int(row[0])

    def page(self, query: VersionQuery) -> list[VersionRow]:
        where = ["v.seq BETWEEN %(lo)s AND %(hi)s", "v.op < 4"]
        params: dict[str, Any] = {"lo": self.lo, "hi": self.hi, "n": query.limit, "ns": self.ns}
        if query.memory is not None:
            where.append("v.memory = %(memory)s")
            params["memory"] = query.memory
        if query.before is not None:
            params["hi"] = min(self.hi, query.before - 1)
        if query.ops is not None:
            codes = sorted({history.OP_CODE[o] for op in query.ops for o in history.PUBLIC_OPS[op]})
            where.append("v.op = ANY(%(codes)s)")
            params["codes"] = codes
        for column, value in (("session", query.session_id), ("actor", query.api_key_id)):
            if value is not None:  # by the value's token: the server never sees who (pgseal.seal_who)
                where.append(f"split_part(v.{column}, '.', 1) = %({column})s")
                params[column] = self.keys.who_token(column, value)
        if query.created_gte is not None:
            where.append("v.created >= %(gte)s")
            params["gte"] = query.created_gte
        if query.created_lte is not None:
            where.append("v.created <= %(lte)s")
            params["lte"] = query.created_lte
        rows = self._db.all(
            f"SELECT {_META}, e.expires, NULL, {_STRUCK} FROM sm_versions v {_LIVE} WHERE {' AND '.join(where)} "
            "ORDER BY v.seq DESC LIMIT %(n)s",
            {**params, "slo": self.lo, "shi": self.hi, "erased": history.ERASED},
        )
        return [self._row(r, r[9], None) for r in rows]

    def get(self, seq: int) -> VersionRow | None:
        row = self._db.one(
            f"SELECT {_META}, e.expires, v.data_ct, {_STRUCK} FROM sm_versions v {_LIVE} "
            "WHERE v.seq = %(seq)s AND v.seq BETWEEN %(lo)s AND %(hi)s AND v.op < 4",
            {
                "seq": seq,
                "lo": self.lo,
                "hi": self.hi,
                "slo": self.lo,
                "shi": self.hi,
                "erased": history.ERASED,
                "ns": self.ns,
            },
        )
        return None if row is None else self._row(row, row[9], row[10])

    def _row(self, r: Sequence[Any], expires: float | None, data: Any) -> VersionRow:
        seq, memory = int(r[0]), int(r[1])
        if r[11] and (r[7] is None or r[3] is not None or data is not None):
            raise DamagedStoreError(TAMPERED)  # a redacted version whole again: put back by SQL
        hide = self.settings.redact_expired and expires is not None and expires <= self.now
        secret = self.keys.open_version(seq, memory, int(r[2]), None if r[3] is None else bytes(r[3]))
        content = None if hide or data is None else self.keys.open_version_data(seq, memory, bytes(data))
        return VersionRow(
            seq=seq,
            memory=memory,
            op=history.OPS[r[2]],
            path=None if hide else secret.path,
            sha256=None if hide else secret.sha256,
            size=None if hide else secret.size,
            session_id=self.keys.open_who("session", seq, r[4]),
            api_key_id=self.keys.open_who("actor", seq, r[5]),
            created=float(r[6]),
            redacted=r[7],
            data=content,
            ref=r[8],
        )

    # -- redaction -------------------------------------------------------------------------

    def redact(self, seq: int, memory: int) -> None:
        """Erase one version's sealed fields and chain the redaction (even with versions off)."""
        params = {"seq": seq, "now": self.now, "ns": self.ns}
        self._db.run(
            "WITH old AS (SELECT hbytes FROM sm_versions WHERE seq = %(seq)s AND redacted IS NULL), "
            f"upd AS (UPDATE sm_versions SET {_ERASED} WHERE seq = %(seq)s) "
            "UPDATE sm_stores SET history_bytes = history_bytes - coalesce((SELECT hbytes FROM old), 0) "
            "WHERE id = %(ns)s",
            params,
        )
        self._last = None
        self._history_bytes = None
        self.record("redaction", memory, None, ref=seq)

    def expired(self, files: Sequence[tuple[int, str]]) -> None:
        """Expiry took these memories: an ``expired`` version each, then (by the settings) every
        version of them redacted; with versions off, only memories that have versions."""
        if not files:
            return
        if not self.settings.versions:
            have = self._with_versions([m for m, _ in files])
            files = [(m, p) for m, p in files if m in have]
            if not files:
                return
        erase = self.settings.redact_expired
        self._history_bytes = None
        for memory, path in files:
            self._last = None
            self._append("expired", memory, None if erase else path, None, ref=None, actor=_EXPIRY)
        if erase:
            params = {"ms": [m for m, _ in files], "lo": self.lo, "hi": self.hi, "now": self.now, "ns": self.ns}
            where = "memory = ANY(%(ms)s) AND seq BETWEEN %(lo)s AND %(hi)s AND redacted IS NULL AND op < 3"
            self._db.run(
                f"WITH gone AS (SELECT coalesce(sum(hbytes), 0) AS n FROM sm_versions WHERE {where}), "
                f"upd AS (UPDATE sm_versions SET {_ERASED} WHERE {where}) "
                "UPDATE sm_stores SET history_bytes = history_bytes - (SELECT n FROM gone) WHERE id = %(ns)s",
                params,
            )

    def _with_versions(self, memories: Sequence[int]) -> set[int]:
        rows = self._db.all(
            "SELECT DISTINCT memory FROM sm_versions WHERE memory = ANY(%s) AND seq BETWEEN %s AND %s",
            (list(memories), self.lo, self.hi),
        )
        return {int(r[0]) for r in rows}


def chain_rows(db: Db, keys: StoreKeys) -> Iterator[VersionRow]:
    """Every version of a store in commit order, unsealed, with its chain fields (pages of 512).

    The newest row is held back and named malformed when it is not the newest version the store's
    row keeps sealed (``tail_ct``): versions cut off the end by SQL, which the chain alone cannot
    tell from a chain that ends there."""
    sealed = _sealed_tail(db, keys)
    held: VersionRow | None = None
    for row in _chain_rows(db, keys):
        if held is not None:
            yield held
        held = row
    lo, hi = seq_range(keys.ns)
    found = tail_of(keys.ns, db.one(
        f"SELECT {TAIL_COLUMNS} FROM sm_versions WHERE seq BETWEEN %s AND %s ORDER BY seq DESC LIMIT 1", (lo, hi)
    ))  # fmt: skip
    if sealed != found:
        why = "the store's sealed newest version is not the chain's last: versions were cut off or put back"
        if held is None:
            held = VersionRow(seq=(sealed or found)[0], memory=0, op="expired", path=None, sha256=None, size=None,
                              session_id=None, api_key_id=None, created=0.0, redacted=None, malformed=why)  # fmt: skip
        elif held.malformed is None:
            held = replace(held, malformed=why)
    if held is not None:
        yield held


def _sealed_tail(db: Db, keys: StoreKeys) -> Tail | None:
    row = db.one("SELECT tail_ct FROM sm_stores WHERE id = %s", (keys.ns,))
    if row is None:
        return None
    try:
        return keys.open_tail(None if row[0] is None else bytes(row[0]))
    except DamagedStoreError:
        return None  # the row itself was changed: named on the chain's last row


def _chain_rows(db: Db, keys: StoreKeys) -> Iterator[VersionRow]:
    lo, hi = seq_range(keys.ns)
    after = lo
    while True:
        rows = db.all(
            "SELECT seq, memory, op, meta_ct, session, actor, created, redacted, data_ct, ref, digest, link "
            "FROM sm_versions WHERE seq > %s AND seq <= %s ORDER BY seq LIMIT 512",
            (after, hi),
        )
        for r in rows:
            seq, memory = int(r[0]), int(r[1])
            secret = keys.open_version(seq, memory, int(r[2]), None if r[3] is None else bytes(r[3]))
            yield VersionRow(
                seq=seq,
                memory=memory,
                op=history.OPS[r[2]],
                path=secret.path,
                sha256=secret.sha256,
                size=secret.size,
                session_id=keys.open_who("session", seq, r[4]),
                api_key_id=keys.open_who("actor", seq, r[5]),
                created=float(r[6]),
                redacted=r[7],
                data=None if r[8] is None else keys.open_version_data(seq, memory, bytes(r[8])),
                ref=r[9],
                salt=secret.salt,
                digest=bytes(r[10]),
                link=bytes(r[11]),
            )
        if len(rows) < 512:
            return
        after = int(rows[-1][0])
