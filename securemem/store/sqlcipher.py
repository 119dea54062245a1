"""The default Store: one SQLCipher 4 file (through ``sqlcipher3``, the only module that imports it).

Choices and why:
- Fail closed. The stdlib ``sqlite3`` accepts ``PRAGMA key`` and silently writes plaintext, so we
  never fall back to it, check ``PRAGMA cipher_version`` after keying, refuse a file whose header
  is plain SQLite's, and check the header again after creating a store.
- Files are 0600 from their first byte: the store file is created by us (``O_EXCL``, mode 0600)
  before SQLite opens it, and SQLite gives its ``-wal`` and ``-shm`` files the store file's mode.
  Side files left with another mode (a read under ``chmod 400``) are set back to the store's.
- The key is ``x'<key><salt>'``: hex we build from the KeyProvider's bytes, never user text in a
  PRAGMA. The 16-byte salt sits in clear at the head of the file; a re-key writes a fresh one, so
  another process whose pages stop decrypting can tell "re-keyed" from "damaged".
- WAL with ``synchronous = FULL``: a committed command survives power loss (NORMAL would not in
  WAL mode). Every transaction, reads included, starts with ``BEGIN IMMEDIATE``: writers never
  deadlock on a lock upgrade, and no stream of readers can starve the checkpoint that erases.
- Erasure (rule 5 of ``store/base.py``): ``secure_delete = ON`` zeroes deleted cells and freed
  pages, but the old page images stay in the main file until a checkpoint and in the WAL until it
  is reset, and pages SQLite rebuilt while rebalancing keep old cells in their unused gap. After a
  commit that freed content, ``_Eraser`` runs ``wal_checkpoint(TRUNCATE)`` and then scrubs those
  gaps (``store/pages.py``) within ``erase_within`` seconds (a checkpoint that answers "busy" is
  retried, never dropped); ``close`` runs it at once, and an open erases whatever a crash left.
- ``cipher_log_level = NONE``: SQLCipher otherwise writes key-check failures to stderr.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import logging
import os
import signal
import stat
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

import sqlcipher3

from securemem.errors import (
    DamagedStoreError,
    NotAStoreError,
    RekeyedError,
    StorageError,
    StoreBusyError,
    StoreFullError,
    WrongKeyError,
)
from securemem.keys import SALT_BYTES, KeyProvider
from securemem.private_files import create_private
from securemem.store import pages, sqlschema
from securemem.store.base import Actor, Clock, History, MissingStore, NameTaken, StoreInfo, VersionRow
from securemem.store.history import EXPIRY_ACTOR, OP_CODE
from securemem.store.keylock import awaited_key_change
from securemem.store.sqltx import SqlTx, count_expired, expired_batch, purge_rows, remember_numbers
from securemem.store.sqlversions import Tail, VersionLog, chain_rows, recount, seq_range
from securemem.threads import QuietTimer, quiet

PLAIN_SQLITE_HEADER = b"SQLite format 3\x00"
DURABILITY = {"full": "FULL", "normal": "NORMAL"}
# SQLite's files beside the store, and the journal of securemem's scrub (pages.JOURNAL_SUFFIX): each is
# read as the store's own and removed, so no key, export or other store may be put at one.
SIDE_FILES = ("-wal", "-shm", "-journal", pages.JOURNAL_SUFFIX)
# The WAL's room: a checkpoint that erases empties the WAL (TRUNCATE: no old frame may outlive an
# erasure), then fills it with zeros for what its last generation used (see _room_for), so that later
# commits overwrite rather than append (an fsync after an append must also commit the file's new size,
# a journal write in ext4: a fifth more per commit on the disks measured). Once the WAL's generation
# reaches COMPACT_FRAMES frames, a checkpoint runs at once in the background, before the commits
# outgrow the room; not sooner, since each checkpoint costs a few fsyncs whatever it copies. When
# the handle has nothing to erase, that checkpoint restarts the WAL instead (``_keep_in_room``): the
# file keeps its size, and most of the copy is made before the lock is taken (``_precopy``).
ROOM_FRAMES = 4000
MIN_ROOM_FRAMES = 64
ROOM_PER_COMMIT = 16  # frames of room per commit of the last generation, at most (see _room_for)
COMPACT_FRAMES = 3000
PROBE_EVERY = 8  # write commits between two looks at the WAL's frames (most add fewer than 100)
_POLL_MS = 2  # SQLite's own wait for a lock, between two of ours
_PRECOPY_PASSES, _PRECOPY_LEFT = 4, 32  # _precopy: at most 4 passes, until 32 frames or fewer remain
logger = logging.getLogger("securemem.store")

# SQLite's primary result codes (the low byte of an extended code).
BUSY_TIMEOUT = 10.0  # seconds a command waits for another connection's write before it says "busy"
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _CONSTRAINT, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 19, 26
_NOBODY = Actor()
_REDACTION_OP = OP_CODE["redaction"]
_RETENTION_BLOCK = 512  # versions a retention reads at a time


class _Known:
    """What this handle learnt of the file, true for as long as no other connection commits.

    ``PRAGMA data_version`` changes exactly when another connection (of any process) has
    committed since this one last looked; read once a transaction holds its lock, it tells
    whether what this handle learnt from the file, and wrote to it itself, still holds. Each
    command is then spared the lookups that would only confirm it: that its store still exists,
    its chain's newest row (the link and the history total a write starts from), and the
    policy the store records.
    """

    __slots__ = ("debt", "live", "settings", "stores", "tails", "version")

    def __init__(self) -> None:
        self.live = False  # a command's transaction is open and checked: the cache may answer
        self.version: int | None = None
        self.stores: set[int] = set()  # store numbers seen to exist
        self.tails: dict[int, Tail] = {}  # store number -> its chain's newest row
        self.settings: dict[str, str | None] = {}
        self.debt = False  # the store records that freed content awaits its scrub (``_note_debt``)

    def check(self, conn: sqlcipher3.Connection | sqlcipher3.Cursor) -> bool:
        """Inside a transaction: forget everything if another connection committed meanwhile (True)."""
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        self.live = True
        if version == self.version:
            return False
        self.forget()
        self.live, self.version = True, version
        return True

    def forget(self) -> None:
        """After this handle changed the file outside a command's transaction (or cannot tell)."""
        self.version = None
        self.stores.clear()
        self.tails.clear()
        self.settings.clear()
        self.debt = False

    def learn(self, tx: SqlTx) -> None:
        """After a commit: what the transaction read and wrote is the file's state now."""
        for member in tx.family.values() if tx.family is not None else (tx,):
            if member.ns >= 0:
                self.stores.add(member.ns)
            if member.log.tail is not None:
                self.tails[member.ns] = member.log.tail


_T = TypeVar("_T")
_STORE_COLS = "id, public_id, name, description, created, updated"
_STORE_EXISTS = "SELECT 1 FROM stores WHERE id = ?"
# An erasure a closed handle could not make (``erase_due``), or one a handle is still to make, with
# its deadline, in case it crashed (``scrub_due``, see ``_note_debt``): an open makes both.
_OWED = "SELECT key, value FROM meta WHERE key IN ('erase_due', 'scrub_due')"
_SCRUB_DUE = "SELECT value FROM meta WHERE key = 'scrub_due'"
_READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)
MAX_ERASE_WITHIN = 3600.0  # the policy's longest erasure bound (storage.erase_within)
OVERDUE_GRACE = 1.0  # seconds past a debt's deadline before another handle takes it over
_NOTE = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


# A row whose pages decrypt but whose values are not of the schema's types (written with the key
# by something other than securemem): reading it fails in Python, and that is damage, not a bug.
_DECODING = (TypeError, ValueError, AttributeError, IndexError, KeyError, OverflowError, UnicodeError)
_NUMBER = "('integer', 'real')"
_ROW_TYPES = (
    (
        "entries",
        "typeof(parent) != 'text' OR typeof(name) != 'text' OR typeof(id) != 'integer' OR typeof(is_dir) != 'integer' "
        "OR typeof(size) != 'integer' OR typeof(lines) != 'integer' OR typeof(files) != 'integer' "
        "OR typeof(dirs) != 'integer' OR typeof(pbytes) != 'integer' OR typeof(created) NOT IN " + _NUMBER + " "
        "OR typeof(modified) NOT IN " + _NUMBER + " OR typeof(accessed) NOT IN " + _NUMBER + " "
        "OR (expires IS NOT NULL AND typeof(expires) NOT IN " + _NUMBER + ")",
    ),
    ("content", "typeof(data) != 'blob' OR (head IS NOT NULL AND typeof(head) != 'integer')"),
    (
        "versions",
        "typeof(memory) != 'integer' OR typeof(op) != 'integer' OR typeof(created) NOT IN " + _NUMBER + " "
        "OR typeof(digest) != 'blob' OR typeof(link) != 'blob' OR (data IS NOT NULL AND typeof(data) != 'blob') "
        "OR (sha IS NOT NULL AND typeof(sha) != 'blob') OR (path IS NOT NULL AND typeof(path) != 'text') "
        "OR (size IS NOT NULL AND typeof(size) != 'integer')",
    ),
    (
        "stores",
        "typeof(name) != 'text' OR typeof(public_id) != 'text' OR typeof(description) != 'text' "
        "OR typeof(created) NOT IN " + _NUMBER + " OR typeof(updated) NOT IN " + _NUMBER,
    ),
    ("meta", "typeof(key) != 'text' OR typeof(value) != 'text'"),
)


def _misshapen(conn: sqlcipher3.Connection) -> str | None:
    """The first table holding a row of the wrong type, or None (then a failure is a bug, not damage)."""
    for table, wrong in _ROW_TYPES:
        try:
            if conn.execute(f"SELECT 1 FROM {table} WHERE {wrong} LIMIT 1").fetchone() is not None:
                return table
        except sqlcipher3.Error:
            return table
    return None


def _store_info(row: Any) -> StoreInfo:
    return StoreInfo(int(row[0]), str(row[1]), str(row[2]), str(row[3]), float(row[4]), float(row[5]))


def _code(exc: sqlcipher3.Error) -> int:
    return int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def translate(exc: sqlcipher3.Error) -> StorageError:
    """Map a driver error to the project's error tree by its result code (no SQL, no key material)."""
    code = _code(exc)
    if code in (_BUSY, _LOCKED):
        return StoreBusyError("the memory store is busy (another writer holds it); try again shortly")
    if code == _FULL:
        return StoreFullError("the memory store is full (disk or page limit reached); free space and retry")
    if code in (_NOTADB, _CORRUPT):
        return DamagedStoreError("the memory store is damaged (a page failed its integrity check)")
    if code == _READONLY:
        return StorageError("the memory store file is read-only; check its permissions")
    if code == _CANTOPEN:
        return StorageError("the memory store file cannot be opened; check the path and permissions")
    if code == _IOERR:
        # What a write refused by the OS becomes (file size limit, immutable file, failing disk).
        return StorageError(
            "the memory store file could not be read or written (disk I/O error); check "
            "the disk, its free space, file size limits and the file's permissions"
        )
    return StorageError(f"storage error ({type(exc).__name__})")


def _header(path: Path) -> bytes:
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        # A FIFO would block the open until some writer came, a device would be read as a store.
        raise NotAStoreError(f"{path} is not a regular file, not a securemem store")
    try:
        with path.open("rb") as handle:
            return handle.read(16)
    except IsADirectoryError:
        raise NotAStoreError(f"{path} is a directory, not a securemem store") from None
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}") from None


def _check_existing(path: Path) -> bytes:
    header = _header(path)
    if not header:
        raise NotAStoreError(f"{path} is an empty file, not a securemem store")
    if header == PLAIN_SQLITE_HEADER:
        raise NotAStoreError(
            f"{path} is an unencrypted SQLite database, not a securemem store "
            "(securemem never opens plaintext databases)"
        )
    if len(header) < SALT_BYTES:
        raise NotAStoreError(f"{path} is too short to be a securemem store")
    return header


def _create_file(path: Path) -> int | None:
    """The empty store file, 0600 from its first byte (SQLite copies its mode to -wal and -shm), and
    a descriptor of it holding the creation lock: an exclusive ``flock`` that other processes opening
    the file wait for (``_await_creation``) until its schema is committed. ``flock`` locks are apart
    from the POSIX locks SQLite takes, so the two never meet. None if another process created the
    file first."""
    if not path.parent.is_dir():
        raise StorageError(f"cannot create {path}: its directory does not exist")
    if not os.access(path.parent, os.W_OK):
        raise StorageError(f"the directory {path.parent} is read-only: cannot create the store there")
    try:
        fd = create_private(path)
    except FileExistsError:
        return None  # another process created it an instant ago: it is opened as it is
    except OSError as exc:
        raise StorageError(f"cannot create {path}: {exc.strerror}") from None
    with contextlib.suppress(OSError):  # a file system without flock: the others' second look still helps
        fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


_NEWBORN_WAIT = 0.05  # an empty file is looked at again after this: its creator may not hold its lock yet


def _await_creation(path: Path, timeout: float) -> None:
    """Wait, up to ``timeout`` seconds, for a process creating the store at ``path`` to finish.

    Several workers may open a store that does not exist yet at once: one creates it, and the
    others must not take the file for "not a store" while it is still empty or its schema is not
    committed. They wait for its creation lock (see ``_create_file``); a file still empty after that
    is looked at once more, later, since its creator may have made it an instant before taking the
    lock. Anything but a regular file, or a file that cannot be opened, is left to ``_header``.
    """
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return
    try:
        for attempt in range(2):
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        return  # the checks that follow say what the file is
                    time.sleep(0.005)
                except OSError:
                    return  # no flock here
            fcntl.flock(fd, fcntl.LOCK_UN)
            if attempt or os.fstat(fd).st_size > 0:
                return
            time.sleep(_NEWBORN_WAIT)
    finally:
        os.close(fd)


def _align_side_files(path: Path) -> None:
    """Give -wal and -shm the store file's mode (a read under chmod 400 leaves a 0400 -shm behind)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    for suffix in SIDE_FILES:
        side = Path(f"{path}{suffix}")
        with contextlib.suppress(OSError):
            if stat.S_IMODE(side.stat().st_mode) != mode:
                os.chmod(side, mode)


def _size(path: str | Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def wal_bytes(frames: int) -> int:
    """The size of a WAL of ``frames`` frames (its header, then each frame's header and page)."""
    return pages.WAL_HEADER + frames * (pages.FRAME_HEADER + pages.PAGE)


def _room_for(wal: str | Path) -> int:
    """The room to give the WAL once a checkpoint empties it: what its generation used, a quarter
    more, at least MIN_ROOM_FRAMES and at most ROOM_FRAMES frames (a store that erases after each
    small commit zeroes little; one in a burst of writes gets room for the next burst).

    Room pays per commit (each one that lands in it saves the journal write of an append) and
    costs per frame (zeroed and synced at the checkpoint): past ROOM_PER_COMMIT frames for each
    commit of the generation it costs more than it saves. A sweep's or an import's few large
    commits get the least room, not 16 MB of zeros at every checkpoint they set off."""
    used, commits = pages.wal_usage(Path(wal))
    frames = min(used + used // 4, ROOM_FRAMES, commits * ROOM_PER_COMMIT)
    return wal_bytes(max(frames, MIN_ROOM_FRAMES))


def _give_room(wal: str | Path, room: int) -> None:
    """Fill an emptied WAL with ``room`` bytes of zeros, synced: later commits overwrite them.

    Zeros hold no valid frame: SQLite reads the WAL as empty and its next writer writes a fresh
    header. Only ever called with the WAL empty and no writer able to get in, so on a full disk
    the zeros written are given back (the WAL emptied again): the store needs that space more.
    """
    if room <= 0:
        return
    try:
        fd = os.open(wal, os.O_WRONLY)
    except OSError as exc:
        logger.warning("could not give the WAL its room back: %s", exc.strerror)
        return
    try:
        if os.pwrite(fd, bytes(room), 0) != room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        os.fdatasync(fd)
    except OSError as exc:  # a full disk: the WAL stays empty, nothing is lost
        logger.warning("could not give the WAL its room back: %s", exc.strerror)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)


LEFTOVER = "it was left by an earlier store at that path (it may hold data): move or remove it, then run again"
REPLAYED = (
    "it would be read into the new store as its own (SQLite replays a WAL or journal, securemem its scrub's journal)"
)


def leftover_side_file(path: str | os.PathLike[str]) -> str | None:
    """A -wal, -shm, -journal or -scrub file already beside ``path``, where a new store is to be made.

    Left by an earlier store at that path (a process killed before its checkpoint), SQLite would
    take it for the new store's own and replay it into it: data the new store never had. It may
    be someone's data, so it is named for the operator to remove, never deleted here."""
    for suffix in SIDE_FILES:
        if os.path.lexists(f"{os.fspath(path)}{suffix}"):
            return f"{os.fspath(path)}{suffix}"
    return None


def _remove_created(path: Path) -> None:
    for suffix in ("", *SIDE_FILES):
        with contextlib.suppress(OSError):
            os.unlink(f"{path}{suffix}")


def file_salt(path: str | os.PathLike[str]) -> bytes:
    """The salt at the head of a store file (in clear: SQLCipher needs it before any key)."""
    return _check_existing(Path(path))[:SALT_BYTES]


def _newer_wal_salt(where: Path) -> bytes | None:
    """The salt of the WAL's newest first page where it differs from the head of the file's (a re-key a
    crash cut short after its commit, before its checkpoint), else None."""
    try:
        head = file_salt(where)
    except (OSError, StorageError):
        return None
    newer = _wal_first_page_salt(Path(f"{where}-wal"))
    return newer if newer is not None and newer != head else None


def _under_either_salt(
    path: str | os.PathLike[str], salt: bytes | None, attempt: Callable[[bytes | None, bool], _T]
) -> _T:
    """``attempt(salt, False)``; where the key fails and no salt was given, ``attempt(newer, True)`` with the
    salt of the WAL's newest first page, where a re-key cut short left it. That salt is read before the
    first try: a failed connection's close may checkpoint the WAL away."""
    newer = _newer_wal_salt(Path(path)) if salt is None else None
    try:
        return attempt(salt, False)
    except WrongKeyError:
        if newer is None:
            raise
        return attempt(newer, True)


def peek_store_id(path: str | os.PathLike[str], key: KeyProvider, *, salt: bytes | None = None) -> str:
    """The store id of ``path`` under ``key``, read through a read-only connection (the head's salt, then
    the WAL's newest first page's, where a re-key cut short left it).

    For key operations that promise not to change a byte of the store file: a read-only
    connection never checkpoints, migrates or writes the file (it may add empty -wal and -shm).
    """
    return _under_either_salt(path, salt, lambda tried, _: _peek_store_id(path, key, salt=tried))


def _peek_store_id(path: str | os.PathLike[str], key: KeyProvider, *, salt: bytes | None) -> str:
    where = Path(path)
    salt = file_salt(where) if salt is None else salt
    material = key.store_key(salt)
    found = pages.detect(where, material, salt)
    for page_format in (found,) if found else pages.FORMATS:
        try:
            conn = sqlcipher3.connect(f"{where.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        except sqlcipher3.Error as exc:
            raise _open_error(exc, where) from None
        try:
            _key(conn, material, salt, page_format)
            row = conn.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
            break
        except sqlcipher3.Error as exc:
            if _code(exc) != _NOTADB:
                raise _open_error(exc, where) from None
        finally:
            conn.close()
    else:
        raise WrongKeyError(f"{key.source} does not open {where}")
    if row is None:
        raise NotAStoreError(f"{where} is an encrypted database, but not a securemem store")
    return str(row[0])


def _key(conn: sqlcipher3.Connection, material: bytes, salt: bytes, page_format: pages.PageFormat) -> None:
    """Key a new connection for the store's page format (before its first read)."""
    conn.execute("PRAGMA cipher_log_level = NONE")
    conn.execute(f"PRAGMA key = \"x'{material.hex()}{salt.hex()}'\"")
    conn.execute(f"PRAGMA cipher_hmac_algorithm = {page_format.pragma}")


class SQLCipherStore:
    """A Store in one encrypted file. Thread-safe; several processes may share the file."""

    def __init__(
        self, conn: sqlcipher3.Connection, path: Path, meta: dict[str, str], codec: pages.PageCodec, busy_timeout: float
    ) -> None:
        self._conn: sqlcipher3.Connection | None = conn
        # The cursor for the statements every transaction runs, and the connection it is of (see _control).
        self._cursor: sqlcipher3.Cursor | None = None
        self._cursor_of: sqlcipher3.Connection | None = None
        self._busy_ms = int(busy_timeout * 1000)
        # Waits for the write lock are polled here every millisecond or two (see _begin), not left
        # to SQLite's busy handler, whose sleeps grow to 100 ms: a writer would miss the short
        # gaps a sweep leaves between its batches and wait for the whole sweep.
        conn.execute(f"PRAGMA busy_timeout = {_POLL_MS}")
        self._lock = threading.RLock()
        # A second connection, for the copy a checkpoint that erases nothing makes before it takes
        # the lock (``_precopy``); opened when first needed, closed at close and at a re-key.
        self._side: sqlcipher3.Connection | None = None
        self._side_lock = threading.Lock()
        self._salt = codec.salt
        self._codec = codec  # the page format under the current key: for the scrub after erasure
        self._prescan_lost = False  # the last scrub's unlocked read was overtaken by a writer
        # The WAL's generation right after this handle's last scrub (pages.wal_marker): while the WAL
        # is still of it, every page written since that scrub is in its frames.
        self._scrubbed_at: bytes | None = None
        # Pages written since that scrub in generations a checkpoint that erased nothing restarted
        # (``_keep_in_room``); None when no such restart came since the scrub.
        self._carried: set[int] | None = None
        self._watch: float | None = None  # the deadline of another handle's scrub (see _erasure_owed)
        self._read_only = False  # a checkpoint found the files read-only: this handle erases nothing
        self._eraser_due = False  # _freed noted content the eraser is told of once the lock is released
        # Content was freed (or may have been, by a crashed process) since this handle's last scrub:
        # its next erasure pass must scrub, every page if it cannot name the ones written since.
        self._freed_since_scrub = True
        self._wal = f"{os.path.abspath(path)}-wal"
        self._commits = 0  # write commits of this handle (see _after_commit)
        self._ns: dict[str, int] = {}  # namespace name -> id, once committed
        self._known = _Known()
        self._looked = 0  # lookups of the store itself (its existence, a setting) in the open transaction
        self._made: str | None = None  # the namespace the open transaction created, if any
        self.path = path
        self.meta = meta
        self.last_statements = 0  # statements of the last transaction (tests hold commands to a budget)
        # Why the last erasure failed other than "busy" (a full disk): said once in the log, and the
        # eraser stops retrying at once instead of for the whole busy timeout (None: none failed so).
        self._erase_failure: str | None = None
        self._eraser = _Eraser(
            self._checkpoint, within=1.0, patience=self._busy_ms / 1000, failing=lambda: self._erase_failure
        )
        self._history = History()
        # The file this handle opened (see _check_file), by an absolute path: a later chdir moves nothing.
        self._where = Path(os.path.abspath(path))
        self._file = _identity(self._where)
        # The process whose connection this is: a child forked from it inherits the handle but not
        # its locks (POSIX locks are per process), so it must never checkpoint through it.
        self._pid = os.getpid()
        _OPEN_STORES.add(self)  # erased at exit if never closed (see _flush_at_exit)
        _erase_before_stop_signals()

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        key: KeyProvider,
        *,
        create: bool = True,
        busy_timeout: float = BUSY_TIMEOUT,
        salt: bytes | None = None,
    ) -> SQLCipherStore:
        """Open (or create) the store; ``salt`` overrides the one at the head of the file.

        The override is for a re-key that a crash cut short after its commit: the new pages (the
        first one included) are in the WAL, while the head of the file still holds the old salt.
        Without one, a key the head's salt does not open is tried with the salt of the WAL's newest
        first page, where such a re-key left it.
        """
        try:
            return _under_either_salt(
                path,
                salt,
                lambda tried, retry: cls._open(
                    path, key, create=create and not retry, busy_timeout=busy_timeout, salt=tried
                ),
            )
        except WrongKeyError:
            # Another process may be changing the store's key: the store is under the new key, the key
            # file not moved into place yet (a process told "re-keyed, reopen it" reopens at once: an
            # attacker's round). Once the change is over, the key is read again and tried once more.
            if not awaited_key_change(path, busy_timeout):
                raise
            reread = getattr(key, "reread", None)
            again = key if reread is None else reread()
            return cls.open(path, again, create=create, busy_timeout=busy_timeout, salt=salt)

    @classmethod
    def _open(
        cls, path: str | os.PathLike[str], key: KeyProvider, *, create: bool, busy_timeout: float, salt: bytes | None
    ) -> SQLCipherStore:
        where = Path(path)
        exists = where.exists()
        if not exists and not create:
            raise NotAStoreError(f"no securemem store at {where}; create one with: securemem init --db {where}")
        creating = None if exists else _create_file(where)
        if creating is not None and (side := leftover_side_file(where)) is not None:
            # Looked at once this handle made the file (no other process opens it before its creation lock
            # is let go), so another's store being made at the same instant is not taken for a leftover.
            # The leftover is someone's: only the file made here is removed.
            os.close(creating)
            with contextlib.suppress(OSError):
                os.unlink(where)
            raise StorageError(f"{side} exists: {REPLAYED}; {LEFTOVER}")
        exists = creating is None  # another process may have created it first: then it is opened
        try:
            if exists:
                _await_creation(where, busy_timeout)
            header = _check_existing(where) if exists else None
            overridden = salt is not None and exists
            if salt is None or not exists:
                salt = header[:SALT_BYTES] if header else os.urandom(SALT_BYTES)
            material = key.store_key(salt)
            # The page format: a new store's, or the one whose HMAC page 1 (or the scrub's journal)
            # verifies. None: the key is wrong, or page 1 is in the WAL only (a re-key cut short).
            found = pages.detect(where, material, salt) if exists else pages.NEW_STORES
            codec = pages.PageCodec(material, salt, found or pages.NEW_STORES)
            if found and not overridden:  # mid re-key the file's pages are under two keys: leave them
                _repair_torn(where, codec)
            conn, page_format = cls._connect(where, material, salt, busy_timeout, (found,) if found else pages.FORMATS)
            codec = codec.with_format(page_format)
            try:
                meta = cls._load_or_create(conn, where, key, fresh=not exists)
                cls._configure(conn, "full")
            except BaseException:
                conn.close()
                raise
        except BaseException:
            if creating is not None:
                _remove_created(where)  # a failed creation leaves nothing behind
            raise
        finally:
            if creating is not None:
                os.close(creating)  # the creation lock: the others waiting read the store now
        _align_side_files(where)
        store = cls(conn, where, meta, codec, busy_timeout)
        store._scrub_leftovers()
        return store

    @staticmethod
    def _connect(
        path: Path, material: bytes, salt: bytes, timeout: float, formats: tuple[pages.PageFormat, ...]
    ) -> tuple[sqlcipher3.Connection, pages.PageFormat]:
        """A connection keyed for the first of ``formats`` that reads the file (the last one untried)."""
        for page_format in formats:
            try:
                conn = sqlcipher3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=timeout)
            except sqlcipher3.Error as exc:
                raise _open_error(exc, path) from None
            try:
                _key(conn, material, salt, page_format)
                row = conn.execute("PRAGMA cipher_version").fetchone()
                if not row or not row[0]:
                    raise StorageError("SQLCipher is not active in this build; refusing to store plaintext")
                if page_format is formats[-1] or _readable(conn):
                    return conn, page_format
            except sqlcipher3.Error as exc:
                conn.close()
                raise _open_error(exc, path) from None
            except BaseException:
                conn.close()
                raise
            conn.close()
        raise AssertionError("unreachable: the last format is returned untried")

    @classmethod
    def _load_or_create(
        cls, conn: sqlcipher3.Connection, path: Path, key: KeyProvider, *, fresh: bool
    ) -> dict[str, str]:
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlcipher3.Error as exc:
            if _code(exc) == _NOTADB:
                raise WrongKeyError(
                    f"{key.source} does not open {path} (wrong key, or the file is not a "
                    "securemem store, or its first page is damaged)"
                ) from None
            raise _open_error(exc, path) from None
        try:
            if not tables and fresh:
                return cls._create_schema(conn, path)
            if "meta" not in tables:
                raise NotAStoreError(f"{path} is an encrypted database, but not a securemem store")
            return cls._read_meta(conn, path)
        except sqlcipher3.Error as exc:
            raise _open_error(exc, path) from None

    @staticmethod
    def _read_meta(conn: sqlcipher3.Connection, path: Path) -> dict[str, str]:
        meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        if meta.get("format") != sqlschema.FORMAT:
            raise NotAStoreError(f"{path} is an encrypted database, but not a securemem store")
        version = int(meta.get("schema_version", "0"))
        if version > sqlschema.SCHEMA_VERSION:
            raise StorageError(
                f"{path} was written by a newer securemem (schema {version}); upgrade securemem to open it"
            )
        if version < sqlschema.SCHEMA_VERSION:
            conn.execute("PRAGMA secure_delete = ON")  # the old tables' pages are zeroed as they go
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Read again under the lock: another process may have migrated the store meanwhile.
                row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                if int(row[0]) < sqlschema.SCHEMA_VERSION:
                    sqlschema.migrate(conn, int(row[0]))
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlcipher3.Error):
                    conn.execute("ROLLBACK")
                raise
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        return meta

    @staticmethod
    def _create_schema(conn: sqlcipher3.Connection, path: Path) -> dict[str, str]:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        sqlschema.create(conn)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        if _header(path) == PLAIN_SQLITE_HEADER:  # belt and braces: never leave plaintext behind
            raise StorageError("the store was written unencrypted; refusing to continue")
        return meta

    @staticmethod
    def _configure(conn: sqlcipher3.Connection, durability: str) -> None:
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            # No automatic checkpoints: every checkpoint is the eraser's, which then scrubs the pages
            # it copied (an automatic one would copy them unscrubbed and let the WAL restart, losing
            # their numbers). The eraser also runs when the WAL nears the end of its room (_after_commit).
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            # A WAL kept in its room by restarts (``_keep_in_room``) is cut back to the largest room
            # at the first commit after a restart, should a big commit have grown it past that.
            conn.execute(f"PRAGMA journal_size_limit = {wal_bytes(ROOM_FRAMES)}")
            conn.execute(f"PRAGMA synchronous = {DURABILITY[durability]}")
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("PRAGMA temp_store = MEMORY")
            # A page cache of 16 MiB (SQLite's default is 2 MiB): a page read again from the cache costs no
            # read, HMAC check or decryption. A store of 2,000 notes is about 5 MiB of pages; with the default,
            # views of them in turn missed the cache on most reads (a loop of views: 0.12-0.14 -> 0.09 ms a view;
            # bench/throughput.py's view 0.13 -> 0.11 ms in one run each).
            # The cache is this process's memory, as the pages read are; what the files hold is unchanged.
            conn.execute("PRAGMA cache_size = -16384")
        except sqlcipher3.Error as exc:
            raise translate(exc) from None
        if str(mode).lower() != "wal":
            raise StorageError("the store could not switch to WAL mode")

    def configure(self, *, durability: str, erase_within: float, history: History | None = None) -> None:
        """Durability ("full": every commit survives power loss; "normal"), the erasure bound, the history."""
        if durability not in DURABILITY:
            raise StorageError(f"durability must be one of {', '.join(DURABILITY)}")
        with self._lock:
            self._configure(self._open_conn(), durability)
        self._eraser.within = max(0.0, erase_within)
        if history is not None:
            self._history = history

    def _scrub_leftovers(self) -> None:
        """A crash may have left freed content in the WAL or in pages: erase it before the first command.

        A WAL that holds frames (it starts with SQLite's WAL header) has seen commits since the last
        erasure, which may have freed content; an empty WAL, or one of zeros, has not.
        """
        wal = Path(f"{self._where}-wal")
        try:
            with wal.open("rb") as f:
                head = f.read(4)
        except FileNotFoundError:
            head = b""  # no WAL yet (a new store): no frames; a recorded debt is still owed
        except OSError:
            return
        owed = int.from_bytes(head, "big") in pages.WAL_MAGIC or self._owed_at_open()
        if not owed:
            # Nothing was committed since the last erasure's scrub, and no scrub is owed: nothing
            # was freed (its first growth-only checkpoint need not be an erasure).
            self._freed_since_scrub = False
        elif not self._checkpoint(min(1.0, self._busy_ms / 1000)):
            # Other processes keep it busy: try again until the busy timeout, as a close does, so
            # that the first command finds it erased; if they still do, the eraser keeps trying.
            self._freed()
            self._tell_eraser()
            if not self._eraser.flush(self._busy_ms / 1000):
                self._tell_eraser(own=True)

    # -- properties --------------------------------------------------------------------------

    @property
    def store_id(self) -> str:
        return self.meta["store_id"]

    @property
    def page_format(self) -> pages.PageFormat:
        """How the file's pages are tagged: HMAC-SHA256 (stores of this release) or HMAC-SHA512."""
        return self._codec.format

    @property
    def token_key(self) -> bytes:
        return bytes.fromhex(self.meta["token_key"])

    def _open_conn(self) -> sqlcipher3.Connection:
        if self._conn is None:
            raise StorageError("the memory store is closed")
        return self._conn

    def _control(self, conn: sqlcipher3.Connection) -> sqlcipher3.Cursor:
        """The cursor for BEGIN IMMEDIATE, PRAGMA data_version and COMMIT, which every transaction
        runs, and for its one-row lookups (``SqlTx``): the connection's ``execute`` makes a new
        cursor for each statement, a third of what these cost. Each statement on it is done (its row
        fetched, or it has none) before the next one runs. Made again for another connection (a test
        or a benchmark wraps it to count)."""
        if self._cursor_of is not conn:
            self._cursor, self._cursor_of = conn.cursor(), conn
        return self._cursor

    # -- transactions ----------------------------------------------------------------------

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
    ) -> _Transaction:
        """One transaction on ``namespace``: BEGIN IMMEDIATE, the clock read, COMMIT or ROLLBACK."""
        return _Transaction(
            self, namespace, write, clock, actor=actor or _NOBODY, create=create, history=history, key=store_key
        )

    def _begin(
        self,
        namespace: str,
        write: bool,
        clock: Clock,
        actor: Actor = _NOBODY,
        *,
        create: bool = True,
        history: History | None = None,
        key: int | None = None,
    ) -> SqlTx:
        self._lock.acquire()
        try:
            conn = self._open_conn()
            control = self._control(conn)
            if write:
                self._settle_growth(conn)
            else:
                # Reads too (an attacker's round: views went on listing a removed store's files from the inode
                # this handle kept open; a write said it was gone). One stat, about a microsecond.
                self._check_identity()
            self._begin_immediate(control)
            self._made = None
            self._looked = 0
            try:
                if self._known.check(control):
                    # Another connection committed: a store may have been renamed or deleted there.
                    # A handle follows its store's name, as it does when it renames it itself.
                    self._ns.clear()
                    if self._erasure_owed(conn):
                        self._freed()  # a process that ended before it could erase left it to us
                elif self._watch is not None and time.time() >= self._watch and self._overdue(conn):
                    self._freed()
                if key is None:
                    ns = self._ns_id(conn, namespace, create=write and create)
                elif not self._exists(conn, key):  # a store given by number
                    raise MissingStore("the store does not exist (it was deleted)")
                else:
                    ns = key
                now = clock()
                if ns < 0 and write:
                    raise MissingStore("the store does not exist (it was deleted)")
                tails = self._known.tails
                log = VersionLog(conn, ns, now, actor, history or self._history, tail=tails.get(ns))
                tx = SqlTx(conn, ns, now, log, tails, lookup=control)
                tx.statements = 1  # PRAGMA data_version
                return tx
            except sqlcipher3.Error as exc:
                self._rollback(conn)
                raise self._translate(exc) from None
            except BaseException:
                self._rollback(conn)
                raise
        except BaseException:
            self._lock.release()
            self._tell_eraser()
            raise

    def _end(self, tx: SqlTx, failed: BaseException | None, write: bool) -> None:
        """Commit (or roll back after ``failed``); the lock is released in every case."""
        own = False
        try:
            conn = self._open_conn()
            if failed is not None:
                self._rollback(conn)
                if isinstance(failed, sqlcipher3.Error):
                    raise self._translate(failed) from None
                if isinstance(failed, _DECODING) and (table := _misshapen(conn)) is not None:
                    raise DamagedStoreError(
                        f"the memory store is damaged (a row of its {table} table does not hold what its "
                        "schema says: changed outside securemem)"
                    ) from None
                return
            if write:
                self._before_commit(conn)
            freed = tx.family_freed
            noted = self._note_debt(conn) if freed else 0
            self._run(conn, "COMMIT", rollback_on_error=True, on=self._control(conn))
            self._known.learn(tx)
            self.last_statements = tx.statements + self._looked + noted
            if freed:
                self._known.debt = True
                self._freed()
                own = True
            elif write:
                own = self._after_commit()
        finally:
            self._known.live = False
            tx.release()
            self._lock.release()
            self._tell_eraser(own=own)

    def _ns_id(self, conn: sqlcipher3.Connection, name: str, *, create: bool) -> int:
        found = self._ns.get(name)
        # The store cached may have been deleted by another process since: rows written under a
        # deleted store's number would be lost, and reads would see nothing. Store numbers are
        # never reused, so "it still exists" is all there is to check (one lookup by key).
        if found is not None and self._exists(conn, found):
            return found
        self._ns.pop(name, None)
        self._looked += 1
        row = conn.execute("SELECT id FROM stores WHERE name = ?", (name,)).fetchone()
        if row is None and not create:
            return -1  # nothing stored yet: every read finds nothing
        if row is None:
            self._looked += 1
            now = time.time()
            row = conn.execute(
                "INSERT INTO stores (name, public_id, created, updated) VALUES (?, ?, ?, ?) RETURNING id",
                (name, sqlschema.public_store_id(), now, now),
            ).fetchone()
            self._made = name
        self._ns[name] = int(row[0])
        return self._ns[name]

    def _erasure_owed(self, conn: sqlcipher3.Connection) -> bool:
        """Another handle freed content and ended before it could erase it (``_owe_erasure``), or
        recorded a scrub that is now overdue: it crashed between its checkpoint and its scrub, or is
        stuck (``_note_debt``). A debt not yet due is watched: the first transaction after its
        deadline looks again (``_overdue``)."""
        self._looked += 1
        owed = dict(conn.execute(_OWED).fetchall())
        if "erase_due" in owed:
            return True
        return self._judge_debt(owed.get("scrub_due"))

    def _judge_debt(self, value: object) -> bool:
        self._watch = None
        try:
            deadline = float(str(value)) + OVERDUE_GRACE if value is not None else None
        except ValueError:
            deadline = 0.0  # not written by this release: treat it as due
        if deadline is None:
            return False
        now = time.time()
        # A deadline further out than any erasure bound (an hour) is no writer's: treat it as due.
        if now < deadline <= now + MAX_ERASE_WITHIN + OVERDUE_GRACE:
            self._watch = deadline
            return False
        self._scrubbed_at = None  # its checkpoint restarted the WAL: read every page
        return True

    def _overdue(self, conn: sqlcipher3.Connection) -> bool:
        """A watched debt's deadline passed: is its record still there (its scrub never came)?"""
        self._looked += 1
        row = conn.execute(_SCRUB_DUE).fetchone()
        return self._judge_debt(None if row is None else row[0])

    def _owed_at_open(self) -> bool:
        """An erasure a closed handle owed (a damaged page here is the first command's to report)."""
        try:
            return self._open_conn().execute(_OWED).fetchone() is not None
        except sqlcipher3.Error:
            return False

    def _owe_erasure(self) -> None:
        """This handle cannot erase what it freed (readers kept the store busy) and is closing: say so
        in the store, so that the next handle to begin a transaction, here or in any process, erases it."""
        conn = self._conn
        if conn is None:
            return
        try:
            self._begin_immediate(conn)
            try:
                conn.execute(_NOTE, ("erase_due", f"{time.time():020.6f}"))
            finally:
                conn.execute("COMMIT")
        except (sqlcipher3.Error, StorageError) as exc:  # re-keyed, busy, read-only: logged, never raised
            found = self._translate(exc) if isinstance(exc, sqlcipher3.Error) else exc
            if str(found) != self._erase_failure:  # a full disk was said already
                logger.warning("could not record the erasure this handle owes: %s", found)

    def _exists(self, conn: sqlcipher3.Connection, ns: int) -> bool:
        """Store ``ns`` exists (known since the last commit of another connection, or looked up)."""
        if ns in self._known.stores:
            return True
        self._looked += 1
        return conn.execute(_STORE_EXISTS, (ns,)).fetchone() is not None

    def _begin_immediate(self, conn: sqlcipher3.Connection | sqlcipher3.Cursor) -> None:
        """BEGIN IMMEDIATE (on the connection or a cursor of it), retried every millisecond or two
        until the busy timeout has passed."""
        deadline = time.monotonic() + self._busy_ms / 1000
        pause = 0.0005
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlcipher3.Error as exc:
                if _code(exc) not in (_BUSY, _LOCKED) or time.monotonic() >= deadline:
                    raise self._translate(exc) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.002)

    def _run(
        self,
        conn: sqlcipher3.Connection,
        sql: str,
        *,
        rollback_on_error: bool = False,
        on: sqlcipher3.Cursor | None = None,
    ) -> None:
        """``sql`` on ``conn`` (or on ``on``, a cursor of it), an error translated (and, if asked, rolled back)."""
        try:
            (conn if on is None else on).execute(sql)
        except sqlcipher3.Error as exc:
            if rollback_on_error:
                self._rollback(conn)
            raise self._translate(exc) from None

    def _rollback(self, conn: sqlcipher3.Connection) -> None:
        self._known.live = False
        if self._made is not None:  # a namespace made in the transaction is gone with it
            self._ns.pop(self._made, None)
        if conn.in_transaction:
            # The transaction may already be gone (SQLite rolls back by itself on some errors).
            with contextlib.suppress(sqlcipher3.Error):
                conn.execute("ROLLBACK")

    def _check_file(self, conn: sqlcipher3.Connection) -> None:
        """Before a commit: roll back unless the file at the path is still the one this handle opened.

        SQLite keeps writing to the file it opened: once that file is unlinked (or another is
        renamed over its path) every commit would report success and be lost. One stat of the
        path per write transaction (about a microsecond) tells.
        """
        try:
            self._check_identity()
        except StorageError:
            self._rollback(conn)
            raise

    def _before_commit(self, conn: sqlcipher3.Connection) -> None:
        """Every write's last checks before its COMMIT: the file is the one opened, the disk can take it."""
        self._check_file(conn)
        self._check_space(conn)

    def _nearly_full(self) -> int | None:
        """The free bytes of the store's disk where it could not hold a whole WAL and its room again, else None
        (one ``statvfs``)."""
        try:
            fs = os.statvfs(self._where.parent)
        except OSError:
            return None
        free = (fs.f_bfree if os.geteuid() == 0 else fs.f_bavail) * fs.f_frsize
        return free if free <= _size(self._wal) + wal_bytes(ROOM_FRAMES) else None

    def _settle_growth(self, conn: sqlcipher3.Connection) -> None:
        """Before a write transaction, on a disk nearly full: what the WAL holds past the store file's end is
        copied into the file first (a passive checkpoint), so that the commit leaves only its own growth
        pending. Else a delete's own WAL frames could take the space the checkpoint that erases it needs to
        grow the file by the writes before it (a review of ``_check_space``: a delete answered "deleted" and
        its text stayed decryptable until space came back). A disk that cannot take it refuses the write."""
        if self._nearly_full() is None:
            return
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlcipher3.Error as exc:
            if _code(exc) == _FULL:
                raise StoreFullError(
                    "the memory store is full (disk or page limit reached); free space and retry"
                ) from None
            # busy or locked: readers hold frames back; the commit's own check decides

    def _check_space(self, conn: sqlcipher3.Connection) -> None:
        """Before a write's commit, on a disk nearly full: roll back unless the store file can take what
        its checkpoint will copy into it (an attacker's round).

        A commit may land in the WAL's room (zeros written earlier, overwritten in place) while the disk
        is full; the checkpoint that erases what later deletes free must then grow the store file to the
        pages the WAL holds, and could not: the deleted text stayed decryptable until space came back.
        Such a write is refused as a full store is. Where the disk has room for a whole WAL and its room
        again (nearly always) one ``statvfs`` tells; else ``PRAGMA page_count`` says how far the file
        must grow. Space taken by others after the commit can still delay an erasure (see Limits)."""
        free = self._nearly_full()
        if free is None:
            return
        try:
            grows = int(conn.execute("PRAGMA page_count").fetchone()[0]) * pages.PAGE - _size(self._where)
        except sqlcipher3.Error:
            return  # the commit itself tells what is wrong with the file
        if grows > free:
            self._rollback(conn)
            raise StoreFullError("the memory store is full (disk or page limit reached); free space and retry")

    def _translate(self, exc: sqlcipher3.Error) -> StorageError:
        # After its first failed read of a re-keyed file SQLite answers "read-only" (or an I/O
        # error) to every later statement: those codes are checked against the salt too.
        if _code(exc) in (_NOTADB, _CORRUPT, _READONLY, _IOERR, _CANTOPEN) and self._rekeyed():
            return RekeyedError("the memory store was re-keyed by another process; reopen it with the new key")
        if _code(exc) in (_READONLY, _CANTOPEN, _IOERR) and not os.access(self.path.parent, os.W_OK):
            return StorageError(
                f"the directory {self.path.parent} is read-only: the store needs to write its "
                "-wal and -shm files beside the store file"
            )
        return translate(exc)

    def _rekeyed(self) -> bool:
        """True when the salt at the head of the file, or of the WAL's newest first page, is not this handle's.

        A re-key commits every page into the WAL and then copies them back: until that copy
        reaches the first page (seconds, for a big store), only the WAL holds the new salt.
        """
        try:
            if _header(self._where)[:SALT_BYTES] != self._salt:
                return True
        except StorageError:
            return False
        found = _wal_first_page_salt(Path(f"{self._where}-wal"))
        return found is not None and found != self._salt

    # -- settings and namespaces -------------------------------------------------------------

    def namespaces(self) -> list[str]:
        with self._lock:
            try:
                return [str(r[0]) for r in self._open_conn().execute("SELECT name FROM stores ORDER BY name")]
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None

    def drop_namespace(self, name: str) -> bool:
        """Delete a namespace and everything in it (erased like any deletion); False if it did not exist."""
        with self._lock:
            conn = self._open_conn()
            self._settle_growth(conn)
            self._begin_immediate(conn)
            try:
                row = conn.execute("SELECT id FROM stores WHERE name = ?", (name,)).fetchone()
                if row is not None:
                    files = "SELECT id FROM entries WHERE ns = ? AND is_dir = 0"
                    top = conn.execute(
                        f"SELECT max(coalesce(({files} ORDER BY id DESC LIMIT 1), 0), coalesce((SELECT max(memory) "
                        "FROM versions WHERE seq BETWEEN ? AND ?), 0))",
                        (*row, *seq_range(int(row[0]))),
                    ).fetchone()[0]
                    remember_numbers(conn, [int(top)])  # its versions go: no trace of its numbers is left
                    conn.execute(f"DELETE FROM content WHERE id IN ({files})", row)
                    # and the rows kept only for a head (memories deleted with the history off): found
                    # through the store's own versions, never by reading other stores' rows
                    conn.execute(
                        "DELETE FROM content WHERE id IN "
                        "(SELECT DISTINCT memory FROM versions WHERE seq BETWEEN ? AND ?)",
                        seq_range(int(row[0])),
                    )
                    conn.execute("DELETE FROM versions WHERE seq BETWEEN ? AND ?", seq_range(int(row[0])))
                    conn.execute("DELETE FROM entries WHERE ns = ?", row)
                    conn.execute("DELETE FROM stores WHERE id = ?", row)
            except sqlcipher3.Error as exc:
                self._rollback(conn)
                raise self._translate(exc) from None
            self._before_commit(conn)
            if row is not None:
                self._note_debt(conn)
            self._run(conn, "COMMIT", rollback_on_error=True)
            self._known.forget()
            self._ns.pop(name, None)
            if row is not None:
                self._freed()
        self._tell_eraser(own=row is not None)
        return row is not None

    def _check_identity(self) -> None:
        """Refuse to read on from a store file that was removed or replaced after this handle opened it."""
        if _identity(self._where) != self._file:
            raise StorageError(
                "the memory store file was removed or replaced after this handle opened it; reopen the store"
            )

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[Any]:
        with self._lock:
            self._check_identity()  # the admin's store listings too (an attacker's round)
            try:
                rows: list[Any] = self._open_conn().execute(sql, params).fetchall()
                return rows
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None

    def _in_write(
        self,
        body: Callable[[sqlcipher3.Connection], _T],
        *,
        freed: Callable[[_T], bool] | None = None,
        names: bool = False,
    ) -> _T:
        """``body`` in a write transaction of its own, outside any namespace's (maintenance, settings).

        Rolled back if it fails; before the commit the file is checked to be the one opened; the
        eraser is told when ``freed(result)`` says the body deleted or overwrote content. With
        ``names``, a uniqueness violation is a store name taken (``NameTaken``).
        """
        with self._lock:
            conn = self._open_conn()
            self._settle_growth(conn)
            self._begin_immediate(conn)
            try:
                result = body(conn)
            except sqlcipher3.Error as exc:
                self._rollback(conn)
                if names and _code(exc) == _CONSTRAINT:
                    raise NameTaken("a store with that name exists") from None
                raise self._translate(exc) from None
            except BaseException:
                self._rollback(conn)
                raise
            self._before_commit(conn)
            freeing = freed is not None and freed(result)
            if freeing:
                self._note_debt(conn)
            self._run(conn, "COMMIT", rollback_on_error=True)
            self._known.forget()
            if freeing:
                self._freed()
            else:
                freeing = self._after_commit()
        self._tell_eraser(own=freeing)
        return result

    def _write(self, sql: str, params: tuple[object, ...]) -> list[Any]:
        """One statement in its own write transaction."""
        return self._in_write(lambda conn: list(conn.execute(sql, params).fetchall()), names=True)

    def list_stores(self, after: int | None, limit: int) -> list[StoreInfo]:
        rows = self._read(f"SELECT {_STORE_COLS} FROM stores WHERE id > ? ORDER BY id LIMIT ?", (after or 0, limit))
        return [_store_info(r) for r in rows]

    def find_store(self, *, store_id: str | None = None, name: str | None = None) -> StoreInfo | None:
        column, value = ("public_id", store_id) if store_id is not None else ("name", name)
        rows = self._read(f"SELECT {_STORE_COLS} FROM stores WHERE {column} = ?", (value,))
        return _store_info(rows[0]) if rows else None

    def create_store(self, name: str, description: str, now: float) -> StoreInfo | None:
        try:
            rows = self._write(
                f"INSERT INTO stores (name, public_id, description, created, updated) VALUES (?, ?, ?, ?, ?) "
                f"RETURNING {_STORE_COLS}",
                (name, sqlschema.public_store_id(), description, now, now),
            )
        except NameTaken:
            return None
        return _store_info(rows[0])

    def update_store(self, store_id: str, name: str | None, description: str | None, now: float) -> StoreInfo | None:
        sql = (
            f"UPDATE stores SET name = coalesce(?, name), description = coalesce(?, description), updated = ? "
            f"WHERE public_id = ? RETURNING {_STORE_COLS}"
        )
        rows = self._in_write(
            lambda conn: list(conn.execute(sql, (name, description, now, store_id)).fetchall()),
            freed=bool,  # the old name and description are overwritten: erased like any content
            names=True,
        )
        if rows and name is not None:
            self._ns = {k: v for k, v in self._ns.items() if v != int(rows[0][0])}
        return _store_info(rows[0]) if rows else None

    def chain(self, namespace: str, *, store_key: int | None = None) -> Iterator[VersionRow]:
        """Every version of the namespace in commit order, read a step per short transaction (see
        ``chain_rows``): a long walk never holds back the checkpoint that erases what others free."""
        column, value = ("name", namespace) if store_key is None else ("id", store_key)
        row = self._in_read(lambda conn: conn.execute(f"SELECT id FROM stores WHERE {column} = ?", (value,)).fetchone())
        if row is not None:
            yield from chain_rows(self._in_read, int(row[0]))

    def _in_read(self, body: Callable[[sqlcipher3.Connection], _T]) -> _T:
        """``body`` in a short read transaction of its own, begun as every transaction is (BEGIN IMMEDIATE)."""
        with self._lock:
            conn = self._open_conn()
            self._check_identity()
            self._begin_immediate(conn)
            try:
                return body(conn)
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None
            finally:
                if conn.in_transaction:  # it read only: ending it keeps nothing back
                    with contextlib.suppress(sqlcipher3.Error):
                        conn.execute("ROLLBACK")

    def recount_history(self) -> None:
        self._in_write(recount)

    def expire_history(self, now: float, before: float, limit: int) -> int:
        """Redact up to ``limit`` versions older than ``before`` that still hold content.

        A store's versions are stamped in the order of their numbers (times never go backwards in a chain), so
        those older than ``before`` are a prefix of each store's chain: each store's is read from where the last
        retention left it (``meta``'s ``retention:<store>``) up to its first version young enough to keep. A
        sweep with nothing to redact reads one row per store, not every version (it read every version's page:
        0.19 s at 100,000 versions, every sweep).
        """

        def redact(conn: sqlcipher3.Connection) -> int:
            done = 0
            for (ns,) in conn.execute("SELECT id FROM stores ORDER BY id").fetchall():
                if done >= limit:
                    break
                done += self._retain(conn, int(ns), now, before, limit - done)
            return done

        return self._in_write(redact, freed=bool)

    def _retain(self, conn: sqlcipher3.Connection, ns: int, now: float, before: float, limit: int) -> int:
        """Redact up to ``limit`` of one store's versions older than ``before``; how many were."""
        low, high = seq_range(ns)
        key = f"retention:{ns}"
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        mark = max(low - 1, int(row[0])) if row is not None else low - 1
        redacted = 0
        last = mark
        young = False
        while not young and redacted < limit:
            # read in blocks, then redact (a redaction writes the table the read walks)
            rows = conn.execute(
                "SELECT seq, memory, created, op, redacted IS NULL AND path IS NOT NULL FROM versions "
                "WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                (last, high, _RETENTION_BLOCK),
            ).fetchall()
            if not rows:
                break
            for seq, memory, created, op, live in rows:
                if created >= before:
                    young = True
                    break
                if redacted >= limit:
                    break
                # op < 4: every version but a redaction event, the expiries that kept their path included
                if op < _REDACTION_OP and live:
                    VersionLog(conn, ns, now, Actor(None, EXPIRY_ACTOR), self._history).redact(int(seq), int(memory))
                    redacted += 1
                last = int(seq)
        if last != mark:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, str(last)))
        return redacted

    def get_setting(self, name: str) -> str | None:
        with self._lock:
            conn = self._open_conn()
            # Inside a command's transaction the file is as _Known last saw it, or _Known forgot.
            known = self._known.settings if self._known.live else None
            if known is not None and name in known:
                return known[name]
            self._looked += 1
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"setting:{name}",)).fetchone()
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None
            value = None if row is None else str(row[0])
            if known is not None:
                known[name] = value
            return value

    def set_setting(self, name: str, value: str) -> None:
        key = f"setting:{name}"
        # The previous value is gone from its row: it is erased like any content.
        self._in_write(
            lambda conn: conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)),
            freed=lambda _: True,
        )

    # -- maintenance -----------------------------------------------------------------------

    def sweep_batch(self, now: float, limit: int) -> int:
        """Delete up to ``limit`` expired entries (any namespace) in one short write transaction."""

        def purge(conn: sqlcipher3.Connection) -> int:
            rows = expired_batch(conn, now, limit)
            by_ns: dict[int, list[tuple[int, str]]] = {}
            for r in rows:
                if not r[3]:
                    by_ns.setdefault(int(r[0]), []).append((int(r[13]), f"{r[1]}/{r[2]}"))
            for ns, files in by_ns.items():  # before the content rows that hold their heads go
                VersionLog(conn, ns, now, _NOBODY, self._history).expired(files)
            purge_rows(conn, rows, remember=not self._history.versions)
            return len(rows)

        return self._in_write(purge, freed=bool)

    def count_expired(self, now: float) -> int:
        with self._lock:
            try:
                return count_expired(self._open_conn(), now)
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None

    def integrity_errors(self) -> list[str]:
        """Problems found by SQLite's integrity_check and SQLCipher's cipher_integrity_check."""
        with self._lock:
            conn = self._open_conn()
            try:
                found = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
                found += [str(r[0]) for r in conn.execute("PRAGMA cipher_integrity_check")]
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None
        return [line for line in found if line != "ok"]

    def export_encrypted(self, target: str | os.PathLike[str], key: bytes, salt: bytes) -> None:
        """Copy a consistent snapshot of the store into ``target`` (an empty file), encrypted under ``key``.

        ``sqlcipher_export`` inside one read transaction: every page it reads belongs to the same
        snapshot, and in WAL mode writers in other processes go on meanwhile. Pages reach the
        target encrypted; no plaintext copy is ever written.
        """
        with self._lock:
            conn = self._open_conn()
            try:
                conn.execute("ATTACH DATABASE ? AS backup KEY ?", (os.fspath(target), f"x'{key.hex()}{salt.hex()}'"))
                conn.execute(f"PRAGMA backup.cipher_hmac_algorithm = {self._codec.format.pragma}")
                try:
                    conn.execute("BEGIN")
                    try:
                        conn.execute("SELECT sqlcipher_export('backup')")
                        conn.execute("COMMIT")
                    except BaseException:
                        self._rollback(conn)
                        raise
                finally:
                    conn.execute("DETACH DATABASE backup")
            except sqlcipher3.Error as exc:
                if _code(exc) == _FULL:  # the backup's disk, not the store's: the operator frees space there
                    where = os.path.dirname(os.path.abspath(target))
                    raise StorageError(f"cannot write the backup in {where}: its disk is full") from None
                raise self._translate(exc) from None

    def rekey(self, key: KeyProvider, *, salt: bytes | None = None) -> None:
        """Re-encrypt every page under the key ``key`` gives for a fresh salt (or ``salt``, chosen by the caller).

        One transaction: a crash leaves every page under the old key or every page under the new.
        """
        with self._lock:
            conn = self._open_conn()
            if _identity(self._where) != self._file:
                raise StorageError(
                    "the memory store file was removed or replaced after this handle opened it; reopen the store"
                )
            salt = os.urandom(SALT_BYTES) if salt is None else salt
            material = key.store_key(salt)
            self._known.forget()
            try:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                # The write lock first, by the same retried BEGIN IMMEDIATE every writer uses: the
                # re-key's own attempt at the lock waits only the connection's short busy timeout
                # and then fails with a generic error, so under a stream of writers it would fail
                # at random. Holding the lock, PRAGMA rekey's transaction is this one: it rewrites
                # every page and commits them (the COMMIT after it then has nothing left to do).
                self._begin_immediate(conn)
                try:
                    conn.execute(f"PRAGMA rekey = \"x'{material.hex()}{salt.hex()}'\"")
                except BaseException:
                    self._rollback(conn)
                    raise
                conn.execute("COMMIT")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlcipher3.Error as exc:
                raise self._translate(exc) from None
            self._salt = salt
            self._codec = pages.PageCodec(material, salt, self._codec.format)  # a re-key keeps the format
        with self._side_lock:
            self._drop_side()  # keyed for the old key
        # What other handles freed and had not erased yet (their checkpoints fail once the key
        # changed under them) is erased here, under the new key: every page is read for gaps.
        self._freed_since_scrub = True
        if not self._checkpoint(self._busy_ms / 1000):
            logger.warning(
                "the re-keyed store was not scrubbed: other handles kept it busy; the next erasure pass scrubs it"
            )

    # -- erasure ----------------------------------------------------------------------------

    def _checkpoint(self, wait: float, *, background: bool = False) -> bool:
        """Erase: copy the WAL into the file, truncate it, scrub the file's pages.

        ``background``: the eraser's timer asks (``_Eraser.soon``, or a free's timer), not a flush
        or a close: if this handle has nothing to erase, the WAL is only kept in its room
        (``_keep_in_room``).
        False while readers or writers keep the store busy (the eraser tries again).
        """
        if background and not self._freed_since_scrub:
            self._precopy()
        with self._lock:
            if self._conn is None or self._read_only:
                return True
            if _identity(self._where) != self._file:
                # The file this handle freed content in is no longer at the path (removed, or another
                # store renamed over it): nothing of ours is there to erase, and the store that is
                # there is another's, whose lock this handle does not hold. Never touch it.
                logger.warning("the store file was removed or replaced; this handle erases nothing more")
                return True
            if self._rekeyed():
                # Another process re-keyed the store: this handle's key reads none of its pages
                # now, so its checkpoints fail for good (a close would wait its whole busy timeout
                # for nothing). The re-key rewrote every page and emptied the WAL, then scrubbed
                # the file under the new key (``rekey``); if writers kept it from that, the next
                # erasure pass of any handle does it (each pass reads every page for stray bytes).
                logger.info("the store was re-keyed by another process; this handle erases nothing more")
                return True
            conn = self._conn
            wal = Path(f"{self._where}-wal")
            deadline = time.monotonic() + wait
            if background and not self._freed_since_scrub:
                return self._keep_in_room(conn, deadline)
            room = _room_for(wal)
            truncated = self._truncate_wal(conn, wal, deadline)
            if truncated is None:
                return False
            before, scope = truncated
            # The pages are read first without the write lock (a big store takes a while), then the
            # ones found are rewritten under it if no other connection committed meanwhile. If a
            # writer got in during that read last time, this time the pages are read under the lock.
            found: list[int] | None = None
            version: object = None
            if not self._prescan_lost:
                try:
                    version = conn.execute("PRAGMA data_version").fetchone()[0]
                    if version != before:
                        scope = None
                    if scope is None and not self._freed_since_scrub:
                        # Only the WAL's size asked for this checkpoint: nothing of this handle's
                        # is to erase, and the restart it made tells every handle (this one too)
                        # to read every page at its next erasure.
                        self._scrubbed_at = None
                        self._refill(conn, wal, room)
                        return True
                    found = pages.find_dirty(self._where, self._codec, scope)
                except (OSError, sqlcipher3.Error):
                    found = None
            done = self._scrub(conn, wal, room, found, version, deadline=deadline)
            self._prescan_lost = found is not None and not done
            if done:
                self._freed_since_scrub = False
            else:
                self._scrubbed_at = None
            return done

    def _precopy(self) -> None:
        """Before a checkpoint that erases nothing: copy the WAL into the file from a second
        connection, without this handle's lock, so that its commits go on meanwhile and the
        checkpoint under the lock (``_keep_in_room``) has only their few frames left to copy.

        PASSIVE: it waits for no one and changes nothing but the file's pages (the same copies any
        checkpoint makes); the WAL, its generation and what the eraser knows of it stay as they
        are. Any failure leaves the work to the checkpoint under the lock.
        """
        with self._side_lock:
            if self._conn is None or self._read_only or _identity(self._where) != self._file or self._rekeyed():
                return
            try:
                if self._side is None:
                    codec = self._codec
                    self._side, _ = self._connect(self._where, codec.material, codec.salt, 0.0, (codec.format,))
                for _ in range(_PRECOPY_PASSES):  # each copies what commits added during the one before
                    _, frames, copied = self._side.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    if frames - copied <= _PRECOPY_LEFT:
                        break
            except (sqlcipher3.Error, StorageError):
                self._drop_side()

    def _drop_side(self) -> None:
        """Close the second connection (under ``_side_lock``): at close, and after a re-key."""
        side, self._side = self._side, None
        if side is not None:
            with contextlib.suppress(sqlcipher3.Error):
                side.close()

    def _keep_in_room(self, conn: sqlcipher3.Connection, deadline: float) -> bool:
        """A checkpoint that erases nothing (this handle freed nothing since its last scrub): keep
        the WAL in its room. RESTART copies what ``_precopy`` left and has the next commit write the
        WAL from its start again, over the frames of this generation: no truncation and no zeros
        to write and sync, as the room after an erasure needs (``_scrub``). The frames left after
        the new generation's end are erased as any frame is: a commit that frees content, in any
        handle, sets off a truncating checkpoint within the bound (a crashed handle's once another
        takes its debt over); the file keeps at most ``journal_size_limit`` bytes of them.

        The pages the generation held are carried over (``_written_since_scrub``), so that the next
        erasure still reads only the pages written since the last scrub. False while readers or
        writers keep the store busy until ``deadline``.
        """
        try:
            if not self._poll_checkpoint(conn, "RESTART", deadline):
                return False
        except (OSError, sqlcipher3.Error) as exc:
            self._checkpoint_failed(exc)
            return False
        self._erase_failure = None
        # Read after the restart: every frame the generation got was copied, and a writer now
        # starts the next generation (or, if readers kept it from restarting, adds to this one).
        since = self._written_since_scrub(Path(f"{self._where}-wal"))
        self._scrubbed_at, self._carried = (None, None) if since is None else since
        return True

    def _written_since_scrub(self, wal: Path) -> tuple[bytes, set[int]] | None:
        """The pages written since this handle's last scrub, with the marker of the WAL generation
        that holds the newest of them; None when they cannot be named (then every page is read).

        They are in the frames of the generation the scrub began (``_scrubbed_at``), or, after
        restarts by ``_keep_in_room``, in the pages it carried over (``_carried``) and the frames
        of the generation it last read or of the one right after it (``pages.next_generation``):
        any other restart came from elsewhere, unseen.
        """
        marker = self._scrubbed_at
        if marker is None:
            return None
        found = pages.generation_pages(wal, marker)
        if found is None and self._carried is not None:
            found = pages.generation_pages(wal, pages.next_generation(marker))
        if found is None:
            return None
        return found[0], found[1] | (self._carried or set())

    def _truncate_wal(
        self, conn: sqlcipher3.Connection, wal: Path, deadline: float
    ) -> tuple[object, set[int] | None] | None:
        """Copy the WAL into the file and truncate it; None if readers or writers kept it busy until
        ``deadline`` (``time.monotonic()``).

        Else: ``data_version`` just before, and the pages the WAL held when it still was of the
        generation this handle's last scrub left (no checkpoint restarted it since): stray bytes
        appear only in pages a commit writes, and each of those passed through the WAL. None for
        the pages when it was not: then every page of the file is to be read. The caller reads
        them only if no other connection commits or checkpoints meanwhile (``data_version``).
        """
        scope: set[int] | None = None
        try:
            before = conn.execute("PRAGMA data_version").fetchone()[0]
            since = self._written_since_scrub(wal)
            scope = None if since is None else since[1]
            done = self._poll_checkpoint(conn, "TRUNCATE", deadline, wal)
        except (OSError, sqlcipher3.Error) as exc:
            self._checkpoint_failed(exc)
            return None
        if not done:
            return None
        self._erase_failure = None
        return before, scope

    def _poll_checkpoint(
        self, conn: sqlcipher3.Connection, mode: str, deadline: float, wal: Path | None = None
    ) -> bool:
        """``wal_checkpoint(mode)`` until it completes (True) or ``deadline`` (``time.monotonic()``)
        passes with the store still busy (False); other errors are raised.

        Polled as every transaction polls for the write lock (``_begin_immediate``): SQLite's own
        busy handler sleeps up to 100 ms between tries, and other handles polling every millisecond
        or two would take the lock first each time it is free, for as long as they keep reading
        (each read begins with BEGIN IMMEDIATE). Each try that finds the store busy still copies what
        it can. With ``wal``, a full disk cuts the WAL's room and tries again (``_shed_room``).
        """
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            pause = 0.0005
            while True:
                try:
                    busy = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()[0]
                except sqlcipher3.Error as exc:
                    if _code(exc) in (_BUSY, _LOCKED):
                        busy = 1
                    elif wal is None or _code(exc) != _FULL or not self._shed_room(conn, wal):
                        raise
                    else:
                        busy = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()[0]
                if int(busy) == 0:
                    return True
                if time.monotonic() >= deadline:
                    return False
                time.sleep(pause)
                pause = min(pause * 2, 0.002)
        finally:
            with contextlib.suppress(sqlcipher3.Error):
                conn.execute(f"PRAGMA busy_timeout = {_POLL_MS}")

    def _checkpoint_failed(self, exc: OSError | sqlcipher3.Error) -> None:
        """Say why a checkpoint failed other than "busy", once per cause, never at every retry."""
        if isinstance(exc, OSError):
            read_only = exc.errno in _READ_ONLY_ERRNOS
        else:  # as _open_error reads it: a directory that cannot take the -wal and -shm files
            read_only = _code(exc) in (_CANTOPEN, _READONLY, _IOERR) and not os.access(self._where.parent, os.W_OK)
        if read_only:
            # Nothing here can be written: what is owed waits for a handle that can write (an open
            # there scrubs first).
            self._read_only = True
            logger.warning("the store's files cannot be written here; its pending erasure waits for a writer")
            return
        found_error = str(self._translate(exc) if isinstance(exc, sqlcipher3.Error) else exc.strerror)
        if found_error != self._erase_failure:
            logger.warning("erasure checkpoint failed: %s", found_error)
        self._erase_failure = found_error

    def _shed_room(self, conn: sqlcipher3.Connection, wal: Path) -> bool:
        """A checkpoint found the disk full: cut the WAL's room (the zeros after its generation's
        last frame) under the write lock, so that the file has the space to take the frames. True
        if the WAL got shorter (the checkpoint is worth retrying)."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlcipher3.Error:
            return False
        try:
            frames = pages.wal_frames(wal)
            end = wal_bytes(frames) if frames else 0
            if _size(wal) <= end:
                return False
            os.truncate(wal, end)
            return True
        except OSError:
            return False
        finally:
            with contextlib.suppress(sqlcipher3.Error):
                conn.execute("COMMIT")

    def _scrub(
        self,
        conn: sqlcipher3.Connection,
        wal: Path,
        room: int,
        found: list[int] | None,
        version: object,
        *,
        deadline: float,
    ) -> bool:
        """Under the write lock, with the WAL still empty: zero stray bytes in live pages
        (``pages.scrub_file``: the pages in ``found``, read before the lock was taken, when no other
        connection committed since ``version``; else every page), then give the WAL its room back.
        False if it could not run.

        A rewritten page means what it meant, but connections may hold its old image in their
        caches and write it back with their next change: this connection drops its cache, and a
        one-row write changes the WAL's header, which makes every other connection drop its own
        before its next transaction.

        The room given back: an fsync after an append must also commit the file's new size (a
        journal write in ext4), after an overwrite it need not, so the emptied WAL is filled with
        zeros again (``room``, see ``_room_for``). Zeros hold no valid frame: SQLite reads the WAL as
        empty and its next writer writes a fresh header.
        """
        if not self._lock_by(conn, deadline):
            return False  # writers kept it: erase again after them
        try:
            if _size(wal) != 0:
                return False  # a writer got in between: its frames must be checkpointed first
            try:
                # ``found`` holds unless another connection committed since it was read (and a
                # checkpoint may then have changed the file): then every page is read again here.
                same = found is not None and conn.execute("PRAGMA data_version").fetchone()[0] == version
                rewritten = pages.scrub_file(self._where, self._codec, found if same else None)
            except OSError as exc:
                logger.warning("could not scrub the store's pages: %s", exc.strerror)
                return False
            _give_room(wal, room)
            conn.execute("DELETE FROM meta WHERE key IN ('erase_due', 'scrub_due')")  # what was owed is done now
            self._known.debt = False
            if rewritten:
                conn.execute("PRAGMA shrink_memory")
            # Written even when no page was: it starts the WAL's next generation, which the next
            # pass finds unchanged if no checkpoint restarted the WAL since (see _checkpoint).
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('scrubbed', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"{time.time():020.6f}",),
            )
            locked = conn.execute("PRAGMA data_version").fetchone()[0]
            conn.execute("COMMIT")
            # The generation this commit began, if it is still the WAL's: read after the commit
            # (which wrote the header), and kept only if no other connection committed or
            # checkpointed since the lock was held (then pages may have reached the file in a
            # generation in between, unread: the next pass must read every page).
            marker = pages.wal_marker(wal)
            self._scrubbed_at = marker if conn.execute("PRAGMA data_version").fetchone()[0] == locked else None
            self._carried = None
            return True
        except sqlcipher3.Error as exc:
            logger.warning("erasure scrub failed: %s", self._translate(exc))
            return False
        finally:
            with contextlib.suppress(sqlcipher3.Error):
                if conn.in_transaction:
                    conn.execute("COMMIT")

    def _lock_by(self, conn: sqlcipher3.Connection, deadline: float) -> bool:
        """The write lock for the eraser, polled as ``_begin_immediate`` polls, until ``deadline``."""
        pause = 0.0005
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return True
            except sqlcipher3.Error as exc:
                if _code(exc) not in (_BUSY, _LOCKED) or time.monotonic() >= deadline:
                    return False
            time.sleep(pause)
            pause = min(pause * 2, 0.002)

    def _refill(self, conn: sqlcipher3.Connection, wal: Path, room: int) -> None:
        """After a checkpoint that erased nothing: the emptied WAL gets its room back (see ``_scrub``),
        under the write lock, unless a writer got in first."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlcipher3.Error:
            return  # a writer came first: its commits append until the next checkpoint
        try:
            if _size(wal) == 0:
                _give_room(wal, room)
        finally:
            with contextlib.suppress(sqlcipher3.Error):
                conn.execute("COMMIT")

    def _after_commit(self) -> bool:
        """After a write commit that freed nothing (under the store's lock): True when the WAL holds text to
        erase all the same (the caller tells the eraser, as after a commit that freed content).

        Counts the commit: when the WAL grew past the largest room (big commits get there before the
        next probe; one stat), or every PROBE_EVERY-th commit, the WAL is looked at. A generation that
        ends in frames no commit closes holds a writer's spilled pages that never committed (another
        process killed mid-write, beside this one: an attacker's round): its text is erased as freed
        content is, within the bound, which an open after a crash does too. Else a WAL past its room,
        or a generation that reached COMPACT_FRAMES, gets a checkpoint that keeps it in its room."""
        self._commits += 1
        grown = _size(self._wal) > wal_bytes(ROOM_FRAMES)
        if not grown and self._commits % PROBE_EVERY:
            return False
        wal = Path(self._wal)
        if pages.uncommitted_tail(wal):
            self._freed()
            return True
        if grown or pages.wal_reaches(wal, COMPACT_FRAMES):
            self._eraser.soon()  # nothing to erase: a checkpoint keeps the WAL in its room
        return False

    def _note_debt(self, conn: sqlcipher3.Connection) -> int:
        """Before a commit that frees content: the store records that a scrub is owed, in the same
        commit, unless this handle knows it still does (one statement, or none).

        The checkpoint that erases empties the WAL before the scrub rewrites the pages SQLite
        rebuilt: a crash in between would leave removed text in those pages and an empty WAL, the
        sign of a store with nothing owed. The record, with the deadline of this handle's erasure,
        outlives that crash; the scrub deletes it; the next open scrubs first, and a handle that is
        open takes the debt over once its deadline has passed (``_erasure_owed``)."""
        if self._known.debt and self._known.live:  # checked in this transaction: no one deleted it since
            return 0
        try:
            conn.execute(_NOTE, ("scrub_due", f"{time.time() + self._eraser.within:020.6f}"))
        except sqlcipher3.Error as exc:
            self._rollback(conn)
            raise self._translate(exc) from None
        return 1

    def _freed(self) -> None:
        """A commit freed content (under the store's lock): erase it within the bound. The eraser is
        told once the lock is released (``_tell_eraser``): with a zero bound it checkpoints at once,
        which must not happen inside this handle's own transaction (its own lock would keep the
        checkpoint busy) nor hold up the handle's other threads while it waits for readers."""
        self._freed_since_scrub = True
        self._eraser_due = True

    def _tell_eraser(self, *, own: bool = False) -> None:
        """After the store's lock is released: what ``_freed`` noted goes to the eraser. ``own``: the
        caller's own commit freed content, so the eraser hears of it from this thread, whichever
        thread took the note (with a zero bound the command returns once it is erased)."""
        if own or self._eraser_due:
            self._eraser_due = False
            self._eraser.freed()

    def flush_erasure(self) -> None:
        if not self._eraser.flush(self._busy_ms / 1000):
            if self._erase_failure is not None:
                raise StorageError(f"freed content is not erased yet: {self._erase_failure}")
            raise StoreBusyError("the memory store stayed busy; freed content is not erased yet (retried later)")

    def close(self) -> None:
        if self._conn is None:
            return
        # Erase what is pending now; if readers keep the store busy past the busy timeout, the
        # store records the erasure as owed and the next handle to begin a transaction does it.
        if not self._eraser.flush(self._busy_ms / 1000):
            self._owe_erasure()
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                conn.close()
        # After the handle's own connection is gone: a copy the eraser's timer began meanwhile (a
        # command's commit may ask for one until the lock is free) sees it closed and opens nothing.
        with self._side_lock:
            self._drop_side()
        _OPEN_STORES.discard(self)


class _Transaction:
    """The context manager of ``SQLCipherStore.transaction`` (a class: it is on every command's path)."""

    __slots__ = ("_actor", "_clock", "_create", "_history", "_key", "_namespace", "_store", "_tx", "_write")

    def __init__(
        self,
        store: SQLCipherStore,
        namespace: str,
        write: bool,
        clock: Clock,
        *,
        actor: Actor,
        create: bool,
        history: History | None,
        key: int | None,
    ) -> None:
        self._store, self._namespace, self._write, self._clock = store, namespace, write, clock
        self._actor, self._create, self._history, self._key = actor, create, history, key
        self._tx: SqlTx | None = None

    def __enter__(self) -> SqlTx:
        self._tx = self._store._begin(
            self._namespace,
            self._write,
            self._clock,
            self._actor,
            create=self._create,
            history=self._history,
            key=self._key,
        )
        return self._tx

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        assert self._tx is not None
        self._store._end(self._tx, exc, self._write)


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``; None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _readable(conn: sqlcipher3.Connection) -> bool:
    """False if the file does not decrypt under the connection's key and format."""
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlcipher3.Error as exc:
        if _code(exc) == _NOTADB:
            return False
        raise
    return True


def _repair_torn(path: Path, codec: pages.PageCodec) -> None:
    """A scrub cut short by a crash may have torn a page: put it back from the scrub's journal."""
    try:
        repaired = pages.repair_torn(path, codec)
    except OSError as exc:
        raise StorageError(f"could not repair {path} after an interrupted scrub: {exc.strerror}") from None
    if repaired:
        logger.warning("repaired %d page(s) torn by an interrupted scrub", repaired)


def _wal_first_page_salt(wal: Path) -> bytes | None:
    """The salt of the newest valid frame of page 1 in the WAL (frame headers are SQLite's, in clear).

    A frame belongs to the WAL's current generation when its salts are the WAL header's; SQLCipher
    writes the first page's salt in clear at its start, in the WAL as in the file.
    """
    try:
        return pages.newest_frame_start(wal, 1, SALT_BYTES)
    except OSError:
        return None


def _open_error(exc: sqlcipher3.Error, path: Path) -> StorageError:
    if _code(exc) in (_CANTOPEN, _READONLY, _IOERR) and not os.access(path.parent, os.W_OK):
        return StorageError(
            f"the directory {path.parent} is read-only: the store needs to write its -wal and "
            "-shm files beside the store file"
        )
    return translate(exc)


# Stores not closed yet, held weakly: the exit hook must not keep a dropped store alive.
_OPEN_STORES: weakref.WeakSet[SQLCipherStore] = weakref.WeakSet()


def _flush_at_exit() -> None:
    """At a normal interpreter exit, erase what open stores still have pending (rule 5).

    The eraser's timer is a daemon thread that dies with the interpreter, so a process that ends
    without ``close()`` would leave freed content decryptable in the WAL. An exit hook, not a
    finalizer: nothing does I/O when the garbage collector happens to run. SIGTERM and SIGHUP left
    at their default run it too (``_erase_before_stop_signals``); only SIGKILL (or a crash) skips
    it, and the next open scrubs what that leaves. Stores a forked child inherited are its
    parent's: never touched there.
    """
    for store in list(_OPEN_STORES):
        if store._pid != os.getpid():
            continue
        try:
            store.flush_erasure()
        except Exception as exc:  # one store's failure must not stop the others' erasure
            logger.warning("freed content not erased at exit: %s", exc)
            store._owe_erasure()  # the next handle to begin a transaction erases it


atexit.register(_flush_at_exit)


# The signals that stop a service (systemd, docker and kill send SIGTERM; a closed terminal, SIGHUP).
# At their default they end the process at once, with no exit hook: what its stores freed in the last
# second would stay decryptable until the store is next opened.
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_STOP_ERASE_WAIT = 5.0  # seconds a stop signal waits for the erasure before the process ends anyway


def _erase_before_stop_signals() -> None:
    """Have SIGTERM and SIGHUP erase what open stores have pending, then end the process as they would.

    Only where the signal is still at its default: an application's own handler is left alone (it
    should close its stores, or exit normally, which runs the exit hook). Python sets handlers from
    the main thread only; a store opened in another thread first leaves them as they are.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for number in _STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            current = signal.getsignal(number)
            if current == signal.SIG_DFL or current is _erase_then_stop:
                _stop_eraser()  # started now, not in the handler (see _erase_then_stop); a forked child's too
                if current == signal.SIG_DFL:
                    signal.signal(number, _erase_then_stop)


class _StopEraser:
    """A thread started when the handler is installed, idle until a stop signal asks it to erase.

    Starting a thread inside a signal handler takes locks of ``threading`` the interrupted main
    thread may hold (while it starts or ends a thread of its own): the handler would wait for
    them forever (a test's pool of workers, stopped by SIGTERM, hung so). The handler only sets an
    event and waits on another, with a timeout.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.asked = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=quiet(self._run), name="securemem-erase-on-stop", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        self.asked.wait()
        try:
            _flush_at_exit()
        finally:
            self.done.set()


_STOPPER: _StopEraser | None = None


def _stop_eraser() -> _StopEraser:
    """This process's stop eraser (a forked child starts its own: threads do not survive a fork)."""
    global _STOPPER  # one per process
    if _STOPPER is None or _STOPPER.pid != os.getpid():
        _STOPPER = _StopEraser()
    return _STOPPER


def _erase_then_stop(number: int, frame: object) -> None:
    """The handler: have the stop eraser erase, then die of the same signal (same exit status).

    Bounded by ``_STOP_ERASE_WAIT``: the signal may arrive while this (main) thread holds a store's
    lock in the middle of a command, and the erasure would then wait for it forever. A second
    signal meanwhile ends the process at once (its handler is the default again). In a forked child
    whose eraser was never started, nothing of its own is open (a store opened there would have
    started one): it ends at once.
    """
    signal.signal(number, signal.SIG_DFL)
    stopper = _STOPPER
    if stopper is not None and stopper.pid == os.getpid():
        stopper.asked.set()
        stopper.done.wait(_STOP_ERASE_WAIT)
    os.kill(os.getpid(), number)


_FAILED_RETRY = 5.0  # seconds between erasure attempts while they fail other than "busy" (a full disk)


class _Checkpoint(Protocol):
    def __call__(self, wait: float, *, background: bool = False) -> bool: ...


class _Eraser:
    """Makes sure a checkpoint erases freed content within ``within`` seconds of its commit.

    The first commit that frees content sets a deadline; one checkpoint, half-way to it, covers
    every commit before it (so a burst of deletes pays for one checkpoint, not one each). A
    checkpoint that answers "busy" is retried until it succeeds; one that misses its deadline is
    logged (no content in the message) and retried. ``within = 0`` checkpoints after each commit,
    before the command returns: while other handles keep the store busy it keeps trying for as long
    as a command waits for the lock (``patience``, the busy timeout), then goes on in the background.
    """

    def __init__(
        self,
        checkpoint: _Checkpoint,
        *,
        within: float,
        patience: float,
        failing: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._checkpoint = checkpoint
        self._failing = failing  # why checkpoints fail other than "busy": no point retrying at once
        self.within = within
        self.patience = patience
        self._due: float | None = None  # deadline of the oldest free not yet erased
        self._seq = 0  # frees so far: a checkpoint clears only the frees it saw
        self._timer: threading.Timer | None = None
        self._soon = False  # the timer set runs at once (``soon``)
        self._running = False  # an attempt is under way (it keeps the WAL in its room: see ``soon``)
        self._guard = threading.Lock()

    def freed(self) -> None:
        """A commit freed content (called after the commit, under the store's lock)."""
        with self._guard:
            self._seq += 1
            if self._due is None:
                self._due = time.monotonic() + self.within
            if self.within > 0:
                if self._timer is None:
                    self._schedule(self.within / 2)
                return
        self._attempt()

    def soon(self) -> None:
        """The WAL nears the end of its room: checkpoint now, in the background (nothing to erase).

        Not again while an attempt is under way: the commits that land during it ask again (their
        probe sees the WAL's generation), but its restart covers them."""
        with self._guard:
            if self._running:
                return
            self._seq += 1
            if self._due is None:
                self._due = time.monotonic() + self.within
            if self._timer is not None:
                if self._soon:
                    return
                self._timer.cancel()
            self._schedule(0.0)
            self._soon = True

    def _schedule(self, delay: float) -> None:
        self._soon = False
        self._timer = QuietTimer(delay, self._attempt)
        self._timer.daemon = True
        self._timer.name = "securemem-eraser"
        self._timer.start()

    def _attempt(self) -> None:
        with self._guard:
            self._timer = None
            due, seq = self._due, self._seq
            if due is None:
                return
            self._running = True
        try:
            self._try(due, seq)
        finally:
            with self._guard:
                self._running = False

    def _try(self, due: float, seq: int) -> None:
        give_up = due if self.within > 0 else time.monotonic() + self.patience
        while True:
            started = time.monotonic()
            if self._run(due - started, seq, started, background=True):
                return
            if time.monotonic() >= give_up or self._failing() is not None:
                break
            if self.within == 0:
                time.sleep(0.002)  # another handle's checkpoint may answer "busy" at once
        failure = self._failing()
        if failure is None:  # other handles kept the store busy
            logger.warning("freed content not yet erased after %.1fs; retrying", self.within)
        with self._guard:
            if self._timer is None:
                # A failure such as a full disk is retried seldom (its warning said why, once).
                self._schedule(0.25 if failure is None else _FAILED_RETRY)

    def _run(self, left: float, seq: int, started: float, *, background: bool = False) -> bool:
        if not self._checkpoint(max(left, 0.05), background=background):
            return False
        with self._guard:
            if self._seq == seq:
                self._due = None
            else:  # frees committed while it ran: their deadline is no earlier than this
                self._due = started + self.within
        return True

    def flush(self, wait: float) -> bool:
        """Erase what is pending now; False (logged) if the store stayed busy for ``wait`` seconds."""
        with self._guard:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            due, seq = self._due, self._seq
        if due is None:
            return True
        deadline = time.monotonic() + wait
        while True:  # another handle's checkpoint answers "busy" at once: try again until the deadline
            started = time.monotonic()
            if self._run(max(deadline - started, 0.05), seq, started):
                return True
            if time.monotonic() >= deadline or self._failing() is not None:
                break
            time.sleep(0.005)
        if self._failing() is None:  # else its warning said why, once
            logger.warning("freed content could not be erased: the store stayed busy for %.1fs", wait)
        return False
