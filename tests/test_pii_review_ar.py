"""What reviewer AR (a coding agent's, a call centre's and an insurer's back office's memory) found, both
ways: a country code said as one number after "plus" ("más treinta y cuatro"), digits typed among digit
words, a card read out with a filler, an SSN read out in its groups, a North American number given in two
parts, digits one at a time with a mark between, a German address spelt with "ät", an IBAN with its
country's letters read out and commas between its groups, a password label with an aside before its
colon and Portugal's "palavra-passe", a defanged address's "(.)", the katakana long mark typed for a dash;
and order, case and reservation numbers left alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A country code said as one number, in Spanish, Italian, Portuguese and English.
        (
            "CLIENTE: Sí, mi número es el más treinta y cuatro, seis cuatro cuatro, seis tres cuatro, "
            "cero siete nueve.",
            [("PHONE", "más treinta y cuatro, seis cuatro cuatro, seis tres cuatro, cero siete nueve")],
        ),
        (
            "CLIENTE: Certo, il mio numero è più trentanove, tre tre nove, quattro uno quattro, tre sei due nove.",
            [("PHONE", "più trentanove, tre tre nove, quattro uno quattro, tre sei due nove")],
        ),
        (
            "o meu número é mais trinta e um, nove um dois, três quatro cinco, seis sete oito",
            [("PHONE", "mais trinta e um, nove um dois, três quatro cinco, seis sete oito")],
        ),
        (
            "my number is plus forty-four, seven seven zero zero, nine zero zero, one two three",
            [("PHONE", "plus forty-four, seven seven zero zero, nine zero zero, one two three")],
        ),
        # Digits typed among digit words; a card read out with a caller's "uh"; an SSN read out in its groups.
        (
            "User message: my card is 2309 eight five eight seven 1995 five four one six, please update autopay",
            [("CREDIT_CARD", "2309 eight five eight seven 1995 five four one six")],
        ),
        (
            "my number is 615 nine four six 60 five three - text first pls",
            [("PHONE", "615 nine four six 60 five three")],
        ),
        (
            "CALLER: the card's right here, it's five four six six, uh one six six seven, six seven one two, six eight "
            "five two and it expires",
            [("CREDIT_CARD", "five four six six, uh one six six seven, six seven one two, six eight five two")],
        ),
        (
            "written in words on purpose: three six five dash one five dash seven five one two",
            [("US_SSN", "three six five dash one five dash seven five one two")],
        ),
        # A number given in two parts.
        (
            "Area code is 206. The rest I'll put in the next line to be safe:\n957 5589",
            [("PHONE", "206"), ("PHONE", "957 5589")],
        ),
        # Digits one at a time with a mark between, where the words say what they are.
        (
            "customer typed the card as 2*7*1*0*2*1*5*1*1*0*9*3*0*3*5*2 in the chat to avoid the filter",
            [("CREDIT_CARD", "2*7*1*0*2*1*5*1*1*0*9*3*0*3*5*2")],
        ),
        ("call me on 0_1_7_6_4_0_5_4_5_2_6", [("PHONE", "0_1_7_6_4_0_5_4_5_2_6")]),
        # German dictation of an address.
        (
            "Kunde: sabine Punkt krueger ät web Punkt de, also Sabine Krüger.",
            [("EMAIL", "sabine Punkt krueger ät web Punkt de")],
        ),
        # An IBAN read out: its country's letters apart, commas between its groups.
        (
            "[DE] Kunde: Ja, die IBAN ist D E 50, 2005 0550, 9716 6446 23, Kontoinhaber Jonas Becker.",
            [("IBAN", "D E 50, 2005 0550, 9716 6446 23")],
        ),
        # A password label with an aside before its colon; Portugal's word for a password.
        (
            "Contraseña del área de clientes (por si necesitáis entrar): Orchidee1970%",
            [("PASSWORD", "Orchidee1970%")],
        ),
        ("Palavra-passe da área reservada: Hermes1980&", [("PASSWORD", "Hermes1980&")]),
        ("palavra-passe: Hermes1980&", [("PASSWORD", "Hermes1980&")]),
        # A defanged address's "(.)"; the katakana long mark typed for a dash.
        ("C2 callback observed to 63(.)230(.)72(.)122 on port 8443", [("IP_ADDRESS", "63(.)230(.)72(.)122")]),
        ("連絡先（念のため全角で記載）：+81\u30003ー6207ー1599", [("PHONE", "+81\u30003ー6207ー1599")]),
        # The attacker's round's holes in these forms: other brackets, blanks around the long mark, other fillers.
        ("C2 at 63(dot)230(dot)72(dot)122 port 80", [("IP_ADDRESS", "63(dot)230(dot)72(dot)122")]),
        ("C2 at 63{.}230{.}72{.}122 port 80", [("IP_ADDRESS", "63{.}230{.}72{.}122")]),
        ("電話：03 ー 6207 ー 1599", [("PHONE", "03 ー 6207 ー 1599")]),
        (
            "my number is four one five, umm, five five five, two six seven one",
            [("PHONE", "four one five, umm, five five five, two six seven one")],
        ),
        # An SSN named, then read out with a filler or typed digits among the words: the phone's validity
        # check is the phone's alone (its first form dropped these).
        (
            "What's your social? It's eight six one, uh, seven eight, eight one nine four.",
            [("US_SSN", "eight six one, uh, seven eight, eight one nine four")],
        ),
        ("my social is 861 seven eight eight one nine four", [("US_SSN", "861 seven eight eight one nine four")]),
        # A reference's name before another number does not hide the phone after it.
        ("Bestellnummer 4711, Rückfragen: 030 12345678", [("PHONE", "030 12345678")]),
        # What the new readers must not hide: an SSN after "is" (Iceland's code) with a comma after it.
        ("User: my SSN is 878-41-0701, can you fill in the W-9 for me?", [("US_SSN", "878-41-0701")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Order, case and reservation numbers shaped like phones, after the names of what they number.
        "Auftragsnummer: 8075-2563-20",
        "Kundennummer: 8075-2563-20",
        "Pedido n.º 0882-913246 enviado el 18/12/2026.",
        "sinistro registado com o processo 9182/780347.",
        "予約番号：9279-0585",
        # The katakana long mark in words stays a letter; "(.)" between digits of a figure stays a dot.
        "パスワードのリセット手順はコーヒーの後で",
        "see figure 3(.)2",
        # An aside after a password's label with no password after it; "ät" in Swedish prose.
        "Password (see vault): rotate monthly",
        "jag ät på restaurang punkt se",
        # Digits counted or listed with marks; an area code with no number after it.
        "| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 0 |",
        "a_1_2_3_4_5_6_7_8",
        "the area code 212 covers Manhattan; population 1628706",
        # Digit words among figures that are no number read out.
        "the phone has 3 cameras 12 megapixels and 2 sims",
        # An attacker's round on the first forms of these readers: what they altered.
        "The number went plus twenty, one two three four five six seven",
        "Phone sales were plus thirty one, five three two seven one eight six units by region",
        "Our hotline got 120 calls, one two four 60 three 90 two",
        "Scores per round (phone quiz): 3 4 two five 6 one 2 seven",
        "Call stats were, um, one, uh, two three four five six",
        "the part number is one two three dash four five dash six seven eight nine",
        "Gate combination two one one dash three three dash four four one two",
        "Your case ID: two nine nine - zero three - one five seven five",
        "The serial is 305-two one-four four eight eight",
        "Area code is 415. Population 8700000 in the metro.",
        "area code 212 is Manhattan; build 7041223 added it to the lookup table",
        "Area code 720 — job id 550-1234 failed",
        "Row number | 6 | 1 | 7 | 5 | 5 | 5 | 0 | 1 | 2 | 3",
        "Phone survey ratings: 5 | 4 | 4 | 3 | 5 | 2 | 4 | 1 | 5 | 3",
        "contact_ids = 3*1*2*5*5*5*0*1*9*8",
        "text lengths: 2_0_2_5_5_5_0_1_4_3",
        "Barnen ät lunch punkt nu",
        "kom hem och ät middag punkt com",
        "Relevés de 12, 1312, 8990, 3697, 3928, 68 mm",
        "La serie es 11, 1497, 9685, 6337, 8363, 1299, 8421, 513 según el log",
        "Order number for Q3 2024 run: 415-555-2671",
        "Kundennummer 030 12345678 bitte bei Rückfragen angeben",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        # ... and what the first form of the label-only references hid (an attacker's round): a phone a few
        # words after a customer's, an order's or a contract's number named or given.
        ("Kundennummer fehlt, Rückfragen: 0171 2345678", "0171 2345678"),
        ("Bestellnummer folgt, bitte zurückrufen: 0171 2345678", "0171 2345678"),
        ("Vertragsnummer unbekannt, Frau Lang: 0171 2345678", "0171 2345678"),
        ("Kundennummer 12345, 0171 2345678", "0171 2345678"),
    ],
)
def test_a_phone_after_a_reference_named_apart_is_found(text: str, phone: str) -> None:
    assert found(text) == [("PHONE", phone)]
