"""``securemem.text``: numbered lines as the tool shows them, whichever way they are rendered."""

from __future__ import annotations

import pytest

from securemem.text import NUMBER_WIDTH, numbered, numbered_length


def _plain(lines: list[str], first: int) -> str:
    """The tool's numbering, one line at a time: what the made-once prefixes must render too."""
    shown = [line[:-1] if line.endswith("\r") else line for line in lines]
    return "\n".join(f"{number:>{NUMBER_WIDTH}}\t{line}" for number, line in enumerate(shown, first))


@pytest.mark.parametrize(
    ("first", "count"),
    [(1, 0), (1, 1), (1, 16), (0, 3), (7, 40), (1, 1023), (1, 1024), (1000, 30), (1023, 1), (1024, 5), (999_990, 9)],
)
def test_numbered_lines_read_the_same_inside_and_past_the_prefixes_made_once(first: int, count: int) -> None:
    lines = [f"line {i}" if i % 5 else "" for i in range(count)]
    assert numbered(lines, first) == _plain(lines, first)
    assert numbered_length(lines) == len(numbered(lines, first))


def test_numbered_lines_hide_the_cr_of_crlf_lines() -> None:
    lines = ["a\r", "b", "c\r", "\r"]
    assert numbered(lines, 1) == "     1\ta\n     2\tb\n     3\tc\n     4\t"
    assert numbered(lines, 1) == _plain(lines, 1)
    assert numbered_length(lines) == len(numbered(lines, 1))
