"""Forms from reviewer W's blind round (tests/data/pii_review_w.jsonl: casual messaging and classifieds,
chat exports, group logistics, dating and gaming chat, people dodging a marketplace's contact filter; 16
languages; taken as it came). Each case lists exactly what is found: the ordinary lines beside them,
nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Paid or reached by phone number: Bizum, Satispay, BLIK, Portugal's "tlm", Brazil's "zap".
        ("Bizum al 634 902 117 o transferencia", ["634 902 117"]),
        ("Satispay al 340 772 1856", ["340 772 1856"]),
        ("Blik na 698 214 370", ["698 214 370"]),
        ("e o tlm 912 804 337", ["912 804 337"]),
        ("se der erro me chama no (85) 98841-2207", ["(85) 98841-2207"]),
        ("kod BLIK 321713", ["321713"]),
        # A key box's code, also read out with words after it; a door's code in Portuguese, Turkish and
        # German; a digicode's keypad letter.
        ("The key safe by the back door is 0 4 1 9 if you're out", ["0 4 1 9"]),
        ("Keysafe: 2580", ["2580"]),
        ("caja de llaves código 0 9 1 6, y el portal", ["0 9 1 6"]),
        ("cadenas 0 5 8 2", ["0 5 8 2"]),
        ("Senha do portão de pedestres: 1 9 7 3", ["1 9 7 3"]),
        ("kapı şifresi 4 7 1 9", ["4 7 1 9"]),
        ("Code für die Tiefgarage ist 7391, Stellplatz 14", ["7391"]),
        ("digicode 47B29, 3e étage", ["47B29"]),
        # a keypad's letter last: a model's ("5400D") only where the clause names one (locks.py)
        ("the main door code is 2468B and", ["2468B"]),
        ("lockbox model 5400 from Master Lock", []),
        ("The lockbox API returns 4040 on error", []),
        ("our lockbox is in room 1204", []),
        ("key safe: see page 1234", []),
        ("the key safe holds 12 keys and costs 4500", []),
        ("key safe 2 4 6 8 5 units", []),
        # A Wi-Fi network's name and key as a pair.
        ("wifi is PineCabin / s'mores-by-the-fire\nsee you", ["s'mores-by-the-fire"]),
        ("wifi : SFR_7C10 / clef : Oberkampf!Coloc75", ["Oberkampf!Coloc75"]),
        ("wifi is 'Gullhouse_guest' / seagull-morning-77. Checkout 10am", ["seagull-morning-77"]),
        ("Wi-Fi 7 / 802.11be support", []),
        ("WiFi 6E / Bluetooth 5.3", []),
        ("wifi: on / off", []),
        ("wifi is down / out-of-order-again", []),
        # One-time codes in Hinglish and Hindi; a card's "código" and "back code" next to its card.
        ("bhai ek OTP aaya hai 739204, tune kuch order kiya", ["739204"]),
        ("पिन कोड नहीं, ओटीपी है ३८४१२०", ["३८४१२०"]),
        ("ओटीपी है 2024", []),
        (
            "número do cartão é 5453 3350 1122 5019 validade 11/27 código 604, compra",
            ["5453 3350 1122 5019", "604"],
        ),
        ("4945 8073 0215 7365 is the card, exp 10/28, back code 906", ["4945 8073 0215 7365", "906"]),
        ("o código 604 do produto", []),
        ("Pague com cartão. Código do produto: 4410", []),
        ("código de barras 7891234 na caixa", []),
    ],
)
def test_forms_of_reviewer_w(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A WhatsApp chat link's number; "my number" in Arabic; an AWS key id with its secret beside it.
        ("whatsapp wa.me/447700900123 or email", ["447700900123"]),
        ("https://api.whatsapp.com/send?phone=5511998877665&text=oi", ["5511998877665"]),
        ("wa.me/12345 is too short", []),
        ("رقمي ٠١٠٢٣٤٥٨٧٦١ كلمني واتساب بس", ["٠١٠٢٣٤٥٨٧٦١"]),
        (
            "keys: AKIAKYU6LWC3FD67XZ6R / 1zmCcYTk1B3YIX7xvMB3MtDv1GLkaqK7lN52xKAI region eu-west-2",
            ["AKIAKYU6LWC3FD67XZ6R", "1zmCcYTk1B3YIX7xvMB3MtDv1GLkaqK7lN52xKAI"],
        ),
        (
            "AKIAKYU6LWC3FD67XZ6R arn:aws:iam::123456789012:user/some-path-that-is-long",
            ["AKIAKYU6LWC3FD67XZ6R"],
        ),
    ],
)
def test_links_and_pairs_of_reviewer_w(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A lock's code or a PIN asked for, answered by the next message's digits.
        ("[03/02/24, 09:22] Mum: and her alarm code?\n[03/02/24, 09:23] Ollie: 3 6 9 1 then tick", ["3 6 9 1"]),
        ("[05/01/24, 19:41] Dad: and the profile pin?\n[05/01/24, 19:41] Hannah: 2207", ["2207"]),
        ("what's the error code?\n404 not found", []),
        ("which pin?\n17", []),
        ("door code?\n2024-03-01 is when it changed", []),
        ("gate code?\n1234 5678 9012", []),
        ("what's the zip code?\n94107", []),
        ("the pin?\nPin 4 is GPIO", []),
    ],
)
def test_codes_asked_and_answered_of_reviewer_w(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # An attacker's round on this stop's forms: key boxes' sizes, years, models and series; doors' codes
        # changed in a year; one-time codes' volumes and prices; a card's "código" without a card's number;
        # payment apps' orders and references; a football league; Wi-Fi products and settings after "/".
        "We installed the padlock on the back gate in 2019.",
        "The lockbox at the front door is 100 years old.",
        "The key safe on the wall is 120 x 90 x 50 mm.",
        "Padlock 1000 series, brass body, keyed alike.",
        "Master Lock Key Box 5400D Portable Lock Box, 5 keys capacity",
        "lockbox number 4412 was returned to the vendor",
        "padlock on the main gate at 1600 Pennsylvania Ave",
        "Der Code für die Tiefgarage wird ab 2025 geändert.",
        "A senha do portão foi trocada em 2023",
        "Kapı şifresi 2023 yılında değişti.",
        "Average OTP per day: 4500",
        "MFA for the sales team: 1250 licences",
        "Die pushTAN für Firmenkunden ist 1500 mal genutzt worden.",
        "verification code for Brazil: 5511 is the São Paulo prefix",
        "Tarjeta gráfica MSI GeForce RTX 4070, código 4070",
        "Card reader: back code 906 printed on the chassis",
        "Pay via BLIK, order 698214370",
        "Pago con Bizum, pedido 612345678",
        "Ticket about BLIK: 512345678",
        "Liga 1 2023/24: PSG 76 pts",
        "Zapier: Zap 612345678 failed at step 2",
        "Wi-Fi ssid Corp / WPA2-Enterprise",
        "WiFi: Netgear_Orbi / 802.11ax-Tri-Band",
        "Wi-Fi network HQ / Meeting-Rooms-Floor-3",
        "WiFi name Office / guest-network-for-visitors-only",
    ],
)
def test_ordinary_lines_near_this_stops_forms_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("OTP from the bank is 482913", ["482913"]),
        ("TAN aus der App lautet 482913", ["482913"]),
        ("OTP bheja hai 739204", ["739204"]),
        ("sleutelkluis code 4821", ["4821"]),
        ("kod do domofonu 4821", ["4821"]),
        ("codice del portone 4821", ["4821"]),
        ("kapı kodu 4821", ["4821"]),
        ("boîte à clés code 1 9 6 7 (chiffres séparés)", ["1 9 6 7"]),
    ],
)
def test_siblings_an_attacker_found_missing(text: str, values: list[str]) -> None:
    assert found_values(text) == values
