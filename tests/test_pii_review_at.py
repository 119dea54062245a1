"""What reviewer AT (every class the issue names, written as its acceptance suite would be) found, both
ways: a card after words that say it paid, a number grouped as a phone after "form", a phone's label that
goes on in a preposition's words, "password" and "secret" spelt out a letter at a time, an arrow after a
password's label before a value holding "="; and what those readers must leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A reference's word ("user", "order") names the number after it, unless the words between say it paid.
        (
            "user bought with 4245355718729200 from 24.248.17.234",
            [("CREDIT_CARD", "4245355718729200"), ("IP_ADDRESS", "24.248.17.234")],
        ),
        ("order paid by 4245355718729200 yesterday", [("CREDIT_CARD", "4245355718729200")]),
        # A form's number is bare; a number grouped as a phone after "form" is one the form took.
        (
            "Phone numbers from the signup form: 702.731.3468, +44 7700 900245",
            [("PHONE", "702.731.3468"), ("PHONE", "+44 7700 900245")],
        ),
        # A phone's label, then whose or where in a few words after a preposition (a region outside the five).
        ("WhatsApp do fornecedor em São Paulo: (31) 93441-8762", [("PHONE", "(31) 93441-8762")]),
        # A keyword spelt out, its value as it is.
        ("p a s s w o r d : W8%_b%+*V%@v&uM61", [("PASSWORD", "W8%_b%+*V%@v&uM61")]),
        (
            "s e c r e t : 49G1g39461EQQ4vLg8e1w0UK9joCYcGgE55GsLfV75j",
            [("GENERIC_SECRET", "49G1g39461EQQ4vLg8e1w0UK9joCYcGgE55GsLfV75j")],
        ),
        ("P A S S W O R D = hunter2xyz", [("PASSWORD", "hunter2xyz")]),
        # An arrow is the operator, not a word of the label's clause.
        ("PASSWORT (nicht weitergeben) -> dT?$gV@_=vj%@e", [("PASSWORD", "dT?$gV@_=vj%@e")]),
        ("Passwort → K9#x=def12", [("PASSWORD", "K9#x=def12")]),
        # An arrow before a word and a colon is still a word of the label's clause (an attacker's round).
        ("senha → do banco: Kq8!zzP2", [("PASSWORD", "Kq8!zzP2")]),
        ("WiFi password -> guest network: Kq8!zzP2", [("PASSWORD", "Kq8!zzP2")]),
        ("password -> user root: Kq8!zzP2", [("PASSWORD", "Kq8!zzP2")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # References named before their numbers, with words between that do not say it paid.
        "ticket with id 4245355718729200",
        "user with id 4245355718729200",
        "transaction via API 4245355718729200",
        "order 4245355718729200 paid yesterday",
        # An attacker's round on the forms as first written: "paid" alone before an order's id.
        "Order paid: 2023120100166136",
        "order paid order_ref=6200000000497466",
        "Ticket purchased: 2023120100166136",
        # A form's own number; labels that go on about another thing than a phone.
        "Form 4155552671",
        "form: 4155552671",
        "Phone orders from the web shop: 612 345 678",
        "Mobile sales in the north region: 612 345 678",
        "Mobile revenue (FY2023, USD): 612 345 678",
        # ... counts after a longer label: only a number written as one dials (a "+", brackets, a dash).
        "Mobile subscriptions in Germany: 107 412 000",
        "Liga de Fútbol: 1.234.567",
        "Cel przelewu dla urzędu: 1234567890",
        "Numéro de contrat chez AXA: 2 450 000",
        "Contact form: 2 450 000 submissions",
        "Phone survey form: 2024-0315-77",
        # A setting's name and value after a password's label and an arrow.
        "Mot de passe → rounds=10000",
        "Passwort -> Länge=12",
        # A release's sibling a long sentence before it on its line.
        "Firmware version 4.10.2.17 was installed on every edge router in the Berlin, Hamburg and Munich sites "
        "last night; health checks stayed green, no tickets were opened, and the rollback target, if ever needed, "
        "is 4.10.1.9",
        # Letters one at a time that spell no keyword, and a spelt keyword's sentence with no value.
        "a b c d e f : W8%_b%+*V%@v&uM61",
        "r a t i n g s : 5 4 3",
        "p a s s w o r d : required",
        # A docker command's user and group, first in the text.
        "docker run -u app:deploygroup nginx",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
