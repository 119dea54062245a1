"""Reviewer CM's blind round (a university's, a fleet-telematics company's and a gaming platform's agents; 23
languages): each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

TELEGRAM = "5333569827 : AA73MVaRt5CTOvzjd\u200bg4zQ37GUE2Uqr68iaC"
DISCORD = "OTEwMzYxMjU0NzM4NjYyNjIw . h4r-k_ . nTQVwP1zVlxMvQYTne03WZpw13d9LlwJxc7IWr"
OPENAI = "sk-WRm01 trhs8hYT O8hV3jjT 3BlbkFJq JdT6be7w ywLZ4MrD crS"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # an address said in words, in the domain documentation reserves, after a word for "@" of another language
        (
            "escríbeme a c punto molina arroba pixelhaven punto example, que",
            ["c punto molina arroba pixelhaven punto example"],
        ),
        ("пишите на a точка lebedeva собака correo точка example", ["a точка lebedeva собака correo точка example"]),
        (
            "Adres: kacpern małpa politechnika-wislana kropka example",
            ["kacpern małpa politechnika-wislana kropka example"],
        ),
        # a provider's token with blanks around its own colon or dots, or cut into blocks by blanks
        (f"Токен бота сповіщень: {TELEGRAM}", [TELEGRAM]),
        (f"Token du bot : {DISCORD}", [DISCORD]),
        (f"Token : {DISCORD} . Next one", [DISCORD]),
        (
            "bot\t4798262365\t:\tAArwLbAtf6e9cpCGybY9lMR4pAwBp3GVy1P",
            ["4798262365\t:\tAArwLbAtf6e9cpCGybY9lMR4pAwBp3GVy1P"],
        ),
        (
            "SENDGRID_API_KEY=SG . 9QyucS19AvMp2gUAeSsUfF . gUl8oPK-HJN45P_ED75cNRqsKz5b70CO8W7RQHy2Yp-",
            ["SG . 9QyucS19AvMp2gUAeSsUfF . gUl8oPK-HJN45P_ED75cNRqsKz5b70CO8W7RQHy2Yp-"],
        ),
        (f"chave colada em blocos: {OPENAI}", [OPENAI]),
        (f"chave: {OPENAI} is the key", [OPENAI]),
        # an IBAN in base64, which says what it is once decoded
        ("El jugador mandó el IBAN en base64: RVM0ODAxODIwNDczODY2OTIyMjEyNzE5", ["RVM0ODAxODIwNDczODY2OTIyMjEyNzE5"]),
        # a card in mixed groups a few words after the card's name; a card in Python's literals side by side
        ("Carte indiquée par le joueur : 5229 / 6092-6952.5038", ["5229 / 6092-6952.5038"]),
        ('card = "4626 7289" "2029 4602"  # implicit concat', ['4626 7289" "2029 4602']),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # an English "at" before a documentation domain
        "see the docs at example dot example",
        # spaced dots and colons in prose, versions and ratios; a list set out with bullets
        "Version 1.2 . 3 : 4 done. ratio 16 : 9 ok. See section 4 . 2",
        "Home • About • Contact • 2024 • v1.2",
        "Kickoff 10 : 30 . Room B2 . Agenda : OTA rollout , MQTT broker migration",
        # a prefix followed by words, and a whole token followed by prose, which stays as found alone
        "use sk-learn and Scikit for model Training in Python",
        "sk-proj is the prefix of OpenAI project keys; rk_live and pk_test Stripe's",
        # a card's name farther away; a shell's arguments side by side; an assignment's literals that join to no value
        "Card holder paid for order 2024 then 5229 / 6092-6952.5038",
        'PORTS="5432" "6379"',
        'ports = "5432" "6379" "8080" "9090"',
        # a base64 run that decodes to no IBAN
        "cursor=RVM0ODAxODIwNDczODY2OTIyMjEyNzE4",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_whole_token_before_prose_keeps_its_own_span() -> None:
    key = "sk-proj-Ab3dEf5gHi7jKl9mNo1pQr3sTu5vWx7yZa9"
    assert found_values(f"key {key} is the key Now Then") == [key]
