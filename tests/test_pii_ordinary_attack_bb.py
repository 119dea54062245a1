"""An attacker's round on reviewer BB's readers: 285 ordinary strings in twenty languages written to be
damaged by them (India's postcodes after a parcel's number and "pincode", queue tickets after "senha", EANs,
ISBNs and UPCs that read as mobiles, order and record numbers starting with "0" after any noun, "Cardinal
Health" and gift cards' orders before numbers starting with 7, tickets' numbers after "password for ...",
ciphers glued to CJK password labels, API keys' ids in audit logs, counts and street numbers after "2FA
for", course, licence and answer keys beside a code's word, lists and menus before "1 (800) ..."). Each
line of tests/data/ordinary_attack_bb.jsonl holds the text and what is found in it: nothing, or what the
tree before BB's round found too. The readers as first written altered 205 of them that the tree before did
not, none since; the 3 marked "left" still are (a protocol's number that reads as a card and the "senha"
after it, a door's issue number led by "#", Mercado Pago's documented sample token)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import found_values

ROWS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "ordinary_attack_bb.jsonl").read_text(encoding="utf-8").splitlines()
]


@pytest.mark.parametrize("row", [row for row in ROWS if not row["left"]], ids=lambda row: row["text"][:40])
def test_ordinary_text_keeps_what_it_should(row: dict[str, Any]) -> None:
    assert found_values(row["text"]) == row["values"]


def test_the_round_is_recorded_whole() -> None:
    assert len(ROWS) == 285 and sum(row["left"] for row in ROWS) == 3
    assert sum(1 for row in ROWS if not row["left"] and not row["values"]) == 269


# The same attacker's 116 values the readers should find (a PIN after an expiry, a glued label's value before
# a copula, backup codes, lockboxes' codes in compounds, login pairs in more languages...): 65 found as the
# readers were first written, 99 since. Left: UUIDs named an API key with no secret beside them (a key's id
# as often), passwords after five words or more, a slash inside one, bare mobiles after a name alone.
POSITIVES: list[dict[str, str]] = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "positives_attack_bb.jsonl").read_text(encoding="utf-8").splitlines()
]


def test_the_attackers_values_are_found() -> None:
    from securemem.pii import detect

    found = 0
    for row in POSITIVES:
        text, value = row["text"], row["value"]
        at = text.index(value)
        found += any(f.start <= at and f.end >= at + len(value) - 1 for f in detect(text))
    assert len(POSITIVES) == 116 and found >= 99
