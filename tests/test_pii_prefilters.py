"""Prefilters: the cheap tests that let detect() skip a detector must never skip a real value.

Each built-in detector runs only when its gate (a digit count, a substring, a cheap test of its
own) says the text may hold what it looks for. These tests check every gate against its detector:
on the labelled corpus, the held-out set, the must-survive lines and adversarial spellings built for
each gate, a detector whose gate refuses a text finds nothing in it when run anyway.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from securemem.pii import accounts, answers, clauses, codes, detect, encoded, entities, locks, secrets, told
from securemem.pii.accounts import _may_name_code
from securemem.pii.catalogue import ANCHORED
from securemem.pii.checksums import luhn_valid
from securemem.pii.contact import _DIGIT_WORDS, _OPENERS, _PHONE, _SEPARATORS, _SPELT_START, may_hold_spelt_phone
from securemem.pii.detectors import (
    _EMAIL_MARKS,
    _WRAP_TOKEN,
    _fast_plan,
    _may_hold_email,
    _plan,
    _wrap_breaks,
    _wrap_join,
    wanted_types,
)
from securemem.pii.network import find_ip_addresses, may_hold_ip_address
from securemem.pii.normalize import _ESCAPE_MARKS, View, _may_escape
from securemem.pii.numeric import (
    _CARD,
    _CARD_UNDERSCORED,
    _IBAN_HEAD,
    _IBAN_HEAD_COPY,
    _SSN,
    _SSN_MIXED,
    may_hold_iban,
    may_hold_ssn,
    may_hold_underscored_card,
)
from securemem.pii.regions import DEFAULT_PHONE_REGIONS
from securemem.pii.scan import _NOT_AN_ENTITY, Scan, by_first_letter
from securemem.pii.secrets import (
    _HINT_PATTERN,
    _HINTS,
    _PASSWORD_HINTS,
    _PASSWORD_HINTS_OTHER,
    _PROSE_KEY,
    _PROSE_KEY_WORDS,
    may_hold_keyword_secret,
)

DATA = Path(__file__).parent / "data"
ZWSP, SHY, WJ = "\u200b", "\u00ad", "\u2060"


def _corpus(name: str) -> list[str]:
    return [json.loads(line)["text"] for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def _fullwidth(text: str) -> str:
    """ASCII letters, digits and punctuation as their fullwidth forms (NFKC folds them back)."""
    return "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in text)


def _arabic_digits(text: str) -> str:
    return "".join(chr(0x0660 + int(char)) if char.isascii() and char.isdigit() else char for char in text)


def _spread(text: str, mark: str) -> str:
    """``mark`` (an invisible character) after every character of ``text``."""
    return mark.join(text)


# Values each gate was written for, spelt plainly and as an evader would.
EMAILS = ["jane.doe@example.com", "jane [at] example [dot] com", "jane(at)example(dot)co(dot)uk",
          "JANE{AT}EXAMPLE{DOT}COM", "jane<at >example<dot>com", "jane (at ) example.com",
          "jane @ example.com", "jane@ example.com", "jane at example dot com", "jane.doe AT example DOT org",
          "jane\uff20example.com", f"jane{ZWSP}@{ZWSP}example.com"]  # fmt: skip
IP_ADDRESSES = ["192.168.10.44", "fe80::1ff:fe23:4567:890a", "2001:db8:85a3::8a2e:370:7334", "::ffff:10.0.0.7",
                "\uff11\uff19\uff12.\uff11\uff16\uff18.\uff11\uff10.\uff14\uff14", "192\u3002168\u300210\u300244",
                f"192.168{ZWSP}.10.44", _arabic_digits("10.20.30.40")]  # fmt: skip
KEYWORD_SECRETS = ["password: Hunter2-Blue!", "PASSWORD=Hunter2-Blue!", "Pwd => 'Hunter2-Blue!'",
                   "--password Hunter2-Blue!", "db_pass := Hunter2-Blue!", "client_secret = 8Fq2Lx9Zp4Rt7Vw1",
                   "api_token: aB3dE5fG7hJ9kL1mN3pQ", _fullwidth("password") + ": Hunter2-Blue!",
                   f"pass{ZWSP}word: Hunter2-Blue!", f"to{SHY}ken = aB3dE5fG7hJ9kL1mN3pQ",
                   "the password is Hunter2-Blue!"]  # fmt: skip
SSNS = ["SSN 123-45-6789", "ssn: 123 45 6789", "social security 123456789", "123.45.6789",
        _fullwidth("123-45-6789"), _arabic_digits("SSN 123-45-6789"), f"SSN 123{ZWSP}-45-{WJ}6789",
        "SSN " + _spread("123-45-6789", ZWSP)]  # fmt: skip
CATALOGUE = ["ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
             "xoxb-123456789012-123456789012-AbCdEfGhIjKlMnOpQrStUvWx",
             "AKIAIOSFODNN7EXAMPLE then AKIAI44QH8DHBEXAMPLE",
             "\u0410KI\u0410IOSFODNN7EXAMPLE", f"AKIA{ZWSP}IOSFODNN7EXAMPLE",
             "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"]  # fmt: skip
ADVERSARIAL = {"EMAIL": EMAILS, "IP_ADDRESS": IP_ADDRESSES, "US_SSN": SSNS}


def _gated_out(scan: Scan) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """For each built-in detector whose gate refuses ``scan``: its name and what it finds when run anyway."""
    out = []
    most_digits = scan.most_digits
    for run, _, digits, literals, lowered, gate in _plan(wanted_types(None), entities.version()):
        haystack = scan.lower if lowered else scan.text
        passes = (
            (not digits or most_digits >= digits)
            and (not literals or any(literal in haystack for _, literal, _, _ in literals))
            and (gate is None or gate(scan))
        )
        if not passes:
            out.append((getattr(run, "__qualname__", repr(run)), list(run(scan))))
    return out


def _texts() -> list[str]:
    texts = _corpus("pii_corpus.jsonl") + _corpus("pii_heldout.jsonl")
    texts += (DATA / "must_survive.txt").read_text(encoding="utf-8").splitlines()
    for values in (*ADVERSARIAL.values(), KEYWORD_SECRETS, CATALOGUE):
        for value in values:
            texts += [value, f"Note: see {value} (ref: 12:30).", f"call\n{value}\nlater at 10:30: ok"]
    return texts


def test_no_gate_hides_a_finding() -> None:
    """On every text we have, a detector that its gate skips would have found nothing."""
    for text in _texts():
        scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
        for name, hits in _gated_out(scan):
            assert hits == [], f"{name} skipped a text where it finds {len(hits)} value(s)"


@pytest.mark.parametrize(("kind", "value"), [(kind, value) for kind, values in ADVERSARIAL.items() for value in values])
def test_gated_types_found_in_every_spelling(kind: str, value: str) -> None:
    for text in (value, f"Contact: {value}; thanks.", f"Notes: a: b: {value}"):
        start = text.index(value)
        end = start + len(value)
        # Found within the value and up to its last character ("SSN 123-45-6789": the digits).
        assert any(f.type == kind and start <= f.start < end and f.end == end for f in detect(text)), kind


@pytest.mark.parametrize("text", KEYWORD_SECRETS)
def test_keyword_gate_keeps_secrets(text: str) -> None:
    assert may_hold_keyword_secret(Scan(View(text).text, DEFAULT_PHONE_REGIONS))
    assert any(f.type in ("PASSWORD", "GENERIC_SECRET") for f in detect(text))


@pytest.mark.parametrize("text", CATALOGUE)
def test_catalogue_tokens_found(text: str) -> None:
    assert any("API_KEY" in entities.families_of(f.type) for f in detect(text))


def test_ip_gate_is_exact_on_prose_colons() -> None:
    """Two colons of prose hold no address and no longer send the text to the address finders."""
    prose = Scan("Note: the retro is on Friday. Budget: $20,000. Time: 10:30.", DEFAULT_PHONE_REGIONS)
    assert not may_hold_ip_address(prose)
    for value in IP_ADDRESSES:
        assert may_hold_ip_address(Scan(View(f"Note: host {value}. Budget: 1.").text, DEFAULT_PHONE_REGIONS))


def test_ssn_gate_reads_the_numbers_of_nine_digits() -> None:
    for value in SSNS:
        assert may_hold_ssn(Scan(View(value).text, DEFAULT_PHONE_REGIONS)), value
    # A date-like or short number beside a long one does not count; a long number not shaped like an SSN neither.
    assert not may_hold_ssn(Scan("order 1234567890123 on 2024-01-01", DEFAULT_PHONE_REGIONS))


def test_first_letter_alternation_matches_like_the_plain_one() -> None:
    """by_first_letter only regroups: the same matches, with the same spans, as the plain alternation,
    also where one alternative is a prefix of another (their order decides)."""
    alternatives = ["pass", "passwd", "pw", "p", "secret", "sig", "s[0-9]+", "token", "to", "key", "9x"]
    plain = re.compile("|".join(alternatives))
    grouped = re.compile(by_first_letter(alternatives))
    texts = ["", "passwd pw p s12 sig secret tokens tok to key 9x", "ppassspw", "keykey", "s9s", "x" * 40 + "pass"]
    for text in texts + [text.upper() for text in texts]:
        assert [m.span() for m in grouped.finditer(text)] == [m.span() for m in plain.finditer(text)], text
    with pytest.raises(ValueError, match="start with a letter"):
        by_first_letter(["pass", "(?:x)"])


@pytest.mark.parametrize(
    ("grouped", "plain"),
    [(_HINT_PATTERN, "|".join(_HINTS)), (_PROSE_KEY, "(?:" + "|".join(_PROSE_KEY_WORDS) + r")\b")],
)
def test_grouped_patterns_find_what_the_plain_ones_did(grouped: re.Pattern[str], plain: str) -> None:
    words = [*_HINTS, *_PASSWORD_HINTS, "api-key", "api key", "secret_key", "auth token", "credential", "license key"]
    text = " ".join(words) + " " + "".join(words) + " x-" + "_".join(words)
    for variant in (text, text.lower(), text.replace(" ", "")):
        assert [m.span() for m in grouped.finditer(variant)] == [m.span() for m in re.finditer(plain, variant)]


# Every password label hint and every key hint with an assignment, as an evader might spell it (the
# hints of other scripts and accents are looked for in text that is not ASCII: "é" keeps it so).
_GATE_WORDS = [f"{hint}: Hunter2-Blue!" for hint in _PASSWORD_HINTS]
_GATE_WORDS += [f"{hint}: Hunter2-Blue! (é)" for hint in _PASSWORD_HINTS_OTHER]
_GATE_WORDS += [f"my_{hint}_value = Hunter2-Blue!" for hint in _HINTS]
_GATE_WORDS += [f"{hint} is Hunter2-Blue!" for hint in _HINTS]


@pytest.mark.parametrize("text", _GATE_WORDS)
def test_keyword_gate_sees_every_hint(text: str) -> None:
    """The gate's one pattern for the password hints and the assigned keys misses none of them,
    plainly, fullwidth, cut by invisible characters, upper-cased, or at the end of 256 characters."""
    spellings = [text, _fullwidth(text), _spread(text, ZWSP), _spread(text, SHY), text.upper()]
    spellings.append(" " * (256 - len(text)) + text)
    for spelling in spellings:
        assert may_hold_keyword_secret(Scan(View(spelling).text, DEFAULT_PHONE_REGIONS)), spelling


_PHONE_LEAD = "(?=[+(0-9])"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 .-/()+xTelMobfa:#$\u20ac\n", max_size=40))
def test_phone_candidates_start_where_they_did_without_the_lead(text: str) -> None:
    """The phone pattern's first test (the character a candidate starts with) changes no candidate:
    the pattern without it finds the same spans from every position."""
    assert _PHONE.pattern.lstrip().startswith(_PHONE_LEAD)
    plain = re.compile(_PHONE.pattern.lstrip().removeprefix(_PHONE_LEAD), re.X)
    for at in range(len(text) + 1):
        found, expected = _PHONE.search(text, at), plain.search(text, at)
        assert (found and found.span()) == (expected and expected.span()), (text, at)


PHONES = ["+44 20 7946 0958", "(415) 555-2671", "0044 20 7946 0958", "(+91) 98765 43210", "Tel+44 20 7946 0958",
          "Mob-0161 496 0123", "\uff0b44 20 7946 0958", "\uff08415\uff09 555-2671", _arabic_digits("+44 20 7946 0958"),
          f"+{ZWSP}44 20 7946 0958", f"({ZWSP}415) 555-2671", _fullwidth("+1 (415) 555-2671")]  # fmt: skip


@pytest.mark.parametrize("value", PHONES)
def test_phones_found_in_every_spelling(value: str) -> None:
    for text in (value, f"Call me: {value} today", f"call\n{value}"):
        assert any(f.type == "PHONE" for f in detect(text)), text


# Lookaheads placed before a pattern's lookbehinds to fail fast: what the rest of the pattern needs
# next anyway (numeric.py). Each pattern must find what it found without its lookahead.
_NUMERIC_LEADS = [
    (_CARD, "(?=[0-9]{3})"),
    (_CARD_UNDERSCORED, "(?=[0-9]{3}[_\\- ])"),
    (_SSN, "(?=[0-9]{2}[-. 0-9])"),
    (_SSN_MIXED, "(?=[0-9]{2}(?:[-. /]| / )[0-9])"),
]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789_- .\tSsNnVvIiAaCcRrDdMmx/", max_size=48))
def test_numeric_patterns_find_what_they_did_without_their_lookaheads(text: str) -> None:
    for pattern, lead in _NUMERIC_LEADS:
        assert pattern.pattern.count(lead) == 1
        plain = re.compile(pattern.pattern.replace(lead, ""), pattern.flags)
        for at in range(len(text) + 1):
            found, expected = pattern.search(text, at), plain.search(text, at)
            assert (found and found.span()) == (expected and expected.span()), (pattern.pattern[:20], text, at)


CARDS = ["4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111", "5292_4741_0000_0002",
         "card5292_4741_0000_0002", "VISA4111111111111111", "\uff14\uff11\uff11\uff11 1111 1111 1111",
         _arabic_digits("4111 1111 1111 1111"), f"4111{ZWSP}1111{ZWSP}1111{ZWSP}1111",
         "4111_1111_1111_1111"]  # fmt: skip


@pytest.mark.parametrize("value", CARDS)
def test_cards_found_in_every_spelling(value: str) -> None:
    for text in (value, f"Card: {value} exp 09/27", f"paid with card\n{value}"):
        assert any(f.type == "CREDIT_CARD" for f in detect(text)), text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 .-:/()+aFf\u3002\uff0e\u200b\u0663", max_size=48))
def test_ip_gate_passes_wherever_an_address_is_found(text: str) -> None:
    """The IP gate reads the text for four dotted groups, not the scan's numbers: wherever the
    finders find an address, it lets them run."""
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    if list(find_ip_addresses(scan)):
        assert may_hold_ip_address(scan), text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 .-()/+x\t_", max_size=60))
def test_long_numbers_are_the_numbers_of_seven_digits(text: str) -> None:
    """Long numbers are found by a pattern of their own: the numbers of seven digits or more that
    are not dates or decimals, as filtering the numbers found them."""
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    expected = [
        (start, end)
        for start, end in scan.numbers
        if sum(char.isdigit() for char in text[start:end]) >= 7 and not _NOT_AN_ENTITY.fullmatch(text, start, end)
    ]
    assert scan.long_numbers == expected
    assert scan.most_digits == max((sum(c.isdigit() for c in text[a:b]) for a, b in expected), default=0)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="DEde89 0-_.:x\u00e9\u0663\u200b\uff24\uff25\uff18", max_size=32))
@example("D D 00")  # a head with its letters spaced apart, which the gate reads (found by a run of this test)
def test_iban_gate_reads_a_head_where_the_head_pattern_does(text: str) -> None:
    """The IBAN gate looks for the head in a copy of letters and digits: it holds exactly where the
    head pattern finds one in the view, or a head with its letters spaced apart ("D E 89"; fullwidth, split and
    other-script spellings included)."""
    view = View(text).text
    expected = _IBAN_HEAD.search(view) is not None or _SPACED_IBAN_HEAD.search(view) is not None
    assert may_hold_iban(Scan(view, DEFAULT_PHONE_REGIONS)) == expected


_SPACED_IBAN_HEAD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z] [A-Za-z] [0-9]{2}")


IBANS = ["DE89 3704 0044 0532 0130 00", "DE89370400440532013000", "de89 3704 0044 0532 0130 00",
         "BH62 BBKU A187 8Z29 5M51 98", "\uff24\uff25\uff18\uff19 3704 0044 0532 0130 00",
         _arabic_digits("DE89 3704 0044 0532 0130 00"),
         f"DE89{ZWSP}3704{ZWSP}0044{ZWSP}0532{ZWSP}0130{ZWSP}00"]  # fmt: skip


@pytest.mark.parametrize("value", IBANS)
def test_ibans_found_in_every_spelling(value: str) -> None:
    for text in (value, f"IBAN: {value}.", f"pay to\n{value}\nthanks"):
        assert any(f.type == "IBAN" for f in detect(text)), text


def _luhn_digit_by_digit(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char) * (2 if index % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789", max_size=24))
def test_luhn_sums_as_the_digit_by_digit_check(digits: str) -> None:
    """The Luhn check sums its halves as bytes: the same verdict as adding digit by digit."""
    assert luhn_valid(digits) == _luhn_digit_by_digit(digits)
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789_- .xcard\u200b\uff3f\u0663", max_size=48))
def test_underscored_card_gate_passes_wherever_the_finder_could_keep_a_match(text: str) -> None:
    """Every match of the underscored-card pattern that holds an underscore (what the finder keeps,
    when Luhn agrees) lets the gate pass."""
    view = View(text).text
    if any("_" in match.group() for match in _CARD_UNDERSCORED.finditer(view)):
        assert may_hold_underscored_card(Scan(view, DEFAULT_PHONE_REGIONS)), text


def _pieces_of(words: tuple[str, ...] | list[str], *more: str) -> list[str]:
    """Every piece of every word (so that random joins make the words, their near misses and their
    overlaps), and ``more``."""
    return sorted(
        {word[start:end] for word in words for start in range(len(word)) for end in range(start + 1, len(word) + 1)}
        | set(more)
    )


_MARK_PIECES = _pieces_of(_EMAIL_MARKS, "A", "AT", "x", "\n")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_MARK_PIECES), max_size=8).map("".join))
def test_email_gate_is_a_test_of_each_mark(text: str) -> None:
    """The email gate tests shared parts first: it passes exactly where one of the marks is in the
    lower-cased text."""
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    assert _may_hold_email(scan) == any(mark in scan.lower for mark in _EMAIL_MARKS)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_pieces_of(_ESCAPE_MARKS, "x", " ", "d")), max_size=8).map("".join))
def test_escape_test_is_a_test_of_each_mark(text: str) -> None:
    assert _may_escape(text) == any(mark in text for mark in _ESCAPE_MARKS)


@pytest.mark.parametrize(
    ("text", "escapes"),
    [
        ("IP 172 titik 28 titik 154 titik 75", True),
        ("IP-Adresse 10 Punkt 0 Punkt 12 Punkt 7", True),
        ("IP 192 PUNTO 168 PUNTO 1 PUNTO 20", True),
        ("adresse 192 point 168 point 1 point 20", True),
        ("172 nokta 28 nokta 154 nokta 75", True),
        # a spoken dot's word with no number each side: prose ("at this point in time", "titik temu")
        ("at this point in time the plan holds", False),
        ("kita bahas titik temu dengan vendor", False),
    ],
)
def test_escape_test_reads_spoken_dots_only_between_numbers(text: str, escapes: bool) -> None:
    """Other languages' spoken dots are read (normalize._spoken_address) only between two numbers: their words in
    prose leave the text unescaped (``_may_escape`` is the gate)."""
    assert _may_escape(text) is escapes


# The words of the access-code gate, one substring test each (accounts._may_name_code tests them grouped).
_CODE_GATE_WORDS = (
    "pin", "cod", "kod", "kód", "cód", "key safe", "keysafe", "key box", "keybox", "lockbox", "lock box", "padlock",
    "combination lock", "schlüssel", "cadenas", "clés", "llaves", "chaves", "senha", "ifresi", "cajet", "room safe",
    "hotel safe", "keypad", "combo lock", "kluis", "portachiavi", "sejf", "anahtar kutusu", "비번", "비밀번호", "密",
    "koodi", "avainkaap", "koд",
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_pieces_of(_CODE_GATE_WORDS, " ", "x", "é")), max_size=8).map("".join))
def test_access_code_gate_is_a_test_of_each_word(text: str) -> None:
    assert _may_name_code(text) == any(word in text for word in _CODE_GATE_WORDS)


# Digit words of several languages and scripts, whole and in pieces, with every opener and separator
# _SPELT_START reads, and "double"/"triple" (said before a digit word).
_SPELT_PIECES = _pieces_of(
    ("one", "two", "zero", "oh", "do", "ek", "null", "üç", "sıfır", "cinq", "zéro", "ноль", "double", "triple"),
    *_OPENERS,
    *_SEPARATORS,
    "x",
    "1",
)


def _spelt_start_searched(scan: Scan) -> bool:
    return _SPELT_START.search(scan.lower) is not None or _SPELT_START.match(" " + scan.lower[:16]) is not None


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_SPELT_PIECES), max_size=10).map("".join))
def test_spelt_gate_passes_where_its_pattern_is_found(text: str) -> None:
    """The spelt-number gate tries its pattern only where one of its openings is (found in one pass):
    it answers as a search of the whole text does."""
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    assert may_hold_spelt_phone(scan) == _spelt_start_searched(scan)


def test_spelt_gate_answers_as_the_search_on_the_corpora() -> None:
    texts = _texts() + [
        f"call me{opener}{word}{separator}{other}"
        for word in _DIGIT_WORDS
        for opener in _OPENERS
        for separator in _SEPARATORS
        for other in ("one", "nine")
    ]
    disagree = [
        text
        for text in texts
        if may_hold_spelt_phone(Scan(text, DEFAULT_PHONE_REGIONS))
        != _spelt_start_searched(Scan(text, DEFAULT_PHONE_REGIONS))
    ]
    assert disagree == []
    assert sum(may_hold_spelt_phone(Scan(text, DEFAULT_PHONE_REGIONS)) for text in texts) > len(_DIGIT_WORDS)


def test_iban_head_led_by_its_digits_finds_what_the_letters_led_pattern_finds() -> None:
    # "DE89", "DE 89", and "D E 89" (a country's letters read out)
    letters_first = re.compile(rb"(?:aa_?00(?<![a0]aa00)(?<![a0]aa_00)|a_a_00(?<![a0]a_a_00))")
    for size in range(9):
        for chars in itertools.product(b"a0_x", repeat=size):
            copy = bytes(chars)
            assert (_IBAN_HEAD_COPY.search(copy) is None) == (letters_first.search(copy) is None), copy


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="abcdeHLP:/=_-|~{}>@ \n\tAKIJCSVoksuwbé", max_size=40))
def test_plan_drops_only_steps_whose_literals_cannot_be_there(text: str) -> None:
    """The steps a text's literals leave to run are, in order, every step but those none of whose
    literals is in the text."""
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    for window in (False, True):
        steps = _plan(wanted_types(None), entities.version(), window)
        chosen = _fast_plan(wanted_types(None), entities.version(), window).chosen(scan.text, scan.lower)
        assert list(chosen) == [step for step in steps if step in chosen]
        for step in steps:
            haystack = scan.lower if step[4] else scan.text
            if not step[3] or any(literal[1] in haystack for literal in step[3]):
                assert step in chosen


def test_wrap_screen_holds_every_break_joined_on_short_texts() -> None:
    """Every break _wrap_join joins passes the one-pass screen: all texts of up to six characters of a
    few kinds (digits, ASCII and not, a letter, "@", "-", blanks, line breaks)."""
    assert "0" in _WRAP_TOKEN
    for size in range(1, 7):
        for chars in itertools.product(["0", "\u00b2", "a", "@", "-", " ", "\r", "\n", "\u00e9"], repeat=size):
            text = "".join(chars)
            if "\n" not in text:
                continue
            breaks = set(_wrap_breaks(Scan(text, DEFAULT_PHONE_REGIONS)))
            assert {at for at, char in enumerate(text) if char == "\n" and _wrap_join(text, at) is not None} <= breaks


@pytest.mark.parametrize("mark", [*_EMAIL_MARKS, *_ESCAPE_MARKS])
def test_each_mark_alone_passes_its_grouped_gate(mark: str) -> None:
    """A mark added to _EMAIL_MARKS (a spoken "at" in SPOKEN_ATS) or to _ESCAPE_MARKS and not to the
    gate that groups them fails here, whatever the random tests above happen to draw."""
    text = f"word{mark}word"
    if mark in _EMAIL_MARKS:
        assert _may_hold_email(Scan(text, DEFAULT_PHONE_REGIONS)), mark
    if mark in _ESCAPE_MARKS:
        assert _may_escape(text), mark


# ---- the literals and gate words found with the gates' words (Scan.words), in one pass


def _step_literals() -> list[tuple[str, str | None, bool, bool]]:
    """Each built-in step's literal: itself, its key among the scan's words, whether the text as written must
    hold it, and whether its step reads the lower-cased text."""
    return [
        (literal, key, exact, lowered)
        for _, _, _, literals, lowered, _ in _plan(wanted_types(None), entities.version())
        for _, literal, key, exact in literals
    ]


_LITERAL_PIECES = _pieces_of(
    sorted({literal for literal, *_ in _step_literals()} | {literal.upper() for literal, *_ in _step_literals()}),
    " ",
    "x",
)


def _literal_found(scan: Scan, literal: str, key: str | None, exact: bool, lowered: bool) -> bool:
    """What _builtin_hits answers for one literal: from the scan's words where it has a key."""
    if key is None:
        return literal in (scan.lower if lowered else scan.text)
    return key in scan.words and (not exact or literal in scan.text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LITERAL_PIECES), max_size=8).map("".join))
def test_step_literals_found_as_a_substring_search_finds_them(text: str) -> None:
    """A step's literal read from the scan's words is there exactly where a substring search finds it, in the
    lower-cased text for a step that reads it, in the text as written for the others ("AKIA" not "akia")."""
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    for literal, key, exact, lowered in _step_literals():
        expected = literal in (scan.lower if lowered else scan.text)
        assert _literal_found(scan, literal, key, exact, lowered) == expected, (literal, text)


def test_step_literals_found_as_a_substring_search_finds_them_on_the_corpora() -> None:
    literals = _step_literals()
    assert any(key is not None for _, key, _, _ in literals)  # the index is used, not only the searches
    for text in _texts():
        scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
        for literal, key, exact, lowered in literals:
            expected = literal in (scan.lower if lowered else scan.text)
            assert _literal_found(scan, literal, key, exact, lowered) == expected, (literal, text)


def _told_reference(scan: Scan) -> bool:
    lower = scan.lower
    if "first" in lower or "1st" in lower or "serial" in lower or "ssn" in lower:
        return True
    if scan.most_digits >= 4 and any(mark in lower for mark in told._HALF_MARKS):
        return True
    return told._one_at_a_time(scan)


def _clause_reference(scan: Scan) -> bool:
    return any(word in scan.lower for word in (*clauses.CLAUSE_WORDS, *clauses._OTHER_MARKS))


def _lock_reference(scan: Scan) -> bool:
    lower = scan.lower
    phrases = ("siri ya", "boît", "boitier", "opens with", "unlocks with", " takes ")
    return (
        any(word in lower for word in locks.LOCK_WORDS)
        or any(phrase in lower for phrase in phrases)
        or any(word in lower for word in locks._SELF_CODED_WORDS)
        or (not lower.isascii() and any(mark in lower for mark in locks._OTHER_MARKS))
    )


def _answered_card_reference(scan: Scan) -> bool:
    lower = scan.lower
    return "\n" in lower and ("card" in lower or "karte" in lower or "carte" in lower or "tarjeta" in lower)


def _account_reference(scan: Scan) -> bool:
    lower = scan.lower
    words = ("auth", "snmp-server", "tacacs-server", "radius-server", *accounts._WIFI_WORDS, *accounts._CODE_NAMES)
    return (
        " / " in lower
        or "@" in lower
        or any(word in lower for word in ("chpasswd", "app pass", "app-pass", "app-specific", "anwendungspasswort"))
        or any(word in lower for word in (*words, *accounts._LOGIN_WORDS))
        or (not lower.isascii() and (accounts._may_name_code_other(lower) or accounts._may_name_pin_other(lower)))
    )


def _high_entropy_reference(scan: Scan) -> bool:
    lower = scan.lower
    if secrets._SIXTEEN not in scan.encoded.translate(secrets._RUN_TABLE):
        return False
    if any(word in lower for word in ("key", "pass", "token", "secret", "cred")):
        return True
    others = [word for word in secrets._OTHER_SECRET_WORDS_ASCII if word in lower]
    if not lower.isascii():
        others += [word for word in secrets._OTHER_SECRET_WORDS if word in lower]
    return bool(others)


_GATES = {
    "told parts": (told.may_hold_told_parts, _told_reference),
    "clause passwords": (clauses.may_hold_clause_password, _clause_reference),
    "lock codes": (locks.may_hold_lock_code, _lock_reference),
    "answered cards": (answers.may_hold_answered_card, _answered_card_reference),
    "account passwords": (accounts.may_hold_account_password, _account_reference),
    "high entropy": (secrets.may_hold_high_entropy, _high_entropy_reference),
}
_GATE_PIECES = _pieces_of(
    (
        "first", "1st", "serial", "half", "hälfte", "mot de passe", "contraseña", "şifre", "password", "kata sandi",
        "siri ya", "boît", "opens with", " takes ", "kód", "koд", "card", "karte", "tarjeta", "wi-fi", "chpasswd",
        "app-specific", "auth", "token", "cred", "klucz", "gizli anahtar", "ключ", "秘密鍵",
    ),
    " / ", "@", "\n", "4111", "x", "A1b2C3d4E5f6G7h8I9",
)  # fmt: skip


@pytest.mark.parametrize("name", sorted(_GATES))
@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(_GATE_PIECES), max_size=8).map("".join))
def test_gates_read_from_the_words_answer_as_their_substring_searches(name: str, text: str) -> None:
    """Each gate that reads its marks from the scan's words answers as a substring search of each mark did."""
    gate, reference = _GATES[name]
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    assert gate(scan) == reference(scan), text


@pytest.mark.parametrize("name", sorted(_GATES))
def test_gates_read_from_the_words_answer_as_their_substring_searches_on_the_corpora(name: str) -> None:
    gate, reference = _GATES[name]
    for text in _texts():
        scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
        assert gate(scan) == reference(scan), text


# -- readers that take their words' places from the scan's one pass --------------------------------------------


def _code_windows_reference(lower: str, runs: list[re.Match[bytes]]) -> list[tuple[int, int]]:
    """codes._windows as a substring search of each mark in the characters before each run of digits."""
    marks: tuple[str, ...] | list[str] = codes._MARKS_ASCII if lower.isascii() else codes._MARKS
    if len(runs) * codes._REACH >= len(lower):
        marks = [mark for mark in codes._MARKS if mark in lower]
        if not marks:
            return []
    windows: list[tuple[int, int]] = []
    for digits in runs:
        begin = max(0, digits.start() - codes._REACH)
        before = lower[begin : digits.start()]
        if any(mark in before for mark in marks) or (begin == 0 and before.startswith("cid")):
            after = codes._DIGITS_ON.match(lower, digits.end())
            assert after is not None
            end = min(len(lower), after.end() + 2)
            if windows and begin <= windows[-1][1]:
                windows[-1] = (windows[-1][0], end)
            else:
                windows.append((begin, end))
    return windows


_CODE_MARK_PIECES = _pieces_of(
    ("cid", " cid", "(cid", '"cid', "\ncid", "cvv", "code", "otp", "tan", "sms", "sicherheit", "kullan", "the back",
     "one time", "c.v.v", "2fa", "kod", "kód", "код", "security"),
    " ", "\n", "x", "12", "3456", "7", "word " * 40,
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_CODE_MARK_PIECES), max_size=24).map("".join))
@example("word " * 40 + "sicherheit 1234")  # a mark of _MARKS that _MARKS_ASCII leaves out, in a long text
@example("word " * 40 + "kullan 1234")
@example("cid 1234 " + "word " * 40)  # "cid" leading the text, and alone
@example(" cid" + "word " * 40 + "77 (cid 1234")
def test_code_windows_read_from_the_words_are_those_of_substring_searches(text: str) -> None:
    lower = Scan(View(text).text, DEFAULT_PHONE_REGIONS).lower
    runs = list(codes._DIGITS.finditer(Scan(lower, DEFAULT_PHONE_REGIONS).canonical))
    assert codes._windows(lower, runs) == _code_windows_reference(lower, runs), text


_STEM_PIECES = _pieces_of(
    ("cod", "code", "kod", "kood", "koodi", "sif", "msimbo", "şifresi", "mã", "код", "codcod", "kookoo"), " ", "x", "c"
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_STEM_PIECES), max_size=12).map("".join))
def test_lock_code_stems_read_from_the_words_are_the_patterns_matches(text: str) -> None:
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    assert locks._stems(scan) == [stem.span() for stem in locks._CODE_STEM.finditer(scan.lower)], text


_OPENS_PIECES = _pieces_of(
    ("door", "gate", "lockbox", "keypad", "code", "pin", "codice", "accès", "支付密码", "digicode", "portkoden",
     "cadenas", "shopping"),
    " ", ": ", " is ", "4821", "#7305*", "x", "\n",
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_OPENS_PIECES), max_size=10).map("".join))
@example("cadenas 4821")  # a key box's word alone
@example("支付密码 482193")
@example("digicode : 4821")
@example("portkoden 4821")
@example("code d'accès 4821")
def test_access_codes_are_read_only_where_a_word_for_what_opens_is(text: str) -> None:
    """Without a word for what a code opens, the access-code pattern finds nothing in the whole text: the reader
    that skips such a text loses no match."""
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    lower = scan.lower
    whole = [match.span() for match in accounts._ACCESS_CODE.finditer(lower)]
    if not accounts._names_what_opens(lower, scan):
        assert whole == [], text
    assert accounts._names_what_opens(lower, scan) == accounts._names_what_opens(lower, None), text


# -- readers that skip what cannot hold their pattern's start --------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(["67", "6a", "2d", "7F", "4e", "3c", "5b", "a1", "6"]), min_size=12, max_size=24),
    st.sampled_from([" ", ":", "  ", "-"]),
    st.text(alphabet="x1 \n", max_size=3),
)
@example(["6a", "6b", "6c", "6d", "6e", "6f", "4a", "4b", "4c", "4d", "4e", "4f", "2a", "2b", "2c", "2d"], " ", "")
def test_spaced_hex_is_read_only_where_the_text_holds_its_digits(pairs: list[str], joint: str, lead: str) -> None:
    """A run of bytes one by one holds an ASCII digit for each of its 16 bytes at least: text the digit count
    refuses holds no match of the pattern, so skipping it loses none."""
    text = lead + joint.join(pairs)
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    if encoded._SPACED_HEX.search(scan.text) is not None:
        assert scan.digit_count >= encoded._SPACED_LEAST, text


def test_spaced_hex_of_16_bytes_with_16_digits_passes_the_count() -> None:
    text = "bytes: " + " ".join(f"{lead}{letter}" for lead in "642" for letter in "abcdef")[:47]
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    assert encoded._SPACED_HEX.search(text) is not None
    assert scan.digit_count == encoded._SPACED_LEAST


_ANSWERED_PIECES = _pieces_of(
    ("password", "passphrase", "pass phrase", "mot de passe", "pwd", "kennwort", "senha"),
    " ", "\n", "?", ":", " is ", "(sudo) ", "`kPU1CYN#x9`", "(glacier.meadow77#)", '"', "Tr0ub4dor&3", "pass ",
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_ANSWERED_PIECES), max_size=10).map("".join))
def test_answered_password_patterns_match_only_where_a_label_starts(text: str) -> None:
    """Each pattern find_answered_passwords tries starts with a label: a start that holds none ("pass" alone, a
    verb or a noun) is skipped without losing a match."""
    lower = Scan(View(text).text, DEFAULT_PHONE_REGIONS).lower
    patterns = (answers._ASKED, answers._QUOTED_APART, answers._BRACKETED, answers._QUALIFIED, answers._BEFORE_COLON)
    for at in range(len(lower) + 1):
        if any(pattern.match(lower, at) is not None for pattern in patterns):
            assert lower.startswith(answers._LABELS, at), (text, at)


_ANCHOR_PIECES = _pieces_of(
    tuple(rule.anchor for rule in ANCHORED) + tuple(rule.anchor.upper() for rule in ANCHORED), " ", "x", "\n"
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_ANCHOR_PIECES), max_size=8).map("".join))
def test_catalogue_anchors_are_among_the_words_wherever_the_text_holds_them(text: str) -> None:
    """find_catalogue reads an anchor's rule only where the scan's words hold the anchor lower-cased: wherever the
    text holds the anchor, they do."""
    scan = Scan(View(text).text, DEFAULT_PHONE_REGIONS)
    for _, rules in secrets._ANCHOR_GATES:
        for rule, key in rules:
            assert key == rule.anchor.lower()
            if rule.anchor in scan.text:
                assert key in scan.words, (text, rule.anchor)
