"""Values told in parts, each part named by where it goes: an SSN given as "the first three are 895, the middle two
14 and the last four 8024", a card sent as "první polovina 49297779, druhá polovina 24567343" (its first half,
its second half). Reviewer BB (blind) wrote them as a customer who will not say a number in one go, or a model
told to slip it past a filter, would: each part alone is any number, the parts put together are the value.

Read: the words that name each part, in the order the value takes them, on one line, with only "are", "is",
"digits", a colon or a dash between each and its digits (the first part said to be one: "are", a colon). An
SSN's parts must make one SSA may issue; a card's halves one whose network and Luhn check hold, in a paragraph
that names a card, the second half ending its clause. Each part is reported where it stands (the scrubber
replaces each: what lies between stays as written).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from functools import partial

from securemem.pii.answers import PASSWORD_SYMBOLS
from securemem.pii.checksums import card_number_valid, iban_valid, ssn_valid
from securemem.pii.numeric import A_CARDS_WORD, CARD_NAMES, PAYMENT_CARD_NAMED, SSN_NAMED
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import LineStarts, Scan, Span, index_words

Hit = tuple[str, int, int]

# Between a part's name and its digits: "are", "is", "digits", a colon, a dash; no noun ("the first three days
# had 412 tickets, the next two 87 and the last four 1093": a count per day; an attacker's round).
_BETWEEN = r"(?:[ \t]*(?:are|is|were|was|digits|numbers|ones|:|=|-|–))*[ \t]*"
# The first part is said to be one ("the first three are 895", "first 3 digits: 412"): a table's or a sum's first
# three have none ("Sales by month: first three 734, second two 28, final four 3307": an attacker's round).
_SAID = r"(?:[ \t]+(?:digits|numbers))?[ \t]*(?:are|is|were|was|:|=)[ \t]*"
_SSN_PARTS = lazy_compile(
    rf"(?<![^\W\d_])(?:first|1st)[ \t]+(?:three|3){_SAID}(?<![0-9])(?P<area>[0-9]{{3}})(?![0-9])"
    rf"[^\n]{{0,60}}?(?<![^\W\d_])(?:middle|next|second|2nd)[ \t]+(?:two|2)(?:[ \t]+digits)?{_BETWEEN}"
    rf"(?<![0-9])(?P<group>[0-9]{{2}})(?![0-9])"
    rf"[^\n]{{0,60}}?(?<![^\W\d_])(?:last|final)[ \t]+(?:four|4)(?:[ \t]+digits)?{_BETWEEN}"
    rf"(?<![0-9])(?P<serial>[0-9]{{4}})(?![0-9])"
)
# An SSN's parts as SSA names them, each a key and its value ("area=102 group=66 serial=0749": reviewer BC).
_SSN_FIELDS = lazy_compile(
    r"(?<![^\W\d_])area[ \t]*[=:][ \t]*(?P<area>[0-9]{3})(?![0-9])[ \t,;]{1,3}"
    r"group[ \t]*[=:][ \t]*(?P<group>[0-9]{2})(?![0-9])[ \t,;]{1,3}serial[ \t]*[=:][ \t]*(?P<serial>[0-9]{4})(?![0-9])"
)
# An SSN's three parts under three keys that each name it, in a row ('{"ssn_a":"656","ssn_b":"81","ssn_c":"0987"}',
# "ssn1=656 ssn2=81 ssn3=0987": reviewer CT): one finding from the first part to the last (in JSON what is left is
# still JSON: the first key's value).
_SSN_KEY = r"""["']?ssn[_\-]?[a-z0-9]{0,8}["']?[ \t]*[=:][ \t]*["']?"""
_SSN_KEYS = lazy_compile(
    rf"(?<![^\W\d_]){_SSN_KEY}(?P<area>[0-9]{{3}})[\"']?[ \t]*[,;]?[ \t]*"
    rf"{_SSN_KEY}(?P<group>[0-9]{{2}})[\"']?[ \t]*[,;]?[ \t]*{_SSN_KEY}(?P<serial>[0-9]{{4}})(?![0-9])"
)
# A value written one character at a time with the same mark between each ("SSN is 3-2-7-9-1-8-0-4-3, just
# remove the dashes", "D-E-1-1-1-0-0-7-...": reviewer BC): read joined, it must be an SSN after its name, a
# card whose network and Luhn check hold, or an IBAN whose check digits hold.
_CHAR_BY_CHAR = lazy_compile(
    r"(?<![\w\-.,/])(?P<run>[A-Za-z0-9](?P<sep>[\-.,/])[A-Za-z0-9](?:(?P=sep)[A-Za-z0-9]){7,40})(?![\w]|[\-.,/][\w])"
)


def _char_by_char(text: str, lower: str) -> Iterator[Hit]:
    for match in _CHAR_BY_CHAR.finditer(text):
        joined = match["run"].replace(match["sep"], "").upper()
        if joined.isdigit():
            # An SSN's digits between dashes after its name ("SSN field ... 8.1.4.2.6.7.1.2.3" is a telecom's
            # subsystem number, "social security tiers: 2/1/9/..." counts); a card's after a card's word (a
            # survey's answers and dice rolls pass a Luhn check one time in ten): the attacker's round on BC's.
            if len(joined) == 9 and match["sep"] == "-" and ssn_valid(joined[:3], joined[3:5], joined[5:]):
                if SSN_NAMED.search(lower, max(0, match.start() - 60), match.start()):
                    yield "US_SSN", *match.span("run")
            elif (
                13 <= len(joined) <= 19
                and card_number_valid(joined)
                and CARD_NAMES.search(lower, max(0, match.start() - 60), match.start())
            ):
                yield "CREDIT_CARD", *match.span("run")
        elif joined[:2].isalpha() and joined[2:4].isdigit() and 15 <= len(joined) <= 34 and iban_valid(joined):
            yield "IBAN", *match.span("run")


# The words for a half, first and second, in the languages of the reviewers' notes.
_FIRST_HALF = (
    r"first half|1st half|první polovina|první polovinu|prvá polovica|pierwsza połowa|pierwszą połowę|erste hälfte|"
    r"première moitié|premiere moitie|primera mitad|primeira metade|prima metà|prima meta|eerste helft|første halvdel|"
    r"första halvan|ensimmäinen puolikas|első fele|prima jumătate|prima jumatate|"
    # a sixteen-digit card's eight and eight ("primeros ocho 5525 5311, últimos ocho 1935 7019": reviewer BC)
    r"first eight|first 8|primeros ocho|primeros 8|premiers huit|ersten acht|primi otto|primeiros oito"
)
_SECOND_HALF = (
    r"second half|2nd half|other half|druhá polovina|druhou polovinu|druhá polovica|druga połowa|drugą połowę|"
    r"zweite hälfte|andere hälfte|seconde moitié|deuxième moitié|seconde moitie|deuxieme moitie|segunda mitad|"
    r"otra mitad|segunda metade|outra metade|seconda metà|seconda meta|tweede helft|anden halvdel|andre halvdel|"
    r"andra halvan|toinen puolikas|második fele|a doua jumătate|a doua jumatate|"
    r"last eight|last 8|últimos ocho|ultimos ocho|últimos 8|derniers huit|letzten acht|ultimi otto|últimos oito"
)
_HALF_DIGITS = r"[0-9]{6,10}|[0-9]{4}[ ][0-9]{4}"  # "49297779", "5525 5311"
_PAYMENT_CARD = lazy_compile(
    r"(?<![^\W\d_])(?:credit|debit|kredit|crédito|credito|crédit|débito|debito|visa|mastercard|amex|maestro|"
    r"card number|tarjeta del cliente|tarjeta bancaria|carte bancaire|carte bleue|bankkarte|girocard|cartão do cliente)"
    r"(?![^\W\d_])"
)
_CARD_HALVES = lazy_compile(
    rf"(?<![^\W\d_])(?:{_FIRST_HALF})(?![^\W\d_]){_BETWEEN}(?<![0-9])(?P<first>{_HALF_DIGITS})(?![0-9])"
    rf"[^\n]{{0,80}}?(?<![^\W\d_])(?:{_SECOND_HALF})(?![^\W\d_]){_BETWEEN}(?<![0-9])(?P<second>{_HALF_DIGITS})(?![0-9])"
    r"(?![ \t]*[^\s.,;!?)])"  # the half ends its clause: no currency or unit after it ("... 87305792 EUR")
)
_HALF_MARKS = ("half", "polovin", "polovic", "połow", "hälfte", "moiti", "mitad", "metade", "metà", "meta", "helft",
               "halvdel", "halvan", "puolikas", "fele", "jumăt", "jumat", "eight", "ocho", "huit", "acht", "otto",
               "oito", "primeros 8")  # fmt: skip


_TOLD_WORDS = index_words("first", "1st", "serial", "ssn")
_HALF_WORDS = index_words(*_HALF_MARKS)


def may_hold_told_parts(scan: Scan) -> bool:
    words = scan.words  # the marks (and "ssn") are among the gates' words, found in one pass
    if not _TOLD_WORDS.isdisjoint(words):
        return True
    # halves need a number of four digits or more; characters one at a time their shape in the canonical copy
    if scan.most_digits >= 4 and not _HALF_WORDS.isdisjoint(words):
        return True
    return _one_at_a_time(scan)


def _one_at_a_time(scan: Scan) -> bool:
    """Digits (or an IBAN's country and check digits) one at a time with a mark between each, found in the scan's
    canonical copy (digits "0", blanks and marks "-") at the speed of a substring search: this runs on every text."""
    # Each shape holds three digits or five, so text with fewer (most prose) has none: a count the scan keeps.
    digits = scan.digit_count
    if digits < 3:
        return False
    canonical = scan.canonical
    if digits >= 5 and (canonical.find(b"0-0-0-0-0") != -1 or canonical.find(b"0x0x0x0x0") != -1):
        return True
    # "x-x-0-0-0" is found from its digits, "0-0-0", then read back for "x-x-": a search led by "x-" stepped on
    # every blank after a word.
    at = canonical.find(b"0-0-0")
    while at != -1:
        if at >= 4 and canonical.startswith(b"x-x-", at - 4):
            return True
        at = canonical.find(b"0-0-0", at + 1)
    return False


def find_told_parts(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    if "serial" in lower:
        line_start = LineStarts(lower)
        named_lines: dict[int, bool] = {}  # each line read once for the SSN's name (once per field was quadratic)
        for match in _SSN_FIELDS.finditer(lower):
            # an SSN named in its line (a warehouse's, a parking lot's areas and groups are none: the
            # attacker's round on BC's readers)
            start = line_start(match.start())
            named = named_lines.get(start)
            if named is None:
                end = lower.find("\n", match.end())
                named = named_lines[start] = SSN_NAMED.search(lower, start, len(lower) if end < 0 else end) is not None
            if named and ssn_valid(match["area"], match["group"], match["serial"]):
                for part in ("area", "group", "serial"):
                    yield "US_SSN", *match.span(part)
    if "ssn" in lower:
        yield from _ssn_keys(lower)
    if _one_at_a_time(scan):
        yield from _char_by_char(scan.text, lower)
    if "first" in lower or "1st" in lower:
        for match in _SSN_PARTS.finditer(lower):
            if ssn_valid(match["area"], match["group"], match["serial"]):
                for part in ("area", "group", "serial"):
                    yield "US_SSN", *match.span(part)
    if any(mark in lower for mark in _HALF_MARKS):
        yield from _card_halves(lower)


def _ssn_keys(lower: str) -> Iterator[Hit]:
    for match in _SSN_KEYS.finditer(lower):
        if ssn_valid(match["area"], match["group"], match["serial"]):
            yield "US_SSN", match.start("area"), match.end("serial")


def _card_halves(lower: str) -> Iterator[Hit]:
    paragraph, read = 0, 0  # the paragraph's start, and how far the text was searched for one
    named_from: dict[tuple[int, bool], int] = {}  # by paragraph and pattern: where its first card's name ends
    for match in _CARD_HALVES.finditer(lower):
        blank_line = lower.rfind("\n\n", read, match.start())
        if blank_line != -1:
            paragraph = blank_line + 1
        read = match.start()
        # a card named in the paragraph before the halves' end: a revenue's, a match's halves are none
        digits = (match["first"] + match["second"]).replace(" ", "")
        # eight and eight in groups of four: a payment card's named (a scorecard's, a points card's are
        # cards too: an attacker's round)
        eights = " " in match["first"]
        if not card_number_valid(digits):
            continue
        # (the paragraph searched once per pattern: from each pair of halves back to its start was quadratic)
        named_end = named_from.get((paragraph, eights))
        if named_end is None:
            named = (_PAYMENT_CARD if eights else CARD_NAMES).search(lower, paragraph)
            named_end = named_from[paragraph, eights] = len(lower) + 1 if named is None else named.end()
        if named_end <= match.end():
            yield "CREDIT_CARD", *match.span("first")
            yield "CREDIT_CARD", *match.span("second")


# A password's second half given apart from its first ("first half of the recon db pw is gkXsAV8pU" then, the next
# message, "second half (append, no space): Nomp!kL=*": reviewer CR): a second (other, last) half or part named, an
# aside in brackets, a colon or "is", then one value that ends its clause, a password's shape (a digit or a symbol, or
# both cases); the first half and a password's word named in the lines before it.
_SECOND_PIECE = lazy_compile(
    r"(?<![^\W\d_])(?:second|2nd|other|last|remaining)[ \t]+(?:half|part|piece)(?:[ \t]+of[ \t]+it)?[ \t]*"
    r"(?:\([^()\n]{1,40}\)[ \t]*)?(?::|is|=)[ \t]*[\"'`]?(?P<value>[^\s\"'`]{4,64}?)[\"'`]?(?=[ \t]*(?:\r?$|[.,;)]))",
    re.MULTILINE,
)
_FIRST_PIECE = lazy_compile(r"(?<![^\W\d_])(?:first|1st)[ \t]+(?:half|part|piece)(?![^\W\d_])")
_PASSWORD_NAMED = lazy_compile(
    r"(?<![^\W\d_])(?:pw|pwd|pass|password|passwort|passphrase|contraseña|senha|mot de passe|wachtwoord)(?![^\W\d_])"
)
_PIECE_BACK = 320  # characters read back for the first half and the password's word: its message and a few before


def may_hold_second_piece(scan: Scan) -> bool:
    return not _PIECE_WORDS.isdisjoint(scan.words) and ("pw" in scan.lower or "pass" in scan.lower)


_PIECE_WORDS = index_words("second half", "2nd half", "other half", "last half", "second part", "last part")


def find_second_pieces(scan: Scan) -> Iterator[Hit]:
    lower, text = scan.lower, scan.text
    for match in _SECOND_PIECE.finditer(lower):
        value = text[match.start("value") : match.end("value")]
        shaped = any(char.isdigit() or char in PASSWORD_SYMBOLS for char in value) or (
            value.lower() != value != value.upper()
        )
        back = lower[max(0, match.start() - _PIECE_BACK) : match.start()]
        if shaped and _FIRST_PIECE.search(back) and _PASSWORD_NAMED.search(back):
            yield "PASSWORD", *match.span("value")


# A card or an IBAN sent over several messages of a chat ("[14:02] guest: 4942" then "[14:02] guest: 135117" then
# "[14:03] guest: 559028"; "[09:14] klant: iban is NL95 SNSB" then "[09:14] klant: 4928 4961 83"; "SMS 1: ... prima
# parte IT89 L030 1527 576" then "SMS 2: seconda parte 2063 6216 4271 grazie": reviewer CC). Each message is a line
# led by its sender ("name:", "[10:02] name:", "14:02 name:", "name (14:02):", a chat export's "12/06/2024, 14:02 -
# name:", IRC's "<name>"), maybe a blank line between; the digits it ends with (an IBAN's groups) are a piece when
# they are its only digits. Pieces of two to four messages of one sender one after another ("SMS 1", "SMS 2": one
# sender numbered), joined, must make a card whose network and Luhn check hold in a conversation that names a
# payment card around them ("my card", "card number", "Visa"; not "card reader", "gift card", "green card"), or an
# IBAN whose country's length and check digits hold, its first piece more than its country and check digits. Not a
# list's labels ("Berlin: 4100", "port: 4532": no one sender), whose numbers pass a Luhn check one time in ten (an
# attacker's round). Each piece is reported where it stands.
_CHAT_STAMP = (
    r"\[[^\]\n]{1,24}\][ \t]*"
    r"|[0-9]{1,2}[/.][0-9]{1,2}[/.][0-9]{2,4},?[ \t]+[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:[ \t]?[ap]m)?[ \t]+[-–][ \t]+"
    r"|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?[ \t]+"
)
_CHAT_LINE = lazy_compile(
    rf"^[ \t]*(?P<stamp>{_CHAT_STAMP})?"
    r"(?:<(?P<nick>[^>\s]{1,32})>|(?P<sender>[^\s:\[\]<][^:\n]{0,31}?)(?P<timed>[ \t]*\([0-9:]{3,8}\))?:)"
    r"[ \t]*(?P<body>[^\n]*)$",
    re.MULTILINE | re.IGNORECASE,
)
_CHAT_DIGITS = lazy_compile(r"(?<![\w/.:,\-])[0-9]{2,8}(?:[ \-][0-9]{2,8}){0,4}(?![\w/.:,\-]|[.,][0-9])")
# (in capitals, or all in small letters: "nl91 abna" then "0417 1643 00", each later group with a digit; not the words
# after it, "2063 6216 4271 grazie")
_CHAT_IBAN = lazy_compile(
    r"(?<![\w/.:,\-])(?:[A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]{1,8}){0,8}|[a-z]{2}[0-9]{2}(?:[ ]?[a-z0-9]{1,8}){0,8})"
    r"(?![\w/.:,\-])"
)
_CHAT_IBAN_MORE = lazy_compile(
    r"(?<![\w/.:,\-])(?:[A-Z0-9]{1,8}(?:[ ][A-Z0-9]{1,8}){0,8}"
    r"|(?=[a-z]*[0-9])[a-z0-9]{1,8}(?:[ ](?=[a-z]*[0-9])[a-z0-9]{1,8}){0,8})(?![\w/.:,\-])"
)
_CHAT_PIECES = 4  # messages one value is sent in, at most
_IBAN_HEAD = 6  # characters of an IBAN's first piece, at least: more than its country and check digits
_CHAT_BACK, _CHAT_AHEAD = 400, 200  # characters before the first piece and after the last where a card is named


def _card_named(card_words: list[int], pieces: list[Span]) -> bool:
    """A payment card is named (its words start at ``card_words``) around the pieces."""
    at = bisect_left(card_words, pieces[0][0] - _CHAT_BACK)
    return at < len(card_words) and card_words[at] < pieces[-1][1] + _CHAT_AHEAD


# The gate's words for a card or an IBAN, found in the scan's one pass of its words (CARD_NAMES, searched in a note,
# cost a tenth of its scan; a substring search for each word, a twentieth), and those of other scripts
_CHAT_MARKS = index_words(
    "iban", "card", "visa", "master", "amex", "maestro", "kart", "carte", "carta", "tarjeta", "cartao", "kaart", "kort"
)
_CHAT_MARKS_OTHER = ("cartão", "kártya", "카드", "カード", "卡")


def may_hold_chat_parts(scan: Scan) -> bool:
    lower = scan.lower
    if "\n" not in lower or (":" not in lower and "<" not in lower):
        return False
    if not _CHAT_MARKS.isdisjoint(scan.words):
        return True
    return not lower.isascii() and any(mark in lower for mark in _CHAT_MARKS_OTHER)


def _chat_piece(body: str, iban: bool, first: bool) -> tuple[int, int] | None:
    """Where the one value piece of a message's ``body`` is (the body's only digits, ending the message or a word
    before its end: "... 2063 6216 4271 grazie"), or None; not an item's number ("New card #4532 created in To Do",
    "build #5105 passed": an attacker's round)."""
    pattern = (_CHAT_IBAN if first else _CHAT_IBAN_MORE) if iban else _CHAT_DIGITS
    found = [match for match in pattern.finditer(body) if any(char.isdigit() for char in match.group())]
    if len(found) != 1:
        return None
    match = found[0]
    if any(char.isdigit() for char in body[: match.start()]) or any(char.isdigit() for char in body[match.end() :]):
        return None
    if (
        body[: match.start()].rstrip().endswith(("#", "no.", "No.", "nr.", "Nr."))
        or len(body[match.end() :].split()) > 1
    ):
        return None
    return match.span()


# Messages numbered by their sender's label ("SMS 1:", "SMS 2:", "msg 3:"): one sender.
_NUMBERED_SENDER = lazy_compile(
    r"(?:sms|msg|message|text|part|teil|parte|partie|część|deel)[ \t#]*[0-9]{1,2}", re.IGNORECASE
)


def _sender(line: re.Match[str]) -> str:
    """Who sent a message, as a chat writes it (stamped with its time, or IRC's "<nick>"), or "" for a line that is
    no chat's message: a list's label ("Round 1: 4532", "ERROR: 5425", "Shelf A: 4000" are no senders: an attacker's
    round). Numbered messages ("SMS 1", "SMS 2") are one sender's."""
    if line["nick"] is not None:
        return line["nick"].lower()
    name = line["sender"]
    if _NUMBERED_SENDER.fullmatch(name.strip()):
        return "".join(char for char in name.lower() if not char.isdigit() and not char.isspace())
    if line["stamp"] is None and line["timed"] is None:
        return ""
    return name.strip().lower()


def _follows(text: str, previous: int, start: int) -> bool:
    """The message at ``start`` comes right after the one whose body starts at ``previous``, a blank line between at
    most."""
    newline = text.find("\n", previous, start)
    between = text[newline : text.rfind("\n", 0, start) + 1] if newline != -1 else "x"
    return between.count("\n") <= 2 and not between.strip()


_Line = tuple[int, str, str]  # where a message's body starts, the body, its sender


def _value_from(
    text: str, lines: list[_Line], first: int, iban: bool, named: Callable[[list[Span]], bool]
) -> tuple[int, list[Span]]:
    """The last message and the pieces of a value whose first piece is message ``first``'s and that ``named`` accepts,
    or (-1, [])."""
    pieces: list[Span] = []
    joined = ""
    for index in range(first, min(first + _CHAT_PIECES, len(lines))):
        start, body, sender = lines[index]
        if not sender or (
            index > first and (sender != lines[first][2] or not _follows(text, lines[index - 1][0], start))
        ):
            return -1, []  # one sender's messages, one after another
        piece = _chat_piece(body, iban, index == first)
        if piece is None or (iban and index == first and piece[1] - piece[0] < _IBAN_HEAD):
            return -1, []
        pieces.append((start + piece[0], start + piece[1]))
        joined += "".join(char for char in body[piece[0] : piece[1]] if char.isalnum()).upper()
        if len(pieces) >= 2 and (iban_valid(joined) if iban else card_number_valid(joined)) and named(pieces):
            return index, pieces
    return -1, []


def find_chat_parts(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    lines = [(match.start("body"), match["body"], _sender(match)) for match in _CHAT_LINE.finditer(text)]
    card_words: list[int] = []  # where a payment card is named: searched once, for the first card's pieces

    def card_named(pieces: list[Span]) -> bool:
        if not card_words:
            card_words.extend(match.start() for match in PAYMENT_CARD_NAMED.finditer(lower))
            card_words.append(len(lower) + _CHAT_BACK + 1)  # a mark past every window: the list is never empty again
        return _card_named(card_words, pieces)

    kinds: tuple[tuple[str, Callable[[list[Span]], bool]], ...] = (("CREDIT_CARD", card_named),)
    if "iban" in lower:
        kinds = (("IBAN", lambda pieces: True), *kinds)
    first = 0
    while first < len(lines) - 1:
        for kind, named in kinds:
            last, pieces = _value_from(text, lines, first, kind == "IBAN", named)
            if pieces:
                for low, high in pieces:
                    yield kind, low, high
                first = last
                break
        first += 1


# A card's or an IBAN's groups, each in its own cell of a table's row ("| karta | 2221 | 7100 | 8471 | 4701 |", "|
# PL05 | 1245 | 9793 | ... |": reviewer CP): three cells or more side by side, each of one to six digits or capitals,
# that joined make an IBAN whose check digits hold, or a card whose network and Luhn check hold on a row whose cells
# before them name a card (a row of counts passes a Luhn check one time in ten: "| 2024 | 4411 | 2356 | 7810 |"; a
# card game's header names cards too: "| Hand | Card 1 | Card 2 | ...", an attacker's round).
# (an IBAN's groups of four, its country's letters with its check digits; a card's of four, or Amex's 4-6-5)
# (two groups to a cell too: "| card | 4539 5787 | 6362 1486 |", an attacker's round)
_CELL_RUN = lazy_compile(
    r"(?<![^|\s])[A-Z0-9]{4}(?: [A-Z0-9]{4})?(?:[ \t]*\|[ \t]*[A-Z0-9]{1,6}(?: [A-Z0-9]{1,4})?){1,9}(?![^|\s])"
)
_CELL_IBAN = lazy_compile(r"[A-Z]{2}[0-9]{2}(?:[A-Z0-9]{4})+[A-Z0-9]{0,4}")
_FEWEST_CELLS = 3


# ... and an IBAN's in a CSV's or a TSV's cells ("iban_1,iban_2,...\nDE65,3703,0624,0961,2084,16,COBADEFFXXX": reviewer
# CQ), its country's letters and check digits first (a card's in such cells are the comma-grouped reader's).
# (quoted cells and small letters too: '"DE82","4037",...', "de57,3896,...": an attacker's round)
_CSV_IBAN = lazy_compile(
    r"(?<![A-Za-z0-9])(?P<q>[\"']?)[A-Za-z]{2}[0-9]{2}(?P=q)[ \t]*(?P<sep>[,;\t])[ \t]*(?P=q)[A-Za-z0-9]{1,4}(?P=q)"
    r"(?:[ \t]*(?P=sep)[ \t]*(?P=q)[A-Za-z0-9]{1,4}(?P=q)){1,8}(?![A-Za-z0-9])"
)


# A cell of four between two of its separators: what a CSV's IBAN holds, found by a pattern its separator leads (the
# engine skips to it at C speed; _CSV_IBAN, tried at every character, cost 45 us per KB of every note). After a tab only
# spaces lead to the cell: a tab tried at each of a long run's tabs, and its blanks read to the run's end from each,
# was quadratic (100 KB of " \t" took 70 s); the run's last tab before the cell finds what any tab before it found.
_CSV_CELL = tuple(
    re.compile(rf"{sep}{blanks}[\"']?[0-9A-Za-z]{{4}}[\"']?[ \t]*{sep}")
    for sep, blanks in ((",", "[ \t]*+"), (";", "[ \t]*+"), ("\t", "[ ]*+"))
)


def _csv_cells(text: str) -> bool:
    return any(cell.pattern[0] in text and cell.search(text) is not None for cell in _CSV_CELL)


def may_hold_cells(scan: Scan) -> bool:
    return "|" in scan.text or _csv_cells(scan.text)


def find_celled_values(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    runs = list(_CELL_RUN.finditer(text)) if "|" in text else []
    card_named = partial(_card_on_row, scan.lower, rows={}, line_start=LineStarts(scan.lower))
    ibans = list(_CSV_IBAN.finditer(text)) if _csv_cells(text) else []
    for run, iban_only in [*((run, False) for run in runs), *((run, True) for run in ibans)]:
        cells = [(match.start(), match.end()) for match in re.finditer(r"[A-Za-z0-9]+", run.group())]
        found = _celled_value(text, run.start(), cells, card_named, iban_only=iban_only)
        if found is not None:
            yield found


def _celled_value(
    text: str, offset: int, cells: list[tuple[int, int]], card_named: Callable[[int], bool], iban_only: bool = False
) -> Hit | None:
    """The longest run of ``cells`` (spans in the run at ``offset``) whose joined text is an IBAN or a card
    ``card_named`` says its row names before it."""
    joined = [text[offset + start : offset + end] for start, end in cells]
    for size in range(len(cells), _FEWEST_CELLS - 1, -1):
        for first in range(len(cells) - size + 1):
            parts = joined[first : first + size]
            if any(len(part) != _GROUP for part in parts[:-1]) and [len(part) for part in parts] != _AMEX_CELLS:
                continue
            value = "".join(parts).upper()
            start, end = offset + cells[first][0], offset + cells[first + size - 1][1]
            if _CELL_IBAN.fullmatch(value) and iban_valid(value):
                return "IBAN", start, end
            if not iban_only and value.isdigit() and card_number_valid(value) and card_named(start):
                return "CREDIT_CARD", start, end
    return None


_GROUP = 4
_AMEX_CELLS = [4, 6, 5]


def _card_on_row(lower: str, start: int, *, rows: dict[int, int], line_start: LineStarts) -> bool:
    """A card's word on the row before ``start`` (in the lower-cased text): each row searched once, for where its
    first such word ends (the row before each value searched again was quadratic: 80 KB of a row of card cells
    took 5 s)."""
    row = line_start(start)
    named_end = rows.get(row)
    if named_end is None:
        end = lower.find("\n", start)
        named = A_CARDS_WORD.search(lower, row, len(lower) if end < 0 else end)
        named_end = rows[row] = len(lower) + 1 if named is None else named.end()
    return named_end <= start
