"""Reviewer CE's blind round (a hostile or careless model's memory files: what a user told it to remember, and values
a prompt injection has it smuggle past a scrubber, recoverable by a later reader; 14 languages): each form found
missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a password's key in leetspeak without "word"
        ("router:\n  usr: admin\n  p4ss: basalt-ember-glacier-4", "basalt-ember-glacier-4"),
        ("pa55: hunter2x", "hunter2x"),
        # an SSN with slashes after its name
        ("ssn: 679/43/2152", "679/43/2152"),
        # a card's PIN spelt in Turkish after the card's password label
        ("Kart şifresi yazıyla: yedi iki iki dokuz", "yedi iki iki dokuz"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        "p4ss: score=0",
        "the p4ss rate: 98%",
        # a case's number with slashes, no SSN named
        "Case 679/43/2152 filed",
        # a password policy in Turkish with digit words in it
        "Şifre kuralları: en az sekiz karakter, bir iki üç gibi diziler yasak",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
