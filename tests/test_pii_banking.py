"""Bank account numbers after their labels (securemem/pii/banking.py): reviewer BO's refund requests, claim notes
and KYC forms, and the ordinary text beside them that must stay (a bank's own numbers, a cloud's accounts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from securemem.pii import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "account"),
    [
        ("Bank: TD Bank\nRouting number: 254940013\nAccount number: 5366015514 (checking)", "5366015514"),
        ("Bank: Navy Federal, routing 013515029, checking acct 53351448733.", "53351448733"),
        ("Payment to be made by BACS – sort code 60-08-96, account no. 03628616 (name on account: G H)", "03628616"),
        ("Account number (checking): 53351448733, ABA on file", "53351448733"),
        ("Direct deposit to account # 771203344, effective next payroll.", "771203344"),
        ("Bank account number: 0412-7783-95", "0412-7783-95"),
        ("Kontonummer: 0532013000 bei der Sparkasse, bitte Überweisung", "0532013000"),
        ("Número de cuenta bancaria: 998731057603", "998731057603"),
        ("numéro de compte bancaire : 30004000031234567", "30004000031234567"),
        ("Rekeningnummer 417164300 bij de bank", "417164300"),
        ("खाता संख्या: 385314696920\nIFSC: HDFC0079974", "385314696920"),
        ("Номер счёта: 40817810099910004312, банк ВТБ", "40817810099910004312"),
        ("НОМЕР СЧЁТА 40817810099910004312 БАНК", "40817810099910004312"),
        ("口座番号：3841027（普通）", "3841027"),
        ("계좌번호 110234567890 (국민은행)", "110234567890"),
        ("Αριθμός λογαριασμού: 0418836275 τράπεζα Πειραιώς", "0418836275"),
        ("เลขที่บัญชี 6032914578 ธนาคารกสิกร", "6032914578"),
    ],
)
def test_an_account_after_its_label_in_a_text_about_a_bank_is_found(text: str, account: str) -> None:
    assert ("BANK_ACCOUNT", account) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        # a bank's own numbers name its branch: public, and kept (reviewers AK and BF)
        "ABA routing number 021000021 (wire) / 026009593 (international wire)",
        "Sort code 20-32-06 belongs to the Moorgate branch; account details were not discussed.",
        "IFSC: HDFC0079974 is the Andheri branch",
        # a cloud's, a service's or a customer's account, or an id that starts with "acct"
        "AWS account 123456789012 hosts the bank's staging stack.",
        "Account id 4471920 belongs to the wire-transfer service.",
        "Customer account 99812345 asked about the bank holiday.",
        "Account reference ACCT-0099-1832 is the premium account, not a bank account.",
        # an account's label with no bank in the text (a CRM's, a gym's)
        "Klient podał numer konta 611 857 383 przez telefon.",
        "Account number 88213344 for the gym membership renewal.",
        "Account number: 5366015514 for each user of the portal",
        # a ledger's, an invoice's or a service's account, amounts, counts, placeholder digits (an attacker's round)
        "Bank rec: GL account no. 1002004 differs from the bank statement by 4,512.00.",
        "Rachunek nr 4588127 za usługi dentystyczne, proszę o przelew.",
        "Il conto 1234567 del ristorante è stato pagato con bonifico.",
        "Solde du compte bancaire : 12 450 000 FCFA",
        "Checking account no. 1250000 rows migrated to the bank's new core",
        "Routing/Account: 021000021 / 123456789",
        "Account (routing): 021000021 at the bank",
        "Bank account number: 000000000 (placeholder)",
        "Restart the routing table; account no. 77120044 is the memory bank's test id.",
        # a date, too few digits, a word glued after the digits
        "Bank statement for account 2024-03-15 shows the wire",
        "checking account 12345 at the bank",
        "savings account 1234567abc at the bank",
    ],
)
def test_what_is_no_bank_account_stays(text: str) -> None:
    assert [kind for kind, _ in found(text) if kind == "BANK_ACCOUNT"] == []


def test_a_card_or_a_phone_after_an_account_label_is_named_as_what_it_is() -> None:
    assert found("card account number 4111 1111 1111 1111 at the bank") == [("CREDIT_CARD", "4111 1111 1111 1111")]


def _attack(name: str) -> list[dict[str, str]]:
    path = Path(__file__).parent / "data" / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_an_attackers_ordinary_lines_stay_but_the_few_recorded() -> None:
    # An attacker's round on the first version of the reader (stop 51): 99 ordinary lines it altered (ledgers'
    # and charts of accounts' codes, bills in other languages, clouds', utilities' and patients' accounts,
    # amounts, counts, dates, the bank's own numbers beside an account's label). Left altered: 6, each an
    # account's label with a bank named beside it ("Premium account no. 4400123 lapsed; bank mandate cancelled",
    # an SSN or a phone written after "Bank account:" and "Checking account:", counts after "Checking account:").
    altered = [row["text"] for row in _attack("ordinary_attack_bank.jsonl") if "BANK_ACCOUNT" in _types(row["text"])]
    assert len(altered) <= 6


def test_an_attackers_bank_accounts_are_found_as_recorded() -> None:
    # The same round's 91 accounts the first reader missed; 5 are found since (most of the rest hold counting
    # digits, "12345678", which the reader takes for a placeholder). Left: accounts after a bare "account" or
    # "acct:", in CSV columns, in text that names no bank but its brand ("HSBC", "Chase"), abbreviations (Kto.,
    # c/c, STK, Rek.), labels of scripts not covered (Bengali, Tamil, Telugu...).
    rows = _attack("positives_attack_bank.jsonl")
    assert sum(_covered(row["text"], row["value"]) for row in rows) >= 5


def _types(text: str) -> set[str]:
    return {f.type for f in detect(text)}


def _covered(text: str, value: str) -> bool:
    at = text.find(value)
    return any(f.start <= at and f.end >= at + len(value) for f in detect(text))


@pytest.mark.parametrize(
    ("text", "account"),
    [
        ('{"bank": "Chase", "account_number": "483920175"}', "483920175"),
        ('{"bankName":"HSBC","accountNumber":"40817263"}', "40817263"),
        ('{"iban": null, "acctNo": "50100234567812", "ifsc": "HDFC0001234"}', "50100234567812"),
        ("<AccountNumber>40817263</AccountNumber><Bank>HSBC</Bank>", "40817263"),
        ("bank: Monzo\naccount_number: 40817263\nsort_code: 04-00-04", "40817263"),
        ("accountnumber=40817263&sortcode=200000", "40817263"),
    ],
)
def test_a_records_account_number_field_is_found_in_a_record_that_names_a_bank(text: str, account: str) -> None:
    # An attacker's round: JSON, XML, YAML and query-string fields named for an account's number.
    assert ("BANK_ACCOUNT", account) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"account_number": "483920175", "plan": "gold"}',  # no bank in the record
        '{"bank": "x", "account_number": "20240115"}',  # a date
        "ledger_account_no: 4081726 in the bank export",  # a ledger's
        '{"bank": "Chase", "account_number": "123456789"}',  # counting digits: a placeholder
    ],
)
def test_what_is_no_records_bank_account_stays(text: str) -> None:
    assert [kind for kind, _ in found(text) if kind == "BANK_ACCOUNT"] == []
