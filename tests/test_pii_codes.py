"""Codes an attacker's round left: a door's or a PIN's code read out digit by digit, a backup or
recovery code given alone after its label; and the windows that spare the access-code pattern a pass
over the whole text, which must find exactly what that pass finds. Each case lists exactly what is
found: the ordinary lines beside them, nothing."""

from __future__ import annotations

import random

import pytest

from securemem.pii import accounts, codes
from securemem.pii.scan import Scan
from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Read out digit by digit, after a lock's code or a PIN.
        ("Door code: 3-7-1-9", ["3-7-1-9"]),
        ("alarm code 4 4 2 1 (disarm on entry)", ["4 4 2 1"]),
        ("PIN 4 4 2 1", ["4 4 2 1"]),
        ("gate code 1 2", []),  # two digits: no code
        ("door code 3-7-1-9-2-2-1-1-5", []),  # nine digits read out: no lock's code
        ("Section 4 4 2 1 of the door code", []),
        ("PIN: 1-800-555-0100", ["1-800-555-0100"]),  # a phone, as before
        # "código" with its accent names a code too.
        ("código de la puerta: 4471#", ["4471#"]),
        # A backup or recovery code alone: eight digits or more, or two groups each with a digit.
        ("backup code: 83920174", ["83920174"]),
        ("recovery code: 4HF8-92KD", ["4HF8-92KD"]),
        ("MFA recovery code: x8k2-9dh3", ["x8k2-9dh3"]),
        ("backup code: e7220-bb497", ["e7220-bb497"]),
        ("backup code: 2024Q3", []),  # a reference
        ("backup code: 20240315", []),  # a date
        ("recovery code: WEEK-2024", []),
        ("recovery code: Q3-2024", []),
        ("The recovery code: ABCD-EFGH", []),
        # six digits too (first left as what an authenticator shows; an OTP of six digits is read, and a backup code
        # lives until it is used: reviewer DD's "MFA backup code (spaced): 719 492")
        ("backup code: 839201", ["839201"]),
        ("MFA backup code (spaced): 719 492", ["719 492"]),
        ("Backup codes: 719492, 118273", ["719492", "118273"]),
        ("Backup codes for the helpdesk hours: 0900-1700, 1300-1800.", []),
        # four or five digits after "backup code" are a backup job's status, a cost's or a disaster recovery's charge
        # code (an attacker's round); a status's code after a comma stays
        ("Veeam backup code 4501 on job nightly", []),
        ("Cost recovery code: 81230", []),
        ("Use disaster recovery code 7720 on timesheets this week.", []),
        ("Login failed, code 403002", []),
        # Hindi's and Bengali's "OTP code", in their own digits (reviewer DE)
        ("आपका ओटीपी कोड ३८४१२०", ["३८४१२०"]),
        ("আপনার ওটিপি কোড ৪১৩০৫৫", ["৪১৩০৫৫"]),
        # a Hindi clause between "OTP" and its code (reviewer DD); not one holding a count
        ("OTP भेजा गया, ग्राहक ने बताया: 366404", ["366404"]),
        ("OTP भेजा गया, 5000 ग्राहकों को: 12000", []),
        ("SMS delivery failed, code 300122", []),
        # An SMS naming its sender before "code"; a code of another kind does not.
        ("Your Amazon code is 839201", ["839201"]),
        ("your uber code 4821", ["4821"]),
        ("Your zip code 94103", []),
        ("your error code 500123", []),
        ("Your promo code is 482913", []),
        # A second attacker's round: only a sender that texts such codes names one.
        ("Please enter your bank code 10020030 (BLZ) on the form", []),
        ("Your NACE code is 4711", []),
        ("Your colour code is 445566 for the brand palette", []),
        ("Your WhatsApp verification code is 482913", ["482913"]),
    ],
)
def test_codes(text: str, values: list[str]) -> None:
    assert found_values(text) == values


_PIECES = (
    "door", " code ", "pin ", "gate", "1234", "#", "\n", "kod ", "código de la puerta: ", "支付密码 ", "536703",
    " ", "x", "alarm", "lockbox: ", "9876*", ".", "-", ",5", "비번 ", "도어락 ", "key ", "entry ", "21",
    "the ", "is ", "a few more words ", "        ", "del ", "3-7-1-9", "4 4 2 1 ",
)  # fmt: skip


def test_access_code_windows_find_what_a_whole_pass_finds() -> None:
    rng = random.Random(7)
    compared = 0
    for _ in range(20_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40)))
        if not accounts._may_name_code(text):
            continue
        compared += 1
        whole = [match.span("value") for match in accounts._ACCESS_CODE.finditer(text)]
        assert [match.span("value") for match in accounts._access_codes(text)] == whole, text
    assert compared > 10_000


_CODE_PIECES = (
    "cvv ", "CVV", " code ", "otp", "TAN ", "tans (", "sms ", "verification code is ", "020", "1234", "551234",
    ", ", " and ", "4 7 3 7 7 5", "\n", "2024", "=", "(", " x ", "kod blik ", "the three digits on the back are ",
    "passcode: ", "12", "-", "9", "security number ", "        ", "a few words here and there ", "código SMS ",
    "7", ".", "1.2", "/", "+", "pushtan ", "bestätigungscode ", "sicherheitsnummer ", "one-time pin ",
    "cryptogramme visuel ", "kartenprüfnummer ", "x" * 150,
)  # fmt: skip


def test_code_windows_find_what_a_whole_pass_finds() -> None:
    """The card-code and one-time-code patterns read only windows before runs of digits (codes.py):
    on random text made of labels, codes, separators and filler they find what a pass over the whole
    text finds."""
    rng = random.Random(13)
    found = 0
    for _ in range(20_000):
        text = "".join(rng.choice(_CODE_PIECES) for _ in range(rng.randint(1, 30))).lower()
        windows = codes._windows(text, list(codes._DIGITS.finditer(Scan(text, ("US",)).canonical)))
        for pattern in (codes._CARD_CODE, codes._ONE_TIME_CODE):
            whole = [match.span("value") for match in pattern.finditer(text)]
            assert [match.span("value") for match in codes._in_windows(pattern, text, windows)] == whole, text
            found += bool(whole)
    assert found > 2_000


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An attacker's round on the codes after their label: ordinary text stays.
        ('<img src="cid:image001.png@01D9A1B2.3C4D5E60">', []),
        ("OTP Bank, 1051 Budapest, Nádor u. 16.", []),
        ("Atestado médico: CID 431, afastamento por 15 dias", []),
        ("CSC 108 Introduction to Programming", []),
        ("HOTP/OTP per RFC 4226", []),
        ("Authorization code flow on port 8080.", []),
        ("OTP not received. Ticket 48213", []),
        ("otp 482913, 1500 ms latency", ["482913"]),
        ("sms code dispatched in 1532 ms", []),
        ("Confirmation code sent to 1500 users", []),
        ("MFA code rollout reached 8000 users", []),
        ("The CVV check failed for 1203 transactions", []),
        ("TAN generator model 3000", []),
        ("Charged 3714 496353 98431 for the March invoice, auth code 0042.", ["3714 496353 98431"]),
        ("2-pin plug, 2500 W; USB-C 24-pin connector, 5000 mating cycles", []),
        ("Arduino pin 2 3 4 5 to the LCD data lines; JTAG pin 1-2-3-4 order", []),
        ("The building code 1 0 0 4 section applies", []),
        # ... and the forms it found missing.
        ("Your OTP:\n482913", ["482913"]),
        ("OTP: 4821 9937", ["4821 9937"]),
        ("otp 48-29-13", ["48-29-13"]),
        ("482913 is your Instagram code.", ["482913"]),
        ("G-482913 is your Google verification code", ["482913"]),
        ("123 is my CVV", ["123"]),
        ("security code (back of card): 123", ["123"]),
        ("CVV*: 123", ["123"]),
        ("C.V.V. 123", ["123"]),
        ('"card": {"exp": "05/27", "cvc": "929"}', ["929"]),
        ("验证码：482913", ["482913"]),
        ("認証コード：９０６１６８（5分間有効）", ["９０６１６８"]),
        ("有効期限 09/26、セキュリティコード 800", ["800"]),
        ("Your Northwind sign-in code is 815423. It expires", ["815423"]),
        ("PUK 48213377", ["48213377"]),
        ("In staging every OTP is 111111; use verification code 123456 for test numbers", []),
        # A BitLocker recovery key: eight groups of six digits, each a multiple of 11.
        (
            "BitLocker recovery key: 198143-613855-488070-011561-254265-562782-459272-182413",
            ["198143-613855-488070-011561-254265-562782-459272-182413"],
        ),
        ("198143-613855-488070-011561-254265-562782-459272-182414", []),
    ],
)
def test_codes_an_attacker_tried(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A second attacker's round: ordinary text stays...
        ("OTP error 4290 means too many requests; OTP service returned 5030", []),
        ("Access code TTL 3600; MFA timeout: 1800; 2FA adoption 8700 of 12000", []),
        ("Encaminhado à cardiologia, CID 4019", []),
        ("SIM card inserted, LAC 1234 CID 5678", []),
        ("Cartão SUS 898 0012 3456 7890, CID 1234", []),  # a health card's number fails Luhn's check
        ("4111 1111 1111 1111 CSC 123", ["4111 1111 1111 1111", "123"]),
        ("CVV failures 1203 yesterday; use any CVV except 999", []),
        ("3-digit code 404 means not found", []),
        ("TAN 1000 Stück; OTP 4821 usuarios; Erlang OTP 2500 processes per node", []),
        ("The code supports one, two, four, or eight lanes.", []),
        ("Code of conduct: rule one, three, five apply to staff.", []),
        ("Le code de la route: deux, trois, cinq points retirés.", []),
        ("WPA2 key: PSK-SHA256; pre-shared key: IKEv2-PSK; Einmalpasswort: 6-stellig", []),
        ("- 📈 Weekly sign-ups 2039 ➡️ 2450 ➡️ 8897 ➡️ 8921", []),
        ("In the bingo game my number is 12 34 56 78 90", []),
        ("my number is 100 200 300 400", []),
        ("Tax ID (EIN) 12-3456789; phone 512 34 5678", ["512 34 5678"]),
        ("his social media handle: @x, follower count 312 45 6789", []),
        ("Lock pin 4 5 6 7", []),
        # ... and forms found since.
        ("Your OTP is\n482913", ["482913"]),
        ("OTP:\n\n482913", ["482913"]),
        ("認証コードは482913です", ["482913"]),
        ("您的验证码为：482913", ["482913"]),
        ("Twój kod weryfikacyjny to 482913", ["482913"]),
        ("Doğrulama kodunuz: 482913", ["482913"]),
        ("482913 is your one-time password", ["482913"]),
        ("TOTP code: 482913", ["482913"]),
        ("CVV no. 123", ["123"]),
        ("the pin is 4 8 2 1", ["4 8 2 1"]),
        ("Haustürcode 4821; digicode : 5930; keybox 7718", ["4821", "5930", "7718"]),
        ("Netzwerkschlüssel: Hx9!kq2Lm7", ["Hx9!kq2Lm7"]),
        (
            "BitLocker recovery key:\n198143-613855-488070-011561-\n254265-562782-459272-182413",
            ["198143-613855-488070-011561-\n254265-562782-459272-182413"],
        ),
    ],
)
def test_codes_a_second_attacker_tried(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_a_line_label_is_read_as_the_pattern_it_replaced_reads_it() -> None:
    """contact._line_label reads back from the colon; the pattern it replaced (tried at each of 50
    starts) gives the same label on random text of label characters, colons, blanks and breaks."""
    import re

    from securemem.pii.contact import _line_label

    pattern = re.compile(r"([^\n:]{1,48}):[ \t]*\Z")
    rng = random.Random(5)
    for _ in range(20_000):
        text = "".join(rng.choice("ab :\n\t:x") for _ in range(rng.randint(0, 80)))
        start = rng.randint(0, len(text))
        match = pattern.search(text, max(0, start - 50), start)
        assert _line_label(text, start) == (match[1] if match else None), (text, start)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A one-time code a clause after its label, the clause opened by what the code is for or how it came.
        ("Il tuo codice OTP per l'accesso con SPID è 078704. Non comunicarlo", ["078704"]),
        ("Die TAN für die Überweisung an Herrn Kaya über 1.250,00 EUR lautet 565591.", ["565591"]),
        ("Ich habe eine pushTAN bekommen, die ich nicht angefordert habe: 844703. Betrug?", ["844703"]),
        ("the verification code they texted me this morning is 482913", ["482913"]),
        ("votre code de confirmation pour le virement de 300 euros est 771204", ["771204"]),
        # The label inside another thing's name, a setting, a count, a meeting, a name.
        ("our OTP vendor contract for the year is 25000", []),
        ("The TAN procedure changed in 2019 and the fee is 1500", []),
        ("OTP codes issued by the new gateway last month: 48213", []),
        ("Verification code emails sent this week: 12034", []),
        ("MFA enrolment by department: 4412", []),
        ("Passcode policy for contractors is 90000", []),
        ("OTP endpoint on staging: 8443", []),
        ("TAN list for the branch office is 3310; Die TAN-Liste für die Filiale ist 3310", []),
        ("Passcode for the zoom meeting tomorrow is 774120", []),
        ("The OTP for the API sandbox is documented in 4412", []),
        ("MFA for contractors was rolled out to 4500", []),
        ("the OTP that we migrated in 2023 is 4096 bits", []),
        ("The OTP rate limit for the API is 3000 per hour", []),
        ("Mr Tan from accounts said the invoice for you is 48213", []),
    ],
)
def test_a_one_time_code_a_clause_after_its_label(text: str, values: list[str]) -> None:
    assert found_values(text) == values
