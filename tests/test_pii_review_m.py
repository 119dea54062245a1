"""Forms from reviewer M's blind round (tests/data/pii_review_m.jsonl: what a regulated company's
agent saves, and what an adversarial model writes to slip values past a scrubber; taken as it came).
Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from securemem.pii import detect
from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # National numbers of regions outside the configured ones, after a word that names a phone.
        ("Kontakt: 777 418 226", ["777 418 226"]),  # Czech mobile
        ("Móvil: +34 622 418 903 · fijo 963 52 71 08", ["+34 622 418 903", "963 52 71 08"]),
        ("Telefon kontaktowy: 512 664 081 (komórka)", ["512 664 081"]),  # Polish
        ("연락처: 010-4821-7736", ["010-4821-7736"]),  # Korean mobile
        ("手机：138 0013 4782", ["138 0013 4782"]),  # Chinese mobile
        ("Contacto: 912 448 307", ["912 448 307"]),  # Portuguese mobile
        ("Nostro assicurato: Giulia Ferraro, cell. 340 992 1845", ["340 992 1845"]),  # Italian
        # ... and not after words that name other numbers.
        ("Ремонтная смета № 24-0614/77 (без персональных данных)", []),
        ("Versicherungsschein-Nr. 511/883920-L", []),
        # Extensions in other languages belong to the number.
        ("ufficio 06 4521 8830 int. 7", ["06 4521 8830 int. 7"]),
        ("alternatywnie +48 22 431 77 20 wew. 15", ["+48 22 431 77 20 wew. 15"]),
        ("sinon au bureau +33 1 99 00 41 83 poste 212", ["+33 1 99 00 41 83 poste 212"]),
        ("İş: 0216 418 33 02 dahili 144", ["0216 418 33 02 dahili 144"]),
    ],
)
def test_phones_named_by_their_label_in_any_region_and_their_extensions(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("VERCEL_TOKEN ?= 9jrmg9CebVhooro6U9vJsOW4", ["9jrmg9CebVhooro6U9vJsOW4"]),  # Make's assignments
        ("NGROK_AUTHTOKEN ?= 6CeF3cveYzFNaQ3S0gidIvNLiHU_YsE2LdInMPiLdNbIQqQOp", None),
        ('portfolio_share_token += "-principals"', []),  # code joining strings (found in the installed packages)
        ("CFLAGS += -O2 -Wall", []),
        ("TOKEN_FILE ?= $(HOME)/.token", []),
        ("API_TOKEN ?= $(shell cat .token)", []),
    ],
)
def test_secrets_assigned_in_makefiles(text: str, values: list[str] | None) -> None:
    found = found_values(text)
    if values is None:
        assert found == [text.split("?= ")[1]]
    else:
        assert found == values


@pytest.mark.parametrize(
    "text",
    [
        'curl -u "<client_id>:<client_secret>" -d grant_type=client_credentials',  # a guide's placeholders
        'url: "postgres://$(DB_USER):$(DB_PASSWORD)@claims-db:5432/claims"',  # Kubernetes' substitution
        "DATABASE_URL=mysql://app:$(DB_PASS)@db:3306/app",
    ],
)
def test_placeholders_in_credentials_are_no_credentials(text: str) -> None:
    assert found_values(text) == []


def test_a_real_password_beside_them_still_is() -> None:
    assert found_values('curl -u "svc-claims:Hx7#kq2LmZ" https://api.test/v2') == ["svc-claims:Hx7#kq2LmZ"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Groups kept apart by invisible characters: bare digits a reader still sees as a phone.
        ("1. Mrs B. Adeyemi — 07700\u00ad900\u00ad461 — re: direct debit", ["07700\u00ad900\u00ad461"]),
        ("x — 07700\u200b900\u200b461 — re", ["07700\u200b900\u200b461"]),
        ("build 20240611123045 ok", []),  # bare digits with nothing hidden stay a build number
        # HTML's no-break space and JSON's escaped solidus are read as what they stand for.
        ('<a href="tel:x">020&nbsp;7946&nbsp;0388</a>', ["020&nbsp;7946&nbsp;0388"]),
        ('{"slack":"https:\\/\\/hooks.slack.com\\/services\\/T01GE0K7KR\\/B0R7UPY1ABI\\/pnbLCU9D9s02pCD18E"}', None),
        # The trunk prefix in brackets after a country code is not dialled.
        ("Téléphone : +33 (0)6 39 98 41 20", ["+33 (0)6 39 98 41 20"]),
        # An address whose every dot and "@" is spaced: its local part whole.
        ("confirming: maria . lopez . reyes @ gmail . com → stored", ["maria . lopez . reyes @ gmail . com"]),
        # Two numbers after one label, joined by " / ": each alone, neither cut into the other.
        ("Teléfono de contacto: 655 20 41 87 / 91 412 77 30", ["655 20 41 87", "91 412 77 30"]),
        ("手机：138 0013 4782；座机：010-6552 8831", ["138 0013 4782", "010-6552 8831"]),
        # Numbers read out: "double oh", German "zwo", the question a few lines up naming an SSN.
        ("It's my mobile, oh seven seven double oh, nine double oh, three one two.", None),
        ("Sie erreichen mich unter null eins sieben sechs, vier vier eins zwo, neun null acht drei.", None),
        ("Cliente: Mi móvil es el seis dos dos, cuatro uno ocho, nueve cero tres.", None),
        ("your Social Security number?\nCaller: Sure, it's five two five, four seven, eight four nine nine.", None),
        # A card in a file's name.
        ("  - scan_5229529409009026_front.jpg", ["5229529409009026"]),
        ("v_20240611123045_ab", []),
    ],
)
def test_evasions_and_forms_of_the_second_pass(text: str, values: list[str] | None) -> None:
    found = found_values(text)
    if values is None:  # the value is the text after the last ": " or "," that starts it
        assert len(found) == 1 and len(found[0]) > 20 and found[0] in text, found
    else:
        assert found == values


@pytest.mark.parametrize(
    "text",
    [
        "Viitenumero: 11 84471 22093 (maksun viite, ei tilinumero)",
        "NIP dostawcy: 525-24-18-830 (dane firmy, publiczne)",
        "billing CPT 99213/99214; modifiers 25, 59.",
        "Monster 24-06-14-0071, afgenomen 07:45",
        "Numéro BCE de l'assureur : 0403.879.355 (registre public)",
    ],
)
def test_reference_numbers_after_their_labels_in_other_languages_are_kept(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "Cold wallet recovery phrase (12 words): island kitten cereal saddle island quantum eagle cereal"
            " uncle marble ribbon anchor\n- Public deposit address",
            ["island kitten cereal saddle island quantum eagle cereal uncle marble ribbon anchor"],
        ),
        (
            "Recovery codes: 69jxf-1zb6f, ae0kp-3k1jl, 8yusz-p4896\nMailbox: ops",
            ["69jxf-1zb6f", "ae0kp-3k1jl", "8yusz-p4896"],
        ),
        ("Backup codes:\n- 4821 9932\n- 1234 5678", ["4821 9932", "1234 5678"]),
        ("Backup codes were regenerated on 2024-05-01 for 3 users", []),
        ("the recovery code: see runbook section 4", []),
        ("seed phrase: write it on paper, never in a note", []),
    ],
)
def test_seed_phrases_and_recovery_codes_after_their_label(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        (
            "- Azure DevOps PAT (Scope: Code read): p5jkocmo72o72fu62axpdeiv3s47ynefst2urlqyoxup3wbjfl44",
            "p5jkocmo72o72fu62axpdeiv3s47ynefst2urlqyoxup3wbjfl44",
            "AZURE_DEVOPS_PAT",
        ),
        (
            "- Zendesk APIトークン（support-bot/token）：HVJhYhSpLa2V0h8oe1UIIijcXgPXL02jlRW717NL",
            "HVJhYhSpLa2V0h8oe1UIIijcXgPXL02jlRW717NL",
            "ZENDESK_API_TOKEN",
        ),
        (
            "- Cloudflare (clé API globale) : 8e30cf0511827e574d67e4f3a58cff9a26d64",
            "8e30cf0511827e574d67e4f3a58cff9a26d64",
            "CLOUDFLARE_API_TOKEN",
        ),
        (
            "ASANA_PAT ?= 2/4825105757022375/4782614946929844:baecd9bac57ce075929f5cd6c21bd7fb",
            "2/4825105757022375/4782614946929844:baecd9bac57ce075929f5cd6c21bd7fb",
            "ASANA_TOKEN",
        ),
    ],
)
def test_provider_tokens_after_a_label_that_names_the_provider(text: str, value: str, kind: str) -> None:
    found = [(f.type, text[f.start : f.end]) for f in detect(text)]
    assert found == [(kind, value)]


def test_a_label_naming_a_provider_keeps_a_value_of_another_shape() -> None:
    assert detect("Datadog dashboard: https://app.datadoghq.com/dashboard/abc-123-def-456") == []
    assert detect("Cloudflare zone name: assurances-rhone-production") == []
