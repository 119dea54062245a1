"""Email addresses and phone numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import phonenumbers

from securemem.pii.scan import Scan, Span, accepted

_LOCAL_PUNCTUATION = frozenset("._%+-")
_LOCAL_MAX = 64  # RFC 5321; also bounds the backward walk from each '@'
# Letters and digits of any script (RFC 6531 addresses such as jürgen@bücher.example): a partial
# match would leave part of the address behind after scrubbing.
_DOMAIN = re.compile(r"(?:[^\W_](?:[^\W_]|-){0,61}\.){1,10}[^\W\d_]{2,63}(?![^\W_]|-)")


def find_emails(scan: Scan) -> Iterator[Span]:
    """Walk from each '@' instead of running one regex over the text: linear even on 'a@' * n."""
    text = scan.text
    at = text.find("@")
    while at != -1:
        start = _local_part_start(text, at)
        domain = _DOMAIN.match(text, at + 1) if start < at else None
        if domain is not None:
            yield start, domain.end()
            at = text.find("@", domain.end())
        else:
            at = text.find("@", at + 1)


def _local_part_start(text: str, at: int) -> int:
    """Start of the local part ending at ``at``; ``at`` itself when there is no usable one."""
    start = at
    floor = max(0, at - _LOCAL_MAX - 1)
    while start > floor and (text[start - 1].isalnum() or text[start - 1] in _LOCAL_PUNCTUATION):
        start -= 1
    if at - start > _LOCAL_MAX:
        return at  # longer than RFC allows: a blob, not an address
    while start < at and text[start] == ".":
        start += 1
    return start


# A cheap candidate: optional country code, optional area code in brackets, then digit groups
# with single separators. Validation by phonenumbers decides; the regex only has to be generous
# and linear (separators are mandatory between groups, so a digit run splits one way only).
_PHONE = re.compile(
    r"""
    (?<![\w+#$€£¥/.\-])
    (?:\+[ ]?[0-9]{1,3}(?:[ .\-]|(?=\())?)?
    (?:\([0-9]{1,5}\)[ .\-]?)?
    [0-9]{1,15}(?:[ .\-][0-9]{1,6}){0,5}
    (?![\w]|[.\-][0-9])
    """,
    re.X,
)
_LEAD = 12  # "+1 (" before the digits
_TAIL = 2  # what the lookahead reads after the last digit
# A candidate that opens with a date or an IPv4 address is not a phone number, even when the
# digits would dial: "2024-01-01 00" reads as (202) 401-0100.
_DATE_OR_IP = re.compile(
    r"(?:[0-9]{4}[-./][0-9]{1,2}[-./][0-9]{1,2}|[0-9]{1,2}[-./][0-9]{1,2}[-./][0-9]{2,4}"
    r"|[0-9]{1,3}(?:\.[0-9]{1,3}){3})(?![0-9])"
)
# An unformatted digit run is a phone number only when the text says so just before it.
_PHONE_WORDS = re.compile(r"\b(?:phone|tel|telephone|mobile|cell|fax|call|sms|text|whatsapp|dial|contact|reach)")
# "Order 415-555-2671" is an order number even if it would dial.
_REFERENCE_WORDS = re.compile(
    r"\b(?:order|invoice|ticket|tracking|ref|reference|case|sku|po|serial|batch|lot)"
    r"\s*(?:no\.?|number|num|#)?\s*[:#=]?\s*$"
)


def find_phones(scan: Scan) -> Iterator[Span]:
    windows = scan.around(scan.long_numbers, _LEAD, _TAIL)
    return accepted(_PHONE, scan.text, windows, lambda match: _is_phone(scan, match))


def _is_phone(scan: Scan, match: re.Match[str]) -> bool:
    candidate = match.group()
    digits = sum(char.isdigit() for char in candidate)
    if not 7 <= digits <= 15 or _DATE_OR_IP.match(candidate):
        return False
    if _REFERENCE_WORDS.search(scan.before(match.start(), 24)):
        return False
    if candidate.isdigit() and not _PHONE_WORDS.search(scan.before(match.start(), 32)):
        return False
    return is_valid_phone(candidate, scan.phone_region)


def is_valid_phone(candidate: str, region: str) -> bool:
    try:
        number = phonenumbers.parse(candidate, region)
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_valid_number(number))


def phone_e164_digits(value: str, region: str) -> str:
    """The number's E.164 digits, so "(415) 555-2671" and "+1 415 555 2671" normalise alike."""
    try:
        number = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        return "".join(char for char in value if char.isdigit())
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164).lstrip("+")
