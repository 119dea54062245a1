"""Reviewer BV's blind round (an agent's memory files as they grow over weeks of regulated customer work: case notes,
tables, quoted mails, call transcripts, in 29 languages): each form found missed or altered, as a general case, with
the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_MERCHANT_KEY = "jHhyPMeSxKmzC1oYCwgp5YaskgKhesdP"
_API_TOKEN = "Fo2HUPE99InJl5qWXa4FB14Fe9tpke3vrrgrFa5o"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a password label that gave no value does not hide the next one inside its clause
        (
            "ihr Passwort im Teams-Chat gepostet („Passwort: Ciliegia2017.“) → AD-Konto gesperrt",
            "Ciliegia2017",
        ),
        ("my password was posted (password: Xq7#pLw29z) -> account locked", "Xq7#pLw29z"),
        # a secret after a label of a script written without blanks, an aside in brackets before its colon or
        # a bracket glued after it
        ("商户密钥（支付回调验签用）：" + _MERCHANT_KEY + "，请勿外传。", _MERCHANT_KEY),
        ("APIトークン：" + _API_TOKEN + "（本番環境用）", _API_TOKEN),
        # bank accounts under the labels of Indonesian, Vietnamese, Russian and Japanese, and Poland's NRB by its
        # check digits whatever its label's clause says
        ("Nasabah minta dana klaim ditransfer ke No. rekening 4602228185 (BCA a.n. Dewi)", "4602228185"),
        ("STK nhận tiền bồi thường: 5294856548739 (Vietcombank)", "5294856548739"),
        ("Реквизиты для выплаты: р/с 40817810663534339905 в ПАО «Сбербанк»", "40817810663534339905"),
        ("振込口座：○○銀行 渋谷支店 普通 8325641", "8325641"),
        ("nr konta do zwrotu nadpłaty: 26 1050 0654 4813 5749 9156 7520", "26 1050 0654 4813 5749 9156 7520"),
        # an IBAN in two columns that say which part each holds; a phone's area with its country's code
        (
            "| beneficiary | IBAN (1/2) | IBAN (2/2) |\n|---|---|---|\n| insured | AT75 3200 | 0923 6251 5645 |",
            "AT75 3200 | 0923 6251 5645",
        ),
        ("| Vorwahl | Nummer |\n|---|---|\n| +49 151 | 76943197 |", "+49 151 | 76943197"),
        ("Vorwahl,Rufnummer\n+49 30,87654321", "+49 30,87654321"),
        # IBANs' parts named otherwise; an area's cell with the trunk's "(0)"
        ("x,IBAN part 1/2,IBAN part 2/2\ny,AT75 3200,0923 6251 5645", "AT75 3200,0923 6251 5645"),
        ("IBAN Teil 1;IBAN Teil 2\nAT75 3200;0923 6251 5645", "AT75 3200;0923 6251 5645"),
        ("| Vorwahl | Nummer |\n|---|---|\n| +49 (0)151 | 76943197 |", "+49 (0)151 | 76943197"),
        # a "+" number glued to Thai text
        ("ติดต่อคุณสมชาย ประเสริฐที่เบอร์+66 94 010 5567ได้ตลอดวัน", "+66 94 010 5567"),
        # a secret's rotation told in a sentence, the value further on than a label's reach
        (
            "Webhook HMAC signing secret for the claims intake API was rotated on 2024-06-21; the new one is "
            "fZndgpFjIxpA5jfpeR+qR0hiuzwJ+16KJSk9BN0diVfr (old one revoked).",
            "fZndgpFjIxpA5jfpeR+qR0hiuzwJ+16KJSk9BN0diVfr",
        ),
        # a card read out with pauses between its groups, named right before
        (
            "Caller: right, the card number is four double six seven, uh, eight four two oh... two five oh seven, "
            "two six three nine, expiry oh nine twenty-seven.",
            "four double six seven, uh, eight four two oh... two five oh seven, two six three nine",
        ),
        # emphasis the value's last group opened is closed with it
        ("Card: 5141 **8619** 9412 _5106_", "5141 **8619** 9412 _5106_"),
        ("mail _jane.roe@gmail.com_ today", "_jane.roe@gmail.com_"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert any(value in found for found in found_values(text))


@pytest.mark.parametrize(
    "text",
    [
        # counts of subscribers per area, and an area without a country's code beside a bare "Nummer"
        "| Vorwahl | Nummer |\n|---|---|\n| 030 | 87654321 |",
        "Area code,Number\n+49,1500",
        # Danish and Norwegian "stk" (pieces) where no bank is named; a Japanese kind of account with no account
        # or bank on its line
        "Varenummer 5 stk 12345678 leveret",
        "普通 8325641",
        # a Polish account's digits that fail their check; a key's version in Chinese
        "nr konta: 26 1050 0654 4813 5749 9156 7521",
        "密钥（版本）：jHhyPMeSxKmzC1oYCwgp5YaskgKhesdP",
        # (an attacker's round on these readers) another number after an account's label and a clause's colon; pieces
        # in Danish and M-Pesa's "STK push"; a unit's and Spanish's "p/c"; a balance after a kind of account; a
        # camelCase call after a CJK secret word
        "Bankkonto noch nicht hinterlegt, bitte Kundennummer: 24585630 angeben.",
        "Bank account not verified yet for case: 47791483, escalated to ops.",
        "no. rek. tujuan salah, nomor resi: 532843028838",
        "Faktura 5934: 58 stk. varenr. 5077840, betales til Danske Bank reg. 8233",
        "M-Pesa STK prompt timed out, merchant request 61559222; bank: KCB",
        "Номер заказа 4112104, кадр/с 9149631",
        "Ingreso p/c Cía. Aseguradora, siniestro 44012873",
        "р/с — уточнить у бухгалтерии, БИК 044525225",
        "残高メモ：三菱UFJ銀行 普通預金 6300000円（3月末）",
        "試算表（銀行勘定）普通預金 4872310 当座預金 1200000",
        "令牌：generateSecureToken2024(userId)",
        "密钥(算法):HMAC-SHA256-2024-v2-Base64",
        # a price and a model glued to Thai text
        "ราคา+66 บาท",
        "ราคาตั้ง+49301234567บาท",
        "รุ่น+12345678",
        # a new host, release or place after a secret's word, not a secret
        "the token service moved to a new host last week; the new one is api-gateway-prod-eu-west-1.internal",
        "secret rotation scheduled for our Jenkins agents in March, the new one is build-agent-v2.3.17-release",
        "the secret santa list changed, the new one is in SharePoint",
        # a card game's scores read out with pauses
        "The card game scores: four five three two … so … one one nine eight … seven seven six six … five five "
        "four four",
        # a name's underscores, and emphasis closed after a word, not a value
        "token_name sk_live_abc_def_ghi x",
        "see _the note_ for 5141",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
