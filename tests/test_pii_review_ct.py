"""Reviewer CT's blind round (a hospital pharmacy and telehealth clinic, a freight forwarder and customs broker, an
insurer's claims desk, a school district's IT helpdesk; 28 languages): each form found missed, as a general case, with
the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # an OAuth client's secret of letters alone, cut by "_" and "-" (runs of capitals and small letters, half of
        # them or more without a vowel: drawn at random)
        ("  client_secret: zQjlgGMNVMDcuPBwyIUK_XAp-pwTLHgfqKTnJykQ\n", ["zQjlgGMNVMDcuPBwyIUK_XAp-pwTLHgfqKTnJykQ"]),
        ('client_secret = "zQjlgGMNVMDcuPBwyIUK_XAp-pwTLHgfqKTnJykQ"', ["zQjlgGMNVMDcuPBwyIUK_XAp-pwTLHgfqKTnJykQ"]),
        # (the attacker's round) capitals side by side four times or more in short runs, vowels or not
        ("client_secret: kfhfgtKAQWYmEZ-gslmBpHp-UbzIfkvXLM", ["kfhfgtKAQWYmEZ-gslmBpHp-UbzIfkvXLM"]),
        # an OpenAI key given without its "sk-" prefix: the marker inside it
        ("The OpenAI key without the sk-proj- prefix is Ng4UqLSUXQmTtgbxToT-U6HIWIk34SxM8jMQnbZM5kJauHNT2P6e15sghbmF0"
         "GfkT3BlbkFJI4pVZk-2B81zkAW66LnA6efdJZwabbbjcewCC-Cg6KT5IE_rqFj1rze_W23B1OLu, add the prefix yourself.",
         ["Ng4UqLSUXQmTtgbxToT-U6HIWIk34SxM8jMQnbZM5kJauHNT2P6e15sghbmF0GfkT3BlbkFJI4pVZk-2B81zkAW66LnA6efdJZwabbbjce"
          "wCC-Cg6KT5IE_rqFj1rze_W23B1OLu"]),
        # UN/EDIFACT's COM segment: the number before its qualifier
        ("NAD+CN+++KOWALCZYK TOMASZ'\nCOM++48602642452:TE'", ["+48602642452"]),
        ("CTA+IC+:JOHN SMITH'COM+442079460958:TE'", ["442079460958"]),
        # a dot after every digit, ten of them from a trunk "0", a valid number after a phone's word
        ("Mon portable : 0.6.4.1.8.3.3.3.6.8 (pas de messagerie)", ["0.6.4.1.8.3.3.3.6.8"]),
        # digits read out after Indonesian's "WA" (WhatsApp)
        ("Nomor WA saya plus enam dua, delapan satu tiga, sembilan satu dua tiga, lima delapan lima satu, tolong "
         "dicatat ya.", ["plus enam dua, delapan satu tiga, sembilan satu dua tiga, lima delapan lima satu"]),
        # a password at the end of a long clause: Romanian's "este", Indonesian's "menjadi", Thai's "คือ" glued on
        ("Parola nouă pentru contul de Google Workspace al doamnei Elena Stan este Ghiocel!2025.", ["Ghiocel!2025"]),
        ("Kata sandi akun Google Workspace untuk Ibu Sri Wahyuni sudah direset menjadi Melati#3390.", ["Melati#3390"]),
        ("รหัสผ่าน Wi-Fi ห้องพักครูใหม่คือ Mali2025!Khru ค่ะ", ["Mali2025!Khru"]),
        # an SSN's three parts under three keys that name it: one finding from the first to the last
        ('{"ssn_a":"656","ssn_b":"81","ssn_c":"0987","claim":"CLM-2025-120044"}', ['656","ssn_b":"81","ssn_c":"0987']),
        ("ssn1=656 ssn2=81 ssn3=0987", ["656 ssn2=81 ssn3=0987"]),
        # a password its line says is written backwards, its label before or after (and reviewer CR's)
        ("Type it backwards: 77sutcaC$retniW (that's the new local admin password).", ["77sutcaC$retniW"]),
        ("ops vault pw, written backwards so grep won't find it: KO*0791noclaF", ["KO*0791noclaF"]),
        # (a later stop) a card's groups joined by pipes, nothing around them
        ("pls charge deductible to 4266|3813|5488|4319 thx", ["4266|3813|5488|4319"]),
        ("amex on file 3782|822463|10005", ["3782|822463|10005"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # names of code cut by "_" whose runs are words
        "secret: getUserAccountByIdAndName_handler",
        "token: XMLHttpRequestHandler_v2",
        "token: HTMLDOMParserFactory_v2",
        "secret: getXMLHttpRequestById_handler",
        "secret: JSONAPIResponseParserXYZ_v1",
        "existingSecret: pgCrdsPrdSync-tls",
        "token: hwndDlgBtnCtrl_Main",
        "client_secret: AzKvScrtSyncMgr-dev",
        # base64 of text that names OpenAI: its marker is no key's
        "Mail body (base64): V2Vla2x5IGRpZ2VzdDogT3BlbkFJIGFubm91bmNlZCBuZXcgbW9kZWxzIGFuZCBwcmljaW5nIGZvciB0aGUgcXVh",
        # Google's prefix named in prose, and blocks of small letters after it
        "AIza is a prefix of Google keys, see docs",
        # a COM segment's short number, and one whose qualifier is no phone's
        "COM+12345:TE'",
        "COM+4711:XX'",
        "Sample from the message guide: COM+1234567890:TE'",
        "Dummy partner profile: COM+5555555555:AJ'",
        "FTX+AAI+++DOOR CODE COM+12345678:AL'",
        # counted or keyed digits set apart by dots or dashes
        "phone: 0-1-2-3-4-5-6-7-8-9",
        "Keypad order on the phone: 7-8-9-4-5-6-1-2-3",
        "Tel: 0.3.1.4.1.5.9.2.6.5 (digits of pi for the demo)",
        "Keypad order checked on each desk phone: 0-2-5-8-1-4-7-3-6-9",
        "Retry delays in seconds per call: 0-1-1-2-3-5-8-1-3-2-1",
        # Swahili's "wa" (of), a queue's number sent over WhatsApp
        "Msimbo wa bidhaa ni tano nne tatu mbili moja sita saba nane tisa",
        "Nomor antrean Anda di layanan WA: tujuh dua satu tiga empat lima enam tujuh delapan",
        # Thai's "is" standing alone before a hash's and a manager's name (an earlier attacker's round)
        "รหัสผ่าน คือ Argon2id ที่ใช้แฮช",
        "ตัวจัดการรหัสผ่าน คือ 1Password สำหรับทีม",
        "รหัสผ่าน ระบบใหม่คือ PBKDF2+SHA256",
        # Indonesian's "became" after a policy's or a hash's word
        "Kebijakan kata sandi diperbarui menjadi ISO-27001+NIST",
        "Hash kata sandi dimigrasikan menjadi Argon2id",
        # a customs tariff's number
        "TARIC 8471 30 00 00",
        # three SSN keys whose parts are no SSN's (an area of 000 or 666, a group of 00)
        '{"ssn_a":"000","ssn_b":"81","ssn_c":"0987"}',
        "ssn1=666 ssn2=81 ssn3=0987",
        "ssn_a=123 ssn_b=00 ssn_c=4567",
        # a line with "reversed" and a password's word that gives none, or describes them
        "We reversed the password rotation in build v2.4.1-rc3 yesterday",
        "Password policy: reversed strings like Abc123! are rejected",
        "Sorted in reverse: INC-20931, INC-20930 (password reset tickets)",
        # (a round of this stop's own) no colon between the reversal's word and the value, or a word after it
        "We rolled back (reverse migration 20240312_AddPwdCol!) after the password column broke",
        "pw reversed is a bad idea; use Vault/KV instead of Secret123!",
        "password generator in reverse mode produced Xk9#mQ2$ for the demo",
        # (a later stop) cells of a table row, a row of more fields, a number that fails Luhn, a date and times
        "| 4266 | 3813 | 5488 | 4319 |",
        "id|4266|3813|5488|4319",
        "4266|3813|5488|4319|2027",
        "ref 4266|3813|5488|4318",
        "2024|1201|0930|1155",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
