"""Reviewer BS's blind round (issue 11's promises as a hostile acceptance suite would test them, 24 languages): each
form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a bank account's number in a column named for it, in a table that names the bank
        ("payee,sort_code,account_number,reference\nMarcus Reid,48-72-05,09010413,RENT-NOV", "09010413"),
        ("name|bank|account no\nJ Doe|Barclays|41029384", "41029384"),
        ("beneficiary;iban;bank_account\nA. Kowalski;none;4102938475", "4102938475"),
        # Arabic's and Persian's labels that name the bank themselves
        ("كلمة المرور: Tx!93kq — رقم الحساب المصرفي: 5862397784", "5862397784"),
        ("رقم الحساب البنكي: 5862397784", "5862397784"),
        # a phone after a postcode, set apart by a blank or a middle dot, written in another style
        ("N. Brooks · 3733 Lakeview Drive, Portland, OR 97205 · 602-631-0754 · n.brooks@example.org", "602-631-0754"),
        ("Portland, OR 97205 602-631-0754", "602-631-0754"),
        # "my number is" before bare digits, in words the word reader does not read, or the owner after the number
        ("मेरा नंबर है 8367370952", "8367370952"),
        ("मेरा मोबाइल नंबर 9876012345", "9876012345"),
        ("мой номер 9161234567", "9161234567"),
        # ... capitalised as a sentence starts it (a README check's round)
        ("Привет! Мой номер 89161234578, звони", "89161234578"),
        ("Мій номер 0671234567", "0671234567"),
        ("我的号码是13812345678", "13812345678"),
        ("私の番号は09012345678", "09012345678"),
        ("제 번호는 01012345678", "01012345678"),
        ("nomor saya 081234567890", "081234567890"),
        ("میرا نمبر 03001234567", "03001234567"),
        ("আমার নম্বর 01712345678", "01712345678"),
        ("mijn nummer is 0612345678", "0612345678"),
        ("số của tôi là 0912345678", "0912345678"),
        ("شماره من 09121234567", "09121234567"),
        # a number a line break cut right after what names it, the rest alone on the next line
        ("ok my number is 31264\n30226", "31264\n30226"),
        ("call me at 41555\n52671.", "41555\n52671"),
        # ... and where a bracket after the number says which of someone's phones it is
        ("my number is 8367370952 (home)", "8367370952"),
        ("name,iban,account_number\nJ,DE89370400440532013000,41029384", "41029384"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # an account's number in a table that names no bank: a CRM's customer number as often
        "customer,account_number,plan\nAcme,09010413,gold",
        "abandoned,account_number\nyes,09010413",
        # ... counting digits in a bank's table
        "payee,sort_code,account_number\nX,48-72-05,12345678",
        # Arabic's account's number with no bank named
        "رقم الحساب: 5862397784",
        # a run of one separator style is never cut after its first group
        "ref 4889 0152 6347 7331",
        "ISBN 97803 0-306-40615-2",
        # a possessive glued to its noun names another number as often ("my account number")
        "Hesap numaram: 12345678, Ziraat Bankası",
        "мой номер заказа 9161234567",
        # a number cut by a break with no phone's word right before it, or more on the next line
        "ticket 31264\n30226",
        "Attendees: 7\n22-11-2024",
        "my number is 31264\n30226 rows",
        # the attacker's round: a bank's word inside another column's name, a bank column with nothing in it
        "order_id,account_number,carrier,transit_days\n5001,20031457,UPS,3",
        "account_number,account_name,bank_reconciled,balance\n10200000,Accounts Receivable,yes,100",
        "customer_account_number,bank,plan\n900123456,none,basic",
        "account_number,aba,units\n62012345,0,14",
        # ... times, draws and other countries' groups after a number
        "Flight 4412 0830-1145",
        "Qty 1500 06-12-34-56-78",
        "License key 48213 01522-63477",
        # ... an id a bracket names, a date, after "my number"
        "мой номер 7707083893 (ИНН)",
        "my number is 20231456 (student id)",
        "我的号码是 20240611",
        # ... a count on the line after a channel's name
        "Breakdown:\nweb 12034\nphone 48213\n20931",
        "Sessions - mobile: 482133\n209311",
        "my number is 12345\n2024-06-11",
        "رقم الحساب المصرفي للطلب 10023456",
    ],
)
def test_these_stay_as_they_are(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # an account's number in a SQL insert or a key-value table that names no bank
        "INSERT INTO orders (id, account_number, total) VALUES (1, '20031457', 9.99);",
        "key,value\naccount_number,20031457",
        # ... or whose bank's column holds nothing
        "INSERT INTO payees (name, sort_code, account_number) VALUES ('A', 'none', '09010413');",
    ],
)
def test_an_account_number_elsewhere_needs_its_bank_too(text: str) -> None:
    assert found_values(text) == []


def test_an_account_number_in_a_sql_insert_beside_its_bank_is_found() -> None:
    text = "INSERT INTO payees (name, sort_code, account_number) VALUES ('A', '48-72-05', '09010413');"
    assert found_values(text) == ["09010413"]
    assert found_values("key,value\nbank_account,20031457") == ["20031457"]
