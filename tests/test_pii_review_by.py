"""Reviewer BY's blind round (what coding and operations agents paste from terminals and tools: log lines, diffs,
stack traces, HTTP dumps, CI logs, SQL logs, shell history, 20 languages around them): each form found missed or
altered, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_DIGEST = "8f2115277ba07eebb061dbdcae644b562713f56d3363ed6b312b7bfe907583ad"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # an IBAN in a form's body, its blanks written as "+"
        ("body=holder=Joao+Silva&iban=GB74+LOYD+4125+2016+3854+81&bic=ZMJGGBXX", "GB74+LOYD+4125+2016+3854+81"),
        # North America's "1" before a bracketed area code, as a quoted value or a field's
        ("VALUES ('Anna Yilmaz', '1 (646) 907-2855', now())", "1 (646) 907-2855"),
        ("Press '1 (800) 555-0199' for billing", "1 (800) 555-0199"),
        # an account's number under a record's field in a payroll export's or a payout's log
        ("INFO payroll.export employee=E67374 account_number=11558796 status=queued", "11558796"),
        ("payouts.worker status=failed beneficiary=b_19 account_number=7667232993 reason=closed", "7667232993"),
        ("payroll run 7, employee 10042: acct_number=20045118 net 5200.00", "20045118"),
        # a secret under a key that is no digest's
        (
            "Secret/pg-app token_value=Zk8f2115277ba07eebb061dbdcae644b56",
            "token_value=Zk8f2115277ba07eebb061dbdcae644b56",
        ),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a Helm chart's digest of a Secret, under a key's path
        f"synced_to=k8s/Secret/pg-app checksum/secret={_DIGEST} rotated_at=2025-07-11",
        f"annotations:\n  checksum/secret: {_DIGEST}",
        # an IBAN's shape in a form whose check digits fail
        "iban=GB75+LOYD+4125+2016+3854+81&bic=ZMJGGBXX",
        # an account's number under a field with no bank, payroll or payout named
        "loyalty export member=88812 account_number=55512345 tier=gold",
        # (an attacker's round) a payroll word that is not the record's payment to a person: a cloud account's name, a
        # ledger's posting, a host's name on another line, a utility's payout schedule
        '{"account_name": "payroll-prod", "account_number": "483920175561"}',
        "SAP FI posting (payroll run 2024-05): account_number=0063100000",
        "host=payroll-db-01\nemployee=3 account_number=40023917",
        '{"accountNumber": "3300912748", "type": "utility", "payoutSchedule": "monthly"}',
        'journal_entry employee=all account_number=6100100 desc="Salaries and wages"',
        # "+" between a spreadsheet's cells, a search's words, and an IBAN's shape without a field named for it
        "total: =ES73+ES146+ES164+ES336+ES338",
        "query=MK42+2LN+Milton+Keynes",
        "ref=GB74+LOYD+4125+2016+3854+81",
        # a payroll's batch and counts, no account field
        "INFO payroll.export batch=PR-202507 employee=E52115 net=8646.33 EUR rows=12045",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_lists_number_before_a_bracketed_area_code_stays_out_of_the_phone() -> None:
    assert found_values("Step 1 (800) 555-0199") == ["(800) 555-0199"]
    assert found_values("Option '1' (212) 555-0142") == ["(212) 555-0142"]
    # a menu's or a quantity's "1" (an attacker's round)
    assert found_values('menu = ["1 (800) 555-0199 Billing", "2 (800) 555-0123 Support"]') == [
        "(800) 555-0199",
        "(800) 555-0123",
    ]
    assert found_values("qty=1 (212) 555-0100") == ["(212) 555-0100"]
