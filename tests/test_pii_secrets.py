"""Secrets by context (keywords, URLs, headers, prose) and phone numbers of many regions."""

from __future__ import annotations

import base64

import pytest

from securemem.pii import detect


def found(text: str, **options: object) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text, **options)]  # type: ignore[arg-type]


# ---------------------------------------------------------------- keyword-anchored


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("password: hunter22", "PASSWORD", "hunter22"),
        ("passwd=Tr0ub4dor&3", "PASSWORD", "Tr0ub4dor&3"),
        ('"password": "correct horse battery staple"', "PASSWORD", "correct horse battery staple"),
        ("DB_PASSWORD=Summer2024!", "PASSWORD", "Summer2024!"),
        ("mysql --password s3cr3tpw", "PASSWORD", "s3cr3tpw"),
        ("The admin password is Winter2024", "PASSWORD", "Winter2024"),
        ("Password: letmein", "PASSWORD", "letmein"),
        ("pin: 482913", "PASSWORD", "482913"),
        ("secret: 9f8e7d6c5b4a39281706", "GENERIC_SECRET", "9f8e7d6c5b4a39281706"),
        ("token=Zx81bd0QpLm3VtY7nRk2", "GENERIC_SECRET", "Zx81bd0QpLm3VtY7nRk2"),
        ("client_secret = 'a8Yq-29fK_lm03PzQ'", "GENERIC_SECRET", "a8Yq-29fK_lm03PzQ"),
        ("X-Api-Key: 5b1c9e0d7f3a2b4c", "GENERIC_SECRET", "5b1c9e0d7f3a2b4c"),
        ("GET /v1/x?api_key=Q2w3E4r5T6y7U8i9&format=json", "GENERIC_SECRET", "Q2w3E4r5T6y7U8i9"),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_KEY", None),
        ("HEROKU_API_KEY=01234567-89ab-cdef-0123-456789abcdef", "HEROKU_API_KEY", None),
    ],
)
def test_keyword_anchored_secrets(text: str, kind: str, value: str | None) -> None:
    expected = value if value is not None else text.split("=", 1)[1].strip()
    assert found(text) == [(kind, expected)]


@pytest.mark.parametrize(
    "text",
    [
        "password: required",
        "password: ********",
        "password: <redacted>",
        "password = os.environ['DB_PASSWORD']",
        "password = getpass()",
        "token = settings.API_TOKEN",
        "api_key: ${API_KEY}",
        "secret: true",
        "token: string",
        "password_min_length = 12",
        "password_reset_url = https://example.com/reset",
        "max_tokens=1024",
        "Reset your password: click the link below.",
        "The password is correct.",
        "sort_key = created_at",
        "secret_name: prod-db-credentials",
        "passport: required for travel",
        "bypass=true",
    ],
)
def test_not_keyword_secrets(text: str) -> None:
    assert found(text) == []


# ---------------------------------------------------------------- URLs, headers, prose


@pytest.mark.parametrize(
    ("text", "cred"),
    [
        ("postgres://admin:s3cret@db.example.com:5432/app", "admin:s3cret"),
        ("mongodb+srv://svc:Pa55w0rd@cluster0.abcde.mongodb.net/test", "svc:Pa55w0rd"),
        ("redis://:hunter22@cache.example.com:6379/0", ":hunter22"),
        ("amqp://guest:gu3st@10.0.0.5:5672/", "guest:gu3st"),
        ("https://bob:p@ss@files.example.org/x", "bob:p@ss"),
        ("curl -u deploy:Zq8mN2vX9 https://ci.example.com", "deploy:Zq8mN2vX9"),
    ],
)
def test_credentials_in_urls_leave_the_host(text: str, cred: str) -> None:
    assert ("URL_CREDENTIALS", cred) in found(text)
    assert not any(kind == "EMAIL" for kind, _ in found(text))


@pytest.mark.parametrize(
    "text",
    ["https://user@example.com/profile", "ssh://git@github.com/org/repo.git", "https://example.com:8443/path"],
)
def test_urls_without_a_password_are_left_alone(text: str) -> None:
    assert found(text) == []


def test_basic_credentials_decode_to_user_and_password() -> None:
    value = base64.b64encode(b"svc:Zq8mN2vX9").decode()
    assert found(f"Authorization: Basic {value}") == [("BASIC_AUTH", value)]
    not_credentials = base64.b64encode(b"just some words").decode()
    assert found(f"Authorization: Basic {not_credentials}") == []
    assert found("We use basic authentication for the intranet.") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("here is the api key 9o3jTg1h02CdyRhOa37daMzz for staging", "9o3jTg1h02CdyRhOa37daMzz"),
        ("the secret for the webhook: 869ac73ca1c49e90d49939b6f7d8a9aac1793e4f (rotate!)", None),
        ("use access key Q9w8E7r6T5y4U3i2O1p0 until Friday", "Q9w8E7r6T5y4U3i2O1p0"),
    ],
)
def test_high_entropy_values_near_a_secret_word(text: str, value: str | None) -> None:
    expected = value or "869ac73ca1c49e90d49939b6f7d8a9aac1793e4f"
    assert found(text) == [("HIGH_ENTROPY_SECRET", expected)]


@pytest.mark.parametrize(
    "text",
    [
        "the token expires at build 20240315.1 on api.example.com",
        "secret santa list for 2024: Ana, Bo, Chen, Dara",
        "use the access key rotation runbook v2.4.1 tomorrow",
        "token limit 1000000 per minute",
        "See the credentials page at https://wiki.example.com/Security/Credentials_and_Keys",
    ],
)
def test_low_entropy_or_named_things_near_a_secret_word_survive(text: str) -> None:
    assert found(text) == []


# ---------------------------------------------------------------- phones of many regions


@pytest.mark.parametrize(
    "number",
    [
        "020 7946 0958",
        "07700 900123",
        "0161 496 0000",
        "+49 30 12345678",
        "030 12345678",
        "030/12345678",
        "0151 23456789",
        "01 42 68 53 00",
        "06 12 34 56 78",
        "98765 43210",
        "+91 98765 43210",
        "0049 30 12345678",
        "+81 3-1234-5678",
        "+55 11 91234-5678",
        "+61 2 9374 4000",
        "+234 802 123 4567",
        "+971 50 123 4567",
    ],
)
def test_phones_of_the_default_regions_and_any_plus_number(number: str) -> None:
    assert found(f"Tel. {number} today", types=["PHONE"]) == [("PHONE", number)]


@pytest.mark.parametrize(
    "text",
    [
        "my number is 4155552671",
        "call me on 4155552671",
        "mobile no. 07700900123",
    ],
)
def test_bare_digits_after_a_phone_word(text: str) -> None:
    assert [kind for kind, _ in found(text)] == ["PHONE"]


@pytest.mark.parametrize(
    "text",
    [
        "Your order number is 2025550143, please keep it.",
        "account number is 4155552671",
        "Rejected number 4889 0152 6347 7331 (checksum).",
        "IBAN DE89 3704 0044 0532 0130 01 failed the checksum.",
        "build 20240315 and 20240316",
        "Meeting ID 845 2291 3377",
        "12345678",
        "Fake number 123-456-7890 in the template.",
        "Unix time 1700000000 corresponds to November 2023.",
    ],
)
def test_numbers_that_are_not_phones(text: str) -> None:
    assert found(text, types=["PHONE"]) == []


def test_a_national_number_reads_only_in_the_configured_regions() -> None:
    assert found("Ring 030 12345678", phone_regions=["US"]) == []
    assert found("Ring 030 12345678", phone_regions=["US", "DE"]) == [("PHONE", "030 12345678")]
    assert found("Ring +49 30 12345678", phone_regions=["US"]) == [("PHONE", "+49 30 12345678")]
