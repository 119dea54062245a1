"""Line handling shared by the dispatcher and the layers: one definition of what a line is.

A line ends at LF. A final LF ends the last line and does not start a phantom empty one, so
"a\\nb\\n" has two lines, like ``wc -l`` counts and like an editor shows. A CR before the LF
belongs to the line ending: it is kept in storage (CRLF files stay CRLF) and hidden in views.
"""

from __future__ import annotations

import re

MAX_LINES = 999_999
NUMBER_WIDTH = 6
_NUMBERED = f"{{:>{NUMBER_WIDTH}}}\t{{}}"  # "{:>6}\t{}": line number, TAB, line
# Every view numbers its lines: the first lines' "\n     n\t" are made once rather than formatted
# per line (three quarters of a small file's rendering). Beyond them, lines are formatted.
_PREFIXED = 1024
_PREFIXES = tuple(f"\n{number:>{NUMBER_WIDTH}}\t" for number in range(_PREFIXED))
_LINE_WITH_END = re.compile(r"[^\n]*\n|[^\n]+\Z")
_LONE_LF = re.compile(r"(?<!\r)\n")


def is_unicode_text(value: str) -> bool:
    """True when UTF-8 can hold ``value``: no lone surrogate (which JSON's "\\udcff" and a non-UTF-8
    byte of a command line, read with surrogateescape, both give)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their LF (a CR before it is kept)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def count_lines(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def shown(line: str) -> str:
    return line[:-1] if line.endswith("\r") else line


def numbered(lines: list[str], first: int) -> str:
    """Lines with their numbers right-aligned in six columns and a TAB, as the tool shows them."""
    if _hidden_crs(lines):
        lines = [shown(line) for line in lines]
    count = len(lines)
    if first < 0 or first + count > _PREFIXED:
        return "\n".join(map(_NUMBERED.format, range(first, first + count), lines))
    parts = [""] * (2 * count)
    parts[0::2] = _PREFIXES[first : first + count]
    parts[1::2] = lines
    return "".join(parts)[1:]  # without the first prefix's newline


def line_ending(text: str) -> str:
    """The file's own line ending: CRLF when its first line ends so, else LF."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def insert_after(text: str, line: int, insert: str) -> str:
    """Insert ``insert`` after line ``line`` (0 = top).

    The text is stored as it was sent, carriage returns included; only in a CRLF file does a lone
    LF become CRLF, so the file stays in its own line ending. A final newline in ``insert`` ends
    its last line; the file keeps having, or not having, a final newline of its own.
    """
    eol = line_ending(text)
    block = _LONE_LF.sub("\r\n", insert) if eol == "\r\n" else insert
    chunks = _LINE_WITH_END.findall(text)
    before, after = chunks[:line], chunks[line:]
    if before and not before[-1].endswith("\n"):
        before[-1] += eol
    terminated = block.endswith("\n")
    if after or text.endswith("\n") or not text:
        if not terminated:
            block += eol
    elif terminated:  # at the end of a file with no final newline: it keeps having none
        block = block[:-2] if block.endswith("\r\n") else block[:-1]
    return "".join(before) + block + "".join(after)


def fit_lines(lines: list[str], first: int, budget: int) -> tuple[str, int, bool]:
    """Numbered ``lines`` (the first numbered ``first``) that fit in ``budget`` characters.

    Returns the text, how many whole lines it holds, and whether it instead holds the beginning of
    the first line alone, cut inside because that one line is longer than the budget.
    """
    used = 0
    for count, line in enumerate(lines):
        used += len(shown(line)) + NUMBER_WIDTH + 2  # the number, the TAB, the newline
        if used - 1 > budget:
            if count == 0:
                return numbered([lines[0]], first)[: max(budget, 0)], 0, True
            return numbered(lines[:count], first), count, False
    return numbered(lines, first), len(lines), False


def numbered_length(lines: list[str]) -> int:
    """Length of ``numbered(lines)``, without building it: the lines, a number and TAB each, the LFs."""
    if not lines:
        return 0
    return sum(map(len, lines)) - _hidden_crs(lines) + (NUMBER_WIDTH + 2) * len(lines) - 1


def _hidden_crs(lines: list[str]) -> int:
    """How many lines end in a CR, which views hide (counted only when there is a CR at all)."""
    if "\r" not in "".join(lines):
        return 0
    return sum(1 for line in lines if line.endswith("\r"))


def occurrence_lines(text: str, needle: str, limit: int | None = None) -> list[int]:
    """1-based line numbers of each occurrence of ``needle``, overlapping ones too ("\n\n" is twice in
    "\n\n\n": replacing one would change the file two ways, an attacker's round), the first ``limit`` only.

    The limit keeps a common needle in a big file (a letter in 10 MB) from building a list of
    millions of numbers when the caller only needs to know "one or several" and show a few.
    """
    found: list[int] = []
    start = text.find(needle)
    line, counted_to = 1, 0
    while start != -1 and (limit is None or len(found) < limit):
        line += text.count("\n", counted_to, start)
        counted_to = start
        found.append(line)
        start = text.find(needle, start + 1)
    return found


def occurrences(text: str, needle: str) -> tuple[int, bool]:
    """How many times ``needle`` occurs in ``text``, overlapping occurrences too, and whether that count is
    exact (else it is a floor).

    Linear in the text whatever the needle: a lookahead per position costs the needle's length at each
    ("a" * 131,000 sought in "a" * 262,000 took 24 s under the store's write lock: an attacker's round), so
    only a short needle is counted that way. A longer one is counted without overlaps (``str.count``), which
    is exact when no proper prefix of it is also its suffix (no two occurrences can overlap), a floor otherwise.
    """
    if len(needle) <= _LOOKAHEAD_NEEDLE:
        return len(re.findall(f"(?={re.escape(needle)})", text)), True
    return text.count(needle), len(needle) <= _BORDER_CHECKED and not _has_border(needle)


_LOOKAHEAD_NEEDLE = 64  # counted with overlaps by a lookahead: at most 64 comparisons per position
_BORDER_CHECKED = 1 << 16  # longer needles are not checked for a border (a floor is said)


def _has_border(needle: str) -> bool:
    """Whether a proper prefix of ``needle`` is also its suffix (the KMP failure function, linear)."""
    fail = [0] * len(needle)
    k = 0
    for i in range(1, len(needle)):
        while k and needle[i] != needle[k]:
            k = fail[k - 1]
        if needle[i] == needle[k]:
            k += 1
        fail[i] = k
    return bool(fail and fail[-1])


def clip(text: str, limit: int = 200) -> str:
    """At most ``limit`` characters of ``text`` for an error message."""
    return text if len(text) <= limit else text[:limit] + "...(cut)"
