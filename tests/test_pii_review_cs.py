"""Reviewer CS's blind round (a travel agency's and airline's booking and loyalty, a municipal utility's billing and
outages, a game studio's live operations and DevOps; 30 languages): each form found missed, as a general case, with the
near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # digits read out after Greek's "the number" dictated, Czech's, Dutch's, Finnish's, Swedish's and Hebrew's words
        # for a number (Czech's and Hebrew's digit words read too); Korean's "다시" for a dash; a dash said between
        # commas
        ("Ο πελάτης υπαγόρευσε τον αριθμό: έξι εννέα εννέα, τέσσερα έξι επτά, ένα τρία μηδέν πέντε.",
         ["έξι εννέα εννέα, τέσσερα έξι επτά, ένα τρία μηδέν πέντε"]),
        ("Číslo nadiktované slovy: šest nula nula, čtyři nula tři, osm čtyři jedna.",
         ["šest nula nula, čtyři nula tři, osm čtyři jedna"]),
        ("Terugbelnummer zoals uitgesproken: nul zes, negen negen zeven acht een negen negen een.",
         ["nul zes, negen negen zeven acht een negen negen een"]),
        ("Asiakas luetteli numeron sanoin: nolla neljä neljä, yhdeksän neljä yksi, neljä kuusi kahdeksan yhdeksän.",
         ["nolla neljä neljä, yhdeksän neljä yksi, neljä kuusi kahdeksan yhdeksän"]),
        ("Kunden läste upp numret: plus fyra sex, sju noll, fem fem nio, åtta åtta, fyra fyra.",
         ["plus fyra sex, sju noll, fem fem nio, åtta åtta, fyra fyra"]),
        ("הלקוח הכתיב את המספר במילים: אפס חמש שלוש, שלוש שמונה תשע, תשע ארבע תשע חמש.",
         ["אפס חמש שלוש, שלוש שמונה תשע, תשע ארבע תשע חמש"]),
        ("전화번호는 공일공 다시 육사팔칠 다시 이일칠사 이에요.", ["공일공 다시 육사팔칠 다시 이일칠사"]),
        ("El titular dictó su número de Seguro Social: seis cero uno, guion, cero uno, guion, siete seis cero uno.",
         ["seis cero uno, guion, cero uno, guion, siete seis cero uno"]),
        # an address at a company's generic domain, assigned in an env file
        ("UNITY_EMAIL=chidi.eze@emberhollow.games", ["chidi.eze@emberhollow.games"]),
        # a dot or a dash after every digit, right after what names the number
        ("ssn: 1.2.6.2.0.1.8.3.8  <- user put dots between every digit", ["1.2.6.2.0.1.8.3.8"]),
        ("Rappeler le +3-3-7-1-7-4-5-0-6-6-7 (le client a tout séparé par des tirets).", ["+3-3-7-1-7-4-5-0-6-6-7"]),
        # a key's aside in brackets before its value; a token's parts in code spans a blank apart
        ("Steamworks publisher Web API key (partner.steam-api): 9268E0CAE9D9046EBB0543F6D2ED3708 — used by the job.",
         ["9268E0CAE9D9046EBB0543F6D2ED3708"]),
        ("Token (join the three code spans): `ghp_NqjRfefo18HQVj8ayRG` `r7Qz62LdxWqR` `kKiED`",
         ["`ghp_NqjRfefo18HQVj8ayRG` `r7Qz62LdxWqR` `kKiED`"]),
        # (two whole tokens side by side stay two)
        ("token `ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ` `ghp_zYxWvUtSrQpOnMlKjIhGfEdCbA0987654321`",
         ["ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "ghp_zYxWvUtSrQpOnMlKjIhGfEdCbA0987654321"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # an object identifier and versions; a version after "phone firmware"
        "Crash on Windows 10.0.22631.4460 with GPU driver 31.0.101.5333; OID 1.3.6.1.4.1.311.60 in the cert chain.",
        "phone firmware 1.0.0.2.3.4.5.6 build",
        # a key's aside that says it is public
        "site key (public, embedded in the page HTML): 6LXtmSUk8C3QmIr9N73ya0323IPR-FWNrjnakSP2",
        # identifiers in code spans side by side
        "Use `config_path` `output_dir` and `--verbose` flags",
        "hashes `a1b2c3d4e5f6a7b8` `0f9e8d7c6b5a` differ",
        # an attribute after "@" in an assignment, at no known domain
        "preds = features@model.coef",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
