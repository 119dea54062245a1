"""Every path a rename creates is held to every rule: the path guard, PII in paths, read-only areas.

Renaming a directory moves everything below it; the checks run on the change (changes.Move), under
the store's lock, for each entry that moves and for each place it lands.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.paths import MAX_PATH_BYTES
from tests.helpers import dump, ok, seed, write_policy


@pytest.fixture
def regulated(tmp_path: Path) -> SecureMemory:
    return SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy="regulated")


def refused_move(memory: SecureMemory, old: str, new: str, fragment: str) -> str:
    """Unlike ``helpers.refused``: the error need only contain ``fragment``; its text, for more checks."""
    before = dump(memory)
    result = memory.execute({"command": "rename", "old_path": old, "new_path": new})
    assert result.is_error and fragment in result.text, result.text
    assert dump(memory) == before
    return result.text


def test_a_move_that_would_make_a_path_below_too_long_is_refused(regulated: SecureMemory) -> None:
    name = "n" * 200
    deep = f"/memories/a/{name}/{name}/{name}/{name}/f.md"  # about 830 bytes
    ok(regulated, command="create", path=deep, file_text="x\n")
    longer = "/memories/" + "b" * 250
    text = refused_move(regulated, "/memories/a", longer, f"longer than {MAX_PATH_BYTES} bytes")
    assert name not in text  # the paths below are not quoted


def test_a_move_whose_new_prefix_completes_pii_in_a_name_below_is_refused(regulated: SecureMemory) -> None:
    # Neither name carries a phone number alone; joined by the move, "+1 415 555" / "2671" does.
    ok(regulated, command="create", path="/memories/call/2671.md", file_text="notes\n")
    text = refused_move(regulated, "/memories/call", "/memories/+1 415 555", "personal data")
    assert "2671" not in text and "415" not in text


def test_a_move_into_a_read_only_area_is_refused_for_every_entry(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/notes/a.md", file_text="a\n")
    refused_move(regulated, "/memories/notes", "/memories/reference/notes", "read-only")


def test_a_move_out_of_a_directory_holding_read_only_entries_is_refused(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, '[[rules]]\nglob = "/memories/*/locked/**"\nread_only = true\n')
    memory = SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy=policy)
    seed(memory, {"/memories/team/locked/rules.md": "r\n"})
    refused_move(memory, "/memories/team", "/memories/other", "read-only")


def test_moves_that_obey_every_rule_go_through_and_restamp_expiry(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/notes/a.md", file_text="a\n")
    ok(regulated, command="rename", old_path="/memories/notes", new_path="/memories/scratch/notes")
    with regulated.store.transaction("default", write=False, clock=regulated.clock) as tx:
        moved = tx.stat("/memories/scratch/notes/a.md")
    # scratch/** expires a day after the last write; the move is that write
    assert moved is not None and moved.expires is not None and moved.expires - regulated.clock() <= 86_400 + 1
