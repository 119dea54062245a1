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
from dataclasses import dataclass, field, replace

from securemem.errors import StorageError
from securemem.paths import ROOT, ancestors, is_within, name_of, parent_of
from securemem.store import history
from securemem.store.base import (
    Actor,
    Ancestry,
    Clock,
    Entry,
    History,
    MissingStore,
    NameTaken,
    Skip,
    StoreInfo,
    Usage,
    VersionQuery,
    VersionRow,
    landing_expiries,
    may_have_set,
    path_bytes,
    sooner,
)
from securemem.store.history import ROW_SHARE


@dataclass(frozen=True, slots=True)
class _Node:
    is_dir: bool
    data: bytes
    lines: int
    created: float
    modified: float
    accessed: float
    expires: float | None
    memory: int = 0


def _row_bytes(row: VersionRow) -> int:
    """What a version stores, as every backend counts it against the quota."""
    return history.share(row.op, row.path, row.data)


class _Log:
    """One namespace's versions in a list, in commit order, chained as the SQL backend chains them."""

    def __init__(
        self,
        store: MemoryStore,
        rows: list[VersionRow],
        ns: int,
        now: float,
        actor: Actor,
        *,
        settings: History | None = None,
    ) -> None:
        self._store = store
        self.rows = rows
        self.ns = ns
        self.now = now
        self.actor = actor
        self.settings = settings or store.history_settings
        self._last: int | None = None  # index in rows of the version this transaction may fold into

    def _tail(self) -> tuple[bytes, float]:
        return (self.rows[-1].link, self.rows[-1].created) if self.rows else (history.genesis(self.ns), 0.0)

    def record(
        self, op: str, memory: int, path: str | None, data: bytes | None = None, *, ref: int | None = None,
        actor: Actor | None = None,
    ) -> None:  # fmt: skip
        if not self.settings.versions and op != "redaction":  # a redaction is always chained
            return
        self._append(op, memory, path, data, ref=ref, actor=actor)

    def _append(
        self, op: str, memory: int, path: str | None, data: bytes | None, *, ref: int | None, actor: Actor | None
    ) -> None:
        at = self._last
        last = None if at is None else self.rows[at]
        if (
            at is not None
            and last is not None
            and last.memory == memory
            and op == "modified"
            and last.op
            in (
                "created",
                "modified",
            )
        ):
            prev = self.rows[at - 1].link if at else history.genesis(self.ns)
            self.rows[at] = self._row(last.seq, last.op, memory, path, data, ref=ref, actor=self.actor, prev=prev)
            return
        prev, _ = self._tail()
        # Numbered as the SQL backend numbers them: the store's number, then the place in its chain.
        seq = self.rows[-1].seq + 1 if self.rows else (self.ns << history.SEQ_BITS) + 1
        self.rows.append(self._row(seq, op, memory, path, data, ref=ref, actor=actor or self.actor, prev=prev))
        self._last = len(self.rows) - 1 if op in ("created", "modified") else None

    def _row(
        self, seq: int, op: str, memory: int, path: str | None, data: bytes | None, *, ref: int | None, actor: Actor,
        prev: bytes,
    ) -> VersionRow:  # fmt: skip
        created = max(history.instant(self.now), self._tail()[1])
        return history.new_version(
            seq, op, memory, path, data, ref=ref, actor=actor, prev=prev, created=created, keep=self.settings.content
        )

    def erase(self, index: int) -> None:
        row = self.rows[index]
        self.rows[index] = replace(row, path=None, sha256=None, size=None, data=None, salt=None, redacted=self.now)

    def expired(self, files: list[tuple[int, str]]) -> None:
        if not self.settings.versions:  # only the memories that have versions (see VersionLog.expired)
            have = {row.memory for row in self.rows}
            files = [(m, p) for m, p in files if m in have]
        if not files:
            return
        erase = self.settings.redact_expired
        gone = {m for m, _ in files}
        if erase:
            for i, row in enumerate(self.rows):
                if row.memory in gone and row.redacted is None and row.op in ("created", "modified", "deleted"):
                    self.erase(i)
        for memory, path in files:
            self._last = None
            self._append(
                "expired", memory, None if erase else path, None, ref=None, actor=Actor(None, history.EXPIRY_ACTOR)
            )


def _later(current: float | None, new: float | None) -> float | None:
    return None if current is None or new is None else max(current, new)


@dataclass
class _Family:
    """The namespaces one transaction touched and, for a write, the state of each before it began."""

    write: bool
    now: float
    actor: Actor
    history: History
    txs: dict[str, MemoryTx] = field(default_factory=dict)
    saved: list[tuple[dict[str, _Node], dict[str, _Node], list[VersionRow], list[VersionRow]]] = field(
        default_factory=list
    )

    def rollback(self) -> None:
        """Rule 3 across namespaces: each one touched goes back to what it was."""
        for space, before, rows, rows_before in self.saved:
            space.clear()
            space.update(before)
            rows[:] = rows_before

    def close(self) -> None:
        # Each tx refers back to its family: without this the saved copies of every namespace
        # would wait for the cycle collector, which then scans them all (a write cost 4x more).
        self.txs.clear()
        self.saved.clear()


class MemoryTx:
    def __init__(self, store: MemoryStore, space: dict[str, _Node], now: float, log: _Log, family: _Family) -> None:
        self._store = store
        self._space = space
        self.now = now
        self.log = log
        self._family = family

    @property
    def store_key(self) -> int:
        return self.log.ns

    def sibling(self, namespace: str, *, store_key: int | None = None) -> MemoryTx:
        name = namespace if store_key is None else self._store.name_of(store_key)
        if name is None or self._store.find_store(name=name) is None:
            raise MissingStore("the store does not exist (it was deleted)")
        return self._store.join(name, self._family)

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
            node.memory,
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
        history = sum(_row_bytes(r) for r in self.log.rows)  # kept history counts with versions off too
        reserved = files * ROW_SHARE if self.log.settings.versions else 0  # each file's future deletion
        return Usage(content, pbytes, files, dirs, history + reserved)

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
                self.log.expired(self._files_at(link))
                self._drop(link)
                break
        return [a for a in ancestors(path) if a not in self._space]

    def _make_dirs(self, dirs: list[str], expires: float | None) -> None:
        for directory in dirs:
            when = None if directory == ROOT else expires
            self._space[directory] = _Node(True, b"", 0, self.now, self.now, self.now, when)

    def put_file(
        self, path: str, data: bytes, lines: int, expires: float | None, old: Entry | None, *, memory: int = 0
    ) -> None:
        if old is None:
            self._make_dirs(self._make_room(path), expires)
            number = memory or self._store.next_memory()
            self._space[path] = _Node(False, bytes(data), lines, self.now, self.now, self.now, expires, number)
            self.log.record("created", number, path, bytes(data))
        else:
            node = self._space[path]
            self._space[path] = replace(
                node, data=bytes(data), lines=lines, modified=self.now, accessed=self.now, expires=expires
            )
            self.log.record("modified", node.memory, path, bytes(data))
        self._bump(path, expires)
        if old is not None and sooner(old.expires, expires):  # a rule made it expire sooner
            self._refit(path, old.expires)

    def _files_at(self, path: str) -> list[tuple[int, str]]:
        node = self._space.get(path)
        found = [(p, n) for p, n in self._below(path)] + ([(path, node)] if node is not None else [])
        return sorted((n.memory, p) for p, n in found if not n.is_dir)

    def delete(self, path: str, entry: Entry) -> None:
        files = self._files_at(path)
        lapsed = [(m, p) for m, p in files if not self._visible(self._space[p])]  # expiry took these, not the delete
        self.log.expired(lapsed)
        for memory, gone in files:
            if (memory, gone) not in lapsed:
                self.log.record("deleted", memory, gone)
        was = self._space[path].expires
        self._drop(path)
        for above in ancestors(path):
            self._space[above] = replace(self._space[above], modified=self.now)
        self._refit(path, was)

    def _refit(self, path: str, was: float | None) -> None:
        """Rule 4 kept exact (as ``SqlTx._refit``): the entry at ``path``, which expired at ``was``,
        left its directory or expires sooner; each directory whose expiry it may have set, deepest
        first, takes the latest of its children's, until one keeps its own."""
        for directory in reversed(ancestors(path)):
            node = self._space.get(directory)
            if directory == ROOT or node is None or not may_have_set(was, node.expires):
                return
            below = [n.expires for p, n in self._below(directory) if parent_of(p) == directory]
            exact = _max(below)
            if not below or exact == node.expires:
                return
            self._space[directory] = replace(node, expires=exact)
            was = node.expires

    def move(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        for below, node in list(self._below(old)):
            if below in self._space and not self._visible(node):
                self.log.expired(self._files_at(below))
                self._drop(below)
        missing = self._make_room(new)
        final = landing_expiries(expiries)
        latest = final.get(new, self._space[old].expires)  # what the landing place's ancestors outlive
        self._make_dirs(missing, latest)
        moving = [(p, n) for p, n in self._space.items() if is_within(p, old)]
        was = self._space[old].expires
        for path, _ in moving:
            del self._space[path]
        for path, node in moving:  # a move is a write of everything it takes (their expiry counts from it)
            self._space[new + path[len(old) :]] = replace(node, modified=self.now)
        for path, node in sorted(moving):
            if not node.is_dir:
                self.log.record("modified", node.memory, new + path[len(old) :], node.data)
        self._space[new] = replace(self._space[new], modified=self.now)
        for path, expires in final.items():
            self._space[path] = replace(self._space[path], expires=expires)
        for above in ancestors(old):
            if above in self._space:
                self._space[above] = replace(self._space[above], modified=self.now)
        self._bump(new, latest)
        self._refit(old, was)

    def make_dir(self, path: str, expires: float | None) -> None:
        self._make_dirs([*self._make_room(path), path], expires)
        self._bump(path, expires)

    def touch(self, path: str, expires: float | None) -> None:
        was = self._space[path].expires
        self._space[path] = replace(self._space[path], accessed=self.now, expires=expires)
        self._bump(path, expires, modified=False)
        if sooner(was, expires):
            self._refit(path, was)

    def set_expiry(self, path: str, expires: float | None) -> None:
        was = self._space[path].expires
        self._space[path] = replace(self._space[path], expires=expires)
        self._bump(path, expires, modified=False)
        if sooner(was, expires):
            self._refit(path, was)

    def purge_expired(self, limit: int, *, memory: int | None = None) -> int:
        gone = sorted(p for p, n in self._space.items() if not self._visible(n))
        expired = [p for p in gone if memory is not None and self._space[p].memory == memory]
        expired += [p for p in gone[:limit] if p not in expired]
        self.log.expired(sorted((self._space[p].memory, p) for p in expired if not self._space[p].is_dir))
        for path in expired:
            self._space.pop(path, None)
        return len(expired)

    # -- memories and versions -------------------------------------------------------------

    def memory(self, number: int) -> tuple[Entry, bytes] | None:
        for path, node in self._space.items():
            if node.memory == number and not node.is_dir and self._visible(node):
                return self._entry(path, node), node.data
        return None

    def files(self, prefix: str, after: str | None, limit: int) -> list[tuple[Entry, bytes]]:
        paths = sorted(
            p
            for p, n in self._space.items()
            if not n.is_dir and self._visible(n) and p.startswith(prefix) and p > (after or "")
        )  # str order is code point order, which is the UTF-8 byte order the SQL backend sorts by
        return [(self._entry(p, self._space[p]), self._space[p].data) for p in paths[:limit]]

    def _hidden(self, row: VersionRow) -> bool:
        if not self.log.settings.redact_expired:
            return False
        for node in self._space.values():
            if node.memory == row.memory and not node.is_dir:
                return node.expires is not None and node.expires <= self.now
        return False

    def _shown(self, row: VersionRow, content: bool) -> VersionRow:
        if self._hidden(row):
            return replace(row, path=None, sha256=None, size=None, data=None)
        return row if content else replace(row, data=None)

    def versions(self, query: VersionQuery) -> list[VersionRow]:
        codes = None if query.ops is None else {o for op in query.ops for o in history.PUBLIC_OPS[op]}
        out: list[VersionRow] = []
        for row in reversed(self.log.rows):
            if len(out) >= query.limit:
                break
            if row.op == "redaction" or (query.before is not None and row.seq >= query.before):
                continue
            if (
                (query.memory is not None and row.memory != query.memory)
                or (codes is not None and row.op not in codes)
                or (query.session_id is not None and row.session_id != query.session_id)
                or (query.api_key_id is not None and row.api_key_id != query.api_key_id)
                or (query.created_gte is not None and row.created < query.created_gte)
                or (query.created_lte is not None and row.created > query.created_lte)
            ):
                continue
            out.append(self._shown(row, content=False))
        return out

    def version(self, seq: int) -> VersionRow | None:
        for row in self.log.rows:
            if row.seq == seq and row.op != "redaction":
                return self._shown(row, content=True)
        return None

    def redact(self, seq: int) -> None:
        for index, row in enumerate(self.log.rows):
            if row.seq == seq and row.op != "redaction":
                self.log.erase(index)
                self.log._last = None
                self.log.record("redaction", row.memory, None, ref=seq)
                return


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
        self._stores: dict[str, StoreInfo] = {}  # name -> store
        self._versions: dict[int, list[VersionRow]] = {}  # store number -> its versions
        self._counters = {"memory": 0, "store": 0}
        self.history_settings = History()
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

    def next_memory(self) -> int:
        self._counters["memory"] += 1
        return self._counters["memory"]

    def _new_store(self, name: str, description: str, now: float) -> StoreInfo:
        self._counters["store"] += 1
        info = StoreInfo(self._counters["store"], "memstore_" + secrets.token_hex(12), name, description, now, now)
        self._stores[name] = info
        self._spaces[name] = {}
        self._versions[info.key] = []
        return info

    @contextmanager
    def transaction(
        self,
        namespace: str,
        *,
        write: bool,
        clock: Clock,
        actor: Actor | None = None,
        create: bool = True,
        history: History | None = None,
        store_key: int | None = None,
    ) -> Iterator[MemoryTx]:
        with self._lock:
            if self._closed:
                raise StorageError("the memory store is closed")
            if store_key is not None:
                found = self.name_of(store_key)
                if found is None:
                    raise MissingStore("the store does not exist (it was deleted)")
                namespace, create = found, False
            now = clock()
            if write and not create and namespace not in self._stores:
                raise MissingStore("the store does not exist (it was deleted)")
            made = write and namespace not in self._stores
            if made:
                self._new_store(namespace, "", now)
            family = _Family(write, now, actor or Actor(), history or self.history_settings)
            try:
                yield self.join(namespace, family)
            except BaseException:
                family.rollback()
                if made:
                    self._drop(namespace)
                raise
            finally:
                family.close()

    def join(self, namespace: str, family: _Family) -> MemoryTx:
        """The transaction of ``family`` on ``namespace``; a write one keeps the namespace's state to roll back to."""
        if namespace in family.txs:
            return family.txs[namespace]
        info = self._stores.get(namespace)
        space = self._spaces.get(namespace, {})
        rows = self._versions.get(info.key, []) if info is not None else []
        if family.write:
            family.saved.append((space, dict(space), rows, list(rows)))
        log = _Log(self, rows, info.key if info else -1, family.now, family.actor, settings=family.history)
        family.txs[namespace] = MemoryTx(self, space, family.now, log, family)
        return family.txs[namespace]

    def namespaces(self) -> list[str]:
        with self._lock:
            return sorted(self._spaces)

    def _drop(self, name: str) -> bool:
        info = self._stores.pop(name, None)
        self._spaces.pop(name, None)
        if info is not None:
            self._versions.pop(info.key, None)
        return info is not None

    def drop_namespace(self, name: str) -> bool:
        with self._lock:
            return self._drop(name)

    def name_of(self, key: int) -> str | None:
        return next((s.name for s in self._stores.values() if s.key == key), None)

    def list_stores(self, after: int | None, limit: int) -> list[StoreInfo]:
        with self._lock:
            found = sorted((s for s in self._stores.values() if s.key > (after or 0)), key=lambda s: s.key)
            return found[:limit]

    def find_store(self, *, store_id: str | None = None, name: str | None = None) -> StoreInfo | None:
        with self._lock:
            if name is not None:
                return self._stores.get(name)
            return next((s for s in self._stores.values() if s.id == store_id), None)

    def create_store(self, name: str, description: str, now: float) -> StoreInfo | None:
        with self._lock:
            return None if name in self._stores else self._new_store(name, description, now)

    def update_store(self, store_id: str, name: str | None, description: str | None, now: float) -> StoreInfo | None:
        with self._lock:
            info = self.find_store(store_id=store_id)
            if info is None:
                return None
            if name is not None and name != info.name and name in self._stores:
                raise NameTaken("a store with that name exists")
            new = replace(
                info,
                name=name or info.name,
                description=info.description if description is None else description,
                updated=now,
            )
            del self._stores[info.name]
            self._stores[new.name] = new
            self._spaces[new.name] = self._spaces.pop(info.name)
            return new

    def chain(self, namespace: str, *, store_key: int | None = None) -> Iterator[VersionRow]:
        with self._lock:
            if store_key is None:
                info = self._stores.get(namespace)
                store_key = info.key if info is not None else None
            rows = list(self._versions.get(store_key, [])) if store_key is not None else []
        yield from rows

    def recount_history(self) -> None:
        return None  # totals are computed from the versions each time

    def expire_history(self, now: float, before: float, limit: int) -> int:
        done = 0
        with self._lock:
            for info in list(self._stores.values()):
                log = _Log(self, self._versions[info.key], info.key, now, Actor(None, history.EXPIRY_ACTOR))
                for row in list(log.rows):
                    if done >= limit:
                        return done
                    if (
                        row.created < before
                        and row.redacted is None
                        and row.path is not None
                        and row.op != "redaction"  # an expiry that kept its path (redact_expired off) too
                    ):
                        index = next(i for i, r in enumerate(log.rows) if r.seq == row.seq)
                        log.erase(index)
                        log._last = None
                        log.record("redaction", row.memory, None, ref=row.seq)
                        done += 1
        return done

    def get_setting(self, name: str) -> str | None:
        return self._settings.get(name)

    def set_setting(self, name: str, value: str) -> None:
        self._settings[name] = value

    def sweep_batch(self, now: float, limit: int) -> int:
        with self._lock:
            done = 0
            for name, space in self._spaces.items():
                expired = sorted(p for p, n in space.items() if n.expires is not None and n.expires <= now)
                info = self._stores[name]
                log = _Log(self, self._versions[info.key], info.key, now, Actor())
                log.expired(sorted((space[p].memory, p) for p in expired[: limit - done] if not space[p].is_dir))
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

    def configure(self, *, durability: str, erase_within: float, history: History | None = None) -> None:
        del durability, erase_within  # nothing to make durable, nothing to erase later
        if history is not None:
            self.history_settings = history

    def close(self) -> None:
        self._closed = True
