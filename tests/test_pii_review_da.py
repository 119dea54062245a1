"""Reviewer DA's blind round (pension fund, oncology clinic, mortgage broker, driver onboarding, SIM-swap fraud desk,
pharmacy benefits, marketplace KYC, law firm, crypto compliance, secrets rotation; 31 languages): each form found
missed that this stop reads, as a general case, with the near forms that must stay as they were. Its national
numbers are in tests/test_pii_national.py."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

TOKEN = "0JWaURbrx77I5rckQHsoerv6e8ASF3e32Wb6g9OEGc9M"
SEED = "ladder cactus orbit muscle veteran frost glimpse rally deputy lunar sponsor thank"
SIGNING = "f73555a3a5a444e66ac85c44e0e51cbbce610ebd63060a615be8f5b3ba3ce49e"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a label in alternating case, as a model writes it to slip past a filter
        (f"aUtHoRiZaTiOn: bEaReR {TOKEN}", [TOKEN]),
        ("pAsSwOrD := Ifeco6887$bZxF", ["Ifeco6887$bZxF"]),
        ("tOkEn = Zx9vQ2mL7pR4tY8wK3nB", ["Zx9vQ2mL7pR4tY8wK3nB"]),
        ("ApiKey: abc", []),
        ("PassWord reset link sent", []),
        # a Finnish compound ending in "salaisuus" after a technical head; a trade secret's is no key's
        (f"HS256-allekirjoitussalaisuus (tuotanto): {SIGNING}", [SIGNING]),
        ("liikesalaisuus: asiakirja 7f3a9c2b1d8e4f6a5b4c3d2e1f0a9b8c", []),
        # Indonesian's recovery phrase
        (f'frasa pemulihan pengguna ditempel di chat (!!): "{SEED}"', [SEED]),
    ],
)
def test_reviewer_da_forms(text: str, values: list[str]) -> None:
    assert found_values(text) == values
