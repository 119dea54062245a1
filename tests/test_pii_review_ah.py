"""What reviewers AH (Unicode evasions), AI (pasted secrets) and AJ (the world's phones) found missing, and
the ordinary text each new reading must leave alone."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[str]:
    return [text[f.start : f.end] for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Chinese and Japanese numerals written digit by digit ("幺": one, as Chinese dictation says it).
        ("手机号：一三九 六三九九 二〇二九", "一三九 六三九九 二〇二九"),
        ("客户报的手机号：幺九三 幺五七〇 六二五九", "幺九三 幺五七〇 六二五九"),
        ("携帯は〇九〇・一八八八・七八二七です。", "〇九〇・一八八八・七八二七"),
        ("認証コード：五三三六九七", "五三三六九七"),
        # "Code" alone, in a text that says how a one-time code came.
        ("hi, my 2FA isn't working. the code it sent me was 898907\nAgent: Thanks", "898907"),
        ('Parent texted back: "code is 481927". Logged in.', "481927"),
        ("Cliente: ya llegó, el código es 965638\nCliente: y mi", "965638"),
        ("meldet Phishing. Er hat den Code 941845 und sein Kennwort genannt", "941845"),
        ("code: ⁴⁶⁵¹²⁰ ← from the SMS", "⁴⁶⁵¹²⁰"),
        ("user: the code they texted me is 911556\nassistant: Please don't share it", "911556"),
        # A callback number, even in a ticket's or an order's line.
        ("Ticket #77104 | callback number: 404.822.6364 | reason: billing", "404.822.6364"),
        ("Order 77, please call back on 404.822.6364", "404.822.6364"),
        # A password with a dot, said to be one.
        ("pw is gki.TC314f4ji lol don't tell IT", "gki.TC314f4ji"),
        # Labels of more languages: Persian's password, an SSN named in Chinese; a Thai OTP in a sentence.
        ("پسورد: Tehran\u200c1398!\u200cfq — مشتری خودش فرستاد.", "Tehran\u200c1398!\u200cfq"),
        ("社会安全号码：005\u300007\u30003314", "005\u300007\u30003314"),
        ("ลูกค้าส่งรหัส OTP ๕๓๔๕๘๑ มาในแชท", "๕๓๔๕๘๑"),
        # A code's digits one by one with dots between.
        ("OTP 3.8.2.8.3.5 — customer spaced it out", "3.8.2.8.3.5"),
        # A card whose override is closed after it: the closing control goes with it.
        ("Card: 4917 7446 \u202e8360 9959\u202c exp 05/28", "4917 7446 \u202e8360 9959\u202c"),
        # Numbers dictated in Indonesian, Hindi, Russian; Italian's "più" for "+".
        (
            "No HP saya nol delapan satu delapan empat delapan satu nol tujuh empat tujuh satu, ya.",
            "nol delapan satu delapan empat delapan satu nol tujuh empat tujuh satu",
        ),
        ("मेरा नंबर नौ नौ चार एक एक छह आठ नौ आठ शून्य है।", "नौ नौ चार एक एक छह आठ नौ आठ शून्य"),
        (
            "Номер пишу словами: восемь девять девять восемь три восемь восемь семь шесть один ноль.",
            "восемь девять девять восемь три восемь восемь семь шесть один ноль",
        ),
        (
            "Numero: più tre nove tre quattro cinque quattro otto zero due sei zero sette, la sera.",
            "più tre nove tre quattro cinque quattro otto zero due sei zero sette",
        ),
        # A list of keys under a heading that names them: each a provider's name and a random value.
        ("Keys the user gave me today (keep for later):\n- Segment: z6PGV0zu0OgbHJJkZOsMiqHjNCsI2Vir", None),
        ("Claves que me pasó el usuario hoy:\n- Splunk HEC: e0a2ad2d-caae-4402-8ecb-c04acac43a63", None),
        ("ユーザーから今日受け取ったキー：\n- Jenkins: 11a71187776023f247bd8ce85f6765c326", None),
    ],
)
def test_found(text: str, value: str | None) -> None:
    expected = value if value is not None else text.rsplit(": ", 1)[1]
    assert expected in found(text)


@pytest.mark.parametrize(
    "text",
    [
        # Numerals in words, not digits: a year, a count, a list in order.
        "二〇二四年一二月三日",
        "一二三四五六七八九十",
        "三十五人が参加しました",
        # "Code" alone names other codes, or a code no text says came to anyone.
        "SMS delivery failed. Code 300122.",
        "After login, error code is 500123.",
        "The code is 200000 lines; we log in daily.",
        "The zip code is 941103 and I log in daily",
        "the code 500123 means the SMS gateway refused",
        "Our promo code is 482913, sent by SMS to every customer",
        "code freeze until 20240612, sign-in changes wait",
        "The code reviewed in PR 482913 fixed the login page",
        # A dotted name said after "password is": code, not a password.
        "the password is config.DbPassword1",
        "the password is hashlib.sha256",
        # A Thai year of the Buddhist era after "รหัส OTP", a count, a price.
        "รหัส OTP 2567 เปลี่ยนรูปแบบ",
        "ระบบส่งรหัส OTP 1000000 ครั้งต่อเดือน",
        "ค่าบริการรหัส OTP 250000 บาทต่อปี",
        # A status's code where signing in fails; receipts; a period (a fresh attacker's round).
        "I can't log in, the app just says: code 403002. Any idea?",
        "Can't sign in to the banking app — code 100234.",
        "Anmeldung fehlgeschlagen. Code 482913.",
        "Recibo de luz de marzo. Código: 104522.",
        "Reçu de paiement — code 482019.",
        "sms delivery report: code 000123",
        "verification pipeline: code 202401 (Jan 2024 period)",
        # A callback that is no callback number.
        "onSuccess callback: 1048576 bytes received",
        "[INFO] callback: 9823411 events processed",
        "Twilio status callback: 2024031510",
        # Versions after OTP.
        "OTP 2.4.1.1.3 released",
        # A payload's digest named by its algorithm.
        "X-Hub-Signature-256: sha256=11e2732b3eb66eff20aa1049486cc0a8acf1c23d118a5c79e08f7c0331f30b10",
        # A list under a heading that names no keys, items that are no provider's name and value, a
        # heading that is no list's.
        "Build artifacts for today:\n- Segment: z6PGV0zu0OgbHJJkZOsMiqHjNCsI2Vir",
        "Key rotation done (see ticket):\n- Railway: 0bcb3032-98f2-4e55-91c4-8e8d18631e25",
        # Headings that name no keys, or keys that are public or no keys (a fresh attacker's round).
        "Patch notes:\n- Kernel: 9c1185a5c5e9fc54612808977ee8f548b2258d31",
        "Key artifacts:\n- Linux: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "KMS keys per region:\n- us-east-1: 1234abcd-12ab-34cd-56ef-1234567890ab",
        "Primary keys of the rows to delete:\n- Orders: 5f0c8a2e-3b1d-4c6e-9a7f-2d4b6e8f0a1c",
        "Token contract addresses:\n- USDC: 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
        "Keycloak realms:\n- Staging: 7f3e2a1b9c8d4e5f6a7b8c9d0e1f2a3b",
    ],
)
def test_left_alone(text: str) -> None:
    assert found(text) == []


def test_a_webhooks_callback_names_no_phone() -> None:
    """ "callback" ends the line before an address: the address stays an address, not a phone."""
    text = "    - 89.64.197.119/32   # card processor callback\n    - 188.83.76.4/32   # card processor callback (DR)"
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == [
        ("IP_ADDRESS", "89.64.197.119"),
        ("IP_ADDRESS", "188.83.76.4"),
    ]


def test_a_curl_header_is_no_list_of_keys() -> None:
    """A session cookie after curl's "-H" is found as a session's value, never with its name."""
    text = "$ curl 'https://portal.example.de/api/v1/me' \\\n  -H 'cookie: PHPSESSID=yn3s9qqj0p0vsidezmgznme2fp'"
    assert found(text) == ["yn3s9qqj0p0vsidezmgznme2fp"]
