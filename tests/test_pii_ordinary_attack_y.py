"""An attacker's round on reviewer Y's forms: 253 ordinary strings written to be damaged by them (pins of
boards after "pin", standards after "activation code:", three sizes a space apart, "chez" in French prose,
names after "password", rooms after "Zugangscode", order numbers read out in Turkish, references beside
addresses of a country's domain). Each line of tests/data/ordinary_attack_y.jsonl holds the text and
what must be found in it (mostly nothing); the 15 marked "left" were still altered when they were
recorded (an address's "get underscore user at utils dot py", "IP PIN 2024 FAQ"...), and the tree before
Y's forms altered 19 of the 253. Two of them are left alone since reviewer AZ's round ("Companies House
no. 09876543", "Rechnungsnummer 0171 2345678": "No." or "Nr." alone names no phone)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import found_values

ROWS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "ordinary_attack_y.jsonl").read_text(encoding="utf-8").splitlines()
]


@pytest.mark.parametrize("row", [row for row in ROWS if not row["left"]], ids=lambda row: row["text"][:40])
def test_ordinary_text_keeps_what_it_should(row: dict[str, Any]) -> None:
    assert found_values(row["text"]) == row["values"]


def test_the_round_is_recorded_whole() -> None:
    assert len(ROWS) == 253 and sum(row["left"] for row in ROWS) == 13
