"""What reviewer BL (blind: an acceptance tester checking each of the issue's promises literally, and an
adversarial model that knows them, in 26 languages) found stored: "SS#" before a spaced SSN, a password's
symbols joining a random value, a label's index glued before a value, a token's pieces joined by SQL's "||" or
a shell's glued quotes, pieces a key names as parts, a phone's area code in a column of its own, a card's four
groups under numbered card columns, a card a right-to-left override shows reversed. And the issue's own
promises checked the same way before it came: bare digits whose owner says after them that they are a phone,
an SSN whose groups no-break spaces keep apart. With what those readers leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SS# 008 03 0116 on the W-9.", [("US_SSN", "008 03 0116")]),
        ("Die credentials für den SFTP-Export: rr94qs%Zv!pKLOIk+QfEbpzt3AvgXWJDcK%2 (nur Produktion).",
         [("HIGH_ENTROPY_SECRET", "rr94qs%Zv!pKLOIk+QfEbpzt3AvgXWJDcK%2")]),
        ("Kontakt {{PHONE_1:+49 30 12345678}} bestätigt.", [("PHONE", "+49 30 12345678")]),
        ("Kontakt [PHONE_1:4155552671] bestätigt.", [("PHONE", "4155552671")]),
        ("SELECT 'ghp_1BHsjCSZ' || 'hZl4uBtEOjPlEYg3Gs3LrcYqfRMD' AS tok;",
         [("GITHUB_PAT", "ghp_1BHsjCSZ' || 'hZl4uBtEOjPlEYg3Gs3LrcYqfRMD")]),
        ("export GL_TOKEN='glpat-VeQ5v'\"li7BvHbU7XDS5TT\"", [("GITLAB_PAT", "glpat-VeQ5v'\"li7BvHbU7XDS5TT")]),
        ('"maps_key_parts": ["AIzaSy_0BIF9gaivAOOw", "5o7IMEREZvenq0C2uu6"]  // join before use',
         [("GOOGLE_API_KEY", 'AIzaSy_0BIF9gaivAOOw", "5o7IMEREZvenq0C2uu6')]),
        ('{"iban_part1": "DE58 0309 0117", "iban_part2": "2033 3087 60"}',
         [("IBAN", 'DE58 0309 0117", "iban_part2": "2033 3087 60')]),
        ("| Vorwahl | Rufnummer | Name |\n|---|---|---|\n| 030 | 87654321 | Meyer |", [("PHONE", "030 | 87654321")]),
        ("area code,phone\n020,7946 0958\n", [("PHONE", "020,7946 0958")]),
        ("card_1,card_2,card_3,card_4\n5200,9861,0187,1678\n", [("CREDIT_CARD", "5200,9861,0187,1678")]),
        ("Karte (rückwärts, Anzeige RTL): \u202e4830-4106-2832-2354\u202c",
         [("CREDIT_CARD", "\u202e4830-4106-2832-2354\u202c")]),
        ("mail \u202emoc.elpmaxe@eod.enaj\u202c", [("EMAIL", "\u202emoc.elpmaxe@eod.enaj\u202c")]),
        # the same readers' shapes in other spellings (an attacker's round)
        ("Patient SS# 008 03 0116", [("US_SSN", "008 03 0116")]),
        ("SS #: 008 03 0116", [("US_SSN", "008 03 0116")]),
        ("Kontakt [PHONE 1:4155552671] bestätigt.", [("PHONE", "4155552671")]),
        ("$tok = 'ghp_1BHsjCSZ' . 'hZl4uBtEOjPlEYg3Gs3LrcYqfRMD';",
         [("GITHUB_PAT", "ghp_1BHsjCSZ' . 'hZl4uBtEOjPlEYg3Gs3LrcYqfRMD")]),
        ('export GH_TOKEN="ghp_1BHsjCSZ""hZl4uBtEOjPlEYg3Gs3LrcYqfRMD"',
         [("GITHUB_PAT", 'ghp_1BHsjCSZ""hZl4uBtEOjPlEYg3Gs3LrcYqfRMD')]),
        ("SELECT CONCAT('ghp_1BHsjCSZ', 'hZl4uBtEOjPlEYg3Gs3LrcYqfRMD')",
         [("GITHUB_PAT", "ghp_1BHsjCSZ', 'hZl4uBtEOjPlEYg3Gs3LrcYqfRMD")]),
        ("IBAN_PART1=DE58 0309 0117\nIBAN_PART2=2033 3087 60", [("IBAN", "DE58 0309 0117\nIBAN_PART2=2033 3087 60")]),
        ('{"iban_part0": "DE58 0309 0117", "iban_part1": "2033 3087 60"}',
         [("IBAN", 'DE58 0309 0117", "iban_part1": "2033 3087 60')]),
        ("kartennummer_1,kartennummer_2,kartennummer_3,kartennummer_4\n5200,9861,0187,1678\n",
         [("CREDIT_CARD", "5200,9861,0187,1678")]),
        ("4155552671 es mi número de celular, llámame", [("PHONE", "4155552671")]),
        ("4155552671 is my husband's cell", [("PHONE", "4155552671")]),
        ("01701234567 ist meine aktuelle Handynummer", [("PHONE", "01701234567")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # "#" ends "SS#" only, not any word's; a time before a number; quotes
        # side by side around no token; numbered keys with no part's word; parts that join into nothing; an
        # area code beside a count; card columns numbered but not 1 to 4, or whose groups fail Luhn; text an
        # override turns around that reads as nothing
        "Class# 008 03 0116",
        "at 10:4155552671",
        "echo 'it'\"s fine\"",
        "SELECT 'a' || 'b' FROM t",
        '{"phone1": "4155", "phone2": "552671"}',
        'colors_parts = ["red", "green"]',
        "| area code | population |\n|---|---|\n| 030 | 3645000 |",
        "card_1,card_2\n4111,1111\n",
        "card_1,card_2,card_3,card_4\n1234,5678,9012,3456\n",
        "\u202eolleh dlrow 12345\u202c",
        # an attacker's round on these readers
        "20240315: my phone fell in the pool, ordered a new one",
        "PR 3141592653: my mobile layout fix for the navbar",
        "1234567890 is my phone's password hint lol",
        "Population 7946095800 - our mobile subscribers worldwide (est.)",
        "Am 20230115 war mein Handy kaputt",
        "Stainless SS# 316 10 1000 sheet, 1000 mm",
        "row_4:05 10 15 20 25 30",
        "SELECT '5432' || '6379' || '9200' || '4222' AS ports",
        '{"sku_chunks": ["4030", "4040", "4050", "4060"]}',
        'counterparts = ["AIzaSy_0BIF9gaivAOOw", "5o7IMEREZvenq0C2uu6"]',
        "| Area code | Number |\n|---|---|\n| 030 | 1843000 |",
        "player,card_1,card_2,card_3,card_4\nAnna,4040,4041,4042,4043\n",
        "\u202eversion 1.0.0.4 build",
        "part \u202e4711-08-153\u202c",
    ],
)
def test_ordinary_lines_stay(text: str) -> None:
    assert found(text) == []
