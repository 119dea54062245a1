"""Values that an X12 EDI transaction names by a qualifier (health claims, 837; eligibility, 270/271).

An X12 segment is a name and its elements, separated by "*" (the character after "ISA" says which,
when the interchange header is there) and ended by "~". A qualifier element says what the next one
holds: ``REF*SY*604755135~`` is a Social Security number, ``NM1*IL*1*DOE*JANE****34*604755135~``
too (identification code qualifier 34), ``PER*IC*BILLING*TE*6193366958~`` a telephone number (TE,
CP for a cell phone, FX a fax, HP and WP home and work). Such numbers carry no separators, so the
finders of written numbers do not take them for an SSN or a phone; the qualifier does.

UN/EDIFACT (freight, customs: IFTMIN, CUSDEC) writes a contact's number in a COM segment, its
qualifier after the value: ``COM+4930123456:TE'`` a telephone (TE; FX a fax, AL a mobile, AJ and AV
other numbers), ``COM++48602642452:TE'`` with its "+" (reviewer CT). Elements are separated by "+",
components by ":", and a segment ends with "'".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import phonenumbers

from securemem.pii.checksums import ssn_valid
from securemem.pii.contact import COUNTING_RUNS, phone_e164
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

_PHONE_QUALIFIERS = ("TE", "CP", "FX", "HP", "WP")


def may_hold_x12(scan: Scan) -> bool:
    text = scan.text
    return "~" in text and ("SY" in text or "34" in text or any(qualifier in text for qualifier in _PHONE_QUALIFIERS))


def find_x12(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    isa = text.find("ISA")
    separator = text[isa + 3] if isa != -1 and isa + 3 < len(text) and not text[isa + 3].isalnum() else "*"
    patterns = _patterns(separator)
    for match in patterns[0].finditer(text):
        value = match["ssn"]
        if ssn_valid(value[:3], value[3:5], value[5:]):
            yield "US_SSN", *match.span("ssn")
    for match in patterns[1].finditer(text):
        if _valid_phone(match["phone"]):
            yield "PHONE", *match.span("phone")


def _patterns(separator: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    sep = re.escape(separator)
    end = rf"(?=[{sep}~\r\n]|$)"
    ssn = re.compile(
        rf"(?:(?<![A-Za-z0-9])REF{sep}SY{sep}|(?<![A-Za-z0-9])NM1(?:{sep}[^{sep}~\n]*){{7}}{sep}34{sep})"
        rf"(?P<ssn>[0-9]{{9}}){end}"
    )
    phone = re.compile(rf"{sep}(?:{'|'.join(_PHONE_QUALIFIERS)}){sep}(?P<phone>\+?[0-9]{{10,15}}){end}")
    return ssn, phone


# A COM segment's number: digits, a leading "+" (or "00") and the separators people type; its qualifier after it.
# (a segment's start: after the last one's "'" or at a line's, not "COM+" in free text: "FTX+AAI+++DOOR CODE COM+...")
_EDIFACT_PHONE = lazy_compile(
    r"(?<![^'\n])[ \t]*COM\+(?P<phone>\+?[0-9][0-9 ()\-/.]{4,22}[0-9]):(?:TE|FX|AL|AJ|AV)(?=')"
)


def find_edifact_phones(scan: Scan) -> Iterator[Hit]:
    """A COM segment's number where it is a valid one: "+" or "00" and a country's code, a country's code alone
    ("48602642452"), or a national number of the deployment's regions; not a guide's sample or a template's
    ("COM+1234567890:TE'", "COM+5555555555:AJ'", "COM+0123456789:FX'": an attacker's round)."""
    for match in _EDIFACT_PHONE.finditer(scan.text):
        digits = "".join(char for char in match["phone"] if char.isdigit())
        if len(set(digits)) < _FEWEST_DIGITS or digits in COUNTING_RUNS:
            continue
        if match["phone"].startswith("+") or digits.startswith("00"):
            valid = _valid_phone("+" + digits.removeprefix("00"))
        else:
            valid = _valid_phone("+" + digits) or phone_e164(digits, scan.phone_regions) is not None
        if valid:
            yield "PHONE", *match.span("phone")


_FEWEST_DIGITS = 4  # different digits in a number dialled: "9999999", "1111111111" are placeholders


def _valid_phone(digits: str) -> bool:
    number = digits if digits.startswith("+") else ("+1" + digits if len(digits) == 10 else "+" + digits)
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(number, None))
    except phonenumbers.NumberParseException:
        return False
