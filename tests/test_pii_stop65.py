"""Stop 65's readers: the last stop's known misses read where the form is general (a SIM's "PUK-код", a seed phrase
pasted as a list after its label, a token's bytes in hex one by one), each with the near forms that must stay as they
were. (A Hungarian account's groups joined by blanks and a traveller's country in square brackets were read too, and
dropped: an attacker's round found two dates, two order numbers or an amount in a report's row in their place.)"""

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
        (f"api key bytes: {_TOKEN_BYTES}", [_TOKEN_BYTES]),
        (f"creds hexdump {_TOKEN_BYTES.replace(' ', ':')}", [_TOKEN_BYTES.replace(" ", ":")]),
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
        # (the attacker's round) garden seeds, a menu, keywords, a mnemonic device, a recovery's example; a field's
        # "key:Value" in hex beside "auth"; an operator's helpline after "PUK-код"; two dates after a transfer's word
        "Seed order: broccoli, ginger, celery, pumpkin, cabbage, bean, pepper, garlic, corn, potato, tomato, onion",
        "Post-surgery recovery menu: chicken, fish, salad, milk, honey, toast, banana, egg, juice, soup, rice, cereal",
        "Crypto newsletter keywords: trade, swap, risk, bridge, fee, volume, layer, token, market, crash, rally, price",
        "Mnemonic device for kids (animals): lion, elephant, whale, giraffe, horse, rabbit, tiger, monkey, dolphin, "
        "zebra, panda, eagle",
        "Your recovery phrase will look something like this:\ncreek, coral, winter, shadow, despair, practice, feed, "
        "ice, lesson, again, road, open",
        "RADIUS auth trace, Class attribute: 67 72 6f 75 70 3a 41 64 6d 69 6e 73 32 30 32 34",
        "PUK-код — 0500 с мобильного МегаФон, звонок бесплатный.",
        "Átutalás elszámolási időszaka: 20240301 20240325, a díjbekérő szerint.",
        "Customers Total Spend [SG] 98 765 432 (YTD, in SGD)",
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
