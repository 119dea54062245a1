"""What reviewer AS (an HR and payroll agent's, a travel and expense agent's and an IT helpdesk's memory, in
26 languages) found, both ways: card numbers a receipt's OCR split where it liked, after the card's name;
Hungarian's possessive "jelszavam"; Italian's "reset to", Romanian's "is" and "my ... is", Indonesian's
"temporary" after a password's label; a URL's password that opens with "$"; a password ending in "=" before
more words; a phone after another kind of number and its own long value; and an amount's tail left alone."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A card after its name, in the groups a receipt's OCR made.
        ("Platba kartou: 256 07  2 8063171288\nAUT. KÓD 683998", [("CREDIT_CARD", "256 07  2 8063171288")]),
        ("クレジットカード 54 590  0992 3654103\n承認番号 871034", [("CREDIT_CARD", "54 590  0992 3654103")]),
        ("BANKKÁRTYA: VISA 41 55796  0 04866123\nENGEDÉLYSZÁM: 179344", [("CREDIT_CARD", "41 55796  0 04866123")]),
        # Passwords after labels and verbs of other languages.
        ("Helpdesk chat: a jelszavam: P@ssw0rd71! . Hívjatok", [("PASSWORD", "P@ssw0rd71!")]),
        ("#71542 Sblocco account: password reimpostata a Bangkok@2026*, scadenza", [("PASSWORD", "Bangkok@2026*")]),
        ("Chat suport: Parola mea e Printemps@2026# , am schimbat-o ieri.", [("PASSWORD", "Printemps@2026#")]),
        ("Reset kata sandi: kata sandi sementara Zomer2026! , sudah dikirim", [("PASSWORD", "Zomer2026!")]),
        (
            'Chat com o suporte: "A minha palavra-passe do Teams é Lantern-quartz-65-pixel e deixou de funcionar.',
            [("PASSWORD", "Lantern-quartz-65-pixel")],
        ),
        # A password that ends in "=" before more words; one that opens with "$" in a URL.
        ("Also reset Okta password to S_LOw%*ZZNuN+^1= and re-enrolled SMS", [("PASSWORD", "S_LOw%*ZZNuN+^1=")]),
        (
            "Connection used by the payroll export: amqp://edi_bridge:$c_IsB935hBvz835@mq.kfg-ops.net:5672/%2F",
            [("URL_CREDENTIALS", "edi_bridge:$c_IsB935hBvz835")],
        ),
        # A phone after a device's IMEI and its number.
        ("Lost company iPhone. IMEI 359993152001593, number 07970 491238. Remote-wiped", [("PHONE", "07970 491238")]),
        # What the new forms must not take: "e" is "and" in Portuguese, after a password's verb.
        (
            "Cliente (chat): a senha do app é tottenham13 e o cartão é 4514 1628 0050 2360, vê",
            [("PASSWORD", "tottenham13"), ("CREDIT_CARD", "4514 1628 0050 2360")],
        ),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # An amount's tail before a reference (its "001.87 747..." dials as a toll-free number after "00").
        "6300  AG-Anteil SV                  703,001.87  747-38-658",
        "amount 1,001.87  747-38-658",
        # Numbers beside a card's name that make no card; variables in a URL's password.
        "card ending 12 34, paid 56 78",
        "Visa card, 2 items, 10 20 30 40",
        "postgres://user:$DB_PASSWORD@db.internal/app",
        "postgres://user:$dbPassword2@db.internal/app",
        # A password's label then "and" in Italian and German.
        "la password e il nome utente sono nel vault",
        "Passwort und Benutzername stehen im Tresor",
        # A reference's name before its own short number still names the phone-shaped number after it.
        "Order number for Q3 2024 run: 415-555-2671",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []


def test_a_phone_after_a_number_in_a_csv_row_is_still_found() -> None:
    # The amount rule reads a comma before three digits and two decimals only: an id's cell before a phone stays.
    assert found("586589,07970 491238,x") == [("PHONE", "07970 491238")]
