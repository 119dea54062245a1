"""Reviewer CB's blind round (healthcare and insurance operations as an agent keeps notes on them: clinical notes,
FHIR resources, HL7 segments, prescriptions, claims and EOBs, lab reports, 16 languages, dense with identifiers that
are no one's PII: NPIs, NDCs, MRNs, NHS numbers): each form found missed or altered, as a general case, with the near
forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a password of two words a dot joins and a number, a capital first, after a label and before more text
        ("Senha do portal do beneficiário: Skio.cajueiro69 (portal novo)", "Skio.cajueiro69"),
        ("e-Nabız girişi şifre: Viil.lale03; SUT kodu 876258.", "Viil.lale03"),
        # a health system's helpline stays a phone
        ("NHS 0300 311 2233", "0300 311 2233"),
        ("Medicare 1-800-633-4227", "1-800-633-4227"),
        ("मोबाइल नंबर 9876543210", "9876543210"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a patient's NHS number, a record's number after an acronym in Hindi
        "Discharge letter 22/08/2025, NHS number 4145266773, clinic code RESP2",
        "Patient Priya Chauhan, NHS No. 540 881 7628, follow-up in 12 weeks",
        "IPD नंबर 6816264।",
        "ABHA नंबर 49-9005-8164-4395, पैकेज कोड SU65A",
        # code's dotted names after a password's label, lower-case first
        "password = torch.float16",
        "password: self.conn01 here",
        "password: config.secret12 from vault",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
