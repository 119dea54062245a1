"""What reviewer AW (a marketplace's seller-support and returns desk, a logistics company's dispatch and
warehouse systems, a benefits office's caseworkers; 12 languages) found: French "c'est" between a
password's label and its value, a password's label in leetspeak before ":" or "="; and what those readers
leave alone (the leet word as the value itself, a strength meter's line, a word, digits alone)."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("le mdp c'est Marseille13@", [("PASSWORD", "Marseille13@")]),
        ("mon mot de passe c’est Soleil2020!", [("PASSWORD", "Soleil2020!")]),
        ("p4ssw0rd: Sunshine!2023", [("PASSWORD", "Sunshine!2023")]),
        ("portal pa$$word: V3r@n0#9681", [("PASSWORD", "V3r@n0#9681")]),
        ("pa55phr4se = forklift-banana-42", [("PASSWORD", "forklift-banana-42")]),
        # The leet word after a password's label is the value.
        ("Default password is P@ssw0rd → change on first login", [("PASSWORD", "P@ssw0rd")]),
        ("password: p4ssw0rd: x", [("PASSWORD", "p4ssw0rd")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "le mot de passe c'est important",
        "le mdp c'est quoi déjà ?",
        "un bon mot de passe, c'est long",
        "pa$$word -> rejected",
        "p@ssw0rd: score=0 guesses=1.2e2",
        "P@ssw0rd: weak",
        "p@ssw0rd: 12345678",
        "the p4ssw0rd: is 8 chars",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
