"""What reviewer BK (blind: CRM, helpdesk, HR, claims, pharmacy, e-commerce and bank exports an agent keeps, as
CSV and TSV rows, markdown tables and JSON, in 26 languages) found: values split across a row's cells (a card's
groups in two columns that both name a card's number, an SSN in the SSA's three fields, a phone's country code in
the cell before a phone's, a password's halves), columns named in more languages ("Numer karty (1/2)",
"কার্ড নম্বর", "Telefoon"), and a secret's key and value as a CSV line of two cells. And what those readers leave
alone, an attacker's round on them included."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Order,Card number,Card number,exp\nORD-1,4539 7265,1392 8582,07/30",
         [("CREDIT_CARD", "4539 7265,1392 8582")]),
        ("Nr zamówienia,Imię i nazwisko,Numer karty (1/2),Numer karty (2/2),exp\n"
         "ORD-2024-599856,Tomasz Kowalczyk,4539 7265,1392 8582,07/30",
         [("CREDIT_CARD", "4539 7265,1392 8582")]),
        ("অর্ডার নম্বর,নাম,কার্ড নম্বর (1/2),কার্ড নম্বর (2/2),exp\nKJA-09277,নুসরাত জাহান,3530-3543,0239-6845,10/26",
         [("CREDIT_CARD", "3530-3543,0239-6845")]),
        ("| Bestellnr. | Kartennummer | Kartennummer | ... |\n|---|---|---|---|\n"
         "| ORD-2024-107088 | 6759 8901 | 5466 7448 818 | 4.180,68 € |",
         [("CREDIT_CARD", "6759 8901 | 5466 7448 818")]),
        ("emp_id,name,ssn_area,ssn_group,ssn_serial,state\n436082,Daniel O'Connor,025,28,0529,OH",
         [("US_SSN", "025,28,0529")]),
        ("ssn_area\tssn_group\tssn_serial\n127\t62\t7993", [("US_SSN", "127\t62\t7993")]),
        ("Klant;Naam;cc;Telefoon\nC337709;Bram Jansen;+31;20 449 4775", [("PHONE", "+31;20 449 4775")]),
        ("顧客;氏名;cc;電話\nC938750;高橋 陽菜;+81;3-9874-7705", [("PHONE", "+81;3-9874-7705")]),
        ("Ticket;Password (1);Password (2)\nTCK-2024-2396;LxtY7j$;329", [("PASSWORD", "LxtY7j$;329")]),
        ("Katarzyna Nowak prosi o oddzwonienie na 604 561 739 w sprawie zamówienia ERX-29515",
         [("PHONE", "604 561 739")]),
        ("sms-gateway,2024-01-27\napi_key_secret,uRD00fX9DeM6lHrS01kAoFJBYccahVd4",
         [("GENERIC_SECRET", "uRD00fX9DeM6lHrS01kAoFJBYccahVd4")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # two card columns whose halves are no card; a country code beside no phone; SSN fields that break the
        # SSA's rules; a header's names as a CSV pair; a key whose value is no secret
        "Order,Card number,Card number,exp\nORD-1,4539 7265,1392 8583,07/30",
        "Klant;Naam;cc;Telefoon\nC337709;Bram Jansen;+31;n/a",
        "emp_id,name,ssn_area,ssn_group,ssn_serial,state\n436082,Daniel O'Connor,000,28,0529,OH",
        "password,username\ntoken,count",
        "db_password,changeme",
        "password_reset,enabled_by_default",
        # an attacker's round on these readers: policy tables under two password columns, a policy's CSV pair, a
        # game's ids under numbered card columns, a screen's lone "Password (2)" column
        "| Rule | Password (1) | Password (2) |\n|---|---|---|\n| min length | 12 | 20 |\n| expires | 90d | 1y |",
        "credential,policy\npassword,Kerberos5",
        "trade_id,player,card (1),card (2)\n2,yugi99,55144522,38033121",
        "| Screen | Password | Password (2) |\n|---|---|---|\n| Reset | new | again |",
        # reviewer BK's near-misses: a Twilio account's SID is its id (the auth token is the secret); an invoice's
        # number a phone's dialling plan accepts (left: an EAN-13 under "EAN" that passes Luhn with a Visa prefix)
        "TWILIO_ACCOUNT_SID=AC83bbc8b9ac2b0bc811bbaee78132d930",
        "Rechnung,Betrag\nINV-2024-705121,129.90",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
