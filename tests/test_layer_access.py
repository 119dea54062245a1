"""The access layer: read-only areas can be viewed, never changed, moved or deleted, not even as part
of a directory; errors name the policy and the rule that applied."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from tests.helpers import ok, refused, seed, write_policy

ADVICE = "it can be viewed but not created, edited, moved or deleted. Write your notes elsewhere."
REGULATED = "policy 'regulated', rule '/memories/reference/**'"
TEAM_RULE = "policy 'custom', rule '/memories/*/reference/**'"
GUIDE = "# Refunds\nWithin 30 days: order number only.\n"

OpenMem = Callable[..., SecureMemory]


def read_only(path: str, which: str = REGULATED) -> str:
    return f"Error: {path} is read-only ({which}): {ADVICE}"


@pytest.fixture
def open_mem(tmp_path: Path, key: bytes) -> OpenMem:
    def make(policy: str) -> SecureMemory:
        if not policy.startswith("regulated"):
            policy = str(write_policy(tmp_path, policy))
        return SecureMemory.open(tmp_path / "m.db", key=key, policy=policy)

    return make


@pytest.fixture
def regulated(open_mem: OpenMem) -> SecureMemory:
    memory = open_mem("regulated")
    seed(memory, {"/memories/reference/guide.md": GUIDE, "/memories/reference/forms/w9.md": "form\n"})
    ok(memory, command="create", path="/memories/notes.md", file_text="mine\n")
    ok(memory, command="create", path="/memories/drafts/d.md", file_text="draft\n")
    return memory


def test_a_read_only_area_can_be_viewed(regulated: SecureMemory) -> None:
    assert (
        ok(regulated, command="view", path="/memories/reference/guide.md")
        == "Here's the content of /memories/reference/guide.md with line numbers:\n     1\t# Refunds\n"
        "     2\tWithin 30 days: order number only."
    )
    assert ok(regulated, command="view", path="/memories/reference/guide.md", view_range=[2, 2]).endswith("only.")
    assert "/memories/reference/forms/w9.md" in ok(regulated, command="view", path="/memories/reference")


@pytest.mark.parametrize(
    ("tool_input", "path"),
    [
        ({"command": "create", "path": "/memories/reference/new.md", "file_text": "x"}, "/memories/reference/new.md"),
        (
            {"command": "create", "path": "/memories/reference/guide.md", "file_text": "x"},
            "/memories/reference/guide.md",
        ),
        (
            {"command": "str_replace", "path": "/memories/reference/guide.md", "old_str": "30", "new_str": "60"},
            "/memories/reference/guide.md",
        ),
        (
            {"command": "insert", "path": "/memories/reference/guide.md", "insert_line": 0, "insert_text": "x"},
            "/memories/reference/guide.md",
        ),
        ({"command": "delete", "path": "/memories/reference/guide.md"}, "/memories/reference/guide.md"),
        ({"command": "delete", "path": "/memories/reference/missing.md"}, "/memories/reference/missing.md"),
        ({"command": "delete", "path": "/memories/reference"}, "/memories/reference"),
        (
            {"command": "rename", "old_path": "/memories/reference/guide.md", "new_path": "/memories/guide.md"},
            "/memories/reference/guide.md",
        ),
        ({"command": "rename", "old_path": "/memories/reference", "new_path": "/memories/ref"}, "/memories/reference"),
        (
            {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/reference/notes.md"},
            "/memories/reference/notes.md",
        ),
        (
            {"command": "rename", "old_path": "/memories/drafts", "new_path": "/memories/reference/drafts"},
            "/memories/reference/drafts",
        ),
        (
            {"command": "rename", "old_path": "/memories/drafts", "new_path": "/memories/reference"},
            "/memories/reference",
        ),
    ],
)
def test_every_change_in_a_read_only_area_is_refused_before_anything_else(
    regulated: SecureMemory, tool_input: dict[str, Any], path: str
) -> None:
    # Before "already exists" or "does not exist" too: the area is off limits whatever is in it.
    refused(regulated, read_only(path), **tool_input)


def test_names_that_only_start_like_the_area_are_writable(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/reference-old/x.md", file_text="x")
    ok(regulated, command="create", path="/memories/referenced.md", file_text="x")
    ok(regulated, command="rename", old_path="/memories/referenced.md", new_path="/memories/reference-old/y.md")
    ok(regulated, command="delete", path="/memories/reference-old")


def test_a_more_specific_writable_rule_inside_the_area_wins(open_mem: OpenMem) -> None:
    memory = open_mem(
        '[[rules]]\nglob = "/memories/reference/**"\nread_only = true\n'
        '[[rules]]\nglob = "/memories/reference/inbox/**"\n'
    )
    ok(memory, command="create", path="/memories/reference/inbox/n.md", file_text="new\n")
    ok(memory, command="str_replace", path="/memories/reference/inbox/n.md", old_str="new", new_str="edited")
    ok(memory, command="rename", old_path="/memories/reference/inbox/n.md", new_path="/memories/reference/inbox/m.md")
    ok(memory, command="delete", path="/memories/reference/inbox/m.md")
    refused(
        memory,
        read_only("/memories/reference/n.md", "policy 'custom', rule '/memories/reference/**'"),
        command="create",
        path="/memories/reference/n.md",
        file_text="x",
    )


# ---------------------------------------------------------------- directories holding a read-only area


@pytest.fixture
def teams(open_mem: OpenMem) -> SecureMemory:
    """Every team folder has a read-only reference folder: the protected part sits behind a wildcard."""
    memory = open_mem('[[rules]]\nglob = "/memories/*/reference/**"\nread_only = true\n')
    seed(memory, {"/memories/team/reference/doc.md": "doc\n", "/memories/x/y/reference/a.md": "a\n"})
    ok(memory, command="create", path="/memories/team/notes.md", file_text="notes\n")
    return memory


def test_a_directory_holding_a_read_only_area_cannot_be_deleted(teams: SecureMemory) -> None:
    message = f"Error: /memories/team contains /memories/team/reference, which is read-only ({TEAM_RULE}): {ADVICE}"
    refused(teams, message, command="delete", path="/memories/team")
    ok(teams, command="delete", path="/memories/team/notes.md")  # what is not protected still is writable


def test_a_directory_holding_a_read_only_area_cannot_be_moved(teams: SecureMemory) -> None:
    message = f"Error: /memories/team contains /memories/team/reference, which is read-only ({TEAM_RULE}): {ADVICE}"
    refused(teams, message, command="rename", old_path="/memories/team", new_path="/memories/archive/team")


def test_a_move_may_not_land_anything_in_a_read_only_area(teams: SecureMemory) -> None:
    # /memories/x/y/reference is not protected ('*' is one name), but moved to /memories/z it would be.
    message = (
        f"Error: Moving /memories/x/y to /memories/z would put /memories/z/reference in a read-only area "
        f"({TEAM_RULE}): {ADVICE}"
    )
    refused(teams, message, command="rename", old_path="/memories/x/y", new_path="/memories/z")
    ok(teams, command="rename", old_path="/memories/x/y", new_path="/memories/x/w")
    ok(teams, command="delete", path="/memories/x")


def test_without_read_only_rules_nothing_is_refused(open_mem: OpenMem) -> None:
    memory = open_mem('[[rules]]\nglob = "/memories/reference/**"\nexpire_after = "1d"\n')
    ok(memory, command="create", path="/memories/reference/a.md", file_text="x")
    ok(memory, command="delete", path="/memories/reference")
