"""One scan of one text: the facts several detectors need, computed once and only when asked."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import ahocorasick

from securemem.pii.patterns import lazy_compile

Span = tuple[int, int]

# A "number" is a run of digits with at most two separator characters between neighbours:
# "+1 (415) 555-2671", "4111 1111 1111 1111", "192.168.0.1". Every numeric entity lies within one
# (plus a short lead such as "+" or an IBAN's country code), so numeric detectors only search
# around numbers instead of scanning the whole text: most of the cost of a scan is regex engines
# stepping over ordinary text, character by character.
_NUMBER = lazy_compile(r"[0-9](?:[ .\-()/+]{0,3}[0-9]){3}(?:[ .\-()/+]{0,3}[0-9])*")
_CANONICAL = bytes(
    ord("0") if chr(code).isdigit() and code < 128 else ord("-") if chr(code) in " \t.-()/+" else ord("x")
    for code in range(256)
)
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+~-")
_TOKEN_TABLE = bytes(ord("x") if chr(code) in _TOKEN_CHARS else ord(" ") for code in range(256))
# Possessive: a run of separators or of groups never gives anything back (the next character of the
# copy decides alone), which spares the engine its backtracking bookkeeping: the same spans, faster.
_CANONICAL_NUMBER = lazy_compile(rb"0(?:-{0,3}+0){3}+(?:-{0,3}+0)*+")
_LONG = 7  # digits in the shortest phone number; cards, SSNs and IBANs have more
# The same numbers, those with seven digits or more only: numbers are maximal (the pattern cannot
# go on past either end of one), so a start inside a shorter number fails and this finds exactly
# the long ones among the numbers, without listing the others.
_CANONICAL_LONG_NUMBER = lazy_compile(rb"0(?:-{0,3}+0){%d}+(?:-{0,3}+0)*+" % (_LONG - 1))
# Numbers no numeric entity can be or start with: ISO and day-first dates (with an hour after them),
# and decimals with one point ("3.14159265358979"; not two numbers of a card's length glued by a dot,
# "4111111111111111.5555555555554444"). Phones, cards, SSNs, IBANs and IP addresses skip them without
# running their own patterns.
_NOT_AN_ENTITY = lazy_compile(
    r"(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}[./][0-9]{1,2}[./][0-9]{4})(?: [0-9]{2})?"
    r"|[0-9]{1,12}\.[0-9]+|[0-9]+\.[0-9]{1,12}"
    # an object identifier (its first arc 0-2, its second under 40: "OID 1.3.6.1.4.1.311.60", reviewer CS) or a
    # version of single digits as long
    r"|[0-2]\.(?:[0-9]|[1-3][0-9])(?:\.[0-9]{1,9}){3,}"
)


# A count's noun or a unit after a number ("1532 ms", "8000 users", "2500 W", "512 34 5678 records"): the
# number is an amount, not a code, a PIN or an SSN. Matched in the lower-cased text.
YEAR = lazy_compile(r"(?:19|20)[0-9]{2}")  # a year's four digits (codes, door codes and answers read them apart)
# Digits no one keeps as a secret but everyone writes as an example ("0000", "1234", "654321").
_TRIVIAL_DIGITS = lazy_compile(r"([0-9])\1{3,7}|0?12345?6?7?8?9?|9?8?7?6?54321")


_YEAR_MONTH = r"(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])"
_MONTH_DIGITS = lazy_compile(_YEAR_MONTH)
_DATE_DIGITS = lazy_compile(_YEAR_MONTH + r"(?:0[1-9]|[12][0-9]|3[01])")


def a_date(digits: str) -> bool:
    """Eight digits that read as a date, year first ("20240312"): a stamp, not a code."""
    return _DATE_DIGITS.fullmatch(digits) is not None


def a_month(digits: str) -> bool:
    """Six digits that read as a month, year first ("202401"): a period, not a code."""
    return _MONTH_DIGITS.fullmatch(digits) is not None


def year_or_example(digits: str) -> bool:
    """Digits that are no code or PIN: four that read as a year, or an example everyone writes."""
    return (len(digits) == 4 and YEAR.fullmatch(digits) is not None) or _TRIVIAL_DIGITS.fullmatch(digits) is not None


# A word after a value: the sentence goes on about it ("activation code: COVID-19 vaccine pass", "password
# iniziale Q3-2024 in fase di revisione"), where a code or a password would end its clause.
WORD_AFTER = lazy_compile(r"[ \t]+[^\W\d_]")
COUNTED = lazy_compile(
    r"[ \t]*(?:ms|ns|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|users?|customers?|clients?|"
    r"transactions?|requests?|issues?|errors?|items?|units?|records?|rows?|times|attempts?|messages?|people|bits|"
    r"employees?|accounts?|calls?|tickets?|cases?|glyphs|cycles|bytes|kb|mb|gb|w|kw|v|mah|rpm|mm|cm|km|miles|"
    r"followers|per|pieces|pcs|points|eur|usd|dollars?|euros?|lines|files|pages|words|chars|characters|"
    r"endpoints|processes|nodes|instances|stück|kunden|nutzer|fälle|usuarios|clientes|utilisateurs|utenti|"
    r"personas|pessoas|results|mal|fois|volte|veces|vezes|razy|बार|kr|sek|nok|dkk|zł|zl|pln|rs|inr|₹|%|"
    # times, roubles and pieces in Russian as the view writes them ("раз" reads "paз"), Chinese's and
    # Japanese's counters and currencies, Korean's, Vietnamese "lần", Indonesian "kali", Thai "ครั้ง"
    r"paз|pyблeй|pyб|₽|шт|条|次|个|個|件|元|円|원|번|개|회|lần|kali|ครง)(?![^\W\d_])"
)


def other_script(char: str) -> bool:
    """A character of a script other than Latin ("邮", "メ", "п"), not an accented Latin one ("é"): where
    a password or an address written in Latin letters ends and the sentence around it goes on."""
    return not char.isascii() and not unicodedata.name(char, "").startswith("LATIN")


def by_first_letter(alternatives: Iterable[str]) -> str:
    """``alternatives`` (pattern sources, each led by a letter or a digit) as one alternation grouped
    by that character: "pass|pw|secret|sig" becomes "p(?:ass|w)|s(?:ecret|ig)".

    It matches what the plain alternation matches, at the same places and with the same spans: at any
    position only the alternatives led by that position's character can match, and they keep their
    order. Python's engine tests the first character of each branch before entering it, so a
    search tries one branch per group instead of one per alternative: two to four times faster on text
    that holds none of them (most text).
    """
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        if not alternative[:1].isalnum() or not alternative[:1].isascii():
            raise ValueError(f"an alternative must start with a letter or a digit: {alternative!r}")
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


# ---- words found in one pass


# Gates ask whether the text holds any of a few words ("pin", "lockbox", "mnemonic", "senha"...): a
# substring search each, each reading the whole text (a hundred of them cost a note's scan a third of
# its time). The words of an index are found together instead, in one pass of an Aho-Corasick automaton
# of all of them (pyahocorasick, in C): every place where each word starts, overlapping ones included,
# which is what a substring search for each word from each of its places finds. (One pattern of all
# the words, grouped by first letter and searched again from each match, found the same places three
# times slower: the engine tried the pattern at nearly every character.) The detectors' literals
# ("aws", "://", '"]\n') are in the same index: a test of each cost a search of its own, about 0.6 us
# per KB each, and the steps of a note's scan tested some sixty.
class LineStarts:
    """Where the line holding each offset starts, for offsets asked in increasing order: each stretch
    of the text is searched for its newline once, so a detector that asks at every match of a long
    line without newlines stays linear (asking back from each match to the text's start was quadratic:
    a megabyte of "h:5432:d:u:p " took seconds). An offset below the last one asked is answered by a
    search of its own."""

    __slots__ = ("_read", "_start", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._read = 0
        self._start = 0

    def __call__(self, at: int) -> int:
        if at < self._read:
            return self._text.rfind("\n", 0, at) + 1
        newline = self._text.rfind("\n", self._read, at)
        if newline != -1:
            self._start = newline + 1
        self._read = at
        return self._start


class WordIndex:
    """Words and literals (lower case, two characters or more) found in a text in one pass."""

    __slots__ = ("_ascii_automaton", "_automaton", "_words")

    def __init__(self, *words: str) -> None:
        self._words: dict[str, None] = {}  # in the order added
        self._automaton: Any = None  # an ahocorasick.Automaton once built
        self._ascii_automaton: Any = None  # ... of the ASCII words only, for ASCII text
        self.add(*words)

    def add(self, *words: str) -> frozenset[str]:
        """Add ``words`` to the index; returns them."""
        for word in words:
            # Not one character (a memchr finds it faster than the automaton reports it at each place), nor
            # blanks alone (indented code holds them at every line): what a substring test finds as cheaply.
            if word != word.lower() or len(word) < 2 or word.isspace():
                raise ValueError(f"an indexed word is lower case, two characters or more, not only blanks: {word!r}")
            self._words.setdefault(word)
        self._automaton = self._ascii_automaton = None  # built again, with these, on the next use
        return frozenset(words)

    def words(self) -> tuple[str, ...]:
        """The index's words, in the order added."""
        return tuple(self._words)

    def find(self, lower: str) -> dict[str, list[int]]:
        """The words of the index in ``lower`` and where each starts (every place, in order)."""
        # ASCII text (most) holds no word with another character: it is read by an automaton of the ASCII words
        # alone, which finds the same words at the same places and steps through text a quarter faster (a third
        # of the words, and fewer first characters to try at each character).
        if lower.isascii():
            automaton = self._ascii_automaton
            if automaton is None:
                automaton = self._ascii_automaton = _automaton(word for word in self._words if word.isascii())
        else:
            automaton = self._automaton
            if automaton is None:
                automaton = self._automaton = _automaton(self._words)
        found: dict[str, list[int]] = {}
        # Matches come by where they end; a word's places, all of one length, come in order.
        for end, (word, back) in automaton.iter(lower):
            places = found.get(word)
            if places is None:
                found[word] = [end - back]
            else:
                places.append(end - back)
        return found


def _automaton(words: Iterable[str]) -> Any:
    """An ahocorasick.Automaton of ``words``, each found as (the word, its length less one)."""
    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, (word, len(word) - 1))
    automaton.make_automaton()
    return automaton


# A letter of Hebrew's or Arabic's script (Persian's too): languages whose "of" comes after the word it qualifies
# ("رمز عبور سرور", the server's password; "کد ملی مشتری", the customer's national code).
RTL_LETTER = lazy_compile("[\u0590-\u06ff]")

# The gates' words (Scan.words): each gate's module adds its own.
GATE_WORDS = WordIndex()
index_words = GATE_WORDS.add


class Scan:
    """The normalised text being scanned (see normalize.py) and the options of the scan.

    The derived facts are computed on first use and kept (plain attributes: cheaper than
    functools.cached_property, which takes a lock, on the write path of every command).
    """

    __slots__ = (
        "_canonical",
        "_digit_count",
        "_digits",
        "_encoded",
        "_long_numbers",
        "_lower",
        "_numbers",
        "_tokens",
        "_words",
        "dialled_names",
        "hidden",
        "hints",
        "lettered",
        "no_break",
        "phone_regions",
        "regions_near",
        "script_regions",
        "text",
        "text_regions",
    )

    def __init__(
        self,
        text: str,
        phone_regions: tuple[str, ...],
        encoded: bytes | None = None,
        lettered: str | None = None,
        hidden: Sequence[int] = (),
        *,
        no_break: Sequence[int] = (),
    ) -> None:
        """``encoded``: ``text`` encoded as ASCII (other characters "?"), when the caller has it.
        ``lettered``: the text before letters standing for digits were read as digits (View.lettered).
        ``hidden``: where the view joined digits that invisible characters kept apart (View.hidden_breaks).
        ``no_break``: where the view's spaces were no-break spaces (View.no_break)."""
        self.text = text
        self.hidden = hidden
        self.no_break = no_break
        self.lettered = text if lettered is None else lettered
        # Where the secret words occur in the lower-cased text, once the keyword finder listed them
        # (secrets.py): later detectors read this instead of searching the text again.
        self.hints: list[tuple[int, int]] | None = None
        self.script_regions: tuple[str, ...] | None = None  # the phone regions the text's scripts name (contact.py)
        self.text_regions: tuple[str, ...] | None = None  # the phone regions the text's own words name (contact.py)
        self.regions_near: dict[int, tuple[str, ...]] = {}  # ... those a stretch of it names, by stretch (contact.py)
        self.dialled_names: tuple[str, ...] | None = (
            None  # the countries of "+" numbers after a person's name (contact.py)
        )
        self.phone_regions = phone_regions
        self._encoded = encoded
        self._lower: str | None = None
        self._numbers: list[Span] | None = None
        self._canonical: bytes | None = None  # the canonical copy the numbers are found in (see numbers)
        self._long_numbers: list[Span] | None = None
        self._digits: list[int] = []  # the digit count of each long number
        self._digit_count = -1  # the ASCII digits of the whole text, -1 until counted
        self._tokens: bytes | None = None
        self._words: dict[str, list[int]] | None = None

    def __repr__(self) -> str:
        # The text is what we protect: a repr shows its length only.
        return f"Scan(<{len(self.text)} chars>, phone_regions={self.phone_regions!r})"

    @property
    def lower(self) -> str:
        """The text lower-cased (same offsets: the view is ASCII where keywords matter)."""
        if self._lower is None:
            lowered = self.text.lower()
            # A few non-ASCII letters change length when lower-cased: keep offsets aligned.
            if len(lowered) != len(self.text):
                lowered = "".join(char.lower()[0] for char in self.text)
            self._lower = lowered
        return self._lower

    @property
    def words(self) -> dict[str, list[int]]:
        """The gates' words (GATE_WORDS) in the lower-cased text, and where each starts."""
        if self._words is None:
            self._words = GATE_WORDS.find(self.lower)
        return self._words

    def places(self, word: str) -> list[int]:
        """Where ``word`` (one of the gates' words) starts, each place after the previous one's end: what a
        loop of str.find from each end finds."""
        found: list[int] = []
        end = 0
        for at in self.words.get(word, ()):
            if at >= end:
                found.append(at)
                end = at + len(word)
        return found

    @property
    def encoded(self) -> bytes:
        """The text encoded as ASCII, one byte per character ("?" for any other character)."""
        if self._encoded is None:
            self._encoded = self.text.encode("ascii", "replace")
        return self._encoded

    @property
    def tokens(self) -> bytes:
        """One byte per character: "x" for a token character ([A-Za-z0-9_.+~-]), " " for the rest."""
        if self._tokens is None:
            self._tokens = self.encoded.translate(_TOKEN_TABLE)
        return self._tokens

    @property
    def numbers(self) -> list[Span]:
        """Spans of the numbers with four digits or more, in order."""
        if self._numbers is None:
            # The same pattern over a canonical copy (see canonical): a pattern led by a literal lets
            # the engine skip ahead at C speed.
            self._numbers = [match.span() for match in _CANONICAL_NUMBER.finditer(self.canonical)]
        return self._numbers

    @property
    def canonical(self) -> bytes:
        """The canonical copy the numbers are found in: digits "0", separators "-", anything else "x"
        (any other character is "?" first, one for one, so offsets stay those of the text)."""
        if self._canonical is None:
            self._canonical = self.encoded.translate(_CANONICAL)
        return self._canonical

    @property
    def long_numbers(self) -> list[Span]:
        """Numbers with seven digits or more: where phones, cards, SSNs and IBANs can be."""
        if self._long_numbers is None:
            text = self.text
            spans: list[Span] = []
            canonical = self.canonical
            # Text with fewer than seven digits in all holds no long number: counted at C speed, most
            # short text stops here without a pass of the pattern.
            matches = _CANONICAL_LONG_NUMBER.finditer(canonical) if self.digit_count >= _LONG else ()
            for match in matches:
                start, end = match.span()
                if not _NOT_AN_ENTITY.fullmatch(text, start, end):
                    spans.append((start, end))
                    self._digits.append(canonical.count(b"0", start, end))
            self._long_numbers = spans
        return self._long_numbers

    @property
    def digit_count(self) -> int:
        """The ASCII digits ([0-9]) of the whole text: a pattern that needs n of them cannot match in text with
        fewer, so a gate asks this (counted once, in C) before searching."""
        if self._digit_count < 0:
            self._digit_count = self.canonical.count(b"0")  # the text's ASCII digits are its copy's b"0"
        return self._digit_count

    @property
    def most_digits(self) -> int:
        """The digits of the longest long number, 0 when there is none (a card needs 13, an SSN 9)."""
        return max(self._digits) if self.long_numbers else 0

    def numbers_with(self, digits: int) -> list[Span]:
        """The long numbers holding at least ``digits`` digits."""
        return [span for span, count in zip(self.long_numbers, self._digits, strict=True) if count >= digits]

    def around(self, spans: Sequence[Span], lead: int, tail: int) -> list[Span]:
        """``spans`` widened by ``lead`` characters before and ``tail`` after, within the text."""
        size = len(self.text)
        return [(max(0, start - lead), min(size, end + tail)) for start, end in spans]

    @property
    def whole(self) -> list[Span]:
        return [(0, len(self.text))]

    def hidden_break(self, start: int, end: int) -> bool:
        """Whether invisible characters stood between two digits of ``text[start:end]``."""
        index = bisect_right(self.hidden, start)
        return index < len(self.hidden) and self.hidden[index] < end

    def before(self, start: int, width: int) -> str:
        """The ``width`` characters before ``start``, lower-cased, for context words."""
        return self.text[max(0, start - width) : start].lower()

    def line_before(self, start: int, width: int) -> str:
        """What ``before`` gives, cut at the line's start: the words before ``start`` on its own line."""
        line = self.text.rfind("\n", max(0, start - width), start) + 1
        return self.text[max(line, start - width) : start].lower()


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
