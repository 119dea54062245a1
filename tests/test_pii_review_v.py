"""Forms from reviewer V's blind round (tests/data/pii_review_v.jsonl: documents copied from PDFs, scans
and emails: invoices, statements, payslips, bills, boarding passes, claim and tax forms, with OCR's and
copy-paste's noise; taken as it came). Each case lists exactly what is found: the ordinary lines
beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # References on documents: SEPA's, a customs tariff's, an insurance policy's, a company's, a parcel's.
        ("EREF: 7723-2024-03 MREF: M-00418832 CRED: DE83ZZZ03751450486     -94,00", []),
        ("Zollanmeldung   Warennummer 8517 13 00 00", []),
        ("Versicherungsschein Nr. 40-7718823-3   Tarif KompaktPlus", []),
        ("Company No. 08812347 — Registered in England & Wales", []),
        ("Kargo Takip No: 7281 4417 33   Gönderi Tarihi 12.03.2024", []),
        ("Parcel ID: PH-2403-77182-LD; dims 40 x 30 x 20 cm", []),
        ("Billete electrónico 075-2419930472   Equipaje facturado 1 x 23 kg", []),
        ("Group Number 0841127   Plan: PPO Choice Plus", []),
        ("Trans Date  Post Date\n02/03  02/05  WHOLEFDS MKT", []),
        ("Router firmware updated from 3.10.2.15 to 3.10.4.2 (release 2024-02-28)", []),
        ("Order #W1183329174 · 3 items · Track at ups.com/track", []),
        ("Mob-0161 422 7991", ["0161 422 7991"]),
        # India's toll-free numbers are dialled without the trunk prefix (ten digits or more).
        (
            "For queries call 1800 97 8520 or write to care@airlink-example.in",
            ["1800 97 8520", "care@airlink-example.in"],
        ),
        ("24x7 Customer Care: 1800 40 8139", ["1800 40 8139"]),
        ("Mileage 1800 2000 km; in 1800 the population was 1800 4000", []),
        ("traffic from 10.0.0.1 to 10.0.0.255", ["10.0.0.1", "10.0.0.255"]),
        # An address hyphenated at a line's end; one-time codes and card codes in Arabic and Turkish;
        # a French Wi-Fi key; a German hotline password.
        ("e-mail j.vand-\nenberg@hotmail.nl, telefoon", ["j.vand-\nenberg@hotmail.nl"]),
        ("Dear Customer, 931600 is the OTP for txn of INR 4,999.00", ["931600"]),
        # (read since reviewer BQ after "şifreniz", a password's label, which covers a full stop after the value as
        # every password label does: "password: 198550. Do not share.")
        ("Tek kullanımlık şifreniz: 198550. Bu şifreyi kimseyle paylaşmayınız.", ["198550."]),
        ("رمز التحقق الخاص بك هو ٢٠٨١٩٢. لا تشاركه", ["٢٠٨١٩٢"]),
        ("تاريخ الانتهاء 08/27 ورمز الأمان 652. شكراً", ["652"]),
        ("Réseau Wi-Fi : Box-MOC6   Clé WPA2 : Lisboa1989!", ["Lisboa1989!"]),
        ("Kundenkennwort für die Hotline: 83PE2%!#Os", ["83PE2%!#Os"]),
        # OCR's "S" for 5 and "B" for 8 inside a number, after one of its digits; not last, not after a
        # group glued to a word (an IBAN's country and its letters), not in a model's or a lap's name.
        ("Employee's Telephone Number (713) 494-8B75", ["(713) 494-8B75"]),
        ("Our records show: 6l6-S5-1641.", ["6l6-S5-1641"]),
        ("please use my card for the deposit: 231S 6942 0427 2l20  expiry 03/26", ["231S 6942 0427 2l20"]),
        # Not where the letter ends a group shorter than a card's (a byte, a seat, a slot: an attacker's round).
        ("Hex dump: 45 00 00 3B 12 34 40 00 40 06", []),
        ("Seats 12B 14B 16B 18 for the board, flight LH 400", []),
        ("Slot 5S 12 34 56 78 in the rack diagram", []),
        ("Tél. cabinet : 01 74 S6 S8 18", ["01 74 S6 S8 18"]),
        ("Direct 801-S22-09S2  Fax 612-955-3339", ["801-S22-09S2", "612-955-3339"]),
        ("IBAN IT14 B050 3420 8959 5440 4216 504", ["IT14 B050 3420 8959 5440 4216 504"]),
        ("IS95 0003 8775 9460 9042 3639 40", ["IS95 0003 8775 9460 9042 3639 40"]),
        ("GPU: RTX 4070S 12GB, 2 x 1TB NVMe, 650W", []),
        ("laps: 10S 20S 30S 40S 50S", []),
        ("Serial SN 12345B678, build 2024.03", []),
        ("Boeing B747-400 seats 416", []),
        ("order 7781 2298 4410B shipped; sizes 100000000B and 2500000S", []),
    ],
)
def test_forms_of_reviewer_v(text: str, values: list[str]) -> None:
    assert found_values(text) == values
