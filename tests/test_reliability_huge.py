"""Huge inputs: 10 MB texts, a million lines, a directory of 100,000 entries.

Each is either handled within the result cap (16,000 characters by default) or refused with a
clear limit, and nothing a model can send makes a result, or the memory used to build it, grow
with the size of the store.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.commands import Result
from securemem.policy import HistorySettings, Policy
from tests.helpers import aggregate_errors, check_clean, read_state, stored, write_raw

# Every test here handles megabytes or 100,000 rows: several seconds each.
pytestmark = pytest.mark.slow

CAP = 16_000
TEN_MB = ("x" * 99 + "\n") * 100_000  # 10,000,000 bytes in 100,000 lines


def ok(memory: SecureMemory, **tool: object) -> str:
    """The command succeeds; its text, which must also pass ``check_clean`` (``helpers.ok`` does not ask)."""
    result = memory.execute(tool)
    assert not result.is_error, result.content
    return check_clean(result)


def refused(memory: SecureMemory, **tool: object) -> str:
    """The command fails and its text passes ``check_clean``; that text. Unlike ``helpers.refused``,
    no message is expected here: the caller checks the text."""
    result = memory.execute(tool)
    assert result.is_error, str(result.content)[:300]
    return check_clean(result)


def within_cap(result_text: str) -> str:
    assert len(result_text) <= CAP, len(result_text)
    return result_text


# -- 10 MB -----------------------------------------------------------------------------------------


def test_ten_megabytes_with_the_default_policy_are_stored_and_shown_within_the_cap(mem: SecureMemory) -> None:
    path = "/memories/big.md"
    assert ok(mem, command="create", path=path, file_text=TEN_MB) == f"File created successfully at: {path}"
    assert stored(mem, path) == TEN_MB.encode()
    view = within_cap(ok(mem, command="view", path=path))
    last = view.split("\n")[-2].split("\t")[0].strip()
    assert view.endswith(
        f"[Output truncated at {CAP} characters: the file has 100000 lines and this view ends "
        f"at line {last}. Use view_range, e.g. [{int(last) + 1}, -1], to see the rest.]"
    )
    tail = ok(mem, command="view", path=path, view_range=[99_999, -1])
    assert tail.split("\n")[1:] == [f" 99999\t{'x' * 99}", f"100000\t{'x' * 99}"]
    # An old_str found 100,000 or 10 million times: a short message with a count, not every line number.
    message = within_cap(refused(mem, command="str_replace", path=path, old_str="x" * 99 + "\n", new_str="y"))
    assert message.endswith(", 49, 50, ... (100,000 occurrences in all). Please ensure it is unique")
    message = within_cap(refused(mem, command="str_replace", path=path, old_str="x", new_str="y"))
    assert message.endswith(", 1, 1, ... (9,900,000 occurrences in all). Please ensure it is unique")
    assert "edited" in ok(mem, command="insert", path=path, insert_line=50_000, insert_text="MIDDLE")
    edit = within_cap(ok(mem, command="str_replace", path=path, old_str="MIDDLE", new_str="CENTRE"))
    assert "50001\tCENTRE" in edit
    assert stored(mem, path) == (TEN_MB[:5_000_000] + "CENTRE\n" + TEN_MB[5_000_000:]).encode()


def test_a_ten_megabyte_line_is_cut_in_views_and_in_edit_snippets(mem: SecureMemory) -> None:
    path = "/memories/one-line.md"
    ok(mem, command="create", path=path, file_text="a" * 5_000_000 + "MARK" + "b" * 5_000_000)
    view = within_cap(ok(mem, command="view", path=path))
    shown = len(view.split("\n")[1]) - 7  # the number and the TAB
    assert view.endswith(
        f"[Output truncated: line 1 does not fit in a view of {CAP} characters and was cut after "
        f"character {shown:,}. "
        f"Use view_range [1, 1, {shown + 1}] to see the rest of it. The file has 1 line; it is the last line "
        "of the file.]"
    )
    rest = within_cap(ok(mem, command="view", path=path, view_range=[1, 1, 5_000_001]))
    assert rest.split("\n")[1].startswith("     1\tMARKbbb")
    snippet = within_cap(ok(mem, command="str_replace", path=path, old_str="MARK", new_str="MOVED"))
    assert snippet.startswith("The memory file has been edited. Here is the snippet showing the change")
    assert snippet.endswith("...(cut)") and "Listing" not in snippet
    assert len(stored(mem, path)) == 10_000_005


def test_ten_megabytes_with_the_regulated_policy_are_refused_by_quota(tmp_path: Path, key: bytes) -> None:
    with SecureMemory.open(tmp_path / "r.db", key=key, policy="regulated") as memory:
        message = refused(memory, command="create", path="/memories/big.md", file_text=TEN_MB)
        assert message == (
            "Error: Quota exceeded: /memories/big.md would be 10,000,000 bytes; the limit per file "
            "is 262,144 bytes (policy 'regulated'). Nothing was written. Keep the file shorter or "
            "split it."
        )
        assert read_state(memory.store).files == {}
        ok(memory, command="create", path="/memories/small.md", file_text="small\n")
        grow = refused(memory, command="str_replace", path="/memories/small.md", old_str="small", new_str=TEN_MB)
        # Refused before the store is touched: new_str alone is over the limit per file.
        assert grow.startswith("Error: Quota exceeded: the text for /memories/small.md alone is 10,000,000 bytes")
        assert read_state(memory.store).files == {"/memories/small.md": "small\n"}


# -- a million lines -----------------------------------------------------------------------------------


def test_a_million_lines_are_refused_at_create_and_a_stored_million_lines_refused_by_view(mem: SecureMemory) -> None:
    path = "/memories/lines.md"
    million = "top\n" + "x\n" * 999_999  # 1,000,000 lines: one too many
    limit = f"Error: The file {path} would exceed the maximum line limit of 999,999 lines."
    assert refused(mem, command="create", path=path, file_text=million) == limit
    assert read_state(mem.store).files == {}
    # Written past the commands (an older version, another tool): every command still copes.
    write_raw(mem.store, path, million.encode(), lines=1_000_000)
    too_long = f"File {path} exceeds maximum line limit of 999,999 lines."
    assert refused(mem, command="view", path=path) == too_long
    assert refused(mem, command="view", path=path, view_range=[1, 10]) == too_long
    assert refused(mem, command="str_replace", path=path, old_str="top", new_str="TOP") == limit
    assert refused(mem, command="insert", path=path, insert_line=0, insert_text="more") == limit
    assert stored(mem, path) == million.encode()
    assert ok(mem, command="str_replace", path=path, old_str="top\n", new_str="").startswith("The memory file has")
    assert "999999 lines" in within_cap(ok(mem, command="view", path=path))
    assert ok(mem, command="delete", path=path) == f"Successfully deleted {path}"


# -- a directory of 100,000 entries ---------------------------------------------------------------------

ENTRIES = 100_000
RSS_BOUND_MB = 200  # generous: about 40 MB are needed today
VIEWER = """
import json, resource, sys
from securemem import SecureMemory
from tests.helpers import stored, write_many, write_raw
def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
memory = SecureMemory.open(sys.argv[1], key=bytes.fromhex(sys.argv[2]), create=False)
memory.execute({"command": "view", "path": "/memories/small"})  # warm up: first query, caches
before = peak_mb()
views = [memory.execute({"command": "view", "path": p}) for p in ("/memories/many", "/memories")]
after = peak_mb()
inner = memory.execute({"command": "view", "path": "/memories/many/f054321.md"})
memory.close()
print(json.dumps({"growth_mb": after - before, "views": [[v.is_error, v.content] for v in views],
                  "inner": [inner.is_error, inner.content]}))
"""


@pytest.fixture
def crowded(tmp_path: Path, key: bytes) -> Path:
    """A store whose /memories/many holds 100,000 files, written in one transaction."""
    db = tmp_path / "crowded.db"
    # No history: 100,000 version rows would double the fixture's time and the test reads none.
    with SecureMemory.open(db, key=key, policy=Policy(history=HistorySettings(versions=False))) as memory:
        ok(memory, command="create", path="/memories/small/a.md", file_text="a\n")
        with memory.store.transaction(memory.namespace, write=True, clock=time.time) as tx:
            for n in range(ENTRIES):
                path = f"/memories/many/f{n:06d}.md"
                tx.put_file(path, f"{n}\n".encode(), 1, None, tx.ancestry(path).entry)
    return db


def test_a_directory_of_100000_entries_is_listed_within_the_cap_in_bounded_memory(crowded: Path, key: bytes) -> None:
    # A fresh interpreter, so that its peak memory is its own (a forked child would share ours).
    run = subprocess.run(
        [sys.executable, "-c", VIEWER, str(crowded), key.hex()],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).parents[1],
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    note = re.compile(
        rf"\[Listing truncated at {CAP} characters: it shows entries 1-(\d+)\. Use view_range, e\.g\. "
        r"\[(\d+), -1\], to see the next entries, or view a subdirectory\.\]"
    )
    for is_error, content in report["views"]:
        rows = within_cap(check_clean(Result(content, is_error))).split("\n")
        shown = note.fullmatch(rows[-1])
        assert not is_error and shown is not None and int(shown[2]) == int(shown[1]) + 1 == len(rows) - 2
        assert rows[1].endswith("\t/memories/many") or rows[1].endswith("\t/memories")
    listed = [row.split("\t")[1] for row in report["views"][0][1].split("\n")[2:-1]]
    assert listed == [f"/memories/many/f{n:06d}.md" for n in range(len(listed))] and len(listed) > 100
    total = sum(len(str(n)) + 1 for n in range(ENTRIES))  # bytes of all the files: "0\n", "1\n", ...
    assert report["views"][0][1].split("\n")[1] == f"{total / 1024:.1f}K\t/memories/many"
    assert report["inner"] == [
        False,
        "Here's the content of /memories/many/f054321.md with line numbers:\n     1\t54321",
    ]
    assert report["growth_mb"] < RSS_BOUND_MB, f"viewing the directory took {report['growth_mb']:.0f} MB"
    with SecureMemory.open(crowded, key=key, create=False) as memory:
        assert ok(memory, command="delete", path="/memories/many") == "Successfully deleted /memories/many"
        state = read_state(memory.store)
        assert state.files == {"/memories/small/a.md": "a\n"} and aggregate_errors(state) == []
        assert memory.store.integrity_errors() == []
