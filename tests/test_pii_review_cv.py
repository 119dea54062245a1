"""Reviewer CV's blind round (an airline's operations and a travel agency's bookings, a pharmacy chain's refills, a law
firm's intake, a customs broker's files, a telco's business provisioning, a game studio's player support, CI logs, an
IoT fleet's provisioning, a real-estate agency's screening, a school's contact sheets; 29 languages): each form found
missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_SEED_24 = (
    "nuclear bean picture tennis also lamp crisp pig acid few bleak any snack retreat ask cotton mountain sick brand "
    "industry wheat vast wear margin"
)
_SEED_12 = "liar hurry puzzle few pig daring dice own wreck sun liquid canvas"


def _numbered(words: str, joint: str, mark: str = ")") -> str:
    return joint.join(f"{at}{mark}{word}" for at, word in enumerate(words.split(), start=1))


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # an answer's own label with no question quoted (English, Turkish)
        ("security answer: Karabaş60", ["Karabaş60"]),
        ("Hesap kurtarma güvenlik sorusu cevabı: Karabaş60. Kart: 9792", ["Karabaş60"]),
        # a device's or a system's password column named with "pass"
        ("serial,mqtt_user,mqtt_pass\nTRK-946057,dev-99014,pIiYpvLxYI9rzTmO", ["pIiYpvLxYI9rzTmO"]),
        ("host;db_pass;port\nbilling-01;Qw3rty!Db2024;5432", ["Qw3rty!Db2024"]),
        # a card's number in four columns "pan_1".."pan_4"
        ("retainer_id,client,pan_1,pan_2,pan_3,pan_4,exp\nR-2291,Yusuf Demir,4457,7784,2644,8248,11/26",
         ["4457,7784,2644,8248"]),
        # Czech's "reportedly", Finnish's compounds of "salasana", Swahili's PIN
        ("Do účtu se nedostane, heslo prý Kartal#9618. Doplatek poslat na účet.", ["Kartal#9618"]),
        ("Yksikön hallintasalasana Kartal_balaton86, IP 172.16.166.249", ["Kartal_balaton86", "172.16.166.249"]),
        ("Atalipa kwa M-Pesa; alisema namba ya siri yake ni 3996 (tumemwambia asiwahi kuitoa tena).", ["3996"]),
        # a seed phrase numbered word by word, with no word of wallets around it
        (f"Jogador mandou as palavras numeradas: {_numbered(_SEED_24, ' ')}.", [_numbered(_SEED_24, " ")]),
        (f"Player sent:\n{_numbered(_SEED_12, chr(10), '. ')}", [_numbered(_SEED_12, chr(10), ". ")]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # what a form says of the answer it asks for
        "Security answer: Case-sensitive",
        "Security answer: Enter your answer",
        "Security answer: Required.",
        # a column of passes that pass or fail; "pan" alone; pans numbered in a kitchen's list
        "test,pass,fail\nlogin,12,0",
        "kitchen,pan_1,pan_2,pan_3,pan_4\nBistro,4457,7784,2644,8249",
        "kitchen,pan_1,pan_2,pan_3,pan_4\nBistro,12,14,16,20",
        # "prý" before a word, not a password; Swahili's PIN said of, not given
        "heslo prý je silné",
        "namba ya siri ina tarakimu 4 na 2024 ni mwaka",
        # numbered lists: the standard's words whose checksum fails, tips, numbers out of order
        f"Player sent: {_numbered(_SEED_12.replace('canvas', 'window'), ' ', '. ')}",
        "Top tips: 1) buy 2) hold 3) sell 4) wait 5) learn 6) save 7) plan 8) budget 9) invest 10) track 11) review "
        "12) repeat",
        # an incident's number in Spanish, a customs tariff's in one German word
        "Incidencia 0412-555-2291 cerrada; ticket relacionado 2024-0613-8871",
        "Zolltarifnummer 8504 40 30 90, Zollsatz 2,7 %",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
