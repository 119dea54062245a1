"""Forms from reviewer R's blind round (tests/data/pii_review_r.jsonl: a personal assistant's memory of
its users' lives, in 15 languages; taken as it came). Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # PINs and the codes of doors, gates, alarms and lockboxes, a few words after their label.
        ("UPI PIN 543410 mat bhoolna", ["543410"]),
        ("PIN do karty mBank: 0674", ["0674"]),
        ("y el PIN del portal es 1215", ["1215"]),
        ("Ring alarm code 0092#", ["0092#"]),
        ("codice cancello: 8575*", ["8575*"]),
        ("the door code for the lockbox is 1668#, got it?", ["1668#"]),
        ("Alarmanlage Code: 20082#", ["20082#"]),
        # Not a PIN: India's postal PIN code, a conference bridge's, a date, a promotion's code.
        ("Indian PIN code 400001 is Mumbai GPO.", []),
        ("Dial-in +1 312 555 0100 PIN 887124#", ["+1 312 555 0100"]),
        ("PIN changed on 2024-05-01", []),
        ("promo code 2024; error code 4040 on the door sensor", []),
        # An account's address and its password after a slash; a Wi-Fi network's key.
        ("TurboTax login sabine1989@proton.me / Chai.1267#", ["sabine1989@proton.me", "Chai.1267#"]),
        ("Spotify: lukas@yandex.ru / lamp-copper-otter17", ["lukas@yandex.ru", "lamp-copper-otter17"]),
        ("mongodb+srv://app@cluster0.example.net/prod?retryWrites=true", []),
        ("Nest Wi-Fi: P@nda@1500*", ["P@nda@1500*"]),
        ("The Wi-Fi: MyHomeNetwork", []),
        # Password labels of other languages: glued after "wifi", Turkish "my password", Korean's short
        # form, Arabic without its article, Spanish "the Wi-Fi's key", an arrow after the label.
        ("家里wifi密码：97D529975D", ["97D529975D"]),
        ("e-Devlet şifrem: velvet-lamp-purple20", ["velvet-lamp-purple20"]),
        ("집 와이파이 비번: Kn736ejao72x", ["Kn736ejao72x"]),
        ("كلمة سر الراوتر: Chai.1353?", ["Chai.1353?"]),
        ("la clave del wifi del depa es meadow-otter-cactus32", ["meadow-otter-cactus32"]),
        ("Amazonのパスワード→!xB45Al02u", ["!xB45Al02u"]),
        ("la clave del problema es la paciencia", []),
        # A wallet's seed after its maker's name; a door lock's code in Korean, Alipay's password; an
        # address, two blanks, then its password alone (not a table's next column of words).
        (
            "Ledger seed: human pen chapter weasel sound pulp field forum hunt problem all office",
            ["human pen chapter weasel sound pulp field forum hunt problem all office"],
        ),
        ("we seed the database with 12 rows", []),
        ("도어락 비번 961494", ["961494"]),
        ("支付宝支付密码 536703", ["536703"]),
        ("HBO (mom's acc) t.moreira@libero.it  Ozzy_599#", ["t.moreira@libero.it", "Ozzy_599#"]),
        ("bob@x.com    Active2024", ["bob@x.com"]),
        # A third attacker's: an Indian address's postal PIN; a date or opening hours after an address;
        # a 20-character key in base64 (27 characters and its "=").
        ("Address: MG Road, Bangalore, PIN 560001", []),
        ("jane@acme.com 2024 03 15", ["jane@acme.com"]),
        ("jane@acme.com 0800 1200", ["jane@acme.com"]),
        ("cfg QUtJQUlPU0ZPRE5ON0VYQU1QTEU=", ["QUtJQUlPU0ZPRE5ON0VYQU1QTEU="]),
        # Left from R's round, closed at the next stop. Emoji between a number's groups.
        ("card number like this: 4951🔹4263🔹6789🔹7103\nexp 11/26", ["4951🔹4263🔹6789🔹7103"]),
        ("cell → 015🙂123🙂1108🙂85", ["015🙂123🙂1108🙂85"]),
        ("030 📱 125 📱 83 📱 157 ✅", ["030 📱 125 📱 83 📱 157"]),
        ("Rated 4 ⭐ 5 reviews, 2024 🏆 2025 season", []),
        ("1🔹 🔹2 and 5 🔹 ", []),
        # A line that names SSNs: each on it, as people say them.
        ("our SSNs for the 1040: me 356 87 9348, Jack Pemberton 557810750", ["356 87 9348", "557810750"]),
        ('"my social is 059 79 0698, and my daughter\'s is 143 31 2905"', ["059 79 0698", "143 31 2905"]),
        # A phone named in Portuguese, Vietnamese; "my number is" in other languages.
        ("telefone do porteiro 11961902487", ["11961902487"]),
        ("sđt anh Minh 0912227066", ["0912227066"]),
        ("mi número nuevo es 612 58 46 18", ["612 58 46 18"]),
        ("il mio numero è 347 123 4567", ["347 123 4567"]),
        ("mi número de pedido es 612 58 46 18", []),
        ("número de pedido 4155552671", []),
        ("número de serie 612 58 46 18", []),
        # The label and its value quoted apart, as two messages.
        ('then in two msgs: "the pw is" … "Hoa_483"', ["Hoa_483"]),
        ("'password:' - 'Kx9#mQ2'", ["Kx9#mQ2"]),
        ('fields = ["password", "user_id"]; set "password" "hunter2x"', []),
        ('"password" ... "changeme"', []),
        # A 2FA backup code alone after its label.
        ("Binance 2FA backup: PSDV-ZSW3-G7P5", ["PSDV-ZSW3-G7P5"]),
        ("nightly backup: 2024-11-30; db backup: nightly-2024", []),
    ],
)
def test_forms_of_reviewer_r(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_a_masked_pin_is_not_found_again() -> None:
    """The mask keeps a PIN's last digits inside its placeholder: a second scrub leaves it as it is."""
    from securemem.pii import Scrubber

    scrubber = Scrubber({"PASSWORD": "mask"}, hash_key=b"k" * 32)
    first = scrubber.scrub("PIN: 536091 and the gate code 8575*")
    assert "536091" not in first.text and "8575" not in first.text.replace("****8575", "")
    assert scrubber.scrub(first.text).text == first.text
