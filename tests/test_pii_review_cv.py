"""Reviewer CV's blind round (an airline's operations and a travel agency's bookings, a pharmacy chain's refills, a law
firm's intake, a customs broker's files, a telco's business provisioning, a game studio's player support, CI logs, an
IoT fleet's provisioning, a real-estate agency's screening, a school's contact sheets; 29 languages): each form found
missed, as a general case, with the near forms that must stay as they were, an attacker's round's among them."""

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
        # an answer's own label with no question quoted (English, Turkish), the answer holding a digit or a symbol
        ("security answer: Karabaş60", ["Karabaş60"]),
        ("Hesap kurtarma güvenlik sorusu cevabı: Karabaş60. Kart: 9792", ["Karabaş60"]),
        # a protocol's or a system's password column named with "pass", its cells random
        ("serial,mqtt_user,mqtt_pass\nTRK-946057,dev-99014,pIiYpvLxYI9rzTmO", ["pIiYpvLxYI9rzTmO"]),
        ("host;db_pass;port\nbilling-01;Qw3rty!Db2024;5432", ["Qw3rty!Db2024"]),
        # a card's number in four columns "pan_1".."pan_4" beside an expiry's
        ("retainer_id,client,pan_1,pan_2,pan_3,pan_4,exp\nR-2291,Yusuf Demir,4457,7784,2644,8248,11/26",
         ["4457,7784,2644,8248"]),
        # a parent's mobile in a class's contact list, of the country the text names
        ("Kontakty rodičů – třída 3.B\nAdéla Horáková: matka +420 729 899 533\nMatěj Dvořák: otec 605 540 831",
         ["+420 729 899 533", "605 540 831"]),
        ("Lista rodziców\nZuzanna Lewandowska – mama: +48 609 073 402\nJan Kaczmarek – tata: 790-398-088",
         ["+48 609 073 402", "790-398-088"]),
        # ... not before an amount, nor after another word than a parent's
        ("Lista rodziców\nZuzanna Lewandowska – mama: +48 609 073 402\nJan Kaczmarek – tata: 790-398-088 zł",
         ["+48 609 073 402"]),
        ("Lista rodziców\nZuzanna Lewandowska – mama: +48 609 073 402\nJan Kaczmarek – kwota: 790-398-088",
         ["+48 609 073 402"]),
        # ... not a family tree's date, nor a list of round amounts (an attacker's round)
        ("Slægtstræ\nPeder Jensen – far: 27 03 1875\nAnna Jensen – mor: +45 20 12 34 56", ["+45 20 12 34 56"]),
        ("Składki, konto PL57 1240 0753 6028 9599 3779 9619\nJan Nowak – tata: 500 250 100",
         ["PL57 1240 0753 6028 9599 3779 9619"]),
        # Swahili's PIN
        ("Atalipa kwa M-Pesa; alisema namba ya siri yake ni 3996 (tumemwambia asiwahi kuitoa tena).", ["3996"]),
        # a seed phrase numbered word by word: of 24 words with no word of wallets around it, of 12 in a text about one
        (f"Jogador mandou as palavras numeradas: {_numbered(_SEED_24, ' ')}.", [_numbered(_SEED_24, " ")]),
        (f"Player's wallet, as sent:\n{_numbered(_SEED_12, chr(10), '. ')}", [_numbered(_SEED_12, chr(10), ". ")]),
        (f"wallet backup, numbered: {_numbered(_SEED_12, ', ')}", [_numbered(_SEED_12, ", ")]),
        # (the attacker of the README's promises) numbered from 01; a wallet in Latin America's word; an expiry's
        # column by month and year
        ("Player sent: " + " ".join(f"{at:02d}. {word}" for at, word in enumerate(_SEED_24.split(), 1)),
         [" ".join(f"{at:02d}. {word}" for at, word in enumerate(_SEED_24.split(), 1))]),
        (f"Mi billetera: {_numbered(_SEED_12, ' ', '. ')}", [_numbered(_SEED_12, " ", ". ")]),
        ("client,pan_1,pan_2,pan_3,pan_4,exp_month,exp_year\nYusuf,4457,7784,2644,8248,11,26", ["4457,7784,2644,8248"]),
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
        "Security answer: Required*",
        "Security answer: Mandatory*",
        # a column of passes that pass or fail; "pan" alone; pans numbered in a kitchen's list
        "test,pass,fail\nlogin,12,0",
        "kitchen,pan_1,pan_2,pan_3,pan_4\nBistro,4457,7784,2644,8249",
        "kitchen,pan_1,pan_2,pan_3,pan_4\nBistro,12,14,16,20",
        # (the attacker's round) a form's status after an answer's label, prose's "secret answer"; a check's result
        # under "X_pass"; pans or panels numbered with no expiry's column; Swahili's PIN spoken of, not given; a
        # vocabulary test's and a word search's numbered answers; twelve numbered words with no wallet spoken of
        "Security answer: Invalid",
        "Sicherheitsantwort: Pflichtfeld",
        "And the secret answer: Consistency.",
        "pipeline,db_pass,db_fail\nmigrate-v12,Green,Red",
        "site,smtp_pass,smtp_fail\nmail-eu-1,TLS1.3,none",
        "panel_row,pan_1,pan_2,pan_3,pan_4\nroof-east,4121,3987,4050,4000",
        "namba ya siri ina tarakimu 4 na 2024 ni mwaka",
        "Namba ya siri 1234 au 0000 haziruhusiwi.",
        "Body vocab test - answers 1) Head 2) Hair 3) Eye 4) Ear 5) Nose 6) Mouth 7) Neck 8) Arm 9) Hand 10) Leg "
        "11) Foot 12) Stomach",
        f"Player sent:\n{_numbered(_SEED_12, chr(10), '. ')}",
        # ... nor after an example's word on its line, as for a phrase not numbered
        f"Example of a 24-word phrase: {_numbered(_SEED_24, ' ')}",
        # a parent's word before a number of no country the text names
        "Team roster\nJan Kaczmarek – dad: 790-398-088",
        # (an attacker's round) code's names before a sentence's stop; a family tree's dates and a list of round amounts
        # after a parent's word
        "Hash algorithm for password: Hashing.Sha256. This is configured in the module.",
        "password: torch.Float16. Weights are cast at load time.",
        "Rodzinne drzewo genealogiczne\nJan Kowalski – ojciec: 789 12 1945",
        # Czech's slogan ("heslo") reportedly given
        "Heslo prý Euro2024!",
        # numbered lists: the standard's words whose checksum fails, tips, numbers out of order
        f"Player sent: {_numbered(_SEED_12.replace('canvas', 'window'), ' ', '. ')}",
        "Top tips: 1) buy 2) hold 3) sell 4) wait 5) learn 6) save 7) plan 8) budget 9) invest 10) track 11) review "
        "12) repeat",
        # a customs tariff's number in one German word
        "Zolltarifnummer 8504 40 30 90, Zollsatz 2,7 %",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
