"""Attacks on the scoped erasure read (commits f04ddbe, 5585a2c): a pass reads only the pages in the
WAL's frames when the WAL is still of the generation recorded right after the handle's last scrub.
Written by a fresh reviewer; each failed before its fix.

Each test here ends with every handle flushed and closed, then decrypts every page and WAL frame
with the key (tests/sqlcipher_pages.py) and looks for text a command removed.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.policy import HistorySettings, Policy
from securemem.store import pages, sqlcipher
from tests.helpers import ok
from tests.sqlcipher_pages import plaintext_of

NO_HISTORY = Policy(history=HistorySettings(versions=False))


def _store_of(memory: SecureMemory) -> Any:
    from tests.helpers import sqlcipher_of

    return sqlcipher_of(memory.store)


def _name(path: str) -> str:
    return path.rsplit("/", 1)[1].split("Q", 1)[0] + "Q"  # the marker the name is made of


def _markers_in_gaps(db: Path, codec: pages.PageCodec) -> set[str]:
    """The markers (``...N12345Q`` names, ``...T12345Z`` texts) in bytes a scrub would zero."""
    found: set[str] = set()
    data = db.read_bytes()
    for number in range(1, len(data) // pages.PAGE + 1):
        clear = codec.decrypt(data[(number - 1) * pages.PAGE : number * pages.PAGE], number)
        if clear is None:
            continue
        before = bytes(clear)
        if pages.clean_btree_page(clear, number):
            changed = bytes(a if a != b else 0 for a, b in zip(before, clear, strict=True))
            found |= {m.decode() for m in re.findall(rb"[A-Z]{4}[NT]\d{5}[QZ]", changed)}
    return found


def _fill(memory: SecureMemory, db: Path, tag: str, made: dict[str, str], count: int, seed: int = 1) -> None:
    """``count`` creates from ``memory`` (no deletes, renames or overwrites: nothing freed), in one
    directory, of long names in a random order: inserts land in the middle of the b-trees, whose
    splits leave copies of moved cells in page gaps. Until the WAL's generation has reached
    COMPACT_FRAMES at least once more: the handle's eraser is asked for growth-only checkpoints.
    Paths and content markers go into ``made``."""
    rnd = random.Random(seed)
    eraser = _store_of(memory)._eraser
    real_soon = eraser.soon
    asked: list[int] = []

    def soon() -> None:
        asked.append(1)
        real_soon()

    setattr(eraser, "soon", soon)  # an instance's method, spied on
    try:
        while len(made) < count or not asked:
            n = rnd.randrange(100000)
            # The name repeats its marker: any fragment of it a gap keeps holds the whole marker.
            path = f"/memories/{tag}/{f'{tag}N{n:05d}Q' * rnd.randint(8, 18)}.md"
            if path in made:
                continue
            marker = f"{tag}T{n:05d}Z"
            ok(memory, command="create", path=path, file_text=f"{marker} " * rnd.randint(1, 20))
            made[path] = marker
            if asked and len(made) < count:
                memory.store.flush_erasure()  # the growth-only pass, now rather than on the eraser's thread
                asked.clear()
    finally:
        setattr(eraser, "soon", real_soon)


@pytest.mark.slow
def test_marker_recorded_after_the_scrub_can_name_a_generation_that_started_after_unscrubbed_pages(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handle records its "scrubbed at" WAL generation (pages.wal_marker) AFTER ``_scrub`` has
    committed and released the write lock. Another handle (here in the same process; another
    process races the same way) can get in between: it commits pages (b-tree splits leave copies
    of their cells in page gaps), its growth-only pass (WAL near COMPACT_FRAMES, nothing freed by
    it) checkpoints them into the file UNSCRUBBED and restarts the WAL, and its next commit starts
    a new generation. The first handle then records that new generation as the one its scrub left,
    so its next erasure reads only the pages in the new generation's frames: the pages with the
    stray copies, written in the lost generation, are never read, and text deleted later stays
    decryptable. The interleaving is forced at the one point it can happen (the hook runs the
    other handle's commands just before the marker is read), as a scheduler could.
    """
    db = tmp_path / "race.db"
    monkeypatch.setattr(sqlcipher, "COMPACT_FRAMES", 1000)  # growth-only passes as often as before the room grew
    first = SecureMemory.open(db, key=key, policy=NO_HISTORY)
    other = SecureMemory.open(db, key=key, policy=NO_HISTORY)
    made: dict[str, str] = {}
    try:
        for i in range(40):
            ok(first, command="create", path=f"/memories/base/b{i:03d}.md", file_text=f"KEEPBASE{i:03d}Z " * 60)
        # The other handle frees something and scrubs: it now has nothing of its own to erase.
        ok(other, command="create", path="/memories/tmp.md", file_text="tmp\n")
        ok(other, command="delete", path="/memories/tmp.md")
        other.store.flush_erasure()
        assert _store_of(other)._freed_since_scrub is False

        real_marker = pages.wal_marker
        armed = {"on": True}

        def interleaved(wal: Path) -> bytes | None:
            if armed["on"]:
                armed["on"] = False
                # Between the first handle's scrub COMMIT and its reading of the WAL header:
                _fill(other, db, "RACE", made, 500)  # the growth asks for checkpoints
                other.store.flush_erasure()  # growth-only pass: TRUNCATE, no page read
                assert real_marker(Path(f"{db}-wal")) is None  # no frame left (zeros, the WAL's room)
                ok(other, command="create", path="/memories/after.md", file_text="after\n")  # new generation
            return real_marker(wal)

        monkeypatch.setattr(pages, "wal_marker", interleaved)
        ok(first, command="delete", path="/memories/base/b000.md")
        first.store.flush_erasure()  # a full scrub; then the hook runs before the marker is read
        assert not armed["on"]
        monkeypatch.setattr(pages, "wal_marker", real_marker)

        # Later, the first handle deletes the files a copy of whose name or text sits in a page's
        # gap (stray bytes left by the other handle's inserts, checkpointed unscrubbed).
        stray = _markers_in_gaps(db, _store_of(first)._codec)
        victims = sorted(p for p, marker in made.items() if marker in stray or _name(p) in stray)
        assert victims, "no stray copy this time (the workload is deterministic: should not happen)"
        reads: list[object] = []
        real_find = pages.find_dirty

        def spy(path: Path, codec: pages.PageCodec, only: Any = None) -> list[int]:
            reads.append(None if only is None else sorted(only))
            return real_find(path, codec, only)

        monkeypatch.setattr(pages, "find_dirty", spy)
        for path in victims:
            ok(first, command="delete", path=path)
        first.store.flush_erasure()
        # Fixed: a marker read after another connection got in is not kept, so this erasure reads
        # every page (it read only the new generation's pages before the fix, and missed them).
        assert reads and None in reads, reads
        other.store.flush_erasure()
    finally:
        first.close()
        other.close()
    found = plaintext_of(db, key)
    assert b"KEEPBASE039Z" in found  # the control: the proof sees what is stored
    assert made[sorted(set(made) - set(victims))[0]].encode() in found  # and a file of the window kept
    leaked = sorted(m for p in victims for m in (made[p], _name(p)) if m.encode() in found)
    assert leaked == [], f"{len(leaked)} removed markers still decryptable, e.g. {leaked[:5]}"


def test_a_store_opened_by_a_relative_path_erases_after_a_chdir(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The erasure read the pages of ``self.path``, the path as given: opened as "s.db", a store
    whose process then changed directory scrubbed a file that was not there (or another one), and
    the WAL's size, read the same way, no longer asked for checkpoints. Both use the absolute path."""
    monkeypatch.chdir(tmp_path)
    memory = SecureMemory.open("s.db", key=key, policy=NO_HISTORY)
    try:
        for i in range(30):
            ok(memory, command="create", path=f"/memories/r{i:02d}.md", file_text=f"RELKEEP{i:02d}Z " * 80)
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        monkeypatch.chdir(elsewhere)
        ok(memory, command="delete", path="/memories/r07.md")
        memory.store.flush_erasure()
        assert _store_of(memory)._scrubbed_at is not None  # the scrub ran, on the store's own file
    finally:
        memory.close()
    found = plaintext_of(tmp_path / "s.db", key)
    assert b"RELKEEP29Z" in found and b"RELKEEP07Z" not in found
    assert not (tmp_path / "elsewhere" / "s.db").exists()
