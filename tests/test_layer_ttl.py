"""The TTL layer: expiry stamped per rule, refreshed by reads, re-stamped by moves; an expired file is
gone for every command at once, before any sweep. Time only moves through the injected clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from tests.helpers import DAY, T0, Clock, create, dump, entry_of, err, ok, write_policy, write_raw

TTL_POLICY = """
[ttl]
expire_after = "10d"
since = "access"
refresh_on_read = true

[[rules]]
glob = "/memories/scratch/**"
expire_after = "1d"
since = "write"

[[rules]]
glob = "/memories/keep/**"
never_expire = true
"""
LISTING = "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:"


def open_mem(tmp_path: Path, key: bytes, clock: Clock, text: str = TTL_POLICY) -> SecureMemory:
    policy = write_policy(tmp_path, text, "ttl.toml")
    return SecureMemory.open(tmp_path / "m.db", key=key, policy=policy, clock=clock)


@pytest.fixture
def mem(tmp_path: Path, key: bytes, clock: Clock) -> SecureMemory:
    return open_mem(tmp_path, key, clock)


def expires(mem: SecureMemory, path: str) -> float | None:
    found = entry_of(mem, path)
    assert found is not None, f"{path} is not visible"
    return found.expires


def visible(mem: SecureMemory, path: str) -> bool:
    return not mem.execute({"command": "view", "path": path}).is_error


def adopted(store: Any, policy: Any, clock: Clock) -> SecureMemory:
    """A handle on ``store`` under ``policy``, which the store adopts (its files restamped)."""
    from securemem.memory import store_policy

    return SecureMemory(store, store_policy(store, policy, adopt=True, clock=clock), clock=clock, owns_store=False)


# ---------------------------------------------------------------- stamping


def test_each_write_is_stamped_by_the_rule_for_its_path(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/a.md")
    create(mem, "/memories/scratch/s.md")
    create(mem, "/memories/keep/k.md")
    assert expires(mem, "/memories/a.md") == T0 + 10 * DAY
    assert expires(mem, "/memories/scratch/s.md") == T0 + DAY
    assert expires(mem, "/memories/keep/k.md") is None
    clock.at(0.5 * DAY)
    ok(mem, command="str_replace", path="/memories/a.md", old_str="x", new_str="y")
    ok(mem, command="insert", path="/memories/scratch/s.md", insert_line=1, insert_text="more")
    assert expires(mem, "/memories/a.md") == T0 + 10.5 * DAY
    assert expires(mem, "/memories/scratch/s.md") == T0 + 1.5 * DAY


def test_a_policy_without_expiry_stamps_nothing(tmp_path: Path, key: bytes, clock: Clock) -> None:
    memory = open_mem(tmp_path, key, clock, text="")
    create(memory, "/memories/scratch/a.md")
    clock.at(10_000 * DAY)
    assert expires(memory, "/memories/scratch/a.md") is None and visible(memory, "/memories/scratch/a.md")


# ---------------------------------------------------------------- invisible at once


def test_a_file_is_invisible_from_its_deadline_on(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/a.md")
    clock.at(10 * DAY - 0.001)
    assert entry_of(mem, "/memories/a.md") is not None
    clock.at(10 * DAY)
    assert (
        err(mem, command="view", path="/memories/a.md")
        == "The path /memories/a.md does not exist. Please provide a valid path."
    )


def test_listings_and_directory_sizes_leave_expired_files_out(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/notes/a.md", "a" * 100)
    create(mem, "/memories/scratch/b.md", "b" * 30)
    create(mem, "/memories/scratch/deep/c.md", "c" * 5)
    assert ok(mem, command="view", path="/memories") == "\n".join(
        [
            LISTING,
            "135B\t/memories",
            "100B\t/memories/notes/",
            "100B\t/memories/notes/a.md",
            "35B\t/memories/scratch/",
            "30B\t/memories/scratch/b.md",
            "5B\t/memories/scratch/deep/",
        ]
    )
    clock.at(DAY)
    assert ok(mem, command="view", path="/memories") == "\n".join(
        [
            LISTING,
            "100B\t/memories",
            "100B\t/memories/notes/",
            "100B\t/memories/notes/a.md",
        ]  # every file below /memories/scratch has expired: the directories have too (names can be data)
    )


@pytest.mark.parametrize(
    ("tool_input", "message"),
    [
        (
            {"command": "str_replace", "path": "/memories/a.md", "old_str": "x", "new_str": "y"},
            "Error: The path /memories/a.md does not exist. Please provide a valid path.",
        ),
        (
            {"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": "y"},
            "Error: The path /memories/a.md does not exist",
        ),
        ({"command": "delete", "path": "/memories/a.md"}, "Error: The path /memories/a.md does not exist"),
        (
            {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"},
            "Error: The path /memories/a.md does not exist",
        ),
    ],
)
def test_an_expired_file_cannot_be_changed(
    mem: SecureMemory, clock: Clock, tool_input: dict[str, Any], message: str
) -> None:
    create(mem, "/memories/a.md")
    clock.at(10 * DAY)
    hidden_before = dump(mem, now=T0)  # the row is still there (no sweep ran), seen from before its deadline
    assert err(mem, **tool_input) == message
    assert dump(mem, now=T0) == hidden_before
    assert hidden_before["/memories/a.md"] == (False, b"x\n", 1)


def test_create_may_reuse_the_path_of_an_expired_file(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/d/a.md", "old content\n")
    clock.at(10 * DAY)
    assert (
        ok(mem, command="create", path="/memories/d/a.md", file_text="new\n")
        == "File created successfully at: /memories/d/a.md"
    )
    assert (
        dump(mem, now=T0)
        == dump(mem)
        == {"/memories": (True, None, 4), "/memories/d": (True, None, 4), "/memories/d/a.md": (False, b"new\n", 1)}
    )
    assert expires(mem, "/memories/d/a.md") == T0 + 20 * DAY


def test_rename_onto_an_expired_file_succeeds(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/b.md", "expired\n")
    clock.at(9 * DAY)
    create(mem, "/memories/a.md", "alive\n")
    clock.at(10 * DAY)
    assert (
        ok(mem, command="rename", old_path="/memories/a.md", new_path="/memories/b.md")
        == "Successfully renamed /memories/a.md to /memories/b.md"
    )
    assert dump(mem, now=T0) == {"/memories": (True, None, 6), "/memories/b.md": (False, b"alive\n", 1)}


# ---------------------------------------------------------------- reads refresh


def test_a_read_pushes_the_deadline_back_when_counting_from_access(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/a.md")
    clock.at(5 * DAY)
    ok(mem, command="view", path="/memories/a.md", view_range=[1, 1])
    assert expires(mem, "/memories/a.md") == T0 + 15 * DAY
    clock.at(15 * DAY - 1)
    assert visible(mem, "/memories/a.md")  # this view refreshes it again
    clock.at(25 * DAY - 2)  # that view moved the deadline to 25 days - 1 s
    assert visible(mem, "/memories/a.md")


def test_reads_close_together_rewrite_nothing(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/a.md")
    clock.at(3599)  # within min(1% of the TTL, 1 hour) of the last write: the row is left alone
    ok(mem, command="view", path="/memories/a.md")
    assert expires(mem, "/memories/a.md") == T0 + 10 * DAY
    clock.at(3601)
    ok(mem, command="view", path="/memories/a.md")
    assert expires(mem, "/memories/a.md") == T0 + 3601 + 10 * DAY


def test_a_read_does_not_refresh_what_counts_from_the_last_write(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/scratch/s.md")
    clock.at(0.5 * DAY)
    ok(mem, command="view", path="/memories/scratch/s.md")
    assert expires(mem, "/memories/scratch/s.md") == T0 + DAY
    clock.at(DAY)
    assert not visible(mem, "/memories/scratch/s.md")


def test_refresh_on_read_off(tmp_path: Path, key: bytes, clock: Clock) -> None:
    memory = open_mem(tmp_path, key, clock, text='[ttl]\nexpire_after = "10d"\nrefresh_on_read = false\n')
    create(memory, "/memories/a.md")
    clock.at(5 * DAY)
    ok(memory, command="view", path="/memories/a.md")
    clock.at(10 * DAY)
    assert not visible(memory, "/memories/a.md")


def test_listings_and_failed_views_refresh_nothing(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/d/a.md")
    clock.at(5 * DAY)
    ok(mem, command="view", path="/memories")
    ok(mem, command="view", path="/memories/d")
    err(mem, command="view", path="/memories/d/a.md", view_range=[7, 9])
    assert expires(mem, "/memories/d/a.md") == T0 + 10 * DAY


# ---------------------------------------------------------------- moves


def test_moving_into_a_never_expire_area_clears_the_expiry(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/a.md")
    create(mem, "/memories/scratch/s.md")
    ok(mem, command="rename", old_path="/memories/a.md", new_path="/memories/keep/a.md")
    ok(mem, command="rename", old_path="/memories/scratch", new_path="/memories/keep/s")
    clock.at(10_000 * DAY)
    assert expires(mem, "/memories/keep/a.md") is None and expires(mem, "/memories/keep/s/s.md") is None


def test_moving_into_scratch_gives_the_scratch_expiry_from_the_move(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/notes/a.md")
    create(mem, "/memories/one.md")
    clock.at(3 * DAY)  # last written three days ago: longer than scratch keeps anything
    ok(mem, command="rename", old_path="/memories/notes", new_path="/memories/scratch/notes")
    ok(mem, command="rename", old_path="/memories/one.md", new_path="/memories/scratch/one.md")
    assert expires(mem, "/memories/scratch/notes/a.md") == expires(mem, "/memories/scratch/one.md") == T0 + 4 * DAY
    clock.at(4 * DAY)
    assert not visible(mem, "/memories/scratch/notes/a.md") and not visible(mem, "/memories/scratch/one.md")


def test_moving_out_of_a_never_expire_area_starts_the_clock_at_the_move(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/keep/k.md")
    clock.at(100 * DAY)  # unread for 100 days, which a never-expire area allows
    ok(mem, command="rename", old_path="/memories/keep/k.md", new_path="/memories/k.md")
    assert expires(mem, "/memories/k.md") == T0 + 110 * DAY


def test_a_move_within_an_area_counts_as_a_write(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/a.md")
    clock.at(9 * DAY)
    ok(mem, command="rename", old_path="/memories/a.md", new_path="/memories/b.md")
    assert expires(mem, "/memories/b.md") == T0 + 19 * DAY


def test_a_move_does_not_bring_an_expired_file_back(mem: SecureMemory, clock: Clock) -> None:
    create(mem, "/memories/d/old.md")
    clock.at(5 * DAY)
    create(mem, "/memories/d/new.md")
    clock.at(10 * DAY)
    ok(mem, command="rename", old_path="/memories/d", new_path="/memories/keep/d")
    clock.at(1000 * DAY)
    assert not visible(mem, "/memories/keep/d/old.md") and visible(mem, "/memories/keep/d/new.md")
    assert sorted(dump(mem)) == ["/memories", "/memories/keep", "/memories/keep/d", "/memories/keep/d/new.md"]


# -- the policy applies on read, not only when a file was written -------------------------------------


def test_a_never_expire_rule_clears_a_stamp_when_the_file_is_read(mem: SecureMemory, clock: Clock) -> None:
    # Written by another tool (or under another policy) with an expiry, into a never-expire area.
    write_raw(mem.store, "/memories/keep/old.md", b"kept\n", expires=T0 + 10, now=T0)
    ok(mem, command="view", path="/memories/keep/old.md")
    assert expires(mem, "/memories/keep/old.md") is None
    clock.at(DAY)
    assert ok(mem, command="view", path="/memories/keep/old.md").endswith("1\tkept")


def test_a_file_past_its_policy_deadline_is_not_shown_whatever_its_stamp(mem: SecureMemory, clock: Clock) -> None:
    # scratch/** lives a day after its last write; this row says it lives a year.
    write_raw(mem.store, "/memories/scratch/stale.md", b"stale\n", expires=T0 + 365 * DAY, now=T0)
    clock.at(2 * DAY)
    assert err(mem, command="view", path="/memories/scratch/stale.md") == (
        "The path /memories/scratch/stale.md does not exist. Please provide a valid path."
    )
    assert entry_of(mem, "/memories/scratch/stale.md") is None  # and the store now hides it too


def test_a_read_brings_a_too_late_stamp_back_to_the_rule(mem: SecureMemory, clock: Clock) -> None:
    write_raw(mem.store, "/memories/notes.md", b"n\n", expires=T0 + 365 * DAY, now=T0)
    ok(mem, command="view", path="/memories/notes.md")  # since access, 10 days: counted from this read
    assert expires(mem, "/memories/notes.md") == T0 + 10 * DAY


def test_a_read_that_brings_a_stamp_back_takes_its_directory_along(mem: SecureMemory, clock: Clock) -> None:
    write_raw(mem.store, "/memories/notes/n.md", b"n\n", expires=T0 + 365 * DAY, now=T0)
    assert expires(mem, "/memories/notes") == T0 + 365 * DAY  # as the row's stamp pushed it
    ok(mem, command="view", path="/memories/notes/n.md")  # the file's expiry back to 10 days from now
    assert expires(mem, "/memories/notes") == T0 + 10 * DAY
    clock.at(11 * DAY)
    assert not visible(mem, "/memories/notes")


def test_every_write_stamps_by_the_rule_for_the_path_now(mem: SecureMemory, clock: Clock) -> None:
    write_raw(mem.store, "/memories/keep/k.md", b"k\n", expires=T0 + 5, now=T0)
    ok(mem, command="insert", path="/memories/keep/k.md", insert_line=0, insert_text="top")
    assert expires(mem, "/memories/keep/k.md") is None
    ok(mem, command="rename", old_path="/memories/keep/k.md", new_path="/memories/scratch/k.md")
    assert expires(mem, "/memories/scratch/k.md") == T0 + DAY


@pytest.mark.parametrize("db", ["file", "memory://"])
def test_a_shorter_ttl_adopted_takes_directories_down_with_their_files(
    tmp_path: Path, key: bytes, clock: Clock, db: str
) -> None:
    """A directory's expiry is the latest of what lies below it, recomputed when a policy is adopted."""
    from securemem.memory import store_policy
    from securemem.policy import Policy, TTLSettings
    from securemem.store.factory import open_store

    store = open_store(str(tmp_path / "d.db") if db == "file" else db, key)
    try:
        long = Policy(name="long", ttl=TTLSettings(expire_after=90 * DAY))
        short = Policy(name="short", ttl=TTLSettings(expire_after=DAY))
        ok(SecureMemory(store, store_policy(store, long, adopt=False), clock=clock, owns_store=False),
           command="create", path="/memories/case/deep/notes.md", file_text="x\n")  # fmt: skip
        memory = adopted(store, short, clock)
        clock.now += 2 * DAY
        assert not visible(memory, "/memories/case/deep/notes.md")
        assert not visible(memory, "/memories/case/deep") and not visible(memory, "/memories/case")
        assert "case" not in ok(memory, command="view", path="/memories")
        memory.sweep()
        assert store.count_expired(clock.now + 365 * DAY) == 0  # nothing left that could expire later
    finally:
        store.close()


@pytest.mark.parametrize("since", ["write", "access"])
def test_files_a_directory_move_takes_expire_counted_from_the_move_on_every_backend(
    store: Any, clock: Clock, since: str
) -> None:
    """A file moved with its directory lands like a file moved alone: its expiry counts from the move,
    and a read (which re-derives the expiry from the rule) agrees with the stamp the move wrote."""
    from securemem.policy import Policy, Rule, TTLSettings

    policy = Policy(
        name=f"move-{since}",
        # Reads do not refresh: under "access" the expiry counts from the last access, the move.
        ttl=TTLSettings(expire_after=3 * DAY, since=since, refresh_on_read=False),  # type: ignore[arg-type]
        rules=(Rule(glob="/memories/long/**", expire_after=100 * DAY),),
    )
    memory = adopted(store, policy, clock)
    create(memory, "/memories/long/d/z.md")
    create(memory, "/memories/long/one.md")
    clock.now += 2 * DAY
    ok(memory, command="rename", old_path="/memories/long/d", new_path="/memories/d")
    ok(memory, command="rename", old_path="/memories/long/one.md", new_path="/memories/one.md")
    clock.now += 2 * DAY  # 4 days after the writes, 2 after the moves: the landing rule gives 3 from the move
    for path in ("/memories/d/z.md", "/memories/one.md"):
        assert visible(memory, path), path
        assert expires(memory, path) == clock.now + DAY
    assert "/memories/d/z.md" in ok(memory, command="view", path="/memories")
    clock.now += DAY
    assert not visible(memory, "/memories/d/z.md") and not visible(memory, "/memories/one.md")


@pytest.mark.parametrize("leaves", ["delete", "rename out", "never-expiring delete", "nested delete"])
def test_a_directory_expires_with_what_remains_once_the_longest_lived_entry_leaves(
    store: Any, clock: Clock, leaves: str
) -> None:
    """A directory's expiry is the latest of what it holds now, not of what it once held: once its
    longest-lived file leaves, it disappears with the rest, and the sweep removes it."""
    from securemem.policy import Policy, Rule, TTLSettings

    policy = Policy(
        name="leaves",
        ttl=TTLSettings(expire_after=90 * DAY, since="write"),
        rules=(
            Rule(glob="/memories/d/**/short*", expire_after=DAY),
            Rule(glob="/memories/d/keep*", never_expire=True),
        ),
    )
    memory = adopted(store, policy, clock)
    short = "/memories/d/e/short.md" if leaves == "nested delete" else "/memories/d/short.md"
    create(memory, short)
    longer = "/memories/d/keep.md" if leaves == "never-expiring delete" else "/memories/d/long.md"
    create(memory, longer)
    if leaves == "rename out":
        ok(memory, command="rename", old_path=longer, new_path="/memories/elsewhere.md")
    else:
        ok(memory, command="delete", path=longer)
    clock.now += 2 * DAY
    assert not visible(memory, "/memories/d") and not visible(memory, short.rsplit("/", 1)[0])
    assert "/memories/d" not in ok(memory, command="view", path="/memories")
    memory.sweep()
    # Removed: nothing left that could expire within a year but the file moved out (90 days).
    assert store.count_expired(clock.now + 365 * DAY) == (1 if leaves == "rename out" else 0)


def test_a_directory_keeps_the_expiry_of_what_still_lives_in_it(store: Any, clock: Clock) -> None:
    """The other way: a file that leaves takes nothing from a directory whose expiry another holds."""
    from securemem.policy import Policy, Rule, TTLSettings

    policy = Policy(
        name="stays",
        ttl=TTLSettings(expire_after=90 * DAY, since="write"),
        rules=(Rule(glob="/memories/d/short*", expire_after=DAY),),
    )
    memory = adopted(store, policy, clock)
    create(memory, "/memories/d/long.md")
    create(memory, "/memories/d/short.md")
    create(memory, "/memories/d/e/deeper.md")
    ok(memory, command="delete", path="/memories/d/long.md")
    clock.now += 2 * DAY
    assert visible(memory, "/memories/d") and visible(memory, "/memories/d/e/deeper.md")
    assert expires(memory, "/memories/d") == expires(memory, "/memories/d/e/deeper.md") == T0 + 90 * DAY
    ok(memory, command="delete", path="/memories/d/e")  # what held it: all /memories/d holds now has expired
    assert not visible(memory, "/memories/d")


@pytest.mark.parametrize("landing", ["/memories/d/f", "/memories/g/f"])
def test_a_moved_directory_lands_with_the_latest_of_what_it_holds_not_its_own_rule(
    store: Any, clock: Clock, landing: str
) -> None:
    """The directory's own path falls under the 90-day default, its file under a one-day rule: once
    moved, it must not outlive the file it holds, nor hold its new parents past it."""
    from securemem.policy import Policy, Rule, TTLSettings

    policy = Policy(
        name="moved",
        ttl=TTLSettings(expire_after=90 * DAY, since="write"),
        rules=(Rule(glob="/memories/**/short*", expire_after=DAY),),
    )
    memory = adopted(store, policy, clock)
    create(memory, "/memories/d/e/short.md")
    ok(memory, command="rename", old_path="/memories/d/e", new_path=landing)
    assert expires(memory, landing) == expires(memory, f"{landing}/short.md") == clock.now + DAY
    clock.now += 2 * DAY
    assert not visible(memory, landing) and not visible(memory, landing.rsplit("/", 1)[0])
    memory.sweep()
    assert store.count_expired(clock.now + 365 * DAY) == 0


def test_adopting_a_policy_keeps_a_directory_as_long_as_an_empty_directory_in_it(store: Any, clock: Clock) -> None:
    from securemem.policy import Policy, TTLSettings

    long = Policy(name="long", ttl=TTLSettings(expire_after=90 * DAY, since="write"))
    memory = adopted(store, long, clock)
    create(memory, "/memories/d/e/x.md")
    create(memory, "/memories/d/y.md")
    ok(memory, command="delete", path="/memories/d/e/x.md")  # /memories/d/e: empty, keeps its 90 days
    short = Policy(name="short", ttl=TTLSettings(expire_after=DAY, since="write"))
    memory = adopted(store, short, clock)
    assert expires(memory, "/memories/d") == expires(memory, "/memories/d/e") == T0 + 90 * DAY
    clock.now += 2 * DAY
    assert visible(memory, "/memories/d") and visible(memory, "/memories/d/e")
    assert not visible(memory, "/memories/d/y.md")
