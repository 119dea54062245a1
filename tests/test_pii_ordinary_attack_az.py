"""An attacker's round on reviewer AZ's readers: 302 ordinary strings in twenty languages written to be
damaged by them (product, error, shipment, customer and course codes beside a lock's word, ports and
gateways, years and counts after a code's word, password labels before products, users, versions and
policies, one-time codes' statistics, names before amounts, scores and order numbers). Each line of
tests/data/ordinary_attack_az.jsonl holds the text and what must be found in it (nothing); the readers as
first written altered 161 of them that the tree before did not, none since. 51 were altered by the readers
that were there before AZ's round too; 37 of them are left alone since (a password's label heading a compound
noun, "Password storage was migrated to Pbkdf2Sha256."; a plain preposition after a verb that moves or sends,
"Password rotation is postponed to Sprint47."; bookkeeping's, logic gates', toll gates', ports of entry's and
suppliers' codes, French and Italian "porte le code"). The 14 marked "left" still are ("Alarm code 1042.",
"The most common password this year was Qwerty123.", "Never set your password to Summer2024!.")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import found_values

ROWS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "ordinary_attack_az.jsonl").read_text(encoding="utf-8").splitlines()
]


@pytest.mark.parametrize("row", [row for row in ROWS if not row["left"]], ids=lambda row: row["text"][:40])
def test_ordinary_text_keeps_what_it_should(row: dict[str, Any]) -> None:
    assert found_values(row["text"]) == row["values"]


def test_the_round_is_recorded_whole() -> None:
    assert len(ROWS) == 302 and sum(row["left"] for row in ROWS) == 14
