"""Reviewer BQ's blind round (insurance claims, payroll, KYC, travel, mortgages, government forms, engineering
artefacts, 33 languages), and the attacker's round on reviewer BP's readers: each form found missed or altered, as
a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Turkish's "your password", Urdu's "mobile"
        ("Merhaba, bordro sistemine giriş şifreniz: AKDcgp#19575lj , ödeme", "AKDcgp#19575lj"),
        ("آپ کا نیا پاس ورڈ ہے۔ موبائل نمبر: 0312-4496172", "0312-4496172"),
        # a password whose store it is (Android's keystore), not only a password's rule or field
        ("RELEASE_STORE_PASSWORD=Sy?jN5VmM3zw!\nRELEASE_KEY_ALIAS=claims", "Sy?jN5VmM3zw!"),
        ("redis_cache_password: Xk29sd8fj3", "Xk29sd8fj3"),
        # an account named alone beside its bank's branch on the line
        ("direct deposit\nTransit: 31846  Institution: 006  Account: 8509444", "8509444"),
        ("Repayment to: sort code 949857 account 95781342", "95781342"),
        # the next column's label two blanks on is no count of accounts
        ("BSB: 214-399  Account number: 0714 1225  Account name: R PATEL", "0714 1225"),
        # Nigeria's NUBAN, Mexico's CLABE (valid by its control digit) a few words after its label
        ("NUBAN account number: 1459677658 (Zenith)", "1459677658"),
        ("Cuenta CLABE para devolución: 002010077777777771", "002010077777777771"),
        # a Norwegian account valid by modulus 11 after its label, in any text
        ("Betal til kontonummer 9278.77.89325", "9278.77.89325"),
        ("Kontonr.: 1587.92.17420", "1587.92.17420"),
        # an Apple property list's entries
        ("<key>AlgoliaAdminKey</key><string>5f56725324c636c1ac7c692be9a8de71</string>", "5f56725324c636c1ac7c"),
        ("<key>GoogleMapsKey</key><string>k3JH8sd9f8GhJ2kLm4Nq7Rs0Tu6Vw1X</string>", "k3JH8sd9f8GhJ2kLm4Nq7Rs0Tu6Vw1X"),
        # the attacker's round on BP's readers: more REPLs and prompts, more ways to say a number comes
        ("In [5]: os.environ['API_TOKEN']\nOut[5]: 'k3JH8sd9f8GhJ2kLm4Nq7Rs0Tu6Vw1Xy5Za8Bc3D'", "k3JH8sd9f8GhJ2k"),
        ("In [5]: settings.DATABASES['default']['PASSWORD']\nOut[5]: 'Xk29-sd8f!q'", "Xk29-sd8f!q"),
        (
            ">>> settings.SECRET_KEY\n'MbXDuCL1mHoOsFaQfDPrAJ71fTquWoGsbeKXgzg2'",
            "MbXDuCL1mHoOsFaQfDPrAJ71fTquWoGsbeKXgzg2",
        ),
        (
            'ghci> lookupEnv "SECRET_TOKEN"\nJust "T11NCue1cr3McRTrKwtPYKbPizDmbX1rpX"',
            "T11NCue1cr3McRTrKwtPYKbPizDmbX1rpX",
        ),
        (
            '>>> os.environ.get("STRIPE_SECRET_KEY", "")\n\'ZP7Thnp5yftIY7uq6T2bwGfcCvJAXrF6bnZ3\'',
            "ZP7Thnp5yftIY7uq6T2",
        ),
        ("我的手机号是138、1234、5678", "138、1234、5678"),
        ("[02:14.6] CALLER: ok the card number is 5194; 1730; 5592; 8881", "5194; 1730; 5592; 8881"),
        ("CALLER: callback is 07911, 123, 456", "07911, 123, 456"),
        ("AGENT: what's the best number to reach you?\nCALLER: 0412, 345, 678", "0412, 345, 678"),
        ("CALLER: social is 078, 05, 1120", "078, 05, 1120"),
        ("sip: a_number=447911123456 b_number=442079460958", "447911123456"),
        ("เบอร์โทรศัพท์ของพี่ 0812345678 ค่ะ", "0812345678"),
        ("আমার মোবাইল নাম্বার 01712345678", "01712345678"),
        ('AReq {\n "shippingPhone": {\n  "cc": "44",\n  "subscriber": "7911123456"\n }\n}', "7911123456"),
        (
            'AReq {\n "mobilePhone": {\n  "cc": "44",\n  "meta": {"verified": true},\n  "subscriber": "7911123456"\n }',
            "7911123456",
        ),
        ('mobilePhone:\n  cc: "44"\n  subscriber: "7911123456"', "7911123456"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert any(value in finding for finding in found_values(text))


@pytest.mark.parametrize(
    "text",
    [
        # ISO insurance forms' numbers, a retina icon after another, a protocol's release
        "Homeowners forms in use: HO 00 03 05 11, HO 04 90 05 11, HO 04 61 05 11; auto PP 00 01 09 18",
        "assets/icons/: claim-photo@2x.png  spinner@1.5x.gif  insurer-badge@2x~ipad.png",
        "Compatibility: client >=2.3.0 <3.0.0, protocol 1.2.0.4 (legacy), API 2024-04-01",
        # a password's rule, field or store is no password
        "password_store=Sy2jN5VmM3zw",
        "min_password=12",
        # an account named alone with no branch beside it
        "Account: 12345678 (ledger)",
        "Customer account 88123456 was closed",
        # a CLABE whose control digit is wrong, a Norwegian account that fails modulus 11
        "Cuenta CLABE para devolución: 093849988997165661",
        "Kontonummer 1503.12.34567 er et norsk innenlandsk kontonummer, ikke IBAN.",
        # a property list's ordinary entries
        "<key>CFBundleIdentifier</key><string>com.acme.claims</string>",
        "<key>NSCameraUsageDescription</key><string>Take a photo of your claim</string>",
        # the attacker's round on BP's readers: counts, prices and serials after the new words for a phone
        "Penjualan ponsel 2023: 12.500.000 unit",
        "handphone seharga 2750000 rupiah",
        "Nomor seri HP EliteBook 840: 5120034471",
        "Telefonní seznam obsahuje 1 204 556 záznamů",
        "Mobilní data: 15 360 000 kB přeneseno",
        "msisdn_count=12845561 window=1h",
        "DNIS pool size 1000000, trunks 48",
        "핸드폰 1350000원에 구매했어요",
        "ফোন ১২৫০০০০০০ টাকায় বিক্রি",
        "মোবাইল নম্বর ১২৩৪৫৬৭ টি নিবন্ধিত",
        # ... counts in comma-set groups, a CSV's columns that name no phone
        "SSN lookups per month (Jan-Mar): 120, 85, 1502",
        "Phone orders per day this week: 120, 98, 143, 110",
        "AGENT: what's your order number?\nCALLER: 4539, 1488, 0343, 6467",
        "Harga Ponsel (Rp),Stok\n5999000,120",
        "Line,Phone count\nB2B,1234567",
        "kota,telepon_terjual\nSurabaya,1234567",
        # ... bank initials that are a currency's or a file's, round sums
        "Savings account EUR: 12500000 (balance in cents)",
        "Rekening koran Mei — Nomor rekening CIF: 0012345678",
        "Nomor rekening BCA: 1000000000",
        # ... a REPL's answers that are words: translations, a form's widget, a hasher's name, a value not set
        ">>> _('Password')\n'Passwort'",
        ">>> form.fields['password']\n'PasswordInput'",
        ">>> HASHERS['password']\n'Argon2PasswordHasher'",
        # ... a phone object that is a device's record, a key that only ends in "phone"
        '{"phone": {"model": "Pixel 8", "cc": 61, "number": 412345678}}',
        '{"earphone": {"cc": 86, "number": 13812345678}}',
    ],
)
def test_ordinary_text_in_these_forms_is_left_alone(text: str) -> None:
    assert found_values(text) == []


def test_a_csv_row_still_names_its_phone_by_its_own_cells_or_a_prose_line_above() -> None:
    assert found_values("name,type,value\nAna,mobile,9876 5432") == ["9876 5432"]
    assert found_values("type,number\nfax,9876 5432") == ["9876 5432"]
    assert found_values("Regards, Tom\nMobile, 9876 5432") == ["9876 5432"]
    assert found_values("contact_id\tkind\tnumber\n17\tmobile\t9876 5432") == ["9876 5432"]
