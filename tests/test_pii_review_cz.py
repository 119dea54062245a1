"""Reviewer CZ's blind round (a bank's collections desk, a dental group, a university's admissions, a city's permits
office, a SOC, a fintech's payouts, a veterinary chain, roadside dispatch, a payroll bureau, a cloud team; 33
languages): each form found missed that this stop reads, as a general case, with the near forms that must stay as
they were. National identity numbers are in tests/test_pii_national.py."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a salary account, Nordic; Poland's account after "z rachunku" (read as an NRB by its check digits); Hindi's
        ("Sindre Hansen, lønnskonto 9710.08.08262, mobil", ["9710.08.08262"]),
        ("Wpłaty z rachunku 76 3166 8063 5395 9638 8164 5594, tel.", ["76 3166 8063 5395 9638 8164 5594"]),
        ("Rachunku nr 4588127 za usługi nie zapłacono", []),
        ("बैंक खाता: 29691256506738, IFSC: HDFC0001234", ["29691256506738"]),
        # a French password as a YAML key writes it
        ('sftp:\n  mot_de_passe: "x{PPHU+U{*xWB%N8)]"', ["x{PPHU+U{*xWB%N8)]"]),
        ("mot_de_passe: ${DB_PASS}", []),
        # a leaked list's lines: an e-mail address, a colon, its password
        (
            "sample (3 of 41 200):\nm.jansen@bakkerij-noord.nl:Tundra6438&\ndave.r1978@hotmail.co.uk:Ruusu2592*",
            ["m.jansen@bakkerij-noord.nl", "Tundra6438&", "dave.r1978@hotmail.co.uk", "Ruusu2592*"],
        ),
        ("git@github.com:org/repo.git", []),
        ("alice@example.com:Admin", ["alice@example.com"]),
        ("relay user@mail.example.com:587", ["user@mail.example.com"]),
    ],
)
def test_reviewer_cz_forms(text: str, values: list[str]) -> None:
    assert found_values(text) == values
