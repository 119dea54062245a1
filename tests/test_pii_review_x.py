"""Forms from reviewer X's blind round (tests/data/pii_review_x.jsonl: travel and hospitality, front
desks, guest messages, airline and rail chats, booking exports, OCR'd forms; 15 languages; taken as it
came). Each case lists exactly what is found: the ordinary lines beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # References of travel documents: a Turkish ticket's, a German booking's, a handover report's.
        ("THY TK 1858 İstanbul–Barselona, kapı F12, bagaj hakkı 20 kg, bilet no 235 2148663917.", []),
        ("Buchungsnummer 74 2281 6395, Anreise 14.06.2024, Gesamtpreis 1.436,00 €.", []),
        ("km-Stand 58 112, Übergabeprotokoll Nr. 2024-0817-33.", []),
        ("Cep: 0532 614 27 81", ["0532 614 27 81"]),
    ],
)
def test_forms_of_reviewer_x(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Doors', key boxes', keypads' and safes' codes; a card's "sec code"; Arabic "my mobile"; a Wi-Fi
        # key before Thai text and an Arabic password label without its article.
        ("O código da porta é 4\u200b7\u200b0\u200b2 e a senha", ["4\u200b7\u200b0\u200b2"]),
        ("Código del portal: 0719, la llave está en el cajetín, código 5582.", ["0719", "5582"]),
        ("Garage keypad: 7762. Wi-Fi next", ["7762"]),
        ("Rm 7B in-room safe reset to 0415 at guest request.", ["0415"]),
        ("the cottage door uses a keypad: 4 8 1 5 then tick. Bins", ["4 8 1 5"]),
        ("paid w/ Discover 6011 3401 8780 1752, exp 12/25, sec code 390.", ["6011 3401 8780 1752", "390"]),
        ("رقم جوالي ٠٥٤٨٧٢١٠٩٣ وبريدي", ["٠٥٤٨٧٢١٠٩٣"]),
        ("รหัส WiFi: PhuketPalm88! หากมีปัญหา", ["PhuketPalm88!"]),
        ("كلمة مرور الواي فاي: Corniche@2024", ["Corniche@2024"]),
        ("the keypad has 12 keys", []),
        ("keypad 1 2 3 4 5 6 7 8 9 0 layout", []),
        ("pin 1 2 3 4 5 6 7 8 9 0", []),
        ("la porta 3 è chiusa, portal 2024 release", []),
        ("the room safe holds 2 laptops", []),
        ("hotel safe reset to factory code 0000", []),
        ("portal: 8443 (admin)", []),
        ("WiFi: Home-5G is slow", []),
    ],
)
def test_codes_and_keys_of_reviewer_x(text: str, values: list[str]) -> None:
    assert found_values(text) == values
