"""The command contract: what each memory command does and says, against every Store backend.

Every test gets its store from the ``store`` fixture (conftest.py), parametrised over
``BACKENDS``: a new backend joins the contract by adding one entry there. Reference strings:
docs/protocol.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from securemem import SecureMemory
from securemem.commands import Result
from securemem.dispatcher import human_size
from securemem.errors import CommandError
from securemem.middleware import Call, Handler, Middleware
from securemem.paths import ancestors, is_within
from securemem.policy import CreateSettings, Policy, load_policy
from securemem.store.base import Store
from tests.helpers import dump, err, ok, stored, view, write_raw

LISTING_HEADER = "Here're the files and directories up to 2 levels deep in {}, excluding hidden items and node_modules:"
FILE_HEADER = "Here's the content of {} with line numbers:"


MakeMem = Callable[..., SecureMemory]


@pytest.fixture
def make_mem(store: Store) -> MakeMem:
    """``make_mem(policy=None, namespace="default", layers=())``: a SecureMemory over the one store."""

    def make(
        policy: Policy | None = None, namespace: str = "default", layers: Sequence[Middleware] = ()
    ) -> SecureMemory:
        return SecureMemory(store, policy or load_policy(None), namespace=namespace, layers=layers, owns_store=False)

    return make


@pytest.fixture
def mem(make_mem: MakeMem) -> SecureMemory:
    return make_mem()


# -- helpers -------------------------------------------------------------------------------------


def create(memory: SecureMemory, path: str, text: str) -> None:
    """``helpers.create``, and the answer is exactly the success message the contract prescribes."""
    assert ok(memory, command="create", path=path, file_text=text) == f"File created successfully at: {path}"


def body(text: str) -> list[str]:
    """The lines of a view after its header."""
    return text.split("\n")[1:]


# -- view: directories ------------------------------------------------------------------------------


def test_first_view_of_an_empty_store_is_not_an_error(mem: SecureMemory) -> None:
    assert view(mem, "/memories") == LISTING_HEADER.format("/memories") + "\n0B\t/memories"


def build_tree(memory: SecureMemory) -> None:
    create(memory, "/memories/b.md", "b" * 512)
    create(memory, "/memories/a/x.txt", "x" * 1536)
    create(memory, "/memories/a/sub/deep.txt", "d" * 10)
    create(memory, "/memories/a/sub/deeper/z.txt", "z" * 20)  # 3 levels below /memories/a: never listed
    create(memory, "/memories/a/.secret", "s" * 100)
    create(memory, "/memories/.hidden/h.txt", "h" * 7)
    create(memory, "/memories/node_modules/pkg/index.js", "n" * 5)
    create(memory, "/memories/c/node_modules/m.js", "m" * 3)
    create(memory, "/memories/c/.git/config", "g" * 2)
    create(memory, "/memories/big.bin", "y" * (2 * 1024 * 1024))


def test_listing_of_the_root(mem: SecureMemory) -> None:
    build_tree(mem)
    # Sizes count every file below a directory, hidden ones and node_modules included: the
    # stored total is what quotas use, and the listing shows the same number.
    total = 512 + 1536 + 10 + 20 + 100 + 7 + 5 + 3 + 2 + 2 * 1024 * 1024
    assert view(mem, "/memories") == "\n".join(
        [
            LISTING_HEADER.format("/memories"),
            f"{human_size(total)}\t/memories",
            "1.6K\t/memories/a/",  # 1536 + 10 + 20 + 100 (.secret counted, not listed)
            "30B\t/memories/a/sub/",  # deep.txt + deeper/z.txt
            "1.5K\t/memories/a/x.txt",
            "512B\t/memories/b.md",
            "2.0M\t/memories/big.bin",
            "5B\t/memories/c/",  # node_modules/m.js + .git/config, neither listed
        ]
    )
    assert human_size(total) == "2.0M"


def test_listing_of_a_subdirectory_goes_two_levels_below_it(mem: SecureMemory) -> None:
    build_tree(mem)
    assert view(mem, "/memories/a") == "\n".join(
        [
            LISTING_HEADER.format("/memories/a"),
            "1.6K\t/memories/a",
            "30B\t/memories/a/sub/",
            "10B\t/memories/a/sub/deep.txt",  # "." sorts before "e"
            "20B\t/memories/a/sub/deeper/",
            "1.5K\t/memories/a/x.txt",
        ]
    )


def test_listing_is_depth_first_and_sorted_by_name(mem: SecureMemory) -> None:
    for path in [
        "/memories/b/2",
        "/memories/a-b",
        "/memories/b/1/x",
        "/memories/a/z",
        "/memories/a.b",
        "/memories/a/y",
    ]:
        create(mem, path, "x")
    assert [line.split("\t")[1] for line in body(view(mem, "/memories"))] == [
        "/memories",
        "/memories/a/",
        "/memories/a/y",
        "/memories/a/z",
        "/memories/a-b",
        "/memories/a.b",
        "/memories/b/",
        "/memories/b/1/",
        "/memories/b/2",
    ]


def test_hidden_entries_can_still_be_viewed_directly(mem: SecureMemory) -> None:
    build_tree(mem)
    assert view(mem, "/memories/a/.secret") == FILE_HEADER.format("/memories/a/.secret") + "\n     1\t" + "s" * 100
    assert body(view(mem, "/memories/.hidden")) == ["7B\t/memories/.hidden", "7B\t/memories/.hidden/h.txt"]
    assert "\t/memories/node_modules/pkg/index.js" in view(mem, "/memories/node_modules")


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (0, "0B"),
        (1, "1B"),
        (512, "512B"),
        (1023, "1023B"),
        (1024, "1.0K"),
        (1536, "1.5K"),
        (4096, "4.0K"),
        (5632, "5.5K"),
        (1048575, "1.0M"),
        (1048576, "1.0M"),
        (2 * 1048576, "2.0M"),
        (1258291, "1.2M"),
        (1073741824, "1.0G"),
        (3 * 1024**4, "3.0T"),
    ],
)
def test_human_sizes(size: int, shown: str) -> None:
    assert human_size(size) == shown


def test_directory_sizes_follow_every_write(mem: SecureMemory) -> None:
    create(mem, "/memories/d/f", "12345")
    assert body(view(mem, "/memories"))[:2] == ["5B\t/memories", "5B\t/memories/d/"]
    ok(mem, command="str_replace", path="/memories/d/f", old_str="5", new_str="56789")
    ok(mem, command="insert", path="/memories/d/f", insert_line=1, insert_text="ab")
    assert stored(mem, "/memories/d/f") == b"123456789\nab"
    assert body(view(mem, "/memories"))[:2] == ["12B\t/memories", "12B\t/memories/d/"]
    ok(mem, command="rename", old_path="/memories/d/f", new_path="/memories/e/f")
    assert body(view(mem, "/memories")) == [
        "12B\t/memories",
        "0B\t/memories/d/",
        "12B\t/memories/e/",
        "12B\t/memories/e/f",
    ]
    ok(mem, command="delete", path="/memories/e")
    assert body(view(mem, "/memories")) == ["0B\t/memories", "0B\t/memories/d/"]


def test_missing_path_view(mem: SecureMemory) -> None:
    assert (
        err(mem, command="view", path="/memories/nope")
        == "The path /memories/nope does not exist. Please provide a valid path."
    )


def test_view_range_on_a_directory_pages_its_listing(mem: SecureMemory) -> None:
    """An extension of the protocol, which leaves it unsaid: on a directory, view_range numbers the
    entries of the listing (1: the first below the directory's own row), so that a listing cut to
    fit the view limit can be paged as a file is by its lines."""
    for name in ("a", "b", "c"):
        create(mem, f"/memories/d/{name}", "x\n")
    header = (
        "Here're the files and directories up to 2 levels deep in /memories/d, excluding hidden items and node_modules:"
    )
    rows = ["6B\t/memories/d", "2B\t/memories/d/a", "2B\t/memories/d/b", "2B\t/memories/d/c"]
    assert view(mem, "/memories/d", view_range=[2, 2]) == "\n".join([header, rows[0], rows[2]])
    assert view(mem, "/memories/d", view_range=[2, -1]) == "\n".join([header, rows[0], *rows[2:]])
    assert view(mem, "/memories/d", view_range=[1, 9]) == "\n".join([header, *rows])
    assert "The listing of /memories/d has 3 entries" in err(
        mem, command="view", path="/memories/d", view_range=[4, -1]
    )
    for bad in ([0, 1], [2, 1], [1], [1, 2, 3], [2**63, -1], [10**30, -1]):  # huge: never reach the store
        assert "numbers the entries of its listing" in err(mem, command="view", path="/memories/d", view_range=bad)


# -- view: files ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("one\ntwo\n", ["one", "two"]),  # a final newline ends the last line: no phantom line
        ("one\ntwo", ["one", "two"]),
        ("one\r\ntwo\r\n", ["one", "two"]),  # CRLF shown without the CR
        ("a\r\n\r\nb", ["a", "", "b"]),
        ("\n", [""]),
        ("x\n\n", ["x", ""]),
        ("tab\there\n", ["tab\there"]),
        ("cr\rinside\n", ["cr\rinside"]),  # a lone CR is content, not a line ending
    ],
)
def test_file_view(mem: SecureMemory, text: str, lines: list[str]) -> None:
    create(mem, "/memories/f.txt", text)
    expected = [f"{n:>6}\t{line}" for n, line in enumerate(lines, 1)]
    assert view(mem, "/memories/f.txt") == "\n".join([FILE_HEADER.format("/memories/f.txt"), *expected])


def test_empty_file_view(mem: SecureMemory) -> None:
    create(mem, "/memories/empty", "")
    assert view(mem, "/memories/empty").split("\n")[0] == FILE_HEADER.format("/memories/empty")
    assert "     1" not in view(mem, "/memories/empty")


TEN = "".join(f"line {n}\n" for n in range(1, 11))


@pytest.mark.parametrize(
    ("view_range", "first", "last"),
    [
        ([2, 4], 2, 4),
        ([1, 10], 1, 10),
        ([10, 10], 10, 10),
        ([3, -1], 3, 10),
        ([1, -1], 1, 10),
        ([10, -1], 10, 10),
    ],
)
def test_view_range(mem: SecureMemory, view_range: list[int], first: int, last: int) -> None:
    create(mem, "/memories/ten", TEN)
    assert body(view(mem, "/memories/ten", view_range)) == [f"{n:>6}\tline {n}" for n in range(first, last + 1)]


@pytest.mark.parametrize(
    "view_range",
    [[4, 2], [0, 3], [0, -1], [1, 11], [11, -1], [11, 12], [-1, -1], [-2, 3], [1], [1, 2, 3], [], [3, -2], [5, 0]],
)
def test_bad_view_range_names_the_valid_range(
    mem: SecureMemory, snapshot: Callable[..., Any], view_range: list[int]
) -> None:
    create(mem, "/memories/ten", TEN)
    before = snapshot(mem)
    message = err(mem, command="view", path="/memories/ten", view_range=view_range)
    assert message.startswith(f"Error: Invalid `view_range` parameter: {view_range}.")
    assert "has 10 lines" in message and "1 <= start <= end <= 10" in message and "[start, -1]" in message
    assert snapshot(mem) == before


@pytest.mark.parametrize("view_range", [[1, 1], [1, -1], [0, 0]])
def test_view_range_on_an_empty_file(mem: SecureMemory, view_range: list[int]) -> None:
    create(mem, "/memories/empty", "")
    message = err(mem, command="view", path="/memories/empty", view_range=view_range)
    assert message.startswith("Error: Invalid `view_range` parameter") and "is empty" in message


def test_explicit_null_view_range_views_the_whole_file(mem: SecureMemory) -> None:
    create(mem, "/memories/ten", TEN)
    assert len(body(view(mem, "/memories/ten"))) == 10
    assert ok(mem, command="view", path="/memories/ten", view_range=None) == view(mem, "/memories/ten")


def test_binary_file_is_an_error_not_garbage(mem: SecureMemory) -> None:
    write_raw(mem, "/memories/blob", b"\xff\xfe\x00binary", lines=0)
    assert "binary" in err(mem, command="view", path="/memories/blob")
    assert "binary" in err(mem, command="str_replace", path="/memories/blob", old_str="b", new_str="c")
    assert "binary" in err(mem, command="insert", path="/memories/blob", insert_line=0, insert_text="x")


MAX = 999_999


def test_a_file_of_exactly_999999_lines_views(mem: SecureMemory) -> None:
    create(mem, "/memories/max", "x\n" * MAX)
    full = view(mem, "/memories/max")
    assert body(full)[:3] == ["     1\tx", "     2\tx", "     3\tx"]
    assert "999999 lines" in full  # cut at 16,000 characters, naming the total
    assert body(view(mem, "/memories/max", [MAX - 1, -1])) == ["999998\tx", "999999\tx"]
    message = err(mem, command="insert", path="/memories/max", insert_line=0, insert_text="one more")
    assert "999,999" in message
    assert stored(mem, "/memories/max") == b"x\n" * MAX


def test_a_file_of_1000000_lines_is_refused_by_view_and_create(mem: SecureMemory) -> None:
    text = "x\n" * (MAX + 1)
    assert "999,999" in err(mem, command="create", path="/memories/huge", file_text=text)
    assert err(mem, command="view", path="/memories/huge").startswith("The path /memories/huge does not exist")
    write_raw(mem, "/memories/huge", text.encode(), lines=MAX + 1)  # only a raw write can make such a file
    expected = "File /memories/huge exceeds maximum line limit of 999,999 lines."
    assert err(mem, command="view", path="/memories/huge") == expected
    assert err(mem, command="view", path="/memories/huge", view_range=[1, 2]) == expected


# -- create -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["plain", "ends\n", "crlf\r\nfile\r\n", "", "ünïcödé 日本 \U0001f600\n"])
def test_create_stores_the_text_exactly(mem: SecureMemory, text: str) -> None:
    create(mem, "/memories/f", text)
    assert stored(mem, "/memories/f") == text.encode("utf-8")


def test_create_on_an_existing_file_is_refused_by_default(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "first")
    assert (
        err(mem, command="create", path="/memories/f", file_text="second") == "Error: File /memories/f already exists"
    )
    assert stored(mem, "/memories/f") == b"first"


def test_create_overwrites_when_the_policy_says_so(make_mem: MakeMem) -> None:
    memory = make_mem(Policy(create=CreateSettings(overwrite=True)))
    create(memory, "/memories/f", "first")
    create(memory, "/memories/f", "second\n")
    assert stored(memory, "/memories/f") == b"second\n"
    assert body(view(memory, "/memories"))[0] == "7B\t/memories"
    # Overwriting never turns a directory into a file.
    create(memory, "/memories/d/child", "c")
    assert "is a directory" in err(memory, command="create", path="/memories/d", file_text="x")
    assert stored(memory, "/memories/d/child") == b"c"


def test_create_makes_missing_parents(mem: SecureMemory) -> None:
    create(mem, "/memories/p/q/r/file.md", "deep")
    assert body(view(mem, "/memories")) == ["4B\t/memories", "4B\t/memories/p/", "4B\t/memories/p/q/"]
    assert body(view(mem, "/memories/p/q"))[1:] == ["4B\t/memories/p/q/r/", "4B\t/memories/p/q/r/file.md"]


@pytest.mark.parametrize("path", ["/memories/f/child", "/memories/f/a/b/c"])
def test_create_under_a_file_is_refused(mem: SecureMemory, snapshot: Callable[..., Any], path: str) -> None:
    create(mem, "/memories/f", "file")
    before = snapshot(mem)
    assert "/memories/f is a file" in err(mem, command="create", path=path, file_text="x")
    assert snapshot(mem) == before


def test_create_on_an_existing_directory_is_refused(mem: SecureMemory, snapshot: Callable[..., Any]) -> None:
    create(mem, "/memories/d/child", "c")
    before = snapshot(mem)
    assert (
        err(mem, command="create", path="/memories/d", file_text="x")
        == "Error: The path /memories/d is a directory; create needs a file path."
    )
    assert snapshot(mem) == before


# -- str_replace ------------------------------------------------------------------------------------


def test_str_replace(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "alpha\nbeta\ngamma\n")
    result = ok(mem, command="str_replace", path="/memories/f", old_str="beta", new_str="BETA")
    assert result.startswith("The memory file has been edited.")
    assert "     2\tBETA" in result.split("\n")
    assert stored(mem, "/memories/f") == b"alpha\nBETA\ngamma\n"


@pytest.mark.parametrize("tool_input", [{}, {"new_str": None}, {"new_str": ""}])
def test_str_replace_without_new_str_deletes_old_str(mem: SecureMemory, tool_input: dict[str, Any]) -> None:
    create(mem, "/memories/f", "keep DROP keep\n")
    ok(mem, command="str_replace", path="/memories/f", old_str=" DROP", **tool_input)
    assert stored(mem, "/memories/f") == b"keep keep\n"


def test_str_replace_multi_line(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "a\nb\nc\nd\n")
    result = ok(mem, command="str_replace", path="/memories/f", old_str="b\nc\n", new_str="B1\nB2\nB3\n")
    assert stored(mem, "/memories/f") == b"a\nB1\nB2\nB3\nd\n"
    assert [line for line in result.split("\n") if "\t" in line] == [
        "     1\ta",
        "     2\tB1",
        "     3\tB2",
        "     4\tB3",
        "     5\td",
    ]


def test_str_replace_snippet_shows_the_edit_with_context(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "".join(f"row {n}\n" for n in range(1, 31)))
    result = ok(mem, command="str_replace", path="/memories/f", old_str="row 15\n", new_str="changed\n")
    numbered = [line for line in result.split("\n") if "\t" in line]
    assert "    15\tchanged" in numbered
    assert "    13\trow 13" in numbered and "    17\trow 17" in numbered
    assert all(not line.startswith("     1\t") for line in numbered)


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_str_replace_on_a_missing_path_or_directory(mem: SecureMemory, kind: str) -> None:
    create(mem, "/memories/dir/f", "x")
    path = "/memories/nope" if kind == "missing" else "/memories/dir"
    assert (
        err(mem, command="str_replace", path=path, old_str="x", new_str="y")
        == f"Error: The path {path} does not exist. Please provide a valid path."
    )


def test_str_replace_not_found(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "abc\n")
    assert (
        err(mem, command="str_replace", path="/memories/f", old_str="a.c", new_str="x")
        == "No replacement was performed, old_str `a.c` did not appear verbatim in /memories/f."
    )
    assert err(mem, command="str_replace", path="/memories/f", old_str="ABC", new_str="x").startswith(
        "No replacement was performed, old_str `ABC`"
    )
    assert stored(mem, "/memories/f") == b"abc\n"


def test_str_replace_multiple_occurrences(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "todo: a\nnothing\ntodo: b\n")
    assert err(mem, command="str_replace", path="/memories/f", old_str="todo", new_str="done") == (
        "No replacement was performed. Multiple occurrences of old_str `todo` in lines: 1, 3. "
        "Please ensure it is unique"
    )
    assert stored(mem, "/memories/f") == b"todo: a\nnothing\ntodo: b\n"


def test_str_replace_empty_old_str_is_refused(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "abc\n")
    assert "old_str" in err(mem, command="str_replace", path="/memories/f", old_str="", new_str="x")
    assert stored(mem, "/memories/f") == b"abc\n"


def test_str_replace_long_old_str_is_clipped_in_the_message(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "abc\n")
    message = err(mem, command="str_replace", path="/memories/f", old_str="q" * 5000, new_str="x")
    assert len(message) < 500 and "q" * 200 in message


def test_str_replace_keeps_a_crlf_file_crlf(mem: SecureMemory) -> None:
    # Views hide the CR, so the model writes LF in old_str and new_str.
    create(mem, "/memories/f", "a\r\nb\r\nc\r\n")
    ok(mem, command="str_replace", path="/memories/f", old_str="a\nb", new_str="x\ny\nz")
    assert stored(mem, "/memories/f") == b"x\r\ny\r\nz\r\nc\r\n"
    ok(mem, command="str_replace", path="/memories/f", old_str="z\r\nc", new_str="w")
    assert stored(mem, "/memories/f") == b"x\r\ny\r\nw\r\n"


@pytest.mark.parametrize(
    ("text", "old", "new", "expected"),
    [
        # An insert of a CRLF line at the top of an LF file: its first line now ends in CRLF, its others in LF.
        ("x\r\na\nb\n", "a\nb", "A", "x\r\nA\n"),
        ("a\r\nb\nc\n", "b\nc", "B\nC", "a\r\nB\nC\n"),
        # Found in the file's own line ending first, as before.
        ("a\r\nb\r\nc\nd\n", "a\nb", "x", "x\r\nc\nd\n"),
    ],
)
def test_str_replace_in_a_file_of_mixed_line_endings_finds_what_it_was_sent(
    mem: SecureMemory, text: str, old: str, new: str, expected: str
) -> None:
    # A differential test against the SDK's tool: an old_str that is in the file verbatim was refused as
    # "did not appear verbatim", because the file's first line made it a CRLF file.
    create(mem, "/memories/f", text)
    ok(mem, command="str_replace", path="/memories/f", old_str=old, new_str=new)
    assert stored(mem, "/memories/f") == expected.encode()


# -- insert -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "insert", "expected"),
    [
        ("a\nb\n", 0, "top", "top\na\nb\n"),
        ("a\nb\n", 1, "mid", "a\nmid\nb\n"),
        ("a\nb\n", 2, "end", "a\nb\nend\n"),
        ("a\nb", 2, "end", "a\nb\nend"),  # no final newline before: none after
        ("a\nb", 0, "top", "top\na\nb"),
        ("a\nb\n", 1, "x\ny\n", "a\nx\ny\nb\n"),  # a final newline in insert_text ends its last line
        ("a\nb\n", 1, "x\ny", "a\nx\ny\nb\n"),
        ("", 0, "first", "first\n"),
        ("a\r\nb\r\n", 1, "x\ny", "a\r\nx\r\ny\r\nb\r\n"),  # CRLF stays CRLF, inserted LF converted
        ("a\r\nb\r\n", 2, "end\n", "a\r\nb\r\nend\r\n"),
        ("a\r\nb", 2, "end", "a\r\nb\r\nend"),
        # insert keeps what it was sent: carriage returns are stored as given, in an LF file too
        ("a\nb\n", 1, "crlf\r\ntext", "a\ncrlf\r\ntext\nb\n"),
        ("a\nb\n", 1, "cr\ronly", "a\ncr\ronly\nb\n"),
        ("a\nb\n", 0, "ends\r\n", "ends\r\na\nb\n"),
        ("a\r\nb\r\n", 1, "mixed\r\nlone\nx\r", "a\r\nmixed\r\nlone\r\nx\r\r\nb\r\n"),
    ],
)
def test_insert(mem: SecureMemory, text: str, line: int, insert: str, expected: str) -> None:
    create(mem, "/memories/f", text)
    assert (
        ok(mem, command="insert", path="/memories/f", insert_line=line, insert_text=insert)
        == "The file /memories/f has been edited."
    )
    assert stored(mem, "/memories/f") == expected.encode()


@pytest.mark.parametrize("line", [-1, 3, 100])
def test_insert_out_of_range(mem: SecureMemory, line: int) -> None:
    create(mem, "/memories/f", "a\nb\n")
    assert (
        err(mem, command="insert", path="/memories/f", insert_line=line, insert_text="x")
        == f"Error: Invalid `insert_line` parameter: {line}. It should be within the range of lines of the file: [0, 2]"
    )
    assert stored(mem, "/memories/f") == b"a\nb\n"


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_insert_on_a_missing_path_or_directory(mem: SecureMemory, kind: str) -> None:
    create(mem, "/memories/dir/f", "x")
    path = "/memories/nope" if kind == "missing" else "/memories/dir"
    assert (
        err(mem, command="insert", path=path, insert_line=0, insert_text="x")
        == f"Error: The path {path} does not exist"
    )


# -- delete -----------------------------------------------------------------------------------------


def test_delete_a_file(mem: SecureMemory) -> None:
    create(mem, "/memories/d/f", "12345")
    create(mem, "/memories/d/g", "12")
    assert ok(mem, command="delete", path="/memories/d/f") == "Successfully deleted /memories/d/f"
    assert err(mem, command="view", path="/memories/d/f").startswith("The path /memories/d/f does not exist")
    assert body(view(mem, "/memories")) == ["2B\t/memories", "2B\t/memories/d/", "2B\t/memories/d/g"]


def test_delete_a_directory_recursively_and_nothing_else(mem: SecureMemory) -> None:
    for path in [
        "/memories/a/x",
        "/memories/a/b/c/d/e",
        "/memories/a/.h",
        "/memories/ab",
        "/memories/a-b/x",
        "/memories/a.b",
        "/memories/b/a/x",
    ]:
        create(mem, path, "data")
    assert ok(mem, command="delete", path="/memories/a") == "Successfully deleted /memories/a"
    assert sorted(dump(mem)) == [
        "/memories",
        "/memories/a-b",
        "/memories/a-b/x",
        "/memories/a.b",
        "/memories/ab",
        "/memories/b",
        "/memories/b/a",
        "/memories/b/a/x",
    ]
    assert body(view(mem, "/memories"))[0] == "16B\t/memories"
    create(mem, "/memories/a", "a file now")  # the path is free again, as a file


def test_delete_missing(mem: SecureMemory) -> None:
    assert err(mem, command="delete", path="/memories/nope") == "Error: The path /memories/nope does not exist"


def test_delete_the_root_is_refused(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "x")
    assert "cannot be deleted" in err(mem, command="delete", path="/memories")
    assert stored(mem, "/memories/f") == b"x"


# -- rename -----------------------------------------------------------------------------------------


def test_rename_a_file(mem: SecureMemory) -> None:
    create(mem, "/memories/a.md", "content\n")
    assert (
        ok(mem, command="rename", old_path="/memories/a.md", new_path="/memories/b.md")
        == "Successfully renamed /memories/a.md to /memories/b.md"
    )
    assert stored(mem, "/memories/b.md") == b"content\n"
    assert err(mem, command="view", path="/memories/a.md").startswith("The path /memories/a.md does not exist")


def test_rename_a_directory_moves_its_whole_subtree(mem: SecureMemory) -> None:
    files = {
        "/memories/src/a": "1",
        "/memories/src/sub/b": "22",
        "/memories/src/sub/deep/c": "333",
        "/memories/src/.h": "4444",
        "/memories/srcx": "keep",
        "/memories/src-2/f": "keep",
    }
    for path, text in files.items():
        create(mem, path, text)
    ok(mem, command="rename", old_path="/memories/src", new_path="/memories/new/place")
    for path, text in files.items():
        moved = path.replace("/memories/src/", "/memories/new/place/") if path.startswith("/memories/src/") else path
        assert stored(mem, moved) == text.encode()
        if moved != path:
            assert err(mem, command="view", path=path).startswith(f"The path {path} does not exist")
    assert err(mem, command="view", path="/memories/src").startswith("The path /memories/src does not exist")
    assert body(view(mem, "/memories/new/place/sub")) == [
        "5B\t/memories/new/place/sub",
        "2B\t/memories/new/place/sub/b",
        "3B\t/memories/new/place/sub/deep/",
        "3B\t/memories/new/place/sub/deep/c",
    ]
    assert body(view(mem, "/memories"))[:3] == ["18B\t/memories", "10B\t/memories/new/", "10B\t/memories/new/place/"]
    create(mem, "/memories/src/a", "reused")  # the old path is free again


def test_rename_with_non_ascii_names(mem: SecureMemory) -> None:
    create(mem, "/memories/café/日本/x", "1")
    ok(mem, command="rename", old_path="/memories/café", new_path="/memories/ü/ñ\U0001f600")
    assert stored(mem, "/memories/ü/ñ\U0001f600/日本/x") == b"1"
    assert "\t/memories/ü/ñ\U0001f600/" in view(mem, "/memories")


def test_rename_missing_source(mem: SecureMemory) -> None:
    assert (
        err(mem, command="rename", old_path="/memories/nope", new_path="/memories/b")
        == "Error: The path /memories/nope does not exist"
    )
    assert sorted(dump(mem)) == ["/memories"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/memories/a", "/memories/b"),  # file onto file
        ("/memories/a", "/memories/d"),  # file onto directory
        ("/memories/d", "/memories/a"),  # directory onto file
        ("/memories/d", "/memories/e"),  # directory onto directory
        ("/memories/a", "/memories/a"),  # onto itself
        ("/memories/d/x", "/memories/d"),  # onto its own parent
    ],
)
def test_rename_never_overwrites(mem: SecureMemory, snapshot: Callable[..., Any], old: str, new: str) -> None:
    for path in ["/memories/a", "/memories/b", "/memories/d/x", "/memories/e/y"]:
        create(mem, path, path)
    before = snapshot(mem)
    assert err(mem, command="rename", old_path=old, new_path=new) == f"Error: The destination {new} already exists"
    assert snapshot(mem) == before


@pytest.mark.parametrize("new", ["/memories/d/inner", "/memories/d/x/deeper/still"])
def test_rename_a_directory_into_itself(mem: SecureMemory, snapshot: Callable[..., Any], new: str) -> None:
    create(mem, "/memories/d/x/f", "x")
    before = snapshot(mem)
    assert (
        err(mem, command="rename", old_path="/memories/d", new_path=new)
        == f"Error: Cannot move the directory /memories/d into itself ({new})."
    )
    assert snapshot(mem) == before


def test_rename_to_a_sibling_with_a_prefix_name_is_not_into_itself(mem: SecureMemory) -> None:
    create(mem, "/memories/d/f", "x")
    ok(mem, command="rename", old_path="/memories/d", new_path="/memories/dd/d")
    assert stored(mem, "/memories/dd/d/f") == b"x"


def test_rename_creates_the_destination_parents(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "x")
    ok(mem, command="rename", old_path="/memories/f", new_path="/memories/p/q/f")
    assert body(view(mem, "/memories")) == ["1B\t/memories", "1B\t/memories/p/", "1B\t/memories/p/q/"]


@pytest.mark.parametrize(
    ("old", "new"),
    [("/memories/g", "/memories/f/g"), ("/memories/d", "/memories/f/x/d"), ("/memories/f", "/memories/f/self")],
)
def test_rename_under_a_file_is_refused(mem: SecureMemory, snapshot: Callable[..., Any], old: str, new: str) -> None:
    for path in ["/memories/f", "/memories/g", "/memories/d/x"]:
        create(mem, path, "x")
    before = snapshot(mem)
    assert "/memories/f is a file" in err(mem, command="rename", old_path=old, new_path=new)
    assert snapshot(mem) == before


# -- a path is never both a file and a directory; a model of the store agrees ----------------------

SMALL_PATHS = ["/memories/a", "/memories/a/b", "/memories/a/b/c", "/memories/c", "/memories/c/a", "/memories/ab"]
OPS = st.one_of(
    st.tuples(st.just("create"), st.sampled_from(SMALL_PATHS), st.sampled_from(["", "x", "yy\n"])),
    st.tuples(st.just("delete"), st.sampled_from(SMALL_PATHS)),
    st.tuples(st.just("rename"), st.sampled_from(SMALL_PATHS), st.sampled_from(SMALL_PATHS)),
)


class Model:
    """What the store should hold after each command: files with their text, and directories."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.dirs: set[str] = set()

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.dirs

    def blocked(self, path: str) -> bool:
        return any(above in self.files for above in ancestors(path))

    def add_parents(self, path: str) -> None:
        self.dirs.update(ancestors(path)[1:])

    def create(self, path: str, text: str) -> bool:
        if self.exists(path) or self.blocked(path):
            return False
        self.add_parents(path)
        self.files[path] = text
        return True

    def delete(self, path: str) -> bool:
        if not self.exists(path):
            return False
        self.files = {p: t for p, t in self.files.items() if not is_within(p, path)}
        self.dirs = {d for d in self.dirs if not is_within(d, path)}
        return True

    def rename(self, old: str, new: str) -> bool:
        if not self.exists(old) or self.exists(new) or is_within(new, old) or self.blocked(new):
            return False

        def moved(p: str) -> str:
            return new + p[len(old) :] if is_within(p, old) else p

        self.files = {moved(p): t for p, t in self.files.items()}
        self.dirs = {moved(d) for d in self.dirs}
        self.add_parents(new)
        return True


EXAMPLES = itertools.count()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, max_size=14))
@pytest.mark.slow
def test_store_agrees_with_a_model(make_mem: MakeMem, ops: list[tuple[str, ...]]) -> None:
    memory = make_mem(namespace=f"model-{next(EXAMPLES)}")  # examples share the store: one namespace each
    model = Model()
    for op in ops:
        if op[0] == "create":
            result = memory.execute({"command": "create", "path": op[1], "file_text": op[2]})
            expected = model.create(op[1], op[2])
        elif op[0] == "delete":
            result = memory.execute({"command": "delete", "path": op[1]})
            expected = model.delete(op[1])
        else:
            result = memory.execute({"command": "rename", "old_path": op[1], "new_path": op[2]})
            expected = model.rename(op[1], op[2])
        assert result.is_error != expected, (op, result.content)
    state = dump(memory)
    assert {p: v[1] for p, v in state.items() if not v[0]} == {p: t.encode() for p, t in model.files.items()}
    assert {p for p, v in state.items() if v[0]} == model.dirs | {"/memories"}
    for path, (is_dir, _, size) in state.items():
        if not is_dir:
            assert not any(other.startswith(path + "/") for other in state), f"{path} is a file with children"
        else:
            assert size == sum(len(t.encode()) for p, t in model.files.items() if p.startswith(path + "/"))


# -- bad input: one clear message naming the field ---------------------------------------------------

BAD_INPUTS: list[tuple[Any, str]] = [
    (None, "must be a JSON object"),
    ("view /memories", "must be a JSON object"),
    ([{"command": "view", "path": "/memories"}], "must be a JSON object"),
    (42, "must be a JSON object"),
    ({}, "Unknown or missing command"),
    ({"command": "bogus"}, "Unknown or missing command"),
    ({"command": "View", "path": "/memories"}, "Unknown or missing command"),
    ({"command": 5, "path": "/memories"}, "Unknown or missing command"),
    ({"command": ["view"], "path": "/memories"}, "Unknown or missing command"),
    ({"command": "view"}, "missing required field `path`"),
    ({"command": "create", "path": "/memories/f"}, "missing required field `file_text`"),
    ({"command": "str_replace", "path": "/memories/f", "new_str": "x"}, "missing required field `old_str`"),
    ({"command": "insert", "path": "/memories/f", "insert_text": "x"}, "missing required field `insert_line`"),
    ({"command": "insert", "path": "/memories/f", "insert_line": 0}, "missing required field `insert_text`"),
    ({"command": "rename", "old_path": "/memories/f"}, "missing required field `new_path`"),
    ({"command": "rename", "path": "/memories/f", "new_path": "/memories/g"}, "an unexpected field"),
    ({"command": "delete", "path": "/memories/f", "recursive": True}, "the fields of `delete` are: path"),
    ({"command": "view", "path": "/memories", "extra": 1}, "an unexpected field"),
    ({"command": "view", "path": 5}, "field `path`"),
    ({"command": "view", "path": None}, "field `path`"),
    ({"command": "view", "path": ["/memories"]}, "field `path`"),
    ({"command": "create", "path": "/memories/f", "file_text": b"bytes"}, "field `file_text`"),
    ({"command": "create", "path": "/memories/f", "file_text": None}, "field `file_text`"),
    ({"command": "str_replace", "path": "/memories/f", "old_str": 1, "new_str": "x"}, "field `old_str`"),
    ({"command": "str_replace", "path": "/memories/f", "old_str": "a", "new_str": 2}, "field `new_str`"),
    ({"command": "view", "path": "/memories/f", "view_range": "1,2"}, "field `view_range`"),
    ({"command": "view", "path": "/memories/f", "view_range": [1.0, 2]}, "field `view_range.0`"),
    ({"command": "view", "path": "/memories/f", "view_range": [1, "2"]}, "field `view_range.1`"),
    ({"command": "view", "path": "/memories/f", "view_range": [True, 2]}, "field `view_range.0`"),
    ({"command": "insert", "path": "/memories/f", "insert_line": True, "insert_text": "x"}, "field `insert_line`"),
    ({"command": "insert", "path": "/memories/f", "insert_line": "1", "insert_text": "x"}, "field `insert_line`"),
    ({"command": "insert", "path": "/memories/f", "insert_line": 1.0, "insert_text": "x"}, "field `insert_line`"),
    ({"command": "insert", "path": "/memories/f", "insert_line": None, "insert_text": "x"}, "field `insert_line`"),
    ({1: 2, "command": "view", "path": "/memories"}, "an unexpected field"),
]


@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "delete_all_of_jane.doe@example.com"},
        {"command": "view", "path": "/memories", "jane.doe@example.com": 1},
        {"command": "view", "path": "/memories", "ssn_078-05-1120": True},
        {"command": "bogus-4111111111111111", "path": "/memories"},
    ],
)
def test_error_messages_never_echo_input_values(mem: SecureMemory, tool_input: dict[str, Any]) -> None:
    # An unknown command name or field name is the model's text: it may carry what the PII
    # layer, which never saw it, would have kept out of every message and log.
    result = mem.execute(tool_input)
    assert result.is_error
    unknown = [k for k in tool_input if k not in ("command", "path")]
    if tool_input["command"] not in ("view", "create", "str_replace", "insert", "delete", "rename"):
        unknown.append(tool_input["command"])
    for value in unknown:
        assert str(value) not in result.text
    for fragment in ("jane", "078-05", "4111"):
        assert fragment not in result.text


@pytest.mark.parametrize(("tool_input", "fragment"), BAD_INPUTS, ids=[repr(i)[:50] for i, _ in BAD_INPUTS])
def test_bad_input_gets_one_clear_message(
    mem: SecureMemory, snapshot: Callable[..., Any], tool_input: Any, fragment: str
) -> None:
    create(mem, "/memories/f", "a\n")
    before = snapshot(mem)
    result = mem.execute(tool_input)
    assert result.is_error
    assert isinstance(result.content, str) and result.content.startswith("Error: ")
    assert fragment in result.content, result.content
    assert "Traceback" not in result.content and "pydantic" not in result.content.lower()
    assert result.content.count("\n") == 0
    assert snapshot(mem) == before


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
FIELDS = st.sampled_from(
    [
        "command",
        "path",
        "file_text",
        "old_str",
        "new_str",
        "insert_line",
        "insert_text",
        "view_range",
        "old_path",
        "new_path",
    ]
)
TOOL_INPUTS = st.one_of(
    JSON,
    st.dictionaries(FIELDS, JSON, max_size=5),
    st.fixed_dictionaries(
        {"command": st.sampled_from(["view", "create", "str_replace", "insert", "delete", "rename"])},
        optional={
            "path": st.sampled_from(["/memories", "/memories/f", "/memories/x/y"]) | JSON,
            "file_text": JSON,
            "old_str": JSON,
            "new_str": JSON,
            "insert_line": JSON,
            "insert_text": JSON,
            "view_range": JSON,
            "old_path": JSON,
            "new_path": st.sampled_from(["/memories/g", "/memories"]) | JSON,
        },
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool_input=TOOL_INPUTS)
@pytest.mark.slow
def test_execute_never_raises_for_any_input(mem: SecureMemory, tool_input: Any) -> None:
    result = mem.execute(tool_input)
    assert isinstance(result, Result) and isinstance(result.is_error, bool)
    assert isinstance(result.content, str)
    assert "internal error" not in result.content, (tool_input, result.content)


# -- failed commands write nothing -----------------------------------------------------------------

FAILING: list[dict[str, Any]] = [
    {"command": "create", "path": "/memories/f", "file_text": "other"},
    {"command": "create", "path": "/memories/f/g", "file_text": "under a file"},
    {"command": "create", "path": "/memories/d", "file_text": "on a directory"},
    {"command": "create", "path": "/memories/new", "file_text": "x\n" * 1_000_000},
    {"command": "create", "path": "/memories", "file_text": "root"},
    {"command": "create", "path": "/memories/../f", "file_text": "traversal"},
    {"command": "str_replace", "path": "/memories/f", "old_str": "absent", "new_str": "x"},
    {"command": "str_replace", "path": "/memories/f", "old_str": "line", "new_str": "x"},
    {"command": "str_replace", "path": "/memories/f", "old_str": "", "new_str": "x"},
    {"command": "str_replace", "path": "/memories/missing", "old_str": "a", "new_str": "x"},
    {"command": "str_replace", "path": "/memories/d", "old_str": "a", "new_str": "x"},
    {"command": "str_replace", "path": "/memories/f", "old_str": "one", "new_str": "x\n" * 1_000_000},
    {"command": "insert", "path": "/memories/f", "insert_line": 99, "insert_text": "x"},
    {"command": "insert", "path": "/memories/f", "insert_line": -1, "insert_text": "x"},
    {"command": "insert", "path": "/memories/missing", "insert_line": 0, "insert_text": "x"},
    {"command": "insert", "path": "/memories/f", "insert_line": 0, "insert_text": "x\n" * 999_999},
    {"command": "delete", "path": "/memories/missing"},
    {"command": "delete", "path": "/memories/"},
    {"command": "rename", "old_path": "/memories/missing", "new_path": "/memories/g"},
    {"command": "rename", "old_path": "/memories/f", "new_path": "/memories/d"},
    {"command": "rename", "old_path": "/memories/d", "new_path": "/memories/d/sub/x"},
    {"command": "rename", "old_path": "/memories/d", "new_path": "/memories/f/d"},
    {"command": "rename", "old_path": "/memories/d", "new_path": "/memories"},
    {"command": "rename", "old_path": "/memories/d", "new_path": "/memories/%2e%2e"},
    {"command": "view", "path": "/memories/f", "view_range": [5, 1]},
    {"command": "delete", "path": "/memories/f", "extra": True},
]


@pytest.mark.parametrize("tool_input", FAILING, ids=[f"{i['command']}-{n}" for n, i in enumerate(FAILING)])
def test_a_failed_command_writes_nothing(
    mem: SecureMemory, snapshot: Callable[..., Any], tool_input: dict[str, Any]
) -> None:
    create(mem, "/memories/f", "line one\nline two\n")
    create(mem, "/memories/d/sub/x", "x")
    create(mem, "/memories/d/.hidden", "h")
    before = snapshot(mem)
    assert mem.execute(tool_input).is_error
    assert snapshot(mem) == before


class FailAfter:
    """A layer that lets the command write, then fails: the transaction must undo the write."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __call__(self, call: Call, call_next: Handler) -> Result:
        result = call_next(call)
        assert not result.is_error
        raise self.error


@pytest.mark.parametrize("error", [CommandError("Error: refused after the write"), RuntimeError("a bug")])
@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "create", "path": "/memories/new/file", "file_text": "x"},
        {"command": "str_replace", "path": "/memories/f", "old_str": "one", "new_str": "1"},
        {"command": "insert", "path": "/memories/f", "insert_line": 0, "insert_text": "x"},
        {"command": "delete", "path": "/memories/d"},
        {"command": "rename", "old_path": "/memories/d", "new_path": "/memories/e/d"},
    ],
)
def test_a_command_failing_after_its_write_is_rolled_back(
    make_mem: MakeMem, snapshot: Callable[..., Any], tool_input: dict[str, Any], error: Exception
) -> None:
    plain = make_mem()
    create(plain, "/memories/f", "line one\n")
    create(plain, "/memories/d/x", "x")
    before = snapshot(plain)
    result = make_mem(layers=[FailAfter(error)]).execute(tool_input)
    assert result.is_error
    if isinstance(error, CommandError):
        assert result.content == "Error: refused after the write"
    else:
        assert "internal error" in result.content and "a bug" not in result.content
    assert snapshot(plain) == before


# -- namespaces --------------------------------------------------------------------------------------


def test_namespaces_are_isolated(make_mem: MakeMem) -> None:
    one, two = make_mem(namespace="one"), make_mem(namespace="two")
    create(one, "/memories/shared.md", "one's\n")
    create(two, "/memories/shared.md", "two's text\n")
    create(one, "/memories/only-one/f", "1")
    assert stored(one, "/memories/shared.md") == b"one's\n"
    assert stored(two, "/memories/shared.md") == b"two's text\n"
    assert "only-one" not in view(two, "/memories")
    assert err(two, command="view", path="/memories/only-one/f").startswith("The path")
    assert body(view(two, "/memories"))[0] == "11B\t/memories"

    ok(one, command="str_replace", path="/memories/shared.md", old_str="one's", new_str="ONE")
    ok(one, command="insert", path="/memories/shared.md", insert_line=0, insert_text="top")
    assert stored(two, "/memories/shared.md") == b"two's text\n"

    ok(two, command="rename", old_path="/memories/shared.md", new_path="/memories/moved.md")
    assert stored(one, "/memories/shared.md") == b"top\nONE\n"
    assert err(one, command="view", path="/memories/moved.md").startswith("The path")

    ok(two, command="delete", path="/memories/moved.md")
    assert stored(one, "/memories/shared.md") == b"top\nONE\n"
    assert (
        err(two, command="rename", old_path="/memories/only-one", new_path="/memories/x")
        == "Error: The path /memories/only-one does not exist"
    )
    assert err(two, command="delete", path="/memories/only-one") == "Error: The path /memories/only-one does not exist"
    assert stored(one, "/memories/only-one/f") == b"1"


def test_a_fresh_namespace_is_empty_whatever_the_others_hold(make_mem: MakeMem) -> None:
    create(make_mem(namespace="busy"), "/memories/f", "x" * 2000)
    fresh = make_mem(namespace="fresh")
    assert view(fresh, "/memories") == LISTING_HEADER.format("/memories") + "\n0B\t/memories"
    create(fresh, "/memories/f", "new")  # the same path is free in this namespace
    assert stored(make_mem(namespace="busy"), "/memories/f") == b"x" * 2000


def test_in_namespace_shares_the_file_but_not_the_entries(mem: SecureMemory) -> None:
    other = mem.in_namespace("other")
    create(mem, "/memories/f", "mine")
    assert err(other, command="view", path="/memories/f").startswith("The path /memories/f does not exist")
    create(other, "/memories/f", "theirs")
    assert stored(mem, "/memories/f") == b"mine"
    assert stored(other, "/memories/f") == b"theirs"
    ok(other, command="delete", path="/memories/f")
    assert stored(mem, "/memories/f") == b"mine"


@pytest.mark.parametrize("line", [4111111111111111, 4155552671, 123456789, 10**6, -(10**7)])
def test_a_line_number_that_may_be_a_value_is_not_echoed(mem: SecureMemory, line: int) -> None:
    """No file holds a million lines: a number that long is out of range, and may be the very value
    kept out of the store (a card, a phone, an SSN sent as a line number)."""
    create(mem, "/memories/f", "a\nb\n")
    message = err(mem, command="insert", path="/memories/f", insert_line=line, insert_text="x")
    assert str(abs(line)) not in message and "a line number out of range" in message
    message = err(mem, command="view", path="/memories/f", view_range=[1, line])
    assert str(abs(line)) not in message


def test_a_long_view_range_is_not_echoed(mem: SecureMemory) -> None:
    """Found by an attacker: a list of 200,000 numbers made an error of 600,000 characters."""
    create(mem, "/memories/f", "a\nb\n")
    message = err(mem, command="view", path="/memories/f", view_range=list(range(200_000)))
    assert len(message) < 400 and "a list of 200000 numbers" in message
    assert "[3, 9]" in err(mem, command="view", path="/memories/f", view_range=[3, 9])
