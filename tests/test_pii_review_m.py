"""Forms from reviewer M's blind round (tests/data/pii_review_m.jsonl: what a regulated company's
agent saves, and what an adversarial model writes to slip values past a scrubber; taken as it came).
Each case lists exactly what is found."""

from __future__ import annotations

import pytest

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
