"""Forms from reviewer L's blind round (tests/data/pii_review_l.jsonl: what platform teams paste into
an agent's memory, with 100+ provider token shapes; taken as it came). Each case lists exactly what
is found."""

from __future__ import annotations

import base64

import pytest

from tests.helpers import found_values

_PEM = base64.b64encode(b"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAnNSjfWob0nTr6tZTtFS/ygTQ\n").decode()
_CERT = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUF\n").decode()


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("export ORA_URL='jdbc:oracle:thin:billing/Walrus.Maple5462@//ora-scan:1521/BILL'", ["Walrus.Maple5462"]),
        ("Server=acme.snowflakecomputing.test\nuid=ETL_LOADER\npwd={gXkAjo;dDBDMHxu}\n", ["gXkAjo;dDBDMHxu"]),
        ("password={}", []),
        ('print(f"password={password!r}")', []),  # a field of a format string
        ("dsn = f'...;password={cfg.db_password};'", []),
        ('$ gh secret set GITLAB_TOKEN --repo acme/platform --body "glpat-hJm2hAZc7diczi_aypb0"', None),
        ("$ gh secret set API_KEY --body ${{ secrets.API_KEY }}", []),
        (f"    client-key-data: {_PEM}", [_PEM]),
        (f"    certificate-authority-data: {_CERT}", []),  # a certificate is public
        ("dop_v1_25062c8a6999556d7177e3b2a755a1f3e9a6\x1b[0m\x1b[1mc3d436de643921bb50a69555092c", None),
    ],
)
def test_passwords_of_connection_strings_and_keys_in_base64_or_colour_codes(
    text: str, values: list[str] | None
) -> None:
    found = found_values(text)
    if values is None:  # the whole token, however the finder names it
        assert len(found) == 1 and found[0].startswith(("glpat-", "dop_v1_")) and len(found[0]) >= 26
    else:
        assert found == values


@pytest.mark.parametrize(
    "text",
    [
        "mapboxgl.accessToken = 'pk.eyJ1Ijoia2VzdHJlbCIsImEiOiJjbDR0N3lkdGRzcWVkZWt1MTFrc3d6N3Q4In0.JGxEJDkjGap';",
    ],
)
def test_public_tokens_and_templates_are_left_alone(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            '      ~ auth_token = "ReVZhNBVNpWGRu49kWmzrezkNa55aUhf" -> "q9ZtddPaXNfWQyTCBhtQMx9dG64xQ1kd"',
            ["ReVZhNBVNpWGRu49kWmzrezkNa55aUhf", "q9ZtddPaXNfWQyTCBhtQMx9dG64xQ1kd"],
        ),
        ('      ~ master_password = "x" -> "Walrus.Maple5462"', ["Walrus.Maple5462"]),
        ('      ~ db_password = "old" -> "(sensitive value)"', []),
        ('      ~ token_ttl = "3600" -> "7200"', []),
        ('      ~ secret_name = "app-a" -> "app-b"', []),
    ],
)
def test_a_secret_a_terraform_plan_changes(text: str, values: list[str]) -> None:
    assert found_values(text) == values
