"""What unlocks an account or a wallet when everything else is lost: seed phrases and recovery codes.

Both are plain words and short codes, random-looking to no detector of token shapes, and both are
named by the text that writes them down ("Recovery phrase (12 words): island kitten ...",
"Recovery codes: 69jxf-1zb6f, ae0kp-3k1jl, ..."; reviewer M's blind round). Only after such a
label: twelve ordinary words are a sentence anywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# A label, then up to 40 characters of its own ("(12 words)", "for the cold wallet"), then ":" or "=".
_SEED_LABEL = re.compile(
    r"(?:seed|recovery|mnemonic|backup|secret recovery|wallet)[ \t_\-]*(?:phrase|words|mnemonic)|mnemonic"
    r"|(?:phrase|frase|phrase de récupération|wiederherstellungsphrase)[ \t]+(?:de[ \t]+)?(?:semilla|récupération)"
)
_LABEL_TAIL = re.compile(r"[^\n:=]{0,40}[:=][ \t]*[\"'`]?")
# BIP-39's counts of words; its words are lower-case letters, 3 to 8 of them.
_SEED_WORDS = re.compile(r"[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23}\b")
_SEED_COUNTS = frozenset({12, 15, 18, 21, 24})

_CODES_LABEL = re.compile(
    r"(?:recovery|backup|2fa|mfa|scratch|one[ \-]time|emergency|rescue|wiederherstellungs|códigos de|codes de)"
    r"[ \t_\-]*(?:codes?|kódy|codici|códigos|récupération)"
)
# One code: letters and digits, in one or two groups joined by a dash or a space ("4821 9932"), a digit in it; codes are
# separated by commas, spaces or list markers. Read until the first thing that is not one.
_CODE = re.compile(r"[A-Za-z0-9]{4,12}(?:[- ][A-Za-z0-9]{3,12}(?![A-Za-z0-9]))?")
_CODE_GAP = re.compile(r"[ \t]*(?:[,;][ \t]*|\n[ \t]*(?:[-*•][ \t]+|[0-9]{1,2}[.)][ \t]+)?|[ \t]+)")
_MAX_CODES = 32


def may_hold_recovery_secret(scan: Scan) -> bool:
    lower = scan.lower
    return "code" in lower or "phrase" in lower or "mnemonic" in lower or "words" in lower or "semilla" in lower


def find_recovery_secrets(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    for label in _SEED_LABEL.finditer(lower):
        tail = _LABEL_TAIL.match(lower, label.end())
        if tail is None:
            continue
        words = _SEED_WORDS.match(lower, tail.end())
        if words is not None and len(words.group().split()) in _SEED_COUNTS:
            yield "GENERIC_SECRET", words.start(), words.end()
    for label in _CODES_LABEL.finditer(lower):
        tail = _LABEL_TAIL.match(lower, label.end())
        if tail is None:
            continue
        first = _CODE_GAP.match(scan.text, tail.end())  # the list may start on the next line
        yield from _codes(scan.text, first.end() if first is not None else tail.end())


def _codes(text: str, at: int) -> Iterator[Hit]:
    """The codes of a list starting at ``at``: each code alone, as a reader would cross it out."""
    found: list[Hit] = []
    while len(found) < _MAX_CODES:
        code = _CODE.match(text, at)
        if code is None or (code.end() < len(text) and (text[code.end()].isalnum() or text[code.end()] in "_.@/")):
            break
        value = code.group()
        if not any(char.isdigit() for char in value) or len(value) < 6:
            break
        found.append(("GENERIC_SECRET", code.start(), code.end()))
        gap = _CODE_GAP.match(text, code.end())
        if gap is None or gap.end() == code.end():
            break
        at = gap.end()
    # One code alone after the label may be a reference ("backup code: 2024Q3"); two or more are the list.
    if len(found) >= 2:
        yield from found
