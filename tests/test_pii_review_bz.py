"""Reviewer BZ's blind round (what people and agents paste from office documents and spreadsheets: CSV, TSV and
Markdown tables from Excel, Sheets and LibreOffice, Word and PDF copy-paste artefacts, speaker notes, mail-merge
sources, HR and CRM exports, invoices and statements, 20 languages): each form found missed or altered, as a general
case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a CSV export whose first row quotes a cell that holds the delimiter
        (
            "EmployeeID,Name,SSN,Hire Date,Bank Account Number\n"
            'E37714,"Bennett, Olivia",531 76 7699,8/10/2026,1158272462',
            "1158272462",
        ),
        ('Name,SSN,Hire Date\n"Bennett, Olivia",531 76 7699,8/10/2026', "531 76 7699"),
        # a payroll's columns named in Spanish, Hindi, Chinese and Korean
        (
            "ID_Empleado,Nombre,Número de Seguro Social,Número de cuenta bancaria\n"
            "E95945,Javier,813 68 6614,3489688137",
            "813 68 6614",
        ),
        (
            "ID_Empleado,Nombre,Número de Seguro Social,Número de cuenta bancaria\n"
            "E95945,Javier,813 68 6614,3489688137",
            "3489688137",
        ),
        ("नाम\tमोबाइल\tबैंक खाता संख्या\tIFSC\nराहुल वर्मा\t(022) 2959 9611\t46799109151\tVRRB0AJH993", "46799109151"),
        ("姓名\t手机\t银行账号\n杨磊\t+86 153 4864 5302\t6008596464989175", "6008596464989175"),
        (
            "| 이름 | 부서 | 계좌번호 | 날짜 |\n|---|---|:---:|---|\n"
            "| 이준호 | Vertrieb | 930-808-778437 | 2025. 12. 9. |",
            "930-808-778437",
        ),
        # a "+" number after a slash that is no path's (a fullwidth one, in Japanese)
        ("連絡先：090-1793-4463（携帯）／+81 90-6317-1281", "+81 90-6317-1281"),
        # an address with a footnote's mark glued on
        ("E-mail: bia.almeida@uol.com.br⁽¹⁾", "bia.almeida@uol.com.br"),
        ("E-mail: bia.almeida@uol.com.br(2)", "bia.almeida@uol.com.br"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a measurement log's grouped decimals, a tab apart
        "Probe\tLänge mm\tMasse kg\tTemp °C\nM-147\t72,900.0\t9,623.486\t157.8\t±0,05",
        # a matrix product's method call in code, a path's "+" after a slash
        "q@k.app(2)",
        "y = x@w.sum(1)",
        "files/+81 3-2860-0038",
        # an account's column with no bank named in the table, in Hindi
        "नाम\tखाता संख्या\tराशि\nराहुल\t46799109\t1200",
        # (an attacker's round) a table told by its quotes only: columns whose values no check vouches for (an
        # analytics sheet's "mobile" counts, a token list's contract addresses, a policy's words under "password",
        # a card's authorisation code), a second CSV pasted below the first
        'channel,"campaign",mobile,desktop\nweb,"Spring sale, 2024",1523422,88213',
        'symbol,name,token,decimals\nWBTC,"Wrapped BTC, Ethereum",0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599,8',
        'system,owner,password,notes\n"VPN, office",IT,LDAP,onboarding checklist',
        'date,merchant,last4,amount,auth_code\n2024-05-01,"Joe\'s Pizza, Brooklyn",4412,23.50,084512',
        'Producto,Seguro,Mobile\n"Hogar, básico",Allianz,20391847',
        # a cash book's account column beside its "bank" column holding "Cash"
        "खाता संख्या,bank,राशि\n40012345,Cash,1200",
        # code's matrix products and a log's file and line, a ledger's signs before a slash
        "logits = query@keys.to(d)",
        "DEBUG handler@views.py(42) request ok",
        "Umsatz (−)/+12.345.678 EUR",
        "Cash flow (out)/+61 234 567",
        "| Abweichung |/+33 123 456 789 |",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_second_csv_below_a_table_told_by_its_quotes_is_read_under_its_own_header() -> None:
    # (an attacker's round: the first table's rows took the second header and its password in)
    text = 'ref,"item",ssn\n1,"Desk, oak",n/a\nuser,password\nops,Tr0ub4dor&3x!'
    assert "Tr0ub4dor&3x!" in found_values(text)
