"""Reviewer BR's blind round (an agent's own memory notes in 26 languages) and the attacker's second round on this
stop's readers (tests/data/ordinary_attack_st52.jsonl): each form found missed or altered, as a general case, with the
near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a bank account's number a few words after its label, in a sentence
        ("Klient potwierdził numer rachunku bankowego 35 1058 1296 1030 2736 2174 7208 do zlecenia", "35 1058"),
        ("Khách hàng xác nhận số tài khoản ngân hàng 1119458453 cho lệnh", "1119458453"),
        ("הלקוח אישר שמספר חשבון הבנק להוראת הקבע הוא 061793271.", "061793271"),
        ("客户确认用于定期转账的银行账号为 6228289054597151。", "6228289054597151"),
        ("Клієнт підтвердив номер банківського рахунку 26200390860727 для регулярного платежу.", "26200390860727"),
        ("Müşteri düzenli ödeme için banka hesap numarasını 89872150 olarak teyit etti.", "89872150"),
        ("Clientul a confirmat numărul contului bancar 194033813 pentru ordinul", "194033813"),
        ("أكد العميل أن رقم الحساب البنكي للتحويل الدائم هو 01491398.", "01491398"),
        ("- 口座番号: 普通 6588955", "6588955"),
        # a name with a year and "%" after a password's label and what it is for
        ("Пользователь вставил в чат пароль от интернет-банка Marigold2000% — рекомендовали", "Marigold2000%"),
        # "plus," read out with a comma after it, where a number is named
        ("- number dictated in en: plus, one, seven one three, three one four, two four one two", "plus, one"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert any(value in finding for finding in found_values(text))


def test_polands_nrb_is_read_whole_only_when_its_iban_check_holds() -> None:
    text = "numer rachunku bankowego 35 1058 1296 1030 2736 2174 7208"
    assert found_values(text) == ["35 1058 1296 1030 2736 2174 7208"]
    assert found_values("numer rachunku bankowego 35 1058 1296 1030 2736 2174 7209") == []


@pytest.mark.parametrize(
    "text",
    [
        # a number a few words after the label that another field names
        "bank account number for invoice 12345678",
        "bank statement – account no. IT: 44121900 (internal ticket)",
        # the attacker's second round: an account named alone beside a branch or a routing word that names none
        "Jenkins: Branch: develop  Account: 098765432109  Status: SUCCESS",
        "Institution: Acme University  Student account: 20231145  Term: Fall",
        "Transit pass renewed. Account: 83736251  Zone: 1-3",
        "Routing table updated; account 99887766 tenant migrated",
        "Sort code field blank; account 12345670 flagged for review",
        # ... a REPL's answers that are no secret's: a key's public fingerprint, a lexer's token, a release
        ">>> os.environ['GPG_KEY']\n'A035C8C19219BA821ECEA86B64E628F8D684696D'",
        ">>> lex.token\n'NUMBER42'",
        "Release notes\nsettings.token\n'v2.4.1-rc3'",
        # ... property lists' names and fingerprints
        "<key>SigningKey</key><string>Apple Distribution</string>",
        "<key>GPGKey</key><string>A035C8C19219BA821ECEA86B64E628F8D684696D</string>",
        # ... thousands, area codes' lists
        "Q2 KPIs. Mobile: 1,204,556,789 sessions",
        "tel: 030; 040; 089; 069 (Berlin, Hamburg, Munich, Frankfurt prefixes)",
        "telephone: 212, 646, 718, 917 are the NYC area codes we cover",
        # ... an order's number after Czech's "mobilní", a product's code after "ponsel", a command line's "cli:"
        "Číslo objednávky mobilní aplikace: 731 456 789",
        "Kode produk ponsel: 0213400567",
        "cli: 1718097262 ms build time",
        # ... initials of a CRM or an invoice before the colon
        "Direct deposit setup — Account number CRM: 100045678",
        "Wire transfer memo: Account no. INV: 45001234 (invoice ref)",
    ],
)
def test_ordinary_text_in_these_forms_is_left_alone(text: str) -> None:
    assert found_values(text) == []


def test_hosts_after_a_schema_an_sdk_or_a_protocol_and_a_danish_number_are_found_as_before() -> None:
    # (the readers the second round attacked lost them)
    assert found_values("kafka schema 10.0.4.17 timed out") == ["10.0.4.17"]
    assert found_values("Device SDK 10.0.12.5 connected") == ["10.0.12.5"]
    assert found_values("Hotline DK 70 12 34 56") == ["70 12 34 56"]
    assert found_values("Compatibility: protocol 1.2.0.4 (legacy)") == []
