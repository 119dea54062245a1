"""WordIndex (scan.py): one pass finds every word of the index where a substring search for it would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from securemem.pii.accounts import _access_codes, _may_name_code, _may_name_wifi, may_hold_account_password
from securemem.pii.codes import _ALNUM_CODE_MARKS, may_hold_alnum_code
from securemem.pii.recovery import may_hold_recovery_secret
from securemem.pii.regions import DEFAULT_PHONE_REGIONS
from securemem.pii.scan import GATE_WORDS, Scan, WordIndex

# Words that start with others, end with others' starts and overlap themselves: the cases a pattern
# that matches one word per place could lose.
_WORDS = ("pass", "passe", "password", "sword", "word", "wordpass", "aa", "aaa", "ab", "ba", "cod", "code", "de")
_INDEX = WordIndex(*_WORDS)


def _places(text: str, word: str) -> list[int]:
    """Every place ``word`` starts (overlapping ones too)."""
    return [at for at in range(len(text)) if text.startswith(word, at)]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*_WORDS, "a", "b", "s", "w", "o", " ", "x"]), max_size=12).map("".join))
def test_index_finds_every_place_of_every_word(text: str) -> None:
    found = _INDEX.find(text)
    assert found == {word: _places(text, word) for word in _WORDS if word in text}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["pin", "pinpin", "pass", "secret", "passecret", "key", "x", " "]), max_size=12).map(
        "".join
    )
)
def test_places_are_what_a_loop_of_find_finds(text: str) -> None:
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    for word in ("pin", "pass", "secret", "key"):
        expected = []
        at = text.find(word)
        while at != -1:
            expected.append(at)
            at = text.find(word, at + len(word))
        assert scan.places(word) == expected


def test_gate_words_read_lower_case_text() -> None:
    assert GATE_WORDS.find("PIN pin") == {"pin": [4]}


_GATE_PIECES = [
    "auth", "wifi", "wi-fi", "wlan", "pin", "cod", "key box", "lock box", "padlock", "senha", "kód", "密", " / ", "@",
    "code", "backup", "phrase", "words", "seed", "kódy", "récupération", "lo", "ck", "ke", "y", " ", "x", "é",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_GATE_PIECES), max_size=8).map("".join))
def test_gates_reading_the_words_answer_as_their_substring_searches(text: str) -> None:
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    lower = scan.lower
    account = " / " in lower or "@" in lower or "auth" in lower or _may_name_wifi(lower) or _may_name_code(lower)
    assert may_hold_account_password(scan) == account
    recovery = any(word in lower for word in ("code", "backup", "phrase", "words", "mnemonic", "semilla", "seed"))
    recovery = recovery or any(word in lower for word in ("kódy", "códigos", "récupération"))
    assert may_hold_recovery_secret(Scan(text, DEFAULT_PHONE_REGIONS)) == recovery


_CODE_PIECES = [
    "access", "recovery", "backup", "ation", "", " ", "_", "-", "code", "cod", "código", "codice", " d", "d",
    "gings", "atie", "gangs", "alt", "rungs", "pin", "RIO", "cód", "x", "lockbox", "door code ", "1234", "key box ",
    "sifresi ", "şifresi ", "kapı ", " is ",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_CODE_PIECES), max_size=10).map("".join))
def test_code_gates_reading_the_words_answer_as_their_substring_searches(text: str) -> None:
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    lower = scan.lower
    alnum = (
        "pin" in lower
        or (("cod" in lower or "cód" in lower) and any(mark in lower for mark in _ALNUM_CODE_MARKS))
        or "RIO" in text
    )
    assert may_hold_alnum_code(scan) == alnum
    assert [match.span() for match in _access_codes(lower, scan)] == [match.span() for match in _access_codes(lower)]


# Words of other scripts and accented ones among ASCII words: ASCII text is read by an automaton of the ASCII words
# alone, other text by one of them all.
_MIXED_WORDS = ("kod", "kód", "ód", "od", "код", "ко", "pass", "passé", "sé", "ss")
_MIXED_INDEX = WordIndex(*_MIXED_WORDS)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*_MIXED_WORDS, "k", "ó", "о", "д", "é", "s", " ", "x"]), max_size=12).map("".join))
def test_index_finds_every_place_of_every_word_in_ascii_text_and_other(text: str) -> None:
    found = _MIXED_INDEX.find(text)
    assert found == {word: _places(text, word) for word in _MIXED_WORDS if word in text}
    assert list(found) == sorted(found, key=lambda word: min(at + len(word) for at in found[word]))
