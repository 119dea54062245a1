"""What reviewer AS (an HR and payroll agent's, a travel and expense agent's and an IT helpdesk's memory, in
26 languages) found, both ways: Hungarian's possessive "jelszavam", Italian's "reset to", Romanian's "is"
and "my ... is", Indonesian's "temporary" after a password's label, "palavra-passe ... é"; and an amount's
tail left alone. Then an attacker's round on those readers, and on forms tried and taken out."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Passwords after labels and verbs of other languages.
        ("Helpdesk chat: a jelszavam: P@ssw0rd71! . Hívjatok", [("PASSWORD", "P@ssw0rd71!")]),
        ("#71542 Sblocco account: password reimpostata a Bangkok@2026*, scadenza", [("PASSWORD", "Bangkok@2026*")]),
        ("Chat suport: Parola mea e Printemps@2026# , am schimbat-o ieri.", [("PASSWORD", "Printemps@2026#")]),
        ("Reset kata sandi: kata sandi sementara Zomer2026! , sudah dikirim", [("PASSWORD", "Zomer2026!")]),
        (
            'Chat com o suporte: "A minha palavra-passe do Teams é Lantern-quartz-65-pixel e deixou de funcionar.',
            [("PASSWORD", "Lantern-quartz-65-pixel")],
        ),
        # What the forms tried first hid (an attacker's round): a card after a small number and its name, a
        # password after "=" glued to a host's name, a phone after an amount-like "1,555.12...".
        ("Card #2 645428 2497146235", [("CREDIT_CARD", "645428 2497146235")]),
        ("password for root on db1= Rosa0604$", [("PASSWORD", "Rosa0604$")]),
        ("tel 1,555.12.34.5678", [("PHONE", "555.12.34.5678")]),
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
        # An attacker's round on the forms tried first (taken out or narrowed since): dates, amounts and
        # quantities after a card's name read as a card's groups; a variable's name after "$" in a URL; a
        # status after Hungarian's labels; a security mode, a rule after Italian's, Romanian's, Indonesian's.
        "Fizetés bankkarte 2022 09 15 05 01  1 733 Ft",
        "Mastercard ending 4643  03 05  884 15",
        "Gift card 38 13 2  84 94  791 49",
        '$dsn = "mysql://root:$dbPassword2024@localhost/app";',
        "export DATABASE_URL=postgres://app:$pgPass2024@db:5432/app",
        "jelszava: lejárt",
        "A jelszavam: elfelejtettem",
        "Jelszót: Elfelejtette?",
        "La password di rete è impostata a WPA2-Personal",
        "Parola ta e Prea-scurtă",
        "Masukkan kata sandi baru Minimal8karakter",
        "Invoice 2024001234, no. 0171 2345678",
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
