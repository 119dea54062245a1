"""Bank account numbers after their labels (securemem/pii/banking.py): reviewer BO's refund requests, claim notes
and KYC forms, and the ordinary text beside them that must stay (a bank's own numbers, a cloud's accounts)."""

from __future__ import annotations

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
        ("Bank account number: 0123-4567-89", "0123-4567-89"),
        ("Kontonummer: 0532013000 bei der Sparkasse, bitte Überweisung", "0532013000"),
        ("Número de cuenta bancaria: 998731057603", "998731057603"),
        ("numéro de compte bancaire : 30004000031234567", "30004000031234567"),
        ("Rekeningnummer 417164300 bij de bank", "417164300"),
        ("खाता संख्या: 385314696920\nIFSC: HDFC0079974", "385314696920"),
        ("Номер счёта: 40817810099910004312, банк ВТБ", "40817810099910004312"),
        ("НОМЕР СЧЁТА 40817810099910004312 БАНК", "40817810099910004312"),
        ("口座番号：1234567（普通）", "1234567"),
        ("계좌번호 110234567890 (국민은행)", "110234567890"),
        ("Αριθμός λογαριασμού: 0123456789 τράπεζα Πειραιώς", "0123456789"),
        ("เลขที่บัญชี 1234567890 ธนาคารกสิกร", "1234567890"),
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
