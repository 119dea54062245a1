"""Forms from reviewer Q's blind round (tests/data/pii_review_q.jsonl: an engineering organisation's
agent memory, support tickets from 68 countries; taken as it came). Each case lists exactly what is
found."""

from __future__ import annotations

import base64

import pytest

from tests.helpers import found_values

_CONFIG = base64.b64encode(b'{"prefect_api_key": "pnu_Sqb5B0XkrOKt84gNw1UGySJrU0QRTDyyi0ZP"}').decode()
_PLAIN = base64.b64encode(b'{"name": "web", "replicas": 3, "image": "nginx:1.25"}').decode()


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A settings blob in base64 holding a token: the whole run; base64 of ordinary text: nothing.
        (f"data:\n  bootstrap: {_CONFIG}\n", [_CONFIG]),
        (f"data:\n  config: {_PLAIN}\n", []),
        # A setting and its value in columns (printenv | column -t, PowerShell's env: drive).
        ("SQLCMDPASSWORD                 Tundra_stone9045\nPROCESSOR_ARCHITECTURE         AMD64", ["Tundra_stone9045"]),
        ("PASSWORD_MIN_LENGTH      12\ntoken_type      bearer_token", []),
        # A seed phrase a terminal wrapped over two lines; 12 words then prose on the next line.
        (
            "recovery phrase:\ncorrect impose expect derive glad patrol extra west erosion estate dizzy shaft\n"
            "clarify gossip amused ketchup circle blush biology into baby write casual vibrant\nderivation path",
            [
                "correct impose expect derive glad patrol extra west erosion estate dizzy shaft\n"
                "clarify gossip amused ketchup circle blush biology into baby write casual vibrant"
            ],
        ),
        (
            "Recovery phrase: abandon ability able about above absent absorb abstract absurd abuse access accident\n"
            "then we went to the cafe and had lunch",
            ["abandon ability able about above absent absorb abstract absurd abuse access accident"],
        ),
        # An admin account's password after a slash, Redis's AUTH, HAProxy's stats auth.
        ("Grafana admin fallback (SSO down only): admin / BNXNs4BZ7fv8D29z", ["BNXNs4BZ7fv8D29z"]),
        ("Settings: admin / settings / users", []),
        (
            '1715811297.846449 [0 lua] "AUTH" "SfoQbSzRr5zYdpapMOTdv01RoOFwIXfb"',
            ["SfoQbSzRr5zYdpapMOTdv01RoOFwIXfb"],
        ),
        ("    stats auth admin:undo-monkey-disagree-add4", ["undo-monkey-disagree-add4"]),
        ("oauth token refreshed; auth failed for user", []),
        # curl -u in a text that mentions docker elsewhere.
        ("docker ps\ncurl -u admin:l2ECVdgNl437 -X POST https://es", ["admin:l2ECVdgNl437"]),
        ("docker run -u app:app img", []),
        # A second attacker's: a menu's path, a folder, a name of code after "admin /"; Redis 6's user
        # before the password; placeholders; the command of its own after "&&".
        ("Menu: admin / UserManagement2 / Roles", []),
        ("Navigate to root / Documents2023 folder", []),
        ("admin / OAuth2Config", []),
        ('"AUTH" "default" "SfoQbSzRr5zYdpapMOTdv01"', ["SfoQbSzRr5zYdpapMOTdv01"]),
        ('"auth" "basic_auth"', []),
        ("stats auth admin:${HAPROXY_PASS}", []),
        ("stats auth admin:password", []),
        ("docker login && curl -u admin:S3cr3tPass https://x", ["admin:S3cr3tPass"]),
        # A seed phrase wrapped over lines ends with its last whole line.
        (
            "Wi-Fi seed phrase:\nabandon ability able about above absent\n"
            "absorb abstract absurd abuse access accident\nThe next line is prose",
            ["abandon ability able about above absent\nabsorb abstract absurd abuse access accident"],
        ),
    ],
)
def test_secrets_of_reviewer_q(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Other countries' international call prefixes, as a group of their own.
        ("| Hayoon Kim | KR | 001 82 10-4853-1365 |", ["001 82 10-4853-1365"]),
        ("Tunde Balogun 009 234 802 881 1787", ["009 234 802 881 1787"]),
        ("from the US dial 011 44 7480 405660", ["011 44 7480 405660"]),
        # A table's row with a country's code in a cell.
        ("| Mads Jensen | DK | 34 41 80 01 | x |", ["34 41 80 01"]),
        # "call me" in other languages; a number after a contact's address on its line.
        ("Por favor llámenme al (2) 2103 6194 cuando puedan.", ["(2) 2103 6194"]),
        ("Please call me back on 0850022484 — I'm in meetings.", ["0850022484"]),
        (
            "Merchant contact: Elsa Johansson <elsa90@tulip-flowers.nl> 070-170 68 74",
            ["elsa90@tulip-flowers.nl", "070-170 68 74"],
        ),
        # A table's row after an address is read cell by cell.
        (
            "0  Bea   minh@t-online.de  (312) 696-8071  660-95-4809",
            ["minh@t-online.de", "(312) 696-8071", "660-95-4809"],
        ),
        # Gulf numbers in Arabic text.
        ("يرجى الاتصال بي على الرقم 3318 8561 في أقرب وقت.", ["3318 8561"]),
        # After an address, only a number shaped as contacts write them (a date, a time, an id are not).
        ("...user=jane@example.com 20240115", ["jane@example.com"]),
        ("From: bob@corp.com 1700000000", ["bob@corp.com"]),
        ("alice@example.org 2023 1234", ["alice@example.org"]),
        ("bel 2024 12 12", []),
        # Kept: a part number, a kernel's version.
        ("- PN 0345-22-8136   SFP28 transceiver (x12)", []),
        ("kernel: 5.14.0.105.el9", []),
    ],
)
def test_phones_and_numbers_of_reviewer_q(text: str, values: list[str]) -> None:
    assert found_values(text) == values
