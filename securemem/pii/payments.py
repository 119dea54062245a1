"""Values inside the machine formats of payments and insurance, as an operations agent pastes them (reviewer BN):

- a card's number in magnetic-stripe and chip data: track 1 ("B4917070621615639^OSTERMANN/ANJA^2606..."), track 2
  and its chip equivalent ("5020741905611954D29021015..."), the chip's PAN tag ("5A 08 5020741905611954");
- a PIN block or a key's component after the words that name it ("DE052 PIN block: 1E6210F0F054B90E",
  "Component 1 (custodian A): F09B 349F ... 8618");
- FIX's Password (554) and NewPassword (925) fields;
- a phone kept as its country code and its number in two fields of one object ('{"cc": "33", "subscriber":
  "982827383"}', '"country_code":"+44","number":"1618321158"', ACORD's <AreaCode> then <DialNumber>);
- an SSN as ACORD's government id whose type code says so ('<GovtID>046320961</GovtID><GovtIDTC tc="1">').

Each is checked as its type is (Luhn and the card's length, a phone's numbering plan, the SSA's rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.checksums import card_number_valid, ssn_valid
from securemem.pii.contact import phone_e164
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# Track 1 ("%B<PAN>^NAME^YYMM..."), track 2 and the chip's track 2 equivalent ("<PAN>=YYMM..." or "<PAN>DYYMM..."),
# the chip's tag 5A (the PAN) with its length byte.
_TRACK_1 = re.compile(r"(?<![A-Za-z0-9])%?B(?P<pan>[0-9]{13,19})\^")
_TRACK_2 = re.compile(r"(?<![A-Za-z0-9])[;]?(?P<pan>[0-9]{13,19})[D=][0-9]{4}[0-9]")
_CHIP_PAN = re.compile(r"(?<![0-9A-Fa-f])5A[ \t]+[0-9A-Fa-f]{2}[ \t]+(?P<pan>[0-9]{13,19})F?(?![0-9])")
_PIN_BLOCK = re.compile(
    r"(?i:pin[ _\-]?block|key[ _\-]component|component[ \t]+[0-9])[^:\n]{0,40}:[ \t]*"
    r"(?P<value>[0-9A-Fa-f]{16}(?:[0-9A-Fa-f]{16})?|[0-9A-Fa-f]{4}(?:[ \t][0-9A-Fa-f]{4}){3,7})(?![0-9A-Za-z])"
)
_FIX_PASSWORD = re.compile(r"(?:^|[|\x01^ \t])(?:554|925)=(?P<value>[^|\x01^\s]{1,128})")
_CODE_THEN_NUMBER = re.compile(
    r"""["']?(?:cc|country_?code|countryCode|dial_?code|calling_?code)["']?[ \t]*:[ \t]*["'](?P<cc>\+?[0-9]{1,3})["']"""
    r"""[ \t]*,[ \t]*["']?(?:subscriber|number|national_?number|nationalNumber|phone_?number|phoneNumber)["']?[ \t]*:"""
    r"""[ \t]*["'](?P<number>[0-9][0-9 \-]{5,14}[0-9])["']"""
)
_AREA_THEN_DIAL = re.compile(
    r"<AreaCode>(?P<area>[0-9]{2,5})</AreaCode>[ \t\r\n]*<DialNumber>(?P<number>[0-9][0-9 \-]{4,10}[0-9])</DialNumber>"
)
_GOVT_ID = re.compile(r"<GovtID>(?P<ssn>[0-9]{3}-?[0-9]{2}-?[0-9]{4})</GovtID>[ \t\r\n]*<GovtIDTC[ \t]+tc=\"1\"")


def find_payment_fields(scan: Scan) -> Iterator[Hit]:
    """Cards in stripe and chip data, phones and SSNs in a form's fields (a number of seven digits or more)."""
    yield from _card_values(scan.text)
    yield from _field_values(scan)


def find_payment_secrets(scan: Scan) -> Iterator[Hit]:
    """PIN blocks, key components and FIX's passwords (their words or tags are in the text)."""
    yield from _secret_values(scan)


def _names_a_key_part(lower: str) -> bool:
    return "component" in lower or any(name in lower for name in ("pin block", "pin_block", "pinblock", "pin-block"))


def _card_values(text: str) -> Iterator[Hit]:
    if "^" in text:
        yield from _cards(_TRACK_1, text)
    if "D" in text or "=" in text:
        yield from _cards(_TRACK_2, text)
    if "5A" in text:
        yield from _cards(_CHIP_PAN, text)


def _secret_values(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    if _names_a_key_part(lower):
        for match in _PIN_BLOCK.finditer(text):
            value = match["value"]
            if len(set(value.replace(" ", ""))) > _DISTINCT_HEX:  # "0000 0000 ..." is a placeholder
                yield "GENERIC_SECRET", *match.span("value")
    if ("554=" in text or "925=" in text) and "8=FIX" in text:
        for match in _FIX_PASSWORD.finditer(text):
            yield "PASSWORD", *match.span("value")


def _field_values(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    if '"' in text or "'" in text:
        for match in _CODE_THEN_NUMBER.finditer(text):
            code = match["cc"].lstrip("+")
            if phone_e164(f"+{code} {match['number']}", scan.phone_regions) is not None:
                yield "PHONE", match.start("cc"), match.end("number")
    if "<AreaCode>" in text:
        for match in _AREA_THEN_DIAL.finditer(text):
            if phone_e164(f"{match['area']} {match['number']}", scan.phone_regions) is not None:
                yield "PHONE", match.start("area"), match.end("number")
    if "<GovtID>" in text:
        for match in _GOVT_ID.finditer(text):
            digits = match["ssn"].replace("-", "")
            if ssn_valid(digits[:3], digits[3:5], digits[5:]):
                yield "US_SSN", *match.span("ssn")


_DISTINCT_HEX = 4


def _cards(pattern: re.Pattern[str], text: str) -> Iterator[Hit]:
    for match in pattern.finditer(text):
        if card_number_valid(match["pan"]):
            yield "CREDIT_CARD", *match.span("pan")
