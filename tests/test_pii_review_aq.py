"""What reviewer AQ (a support and operations team's memory: a fintech's and a health insurer's) found, both
ways: credentials a URL's user info holds with brackets, a .netrc's password with brackets, a directive's
password with "=" in it, a login written "user / password", a provider's key after its name alone, a
column of signing secrets, a provider's token by its setting's name; and releases, a flag's value and a
JWT's header left alone. Then an attacker's round on those readers, both ways."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A password holding "]" and "^" in a URL's user info: its end was read as an address, which hid
        # the credentials around it.
        (
            "mongodb+srv://pbm_reader:Z8xqyL]^3_CnUlwq@pbm-cluster0.x7kq2.mongodb.net/claims",
            [("URL_CREDENTIALS", "pbm_reader:Z8xqyL]^3_CnUlwq")],
        ),
        # A .netrc's password with closing brackets; a directive's password with "(" and "=" in it.
        ("machine nexus.kestrelpay.eu login ci password LAM*OJ^e)X%SDU+I)=", [("PASSWORD", "LAM*OJ^e)X%SDU+I)=")]),
        ("    command: redis-server --requirepass cSSf(Uu_%=DBy(N9", [("PASSWORD", "cSSf(Uu_%=DBy(N9")]),
        # A login written "user / password" after what it is for.
        (
            "If the screen hangs, log in to the backup console with supervisor / Haslo#2016& and retry.",
            [("PASSWORD", "Haslo#2016&")],
        ),
        (
            'my login is ciaran.obyrne@eircom.net / Fjord?1988!!" (replied with the standard warning)',
            [("EMAIL", "ciaran.obyrne@eircom.net"), ("PASSWORD", "Fjord?1988!!")],
        ),
        # A provider's key after its name alone, in its exact shape.
        (
            "GoCardless: live_GzJiGbAIzSCznt4dEwHXmbjiAqMd1CyT4iXFLtgD",
            [("GOCARDLESS_TOKEN", "live_GzJiGbAIzSCznt4dEwHXmbjiAqMd1CyT4iXFLtgD")],
        ),
        # A column of signing secrets; a provider's token by its setting's name.
        (
            "partner,env,signing_secret\nTink,prod,ZIOanUTtM1GHPeGyfI4nBlTz5cOwnQCa9lgeQQqC2xcAtZ5Y",
            [("GENERIC_SECRET", "ZIOanUTtM1GHPeGyfI4nBlTz5cOwnQCa9lgeQQqC2xcAtZ5Y")],
        ),
        (
            "[fax]\nprovider_token=6a0093029f07340fdfc54c4acca90fbcc8a7f929",
            [("GENERIC_SECRET", "6a0093029f07340fdfc54c4acca90fbcc8a7f929")],
        ),
        # What the exclusions below must not hide: a password given after "=" that is no flag's, a whole JWT.
        ("auth=password Hunter2024!", [("PASSWORD", "Hunter2024!")]),
        (
            "token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NSJ9.abcDEF123ghiJKL456mnoPQR",
            [("JWT", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NSJ9.abcDEF123ghiJKL456mnoPQR")],
        ),
        ("call +44.20.7946.0958 today", [("PHONE", "+44.20.7946.0958")]),
        # An attacker's round on the first form of these readers: what they hid.
        ("his NetBank password Koala2024!,ticket: 4471", [("PASSWORD", "Koala2024!")]),
        ("password Kx9#2mQz),note: x", [("PASSWORD", "Kx9#2mQz")]),
        (
            "JWT_SECRET=eyJraWQiOiIyMDI0LTA1Iiwia3R5Ijoib2N0IiwiayI6IkdhWWlzc2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5In0",
            [
                (
                    "GENERIC_SECRET",
                    "eyJraWQiOiIyMDI0LTA1Iiwia3R5Ijoib2N0IiwiayI6IkdhWWlzc2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5In0",
                )
            ],
        ),
        ("docker tag 10.0.4.17:5000/api:latest registry.prod/api:latest", [("IP_ADDRESS", "10.0.4.17")]),
        ("image tag 10.20.30.40 failed to pull", [("IP_ADDRESS", "10.20.30.40")]),
        ("op item edit --field=password Hunt3r!2024x", [("PASSWORD", "Hunt3r!2024x")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Releases read as a phone and an address; a flag's value named "password"; a JWT's header alone.
        "App versions in today's crash reports: WebView 122.0.6261.129, iOS 17.4.1.",
        "Runbook: restart the deployment and check image tag 2.14.0.3.",
        "PGPASSWORD=$(vault kv get -field=password kv/support/ledger-ro) psql -h ledger-ro.internal -U ledger_ro",
        "Log line keeps the JWT header only: auth=eyJhbGciOiJSUzI1NiIs… (truncated at 24 chars, as designed).",
        # "user / password" shapes that are none.
        "login page / dashboard 2024",
        "see login flow v2 / v3-beta",
        "sign in with SSO / Okta-2024",
        "login: admin / admin",
        "Credentials rotated / see https://vault.example.net/ui/v2-keys",
        # A provider's name before a value of a loose shape, a word after its prefix; a token's provider.
        "GoCardless: live_streaming_configuration_for_the_event1",
        "token_provider=6a0093029f07340fdfc54c4acca90fbcc8a7f929",
        "auth_provider=okta",
        # A code call after a password's label.
        "password = getpass()",
        # ... and what they altered.
        "Quick login shortcut Alt+F12 / Option+F12",
        "sign in icons 24dp@2x / 48dp@4x",
        "login screen size 1920x1080 / 2560x1440@2x",
        "credentials page: v2.1 / v3.0-rc1+build7",
        "login modal theme #1E1E1E / #F5F5F5",
        "login perf on M1 / M2+Pro chips",
        "The vendor key for the SKU table is VND7Q2K9ZX4M8P1R",
        "the GPG provider key 0x3AA5C34371567BD2 signs the repo",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
