"""Reviewer BX's blind round (structured memory formats and the way a model rewrites values when it takes notes: TOML,
.env, YAML, HCL, SQL, ICS and vCard, LaTeX, locale groupings, 24 languages): each form found missed or altered, as a
general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_TOKEN = "hoC12MqW1kwPStTFrn1vHO4qa7zSdnEkba8FOCzx"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a value after a compound's words before the label's colon, German's compounds that name a token
        ("Zugangstoken für die TI-Schnittstelle: " + _TOKEN, _TOKEN),
        ("Token für die TI-Schnittstelle: " + _TOKEN, _TOKEN),
        # an account's number under Hebrew's "bank account number" and Russian's "счёт №" as a client's twenty digits
        ("מספר חשבון בנק: 263408585, IBAN IL630106967478649844377", "263408585"),
        ("Карта «Мир» 2200 5857 9892 1262, счёт № 40817810911830592870.", "40817810911830592870"),
        # a line of iCalendar or vCard folded inside a value
        (
            "BEGIN:VEVENT\r\nATTENDEE;RSVP=TRUE:mailto:olivia.brenna\r\n n@northbridgebank.co.uk\r\nEND:VEVENT",
            "olivia.brenna\r\n n@northbridgebank.co.uk",
        ),
        ("BEGIN:VEVENT\r\nDESCRIPTION:Call +49 1\r\n 59 456 70886 tomorrow\r\nEND:VEVENT", "+49 1\r\n 59 456 70886"),
        # French's "reachable at"
        ("Joignable au 0641512868 ou par courriel.", "0641512868"),
        # SQL that sets a login's password without the word; a Terraform variable named for a password
        ("CREATE USER 'etl'@'10.%' IDENTIFIED BY 'Liverpool1981=';", "Liverpool1981="),
        ("EXEC sp_addlogin 'claims_batch', 'SP:O''oYQht2&YX9?', 'ClaimsDB';", "SP:O''oYQht2&YX9?"),
        (
            'variable "db_password" {\n  type    = string\n  default = "velvet-glacier-saffron-67"\n}',
            "velvet-glacier-saffron-67",
        ),
        # a YAML anchor between a key and its value
        ('db:\n  password: &pw "MT-G.@~Vp^7=$"\nreplica:\n  password: *pw', "MT-G.@~Vp^7=$"),
        # a German phone whose number after the slash reads as a year (an attacker's round)
        ("Ruf: 0228/2012", "0228/2012"),
        ("Tel.: 0711/2024", "0711/2024"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a case file's number and its year
        "Číslo spisu 735758/2024, částka 12 450 Kč, termín 2024-12-18 v 9:30, verze 5.1.2.",
        "Αρ. υπόθεσης 327994/2024, ποσό 1.250,00 €, ημερομηνία 2024-09-21, έκδοση 2.7.3.",
        # a bill's number after "счёт №", a bank's correspondent account
        "Счёт № 12345 от 01.02.2024 на сумму 5000 руб.",
        "счёт № 30101810400000000225",
        # code's compounds ending in "token"; a token's lifetime as a Terraform variable; a placeholder in SQL
        "nextToken: eyJhZnRlciI6IjIwMjQtMDMtMTRUMDk6MzA6MDBaIn0",
        'variable "token_ttl" { default = "3600" }',
        "ALTER USER x IDENTIFIED BY '<password>';",
        # an indented line that is no fold outside iCalendar, and a quoted mail's lines
        "line one\n indented two 12345",
        # (an attacker's round on these readers) prose's "identified by", documentation's placeholders, variables'
        # defaults that are settings or names
        "Records are identified by 'uuid' in the table.",
        "ALTER USER x IDENTIFIED BY 'changeme';",
        "CREATE USER 'app'@'localhost' IDENTIFIED BY '{password}';",
        'variable "enable_secret" { default = "true" }',
        'variable "kms_secret" { default = "alias/aws/secretsmanager" }',
        'variable "gh_token" { default = "GITHUB_TOKEN" }',
        # a YAML anchor before a placeholder or a variable
        "password: &default_pw changeme",
        "token: &t ${TOKEN}",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
