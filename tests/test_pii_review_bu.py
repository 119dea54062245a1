"""Reviewer BU's blind round (tools' output an agent pastes into memory: HTTP and mail transcripts, application logs,
cloud CLIs' and frameworks' dumps, 16 languages): each form found missed or altered, as a general case, with the near
forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_AZURE_KEY = "HQ+dOByblbslUAzmFH5/5VtmB4qn0ws2u39HNwHrhdYwhzqwCVXSQaXj+W2WwF+rl4v63X/ZjH1ymHsyrwYR5w=="


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a Sentry DSN's key in a server's settings or environment
        (
            "SENTRY_DSN=https://c689c48632bb19b0a0858e75f79cc0dd@o129680.ingest.us.sentry.io/8680229",
            "c689c48632bb19b0a0858e75f79cc0dd",
        ),
        (
            "sentry_sdk.init(dsn='https://dd389e0a5ed06893e573b7b4f03f149b@o153129.ingest.sentry.io/87')",
            "dd389e0a5ed06893e573b7b4f03f149b",
        ),
        # an Azure storage account's key as its CLI lists it
        (f'[{{"keyName": "key1", "permissions": "FULL", "value": "{_AZURE_KEY}"}}]', _AZURE_KEY),
        # IMAP's LOGIN and SMTP's AUTH LOGIN in a transcript
        ('a001 LOGIN b.almeida@uol.com.br "Falcon_2408_MYG"\na001 OK LOGIN completed', "Falcon_2408_MYG"),
        ("A1 LOGIN jdoe Tr0ub4dor&3", "Tr0ub4dor&3"),
        (
            "S: 334 UGFzc3dvcmQ6\nC: bGVudGUtb3FyMy1tYXJtb3Q=\nS: 235 2.7.0 Authentication successful",
            "bGVudGUtb3FyMy1tYXJtb3Q=",
        ),
        # a secret setting's value under its name, as Spring Boot's actuator prints the environment
        ('"spring.datasource.password": {\n  "value": "mIsz1d0ldZsbEecK4wDG"\n},', "mIsz1d0ldZsbEecK4wDG"),
        (
            '"app.jwt.signing-key": {"value": "QnlyBikASmN7MHSuDVqt3SGoVrUJMbpaONyqWDCqGljWNTx"}',
            "QnlyBikASmN7MHSuDVqt3SGoVrUJMbpaONyqWDCqGljWNTx",
        ),
        # a payment's account number named whose it is, in a record that names a bank
        ("debtor_account_number: 920002678642\ncreditor_iban: NL69SNSB8585167246", "920002678642"),
        # an address escaped twice, as a redirect's URL inside another
        ("login_hint%3Dwei_li41%2540qq.com&state=90527ca72b3f52e2", "wei_li41%2540qq.com"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert any(value in found for found in found_values(text))


@pytest.mark.parametrize(
    "text",
    [
        # a browser's Sentry DSN, public by design
        'Sentry.init({\n  dsn: "https://7678dd2315c0e7b133d3d9ad60ea9152@o270469.ingest.us.sentry.io/6373835",\n});',
        # a setting about a secret, not the secret, and a masked one
        '"spring.security.oauth2.client.provider.x.token-uri": {"value": "https://idp.example.org/token"}',
        '"jwt.token-validity": {"value": "3600"}',
        '"spring.datasource.password": {"value": "******"}',
        # sentences and masked logins that read like IMAP's command
        "Password login — OAuth2.",
        "ssh login = deploy",
        'a001 LOGIN user "********"',
        # a cache's key, and the next line of a tool's output after it
        "Cache restored from key: node-cache-Linux-x64-npm-9d39ee356d64fbb2905dfae8f2005d7ac62b311bb62b14706ab389a1a4"
        "7f5d40\nReceived 270 of 270 MB (100.0%), 21.3 MBs/sec",
    ],
)
def test_these_stay_as_they_are(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # the attacker's round: "login" in prose, placeholders and literals after IMAP's LOGIN, SMTP's next command
        "2 login attempts failed",
        "OAuth2 login flow broken",
        "C: a001 LOGIN alice REDACTED",
        "a001 LOGIN alice {5}",
        ">> a1 LOGIN joe %s",
        "C: a001 LOGIN alice app-password",
        "S: 334 UGFzc3dvcmQ6\nQUIT",
        "S: 334 UGFzc3dvcmQ6\nC: xxxxxxxx",
        # ... settings named after a secret that hold none, the environment's working directory
        '"PWD": {"value": "/workspace"}',
        '"GOOGLE_APPLICATION_CREDENTIALS": {"value": "/var/secrets/google/key.json"}',
        '"model.tokenizer": {"value": "cl100k_base"}',
        '"token-endpoint-auth-method": {"value": "client_secret_post"}',
        '"app.password-encoder": {"value": "bcrypt"}',
        '"password": {"value": "Required", "valid": false}',
        # ... a front end's public DSN and a placeholder's
        "NEXT_PUBLIC_SENTRY_DSN=https://3b9e5d0c2a7f41e6b8d4c1a9f0e2d7b6@o123456.ingest.sentry.io/654321",
        "SENTRY_DSN=https://00000000000000000000000000000000@o0.ingest.sentry.io/0",
    ],
)
def test_the_attackers_ordinary_strings_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "head"),
    [
        # a provider's token wrapped before a word still reads across the break (the attacker's round)
        (
            "$ gh auth token\nghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1R\nWxyzab \n$ ",
            "ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1R\nWxyzab",
        ),
        ("glpat-Mar1jf3YZ4Zq0C\nWxyzab is the runner token", "glpat-Mar1jf3YZ4Zq0C\nWxyzab"),
    ],
)
def test_a_wrapped_providers_token_is_read_across_the_break(text: str, head: str) -> None:
    assert head in found_values(text)
