"""Erasure inside live pages: what SQLite's rebalancing leaves in a page's gap is scrubbed too.

``secure_delete`` zeroes deleted cells and freed pages, but a page that SQLite rebuilds while it
rebalances a b-tree keeps old bytes, copies of moved cells included, between its cell pointers and
its cell content. A random mix of creates, edits, renames and deletes left removed text and
removed paths in such gaps, decryptable with the key, until the store scrubbed its pages after
each erasure checkpoint (``store/pages.py``). Two handles share the store in these workloads, so
a page one of them cached before a scrub must not come back with its next write.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Callable, Collection
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.errors import StorageError, WrongKeyError
from securemem.policy import HistorySettings, Policy, StorageSettings
from securemem.store import pages, sqlcipher
from securemem.store.sqlcipher import SQLCipherStore
from tests.helpers import REPO, child_argv, connection_of, ok, sqlcipher_of, view
from tests.sqlcipher_pages import PAGE, plaintext_of

NO_HISTORY = Policy(history=HistorySettings(versions=False))  # removed text stays in a history by design
# The longest bound: a handle's pending erasure waits for its explicit flush, not for its timer.
ERASE_LATE = Policy(history=HistorySettings(versions=False), storage=StorageSettings(erase_within=60.0))
ERASE_AT_ONCE = Policy(history=HistorySettings(versions=False), storage=StorageSettings(erase_within=0.0))


def churn(
    db: Path,
    key: bytes,
    seed: int,
    steps: int,
    *,
    handles: int = 2,
    policy: Policy = NO_HISTORY,
    before_flush: Callable[[set[str], set[str]], None] | None = None,
) -> tuple[set[str], set[str]]:
    """Random commands from two handles (or one); returns (markers removed, markers still stored).

    ``before_flush``: called with the same two sets before the handles erase what they freed."""
    rnd = random.Random(seed)
    removed: set[str] = set()
    live: dict[str, str] = {}  # path -> the content marker it holds
    count = 0
    with (
        SecureMemory.open(db, key=key, policy=policy) as first,
        SecureMemory.open(db, key=key, policy=policy) as second,
    ):
        for _ in range(steps):
            memory = rnd.choice((first, second)[:handles])
            roll = rnd.random()
            count += 1
            if roll < 0.45 or not live:
                path = f"/memories/{rnd.choice('abc')}/NAME{count:05d}Q{'n' * rnd.randint(0, 60)}.md"
                marker = f"TEXT{count:05d}Z"
                ok(memory, command="create", path=path, file_text=f"{marker} " * rnd.randint(1, 120))
                live[path] = marker
            elif roll < 0.6:
                path = rnd.choice(sorted(live))
                landing = f"/memories/{rnd.choice('abc')}/NAME{count:05d}Q.md"
                ok(memory, command="rename", old_path=path, new_path=landing)
                removed.add(_name_marker(path))
                live[landing] = live.pop(path)
            elif roll < 0.8:
                path = rnd.choice(sorted(live))
                old, marker = live[path], f"TEXT{count:05d}Z"
                text = view(memory, path)
                body = "".join(line.split("\t", 1)[1] + "\n" for line in text.splitlines()[1:]).rstrip("\n")
                ok(memory, command="str_replace", path=path, old_str=body, new_str=f"{marker} " * rnd.randint(1, 200))
                removed.add(old)
                live[path] = marker
            else:
                path = rnd.choice(sorted(live))
                ok(memory, command="delete", path=path)
                removed.update({live.pop(path), _name_marker(path)})
        kept = set(live.values()) | {_name_marker(path) for path in live}
        if before_flush is not None:
            before_flush(removed - kept, kept)
        first.store.flush_erasure()
        second.store.flush_erasure()
        assert first.store.integrity_errors() == []
    return removed - kept, kept


def _name_marker(path: str) -> str:
    return path.rsplit("/", 1)[1].split("Q", 1)[0] + "Q"


@pytest.fixture(params=pages.FORMATS, ids=lambda page_format: page_format.digest)
def page_format(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> pages.PageFormat:
    """Stores created in the test have this page format (HMAC-SHA512: those of older releases)."""
    chosen: pages.PageFormat = request.param
    monkeypatch.setattr(pages, "NEW_STORES", chosen)
    return chosen


@pytest.mark.parametrize(
    ("seed", "page_format"),
    [pytest.param(seed, f, id=f"{seed}-{f.digest}") for seed, f in ((1, pages.SHA256), (2, pages.SHA256),
                                                                    (4, pages.SHA256), (5, pages.SHA512))],
    indirect=["page_format"],
)  # fmt: skip
@pytest.mark.slow
def test_no_removed_text_or_path_survives_in_a_rebuilt_page(
    tmp_path: Path, key: bytes, seed: int, page_format: pages.PageFormat
) -> None:
    db = tmp_path / "churn.db"
    removed, kept = churn(db, key, seed, steps=700)
    assert pages.detect(db, key, db.read_bytes()[:16]) is page_format
    found = plaintext_of(db, key)
    assert all(marker.encode() in found for marker in kept)  # the control: the proof sees what is stored
    leaked = sorted(marker for marker in removed if marker.encode() in found)
    assert leaked == []


def _kept_files(memory: SecureMemory, prefix: str, count: int) -> None:
    """``count`` files /memories/<prefix>NN.md, each holding the marker KEEPNN."""
    for i in range(count):
        ok(memory, command="create", path=f"/memories/{prefix}{i:02d}.md", file_text=f"KEEP{i:02d} " * 90)


def _store_with_dirt(tmp_path: Path, key: bytes) -> Path:
    db = tmp_path / "s.db"
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        for i in range(60):
            ok(memory, command="create", path=f"/memories/f{i:03d}.md", file_text=f"line {i}\n" * (i % 7 + 20))
    return db


def test_a_scrubbed_page_verifies_and_means_what_it_meant(
    tmp_path: Path, key: bytes, page_format: pages.PageFormat
) -> None:
    db = _store_with_dirt(tmp_path, key)
    salt = db.read_bytes()[:16]
    codec = pages.PageCodec(key, salt, page_format)
    other = pages.PageCodec(key, salt, next(f for f in pages.FORMATS if f is not page_format))
    before = db.read_bytes()
    for number in range(1, len(before) // PAGE + 1):
        raw = before[(number - 1) * PAGE : number * PAGE]
        assert codec.verifies(raw, number) and not other.verifies(raw, number)
        clear = codec.decrypt(raw, number)
        assert clear is not None
        again = codec.encrypt(clear, number)
        assert again != raw and codec.verifies(again, number)  # a fresh IV, a valid HMAC
        assert codec.decrypt(again, number) == clear
    run = codec.decrypt_run(before, 1)  # the whole file in one cipher call: the same pages
    for number in range(1, len(before) // PAGE + 1):
        start = 16 if number == 1 else 0
        one = codec.decrypt(before[(number - 1) * PAGE : number * PAGE], number)
        assert one is not None
        assert run[(number - 1) * PAGE + start : (number - 1) * PAGE + pages.USABLE] == one[start : pages.USABLE]
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        assert memory.store.integrity_errors() == []
        assert "line 59" in view(memory, "/memories/f059.md")


def test_a_codec_under_another_key_touches_nothing(tmp_path: Path, key: bytes) -> None:
    db = _store_with_dirt(tmp_path, key)
    before = db.read_bytes()
    assert pages.scrub_file(db, pages.PageCodec(os.urandom(32), before[:16])) == 0
    assert db.read_bytes() == before


@pytest.mark.parametrize("torn", [3, 1])  # page 1 torn: its format is found from the journal
def test_a_page_torn_by_a_crash_in_a_scrub_is_put_back_from_the_journal(
    tmp_path: Path, key: bytes, page_format: pages.PageFormat, torn: int
) -> None:
    db = _store_with_dirt(tmp_path, key)
    data = bytearray(db.read_bytes())
    codec = pages.PageCodec(key, bytes(data[:16]), page_format)
    whole = 4
    journal = b""
    for number in (torn, whole):
        clear = codec.decrypt(bytes(data[(number - 1) * PAGE : number * PAGE]), number)
        assert clear is not None
        journal += number.to_bytes(4, "big") + codec.encrypt(clear, number)
    Path(f"{db}{pages.JOURNAL_SUFFIX}").write_bytes(journal)
    data[(torn - 1) * PAGE + 100 : (torn - 1) * PAGE + 2100] = os.urandom(2000)  # half old, half new
    db.write_bytes(bytes(data))
    untouched = bytes(data[(whole - 1) * PAGE : whole * PAGE])
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        assert memory.store.integrity_errors() == []
        assert len(view(memory, "/memories").splitlines()) > 60
    after = db.read_bytes()
    assert codec.verifies(after[(torn - 1) * PAGE : torn * PAGE], torn)
    assert after[(whole - 1) * PAGE : whole * PAGE] == untouched  # a page that verifies is left alone
    assert not Path(f"{db}{pages.JOURNAL_SUFFIX}").exists()


@pytest.mark.parametrize("torn", [False, True])
def test_a_journal_a_crashed_scrub_left_goes_with_the_next_scrub_of_a_live_handle(
    tmp_path: Path, key: bytes, page_format: pages.PageFormat, torn: bool
) -> None:
    # Another process died between its scrub's fsync and the journal's removal: the journal holds the
    # pages as they were, stray bytes and all. A live handle's scrub that found nothing to rewrite
    # returned before it looked, and the journal stayed until the store's next open (an attacker's round).
    db = _store_with_dirt(tmp_path, key)
    codec = pages.PageCodec(key, db.read_bytes()[:16], page_format)
    pages.scrub_file(db, codec)  # clean: the next scrub finds nothing to rewrite
    data = bytearray(db.read_bytes())
    clear = codec.decrypt(bytes(data[2 * PAGE : 3 * PAGE]), 3)
    assert clear is not None
    journal = Path(f"{db}{pages.JOURNAL_SUFFIX}")
    journal.write_bytes((3).to_bytes(4, "big") + codec.encrypt(clear, 3))
    if torn:  # and the crash tore the page it was rewriting: put back from the journal
        data[2 * PAGE + 100 : 2 * PAGE + 2100] = os.urandom(2000)
        db.write_bytes(bytes(data))
    assert pages.scrub_file(db, codec) == 0
    assert not journal.exists()
    after = db.read_bytes()
    assert codec.verifies(after[2 * PAGE : 3 * PAGE], 3)
    assert codec.decrypt(after[2 * PAGE : 3 * PAGE], 3) == clear


def test_an_open_with_a_wrong_key_leaves_the_scrub_journal_for_the_right_one(tmp_path: Path, key: bytes) -> None:
    # A wrong key verifies no page: the open used to remove the journal as if every record were
    # torn, and the right key then found a torn page and nothing to put it back from.
    db = _store_with_dirt(tmp_path, key)
    data = bytearray(db.read_bytes())
    codec = pages.PageCodec(key, bytes(data[:16]))
    clear = codec.decrypt(bytes(data[2 * PAGE : 3 * PAGE]), 3)
    assert clear is not None
    journal = Path(f"{db}{pages.JOURNAL_SUFFIX}")
    journal.write_bytes((3).to_bytes(4, "big") + codec.encrypt(clear, 3))
    data[2 * PAGE + 100 : 2 * PAGE + 2100] = os.urandom(2000)
    db.write_bytes(bytes(data))
    with pytest.raises(WrongKeyError):
        SecureMemory.open(db, key=os.urandom(32), policy=NO_HISTORY)
    assert journal.exists()
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        assert memory.store.integrity_errors() == []
    assert codec.verifies(db.read_bytes()[2 * PAGE : 3 * PAGE], 3) and not journal.exists()


def test_the_scrub_journal_is_private_and_gone_after_a_scrub(tmp_path: Path, key: bytes) -> None:
    db = tmp_path / "j.db"
    seen: list[int] = []
    real = pages._write_journal

    def spy(journal: Path, found: list[tuple[int, bytes]]) -> None:
        real(journal, found)
        seen.append(journal.stat().st_mode & 0o777)

    old_umask = os.umask(0)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pages, "_write_journal", spy)
            churn(db, key, seed=3, steps=300)
    finally:
        os.umask(old_umask)
    assert seen and set(seen) == {0o600}
    assert not Path(f"{db}{pages.JOURNAL_SUFFIX}").exists()


def _spy_on_scrubs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Records the ``only`` argument of every scrub (None: the whole file read under the lock)."""
    calls: list[object] = []
    real = pages.scrub_file

    def spy(path: Path, codec: pages.PageCodec, only: Collection[int] | None = None) -> int:
        calls.append(None if only is None else sorted(only))
        return real(path, codec, only)

    monkeypatch.setattr(pages, "scrub_file", spy)
    return calls


def test_pages_are_found_without_the_lock_and_only_those_rewritten_under_it(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy_on_scrubs(monkeypatch)
    # One handle: no other connection commits while its eraser reads the pages (with two, one may
    # commit during the read, and the scrub rightly reads every page again: the next test).
    removed, _ = churn(tmp_path / "quiet.db", key, seed=1, steps=300, handles=1)
    assert calls and all(isinstance(only, list) for only in calls)  # one connection: the read held
    assert not any(marker.encode() in plaintext_of(tmp_path / "quiet.db", key) for marker in removed)


def test_a_commit_during_the_unlocked_read_sends_the_scrub_back_to_every_page(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "busy.db"
    calls = _spy_on_scrubs(monkeypatch)
    with (
        SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory,
        SecureMemory.open(db, key=key, policy=NO_HISTORY) as other,
    ):
        _kept_files(memory, "f", 40)
        memory.store.flush_erasure()
        real = pages.find_dirty

        def overtaken(path: Path, codec: pages.PageCodec, only: Collection[int] | None = None) -> list[int]:
            seen = real(path, codec, only)
            # Another connection commits (and checkpoints) while the pages are being read.
            ok(other, command="create", path="/memories/late.md", file_text="late\n")
            other.store.flush_erasure()
            return seen

        monkeypatch.setattr(pages, "find_dirty", overtaken)
        calls.clear()
        ok(memory, command="delete", path="/memories/f07.md")
        memory.store.flush_erasure()
        assert None in calls  # the unlocked read no longer held: every page read again, locked
        assert memory.store.integrity_errors() == []
    assert b"KEEP07" not in plaintext_of(db, key)


def _spy_on_reads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Records the ``only`` argument of every unlocked read (None: every page of the file)."""
    calls: list[object] = []
    real = pages.find_dirty

    def spy(path: Path, codec: pages.PageCodec, only: Collection[int] | None = None) -> list[int]:
        calls.append(None if only is None else sorted(only))
        return real(path, codec, only)

    monkeypatch.setattr(pages, "find_dirty", spy)
    return calls


@pytest.mark.parametrize("seed", [6, 7])
@pytest.mark.slow
def test_after_its_first_scrub_a_handle_reads_only_the_pages_written_since(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # A big store's every erasure used to read the whole file (a sweep of 100,000 files read it
    # about once a second). Every page a commit writes passes through the WAL, so a handle that
    # finds the WAL as its last scrub left it (not restarted by a checkpoint) reads those pages only.
    db = tmp_path / "scoped.db"
    calls = _spy_on_reads(monkeypatch)
    removed, kept = churn(db, key, seed=seed, steps=700, handles=1, policy=ERASE_AT_ONCE)
    assert calls[0] is None  # a handle's first scrub reads every page
    scoped = [only for only in calls[1:] if only is not None]
    assert scoped and len(scoped) >= len(calls) // 2, calls
    size = db.stat().st_size // PAGE
    assert all(len(only) < size for only in scoped if isinstance(only, list))
    found = plaintext_of(db, key)
    assert all(marker.encode() in found for marker in kept)  # the control
    assert sorted(marker for marker in removed if marker.encode() in found) == []


def test_a_wal_restarted_by_another_checkpoint_sends_the_scrub_back_to_every_page(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A checkpoint this handle did not make (another connection's, SQLite's own automatic one)
    # may have copied pages into the file and restarted the WAL: their numbers are gone from it.
    db = tmp_path / "restarted.db"
    calls = _spy_on_reads(monkeypatch)
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        _kept_files(memory, "f", 40)
        ok(memory, command="delete", path="/memories/f01.md")
        memory.store.flush_erasure()
        ok(memory, command="delete", path="/memories/f02.md")
        memory.store.flush_erasure()
        assert calls[-1] is not None  # the control: nothing else checkpointed, the read is scoped
        ok(memory, command="delete", path="/memories/f03.md")
        raw = connection_of(memory.store)
        raw.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()  # as an automatic checkpoint would
        ok(memory, command="delete", path="/memories/f07.md")  # the WAL starts again from its head
        memory.store.flush_erasure()
        assert calls[-1] is None
        assert memory.store.integrity_errors() == []
    found = plaintext_of(db, key)
    assert b"KEEP00" in found and not any(f"KEEP0{i}".encode() in found for i in (1, 2, 3, 7))


def test_a_writer_that_frees_nothing_keeps_the_wal_small_and_erasure_still_holds(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No automatic checkpoints: a handle whose commits bring the WAL's generation to COMPACT_FRAMES
    # checkpoints it. Having freed nothing, it reads no page when it cannot name the pages written
    # since its last scrub; the WAL's restart then sends every handle's next erasure to every page.
    monkeypatch.setattr(sqlcipher, "COMPACT_FRAMES", 300)  # reached by the 400 creates below
    db = tmp_path / "grow.db"
    calls = _spy_on_reads(monkeypatch)
    with (
        SecureMemory.open(db, key=key, policy=ERASE_LATE) as writer,
        SecureMemory.open(db, key=key, policy=ERASE_LATE) as deleter,
    ):
        _kept_files(writer, "k", 30)
        ok(writer, command="delete", path="/memories/k00.md")
        writer.store.flush_erasure()  # the writer's first scrub: every page
        ok(deleter, command="delete", path="/memories/k01.md")
        deleter.store.flush_erasure()  # the deleter's: every page; the WAL restarts under the writer
        ok(deleter, command="delete", path="/memories/k05.md")  # its erasure pending until flushed below
        before = len(calls)
        wal = Path(f"{db}-wal")
        for i in range(400):
            ok(writer, command="create", path=f"/memories/big/b{i:03d}.md", file_text=f"BULK{i:03d} " * 300)
        writer.store.flush_erasure()
        assert wal.stat().st_size < sqlcipher.wal_bytes(sqlcipher.ROOM_FRAMES + 64)  # kept small all along
        assert len(calls) == before  # the writer read no page: nothing of its own to erase
        assert wal.stat().st_size >= sqlcipher.wal_bytes(sqlcipher.MIN_ROOM_FRAMES)  # yet the emptied WAL got room back
        deleter.store.flush_erasure()
        assert calls[-1] is None  # the WAL restarted under the deleter: every page read
        assert writer.store.integrity_errors() == []
    found = plaintext_of(db, key)
    assert b"KEEP29" in found and b"BULK399" in found  # the control
    assert not any(marker in found for marker in (b"KEEP00", b"KEEP01", b"KEEP05"))


def _asked_for_room(memory: SecureMemory) -> tuple[SQLCipherStore, list[bool]]:
    """The memory's store, whose eraser records each growth-only request (with whether the WAL's
    generation had reached COMPACT_FRAMES then) instead of acting on it in the background: the
    test runs the checkpoint itself, when it chooses."""
    store = sqlcipher_of(memory.store)
    asked: list[bool] = []
    wal = Path(f"{store.path}-wal")
    setattr(store._eraser, "soon", lambda: asked.append(pages.wal_reaches(wal, sqlcipher.COMPACT_FRAMES)))
    return store, asked


def test_commits_after_a_growth_only_checkpoint_overwrite_the_wal_instead_of_growing_it(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A truncating checkpoint that erases nothing (asked here as a flush asks; the background one a
    # grown WAL asks for restarts it instead, see the next test) gives the emptied WAL its room back
    # as zeros, as an erasure does: the commits after it overwrite those zeros, and the file keeps
    # its size (an fsync after an append also journals the new size).
    monkeypatch.setattr(sqlcipher, "COMPACT_FRAMES", 120)
    db = tmp_path / "room.db"
    wal = Path(f"{db}-wal")
    with SecureMemory.open(db, key=key, policy=ERASE_LATE) as memory:
        store, asked = _asked_for_room(memory)
        i = 0
        while not asked:
            ok(memory, command="create", path=f"/memories/r/{i:04d}.md", file_text=f"ROOM{i:04d} " * 100)
            i += 1
        assert asked[0] is True  # asked once the generation reached COMPACT_FRAMES, not later
        used = pages.wal_frames(wal)
        assert store._checkpoint(5.0)
        room = wal.stat().st_size
        assert room >= sqlcipher.wal_bytes(used)  # the room given back, not an empty file
        for j in range(10):
            ok(memory, command="create", path=f"/memories/s/{j:04d}.md", file_text=f"NEXT{j:04d} " * 100)
        assert wal.stat().st_size == room  # overwritten, not grown
        assert 0 < pages.wal_frames(wal) < used
    found = plaintext_of(db, key)
    assert b"ROOM0000" in found and b"NEXT0009" in found


def test_a_growth_only_checkpoint_restarts_the_wal_and_carries_the_pages_written_since_the_scrub(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A checkpoint that erases nothing copies the WAL from a second connection first (the commits
    # of the handle go on meanwhile), then restarts it: the file keeps its size (no zeros written
    # and synced) and the next generation overwrites it. The pages the restarted generation held
    # are carried over: the next erasure still reads only the pages written since the last scrub.
    db = tmp_path / "carried.db"
    wal = Path(f"{db}-wal")
    calls = _spy_on_reads(monkeypatch)
    with SecureMemory.open(db, key=key, policy=ERASE_LATE) as memory:
        store, _ = _asked_for_room(memory)  # the test runs the growth-only checkpoint itself
        _kept_files(memory, "c", 30)
        ok(memory, command="delete", path="/memories/c00.md")
        memory.store.flush_erasure()  # the handle's first scrub: every page
        for i in range(40):
            ok(memory, command="create", path=f"/memories/g/a{i:02d}.md", file_text=f"GROW{i:02d} " * 90)
        marker = pages.wal_marker(wal)
        assert marker is not None
        generation = pages.generation_pages(wal, marker)
        assert generation is not None and generation[1]
        first = generation[1]
        size = wal.stat().st_size
        assert store._checkpoint(5.0, background=True)
        assert store._side is not None  # the copy before the lock: from its own connection
        assert wal.stat().st_size == size  # restarted, not truncated
        for i in range(10):
            ok(memory, command="create", path=f"/memories/g/b{i:02d}.md", file_text=f"NEXT{i:02d} " * 90)
        after = pages.wal_marker(wal)
        assert after is not None and after[:8] == pages.next_generation(marker)
        assert wal.stat().st_size == size  # overwritten from its head
        generation = pages.generation_pages(wal, after)
        assert generation is not None
        second = generation[1]
        ok(memory, command="delete", path="/memories/c05.md")
        memory.store.flush_erasure()
        read = calls[-1]
        assert isinstance(read, list) and first | second <= set(read)  # scoped, and both generations in
        assert memory.store.integrity_errors() == []
    assert store._side is None  # closed with the store
    found = plaintext_of(db, key)
    assert b"KEEP01" in found and b"GROW39" in found and b"NEXT09" in found  # the control
    assert b"KEEP00" not in found and b"KEEP05" not in found


@pytest.mark.parametrize("seed", [8, 9])
@pytest.mark.slow
def test_no_removed_text_survives_growth_only_restarts_between_erasures(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # Runs of creates and edits that free nothing, each ended by a growth-only checkpoint (a restart
    # that carries the pages of the generation it ends), then frees and an erasure: what SQLite's
    # rebalancing left in pages written before the restarts is found and scrubbed, and the reads
    # stay scoped to the pages written since the last scrub.
    rnd = random.Random(seed)
    calls = _spy_on_reads(monkeypatch)
    db = tmp_path / "restarts.db"
    live: dict[str, str] = {}
    removed: set[str] = set()
    count = 0
    with SecureMemory.open(db, key=key, policy=ERASE_LATE) as memory:
        store, _ = _asked_for_room(memory)
        for _ in range(6):
            for _ in range(3):
                for _ in range(rnd.randint(10, 30)):
                    count += 1
                    path = f"/memories/{rnd.choice('ab')}/NAME{count:05d}Q{'n' * rnd.randint(0, 40)}.md"
                    live[path] = f"TEXT{count:05d}Z"
                    ok(memory, command="create", path=path, file_text=f"{live[path]} " * rnd.randint(1, 150))
                assert store._checkpoint(5.0, background=True)
            for path in rnd.sample(sorted(live), len(live) // 3):
                if rnd.random() < 0.5:
                    ok(memory, command="delete", path=path)
                    removed.update({live.pop(path), _name_marker(path)})
                else:
                    count += 1
                    landing = f"/memories/{rnd.choice('ab')}/NAME{count:05d}Q.md"
                    ok(memory, command="rename", old_path=path, new_path=landing)
                    removed.add(_name_marker(path))
                    live[landing] = live.pop(path)
            memory.store.flush_erasure()
        assert memory.store.integrity_errors() == []
    assert calls[0] is None and all(only is not None for only in calls[1:]), calls  # scoped after the first
    kept = set(live.values()) | {_name_marker(path) for path in live}
    found = plaintext_of(db, key)
    assert all(marker.encode() in found for marker in kept)  # the control
    assert sorted(marker for marker in removed - kept if marker.encode() in found) == []


def test_an_erasure_gives_the_wal_the_room_its_last_generation_used_not_the_room_of_a_burst(
    tmp_path: Path, key: bytes
) -> None:
    # A burst of creates earned the WAL a big room; a delete erased after it must not zero that
    # whole room again (each erasure would write megabytes): the room follows what the WAL's last
    # generation used. pages.wal_frames counts that generation as the frame-by-frame walk does.
    db = tmp_path / "sized.db"
    wal = Path(f"{db}-wal")
    with SecureMemory.open(db, key=key, policy=ERASE_LATE) as memory:
        store, _ = _asked_for_room(memory)
        for i in range(120):
            ok(memory, command="create", path=f"/memories/z/{i:04d}.md", file_text=f"SIZED{i:04d} " * 200)
        marker = pages.wal_marker(wal)
        assert marker is not None
        generation = pages.generation_pages(wal, marker)
        assert generation is not None
        walked = generation[1]
        frames = pages.wal_frames(wal)
        assert frames >= len(walked) > 100
        assert store._checkpoint(5.0)
        burst = wal.stat().st_size
        assert burst >= sqlcipher.wal_bytes(frames)
        ok(memory, command="delete", path="/memories/z/0007.md")
        memory.store.flush_erasure()
        small = wal.stat().st_size
        assert small <= sqlcipher.wal_bytes(2 * sqlcipher.MIN_ROOM_FRAMES) < burst
    found = plaintext_of(db, key)
    assert b"SIZED0008" in found and b"SIZED0007" not in found


# -- a crash between the checkpoint and the scrub ------------------------------------------------


def _churn_then_die_before_the_scrub(db: str, key_hex: str, seed: str) -> None:
    """Churn with one handle, then erase: the checkpoint empties the WAL, and the process is killed
    before the scrub of the pages SQLite rebuilt (an empty WAL tells a later open of no debt)."""

    def die(*args: object, **kwargs: object) -> bool:
        os.kill(os.getpid(), signal.SIGKILL)
        return False

    def report_and_arm(removed: set[str], kept: set[str]) -> None:
        print(json.dumps({"removed": sorted(removed), "kept": sorted(kept)}), flush=True)
        SQLCipherStore._scrub = die  # type: ignore[method-assign]

    churn(Path(db), bytes.fromhex(key_hex), int(seed), steps=300, handles=1, policy=ERASE_LATE,
          before_flush=report_and_arm)  # fmt: skip


def _crash_leaving_removed_text(
    tmp_path: Path, key: bytes, before_crash: Callable[[Path], object]
) -> tuple[Path, list[str]]:
    """A store whose writer was killed between its checkpoint and its scrub, with removed text left
    in rebuilt pages; ``before_crash(db)`` runs first (a handle that stays open, say). Which text a
    page still holds depends on when the background checkpoints ran: a few seeds are tried until
    one leaves some (most do)."""
    for seed in range(1, 9):
        db = tmp_path / f"c{seed}.db"
        before_crash(db)
        argv = child_argv(_churn_then_die_before_the_scrub, str(db), key.hex(), str(seed))
        crashed = subprocess.run(argv, cwd=REPO, timeout=120, stdout=subprocess.PIPE, text=True)
        assert crashed.returncode == -signal.SIGKILL
        told = json.loads(crashed.stdout)
        assert Path(f"{db}-wal").stat().st_size == 0  # the checkpoint ran: no frame is left to tell of a debt
        before = plaintext_of(db, key)
        assert all(marker.encode() in before for marker in told["kept"])  # the control
        leaked = [marker for marker in told["removed"] if marker.encode() in before]
        if leaked:
            return db, leaked
    raise AssertionError("no seed left removed text in a rebuilt page")  # the premise


def test_a_crash_between_the_checkpoint_and_the_scrub_leaves_the_scrub_owed(tmp_path: Path, key: bytes) -> None:
    db, leaked = _crash_leaving_removed_text(tmp_path, key, lambda db: None)
    with SecureMemory.open(db, key=key, policy=ERASE_LATE, create=False):
        after = plaintext_of(db, key)  # before any command
    assert [marker for marker in leaked if marker.encode() in after] == []


def test_a_handle_left_open_takes_over_a_scrub_once_its_deadline_has_passed(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crashed writer recorded its scrub with its deadline; a handle that stayed open and frees
    nothing itself takes the debt over at its first command after that deadline."""
    open_handles: list[SecureMemory] = []

    def open_idle(db: Path) -> None:
        # Recording the policy of the new store is a write of this handle's own, erased within the
        # policy's 60 s: erased now, so that the handle has nothing of its own to erase.
        memory = SecureMemory.open(db, key=key, policy=ERASE_LATE)
        memory.store.flush_erasure()
        open_handles.append(memory)

    db, leaked = _crash_leaving_removed_text(tmp_path, key, open_idle)
    survivor = open_handles[-1]
    for other in open_handles[:-1]:
        other.close()
    try:
        ok(survivor, command="view", path="/memories")  # the debt is seen, not due yet (60 s)
        survivor.store.flush_erasure()
        assert all(marker.encode() in plaintext_of(db, key) for marker in leaked)  # not taken over early
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + 120)  # the crashed writer's 60 s have passed
        ok(survivor, command="view", path="/memories")
        survivor.store.flush_erasure()
        after = plaintext_of(db, key)
    finally:
        survivor.close()
    assert [marker for marker in leaked if marker.encode() in after] == []


def test_a_handle_records_the_scrub_again_after_another_handle_scrubbed(tmp_path: Path, key: bytes) -> None:
    """A handle's belief that the record is there must not outlive another handle's scrub, which
    deletes it: maintenance outside a command (a store dropped) writes it whatever it believes."""
    db = tmp_path / "d.db"

    def recorded(memory: SecureMemory) -> bool:
        rows = connection_of(memory.store).execute("SELECT 1 FROM meta WHERE key = 'scrub_due'").fetchall()
        return bool(rows)

    with (
        SecureMemory.open(db, key=key, policy=ERASE_LATE) as first,
        SecureMemory.open(db, key=key, policy=ERASE_LATE) as second,
    ):
        _kept_files(first, "f", 3)
        first.in_namespace("victim").execute({"command": "create", "path": "/memories/v.md", "file_text": "v\n"})
        ok(first, command="delete", path="/memories/f00.md")
        assert recorded(first)
        ok(second, command="delete", path="/memories/f01.md")
        second.store.flush_erasure()  # its scrub deletes the record
        assert not recorded(first)
        assert first.store.drop_namespace("victim")
        assert recorded(first)
        first.store.flush_erasure()
        assert not recorded(first)


@pytest.mark.parametrize("deadline", ["1", "inf", "1e18", "nan", "garbled"])
def test_a_debt_seen_at_the_start_of_a_command_is_erased_after_it_not_inside_it(
    tmp_path: Path, key: bytes, caplog: pytest.LogCaptureFixture, deadline: str
) -> None:
    """With a zero bound the eraser checkpoints at once; a debt another handle left (here: a scrub
    overdue, or one whose deadline no writer can have written) is found inside a command's
    transaction, whose own lock would keep that checkpoint busy until the busy timeout. It is
    erased once the command has committed."""
    db = tmp_path / "o.db"
    with (
        SecureMemory.open(db, key=key, policy=ERASE_AT_ONCE) as first,
        SecureMemory.open(db, key=key, policy=ERASE_AT_ONCE) as second,
    ):
        _kept_files(first, "f", 2)
        conn = connection_of(first.store)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO meta (key, value) VALUES ('scrub_due', ?)", (deadline,))  # a crashed writer's
        conn.execute("COMMIT")
        with caplog.at_level("WARNING", logger="securemem.store"):
            assert "KEEP00" in view(second, "/memories/f00.md")
        owed = connection_of(second.store).execute("SELECT 1 FROM meta WHERE key = 'scrub_due'").fetchall()
    assert owed == []  # erased before the view returned
    assert [r.getMessage() for r in caplog.records] == []


def test_an_open_that_finds_the_store_busy_still_scrubs_before_its_first_command(
    tmp_path: Path, key: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readers in other processes may hold the lock when the open tries to scrub: it tries again
    until the busy timeout instead of leaving the debt to a later erasure pass."""
    db, leaked = _crash_leaving_removed_text(tmp_path, key, lambda db: None)
    real = SQLCipherStore._checkpoint
    refused: list[float] = []

    def busy_once(self: SQLCipherStore, wait: float, *, background: bool = False) -> bool:
        if not refused:
            refused.append(wait)
            return False  # as when a reader holds the lock
        return real(self, wait, background=background)

    monkeypatch.setattr(SQLCipherStore, "_checkpoint", busy_once)
    with SecureMemory.open(db, key=key, policy=ERASE_LATE, create=False):
        after = plaintext_of(db, key)  # before any command
    assert refused
    assert [marker for marker in leaked if marker.encode() in after] == []


def test_a_generation_of_few_large_commits_gets_little_room(tmp_path: Path, key: bytes) -> None:
    # Room pays per commit and costs per frame: a sweep's or an import's few large commits must not
    # buy megabytes of zeros at each checkpoint they set off, while a burst of small commits (the
    # test above) still gets what it used. pages.wal_usage counts the commit frames.
    db = tmp_path / "bulk.db"
    wal = Path(f"{db}-wal")
    with SecureMemory.open(db, key=key, policy=ERASE_LATE) as memory:
        store, _ = _asked_for_room(memory)
        assert store._checkpoint(5.0)  # a new WAL generation (its scrub's own commit opens it)
        _, before = pages.wal_usage(wal)
        for i in range(3):
            ok(memory, command="create", path=f"/memories/one/{i}.md", file_text=f"ONE{i} " * 100)
        assert pages.wal_usage(wal)[1] == before + 3
        with memory.store.transaction(memory.namespace, write=True, clock=time.time) as tx:
            for i in range(400):
                path = f"/memories/bulk/{i:04d}.md"
                tx.put_file(path, f"BULK{i:04d} ".encode() * 300, 1, None, tx.ancestry(path).entry)
        frames, commits = pages.wal_usage(wal)
        assert commits == before + 4 and frames > 300
        assert store._checkpoint(5.0)
        most = max(sqlcipher.MIN_ROOM_FRAMES, commits * sqlcipher.ROOM_PER_COMMIT)
        assert wal.stat().st_size <= sqlcipher.wal_bytes(most) < sqlcipher.wal_bytes(frames)
    found = plaintext_of(db, key)
    assert b"BULK0399" in found and b"ONE2" in found


# -- what may stand at the scrub journal's path ------------------------------------------------------


@pytest.mark.parametrize("planted", ["fifo", "link to a device", "larger than the store", "symlink to a file"])
def test_what_cannot_be_the_scrub_journal_stops_the_open_and_is_left_where_it_is(
    tmp_path: Path, key: bytes, planted: str
) -> None:
    """A FIFO at PATH-scrub hung every open, a link to /dev/zero filled its memory; a file that is no
    journal was read as one and deleted. The open now says what is there, in one error, and leaves it."""
    db = tmp_path / "p.db"
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="a\n")
    journal = Path(f"{db}{pages.JOURNAL_SUFFIX}")
    if planted == "fifo":
        os.mkfifo(journal)
    elif planted == "link to a device":
        journal.symlink_to("/dev/zero")
    elif planted == "larger than the store":
        journal.write_bytes(b"\x00" * (db.stat().st_size + 2 * (4 + PAGE)))
    else:
        (tmp_path / "notes.txt").write_text("someone's notes\n")
        journal.symlink_to(tmp_path / "notes.txt")
    started = time.monotonic()
    with pytest.raises(StorageError, match="not the store's scrub journal"):
        SecureMemory.open(db, key=key, policy=NO_HISTORY)
    assert time.monotonic() - started < 5
    assert os.path.lexists(journal)
    assert planted != "symlink to a file" or (tmp_path / "notes.txt").read_text() == "someone's notes\n"
    journal.unlink()
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as memory:
        assert view(memory, "/memories/a.md").endswith("1\ta")


def test_a_new_store_is_not_made_beside_a_file_at_its_scrub_journals_path(tmp_path: Path, key: bytes) -> None:
    """A passphrase file kept at NEW-scrub was deleted by the new store's first open."""
    db = tmp_path / "n.db"
    kept = Path(f"{db}{pages.JOURNAL_SUFFIX}")
    kept.write_text("correct horse battery staple\n")
    with pytest.raises(StorageError, match=r"n\.db-scrub exists: it would be read into the new store"):
        SecureMemory.open(db, key=key, policy=NO_HISTORY)
    assert kept.read_text() == "correct horse battery staple\n" and not db.exists()


# -- the WAL's frames, read a chunk at a time ----------------------------------------------------------


def _frame_by_frame(data: bytes) -> list[tuple[int, bytes, bool]]:
    """The generation's frames as a reader of one header at a time sees them: (page, commit field, whole)."""
    head = data[: pages.WAL_HEADER]
    size = pages.FRAME_HEADER + int.from_bytes(head[8:12], "big")
    found, at = [], pages.WAL_HEADER
    while at + pages.FRAME_HEADER <= len(data) and data[at + 8 : at + 16] == head[16:24]:
        found.append((int.from_bytes(data[at : at + 4], "big"), data[at + 4 : at + 8], at + size <= len(data)))
        at += size
    return found


@pytest.mark.parametrize("frames", [0, 1, 63, 64, 65, 130])
@pytest.mark.parametrize("end", ["zeros", "older generation", "torn frame", "nothing"])
def test_the_chunked_wal_walks_read_what_a_frame_by_frame_walk_reads(tmp_path: Path, frames: int, end: str) -> None:
    """The eraser walks the WAL 64 frames per read (a read per frame held the store's lock for milliseconds);
    what it reads is checked against a reader of one header at a time, at the chunks' edges and past them."""
    rng = random.Random(frames * 7 + len(end))
    page = 512
    salts = rng.randbytes(8)
    head = (0x377F0682).to_bytes(4, "big") + (3007000).to_bytes(4, "big") + page.to_bytes(4, "big") + b"\0\0\0\1"
    head += salts + rng.randbytes(8)
    body = b""
    for index in range(frames):
        number = rng.choice([1, 1, 2, 3, 5, 8, 13]) if index % 9 else 1 + index
        commit = (index + 1).to_bytes(4, "big") if rng.random() < 0.3 else b"\0\0\0\0"
        body += number.to_bytes(4, "big") + commit + salts + rng.randbytes(8) + rng.randbytes(page)
    if end == "zeros":
        body += b"\0" * (pages.FRAME_HEADER + page) * 5
    elif end == "older generation":
        body += (1).to_bytes(4, "big") + b"\0\0\0\1" + rng.randbytes(8) + rng.randbytes(8) + rng.randbytes(page)
    elif end == "torn frame":
        body += (1).to_bytes(4, "big") + b"\0\0\0\1" + salts + rng.randbytes(8) + rng.randbytes(page // 2)
    wal = tmp_path / "s.db-wal"
    wal.write_bytes(head + body)
    walked = _frame_by_frame(head + body)
    whole = [frame for frame in walked if frame[2]]
    assert pages.wal_usage(wal) == (len(walked), sum(commit != b"\0\0\0\0" for _, commit, _ in walked))
    assert pages.wal_frames(wal) == len(whole)
    generation = pages.generation_pages(wal, head[12:24])
    assert generation is not None and generation[1] == {number for number, _, _ in walked} - {0}
    newest = [index for index, (number, _, _) in enumerate(whole) if number == 1]
    expected = None
    if newest:
        at = pages.WAL_HEADER + newest[-1] * (pages.FRAME_HEADER + page) + pages.FRAME_HEADER
        expected = (head + body)[at : at + 16]
    assert pages.newest_frame_start(wal, 1, 16) == expected
