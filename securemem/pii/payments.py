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

import base64
import binascii
import re
from collections.abc import Iterator

from securemem.pii.checksums import card_number_valid, iban_valid, ssn_valid
from securemem.pii.contact import phone_e164
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# Track 1 ("%B<PAN>^NAME^YYMM..."), track 2 and the chip's track 2 equivalent ("<PAN>=YYMM..." or "<PAN>DYYMM..."),
# the chip's tag 5A (the PAN) with its length byte.
# (each in its whole shape: a name between carets and an expiry after track 1's; an expiry whose month is one and a
# service code after track 2's; the chip's length byte saying the PAN's length; an attacker's round: "Part
# B6021184007193125^2 appears in the formula", "Shipment 6021184007193125D20240 left the depot")
_TRACK_1 = lazy_compile(r"(?<![A-Za-z0-9])%?B(?P<pan>[0-9]{13,19})\^[A-Za-z /.\-']{2,26}\^[0-9]{4}")
# (Its look-behind after the PAN's first digit: a pattern that starts with a digit is tried only where one is.
# The sentinel ";" before it is left out of the match: only the PAN's span is read.)
_TRACK_2 = lazy_compile(r"(?P<pan>[0-9](?<![A-Za-z0-9][0-9])[0-9]{12,18})[D=][0-9]{2}(?:0[1-9]|1[0-2])[0-9]{3}")
_CHIP_PAN = lazy_compile(
    r"(?<![0-9A-Fa-f])5A[ \t]+(?P<length>[0-9A-Fa-f]{2})[ \t]+(?P<pan>[0-9]{13,19})(?P<pad>F?)(?![0-9])"
)
_PIN_BLOCK = lazy_compile(
    r"(?i:pin[ _\-]?block|key[ _\-]component|component[ \t]+[0-9])[^:\n]{0,40}:[ \t]*"
    r"(?P<value>[0-9A-Fa-f]{16}(?:[0-9A-Fa-f]{16})?|[0-9A-Fa-f]{4}(?:[ \t][0-9A-Fa-f]{4}){3,7})(?![0-9A-Za-z])"
)
# A component is a key's where the text says so (a software's "component 1: <md5>" is none: an attacker's round)
_KEY_WORDS = ("key", "custodian", "kcv", "zmk", "zpk", "tmk", "bdk", "pin block", "pinblock", "pin_block")
# FIX's fields after its delimiter, in a message (its "35=" type): not a mask or a placeholder
_FIX_PASSWORD = lazy_compile(r"(?:^|[|\x01^])[ \t]*(?:554|925)=(?P<value>[^|\x01^\s]{1,128})")
_PLACEHOLDER = lazy_compile(
    r"[*x•#.?\-]+|<[^>]*>|\$\{[^}]*\}|%[^%]*%|\[[^\]]*\]|\([^)]*\)"
    r"|(?i:password|newpassword|redacted|masked\w*|n/a|none|null|changeme|test\d*)"
)
_CODE_THEN_NUMBER = lazy_compile(
    r"""["']?(?:cc|country_?code|countryCode|dial_?code|calling_?code)["']?[ \t]*:[ \t]*["'](?P<cc>\+?[0-9]{1,3})["']"""
    r"""[ \t]*,[ \t]*["']?(?:subscriber|number|national_?number|nationalNumber|phone_?number|phoneNumber)["']?[ \t]*:"""
    r"""[ \t]*["'](?P<number>[0-9][0-9 \-]{5,14}[0-9])["']"""
)
_AREA_THEN_DIAL = lazy_compile(
    r"<AreaCode>(?P<area>[0-9]{2,5})</AreaCode>[ \t\r\n]*<DialNumber>(?P<number>[0-9][0-9 \-]{4,10}[0-9])</DialNumber>"
)
_GOVT_ID = lazy_compile(r"<GovtID>(?P<ssn>[0-9]{3}-?[0-9]{2}-?[0-9]{4})</GovtID>[ \t\r\n]*<GovtIDTC[ \t]+tc=\"1\"")


def find_payment_fields(scan: Scan) -> Iterator[Hit]:
    """Cards in stripe and chip data, phones and SSNs in a form's fields (a number of seven digits or more)."""
    yield from _card_values(scan.text)
    yield from _field_values(scan)


def find_encoded_fields(scan: Scan) -> Iterator[Hit]:
    """Cards, SSNs and IBANs base64-encoded in a field named for them."""
    yield from _encoded_values(scan.text)


def find_payment_secrets(scan: Scan) -> Iterator[Hit]:
    """PIN blocks, key components and FIX's passwords (their words or tags are in the text)."""
    yield from _secret_values(scan)


def _names_a_key_part(lower: str) -> bool:
    return "component" in lower or any(name in lower for name in ("pin block", "pin_block", "pinblock", "pin-block"))


# A card's number split across two fields of a query or a form named for its parts ("pan_head=54923638&pan_tail=
# 26160398", "card_first=...&card_last=...": reviewer BW): joined, a card's length and Luhn.
# Not a BIN range's or a date range's bounds ("pan_start=45184500&pan_end=45184599", "card_first=...&card_last=...",
# "card_start=20231108&card_end=20240105"), nor two cards compared ("card_a=...&card_b=..."): an attacker's round.
_SPLIT_PAN = lazy_compile(
    r"(?<![A-Za-z0-9_])(?i:pan|card|cc)[_\-]?(?i:head|part_?1)=(?P<head>[0-9]{4,12})&"
    r"(?i:pan|card|cc)[_\-]?(?i:tail|part_?2|rest)=(?P<tail>[0-9]{4,12})(?![0-9])"
)


def _card_values(text: str) -> Iterator[Hit]:
    if "=" in text and "&" in text:
        for split in _SPLIT_PAN.finditer(text):
            if card_number_valid(split["head"] + split["tail"]) and split["head"][:4] != split["tail"][:4]:
                yield "CREDIT_CARD", split.start("head"), split.end("tail")
    if "^" in text:
        yield from _cards(_TRACK_1, text)
    if "D" in text or "=" in text:
        yield from _cards(_TRACK_2, text)
    if "5A" in text:
        yield from _cards(_CHIP_PAN, text)


def _secret_values(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    if _names_a_key_part(lower) and any(word in lower for word in _KEY_WORDS):
        for match in _PIN_BLOCK.finditer(text):
            value = match["value"]
            bare = value.replace(" ", "").upper()
            # "0000 0000 ...", "0123456789ABCDEF": a placeholder, a manual's example (an attacker's round)
            if len(set(bare)) > _DISTINCT_HEX and "0123456789ABCDEF" not in bare + bare and "89ABCDEF" not in bare:
                yield "GENERIC_SECRET", *match.span("value")
    if ("554=" in text or "925=" in text) and "8=FIX" in text and "35=" in text:
        for match in _FIX_PASSWORD.finditer(text):
            if not _PLACEHOLDER.fullmatch(match["value"].rstrip(",;")):
                yield "PASSWORD", *match.span("value")


def _field_values(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    lower = scan.lower
    if ('"' in text or "'" in text) and any(word in lower for word in _PHONE_KEYS):
        for match in _CODE_THEN_NUMBER.finditer(text):
            # the object a phone's key names ('"mobilePhone": {"cc": ...}'), not a scooter's "cc" (an attacker's round)
            before = lower[max(0, match.start() - _KEY_BACK) : match.start()]
            code = match["cc"].lstrip("+")
            if any(word in before for word in _PHONE_KEYS) and _dialled(f"+{code} {match['number']}", scan):
                yield "PHONE", match.start("cc"), match.end("number")
    if "<AreaCode>" in text:
        for match in _AREA_THEN_DIAL.finditer(text):
            if _dialled(f"{match['area']} {match['number']}", scan):
                yield "PHONE", match.start("area"), match.end("number")
    if "<GovtID>" in text:
        for match in _GOVT_ID.finditer(text):
            digits = match["ssn"].replace("-", "")
            if (
                ssn_valid(digits[:3], digits[3:5], digits[5:])
                and digits not in _SAMPLE_SSNS
                and len(set(digits)) > 1
                and digits not in "01234567890123456789"  # counted up: a sample
            ):
                yield "US_SSN", *match.span("ssn")


# A card's number, an SSN or an IBAN base64-encoded in a field its key or its tag names ('"pan":"MzU4OTk4..."' beside
# '"pan_enc":"b64"', '<TaxId encoding="base64">Nzc0LTQx...</TaxId>', '<Cnts encoding="base64">TkwyNkFC...</Cnts>':
# reviewer BN): decoded, the value its type's check accepts.
_ENCODED_FIELD = lazy_compile(
    r"""(?:["'](?P<key>pan|card_?number|cardNumber|ssn|tax_?id|iban|account)["'][ \t]*:[ \t]*["']"""
    r"""|<(?P<tag>[A-Za-z]+)[^<>\n]{0,40}encoding=["']base64["'][^<>\n]{0,20}>)"""
    r"""(?P<value>[A-Za-z0-9+/]{12,64}={0,2})(?=["'<])"""
)


def _encoded_values(text: str) -> Iterator[Hit]:
    for match in _ENCODED_FIELD.finditer(text):
        try:
            decoded = base64.b64decode(match["value"], validate=True).decode("ascii")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        kind = _decoded_kind(decoded.strip())
        if kind is not None:
            yield kind, *match.span("value")


def _decoded_kind(value: str) -> str | None:
    digits = value.replace(" ", "").replace("-", "")
    if digits.isdigit() and _PAN_LENGTHS[0] <= len(digits) <= _PAN_LENGTHS[1] and card_number_valid(digits):
        return "CREDIT_CARD"
    ssn = _SSN_SHAPE.fullmatch(value)
    if ssn is not None and ssn_valid(ssn[1], ssn[2], ssn[3]) and value.replace("-", "") not in _SAMPLE_SSNS:
        return "US_SSN"
    if _IBAN_SHAPE.fullmatch(value.replace(" ", "").upper()) and iban_valid(value.replace(" ", "").upper()):
        return "IBAN"
    return None


_PAN_LENGTHS = (13, 19)
_SSN_SHAPE = lazy_compile(r"([0-9]{3})-?([0-9]{2})-?([0-9]{4})")
_IBAN_SHAPE = lazy_compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}")


_PHONE_KEYS = ("phone", "mobile", "tel", "contact", "whatsapp", "cell", "fax")
_KEY_BACK = 80
_SAMPLE_SSNS = frozenset({"123456789", "078051120", "219099999", "111223333", "123121234"})  # documented samples


def _dialled(number: str, scan: Scan) -> bool:
    """A valid number of its plan, and no digit repeated throughout ("999 9999999")."""
    digits = [char for char in number if char.isdigit()]
    return len(set(digits)) > _DISTINCT_DIGITS and phone_e164(number, scan.phone_regions) is not None


_DISTINCT_DIGITS = 2


_DISTINCT_HEX = 4


def _cards(pattern: re.Pattern[str], text: str) -> Iterator[Hit]:
    for match in pattern.finditer(text):
        pan = match["pan"]
        if "length" in pattern.groupindex and int(match["length"], 16) * 2 != len(pan) + len(match["pad"]):
            continue  # the chip's length byte counts the PAN's digits, two a byte, an "F" padding an odd count
        if card_number_valid(pan):
            yield "CREDIT_CARD", *match.span("pan")
