"""Zero what SQLite leaves behind inside live pages, so that deleted content is really gone.

``secure_delete = ON`` zeroes a deleted cell and a freed page, but not everything: when SQLite
rebalances a b-tree it rebuilds pages by writing their cells from the end of the page, and the
bytes between the cell pointer array and the new cell content area keep whatever was there
before, copies of cells included. A row deleted later, or a path renamed, can survive in such a
gap of a page that is still in use. No PRAGMA reaches it and ``VACUUM`` costs a rewrite of the
whole store, so after each erasure checkpoint the store reads its own pages and rewrites those
that hold stray bytes:

- every page of the file is decrypted (SQLCipher 4: AES-256-CBC, then a 16-byte IV and the page's
  HMAC at the end of each page: HMAC-SHA256 in the stores this release creates, HMAC-SHA512 in
  older ones, see ``PageFormat``; page 1 starts with the salt);
- a page is rewritten only if its HMAC verifies under the store's key, so nothing but a genuine
  page of this store, under its current key, is ever touched;
- in a b-tree page, the gap between the cell pointer array and the cell content area and the body
  of every freeblock are zeroed; a page on the freelist is zeroed whole (a trunk page after its
  list). Nothing SQLite reads changes: the page means exactly what it meant;
- the page is encrypted again with a fresh IV and its HMAC recomputed.

The pages are found by a read without the write lock (``find_dirty``) and rewritten under it with
the WAL empty, so the file is the whole state and no securemem connection reads meanwhile (the
caller reads them all again under the lock if another connection committed in between); it then
makes every connection drop its cached pages (see ``SQLCipherStore._scrub``). The pages are
written to a side journal first and fsynced, so a crash in the middle leaves no torn page: the
next open puts back, from the journal, any page that no longer verifies.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import os
import stat
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from securemem.private_files import create_private

PAGE = 4096
IV_BYTES = 16
# SQLite's usable part of a page: the b-tree header of every store says 80 reserved bytes (SQLCipher
# reserves them when the key is given, before the HMAC algorithm is chosen), whatever its format.
USABLE = PAGE - 80
SALT_BYTES = 16
_BTREE_TYPES = frozenset({2, 5, 10, 13})
_CHUNK_PAGES = 256
# Overflow and freelist trunk pages start with a page number: below 2^24 pages its first byte is
# 0, so it cannot be read as a b-tree page type. Larger files (64 GiB and up) are not scrubbed.
MAX_PAGES = 1 << 24
JOURNAL_SUFFIX = "-scrub"


@dataclass(frozen=True)
class PageFormat:
    """Where a page's IV and HMAC sit, and which hash the HMAC uses.

    SQLCipher 4 encrypts ``[0, PAGE - reserve)`` of a page (page 1 from byte 16, after the salt)
    with AES-256-CBC, then stores the IV and the HMAC of the ciphertext, the IV and the page
    number. The HMAC key is PBKDF2-HMAC-SHA512 of the key (2 rounds, the salt XOR 0x3A) in both.
    """

    pragma: str  # the value of SQLCipher's ``PRAGMA cipher_hmac_algorithm``
    digest: str  # hashlib's name of the HMAC's hash
    hmac_bytes: int

    @property
    def iv_at(self) -> int:
        """Where the IV starts: the encrypted part of a page ends there."""
        return PAGE - IV_BYTES - self.hmac_bytes


# HMAC-SHA256 costs a third less per page than SQLCipher's default HMAC-SHA512 (every page a
# commit writes or a read decrypts is hashed), for a 256-bit tag: stores are created with it.
# Stores created before keep HMAC-SHA512; an open finds which one a file uses (``detect``).
SHA256 = PageFormat("HMAC_SHA256", "sha256", 32)
SHA512 = PageFormat("HMAC_SHA512", "sha512", 64)
FORMATS = (SHA256, SHA512)
NEW_STORES = SHA256


class PageCodec:
    """SQLCipher 4's page format for one key and salt (raw-key form: the key is the AES key)."""

    def __init__(self, key: bytes, salt: bytes, page_format: PageFormat = NEW_STORES) -> None:
        self._key = key
        self.salt = salt
        self.format = page_format
        self._iv_at = page_format.iv_at
        self._digest = getattr(hashlib, page_format.digest)
        self._hmac_key = hashlib.pbkdf2_hmac("sha512", key, bytes(b ^ 0x3A for b in salt), 2, 32)

    @property
    def material(self) -> bytes:
        """The raw key (to key another connection to the same store)."""
        return self._key

    def with_format(self, page_format: PageFormat) -> PageCodec:
        return PageCodec(self._key, self.salt, page_format)

    def _mac(self, page: bytes | bytearray, number: int, start: int) -> bytes:
        mac = hmac.new(self._hmac_key, memoryview(page)[start : self._iv_at + IV_BYTES], self._digest)
        mac.update(number.to_bytes(4, "little"))
        return mac.digest()

    def verifies(self, page: bytes, number: int) -> bool:
        """True if ``page`` is page ``number`` of this store under this key (its HMAC checks)."""
        start = SALT_BYTES if number == 1 else 0
        return hmac.compare_digest(self._mac(page, number, start), page[self._iv_at + IV_BYTES : PAGE])

    def decrypt(self, page: bytes, number: int, *, verify: bool = True) -> bytearray | None:
        """The page in clear (page 1: its first 16 bytes left as they are), or None if its HMAC fails."""
        if verify and not self.verifies(page, number):
            return None
        start, iv_at = SALT_BYTES if number == 1 else 0, self._iv_at
        decryptor = Cipher(algorithms.AES(self._key), modes.CBC(page[iv_at : iv_at + IV_BYTES])).decryptor()
        return bytearray(page[:start]) + decryptor.update(page[start:iv_at]) + decryptor.finalize()

    def decrypt_run(self, raw: bytes, first: int) -> bytearray:
        """Pages ``first``, ``first + 1``, ... in clear, decrypted with one cipher call (unchecked).

        CBC decrypts a block with the ciphertext block before it: decrypted as one stream, every
        block of a page is right but its first, which took the tail of the page before (or the
        salt) for its IV. That block is corrected with the page's own IV. The reserve of each
        page comes out as noise: only ``[start:USABLE]`` of a page is meant to be read.
        """
        decryptor = Cipher(algorithms.AES(self._key), modes.CBC(bytes(IV_BYTES))).decryptor()
        clear = bytearray(decryptor.update(raw) + decryptor.finalize())
        for i in range(len(raw) // PAGE):
            at = i * PAGE + (SALT_BYTES if first + i == 1 else 0)
            before = raw[at - IV_BYTES : at] if at else bytes(IV_BYTES)
            iv = raw[i * PAGE + self._iv_at : i * PAGE + self._iv_at + IV_BYTES]
            fix = int.from_bytes(before, "big") ^ int.from_bytes(iv, "big")
            block = int.from_bytes(clear[at : at + IV_BYTES], "big") ^ fix
            clear[at : at + IV_BYTES] = block.to_bytes(IV_BYTES, "big")
            if first + i == 1:
                clear[:SALT_BYTES] = raw[:SALT_BYTES]
        return clear

    def encrypt(self, clear: bytes | bytearray, number: int) -> bytes:
        """``clear`` (a page as ``decrypt`` gives it) encrypted with a fresh IV, with its HMAC."""
        start = SALT_BYTES if number == 1 else 0
        iv = os.urandom(IV_BYTES)
        encryptor = Cipher(algorithms.AES(self._key), modes.CBC(iv)).encryptor()
        page = bytearray(clear[:start]) + encryptor.update(bytes(clear[start : self._iv_at])) + encryptor.finalize()
        page += iv
        page += self._mac(page, number, start)
        return bytes(page)


_ZEROS = bytes(PAGE)


def _zero(page: bytearray, start: int, end: int) -> bool:
    if end <= start or page[start:end] == _ZEROS[: end - start]:  # compared in C, not byte by byte
        return False
    page[start:end] = _ZEROS[: end - start]
    return True


def clean_btree_page(page: bytearray, number: int) -> bool:
    """Zero the gap and the freeblock bodies of a b-tree page in clear; True if a byte changed."""
    hdr = 100 if number == 1 else 0
    kind = page[hdr]
    if kind not in _BTREE_TYPES:
        return False
    cells = int.from_bytes(page[hdr + 3 : hdr + 5], "big")
    content = int.from_bytes(page[hdr + 5 : hdr + 7], "big") or 65536
    pointers_end = hdr + (12 if kind in (2, 5) else 8) + 2 * cells
    if not pointers_end <= content <= USABLE:
        return False  # not a page we understand: leave it as it is
    changed = _zero(page, pointers_end, content)
    block, seen = int.from_bytes(page[hdr + 1 : hdr + 3], "big"), 0
    while block and seen < USABLE // 4:
        if not content <= block <= USABLE - 4:
            break
        size = int.from_bytes(page[block + 2 : block + 4], "big")
        if size < 4 or block + size > USABLE:
            break
        changed |= _zero(page, block + 4, block + size)
        block, seen = int.from_bytes(page[block : block + 2], "big"), seen + 1
    return changed


def freelist(read: ReadPage, first_page: bytes | bytearray) -> dict[int, int]:
    """Free pages: trunk page -> where its unused bytes start; leaf page -> 0 (unused whole)."""
    found: dict[int, int] = {}
    trunk = int.from_bytes(first_page[32:36], "big")
    while trunk and trunk not in found and len(found) < MAX_PAGES:
        page = read(trunk)
        if page is None:
            break
        leaves = int.from_bytes(page[4:8], "big")
        if leaves > (USABLE - 8) // 4:
            break
        found[trunk] = 8 + 4 * leaves
        for i in range(leaves):
            leaf = int.from_bytes(page[8 + 4 * i : 12 + 4 * i], "big")
            if leaf:
                found.setdefault(leaf, 0)
        trunk = int.from_bytes(page[0:4], "big")
    return found


class ReadPage:
    """Reads and decrypts single pages of the file (for the freelist walk)."""

    def __init__(self, fd: int, codec: PageCodec) -> None:
        self._fd, self._codec = fd, codec

    def __call__(self, number: int) -> bytearray | None:
        raw = os.pread(self._fd, PAGE, (number - 1) * PAGE)
        return self._codec.decrypt(raw, number) if len(raw) == PAGE else None


def dirty_pages(fd: int, codec: PageCodec, only: Collection[int] | None = None) -> Iterator[tuple[int, bytes]]:
    """The pages of the file that hold stray bytes: (page number, the page to write instead).

    Every page, or only the pages numbered in ``only`` (each read afresh).
    """
    size = os.fstat(fd).st_size
    count = size // PAGE
    if count == 0 or count >= MAX_PAGES:
        return
    read = ReadPage(fd, codec)
    first = read(1)
    if first is None:
        return  # not our key (re-keyed by another process meanwhile): touch nothing
    free = freelist(read, first)
    runs = _runs(count) if only is None else _runs_of(only, count)
    for base, length in runs:
        chunk = os.pread(fd, PAGE * min(length, count - base), base * PAGE)
        # Decrypted unchecked, a run at a time (the HMAC would double the cost); a page is checked
        # before anything is written.
        run = codec.decrypt_run(chunk, base + 1)
        for i in range(len(chunk) // PAGE):
            number = base + i + 1
            raw = chunk[i * PAGE : (i + 1) * PAGE]
            clear = run[i * PAGE : (i + 1) * PAGE]
            unused = free.get(number)
            changed = clean_btree_page(clear, number) if unused is None else _zero(clear, unused, USABLE)
            if changed and (number == 1 or codec.verifies(raw, number)):
                yield number, codec.encrypt(clear, number)


def _runs(count: int) -> Iterator[tuple[int, int]]:
    for base in range(0, count, _CHUNK_PAGES):
        yield base, _CHUNK_PAGES


def _runs_of(numbers: Collection[int], count: int) -> Iterator[tuple[int, int]]:
    """The pages numbered in ``numbers`` (those the file holds) as runs of consecutive pages, each read
    by one system call (a read per page cost the eraser, after a burst of writes, a hand-off of the
    GIL each)."""
    base = length = 0
    for number in sorted(number for number in numbers if 1 <= number <= count):
        if length and number == base + length + 1 and length < _CHUNK_PAGES:
            length += 1
            continue
        if length:
            yield base, length
        base, length = number - 1, 1
    if length:
        yield base, length


def find_dirty(path: Path, codec: PageCodec, only: Collection[int] | None = None) -> list[int]:
    """The numbers of the pages (of all, or of those in ``only``) that hold stray bytes, read
    without writing anything.

    Run without the write lock, so that the store keeps working while a big file is read; the
    caller then rewrites these pages under the lock (``scrub_file(..., only=...)``), after making
    sure the file did not change meanwhile.
    """
    fd = os.open(path, os.O_RDONLY)
    try:
        return [number for number, _ in dirty_pages(fd, codec, only)]
    finally:
        os.close(fd)


def scrub_file(path: Path, codec: PageCodec, only: Collection[int] | None = None) -> int:
    """Rewrite the pages of ``path`` (or of them, those in ``only``) that hold stray bytes, through
    a journal; returns the pages rewritten.

    The caller holds the write lock with the WAL empty: no checkpoint can write the file meanwhile.
    A journal a scrub cut short by a crash left (another process's) holds the pages as they were
    before that scrub, stray bytes and all: it is repaired from and removed first, whether or not
    this scrub finds a page to rewrite (an attacker's round found it outlive every other handle's
    scrub and close, until the store's next open). What cannot be a journal is left to the open,
    which says so.
    """
    with contextlib.suppress(OSError):
        repair_torn(path, codec)
    if only is not None and not only:
        return 0
    fd = os.open(path, os.O_RDWR)
    try:
        found = list(dirty_pages(fd, codec, only))
        if not found:
            return 0
        journal = Path(f"{path}{JOURNAL_SUFFIX}")
        _write_journal(journal, found)
        for number, page in found:
            os.pwrite(fd, page, (number - 1) * PAGE)
        os.fsync(fd)
    finally:
        os.close(fd)
    journal.unlink()
    return len(found)


def _write_journal(journal: Path, pages: list[tuple[int, bytes]]) -> None:
    with contextlib.suppress(FileNotFoundError):
        journal.unlink()
    fd = create_private(journal)
    try:
        data = memoryview(b"".join(number.to_bytes(4, "big") + page for number, page in pages))
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def read_journal(path: Path, limit: int | None = None) -> bytes | None:
    """The scrub's journal beside the store at ``path`` (at most ``limit`` bytes), None if there is none.

    OSError if what is there cannot be one: not a regular file (a FIFO would hang the open that
    reads it, a link to a device fill its memory), or larger than a copy of every page of the store.
    Such a file is someone's: it is named for the operator to move, never read through or deleted.
    """
    name = f"{path}{JOURNAL_SUFFIX}"
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(
                exc.errno, f"{name} is not the store's scrub journal (a symbolic link): move it away"
            ) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{name} is not the store's scrub journal (not a regular file): move it away")
        most = (os.stat(path).st_size // PAGE + 1) * (4 + PAGE)
        data = os.pread(fd, most + 1 if limit is None else min(limit, most + 1), 0)
        if len(data) > most:
            raise OSError(errno.EFBIG, f"{name} is not the store's scrub journal (larger than the store): move it away")
        return data
    finally:
        os.close(fd)


def repair_torn(path: Path, codec: PageCodec) -> int:
    """After a crash in ``scrub_file``: put back, from its journal, the pages that no longer verify.

    Only a page whose HMAC fails (torn by the crash) is written: a page that verifies is the old
    version, the scrubbed one or a newer one written since, each whole and correct. Then the
    journal is removed. Returns the pages repaired.
    """
    journal = Path(f"{path}{JOURNAL_SUFFIX}")
    data = read_journal(path)
    if data is None:
        return 0
    repaired = 0
    record = 4 + PAGE
    fd = os.open(path, os.O_RDWR)
    try:
        for at in range(0, len(data) - record + 1, record):
            number = int.from_bytes(data[at : at + 4], "big")
            page = data[at + 4 : at + record]
            if not number or not codec.verifies(page, number):
                continue  # a record the crash tore: the file's page was not written yet
            current = os.pread(fd, PAGE, (number - 1) * PAGE)
            if len(current) == PAGE and not codec.verifies(current, number):
                os.pwrite(fd, page, (number - 1) * PAGE)
                repaired += 1
        os.fsync(fd)
    finally:
        os.close(fd)
    # Another process opening the store at the same moment may have repaired and removed it first.
    journal.unlink(missing_ok=True)
    return repaired


def detect(path: Path, key: bytes, salt: bytes) -> PageFormat | None:
    """The format whose HMAC verifies page 1 of the file under ``key`` and ``salt``.

    Failing that (page 1 torn by a crash in ``scrub_file``), the format a record of the scrub's
    journal verifies under. None: neither (a wrong key, or page 1 only in the WAL, after a
    re-key that a crash cut short before its checkpoint).
    """
    try:
        with open(path, "rb") as file:
            first = file.read(PAGE)
    except OSError:
        return None
    codecs = [PageCodec(key, salt, page_format) for page_format in FORMATS]
    if len(first) == PAGE:
        for codec in codecs:
            if codec.verifies(first, 1):
                return codec.format
    try:
        record = read_journal(path, 4 + PAGE)
    except OSError:
        return None  # repair_torn says what is wrong with it
    if record is None:
        return None
    number = int.from_bytes(record[:4], "big")
    if len(record) == 4 + PAGE and number:
        for codec in codecs:
            if codec.verifies(record[4:], number):
                return codec.format
    return None


# The WAL (SQLite's format, headers in clear): a 32-byte header, then frames of a 24-byte header
# and a page. Bytes 12-24 of the header (the checkpoint sequence number and the two salts) change
# whenever a checkpoint restarts the WAL or truncates it; a frame is of the WAL's current
# generation when its salts are the header's.
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER, FRAME_HEADER = 32, 24
_T = TypeVar("_T")


def _read_wal(wal: Path, read: Callable[[int, bytes], _T]) -> _T | None:
    """``read(fd, header)`` on the WAL opened for reading; None if it cannot be opened or holds no
    header (an empty or zeroed WAL). SQLite never locks the WAL, so opening and closing it here
    drops no lock of SQLite's (closing a file SQLite holds locks on would)."""
    try:
        fd = os.open(wal, os.O_RDONLY)
    except OSError:
        return None
    try:
        head = os.pread(fd, WAL_HEADER, 0)
        if len(head) < WAL_HEADER or int.from_bytes(head[:4], "big") not in WAL_MAGIC:
            return None
        return read(fd, head)
    finally:
        os.close(fd)


def _frame_bytes(head: bytes) -> int:
    return FRAME_HEADER + int.from_bytes(head[8:12], "big")


def wal_marker(wal: Path) -> bytes | None:
    """What identifies the WAL's current generation (None: no WAL header, an empty or zeroed WAL)."""
    return _read_wal(wal, lambda fd, head: head[12:24])


def wal_reaches(wal: Path, frames: int) -> bool:
    """The WAL's current generation holds ``frames`` frames or more.

    Frame number ``frames`` carries the header's salts only once the generation reached it: frames
    of an earlier generation, and zeros, carry others. Two reads of the WAL.
    """

    def reaches(fd: int, head: bytes) -> bool:
        header = os.pread(fd, FRAME_HEADER, WAL_HEADER + (frames - 1) * _frame_bytes(head))
        return len(header) == FRAME_HEADER and header[8:16] == head[16:24]

    return _read_wal(wal, reaches) is True


def uncommitted_tail(wal: Path) -> bool:
    """The WAL's current generation ends in a frame no commit closes: a writer's pages spilled into the
    WAL (a transaction larger than the page cache) and it died or rolled back before its commit, or a
    commit is being written right now. Its frames stay in the file after the WAL's valid end, where
    commits that follow only overwrite them as far as they reach (a dozen reads)."""

    def ends_open(fd: int, head: bytes) -> bool:
        frames = _generation_frames(fd, head)
        if not frames:
            return False
        header = os.pread(fd, FRAME_HEADER, WAL_HEADER + (frames - 1) * _frame_bytes(head))
        return len(header) == FRAME_HEADER and header[4:8] == b"\0\0\0\0"  # a commit frame holds the size

    return _read_wal(wal, ends_open) is True


def wal_frames(wal: Path) -> int:
    """How many frames the WAL's current generation holds (0: no header, an empty or zeroed WAL)."""
    return _read_wal(wal, _generation_frames) or 0


def _generation_frames(fd: int, head: bytes) -> int:
    """The frames of the generation whose header is ``head`` that the file holds whole.

    Its frames are the first ones; every later frame carries other salts (an earlier generation's)
    or none (zeros): a binary search, a dozen reads of a full WAL.
    """
    frame, salts = _frame_bytes(head), head[16:24]
    low, high = 0, max(0, (os.fstat(fd).st_size - WAL_HEADER) // frame)
    while low < high:  # frames 1..low are of the generation; high is the most there can be
        middle = (low + high + 1) // 2
        header = os.pread(fd, FRAME_HEADER, WAL_HEADER + (middle - 1) * frame)
        if len(header) == FRAME_HEADER and header[8:16] == salts:
            low = middle
        else:
            high = middle - 1
    return low


# Frames read by one system call where a generation's frames are walked: a read per frame cost a full
# WAL milliseconds, most of them waiting to take the GIL back from the thread running commands after
# each read (and the eraser walks frames under the store's lock, which every command waits for).
_CHUNK_FRAMES = 64


def _generation_headers(fd: int, head: bytes) -> Iterator[bytes]:
    """The headers of the generation's frames, in order (a frame's header may end the file)."""
    frame, salts = _frame_bytes(head), head[16:24]
    at = WAL_HEADER
    while True:
        data = os.pread(fd, _CHUNK_FRAMES * frame, at)
        for offset in range(0, len(data), frame):
            if len(data) - offset < FRAME_HEADER or data[offset + 8 : offset + 16] != salts:
                return
            yield data[offset : offset + FRAME_HEADER]
        if len(data) < _CHUNK_FRAMES * frame:
            return
        at += len(data)


def newest_frame_start(wal: Path, page: int, size: int) -> bytes | None:
    """The first ``size`` bytes of page ``page`` as the newest frame of the WAL's current generation
    that holds it has it (None: no frame of the generation holds it whole). Read back from the
    generation's last frame, a chunk of frames at a time: the newest is most often in the first."""

    def newest(fd: int, head: bytes) -> bytes | None:
        frame, wanted = _frame_bytes(head), page.to_bytes(4, "big")
        end = _generation_frames(fd, head)
        while end > 0:
            first = max(0, end - _CHUNK_FRAMES)
            data = os.pread(fd, (end - first) * frame, WAL_HEADER + first * frame)
            for index in range(min(end - first, len(data) // frame) - 1, -1, -1):
                offset = index * frame
                if data[offset : offset + 4] == wanted:
                    return data[offset + FRAME_HEADER : offset + FRAME_HEADER + size]
            end = first
        return None

    return _read_wal(wal, newest)


def wal_usage(wal: Path) -> tuple[int, int]:
    """How many frames the WAL's current generation holds, and how many of them end a commit (a
    commit frame carries the database's size after it; the others carry zero)."""

    def count(fd: int, head: bytes) -> tuple[int, int]:
        frames = commits = 0
        for header in _generation_headers(fd, head):
            frames += 1
            commits += header[4:8] != b"\0\0\0\0"
        return frames, commits

    return _read_wal(wal, count) or (0, 0)


def next_generation(marker: bytes) -> bytes:
    """How the WAL's generation after ``marker``'s is marked: SQLite restarts the WAL with its
    checkpoint sequence and its first salt each one more (the second salt is drawn at random, so
    this is the first 8 of the marker's 12 bytes)."""
    sequence = (int.from_bytes(marker[:4], "big") + 1) & 0xFFFFFFFF
    salt = (int.from_bytes(marker[4:8], "big") + 1) & 0xFFFFFFFF
    return sequence.to_bytes(4, "big") + salt.to_bytes(4, "big")


def generation_pages(wal: Path, marker: bytes) -> tuple[bytes, set[int]] | None:
    """The WAL's generation's whole marker and the numbers of the pages in its frames, if its marker
    starts with ``marker`` (12 bytes, or the 8 of ``next_generation``); None if it does not (a
    checkpoint restarted it meanwhile)."""

    def pages_in(fd: int, head: bytes) -> tuple[bytes, set[int]] | None:
        if head[12 : 12 + len(marker)] != marker:
            return None
        found = {int.from_bytes(header[:4], "big") for header in _generation_headers(fd, head)}
        if os.pread(fd, WAL_HEADER, 0)[12:24] != head[12:24]:
            return None
        found.discard(0)
        return head[12:24], found

    return _read_wal(wal, pages_in)
