"""Forms from reviewer F's blind round (tests/data/pii_review_f.jsonl, taken as it came): values it
labels that were missed, and ordinary lines that were altered, each with the hard cases around it.
Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[str]:
    return [text[f.start : f.end] for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A git log's date: "09" is the time's seconds, "2024 -0500" the year and the zone.
        ("commit 81b34eb\nDate:   Tue May 24 07:10:09 2024 -0500\n", []),
        ("AuthorDate: Mon Jan 8 10:11:12 2024 +0100", []),
        ("at 10:09 07911 123456", ["07911 123456"]),  # a time, then a phone
        ("10:00:05 415 555 2671", ["415 555 2671"]),
        ("Mon-Fri 9:00-17:00 0161 496 0123", ["0161 496 0123"]),
        ("10:00:05 +44 20 7946 0958", ["+44 20 7946 0958"]),
        ("tel:01614960123", ["01614960123"]),
    ],
)
def test_a_number_opening_with_a_times_seconds_is_no_phone(text: str, values: list[str]) -> None:
    assert found(text) == values
