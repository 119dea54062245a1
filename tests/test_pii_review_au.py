"""What reviewer AU (an insurer's and a hospital's agents' memories: claims notes, OCR'd forms, EOBs, CSV
exports, voicemail transcripts; 12 languages) found, both ways: Arabic's "and" glued to the password's label,
a column of SSNs in a CSV export quoted throughout and named for whose they are ("subscriber_ssn"), OCR's
"B" before another stand-in letter inside a card's group, the word "password" disguised by a filter-dodging
writer; and what those readers must leave alone."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "بيانات الدخول لبوابة المستشفى: اسم المستخدم billing_8872 وكلمة المرور: ZPYkmaW?sP3k",
            [("PASSWORD", "ZPYkmaW?sP3k")],
        ),
        (
            '"claim_no","subscriber_ssn","subscriber"\n"CLM-2024-9440721","625-43-1626","Deborah Fitzgerald"\n'
            '"24685E52640","156055140","Guadalupe Kowalski"',
            [("US_SSN", "625-43-1626"), ("US_SSN", "156055140")],
        ),
        # A quoted cell may hold the delimiter: cells are read quote by quote.
        ('"id","note","member_phone"\n"1","call back, later","(415) 555-2671"', [("PHONE", "(415) 555-2671")]),
        ("Cartão (OCR da guia): 356S 2197 4Bl9 9319", [("CREDIT_CARD", "356S 2197 4Bl9 9319")]),
        ("portal pa$$word: V3r@n0#9681", [("PASSWORD", "V3r@n0#9681")]),
        ("P@SSW0RD = Hunter2xyz!", [("PASSWORD", "Hunter2xyz!")]),
        # A provider's token alone on its line, its tail alone on the next (a note's own wrap).
        (
            "Anthropic key, split by the paste:\nsk-ant-api03-iA04DHAjyOmavaFOFU5a_V6Mb8b7z2Mr15MDMwjZa7E\n"
            "MXwVusML8d4TGb0Ozqwc8amapL7i4xcmiVcGjrfE7mDY877iEwAA",
            [
                (
                    "ANTHROPIC_API_KEY",
                    "sk-ant-api03-iA04DHAjyOmavaFOFU5a_V6Mb8b7z2Mr15MDMwjZa7E\n"
                    "MXwVusML8d4TGb0Ozqwc8amapL7i4xcmiVcGjrfE7mDY877iEwAA",
                )
            ],
        ),
        (
            "Slack bot token (wrapped):\nxoxb-252465887534-6055989302\n-v9dclpyUVvHT4564al64zRVI",
            [("SLACK_BOT_TOKEN", "xoxb-252465887534-6055989302\n-v9dclpyUVvHT4564al64zRVI")],
        ),
        # ... not two tokens on two lines, nor a token and the line of prose after it.
        (
            "tokens:\nghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5\nghp_zB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG6",
            [
                ("GITHUB_PAT", "ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"),
                ("GITHUB_PAT", "ghp_zB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG6"),
            ],
        ),
        ("xoxb-252465887534-6055989302\nsee ticket OPS-1234 v2", [("SLACK_BOT_TOKEN", "xoxb-252465887534-6055989302")]),
        # A disguised spelling after an operator is a value, not a label.
        ("mysql --user=app --password=Pa55word -h db", [("PASSWORD", "Pa55word")]),
        ("      - POSTGRES_PASSWORD=Pa55word", [("PASSWORD", "Pa55word")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Columns named for whose they are that hold no such value; a quoted row cut short.
        '"member_id","member_phone"\n"M-1","not given"',
        '"claim","subscriber_ssn"\n"C-1","redacted"',
        '"a","ssn"\n"1,"2',
        # A seat, a byte, an Italian IBAN's letter: OCR's "B" is read only inside a number's group.
        "seat 12Bl 14",
        "IT14 Bl50 1234",
        # The disguised word where no value follows it.
        "the pa$$word rule: 12 chars",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
