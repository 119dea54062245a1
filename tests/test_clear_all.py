"""``clear_all_memory``: the SDK's abstract tool leaves it unimplemented and its filesystem tool wipes
its folder. SecureMemoryTool deletes everything below /memories the session may delete, each entry
as a model's ``delete`` would go: through the access rules, versioned with the session's actor,
erased like any deletion. What a rule keeps stays, and the call fails saying how much stayed.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from securemem import AsyncSecureMemoryTool, SecureMemory, SecureMemoryTool
from securemem.commands import Result
from securemem.mounts import parse_stores
from securemem.policy import Rule, load_policy
from securemem.store.base import Store, VersionQuery
from tests.helpers import connection_of, err, ok, read_state, view, write_raw

FILES = {
    "/memories/a.md": "alpha\n",
    "/memories/.hidden.md": "not listed by a view\n",
    "/memories/projects/b.md": "beta\n",
    "/memories/projects/deep/c.md": "gamma\n",
}


def seeded(store: Store, policy_rules: tuple[Rule, ...] = ()) -> SecureMemory:
    writer = SecureMemory(store, load_policy(None), owns_store=False)
    for path, text in FILES.items():
        ok(writer, command="create", path=path, file_text=text)
    policy = load_policy(None)
    if policy_rules:
        policy = policy.model_copy(update={"rules": policy_rules})
    return SecureMemory(store, policy, owns_store=False, session_id="sess_clear", adopt_policy=True)


def test_clears_every_entry_hidden_ones_included_each_as_a_versioned_delete(store: Store) -> None:
    mem = seeded(store)
    assert SecureMemoryTool(mem).clear_all_memory() == "All memory cleared"
    state = read_state(store)
    assert state.files == {}
    assert state.dirs == {"/memories": (0, 0)}  # the directories went with their files
    assert view(mem, "/memories").count("\n") == 1  # the root's own line, nothing below
    with store.transaction("default", write=False, clock=time.time) as tx:
        versions = tx.versions(VersionQuery(limit=50))
    deleted = {row.path for row in versions if row.op == "deleted"}
    assert deleted == set(FILES)  # every file's life ends with a deleted version ...
    assert {row.session_id for row in versions if row.op == "deleted"} == {"sess_clear"}  # ... made by this session
    assert SecureMemoryTool(mem).clear_all_memory() == "All memory cleared"  # an empty store: nothing to do


@pytest.mark.parametrize(
    ("rules", "failed", "tried", "refusal", "kept"),
    [
        # a read-only tree: each of its entries is refused, its directories too, and said so
        ((Rule(glob="/memories/projects/**", read_only=True),), 4, 6, "/memories/projects/b.md is read-only",
         {"/memories/projects/b.md", "/memories/projects/deep/c.md"}),
        # An attacker's round: "/memories/projects" holds a read-only "deep/**", so its delete is refused whole; what
        # else it holds ("b.md") is deleted one entry at a time, and the read-only area alone stays.
        ((Rule(glob="/memories/projects/deep/**", read_only=True),), 3, 6, "/memories/projects/deep/c.md is read-only",
         {"/memories/projects/deep/c.md"}),
        # A second attacker's round: a writable area inside a read-only one ("deep" under "projects/**") is cleared
        # too; a rule on a directory alone keeps the directory (empty), not what it holds.
        ((Rule(glob="/memories/projects/**", read_only=True), Rule(glob="/memories/projects/deep/**")), 3, 6,
         "/memories/projects/b.md is read-only", {"/memories/projects/b.md"}),
        ((Rule(glob="/memories/projects", read_only=True),), 1, 5, "/memories/projects is read-only", set()),
    ],
)  # fmt: skip
def test_a_read_only_rule_keeps_its_area_and_the_call_fails_saying_how_much_stayed(
    store: Store, rules: tuple[Rule, ...], failed: int, tried: int, refusal: str, kept: set[str]
) -> None:
    mem = seeded(store, rules)
    with pytest.raises(ToolError) as caught:
        SecureMemoryTool(mem).clear_all_memory()
    message = str(caught.value)
    prefix = f"Error: {failed} of the {tried} entries below /memories were not deleted; the first refusal: "
    assert message.startswith(prefix), message
    assert refusal in message
    assert set(read_state(store).files) == kept
    for path in kept:  # what stayed is what a rule keeps: the session cannot delete it either
        assert "read-only" in err(mem, command="delete", path=path)


def test_a_session_with_several_stores_clears_what_it_may_write_and_keeps_a_read_only_store(store: Store) -> None:
    ref = store.create_store("Reference", "", time.time())
    mine = store.create_store("Mine", "", time.time())
    assert ref is not None and mine is not None
    write_raw(store, "/memories/guide.md", b"Use the Oxford comma.\n", namespace="Reference")
    write_raw(store, "/memories/x/y.md", b"mine\n", namespace="Mine")
    write_raw(store, "/memories/z.md", b"mine too\n", namespace="Mine")
    attachments = [{"memory_store_id": ref.id, "access": "read_only"}, {"memory_store_id": mine.id}]
    mounts = parse_stores(attachments, lambda id_: store.find_store(store_id=id_))
    mem = SecureMemory(store, load_policy(None), owns_store=False, mounts=mounts)
    with pytest.raises(ToolError, match=r"^Error: 1 of the 3 entries below /memories were not deleted"):
        SecureMemoryTool(mem).clear_all_memory()
    assert read_state(store, "Mine").files == {}
    assert read_state(store, "Reference").files == {"/memories/guide.md": "Use the Oxford comma.\n"}


def test_the_async_tool_clears_too(store: Store) -> None:
    mem = seeded(store)
    assert asyncio.run(AsyncSecureMemoryTool(mem).clear_all_memory()) == "All memory cleared"
    assert read_state(store).files == {}


def test_a_closed_store_gives_an_error_not_a_traceback(store: Store) -> None:
    mem = seeded(store)
    store.close()
    result = mem.clear_all()
    assert (result.is_error, result.text) == (True, "Error: the memory store is closed. Nothing was deleted.")


def test_a_busy_store_stops_the_clearing_at_once_and_says_how_far_it_got(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A review: each delete after the store refused waited its whole busy timeout and failed alike (3,000
    # entries behind a held lock took a minute), and the message ended in one delete's "not applied".
    db, key = tmp_path / "c.db", os.urandom(32)
    with SecureMemory.open(db, key=key, wait=0.2) as mem, SecureMemory.open(db, key=key) as other:
        for number in range(5):
            ok(mem, command="create", path=f"/memories/f{number}.md", file_text="x\n")
        holder = connection_of(other.store)
        deletes = mem.execute

        def delete_then_lock(tool_input: Mapping[str, Any]) -> Result:
            result = deletes(tool_input)
            if not holder.in_transaction:
                holder.execute("BEGIN IMMEDIATE")  # another writer takes the store's lock after the first delete
            return result

        monkeypatch.setattr(mem, "execute", delete_then_lock)
        try:
            result = mem.clear_all()
        finally:
            holder.execute("ROLLBACK")
        monkeypatch.undo()
        assert result.is_error and result.error == "StoreBusyError"
        stopped = "Error: 1 of the 5 entries below /memories were deleted, then the store refused: "
        assert result.text.startswith(stopped)
        assert result.text.endswith(" Retry to delete the rest.") and "not applied" not in result.text
        assert len(read_state(mem.store).files) == 4
        assert SecureMemoryTool(mem).clear_all_memory() == "All memory cleared"  # the lock gone, a retry clears
