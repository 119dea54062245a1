"""Payment cards, IBANs and US social security numbers: digits that carry a checksum or a plan."""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.checksums import IBAN_LENGTHS, card_number_valid, iban_valid, ssn_valid
from securemem.pii.scan import Scan, Span, accepted

# Patterns start with a digit and check the character before it in a lookbehind placed after
# that digit: the regex engine can then skip ahead to the next digit instead of trying every
# position, which is most of the cost on ordinary text.
_CARD = re.compile(
    r"""
    [0-9](?<![\w.\-][0-9])(?<![0-9][ .\-][0-9])         # not the tail of a longer number
    (?:[0-9]{12,18}                                          # compact
      |[0-9]{3}([ .\-])[0-9]{4,6}\1[0-9]{4,5}(?:\1[0-9]{1,4}){0,2}  # 4-4-4-4, 4-6-5, 4-4-4-4-3
    )
    (?![\w]|[.\-][0-9])
    """,
    re.X,
)
# Any other grouping with one separator throughout ("4 1 1 1 ...", "41-11-11-...", "4111/1111/..."):
# what a writer does to get a number past a filter. Luhn and the card prefixes still decide.
_CARD_REGROUPED = re.compile(
    r"[0-9](?<![\w.\-/][0-9])(?<![0-9][ .\-/][0-9])[0-9]{0,3}([ .\-/])[0-9]{1,4}(?:\1[0-9]{1,4}){2,17}"
    r"(?![\w]|[.\-/][0-9])"
)
_NOT_DIGITS = re.compile(r"[^0-9]")
# The fewest digits a number holds for each type to be in it (scan.py: numbers of 7 digits or more
# are where these are looked for).
CARD_DIGITS = 13
SSN_DIGITS = 9
IBAN_DIGITS = 7  # the digits of an IBAN may be cut by letters ("GB82 WEST 1234 5698 7654 32")
_TAIL = 2  # what the lookaheads read after the last digit
# An IBAN spans at most 42 characters (34 and 8 spaces), and its first seven-digit number can
# start well inside it ("RO49 AAAA 1B31 0075 9384 0000"): look that far on either side.
_IBAN_LEAD = 42
_IBAN_TAIL = 42

# The match starts at the two check digits; the country code is checked behind them.
_IBAN = re.compile(r"[0-9][0-9](?<=(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2})(?:[ \-]?[A-Za-z0-9]){11,31}")

_SSN = re.compile(
    r"(?P<area>[0-9](?<![\w.\-][0-9])[0-9]{2})(?P<sep>[-. ]?)(?P<group>[0-9]{2})(?P=sep)"
    r"(?P<serial>[0-9]{4})(?![\w]|[-.][0-9])"
)
# An SSN written without dashes is only an SSN when the text says so just before it.
_SSN_WORDS = re.compile(r"\b(?:ssn|ss#|ss ?no|social security|soc\.? ?sec|taxpayer id|tin|itin|sozialversicherung)\b")


def find_cards(scan: Scan) -> Iterator[Span]:
    windows = scan.around(scan.numbers_with(CARD_DIGITS), 0, _TAIL)
    if not windows:
        return
    found = list(accepted(_CARD, scan.text, windows, _is_card))
    yield from found
    # The regrouped pattern reads only the numbers that held no card in a usual grouping.
    if found:
        windows = [(low, high) for low, high in windows if not any(low <= a < high for a, _ in found)]
    yield from accepted(_CARD_REGROUPED, scan.text, windows, _is_card)


def _is_card(match: re.Match[str]) -> bool:
    return card_number_valid(_NOT_DIGITS.sub("", match.group()))


# Where every IBAN starts: two letters (its country) not glued to a word, then two digits. Led by
# one digit class (not "[0-9]{2}"), which lets the engine skip to the digits.
_IBAN_HEAD = re.compile(r"[0-9][0-9](?<=(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2})")


def may_hold_iban(scan: Scan) -> bool:
    """A country code and check digits in the windows find_ibans reads (text holding none skips it)."""
    text = scan.text
    return any(
        _IBAN_HEAD.search(text, low, high) for low, high in scan.around(scan.long_numbers, _IBAN_LEAD, _IBAN_TAIL)
    )


def find_ibans(scan: Scan) -> Iterator[Span]:
    text = scan.text
    done = 0
    for low, high in scan.around(scan.long_numbers, _IBAN_LEAD, _IBAN_TAIL):
        match = _IBAN.search(text, max(low, done), high)
        while match is not None:
            start = match.start() - 2
            end = _iban_end(text, start, match.end())
            if end:
                yield start, end
                done = end
            match = _IBAN.search(text, end or match.start() + 1, high)


def _iban_end(text: str, start: int, limit: int) -> int:
    """End of a valid IBAN beginning at ``start`` and not reaching past ``limit``, else 0.

    The candidate regex is greedy (it may run into the next word); the country's length says
    where the IBAN really stops.
    """
    length = IBAN_LENGTHS.get(text[start : start + 2].upper())
    if length is None:
        return 0
    chars: list[str] = []
    end = start
    while len(chars) < length and end < limit:
        if text[end] not in " -":
            chars.append(text[end])
        end += 1
    if len(chars) < length or (end < len(text) and text[end].isalnum()):
        return 0
    return end if iban_valid("".join(chars).upper()) else 0


def may_hold_ssn(scan: Scan) -> bool:
    """One pass of the SSN pattern over the whole text: most numbers of nine digits or more are not shaped like one."""
    return _SSN.search(scan.text) is not None


def find_ssns(scan: Scan) -> Iterator[Span]:
    windows = scan.around(scan.numbers_with(SSN_DIGITS), 0, _TAIL)
    if not windows:
        return iter(())
    return accepted(_SSN, scan.text, windows, lambda match: _is_ssn(scan, match))


def _is_ssn(scan: Scan, match: re.Match[str]) -> bool:
    if not ssn_valid(match["area"], match["group"], match["serial"]):
        return False
    return match["sep"] in ("-", ".") or _SSN_WORDS.search(scan.before(match.start(), 32)) is not None
