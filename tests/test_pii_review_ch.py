"""Reviewer CH's blind round (an insurer's, a telecom's, an airline's and an e-commerce company's customer service
and back office; 26 locales): each form found missed or altered, as a general case, with the near forms that must
stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # an account named alone ("acct", "acc", "account") beside its bank or a payment into it, not only beside its
        # branch's number
        ("HR onboarding — direct deposit acct 540412509974, SSN 389-50-9048", ["540412509974", "389-50-9048"]),
        ("Bank: Chase, acct 540412509974", ["540412509974"]),
        ("wire transfer to acct 540412509974", ["540412509974"]),
        ("Pls transfer to acc 0987654321 axis bank", ["0987654321"]),
        ("his business account 3819204471 at Frost Bank.", ["3819204471"]),
        ("acct 40817263 (Wells Fargo Bank)", ["40817263"]),
        ("sort code 949857 account 95781342", ["95781342"]),  # beside its branch, as before
        # a Czech or Slovak account with its bank's code, valid by its check digits, whatever the text names
        ("Platba dodavatele: Autoservis Kolář s.r.o., číslo účtu 43-4293441747/0800.", ["43-4293441747/0800"]),
        ("číslo účtu 4293441747/0800", ["4293441747/0800"]),
        # a Thai account after "บัญชี" and its bank's name, a Vietnamese one after "tài khoản" and its bank's
        ("คืนเงินคำสั่งซื้อ ZM-9010948: โอนเข้าบัญชีกสิกรไทย 184-8-87341-0", ["184-8-87341-0"]),
        ("บัญชีไทยพาณิชย์ เลขที่ 4071284563", ["4071284563"]),
        ("Hoàn tiền đơn ZM-9419793: chuyển vào tài khoản Vietcombank 0011004091180.", ["0011004091180"]),
        # a token kept in a browser's storage
        (
            'localStorage.refresh_token = "mnmK0rFPmEJvJyoEY8-Ae3wqYaxoaQV9P_UHkL-LCeR6w9DStvwQJj_XAocOVxx3"',
            ["mnmK0rFPmEJvJyoEY8-Ae3wqYaxoaQV9P_UHkL-LCeR6w9DStvwQJj_XAocOVxx3"],
        ),
        ("sessionStorage.accessToken = 'Qm9yZWFsaXMtN3Z4a2pQcTJMbTl4'", ["Qm9yZWFsaXMtN3Z4a2pQcTJMbTl4"]),
        # HTTPie's credentials after -a or --auth
        (
            "http -A bearer -a pWfh3xgE9SXYNpbyIS9GIG13MabaQ2CjuuJ1PGbQ PATCH https://crm.corp.test/api",
            ["pWfh3xgE9SXYNpbyIS9GIG13MabaQ2CjuuJ1PGbQ"],
        ),
        ("http -a alice:S3cretPw1 GET https://api.corp.test/me", ["alice:S3cretPw1"]),
        # a card's digits read one by one, its groups three blanks apart (an OCR'd photo)
        ("OCR of the card photo: 3 5 6 0   1 5 2 1   8 5 1 6   7 1 0 8", ["3 5 6 0   1 5 2 1   8 5 1 6   7 1 0 8"]),
        ("my card is 6 0 1 1   2 0 1 4   6 2 0 1   6 8 4 9 exp 09/27", ["6 0 1 1   2 0 1 4   6 2 0 1   6 8 4 9"]),
        # the attacker's round on these readers: a Czech account under other labels, "TK" and "số", Thai groups apart
        ("Platbu pošlete na účet 3707634174/0100, děkuji.", ["3707634174/0100"]),
        ("Bankovní spojení: 8435022133/2010 (Fio banka).", ["8435022133/2010"]),
        ("Č. ú.: 6754793745/0300", ["6754793745/0300"]),
        ("TK Vietcombank 0071000123456 - Tran Thi B", ["0071000123456"]),
        ("chuyển vào tài khoản Vietcombank số 0011004091180", ["0011004091180"]),
        ("โอนเข้าบัญชีกสิกรไทย 184 8 87341 0 ชื่อสมชาย", ["184 8 87341 0"]),
        # a French number read in pairs a dash apart; a number read out after "my number is" in the caller's language
        (
            "rappelez-moi au zéro six - zéro neuf - trente-cinq - vingt-quatre - soixante-cinq",
            ["zéro six - zéro neuf - trente-cinq - vingt-quatre - soixante-cinq"],
        ),
        (
            "customer: số của tôi là không ba bốn không không bốn chín chín bốn chín",
            ["không ba bốn không không bốn chín chín bốn chín"],
        ),
        (
            "Nomor saya nol delapan satu dua tiga empat tujuh enam delapan delapan",
            ["nol delapan satu dua tiga empat tujuh enam delapan delapan"],
        ),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a network at a sentence's end, as one elsewhere: no host
        "Security group sg-0d6e35dfe4dec3202: allow tcp/443 from 0.0.0.0/0; deny all egress except 10.0.0.0/8.",
        "Pod CIDR 10.244.0.0/16, service CIDR 10.96.0.0/12.",
        # an account named alone with a bank elsewhere on the line, or a bank's word that names none
        "Mobile account 7712345678 billed; payment via bank card.",
        "Broadband account 55667788, bank rejected the refund",
        "Stripe: connected account 1029384756 payout failed, bank rejected.",
        "Bankleitzahl fehlt. Please check account 90817263 in Salesforce.",
        "Sort code field blank; account 12345670 flagged for review",
        "The wire format carries account 88776655 as a uint32.",
        "in the data bank, account 40817263",
        "power bank: acct 40817263",
        "direct deposit acct 4521",  # too short for an account named alone beside its bank only
        "číslo účtu 4293441748/0800",  # its check digits do not check
        "tài khoản MB 20240315",  # a date
        # HTTPie's words, a URL's scheme, Dutch's and English's "belt"
        "the http -a flag sets auth",
        "see http://example.com -a test",
        "http -p HBhb GET example.com",
        "Spare parts for the baggage belt: part no. 900-12-3456, 912-04-7788; firmware kit 000-00-0000-A.",
        "Pincode vergeten? Bel 0900 0024 voor hulp.",
        # a browser's storage of no secret
        "localStorage.theme = 'dark'",
        # single characters three blanks apart that are no number, a keypad's rows
        "a   b   c   d   e   f",
        "Telephone keypad matrix: 1 2 3   4 5 6   7 8 9   0 0",
        # the attacker's round on these readers: "cuenta", "compte", "conta" as verbs; a ledger's accounts; "a/c" as
        # air conditioning; a snowbank; an accounting department in Bangkok; a balance, a fee, a limit, a hotline and
        # an order in Vietnamese; HTTPie's placeholders; a year after a slash; Dutch calls before references
        "El Banco Santander cuenta con 17800000 tarjetas activas en España.",
        "La Banque Postale compte 24150000 sociétaires et usagers en France.",
        "O Banco do Brasil conta com 80500000 correntistas, segundo o relatório.",
        "Reclass: amount transferred to account 40100000 Sales Revenue per auditor note.",
        "Journal 2024-117: posted to account 10100000 Cash at Bank, approved by FC.",
        "Ops log 02:14 wire transfer to acct 40010000 (suspense, reconciliation job 7) completed.",
        "Credit union lobby a/c serial 4013256789 replaced by the contractor.",
        "Snowbank acct 20451178 in the ski resort's rental system was reset.",
        "ส่งเอกสารให้ฝ่ายบัญชีกรุงเทพ เลขที่ 6701000123 ภายในวันศุกร์",
        "Số dư tài khoản Techcombank 12500000 đồng sau khi trả lương công ty.",
        "Tổng đài tài khoản Vietcombank 1900545413 hỗ trợ 24/7.",
        "Hạn mức chuyển tiền tài khoản BIDV 1500000000 đồng/ngày theo quy định.",
        "http -a $API_USER:$API_PASS GET https://api.internal/health",
        "The http -a username:password option works like curl --user.",
        "Account number 1000029/2024 in the asset register is the 2024 depreciation batch.",
        "Jan belde: bestelling 20481234 is vandaag verzonden.",
        "Heb de storingsdienst gebeld (0800 9009), melding 558812347 staat open.",
        # a tennis score read out, a count after "my number is"
        "score: trente - quinze - quarante - zéro - vingt",
        "số của tôi là 12",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
