"""The quota layer: per-file bytes and lines, per-namespace bytes and files, refused whole, and exact
under writers racing from several processes."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from tests.helpers import REPO, child_argv, ok, refused, seed, write_policy

LIMITS = "[quota]\nmax_file_bytes = 100\nmax_file_lines = 5\nmax_total_bytes = 250\nmax_files = 4\n"
POLICY = "policy 'custom'"
NO_HISTORY = "\n[history]\nversions = false\n"

OpenMem = Callable[..., SecureMemory]


def file_message(path: str, size: int, limit: int, now: int | None = None, unit: str = "bytes") -> str:
    verb = "be" if unit == "bytes" else "have"
    current = "" if now is None else (f" (it is {now:,} now)" if unit == "bytes" else f" (it has {now:,} now)")
    return (
        f"Error: Quota exceeded: {path} would {verb} {size:,} {unit}{current}; the limit per file is {limit:,} "
        f"{unit} ({POLICY}). Nothing was written. Keep the file shorter or split it."
    )


def total_message(total: int, limit: int, used: int) -> str:
    return (
        f"Error: Quota exceeded: this write would bring your memory to {total:,} bytes (file contents and path "
        f"names); the limit is {limit:,} bytes and {used:,} are in use ({POLICY}). Nothing was written. Delete "
        "or shorten memories you no longer need, then retry."
    )


def cost(path: str, text: str = "") -> int:
    """What a file (or, with no text, a directory) counts against max_total_bytes: its text and its path."""
    return len(text.encode()) + len(path.encode())


def files_message(limit: int, used: int) -> str:
    return (
        f"Error: Quota exceeded: the limit is {limit:,} files and {used:,} exist ({POLICY}). Nothing was "
        "written. Delete files you no longer need, or add to an existing file with str_replace or insert."
    )


@pytest.fixture
def open_mem(tmp_path: Path, key: bytes) -> OpenMem:
    """``open_mem(policy_text)``: a memory on tmp_path/m.db under a policy written from text."""

    def make(text: str = LIMITS, **kwargs: Any) -> SecureMemory:
        # The live quota alone: the history's share is tested in test_history_quota below.
        text = text if "[history]" in text else text + NO_HISTORY
        policy = write_policy(tmp_path, text, "policy.toml")
        return SecureMemory.open(tmp_path / "m.db", key=key, policy=policy, **kwargs)

    return make


@pytest.fixture
def mem(open_mem: OpenMem) -> SecureMemory:
    return open_mem()


# ---------------------------------------------------------------- per file


def test_a_file_may_reach_the_byte_limit_but_not_cross_it(mem: SecureMemory) -> None:
    ok(mem, command="create", path="/memories/a.md", file_text="x" * 100)
    refused(
        mem,
        file_message("/memories/new/b.md", 101, 100),
        command="create",
        path="/memories/new/b.md",
        file_text="x" * 101,
    )  # its new directory is not left behind either
    refused(
        mem,
        file_message("/memories/a.md", 101, 100, now=100),
        command="insert",
        path="/memories/a.md",
        insert_line=0,
        insert_text="",
    )


def test_bytes_are_utf8_bytes_not_characters(mem: SecureMemory) -> None:
    refused(mem, file_message("/memories/a.md", 102, 100), command="create", path="/memories/a.md", file_text="é" * 51)
    ok(mem, command="create", path="/memories/a.md", file_text="é" * 50)


def test_a_file_may_reach_the_line_limit_but_not_cross_it(mem: SecureMemory) -> None:
    ok(mem, command="create", path="/memories/a.md", file_text="1\n2\n3\n4\n5\n")
    refused(
        mem,
        file_message("/memories/a.md", 6, 5, now=5, unit="lines"),
        command="insert",
        path="/memories/a.md",
        insert_line=5,
        insert_text="6",
    )
    refused(
        mem,
        file_message("/memories/a.md", 6, 5, now=5, unit="lines"),
        command="str_replace",
        path="/memories/a.md",
        old_str="3\n",
        new_str="3\n3b\n",
    )


def test_an_edit_that_grows_a_file_past_the_limit_is_refused_whole(mem: SecureMemory) -> None:
    ok(mem, command="create", path="/memories/a.md", file_text="head " + "x" * 90)
    refused(
        mem,
        file_message("/memories/a.md", 104, 100, now=95),
        command="str_replace",
        path="/memories/a.md",
        old_str="head",
        new_str="head and more",
    )


def test_shrinking_a_file_already_over_a_lowered_limit_is_allowed(mem: SecureMemory) -> None:
    seed(mem, {"/memories/big.md": "0123456789abcdefghij" + "x" * 130, "/memories/long.md": "1\n2\n3\n4\n5\n6\n7\n8\n"})
    ok(mem, command="str_replace", path="/memories/big.md", old_str="0123456789abcdefghij", new_str="")
    ok(mem, command="str_replace", path="/memories/long.md", old_str="1\n2\n", new_str="")
    # Still over, so any growth is refused.
    refused(
        mem,
        file_message("/memories/big.md", 131, 100, now=130),
        command="insert",
        path="/memories/big.md",
        insert_line=0,
        insert_text="",
    )
    refused(
        mem,
        file_message("/memories/long.md", 7, 5, now=6, unit="lines"),
        command="insert",
        path="/memories/long.md",
        insert_line=0,
        insert_text="l",
    )


# ---------------------------------------------------------------- per namespace


def test_total_bytes_may_be_reached_but_not_crossed(open_mem: OpenMem) -> None:
    used = cost("/memories/a.md", "a" * 100) + cost("/memories/b.md", "b" * 100)  # 228
    limit = used + cost("/memories/c.md", "c" * 50)  # 292
    mem = open_mem(f"[quota]\nmax_total_bytes = {limit}\n")
    ok(mem, command="create", path="/memories/a.md", file_text="a" * 100)
    ok(mem, command="create", path="/memories/b.md", file_text="b" * 100)
    refused(mem, total_message(limit + 1, limit, used), command="create", path="/memories/c.md", file_text="c" * 51)
    refused(
        mem,
        total_message(limit + 1, limit, used),
        command="insert",
        path="/memories/a.md",
        insert_line=0,
        insert_text="a" * 64,
    )  # 64 + a newline: one byte more than the room left
    ok(mem, command="create", path="/memories/c.md", file_text="c" * 50)
    # The listing shows file contents only (as du does); the quota also counts the path text.
    assert mem.execute({"command": "view", "path": "/memories"}).text.splitlines()[1] == "250B\t/memories"


def test_replacing_a_file_counts_its_new_size_not_both(open_mem: OpenMem) -> None:
    mem = open_mem("[quota]\nmax_total_bytes = 250\n[create]\noverwrite = true\n")
    ok(mem, command="create", path="/memories/a.md", file_text="a" * 100)
    ok(mem, command="create", path="/memories/b.md", file_text="b" * 100)
    ok(mem, command="create", path="/memories/a.md", file_text="A" * 100)  # 228 in use either way
    refused(mem, total_message(279, 250, 228), command="create", path="/memories/a.md", file_text="A" * 100 + "x" * 51)


def test_the_file_count_may_be_reached_but_not_crossed(mem: SecureMemory) -> None:
    for i in range(4):
        ok(mem, command="create", path=f"/memories/d{i}/f.md", file_text="x")
    refused(mem, files_message(4, 4), command="create", path="/memories/e.md", file_text="x")
    # At the limit, existing files can still be edited, and deleting one makes room.
    ok(mem, command="insert", path="/memories/d0/f.md", insert_line=1, insert_text="more")
    ok(mem, command="delete", path="/memories/d3")
    ok(mem, command="create", path="/memories/e.md", file_text="x")


def test_a_namespace_already_over_a_lowered_limit_may_shrink_but_not_grow(mem: SecureMemory) -> None:
    seed(mem, {"/memories/a.md": "0123456789" + "a" * 80, "/memories/b.md": "b" * 90, "/memories/c.md": "c" * 90})
    ok(mem, command="str_replace", path="/memories/a.md", old_str="0123456789", new_str="")  # 312 -> 302 bytes
    refused(mem, total_message(303, 250, 302), command="insert", path="/memories/b.md", insert_line=0, insert_text="")


def test_limits_are_per_namespace(mem: SecureMemory) -> None:
    for i in range(4):
        ok(mem, command="create", path=f"/memories/{i}.md", file_text="x")
    other = mem.in_namespace("other")
    for i in range(4):
        ok(other, command="create", path=f"/memories/{i}.md", file_text="x")
    refused(other, files_message(4, 4), command="create", path="/memories/5.md", file_text="x")


def test_only_writes_are_checked(mem: SecureMemory) -> None:
    seed(mem, {f"/memories/d/{i}.md": "x" * 100 for i in range(6)})  # over every limit
    ok(mem, command="view", path="/memories/d/0.md")
    ok(mem, command="rename", old_path="/memories/d/0.md", new_path="/memories/m.md")  # shorter path: less stored
    ok(mem, command="delete", path="/memories/d/1.md")
    # A rename that lengthens a path stores more text: over the limit, it is refused.
    assert mem.execute(
        {"command": "rename", "old_path": "/memories/m.md", "new_path": "/memories/much-longer.md"}
    ).is_error


def test_the_view_limit_comes_from_the_policy(open_mem: OpenMem) -> None:
    mem = open_mem("[view]\nmax_chars = 1000\n")
    ok(mem, command="create", path="/memories/a.md", file_text="".join(f"line {i:04}\n" for i in range(300)))
    text = ok(mem, command="view", path="/memories/a.md")
    assert len(text) <= 1000 and "[Output truncated at 1000 characters: the file has 300 lines" in text


# ---------------------------------------------------------------- racing processes


def _race(db: str, key_hex: str, policy: str, tag: str) -> None:
    """One racer: open, say so, wait for the start byte on stdin, try ten 100-byte creates, print the wins."""
    wins = 0
    with SecureMemory.open(db, key=bytes.fromhex(key_hex), policy=policy) as mem:
        print("ready", flush=True)
        sys.stdin.read(1)
        for i in range(10):
            result = mem.execute({"command": "create", "path": f"/memories/{tag}{i}.md", "file_text": "x" * 100})
            assert not result.is_error or result.text.startswith("Error: Quota exceeded"), result.text
            wins += not result.is_error
            time.sleep(0.001)  # let the others in between: the winner is not always the same process
    print(wins)


# Each file costs 100 bytes of text and 15 of path ("/memories/a0.md"): ten fit in 1,150 bytes.
@pytest.mark.parametrize("limit", ["max_files = 10", "max_total_bytes = 1150"])
@pytest.mark.slow
def test_limits_hold_under_writers_in_several_processes(tmp_path: Path, key: bytes, limit: str) -> None:
    policy, db = write_policy(tmp_path, f"[quota]\n{limit}\n{NO_HISTORY}"), tmp_path / "m.db"
    SecureMemory.open(db, key=key, policy=policy).close()
    racers = [
        subprocess.Popen(
            child_argv(_race, str(db), key.hex(), str(policy), tag),
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in "abc"
    ]
    for racer in racers:  # a racer that died says nothing: readline returns "" at once
        assert racer.stdout is not None and racer.stdout.readline() == "ready\n"
    for racer in racers:  # release all three together
        assert racer.stdin is not None
        racer.stdin.write("g")
        racer.stdin.flush()
    outputs = [racer.communicate(timeout=60) for racer in racers]
    assert [racer.returncode for racer in racers] == [0, 0, 0], [err for _, err in outputs]
    assert sum(int(out) for out, _ in outputs) == 10  # exactly what fits, of 30 attempts
    with (
        SecureMemory.open(db, key=key, policy=policy) as mem,
        mem.store.transaction(mem.namespace, write=False, clock=time.time) as tx,
    ):
        usage = tx.usage()
    assert (usage.files, usage.bytes) == (10, 1150)


# -- the history counts: past versions' text is stored too ------------------------------------------


def test_history_quota_counts_the_text_past_versions_keep(open_mem: OpenMem) -> None:
    """An agent editing one small file in a loop cannot grow the store past max_total_bytes."""
    limits = '[quota]\nmax_total_bytes = 2600\n[history]\ncontent = "keep"\n'
    with open_mem(limits) as mem:
        ok(mem, command="create", path="/memories/a.md", file_text="x" * 100 + "\nTOKEN-0\n")
        edits = 0
        while True:
            old, new = f"TOKEN-{edits}", f"TOKEN-{edits + 1}"
            result = mem.execute({"command": "str_replace", "path": "/memories/a.md", "old_str": old, "new_str": new})
            if result.is_error:
                break
            edits += 1
            assert edits < 100, "the history grew past the quota"
        assert "past versions kept in the history" in result.text, result.text
        # each version: its ~110 bytes of text, its path, its row and its redaction's row: the limit, not sooner
        assert edits >= 4
        ok(mem, command="delete", path="/memories/a.md")  # a delete keeps no text: always allowed


def test_history_quota_frees_what_a_redaction_takes(tmp_path: Path, key: bytes) -> None:
    from securemem import Admin

    policy = write_policy(tmp_path, "[quota]\nmax_total_bytes = 2300\n", "p.toml")
    with Admin.open(tmp_path / "h.db", key=key, policy=policy) as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="a" * 400)
        admin.memories.update(store.id, memory.id, content="b" * 400)
        from securemem import PolicyViolation

        with pytest.raises(PolicyViolation):
            admin.memories.update(store.id, memory.id, content="c" * 400)
        for version in admin.memory_versions.list(store.id).data:
            admin.memory_versions.redact(store.id, version.id)
        assert admin.memories.update(store.id, memory.id, content="c" * 400).content == "c" * 400


@pytest.mark.parametrize("content", ["keep", "metadata"])
def test_no_loop_of_renames_grows_the_history_past_the_quota(open_mem: OpenMem, content: str) -> None:
    """Every version stores its row and its path: renaming an empty file back and forth under a
    long path is refused once the history would pass the limit, whatever the history keeps."""
    limits = f'[quota]\nmax_total_bytes = 4000\n[history]\ncontent = "{content}"\n'
    long = "/memories/" + "n" * 200
    with open_mem(limits) as mem:
        ok(mem, command="create", path=f"{long}/a.md", file_text="")
        renames = 0
        while renames < 200:
            old, new = (f"{long}/a.md", f"{long}/b.md") if renames % 2 == 0 else (f"{long}/b.md", f"{long}/a.md")
            result = mem.execute({"command": "rename", "old_path": old, "new_path": new})
            if result.is_error:
                break
            renames += 1
        assert result.is_error and "Quota exceeded" in result.text, renames
        with mem.store.transaction(mem.namespace, write=False, clock=time.time, history=None) as tx:
            assert tx.usage().bytes <= 4000 + 400  # the limit, give or take the last refused step's estimate


def test_adopting_a_total_quota_counts_the_history_written_before_it(tmp_path: Path, key: bytes) -> None:
    """Without a total-bytes quota the history's running total is not kept (one write fewer per
    command); adopting such a quota rebuilds it, so the history written before counts."""
    db = tmp_path / "adopt.db"
    with SecureMemory.open(db, key=key) as mem:
        for i in range(5):
            ok(mem, command="create", path=f"/memories/{i}.md", file_text="x" * 300)
    policy = write_policy(tmp_path, "[quota]\nmax_total_bytes = 3000\n", "q.toml")
    with SecureMemory.open(db, key=key, policy=policy, adopt_policy=True) as mem:
        with mem.store.transaction(mem.namespace, write=False, clock=time.time) as tx:
            used = tx.usage()
        # five versions (text, path, row) and, held for each live file, the row its deletion will add
        # each version: its text, its path, its row and the row a redaction of it would add (2 x 128);
        # each live file also holds in reserve its deletion's version (2 x 128)
        assert used.history_bytes == 5 * (300 + len("/memories/0.md") + 256) + 5 * 256
        result = mem.execute({"command": "create", "path": "/memories/5.md", "file_text": "x" * 300})
        assert result.is_error and "past versions kept in the history" in result.text


def test_history_kept_before_versions_were_switched_off_still_counts(tmp_path: Path, key: bytes) -> None:
    """Switching versions off keeps what the history holds (until an operator redacts it): the
    quota goes on counting it, or the store could grow past its limit by as much."""
    db = tmp_path / "off.db"
    with SecureMemory.open(db, key=key) as mem:  # the default policy: versions keep their text
        for i in range(3):
            ok(mem, command="create", path=f"/memories/{i}.md", file_text="x" * 1000)
            ok(mem, command="delete", path=f"/memories/{i}.md")
    policy = write_policy(tmp_path, "[quota]\nmax_total_bytes = 2000\n" + NO_HISTORY, "off.toml")
    with SecureMemory.open(db, key=key, policy=policy, adopt_policy=True) as mem:
        with mem.store.transaction(mem.namespace, write=False, clock=time.time) as tx:
            assert tx.usage().history_bytes > 3000
        result = mem.execute({"command": "create", "path": "/memories/new.md", "file_text": "n" * 500})
        assert result.is_error and "past versions kept in the history" in result.text


def test_deletes_never_push_a_store_past_its_quota(open_mem: OpenMem) -> None:
    """A delete is never refused and adds a version row: each live file holds that row in reserve,
    so filling a store to its limit and deleting everything in it stays within the limit."""
    with open_mem("[quota]\nmax_total_bytes = 4000\n[history]\nversions = true\n") as mem:
        created = 0
        while not mem.execute({"command": "create", "path": f"/memories/{created}", "file_text": ""}).is_error:
            created += 1
        assert created > 5
        for n in range(created):
            ok(mem, command="delete", path=f"/memories/{n}")
        with mem.store.transaction(mem.namespace, write=False, clock=time.time) as tx:
            assert tx.usage().bytes <= 4000
