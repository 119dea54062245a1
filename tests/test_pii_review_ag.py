"""Forms from reviewer AG's blind round (tests/data/pii_review_ag.jsonl: schools' admissions and parents'
contact sheets, real-estate and mortgage files, small businesses' bookkeeping and IT notes; taken as it
came). Each case lists exactly what is found: the ordinary forms beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Left after a fresh attacker's round: an account and its password after a login's label, or an
        # address's pair ending a sentence, read as breadcrumbs, roles and references are ("Admin: Dashboard /
        # Analytics#Reports", "user: viewer / ReadOnly2", "billing@acme.com / AP-Dept2. Net 30."): none is read.
        ("DSM admin: nasadmin / Bramwell#NAS2023", []),
        ("Admin: Dashboard / Analytics#Reports", []),
        ("user: viewer / ReadOnly2", []),
        ("Send invoices to billing@acme.com / AP-Dept2. Net 30.", ["billing@acme.com"]),
        ("Login: m.tanaka@westbrookhs.org / Recs2024#Tanaka", ["m.tanaka@westbrookhs.org", "Recs2024#Tanaka"]),
        # An app password as Google and Microsoft show it, after its label.
        ("App password for the old Outlook 2016 on the front desk PC: tzkq mvrb wxhd npsf", ["tzkq mvrb wxhd npsf"]),
        ("App-specific password for Mail on the iPad: tzkq-mvrb-wxhd-npsf", ["tzkq-mvrb-wxhd-npsf"]),
        ("Anwendungspasswort: tzkq mvrb wxhd npsf", ["tzkq mvrb wxhd npsf"]),
        ("app passwords are shown once on your account page", []),
        ("app-specific passwords: apps like mail need them", []),
        ("app passwords: some apps like mail work fine with oauth", []),
        ("App passwords are disabled when your team uses only security keys from Yubico.", []),
        # A card's number asked for with another number: the answer may be that one.
        ("Bot: Please enter your card number or your order number.\nUser: 5000123456789014", []),
        ("Bot: Please enter your reference number. Card payments take 3 days.\nUser: 5000123456789014", []),
        # A key written in groups drawn at random; names cut into short parts stay.
        ("api_key: aB3x-Kq9Z-mP2w-Rt7Y-Lm4N", ["aB3x-Kq9Z-mP2w-Rt7Y-Lm4N"]),
        ("kubectl get secret tls-mTLS-iOS-client-2024 -o yaml", []),
        ("Vault path secret/data/claims/db, lease database/creds/readonly/9BthBYGNFoTkJ5XNGkcXfqi2, ttl 768h.", []),
        # A password alone on the line after "is", random or a word and a number; a name or a version there stays.
        ("The wifi password is\nhunter2024", ["hunter2024"]),
        ("Our password policy is\nNIST-800-63B", []),
        # A key that says no failure happened hides no code; a failure told before the key does.
        ('{"otp":true,"code":"482913","failed":false}', ["482913"]),
        ("sms otp sent; code=482913; retries_failed=0", ["482913"]),
        ("verification failed; code=131026 (WhatsApp)", []),
        ("| Phone | 412 | 388 | 501 |", []),
        # HL7: a phone of ten digits is no date; a date of eight is no phone.
        ("PID|1||12345||DOE^JANE||19750615|F|||||2065012345", ["2065012345"]),
        ("NK1|1|DOE^JOHN|SPO|||20240101", []),
        # A TAN that "came" (German "kam an").
        ("SMS-TAN kam an: 583 119", ["583 119"]),
    ],
)
def test_forms_of_reviewer_ag(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_a_line_naming_card_numbers_many_times_is_read_once() -> None:
    # Each "card number" read its whole line again (a fresh attacker's round: 100 KB of a minified export
    # took 19 s). Counted, not timed: the line is read, and its one answer found.
    text = "[" + '{"card_number_last4":"4242"},' * 3000 + "]\nbot: what is your card number?\nuser: 4604128209801597"
    assert found_values(text) == ["4604128209801597"]
