"""Bank account numbers, where a label says what they are (reviewer BO: claim adjusters' notes, refund requests
and KYC forms in a bank, a hospital and an insurer).

A bare run of digits is an order, a ticket, a ledger's account or an amount as often as a bank account, so
nothing here is read without its label, and the label must name an account's *number* ("Account number:",
"acct no.", "Kontonummer", "número de cuenta", "numer rachunku", "Номер счёта", "खाता संख्या", "口座番号"): a bare
"account 610045" is a ledger's code, "rachunek", "conto", "cuenta" and "счёт" are bills as often as accounts
(an attacker's round). Such a label counts only in a text that names a bank as a whole word or phrase ("bank",
"routing number", "sort code", "IBAN", "SWIFT code", "wire transfer", "Überweisung", "банк", "銀行"; not "memory
bank", "routing table", "checking the logs"), or when the label says so itself ("bank account number", "checking
account no.", "cuenta bancaria", "口座番号", "계좌번호"). An account of something else ("GL account", "AWS account",
"patient account", "policy account", "account id") is never a bank's.

Seven to twenty digits, in groups joined by one space or dash at most, starting within a few characters of the
label on its line ("Account number (checking): 53351448733" reads through the bracket): not a date, an amount
("12 450 000"), a count ("1250000 rows"), years, a run of one digit or of counting digits ("12345678"). The
bank's own numbers are not personal data and stay: a routing number, a sort code, an IFSC or a BSB names a
bank's branch, printed on its website (reviewers AK and BF keep "ABA routing number 021000021" and "Sort code
20-32-06 belongs to the Moorgate branch" as ordinary text), so a label shared with one ("Routing/Account:",
"Account (routing):") is not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from securemem.pii.checksums import aba_valid, iban_valid
from securemem.pii.normalize import viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import COUNTED, Scan, index_words

Hit = tuple[str, int, int]


def _cased(words: tuple[str, ...]) -> tuple[str, ...]:
    """Each word as written, capitalised and in capitals: the view reads a capital that looks Latin as Latin
    ("Номер" is "Hoмep" to it, "номер" "нoмep"), so each spelling is viewed apart."""
    return tuple(form for word in words for form in (word, word.capitalize(), word.upper()))


def _viewed(*words: str) -> str:
    """An alternation of ``words`` as the lower-cased view writes them, longest first."""
    return "|".join(map(re.escape, sorted(set(viewed_words(*_cased(words))), key=len, reverse=True)))


_FOREIGN_ACCOUNT_LABELS = (
    "номер счета",
    "номер счёта",
    "номер банковского счета",
    "номер банковского счёта",
    "номер рахунку",
    "номер банківського рахунку",  # Ukrainian's bank account's number (reviewer BR)
    "αριθμός λογαριασμού",
    "αριθμος λογαριασμου",
    "खाता संख्या",
    "खाता नंबर",
    "बैंक खाता संख्या",
    "رقم الحساب",
    # Arabic's bank account's number, the bank named in the label ("رقم الحساب المصرفي: 5862397784": reviewer BS)
    "رقم الحساب المصرفي",
    "رقم الحساب البنكي",
    "شماره حساب بانکی",
    "شماره حساب",
    "מספר חשבון",
    "מספר חשבון בנק",  # the bank's account's number ("מספר חשבון בנק: 263408585": reviewer BX)
    "口座番号",
    "銀行口座番号",
    "银行账号",
    "银行卡号",
    "계좌번호",
    "계좌 번호",
    "เลขที่บัญชี",
    "เลขบัญชี",
    # Bengali's (bank) account's number, Chinese's account number after the bank's name, Korean's account before
    # the bank's name ("ব্যাংক হিসাব নম্বর: ...", "招商银行 账号 1109...", "계좌: 신한은행 110-676-...": reviewers
    # CC and CD)
    "ব্যাংক হিসাব নম্বর",
    "হিসাব নম্বর",
    "账号",
    "帳號",
    "계좌",
    # Tamil's account number ("கணக்கு எண் 70814911525304, IFSC ...": reviewer CI)
    "கணக்கு எண்",
    "வங்கி கணக்கு எண்",
    # Yoruba's account number ("Nọ́mbà àkáǹtì mi ni 4884767621 ní GTBank": reviewer CL)
    "nọ́mbà àkáǹtì",
)
_NUMBER_WORD = r"(?:number|num|nbr|no\.?|nr\.?|#)"
# Labels that name an account's number, matched in the lower-cased view.
_ACCOUNT_LABEL = lazy_compile(
    r"(?<![^\W\d_])(?:"
    rf"(?:bank(?:ing)?[ \-]?)?(?:account|acct|acc|a/c)\.?[ \t]*{_NUMBER_WORD}"
    rf"|(?:bank|checking|savings|chequing|current)[ \-](?:account|acct|a/c)(?:\.?[ \t]*{_NUMBER_WORD})?"
    # a credit union's account ("Navy Federal Credit Union acct 622068934": reviewer CD)
    r"|credit union (?:account|acct|a/c)"
    r"|kontonummer|konto-?nr\.?|kontonr\.?|kto\.?-?nr\.?|bankkonto(?:nummer)?"
    r"|num[ée]ro de compte(?: bancaire)?|n[°o]\.? de compte|compte bancaire(?: n[°o])?"
    r"|n[úu]mero de (?:la )?cuenta(?: bancaria)?|n[º°o]\.? de cuenta|cuenta bancaria"
    r"|numero (?:di |del )?conto(?: corrente)?|conto corrente n\.?"
    r"|n[úu]mero da conta(?: corrente| banc[áa]ria)?|conta banc[áa]ria"
    r"|rekeningnummer|bankrekening(?:nummer)?|numer (?:konta|rachunku)(?: bankowego)?|nr\.? (?:konta|rachunku)"
    # Poland's account after "rachunek" ("na rachunek nr 34 1050 ...": reviewer CG), read as an NRB by its check digits
    # (a bill too, "Rachunek nr 4588127 za usługi": read only as an NRB)
    # (and after "z rachunku", "na rachunku": "Wpłaty z rachunku 76 3166 ...": reviewer CZ)
    r"|(?P<nrb>rachunek(?: bankowy)?(?: nr\.?)?|rachunku(?: bankowego)?(?: nr\.?)?)"
    # a salary account, Nordic and German ("lønnskonto 9710.08.08262", "lönekonto 8327-9, ...": reviewer CZ)
    r"|l[øö]nn?s?konto|l[øö]nekonto|gehaltskonto"
    # Spanish's savings and current accounts, a bank's ("cuenta de ahorros Bancolombia 280-322177-09": reviewer CG)
    r"|(?P<savings>cuenta de ahorros|cuenta corriente)"
    r"|tilinumero|(?:bank)?sz[áa]mlasz[áa]m|[čc][íi]slo [úu][čc]tu|hesap numaras[ıi](?:n[ıi])?|s[ốo] t[àa]i kho[ảa]n"
    # Romanian's account's number ("numărul contului bancar": reviewer BR)
    r"|num[ăa]rul contului(?: bancar)?|num[ăa]r(?:ul)? de cont|cont bancar"
    r"|nomor rekening|nuban(?: account)?(?: number| no\.?)?"
    r"|namba ya akaunti|nambari ya akaunti"  # Swahili ("Namba ya akaunti: 0114885666050": reviewer CC)
    r"|akaunti ya benki"  # ... a bank's account ("akaunti ya benki 1324005267811 (Equity Bank)": reviewer CI)
    # Hausa's bank account ("Lambar asusun banki: 1460012514 (First Bank)"), Hindi's in Latin letters ("bank khata
    # 91808812236370, IFSC ..."): reviewers CL and CK
    r"|(?:lambar )?asusun banki|bank (?:ka )?khata(?: (?:number|no\.?|sankhya))?"
    # a wire's beneficiary's or remitter's account ("Beneficiary account: 2809440605": reviewer CI)
    r"|(?:beneficiary|beneficiary's|payee|remitter|creditor|debtor)[ \-](?:account|acct|a/c)"
    rf"(?:\.?[ \t]*{_NUMBER_WORD})?"
    # Indonesian's "No. rekening", "no. rek." (reviewer BV); Vietnamese's "STK" (số tài khoản), read only in
    # Vietnamese text that names a bank ("STK nhận tiền bồi thường: 5294856548739 (Vietcombank)": reviewer BV)
    r"|no\.?[ \t]?rek(?:ening|\.)|(?P<stk>stk)"
    # Russian's settlement account at a bank ("р/с", "расчётный счёт": reviewer BV), as the view writes them (its
    # "р/с" is "p/c"): read only in Cyrillic text, and only an account's twenty digits (see _russian_account)
    # ("счёт №" alone is a bill as often: read only as such an account's twenty digits, "счёт № 40817...": reviewer BX)
    # Hindi's bank account in Devanagari ("बैंक खाता: 29691256506738, IFSC ...": reviewer CZ)
    "|"
    + _viewed("बैंक खाता संख्या", "बैंक खाता")
    + "|(?P<rs>"
    + _viewed("р/с", "р/сч", "расчетный счет", "расчётный счёт", "счёт №", "счет №")
    + ")"
    # ... and "счёт" alone, an invoice as often: read only as a person's account, by the prefixes of one (see
    # _shaped_for), and not on a sample's or an order's line ("БИК 044030653, счёт 40817810081560900129": reviewer CF;
    # "Образец заполнения: счёт 40817810000000000001", "Выставлен счёт 4520 ... — это номер заказа": an attacker's
    # round)
    "|(?P<rsb>" + _viewed("счёт", "счет", "счёта", "счета", "счету", "сч.") + ")"
    # Mexico's CLABE, checked by its control digit ("Cuenta CLABE para devolución: 0938...": reviewer BQ)
    r"|(?:cuenta )?clabe(?: interbancaria)?"
    # an account named alone, read only beside its bank's routing number on the line (see _BRANCH_LINE); its kind
    # alone too ("routing 085879382, checking 3820019475", "(routing 219665676), 20% savings 000123987662": reviewer CW)
    r"|(?P<bare>account|acct|acc|a/c|checking|savings|conta(?: corrente)?|cuenta|compte)"
    # the Nordic, Polish and German "konto", read only as Norway's dotted account or an NRB by their check digits
    # ("utbetales til konto 9710.44.18264": reviewer CQ; not "Konto: 5550 1234 9 ist das Spendenkonto": an attacker's)
    r"|(?P<konto>konto(?:en|t)?))(?![^\W\d_])"
    # Hebrew's account right after its branch ("סניף 998, חשבון 159474": reviewer CK; "חשבון" alone is a bill too)
     + "|(?:" + _viewed("סניף") + r"[ \t]*[0-9]{1,3}[ \t]*,?[ \t]*" + _viewed("חשבון") + ")"
    # the labels of other scripts, with no word boundary: Chinese, Japanese and Thai glue the words around them,
    # Hebrew its prefixes ("的银行账号为 6228...", "שמספר חשבון הבנק ...": reviewer BR)
    "|" + _viewed(*_FOREIGN_ACCOUNT_LABELS)
)
# A line that names the bank's routing number beside an account named alone ("Transit: 31846  Institution: 006
# Account: 8509444", "sort code 949857 account 95781342": reviewer BQ), not a branch or an institution alone (a
# ledger's, a repository's, a university's: "Branch: develop  Account: 0987...", an attacker's round), within
# _BRANCH_REACH characters of the label.
# The branch's number follows its word ("Transit: 31846", "sort code 949857", "BSB 062-000", "IFSC HDFC0001234"): a
# transit pass, a routing table, "Sort code field blank" or "ABA therapy" name none (an attacker's round).
_BRANCH_LINE = lazy_compile(
    r"(?<![^\W\d_])(?:transit(?: number| no\.?)?|routing(?: number| no\.?)?|aba|sort[ \-]?code|bsb|ifsc|blz"
    r"|bank code)[ \t]*[:#.]?[ \t]*(?:[0-9][0-9 \-]{2,}[0-9]|[a-z]{4}0[a-z0-9]{6})(?![0-9a-z])"
)
_BRANCH_REACH = 48
# Labels that name a bank's account themselves, whatever the text around them says.
_SELF_BANKED = lazy_compile(
    # Indonesian's "rekening" is a bank's account ("Nomor rekening BCA: 3077870982": reviewer BP); Swahili's "benki"
    r"benki|bank|bancari|bancaire|banc[áa]ria|bankowego|checking|chequing|savings|rekening|nuban|clabe|ahorros|corriente|"
    + _viewed("банковского", "банківськ", "बैंक", "口座", "银行", "銀行", "계좌", "المصرفي", "البنكي", "بانکی", "ব্যাংক")
    + r"|bancar"  # Romanian's "contului bancar" (reviewer BR)
    + "|"
    + _viewed("р/с", "р/сч", "расчетный", "расчётный")  # a settlement account is a bank's (reviewer BV)
)
# A bank, named as a whole word or phrase: an account's number in such a text is a bank's.
_BANK_NAMED = lazy_compile(
    r"(?<![^\W\d_])(?:"
    r"(?<!memory )(?<!blood )(?<!food )(?<!power )(?<!river )(?<!data )(?<!sperm )bank(?:s|'s)?(?! holiday)"
    r"|banka(?:s[ıi])?"  # Turkish's, Czech's, Croatian's ("banka hesap numarasını": reviewer BR)
    # a bank's own name ("Volksbank", "Commerzbank", "Postbank"), not a store of other things ("databank")
    r"|[^\W\d_]{3,}(?<!data)(?<!power)(?<!food)(?<!blood)(?<!sperm)(?<!memory)(?<!sand)(?<!river)bank"
    # (spořitelna: a Czech savings bank)
    r"|sparkasse|spořitelna|sporitelna|credit union|caixa|caja de ahorros|cassa di risparmio"
    # Germany's bank code, with its number ("BLZ 370 400 44"; not ISO's "BLZ Belize": an attacker's round)
    r"|blz(?=[ \t]*[:.]?[ \t]*[0-9])|bankleitzahl"
    r"|banco|banque|banca|bankverbindung|routing (?:number|no)|aba|sort[ \-]?code|iban|bic|swift[ /]?(?:code|bic)"
    # a routing number with its nine digits ("account number 810000764 routing 095809931": reviewer CD)
    r"|routing(?=[ \t]*[:#]?[ \t]*[0-9]{9}(?![0-9]))"
    r"|ifsc|bsb|bvn|wire transfer|direct deposit|ach|bacs|sepa|überweisung|virement|transferencia|bonifico|przelew"
    # a cheque's routing number named on the line ("acct no 007369478424, routing is on the cheque": reviewer CA); not
    # "cheque" alone (a bill's "write your account number on the back of your cheque") or a network's routing
    r"|routing[^\n]{0,40}cheque"
    # banks whose own names are two letters and "Bank" (Nigeria's, Vietnam's, Thailand's): named, not any such word
    # ("DeBank", "MyBank", INSEE's "idBank": an attacker's round)
    r"|gtbank|hdbank|vpbank|tpbank|mbbank|kbank"
    # a bank's statement of an account ("Kontoutskrift juni 2024 — Kontonummer: ...": reviewer BP)
    # Denmark's bank registration number, with its four digits ("reg.nr. 2191 kontonr. 9183628782": reviewer CK)
    # (and the account's word right after them: not "Reg. nr. 4567 i varekartoteket", an item's, an attacker's round)
    r"|reg\.?[ \t]?nr\.?(?=[ \t]*[:.]?[ \t]*[0-9]{4}[ \t,;/]{1,3}(?:og[ \t]+)?(?:konto|kto))|registreringsnummer"
    r"|kontoutskrift|kontoauszug|kontoudskrift|kontoutdrag|bank statement|relev[ée] bancaire|extracto bancario"
    r"|estratto conto|rekening koran|mutasi rekening"
    # Sberbank, in its cases ("Номер счёта в Сбербанке: 4081...", "Реквизиты: Сбербанк, номер счёта 4081...": reviewers
    # CD and CE; Sberbank named only, "счёт" is an invoice as often, "Оплата через Сбербанк Онлайн. Номер счёта:
    # 2024004512": an attacker's round, so that a client's twenty digits only are read, see find_bank_numbers)
    r"|overboeking|"
    + _viewed("банк", "банка", "банке", "τράπεζα", "сбербанк", "сбербанке", "сбербанка", "сбербанку")
    + r")(?![^\W\d_])"
    r"|" + _viewed("बैंक", "بنك", "بانک", "银行", "銀行", "은행", "ngân hàng", "ธนาคาร", "בנק", "ব্যাংক", "benki")
)
# What an account is of, just before its label, when it is not a bank's: a ledger's, a cloud's, a service's.
_NOT_A_BANK = lazy_compile(
    r"(?:gl|g/l|ledger|nominal|cost|expense|revenue|income|sub|offset|suspense|clearing|nostro|vostro|contra|"
    r"loan|mortgage|policy|claim|group|agency|hospital|patient|guarantor|utility|telco|tax|vendor|supplier|"
    r"merchant|customer|client|user|service|cloud|aws|gcp|azure|root|iam|prod|staging|dev|test|google|ads|saldo|"
    r"salesforce|steam|flyer|library|stripe|fedex|ups|billing|carrier|twitter|github|player|loyalty|har|"
    r"internal|income|trading|broker|brokerage|demo|paper|sandbox)[ \-]*$"
)
# Capitals before a label's colon that are no bank's: a currency's code, a customer's file, a ledger's
_NOT_A_BANKS_INITIALS = frozenset(
    {"CRM", "ERP", "SAP", "REF", "KYC", "AML", "SEPA", "UID", "PID", "CIN", "TIN", "VAT", "TAX", "ACH", "ID", "INV",
     "PO", "TXN", "REQ", "ORD", "TKT", "CASE", "JIRA"} |
    {"EUR", "USD", "GBP", "JPY", "CNY", "RMB", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF",
     "RON", "BGN", "TRY", "RUB", "UAH", "INR", "IDR", "MYR", "SGD", "HKD", "THB", "PHP", "VND", "KRW", "TWD", "BRL",
     "MXN", "ARS", "CLP", "COP", "PEN", "ZAR", "NGN", "KES", "EGP", "AED", "SAR", "QAR", "ILS", "CIF", "IBAN", "GL",
     "OLD", "NEW", "ALT"}
)  # fmt: skip
_BANK_KIND = lazy_compile(r"routing|aba|blz|sort|bsb|transit|micr|ifsc|swift|bic")
# Groups a space, a dash or a dot apart (Norway prints "9210.44.20941": reviewer BP)
# ... and the Czech Republic's and Slovakia's bank code after a slash ("Číslo účtu: 9354855955/0800": reviewer CD)
_ACCOUNT_DIGITS = lazy_compile(r"[0-9]{2,}(?:[ \-.][0-9]{2,}){0,7}(?:/[0-9]{4}(?![0-9/]))?(?![0-9A-Za-z]|\.[0-9])")
_DATE_LIKE = lazy_compile(
    r"(?:19|20)[0-9]{2}[\- .]?[01][0-9][\- .]?[0-3][0-9]|[0-3]?[0-9][\- .][01]?[0-9][\- .](?:19|20)[0-9]{2}"
)
_AMOUNT = lazy_compile(r"[0-9]{1,3}(?: [0-9]{3})+")  # "12 450 000": thousands a space apart
_YEARS = lazy_compile(r"(?:19|20)[0-9]{2}(?:[ \-](?:19|20)[0-9]{2})+")
_COUNTING = "0123456789012345678901234567890123456789"
# What sits between a label and its value: a colon, a hash, "is", a bracketed kind ("(checking)").
_GAP = 24
_BETWEEN = lazy_compile(
    r"[ \t]*(?:\((?P<kind>[^()\n]{0,20})\)[ \t]*)?(?:(?:is|ist|est|es|é|è)(?![^\W\d_]))?"
    # Tagalog's "my" and "our" after the label ("BDO bank account number ko: 004219164708": reviewer CA), after a label
    # that names a bank only (see find_bank_numbers)
    r"(?:(?P<tl>ko|namin|natin)(?=[ \t]*:))?"
    # a bank's initials before the colon ("Nomor rekening BCA: 3077870982": reviewer BP)
    r"(?:(?P<initials>[A-Z]{3,5})[ \t]*(?=[:#]))?"
    r"[ \t]*[:#=\-–—.：]*[ \t]*"
    # Chinese's and Japanese's "is", Japanese's kinds of account before the number ("口座番号: 普通 6588955",
    # "银行账号为 6228...": reviewer BR)
    r"(?:(?:为|是|は)[ \t]*)?(?:(?:普通|当座|貯蓄)(?:預金)?[ \t]*)?"
)

_CHECKED_WORDS = ("rib ", "rib:", "nib ", "nib:", "cci ", "cci:")
_LABEL_WORDS = index_words(
    "account", "acct", "acc", "a/c", "nuban", "clabe", "kontonummer", "konto", "kto", "bankkonto", "compte", "cuenta",
    "conto", "conta", "rekeningnummer", "bankrekening", "konta", "rachunku", "tilinumero", "szamlaszam", "hesap",
    "nomor", "rekening", "rek", "stk", "akaunti", "cbu", "cvu", "transfer ke", "agência", "agencia", "rachunek",
    "akaun", "c.b.u", "clave bancaria", "tk", "checking", "savings",
    "kontonr", "asusun", "khata",  # Danish's and Norwegian's abbreviation, Hausa's and Hindi's (reviewers CK, CL)
    # Morocco's, Mozambique's and Portugal's, Peru's (see _labelled_checked_accounts), with the blank or colon after
    # them ("describe", "attribute" hold "rib")
    *_CHECKED_WORDS,
)  # fmt: skip
_FOREIGN_LABEL_PARTS = viewed_words(
    *_cased((
        "számla", "číslo", "số tài", "счет", "счёт", "рахунку", "λογαριασμ", "खाता", "الحساب", "حساب", "חשבון",
        "口座", "账号", "卡号", "계좌", "은행", "뱅크", "บัญชี", "compte", "número", "numéro", "nº", "n°",
        # where a label starts inside a word: Chinese's bank, Hebrew's prefixed number; Romanian's account (reviewer BR)
        "银行", "銀行", "מספר חשבון", "contului", "numărul", "р/с", "расч", "হিসাব", "帳號",
        "tài khoản",  # Vietnamese's account, after a verb ("chuyển vào tài khoản Vietcombank ...": reviewer CH)
        # Czech's and Slovak's account, a bank's details (see _czech_accounts), "č.ú." unspaced (an attacker's round)
        "účet", "účtu", "spojení", "č. ú", "č.ú",
        "கணக்கு",  # Tamil's account (reviewer CI)
        "振込",  # Japanese's transfer, before its branch and account ("振込先：渋谷支店 普通 1993311": reviewer CI)
        "рачун", "račun", "racun",  # Serbian's and Croatian's account (see _serbian_accounts)
        "àkáǹtì",  # Yoruba's account (reviewer CL)
    ))
)  # fmt: skip


def may_hold_bank_number(scan: Scan) -> bool:
    if not _LABEL_WORDS.isdisjoint(scan.words):
        return True
    return not scan.text.isascii() and any(part in scan.lower for part in _FOREIGN_LABEL_PARTS)


def find_bank_numbers(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    text = scan.text
    if "口座" in text or "銀行" in text or "振込" in text:
        yield from _japanese_accounts(text)
    yield from _national_accounts(text, lower)
    labels = _labels(scan)
    if not labels:
        return
    banked = _BANK_NAMED.search(lower) is not None
    # (each searched once per text, not once per label: a text of many labels and no such letter was quadratic)
    vietnamese = _VIETNAMESE.search(text) is not None
    cyrillic = _CYRILLIC.search(text) is not None
    for label in labels:
        if "clabe" in label.group():
            yield from _clabe_after(text, label.end())
            continue
        named = _named_a_bank(lower, label, banked)
        if not _a_label(lower, label) or (label["stk"] is not None and not vietnamese):
            continue  # (Danish's and Norwegian's "stk", pieces; M-Pesa's "STK push": an attacker's round)
        between = _BETWEEN.match(text, label.end(), min(len(text), label.end() + _GAP))
        if between is None or any(
            between[part] is not None and _BANK_KIND.search(between[part].lower()) for part in ("kind", "initials")
        ):
            continue  # "Account (routing): 021000021", "Account number ABA: 021000021": the bank's number
        if _not_a_banks_label(between, label):
            continue
        start = between.end()
        value = _ACCOUNT_DIGITS.match(text, start) or _value_words_on(lower, text, start)
        if value is None or "\n" in text[label.end() : value.start()]:
            continue
        number = value.group()
        if (
            not _shaped_for(label, number, cyrillic)
            or _sample_or_order(lower, label, value)
            or (label["bare"] is not None and not (_bare_banked(lower, label, value) or _nrb(number)))
            or (label["konto"] is not None and not (_nrb(number) or _norwegian_account(number)))
        ):
            continue
        clause = lower[between.end() : value.start()]
        # an account by its own check digits (Norway's after two words at most: "for refusjon: 3000.02.42906", not
        # "module, release for Norway: 2024.06.10346", the attacker's round)
        checked = _nrb(number) or (_norwegian_account(number) and _FEW_WORDS.fullmatch(clause) is not None)
        if ":" in clause and not (checked or _BANK_NAMED.search(clause) or vietnamese):
            # words and a colon between ("... for case: 47791483": an attacker's round): read through only to an NRB
            # by its check digits, after words that name the bank ("Account number at the bank: 66393119") or in
            # Vietnamese ("Số tài khoản nhận lương: 0066936444209")
            continue
        # (a Russian settlement account read by its own shape, above: no bank need be named)
        read = (
            named
            or label["rs"] is not None
            or label["rsb"] is not None
            or (named is not None and _norwegian_account(number))
            or label["konto"] is not None  # (its own shapes, above)
            or _nrb(number)
            or _czech_account(number)
        )
        if read and _plausible(text, number, value.end()) and not (cyrillic and _sberbank_bill(lower, number)):
            yield ("BANK_ACCOUNT", *value.span())


# Accounts written as their country writes them, each after what names it a bank's (reviewer CF):
# - Argentina's CBU and CVU, twenty-two digits valid by their two check digits ("transferir al CBU 2854...");
# - a Korean bank's name and its account's dashed groups ("신한은행 110-648-661424"), not a number led by "0" (the
#   bank's phone: "신한은행 02-1234-5678") nor a date;
# - an Indonesian bank's initials after "rekening" or "transfer ke" ("rekening BCA 1507209585", "ditransfer ke BNI
#   7194077726"), a Malaysian bank's after "akaun" ("akaun Maybank 164065793732": reviewer CG), ten to twenty digits;
# - Brazil's branch then account, with its check digit ("agência 1282-0 conta corrente 98015-9").
_THAI_ACCOUNT_MARK = viewed_words("บัญชี")[0]
_CBU_DIGITS = lazy_compile(r"(?<![0-9])[0-9](?:[0-9]| (?=[0-9])){21,28}(?![0-9])")  # 22 digits, maybe in groups
_CBU_WEIGHTS = (7, 1, 3, 9, 7, 1, 3)
_CBU_LENGTH = 22
_CBU_ACCOUNT_WEIGHTS = (3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3)
_KOREAN_BANK = lazy_compile(
    r"[가-힣]{1,8}(?:은행|뱅크)[ \t]*+(?:계좌(?:[ \t]*+번호)?)?[ \t]*+[:：]?[ \t]*+"
    r"(?P<value>[1-9][0-9]{1,5}(?:-[0-9]{2,8}){1,3}|[1-9][0-9]{9,13})(?![0-9\-])"
)
_KOREAN_DIGITS = (10, 14)  # a Korean account's digits, its dashes apart
_INDONESIAN_BANKS = (
    "bca|bni|bri|mandiri|bsi|btn|cimb(?: niaga)?|permata|danamon|jago|seabank|bjb|ocbc|maybank|panin"
    "|public bank|rhb|hong leong|ambank|bank islam|bsn|affin|alliance bank|bank rakyat"  # Malaysia's, after "akaun"
)
_INDONESIAN_ACCOUNT = lazy_compile(
    r"(?<![^\W\d_])(?:rekening|rek\.|akaun|(?:di)?transfer(?:kan)? ke(?: rekening| akaun)?)[ \t]++(?:bank[ \t]++)?"
    rf"(?:{_INDONESIAN_BANKS})[ \t]*+[:#]?[ \t]*+(?P<value>[0-9](?:[0-9]|[ \-.](?=[0-9])){{9,19}})(?![0-9])"
)
_BRAZILIAN_ACCOUNT = lazy_compile(
    r"(?<![^\W\d_])ag(?:ência|encia|\.)[ \t]*+(?:n[º°o]\.?)?[ \t]*+:?[ \t]*+[0-9]{3,5}(?:-[0-9xX])?[ \t]*+"
    r"[,;/|]?[ \t]*+"
    r"(?:e[ \t]++)?(?:c/c|cc|conta(?:[ \t]++(?:corrente|poupança|poupanca))?)[ \t]*+(?:n[º°o]\.?)?[ \t]*+:?[ \t]*+"
    r"(?P<value>[0-9]{3,12}-[0-9xX])(?![0-9\-])(?![ \t]*+\(?[ \t]*+pj\b)"  # not a company's ("conta 98321-4 (PJ, ...")
)


# - a Thai bank's account after "บัญชี" (an account) and the bank's name, in its dashed groups or as ten digits
#   ("โอนเข้าบัญชีกสิกรไทย 184-8-87341-0"), and a Vietnamese one after "tài khoản" and the bank's name ("chuyển vào
#   tài khoản Vietcombank 0011004091180"): reviewer CH.
_THAI_BANKS = _viewed(
    "กสิกรไทย", "ไทยพาณิชย์", "กรุงไทย", "ทหารไทยธนชาต", "ทีทีบี", "ยูโอบี", "ซีไอเอ็มบี", "เกียรตินาคิน", "ทิสโก้",
)  # fmt: skip
# ... Bangkok's and Ayutthaya's, the Government Savings Bank's names only after "ธนาคาร" (a bank): "ฝ่ายบัญชีกรุงเทพ" is an
# accounting department in Bangkok (the attacker's round on reviewer CH's readers), as "ฝ่ายบัญชี" before any name is
_THAI_PLACE_BANKS = _viewed("กรุงเทพ", "กรุงศรีอยุธยา", "กรุงศรี", "ออมสิน", "ธนชาต")
_THAI_ACCOUNT = lazy_compile(
    "(?<!"
    + _viewed("ฝ่าย")
    + ")(?<!"
    + _viewed("แผนก")
    + ")"
    + _viewed("บัญชี")
    + "(?:(?:"
    + _viewed("ธนาคาร")
    + ")[ \t]*+(?:"
    + _THAI_PLACE_BANKS
    + ")|(?:"
    + _viewed("ธนาคาร")
    + ")?[ \t]*+(?:"
    + _THAI_BANKS
    + "|kbank|scb|ktb|ttb))"
    r"[ \t]*+(?:" + _viewed("เลขที่") + r")?[ \t]*+[:：]?[ \t]*+"
    r"(?P<value>[0-9]{3}(?P<sep>[ \-])[0-9](?P=sep)[0-9]{5}(?P=sep)[0-9]|[0-9]{10})(?![0-9\-])"
)
# (not an account's balance, fee, limit or order, "Số dư tài khoản Techcombank 12500000 đồng"; not an amount in dong
# nor a hotline's 1900 or 1800 number: the attacker's round on reviewer CH's readers)
_VIETNAMESE_ACCOUNT = lazy_compile(
    r"(?<!s[ốo] d[ưu] )(?<!ph[íi] )(?<!m[ứu]c )(?<!h[àa]ng )"
    r"(?<![^\W\d_])(?:t[àa]i[ \t]+kho[ảa]n|tk)[ \t]+(?:ng[âa]n[ \t]+h[àa]ng[ \t]+)?"
    r"(?:vietcombank|vcb|vietinbank|bidv|agribank|techcombank|mb ?bank|mb|acb|vpbank|tpbank|sacombank|shb|hdbank|vib|"
    r"ocb|msb|seabank|eximbank|lpbank|lienvietpostbank|timo)(?![^\W\d_])[ \t]*+[:：\-–]?[ \t]*+"
    r"(?:s[ốo][ \t]*+:?[ \t]*+)?"
    r"(?!1[89]00)(?P<value>[0-9]{6,19})(?![0-9])(?![ \t]*(?:đồng|đ(?![^\W\d_])|vnđ|vnd|₫|/))"
)


# A Czech or Slovak account with its bank's code anywhere in a text that speaks of one in Czech or Slovak ("Platbu
# pošlete na účet 3707634174/0100", "Bankovní spojení: 8435022133/2010", "Č. ú.: 6754793745/0300"), valid by its
# check digits and its bank's code (see _czech_account): the attacker's round on reviewer CH's readers.
_CZECH_VALUE = lazy_compile(r"(?<![0-9/\-])(?:[0-9]{1,6}-)?[0-9]{2,10}/[0-9]{4}(?![0-9/])")
_CZECH_WORDS = lazy_compile(r"(?<![^\W\d_])(?:[úu][čc](?:et|tu|te|ty)|[čc]\.[ \t]?[úu]\.|spojen[íi]|[úu]čet)")


def _czech_accounts(text: str, lower: str) -> list[Hit]:
    if "/" not in text or _CZECH_WORDS.search(lower) is None:
        return []
    found: list[Hit] = []
    for match in _CZECH_VALUE.finditer(text):
        named = _CZECH_NAMED.search(lower, max(0, match.start() - _CZECH_BACK), match.start()) is not None
        if _czech_account(match.group(), named):
            found.append(("BANK_ACCOUNT", *match.span()))
    return found


# the account's word right before it: "účtu 25-...", "č. ú.: ..."
_CZECH_NAMED = lazy_compile(r"(?<![^\W\d_])(?:[úu][čc](?:et|tu)|[čc]\.[ \t]?[úu]\.)[ \t:]*$")
_CZECH_BACK = 16


def _checked_accounts(text: str, lower: str) -> list[Hit]:
    """Czech, Slovak and Serbian accounts, read by their check digits in text that speaks of an account, and those
    named by a word of their country's (_labelled_checked_accounts)."""
    found = _czech_accounts(text, lower)
    if any(word in lower for word in _CHECKED_WORDS):
        found += _labelled_checked_accounts(lower)
    if "ra" in lower or not text.isascii():
        found += _serbian_accounts(text, lower)
    return found


def _thai_and_vietnamese_accounts(text: str, lower: str) -> list[Hit]:
    matches: list[re.Match[str]] = []
    if _THAI_ACCOUNT_MARK in lower:
        matches += _THAI_ACCOUNT.finditer(lower)
    if "kho" in lower or "tk" in lower:
        matches += _VIETNAMESE_ACCOUNT.finditer(lower)
    return [
        ("BANK_ACCOUNT", *match.span("value"))
        for match in matches
        if _plausible(text, match["value"], match.end("value")) and _DATE_LIKE.fullmatch(match["value"]) is None
    ]


# Accounts named by their country's own word and valid by their check digits (reviewer CL): Morocco's RIB (24 digits,
# the whole number 0 modulo 97: "RIB ديالو 007 450 6936444209882625 55"), Mozambique's and Portugal's NIB (21 digits, 1
# modulo 97, as an IBAN's: "NIB do cliente 0011 1995 60890672844 29"), Peru's CCI (20 digits, a check digit for the bank
# and branch and one for the account: "CCI 003-367-505326778452-02").
_CHECKED_LABEL = lazy_compile(r"(?<![^\W\d_])(?P<label>rib|nib|cci)(?![^\W\d_])")
_CHECKED_VALUE = lazy_compile(r"(?<![0-9])[0-9]{2,}(?:[ \-.][0-9]{1,})*+(?![0-9])")
_CHECKED_REACH = 40


def _labelled_checked_accounts(lower: str) -> Iterator[Hit]:
    for label in _CHECKED_LABEL.finditer(lower):
        value = _CHECKED_VALUE.search(lower, label.end(), min(len(lower), label.end() + _CHECKED_REACH))
        if value is None or "\n" in lower[label.end() : value.start()]:
            continue
        digits = "".join(char for char in value.group() if char.isdigit())
        kind = label["label"]
        groups = tuple(len(group) for group in re.split(r"[ \-.]", value.group()))
        if groups not in _CHECKED_LAYOUTS[kind]:
            continue  # numbers side by side that only add up ("Rib weights 1250 1300 1475 ...": an attacker's round)
        # a bank's code leads NIB's and CCI's digits, "0" first (not a batch's or a lot's dated number, "CCI batch
        # 2024061110300000005...": an attacker's round)
        if (
            (kind == "rib" and len(digits) == _RIB_DIGITS and int(digits) % 97 == 0)
            or (kind == "nib" and len(digits) == _NIB_DIGITS and digits[0] == "0" and int(digits) % 97 == 1)
            or (kind == "cci" and digits[0] == "0" and _cci_valid(digits))
        ) and not placeholder_digits(digits):
            yield "BANK_ACCOUNT", *value.span()


_RIB_DIGITS, _NIB_DIGITS, _CCI_DIGITS = 24, 21, 20
# How each is written: whole, or in its parts (bank, branch or city, account, key)
_CHECKED_LAYOUTS = {
    "rib": {(_RIB_DIGITS,), (3, 3, 16, 2)},
    "nib": {(_NIB_DIGITS,), (4, 4, 11, 2)},
    "cci": {(_CCI_DIGITS,), (3, 3, 12, 2)},
}


def _cci_valid(digits: str) -> bool:
    """Peru's CCI: bank (3), branch (3), account (12), then a check digit of the first six and one of the account's
    twelve, each ten less the sum of the digits of its digits weighted 1, 2, 1, 2 ... (modulo 10)."""
    if len(digits) != _CCI_DIGITS:
        return False

    def check(part: str) -> int:
        total = sum(sum(divmod(int(char) * (1 + index % 2), 10)) for index, char in enumerate(part))
        return (10 - total % 10) % 10

    return check(digits[:6]) == int(digits[18]) and check(digits[6:18]) == int(digits[19])


def _national_accounts(text: str, lower: str) -> Iterator[Hit]:
    found = _thai_and_vietnamese_accounts(text, lower) + _checked_accounts(text, lower)
    if "cbu" in lower or "cvu" in lower or "c.b.u" in lower or "clave bancaria" in lower:
        for match in _CBU_DIGITS.finditer(lower):
            if _cbu_valid(match.group().replace(" ", "")) and _cbu_named(lower, match.start()):
                found.append(("BANK_ACCOUNT", *match.span()))
    if "은행" in text or "뱅크" in text:
        for match in _KOREAN_BANK.finditer(text):
            value = match["value"]
            digits = value.replace("-", "")
            if (
                _KOREAN_DIGITS[0] <= len(digits) <= _KOREAN_DIGITS[1]
                and (value.count("-") >= 2 or "-" not in value)  # (a registration's "110111-0672538", "2024-123456")
                and _KOREAN_OTHER.fullmatch(value) is None
            ):
                found.append(("BANK_ACCOUNT", *match.span("value")))
    if "rek" in lower or "transfer" in lower or "akaun" in lower:
        for match in _INDONESIAN_ACCOUNT.finditer(lower):
            value = match["value"]
            if (
                _plausible(text, value, match.end("value"))
                and _DATE_LIKE.search(value) is None
                and not lower.startswith(":", match.end("value"))
                and _HOTLINE.match(value) is None
            ):
                found.append(("BANK_ACCOUNT", *match.span("value")))
    if "ag" in lower:
        for match in _BRAZILIAN_ACCOUNT.finditer(lower):
            if not placeholder_digits(match["value"]):
                found.append(("BANK_ACCOUNT", *match.span("value")))
    # (none where the line shows an example or a form's format: "Ex.: agência 1234, conta 12345-6", "Cuenta de ahorros
    # Bancolombia 300-123456-78 es el ejemplo del formulario": an attacker's round)
    yield from (hit for hit in found if not _example_line(lower, hit[1]))


# A Korean business's or company's registration number after its bank's name ("하나은행 114-81-45938 사업자 정보")
_ORDER_LINE = lazy_compile(_viewed("заказ", "заказа", "заказу") + r"|saldo|pesos|monto|importe|promedio")
_KOREAN_OTHER = lazy_compile(r"[0-9]{3}-[0-9]{2}-[0-9]{5}")  # (a year's "2024-123456" has one dash: refused above)
_HOTLINE = lazy_compile(r"1[ \-]?[3-9]00[ \-]")  # a bank's hotline ("akaun Maybank: 1-300-88-6688")
_CBU_REACH = 100  # characters before a CBU's digits read for its name, on their line
_CBU_OTHER = lazy_compile(
    r"operaci[óo]n|c[óo]digo|seguimiento|reclamo|pago|factura|cae|comprobante|transacci|ticket|pedido|orden|nro"
)
# A sample's, a template's or a form's words (the national readers' line; ledgers.py reads them before a record)
# (not a domain's name: an address "jan.dvorak72@seznam.example" or "x@example.com" on the line says nothing of an
# account after it: reviewer CW)
EXAMPLE_WORDS = lazy_compile(
    r"(?<![^\W\d_])(?<![.@])(?:ejemplo|exemplo|(?:example|exemple)(?!\.[a-z])|beispiel|esempio|sample|dummy|placeholder"
    r"|template|formato|format|layout|specimen|ex\.|preencha|contoh|misal"
    # (and the national readers' languages: Nordic, Finnish, Dutch, Polish, German, Turkish, Italian's facsimile, CJK)
    r"|exempel|eksempel|esimerkki|voorbeeld|przykład|muster|örnek|fac-simile|facsimile|例|예시|"
    + _viewed("образец", "образца", "пример", "приклад")
    + ")"
)


def _sample_or_order(lower: str, label: re.Match[str], value: re.Match[str]) -> bool:
    """A label that names an invoice or a balance as often ("счёт", "cuenta de ahorros") on a sample's line, or with an
    order's, a balance's or a sum's word around its number."""
    if label["rsb"] is None and label["savings"] is None:
        return False
    return _example_line(lower, value.start()) or _ORDER_LINE.search(lower, label.start(), value.end() + 48) is not None


def _cbu_named(lower: str, at: int) -> bool:
    """A CBU or CVU named before the digits on their line, no other number's word between."""
    low = max(lower.rfind("\n", max(0, at - _CBU_REACH), at) + 1, at - _CBU_REACH)
    before = lower[low:at]
    named = max(before.rfind(name) for name in ("cbu", "cvu", "c.b.u", "clave bancaria"))
    return named != -1 and _CBU_OTHER.search(before, named) is None


def _example_line(lower: str, at: int) -> bool:
    """A sample's or a form's word on the line around ``at``, within _EXAMPLE_REACH characters each side (the whole
    line, read again for each account of one long line, was quadratic: a round of attacks on the README's promises)."""
    low = max(0, at - _EXAMPLE_REACH)
    start = lower.rfind("\n", low, at) + 1 or low
    end = lower.find("\n", at, at + _EXAMPLE_REACH)
    return EXAMPLE_WORDS.search(lower, start, min(len(lower), at + _EXAMPLE_REACH) if end == -1 else end) is not None


_EXAMPLE_REACH = 120


def placeholder_digits(value: str) -> bool:
    """A form's digits: one or two digits over and over, or counting ("0000-0", "12345-6", "12345678")."""
    digits = "".join(char for char in value if char.isdigit())
    return bool(digits) and (len(set(digits)) <= _FEWEST_DIGITS or digits in _COUNTING or digits[:-1] in _COUNTING)


def _cbu_valid(digits: str) -> bool:
    """Argentina's CBU: a bank's and branch's eight digits and an account's fourteen, each block ending in its check
    digit (weights 7, 1, 3, 9 repeated, then 3, 9, 7, 1); twenty-two digits, no more (the digits' pattern takes groups
    of any length)."""
    if len(digits) != _CBU_LENGTH:
        return False
    bank = sum(int(digit) * weight for digit, weight in zip(digits[:7], _CBU_WEIGHTS, strict=True))
    account = sum(int(digit) * weight for digit, weight in zip(digits[8:21], _CBU_ACCOUNT_WEIGHTS, strict=True))
    return (
        (10 - bank % 10) % 10 == int(digits[7])
        and (10 - account % 10) % 10 == int(digits[21])
        and len(set(digits)) > _FEWEST_DIGITS
    )


def _shaped_for(label: re.Match[str], number: str, cyrillic: bool) -> bool:
    """A label read only as one shape of account reads that shape: a Russian settlement account's twenty digits in
    Cyrillic text, a Polish "rachunek"'s NRB."""
    if label["rs"] is not None:
        return cyrillic and _russian_account(number)
    if label["rsb"] is not None:
        digits = number.replace(" ", "").replace("-", "").replace(".", "")
        return cyrillic and _russian_account(number) and digits.startswith(_PERSONS_ACCOUNTS)
    return label["nrb"] is None or _nrb(number)


# The balance accounts a person's money is held in: a resident's and a non-resident's current accounts, an
# entrepreneur's, deposits (the Bank of Russia's chart of accounts)
_PERSONS_ACCOUNTS = ("40817", "40820", "40802", "423", "426")


def _not_a_banks_label(between: re.Match[str], label: re.Match[str]) -> bool:
    """Capitals before the colon that are no bank's ("Savings account EUR: 12500000", "Nomor rekening CIF: 0012345678"),
    or Tagalog's "namin" after a label that names no bank ("PLDT account number namin: 0298...", a bank named elsewhere
    only): attackers' rounds."""
    if between["tl"] is not None and _SELF_BANKED.search(label.group()) is None:
        return True
    return between["initials"] is not None and between["initials"] in _NOT_A_BANKS_INITIALS


# The words between a label and its number in a sentence ("numer rachunku bankowego 35 1058 ...", "số tài khoản ngân
# hàng 1119458453", "רقم الحساب البنكي للتحويل الدائم هو 01491398": reviewer BR): up to five words with no digit,
# none that names another number or what the account is of.
_WORDS_ON = lazy_compile(r"(?:[^\W\d_][^\s\d]{0,31}[ \t]+){1,5}(?=[0-9])")
_ANOTHER_NUMBER = lazy_compile(
    r"(?<![^\W\d_])(?:routing|sort|aba|bsb|ifsc|iban|bic|swift|blz|transit|branch|code|invoice|order|ticket|ref|"
    r"reference|amount|balance|sum|total|date|card|phone|tel|mobile|customer|client|policy|claim)(?![^\W\d_])"
    # the same in Arabic and Persian, whose prefixes glue to the word ("رقم الحساب المصرفي للطلب 10023456": the
    # order's; an attacker's round)
    r"|طلب|فاتور|تذكر|مرجع|مبلغ|رصيد|بطاق|هاتف|جوال|عميل|سفارش|فاکتور|مشتری|تلفن"
)


# What the account is for, in words, then a colon ("nr konta do zwrotu nadpłaty: 26 1050 ...", "STK nhận tiền bồi
# thường: 5294...": reviewer BV): two words or more, the last of four letters or more, the colon only at their end.
_CLAUSE_COLON = lazy_compile(r"(?:[^\W\d_][^\s\d:]{0,31}[ \t]+){1,4}[^\W\d_][^\s\d:]{3,31}:[ \t]+")


# The stems of the words that name a number, in the languages read: any of them in the clause before a colon names
# the number after it as another's.
_OTHER_NUMBER_STEM = lazy_compile(
    # ("ref" a reference's, not a refund's: "Kontonummer for refusjon: 3000.02.42906", reviewer CI)
    r"num|nr\b|no\b|nomor|nummer|numéro|número|id\b|code|kode|código|codice|ref(?!und|usj|us[ií])|resi|pesanan|"
    r"tiket|polis|"
    r"transaksi|kontrak|booking|ordine|order|invoice|factur|rechnung|vertrag|bestell|kunde|klant|client|member|"
    r"employee|vendor|user|confirmation|application|ticket|policy|claim|contract|document|case|tracking|request|"
    r"shipment|aktenzeichen|h[ợo]p [đd][ồo]ng|s[ốo]\b|" + _viewed("номер", "документ", "договор", "счет-фактур")
)


def _value_words_on(lower: str, text: str, start: int) -> re.Match[str] | None:
    words = _WORDS_ON.match(lower, start)
    if words is None or _ANOTHER_NUMBER.search(words.group()) or _OTHER_NUMBER_STEM.search(words.group()):
        return None
    if ":" in words.group() and (
        _CLAUSE_COLON.fullmatch(words.group()) is None or _OTHER_NUMBER_STEM.search(words.group()) is not None
    ):
        # (a colon between: another field's label, "account no. IT: 44121900"; another number's, in any language:
        # "Bankkonto noch nicht hinterlegt, bitte Kundennummer: 24585630", "no. rek. tujuan salah, nomor resi:
        # 5328...": an attacker's round)
        return None
    return _ACCOUNT_DIGITS.match(text, words.end())


def _bare_beside(lower: str, label: re.Match[str], value_end: int | None = None) -> str | None:
    """What names an account named alone a bank's: its bank's branch on its line within _BRANCH_REACH characters
    ("branch"); else, with its number's end known, a bank or a bank's payment right before the label or a bank right
    after the number ("bank": "direct deposit acct 540412509974", "Bank: Chase, acct ...", "acc 0987654321 axis bank",
    "account 3819204471 at Frost Bank": reviewer CH); else None. Not a bank named elsewhere on the line ("Mobile
    account 7712345678 billed; payment via bank card", "Bankleitzahl fehlt. Please check account 90817263": attackers'
    rounds)."""
    # (a window of the line around the label: the whole line, searched once per label, made a line of many
    # labels quadratic: an attacker's round)
    low = max(
        lower.rfind("\n", max(0, label.start() - _BRANCH_REACH), label.start()) + 1, label.start() - _BRANCH_REACH
    )
    high = lower.find("\n", label.end(), label.end() + _BRANCH_REACH)
    high = label.end() + _BRANCH_REACH if high == -1 else high
    if label["bare"] in _ACCOUNT_KINDS:
        # "checking" and "savings" name an account only beside a routing number that is one: nine digits whose
        # check digit holds ("routing 085879382, checking 3820019475": reviewer CW; "Call routing 2500 calls per day,
        # savings 125000000" is a dashboard's: an attacker's round)
        # (on the line before too: a form's "Routing: 085879382\nChecking: 3820019475", an attacker's round)
        before = max(0, label.start() - _BRANCH_REACH)
        return "branch" if any(aba_valid(found[1]) for found in _ROUTING_NINE.finditer(lower, before, high)) else None
    if _BRANCH_LINE.search(lower, low, high) is not None:
        return "branch"
    if value_end is None or label["bare"] not in _BARE_BESIDE_A_BANK:
        return None
    if _BANK_BEFORE_BARE.search(lower, low, label.start()) is not None:
        return "bank"
    return "bank" if _BANK_AFTER_BARE.match(lower, value_end) is not None else None


_ACCOUNT_KINDS = frozenset({"checking", "savings"})
_ROUTING_NINE = lazy_compile(
    r"(?<![^\W\d_])(?:routing|aba)(?: number| no\.?)?[ \t]*+(?:#[ \t]*+)?:?[ \t]*+([0-9]{9})(?![0-9])"
)


# The labels read beside a bank's name: English's (Spanish's "cuenta", French's "compte", Portuguese's "conta" are
# verbs too, "El Banco Santander cuenta con 17800000 tarjetas"); "a/c" only here, right after a bank's name ("Co-op
# Bank a/c 0111...": reviewer CL), as alone it is air conditioning ("lobby a/c serial ...": the attacker's round on
# reviewer CH's readers)
_BARE_BESIDE_A_BANK = frozenset({"acct", "acc", "account", "a/c"})


# A bank by a word for one (not a snowbank's, a data bank's, a bank's card, statement, holiday or street), or a payment
# into an account: a direct deposit, a wire transfer (not "transfer to" alone, a ledger's as often: "transferred to
# account 40100000 Sales Revenue", the attacker's round on reviewer CH's readers)
_BARE_BANK = (
    r"(?<![^\W\d_])(?:(?<!memory )(?<!blood )(?<!food )(?<!power )(?<!river )(?<!data )(?<!sperm )bank|banka|banco"
    r"|banque|banca|sparkasse|credit union)"
    r"(?![^\W\d_]|[ \t]*(?:statement|card|holiday|street|st\.|road|museum|'s))"
)
# ... or a bank's own name, one that names nothing else ("BDO account 5270-4150-53", "my Monzo account ...": reviewer
# CI and the attacker's round on CH's readers; not "Chase", a verb too: "chase account 40817263 for the invoice")
_BANK_NAMES = (
    "bdo|bpi|landbank|sbi|hdfc|icici|kotak|hsbc|barclays|lloyds|natwest|halifax|santander|monzo|revolut|starling|n26|"
    "bunq|wells fargo|citibank|bofa|dbs|posb|ocbc|uob|maybank|cimb|rbc|scotiabank|bmo|cibc|westpac|commbank|abn amro|"
    "rabobank|bnp paribas|unicredit|intesa sanpaolo|bbva|caixabank|nubank|itaú|itau|bradesco|kcb|absa|fnb|capitec|"
    "standard chartered|gcash|"
    # Nigeria's and Kenya's (reviewer CL: "GTBank acct 5124164224", "Equity a/c 0250305756921")
    "gtbank|gtb|first bank|firstbank|zenith bank|access bank|uba|fidelity bank|stanbic|opay|kuda|moniepoint|"
    "equity bank|co-op bank|ncba|dtb"
)
# ... right before the label: at most two words between, no stop ("Bank: Chase, acct", "direct deposit acct", "wire
# transfer to acct", "Frost Bank business account")
_BANK_BEFORE_BARE = lazy_compile(
    rf"(?:{_BARE_BANK}|(?<![^\W\d_])(?:direct deposit|wire[ \-]transfer(?: to)?|(?:{_BANK_NAMES})(?![^\W\d_])))"
    r"[ \t]*[:,\-–—]?(?:[ \t]*[^\W\d_][\w&'.]*[ \t]*,?){0,2}[ \t]*$"
)
# ... right after the number, a bank's name and its word: "axis bank", "at Frost Bank", "(Wells Fargo Bank)"; not an
# account's name in a ledger ("Cash at Bank")
_BANK_AFTER_BARE = lazy_compile(
    r"[ \t]*(?:[(\-–—][ \t]*)?(?:(?:at|with|from)[ \t]+)?(?:the[ \t]+)?"
    rf"(?!cash[ \t])(?:[^\W\d_][\w&'.]*[ \t]+){{0,2}}{_BARE_BANK}"
)


def _bare_banked(lower: str, label: re.Match[str], value: re.Match[str]) -> bool:
    """An account named alone is read beside its branch, or beside its bank when its number is long enough, follows
    the label right away ("HSBC account holders passed 39500000 worldwide" is a count: the attacker's round on reviewer
    CI's readers) and no ledger's word follows it on its line ("wire transfer to acct 40010000 (suspense, ...)")."""
    beside = _bare_beside(lower, label, value.end())
    if beside == "branch":
        return True
    if (
        beside != "bank"
        or sum(char.isdigit() for char in value.group()) < _BARE_DIGITS
        or _RIGHT_AFTER_LABEL.fullmatch(lower, label.end(), value.start()) is None
    ):
        return False
    end = lower.find("\n", value.end(), value.end() + _LEDGER_REACH)
    return _LEDGER_AFTER.search(lower, value.end(), value.end() + _LEDGER_REACH if end == -1 else end) is None


_FEW_WORDS = lazy_compile(r"[ \t]*(?:[^\W\d_]+[ \t]+){0,1}[^\W\d_]+[ \t]*:[ \t]*")
# Between an account named alone and its number beside a bank: a number's word, a colon or a hash, nothing else
_RIGHT_AFTER_LABEL = lazy_compile(rf"[ \t]*(?:{_NUMBER_WORD})?[ \t]*[:#]?[ \t]*")
# A ledger's words after an account's number: its chart's, a suspense or clearing account's (the attacker's round)
_LEDGER_AFTER = lazy_compile(
    r"(?<![^\W\d_])(?:chart of accounts|suspense|clearing|reconciliation|ledger|gl|g/l|journal|cost cent(?:er|re)"
    r"|budget|exhibition|museum)(?![^\W\d_])"
)
_LEDGER_REACH = 64


# The fewest digits of an account named alone beside a bank's name but no branch's number ("acct 4521" is a
# ticket's as often)
_BARE_DIGITS = 8


_BANK_RIGHT_BEFORE = lazy_compile(rf"(?<![^\W\d_])(?:{_BANK_NAMES})[ \t]+$")
# ... a system that keeps accounts of its own, or a card's, a ledger's (the line after the number)
_NOT_A_BANKS_AFTER = lazy_compile(
    r"(?<![^\W\d_])(?:salesforce|crm|hubspot|zendesk|okta|azure|aws|tenant|subscription|merchant|pos|card|ledger|"
    r"gl|invoice|isa|portfolio|shares?|stock|sap|erp|customer master|harvest|netsuite|quickbooks|xero|billing)"
    r"(?![^\W\d_])"
)


def _named_a_bank(lower: str, label: re.Match[str], banked: bool) -> bool | None:
    """Whether the label's account is a bank's: the text names a bank or the label does (False: only a Norwegian
    account, valid by its check digit, is read: "Betal til kontonummer 9278.77.89325", an attacker's round); an
    account named alone is True here: find_bank_numbers reads it only beside its branch or its bank (_bare_banked)."""
    if label["bare"] is not None:
        return True  # read on (see find_bank_numbers): beside its branch or its bank only
    if banked or _SELF_BANKED.search(label.group()) is not None:
        return True
    # a bank's own name right before the label, blanks only between ("Wells Fargo acct# 2664732572": reviewer DC; not
    # "Client: HSBC, account number ... in Salesforce", "Wells Fargo Center account number", "HSBC Okta tenant account
    # number", "Account Name: Barclays" on the line before: an attacker's round), no ledger's word after on its line
    if _BANK_RIGHT_BEFORE.search(lower, max(0, label.start() - _BRANCH_REACH), label.start()) is not None:
        end = lower.find("\n", label.end())
        return _NOT_A_BANKS_AFTER.search(lower, label.end(), len(lower) if end == -1 else end) is None
    return False if "." in lower[label.end() : label.end() + _GAP + 16] else None


def _a_label(lower: str, label: re.Match[str]) -> bool:
    """Not a ledger's, a cloud's or a service's account, nor an id's prefix."""
    low = max(0, label.start() - 24)
    before = lower[max(low, lower.rfind("\n", low, label.start()) + 1) : label.start()]
    if before.endswith("/") or _NOT_A_BANK.search(before) is not None:
        return False  # "Routing/Account:", "GL account no.", "AWS account #"
    # an id's prefix ("ACCT-0099-1832"), not a label
    return not (lower.startswith("-", label.end()) and not lower.startswith("- ", label.end()))


# A record's field named for an account's number (JSON, YAML, XML, a query string: "account_number": "123456789",
# "accountNumber", "acctNo", <AccountNumber>, accountnumber=...), in a record that names a bank by a field or a
# value ("bank", "bankName", "iban", "routing", "sort_code", "ifsc", "swift"): an attacker's round.
_FIELD = lazy_compile(
    # whose account, before it ("debtor_account_number", "creditor_account_no": a payment's, reviewer BU)
    # (an e-filed return's depositor: <DepositorAccountNum>, reviewer CD)
    r"""(?<![a-z0-9_\-])(?:(?:debtor|creditor|beneficiary|payee|payer|sender|recipient|remitter|holder|depositor)"""
    r"""[_\-]?)?"""
    r"""(?:(?:bank_?)?(?:account|acct)[_\-]?(?:number|num|nbr|no)"""
    # the same in the languages exports are written in ("numero_compte" beside "routing_number": reviewer BW)
    r"""|num[eé]ro_?(?:de_?)?(?:compte|cuenta|conta|conto)|kontonummer|rekeningnummer|nomor_?rekening"""
    r"""|numer_?(?:konta|rachunku))(?![a-z0-9])"""
    r"""(?:["']?[ \t]*[:=][ \t]*["']?|>)(?=[0-9])"""
)
_FIELD_BANK = lazy_compile(r"bank|iban|routing|sort_?code|sortcode|ifsc|swift|\bbic\b")
# Or, on the field's own line, money paid to a person: a payroll's or a payout's record that names the employee, the
# beneficiary or the payee ("INFO payroll.export employee=E67374 account_number=11558796": reviewer BY); not a payroll
# word elsewhere in the text, a ledger's posting for a payroll run, a cloud account named "payroll-prod" or a utility's
# "payoutSchedule" (an attacker's round).
_PAID = lazy_compile(r"(?<![a-z])(?:payroll|payouts?)(?![a-z])")
_PAID_TO = lazy_compile(r"(?<![a-z])(?:employee|beneficiary|payee)(?![a-z])")
_PAID_REACH = 256  # characters of the field's line read before it
_NUMBER_TAILS = ("num", "nbr", "no")  # "num" starts "number" too: the gate finds words where they start
# The gate's words: every English spelling the field's pattern reads ("account_number", "acct-no", "accountnum"...),
# and the other languages' as exports write them
_FIELD_WORDS = index_words(
    *(f"{head}{join}{tail}" for head in ("account", "acct") for join in ("_", "-", "") for tail in _NUMBER_TAILS),
    *(f"numero{join}{noun}" for join in ("_", "", "_de_") for noun in ("compte", "cuenta", "conta", "conto")),
    "kontonummer", "rekeningnummer", "nomor_rekening", "nomorrekening", "numer_konta", "numerkonta", "numer_rachunku",
    *(f"depositor{join}account{join}{tail}" for join in ("_", "-", "") for tail in _NUMBER_TAILS),
)  # fmt: skip


# Fields named in other languages count only beside a field that is a bank's own number or name ("routing_number",
# "iban", "bic", "banco"), not a message queue's "routing_key", a language called Swift or a "databank" (an attacker's
# round on reviewer BW's readers).
_FIELD_BANK_STRICT = lazy_compile(
    r"(?<![a-z0-9_])(?:routing_?(?:number|no|num)|aba_?(?:number|routing)?|iban|bic|swift_?(?:code|bic)|sort_?code"
    r"|ifsc|bank_?(?:name|code|id)|banco|banque|banca|bankleitzahl|blz)[\"']?[ \t]*[:=]"
)  # as a field's name, not a word in a value ("libelle": "Banque BNP c/c", "source": "bank_statement_import")
_FOREIGN_FIELD = lazy_compile(r"num[eé]ro|konto|rekening|numer|nomor")


def find_bank_fields(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    banked = _FIELD_BANK.search(lower) is not None
    if not banked and _PAID.search(lower) is None:
        return
    strict: bool | None = None
    for field in _FIELD.finditer(lower):
        foreign = _FOREIGN_FIELD.match(lower, field.start()) is not None
        if not banked and (foreign or not _paid_on_line(lower, field.start())):
            continue
        if foreign:
            if strict is None:
                strict = _FIELD_BANK_STRICT.search(lower) is not None
            if not strict:
                continue
        value = _ACCOUNT_DIGITS.match(scan.text, field.end())
        if value is not None and _plausible(scan.text, value.group(), value.end()):
            yield ("BANK_ACCOUNT", *value.span())


def _paid_on_line(lower: str, at: int) -> bool:
    """The field's line, up to it, holds a payroll's or a payout's record of a payment to a person."""
    low = max(lower.rfind("\n", max(0, at - _PAID_REACH), at) + 1, at - _PAID_REACH, 0)
    return _PAID.search(lower, low, at) is not None and _PAID_TO.search(lower, low, at) is not None


def may_hold_bank_field(scan: Scan) -> bool:
    return not _FIELD_WORDS.isdisjoint(scan.words)


_FEWEST_DIGITS = 2
_SHORTEST_ACCOUNT, _LONGEST_ACCOUNT, _NRB_DIGITS = 7, 20, 26
_NORWEGIAN = lazy_compile(r"[0-9]{4}\.[0-9]{2}\.[0-9]{5}")
_NORWEGIAN_WEIGHTS = (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
_MOD11 = 11


def _norwegian_account(value: str) -> bool:
    """Dotted groups are Norway's: four, two and five digits, the last a check digit by modulus 11 (a made-up
    "1503.12.34567" in a text that explains the format is none: reviewer AL)."""
    if _NORWEGIAN.fullmatch(value) is None:
        return False
    digits = [int(char) for char in value if char != "."]
    check = _MOD11 - sum(digit * weight for digit, weight in zip(digits, _NORWEGIAN_WEIGHTS, strict=False)) % _MOD11
    return (0 if check == _MOD11 else check) == digits[10]


# (its groups may be set apart by blanks, dots or dashes: "137.150.66761926865.1", reviewer CL)
_CLABE = lazy_compile(r"(?<![0-9])[0-9](?:[ .\-]?[0-9]){17}(?![0-9])")
_CLABE_REACH = 48  # characters between the label and the CLABE's start, at most
_CLABE_WRITTEN = 24  # ... and its length, its groups set apart
_CLABE_WEIGHTS = (3, 7, 1) * 6
_CLABE_DIGITS = 18


def _clabe_after(text: str, at: int) -> Iterator[Hit]:
    """A CLABE a few words after its label ("Cuenta CLABE para devolución: 0021..."), valid by its control digit."""
    clabe = _CLABE.search(text, at, min(len(text), at + _CLABE_REACH + _CLABE_WRITTEN))
    near = clabe is not None and clabe.start() <= at + _CLABE_REACH and "\n" not in text[at : clabe.start()]
    # (not a template of zeros nor a dated folio: "000-000-00000000000-0", "folio 2024-06-11-103000-1205": an attacker's
    # round)
    if clabe is not None and near and _clabe(clabe.group()) and not _not_a_clabe(clabe.group()):
        yield ("BANK_ACCOUNT", *clabe.span())


def _not_a_clabe(value: str) -> bool:
    digits = "".join(char for char in value if char.isdigit())
    return placeholder_digits(digits) or digits.count("0") >= _CLABE_ZEROS or _DATED.match(value) is not None


_CLABE_ZEROS = 14  # zeros of eighteen digits: a template's
_DATED = lazy_compile(r"(?:19|20)[0-9]{2}[\-./]?[01][0-9][\-./]?[0-3][0-9]")


def _clabe(value: str) -> bool:
    """Mexico's CLABE: eighteen digits, the last a control digit (weights 3, 7, 1 modulo 10), led by a bank's code
    (Banxico's institution numbers: banks 0xx and 1xx, other participants 6xx; not a customer's, a ticket's or an
    order's number that passes the control digit, as one in ten does: "número de cliente es 900123456781234564",
    "ticket de soporte 271828182845904520" after "CLABE", an attacker's round)."""
    digits = [int(char) for char in value if char.isdigit()]
    if len(digits) != _CLABE_DIGITS or digits[0] not in (0, 1, 6):
        return False
    total = sum(digit * weight % 10 for digit, weight in zip(digits[:17], _CLABE_WEIGHTS, strict=False))
    return (10 - total % 10) % 10 == digits[17]


# Japan's account: its kind, then seven digits, a few characters after a word that names an account or a bank on
# its line ("振込口座：○○銀行 渋谷支店 普通 8325641": reviewer BV); not an amount, a count or a ledger's balance
# ("残高メモ：三菱UFJ銀行 普通預金 6300000円", "銀行 普通 2024001 件目", "試算表（銀行勘定）普通預金 4872310": an
# attacker's round).
_JAPANESE_KIND = lazy_compile(
    r"(?:普通|当座|貯蓄)(?:預金)?(?:口座)?[ \t]*[:：]?[ \t]*(?P<number>[0-9]{7})(?![0-9])"
    # (but "名義", the holder's name after the number: "普通 4901368 名義 伊藤 さくら", reviewer CP; not "名義変更", a
    # change of name's form: an attacker's round)
    r"(?![ \t]*(?:[円件個人枚台回日月年万千%号口]|名(?!義(?!変更))))"
)
_JAPANESE_BANK_REACH = 32
# (and a count's or a tally's: "口座数内訳: 普通 2345678 名義人ベース", "受付実績: 普通 1203344 名義変更": an
# attacker's round)
_JAPANESE_LEDGER = lazy_compile("勘定|残高|合計|試算|仕訳|元帳|口座数|件数|実績|内訳|[0-9][ \t]*円")
# ... nor a sample's number or an amount in yen written after it ("普通 1234567 は見本の番号です", "普通預金 1980500 JPY
# まで": the attacker's round on reviewer CI's readers)
_JAPANESE_NOT_AN_ACCOUNT = lazy_compile("[ \t]*(?:jpy|yen)|[^\n。]{0,16}(?:見本|サンプル|例)", re.IGNORECASE)


def _japanese_accounts(text: str) -> Iterator[Hit]:
    for kind in _JAPANESE_KIND.finditer(text):
        low = max(0, kind.start() - _JAPANESE_BANK_REACH)
        before = text[max(low, text.rfind("\n", low, kind.start()) + 1) : kind.start()]
        number = kind["number"]
        if (
            # (or a transfer's destination and its branch: "振込先：渋谷支店（店番135）普通 1993311": reviewer CI)
            ("口座" in before or "銀行" in before or ("振込" in before and "支店" in before))
            and _JAPANESE_LEDGER.search(before) is None
            and _JAPANESE_NOT_AN_ACCOUNT.match(text, kind.end()) is None
            and not number.endswith("0000")
            and len(set(number)) > _FEWEST_DIGITS
        ):
            yield ("BANK_ACCOUNT", *kind.span("number"))


# Letters only Vietnamese writes: its "STK" is an account's number; Danish's and Norwegian's "stk." counts pieces.
_VIETNAMESE = lazy_compile("[đĐơƠưƯạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]")
_CYRILLIC = lazy_compile("[\u0400-\u04ff]")
_RUSSIAN_ACCOUNT_DIGITS = 20


_SBERBANK_ONLY = lazy_compile(_viewed("сбербанк", "сбербанке", "сбербанка", "сбербанку"))
_BANK_WORD = lazy_compile(r"(?<![^\W\d_])(?:" + _viewed("банк", "банка", "банке") + r"|bank)(?![^\W\d_])")


def _sberbank_bill(lower: str, number: str) -> bool:
    """Only Sberbank names a bank and the number is no client's account: a bill's, paid through its online bank."""
    return not _russian_account(number) and _only_sberbank(lower)


@lru_cache(maxsize=4)
def _only_sberbank(lower: str) -> bool:
    # (once per text: read again for each account's label, the whole text was searched each time, an attacker's round)
    return _SBERBANK_ONLY.search(lower) is not None and not _BANK_WORD.search(lower)


def _russian_account(number: str) -> bool:
    """A Russian account's twenty digits, a client's (they start with 4: 408 a person's, 407 a company's, 423 a
    deposit), read in text written in Cyrillic: not the bank's correspondent account (301...), a document's or a
    contract's number, nor a Latin "p/c" ("Ingreso p/c Cía. Aseguradora": an attacker's round)."""
    digits = number.replace(" ", "").replace("-", "").replace(".", "")
    return len(digits) == _RUSSIAN_ACCOUNT_DIGITS and digits[0] == "4"


# The Czech Republic's and Slovakia's account: a prefix of up to six digits and a dash maybe, up to ten digits, the
# bank's four after a slash, each part valid by its weighted sum modulo 11 ("číslo účtu 43-4293441747/0800":
# reviewer CH)
_CZECH_ACCOUNT = lazy_compile(r"(?:(?P<prefix>[0-9]{1,6})-)?(?P<base>[0-9]{2,10})/[0-9]{4}")
_CZECH_WEIGHTS = (6, 3, 7, 9, 10, 5, 8, 4, 2, 1)


# The banks' codes of the Czech Republic's and Slovakia's clearing (a year or a count after a slash is none:
# "1000029/2024 in the asset register", the attacker's round)
_CZECH_BANK_CODES = frozenset((
    "0100", "0300", "0600", "0710", "0800", "2010", "2020", "2060", "2070", "2100", "2200", "2220", "2250", "2260",
    "2275", "2600", "2700", "3030", "3050", "3060", "3500", "4000", "4300", "5500", "5800", "6000", "6100", "6200",
    "6210", "6300", "6363", "6700", "6800", "7910", "7950", "7960", "7970", "7990", "8030", "8040", "8060", "8090",
    "8150", "8190", "8198", "8220", "8250", "8255", "8265", "8500", "0200", "0720", "0900", "1100", "1111", "3000",
    "3100", "5200", "5600", "5900", "6500", "7300", "7500", "8120", "8130", "8170", "8180", "8320", "8330", "8360",
    "8410", "8420", "9952",
))  # fmt: skip


def _czech_account(value: str, named: bool = False) -> bool:
    """A Czech or Slovak account's number with its bank's code, valid by its check digits: a bank's by its shape.
    ``named``: the account's word comes right before it, and a prefix that fails its own sum is taken with the number
    ("číslo účtu 25-2646574651/0100": reviewer CP); elsewhere such a prefix makes it no account ("doklad č.
    12-35/2010", a voucher's number and its year: an attacker's round)."""
    match = _CZECH_ACCOUNT.fullmatch(value)
    if match is None or not match["base"].strip("0") or value[-4:] not in _CZECH_BANK_CODES:
        return False
    parts = [match["base"].zfill(10)] + ([match["prefix"].zfill(10)] if match["prefix"] and not named else [])
    return all(sum(int(d) * w for d, w in zip(part, _CZECH_WEIGHTS, strict=True)) % 11 == 0 for part in parts)


# Hungary's account: two or three groups of eight digits, a dash or a blank apart ("bankszámlaszám 10742369-43694165-
# 30508501": reviewer CI), the first group and the rest each valid by its check digit (weights 9, 7, 3, 1, modulo 10).
_HUNGARIAN_ACCOUNT = lazy_compile(r"[0-9]{8}[ \-][0-9]{8}(?:[ \-][0-9]{8})?")
_GIRO_WEIGHTS = (9, 7, 3, 1)


def _hungarian_account(value: str) -> bool:
    if _HUNGARIAN_ACCOUNT.fullmatch(value) is None:
        return False
    digits = value.replace(" ", "").replace("-", "")
    return (
        all(
            sum(int(digit) * _GIRO_WEIGHTS[at % 4] for at, digit in enumerate(part)) % 10 == 0
            for part in (digits[:8], digits[8:])
        )
        and len(set(digits)) > _FEWEST_DIGITS
    )


# Serbia's account: a bank's three digits, the account's thirteen and two check digits (ISO 7064 MOD 97-10), dashes
# between ("текући рачун за повраћај: 160-1214799669129-28": reviewer CI)
# (a bank of Serbia's clearing first, five digits of the account at least; not after the words of a receipt's or an
# invoice's number, "Fiskalni račun broj 003-1187-88", "Račun br. 101-2024-54": the attacker's round on these readers)
_SERBIAN_ACCOUNT = lazy_compile(r"(?<![0-9\-])(?P<bank>[0-9]{3})[ \-][0-9]{5,13}[ \-][0-9]{2}(?![0-9\-])")
_SERBIAN_BANKS = frozenset((
    "105", "115", "125", "145", "150", "155", "160", "165", "170", "180", "190", "200", "205", "220", "250", "265",
    "275", "285", "295", "310", "325", "330", "340", "355", "360", "370", "375", "380", "840", "908",
))  # fmt: skip
_SERBIAN_WORDS = lazy_compile(
    r"(?<![^\W\d_])(?:teku[ćc]i ra[čc]un|ra[čc]una?|" + _viewed("текући рачун", "рачун", "рачуна") + r")(?![^\W\d_])"
    r"(?![ \t]*(?:br\.|broj|" + _viewed("бр.", "број") + r"))"
)
_NOT_SERBIAN_ACCOUNT = lazy_compile(r"fiskaln|" + _viewed("фискалн"))
_SERBIAN_REACH = 48


def _serbian_accounts(text: str, lower: str) -> list[Hit]:
    found: list[Hit] = []
    for match in _SERBIAN_ACCOUNT.finditer(text):
        bank, account, check = re.split("[ -]", match.group())
        number = bank + account.zfill(13)
        before = lower[max(0, match.start() - _SERBIAN_REACH) : match.start()]
        if (
            bank in _SERBIAN_BANKS
            and int(check) == 98 - int(number) * 100 % 97
            and len(set(number)) > _FEWEST_DIGITS
            and _SERBIAN_WORDS.search(before) is not None
            and _NOT_SERBIAN_ACCOUNT.search(before) is None
        ):
            found.append(("BANK_ACCOUNT", *match.span()))
    return found


def _nrb(value: str) -> bool:
    """Poland's NRB, its IBAN's 26 digits without "PL", valid by their check digits: an account's whatever the
    text around says ("nr konta do zwrotu nadpłaty: 26 1050 ...": reviewer BV)."""
    digits = value.replace(" ", "").replace("-", "")
    return len(digits) == _NRB_DIGITS and digits.isdigit() and iban_valid("PL" + digits)


def column_account(value: str) -> bool:
    """A cell under a column named for a bank account's number (see ``columns``): an account's digits alone."""
    return _ACCOUNT_DIGITS.fullmatch(value) is not None and _plausible(value, value, len(value))


def _plausible(text: str, value: str, end: int) -> bool:
    """An account's digits, not a date, an amount, a count, years or placeholder digits."""
    if "." in value and not _norwegian_account(value):
        return False
    value = value.partition("/")[0]  # the bank's code after a slash is no part of the account's own digits
    digits = value.replace(" ", "").replace("-", "").replace(".", "")
    # two digits alone: a round sum or a placeholder ("1000000000", "1212121212": an attacker's round)
    if len(digits) > _LONGEST_ACCOUNT and not (
        (len(digits) == _NRB_DIGITS and iban_valid("PL" + digits)) or _hungarian_account(value)
    ):
        return False  # but Poland's NRB: its IBAN's 26 digits, written without "PL" ("numer rachunku 35 1058 ..."),
        # and Hungary's account of three groups of eight, by its check digits
    if len(digits) < _SHORTEST_ACCOUNT or len(set(digits)) <= _FEWEST_DIGITS or digits in _COUNTING:
        return False
    if _DATE_LIKE.fullmatch(value) or _AMOUNT.fullmatch(value) or _YEARS.fullmatch(value):
        return False
    after = text[end : end + 16].lower()
    # a count's noun right after ("12345678 accounts"), not the next column's label two blanks on ("0714 1225  Account
    # name: R PATEL": reviewer BQ)
    counted = COUNTED.match(after) is not None and not after.startswith(("  ", "\t"))
    return not counted and not after.lstrip().startswith(("%", "/")) and _CURRENCY_AFTER.match(after) is None


# An amount's currency after the digits ("akaunti ya benki hadi 15000000 shilingi": the attacker's round)
_CURRENCY_AFTER = lazy_compile(r"[ \t]*(?:shilingi|tsh|ksh|ugx|jpy|yen|円|eur|usd|gbp|chf|€|\$|£)(?![^\W\d_])")


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
        # A label starts at a word's start: the word's own, or one of the few before it ("número de la cuenta").
        for start in (at, *(word.start() for word in _WORD_START.finditer(lower, max(0, at - _LEAD), at))):
            label = _ACCOUNT_LABEL.match(lower, start)
            if label is not None and label.start() <= at < label.end():
                labels.setdefault(label.span(), label)
    return [labels[span] for span in sorted(labels)]


_LEAD = 24  # characters of a label before its word ("número de la cuenta")
_WORD_START = lazy_compile(r"(?<![^\W\d_])[^\W\d_]")


# A Hungarian account number where its label follows it, as Hungarian's case endings put it ("a 12077894-21352740-
# 61799842 számlaszámra utaljuk": reviewer CU): dashes between its groups, valid by both check digits
# (_hungarian_account: one row of random digits in a hundred passes), an account's word ("számla") within reach.
_DASHED_HUNGARIAN = lazy_compile(r"(?<![0-9\-])[0-9]{8}-[0-9]{8}(?:-[0-9]{8})?(?![0-9]|-[0-9])")
# (an account's number or a transfer: "számla" alone is an invoice as often, "Számla sorszáma: 5425...-3491...",
# "Rendelésszám ... a számla PDF-ben": an attacker's round; not an example's format, "Számlaszám-formátum példa")
_HUNGARIAN_WORD = lazy_compile(r"sz[áa]mlasz[áa]m|bankszámla|bankszamla|folyószámla|folyoszamla|utal|visszatérít")
_HUNGARIAN_EXAMPLE = lazy_compile(r"példa|pelda|minta|formátum|formatum")
_HUNGARIAN_REACH = 64


# What _HUNGARIAN_WORD needs, among the gates' words (one pass for all): tested before the text's "-".
_HUNGARIAN_MARKS = index_words("sz", "utal", "visszat")


def may_hold_hungarian_account(scan: Scan) -> bool:
    lower = scan.lower
    return not _HUNGARIAN_MARKS.isdisjoint(scan.words) and "-" in lower and _HUNGARIAN_WORD.search(lower) is not None


def find_hungarian_accounts(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    for match in _DASHED_HUNGARIAN.finditer(scan.text):
        low, high = max(0, match.start() - _HUNGARIAN_REACH), match.end() + _HUNGARIAN_REACH
        if (
            _hungarian_account(match.group())
            and _HUNGARIAN_WORD.search(lower, low, high) is not None
            and _HUNGARIAN_EXAMPLE.search(lower, low, high) is None
        ):
            yield "BANK_ACCOUNT", *match.span()
