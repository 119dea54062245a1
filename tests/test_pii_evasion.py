"""Evasion: the normalised view, its map back to the original, and values disguised as an attacker would."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from securemem import SecureMemory
from securemem.pii import ENTITY_TYPES, Scrubber, detect, keyed_token, normalise_text
from securemem.pii.normalize import View
from tests.helpers import ok, stored

KEY = b"k" * 32
MUST_SURVIVE = (Path(__file__).parent / "data" / "must_survive.txt").read_text(encoding="utf-8").splitlines()
ZWSP, NBSP, EN_DASH = "\u200b", "\u00a0", "\u2013"


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


def everything(action: str = "redact") -> Scrubber:
    return Scrubber(dict.fromkeys(ENTITY_TYPES, action), hash_key=KEY)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the view


@pytest.mark.parametrize(
    ("original", "view"),
    [
        ("\uff14\uff11\uff11\uff11", "4111"),  # fullwidth
        ("\u0664\u0661\u0661\u0661", "4111"),  # Arabic-Indic
        ("\u096a\u0967\u0967\u0967", "4111"),  # Devanagari
        ("\U0001d7d2\U0001d7cf", "41"),  # mathematical bold
        ("a\uff20b", "a@b"),  # fullwidth at sign
        (f"41{ZWSP}11\u2060\ufeff\u00ad11", "411111"),  # invisible characters
        ("\u202e4111\u202c \u20664111\u2069", "4111 4111"),  # bidi controls
        (f"4111{NBSP}1111\u202f1111\u20091111", "4111 1111 1111 1111"),  # spaces
        (f"123{EN_DASH}45\u221267\u20118", "123-45-67-8"),  # dashes
        ("\u0410\u041a\u0406\u0410", "AKIA"),  # Cyrillic look-alikes
        ("4\u03321\u0332", "41"),  # combining marks
        ("ﬁle", "file"),  # NFKC ligature
        ("plain ascii stays", "plain ascii stays"),
    ],
)
def test_view_folds_what_a_reader_would_not_notice(original: str, view: str) -> None:
    assert normalise_text(original) == view


def test_ascii_text_is_its_own_view() -> None:
    text = "Release 2.4.1 ships on 2024-03-15."
    view = View(text)
    assert view.text is text and view.identity


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_view_offsets_map_back_inside_the_original_in_order(text: str) -> None:
    view = View(text)
    previous = 0
    for offset in range(len(view.text)):
        start = view.start(offset)
        assert previous <= start < len(text)
        assert view.end(offset + 1) > start
        previous = start
    assert view.end(len(view.text)) <= len(text)


def test_the_whole_original_span_is_replaced_invisible_characters_included() -> None:
    card = f"4111{ZWSP}1111{ZWSP}1111{ZWSP}1111"
    outcome = everything().scrub(f"card {card} ok")
    assert outcome.text == "card [CREDIT_CARD] ok"
    marked = "".join(f"{char}\u0332" for char in "4111111111111111")
    assert everything().scrub(f"card {marked} ok").text == "card [CREDIT_CARD] ok"


def test_a_bidi_pop_after_a_value_stays() -> None:
    text = "call \u2066+44 20 7946 0958\u2069 now"
    assert everything().scrub(text).text == "call \u2066[PHONE]\u2069 now"


# ---------------------------------------------------------------- disguised values

DISGUISES: dict[str, Callable[[str], str]] = {
    "fullwidth": lambda v: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in v),
    "arabic-indic": lambda v: "".join(chr(0x0660 + int(c)) if c.isdigit() else c for c in v),
    "devanagari": lambda v: "".join(chr(0x0966 + int(c)) if c.isdigit() else c for c in v),
    "zero-width": ZWSP.join,
    "soft-hyphen": "\u00ad".join,
    "word-joiner": lambda v: v[:3] + "\u2060" + v[3:],
    "rlm": "\u200f".join,
    "nbsp": lambda v: v.replace(" ", NBSP),
    "en-dash": lambda v: v.replace("-", EN_DASH),
    "minus": lambda v: v.replace("-", "\u2212"),
    "marks": lambda v: "".join(c + "\u0301" if c.isdigit() else c for c in v),
}
VALUES = [
    ("EMAIL", "jane.doe@example.com"),
    ("PHONE", "+1 415-555-2671"),
    ("PHONE", "+44 20 7946 0958"),
    ("CREDIT_CARD", "4111 1111 1111 1111"),
    ("US_SSN", "123-45-6789"),
    ("IBAN", "DE89370400440532013000"),
    ("AWS_ACCESS_KEY", "AKIAABCDEFGHIJKLMNOP"),
    ("GITHUB_PAT", "ghp_" + "Ab1Cd2Ef3G" * 3 + "h4Ij5K"),
    ("STRIPE_SECRET_KEY", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"),
]


@pytest.mark.parametrize("disguise", sorted(DISGUISES))
@pytest.mark.parametrize(("kind", "value"), VALUES, ids=[f"{kind}-{i}" for i, (kind, _) in enumerate(VALUES)])
def test_a_disguised_value_is_found_whole(kind: str, value: str, disguise: str) -> None:
    shown = DISGUISES[disguise](value)
    text = f"SSN note: {shown} (from the chat)" if kind == "US_SSN" else f"note: {shown} (from the chat)"
    findings = [(k, v) for k, v in found(text) if k == kind]
    assert findings == [(kind, shown)]
    scrubbed = everything().scrub(text).text
    assert shown not in scrubbed and f"[{kind}]" in scrubbed


def test_a_disguised_value_gets_the_token_of_the_plain_one() -> None:
    scrubber = everything("hash")
    plain = scrubber.scrub("card 4111 1111 1111 1111").text
    for disguise in ("fullwidth", "arabic-indic", "zero-width", "marks"):
        shown = DISGUISES[disguise]("4111 1111 1111 1111")
        assert scrubber.scrub(f"card {shown}").text == plain
    assert plain == "card " + keyed_token(KEY, "CREDIT_CARD", "4111111111111111")


@pytest.mark.parametrize(
    "keyword", ["p\u0430ssword", f"pass{ZWSP}word", "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44", "PASSWORD"]
)
def test_a_disguised_keyword_still_anchors_a_password(keyword: str) -> None:
    assert found(f"{keyword}: Winter2024!") == [("PASSWORD", "Winter2024!")]


ALPHABET = st.sampled_from([ZWSP, "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u2066", "\u2069"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 18), ALPHABET), max_size=6), st.sampled_from(VALUES))
def test_invisible_characters_anywhere_inside_never_hide_a_value(
    cuts: list[tuple[int, str]], entity: tuple[str, str]
) -> None:
    kind, value = entity
    shown = value
    for cut, char in sorted(cuts, reverse=True):
        position = min(cut, len(shown) - 1)
        shown = shown[:position] + char + shown[position:]
    text = f"SSN record {shown} end" if kind == "US_SSN" else f"record {shown} end"
    scrubbed = everything().scrub(text).text
    assert f"[{kind}]" in scrubbed
    assert normalise_text(value) not in normalise_text(scrubbed)


# ---------------------------------------------------------------- token-shaped text


def test_a_real_value_in_a_token_shaped_bracket_is_scrubbed() -> None:
    scrubber = everything("hash")
    outcome = scrubber.scrub("call [PHONE:4155552671] or [EMAIL:jane@example.com]")
    assert "4155552671" not in outcome.text and "jane@example.com" not in outcome.text
    assert outcome.counts == {"EMAIL": 1, "PHONE": 1}


def test_only_tokens_of_this_key_are_left_alone() -> None:
    scrubber = everything("hash")
    mine = keyed_token(KEY, "GENERIC_SECRET", "x")
    theirs = keyed_token(b"other-key", "GENERIC_SECRET", "x")
    assert scrubber.is_own_token(mine) and not scrubber.is_own_token(theirs)
    text = f"token {mine} and token {theirs}"
    outcome = scrubber.scrub(text)
    assert mine in outcome.text and theirs not in outcome.text


def test_tokens_carry_96_bits_and_differ_per_customer() -> None:
    scrubber = Scrubber({"EMAIL": "hash"}, hash_key=KEY)
    tokens = {scrubber.scrub(f"customer{i}@example.com").text for i in range(2000)}
    assert len(tokens) == 2000
    identity = next(iter(tokens)).split(":")[1][:24]
    assert len(identity) * 4 >= 96


# ---------------------------------------------------------------- what must survive


def test_the_must_survive_set_is_large() -> None:
    assert len(MUST_SURVIVE) >= 300
    assert len(set(MUST_SURVIVE)) >= 290


@pytest.mark.parametrize("action", ["redact", "hash"])
def test_the_must_survive_set_stays_byte_identical(action: str) -> None:
    scrubber = everything(action)
    damaged = [line for line in MUST_SURVIVE if scrubber.scrub(line).text != line]
    assert damaged == []
    joined = "\n".join(MUST_SURVIVE)
    assert scrubber.scrub(joined).text == joined


@pytest.mark.parametrize(
    "text",
    [
        "icon@2x.png and logo@1.5x.webp",
        "postgres://db.internal.example.com:5432/app",
        "git@github.com:org/repo.git",
        "Reset your password: click the link below.",
        "password: required",
        "api_key: ${API_KEY}",
        "max_tokens=1024 token_count: 4096",
        "sha256:4bcff63911fcb4448bd4fdacec207030997caf25e9bea4045fa6c8c44de311d1",
    ],
)
def test_ordinary_technical_text_is_not_damaged(text: str) -> None:
    assert detect(text) == []


def test_a_database_url_keeps_its_host_and_loses_its_password() -> None:
    text = "DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal.example.com:5432/app"
    assert everything().scrub(text).text == "DATABASE_URL=postgres://[URL_CREDENTIALS]@db.internal.example.com:5432/app"


# ---------------------------------------------------------------- values split across an edit


@pytest.fixture
def regulated(tmp_path: Path) -> SecureMemory:
    return SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy="regulated")


def _stored(memory: SecureMemory, path: str) -> str:
    return stored(memory, path, now=memory.clock()).decode()


def _token(memory: SecureMemory, entity: str, normalised: str) -> str:
    return keyed_token(memory.store.token_key, entity, normalised)


def test_an_edit_completing_an_email_tokenises_the_whole_address(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text="contact: jane.doe\n")
    ok(regulated, command="str_replace", path="/memories/c.md", old_str="doe\n", new_str="doe@example.com\n")
    assert _stored(regulated, "/memories/c.md") == f"contact: {_token(regulated, 'EMAIL', 'jane.doe@example.com')}\n"


def test_an_insert_completing_a_card_masks_the_whole_number(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text="card 4111 1111\n")
    ok(regulated, command="str_replace", path="/memories/c.md", old_str="1111\n", new_str="1111 1111 1111\n")
    assert _stored(regulated, "/memories/c.md") == "card [CREDIT_CARD ****1111]\n"


def test_an_edit_completing_a_phone_gets_the_full_numbers_token(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/p.md", file_text="call +44 20 7946\n")
    text = ok(regulated, command="str_replace", path="/memories/p.md", old_str="7946\n", new_str="7946 0958\n")
    expected = _token(regulated, "PHONE", "442079460958")
    assert _stored(regulated, "/memories/p.md") == f"call {expected}\n"
    assert "7946 0958" not in text


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 ok", "CREDIT_CARD", "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"),
        ("card 4111/1111/1111/1111 ok", "CREDIT_CARD", "4111/1111/1111/1111"),
        ("card 41-11-11-11-11-11-11-11 ok", "CREDIT_CARD", "41-11-11-11-11-11-11-11"),
        ("IBAN: DE89-3704-0044-0532-0130-00", "IBAN", "DE89-3704-0044-0532-0130-00"),
        ("write to jane @ example.com today", "EMAIL", "jane @ example.com"),
        ("write to jane (at) example (dot) co (dot) uk", "EMAIL", "jane (at) example (dot) co (dot) uk"),
    ],
)
def test_regrouped_and_spaced_values(text: str, kind: str, value: str) -> None:
    assert (kind, value) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "h = x @ self.proj",
        "y = a @ b.T",
        "Rejected number 4889 0152 6347 7331 (checksum).",
        "card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 (fails Luhn)",
        "meet @ 10 in room 4",
    ],
)
def test_regrouping_rules_do_not_invent_values(text: str) -> None:
    assert found(text) == []


def test_a_spaced_address_gets_the_token_of_the_plain_one() -> None:
    scrubber = everything("hash")
    assert scrubber.scrub("jane @ example.com").text == scrubber.scrub("jane@example.com").text
