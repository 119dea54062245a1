"""Reviewer CO's blind round (a crypto exchange's, an airline's and a telehealth start-up's agents; 23 languages):
each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

KEY = "0x422dcd1c 14e0b3e6 dec13c25 97c9495e 4617acf1 ce5abeca 471c19ba f8be849c"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a wallet's private key in hex, in eight groups of eight, after the word that names it
        (f"hot wallet key {KEY}", [KEY]),
        (f"signer key: {KEY}", [KEY]),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a transaction's hash in the same groups; seven groups; groups after no key's word
        f"tx hash {KEY}",
        "wallet key 0x422dcd1c 14e0b3e6 dec13c25 97c9495e 4617acf1 ce5abeca 471c19ba",
        f"block {KEY} confirmed",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
