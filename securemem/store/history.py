"""The version history's hash chain, shared by every backend, and the rules that check it.

Each store (namespace) has its own chain, so deleting a store takes its whole chain with it and
leaves every other store's chain whole. A version row carries:

- ``digest``: a hiding commitment to what a redaction erases (path, content hash, size, and
  whether the version kept its content), made with a random per-version ``salt``. A redaction
  erases the salt with the rest, so the digest left behind says nothing about the path (a
  guessable path cannot be confirmed by hashing guesses);
- ``link``: SHA-256 over the previous version's link and every field a redaction keeps (memory,
  operation, the version a redaction event names, actor, session, time) and the digest.

So a row changed, removed or moved by someone who holds the key but edits the file directly
breaks the links from there on; a redaction changes no link. The keys of a store's versions run
``lo + 1, lo + 2, ...`` (``lo = ns << 40``) with no gap, so a renumbered version is named too.
The chain proves nothing about its own end: a tail cut off (or appended) leaves a valid shorter
(or longer) chain, which is why ``securemem audit head`` prints the head for the auditor to pin
outside the store.

Redactions are chained too: the operator's redaction of a version appends a ``redaction`` event
naming it, and an expiry's redaction of a memory's versions follows its chained ``expired``
version in the erase form (recorded without a path: its digest is ``ERASED``); ``check`` refuses
any other redacted row, and any redacted row that still holds something a redaction erases, so a
redaction cannot be forged (or undone) in place.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import struct
from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from securemem.store.base import Actor, VersionRow

OPS = ("created", "modified", "deleted", "expired", "redaction")
OP_CODE = {name: code for code, name in enumerate(OPS)}
PUBLIC_OPS = {"created": ("created",), "modified": ("modified",), "deleted": ("deleted", "expired")}
SEQ_BITS = 40  # a version's number is its store's number, then 40 bits of its place in the store's chain
VERSION_ROW_BYTES = 128  # what one version row takes besides its path and text
# What a version counts against its store's quota besides its path and text: its own row, and the
# row of the redaction event a redaction of it will add, held in reserve from the start so that no
# redaction (an operator's, or the retention's, which is never refused) grows a store.
ROW_SHARE = 2 * VERSION_ROW_BYTES
EXPIRY_ACTOR = "securemem:expiry"  # the api_key_id of what expiry and retention do
MIGRATION_ACTOR = "securemem:migration"  # versions recorded for files written before history existed
_NONE = b"\x00"


def share(op: str, path: str | None, data: bytes | None) -> int:
    """What one version row counts against its store's quota (the history total is their sum): its
    text, its path and ``ROW_SHARE``. A redaction event counts nothing: the version it redacts held
    its row in reserve."""
    if op == "redaction":
        return 0
    return len(data or b"") + (0 if path is None else len(path.encode("utf-8"))) + ROW_SHARE


def folds(last_op: str, last_memory: int, op: str, memory: int) -> bool:
    """A change folds into the version its transaction just recorded for the same memory: two
    changes of one memory in one transaction make one version (``store/base.py``, rule 8)."""
    return last_memory == memory and op == "modified" and last_op in ("created", "modified")


def genesis(ns: int) -> bytes:
    """The link before a store's first version: bound to the store, so a chain cannot be moved."""
    return hashlib.sha256(b"securemem-chain-v1\x00" + str(ns).encode()).digest()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def instant(t: float) -> float:
    """A version's time as stored: whole microseconds, as ``datetime.fromtimestamp`` rounds it, so
    the ``created_at`` a listing returns is the stored time exactly (a time filter on it matches)."""
    return round(t * 1_000_000) / 1_000_000


def digest(salt: bytes | None, path: str | None, sha: bytes | None, size: int | None, kept: bool) -> bytes:
    """The commitment to a version's redactable fields, and to whether it kept its content."""
    h = hashlib.sha256(b"securemem-version-v1\x00")
    for part in (salt, None if path is None else path.encode("utf-8"), sha):
        h.update(_field(part))
    h.update(b"\x00" if size is None else b"\x01" + struct.pack(">q", size))
    h.update(b"\x01" if kept else b"\x00")
    return h.digest()


def link(
    prev: bytes,
    *,
    memory: int,
    op: str,
    ref: int | None,
    session_id: str | None,
    api_key_id: str | None,
    created: float,
    digest_: bytes,
) -> bytes:
    h = hashlib.sha256(prev)
    h.update(struct.pack(">qB", memory, OP_CODE[op]))
    h.update(b"\x00" if ref is None else b"\x01" + struct.pack(">q", ref))
    for text in (session_id, api_key_id):
        h.update(_field(None if text is None else text.encode("utf-8")))
    h.update(struct.pack(">d", created))
    h.update(digest_)
    return h.digest()


def _field(part: bytes | None) -> bytes:
    return _NONE if part is None else b"\x01" + struct.pack(">I", len(part)) + part


ERASED = digest(None, None, None, None, False)  # the digest of a version recorded without a path


def new_version(
    seq: int,
    op: str,
    memory: int,
    path: str | None,
    data: bytes | None,
    *,
    ref: int | None,
    actor: Actor,
    prev: bytes,
    created: float,
    keep: bool,
) -> VersionRow:
    """A version as both backends record it: hashed, salted, committed to, and chained after ``prev``.

    ``keep``: the history keeps the text (else the row holds its hash and size only).
    """
    sha = None if data is None else sha256(data)
    size = None if data is None else len(data)
    salt = os.urandom(16) if path is not None else None
    kept = data if keep else None
    digest_ = digest(salt, path, sha, size, kept is not None)
    link_ = link(
        prev,
        memory=memory,
        op=op,
        ref=ref,
        session_id=actor.session_id,
        api_key_id=actor.api_key_id,
        created=created,
        digest_=digest_,
    )
    return VersionRow(
        seq,
        memory,
        op,
        path,
        sha,
        size,
        actor.session_id,
        actor.api_key_id,
        created,
        None,
        kept,
        ref,
        salt,
        digest_,
        link_,
    )


def row_link(prev: bytes, row: VersionRow) -> bytes:
    return link(
        prev,
        memory=row.memory,
        op=row.op,
        ref=row.ref,
        session_id=row.session_id,
        api_key_id=row.api_key_id,
        created=row.created,
        digest_=row.digest,
    )


@dataclass(frozen=True, slots=True)
class ChainProblem:
    """What the chain does not vouch for: a version (``seq``, commit order), or None for the chain
    as a whole (a pinned head it does not hold), and why."""

    seq: int | None
    why: str

    def __str__(self) -> str:
        return self.why if self.seq is None else f"version {self.place}: {self.why}"

    @property
    def place(self) -> int | None:
        """The version's place in its store's chain (1 for the first)."""
        return None if self.seq is None else self.seq & ((1 << SEQ_BITS) - 1)


@dataclass(frozen=True, slots=True)
class ChainReport:
    """``found``: the first problems, in the order the walk met them; ``more``: how many others."""

    versions: int
    head: bytes
    found: list[ChainProblem]
    more: int = 0

    @property
    def problems(self) -> list[str]:
        return [str(problem) for problem in self.found] + ([f"... {self.more} more"] if self.more else [])


def check(ns: int, rows: Iterable[VersionRow], *, limit: int = 20, pinned: bytes | None = None) -> ChainReport:
    """Walk a store's versions in commit order and name every row the chain does not vouch for.

    ``pinned``: a head an auditor recorded earlier (``audit head``): it must be a link of this
    chain, or something up to it was changed, removed or cut off since. Rows are streamed; what is
    remembered: the redacted versions not yet covered by a redaction, and the number of each
    version still whole (8 bytes each), so that an erasing expiry of its memory that follows it
    names one put back. A redaction event must name a version walked redacted.
    """
    walk = _Walk(ns, pinned)
    for row in rows:
        walk.step(row)
    problems = walk.finish()
    return ChainReport(walk.count, walk.prev, problems[:limit], max(0, len(problems) - limit))


class _Walk:
    def __init__(self, ns: int, pinned: bytes | None) -> None:
        start = genesis(ns)
        self.prev, self.pinned, self.count = start, pinned, 0
        self.seq = ns << SEQ_BITS  # the key of the last version walked (none yet: the store's lo)
        self.pinned_seen = pinned is None or hmac.compare_digest(pinned, start)
        self.problems: list[ChainProblem] = []
        self.pending: dict[int, dict[int, float]] = {}  # memory -> its redacted versions not yet covered, and when
        self.covered: dict[int, float] = {}  # versions a redaction event names, and the event's time
        self.erased: set[int] = set()  # versions an expiry redacted (a later redaction may name them too)
        # memory -> its versions walked whole (not redacted): an erasing expiry of the memory must
        # find none (8 bytes a version: the walk's memory stays small)
        self.whole: dict[int, array[int]] = {}
        self.total: int | None = 0  # what the versions walked hold against the quota (see ``share``)
        self.last_total: int | None = None  # the total the newest row walked records

    def step(self, row: VersionRow) -> None:
        self.count += 1
        if row.seq != self.seq + 1:  # keys run lo + 1, lo + 2, ...: another key was renumbered or removed
            expected = (self.seq + 1) & ((1 << SEQ_BITS) - 1)
            why = f"it is numbered out of turn (the chain's next number is {expected}): renumbered, or one removed"
            self.problems.append(ChainProblem(row.seq, why))
        self.seq = row.seq
        if row.malformed is not None:
            self.problems.append(ChainProblem(row.seq, row.malformed))
            self.prev, self.total = row.link, None  # the walk goes on from its link; no total can be vouched for
            return
        if self.total is not None:
            self.total += share(row.op, row.path, row.data)
        self.last_total = row.total
        if row.redacted is None:
            if digest(row.salt, row.path, row.sha256, row.size, row.data is not None) != row.digest:
                self.problems.append(
                    ChainProblem(row.seq, "its path, hash or size was changed, or its content removed")
                )
            elif row.data is not None and sha256(row.data) != row.sha256:
                self.problems.append(ChainProblem(row.seq, "its content was changed"))
        elif any(part is not None for part in (row.path, row.sha256, row.size, row.data, row.salt)):
            self.problems.append(ChainProblem(row.seq, "redacted, yet it holds a path, content, hash, size or salt"))
        if not hmac.compare_digest(row_link(self.prev, row), row.link):
            why = "the chain breaks here (this row, or one before it, was changed, removed or moved)"
            self.problems.append(ChainProblem(row.seq, why))
        self.prev = row.link
        if not self.pinned_seen and self.pinned is not None and hmac.compare_digest(self.pinned, row.link):
            self.pinned_seen = True
        self._redactions(row)

    def _redactions(self, row: VersionRow) -> None:
        """Keep track of which redacted versions a redaction event vouches for, and when."""
        if row.op == "redaction" and row.ref is not None:
            when = self.pending.get(row.memory, {}).pop(row.ref, None)
            if when is None and row.ref not in self.covered and row.ref not in self.erased:
                # the version it names was walked whole: its text put back after the redaction
                self.problems.append(ChainProblem(row.ref, "a redaction names it, yet it holds its content again"))
            self.covered[row.ref] = row.created
            self._redacted_when(when, row.ref, row.created)
        elif row.op == "expired" and hmac.compare_digest(row.digest, ERASED):
            # an expiry recorded without the path (redact_expired) redacts every version of its
            # memory before it; one that kept the path (the setting off) redacts nothing
            for seq, when in self.pending.pop(row.memory, {}).items():
                self.erased.add(seq)
                self._redacted_when(when, seq, row.created)
            for seq in self.whole.pop(row.memory, ()):
                self.problems.append(ChainProblem(seq, "an expiry erased it, yet it holds its content again"))
        if row.redacted is not None:
            self.pending.setdefault(row.memory, {})[row.seq] = row.redacted
        elif row.op in ("created", "modified", "deleted"):
            self.whole.setdefault(row.memory, array("q")).append(row.seq)

    def _redacted_when(self, when: float | None, seq: int, event: float) -> None:
        """A redacted version's time is its redaction event's (a second apart at most: stores
        written before the two were made equal rounded one of them)."""
        if when is not None and abs(when - event) > 1.0:
            self.problems.append(ChainProblem(seq, "its redaction time is not the time its redaction was recorded"))

    def finish(self) -> list[ChainProblem]:
        if not self.pinned_seen:
            why = "the pinned head is not in this chain: versions up to it were changed, removed or cut off"
            self.problems.append(ChainProblem(None, why))
        for memory in list(self.pending):
            for seq, when in self.pending.pop(memory).items():
                if seq not in self.covered:
                    self.problems.append(ChainProblem(seq, "redacted without a recorded redaction"))
                else:
                    self._redacted_when(when, seq, self.covered[seq])
        if self.total is not None and self.last_total is not None and self.last_total != self.total:
            why = f"the history total it records ({self.last_total:,}) is not what the versions hold ({self.total:,})"
            self.problems.append(ChainProblem(self.seq, why))
        return self.problems
