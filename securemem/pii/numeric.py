"""Payment cards, IBANs and US social security numbers: digits that carry a checksum or a plan."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator

from securemem.pii.checksums import IBAN_LENGTHS, card_number_valid, iban_valid, luhn_valid, ssn_valid
from securemem.pii.normalize import viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import COUNTED, Scan, Span, accepted, index_words

# Patterns start with a digit and check the character before it in a lookbehind placed after
# that digit: the regex engine can then skip ahead to the next digit instead of trying every
# position, which is most of the cost on ordinary text. A lookahead for the digits (and the
# separator) the pattern needs next comes before those lookbehinds: it says nothing the rest of the
# pattern does not, but fails at once at most digits of a number (its second, third, fourth...),
# where the lookbehinds, several with alternatives, would all be tried first.
# A card may follow another number ("exp 09/27 5292 4741 1667 7371", "CVV 314 4319 ...") but not a
# group of four digits (then it would be the tail of a longer number), and may follow a label glued
# to it by a dot or a dash ("Nr.4273...", "VISA-4619..."), not a digit (a decimal, a dashed number),
# nor a letter except the end of a card's name glued to it ("VISA4373...", "mc5280...").
# The end of a card's name glued to the first digit ("VISA4373...", "mc5280..."): one lookbehind per
# width, as Python's lookbehinds have a fixed width.
_GLUED_CARD_NAME = (
    r"(?<=(?<![A-Za-z])(?i:visa|amex|card)[0-9])|(?<=(?<![A-Za-z])(?i:mc|cc)[0-9])"
    r"|(?<=(?<![A-Za-z])(?i:cardnumber)[0-9])|(?<=(?<![A-Za-z])(?i:cardno|cardnr)[0-9])"
)
# ... and a card's name in German or French ("Karte4111 ..."), or a number's abbreviation after a card's
# name ("card n4111...", "Visa no4111..."), which is_card checks.
_GLUED_CARD_START = (
    rf"{_GLUED_CARD_NAME}|(?<=(?<![A-Za-z])(?i:karte|carte)[0-9])|(?<=(?<![A-Za-z])[Nn][0-9])"
    r"|(?<=(?<![A-Za-z])(?i:no|nr)[0-9])"
    # ... and an underscore joining it to a word of a name ("scan_5229...9026_front.jpg", "card_4111..."):
    # two letters before it, not a hash's or a number's pieces ("a1b2_4111...").
    r"|(?<=[A-Za-z]{2}_[0-9])"
)
_CARD_START = (
    # a word character before it, not one of a script written without spaces (see spaceless_script)
    rf"[0-9](?=[0-9]{{3}})(?:(?<![^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f][0-9])|{_GLUED_CARD_START})"
    r"(?<![0-9][.\-][0-9])(?<!(?<![0-9])[0-9]{4}[ \t][0-9])(?<!(?<![0-9])[0-9]{4}[ \t]{2}[0-9])"
    r"(?<![A-Za-z]{2}[0-9]{2}[ \t][0-9])"  # nor the account part of an IBAN ("DE89 3704 0044 ...")
)
# The words that name a card, in the languages we meet (lower case); each may end a label or stand in
# a sentence before the number.
_CARD_NAMES_SOURCE = (
    r"card|cc\b|mc\b|visa|master(?:card)?|amex|maestro|discover|\bpan\b|kart[eıi]?n?|carte|carta\b|tarjeta|cart[ãa]o|"
    r"카드|カード|信用卡|银行卡|銀行卡|卡号|卡號"  # Korean, Japanese, Chinese ("카드번호 5433 8923 ...": reviewer Z)
)
# The labels a card number may be glued to ("VISA-4619...", "Karten-Nr.4273..."); after any other
# word ("id-4111...") it is an identifier.
_CARD_LABEL = lazy_compile(rf"(?:^|[^a-z])(?:{_CARD_NAMES_SOURCE}|nr|no|num|number)$")
# Groups are separated the same way throughout: one or two spaces or tabs, or a dot, a dash or a slash
# with at most a space on either side ("5454 - 1882 - 0020 - 8729", "6011 / 7493 / 8644 / 8878").
_CARD = lazy_compile(
    rf"""
    {_CARD_START}
    (?:[0-9]{{12,18}}                                          # compact
      |[0-9]{{3}}([ \t]{{1,2}}|[ ]?[.\-/][ ]?)[0-9]{{4,6}}\1[0-9]{{4,5}}    # 4-4-4(-4), 4-6-5
       (?P<more>(?:\1[0-9]{{1,4}}){{0,2}})                       # -4, -4-3
    )
    # Not glued to more, except sixteen digits glued to their expiry or code ("...7949CVV123", "...2117-0927").
    # Or an underscore and a word of a file's name ("scan_5229...9026_front.jpg").
    (?:(?![^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f]|[.\-][0-9])|(?<=[0-9]{{16}})(?=(?i:exp|cvv|cvc|valid)|-[0-9]{{4}}(?![0-9]))|(?<=[0-9]{{13}})(?=_[A-Za-z]{{2}}))
    """,
    re.X,
)
# Any other grouping with one separator throughout ("4 1 1 1 ...", "41-11-11-...", "4111/1111/..."):
# what a writer does to get a number past a filter. Luhn and the card prefixes still decide.
_CARD_REGROUPED = lazy_compile(
    r"[0-9](?<![\w.\-/][0-9])(?<![0-9][ .\-/][0-9])[0-9]{0,3}([ \t]{1,2}|[.\-/])[0-9]{1,4}(?:\1[0-9]{1,4}){2,17}"
    r"(?![\w]|[.\-/][0-9])"
)
# Groups of a card joined by underscores (an identifier-safe spelling: "cc_5292_4741_0000_0002"), not
# a part of a longer underscored number ("1_000_000_...").
# Led by a digit (the engine skips to digits at C speed), the lookbehinds after it.
# Other separators may join in ("5292_4741-0000-0002", "5292__4741__..."), and a card's name may be
# glued on ("card5292_4741_..."); the finder keeps only matches that hold an underscore.
_CARD_UNDERSCORED = lazy_compile(
    rf"[0-9](?=[0-9]{{3}}[_\- ])(?:(?<![0-9A-Za-z][0-9])|{_GLUED_CARD_NAME})"
    r"(?<![0-9]_[0-9])[0-9]{3}[_\- ]{1,2}[0-9]{4,6}[_\- ]{1,2}[0-9]{4,5}(?:[_\- ]{1,2}[0-9]{1,4}){0,2}"
    r"(?![0-9A-Za-z]|[_\-][0-9])"
)
_CARD_MIXED = lazy_compile(r"[0-9](?<![\w.\-][0-9])[0-9]{3}(?:[ .\-][0-9]{4}){3}(?![\w]|[.\-][0-9])")
_NOT_DIGITS = lazy_compile(r"[^0-9]")
# The fewest digits a number holds for each type to be in it (scan.py: numbers of 7 digits or more
# are where these are looked for).
CARD_DIGITS = 13
SHORT_MAESTRO_DIGITS = 12  # ... and a Maestro's shortest, only where it is named (find_short_maestros)
SSN_DIGITS = 9
_TAIL = 2  # what the lookaheads read after the last digit
_SSN_TAIL = 14  # ... and the SSN pattern's, which may read the next field's label ("...8886dob#")
_CARD_TAIL = 6  # ... and the card pattern's, which may read an expiry or "CVV" glued to the number

# The match starts at the two check digits; the country code is checked behind them.
# Groups may be set apart by one or two spaces, a dash or a dot ("FR76.6529.7008...").
# ... or glued to its label: "ibanDE89...".
_IBAN = lazy_compile(
    r"[0-9][0-9](?:(?<=(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2})|(?<=(?<![A-Za-z0-9])(?i:iban)[A-Za-z]{2}[0-9]{2})"
    r"|(?<=(?<![A-Za-z0-9])[A-Za-z]{2} [0-9]{2})"  # or a space after the country code: "de 58 94170 ..."
    r"|(?<=(?<![A-Za-z0-9])[A-Z] [A-Z] [0-9]{2})"  # or its letters read out: "D E 50, 2005 0550, ..."
    r"|(?<=\?[0-9]{2}[A-Z]{2}[0-9]{2}))"  # a subfield of a bank statement (MT940 :86:): "?31DE29304301..."
    # groups apart by blanks, a dash, a dot, a tab, or a comma between digits as a caller's pauses are written
    r"(?:(?:[ ]{1,2}|[\-.\t]|(?<=[0-9]),[ ](?=[0-9]))?[A-Za-z0-9]){11,31}"
)
# ... or its groups set apart by slashes, its country's capitals glued to its check digits ("TR36/0006/2072/...":
# reviewer CL; not "de 22/07/2024 cancelada", a date after a word: an attacker's round)
_SLASHED_IBAN = lazy_compile(r"(?<![A-Za-z0-9/])[A-Z]{2}[0-9]{2}(?:/[A-Z0-9]{1,4}){3,8}(?![A-Za-z0-9/])")

# Glued to its label ("SSN-123-04-2078", "SSN737-70-0210"), not to a number; " - " may separate too.
_SSN = lazy_compile(
    # Led by a digit (the engine skips to digits at C speed), the lookbehinds after it.
    r"(?P<area>[0-9](?=[0-9]{2}[-. 0-9])(?:(?<=[Ss][Ss][Nn][0-9])|(?<=[Ss][Ss][Nn]_[0-9])"  # "SSN737...", "ssn_737..."
    r"|(?<![\w.][0-9])(?<![0-9_]-[0-9]))[0-9]{2})"
    # two spaces too ("social security no. 389  21  1575"), a spaced dot ("616 . 75 . 7196"), where the
    # text names one
    r"(?P<sep>[-. ]?| - |  | \. )"
    r"(?P<group>[0-9]{2})(?P=sep)"
    # Not glued to more, except a dashed one to the next field's label ("ssn#848-95-8886dob#1966-...").
    r"(?P<serial>[0-9]{4})(?:(?![\w]|[-.][0-9])|(?<=[0-9]{3}-[0-9]{2}-[0-9]{4})(?=[A-Za-z]{2,12}[#:=]))"
)
# (or slashes, right after its label only: "ssn: 679/43/2152", reviewer CE)
_SSN_LABEL_RIGHT_BEFORE = lazy_compile(
    r"(?<![^\W\d_])(?:ssn|social security(?: number| no\.?)?|soc\.? ?sec\.?(?: no\.?)?)[ \t]*(?:#|no\.?|number)?"
    r"[ \t]*[:=#]?[ \t]*$",
    re.IGNORECASE,
)
# ... or after a key's quotes, a bracket, "SS#" or "my social is" ('"ssn": "386/75/0149"', "tax id (SSN) 386/75/0149":
# a probe of labels and separators), where its serial is no year or round measure (_not_slashed_serial)
_SSN_LABEL_LOOSELY_BEFORE = lazy_compile(
    r"(?<![^\W\d_])(?:ssn|ss(?=[ \t]*#)|social[ \-]security(?:[ \-](?:number|no\.?|nr\.?))?|soc\.? ?sec\.?(?: no\.?)?"
    r"|(?:my|his|her|their) social)\)?[\"'>]?[ \t]*(?:#|no\.?|number)?[ \t]*(?:[:=#(\-]|is\b:?|was\b)?[ \t]*[\"']?$",
    re.IGNORECASE,
)
# (a slash maybe with a blank each side, read only right after an SSN's label: "ssn#121 / 06 / 5659", reviewer CF)
_SSN_MIXED = lazy_compile(
    r"(?P<area>[0-9](?=[0-9]{2}(?:[-. /]| / )[0-9])(?<![\w./][0-9])[0-9]{2})(?:[-. /]| / )(?P<group>[0-9]{2})"
    r"(?:[-. /]| / )(?P<serial>[0-9]{4})(?![\w]|[-./][0-9])"
)
# An SSN written without dashes is only an SSN when the text says so just before it.
# ("her social is 557 85 3890": "social" alone is how people say it).
_SSN_WORDS = lazy_compile(
    # a key's last word too ("customer_ssn: 536221234", "US_SSN:536221234": an attacker's round)
    # dotted as an acronym ("S.S.N.: 546 55 7647": reviewer AV)
    r"(?<![a-z0-9])(?:ssn|s\.s\.n\.?|ss ?no|ss ?num(?:ber)?|social|soc\.? ?sec|taxpayer id|tin|itin"
    r"|sozialversicherung"
    # "tax id" (reviewer AP), not an employer's or a company's (an EIN: attackers' rounds)
    r"|(?<!employer )(?<!company )(?<!business )(?<!seller )(?<!vendor )tax id(?![^0-9\n]{0,12}\bein\b))"
    r"(?:\b|_$)"
    r"|[a-z]ssn>$"  # an element of XML named for it: "<ns:MemberSSN>011176469</ns:MemberSSN>"
)


# A copy of the text where an underscored card's separators show: ASCII digits "0", "_" itself,
# "-" and " " as "-", anything else "x" (a character that is not ASCII is "?" first, one for one).
_UNDERSCORE_TABLE = bytes(
    ord("0") if 48 <= code <= 57 else code if code == ord("_") else ord("-") if chr(code) in "- " else ord("x")
    for code in range(256)
)
# What every underscored card the finder keeps holds: two digits joined by a run of one or two of
# _CARD_UNDERSCORED's separators with an underscore in it. Led by a literal (C speed).
_UNDERSCORE_JOIN = lazy_compile(rb"0(?:__?|_-|-_)0")


def may_hold_underscored_card(scan: Scan) -> bool:
    """Digits joined by an underscore: text without any (most text that holds "_", identifiers and
    keys) skips the pattern's pass over every digit."""
    return _UNDERSCORE_JOIN.search(scan.encoded.translate(_UNDERSCORE_TABLE)) is not None


def find_underscored_cards(scan: Scan) -> Iterator[Span]:
    """Cards whose groups are joined by underscores ("5292_4741_0000_0002"): no number window holds
    them (an underscore is part of a word), so they are looked for apart, where the text has one."""
    found = []
    for match in _CARD_UNDERSCORED.finditer(scan.text):
        if "_" in match.group() and card_number_valid(_NOT_DIGITS.sub("", match.group())):
            found.append(match.span())
    yield from found

    def is_card(digits: str, start: int, glued: bool = False) -> bool:
        del glued  # every number of an underscored run is glued to the one before
        return card_number_valid(digits) and (len(digits) >= 16 or digits[0] not in "56")

    # Cards glued to each other by underscores ("4111111111111111_5555555555554444"; see _run_cards),
    # looked for where the copy shows such a run (found at C speed: most text holds none).
    copy = scan.encoded.translate(_UNDERSCORE_TABLE)
    if copy.find(_UNDERSCORED_GROUPS) != -1 or copy.find(_UNDERSCORED_NUMBERS) != -1:
        yield from _run_cards(scan, scan.whole, found, is_card, "_")


# A card's groups joined by pipes, nothing around them ("pls charge deductible to 4266|3813|5488|4319": reviewer CT):
# no number window holds them (a pipe separates a table's cells). Not one cell of a row of more: the groups stand
# alone, no pipe or word before or after; Luhn and the brands' prefixes decide.
# (and other joints a number is not read across, one throughout, maybe with a blank each side: "4266 | 5489 | ...",
# "5430:0521:...", "4580\\3995\\...", "4262~4568~...", "4221+8953+...", "5605;3521;...": the attacker's round; not a
# table's cells, a pipe before or after the groups)
_CARD_PIPED = lazy_compile(
    r"[0-9](?<![\w|\\:~+;][0-9])(?<![|][ ][0-9])[0-9]{3}(?P<j>[ ]?[|\\:~+;][ ]?)"
    r"(?:[0-9]{4}(?P=j)[0-9]{4}(?P=j)[0-9]{1,4}|[0-9]{6}(?P=j)[0-9]{5})(?![\w|\\:~+;]|[ ][|])"
)


_PIPED_LEAST_DIGITS = 13


def may_hold_piped_card(scan: Scan) -> bool:
    """A joint with four digits before it (each joint found by a substring search: prose has a colon or a semicolon
    after words, seldom after four digits), then the pattern."""
    # _CARD_PIPED holds thirteen ASCII digits at least (four, four, four and one): text with fewer has no match.
    if scan.digit_count < _PIPED_LEAST_DIGITS:
        return False
    text = scan.text
    for joint in "|\\:~+;":
        at = text.find(joint, 4)
        while at != -1:
            before = text[at - 5 : at].rstrip(" ")[-4:]
            if len(before) == 4 and before.isdigit() and text[at + 1 : at + 3].lstrip(" ")[:1].isdigit():
                return _CARD_PIPED.search(text) is not None
            at = text.find(joint, at + 1)
    return False


def find_piped_cards(scan: Scan) -> Iterator[Span]:
    for match in _CARD_PIPED.finditer(scan.text):
        digits = _NOT_DIGITS.sub("", match.group())
        if len(digits) >= 15 and card_number_valid(digits) and _paid_nearby(scan, match.start(), match.end()):
            yield match.span()


# A payment spoken of around such groups: pipes and counted keys hold lists of ports, sizes, bins, rooms, weeks and
# doses as often ("ports=4040|8080|9090|3006", '{"week1": "4312", ...}': an attacker's round), one in ten of which pass
# Luhn; a card's word or a payment's before them, or its expiry or code after.
_PAID = lazy_compile(
    rf"(?:{_CARD_NAMES_SOURCE}|pay(?:ment)?|charge|checkout|credit|debit|billing|deductible|purchase|refund)"
)
# (a key's "exp": or exp= in a record, or a card's expiry or code written after it, "exp 08/27", "cvv 123", "valid thru
# 08/27": the attacker of the README's promises)
_EXPIRY_AFTER = lazy_compile(
    r"""[^\n]{0,40}?["']?(?:exp(?:iry|ires)?|valid(?: thru| through| until)?|cvv2?|cvc2?)\.?["']?[ \t]*"""
    r"""(?:[:=/]|\(?[0-9]{1,2} ?/ ?[0-9]{2}|[0-9]{3,4}(?![0-9]))"""
)
_PAID_BACK = 96


def _paid_nearby(scan: Scan, start: int, end: int) -> bool:
    return (
        _PAID.search(scan.lower, max(0, start - _PAID_BACK), start) is not None
        or _EXPIRY_AFTER.match(scan.lower, end) is not None
    )


# A card's groups under four keys that count them, in JSON or a dict ('{"c1": "4929", "c2": "7137", "c3": "2018", "c4":
# "1583"}': reviewer CU): one key's name and 1, 2, 3, 4, each with its group, in order. Read as one card from the
# first group to the last; Luhn and the brands' prefixes decide.
_KEYED_PART = r"""["']?(?P=stem){n}["']?[ \t]*[:=][ \t]*["']?(?P<g{i}>[0-9]{{4}})["']?"""
_KEYED_JOINT = r"[ \t]*(?:[,;&|][ \t]*)?(?:\r?\n[ \t]*)?"  # a comma, "&" or a line break, or several of them


def _keyed(first: int) -> re.Pattern[str]:
    """Four keys counted from ``first`` (0 or 1), each with a group."""
    lead = rf"""["']?(?P<stem>[A-Za-z_\-]{{0,12}}){first}["']?[ \t]*[:=][ \t]*["']?(?P<g1>[0-9]{{4}})["']?"""
    return re.compile(lead + "".join(_KEYED_JOINT + _KEYED_PART.format(n=first + i, i=i + 1) for i in (1, 2, 3)))


_KEYED_GROUPS = (_keyed(1), _keyed(0))


# The second key and its group, led by its number (a literal the engine skips to at C speed): the patterns above,
# whose optional quote and key's name may start anywhere, were tried at every character of a text only where this is.
_KEYED_HINT = lazy_compile(r"""[12]["']?[ \t]*[:=][ \t]*["']?[0-9]{4}""")
_KEYED_HINT_DIGITS = 5


def may_hold_keyed_card(scan: Scan) -> bool:
    """A key's "1" or "2" before a colon or "=" (each found by a substring search), then the patterns."""
    # _KEYED_HINT holds five ASCII digits (the key's "1" or "2" and four): text with fewer has no hint.
    if scan.digit_count < _KEYED_HINT_DIGITS:
        return False
    text = scan.text
    for joint in ":=":
        at = text.find(joint, 1)
        while at != -1:
            if any(_KEYED_HINT.match(text, at - back) for back in (1, 2, 3) if at >= back):
                return any(pattern.search(text) is not None for pattern in _KEYED_GROUPS)
            at = text.find(joint, at + 1)
    return False


def find_keyed_cards(scan: Scan) -> Iterator[Span]:
    for match in (match for pattern in _KEYED_GROUPS for match in pattern.finditer(scan.text)):
        groups = [int(match[f"g{n}"]) for n in (1, 2, 3, 4)]
        digits = "".join(match[f"g{n}"] for n in (1, 2, 3, 4))
        steps = {b - a for a, b in itertools.pairwise(groups)}
        # (not a series: doses, years or codes that count up by one step, '{"dose_part1": "4100", "dose_part2":
        # "4105", ...}', few digits over and over: an attacker's round)
        if (
            len(steps) > 1
            and _COUNTED_THINGS.fullmatch(match["stem"].lower().strip("_-")) is None
            and len(set(digits)) >= _KEYED_DISTINCT
            and card_number_valid(digits)
            and _paid_nearby(scan, match.start(), match.end())
        ):
            yield match.start("g1"), match.end("g4")


_KEYED_DISTINCT = 6
# Keys that count periods, places and steps, not a card's groups ("Q1: 5500", "week1", "row1", "phase_1": the
# attacker's round)
_COUNTED_THINGS = lazy_compile(
    r"q|quarter|w|wk|week|m|month|d|day|y|yr|year|h|hr|hour|phase|row|col|column|size|port|bin|level|tier|round|step|"
    r"stage|sample|lot|batch|shelf|room|floor|zone|slot|lane|test|run|item|line|page|part|v|version"
)


_UNDERSCORED_GROUPS = b"_".join([b"0000"] * 6)  # six groups of four (in the copy of _UNDERSCORE_TABLE)
_UNDERSCORED_NUMBERS = b"0" * 13 + b"_" + b"0" * 13  # two numbers of a card's length


# A fuel card's word, whole, in the languages of a fleet's notes (the text as written, lower-cased; the view's
# spellings of other scripts): what a fuel card's number follows ("Tankkarte 7083 6790 4167 0403", "топливная
# карта 7044 5595 4117 1333 130", "加油卡7002 ..."), a number's abbreviation maybe between ("Tankkarte Nr.").
# Not any card's word: a product's card, a gift card's order, a concert's ticket, "Cardinal Health", a truck's
# waybill ("карточка товара 7440...", "gift card order 7088...", "卡车运单号 7127...": an attacker's round).
_FUEL_WORDS = (
    # a fuel card's or a fleet card's name, whole (not "Fuel PO", "Tankkartenabrechnung", "Shell Cardiff": an
    # attacker's round)
    r"fuel[ \-]?card|fleet[ \-]?card|tankkarte|tankkarten|tankpas|tankkaart|tankkort|drivstoffkort|flottenkarte|"
    r"dkv-karte|cartão frota|cartao frota|polttoainekortti|tarjeta de gasolina|carte essence|karta flotowa|"
    r"brændstofkort|bränslekort|karta paliwowa|tankovací karta|palivová karta|üzemanyagkártya|üzemanyag-kártya|"
    r"yakıt kartı|cartão combustível|cartão de combustível|tarjeta de combustible|carta carburante|carte carburant|"
    r"card de combustibil|kartu bbm|kartu bahan bakar|thẻ nhiên liệu|dkv card|uta card|wex card|shell card|"
    r"加油卡|油卡|주유카드|주유 카드|بطاقة الوقود|"
    + "|".join(
        re.escape(word) for word in viewed_words("топливная карта", "паливна картка", "फ़्यूल कार्ड", "फ्यूल कार्ड", "บัตรน้ำมัน")
    )
)
# The word whole ("Tankkarten-Sammelrechnung" is an invoice), then at most a number's abbreviation and a colon
# ("UTA card statement 7015..." is a statement's number: an attacker's round).
_FUEL_CARD_WORD = lazy_compile(
    rf"(?<![^\W\d_])(?:{_FUEL_WORDS})(?![^\W\d_]|-[^\W\d_])"
    r"[ \t:#\-]*(?:(?:nr|no|num|number|nummer|numer|numéro|número|n°|nº)\.?[ \t:#\-]*)?$"
)


# A fuel card's number as the fleets print it, its issuer's six digits apart ("700609 3457891588311").
_FUEL_CARD_GROUPS = lazy_compile(r"7(?<![\w.\-][0-9])[0-9]{5}[ \-][0-9]{10,13}(?![\w]|[.\-][0-9])")


def fuel_card(digits: str, before: str) -> bool:
    """A fuel card's number (ISO/IEC 7812's industry 7, petroleum: 16 to 19 digits that pass Luhn) right
    after a fuel card's word (``before``: the lower-cased text before it): the cards of the fleets DKV, UTA,
    Shell, WEX and others (reviewer BB: a logistics company's dispatchers' notes, in 20 languages). Elsewhere
    such a number is anything."""
    return digits[0] == "7" and 16 <= len(digits) <= 19 and luhn_valid(digits) and bool(_FUEL_CARD_WORD.search(before))


def find_cards(scan: Scan) -> Iterator[Span]:
    windows = scan.around(scan.numbers_with(CARD_DIGITS), 0, _CARD_TAIL)
    if not windows:
        return
    text = scan.text

    def is_card(digits: str, start: int, glued: bool = False) -> bool:
        """``glued``: the number is one of a run's (see _run_cards), where the character before it
        is the run's separator."""
        if not card_number_valid(digits) and not fuel_card(digits, scan.before(start, 40)):
            return False
        if len(digits) < 16 and digits[0] in "56" and not CARD_WORDS.search(scan.before(start, 28)):
            return False  # a Maestro of 12-15 digits only where a card is named: EAN-13 codes pass Luhn one in ten
        if glued:
            pass
        elif start > 0 and text[start - 1] in ".-" and not _CARD_LABEL.search(scan.before(start - 1, 16)):
            return False
        elif (
            start > 0
            and text[start - 1].isalpha()
            and not spaceless_script(text[start - 1])
            and not _CARD_NAMES.search(scan.before(start, 28))
        ):
            return False  # glued to a letter: the end of a card's name, or "n" of "card n4111..."
        if _named_no_card(scan, start):
            return False
        # An IMEI named just before it (15 digits, no Amex prefix) is not a card.
        return not (
            len(digits) == 15 and digits[:2] not in ("34", "37") and _DEVICE_WORDS.search(scan.before(start, 24))
        )

    found: list[Span] = []
    done = 0
    for low, high in windows:
        match = _CARD.search(text, max(low, done), high)
        while match is not None:
            end = _card_end(match, is_card)
            if end:
                found.append((match.start(), end))
                done = end
                match = _CARD.search(text, end, high)
            else:
                match = _CARD.search(text, match.start() + 1, high)
    yield from found
    # The regrouped pattern reads only the numbers that held no card in a usual grouping.
    if found:
        windows = _without(windows, found)
    regrouped = list(accepted(_CARD_REGROUPED, text, windows, lambda match: _regrouped_card(scan, match, is_card)))
    yield from regrouped
    # Groups of four with separators that change ("4027-6646 4381-3888"): a card only where the
    # text names one just before it.
    if regrouped:
        windows = _without(windows, regrouped)
    mixed = list(
        accepted(
            _CARD_MIXED,
            text,
            windows,
            lambda match: (
                bool(_CARD_NAMES.search(scan.before(match.start(), 16)))
                and is_card(_NOT_DIGITS.sub("", match.group()), match.start())
            ),
        )
    )
    yield from mixed
    if mixed:
        windows = _without(windows, mixed)
    named = list(_named_card_groups(scan, windows, is_card))
    yield from named
    if named:
        windows = _without(windows, named)
    fuel = list(
        accepted(
            _FUEL_CARD_GROUPS,
            text,
            windows,
            lambda match: fuel_card(_NOT_DIGITS.sub("", match.group()), scan.before(match.start(), 40)),
        )
    )
    yield from fuel
    if fuel:
        windows = _without(windows, fuel)
        named += fuel
    windows = scan.around(windows, 5, 0)  # the leading group sits before the card's number span
    after_group = list(
        accepted(_CARD_AFTER_GROUP, text, windows, lambda match: _card_after_group(scan, match, is_card), "card")
    )
    yield from after_group
    runs = scan.numbers_with(_RUN_DIGITS)
    if runs:
        taken = sorted(found + regrouped + mixed + named + after_group)
        yield from _run_cards(scan, scan.around(runs, 0, _TAIL), taken, is_card)


# Groups of any size and separators that change, right after a card's name: a scanned form's OCR
# ("card no.): 645428 2497146235", "カード番号 3536 741 87890 9288", "amex no 3781 / 343761 - 26836":
# reviewer AL). The groups read are the longest run from the first that makes a card: Luhn, the prefix
# and the network's length decide, and a number or a date after it ("9288 03/29") stays out. Each group
# has three digits or more: a statement's dates and amounts after "Kartenzahlung", "Visa ****4921" ("21.03.2024
# 21.03.2024 -45,60", "4921 15.03.2024 45.60") pass Luhn one time in ten (an attacker's round).
_CARD_ANY_GROUPS = lazy_compile(
    r"[0-9](?<![\w.\-/][0-9])[0-9]{2,9}(?:(?:[ \t]{1,2}|[ \t]?[.\-/][ \t]?|,[ \t]?)[0-9]{3,10}){1,6}"
    r"(?![\w]|[.\-/,][0-9])"
)
_GROUP = lazy_compile(r"[0-9]+")
# characters before the number where the card is named (a few words: "Carte indiquée par le joueur : 5229 /
# 6092-6952.5038", reviewer CM)
_NAMED_CARD_REACH = 32


def _named_card_groups(
    scan: Scan, windows: list[tuple[int, int]], is_card: Callable[[str, int], bool]
) -> Iterator[Span]:
    text = scan.text
    done = 0
    for low, high in windows:
        for match in _CARD_ANY_GROUPS.finditer(text, max(low, done), high):
            if not _CARD_NAMES.search(scan.before(match.start(), _NAMED_CARD_REACH)):
                continue
            groups = list(_GROUP.finditer(text, match.start(), match.end()))
            digits = ""
            ends: list[tuple[int, str]] = []
            for group in groups:
                digits += group.group()
                ends.append((group.end(), digits))
            for end, held in reversed(ends[1:]):
                if 13 <= len(held) <= 19 and is_card(held, match.start()):
                    yield match.start(), end
                    done = end
                    break


# A Maestro of twelve digits (Maestro issues 12 to 19; the shortest are read nowhere else): only right
# after the word itself, as a till's receipt prints it ("MAESTRO 5893 3746 0382": reviewer AL), Luhn-valid,
# in groups of four or in one.
_SHORT_MAESTRO = lazy_compile(
    r"[56](?<![\w.\-/][56])[0-9]{3}([ .\-]?)[0-9]{4}\1[0-9]{4}"
    # not the start of a longer number ("... 2648 1"); an expiry may follow ("... 2648 03/29")
    r"(?![\w]|[.\-/][0-9]|\1[0-9]+(?![/.\-:]?[0-9]))"
)
_MAESTRO = "maestro"
_MAESTRO_REACH = 24  # characters between the word and the number, none of them a digit or a line break


def find_short_maestros(scan: Scan) -> Iterator[Span]:
    lower, text = scan.lower, scan.text
    at = lower.find(_MAESTRO)
    while at != -1:
        end = at + len(_MAESTRO)
        match = _SHORT_MAESTRO.search(text, end, end + _MAESTRO_REACH + 14)
        whole_word = (at == 0 or not lower[at - 1].isalnum()) and not lower[end : end + 1].isalnum()
        if match is not None and whole_word and _maestro_named(text[end : match.start()], match.group()):
            yield match.span()
        at = lower.find(_MAESTRO, end)


def _maestro_named(between: str, number: str) -> bool:
    """The word's number: only a card's words and marks between ("MAESTRO 5893 ...", "Maestro card no.:
    ..."; not "Maestro de clientes 5123...", "UiPath Maestro run 6001...", "maestro_id=...": an attacker's
    round); and a Maestro's (Luhn)."""
    if len(between) > _MAESTRO_REACH or _MAESTRO_BETWEEN.fullmatch(between) is None:
        return False
    return luhn_valid(_NOT_DIGITS.sub("", number))


_MAESTRO_BETWEEN = lazy_compile(
    r"(?i:[ \t]*(?:[:#*]|card|karte|kaart|kort|carte|carta|tarjeta|cartão|cartao|no\.?|nr\.?|n°|number|num\.?|"
    r"nummer|numéro|número|numero)){0,4}[ \t:]*"
)


# Cards glued to each other ("4111111111111111-5555555555554444", "4111-1111-1111-1111-5555-5555-
# 5555-4444", 150 cards joined by dashes) or set among other groups of four ("1234 5678 4111 1111
# 1111 1111 9999 0000"): the patterns above refuse a card glued to more digits by "." or "-", and a
# card after a group of four (it would be the tail of a longer number). A run of numbers joined by one
# separator throughout is read again where it is no one number:
# - numbers of 13 to 19 digits each (two or more): each is a card when it is one alone;
# - groups of four digits, six or more (24 digits and more: no code a text holds is that long in
#   groups of four; a run of five may be one, "1234 4144 3960 4589 4590" stays): each four groups in
#   a row are a card when they pass Luhn and start as the major networks' cards start, and are not
#   one list's sorted numbers ("4000 4001 4002 4003", "2021 2022 2023 2024": ports, years); read from
#   the left, a card's groups are not read again.
_RUN = lazy_compile(r"[0-9](?<![\w.\-][0-9])[0-9]*([ .\-_])[0-9]+(?:\1[0-9]+)*(?![\w]|[.\-][0-9])")
_RUN_DIGITS = 24  # the fewest digits a run read for cards holds (two cards of 13, six groups of 4)
_RUN_GROUPS = 6
# What the major networks' 16-digit cards start with: Visa; Mastercard (51-55, 2221-2720); Discover
# (6011, 644-649, 65); UnionPay (62); JCB (3528-3589); Diners Club (36, 38, 300-305).
_MAJOR_NETWORK = lazy_compile(
    r"4|5[1-5]|222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720|6011|64[4-9]|65|62|35(?:2[89]|[3-8][0-9])|3[68]|30[0-5]"
)


def _run_cards(
    scan: Scan, windows: list[Span], taken: list[Span], is_card: Callable[..., bool], separators: str = " .-"
) -> Iterator[Span]:
    """The cards in runs of numbers joined by one of ``separators`` (see above), not overlapping ``taken``."""
    text = scan.text
    done = 0
    for low, high in windows:
        for run in _RUN.finditer(text, max(low, done), high):
            done = run.end()
            separator = run[1]
            if separator not in separators:
                continue
            if _COMPACT_RUN[separator].fullmatch(run[0]):
                if not _named_code(scan, run.start()):
                    for group in _RUN_GROUP.finditer(text, run.start(), run.end()):
                        if not _overlaps(taken, group.start(), group.end()) and is_card(group[0], group.start(), True):
                            yield group.span()
            elif _GROUPED_RUN[separator].fullmatch(run[0]) and not _named_code(scan, run.start()):
                yield from _cards_among_groups(list(_RUN_GROUP.finditer(text, run.start(), run.end())), taken, is_card)


_RUN_GROUP = lazy_compile(r"[0-9]+")
_COMPACT_RUN = {sep: re.compile(rf"[0-9]{{13,19}}(?:{re.escape(sep)}[0-9]{{13,19}})+") for sep in " .-_"}
_GROUPED_RUN = {sep: re.compile(rf"[0-9]{{4}}(?:{re.escape(sep)}[0-9]{{4}}){{{_RUN_GROUPS - 1},}}") for sep in " .-_"}
_IBAN_HEAD_BEFORE = lazy_compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2}[ .\-]?$")


def _named_code(scan: Scan, start: int) -> bool:
    """The run is named as one code or as numbers of another kind ("serial ...", "license key ...",
    "order ids: ..."), or is an IBAN's account part: the name before the run speaks for each of its
    numbers, however far from it."""
    before = scan.before(start, 28)
    return bool(
        _GROUPED_CODE_WORDS.search(before)
        or (_NOT_CARD_WORDS.search(before) and not _CARD_NAMES.search(before))
        or _IBAN_HEAD_BEFORE.search(before)
    )


def _cards_among_groups(groups: list[re.Match[str]], taken: list[Span], is_card: Callable[..., bool]) -> Iterator[Span]:
    values = [group[0] for group in groups]
    at = 0
    while at + 4 <= len(groups):
        window = values[at : at + 4]
        # Every major network's start is in its first four digits, the first group: read before the rest.
        if _MAJOR_NETWORK.match(window[0]) and window != sorted(window):
            digits = "".join(window)
            start, end = groups[at].start(), groups[at + 3].end()
            if luhn_valid(digits) and not _overlaps(taken, start, end) and is_card(digits, start, True):
                yield start, end
                at += 4
                continue
        at += 1


def _overlaps(spans: list[Span], start: int, end: int) -> bool:
    """One of the sorted ``spans`` overlaps ``start:end``."""
    at = bisect_left(spans, (end,))
    return at > 0 and spans[at - 1][1] > start


# A card after a group of three or four digits that is no part of it ("exp 0927 4966 8199 7852 7817",
# "txn 8812 4144 3960 4589 4590", "cid 4417 3708 090482 96871"): the pattern above refuses a card
# right after a four-digit group (it would be the tail of a longer number), so where the whole run
# held no card, the groups after its first are read alone, when a word stands before that group.
_CARD_AFTER_GROUP = lazy_compile(
    r"[0-9](?<![\w.\-/][0-9])[0-9]{2,3}(?P<lead>[ \t]{1,2})"
    r"(?P<card>[0-9]{4}(?P<sep>[ \t]{1,2}|[.\-])(?:[0-9]{4}(?P=sep)[0-9]{4}(?P=sep)[0-9]{4}|[0-9]{6}(?P=sep)[0-9]{5}))"
    r"(?![\w]|[.\-][0-9])"
)
_WORD_BEFORE = lazy_compile(r"(?:[^\W\d_]{2,}[.:#]?[ \t]{1,2}|[:=][ \t]{0,2})$")
# Codes written in long runs of groups: all their groups are one number.
_GROUPED_CODE_WORDS = lazy_compile(
    r"\b(?:serial|sn|s/n|sku|iccid|imei|meid|ean|gtin|upc|barcode|isbn|tracking|awb|parcel|shipment|license|licence|"
    r"key|code|voucher|gift|coupon|activation|product|snowflake)\b[^0-9a-z]{0,4}$"
)


def _card_after_group(scan: Scan, match: re.Match[str], is_card: Callable[[str, int], bool]) -> bool:
    start = match.start("card")
    if not _WORD_BEFORE.search(scan.text, max(0, match.start() - 24), match.start()):
        return False  # a longer number's groups ("1234 5678 9012 3456 7890"), not a label's
    if _GROUPED_CODE_WORDS.search(scan.before(match.start(), 24)):
        return False  # "serial 8812 4144 3960 4589 4590": one code in five groups
    return is_card(_NOT_DIGITS.sub("", match["card"]), start)


def _regrouped_card(scan: Scan, match: re.Match[str], is_card: Callable[[str, int], bool]) -> bool:
    digits = _NOT_DIGITS.sub("", match.group())
    # One digit at a time ("4 1 1 1 ..."), a card only where the text speaks of one: dice logs,
    # sudoku rows and survey scores pass Luhn one time in ten.
    if len(digits) * 2 - 1 == len(match.group()) and not CARD_WORDS.search(scan.before(match.start(), 48)):
        return False
    return is_card(digits, match.start())


CARD_WORDS = lazy_compile(rf"{_CARD_NAMES_SOURCE}|payment|pay\b|credit|debit|number|nr\b|no\b")
# What follows a card on the line after it ("5480 2006" then "4146 3165" then "exp 11/26, name on card":
# reviewer Z): its expiry with its date, or its code with its digits; a word alone ("exp 3", "valid",
# "master", "cc:") is not enough.
CARD_AFTER = lazy_compile(
    r"^[^0-9a-z]{0,8}(?:(?:exp(?:iry|ires|iration(?: date)?)?\.?|valid (?:thru|through|until|to)|good thru|유효기간|"
    r"有効期限|有效期|到期)[^0-9a-z]{0,4}[0-9]{1,2} ?/ ?(?:20)?[0-9]{2}(?![0-9])|(?:cvv2?|cvc2?|csc|cv2)[^0-9a-z]{0,4}"
    r"[0-9]{3,4}(?![0-9]))"
)


def _card_end(match: re.Match[str], is_card: Callable[[str, int], bool]) -> int:
    """The end of the card the match starts, or 0; a card followed by more groups ("... 7371 123", a
    CVV) is tried without them."""
    start, end = match.span()
    if is_card(_NOT_DIGITS.sub("", match.group()), start):
        return end
    more = match.group("more")
    if more:
        cut = match.start("more")
        separator = match.group(1)
        text = match.string
        # Each shorter form, the longest first: the match cut at one of the separators of its extra groups.
        for at in range(len(more) - 1, -1, -1):
            if more.startswith(separator, at) and is_card(_NOT_DIGITS.sub("", text[start : cut + at]), start):
                return cut + at
    return 0


# A phone's IMEI is 15 digits ending in a Luhn check digit, and may start like a Visa card ("49..."):
# named just before it, a 15-digit number is not a card, unless it has an Amex prefix (no other
# card network issues 15 digits).
_CARD_NAMES = CARD_NAMES = re.compile(_CARD_NAMES_SOURCE)  # a card named (cardpins.py and told.py read it too)
# A payment card named as a whole phrase: an owner's or a kind's word before "card", its number or details after, its
# name in other languages (two attackers' rounds: "wildcard", "card reader", "gift card", "green card", "Visa
# application", "Karte" and "karta" as maps name none). Read by the readers of a card sent in pieces and of a card's
# code named "code" (told.py, cardpins.py).
_NOT_A_PAYMENT_CARD = (
    r"reader|game|table|layout|index|component|system|terminal|set|deck|from|for|printer|slot|design|form|template"
)
# One card's word alone, in the lower-cased view, where digits must pass a card's checks besides (a table's
# cells, digits turned around): not many cards' nor a network's (a row of counts: "| Visa | 4120 | 1388 | ...",
# "| PAN cards issued (k) | ..."), not "kort" (Norwegian's "short" as well) nor "carta" (a wine list's):
# attackers' rounds. ("карта" is "kapтa" in the view.)
A_CARDS_WORD = lazy_compile(
    r"(?<![^\W\d_])(?:card|card[ _]?(?:number|no|num)|cardnumber|karta|karte|kartennummer|kreditkarte|kaart"
    r"|kaartnummer|carte|tarjeta|cartão|kártya|kártyaszám|kortnummer|kreditkort|betalkort|kart|kartı|kapт\w*)"
    r"(?![^\W\d_])|카드|カード|卡"
)
PAYMENT_CARD_NAMED = lazy_compile(
    r"(?<![^\W\d_])(?:(?:(?:credit|debit|bank|payment)[ \t]+card"
    r"|(?:my|the|your|his|her|our|other|new)[ \t]+(?:credit[ \t]+|debit[ \t]+)?card"
    r"(?:[ \t]+(?:is|was|number|no|details|digits))?)"
    rf"(?![ \t]*(?:{_NOT_A_PAYMENT_CARD})(?![^\W\d_]))"
    r"|full[ \t]+card|card(?:'s)?[ \t]*(?:number|no|nr|num|details|digits|#)|card[ \t]+(?:is|was)"
    r"|(?:pay|paying|paid)[ \t]+(?:by|with)[ \t]+card"
    # a network's name, not a country's visa ("Visa application checklist": an attacker's round)
    r"|(?:visa|mastercard|amex|american express)"
    r"(?![ \t]+(?:application|appointment|interview|office|status|type|category))"
    r"|kartennummer|kreditkarte|numéro de (?:la )?carte|carte bancaire|número de (?:la )?tarjeta|tarjeta de crédito"
    r"|número do cartão|cartão de crédito|numero della carta|carta di credito|kaartnummer|numer karty|karta kredytowa"
    r"|kártyaszám|kártyám|kortnummer)(?![^\W\d_])"
    r"|カード番号|卡号|卡號|信用卡|银行卡|카드 ?번호"
)


def spaceless_script(char: str) -> bool:
    """A letter of a script written without spaces between words (kana, Han, Hangul, Thai): a number
    glued to one is not glued to a word ("カード番号は4621 3682 4544 1854")."""
    code = ord(char)
    return 0x3040 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0x0E00 <= code <= 0x0E7F


# Numbers of other kinds that pass Luhn as often as any: named just before, they are not cards. Unless
# the words right before the number say it paid ("user bought with 4245...": reviewer AT; not "Order paid:
# 2023120100166136", "order paid order_ref=...": an order's id, an attacker's round).
_NOT_CARD_WORDS = lazy_compile(
    r"\b(?:ean(?:-?1[34])?|gtin|gln|upc|barcode|isbn|tracking|order|offset|channel|guild|message|snowflake|user|account|"
    r"transaction|txn|invoice|ticket|serial|sku|shipment|parcel|awb|iccid)\b"
    r"(?![^0-9]*\b(?:paid|pays|paying|bought|buys|purchased|charged)[ \t]+(?:with|by|using|on|to|via)[ \t]*$)"
    r"[^0-9]{0,16}$"
)
_CARD_LINE = 120  # characters of a card's line read back for its name
# ... a payment card's brand or kind as whole words, not any word holding "card" or a brand's letters ("discovered",
# "Scorecard", "SIM card", "cc:", "Visa application", "Maestro Abbado": an attacker's round)
_CARD_BRAND = lazy_compile(
    r"(?<![\w-])(?:amex|american express|mastercard|master card|(?:credit|debit|charge|corporate|company) card)"
    r"(?![\w-])"
)


def _named_no_card(scan: Scan, start: int) -> bool:
    """A word right before the number names something else ("EAN-13: 4008627617607", "order number:
    3040029165063095", "channel id 6516..."); not the account a card pays for, the card's brand or kind named earlier
    in its line ("Amex on file for the corporate travel account: 3744 220407 59098": reviewer CX), unless it is a
    bank's account ("Visa fee refunded to bank account ...")."""
    before = scan.before(start, 28)
    not_card = _NOT_CARD_WORDS.search(before)
    if not_card is None or _CARD_NAMES.search(before):
        return False
    return not (
        "account" in not_card.group()
        and "bank" not in before
        and _CARD_BRAND.search(scan.line_before(start, _CARD_LINE)) is not None
    )


_DEVICE_WORDS = lazy_compile(r"\b(?:imei|meid)\b[^0-9a-z]{0,6}(?:(?:no|nr|number|is)\b[^0-9a-z]{0,4})?$")


# Where every IBAN starts: two letters (its country) not glued to a word, then two digits, maybe after
# a space ("de 58 94170 ..."). Led by one digit class (not "[0-9]{2}"), which lets the engine skip to
# the digits.
_IBAN_HEAD = lazy_compile(
    r"[0-9][0-9](?:(?<=(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2})|(?<=(?<![A-Za-z0-9])[A-Za-z]{2} [0-9]{2}))"
)


# A copy of the text for the IBAN gate: ASCII letters "a", ASCII digits "0", a space "_", anything else
# " " (a character that is not ASCII is "?" first, one for one). In it an IBAN's head (_IBAN_HEAD: two
# letters not glued to a letter or a digit, then two digits, maybe after a space) is "aa00" or "aa_00"
# with no "a" or "0" before: a pattern led by that literal, which the engine finds at C speed instead
# of stepping from digit to digit.
_LETTERS_AND_DIGITS = bytes(
    ord("a")
    if chr(code).isascii() and chr(code).isalpha()
    else ord("0")
    if 48 <= code <= 57
    else ord("_")
    if code == 32
    else ord(" ")
    for code in range(256)
)
# Led by the digits (lookbehinds read the letters before them): the engine skips from one pair of
# digits to the next, where a pattern led by "aa" stopped at nearly every pair of letters of prose.
_IBAN_HEAD_COPY = lazy_compile(rb"00(?:(?<=aa00)(?<![a0]aa00)|(?<=aa_00)(?<![a0]aa_00)|(?<=a_a_00)(?<![a0]a_a_00))")


def may_hold_iban(scan: Scan) -> bool:
    """A country code and check digits anywhere (text holding none skips find_ibans). Not only near
    numbers of seven digits: an IBAN's account part may be mostly letters ("BH62 BBKU A187 8Z29 5M51 98")."""
    # The head's two digits are two ASCII digits in a row, "00" in the numbers' copy too (one test
    # of C: most prose has no such pair, and no copy of its own is made).
    if b"00" in scan.canonical and _IBAN_HEAD_COPY.search(scan.encoded.translate(_LETTERS_AND_DIGITS)) is not None:
        return True
    if "?" in scan.text and _SUBFIELD_IBAN.search(scan.text) is not None:
        return True
    return "iban" in scan.words and _GLUED_IBAN.search(scan.lower) is not None


index_words("iban")  # (among the gates' words: found in the one pass for all)
_GLUED_IBAN = lazy_compile(r"(?<![a-z0-9])iban[a-z]{2}[0-9]{2}")
_SUBFIELD_IBAN = lazy_compile(r"\?[0-9]{2}[A-Z]{2}[0-9]{2}")


# An IBAN in a form's body or a query, its blanks written as "+", under a field named for it ("iban=GB74+LOYD+4125+2016+
# 3854+81&bic=...": reviewer BY): groups of four, the last of one to four. Read only there: "+" joins cells in a
# spreadsheet's formula ("=ES73+ES146") and words in a search ("query=MK42+2LN+Milton+Keynes": an attacker's round).
_FORM_IBAN = lazy_compile(
    r"(?<![a-z0-9])iban[a-z0-9_\]\[]{0,24}[\"']?[ \t]*[=:][ \t]*[\"']?"
    r"(?P<value>[A-Za-z]{2}[0-9]{2}(?:\+[A-Za-z0-9]{4}){2,7}\+[A-Za-z0-9]{1,4})(?![A-Za-z0-9+])",
    re.IGNORECASE,
)


def _form_ibans(text: str) -> Iterator[Span]:
    for match in _FORM_IBAN.finditer(text):
        if iban_valid(match["value"].replace("+", "").upper()):
            yield match.span("value")


def find_ibans(scan: Scan) -> Iterator[Span]:
    text = scan.text
    if "+" in text and "iban" in scan.lower:
        yield from _form_ibans(text)
    if "/" in text:
        for slashed in _SLASHED_IBAN.finditer(text):
            if _iban_end(text, slashed.start(), slashed.end()) == slashed.end():
                yield slashed.span()
    match = _IBAN.search(text)
    while match is not None:
        spaced = text[match.start() - 1] == " "  # "de 58 94170 790088 2823430"
        start = match.start() - 2 - spaced
        if spaced and text[start] == " ":  # "D E 50 ...": its country's letters read out
            start -= 1
        end = _iban_end(text, start, match.end())
        if spaced and end and IBAN_LENGTHS[text[start:end].translate(_SKIPPED)[:2].upper()] < _SPACED_HEAD_LENGTH:
            end = 0  # a short one ("no 12 3456 7890 123"): a word and a reference more often than an IBAN
        if not end and scan.lettered is not text:
            end = _iban_end(scan.lettered, start, match.end())  # its "I" and "O" were letters after all
        if end and ", " in text[start:end] and not text[start].isupper():
            end = 0  # groups apart by commas, as read out, after a country's capitals only ("de 12, 1312, ...": a list)
        if end:
            yield start, end
        match = _IBAN.search(text, end or match.start() + 1)


_SKIPPED = str.maketrans("", "", " -.\t,/")
# An IBAN with a space between its country code and its check digits is read when it is this long
# or longer (Germany's, France's, Britain's; not Norway's 15 characters, which a word and a number
# such as "no 12 3456 7890 123" make).
_SPACED_HEAD_LENGTH = 20


def _iban_end(text: str, start: int, limit: int) -> int:
    """End of a valid IBAN beginning at ``start`` and not reaching past ``limit``, else 0.

    The candidate regex is greedy (it may run into the next word); the country's length says
    where the IBAN really stops.
    """
    compact = text[start:limit].translate(_SKIPPED)
    length = IBAN_LENGTHS.get(compact[:2].upper())
    if length is None:
        return 0
    if len(compact) < length:
        return 0
    compact = compact[:length].upper() if compact.isascii() else ""
    # Letters written for digits ("DE905l9886O83832O9446l") are read as digits when the IBAN as
    # written fails its check.
    if not compact or not (iban_valid(compact) or iban_valid(compact[:4] + compact[4:].translate(_UPPER_AS_DIGITS))):
        return 0
    # Where the IBAN's last character sits in the text (spaces and dashes between its characters).
    seen = 0
    end = start
    while seen < length:
        if text[end] not in " -.\t,/":
            seen += 1
        end += 1
    if end < len(text) and text[end].isalnum():
        # Glued to the next field's label only ("IBANGB46BARC20605400664336BICBARCGB2L").
        return end if _NEXT_BANK_FIELD.match(text, end) else 0
    return end


_NEXT_BANK_FIELD = lazy_compile(r"BIC|SWIFT|(?i:bic|swift|bank|ref)(?![a-z])")


# The letters that stand for digits, upper-cased as an IBAN is read ("DE905L9886O83832O9446L").
_UPPER_AS_DIGITS = str.maketrans("OIL", "011")


def _without(windows: list[tuple[int, int]], found: list[Span]) -> list[tuple[int, int]]:
    """The windows in which no finding starts (a binary search each: a text may hold thousands)."""
    starts = sorted(start for start, _ in found)
    return [(low, high) for low, high in windows if (i := bisect_left(starts, low)) == len(starts) or starts[i] >= high]


def may_hold_ssn(scan: Scan) -> bool:
    """One pass of the SSN pattern over the whole text: most numbers of nine digits or more are not
    shaped like one (nor like one with mixed separators)."""
    return _SSN.search(scan.text) is not None or _SSN_MIXED.search(scan.text) is not None


_NOT_SSN_WORDS = lazy_compile(
    r"\b(?:part|model|serial|sku|item|article|art|catalog(?:ue)?|order|invoice|ticket|isbn|patent|case|docket|lot|batch|"
    r"ref|reference|po|build|version|release|job|run|routing|aba|rtn|account|acct|barcode|page|vat)"
    r"\b[^0-9a-z]{0,3}(?:(?:no|nr|num|number|#)\b)?[^0-9a-z]{0,3}$"
)


def find_ssns(scan: Scan) -> Iterator[Span]:
    windows = scan.around(scan.numbers_with(SSN_DIGITS), 0, _SSN_TAIL)
    if not windows:
        return
    found = list(accepted(_SSN, scan.text, windows, lambda match: _is_ssn(scan, match)))
    yield from found
    # Separators that change ("SSN: 616-07 7617"): an SSN only where the text names one just before.
    rest = _without(windows, found)
    yield from accepted(_SSN_MIXED, scan.text, rest, lambda match: _mixed_ssn(scan, match))


def _mixed_ssn(scan: Scan, match: re.Match[str]) -> bool:
    if "/" in match.group():
        before = scan.before(match.start(), 32)
        if _SSN_LABEL_RIGHT_BEFORE.search(before) is None and (
            _SSN_LABEL_LOOSELY_BEFORE.search(before) is None or _not_slashed_serial(match["serial"])
        ):
            return False  # slashes only right after an SSN's label ("ssn: 679/43/2152"; not "ssn rev 001/01/2024")
    return (
        ssn_valid(match["area"], match["group"], match["serial"])
        and _ssn_named_before(scan, match.start())
        and not _NOT_SSN_WORDS.search(scan.before(match.start(), 24))
    )


def _not_slashed_serial(serial: str) -> bool:
    """A slashed triple's last part that is a year or a round measure: a file's number and its year, a date, a
    product's dimensions ("F. No. 102/15/2023-IT (SSN) 102/15/2023", "SS# 316/20/1250 stainless bracket", "her social
    was 230/40/1200 (kcal/protein/sodium)": an attacker's round)."""
    return serial[:2] in ("19", "20") or int(serial) % 50 == 0


def names_an_ssn(lower: str) -> bool:
    """``lower`` (lower-cased) holds a word that names an SSN ("SSN", "social", "tax id"...)."""
    return _SSN_WORDS.search(lower) is not None


def _ssn_named_before(scan: Scan, start: int) -> bool:
    """An SSN's word just before ``start``; also spelt out letter by letter as OCR reads a spaced-out
    form ("S o c i a l  S e c u r i t y  N o . :  464 62 9626": reviewer AC)."""
    before = scan.before(start, 32)
    if _SSN_WORDS.search(before) is not None:
        return True
    hashed = _SS_HASH.search(before)
    if hashed is not None:
        # "SS# 008 03 0116" (reviewer BL), "SS #:": led by nothing or by whose it is; after any other word "SS" is a
        # ship's, a slide's, a steel's, a set's (an attacker's round: "Stainless SS# 316 10 1000 sheet")
        words = _WORDS.findall(before[: hashed.start()].rsplit("\n", 1)[-1])
        if not words or words[-1] in _WHOSE_SS:
            return True
    return _asked_or_spelt(scan, start)


# "SS#" right before the number: only "#:" or blanks between
_SS_HASH = lazy_compile(r"(?<![a-z0-9])ss ?#[ \t:.]*$")
_WORDS = lazy_compile(r"[^\W\d_]+")
_WHOSE_SS = frozenset(
    ("patient", "customer", "client", "employee", "member", "applicant", "borrower", "insured", "subscriber",
     "claimant", "spouse", "his", "her", "their", "my", "your", "the", "and", "with")
)  # fmt: skip


def _asked_or_spelt(scan: Scan, start: int) -> bool:
    """An SSN asked for a line before, or its label spelt out (see _ssn_named_before)."""
    # ... or asked for a line before, in a chat or a call's notes ("Can you confirm ... your SSN?" then "[customer]
    # sure, the whole thing is 205 16 7762": reviewer BG)
    asked = _SSN_ASKED.search(scan.before(start, _ASKED_BACK))
    if asked is not None and _ANSWER_LEAD.fullmatch(asked.group("lead")) and not _NOT_SSN_WORDS.search(asked["lead"]):
        return True
    before = scan.before(start, 96)
    before = before[before.rfind("\n") + 1 :]
    label = _SPACED_LABEL.search(before)
    if label is None:
        return False
    words = " ".join(_SPACING.sub("", run.group()) for run in _SPACED_LETTERS.finditer(label.group()))
    return _SSN_WORDS.search(words) is not None


_ASKED_BACK = 160
# The SSN asked for, and the number on the next line, a reply's few words before it: not any "social" or "tin"
# with a question ("Any social plans this weekend?", "Is the lid tin?"), nor a count or a commit the next line
# names (an attacker's round).
_SSN_ASKED = lazy_compile(
    r"(?:(?<![a-z])ssn(?![a-z])|s\.s\.n\.?|social security)[^\n?]{0,40}\?[ \t]*\r?\n(?P<lead>[^\n]*)$"
)
_ANSWER_LEAD = lazy_compile(r"(?:\[?[a-z]{1,12}\]?:?[ \t]*)?(?:[a-z',]{1,10}[ \t]+){0,6}")


# Three letters or more, each apart from the next by the same one or two blanks, dash or dot: a word
# OCR or a typist spaced out ("S o c i a l", "S  o  c  i  a  l", "S-o-c-i-a-l": the attacker's variants).
_SPACED_RUN = r"(?<!\S)[^\W\d_](?P<gap>[ \t]{1,2}|[-.])[^\W\d_](?:(?P=gap)[^\W\d_])+"
_SPACED_LETTERS = lazy_compile(_SPACED_RUN + r"\.?(?!\S)")  # "S.S.N." ends in its dot
_SPACING = lazy_compile(r"[ \t.\-]")
# Such words right before the number: only blanks, "N o ." and a colon or "#" after the last one
# (an attacker's round: "Razón social: Frutas Gómez S L U  Tel. 612345678" is a company's name and a phone).
_SPACED_LABEL = lazy_compile(rf"(?:{_SPACED_RUN}[.]?[ \t]{{1,4}})+(?:n[ \t.\-]{{0,2}}o[ \t.]{{0,3}})?[:#]?[ \t]*$")


# HL7's object identifier of the SSA's numbers: a CDA document's "<id extension="708542248"
# root="2.16.840.1.113883.4.1"/>" holds an SSN, in either order of its attributes (reviewer BO).
_SSA_OID_ROOT = lazy_compile(r"root=[\"']2\.16\.840\.1\.113883\.4\.1[\"']")


def _ssa_oid_beside(scan: Scan, match: re.Match[str]) -> bool:
    """The number is an element's ``extension`` whose ``root`` is the SSA's identifier (the same element)."""
    text = scan.text
    # (the element's own window only: a search of the whole text for the identifier, per number, made a CSV of
    # 40,000 SSNs quadratic)
    if _EXTENSION_BEFORE.search(text, max(0, match.start() - 12), match.start()) is None:
        return False
    low = text.rfind("<", max(0, match.start() - 96), match.start())
    high = text.find(">", match.end(), match.end() + 96)
    if low == -1 or high == -1:
        return False
    return _SSA_OID_ROOT.search(text, low, high) is not None


_EXTENSION_BEFORE = lazy_compile(r"extension=[\"']\Z")


def _is_ssn(scan: Scan, match: re.Match[str]) -> bool:
    if not ssn_valid(match["area"], match["group"], match["serial"]):
        return False
    if _NOT_SSN_WORDS.search(scan.before(match.start(), 24)):
        return False  # "Part number 302-15-4421": a catalogue's number
    if _TICKET_PREFIX.search(scan.text, max(0, match.start() - 8), match.start()) and not _ssn_named_before(
        scan, match.start()
    ):
        return False  # "Ticket INC-482-19-7734": a ticket's number after its system's letters (reviewer AL)
    if match["sep"] in ("-", ".", " - ") or _ssn_named_before(scan, match.start()) or _ssa_oid_beside(scan, match):
        return True
    if (
        match["sep"] == " "
        and match.end("area") in scan.no_break
        and match.end("group") in scan.no_break
        and _STANDS_ALONE.search(scan.text, max(0, match.start() - 8), match.start()) is not None
        and not _MEASURED.match(scan.text, match.end())
        and not COUNTED.match(scan.text[match.end() : match.end() + 16].lower())
    ):
        # No-break spaces typed between the groups, as deliberate as dashes, in a field of its own (a line's or a
        # cell's start, after a colon); not three counts or measures after a noun ("Scores 231\u00a017\u00a04410 en
        # trois manches", "Sizes 640\u00a048\u00a01024 px": an attacker's round)
        return True
    # Named further back in its sentence ("her social security number, which she read out twice over
    # the phone, was 407 42 6160"): the full name only, on the same line; not a count ("the batch
    # processed 512 34 5678 records") nor a VAT number ("tax ID: DE 123456789").
    before = scan.before(match.start(), 96)
    line = before[before.rfind("\n") + 1 :]
    named = _SSN_NAMED.search(line)
    if named is None or "social media" in line or _PHONE_BEFORE.search(line):
        return False
    if COUNTED.match(scan.text[match.end() : match.end() + 16].lower()) or _VAT_PREFIX.search(
        scan.text, max(0, match.start() - 4), match.start()
    ):
        return False
    # "Tax ID" names an EIN as well: only nine digits as an SSN is written, on a line without "EIN".
    return not named.group().startswith("tax") or (match["sep"] in ("", "-") and _EIN.search(line) is None)


_STANDS_ALONE = lazy_compile(r"(?:^|[\n\t:;=#|(\[{\"'>,])[ \t]*$")
_MEASURED = lazy_compile(r"[ \t\u00a0]*(?:[kmgt]?hz|px|pt|dpi|em|rem|[kmgt]?b|[kmgt]?bps|°|deg|x\b)", re.IGNORECASE)
_PHONE_BEFORE = lazy_compile(r"(?:phone|tel|mobile|cell|fax)[ \t:.#]*$")
# The letters ticket systems number their records with ("INC-", "CHG-", "REQ-", "RITM-"): any other letters
# before an SSN's digits ("EMP-", "SS-", a file's "doe-john-") hide nothing (an attacker's round).
_TICKET_PREFIX = lazy_compile(r"(?<![A-Za-z])(?:INC|CHG|REQ|RITM|PRB|TASK|SCTASK|CS|SR|CR|TKT|CASE|JIRA)-$")
_EIN = lazy_compile(r"\bein\b|employer")


_VAT_PREFIX = lazy_compile(r"(?<![A-Za-z])[A-Z]{2}[ \t]?$")  # a country's code leads a VAT id ("DE 123456789")


# Or the line names several ("our SSNs for the 1040: me 356 87 9348, Jack Pemberton 557810750"), or
# gives one as people say it, the next after it ("my social is 059 79 0698, and my daughter's is
# 143 31 2905": reviewer R).
_SSN_NAMED = SSN_NAMED = re.compile(  # an SSN named (told.py reads it too)
    r"\b(?:ssns?|social security (?:numbers?|nos?)|sozialversicherungsnummer|tax[ \t]?id|社会安全号码?|社會安全號碼?|"
    r"(?:my|his|her|their|your|our|the)[ \t]+social(?:[ \t]+(?:is|are|was|:))?)\b"
)
