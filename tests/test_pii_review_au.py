"""What reviewer AU (an insurer's and a hospital's agents' memories: claims notes, OCR'd forms, EOBs, CSV
exports, voicemail transcripts; 12 languages) found, both ways: Arabic's "and" glued to the password's label,
a column of SSNs in a CSV export quoted throughout and named for whose they are ("subscriber_ssn"), provider
tokens a note wrapped; and, after an attacker's round, what those readers must leave alone (two forms tried
for AU, OCR's "Bl" inside a group and "pa$$word:" read as the word, were taken out: they altered codes and
lost passwords that are themselves disguised words)."""

from __future__ import annotations

import pytest

from tests.helpers import found


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
        # A disguised word is a password too (an attacker's round on the form tried for "pa$$word:").
        ("mysql --user=app --password=Pa55word -h db", [("PASSWORD", "Pa55word")]),
        ("Default password is P@ssw0rd → change on first login", [("PASSWORD", "P@ssw0rd")]),
        # A quoted row that is not CSV's is passed over, the table goes on (it ended the table once).
        (
            'name,ssn,note\nDoc,536228725,"Doc" to friends\nAlice,536228726,-',
            [("US_SSN", "536228725"), ("US_SSN", "536228726")],
        ),
        # Two tokens on two lines stay two; a digest or a date after a token is not its tail.
        (
            "xoxb-817443764500-6029326858240-kcbFPd505DDHQW730MGAxHOk\n"
            "xoxp-817443764500-6029326858241-6029326858242-Ab12Cd34Ef56Gh78Ij90Kl12",
            [
                ("SLACK_BOT_TOKEN", "xoxb-817443764500-6029326858240-kcbFPd505DDHQW730MGAxHOk"),
                ("SLACK_USER_TOKEN", "xoxp-817443764500-6029326858241-6029326858242-Ab12Cd34Ef56Gh78Ij90Kl12"),
            ],
        ),
        (
            "ghp_pLIix6MEOLeMa61EqJomTEI1JEzO3joOj37H\nf00a585fcb89418c6acb8b65513c1f26ff46ec0d",
            [("GITHUB_PAT", "ghp_pLIix6MEOLeMa61EqJomTEI1JEzO3joOj37H")],
        ),
        (
            "sk-ant-api03-UE8hbDOsKFSSWt62Zh7ZckI1NUpbxm0fY2Fj3fHV\nexpires-2025-06-30",
            [("ANTHROPIC_API_KEY", "sk-ant-api03-UE8hbDOsKFSSWt62Zh7ZckI1NUpbxm0fY2Fj3fHV")],
        ),
        # A line that broke after the area code in brackets, on a line that names a phone (left by AU's round).
        ("Call the broker at (646)\n555-0143 tomorrow", [("PHONE", "(646)\n555-0143")]),
        ("Rückruf Mobil (030)\n12345678", [("PHONE", "(030)\n12345678")]),
        # A quoted password after a clause that says what it is for.
        ('pw for the clearinghouse test acct = "RILEN6TT!0"', [("PASSWORD", "RILEN6TT!0")]),
        # A secret alone below its label's line, wrapped over the lines after it.
        (
            "shared secret for the fax webhook, wrapped:\nyh7n7D8OoY5u997B37nH\nAgXRoiDvN3P6zCaOQyf1",
            [("HIGH_ENTROPY_SECRET", "yh7n7D8OoY5u997B37nH\nAgXRoiDvN3P6zCaOQyf1")],
        ),
        (
            "signing secret for the fax webhook:\n  yh7n7D8OoY5u997B37nHAgXRoiDvN3P6zCaOQyf1\nnext: rotate it in May",
            [("HIGH_ENTROPY_SECRET", "yh7n7D8OoY5u997B37nHAgXRoiDvN3P6zCaOQyf1")],
        ),
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
        # Codes whose letters say they are no number; a card code's column named for whose it is.
        "Ref 4BI1 5334 3986 8705",
        "Meter reading 0SI1 8892 kWh",
        "INSERT INTO samples (id, primary_csc, cell_csc) VALUES (1, '123', '456');",
        # Texts about a disguised word.
        "pa$$word -> rejected",
        "p@ssw0rd: score=0 guesses=1.2e2",
        # A number in brackets ending a line that names no phone, or an empty line between.
        "Seats (2024)\n123-4567 rows",
        "total (646)\n555 rows",
        # A quoted value after a clause that is no "for what" (a setting of passwords), or with a dot.
        'the password policy: "min-12-chars"',
        'password field id = "pw-input-2"',
        'password reset template = "reset-v2.html"',
        'password manager for the team: "1Password-8"',
        'password strength meter = "zxcvbn-4.4.2"',
        'password for the portal: "v2.3.1"',
        # Joined by dashes alone, a quoted value names an account or a key as often ("svc-backup-01",
        # "release-key-2024": an attacker's round on reviewer AV's readers).
        'password for the clearinghouse test acct = "meadow-meadow-otter77"',
        # Below a label's line: a digest, a URL.
        "primary key:\nd41d8cd98f00b204e9800998ecf8427e",
        "token refresh:\nhttps://example.org/docs/refresh-tokens",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
