"""Reviewer CY's blind round (a software company's coding and operations agents: postmortems, on-call handoffs,
terminal sessions, CI logs, Terraform, Kubernetes and compose files, .env files, SQL dumps, support escalations, DSAR
requests, vendor e-mails, tickets, chat threads, code review; 19 languages): each form found missed that this stop
reads, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

KEY = "418253-602193-557711-090244-315586-720019-114455-688209"
HEX40 = "9245f0a443b04d6aff141eed10cef24c99faf915"
UNSEAL = "tNIapYpVDIaI7MTqAIrwJcAjKvy0DhUpG5ZslKn3KOs="


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a US number in brackets after a reference's word, a phone's word in brackets right after it
        ("On-call handoff: backup is (303) 303-0344 (cell).", ["(303) 303-0344"]),
        ("backup job 4155552671 (daily)", []),
        # a template's value to replace is no password; a password that holds those words is one
        ('stringData:\n  api-key: "{{ .Values.apiKey }}"\n  password: "REPLACE_ME"', []),
        ('password: "Replace_Me2024!"', ["Replace_Me2024!"]),
        # Dutch's PIN code before "is", what it is of between; not a year, India's postcode or an amount
        ("Pincode van de bedrijfstelefoon is 8362.", ["8362"]),
        ("Pincode is 8362.", ["8362"]),
        ("De pincode is 2024.", []),
        ("pincode is 560001", []),
        ("Pincode van de kluis is 12345 euro", []),
        # a BitLocker recovery key where the text names BitLocker or a recovery key
        (f"Handoff: the BitLocker recovery key for laptop LT-0912 is {KEY}.", [KEY]),
        (f"batch {KEY}", []),
        (f"Recovery key: {KEY}", [KEY]),
        # a German compound that ends in "Geheimnis" names a secret; "geheim" inside a word does not
        ("Webhook-Signaturgeheimnis für GitHub-Events: 9245f0a443b04d6aff141eed10cef24c99faf915", [HEX40]),
        ("Clientgeheimnisse (Prod): 9245f0a443b04d6aff141eed10cef24c99faf915", [HEX40]),
        ("Ungeheimnisvoll: 9245f0a443b04d6aff141eed10cef24c99faf915", []),
        # Vietnamese's "API key"; a vault's unseal key, a backup's recovery key, the value further on in the clause
        ("Sự cố: khóa API Datadog 02049fb045decf71ad9a825ada20f7c7 bị lộ", ["02049fb045decf71ad9a825ada20f7c7"]),
        ("Vault unseal key 1 of 5 written in the handoff doc: " + UNSEAL, [UNSEAL]),
        ("The backup's decryption key is in the safe: " + UNSEAL, [UNSEAL]),
        ("Vault unseal keys: 5 shares, threshold 3, see runbook RB-2291", []),
        ("Unseal key share #2: encrypted to PGP key 0x9A3F7C21B4D8E6F0 (public fingerprint)", []),
        # digits alone after a label's colon and a clause that says what they open, ending their clause
        ("password for the server: 839214", ["839214"]),
        ("Passwort für den Server: 839214, bitte ändern", ["839214"]),
        ("mot de passe du serveur : 839214", ["839214"]),
        ("رمز عبور سرور: ۸۳۹۲۱۴", ["۸۳۹۲۱۴"]),
        ("password for ticket: 4829133", []),
        ("Password resets for the quarter: 128400", []),
        ("password for the week: 20240611", []),
        ("password for the server: 8080", []),
        ("パスワード 件数: 128400", []),
        # a list of codes after a label that says whose they are, its sentence ended after the last one
        (
            "MFA recovery codes for the root account: 7hq2-9kdw, m3zc-x81p, b5ta-0rne. Stored here.",
            ["7hq2-9kdw", "m3zc-x81p", "b5ta-0rne"],
        ),
        ("Backup codes for the helpdesk hours: 0900-1700, 1300-1800. Call us.", []),
        ("رمز عبور تعداد: 128400", []),
    ],
)
def test_reviewer_cy_forms(text: str, values: list[str]) -> None:
    assert found_values(text) == values


# What an attacker of these readers found altered as first written, each left as it was since: references shaped as
# phones before a phone's word in brackets, counts, amounts and India's postcodes after "pincode ... is", example keys
# and 48 digits in a text that names a recovery key elsewhere.
ATTACKED = [
    "Ticket 303-303-0344 (phone) was escalated to tier 2; ticket 303-303-0345 (email) was closed.",
    "Order 212-555-0199 (fax) received at 09:14, order 212-555-0200 (web) at 09:20.",
    "Backup 303-303-0344 (mobile) completed, 2.1 GB.",
    "SKU 671-283-9465 (mobile) is out of stock",
    "Bestellung 0151 2345 6789 (Handy) wurde storniert.",
    "Het aantal resets van de pincode is 1200.",
    "Het maximumbedrag zonder pincode is 2500.",
    "The pincode is 56001",
    "Delivery pincode is 11001.",
    "Standaard pincode is 0000",
    "Het ticketnummer voor de pincode is 48213.",
    "Example BitLocker recovery key (from the docs): " + "-".join(["123456"] * 8),
    "Recovery key: " + "-".join(f"{group:06d}" for group in range(1, 9)),
    f"Lotto draw results: {KEY}. Recovery key for the draw machine not needed.",
    f"The recovery key is stored in Intune. Tracking: {KEY}",
]


@pytest.mark.parametrize("text", ATTACKED)
def test_what_an_attacker_of_these_readers_found_stays_as_it_was(text: str) -> None:
    assert found_values(text) == []
