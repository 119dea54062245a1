"""What reviewer AY (a property manager's, a crypto exchange's support desk's, a telehealth service's and
pharmacy's, a car rental group's agents' memories; 20 languages) found: door, gate and intercom codes in
Romanian, Hungarian, Finnish, Russian and Ukrainian, a key box's number before its code; a seed phrase
said after "is", made of BIP-39's words; Persian's login and Wi-Fi password labels; Romanian "resetată
la"; Thai's "at" and "dot" in an address; and what those readers leave alone, after an attacker's round
on them."""

from __future__ import annotations

import pytest

from tests.helpers import found

SEED = "weekend praise heavy inflict oval enact please stuff ready scene comic great"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Codul de la interfon: 2581.", [("PASSWORD", "2581")]),
        ("a kapukód 1935, a kulcs a portán.", [("PASSWORD", "1935")]),
        ("Huoltoyhtiön avainkaapin koodi on 7310.", [("PASSWORD", "7310")]),
        ("просит сменить код домофона, старый 3108 знают", [("PASSWORD", "3108")]),
        ("Код від під'їзду: 4417", [("PASSWORD", "4417")]),
        ("Key is in lockbox #3, code 0622.", [("PASSWORD", "0622")]),
        (f"my recovery phrase is {SEED}, please just move the coins back", [("GENERIC_SECRET", SEED)]),
        ("رمز وای\u200cفای لابی: Baharestan#1402", [("PASSWORD", "Baharestan#1402")]),
        ("رمز ورود به پرتال بیمار: Golnar@1368 (خودش پشت تلفن گفت).", [("PASSWORD", "Golnar@1368")]),
        ("Parola pentru portal resetată la Primavara_2024! — pacienta", [("PASSWORD", "Primavara_2024!")]),
        ("Email ลูกค้า: somsak.j แอท gmail ดอท com ส่งใบเสร็จ", [("EMAIL", "somsak.j แอท gmail ดอท com")]),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # prose after "is": words that are not all BIP-39's, or that do not end their clause
        "the recovery phrase is kept safely offline since nobody should ever write these words down twice anyway",
        "the seed phrase is twelve words long",
        "Codul de la interfon a fost schimbat in 2024",
        "код домофона меняли в 2023 году",
        "Huoltoyhtiön avainkaapin koodi vaihdetaan ensi viikolla.",
        # An attacker's round on these readers: a lock's word with "kode", "koodi", "codul" or "код" names an
        # error's, a product's or a server's status code; a year after the phrase; documented mnemonics; a
        # place "at" a site in Thai.
        "Interfonul nu funcționează, codul de eroare 404 apare pe ecran.",
        "Domofon ne rabotaet: Домофон не работает, код ошибки 502 на панели.",
        "Lock kode 200 betyder OK i API'et.",
        "Alarm på serveren: kode 503 fra load balanceren.",
        "Lock-tiedoston virhe, koodi 409 palautui rajapinnasta.",
        "A kapukód cseréje 2025. március 1-jén lesz.",
        "код домофона 2024",
        "Avainkaappi 129",
        "lockbox #3 has 2 keys",
        "keybox #12, room 4411",
        "The default Hardhat mnemonic is test test test test test test test test test test test junk.",
        "For local testing the Ganache mnemonic is myth like bonus scare over problem client lizard pioneer submit "
        "female collect.",
        "ห้อง lab แอท cmu.ac.th",
        "ดู film แอท netflix.com",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
