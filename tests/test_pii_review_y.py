"""Forms from reviewer Y's blind round (tests/data/pii_review_y.jsonl: the public sector's and law firms'
agents; benefits, tax, immigration and court case notes, legal intake, conveyancing; 14 languages).
Each case lists exactly what is found: the ordinary lines beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # The North American plan's other regions, dialled from the US: Canada's area codes.
        ("EI claim, called from 514-555-0163 (home).", ["514-555-0163"]),
        ("call me at (416) 555-0159", ["(416) 555-0159"]),
        ("call me at 1-416-555-0159", ["1-416-555-0159"]),
        # Only in the plan's own shape (dashes, dots or the area code in brackets): a waybill, a traceroute's
        # hop, three sizes a space apart (an attacker's round).
        ("DHL Express waybill 4417 8820 91. Expected delivery Thursday.", []),
        ("python bench.py --sizes 250 500 1000", []),
        ("Frequencies 438 876 1752 Hz", []),
        (" 3  65.4.51.247  9.871 ms\n 4  * * *", ["65.4.51.247"]),
        # A Swedish number by an address of Sweden's domain, or after "ringde" (called).
        (
            "vårdnadshavare Oskar Nilsson, 070-174 06 19, oskar.nilsson@example.se.",
            ["070-174 06 19", "oskar.nilsson@example.se"],
        ),
        ("Order 0412-334 55 shipped, contact sales@example.de", ["sales@example.de"]),
        ("Beställning 070-123 45 67 skickad, kundtjanst@example.se", ["kundtjanst@example.se"]),
        ("Ondernemingsnummer 0403 170 701, info@example.be", ["info@example.be"]),
        # A German case's reference; an order's number beside a phone, a house's phone, stay phones.
        ("Ihre Anfrage wurde unter der Vorgangsnummer 2024-04-0331 erfasst.", []),
        ("house phone 0161 496 0123", ["0161 496 0123"]),
        ("House: 020 7946 0000", ["020 7946 0000"]),
        ("Bestellnummer 4711, Rückfragen: 030 12345678", ["030 12345678"]),
        # Numbers read out in German and Turkish after the words that name them.
        (
            "Rückrufnummer laut Anruferin: null drei null, sechs acht vier, zwei zwei, neun eins.",
            ["null drei null, sechs acht vier, zwei zwei, neun eins"],
        ),
        (
            "geri dönüş numarası: sıfır beş üç iki, dört iki iki, üç üç, yedi yedi.",
            ["sıfır beş üç iki, dört iki iki, üç üç, yedi yedi"],
        ),
        ("bir iki üç dört beş altı yedi diye saydı", []),
        ("Müşteri numarası: bir iki üç dört beş altı yedi sekiz dokuz.", []),
    ],
)
def test_phones_and_references_of_reviewer_y(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A password right after its label, where the words after it read like the label's clause.
        ("he gave them his NetBank password Koala2024! before hanging up. Referred to bank + Report", ["Koala2024!"]),
        ("Reset online acct, temp pw Rk7#pLw29q – told clmt to change at first login.", ["Rk7#pLw29q"]),
        ("user_id=u-34841 action=password_change result=success mfa=totp", []),
        ("WiFi password WPA2-PSK is required, ask IT.", []),
        ("The password KeePassXC2 database is on the share.", []),
        ("Password Argon2id v19 is our default hash.", []),
        # The Romance languages' adjective after the word; Turkish "its password" (accusative).
        ("Per Fisconline: password iniziale fX7pq2Rz, da cambiare", ["fX7pq2Rz"]),
        ("la password iniziale viene inviata per posta", []),
        ("password iniziale Q3-2024 in fase di revisione.", []),
        ("contraseña provisional de acceso al expediente judicial electrónico: Turia_2023#.", ["Turia_2023#."]),
        ("e-Devlet şifresini telefonda okudu: Kedi.Mavi.42.", ["Kedi.Mavi.42."]),
        # One-time and security codes of more languages; the IRS's Identity Protection PIN.
        ("Bedragaren fick hennes engångskod 914 227.", ["914 227"]),
        ("Klienten mejlade sin BankID-säkerhetskod 9731 – raderat.", ["9731"]),
        ("2023 IP PIN from CP01A letter: 482915 – needed for e-file.", ["482915"]),
        ("l'assuré a lu le code de sécurité reçu par SMS : 741029 (à ne jamais communiquer).", ["741029"]),
        # Codes of letters and digits after a label that names what they open.
        ("DocuSign access code: QX7-44-PLANO.", ["QX7-44-PLANO"]),
        ("Machtigingscode voor intermediair: K9X4-7TQP.", ["K9X4-7TQP"]),
        ("Termin-PIN für die Online-Vorsprache: 7F3K-92QX.", ["7F3K-92QX"]),
        ("PIN dispositivo letto dall'utente: Rb5xQ9tw.", ["Rb5xQ9tw"]),
        ("Government Gateway recovery code HX4T-92KD-7PQA.", ["HX4T-92KD-7PQA"]),
        # Written as a key, or given with a verb (an attacker's round).
        ("DocuSign access code is QX7-44-PLANO.", ["QX7-44-PLANO"]),
        ("Termin-PIN für die Online-Vorsprache lautet 7F3K-92QX.", ["7F3K-92QX"]),
        ("access_code=QX7-44-PLANO", ["QX7-44-PLANO"]),
        ('accessCode: "QX7-44-PLANO"', ["QX7-44-PLANO"]),
        ("Activatiecode: K9X4-7TQP", ["K9X4-7TQP"]),
        ("the access code is required", []),
        ("access code is AES-256", []),
        ("PIN assignment table: GPIO17-GPIO27", []),
        ("On the Pico, pin GP0-GP15 are usable for PWM.", []),
        ("PIN for the dev board: nRF52-DK", []),
        ("backup code: AES-256", []),
        ("activation code: COVID-19 vaccine pass", []),
        ("code d'activation : Windows-11", []),
        ("authorization code: PKCE-S256", []),
        ("access code: Room-204b", []),
        ("the access code for the lab: 10AM-12PM", []),
        ("access code format: XXXX-XXXX", []),
        ("recovery code template ABCD-1234-EFGH", []),
        ("error code: E1234", []),
        # A door's code in one German word, places between.
        ("Zahlencode Nebeneingang Saal B: 2580.", ["2580"]),
        ("Der Zahlencode hat 4 Stellen.", []),
        ("Zugangscode für Raum 1234 bitte beim Empfang abholen.", []),
    ],
)
def test_secrets_of_reviewer_y(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Mail: pieter [apestaartje] example [punt] nl, graag", ["pieter [apestaartje] example [punt] nl"]),
        ("ou par mail m.girard chez example point fr. Cordialement", ["m.girard chez example point fr"]),
        ("je travaille chez Renault depuis 2019, point final.", []),
        ("on dîne chez Paul point barre", []),
        ("Je passe chez paul point de vente Carrefour demain.", []),
        ("Rendez-vous chez nous point de rencontre habituel.", []),
        # A sentence's full stop after a bracketed address ends it.
        ("jane [at] example [dot] com. Thanks", ["jane [at] example [dot] com"]),
        ("pieter [apestaartje] example [punt] nl. Groeten", ["pieter [apestaartje] example [punt] nl"]),
        (
            "my email is owen underscore pritchard at example dot co dot uk",
            ["owen underscore pritchard at example dot co dot uk"],
        ),
        # An address a scan hyphenated at a line's end.
        ("Scanned intake: E-mail: j.kowalczyk@exam-\nple.pl   Imię", ["j.kowalczyk@exam-\nple.pl"]),
        ("see the re-\nport for details", []),
    ],
)
def test_addresses_of_reviewer_y(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_an_address_said_with_an_underscore_gets_the_written_address_token() -> None:
    from securemem.pii.contact import deobfuscate_email

    assert deobfuscate_email("owen underscore pritchard at example dot co dot uk") == "owen_pritchard@example.co.uk"
    assert deobfuscate_email("m.girard chez example point fr") == "m.girard@example.fr"
