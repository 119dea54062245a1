"""Check digits and number plans: what separates a real identifier from a run of digits."""

from __future__ import annotations

# IBAN length per country (SWIFT IBAN registry, and Iran's). A country missing here is not taken for an IBAN:
# without a known length a mod-97 match alone would flag 1 random token in 97.
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24,
    "AE": 23,
    "AL": 28,
    "AT": 20,
    "AZ": 28,
    "BA": 20,
    "BE": 16,
    "BG": 22,
    "BH": 22,
    "BI": 27,
    "BR": 29,
    "BY": 28,
    "CH": 21,
    "CR": 22,
    "CY": 28,
    "CZ": 24,
    "DE": 22,
    "DJ": 27,
    "DK": 18,
    "DO": 28,
    "EE": 20,
    "EG": 29,
    "ES": 24,
    "FI": 18,
    "FK": 18,
    "FO": 18,
    "FR": 27,
    "GB": 22,
    "GE": 22,
    "GI": 23,
    "GL": 18,
    "GR": 27,
    "GT": 28,
    "HR": 21,
    "HU": 28,
    "IE": 22,
    "IL": 23,
    "IQ": 23,
    "IR": 26,  # Iran's "Sheba" numbers: IBANs by ISO 13616 in every bank's use, outside SWIFT's registry
    "IS": 26,
    "IT": 27,
    "JO": 30,
    "KW": 30,
    "KZ": 20,
    "LB": 28,
    "LC": 32,
    "LI": 21,
    "LT": 20,
    "LU": 20,
    "LV": 21,
    "LY": 25,
    "MC": 27,
    "MD": 24,
    "ME": 22,
    "MK": 19,
    "MN": 20,
    "MR": 27,
    "MT": 31,
    "MU": 30,
    "NI": 28,
    "NL": 18,
    "NO": 15,
    "OM": 23,
    "PK": 24,
    "PL": 28,
    "PS": 29,
    "PT": 25,
    "QA": 29,
    "RO": 24,
    "RS": 22,
    "RU": 33,
    "SA": 24,
    "SC": 31,
    "SD": 18,
    "SE": 24,
    "SI": 19,
    "SK": 24,
    "SM": 27,
    "SO": 23,
    "ST": 25,
    "SV": 28,
    "TL": 23,
    "TN": 24,
    "TR": 26,
    "UA": 29,
    "VA": 22,
    "VG": 24,
    "XK": 20,
    "YE": 30,
}

# Card numbers start with 2 (Mastercard 2-series), 3 (Amex, Diners, JCB), 4 (Visa),
# 5 (Mastercard, Maestro) or 6 (Discover, UnionPay, Maestro); 0, 1, 7, 8 and 9 are not issued to
# cards, and excluding them drops millisecond timestamps and most internal ids that pass Luhn.
_CARD_FIRST_DIGITS = frozenset("23456")
# Networks outside those digits: RuPay's 81 and 82 ranges (India), Troy's 9792 (Turkey), Belkart's
# 9112 (Belarus), Humo's 9860 and UzCard's 8600 (Uzbekistan).
_CARD_OTHER_PREFIXES = ("81", "82", "9792", "9112", "9860", "8600")


# What the Luhn check adds for a doubled digit: twice the digit, less 9 when that is two digits long.
_DOUBLED = str.maketrans("0123456789", "0246813579")


def luhn_valid(digits: str) -> bool:
    """True when the ASCII digit string passes the Luhn (mod 10) check."""
    if digits.isascii() and digits.isdigit():
        # From the right, every other digit as it is and the others doubled: each half summed as
        # bytes (C speed; each digit counts 48 too, taken off once for all), not digit by digit.
        backwards = digits[::-1]
        total = sum(backwards[0::2].encode()) + sum(backwards[1::2].translate(_DOUBLED).encode())
        return (total - 48 * len(digits)) % 10 == 0
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def card_number_valid(digits: str) -> bool:
    return (
        13 <= len(digits) <= 19
        and (digits[0] in _CARD_FIRST_DIGITS or digits.startswith(_CARD_OTHER_PREFIXES))
        and _network_length(digits)
        and luhn_valid(digits)
    )


def _network_length(digits: str) -> bool:
    """A length the network its prefix names issues (ISO/IEC 7812 ranges as the networks publish
    them): a Visa has 13, 16 or 19 digits, never 15; an Amex 15; a Mastercard 16."""
    size = len(digits)
    two, four = int(digits[:2]), int(digits[:4])
    if digits[0] == "4":
        return size in (13, 16, 19)
    if two in (34, 37):
        return size == 15
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return size == 16
    if two in (30, 36, 38, 39):
        return size in (14, 16, 19)  # Diners Club
    return size >= 16 or (digits[0] in "56" and size >= 12)  # JCB, Discover, UnionPay, RuPay ...; Maestro 12-19


_IBAN_LETTERS = {ord(letter): str(10 + index) for index, letter in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}


def iban_valid(compact: str) -> bool:
    """``compact`` is upper-case with no spaces: known country, its length, check digits mod 97."""
    if IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    if not rearranged.isalnum() or not rearranged.isascii():
        return False
    # A-Z become 10-35 (ISO 13616's letter substitution), digits stay.
    return int(rearranged.translate(_IBAN_LETTERS)) % 97 == 1


def ssn_valid(area: str, group: str, serial: str) -> bool:
    """SSA never issues area 000, 666 or 900-999, group 00 or serial 0000."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def gs1_valid(digits: str) -> bool:
    """A GS1 number's check digit (EAN-8, UPC-A, EAN-13, GTIN-14, ISBN-13): weights 1 and 3 from the right."""
    return sum(int(char) * (3 if index % 2 else 1) for index, char in enumerate(reversed(digits))) % 10 == 0


def isbn10_valid(digits: str) -> bool:
    """An ISBN-10's check digit ("X" for ten): weights 10 down to 1, mod 11."""
    return sum((10 - index) * (10 if char == "X" else int(char)) for index, char in enumerate(digits)) % 11 == 0


_ROUTING_WEIGHTS = (3, 7, 1) * 3


def aba_valid(routing: str) -> bool:
    """A US ABA routing number's check: its nine digits weighted 3, 7, 1 sum to a multiple of ten."""
    return sum(int(digit) * weight for digit, weight in zip(routing, _ROUTING_WEIGHTS, strict=True)) % 10 == 0
