"""Forms from reviewer N's blind round (tests/data/pii_review_n.jsonl: written as a hostile acceptance
suite would be, a third of its lines evasions; taken as it came). Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from securemem.pii import detect
from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Values glued to the labels on both sides, as one run of fields.
        ("ssn#848-95-8886dob#1966-02-11", ["848-95-8886"]),
        ("IBANGB46BARC20605400664336BICBARCGB2L", ["GB46BARC20605400664336"]),
        ("cardnumber4532146555795442expiry0326 emailaddr", ["4532146555795442"]),
        ("GB46BARC20605400664336Bicycle", []),  # a word glued after it, not the next field's label
        ("ssn 848-95-8886abc", []),
        # An Authorization header whose space after the scheme was lost; Okta's SSWS scheme.
        ("Authorization:Basicc3ZjLWNsYWltczoxSEZwRDAtclRNRW9BZA==; curl", ["c3ZjLWNsYWltczoxSEZwRDAtclRNRW9BZA=="]),
        ("Authorization:Bearer2O39FiSCM5OUqndIigfdvoYLfsK4Zbwj2RqOchh0", ["2O39FiSCM5OUqndIigfdvoYLfsK4Zbwj2RqOchh0"]),
        (
            "Authorization: SSWS 00ylw4rcamwn0j0opk_pXsJuseXo2pPDO1WraaIq7t",
            ["00ylw4rcamwn0j0opk_pXsJuseXo2pPDO1WraaIq7t"],
        ),
        ("class BearerAuthenticationProviderFactory2:", []),
        # OpenLDAP's bind password; its "-p" is a port.
        ("ldapsearch -H ldaps://dc1 -D cn=svc -w '?3@Og-VEYW!=C_' -b dc=corp", ["?3@Og-VEYW!=C_"]),
        ("ldapsearch -x -H ldap://h -p 389 -b dc=x", []),
        # "(a)" glued between a local part and a domain.
        ("Kontakt laut Brief: max.schneider(a)gmx.de, alternativ", ["max.schneider(a)gmx.de"]),
        ("see item (a) foo.bar", []),
        # A pass phrase, and a clause's ";" ending the label's words.
        ('the pass phrase is "violet-anchor-mango-71"; Authorization: x', ["violet-anchor-mango-71"]),
        ("contraseña=Guadalquivir$77; senha Ipanema@4471 do portal", ["Guadalquivir$77", "Ipanema@4471"]),
        # An international number read out.
        ("my number is plus four four, seven nine one one, two three four, five six seven, and", None),
        # The host after a password ending in "-v" (not a version flag).
        ("REDIS_URL=redis://:5kw8R3wsOP5PZTKsHp-v@10.20.4.18:6379/0", [":5kw8R3wsOP5PZTKsHp-v", "10.20.4.18"]),
        # An object identifier's arcs are not an address.
        ("OIDs in the cert profile: 2.5.4.3 (commonName), 1.3.6.1.5.5.7.3.1 (serverAuth).", []),
        ("host 2.5.4.3 is up", ["2.5.4.3"]),
    ],
)
def test_forms_of_reviewer_n(text: str, values: list[str] | None) -> None:
    found = found_values(text)
    if values is None:
        assert [f.type for f in detect(text)] == ["PHONE"] and found[0].startswith("plus four four"), found
    else:
        assert found == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A JWT an email client wrapped over three lines: whole, up to the line that is not its own.
        (
            "jwt (wrapped by the email client):\neyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJudXJzZS0yMjk\n"
            "xIiwicm9sZSI6IndhcmRfYWRtaW4iLCJleHAiOjE3MTkwMDAwMDB9.GuOW31\n"
            "gVS1PkzSo05Y7pW75S1kDcrjJF0pLS_7jSjB0\nslack: x",
            [
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJudXJzZS0yMjk\n"
                "xIiwicm9sZSI6IndhcmRfYWRtaW4iLCJleHAiOjE3MTkwMDAwMDB9.GuOW31\ngVS1PkzSo05Y7pW75S1kDcrjJF0pLS_7jSjB0"
            ],
        ),
        # A card's halves on two lines, named on the line before.
        ("PAN split across lines in the fax:\n53361886\n71619507\nexp 05/26", ["53361886\n71619507"]),
        ("rows:\n12345678\n87654321\n", []),
        # Digits read one at a time, said so.
        (
            "I typed each digit: 4 4 8 5 4 3 4 4 2 0 5 2 1 1 2 9; SSN 3 5 9 2 5 2 9 6 1",
            ["4 4 8 5 4 3 4 4 2 0 5 2 1 1 2 9", "3 5 9 2 5 2 9 6 1"],
        ),
    ],
)
def test_values_wrapped_over_lines_and_read_digit_by_digit(text: str, values: list[str]) -> None:
    assert found_values(text) == values
