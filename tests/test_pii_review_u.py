"""Forms from reviewer U's blind round (tests/data/pii_review_u.jsonl: what an employer's HR, payroll
and IT onboarding agents and a hospital group's clinical and admin staff save; taken as it came). Each
case lists exactly what is found: the ordinary lines beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A German compound names the password; a Wi-Fi network's key and a VPN's pre-shared key.
        ("Neue Mitarbeiterin: Erstpasswort Sommer-70?, bitte bei der ersten Anmeldung ändern.", ["Sommer-70?"]),
        ("Wi-Fi for the Leeds site is SSID NWH-Staff, WPA2 key vjwdb+T2HwDq&zuM - we rotate it", ["vjwdb+T2HwDq&zuM"]),
        ("pre-shared key: 14qHO_XHlpa&Bq=Cefuv\nprotocol: IKEv2, port 4500", ["14qHO_XHlpa&Bq=Cefuv"]),
        ("WPA2 key management is enabled; the wifi key is on the fridge", []),
        ("pre-shared key rotation policy", []),
        # A year and a serial is a file's or a voucher's reference, not a phone.
        ("Reisekosten gesamt 2.340,75 EUR inkl. 19 % MwSt., Belegnummer 2024-000381.", []),
        ("Numéro de dossier 2024/0482, RDV le 12/03/2024 à 10h30, salle 214", []),
        ("tel 2024-000381", ["2024-000381"]),
    ],
)
def test_forms_of_reviewer_u(text: str, values: list[str]) -> None:
    assert found_values(text) == values
