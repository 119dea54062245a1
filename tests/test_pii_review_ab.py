"""Forms from reviewer AB's blind round (tests/data/pii_review_ab.jsonl: written as a systematic acceptance
suite would, every format variant in many surroundings; taken as it came). Each case lists exactly what is
found: the ordinary lines beside them, written against each rule as an attacker would, nothing."""

from __future__ import annotations

import pytest

from securemem.pii import detect
from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Hebrew's words for a phone and for calling, and its one-letter "to" joined to the number by a
        # hyphen (the maqaf, or a dash): Israel is no default region, a call's word lets its numbers count.
        ("נא להתקשר ל-059–305–7512 אחרי הצהריים", ["059–305–7512"]),
        ("נא להתקשר ל-0593057512 אחרי הצהריים", ["0593057512"]),
        ("אפשר להתקשר אליי ל-+972-50-334-9552.", ["+972-50-334-9552"]),
        ("טלפון: 0521234567", ["0521234567"]),
        ("בטלפון 052-1234567 בכל שעה", ["052-1234567"]),
        ("הנייד של דני הוא 0521234567", ["0521234567"]),
        ("חייגו 03-6481234 לפרטים", ["03-6481234"]),
        # The same words and prefixes before other numbers: dates, amounts, orders, counts, a year.
        ("הפגישה נדחתה ל-2024-05-12 בבוקר", []),
        ("שילמנו ל-0593057512 שקלים", []),
        ("ההזמנה ב-0593057512 נשלחה", []),
        ("להתקשר ב-10:30 או ב-14:00", []),
        ("הטלפון נשבר ב-2023 והוחלף", []),
        ("הנייד של דני עלה 3500 שקלים", []),
        ("מספר ההזמנה 0593057512", []),
        # Vietnamese: whose phone stands between its word and the number ("số điện thoại của em là"), the
        # digits maybe spelt out one by one; "gọi" (call).
        ("số điện thoại của em là 0 9 8 5 2 7 1 4 3 3 nha", ["0 9 8 5 2 7 1 4 3 3"]),
        ("số điện thoại của em là 0985271433 nha", ["0985271433"]),
        ("sđt của anh Minh là 0912227066", ["0912227066"]),
        ("gọi cho em 0985 271 433 nhé", ["0985 271 433"]),
        # ... and the same words before an account's, an order's number, a year, a count.
        ("số tài khoản của em là 0985271433", []),
        ("mã đơn hàng của em là 0985271433", []),
        ("điện thoại của em bị hỏng từ 2023", []),
        ("điện thoại của em có 128 GB bộ nhớ", []),
        ("Gọi món lúc 10 giờ, đơn 0985271433", []),
        # Thai, Lao and Khmer words for a call, a phone, a mobile, its number, glued to the digits and to
        # the particle after them.
        ("โทร0811055775ค่ะ", ["0811055775"]),
        ("โทรกลับที่ 081 105 5775 นะคะ", ["081 105 5775"]),
        ("เบอร์มือถือ: 0811055775", ["0811055775"]),
        ("ติดต่อ 0811055775", ["0811055775"]),
        # A fresh attacker's bypasses: Thai's abbreviating stop, Khmer's colon, another spelling of
        # WhatsApp in Hebrew, Vietnamese as chat writes it, without its marks.
        ("โทร. 0811055775", ["0811055775"]),
        ("โทร.0811055775", ["0811055775"]),
        ("លេខទូរស័ព្ទ៖ 012345678", ["012345678"]),
        ("ווצאפ 0521234567", ["0521234567"]),
        ("sdt cua em la 0985271433", ["0985271433"]),
        ("so dien thoai cua em la 0985271433", ["0985271433"]),
        # ... and what those must not take: an amount, a Spanish sentence with "la", a shop's sales.
        ("so dien thoai cua em la 1 250 000", []),
        ("La cua de la tienda la 0985271433", []),
        ("Doanh so dien thoai cua quy la 1 250 000 chiec", []),
        ("โทร. 8.30-16.30 น.", []),
        # ... and the same letters before other numbers: a television, a count of calls, an account, an amount.
        ("ดูโทรทัศน์ 0811055775 ชั่วโมง", []),
        ("โทร 2 ครั้ง", []),
        ("เลขบัญชี 0811055775", []),
        ("ยอดโอน 0811055775 บาท", []),
        ("เบอร์ 42 ไซส์ใหญ่", []),
        ("โทรทัศน์รุ่น 2024", []),
    ],
)
def test_phones_after_call_words_of_more_languages(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A draw's numbers listed in order after the draw is named: no French phone.
        ("Lottery draw results: 04 11 23 35 42 + 07", []),
        ("Résultats du tirage : 04 11 23 35 42", []),
        ("Ziehung am Samstag: 3 11 23 35 42 47", []),
        ("Numeri estratti: 05 12 33 41 58", []),
        # A phone near a lottery or a draw stays one: a call's word, a winner's number, numbers out of order.
        ("Lottery office, call 04 11 23 35 42", ["04 11 23 35 42"]),
        ("Lottery winner Marie: 06 12 34 56 78", ["06 12 34 56 78"]),
        ("Le tirage au sort aura lieu; contact 01 45 67 89 90", ["01 45 67 89 90"]),
        ("Draw the curtains, Marie 01 45 67 89 90", ["01 45 67 89 90"]),
        ("Prize draw winner: Paul Martin 06 12 34 56 78", ["06 12 34 56 78"]),
        ("Tirage : appelez le 06 51 64 15 09", ["06 51 64 15 09"]),
    ],
)
def test_a_draws_numbers_are_no_phone(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A card's code as an XML element's text, or under a key that names it, beside the card's other
        # fields (its number, its number's key, its expiry's).
        ("<pan>379596579803164</pan><cvv>3029</cvv>", ["379596579803164", "3029"]),
        ("<card><number>4111111111111111</number><cvc>302</cvc></card>", ["4111111111111111", "302"]),
        ("<expiry>0927</expiry><CVV2>302</CVV2>", ["302"]),
        (
            '<ns1:PAN>4111111111111111</ns1:PAN><ns1:SecurityCode xsi:type="x">302</ns1:SecurityCode>',
            ["4111111111111111", "302"],
        ),
        ("<cardNumber>***</cardNumber><cardCode>999</cardCode>", ["999"]),
        ("<exp_date>09/27</exp_date><cvd_value>198</cvd_value>", ["198"]),
        ('"cardNumber": "4111 1111 1111 1111", "securityCode": "302"', ["4111 1111 1111 1111", "302"]),
        ('"exp_month": "09", "security_code": "302"', ["302"]),
        ('"pan": "379596579803164", "card_cvv": "302"', ["379596579803164", "302"]),
        ('"card_number": "4111111111111111", "cardCvv": "302"', ["4111111111111111", "302"]),
        ("card_number=4111111111111111&card_cvc=302", ["4111111111111111", "302"]),
        # Alone, such a key or element holds a status or a type's code as often (a fresh attacker's round).
        ("<CVV2>302</CVV2>", []),
        ("<cardCode>100</cardCode>", []),
        ("securityCode: 404 not found", []),
        ("Error: card_cvv 500 internal server error", []),
        ("<cvc>000</cvc>", []),
        # Elements and keys about the code, not the code: a template, a result, a length, a count, a check.
        ("<cvv>{{cvv}}</cvv>", []),
        ("<cvv_result>M</cvv_result>", []),
        ("<cvvResponseCode>200</cvvResponseCode>", []),
        ("<securityCodeLength>3</securityCodeLength>", []),
        ("<cvvLength>4</cvvLength>", []),
        ("<cvv>302 errors</cvv>", []),
        ("<cvd>2024</cvd>", []),
        ('"cvv_check": "pass"', []),
        ("cvv_attempts=302", []),
        ('"card_code": "VI"', []),
        ("card-code 302 was rejected", []),
    ],
)
def test_a_cards_code_in_an_element_or_under_a_key(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An IPv6 address with its zone, the interface it is reached on: all of it.
        ("ping fe80::1c4b:2ff:fe9a:41b2%eth0 failed", ["fe80::1c4b:2ff:fe9a:41b2%eth0"]),
        ("peer fe80::1%en0: connection reset", ["fe80::1%en0"]),
        ("curl http://[fe80::1%25eth0]:8080/", ["fe80::1%25eth0"]),
        ("ip -6 neigh: fe80::a00:27ff:fe4e:66a1%wlan0 REACHABLE", ["fe80::a00:27ff:fe4e:66a1%wlan0"]),
        # A percent after something else is no zone: a share, a format.
        ("CPU at 45%, disk 80%", []),
        ("printf('%s:%d', host, port)", []),
        ("values[1::2] = 50%", []),
    ],
)
def test_an_ipv6_address_keeps_its_zone(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An SNMP subtree's first arcs, a release after what it ships as, "version" in other languages.
        ("The SNMP subtree 1.3.6.1 covers the internet branch.", []),
        ("MIB-2 lives under 1.3.6.1 in every agent.", []),
        ("Version 3.11.7.0 of the driver ships with the firmware bundle 2.4.0.12.", []),
        ("Installed the driver package 4.1.0.2 and the service pack 2.0.1.5", []),
        ("هذا الإصدار 4.1.0.2 يصلح مشكلة الطباعة.", []),
        ("تم التحديث إلى الإصدار 2.0.1.5", []),
        ("Μετάφραση έκδοσης 2.0.1.5 ολοκληρώθηκε.", []),
        ("ΕΚΔΟΣΗ 2.0.1.5", []),
        ("Версия 4.1.0.2 вышла вчера", []),
        ("版本4.1.0.2已发布", []),
        ("バージョン 4.1.0.2 をリリース", []),
        ("버전 4.1.0.2 배포 완료", []),
        ("Versión 4.1.0.2 publicada", []),
        ("Phiên bản 4.1.0.2 đã phát hành", []),
        ("Sürüm 4.1.0.2 yayınlandı", []),
        ("גרסה 4.1.0.2 שוחררה", []),
        ("संस्करण 4.1.0.2 जारी", []),
        # Addresses beside those words stay addresses.
        ("SNMP agent at 10.0.0.5", ["10.0.0.5"]),
        ("SNMP trap from 2.16.5.10", ["2.16.5.10"]),
        ("firmware pushed to 192.168.1.20", ["192.168.1.20"]),
        ("version 2 of the app talks to 192.168.1.20", ["192.168.1.20"]),
        ("the firmware bundle was fetched from 203.0.113.45", ["203.0.113.45"]),
        ("الإصدار الجديد على الخادم 192.168.1.20", ["192.168.1.20"]),
        ("έκδοση 2 στον διακομιστή 10.20.30.40", ["10.20.30.40"]),
        ("MIB browser polling 172.16.4.9", ["172.16.4.9"]),
    ],
)
def test_releases_and_object_identifiers_are_no_addresses(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # Twilio's account SID names an account, it does not open it: not scrubbed (as before AB's round;
        # "AC" and 32 hex digits are also a hash's, a cache key's, a commit's: a fresh attacker's round).
        "TWILIO_ACCOUNT_SID=AC83bbc8b9ac2b0bc811bbaee78132d930",
        "hash: ACe3b0c44298fc1c149afbf4c8996fb924",
        "commit ACe3b0c44298fc1c149afbf4c8996fb924 fixed the bug",
        "ACCOUNTING_DEPARTMENT_BUDGET_2024_FINAL",
        "the AC unit at 22C draws 1.5kW",
    ],
)
def test_twilios_account_sid_is_left_alone(text: str) -> None:
    assert detect(text) == []
