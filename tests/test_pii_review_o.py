"""Forms from reviewer O's blind round (tests/data/pii_review_o.jsonl: long-form content as agents save
it, a quarter of it evasions; taken as it came). Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Any character a JSON serialiser escaped, read as the view reads it.
        (
            '"phone":"+33\\u00a07\\u00a035\\u00a088\\u00a022\\u00a011","locale"',
            ["+33\\u00a07\\u00a035\\u00a088\\u00a022\\u00a011"],
        ),
        ("x \\u00e9t\\u00e9 jane\\u0040example.com", ["jane\\u0040example.com"]),
        # A password label in brackets after what it is of, in any language.
        ("- NAS (contraseña): j86h?Vtci_E=C^\n- Router (senha): eP@1?YDCdG", ["j86h?Vtci_E=C^", "eP@1?YDCdG"]),
        ("- Firewall (mot de passe): qNrQ=!Fq$68", ["qNrQ=!Fq$68"]),
        # Numbers read out after a question a line up; "dash" said between groups.
        (
            "AGENT: What's a good callback number?\n"
            "CALLER: Sure, it's five one two, six eight seven, four eight three five.",
            ["five one two, six eight seven, four eight three five"],
        ),
        (
            "AGENT: Your social security number please.\nCALLER: five six one dash four one dash nine four one seven.",
            ["five six one dash four one dash nine four one seven"],
        ),
        # GitHub's grid of recovery codes, wherever its label is.
        (
            "Keep these in a safe place. Each code can be used once.\n\n"
            "e7220-bb497    1d33a-4eebf\ne979a-79a2c    3bad6-f2af1\n",
            ["e7220-bb497", "1d33a-4eebf", "e979a-79a2c", "3bad6-f2af1"],
        ),
        ("Each code is a range: e7220-bb497 to 1d33a-4eebf", []),  # two: no grid
        # Kept: a unique local IPv6 network, clause and report numbers, OIDs under a table's "OID" header.
        ("- Site prefixes: fd12:3456:789a::/48 (ULA), split into /64 per VLAN", []),
        ("host fd12:3456:789a::1 up", ["fd12:3456:789a::1"]),
        ("4.2.1.3  The Processor shall store Personal Data only in the EEA.", []),
        ("[5] Internal report TR-5262-57, rev 3.1.4.2.", []),
        ("| OID | Name |\n|---|---|\n| 2.5.4.3 | commonName |\n| 2.5.4.10 | organizationName |", []),
    ],
)
def test_forms_of_reviewer_o(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("userPassword: {SSHA}EXoUiutH7AhuIn6Wn3VSrGYUqc0y1vl7\n", ["{SSHA}EXoUiutH7AhuIn6Wn3VSrGYUqc0y1vl7"]),
        ("rootpw {SSHA}EXoUiutH7AhuIn6Wn3VSrGYUqc0y1vl7", ["{SSHA}EXoUiutH7AhuIn6Wn3VSrGYUqc0y1vl7"]),
        ("password: {{ vault_pw }}", []),  # a template's, not a value
        ("password: {password}", []),
    ],
)
def test_a_password_stored_hashed_under_its_scheme_is_a_password(text: str, values: list[str]) -> None:
    assert found_values(text) == values
