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

from securemem.pii.banking import EXAMPLE_WORDS, placeholder_digits
from securemem.pii.checksums import aba_valid
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, Span, index_words

_NACHA_ENTRY = lazy_compile(
    r"(?m)^6(?:2[1-9]|3[1-9]|4[1-9]|5[1-5])(?P<routing>[0-9]{9})(?P<account>[0-9A-Za-z \-]{17})"
)
_NACHA_LINE = 94
_BACS_RECORD = lazy_compile(
    r"(?m)^[0-9]{6}(?P<destination>[0-9]{8})[0-9](?:0[1-9]|1[789]|99|Z[45])[0-9]{6}(?P<origin>[0-9]{8})[0-9]"
)
_SWIFT_ACCOUNT = lazy_compile(
    r"(?m)^:25[A-Z]?:(?P<account>(?=[^\n]*[0-9]{7})[A-Z0-9/\-]{6,35})[ \t]*\r?$"
    r"|^:(?:50[AFGHK]|59[AF]?):/(?P<party>(?=[^\n]*[0-9]{7})[A-Z0-9\-]{6,34})[ \t]*\r?$"
)
# (any account element, "OrgnlDbtrAcct" and a statement's "Acct" too, its tags maybe prefixed "ns2:": an
# attacker's round)
_XML_ACCOUNT = lazy_compile(
    r"<(?:[\w.\-]{1,16}:)?\w{0,16}Acct>[ \t\r\n]*<(?:[\w.\-]{1,16}:)?Id>[ \t\r\n]*<(?:[\w.\-]{1,16}:)?Othr>"
    r"[ \t\r\n]*<(?:[\w.\-]{1,16}:)?Id>(?P<account>(?=[^<]*[0-9]{6})[A-Za-z0-9\-/ ]{6,34})</"
)
_FEWEST_DIGITS = 4


# The gate's marks among the gates' words (found in one pass): "\n6" and "\n:" are in the lower-cased text exactly
# where they are in the text (lower-casing changes neither character, nor makes either of another), and "Acct>" is
# "acct>" there, so a test of the words answers as a search of the text did, at no cost.
_LEDGER_WORDS = index_words("\n6", "\n:", "bacs")
index_words("acct>")


def may_hold_ledger_account(scan: Scan) -> bool:
    text = scan.text
    words = scan.words
    return (
        # "\n6", "bacs", "\n:" (a SWIFT field starts its line: not a time's "10:50")
        not _LEDGER_WORDS.isdisjoint(words) or text.startswith(("6", ":")) or ("acct>" in words and "Acct>" in text)
    )


def find_ledger_accounts(scan: Scan) -> Iterator[Span]:
    text = scan.text
    found: list[Span] = []
    if "\n6" in text or text.startswith("6"):
        for match in _NACHA_ENTRY.finditer(text):
            line_end = text.find("\n", match.start())
            line = text[match.start() : len(text) if line_end == -1 else line_end].rstrip("\r")
            # (the amount's ten digits after the account: an inventory's fixed-width lines start with "6" too)
            amount = line[_AMOUNT_AT : _AMOUNT_AT + _AMOUNT_DIGITS]
            if (
                len(line.rstrip()) <= _NACHA_LINE
                and len(line) >= _NACHA_LINE - 15
                and amount.isdigit()
                and len(amount) == _AMOUNT_DIGITS
                and aba_valid(match["routing"])
            ):
                found.extend(_account(match, "account"))
    if "bacs" in scan.lower:
        for match in _BACS_RECORD.finditer(text):
            found += [match.span("destination"), match.span("origin")]
    if "\n:" in text or text.startswith(":"):
        for match in _SWIFT_ACCOUNT.finditer(text):
            found.append(match.span("account" if match["account"] is not None else "party"))
    if "Acct>" in text:
        for match in _XML_ACCOUNT.finditer(text):
            found.append(match.span("account"))
    # (not a specification's sample, a template or a mask: "MT103 template:", "BACS ... (dummy values)", "000000000000",
    # "XXXXXX123456", "12345678": an attacker's round)
    lower = scan.lower
    for start, end in found:
        if (
            not _placeholder(text[start:end])
            and EXAMPLE_WORDS.search(lower, max(0, start - _EXAMPLE_REACH), start) is None
        ):
            yield start, end


_AMOUNT_AT, _AMOUNT_DIGITS = 29, 10  # an entry detail's amount, in columns 30-39
_EXAMPLE_REACH = 200  # characters before an account read for a sample's or a template's word
_PART = 6  # digits of a part of a value read for a placeholder's (not a BLZ's "100"-like head alone)


def _placeholder(value: str) -> bool:
    """A mask ("XXXXXX123456") or a placeholder's digits in the account or the bank's code before it
    ("12345678/1234567890"); a BIC before an account ("DEUTDEFFXXX/0412983700", "ABNANL2A/NL26SNSB...") is neither."""
    own = value.rpartition("/")[2]
    return "x" in own.lower() or any(
        placeholder_digits(part) for part in value.split("/") if len(part) >= _PART and part.isdigit()
    )


def _account(match: re.Match[str], group: str) -> Iterator[Span]:
    """The field's account without the blanks that pad it to its width."""
    start = match.start(group)
    value = match[group].rstrip()
    if sum(char.isdigit() for char in value) >= _FEWEST_DIGITS:
        yield start, start + len(value)
