"""Views capped at ``view.max_chars`` (16,000 by default) with a pointer to view_range; image views."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.dispatcher import human_size
from securemem.paths import MAX_PATH_BYTES
from securemem.policy import Policy, ViewSettings
from tests.helpers import create, stored, view, write_raw

LIMIT = 16_000
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4
ROW = re.compile(r"^ *(\d+)\t(.*)$")
NOTE = re.compile(
    r"^\[Output truncated at (\d+) characters: the file has (\d+) lines and this view ends at "
    r"line (\d+)\. Use view_range, e\.g\. \[(\d+), -1\], to see the rest\.\]$"
)


@pytest.fixture
def open_mem(tmp_path: Path, key: bytes) -> Iterator[Callable[..., SecureMemory]]:
    """``open_mem(**view_settings)``: a store whose policy has those view settings."""
    opened: list[SecureMemory] = []

    def open_with(**view: Any) -> SecureMemory:
        memory = SecureMemory.open(tmp_path / f"m{len(opened)}.db", key=key, policy=Policy(view=ViewSettings(**view)))
        opened.append(memory)
        return memory

    yield open_with
    for memory in opened:
        memory.close()


def matched(pattern: re.Pattern[str], text: str) -> re.Match[str]:
    """The match of ``pattern`` at the start of ``text``, which must match."""
    match = pattern.match(text)
    assert match is not None, text
    return match


def numbered_lines(count: int, width: int = 40) -> str:
    return "".join(f"{n:0{width}d}\n" for n in range(1, count + 1))


# -- text views ----------------------------------------------------------------------------------


def test_a_long_view_is_cut_at_a_line_boundary_with_a_pointer(mem: SecureMemory) -> None:
    create(mem, "/memories/long.txt", numbered_lines(1000))
    content = view(mem, "/memories/long.txt")
    assert len(content) <= LIMIT
    header, *rows, note = content.split("\n")
    assert header == "Here's the content of /memories/long.txt with line numbers:"
    # Every kept line is whole and in order from line 1.
    assert [matched(ROW, row).groups() for row in rows] == [(str(n), f"{n:040d}") for n in range(1, len(rows) + 1)]
    match = NOTE.match(note)
    assert match, note
    assert match.groups() == (str(LIMIT), "1000", str(len(rows)), str(len(rows) + 1))
    # The cut uses most of the budget: it does not throw away a large part of the view.
    assert len(content) > LIMIT - 400


def test_paging_with_the_suggested_ranges_shows_every_line_once(mem: SecureMemory) -> None:
    text = "".join(f"{n} " + "w" * (n % 97) + "\n" for n in range(1, 2001))
    create(mem, "/memories/pages.txt", text)
    seen: list[str] = []
    start, pages = 1, 0
    while True:
        content = view(mem, "/memories/pages.txt", [start, -1])
        assert len(content) <= LIMIT
        pages += 1
        lines = content.split("\n")[1:]
        note = NOTE.match(lines[-1])
        rows = lines[:-1] if note else lines
        numbers = [int(matched(ROW, row).group(1)) for row in rows]
        assert numbers == list(range(start, start + len(rows)))
        seen.extend(matched(ROW, row).group(2) for row in rows)
        if note is None:
            break
        start = int(note.group(4))
    assert seen == text.split("\n")[:-1]
    assert pages > 2


def test_a_file_of_the_limit_is_shown_whole_and_one_longer_is_cut(mem: SecureMemory) -> None:
    # The protocol truncates views of files longer than 16,000 characters: the file's text counts, not the
    # numbers and the header a view adds (an attacker's round: a one-line file of 15,990 characters was cut,
    # its note saying the line was longer than 16,000; a file of 2,000 short lines at line 1,303).
    create(mem, "/memories/f", "x" * LIMIT)
    content = view(mem, "/memories/f")
    assert "truncated" not in content and content.endswith("     1\t" + "x" * LIMIT)
    lines = "".join(f"l{i:03d}\n" for i in range(2_000))  # 10,000 characters, 24,000 with the numbers
    create(mem, "/memories/short-lines", lines)
    shown = view(mem, "/memories/short-lines")
    assert "truncated" not in shown and shown.endswith(" 2000\tl1999") and len(shown) > LIMIT
    create(mem, "/memories/g", "x" * (LIMIT + 1))
    cut = view(mem, "/memories/g")
    assert "[Output truncated" in cut and len(cut) <= LIMIT
    # Its line break counts: a file of 16,001 characters, the last a newline, is longer than the limit.
    create(mem, "/memories/n", "x" * LIMIT + "\n")
    assert "[Output truncated" in view(mem, "/memories/n")
    # A range of a longer file is shown whole when its own text is within the limit.
    create(mem, "/memories/h", "y" * 15_900 + "\n" + "z" * 9_000 + "\n")
    assert "truncated" not in view(mem, "/memories/h", [2, 2])
    # A line under the limit that does not fit beside the header and the note: the note says no more than that.
    assert "[Output truncated: line 1 does not fit in a view of 16000 characters" in view(mem, "/memories/h")


@pytest.mark.parametrize("trailing", ["", "\nafter\n"])
def test_a_single_line_longer_than_the_limit_is_cut_too(mem: SecureMemory, trailing: str) -> None:
    create(mem, "/memories/wide", "y" * 50_000 + trailing)
    content = view(mem, "/memories/wide")
    assert len(content) <= LIMIT
    header, first, note = content.split("\n")
    assert header == "Here's the content of /memories/wide with line numbers:"
    assert first.startswith("     1\tyyyy") and len(first) > LIMIT // 2
    shown = len(first) - 7  # the number and the TAB
    assert note.startswith(
        f"[Output truncated: line 1 does not fit in a view of {LIMIT} characters and was cut after "
        f"character {shown:,}. "
        f"Use view_range [1, 1, {shown + 1}] to see the rest of it."
    )
    # Page by page, the line's parts put together are the whole line, each view within the limit.
    parts, at = [first.split("\t", 1)[1]], shown + 1
    while at <= 50_000:
        page = view(mem, "/memories/wide", [1, 1, at])
        assert len(page) <= LIMIT and page.startswith(
            f"Here's the content of /memories/wide with line numbers (line 1 from character {at:,}):\n     1\t"
        )
        part = page.split("\n")[1].split("\t", 1)[1]
        parts.append(part)
        at += len(part)
    assert "".join(parts) == "y" * 50_000
    if trailing:
        assert "The file has 2 lines; use view_range [2, -1] for the lines after it." in note
        assert view(mem, "/memories/wide", [2, -1]).endswith("     2\tafter")
    else:
        # No range can show more of the only line: the note must not send the model to an invalid one.
        assert "The file has 1 line; it is the last line of the file." in note


def test_a_long_line_after_short_ones_ends_the_first_page(mem: SecureMemory) -> None:
    create(mem, "/memories/mixed", "short 1\nshort 2\n" + "z" * 30_000 + "\nshort 4\n")
    first = view(mem, "/memories/mixed")
    assert first.split("\n")[1:3] == ["     1\tshort 1", "     2\tshort 2"]
    assert matched(NOTE, first.split("\n")[-1]).group(4) == "3"
    second = view(mem, "/memories/mixed", [3, -1])
    assert len(second) <= LIMIT and "line 3 does not fit in a view" in second and "[4, -1]" in second


@pytest.mark.parametrize("max_chars", [1_000, 2_500, 40_000])
def test_the_limit_follows_the_policy(open_mem: Callable[..., SecureMemory], max_chars: int) -> None:
    memory = open_mem(max_chars=max_chars)
    create(memory, "/memories/f", numbered_lines(3000, width=20))
    content = view(memory, "/memories/f")
    assert len(content) <= max_chars
    assert matched(NOTE, content.split("\n")[-1]).group(1) == str(max_chars)
    create(memory, "/memories/small", "x" * (max_chars - 100))
    assert "truncated" not in view(memory, "/memories/small")


def test_a_larger_limit_lets_a_large_view_through(open_mem: Callable[..., SecureMemory]) -> None:
    memory = open_mem(max_chars=100_000)
    create(memory, "/memories/f", numbered_lines(1000))
    content = view(memory, "/memories/f")
    assert LIMIT < len(content) <= 100_000 and "truncated" not in content
    assert content.endswith(f"  1000\t{1000:040d}")


def test_a_long_path_does_not_push_a_cut_view_over_the_limit(mem: SecureMemory) -> None:
    names = ["n" * 250, "o" * 250, "p" * 250, "q" * 250]
    path = "/memories/" + "/".join(names)
    path = path[:MAX_PATH_BYTES]
    create(mem, path, numbered_lines(2000))
    content = view(mem, path)
    assert len(content) <= LIMIT
    assert content.startswith(f"Here's the content of {path} with line numbers:")
    assert NOTE.match(content.split("\n")[-1])


@pytest.mark.slow
def test_a_long_listing_is_cut_at_a_row_boundary(mem: SecureMemory) -> None:
    for n in range(700):
        write_raw(mem, f"/memories/many/file-{n:04d}.md", b"x" * n, lines=0)
    content = view(mem, "/memories/many")
    assert len(content) <= LIMIT
    header, *rows, note = content.split("\n")
    assert header.startswith("Here're the files and directories up to 2 levels deep in /memories/many")
    assert rows[0] == "238.9K\t/memories/many"
    assert rows[1:] == [f"{n}B\t/memories/many/file-{n:04d}.md" for n in range(len(rows) - 1)]
    shown = len(rows) - 1
    assert note == (
        f"[Listing truncated at {LIMIT} characters: it shows entries 1-{shown}. Use view_range, e.g. "
        f"[{shown + 1}, -1], to see the next entries, or view a subdirectory.]"
    )
    # The next page starts where this one stopped, and the pages together list every entry.
    listed = rows[1:]
    while True:
        page = view(mem, "/memories/many", view_range=[len(listed) + 1, -1]).split("\n")
        listed += [row for row in page[2:] if "\t" in row]
        if not page[-1].startswith("[Listing truncated"):
            break
    assert listed == [f"{human_size(n)}\t/memories/many/file-{n:04d}.md" for n in range(700)]


def test_a_long_listing_with_long_paths_stays_within_the_limit(open_mem: Callable[..., SecureMemory]) -> None:
    memory = open_mem(max_chars=1_000)
    parent = "/memories/" + "/".join(["d" * 250] * 3)
    for n in range(5):
        write_raw(memory, f"{parent}/f{n}", b"x", lines=0)
    content = view(memory, parent)
    # No row fits: the note names the entry and what to do, never the same range again (a circle).
    assert len(content) <= 1_000 and content.endswith(
        "entry 1 does not fit (its path is long); view it or its directory by path, or raise the policy's "
        "view.max_chars.]"
    )


def test_errors_and_short_views_are_left_alone(mem: SecureMemory) -> None:
    create(mem, "/memories/f", "a\nb\n")
    assert view(mem, "/memories/f") == "Here's the content of /memories/f with line numbers:\n     1\ta\n     2\tb"
    result = mem.execute({"command": "view", "path": "/memories/f", "view_range": [9, 10]})
    assert result.is_error and "truncated" not in str(result.content)


# -- images ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "data", "media_type"),
    [
        ("p.png", PNG, "image/png"),
        ("p.jpg", JPEG, "image/jpeg"),
        ("p.jpeg", JPEG, "image/jpeg"),
        ("P.PNG", PNG, "image/png"),
        ("photo.v2.JPG", JPEG, "image/jpeg"),
    ],
)
def test_an_image_views_as_one_image_block(mem: SecureMemory, name: str, data: bytes, media_type: str) -> None:
    write_raw(mem, f"/memories/img/{name}", data, lines=0)
    result = mem.execute({"command": "view", "path": f"/memories/img/{name}"})
    assert not result.is_error
    assert result.content == [
        {
            "type": "image",
            "source": {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode("ascii")},
        }
    ]


def test_a_large_image_is_not_cut_by_the_text_limit(mem: SecureMemory) -> None:
    data = PNG + bytes(100_000)
    write_raw(mem, "/memories/big.png", data, lines=0)
    result = mem.execute({"command": "view", "path": "/memories/big.png"})
    assert not result.is_error and isinstance(result.content, list)
    assert base64.b64decode(result.content[0]["source"]["data"]) == data


def test_image_size_limit_follows_the_policy(open_mem: Callable[..., SecureMemory]) -> None:
    memory = open_mem(max_image_bytes=len(PNG))
    write_raw(memory, "/memories/fits.png", PNG, lines=0)
    write_raw(memory, "/memories/over.png", PNG + b"!", lines=0)
    assert isinstance(memory.execute({"command": "view", "path": "/memories/fits.png"}).content, list)
    result = memory.execute({"command": "view", "path": "/memories/over.png"})
    assert result.is_error and isinstance(result.content, str)
    assert result.content == (
        f"Error: The image /memories/over.png is {len(PNG) + 1} bytes, over the {len(PNG)}-byte limit for image views."
    )


def test_default_image_limit_is_5_mib(mem: SecureMemory) -> None:
    write_raw(mem, "/memories/huge.png", PNG + bytes(5 * 1024 * 1024 - len(PNG) + 1), lines=0)
    result = mem.execute({"command": "view", "path": "/memories/huge.png"})
    assert result.is_error and "5242880-byte limit" in str(result.content)


def test_a_text_file_named_png_views_as_text(mem: SecureMemory) -> None:
    create(mem, "/memories/notes.png", "not really an image\n")
    assert view(mem, "/memories/notes.png") == (
        "Here's the content of /memories/notes.png with line numbers:\n     1\tnot really an image"
    )


@pytest.mark.parametrize(
    ("name", "data"), [("swapped.png", JPEG), ("swapped.jpg", PNG), ("image.txt", PNG), ("noext", PNG), (".png", PNG)]
)
def test_only_matching_name_and_magic_bytes_make_an_image(mem: SecureMemory, name: str, data: bytes) -> None:
    write_raw(mem, f"/memories/{name}", data, lines=0)
    result = mem.execute({"command": "view", "path": f"/memories/{name}"})
    assert result.is_error and isinstance(result.content, str) and "binary" in result.content


def test_view_range_on_an_image_is_an_error(mem: SecureMemory) -> None:
    write_raw(mem, "/memories/p.png", PNG, lines=0)
    result = mem.execute({"command": "view", "path": "/memories/p.png", "view_range": [1, 2]})
    assert result.is_error and "image" in str(result.content)


def test_images_cannot_be_edited_as_text(mem: SecureMemory) -> None:
    write_raw(mem, "/memories/p.png", PNG, lines=0)
    tool_inputs: list[dict[str, Any]] = [
        {"command": "str_replace", "path": "/memories/p.png", "old_str": "PNG", "new_str": "GIF"},
        {"command": "insert", "path": "/memories/p.png", "insert_line": 0, "insert_text": "x"},
    ]
    for tool_input in tool_inputs:
        result = mem.execute(tool_input)
        assert result.is_error and "binary" in str(result.content)
    assert stored(mem, "/memories/p.png") == PNG


def test_images_are_listed_with_their_size(mem: SecureMemory) -> None:
    write_raw(mem, "/memories/p.png", PNG, lines=0)
    assert f"{len(PNG) / 1024:.1f}K\t/memories/p.png" in view(mem, "/memories")


def test_only_views_are_capped_not_edit_snippets(tmp_path: Path) -> None:
    policy = Policy(view=ViewSettings(max_chars=1000))
    with SecureMemory.open(tmp_path / "s.db", key=bytes(range(32)), policy=policy) as mem:
        lines = "".join(f"{i}y" + "z" * 200 + "\n" for i in range(10))
        assert not mem.execute({"command": "create", "path": "/memories/f.md", "file_text": lines}).is_error
        result = mem.execute({"command": "str_replace", "path": "/memories/f.md", "old_str": "5y", "new_str": "FIVE"})
    assert not result.is_error
    assert "truncated" not in str(result.content) and "FIVE" in str(result.content)
