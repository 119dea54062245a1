"""One scan of one text: the facts several detectors need, computed once and only when asked."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property

Span = tuple[int, int]

# A "number" is a run of digits with at most two separator characters between neighbours:
# "+1 (415) 555-2671", "4111 1111 1111 1111", "192.168.0.1". Every numeric entity lies within one
# (plus a short lead such as "+" or an IBAN's country code), so numeric detectors only search
# around numbers instead of scanning the whole text: most of the cost of a scan is regex engines
# stepping over ordinary text, character by character.
_NUMBER_HEAD = re.compile(r"[0-9](?:[ .\-()/+]{0,3}[0-9]){3}")
_NUMBER_REST = re.compile(r"(?:[ .\-()/+]{0,3}[0-9])*")
_DROP_DIGITS = str.maketrans("", "", "0123456789")
_LONG = 7  # digits in the shortest phone number; cards, SSNs and IBANs have more


class Scan:
    """The normalised text being scanned (see normalize.py) and the options of the scan."""

    def __init__(self, text: str, phone_regions: tuple[str, ...]) -> None:
        self.text = text
        self.phone_regions = phone_regions

    def __repr__(self) -> str:
        # The text is what we protect: a repr shows its length only.
        return f"Scan(<{len(self.text)} chars>, phone_regions={self.phone_regions!r})"

    @cached_property
    def lower(self) -> str:
        """The text lower-cased (same offsets: the view is ASCII where keywords matter)."""
        lowered = self.text.lower()
        # A few non-ASCII letters change length when lower-cased ("İ"): keep offsets aligned.
        return lowered if len(lowered) == len(self.text) else "".join(char.lower()[0] for char in self.text)

    @cached_property
    def numbers(self) -> list[Span]:
        """Spans of the numbers with four digits or more, in order."""
        found: list[Span] = []
        head = _NUMBER_HEAD.search(self.text)
        while head is not None:
            rest = _NUMBER_REST.match(self.text, head.end())
            end = rest.end() if rest is not None else head.end()
            found.append((head.start(), end))
            head = _NUMBER_HEAD.search(self.text, end)
        return found

    @cached_property
    def long_numbers(self) -> list[Span]:
        """Numbers with seven digits or more: where phones, cards, SSNs and IBANs can be."""
        return [(start, end) for start, end in self.numbers if self._digit_count(start, end) >= _LONG]

    def _digit_count(self, start: int, end: int) -> int:
        chunk = self.text[start:end]
        return len(chunk) - len(chunk.translate(_DROP_DIGITS))

    def around(self, spans: Sequence[Span], lead: int, tail: int) -> list[Span]:
        """``spans`` widened by ``lead`` characters before and ``tail`` after, within the text."""
        size = len(self.text)
        return [(max(0, start - lead), min(size, end + tail)) for start, end in spans]

    @property
    def whole(self) -> list[Span]:
        return [(0, len(self.text))]

    def before(self, start: int, width: int) -> str:
        """The ``width`` characters before ``start``, lower-cased, for context words."""
        return self.text[max(0, start - width) : start].lower()


def accepted(
    pattern: re.Pattern[str],
    text: str,
    windows: Sequence[Span],
    keep: Callable[[re.Match[str]], bool],
    group: int | str = 0,
) -> Iterator[Span]:
    """Spans of ``group`` in the ``pattern`` matches inside ``windows`` that ``keep`` accepts.

    Lookbehinds see the text before a window but lookaheads stop at its end, so a window must
    reach past what a match's lookahead reads. A rejected match is retried
    one character later, so a greedy near-miss (a 20-digit run) cannot hide a real entity that
    starts inside it. Windows may overlap; nothing is reported twice.
    """
    done = 0
    for low, high in windows:
        match = pattern.search(text, max(low, done), high)
        while match is not None:
            if keep(match):
                yield match.span(group)
                done = match.end()
                match = pattern.search(text, done, high)
            else:
                match = pattern.search(text, match.start() + 1, high)
