"""Reviewer BP's blind round (speech-to-text call transcripts, bank statements from PDFs, payment gateways' and
telephony logs, REPL output, tickets in 33 languages, evasions): each form it found missed or altered, as a
general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from securemem.pii import detect
from tests.helpers import found_values


def types(text: str) -> set[str]:
    return {f.type for f in detect(text)}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # digit groups a transcript sets apart with commas, where a card, an SSN or a phone is named
        ("CALLER: ok the card number is 5194, 1730, 5592, 8881\nAGENT: and the expiry?", "5194, 1730, 5592, 8881"),
        (
            "Agent: I need your Social Security number.\n00:03:15 Caller: sure, 0 7 9, 6 4, 0 9 6 5\nAgent: thanks",
            "0 7 9, 6 4, 0 9 6 5",
        ),
        ("call me on 415, 555, 2671 after six", "415, 555, 2671"),
        ("my mobile is, um, 415, 555, 2671", "415, 555, 2671"),
        # a phone asked for on the line before, whose question names an account too
        (
            "can you confirm the mobile number on the account\n"
            "speaker_1 (customer): oh double seven double nine, seven six five, seven double eight",
            "oh double seven double nine, seven six five, seven double eight",
        ),
        # digits typed among digit words
        ("mobile: oh 7 nine 0 one 5 five 4 three 6 oh", "oh 7 nine 0 one 5 five 4 three 6 oh"),
        # words for a phone in Czech, Indonesian, Korean, Thai and Bengali
        ("Dobrý den, moje telefonní číslo je 603 384 737, e-mail", "603 384 737"),
        ("Halo kak, nomor HP saya 085336565259, email", "085336565259"),
        ("telepon: 085336565259", "085336565259"),
        ("nomor ponsel saya 0853 3656 5259", "0853 3656 5259"),
        ("안녕하세요, 제 휴대폰 번호는 01088690648이고 이메일은", "01088690648"),
        ("핸드폰: 010-2345-6789", "010-2345-6789"),
        ("สวัสดีค่ะ เบอร์โทรของดิฉันคือ 0659095078 อีเมล", "0659095078"),
        ("নমস্কার, আমার মোবাইল নম্বর ০১৭৮০১৭৪৩৮৩। ইমেইল", "০১৭৮০১৭৪৩৮৩"),
        # a telephony log's dialled and subscriber numbers
        ("ivr-router ani=+14153440529 dnis=08003457788 menu=1", "08003457788"),
        ("msisdn: 447910930577", "447910930577"),
        # 3-D Secure's phone object: the country's code and the subscriber's number apart
        ('"mobilePhone": {\n  "cc": "44",\n  "subscriber": "7790750126"\n }', "7790750126"),
        # a Norwegian account's dotted groups (valid by modulus 11) in a bank's statement
        ("Kontoutskrift juni 2024 — Kontonummer: 9210.44.20941", "9210.44.20941"),
        # Indonesian's account ("rekening" is a bank's), a bank's initials before the colon
        ("Nomor rekening BCA: 3077870982 a.n. Siti Rahmawati", "3077870982"),
        # a secret a REPL prints after the prompt that names it
        (">>> os.environ['AWS_SECRET_ACCESS_KEY']\n'ZMlEKpy/O/rM1duUAid+3Z5Nt3xNJwgrlvX/Db00'\n>>>", "ZMlEKpy/O/rM1d"),
        ("In [3]: settings.DB_PASSWORD\nOut[3]: 'Hunter2-Blue!'", "Hunter2-Blue!"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert any(value in finding for finding in found_values(text))


@pytest.mark.parametrize(
    "text",
    [
        # epoch timestamps after an ISO time: its "T" is no telephone's label
        "formats: 2024-06-11T09:14:22.381+05:30, 1718097262, 1718097262381, Tuesday 11 June 2024",
        # a UPS tracking number, whose tail reads as a Melbourne number
        "  UPS      1Z 4E9 81W 03 9218 7342   (2 parcels)",
        # a German statement's booking and value dates
        "03.06. 03.06. Kartenzahlung REWE Markt GmbH//Berlin/DE",
        # an Arabic order's number
        "رقم الطلب 4471-2290، المبلغ ١٢٥٠ ريال",
        # a webhook's signature, then the next header
        "  X-Hub-Signature-256: sha256=992ac0e9f650dda1277c0bd9baa30394bf4d6e8a21edf73ebfcb3b23ec02f7c5\n"
        "  X-Delivery: 995200f6-0583-4349-bcb5-9dd502cdfff9",
        # comma-set groups that nothing says are a card's or a phone's number: counts
        "Counts: 212, 555, 1234",
        "visits: 5194, 1730, 5592, 8881",
        "phone sales Q1-Q3: 415, 555, 2671 units",
        "mobile data (MB): 312, 555, 7890",
        "Card transactions per day: 4539, 3074, 1852, 9633",
        "Social media posts: 123, 45, 6789",
        # a CSV's count under its own column, beside a column named for phones
        "Telepon,Jumlah\nSamsung,1200000\nXiaomi,3400000",
        "Telefon,Anzahl\nSamsung,1200000",
        # "HP" alone is a printer's brand, "nomor" alone any number's
        "HP LaserJet 085336565259",
        # Bengali's "number" alone: an order's
        "অর্ডার নম্বর ০১৭৮০১৭৪৩৮৩",
        # a made-up Norwegian account that explains the format (fails its check digit)
        "Kontonummer 1503.12.34567 er et norsk innenlandsk kontonummer, ikke IBAN.",
        # the routing number's initials before the colon name the bank's number
        "bank account number ABA: 021000021",
        # a REPL's answer under a name that is no secret's
        ">>> os.environ['HOME']\n'/srv/app'",
        ">>> settings.SECRET_KEY_NAME\n'my-key'",
        "os.getenv('GITHUB_TOKEN')\n'not set'",
    ],
)
def test_ordinary_text_in_these_forms_is_left_alone(text: str) -> None:
    assert found_values(text) == []


def test_an_address_ends_where_a_particle_of_a_script_without_spaces_is_glued_to_it() -> None:
    assert found_values("이메일은 seoyeon.lee@daum.net입니다.") == ["seoyeon.lee@daum.net"]
    assert found_values("メールはtaro@example.jpです") == ["taro@example.jp"]
    assert found_values("邮箱是wang@qq.com谢谢") == ["wang@qq.com"]
    # ... and not inside scripts written with spaces, where the view reads look-alike letters as Latin
    assert found_values("Пишите: иван.петров85@почта.рф") == ["иван.петров85@почта.рф"]
    assert found_values("jürgen@bücher.de") == ["jürgen@bücher.de"]


def test_a_csv_phone_column_is_still_read_under_its_header() -> None:
    assert found_values("cliente,prefijo,teléfono\nLucía,+34,612 345 678") == ["612 345 678"]
    assert types("Name,Telefon\nAnna,0171 2345678") == {"PHONE"}


def test_a_letter_label_still_names_a_phone_when_not_glued_to_digits() -> None:
    assert found_values("T: 07700 900123") == ["07700 900123"]
    assert found_values("M. 07700 900123") == ["07700 900123"]
