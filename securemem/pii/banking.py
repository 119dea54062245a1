"""Bank account numbers, where a label says what they are (reviewer BO: claim adjusters' notes, refund requests
and KYC forms in a bank, a hospital and an insurer).

A bare run of digits is an order, a ticket or an amount as often as an account, so nothing here is read without
its label: six to twenty digits, in groups joined by one space or dash at most, after an account's label in one
of twenty-odd languages ("Account number:", "checking acct", "Kontonummer", "número de cuenta", "खाता संख्या",
"口座番号"). The label counts only in a text that names a bank: a bank's word ("bank", "routing", "sort code",
"IFSC", "IBAN", "wire", "checking", "savings", "Überweisung", "банк", "銀行"...), or a label that says so itself
("bank account", "checking acct", "口座番号", "계좌번호", "cuenta bancaria"). "numer konta" alone is a customer's
account in a CRM as often as a bank's (reviewer AV), and a cloud's account ("AWS account 123456789012",
"account id") is never a bank's.

The bank's own numbers are not personal data and stay: a routing number, a sort code, an IFSC or a BSB names a
bank's branch, printed on its website (reviewers AK and BF keep "ABA routing number 021000021" and "Sort code
20-32-06 belongs to the Moorgate branch" as ordinary text).

The value must start within a few characters of its label, on its line ("Account number (checking): 53351448733"
reads through the bracket), and end where its digits end (a letter or digit glued after it is another token).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.normalize import viewed_words
from securemem.pii.scan import Scan, index_words

Hit = tuple[str, int, int]

# Account labels of scripts the view rewrites (a Cyrillic or Greek letter that looks Latin is read as Latin,
# combining marks are dropped): written here as people write them, compared as the view writes them.
_FOREIGN_ACCOUNT_LABELS = (
    "номер счета", "номер счёта", "номер банковского счета", "номер банковского счёта", "расчетный счет",
    "расчётный счёт", "р/с", "номер рахунку", "рахунок", "αριθμός λογαριασμού", "αριθμος λογαριασμου",
    "खाता संख्या", "खाता नंबर", "खाता नं", "खाता क्रमांक", "رقم الحساب", "شماره حساب", "מספר חשבון", "口座番号",
    "銀行口座", "账号", "帳號", "账户", "帳戶", "银行账号", "계좌번호", "계좌", "เลขที่บัญชี", "เลขบัญชี",
)  # fmt: skip


def _cased(words: tuple[str, ...]) -> tuple[str, ...]:
    """Each word as written, capitalised and in capitals: the view reads a capital that looks Latin as Latin
    ("Номер" is "Hoмep" to it, "номер" "нoмep"), so each spelling is viewed apart."""
    return tuple(form for word in words for form in (word, word.capitalize(), word.upper()))


def _viewed_cased(*words: str) -> tuple[str, ...]:
    return viewed_words(*_cased(words))


# Labels, matched in the lower-cased view. A label's value starts within _GAP of its end, on its line.
_ACCOUNT_LABEL = re.compile(
    r"(?<![^\W\d_])(?:"
    r"(?:bank(?:ing)?[ \-]?)?(?:account|acct)\.?(?:[ \-]?(?:number|num|no\.?|nr\.?|#))?"
    r"|a/c(?:[ \-]?no\.?)?"
    r"|(?:checking|savings|current|chequing)[ \-](?:account|acct|a/c)"
    r"|konto(?:nummer|[ \-]?nr\.?)?|bankkonto|kontonr\.?"
    r"|num[ée]ro de compte(?: bancaire)?|n[°o] de compte|compte bancaire|compte n[°o]"
    r"|(?:n[úu]mero de (?:la )?|n[º°o]\.? de )?cuenta(?: bancaria| corriente)?"
    r"|(?:numero (?:di )?)?conto(?: corrente| n\.?)?"
    r"|(?:n[úu]mero da )?conta(?: corrente| banc[áa]ria)?"
    r"|rekeningnummer|rekening(?:nr\.?)?"
    r"|numer (?:konta|rachunku)|nr\.? (?:konta|rachunku)|rachunek"
    r"|tilinumero|(?:bank)?sz[áa]mlasz[áa]m|[čc][íi]slo [úu][čc]tu"
    r"|hesap (?:numaras[ıi]|no)|s[ốo] t[àa]i kho[ảa]n|nomor rekening|no\.? rekening"
    r"|" + "|".join(map(re.escape, sorted(viewed_words(*_cased(_FOREIGN_ACCOUNT_LABELS)), key=len, reverse=True))) + r""
    r")(?![^\W\d_])"
)

# What sits between a label and its value: a colon, a hash, "number", "is", a bracketed kind ("(checking)").
_GAP = 24
_BETWEEN = re.compile(
    r"[ \t]*(?:\([^()\n]{0,20}\)[ \t]*)?(?:(?:number|num|no\.?|nr\.?|is|ist|est|es|é|è)(?![^\W\d_]))?"
    r"[ \t]*[:#=\-–—.]*[ \t]*(?:\([^()\n]{0,20}\)[ \t]*)?"
)
# A bank's words: an account's label counts in a text that holds one. Short ones are whole words ("ach" is in
# "each", "eft" in "left"), found by the scan's word index and checked for their ends; the others are substrings
# ("banking", "überweisungen").
_SHORT_BANK_WORDS = index_words("aba", "ach", "bic", "bsb", "eft", "iban", "ifsc", "sepa", "swift", "bacs", "wire")
_BANK_WORDS = _viewed_cased(
    "bank", "banco", "banque", "banca", "bancari", "bancaire", "routing", "sort code", "sort-code", "checking",
    "chequing", "savings", "direct deposit", "payout", "überweisung", "virement", "transferencia", "bonifico",
    "overboeking", "przelew", "банк", "τράπεζ", "बैंक", "بنك", "بانک", "银行", "銀行", "은행", "ngân hàng", "ธนาคาร",
    "בנק",
)  # fmt: skip
# Labels that name a bank's account themselves, whatever the text around them says.
_SELF_BANKED = re.compile(
    "|".join(
        map(
            re.escape,
            _viewed_cased(
                "bank", "checking", "chequing", "savings", "current a", "口座", "银行", "계좌", "bancari", "bancaire",
                "corrente", "расчетный", "расчётный", "банковского", "р/с", "kontonummer", "rekeningnummer",
            ),
        )
    )
)  # fmt: skip
# A cloud's or a service's account, not a bank's: "AWS account 123456789012", "account id", "account 42 of".
_NOT_A_BANK = re.compile(
    r"(?:aws|amazon|gcp|google|azure|cloud|billing|customer|carrier|utility|twitter|github|player|user|"
    r"service|member|loyalty|client)[ \-]*(?:account|acct|acc)\b|(?:account|acct)[ \-]?(?:id|ids|name|manager)\b"
)
_ACCOUNT_DIGITS = re.compile(r"[0-9]{2,}(?:[ \-][0-9]{2,}){0,4}(?![0-9A-Za-z])")
_DATE_LIKE = re.compile(r"(?:19|20)[0-9]{2}[\- ]?[01][0-9][\- ]?[0-3][0-9]")

_LABEL_WORDS = index_words(
    "account", "acct", "a/c", "konto", "kontonr",
    "bankkonto", "compte", "cuenta", "conto", "conta", "rekening", "rekeningnummer", "konta", "rachunku", "rachunek",
    "tilinumero", "szamlaszam", "hesap", "nomor", "checking", "savings", "chequing",
)  # fmt: skip
_FOREIGN_LABEL_PARTS = _viewed_cased(
    "számla", "číslo", "cislo", "số tài", "счет", "счёт", "р/с", "рахун", "λογαριασμ", "खाता", "الحساب", "حساب",
    "חשבון", "口座", "账号", "帳號", "账户", "帳戶", "계좌", "บัญชี", "compte", "número", "numéro",
)  # fmt: skip


def may_hold_bank_number(scan: Scan) -> bool:
    if not _LABEL_WORDS.isdisjoint(scan.words):
        return True
    return not scan.text.isascii() and any(part in scan.lower for part in _FOREIGN_LABEL_PARTS)


def find_bank_numbers(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    text = scan.text
    labels = _labels(scan)
    if not labels:
        return
    banked = _names_a_bank(scan)
    for label in labels:
        if not banked and _SELF_BANKED.search(label.group()) is None:
            continue
        if lower.startswith("-", label.end()):
            continue  # an id's prefix ("ACCT-0099-1832"), not a label
        line_start = lower.rfind("\n", 0, label.start()) + 1
        if _NOT_A_BANK.search(lower, max(line_start, label.start() - 12), label.end() + 6):
            continue
        span = _value_after(text, label.end(), _ACCOUNT_DIGITS)
        if span is None:
            continue
        digits = sum(c.isdigit() for c in text[span[0] : span[1]])
        if 6 <= digits <= 20 and not _DATE_LIKE.fullmatch(text[span[0] : span[1]]):
            yield ("BANK_ACCOUNT", *span)


def _labels(scan: Scan) -> list[re.Match[str]]:
    """The account labels of the text, found around the places of their words (the pattern, tried at every
    character of a note, cost a tenth of a millisecond per kilobyte)."""
    lower = scan.lower
    places = [at for word in _LABEL_WORDS for at in scan.words.get(word, ())]
    if not scan.text.isascii():
        for part in _FOREIGN_LABEL_PARTS:
            at = lower.find(part)
            while at != -1:
                places.append(at)
                at = lower.find(part, at + 1)
    labels: dict[tuple[int, int], re.Match[str]] = {}
    for at in sorted(set(places)):
        for label in _ACCOUNT_LABEL.finditer(lower, max(0, at - _LEAD), at + _LABEL_MOST):
            if label.start() <= at < label.end():
                labels.setdefault(label.span(), label)
    return [labels[span] for span in sorted(labels)]


_LEAD = 24  # characters of a label before its word ("número de la cuenta")
_LABEL_MOST = 48  # characters of a label from its word on


def _names_a_bank(scan: Scan) -> bool:
    lower = scan.lower
    if any(word in lower for word in _BANK_WORDS):
        return True
    for word in _SHORT_BANK_WORDS:
        for at in scan.words.get(word, ()):
            end = at + len(word)
            if (at == 0 or not lower[at - 1].isalnum()) and (end == len(lower) or not lower[end].isalnum()):
                return True
    return False


def _value_after(text: str, at: int, value: re.Pattern[str]) -> tuple[int, int] | None:
    """Where ``value`` starts right after a label ending at ``at`` (what _BETWEEN allows between), on its line."""
    between = _BETWEEN.match(text, at, min(len(text), at + _GAP))
    start = between.end() if between is not None else at
    if start > at + _GAP or "\n" in text[at:start]:
        return None
    found = value.match(text, start)
    if found is None or (start and text[start - 1].isalnum() and start != at):
        return None
    return found.span()
