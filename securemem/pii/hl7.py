"""Values that an HL7 version 2 message's segments hold in the fields named for them (hospitals' ADT,
orders and results: PID, the patient; NK1, the next of kin; GT1, the guarantor; IN1, the insurance).

A segment is a line led by its three-character name and "|", its fields separated by "|", a field's
repetitions by "~" and their components by "^" (the characters MSH-1 and MSH-2 declare; these are
everyone's); segments end with a carriage return, a line feed or both. A field says what it holds by its place: PID-19,
GT1-12 and IN1-49 (the insured's id) are a Social Security number, written with no separator; PID-13
and PID-14, NK1-5 and NK1-6, GT1-6 and GT1-7 are telephone numbers (XTN), either as the first
component ("(312)847-2291") or split into a country code, an area code and a local number (components
5, 6 and 7: "^PRN^PH^^1^312^8472291"; reviewer AF). The finders of written numbers see digits between
carets; the field's place says what they are, and they must still pass their type's check (the SSA's
rules, a dialling plan).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.checksums import ssn_valid
from securemem.pii.contact import phone_e164, valid_where_said
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# (or quoted in a log's line after an arrow or a colon: "ADT^A04 from registration kiosk 3 -> PID|1||...": reviewer CR)
_SEGMENT = lazy_compile(r"(?:^|(?<=\r)|(?<=[>:][ \t]))[ \t]*(?P<name>PID|NK1|GT1|IN1)\|", re.MULTILINE)
_SEGMENT_END = lazy_compile(r"[\r\n]|$")
_PHONE_FIELDS = {"PID": (13, 14), "NK1": (5, 6), "GT1": (6, 7), "IN1": ()}
_SSN_FIELDS = {"PID": 19, "GT1": 12, "IN1": 49}
_SSN = lazy_compile(r"([0-9]{3})-?([0-9]{2})-?([0-9]{4})")
_WRITTEN_PHONE = lazy_compile(r"\+?[0-9(][0-9 ().\-/]{5,22}[0-9]")
# HL7's DTM: YYYYMMDD, maybe HHMM and SS (not ten digits: a US phone's length)
_DATE = lazy_compile(
    r"(?:19[0-9]{2}|20[0-3][0-9])(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])(?:[0-9]{4}(?:[0-9]{2})?)?"
)
_MAX_FIELDS = 64


def may_hold_hl7(scan: Scan) -> bool:
    text = scan.text
    return "|" in text and ("PID|" in text or "NK1|" in text or "GT1|" in text or "IN1|" in text)


def find_hl7(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    end = -1
    for segment in _SEGMENT.finditer(text):
        name = segment["name"]
        if segment.end() > end:
            # (once per line: segments quoted one after another on a line, each read to its end, were quadratic)
            end = _SEGMENT_END.search(text, segment.end()).start()  # type: ignore[union-attr]  # "$" always matches
        fields = _spans(text, segment.end(), end, "|", _MAX_FIELDS)
        ssn_field = _SSN_FIELDS.get(name)
        if ssn_field is not None and ssn_field <= len(fields):
            low, high = fields[ssn_field - 1]
            ssn = _SSN.fullmatch(text, low, high)
            if ssn is not None and ssn_valid(ssn[1], ssn[2], ssn[3]):
                yield "US_SSN", low, high
        for number in _PHONE_FIELDS[name]:
            if number <= len(fields):
                yield from _phones(scan, *fields[number - 1])


def _spans(text: str, start: int, end: int, separator: str, most: int) -> list[tuple[int, int]]:
    """The spans of ``text[start:end]``'s parts between ``separator``s (at most ``most``)."""
    spans: list[tuple[int, int]] = []
    while len(spans) < most:
        stop = text.find(separator, start, end)
        if stop == -1:
            spans.append((start, end))
            break
        spans.append((start, stop))
        start = stop + 1
    return spans


def _phones(scan: Scan, start: int, end: int) -> Iterator[Hit]:
    """The telephone numbers of an XTN field's repetitions."""
    text = scan.text
    for low, high in _spans(text, start, end, "~", _MAX_FIELDS):
        parts = _spans(text, low, high, "^", 8)
        first = text[slice(*parts[0])].strip()
        if first and _WRITTEN_PHONE.fullmatch(first) and not _DATE.fullmatch(first) and _valid_phone(first, scan):
            yield "PHONE", *parts[0]
        if len(parts) >= 7 and parts[6][1] > parts[6][0]:
            # country code, area code, local number: components 5, 6 and 7
            pieces = [parts[index] for index in (4, 5, 6) if parts[index][1] > parts[index][0]]
            values = [text[slice(*piece)].strip() for piece in pieces]
            if all(value.lstrip("+").isdigit() for value in values):
                country = text[slice(*parts[4])].strip().lstrip("+")
                written = (f"+{country} " if country else "") + " ".join(values[1:] if country else values)
                if _valid_phone(written, scan):
                    yield "PHONE", pieces[0][0], pieces[-1][1]


def _valid_phone(value: str, scan: Scan) -> bool:
    return phone_e164(value, scan.phone_regions) is not None or valid_where_said(value)
