"""An attacker's round on the store's core guarantees (erasure, crashes, audit, quotas, modes, rekey,
policy ownership, the CLI): what it found, each with a test that fails on the tree before the fix.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
from pathlib import Path

import pytest

from securemem import Admin, SecureMemory
from securemem.audit import REFUSED
from securemem.policy import load_policy
from securemem.store import sqlcipher
from securemem.store.base import Store
from tests.helpers import REPO, audit_records, child_argv, connection_of, err, ok
from tests.sqlcipher_pages import plaintext_of
from tests.test_erasure import NO_HISTORY, erased_within

MARKER = "never-committed-0d5c"


@pytest.mark.parametrize(
    ("below", "destination"),
    [
        ("/memories/contact/com/notes.md", "/memories/dana.reyes@example"),  # an address once "com" is below it
        ("/memories/b/45-6789/x.md", "/memories/123"),  # an SSN once "45-6789" is below it
    ],
)
def test_a_rename_refused_for_what_lands_below_it_is_audited_without_its_destination(
    store: Store, caplog: pytest.LogCaptureFixture, below: str, destination: str
) -> None:
    mem = SecureMemory(store, load_policy("regulated"), owns_store=False)
    ok(mem, command="create", path=below, file_text="x\n")
    moved = "/" + "/".join(below.split("/")[1:3])
    caplog.set_level(logging.INFO, logger="securemem.audit")
    assert "would make a path below its destination carry personal data" in err(
        mem, command="rename", old_path=moved, new_path=destination
    )
    (record,) = [r for r in audit_records(caplog) if r["command"] == "rename"]
    assert (record["error"], record["paths"]) == ("PIIRefused", [moved, REFUSED])


def _killed_mid_write(db: str, key_hex: str) -> None:
    """A writer whose pages spill into the WAL (a transaction larger than its page cache), killed before
    its commit, as a supervisor's timeout kills `securemem import` beside a running agent."""
    with Admin.open(db, key=bytes.fromhex(key_hex)) as admin:
        conn = connection_of(admin.store)
        conn.execute("PRAGMA cache_size = 16")  # pages: the insert below spills at once
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO content (id, data) VALUES (?, ?)", (10**9, (MARKER * 100_000).encode()))
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_writer_killed_mid_write_beside_an_open_handle_leaves_no_text_in_the_wal(tmp_path: Path) -> None:
    db, key = tmp_path / "k.db", os.urandom(32)
    with SecureMemory.open(db, key=key, policy=NO_HISTORY) as mem:  # open all along, as an agent's service is
        ok(mem, command="create", path="/memories/first.md", file_text="x\n")
        # Nothing of the handle's own left for its eraser: a checkpoint it had due (the new store's WAL past its
        # room) could otherwise run right after the kill and erase the killed writer's frames before the control.
        mem.store.flush_erasure()
        killed = subprocess.run(child_argv(_killed_mid_write, str(db), key.hex()), cwd=REPO, timeout=60)
        assert killed.returncode == -signal.SIGKILL
        assert MARKER.encode() in plaintext_of(db, key)  # the killed writer's text, in the WAL's frames
        for number in range(sqlcipher.PROBE_EVERY):  # the handle goes on writing: it looks at the WAL
            ok(mem, command="create", path=f"/memories/n{number}.md", file_text="y\n")
        erased_within(db, key, MARKER, 3.0)
        listed = ok(mem, command="view", path="/memories").splitlines()
        assert len(listed) == 3 + sqlcipher.PROBE_EVERY  # nothing the killed writer wrote


def test_the_space_check_reads_the_store_file_a_relative_path_named_after_the_cwd_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A review of the space check: it sized the file by the path as given, so a store opened by a relative
    # path read as 0 bytes once the process changed directory, and a 3-byte create on a disk with room for it
    # was refused as "full". The disk is made to look nearly full (100 KB free) by statvfs only.
    from securemem.policy import HistorySettings, Policy
    from tests.helpers import sqlcipher_of

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(home)
    with SecureMemory.open("rel.db", key=os.urandom(32), policy=Policy(history=HistorySettings(versions=False))) as mem:
        for number in range(60):
            ok(mem, command="create", path=f"/memories/f{number}.md", file_text=os.urandom(2000).hex())
        assert sqlcipher_of(mem.store)._checkpoint(5.0)  # the file holds every page: nothing left to grow
        assert (home / "rel.db").stat().st_size > 200_000
        real = os.statvfs

        def nearly_full(path: str) -> os.statvfs_result:
            found = real(path)
            blocks = 100_000 // found.f_frsize
            return os.statvfs_result((*found[:3], blocks, blocks, *found[5:]))

        monkeypatch.setattr(os, "statvfs", nearly_full)
        monkeypatch.chdir(tmp_path)
        ok(mem, command="create", path="/memories/small.md", file_text="hi\n")
