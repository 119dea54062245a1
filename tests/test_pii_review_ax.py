"""What reviewer AX (a law firm's, a university's, an energy and water utility's and an airline's agents'
memories; 18 languages) found: a "+" number with a time after it, a PIN's longer clause before its verb,
"is still" and its kin between a password's label and its value, an aside between commas after the label,
Swedish "lösenordet", an AWS access key id in groups of four, an address read out with "(dot)", an SSN a
line break cut inside a group, a number read out partly in words and partly in typed groups; and what
those readers leave alone."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SMS from +44 7712 384562 03:17: power off", [("PHONE", "+44 7712 384562")]),
        ("call 020 7946 0958 09:30 tomorrow", [("PHONE", "020 7946 0958")]),
        ("SMS 0161 496 0123 14:05 ok", [("PHONE", "0161 496 0123")]),  # its hour was read as part of it
        ("PIN der beA-Karte des Kollegen lautet 582913 — nicht weitergeben.", [("PASSWORD", "582913")]),
        ("the password for the pool is still Norrsken-Kaffe-14, ask Johan", [("PASSWORD", "Norrsken-Kaffe-14")]),
        ("lösenordet är Norrsken-Kaffe-14", [("PASSWORD", "Norrsken-Kaffe-14")]),
        ("the pw, for the record, is Lantern-Quay-88 — don't paste it", [("PASSWORD", "Lantern-Quay-88")]),
        ("as the vendor wrote it: AKIA LCRT Z6NA PPYT 4JHA", [("AWS_ACCESS_KEY", "AKIA LCRT Z6NA PPYT 4JHA")]),
        ("ASIA-LCRT-Z6NA-PPYT-4JHA", [("AWS_ACCESS_KEY", "ASIA-LCRT-Z6NA-PPYT-4JHA")]),
        ("Vault IP: 78 (dot) 46 (dot) 91 (dot) 130", [("IP_ADDRESS", "78 (dot) 46 (dot) 91 (dot) 130")]),
        ("IP 78 [dot] 46 [dot] 91 [dot] 130", [("IP_ADDRESS", "78 [dot] 46 [dot] 91 [dot] 130")]),
        ("SSN, OCR from the form: 360-4\n3-3477 (the hyphen fell)", [("US_SSN", "360-4\n3-3477")]),
        ("you can reach me at six one seven, 384, 2719, thanks", [("PHONE", "six one seven, 384, 2719")]),
        ("Müşteri numarayı sesli okudu: sıfır beş üç iki, 719 44 83", [("PHONE", "sıfır beş üç iki, 719 44 83")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "build 2024 11 30 12:45 done",
        "order 4155 5526 71 10:30",
        "card retained — reason PIN tries exceeded, txn seq 004187",  # a long clause ends at no verb
        "PIN dan kata sandi aplikasi (Persija1928) ke petugas palsu",
        "the password is still valid",
        "the password, if set, is stored in vault",
        "AKIA THIS IS ABCD EFGH",  # capitals' words, no digit
        "version 1 (dot) 2",
        "order 123-4\n5-6789 shipped",
        "we need one, two, three, 4, 5 of them",
        # five or six words alone are a code's, not a phone's
        "el código que le llegó por SMS, siete siete uno dos cero cuatro.",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
