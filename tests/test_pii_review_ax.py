"""What reviewer AX (a law firm's, a university's, an energy and water utility's and an airline's agents'
memories; 18 languages) found: a "+" number with a time after it, a PIN's longer clause before its verb,
"is still" and its kin between a password's label and its value, an aside between commas after the label,
Swedish "lösenordet", an AWS access key id in groups of four, an address read out with "(dot)", an SSN a
line break cut inside a group, a number read out partly in words and partly in typed groups; and what
those readers leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SMS from +44 7712 384562 03:17: power off", [("PHONE", "+44 7712 384562")]),
        ("call (+49) 30 1234567 09:30", [("PHONE", "(+49) 30 1234567")]),
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
        # the attacker's round's positives
        ("PIN for the shared printer on the third floor is 4821", [("PASSWORD", "4821")]),
        ("PIN to the phone I gave my daughter for school: 284619", [("PASSWORD", "284619")]),
        ("the password remains Lantern-Quay-88", [("PASSWORD", "Lantern-Quay-88")]),
        ("Passwort lautet noch immer Hafen&Licht-88", [("PASSWORD", "Hafen&Licht-88")]),
        ("Lösenordet ändrades till Sill&Potatis-8", [("PASSWORD", "Sill&Potatis-8")]),
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
        # An attacker's round on these readers: a national row of numbers before a time is cut to no phone,
        # nor a "+" whose first group is no country's code; a PIN's longer clause is led by what the PIN is
        # of and ends with its value, no year; an aside after "pass" names a ticket; a value that says how a
        # password is kept; capitals' words, years and counts after "ASIA"; a count before a date on the next
        # line; five tokens with typed groups that a count's noun follows.
        "Train 9876 5432 10 12:30 departs from platform 4",
        "Job 0207 9460 958 09:30 finished",
        "Departures +5 0830 0900 09:30 (delayed)",
        "PIN change requests received this quarter: 1250",
        "PIN der Terminals in der Filiale Nord ist 2019 erneuert worden.",
        "PIN des cartes émises par l'agence de Lyon : 2300 cartes au total",
        "Pin on the map for the delivery depot is 1200 Main Street",
        "PIN-Pad-Seriennummern der neuen Terminals lautet 4401 bis 4499",
        "The bus pass, for students, is Zone-2A only.",
        "Your boarding pass, as printed, is Gate-B12 valid.",
        "The password, in the old system, was MD5-hashed.",
        "Passwort ist noch AES-256-verschlüsselt gespeichert.",
        "Lösenordet är BankID-skyddat.",
        "the Wi-Fi password is still WPA2-Enterprise only",
        "password is still SSO-managed (Okta)",
        "ASIA 2021 2022 2023 2024 revenue, restated",
        "ASIA-PACF-2024-SUMR-0001 campaign code",
        "ASIA TOUR 2025 LIVE HALL",
        "kubectl get nodes: ASIA 1A2B 3C4D 5E6F 7G8H pool",
        "Attendees: 7\n22-11-2024 Budget review",
        "Claim no. 601-2\n2-4471 under review",
        "phone lines: six, one, seven, 384, 2719 calls",
        "number of seats: two, one, two, 555, 1234 across the venue",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
