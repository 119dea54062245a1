"""Reviewer CB's blind round (healthcare and insurance operations as an agent keeps notes on them: clinical notes,
FHIR resources, HL7 segments, prescriptions, claims and EOBs, lab reports, 16 languages, dense with identifiers that
are no one's PII: NPIs, NDCs, MRNs): each form found missed or altered, as a general case, with the near
forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a health system's helpline stays a phone, whatever the words before it (an attacker's round)
        ("NHS 0300 311 2233", "0300 311 2233"),
        ("Medicare 1-800-633-4227", "1-800-633-4227"),
        ("For questions, the Medicare number is 1-800-633-4227.", "1-800-633-4227"),
        ("NHS no. 020 7946 0958", "020 7946 0958"),
        ("Medicaid #: (800) 541-2831", "(800) 541-2831"),
        ("OPD number: 402-444-5600", "402-444-5600"),
        # Hindi's "number" after a phone's or a carrier's acronym
        ("मोबाइल नंबर 9876543210", "9876543210"),
        ("मेरा WA नंबर 9876543210 है", "9876543210"),
        ("BSNL नंबर 9876543210", "9876543210"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a record's number after an acronym in Hindi (a patient's NHS number is no phone either: since stop 68 it is
        # found as what it is, a national identifier: tests/test_pii_national.py)
        "IPD नंबर 6816264।",
        "ABHA नंबर 49-9005-8164-4395, पैकेज कोड SU65A",
        # code's dotted names after a password's label (two words a dot joins and a number stay code's too: "Password:
        # Windows.update2024 must be installed first", an attacker's round on a reader this round first wrote)
        "password = torch.float16",
        "password = Resources.password01;",
        "Password: Windows.update2024 must be installed first",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
