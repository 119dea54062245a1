"""A payment or fuel card's PIN, given right after the card's number in the words of many languages.

Reviewer BB (a logistics company's dispatchers' notes, blind) wrote each driver's fuel card and its PIN
the way each language does: "cartão combustível 5567524903160664, senha 1869", "tarjeta de combustible
4857-4681-6051-8416, NIP 1631", "топливная карта 7044 5595 4117 1333 130, ПИН 6092", "फ़्यूल कार्ड
7002-5826-8572-6937, पिन 5213", "tankpas 7044 0186 8552 6407 met pincode 5831", "yakıt kartı 5567 4509 4765
2823, şifre 6686", "بطاقة الوقود 7006216427152701533، الرقم السري 5485". A word for a password or a PIN
alone before four digits is many things ("senha 1869" may be a list's item); right after a card's number,
in the same clause, it is that card's PIN.

Read: a card's number (13 to 19 digits, maybe in groups, that a card network issues and that pass Luhn; under
sixteen digits only where a card is named before it, as an EAN-13 or a GTIN-14 passes too; or a fuel card's
after a fuel card's word), at most 32 characters without a digit (but the card's expiry) or a sentence's end
(", ", " met ", " with its "), a PIN's or a password's word, maybe a colon, then four to six digits no other
number follows. Not India's postcode after "pincode" (six digits).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.checksums import card_number_valid
from securemem.pii.normalize import viewed_words
from securemem.pii.numeric import CARD_NAMES, PAYMENT_CARD_NAMED, fuel_card
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# The words, as the lower-cased view writes them (Cyrillic letters that look Latin are Latin there).
_LABELS = (
    "pin", "pin code", "pin-code", "pincode", "pinkode", "pinkod", "pin-koodi", "nip", "code pin", "código pin",
    "codice pin", "senha", "şifre", "şifresi", "sifre", "sifresi", "geheimzahl", "tunnusluku", "code confidentiel",
    "número secreto", "numero secreto", "codice segreto",
    *viewed_words("пин", "пин-код", "пин код", "пін", "пін-код", "पिन", "पिन कोड"),
    *viewed_words("الرقم السري", "الرمز السري", "رمز pin"),
    *viewed_words("ПИН", "ПИН-КОД", "ПИН КОД", "ПІН", "ПІН-КОД"),  # capitals the view reads apart ("Н" as "H")
)  # fmt: skip
_LABEL = "|".join(re.escape(label) for label in sorted(set(_LABELS), key=len, reverse=True))
# The card's number, then at most 32 characters: words, a comma, the card's expiry ("gültig bis 12/26,
# Geheimzahl 4821"), no sentence's end; the label; the PIN, no other number right after it.
_CARD_PIN = lazy_compile(
    r"(?<![0-9])(?P<card>[0-9](?:[ \-]?[0-9]){12,18})(?![0-9])"
    r"(?:[^\n0-9.;!?:]|(?<![0-9])[0-9]{2}/[0-9]{2}(?:[0-9]{2})?(?![0-9])){0,32}?(?<![^\W\d_])"
    rf"(?P<label>{_LABEL})(?![^\W\d_])[ \t]*[:=]?[ \t]*"
    r"(?P<value>[0-9]{4,6})(?![0-9])(?![ \t]*[0-9])(?![.,][0-9])"
)
# India's postcode is a "PIN code" too: six digits after "pincode", "PIN code" or "पिन" are an address's
# (an attacker's round: "Delhivery AWB 1490812345678, pincode 560034").
_POSTAL_LABELS = frozenset({"pincode", "pin code", "pin-code", *viewed_words("पिन", "पिन कोड")})
# The gate: a word of the labels in the text (the digits' gate is the card's: see detectors.py).
_MARKS = (
    "pin",
    "nip",
    "senha",
    "ifre",
    "geheimzahl",
    "tunnusluku",
    "confidentiel",
    "secreto",
    "segreto",
    *viewed_words("пин", "пін", "ПИН", "ПІН", "पिन", "السري"),
)


# A card's security code after its number, named only "code" ("It's 4909 5249 0316 0664, code 154.": reviewer CC):
# three digits (four after an Amex's fifteen) ending the clause, right after the number (a comma, "and", "with").
# The card named before its number ("... on my other card? It's 4909 ..."; not an order's, a transaction's number and
# its status "code 404": an attacker's round); its expiry may come between ("..., exp 12/27, code 154"). Read only
# around each "code" (the card's number within _CODE_BACK characters before it): a pass over a long run of digits
# at every "code" was three times the scan of such a text.
_CARD_CODE = lazy_compile(
    r"(?<![0-9])(?P<card>[0-9](?:[ \-]?[0-9]){12,18})(?![0-9])"
    r"(?:[ \t]*,?[ \t]*exp(?:iry|ires)?\.?[ \t]*[0-9]{1,2}[ \t]*/[ \t]*(?:20)?[0-9]{2}(?![0-9]))?"
    r"[ \t]*(?:,|and|with|&)?[ \t]*(?:(?:security|sec|the|its|cvv)[ \t]+)?code[ \t]*(?:is|:|=)?[ \t]*"
    r"(?P<value>[0-9]{3,4})(?![0-9])(?![ \t]*[0-9])(?![.,][0-9])(?=[ \t]*(?:[.,;!?)\n]|$))"
)
_CODE_BACK = 64  # characters before "code" where its card's number may start
# The card named before its number as a payment card is (PAYMENT_CARD_NAMED: "on my other card? It's ..."; not
# "wildcard", "Scorecard", "card reader", "card game": an attacker's round), and no other thing's number right before
# the digits ("transaction", "order", "set", "row", "batch", "id", "txn").
_NOT_THE_CARDS = lazy_compile(
    r"(?<![^\W\d_])(?:transaction|txn|order|set|row|batch|id|invoice|ticket|product|bottiglia|key|sku)(?![^\W\d_])[^0-9]{0,12}$"
)
_CARD_NAMED_BACK = 80  # characters before the card's number where the card is named


def may_hold_card_pin(scan: Scan) -> bool:
    lower = scan.lower
    return any(mark in lower for mark in _MARKS) or "code" in lower


def find_card_pins(scan: Scan) -> Iterator[Hit]:
    # (the PINs' pass only where a PIN's word is: a text the gate let in for "code" alone is not read for them)
    for match in _CARD_PIN.finditer(scan.lower) if any(mark in scan.lower for mark in _MARKS) else ():
        if len(match["value"]) == 6 and match["label"] in _POSTAL_LABELS:
            continue
        digits = match["card"].replace(" ", "").replace("-", "")
        before = scan.lower[max(0, match.start() - 40) : match.start()]
        # a card's number, not an order's or a parcel's; under sixteen digits (a Maestro's, an EAN-13's, a
        # GTIN-14's: "Farmácia: EAN 56..., senha 0452", an attacker's round) only where a card is named
        if (card_number_valid(digits) and (len(digits) >= 16 or CARD_NAMES.search(before))) or fuel_card(
            digits, before
        ):
            yield "PASSWORD", *match.span("value")
    lower = scan.lower
    at = lower.find("code")
    done = 0
    while at != -1:
        coded = _CARD_CODE.search(lower, max(done, at - _CODE_BACK), at + _CODE_BACK)
        if coded is not None:
            done = coded.end()
            digits = coded["card"].replace(" ", "").replace("-", "")
            if (
                card_number_valid(digits)
                and len(coded["value"]) == (4 if len(digits) == 15 else 3)
                and PAYMENT_CARD_NAMED.search(lower, max(0, coded.start() - _CARD_NAMED_BACK), coded.start())
                is not None
                and _NOT_THE_CARDS.search(lower, max(0, coded.start() - 24), coded.start()) is None
            ):
                yield "GENERIC_SECRET", *coded.span("value")
        at = lower.find("code", at + 4)
