"""The Store protocol: the "hazmat" layer. It applies no policy and validates no path.

Every backend (``sqlcipher``, ``memory``, ``postgresql``) implements these two protocols and
passes the same contract suite (``tests/test_store_contract.py`` and ``tests/test_commands_contract.py``).
The rules a backend must keep, and that the layers above rely on:

1. **Isolation.** ``transaction(write=True)`` excludes every other writer of the same store, in
   this process and in every other process, from its start to its end. The quota check, the
   ``str_replace`` read-modify-write and every precondition rely on it: what a transaction read is
   still true when it writes. A read transaction sees one consistent snapshot.
2. **The clock is read inside.** ``tx.now`` is read by the backend *after* the transaction holds
   its lock, so a command that waited for the lock cannot act on a stale instant (an edit queued
   before an expiry must not land after it and revive the file).
3. **All or nothing.** If the body of ``transaction`` raises, nothing it wrote is kept.
4. **Expiry is enforced here.** An entry whose ``expires`` is at or before ``tx.now`` does not
   exist for any read; a write to its path replaces it. A directory's ``expires`` is the latest of
   its children's (``None``: never; a directory left empty keeps its own), kept exact both ways: a
   write pushes it later, and an entry that leaves (a delete, a move) or comes to expire sooner
   gives each directory whose expiry it set the latest of what remains. So an expired directory
   hides a subtree that is all expired, and a directory whose files have all expired disappears
   with them.
5. **Erasure.** Content that a transaction deletes or overwrites (a file, a replaced text, an old
   path) must stop being recoverable from the backend's files, even with the key, within
   ``erase_within`` seconds after commit, and before ``close()`` returns. How is the backend's
   business (the SQLCipher backend checkpoints and truncates its WAL; ``memory`` has no files).
6. **Aggregates.** A directory's ``size``, ``files``, ``dirs`` and ``path_bytes`` count what is
   visible below it. ``usage()`` counts everything the namespace stores, expired or not, until a
   sweep or ``purge_expired`` removes it: a quota on it bounds what is really on disk.
7. **Paths are canonical** (``securemem.paths``): the path guard ran first. Mutations receive
   the entry the caller already read, so no backend reads a row twice for one command.
8. **History.** Every mutation of a file records one immutable version (``history.py``) in the
   same transaction, with the transaction's actor: ``put_file`` a ``created`` or ``modified``,
   ``move`` a ``modified`` per moved file, ``delete`` a ``deleted`` per removed file, and expiry
   (``purge_expired``, ``sweep_batch``) an ``expired`` one, after which that memory's versions are
   redacted when the history settings say so. Two changes of one memory in one transaction make
   one version. A store's versions form a hash chain (``history.link``), so an edit of the rows
   made with the key but outside securemem shows. A version of a memory that has expired shows no
   content, hash, size or path, before any sweep.
9. **Errors** are translated at this boundary into ``securemem.errors.StorageError`` and its
   subclasses; a driver's exception never escapes.
10. **Siblings.** ``tx.sibling(namespace)`` is the same transaction seen on another (existing)
   namespace: the same lock, the same ``now`` and actor, one commit or one rollback for both. A
   session with several stores moves a file between two of them in one transaction, so the move
   happens whole or not at all (rule 3 holds across the namespaces it touched).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from securemem.errors import StorageError
from securemem.paths import parent_of

Clock = Callable[[], float]
Skip = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class Entry:
    """Metadata of one file or directory (never its content)."""

    path: str
    is_dir: bool
    size: int  # bytes of a file; for a directory, the bytes of the visible files below it
    lines: int  # lines of a file; 0 for a directory
    files: int  # 1 for a file; for a directory, the visible files below it
    dirs: int  # 0 for a file; for a directory, the visible directories below it
    path_bytes: int  # UTF-8 bytes of this path plus, for a directory, of every visible path below
    created: float
    modified: float
    accessed: float
    expires: float | None  # None: never expires
    memory: int = 0  # a file's memory number: kept across edits and moves, never reused (0: a directory)

    @property
    def entries(self) -> int:
        """This entry and everything below it."""
        return 1 + self.files + self.dirs - (0 if self.is_dir else 1)


@dataclass(frozen=True, slots=True)
class Usage:
    """What one namespace stores: content bytes, path text, files and directories, and the text its
    history keeps (every version's content, until redacted)."""

    content_bytes: int
    path_bytes: int
    files: int
    dirs: int
    history_bytes: int = 0

    @property
    def bytes(self) -> int:
        """Everything stored that a model controls: file contents, the text of every path, and the
        text of past versions (an agent that edits in a loop grows the history, not the files)."""
        return self.content_bytes + self.path_bytes + self.history_bytes

    @property
    def entries(self) -> int:
        return self.files + self.dirs


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes the changes of a transaction: recorded on every version it creates."""

    session_id: str | None = None
    api_key_id: str | None = None


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """One store (a namespace) of a deployment: its public id, unique name and description."""

    key: int  # the backend's own number for it
    id: str  # "memstore_..."
    name: str
    description: str
    created: float
    updated: float


@dataclass(frozen=True, slots=True)
class VersionRow:
    """One immutable version of a memory (``op``: created, modified, deleted, expired, redaction).

    ``path``, ``sha256``, ``size`` and ``data`` are None once redacted; ``data`` is also None for a
    deletion and when the history keeps no content. ``salt``, ``digest`` and ``link`` tie the row
    into its store's hash chain (``securemem.store.history``); ``ref`` is the version a redaction
    event redacted.
    """

    seq: int
    memory: int
    op: str
    path: str | None
    sha256: bytes | None
    size: int | None
    session_id: str | None
    api_key_id: str | None
    created: float
    redacted: float | None
    data: bytes | None = None
    ref: int | None = None
    salt: bytes | None = None
    digest: bytes = b""
    link: bytes = b""
    total: int | None = None  # the store's history total after this row, where the backend keeps it
    malformed: str | None = None  # a column the backend read held a value of another type (the chain check names it)


@dataclass(frozen=True, slots=True)
class VersionQuery:
    """A page of a store's versions, newest first: ``before`` is the seq the last page ended at."""

    limit: int
    before: int | None = None
    memory: int | None = None
    ops: tuple[str, ...] | None = None
    session_id: str | None = None
    api_key_id: str | None = None
    created_gte: float | None = None
    created_lte: float | None = None


class StoreTx(Protocol):
    """One transaction on one namespace, at the instant ``now`` (read once the lock was taken)."""

    @property
    def now(self) -> float: ...

    @property
    def store_key(self) -> int:
        """The number of the store the transaction is on (``StoreInfo.key``), negative when a read
        found no store of its name: a session that found its store by name stays bound to it by this."""
        ...

    # -- reads ------------------------------------------------------------------------------
    def stat(self, path: str) -> Entry | None:
        """The visible entry at ``path`` (the root always exists), or None."""
        ...

    def get(self, path: str) -> tuple[Entry, bytes | None] | None:
        """A visible entry and, for a file, its content, in one read; None when missing."""
        ...

    def tree(self, path: str, depth: int, skip: Skip, limit: int | None = None) -> list[Entry]:
        """Visible entries below ``path`` down to ``depth`` levels, depth first, sorted by name.

        ``skip(name)`` hides an entry and everything below it. With ``limit`` the walk stops after
        ``limit + 1`` entries, so a caller that shows ``limit`` rows learns there are more without
        reading a huge directory it would cut anyway.
        """
        ...

    def ancestry(self, path: str) -> Ancestry:
        """``path``'s entry and what stands on the way to it, in one read."""
        ...

    def usage(self) -> Usage:
        """Everything the namespace stores, expired-but-unswept entries included."""
        ...

    def memory(self, number: int) -> tuple[Entry, bytes] | None:
        """The visible file whose memory number is ``number``, with its content; None if none."""
        ...

    def files(self, prefix: str, after: str | None, limit: int) -> list[tuple[Entry, bytes]]:
        """Visible files whose path starts with ``prefix`` and sorts after ``after``, in path order
        (code point order, which is UTF-8 byte order), with their content."""
        ...

    def versions(self, query: VersionQuery) -> list[VersionRow]:
        """Up to ``query.limit`` versions of this namespace, newest first, without content."""
        ...

    def version(self, seq: int) -> VersionRow | None:
        """One version of this namespace, with its content (None: no such version here)."""
        ...

    def redact(self, seq: int) -> None:
        """Erase a version's path, hash, size and content (rule 5), and chain a redaction event."""
        ...

    # -- writes (only in a write transaction) ------------------------------------------------
    def put_file(
        self, path: str, data: bytes, lines: int, expires: float | None, old: Entry | None, *, memory: int = 0
    ) -> None:
        """Create (``old`` None) or replace the file at ``path``, making missing parents.

        Missing parent directories and every ancestor take an expiry no earlier than ``expires``.
        A new file gets a new memory number, or ``memory`` (a deleted memory restored).
        """
        ...

    def delete(self, path: str, entry: Entry) -> None:
        """Delete the file or the directory (with everything below it) at ``path``."""
        ...

    def move(self, old: str, new: str, entry: Entry, expiries: Mapping[str, float | None]) -> None:
        """Move a file or a subtree; the caller checked that ``new`` is free and not below ``old``.

        ``expiries`` maps each moved file's new path to its new expiry (a move restamps expiry).
        """
        ...

    def touch(self, path: str, expires: float | None) -> None:
        """Record an access: the access time and the expiry a read refreshes (ancestors follow)."""
        ...

    def set_expiry(self, path: str, expires: float | None) -> None:
        """Change an entry's expiry (a policy adopted later; ancestors follow)."""
        ...

    def purge_expired(self, limit: int, *, memory: int | None = None) -> int:
        """Delete up to ``limit`` of this namespace's expired entries now; the number removed.

        ``memory``: the expired file holding that memory number goes too, wherever the batch ends
        (a restore frees the number of a memory that expired unswept).

        Bounded, because it runs inside a command's transaction: a pile of expired entries is a
        sweep's work, in batches, not one write's.
        """
        ...

    def make_dir(self, path: str, expires: float | None) -> None:
        """Make an empty directory at ``path``, where nothing visible is, and its missing parents.

        A file moved to another store is written there with ``put_file``; an empty directory
        moved with it needs this (the memory tool itself never makes one alone).
        """
        ...

    # -- other namespaces --------------------------------------------------------------------
    def sibling(self, namespace: str, *, store_key: int | None = None) -> StoreTx:
        """This transaction on another existing namespace (rule 10), named, or given by its number
        (``store_key``: a store renamed meanwhile is still the same one); ``MissingStore`` if none."""
        ...


@dataclass(frozen=True, slots=True)
class Ancestry:
    entry: Entry | None  # the visible entry at the path itself
    blocking_file: str | None  # the first visible ancestor that is a file
    missing_dirs: tuple[str, ...]  # ancestors that do not exist (or are expired), root first


class Store(Protocol):
    """A backend holding every namespace of one deployment."""

    @property
    def store_id(self) -> str:
        """A stable random id of this store, chosen at creation."""
        ...

    @property
    def token_key(self) -> bytes:
        """The secret that keyed PII tokens and log digests are made with; kept inside the store."""
        ...

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
    ) -> AbstractContextManager[StoreTx]:
        """A transaction on ``namespace``; a write makes a missing one, unless ``create`` is False
        (then ``MissingStore``: an admin call on a store deleted or renamed meanwhile). ``history``:
        what the versions of this transaction keep (the caller's policy; default: ``configure``'s).
        ``store_key``: the store by its number (``StoreInfo.key``) rather than its name, which an
        operator may change or give to another store meanwhile; ``MissingStore`` if it is gone."""
        ...

    def namespaces(self) -> list[str]: ...

    # -- stores (namespaces with a public id, a name and a description) -----------------------
    def list_stores(self, after: int | None, limit: int) -> list[StoreInfo]:
        """Stores in creation order, after the one numbered ``after``."""
        ...

    def find_store(self, *, store_id: str | None = None, name: str | None = None) -> StoreInfo | None: ...

    def create_store(self, name: str, description: str, now: float) -> StoreInfo | None:
        """A new store; None when the name is taken."""
        ...

    def update_store(self, store_id: str, name: str | None, description: str | None, now: float) -> StoreInfo | None:
        """The store renamed or re-described; raises ``NameTaken`` when the name belongs to another."""
        ...

    def chain(self, namespace: str, *, store_key: int | None = None) -> Iterator[VersionRow]:
        """Every version of a namespace in commit order, with what the chain check needs.

        With ``store_key`` (``StoreInfo.key``) the store is found by its number and ``namespace``
        is not read: a name may have passed to another store since the caller listed it."""
        ...

    def drop_namespace(self, name: str) -> bool:
        """Delete namespace ``name`` and everything in it, erased as rule 5 says; False if there was none."""
        ...

    def get_setting(self, name: str) -> str | None:
        """A store-wide setting (such as the policy the store runs under), or None."""
        ...

    def set_setting(self, name: str, value: str) -> None: ...

    def sweep_batch(self, now: float, limit: int) -> int:
        """Delete up to ``limit`` expired entries of every namespace in one short write transaction."""
        ...

    def count_expired(self, now: float) -> int: ...

    def integrity_errors(self) -> list[str]:
        """Problems the backend's own consistency checks find; empty when all is well."""
        ...

    def configure(self, *, durability: str, erase_within: float, history: History | None = None) -> None:
        """``durability`` "full" (a commit survives power loss) or "normal"; rule 5's erasure bound;
        what the history keeps (rule 8)."""
        ...

    def recount_history(self) -> None:
        """Rebuild every store's history total from its versions (a quota on total bytes adopted)."""
        ...

    def expire_history(self, now: float, before: float, limit: int) -> int:
        """Redact up to ``limit`` versions created before ``before`` that still hold content (retention)."""
        ...

    def flush_erasure(self) -> None:
        """Make every erasure due so far happen now (rule 5), waiting for readers if need be."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class History:
    """What a store keeps of past versions (from the policy's ``history`` section)."""

    versions: bool = True  # record a version for every mutation
    content: bool = True  # versions keep their content (False: metadata only)
    redact_expired: bool = True  # expiry redacts every version of what expires
    # Keep the store's running total of what its history stores (a quota on total bytes needs it;
    # without one, each write is spared its update). ``recount_history`` rebuilds it when needed.
    count: bool = True


class NameTaken(StorageError):
    """A store name is already another store's."""


class MissingStore(StorageError):
    """The store a transaction names does not exist (and was not to be made)."""


def descendants_range(path: str) -> tuple[str, str]:
    """Bounds (inclusive low, exclusive high) of every path strictly below ``path``.

    Every descendant starts with ``path + '/'``; '0' is the character after '/', so
    ``[path + '/', path + '0')`` holds exactly the descendants under binary collation.
    """
    return path + "/", path + "0"


def path_bytes(path: str) -> int:
    return len(path.encode("utf-8"))


def sooner(before: float | None, after: float | None) -> bool:
    """An entry's expiry moved earlier (``None``: never expires)."""
    return after is not None and (before is None or after < before)


def may_have_set(was: float | None, directory: float | None) -> bool:
    """Whether an entry that expired at ``was`` may be what set its directory's expiry, the latest
    below it (rule 4): if it expired sooner than the directory, something else holds it there."""
    if directory is None:  # never: only an entry that never expired held it there
        return was is None
    return was is None or was >= directory


def landing_expiries(expiries: Mapping[str, float | None]) -> dict[str, float | None]:
    """The expiry each entry a move takes lands with (rule 4), from ``expiries``, each one's own
    stamp by its new path's rule: a file or an empty directory keeps its own; a directory the
    latest of what it holds, not its own rule's deadline (a directory that a longer rule covers
    would otherwise outlive every file in it)."""
    final = dict(expiries)
    held: dict[str, list[str]] = {}
    for path in expiries:
        if parent_of(path) in expiries:
            held.setdefault(parent_of(path), []).append(path)
    for directory in sorted(held, key=lambda p: -p.count("/")):  # deepest first
        values = [final[p] for p in held[directory]]
        final[directory] = None if any(v is None for v in values) else max(v for v in values if v is not None)
    return final


def latest_of(children: int, timed: int, latest: float | None) -> float | None:
    """A directory's exact expiry from its children's: how many, how many expire, the latest."""
    return latest if timed == children else None


__all__ = [
    "Actor",
    "Ancestry",
    "Clock",
    "Entry",
    "History",
    "MissingStore",
    "NameTaken",
    "Skip",
    "Store",
    "StoreInfo",
    "StoreTx",
    "Usage",
    "VersionQuery",
    "VersionRow",
    "descendants_range",
    "landing_expiries",
    "latest_of",
    "may_have_set",
    "path_bytes",
    "sooner",
]
