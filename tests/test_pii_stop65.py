"""Stop 65's readers: the last stop's known misses read where the form is general (a SIM's "PUK-код", a seed phrase
pasted as a list after its label, a Hungarian account's groups joined by blanks, a token's bytes in hex one by one,
a traveller's country in square brackets before a mobile), each with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_SEED_12 = "liar hurry puzzle few pig daring dice own wreck sun liquid canvas"
_TOKEN_BYTES = (
    "67 68 70 5f 41 46 70 59 71 68 54 69 52 6c 6d 4e 55 33 5a 43 54 6b 45 4b 67 64 57 61 6f 30 70 68 4a 45 31 4c 77 "
    "57 57 7a"
)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("SIM PUK-код: 33203366", ["33203366"]),
        ("Клиенту выдан PUK-код 33203366 для разблокировки", ["33203366"]),
        (f"seed: {_SEED_12.replace(' ', ', ')}", [_SEED_12.replace(" ", ", ")]),
        (f"wallet seed words: {_SEED_12.replace(' ', ',')}", [_SEED_12.replace(" ", ",")]),
        (f"Recovery phrase (as the customer typed it):\n{_SEED_12.replace(' ', ', ')}", [_SEED_12.replace(" ", ", ")]),
        ("Tóth Gábor számlaszáma: 12077894 21352740 61799842", ["12077894 21352740 61799842"]),
        (f"api key bytes: {_TOKEN_BYTES}", [_TOKEN_BYTES]),
        (f"creds hexdump {_TOKEN_BYTES.replace(' ', ':')}", [_TOKEN_BYTES.replace(" ", ":")]),
        ("lead pax Mei Lin Tan [SG] 9431 9488", ["9431 9488"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a list of the standard's words with no seed's label right before it (a phrase book's, in a text about crypto;
        # the list quoted in its own order)
        "Phrase book for the Lisbon crypto summit: hello, thank you, please, sorry, help, water, coffee, ticket, taxi, "
        "hotel, airport, train, beach",
        f"wallet poem of the week: {_SEED_12.replace(' ', ', ')}",
        "wallet words: abandon, ability, able, about, above, absent, absorb, abstract, absurd, abuse, access, accident",
        # a Hungarian number whose check digits fail, or with no account spoken of
        "számlaszáma: 12077894 21352741 61799842",
        "rendelés 12077894 21352740 61799842",
        # two-digit numbers in a row; hex bytes of ordinary text; hex bytes with a joint that changes
        "scores: 23 45 67 34 56 72 21 33 44 55 66 77 22 35 46 57 68 71",
        "hello 48 65 6c 6c 6f 20 77 6f 72 6c 64 20 74 68 69 73 20 69 73 20 66 69 6e 65",
        f"bytes {_TOKEN_BYTES.replace(' ', ':', 8)}",
        # a product's market in square brackets
        "Returned by customer: Travel Adapter [SG] 8806 1234",
        # a PUK's word before no number
        "PUK-код: не выдан",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
