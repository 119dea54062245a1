"""Forms from reviewer T's blind round (tests/data/pii_review_t.jsonl: what the agents of a bank's, an
insurer's and a hospital's service desks save: call transcripts, chat logs, fraud and claim notes, in
8 languages; taken as it came). Each case lists exactly what is found: the ordinary lines beside them,
nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A card's security code after its label, in the desks' languages.
        ("CVV 020 and then", ["020"]),
        ("read out Amex 3786-082144-09744, CID 9921, to pay", ["3786-082144-09744", "9921"]),
        ("cvv ８８６", ["８８６"]),
        ("the three digits on the back are 034. Agent", ["034"]),
        ("Kartennummer 6759 7391 8567 8516 und die Prüfziffer 426 vor", ["6759 7391 8567 8516", "426"]),
        ("Prüfziffer 7 der IBAN; Prüfziffer 426 der Charge", []),
        ("cryptogramme 185, vous", ["185"]),
        ("kod CVC 929.", ["929"]),
        ("cvv=314 HTTP/1.1", ["314"]),
        ("cid 4417 3708 090482 96871", ["3708 090482 96871"]),  # a card's number after "cid", no code
        ("CSC 2024 guidelines", []),
        # One-time codes, TANs, BLIK, passcodes; several after one label.
        ("sowie zwei TANs (027276, 251499) genannt.", ["027276", "251499"]),
        ("kod BLIK 321713 od", ["321713"]),
        ("OTP bhi 186068. Ab", ["186068"]),
        ("my security number is 885227 and", ["885227"]),
        ("passcode 876809 to the agent", ["876809"]),
        ("code de validation reçu par SMS est 504616, c'est", ["504616"]),
        ("código SMS 489506.", ["489506"]),
        ("otp=482913", ["482913"]),
        ("OTP 4 7 3 7 7 5.", ["4 7 3 7 7 5"]),
        ("TAN list 2024", []),
        ("Mr Tan 5551234", []),
        ("the OTP expires in 5 minutes", []),
        ("Error code 500 at 10:30; status code 4040", []),
        ("authorization code flow with PKCE (RFC 7636)", []),
        ("Bridge passcode 67474796. Please", []),
        ("tpl=otp status=FAILED err=30007", []),
        # A PIN at the end of a name ("-PIN"), or ending its sentence.
        ("Online-Banking-PIN 38049 sowie", ["38049"]),
        ("il PIN del bancomat 66145. Operatore: la prego", ["66145"]),
        # Read out in words: a code after what asks for it, a phone named after it, Polish and Hindi digits.
        ("my PIN is seven double three one ok", ["seven double three one"]),
        ("the three-digit code? Caller: zero five three.", ["zero five three"]),
        (
            "¿y el código que le ha llegado? Cliente: dos nueve tres, uno cero cuatro.",
            ["dos nueve tres, uno cero cuatro"],
        ),
        ("the code review has one two three steps", []),
        ("error code one two", []),
        (
            "Caller: it's oh double seven eight three, two double six, five three six, that's my mobile.",
            ["oh double seven eight three, two double six, five three six"],
        ),
        (
            "mój numer to siedem dwa sześć, dziewięć cztery siedem, siedem zero trzy.",
            ["siedem dwa sześć, dziewięć cztery siedem, siedem zero trzy"],
        ),
        (
            "mera mobile hai nau chhe teen zero aath, ek zero ek paanch aath, wahi pe",
            ["nau chhe teen zero aath, ek zero ek paanch aath"],
        ),
        (
            "meu celular é oito um, nove nove sete cinco meia, zero cinco meia três.",
            ["oito um, nove nove sete cinco meia, zero cinco meia três"],
        ),
        ("I do one thing, then do two more", []),
        # A password of two words and a number after "is"; code's attributes stay.
        ("the password I'm using is corinthians.sommer67 -- I wrote it", ["corinthians.sommer67"]),
        ("the password is settings.password", []),
        ("password = self.pw12", []),
        # An SSN after "Tax ID"; a company's registration number is no phone.
        ("Tax ID on file for the 1099-INT: 869124980 (customer", ["869124980"]),
        ("Company reg. no. 04429183; FCA firm reference 122702", []),
    ],
)
def test_forms_of_reviewer_t(text: str, values: list[str]) -> None:
    assert found_values(text) == values
