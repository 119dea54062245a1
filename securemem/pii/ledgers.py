"""Bank accounts in the files banks exchange, each by its format's own fields (reviewer CG's payments operations).

- NACHA (US ACH) entry detail records: a line of 94 characters led by "6" and a transaction code, the receiving
  bank's routing number (valid by its check digit), then the account in columns 13-29.
- BACS Standard 18 records, in a text that names BACS: the destination's sort code and account, a transaction code,
  the originator's sort code and account (columns 1-31).
- SWIFT MT messages: the account of field 25 (MT940/942 statements, "BLZ/account" or an account alone) and the
  accounts after "/" in fields 50K, 59 and 59F (MT103's ordering customer and beneficiary).
- ISO 20022 XML (pain, pacs, camt): a debtor's or creditor's account given by "Othr/Id" (an IBAN there is the IBAN
  reader's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.scan import Scan, Span

_NACHA_ENTRY = re.compile(r"(?m)^6(?:2[1-9]|3[1-9]|4[1-9]|5[1-5])(?P<routing>[0-9]{9})(?P<account>[0-9A-Za-z \-]{17})")
_NACHA_LINE = 94
_ROUTING_WEIGHTS = (3, 7, 1, 3, 7, 1, 3, 7, 1)
_BACS_RECORD = re.compile(
    r"(?m)^[0-9]{6}(?P<destination>[0-9]{8})[0-9](?:0[1-9]|1[789]|99|Z[45])[0-9]{6}(?P<origin>[0-9]{8})[0-9]"
)
_SWIFT_ACCOUNT = re.compile(
    r"(?m)^:25[A-Z]?:(?P<account>(?=[^\n]*[0-9]{7})[A-Z0-9/\-]{6,35})[ \t]*\r?$"
    r"|^:(?:50[AFK]|59[AF]?):/(?P<party>(?=[^\n]*[0-9]{7})[A-Z0-9\-]{6,34})[ \t]*\r?$"
)
_XML_ACCOUNT = re.compile(
    r"<(?:Dbtr|Cdtr|UltmtDbtr|UltmtCdtr)Acct>[ \t\r\n]*<Id>[ \t\r\n]*<Othr>[ \t\r\n]*<Id>"
    r"(?P<account>(?=[^<]*[0-9]{6})[A-Za-z0-9\-/ ]{6,34})</Id>"
)
_FEWEST_DIGITS = 4


def may_hold_ledger_account(scan: Scan) -> bool:
    text = scan.text
    return (
        "\n6" in text
        or text.startswith("6")
        or "bacs" in scan.lower
        or ":25" in text
        or ":5" in text
        or "Acct>" in text
    )


def find_ledger_accounts(scan: Scan) -> Iterator[Span]:
    text = scan.text
    if "\n6" in text or text.startswith("6"):
        for match in _NACHA_ENTRY.finditer(text):
            line_end = text.find("\n", match.start())
            line = text[match.start() : len(text) if line_end == -1 else line_end].rstrip("\r")
            if len(line.rstrip()) <= _NACHA_LINE and len(line) >= _NACHA_LINE - 15 and _aba_valid(match["routing"]):
                yield from _account(match, "account")
    if "bacs" in scan.lower:
        for match in _BACS_RECORD.finditer(text):
            yield match.span("destination")
            yield match.span("origin")
    if ":25" in text or ":5" in text:
        for match in _SWIFT_ACCOUNT.finditer(text):
            yield match.span("account" if match["account"] is not None else "party")
    if "Acct>" in text:
        for match in _XML_ACCOUNT.finditer(text):
            yield match.span("account")


def _account(match: re.Match[str], group: str) -> Iterator[Span]:
    """The field's account without the blanks that pad it to its width."""
    start = match.start(group)
    value = match[group].rstrip()
    if sum(char.isdigit() for char in value) >= _FEWEST_DIGITS:
        yield start, start + len(value)


def _aba_valid(routing: str) -> bool:
    """An ABA routing number's check: its digits weighted 3, 7, 1 sum to a multiple of ten."""
    return sum(int(digit) * weight for digit, weight in zip(routing, _ROUTING_WEIGHTS, strict=True)) % 10 == 0
