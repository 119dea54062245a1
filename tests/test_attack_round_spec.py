"""An attacker's round on the protocol's strings, the SDK's path, expiry, mounts and the CLI (stop 50): what it
found in the core, each with a test that fails on the tree before the fix. (``clear_all`` leaving what a
read-only area deeper down did not cover: tests/test_clear_all.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.policy import load_policy
from securemem.store.base import Store
from securemem.text import occurrences
from tests.helpers import err, ok


def test_an_ambiguous_old_str_that_overlaps_itself_is_counted_in_linear_time_as_a_floor(store: Store) -> None:
    # Counted by a lookahead at every position, "a" * 131,000 sought in "a" * 262,000 held the store's write lock
    # for 24 s, every other writer of the file refused as busy meanwhile. A long needle is counted without
    # overlaps now (str.count): a floor, said so, where it could overlap itself.
    mem = SecureMemory(store, load_policy("regulated"), owns_store=False)
    ok(mem, command="create", path="/memories/big.md", file_text="a" * 4000)
    message = err(mem, command="str_replace", path="/memories/big.md", old_str="a" * 2000, new_str="b")
    assert message.endswith(", 1, 1, ... (at least 51 occurrences). Please ensure it is unique")
    assert ok(mem, command="view", path="/memories/big.md").split("\t", 1)[1] == "a" * 4000


@pytest.mark.parametrize(
    ("text", "needle", "expected"),
    [
        ("aaaa", "aa", (3, True)),  # short: every occurrence, overlapping ones too
        ("\n\n\n", "\n\n", (2, True)),
        (("x" * 70 + "y\n") * 60, "x" * 70 + "y", (60, True)),  # long, and no prefix is also a suffix: exact
        ("ab" * 100, "ab" * 40, (2, False)),  # long and overlapping itself: "ab" * 40 is also a suffix of it
        ("a" * 262_000, "a" * 131_000, (2, False)),
    ],
)
def test_occurrences_are_exact_or_say_they_are_a_floor(text: str, needle: str, expected: tuple[int, bool]) -> None:
    assert occurrences(text, needle) == expected


def test_the_snippet_of_an_edit_far_along_a_long_line_shows_the_edit(store: Store) -> None:
    # Each line was cut from its start: an edit at character 200,000 of a one-line file left a snippet "showing
    # the change" that showed none of it.
    mem = SecureMemory(store, load_policy(None), owns_store=False)
    ok(mem, command="create", path="/memories/one.md", file_text="a" * 200_000 + "MARK" + "b" * 5_000)
    snippet = ok(mem, command="str_replace", path="/memories/one.md", old_str="MARK", new_str="CHANGED")
    line = snippet.split("\n")[1]
    assert line.startswith("     1\t(cut)...a") and "aCHANGEDb" in line and line.endswith("...(cut)")
    assert len(line) < 1_000
    ok(mem, command="create", path="/memories/two.md", file_text="x\nhello MARK there\n" + "c" * 5_000 + "\n")
    snippet = ok(mem, command="str_replace", path="/memories/two.md", old_str="MARK", new_str="NEW")
    assert snippet.split("\n")[1:3] == ["     1\tx", "     2\thello NEW there"]


def test_reads_of_a_handle_whose_store_file_was_removed_say_so_as_writes_do(tmp_path: Path) -> None:
    # Views went on listing the removed store's files from the inode the handle kept open.
    path = tmp_path / "agent.db"
    mem = SecureMemory.open(path, key=b"k" * 32)
    try:
        ok(mem, command="create", path="/memories/one.md", file_text="hello\n")
        path.unlink()
        gone = "the memory store file was removed or replaced after this handle opened it; reopen the store"
        for command in ({"command": "view", "path": "/memories"}, {"command": "view", "path": "/memories/one.md"}):
            assert gone in err(mem, **command)
        assert gone in err(mem, command="create", path="/memories/two.md", file_text="x")
    finally:
        mem.close()


def test_an_admin_handle_whose_store_file_was_removed_lists_no_stores_from_it(tmp_path: Path) -> None:
    # A later attacker's round: store listings read on from the removed file's inode (names and descriptions).
    from securemem import Admin
    from securemem.errors import StorageError

    path = tmp_path / "admin.db"
    with Admin.open(path, key=b"k" * 32) as admin:
        store = admin.memory_stores.create(name="patient-jane-doe", description="oncology notes")
        path.unlink()
        for call in (admin.memory_stores.list, lambda: admin.memory_stores.retrieve(store.id)):
            with pytest.raises(StorageError, match="reopen the store"):
                call()
