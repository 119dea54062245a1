"""Reviewer CP's blind round (a freight forwarder's, a city's citizen-services desk's and a biotech lab's agents; 23
languages): each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

# "+43 699 28137707" in Unicode's tag characters, invisible copies of ASCII
TAGGED = "".join(chr(0xE0000 + ord(char)) for char in "+43 699 28137707")
# the black flag, then "gbsct" in tags and the cancel tag: Scotland's flag
SCOTLAND = "\U0001f3f4" + "".join(chr(0xE0000 + ord(char)) for char in "gbsct") + "\U000e007f"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a phone written in tag characters
        (f"Rückruf siehe Anhang:{TAGGED} Danke.", [TAGGED]),
        (f"call {TAGGED}", [TAGGED]),
        # Hebrew's preposition glued to a spoken address by its hyphen
        ("שלחו ל-ori נקודה biton48 שטרודל doarnet נקודה co נקודה il",
         ["ori נקודה biton48 שטרודל doarnet נקודה co נקודה il"]),
        ("כתבו ל-ori.biton48 [at] doarnet.co.il", ["ori.biton48 [at] doarnet.co.il"]),
        # Japan's account with its holder's name after it
        ("振込先：みずほ銀行 新宿支店 普通 4901368 名義 伊藤 さくら", ["4901368"]),
        # a Czech account whose prefix fails its own sum
        ("zasílat na číslo účtu 25-2646574651/0100, majitel účtu", ["25-2646574651/0100"]),
        # Turkish's "mobile number", digits read out and typed
        ("Müşavirin cep numarası: sıfır beş beş iki, sekiz yedi yedi, bir dokuz, beş iki — rakamla yazmıyorum.",
         ["sıfır beş beş iki, sekiz yedi yedi, bir dokuz, beş iki"]),
        ("Şoförün cep telefonu: 0552 877 19 52", ["0552 877 19 52"]),
        # a French number in pairs, the phone's word a clause before
        ("Son portable, je te l'écris en lettres : zéro sept, soixante-cinq, zéro cinq, quarante-sept, "
         "quatre-vingt-treize.", ["zéro sept, soixante-cinq, zéro cinq, quarante-sept, quatre-vingt-treize"]),
        # a card's and an IBAN's groups in a table's cells
        ("| pole | wartość |\n|---|---|\n| karta | 2221 | 7100 | 8471 | 4701 |", ["2221 | 7100 | 8471 | 4701"]),
        ("| konto |\n|---|\n| PL05 | 1245 | 9793 | 6382 | 0156 | 2613 | 3202 |",
         ["PL05 | 1245 | 9793 | 6382 | 0156 | 2613 | 3202"]),
        # a card's last group in a code span, the others emphasised or not
        ("Kaart van de aanvrager: **4136** 4004 *7063* `5336`", ["**4136** 4004 *7063* `5336`"]),
        ("Kaart: 4136 4004 7063 `5336`", ["4136 4004 7063 `5336`"]),
        # a phone's groups as a list's strings, the first a country's code, on one line or one a line
        ('{"kontakt": ["+48", "691", "055", "820"], "uwagi": "kierowca"}', ['+48", "691", "055", "820']),
        ('"kontakt": [\n  "+48",\n  "512",\n  "384",\n  "907"\n]', ['+48",\n  "512",\n  "384",\n  "907']),
        # (the attacker's round) two groups to a cell; a code span after a dash or three digits; "č.ú." unspaced
        ("| card | 4539 5787 | 6362 1486 |", ["4539 5787 | 6362 1486"]),
        ("card 4539-5787-6362-`1486`", ["4539-5787-6362-`1486`"]),
        ("tel. +48 691 055 `820`", ["+48 691 055 `820`"]),
        ("č.ú. 25-2646574651/0100", ["25-2646574651/0100"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a flag's tags name a region; tags that spell a word
        f"Go team {SCOTLAND} 2024",
        "".join(chr(0xE0000 + ord(char)) for char in "hello world"),
        # a shipping container's number with its check digit; a Polish tax number after its name
        "Zending met container CMAU 053758 7 staat op terminal ECT Delta, gate-in 2024-03-15 07:42.",
        "Container MSCU 1234565 discharged",
        "NIP spółki 525-628-60-68, KRS 0000316151, REGON 739435990.",
        # Japan's account kind before a count of people; a Czech number with no bank's code
        "銀行 普通 2024001 名 参加",
        "účet 25-2646574651/2024",
        # Turkish's pocket, any number's "numarası"
        "cebinde 3 bozuk para; sipariş numarası 552877 1952",
        # French pairs after a phone's word in an earlier sentence
        "Son portable est cassé. Le code du coffre : zéro sept, soixante-cinq, zéro cinq, quarante-sept, "
        "quatre-vingt-treize.",
        # a table's row of numbers where no card is named; cells that make no IBAN
        "| year | q1 | q2 | q3 |\n| 2221 | 7100 | 8471 | 4701 |",
        "| PL05 | 1245 | 9793 | 6382 | 0156 | 2613 | 3201 |",
        # ports beside a code span; a list of scores led by "+"
        "ports 8080 `9090`",
        '{"scores": ["+1", "20", "33", "41"]}',
        # (the attacker's round) a container's number grouped or with a slash; a phone after "NIP" and "tel."; a
        # voucher's number and its year; a Japanese change of name's form; "cep telefonu", the device; French pairs
        # without a colon, or after "numéro"; a network's row of counts; a list led by no whole country's code, or
        # named no phone's
        "Container CMAU 053 758 7 (as printed on the door)",
        "Container CMAU 053758/7 per the bill of lading",
        "Účetní doklad č. 12-35/2010 byl zaúčtován",
        "静岡銀行 普通 1020304 名義変更届 提出期限 6月末",
        "Cep telefonu ithalatı 2022 raporu hazır",
        "Sur mon portable, le chronomètre du dernier tour affichait zéro six, douze, trente-quatre, cinquante-six, "
        "soixante-dix-huit",
        "Le numéro de commande, je te le lis : zéro six, douze, trente-quatre, cinquante-six, soixante-dix-huit",
        "| Network | Q1 | Q2 | Q3 | Q4 |\n|---|---|---|---|---|\n| Visa | 4120 | 1388 | 2045 | 3871 |",
        '{"delta": ["+12", "345", "678", "901"]}',
        '{"scores": ["+33", "612", "345", "678"]}',
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_phone_after_a_nip_and_its_own_word_is_found() -> None:
    assert found_values("Firma XYZ, NIP: PL; tel. 022-621-45-67") == ["022-621-45-67"]


def test_a_value_in_a_code_span_keeps_its_span_whole() -> None:
    text = "key `sk_live_51Lph7qNjYzX9cV8bQ2wT4rE6uI0oP3aS5dF` ok"
    assert found_values(text) == ["sk_live_51Lph7qNjYzX9cV8bQ2wT4rE6uI0oP3aS5dF"]
