"""Forms from reviewer K's blind round (tests/data/pii_review_k.jsonl, written as a hostile acceptance
suite would be, taken as it came): values it labels that were missed and ordinary lines altered,
each with the hard cases around it. Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Tel. +1 (485) 671-2247 ext. 43 | Fax 836-833-7013", ["+1 (485) 671-2247 ext. 43", "836-833-7013"]),
        ("Support line: 865.565.0140 x394 (weekdays 9-5)", ["865.565.0140 x394"]),
        ("call +44 20 7946 0958, ext 12", ["+44 20 7946 0958, ext 12"]),
        ("call 415-867-5309 xylophone", ["415-867-5309"]),  # a word, not an extension
    ],
)
def test_an_extension_is_part_of_its_phone_number(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX  # placeholder, replace before running", []),
        ("# set GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx in your shell profile", []),
        ("AWS key: AKIA IOSF ODNN 7EXA MPLQ", ["AKIA IOSF ODNN 7EXA MPLQ"]),  # a real key in groups still is
        ("Install path: C:\\Program Files\\Acme\\9.3.69.3\\bin\\acme.exe", []),
        ("Upgraded the switch firmware to version 10.0.0.1 last night; rollback image is 9.8.3.2.", []),
        ("http://81.2.69.160/admin and \\\\81.2.69.160\\share", ["81.2.69.160", "81.2.69.160"]),
        ("DNS 8.8.8.8 and 1.1.1.1", ["8.8.8.8", "1.1.1.1"]),
    ],
)
def test_templates_folders_and_releases_are_left_alone(text: str, values: list[str]) -> None:
    assert found_values(text) == values
