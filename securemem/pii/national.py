"""National identity and tax numbers: NATIONAL_ID, after the label each country writes before its own.

A regulated deployment's agents keep customers' identifiers as often as their phones: a Dutch BSN on an
intake form, a PESEL in a collections note, a Steuer-ID on a payroll sheet, a codice fiscale on an insurance
claim (reviewer CZ's blind round: 68 of 87 such numbers were stored as written). Most are digits that any
order or ticket number could be, so each is read only after a label that names it ("BSN:", "PESEL",
"Steuer-ID", "身份证号", "رقم الهوية") and only where its own check digit holds; a scheme with no check digit
(an NI number, a PAN) only right after its label. A Swiss AHV number printed as on its card ("756.1234.5678.97")
is read with no label, its check digit holding too.

Each scheme names its labels, the shape of its value (digits in groups as people write them: blanks, dashes or
slashes between any two, dots where the country writes them) and its check. Four attackers' rounds narrowed what
first read too much: a label's own words, acronyms of other things, companies' numbers, amounts and toll-free
numbers, documentation's examples (see tests/test_pii_national.py).

Sources: each country's published algorithm (the Dutch eleven test, PESEL's weights, ISO 7064 MOD 11,10 for
the Steuer-ID and MOD 11-2 for China's resident ID, the Luhn test for the Canadian SIN, the Saudi ID and the
Emirates ID, Verhoeff for Aadhaar), written here from their public descriptions.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from securemem.pii.banking import EXAMPLE_WORDS
from securemem.pii.checksums import luhn_valid
from securemem.pii.contact import CURRENCY_AFTER
from securemem.pii.normalize import normalise_text
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import RTL_LETTER, Scan, index_words

Hit = tuple[str, int, int]
TYPE = "NATIONAL_ID"

_SEP = r"[ .\-/‐‑–—−]"


_SEP_NO_DOT = r"[ \-/‐‑–—−]"


def _digits(count: int, *, dots: bool = False) -> str:
    """``count`` digits, a blank, dash or slash allowed between any two (a dot too where the country writes its
    numbers with dots), not inside a longer number nor a decimal, an amount or an address ("346.997.448",
    "10.121.75.29": an attacker's round)."""
    sep = _SEP if dots else _SEP_NO_DOT
    return rf"[0-9](?:{sep}?[0-9]){{{count - 1}}}(?![0-9]|{_SEP}[0-9])"


def _compact(value: str) -> str:
    return re.sub(_SEP, "", value).upper()


# -- checks ----------------------------------------------------------------------------------------------


def _weighted(digits: str, weights: tuple[int, ...]) -> int:
    return sum(int(digit) * weight for digit, weight in zip(digits, weights, strict=False))


def _bsn(value: str) -> bool:  # the Dutch eleven test: weights 9..2, the last digit's -1
    return value != "000000000" and (_weighted(value, (9, 8, 7, 6, 5, 4, 3, 2)) - int(value[8])) % 11 == 0


def _pesel(value: str) -> bool:
    return (10 - _weighted(value, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)) % 10) % 10 == int(value[10])


def _mod_11_10(value: str) -> bool:  # ISO 7064 MOD 11,10: the German Steuer-ID
    product = 10
    for digit in value[:-1]:
        total = (int(digit) + product) % 10 or 10
        product = total * 2 % 11
    return value[0] != "0" and (11 - product) % 10 == int(value[-1])


def _sv_nummer(value: str) -> bool:  # the German pension insurance number: its letter read as two digits
    digits = value[:8] + f"{ord(value[8]) - 64:02d}" + value[9:11]
    total = sum(sum(divmod(int(d) * w, 10)) for d, w in zip(digits, (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1), strict=True))
    return _date(value[2:8], "%d%m%y") and total % 10 == int(value[11])


_CF_ODD = dict(
    zip(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16,
         10, 22, 25, 24, 23),
        strict=True,
    )
)  # fmt: skip


def _codice_fiscale(value: str) -> bool:
    total = 0
    for index, char in enumerate(value[:15]):
        total += _CF_ODD[char] if index % 2 == 0 else (int(char) if char.isdigit() else ord(char) - 65)
    return chr(65 + total % 26) == value[15]


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _dni(value: str) -> bool:  # Spain's DNI, and its NIE with X, Y or Z for 0, 1 or 2
    number = str("XYZ".index(value[0])) + value[1:-1] if value[0] in "XYZ" else value[:-1]
    return _DNI_LETTERS[int(number) % 23] == value[-1]


def _nir(value: str) -> bool:  # France's social security number: the key is 97 less the number modulo 97
    number = value[:13].replace("2A", "19").replace("2B", "18")
    return number.isdigit() and value[0] in "12378" and 97 - int(number) % 97 == int(value[13:])


def _nhs(value: str) -> bool:  # (999 first: the NHS's numbers for tests)
    if value.startswith(("999", *_FREEPHONE)):
        return False
    check = 11 - _weighted(value, (10, 9, 8, 7, 6, 5, 4, 3, 2)) % 11
    return check != 10 and check % 11 == int(value[9])


def _mod11(value: str, weights: tuple[int, ...], at: int) -> bool:
    check = 11 - _weighted(value, weights) % 11
    return check != 10 and check % 11 == int(value[at])


def _fodselsnummer(value: str) -> bool:  # Norway: two check digits
    return (
        _mod11(value, (3, 7, 6, 1, 8, 9, 4, 5, 2), 9)
        and _mod11(value, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), 10)
        and _date(f"{int(value[:2]) % 40:02d}{value[2:6]}", "%d%m%y")
    )


_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def _hetu(value: str) -> bool:  # Finland's personal identity code: the number modulo 31 names the check
    return _date(value[:6], "%d%m%y") and _HETU_CHECK[int(value[:6] + value[7:10]) % 31] == value[10]


def _personnummer(value: str) -> bool:  # Sweden: a birth date (its century optional), four digits, Luhn
    digits = value.replace("+", "")
    digits = digits[2:] if len(digits) == 12 else digits
    day = int(digits[4:6])
    day = day - 60 if day > 60 else day  # a coordination number's day is the birth day plus 60
    return len(digits) == 10 and _date(f"{digits[:4]}{day:02d}", "%y%m%d") and luhn_valid(digits)


def _nif_pt(value: str) -> bool:
    check = 11 - _weighted(value, (9, 8, 7, 6, 5, 4, 3, 2)) % 11
    # a person's (1, 2, 3; a company's starts with 5, a public body's with 6, a sole trader's with 8 or 9)
    return value[0] in "123" and (0 if check >= 10 else check) == int(value[8])


def _cpf(value: str) -> bool:  # Brazil: two check digits
    if len(set(value)) == 1:
        return False
    first = _weighted(value, tuple(range(10, 1, -1))) * 10 % 11 % 10
    second = _weighted(value, tuple(range(11, 1, -1))) * 10 % 11 % 10
    return first == int(value[9]) and second == int(value[10])


def _tckn(value: str) -> bool:  # Turkey's identity number
    digits = [int(char) for char in value]
    tenth = (sum(digits[0:9:2]) * 7 - sum(digits[1:8:2])) % 10
    return digits[0] != 0 and tenth == digits[9] and sum(digits[:10]) % 10 == digits[10]


_VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]  # fmt: skip
_VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]  # fmt: skip


def _aadhaar(value: str) -> bool:  # India: Verhoeff, never starting with 0 or 1
    check = 0
    for index, digit in enumerate(reversed(value)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[index % 8][int(digit)]]
    return value[0] not in "01" and check == 0


def _cnp(value: str) -> bool:  # Romania's personal numeric code
    check = _weighted(value, (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9)) % 11
    return value[0] != "0" and _date(value[1:7], "%y%m%d") and (1 if check == 10 else check) == int(value[12])


def _teudat_zehut(value: str) -> bool:  # Israel: weights 1 and 2 in turn, digits of each product summed
    if len(value) == 9 and value.startswith(("51", "52", "55", "57", "58")):
        return False  # a company's or an association's number
    return sum(sum(divmod(int(digit) * (1 + index % 2), 10)) for index, digit in enumerate(value)) % 10 == 0


def _rnokpp(value: str) -> bool:  # Ukraine's taxpayer number
    return _weighted(value, (-1, 5, 7, 9, 4, 6, 10, 5, 7)) % 11 % 10 == int(value[9])


_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _cn_resident(value: str) -> bool:  # China: ISO 7064 MOD 11-2 over the first 17, a birth date inside
    return _date(value[6:14], "%Y%m%d") and "10X98765432"[_weighted(value, _CN_WEIGHTS) % 11] == value[17]


def _my_number(value: str) -> bool:  # Japan's individual number
    body = value[:11][::-1]
    total = sum(int(digit) * (index + 2 if index < 6 else index - 4) for index, digit in enumerate(body))
    remainder = total % 11
    return (0 if remainder <= 1 else 11 - remainder) == int(value[11])


def _thai(value: str) -> bool:  # (0 first: a company's tax number)
    return value[0] != "0" and (11 - _weighted(value, tuple(range(13, 1, -1))) % 11) % 10 == int(value[12])


def _nik(value: str) -> bool:  # Indonesia: a birth date inside (a woman's day plus 40)
    return _date(f"{int(value[6:8]) % 40:02d}{value[8:12]}", "%d%m%y") and value[:2] != "00"


def _cccd(value: str) -> bool:  # Viet Nam: a province's code first (001-096), then the century and sex
    return 1 <= int(value[:3]) <= 96


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def _curp(value: str) -> bool:
    total = sum(_CURP_CHARS.index(char) * (18 - index) for index, char in enumerate(value[:17]))
    return _date(value[4:10], "%y%m%d") and (10 - total % 10) % 10 == int(value[17])


def _sin(value: str) -> bool:  # Canada: Luhn, never 0 or 8 first
    return value[0] not in "08" and not value.startswith(_FREEPHONE) and luhn_valid(value)


def _tfn(value: str) -> bool:  # Australia's tax file number
    return not value.startswith(_FREEPHONE) and _weighted(value, (1, 4, 3, 7, 5, 8, 6, 9, 10)) % 11 == 0


# A free or shared-cost phone's prefix: "TFN Spain: 900 712 317" is a toll-free number, "the NHS on 0800 ..." a line
_FREEPHONE = ("0800", "0808", "0300", "0845", "0870", "800", "888", "877", "866", "855", "844", "833", "900", "1800")


def _ean13(value: str) -> bool:  # the Swiss AHV number (756 first)
    return (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(value[:12])) % 10) % 10 == int(value[12])


def _amka(value: str) -> bool:  # Greece: a birth date first, Luhn
    return _date(value[:6], "%d%m%y") and luhn_valid(value)


def _ppsn(value: str) -> bool:  # Ireland: seven digits, a check letter, an optional second letter
    second = value[8:9]
    total = _weighted(value, (8, 7, 6, 5, 4, 3, 2)) + (9 * (ord(second) - 64) if second and second != "W" else 0)
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == value[7]


def _saudi(value: str) -> bool:  # a citizen's (1) or a resident's (2) ID: Luhn
    return value[0] in "12" and luhn_valid(value)


def _emirates(value: str) -> bool:
    return value.startswith("784") and luhn_valid(value)


def _dk_cpr(value: str) -> bool:  # Denmark: a birth date and four digits (no check digit since 2007)
    return _date(value[:6], "%d%m%y")


def _kr_rrn(value: str) -> bool:  # Korea: a birth date, a digit for sex and century, six more
    return _date(value[:6], "%y%m%d") and value[6] in "12345678"


def _taj(value: str) -> bool:  # Hungary's social security number: weights 3 and 7 in turn
    return _weighted(value, (3, 7, 3, 7, 3, 7, 3, 7)) % 10 == int(value[8])


def _hu_tax(value: str) -> bool:  # Hungary's tax number: 8 first, weights 1..9 modulo 11
    return value[0] == "8" and _weighted(value, tuple(range(1, 10))) % 11 == int(value[9])


def _za_id(value: str) -> bool:  # South Africa: a birth date first, Luhn
    return _date(value[:6], "%y%m%d") and luhn_valid(value)


def _iran(value: str) -> bool:  # Iran's national code
    remainder = _weighted(value, tuple(range(10, 1, -1))) % 11
    return len(set(value)) > 1 and (remainder if remainder < 2 else 11 - remainder) == int(value[9])


def _cuit(value: str) -> bool:  # Argentina's CUIT and CUIL
    check = 11 - _weighted(value, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    # (a person's: 20, 23, 24, 27; a company's 30, 33, 34 is no one's personal data)
    return value[:2] in ("20", "23", "24", "27") and {11: 0, 10: 9}.get(check, check) == int(value[10])


def _inn(value: str) -> bool:  # Russia's taxpayer number of a person: two check digits
    first = _weighted(value, (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10
    second = _weighted(value, (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10
    return first == int(value[10]) and second == int(value[11])


def _snils(value: str) -> bool:  # Russia's insurance number
    total = _weighted(value, tuple(range(9, 0, -1)))
    check = total if total < 100 else 0 if total in (100, 101) else total % 101 % 100
    return check == int(value[9:])


def _be_national(value: str) -> bool:  # Belgium: 97 less the first nine modulo 97 (2 before them since 2000)
    first, check = int(value[:9]), int(value[9:])
    return check in (97 - first % 97, 97 - (2_000_000_000 + first) % 97)


def _rut(value: str) -> bool:  # Chile's RUT and RUN: weights 2..7 from the right, 10 written K
    body, check = value[:-1], value[-1]
    if not body.isdigit() or int(body) >= _COMPANY_RUT:
        return False  # a company's RUT (50 million and up) is no one's personal data
    total = sum(int(digit) * (2 + index % 6) for index, digit in enumerate(reversed(body)))
    return "0123456789K0"[11 - total % 11] == check


_COMPANY_RUT = 50_000_000


_NRIC_LETTERS = {"S": "JZIHGFEDCBA", "T": "JZIHGFEDCBA", "F": "XWUTRQPNMLK", "G": "XWUTRQPNMLK", "M": "KLJNPQRTUWX"}


def _nric(value: str) -> bool:  # Singapore's NRIC and FIN
    total = _weighted(value[1:8], (2, 7, 6, 5, 4, 3, 2)) + {"T": 4, "G": 4, "M": 3}.get(value[0], 0)
    return _NRIC_LETTERS[value[0]][total % 11] == value[8]


def _ni_number(value: str) -> bool:  # the UK's National Insurance number: its shape is all there is to check
    return True


def _pan(value: str) -> bool:  # India's PAN: its shape (the fourth letter the holder's kind) is all there is
    return True


def _any(value: str) -> bool:  # a number that carries no check digit: its label alone says what it is
    return len(set(value)) > 2


def _date(digits: str, form: str) -> bool:
    try:
        datetime.datetime.strptime(digits, form)
    except ValueError:
        return False
    return True


# -- schemes ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scheme:
    shape: re.Pattern[str]
    check: Callable[[str], bool]
    compact: bool = True  # the blanks, dots and dashes between groups go before the check (not a sign of its own)


def _scheme(shape: str, check: Callable[[str], bool], *, compact: bool = True) -> _Scheme:
    return _Scheme(lazy_compile(shape), check, compact)


BSN = _scheme(_digits(9, dots=True), _bsn)
PESEL = _scheme(_digits(11), _pesel)
STEUER_ID = _scheme(_digits(11), _mod_11_10)
SV_NUMMER = _scheme(r"[0-9]{2} ?[0-9]{6} ?[A-Z] ?[0-9]{3}(?![0-9A-Za-z])", _sv_nummer)
CODICE_FISCALE = _scheme(
    r"(?i:[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z])(?![0-9A-Za-z])",
    _codice_fiscale,
)
DNI = _scheme(r"(?:[XYZ][ \-]?)?[0-9](?:[ .]?[0-9]){6,7}[ \-]?[A-Z](?![0-9A-Za-z])", _dni)
NIR = _scheme(
    r"[12378] ?[0-9]{2} ?[0-9]{2} ?(?:[0-9]{2}|2[AB]) ?[0-9]{3} ?[0-9]{3} ?[0-9]{2}(?![0-9])|" + _digits(15), _nir
)
NI_NUMBER = _scheme(  # (in small letters too: "nino=cr290325c", reviewer DC)
    r"(?i:(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-D])"
    r"(?![0-9A-Za-z])",
    _ni_number,
)
NHS = _scheme(_digits(10), _nhs)
FODSELSNUMMER = _scheme(_digits(11), _fodselsnummer)
HETU = _scheme(r"[0-9]{6}[-+A-FU-Y][0-9]{3}[0-9A-FHJ-NPR-Y](?![0-9A-Za-z])", _hetu, compact=False)
PERSONNUMMER = _scheme(r"(?:19|20)?[0-9]{6}[-+ ‐‑–−]?[0-9]{4}(?![0-9])", _personnummer)
NIF_PT = _scheme(_digits(9), _nif_pt)
CPF = _scheme(_digits(11, dots=True), _cpf)
TCKN = _scheme(_digits(11), _tckn)
AADHAAR = _scheme(_digits(12), _aadhaar)
PAN = _scheme(r"[A-Z]{3}[PCHFATBLJG][A-Z][0-9]{4}[A-Z](?![0-9A-Za-z])", _pan)
CNP = _scheme(_digits(13), _cnp)
TEUDAT_ZEHUT = _scheme(r"[0-9](?:[ .\-]?[0-9]){7,8}(?![0-9]|[ .\-][0-9])", _teudat_zehut)
RNOKPP = _scheme(_digits(10), _rnokpp)
CN_RESIDENT = _scheme(r"[0-9](?: ?[0-9]){16} ?[0-9Xx](?![0-9A-Za-z])", _cn_resident)
MY_NUMBER = _scheme(_digits(12), _my_number)
THAI = _scheme(_digits(13), _thai)
NIK = _scheme(_digits(16), _nik)
CCCD = _scheme(_digits(12), _cccd)
CURP = _scheme(r"[A-Z][AEIOUX][A-Z]{2}[0-9]{6}[HM][A-Z]{5}[0-9A-Z][0-9](?![0-9A-Za-z])", _curp)
SIN = _scheme(_digits(9), _sin)
TFN = _scheme(_digits(9), _tfn)
AHV = _scheme(r"756[ .]?[0-9]{4}[ .]?[0-9]{4}[ .]?[0-9]{2}(?![0-9])", _ean13)
AMKA = _scheme(_digits(11), _amka)
PPSN = _scheme(r"[0-9]{7}[A-W][A-IW]?(?![0-9A-Za-z])", _ppsn)
SAUDI = _scheme(_digits(10), _saudi)
EMIRATES = _scheme(_digits(15), _emirates)
BD_NID = _scheme(rf"{_digits(17)}|{_digits(13)}|{_digits(10)}", _any)
PH_TIN = _scheme(_digits(12), _any)  # (nine digits after "TIN" are a US employer's number as often)
DK_CPR = _scheme(r"[0-9]{6}[-‐‑–−][0-9]{4}(?![0-9])", _dk_cpr)  # (its dash always written)
KR_RRN = _scheme(r"[0-9]{6}[-‐‑–−]?[0-9]{7}(?![0-9])", _kr_rrn)
TAJ = _scheme(_digits(9), _taj)
HU_TAX = _scheme(_digits(10), _hu_tax)
ZA_ID = _scheme(_digits(13), _za_id)
IRAN = _scheme(_digits(10), _iran)
CUIT = _scheme(_digits(11), _cuit)
INN = _scheme(_digits(12), _inn)
SNILS = _scheme(_digits(11), _snils)
BE_NATIONAL = _scheme(_digits(11, dots=True), _be_national)
RUT = _scheme(r"[0-9]{1,2}(?:\.?[0-9]{3}){2}-[0-9Kk](?![0-9A-Za-z])", _rut)  # (the dash always before the check)
NRIC = _scheme(r"[STFGM][0-9]{7}[A-Z](?![0-9A-Za-z])", _nric)
# Checks that hold for any number or one in a few (no check digit, or a date alone): read right after the label only
_UNCHECKED = frozenset({_any, _dk_cpr, _kr_rrn, _nik, _cccd, _ni_number, _pan})
# With no label: only as it is printed on its card, dotted in its groups
AHV_PRINTED = _scheme(r"756\.[0-9]{4}\.[0-9]{4}\.[0-9]{2}(?![0-9]|\.[0-9])", _ean13)

# Labels as written in lower case (matched in the lower-cased text, at a word's start and end), and the
# schemes each may name. An acronym that is also a word ("nie" is Polish's "not", "sin" Spanish's "without",
# "pan" bread) is in _CAPITALS instead: read only as written in capitals.
_LABELS: dict[str, tuple[_Scheme, ...]] = {
    "burgerservicenummer": (BSN,),
    "sofinummer": (BSN,),
    "sofi-nummer": (BSN,),
    "pesel": (PESEL,),
    "steuer-id": (STEUER_ID,),
    "steuerid": (STEUER_ID,),
    "steuer-identifikationsnummer": (STEUER_ID,),
    "steueridentifikationsnummer": (STEUER_ID,),
    "steuerliche identifikationsnummer": (STEUER_ID,),
    "sv-nummer": (SV_NUMMER,),
    "sozialversicherungsnummer": (SV_NUMMER, AHV),
    "rentenversicherungsnummer": (SV_NUMMER,),
    "codice fiscale": (CODICE_FISCALE,),
    "cod. fisc.": (CODICE_FISCALE,),
    "cod. fiscale": (CODICE_FISCALE,),
    "c.f.": (CODICE_FISCALE,),
    "d.n.i.": (DNI,),
    "documento nacional de identidad": (DNI,),
    "número de identidad de extranjero": (DNI,),
    "sécurité sociale": (NIR,),
    "securite sociale": (NIR,),
    "numéro de sécu": (NIR,),
    "n° de sécu": (NIR,),
    "national insurance": (NI_NUMBER,),
    "ni number": (NI_NUMBER,),
    "ni no": (NI_NUMBER,),
    "nhs number": (NHS,),
    "nhs no": (NHS,),
    "fødselsnummer": (FODSELSNUMMER,),
    "fodselsnummer": (FODSELSNUMMER,),
    "personnummer": (PERSONNUMMER, FODSELSNUMMER, DK_CPR),
    "cpr-nr": (DK_CPR,),
    "cpr-nummer": (DK_CPR,),
    "cpr nr": (DK_CPR,),
    "身份证号码": (CN_RESIDENT,),
    "เลขบัตรประชาชน": (THAI,),
    "주민등록번호": (KR_RRN,),
    "주민번호": (KR_RRN,),
    "taj-szám": (TAJ,),
    "taj szám": (TAJ,),
    "adóazonosító jel": (HU_TAX,),
    "adóazonosító": (HU_TAX,),
    "id-nommer": (ZA_ID,),
    "id nommer": (ZA_ID,),
    "identiteitsnommer": (ZA_ID,),
    "کد ملی": (IRAN,),
    "شماره ملی": (IRAN,),
    "инн": (INN,),
    "снилс": (SNILS,),
    "rijksregisternummer": (BE_NATIONAL,),
    "numéro national": (BE_NATIONAL,),
    "n° national": (BE_NATIONAL,),
    "numéro de registre national": (BE_NATIONAL,),
    "personnr": (PERSONNUMMER,),
    "samordningsnummer": (PERSONNUMMER,),
    "henkilötunnus": (HETU,),
    "henkilotunnus": (HETU,),
    "hetu": (HETU,),
    "personbeteckning": (HETU,),
    "contribuinte": (NIF_PT,),
    "número de identificação fiscal": (NIF_PT,),
    "cpf": (CPF,),
    "tc kimlik": (TCKN,),
    "t.c. kimlik": (TCKN,),
    "tc kimlik no": (TCKN,),
    "kimlik no": (TCKN,),
    "kimlik numarası": (TCKN,),
    "tckn": (TCKN,),
    "aadhaar": (AADHAAR,),
    "aadhar": (AADHAAR,),
    "आधार": (AADHAAR,),
    # Aadhaar in India's other scripts: Tamil, Telugu, Kannada, Malayalam, Gujarati, Punjabi (reviewer DE)
    "ஆதார்": (AADHAAR,),
    "ఆధార్": (AADHAAR,),
    "ಆಧಾರ್": (AADHAAR,),
    "ആധാർ": (AADHAAR,),
    "આધાર": (AADHAAR,),
    "ਆਧਾਰ": (AADHAAR,),
    # ... and its number's label in each ("ஆதார் எண்:", its single word a basis too: see _ALSO_BASIS)
    "ஆதார் எண்": (AADHAAR,),
    "ఆధార్ నంబర్": (AADHAAR,),
    "ಆಧಾರ್ ಸಂಖ್ಯೆ": (AADHAAR,),
    "ആധാർ നമ്പർ": (AADHAAR,),
    "આધાર નંબર": (AADHAAR,),
    "ਆਧਾਰ ਨੰਬਰ": (AADHAAR,),
    "আধার": (AADHAAR,),
    "पैन": (PAN,),
    "pan card": (PAN,),
    "cod numeric personal": (CNP,),
    "תעודת זהות": (TEUDAT_ZEHUT,),
    "מספר זהות": (TEUDAT_ZEHUT,),
    "ת.ז.": (TEUDAT_ZEHUT,),
    'ת"ז': (TEUDAT_ZEHUT,),
    "teudat zehut": (TEUDAT_ZEHUT,),
    "рнокпп": (RNOKPP,),
    "іпн": (RNOKPP,),
    "ідентифікаційний код": (RNOKPP,),
    "ідентифікаційний номер": (RNOKPP,),
    "身份证号": (CN_RESIDENT,),
    "身份证": (CN_RESIDENT,),
    "身份證": (CN_RESIDENT,),
    "公民身份号码": (CN_RESIDENT,),
    "マイナンバー": (MY_NUMBER,),
    "個人番号": (MY_NUMBER,),
    "เลขประจำตัวประชาชน": (THAI,),
    "บัตรประชาชน": (THAI,),
    "nomor induk kependudukan": (NIK,),
    "căn cước": (CCCD,),
    "can cuoc": (CCCD,),
    "curp": (CURP,),
    "social insurance number": (SIN,),
    "numéro d'assurance sociale": (SIN,),
    "tax file number": (TFN,),
    "ahv-nr": (AHV,),
    "ahv-nummer": (AHV,),
    "avs": (AHV,),
    "ahv": (AHV,),
    "αμκα": (AMKA,),
    "amka": (AMKA,),
    "ppsn": (PPSN,),
    "pps number": (PPSN,),
    "pps no": (PPSN,),
    "رقم الهوية الإماراتية": (EMIRATES,),
    "الهوية الإماراتية": (EMIRATES,),
    "emirates id": (EMIRATES,),
    "رقم الهوية": (SAUDI, EMIRATES),
    "الهوية الوطنية": (SAUDI,),
    "رقم الإقامة": (SAUDI,),
    "iqama": (SAUDI,),
    "জাতীয় পরিচয়পত্র": (BD_NID,),
    "tax identification number": (PH_TIN,),
    # other spellings, inflections and keys (an attacker's round)
    "bsn-nummer": (BSN,),
    "steuer-idnr": (STEUER_ID,),
    "steuer-id-nr": (STEUER_ID,),
    "steuer_id": (STEUER_ID,),
    "versicherungsnummer": (SV_NUMMER,),
    "codice_fiscale": (CODICE_FISCALE,),
    "numéro insee": (NIR,),
    "n° ss": (NIR,),
    "ni_number": (NI_NUMBER,),
    "national_insurance_number": (NI_NUMBER,),
    "nhs_number": (NHS,),
    "fnr": (FODSELSNUMMER,),
    "d-nummer": (FODSELSNUMMER,),
    "personnumret": (PERSONNUMMER,),
    "henkilötunnuksen": (HETU,),
    "c.p.f.": (CPF,),
    "tc no": (TCKN,),
    "aadhaar card": (AADHAAR,),
    "aadhaar number": (AADHAAR,),
    "aadhaar_number": (AADHAAR,),
    "aadhar card": (AADHAAR,),
    "adhaar": (AADHAAR,),
    "आधार कार्ड नंबर": (AADHAAR,),
    "आधार कार्ड": (AADHAAR,),
    "आधार नंबर": (AADHAAR,),
    "आधार संख्या": (AADHAAR,),
    "पैन कार्ड": (PAN,),
    "codul numeric personal": (CNP,),
    "c.n.p.": (CNP,),
    "ת״ז": (TEUDAT_ZEHUT,),
    "מס' זהות": (TEUDAT_ZEHUT,),
    "ідентифікаційного коду": (RNOKPP,),
    "nomor ktp": (NIK,),
    "no. ktp": (NIK,),
    "số định danh cá nhân": (CCCD,),
    "s.i.n.": (SIN,),
    "tax file no": (TFN,),
    "tax_file_number": (TFN,),
    "ahvn13": (AHV,),
    "α.μ.κ.α.": (AMKA,),
    "personal public service number": (PPSN,),
    "emirates_id": (EMIRATES,),
    # reviewer DB's: Norway's abbreviation (not "NI", "RFC", "NSS", Croatia's "OIB" nor Thai's "card number": an
    # attacker's round found them before Northern Ireland's codes, change requests, phones, companies' numbers and
    # every other card's number)
    "fødselsnr": (FODSELSNUMMER,),
    "fodselsnr": (FODSELSNUMMER,),
}
_CAPITALS: dict[str, tuple[_Scheme, ...]] = {
    "BSN": (BSN,),
    "DNI": (DNI,),
    "NIE": (DNI,),
    "NIF": (DNI, NIF_PT),
    "CF": (CODICE_FISCALE,),
    "NIR": (NIR,),
    "NINO": (NI_NUMBER,),
    "NHS": (NHS,),
    "PAN": (PAN,),
    "CNP": (CNP,),
    "CCCD": (CCCD,),
    "CMND": (CCCD,),
    "NIK": (NIK,),
    "SIN": (SIN,),
    "NAS": (SIN,),
    "TFN": (TFN,),
    "AVS": (AHV,),
    "CPR": (DK_CPR,),
    "TAJ": (TAJ,),
    "CUIT": (CUIT,),
    "CUIL": (CUIT,),
    "INSZ": (BE_NATIONAL,),
    "NISS": (BE_NATIONAL,),
    "RUT": (RUT,),
    "NRIC": (NRIC,),
    "KTP": (NIK,),
    "SA ID": (ZA_ID,),
}
# (as the view writes each: Cyrillic's capitals and small letters fold to Latin ones differently, "РНОКПП" reads
# "PHOKПП" and "рнокпп" "pнokпп")
_LABEL_WORDS = {
    normalise_text(written).lower(): schemes
    for label, schemes in _LABELS.items()
    for written in (label, label.upper(), label.title())
}
_GATE = index_words(*_LABEL_WORDS, *(label.lower() for label in _CAPITALS))
# Unlabelled: shapes no other number has, each with its check (found where the text holds its prefix)
_UNLABELLED = ((AHV_PRINTED, "756."),)  # (an Emirates ID's shape is a reference's as often: read after its label)
_SHORT_LABEL = 4  # a label this short is an acronym, whatever its case ("bsn", "fnr", "pps")
_SMALL_KEY = 3  # a key this short, in small letters, is a national number's only where more says so (see _key_end)
_EXAMPLE_REACH = 32

# After an acronym, words in small letters only, four at most ("CPF informado no chat: ", "C.F. dichiarato: "; not
# "TAJ Mahal Palace room confirmation: ", "TFN Spain: ")
_SMALL_WORDS = lazy_compile(r"(?:[ \t]+[^\W\d_A-Z]+){1,4}[ \t]*[:：][ \t]*[\"'«“「『(]?[ \t]*")
_WHOSE = lazy_compile(r"[ \t]+(?:del|de|do|da|dos|das|du|des|della|dello|di|of|for|für|der|des|van|z|ze)[ \t]")
_WHOSE_PHRASE = lazy_compile(
    r"[ \t]+(?:del|della|dello|dei|degli|delle|de|do|da|du|des|of|for|für|der|van)[ \t]+(?:[^\W\d_]+[ \t]+)?"
    r"(?P<person>[^\W\d_]+)(?:[ \t]*[:：][ \t]*|[ \t]+)"
)
# ... a person's word ("della paziente", "of the patient", "del cliente"; not "of the practice", "for version", "der
# Firma", "for test": the reviewer's own form, then a self-attack): one of _PERSONS
_BUILD_BEFORE = lazy_compile(r"(?:build|version|release|ver|rev|oid|v)\.?[ \t#:]*$")
# Labels that are everyday words too ("आधार", a basis): read only right after the label, and not before "पर"
# (Gujarati's and Punjabi's "આધાર", "ਆਧਾਰ" are their word for a basis too, as Kannada's, Telugu's, Tamil's and
# Malayalam's are once the view drops the mark that ends them)
_ALSO_BASIS = frozenset(
    normalise_text(word).lower() for word in ("आधार", "আধার", "ஆதார்", "ఆధార్", "ಆಧಾರ್", "ആധാർ", "આધાર", "ਆਧਾਰ")
)
_ON_THE_BASIS = lazy_compile(normalise_text("[ \t]+(?:पर|पे|ভিত্তি)"))
# Documentation's examples, which forms and manuals print ("DNI 12345678Z", Skatteverket's "19121212-1212"): found
# as no one's number.
_EXAMPLES = frozenset(
    {"12345678Z", "X1234567L", "1212121212", "191212121212", "12345678909", "QQ123456C", "AB123456C", "9434765919",
     "RSSMRA85T10A562S", "7561234567897", "784198012345671", "123456789", "111111111",
     # more that manuals, validators' documentation and Wikipedia print (an attacker's round)
     "02070803628", "44051401359", "111222333", "123456782", "86095742719", "65929970489", "11144477735",
     "52998224725", "10000000146", "234123412346", "AAAPL1234C", "7569217076985", "131052-308T",
     "8112289874", "11010519491231002X", "9434765870", "00000000T", "Y1234567X", "HEGG560427MVZRRL04",
     "784196865703050", "1234567T", "000000018"}
)  # fmt: skip

_NUMBER_WORD_LIST = (
    "no", "nr", "n°", "nº", "num", "number", "numéro", "número", "numero", "nummer", "numarası", "номер", "নম্বর",
    "नंबर", "संख्या", "번호", "số", "szám", "nommer", "numer",
    # or a verb that gives the number ("my PPS number is 1892979S", "meine Steuer-ID lautet 1069...")
    "is", "lautet", "ist", "es", "est", "é", "è", "är", "jest",
)  # fmt: skip
_NUMBER_ONLY = "number|nummer|numer|numéro|número|numero|no|nr"
_NUMBER_WORDS = "|".join(dict.fromkeys(re.escape(normalise_text(word).lower()) for word in _NUMBER_WORD_LIST))
# After the label: an aside in brackets, a word for "number", a colon or the like, a line break, an opening
# quote. Or a few words of its own that end in a colon ("आधार नंबर हिंदी अंकों में लिखा है: ९८४१...").
_CONNECTOR_FORM = (
    r"\.?[\"']?(?:[ \t]*(?:\([^()\n]{{0,48}}\)|\[[^\[\]\n]{{0,48}}\]))?"
    r"[ \t]*(?:(?:(?i:{words}|#)\.?(?![^\W\d_])[ \t]*){{1,{most}}}"
    r"|\r?\n[ \t]*(?i:{only})\.?[ \t]*(?=[:：]))?"
    r"(?:(?:->|→|[:：=#\-–—_])[ \t]*)?(?:\r?\n[ \t]*)?[\"'«“「『(`\[]?[ \t]*"
)
# (two words, "number is", after a label of words; one after an acronym: "NAS number is 6232..." is a NAS's asset, an
# attacker's round)
_CONNECTOR = lazy_compile(_CONNECTOR_FORM.format(words=_NUMBER_WORDS, only=_NUMBER_ONLY, most=2))
_CONNECTOR_ACRONYM = lazy_compile(_CONNECTOR_FORM.format(words=_NUMBER_WORDS, only=_NUMBER_ONLY, most=1))
_OWN_WORDS = lazy_compile(r"[^\d\n:：.。!?,;，、；،؛—–]{0,64}[:：][ \t]*[\"'«“「『(]?[ \t]*")
# Words that name another number in a label's own words ("NHS number unknown hospital number: ...", "PESEL nie jest
# wymagany podaj numer zamówienia: ...": an attacker's round)
# (of scripts the view writes otherwise: Thai's "code", "number", "barcode", "not"; Hebrew's "number")
_OTHER_NUMBER_VIEWED = "|".join(
    re.escape(normalise_text(word).lower()) for word in ("รหัส", "เลขที่", "หมายเลข", "บาร์โค้ด", "ไม่", "מספר")
)
_OTHER_NUMBER = lazy_compile(
    rf"{_OTHER_NUMBER_VIEWED}|"
    r"(?i:number|nummer|numer|numéro|número|numero|numara|\bnr\b|telefon|phone|\btel\b|order|ticket|ref"
    r"|hospital|mobile|mobil|invoice|rechnung|pedido|protocol|tracking|license|licence"
    # a customer's own number ("klant-id", "client ref"), not the customer whose number it is ("NAS du client :")
    r"|(?:klant|kunde|cliente?)(?:[ _\-]?(?:id|ref|code|nr|no)(?![^\W\d_])|n-?id)"
    r"|timestamp|transaction|conta|konto|account|helyett|nélkül|azonosító|sorszám|without|instead|statt|anstelle"
    r"|\bsans\b|\bsenza\b|zonder|\bbez\b|\butan\b|\buden\b|ilman|\bnot\b|nicht|niet|\bnie\b|não|\bnon\b|\bpas\b|inte|\bei\b|yok|号|番号|번호|טלפון|هاتف|جوال|फ़ोन|फोन|মোবাইল)"
)


# -- a table's column (columns.py), named as a label is


def _column_form(name: str) -> str:
    """``name`` as columns.py reads a header's cell: blanks, "_", "." and "-" one blank, no blank at either end."""
    return " ".join(part for part in re.split(r"[\s_.\-]+", name) if part)


# Acronyms that name other things as often, in a key, a cell or a column: a sine, a network's storage, a toll-free
# number, a hotel, a resuscitation, a card's address check, the health service as a payer ("deg,sin,cos",
# "{"nas": 683603120}", "| NHS | 4105393189 |": an attacker's round). Read after their label in prose only.
_ELSEWHERE = frozenset({"sin", "nas", "tfn", "taj", "cpr", "avs", "nhs"})


def _in_cells(schemes: tuple[_Scheme, ...]) -> tuple[_Scheme, ...]:
    """The schemes a key's, a cell's or a column's number is read in: not those with no check at all (a company's
    tax number is a "Tax Identification Number" too: an attacker's round)."""
    return tuple(scheme for scheme in schemes if scheme.check is not _any)


# (a card's "pan" is a card's column there; "c f", "d n i" and the like of dotted labels name nothing. A column named
# "national_id" alone is left: a company's SIREN passes a SIN's Luhn test, a bank's code an Israeli ID's, and a
# directory of either names its column so: an attacker's round.)
COLUMNS: dict[str, tuple[_Scheme, ...]] = {
    name: _in_cells(schemes)
    for name, schemes in (
        *((_column_form(label), schemes) for label, schemes in _LABEL_WORDS.items() if "." not in label),
        *((label.lower(), schemes) for label, schemes in _CAPITALS.items() if label != "PAN"),
    )
    if name not in _ELSEWHERE and _in_cells(schemes)
}
# The words that make a line worth reading as a header (found with the gates' words): the labels'
COLUMN_WORDS = _GATE


def national_cell(name: str, value: str) -> bool:
    """``value``, a cell of the column ``name`` (a key of COLUMNS), is a number of one of the column's schemes whole."""
    return any(_match(scheme, value, 0) == (0, len(value)) for scheme in COLUMNS.get(name, ()))


def may_hold_national_id(scan: Scan) -> bool:
    return scan.digit_count >= 4 and (
        not _GATE.isdisjoint(scan.words) or any(prefix in scan.text for _, prefix in _UNLABELLED)
    )


def find_national_ids(scan: Scan) -> Iterator[Hit]:
    text, lower, words = scan.text, scan.lower, scan.words
    places = sorted(
        (at, -len(label), label, schemes)
        for label, schemes in (*_LABEL_WORDS.items(), *_CAPITALS.items())
        for at in words.get(label.lower(), ())
    )
    done = 0  # labels in the text's order, each read once, the longest of those at one place first
    for at, _, label, schemes in places:
        end = at + len(label)
        if at < done:
            continue
        # a record's key ("bsn": "...", patient_nino=..., customerBSN: ...): its value, the key in any case
        # (an acronym of three letters or fewer: "bsn", "nie", "cf"; "nino", "nric", "cuit" are keys alone)
        brief = short_label(label)
        small = brief and not text[at:end].isupper()
        cells = _in_cells(schemes)
        elsewhere = label.lower() in _ELSEWHERE  # (a key only before a word for number: "nhsNumber", "sin_no")
        key = _key_end(text, lower, at, end, short=brief, small=small, numbered=elsewhere) if cells else None
        if key is not None:
            found = _first(text, key, cells)
        else:
            found = _row_value(text, lower, at, end, cells) if cells and not elsewhere else None
        if found is None:
            if not _whole_word(lower, at, end) or (label.isupper() and text[at:end] != label):
                continue
            if (at and text[at - 1] == "-") or (text.startswith(".", end) and not label.endswith(("no", "nr", "."))):
                continue  # a compound's last part ("Kunden-IdNr"); a sentence that ends at the label ("a BSN. 5311")
            short = label in _CAPITALS or (label.isascii() and len(label) <= _SHORT_LABEL)
            found = _value(text, end, schemes, acronym=short, basis=label in _ALSO_BASIS)
        if found is not None and EXAMPLE_WORDS.search(lower, max(0, at - _EXAMPLE_REACH), found[1] + _EXAMPLE_REACH):
            continue  # "Exempel personnummer: 640823-3234", "C.F. MRARSS80A01H501T (fac-simile)"
        if found is not None:
            done = found[1]
            yield TYPE, *found
    for scheme, prefix in _UNLABELLED:
        at = text.find(prefix)
        while at != -1:
            if (
                not (at and (text[at - 1].isalnum() or text[at - 1] in "._-/"))
                and not _BUILD_BEFORE.search(lower, max(0, at - 16), at)
                and (found := _match(scheme, text, at)) is not None
            ):
                yield TYPE, *found
            at = text.find(prefix, at + 1)


# A record's key that is a label, in any case (an acronym in small letters too, where more marks it as a key: see
# _key_end), maybe after its owner's name ("patient_bsn", "customer.nino", "clientBsn") and before a word for number
# ("bsn_nr", "nino-number"): then its quotes, and ":" or "=" ("=" once, not "=="), or an XML element's ">"; what an
# export, a JSON record, a YAML file, an environment or a form's field writes.
_KEY_BEFORE = lazy_compile(r"(?:[a-z0-9]+[_.\-]|[a-z0-9]*[a-z])$")
_KEY_AFTER = lazy_compile(
    r"(?P<suffix>[_.\-]?(?:number|numbr|num|nr|no|id|nummer|numer|numero|code|value))?(?P<quote>[\"']?)"
    r"(?P<op>[ \t]*[:=](?!=)|>)[ \t]*[\"'«“(\[`]?[ \t]*"
)
_NUMBER_SUFFIXES = frozenset({"number", "numbr", "num", "nr", "no", "nummer", "numer", "numero"})
_KEY_START = frozenset(" \t\n\r\"'{,;([<&?")


def _key_end(
    text: str, lower: str, start: int, end: int, *, short: bool, small: bool, numbered: bool = False
) -> int | None:
    """Where the value of the key that the label at [start, end) is starts, or None: the label is no record's key.

    ``small``: the label is an acronym in small letters ("bsn"), a key only where more says it is one: its quotes
    ("bsn": ...), its owner's name before it ("patient_bsn"), a word for number after it ("bsn_nr") or an element's
    brackets; not alone ("bsn=380146041 fw=2.4.20", a board's serial number in a device's log: an attacker's round).
    A person's record around it marks it too: a name's, a birth date's or an address's key, a patient's or a
    client's word ("patient:\n  naam: Pieter Bakker\n  bsn: 538311691", "?bsn=729978175&include=adres": an attacker's
    round); not "ktp: 3161352106477412  # kode transaksi pembayaran".
    ``short``: an acronym of three letters or fewer, in any case: a person's only after a person's name, and not in a
    device's record ("deviceBSN=168952580", "MAINBOARD_BSN=...", a JSON record with its "model" and "fw" on other
    lines: an attacker's round). ``numbered``: a key only with a word for number after the label.
    """
    after = _KEY_AFTER.match(lower, end)
    if (
        after is None
        or (numbered and (after["suffix"] or "").strip("_.-") not in _NUMBER_SUFFIXES)
        or (end < len(lower) and lower[end].isalnum() and not text[end].isupper())
    ):
        return None
    element = after["op"] == ">"
    if element and (text[start - 1 : start] != "<" or after["quote"]):
        return None  # an element's ">" only right after its name and its opening "<" ("<bsn>"), not "x_bsn >"
    if short and near_a_device(lower, start, end):
        return None  # a device's record: "bsn" is its board's serial number ({"bsn": "180417058", "fw": "2.4.9"})
    before = text[start - 1] if start else "\n"
    if before in _KEY_START:
        quoted = after["quote"] != "" and before == after["quote"]
        marked = quoted or element or after["suffix"] is not None or _PERSON_RECORD.search(lower, *_reach(start, end))
        return after.end() if not small or marked else None
    owner = _KEY_BEFORE.search(lower, max(0, start - 32), start)
    if owner is None:
        return None
    line = text.rfind("\n", 0, owner.start()) + 1
    # ("clientBsn": a small letter, then the label with its capital; the owner's name starts a key)
    camel = text[start].isupper() and text[start - 1].islower()
    glued = before in "_.-" or camel
    first = owner.start()
    if short and lower[first:start].strip("_.-") not in _PERSONS:
        return None  # a short acronym after a person's name only ("patient_bsn", not "board_bsn", "MAINBOARD_BSN")
    return after.end() if glued and (first == line or text[first - 1] in _KEY_START) else None


# Words of a device's record or log line (its firmware, its serial number, its hardware), read this far around a key
_RECORD_REACH = 240
_DEVICE_WORDS = lazy_compile(
    r"(?<![a-z0-9])(?:fw|firmware|serial|sn|s/n|device|board|boards|sensor|imei|mac|hw|hardware|model|sku|part|rev"
    r"|uptime)(?![a-z0-9])"
)


def names_a_device(lower: str, start: int, end: int) -> bool:
    """``lower`` names a device's firmware, hardware or serial between ``start`` and ``end``: a record of a device,
    where an acronym of three letters is a device's ("bsn", a board's serial number), not a person's number."""
    return _DEVICE_WORDS.search(lower, max(0, start), end) is not None


def near_a_device(lower: str, start: int, end: int) -> bool:
    """A device is named within _RECORD_REACH of [start, end): the same record, as a JSON's or a table's lines go."""
    return names_a_device(lower, *_reach(start, end))


def _reach(start: int, end: int) -> tuple[int, int]:
    return max(0, start - _RECORD_REACH), end + _RECORD_REACH


# Words of a person's record: a name's, a birth date's, an address's keys; a patient, a client, an insured
_PERSON_RECORD = lazy_compile(
    r"(?<![a-z])(?:(?:name|naam|nome|nombre|nom|imi[eę]|vorname|nachname|surname|voornaam|achternaam|patient|patiënt"
    r"|client|cliënt|klant|customer|kunde|cliente|paciente|persoon|person|persona|employee|werknemer|medewerker"
    r"|verzekerde|aanvrager|geboortedatum|geburtsdatum|dob|adres|address|adresse|dirección|indirizzo)(?:s|es|en|n)?"
    r"(?![a-z])|birth)"
)


def short_label(name: str) -> bool:
    """``name`` (a label, or a key of COLUMNS) is an acronym of three letters or fewer."""
    return len(name) <= _SMALL_KEY


# A person's word: whose number a key names before a short acronym's label ("patient_bsn", "clientBsn"), or a "whose"
# phrase after a label of words ("della paziente")
_PERSONS = frozenset(
    {"aanvrager", "applicant", "asegurada", "asegurado", "assicurata", "assicurato", "assuré", "assurée", "bambina",
     "bambino", "beneficiaria", "beneficiario", "beneficiary", "betrokkene", "borrower", "candidata", "candidate",
     "candidato", "child", "client", "cliente", "cliënt", "conducente", "conductor", "contact", "customer", "debtor",
     "deceased", "defunto", "dependent", "dipendente", "driver", "empleada", "empleado", "employee", "estudiante",
     "father", "figlia", "figlio", "guarantor", "her", "hija", "hijo", "his", "holder", "inquilino", "insured",
     "kind", "kindes", "klant", "klient", "kund", "kunde", "kundin", "madre", "medewerker", "member", "mitarbeiter",
     "mitarbeiterin", "moeder", "mother", "mutter", "my", "nasabah", "ouder", "owner", "paciente", "padre", "parent",
     "partner", "pasien", "patient", "patiente", "patienten", "patientin", "patiënt", "payee", "paziente", "person",
     "persona", "persoon", "policyholder", "pracownik", "relatie", "richiedente", "signora", "signore", "solicitante",
     "spouse", "staff", "student", "studente", "studentessa", "subscriber", "tenant", "their", "titolare", "titular",
     "user", "usuario", "usuária", "usuário", "utente", "vader", "vater", "versicherte", "versicherten", "verzekerde",
     "werknemer", "worker", "your"}
)  # fmt: skip


# A row of two cells, the label the first: "| BSN | 682090359 |" (a Markdown table of a record's fields),
# "BSN<tab>682090359" (two columns pasted from a sheet); not a label among a row's other cells ("NHS<tab>3808056959<tab>
# GBP", a ledger's payee and amount)
# ... an HTML table's row of two cells, or a definition list's term and its definition ("<tr><td>BSN</td><td>...",
# "<dt>BSN</dt><dd>...": an attacker's round)
_ROW_START = lazy_compile(r"(?:(?:^|\n)[ \t]*(?:\|[ \t]*)?(?:\*\*)?|<tr[^<>]{0,64}>\s*<t[dh][^<>]{0,64}>|<dt>)$")
_NEXT_CELL = lazy_compile(
    r"(?:\*\*)?[ \t]*(?:\|[ \t]*|\t[ \t]*)(?:\*\*)?|</t[dh]>\s*<td[^<>]{0,64}>[ \t]*|</dt>\s*<dd>[ \t]*"
)
_ROW_END = lazy_compile(r"(?:\*\*)?[ \t]*(?:\|[ \t]*)?(?:\r?\n|$)|[ \t]*</td>\s*</tr>|[ \t]*</dd>")


_ROW_REACH = 160  # characters read back from a label for its row's start


def _row_value(text: str, lower: str, start: int, end: int, schemes: tuple[_Scheme, ...]) -> tuple[int, int] | None:
    cell = _NEXT_CELL.match(text, end)
    if cell is None or _ROW_START.search(text, max(0, start - _ROW_REACH), start) is None:
        return None
    if short_label(text[start:end]) and near_a_device(lower, start, end):
        return None  # a device's record of fields ("| model | GW-4400 |" then "| bsn | 185339104 |")
    found = _first(text, cell.end(), schemes)
    return found if found is not None and _ROW_END.match(text, found[1]) else None


# Scripts written without blanks between words: Thai, Lao, Myanmar, Khmer, and East Asia's
_UNSPACED = lazy_compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\U0002ffff]")
# One word after a label of Arabic's or Hebrew's script, whose "of" is written after it ("کد ملی مشتری ۳۸۶۹...", the
# customer's national code)
_ONE_WORD = lazy_compile(r"[ \t]+[^\W\d_]+[ \t]*[:：]?[ \t]*")


def _whole_word(lower: str, start: int, end: int) -> bool:
    before = lower[start - 1] if start else " "
    after = lower[end] if end < len(lower) else " "
    # a label of a script written without blanks ("身份证号：", "マイナンバー") may touch its neighbours
    glued = (not lower[start].isascii() and not lower[start].isalpha()) or _UNSPACED.match(lower, start) is not None
    # (an underscore before the number joins a file's name: "BSN_682090359.md", an attacker's round)
    joined = after == "_" and lower[end + 1 : end + 2].isdigit()
    return glued or (not (before.isalnum() or before == "_") and not after.isalnum() and (after != "_" or joined))


def _value(text: str, end: int, schemes: tuple[_Scheme, ...], *, acronym: bool, basis: bool) -> tuple[int, int] | None:
    connector = (_CONNECTOR_ACRONYM if acronym else _CONNECTOR).match(text, end)
    if basis and _ON_THE_BASIS.match(text, end):
        return None  # "आधार" is a basis too: "रिपोर्ट के आधार पर ..." (on the report's basis)
    if connector is not None and text[end : connector.end()] == "\t":
        return None  # "NHS\t3808056959\tGBP": a table's cells, the label one of them
    found = _first(text, connector.end() if connector is not None else end, schemes)
    if found is not None:
        return found
    # A label's own words before its colon, or one word after a label of Arabic's or Hebrew's script: only numbers
    # with a check digit (not a date alone), the words in one clause and naming no other number; after an acronym,
    # only words of whose it is ("DNI del conductor (...): ", not "TAJ Mahal Palace room confirmation:")
    checked = tuple(scheme for scheme in schemes if scheme.check not in _UNCHECKED)
    if basis or not checked:
        return None
    own = _OWN_WORDS.match(text, end)
    if (
        own is not None
        and (not acronym or _WHOSE.match(text, end) or _SMALL_WORDS.fullmatch(text, end, own.end()))
        and not _OTHER_NUMBER.search(text, end, own.end())
    ):
        found = _first(text, own.end(), checked)
        if found is not None:
            return found
    # whose number a label of words names after it, then the number ("cod. fiscale della paziente VRDGLI62E56A944C",
    # "NHS number of the patient 4145266773": reviewer DC)
    whose = None if acronym else _WHOSE_PHRASE.match(text, end)
    if whose is not None and whose["person"].lower() in _PERSONS and not _OTHER_NUMBER.search(text, end, whose.end()):
        found = _first(text, whose.end(), checked)
        if found is not None:
            return found
    word = _ONE_WORD.match(text, end) if RTL_LETTER.match(text, end - 1) else None
    if word is not None and text[end : word.end()].strip(" \t:：") in _PERSONS_RTL:
        return _first(text, word.end(), checked)
    return None


def _first(text: str, at: int, schemes: tuple[_Scheme, ...]) -> tuple[int, int] | None:
    for scheme in schemes:
        found = _match(scheme, text, at)
        if found is not None:
            return found
    return None


# Whose number an Arabic, Persian or Hebrew label names with one word after it: the customer's, the applicant's, the
# patient's, the user's (not a company's, a store's, an order's: "رقم الهوية التجارية", "کد ملی فروشگاه": an
# attacker's round)
# (a currency after the number is read by contact.py's CURRENCY_AFTER: one list of them)
_UNIT_AFTER = lazy_compile(
    r"[ \t]*(?:Ft\b|rupias|rs\b|ms\b|MB\b|GB\b|KB\b|%|razy|times|mal\b|fois|veces|vezes|keer|kertaa|gånger|gange)"
)
_PERSONS_RTL_WORDS = (
    "مشتری", "کاربر", "متقاضی", "بیمار", "مشترک", "العميل", "المريض", "المستخدم", "المتقدم", "المشترك", "לקוח", "הלקוח",
    "מבוטח", "המבוטח", "המטופל", "מטופל",
)  # fmt: skip
_PERSONS_RTL = frozenset(normalise_text(word) for word in _PERSONS_RTL_WORDS)


def _match(scheme: _Scheme, text: str, at: int) -> tuple[int, int] | None:
    value = scheme.shape.match(text, at)
    if value is None or _UNIT_AFTER.match(text, value.end()) or CURRENCY_AFTER.match(text, value.end()):
        return None  # an amount, a duration, a count ("BSN is 403.999.698 EUR", "RUT: 1062241-7 kr avdrag")
    compact = _compact(value.group()) if scheme.compact else value.group().upper()
    if compact.replace("+", "") in _EXAMPLES:
        return None
    try:
        valid = scheme.check(compact)
    except (ValueError, IndexError):  # a shape the check does not read (never a reason to fail a scan)
        valid = False
    return value.span() if valid else None
