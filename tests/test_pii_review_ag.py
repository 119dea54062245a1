"""Forms from reviewer AG's blind round (tests/data/pii_review_ag.jsonl: schools' admissions and parents'
contact sheets, real-estate and mortgage files, small businesses' bookkeeping and IT notes; taken as it
came). Each case lists exactly what is found: the ordinary forms beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An account and its password after a slash: after a login's label, or an address, ending its
        # sentence rather than its line.
        ("DSM admin: nasadmin / Bramwell#NAS2023", ["Bramwell#NAS2023"]),
        (
            "QBO login for month-end close: ap@lindqvistdesign.se / Q!close-Mar-2024. Intuit sent the code.",
            ["ap@lindqvistdesign.se", "Q!close-Mar-2024"],
        ),
        (
            "Recommender account: m.tanaka@westbrookhs.org / Recs2024#Tanaka - Ms. Tanaka asked us to keep it.",
            ["m.tanaka@westbrookhs.org", "Recs2024#Tanaka"],
        ),
        ("Settings: admin / UserManagement2 / Roles", []),
        ("Menu path: Admin: Settings / Notifications2024", []),
        ("contact: sales@example.org / Sales2024 Team", ["sales@example.org"]),
        # An app password as Google and Microsoft show it, after its label.
        ("App password for the old Outlook 2016 on the front desk PC: tzkq mvrb wxhd npsf", ["tzkq mvrb wxhd npsf"]),
        ("app passwords are shown once on your account page", []),
        # A TAN that "came" (German "kam an").
        ("SMS-TAN kam an: 583 119", ["583 119"]),
    ],
)
def test_forms_of_reviewer_ag(text: str, values: list[str]) -> None:
    assert found_values(text) == values
