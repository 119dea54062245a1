"""The normalised view that detectors scan, and the map from its offsets back to the original text.

An adversarial writer (or a model told to slip a value past the scrubber) can spell a value so that
it reads the same to a person but not to a regular expression: fullwidth or other-script digits
(U+FF14, Arabic-Indic U+0664), a fullwidth at sign (U+FF20), a zero-width space or a bidi control inside a card number,
Unicode dashes and no-break spaces as separators, Cyrillic letters that look Latin inside a key
prefix. Detectors never see the original: they see a *view* in which

- invisible format characters (Unicode category Cf: zero-width spaces and joiners, bidi controls,
  the soft hyphen, word joiners, tag characters), combining marks (Mn, Me), control characters
  other than tab and line breaks, and a few blank letters (Hangul fillers, braille blank) are
  removed;
- every decimal digit of any script becomes its ASCII digit;
- every space separator becomes " ", every dash (Pd, the minus sign) becomes "-", the ideographic
  full stop becomes ".";
- letters that are visually Latin in Cyrillic and Greek become Latin (Cyrillic A, K, I in a key
  prefix read as "AKIA");
- everything else is NFKC-normalised character by character (fullwidth forms, mathematical
  alphanumerics, circled and superscript digits, ligatures).

Each character of the view comes from exactly one character of the original, so a span found in
the view maps back to the whole original span: the replacement covers the invisible characters
inside a value, and the combining marks that follow its last character. ASCII text without control
characters is its own view (no copy, no map).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache

# Characters that are not plain printable ASCII (tab, LF, CR and space to tilde are).
_IRREGULAR_RUN = re.compile(r"[^\t\n\r\f\v\x20-\x7e]+")
_KEEP_CONTROLS = frozenset("\t\n\r\f\v")
# Printable ASCII and the whitespace controls: text made only of these is its own view.
_PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\t\n\r\x0b\x0c"
# Letters that render blank although their category says "letter" or "symbol".
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_DASHES = frozenset("\u2212\u2043\ufe63\uff0d\u2e3a\u2e3b")
_STOPS = {"\u3002": ".", "\uff61": ".", "\u2024": "."}
# Cyrillic and Greek letters that are drawn like Latin ones (Unicode confusables, the common part).
_CONFUSABLES = dict(
    zip(
        "АВЕКМНОРСТХУаеорсуххіјѕԁԛԝѵһӏІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧοινκρ",
        "ABEKMHOPCTXYaeopcyxxijsdqwvhlIJSABEZHIKMNOPTYXoivkp",
        strict=True,
    )
)


@lru_cache(maxsize=8192)
def fold(char: str) -> str:
    """What one character of the original becomes in the view ("" when it is dropped)."""
    category = unicodedata.category(char)
    if category in ("Cf", "Mn", "Me", "Cs", "Co") or char in _BLANK:
        return ""
    if category == "Cc":
        return char if char in _KEEP_CONTROLS else ""
    if category == "Nd":
        return str(unicodedata.decimal(char))
    if category == "Zs":
        return " "
    if category in ("Zl", "Zp"):
        return "\n"
    if category == "Pd" or char in _DASHES:
        return "-"
    if char in _STOPS:
        return _STOPS[char]
    if char in _CONFUSABLES:
        return _CONFUSABLES[char]
    folded = unicodedata.normalize("NFKC", char)
    if folded == char or folded.isascii():
        return folded
    # NFKC can leave marks or other-script digits behind ("①" is fine, "ǅ" too): fold those as well.
    return "".join(fold(part) if part != char else part for part in folded)


class View:
    """The normalised text of ``original`` and the map from view offsets back to original ones."""

    __slots__ = ("_ends", "_expanded", "_shift", "_starts", "original", "text")

    def __init__(self, original: str) -> None:
        self.original = original
        if original.isascii() and not original.encode("ascii").translate(None, _PLAIN_BYTES):
            self.text = original
            self._starts = self._ends = self._shift = self._expanded = []
            return
        # Anchors: original characters whose view form is not exactly one character long.
        starts: list[int] = []  # view offset where the anchor's form starts
        ends: list[int] = []  # view offset where it ends
        origins: list[int] = []  # its offset in the original
        pieces: list[str] = []
        done = 0  # original text copied up to here
        view_length = 0
        for run in _IRREGULAR_RUN.finditer(original):
            for index in range(run.start(), run.end()):
                char = original[index]
                form = fold(char)
                if form == char:
                    continue
                pieces.append(original[done:index])
                view_length += index - done
                pieces.append(form)
                if len(form) != 1:
                    starts.append(view_length)
                    ends.append(view_length + len(form))
                    origins.append(index)
                view_length += len(form)
                done = index + 1
        if not pieces:
            self.text = original
        else:
            pieces.append(original[done:])
            self.text = "".join(pieces)
        self._starts = starts
        self._ends = ends
        # After anchor i, original offset = view offset + shift[i].
        self._shift = [origin + 1 - end for origin, end in zip(origins, ends, strict=True)]
        self._expanded = origins

    @property
    def identity(self) -> bool:
        """True when every view offset is the same original offset."""
        return not self._starts

    def start(self, view_offset: int) -> int:
        """Original offset of the character at ``view_offset`` (inclusive start of a span)."""
        if not self._starts:
            return view_offset
        index = bisect_right(self._ends, view_offset)
        if index < len(self._starts) and self._starts[index] <= view_offset:
            return self._expanded[index]  # inside the form of one original character
        return view_offset + (self._shift[index - 1] if index else 0)

    def end(self, view_end: int) -> int:
        """Original offset just past the character before ``view_end`` and the marks that follow it."""
        if view_end <= 0:
            return 0
        end = self.start(view_end - 1) + 1
        original = self.original
        # Combining marks drawn on the last character belong to it; an invisible control after the
        # value (a bidi pop, a zero-width space) does not and is left in place.
        while (
            end < len(original) and not original[end].isascii() and unicodedata.category(original[end]) in ("Mn", "Me")
        ):
            end += 1
        return end

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the view span ``[start, end)``."""
        return self.start(start), self.end(end)


def normalise_text(text: str) -> str:
    """The view of ``text`` alone (what detectors read)."""
    return View(text).text
