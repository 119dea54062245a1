"""What reviewer AW (a marketplace's seller-support and returns desk, a logistics company's dispatch and
warehouse systems, a benefits office's caseworkers; 12 languages) found: French "c'est" between a
password's label and its value; and what that verb leaves alone."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("le mdp c'est Marseille13@", [("PASSWORD", "Marseille13@")]),
        ("mon mot de passe c’est Soleil2020!", [("PASSWORD", "Soleil2020!")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    ["le mot de passe c'est important", "le mdp c'est quoi déjà ?", "un bon mot de passe, c'est long"],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
