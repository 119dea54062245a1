"""Scrubber: the five actions, keyed hashes, idempotence, configuration errors, nothing leaked."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from securemem.pii import ENTITY_TYPES, Action, Scrubber, ScrubOutcome, keyed_token

KEY = b"k" * 32
OTHER_KEY = b"o" * 32
CORPUS = [json.loads(line) for line in (Path(__file__).parent / "data" / "pii_corpus.jsonl").read_text().splitlines()]
POSITIVE = [row for row in CORPUS if row["entities"]]

CARD = "4111 1111 1111 1111"
EMAIL = "Jane.Doe@Example.com"
PHONE = "(415) 555-2671"
SAMPLE = f"Call {PHONE} or mail {EMAIL}; card {CARD}; host 10.0.0.1."


def everything(action: Action) -> Scrubber:
    return Scrubber(dict.fromkeys(ENTITY_TYPES, action), hash_key=KEY)


def expected_token(entity: str, normalised: str, key: bytes = KEY) -> str:
    """96 bits of HMAC-SHA256(key, type NUL value), then an 8-hex tag that authenticates the token."""
    digest = hmac.new(key, f"{entity}\x00{normalised}".encode(), hashlib.sha256).hexdigest()
    token = keyed_token(key, entity, normalised)
    assert token.startswith(f"[{entity}:{digest[:24]}") and len(token) == len(entity) + 35
    return token


# ---------------------------------------------------------------- actions


def test_redact() -> None:
    outcome = everything("redact").scrub(SAMPLE)
    assert outcome.text == "Call [PHONE] or mail [EMAIL]; card [CREDIT_CARD]; host [IP_ADDRESS]."
    assert outcome.counts == {"CREDIT_CARD": 1, "EMAIL": 1, "IP_ADDRESS": 1, "PHONE": 1}
    assert outcome.refused == ()


def test_mask_keeps_the_last_four_letters_or_digits() -> None:
    outcome = everything("mask").scrub(SAMPLE)
    assert outcome.text == (
        "Call [PHONE ****2671] or mail [EMAIL ****ecom]; card [CREDIT_CARD ****1111]; host [IP_ADDRESS ****0001]."
    )


def test_mask_of_a_short_value_keeps_what_there_is() -> None:
    assert everything("mask").scrub("at 1.2.3.4 now").text == "at [IP_ADDRESS ****1234] now"


def test_hash_is_hmac_of_type_and_normalised_value() -> None:
    outcome = everything("hash").scrub(SAMPLE)
    assert outcome.text == (
        f"Call {expected_token('PHONE', '14155552671')} or mail {expected_token('EMAIL', 'jane.doe@example.com')}; "
        f"card {expected_token('CREDIT_CARD', '4111111111111111')}; host {expected_token('IP_ADDRESS', '10.0.0.1')}."
    )


@pytest.mark.parametrize(
    ("entity", "spellings"),
    [
        ("EMAIL", ["jane.doe@example.com", "JANE.DOE@EXAMPLE.COM", "Jane.Doe@example.Com", '"jane.doe"@example.com']),
        (
            "EMAIL",
            ["jos\u00e9@example.com", "jose\u0301@example.com", "JOSE\u0301@example.com", '"jos\u00e9"@example.com'],
        ),
        ("PHONE", ["(415) 555-2671", "415-555-2671", "+1 415 555 2671", "+14155552671", "415.555.2671"]),
        ("CREDIT_CARD", ["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111"]),
        ("IBAN", ["DE89370400440532013000", "DE89 3704 0044 0532 0130 00", "de89 3704 0044 0532 0130 00"]),
        ("US_SSN", ["123-45-6789", "SSN 123456789"]),
        ("IP_ADDRESS", ["2001:db8::1", "2001:0db8:0000:0000:0000:0000:0000:0001"]),
    ],
)
def test_one_customer_one_token_however_written(entity: str, spellings: list[str]) -> None:
    scrubber = Scrubber({entity: "hash"}, hash_key=KEY)
    tokens = {scrubber.scrub(f"value {spelling} end").text.split()[-2] for spelling in spellings}
    assert len(tokens) == 1
    assert tokens.pop().startswith(f"[{entity}:")


def test_an_accent_written_as_a_combining_mark_is_not_dropped_from_the_token() -> None:
    """The view drops a combining acute one character at a time: "jose" + U+0301 read "jose", and
    got the token of another customer's "jose@example.com" (from a fifth review)."""
    scrubber = everything("hash")
    composed, decomposed = scrubber.scrub("jos\u00e9@example.com").text, scrubber.scrub("jose\u0301@example.com").text
    assert composed == decomposed != scrubber.scrub("jose@example.com").text
    assert scrubber.scrub('"jane doe"@example.com').text != scrubber.scrub("jane.doe@example.com").text


def test_tokens_differ_per_key_per_type_and_per_value() -> None:
    one = Scrubber({"EMAIL": "hash"}, hash_key=KEY).scrub("a@example.com").text
    again = Scrubber({"EMAIL": "hash"}, hash_key=KEY).scrub("a@example.com").text
    other_key = Scrubber({"EMAIL": "hash"}, hash_key=OTHER_KEY).scrub("a@example.com").text
    other_value = Scrubber({"EMAIL": "hash"}, hash_key=KEY).scrub("b@example.com").text
    assert one == again
    assert len({one, other_key, other_value}) == 3
    assert one == expected_token("EMAIL", "a@example.com")
    assert other_key == expected_token("EMAIL", "a@example.com", OTHER_KEY)


def test_refuse_leaves_the_value_and_names_the_type() -> None:
    scrubber = Scrubber({"CREDIT_CARD": "refuse", "EMAIL": "refuse", "PHONE": "redact"}, hash_key=KEY)
    outcome = scrubber.scrub(f"{CARD} {EMAIL} {CARD} {PHONE}")
    assert outcome.refused == ("CREDIT_CARD", "EMAIL")
    assert outcome.text == f"{CARD} {EMAIL} {CARD} [PHONE]"
    assert outcome.counts == {"PHONE": 1}


def test_refuse_alone_returns_the_text_unchanged() -> None:
    outcome = Scrubber({"US_SSN": "refuse"}, hash_key=KEY).scrub("ssn 123-45-6789")
    assert (outcome.text, dict(outcome.counts), outcome.refused) == ("ssn 123-45-6789", {}, ("US_SSN",))


def test_allow_leaves_the_value_but_still_claims_its_span() -> None:
    """An allowed email is not cut into: the digits inside it are not taken for a phone number."""
    text = "mail +1-415-555-2671@example.com"
    outcome = Scrubber({"EMAIL": "allow", "PHONE": "redact"}, hash_key=KEY).scrub(text)
    assert (outcome.text, dict(outcome.counts), outcome.refused) == (text, {}, ())


def test_types_missing_from_actions_are_not_scanned() -> None:
    outcome = Scrubber({"EMAIL": "redact"}, hash_key=KEY).scrub(SAMPLE)
    assert outcome.text == SAMPLE.replace(EMAIL, "[EMAIL]")
    assert outcome.counts == {"EMAIL": 1}


def test_nothing_found_leaves_text_and_counts_empty() -> None:
    text = "Release 2.4.1 ships on 2024-03-15 for $1,299.00."
    outcome = everything("redact").scrub(text)
    assert outcome.text is text
    assert dict(outcome.counts) == {}
    assert outcome.refused == ()


def test_counts_are_read_only() -> None:
    outcome = everything("redact").scrub(SAMPLE)
    with pytest.raises(TypeError):
        outcome.counts["EMAIL"] = 5  # type: ignore[index]  # the write a read-only mapping must refuse


def test_contains_names_the_types_not_allowed() -> None:
    scrubber = Scrubber({"EMAIL": "allow", "PHONE": "refuse", "CREDIT_CARD": "mask"}, hash_key=KEY)
    assert scrubber.contains(SAMPLE) == ("CREDIT_CARD", "PHONE")
    assert scrubber.contains("nothing here 2024-01-01") == ()


def test_pem_block_is_replaced_whole() -> None:
    block = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\nops@example.com\n-----END EC PRIVATE KEY-----"
    outcome = everything("redact").scrub(f"key:\n{block}\n")
    assert outcome.text == "key:\n[PRIVATE_KEY]\n"
    assert outcome.counts == {"PRIVATE_KEY": 1}


# ---------------------------------------------------------------- idempotence


@pytest.mark.parametrize("action", ["redact", "mask", "hash"])
def test_corpus_scrubs_clean_and_idempotent(action: Action) -> None:
    """Every labelled line: each value replaced, nothing left to find, a second scrub changes nothing."""
    scrubber = everything(action)
    failures = []
    for row in POSITIVE:
        first = scrubber.scrub(row["text"])
        second = scrubber.scrub(first.text)
        if (
            sum(first.counts.values()) != len(row["entities"])
            or any(entity["value"] in first.text for entity in row["entities"])
            or scrubber.contains(first.text) != ()
            or (second.text, dict(second.counts)) != (first.text, {})
        ):
            failures.append(f"line {CORPUS.index(row) + 1}: {row['note']}")
    assert failures == []


FRAGMENTS = [
    "jane@example.com",
    "+44 20 7946 0958",
    "(415) 555-2671",
    "415-555-2671",
    "4111 1111 1111 1111",
    "4111111111111111",
    "DE89 3704 0044 0532 0130 00",
    "123-45-6789",
    "SSN ",
    "phone ",
    "10.0.0.1",
    "2001:db8::1",
    "AKIAABCDEFGHIJKLMNOP",
    "sk-ant-api03-" + "Ab1" * 10,
    "Bearer abcdefghij123456",
    "Authorization: ",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    "-----BEGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----",
    "2024-01-15",
    "$1,299.00",
    "@",
    "-",
    ".",
    ":",
    " ",
    "[",
    "]",
    "0",
    "5",
    "a",
    "*",
    "[EMAIL",
    "[PHONE:",
]
mixed_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=14).map("".join)
replacing = st.sampled_from(["redact", "mask", "hash"])
policies = st.dictionaries(st.sampled_from(ENTITY_TYPES), st.sampled_from(["redact", "mask", "hash", "allow"]))


@settings(max_examples=400, deadline=None)
@given(mixed_text, replacing)
def test_scrub_is_idempotent(text: str, action: Action) -> None:
    scrubber = everything(action)
    first = scrubber.scrub(text)
    second = scrubber.scrub(first.text)
    assert second.text == first.text
    assert dict(second.counts) == {}
    assert scrubber.contains(first.text) == ()


@settings(max_examples=200, deadline=None)
@given(mixed_text, policies)
def test_scrub_is_idempotent_under_mixed_policies(text: str, actions: dict[str, Action]) -> None:
    scrubber = Scrubber(actions, hash_key=KEY)
    first = scrubber.scrub(text)
    second = scrubber.scrub(first.text)
    assert (second.text, dict(second.counts)) == (first.text, {})


# ---------------------------------------------------------------- configuration and leaks


@pytest.mark.parametrize(
    ("actions", "options", "message"),
    [
        ({"NAME": "redact"}, {}, "NAME"),
        ({"EMAIL": "shred"}, {}, "EMAIL"),
        ({"EMAIL": "redact"}, {"hash_key": b""}, "hash_key"),
        ({"EMAIL": "redact"}, {"phone_region": "XX"}, "region"),
    ],
)
def test_bad_configuration_is_refused(actions: dict[str, Any], options: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"hash_key": KEY, **options}
    with pytest.raises(ValueError, match=message):
        Scrubber(actions, **arguments)


def test_phone_region_applies_to_national_numbers() -> None:
    assert Scrubber({"PHONE": "redact"}, hash_key=KEY, phone_regions=["US"]).scrub("ring 020 7946 0958").text == (
        "ring 020 7946 0958"
    )
    scrubber = Scrubber({"PHONE": "redact"}, hash_key=KEY, phone_regions=["US", "GB"])
    assert scrubber.scrub("ring 020 7946 0958").text == "ring [PHONE]"
    assert Scrubber({"PHONE": "redact"}, hash_key=KEY, phone_region="GB").phone_regions == ("GB",)


def test_values_and_key_stay_out_of_reprs() -> None:
    scrubber = Scrubber({"EMAIL": "refuse", "PHONE": "hash"}, hash_key=b"super-secret-hash-key")
    outcome = scrubber.scrub(SAMPLE)
    assert isinstance(outcome, ScrubOutcome)
    shown = repr(outcome) + str(outcome) + repr(scrubber)
    assert outcome.refused == ("EMAIL",)
    for secret in ("Jane", "Example", "555", "2671", "super-secret"):
        assert secret not in shown
    assert "EMAIL" in shown


def test_outcome_is_frozen() -> None:
    outcome = everything("redact").scrub(SAMPLE)
    with pytest.raises(AttributeError):
        outcome.text = "x"  # type: ignore[misc]  # the write a frozen outcome must refuse
