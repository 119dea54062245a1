"""A payment or fuel card's PIN, given right after the card's number in the words of many languages.

Reviewer BB (a logistics company's dispatchers' notes, blind) wrote each driver's fuel card and its PIN
the way each language does: "cartão combustível 5567524903160664, senha 1869", "tarjeta de combustible
4857-4681-6051-8416, NIP 1631", "топливная карта 7044 5595 4117 1333 130, ПИН 6092", "फ़्यूल कार्ड
7002-5826-8572-6937, पिन 5213", "tankpas 7044 0186 8552 6407 met pincode 5831", "yakıt kartı 5567 4509 4765
2823, şifre 6686", "بطاقة الوقود 7006216427152701533، الرقم السري 5485". A word for a password or a PIN
alone before four digits is many things ("senha 1869" may be a list's item); right after a card's number,
in the same clause, it is that card's PIN.

Read: a card's number (13 to 19 digits, maybe in groups), at most 24 characters without a digit or a
sentence's end (", ", " met ", " with its "), a PIN's or a password's word, maybe a colon, then four to
six digits that end the clause (the text's or line's end, a stop, a comma, a semicolon, a bracket).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.normalize import viewed_words
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# The words, as the lower-cased view writes them (Cyrillic letters that look Latin are Latin there).
_LABELS = (
    "pin", "pin code", "pin-code", "pincode", "pinkode", "pinkod", "pin-koodi", "nip", "code pin", "código pin",
    "codice pin", "senha", "şifre", "şifresi", "sifre", "sifresi", "geheimzahl", "tunnusluku",
    *viewed_words("пин", "пин-код", "пин код", "пін", "пін-код", "पिन", "الرقم السري", "الرمز السري", "رمز pin"),
    *viewed_words("ПИН", "ПИН-КОД", "ПИН КОД", "ПІН", "ПІН-КОД"),  # capitals the view reads apart ("Н" as "H")
)  # fmt: skip
_LABEL = "|".join(re.escape(label) for label in sorted(set(_LABELS), key=len, reverse=True))
_CARD_PIN = re.compile(
    r"(?<![0-9])[0-9](?:[ \-]?[0-9]){12,18}(?![0-9])"
    r"[^\n0-9.;!?:]{0,24}?(?<![^\W\d_])"
    rf"(?:{_LABEL})(?![^\W\d_])[ \t]*[:=]?[ \t]*"
    r"(?P<value>[0-9]{4,6})(?![0-9])"
    "(?=[ \t]*(?:$|[\r\n.,;!?)\\]\u0964\u060c\u061b]))"
)
# The gate: a word of the labels in the text (the digits' gate is the card's: see detectors.py).
_MARKS = (
    "pin",
    "nip",
    "senha",
    "ifre",
    "geheimzahl",
    "tunnusluku",
    *viewed_words("пин", "пін", "ПИН", "ПІН", "पिन", "السري"),
)


def may_hold_card_pin(scan: Scan) -> bool:
    lower = scan.lower
    return any(mark in lower for mark in _MARKS)


def find_card_pins(scan: Scan) -> Iterator[Hit]:
    for match in _CARD_PIN.finditer(scan.lower):
        yield "PASSWORD", *match.span("value")
