"""What reviewer BA (a retail bank's mortgage and collections team, a telecom operator's care desk and field
technicians, a software company's on-call team, a travel agency's and a hotel chain's agents' memories; 26
languages) found, after AZ's readers: a password written after what it is of, with no verb ("nuova password
Wi-Fi u*_@4CBO=^5l.", "clave del módem iAE1=g50?I", "пароль от личного кабинета TramontoNM63$", "رمز عبور مودم
MarisolBB20$"); a network device's shared secrets (an SNMP community, a TACACS+ or RADIUS key); Turkish and Swahili
words for a lock's code ("Anahtar kutusu şifresi 7440", "Msimbo wa sefu chumbani: 7032"), a Korean entrance's
code led by "*"; Polish and Swahili words for a phone; and what those readers leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Modem sostituito, nuova password Wi-Fi u*_@4CBO=^5l.", [("PASSWORD", "u*_@4CBO=^5l")]),
        ("titular Matías Ferreyra, clave del módem iAE1=g50?I. Sin servicio", [("PASSWORD", "iAE1=g50?I")]),
        ("код домофона есть, пароль от личного кабинета TramontoNM63$. Мастер будет", [("PASSWORD", "TramontoNM63$")]),
        ("مشترک علی حسینی، رمز عبور مودم MarisolBB20$. قطعی اینترنت", [("PASSWORD", "MarisolBB20$")]),
        ("snmp-server community hUR5SuEzi#YR RO", [("PASSWORD", "hUR5SuEzi#YR")]),
        ("tacacs-server host 10.40.0.5 key fwt%Pf~k#9iWEoaD", [("IP_ADDRESS", "10.40.0.5"),
                                                               ("PASSWORD", "fwt%Pf~k#9iWEoaD")]),
        ("radius-server key 7 Xy8!kP2qLm", [("PASSWORD", "Xy8!kP2qLm")]),
        ("Merhaba! Anahtar kutusu şifresi 7440, alarm şifresi 1640", [("PASSWORD", "7440"), ("PASSWORD", "1640")]),
        ("Msimbo wa sefu chumbani: 7032.", [("PASSWORD", "7032")]),
        ("공동현관 비밀번호 *7013#, 와이파이는 따로", [("PASSWORD", "*7013#")]),
        ("Türcode Lager Nord (Aushang, abfotografiert): ⑨④⑦⑤", [("PASSWORD", "⑨④⑦⑤")]),
        ("Dzień dobry, opłata za roaming. Numer telefonu: 511 032 699. Proszę o korektę", [("PHONE", "511 032 699")]),
        ("Mteja Juma Otieno (mkopo wa nyumba) – simu 0710 821391, tafadhali", [("PHONE", "0710 821391")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # What a password is for, not of; a thing's name without a password's own symbol; a device's defaults.
        "Passwort für den Router FRITZ!Box7590",
        "Password for the discount Spring2024%",
        "La clave del sol 2024",
        "snmp-server community public RO",
        "see the snmp-server community string docs",
        "snmp-server community ReadOnlyCommunity RO",
        # A Turkish or Swahili code word beside another thing's code, a year.
        "Wi-Fi şifresi 2024 yılında değişti",
        "Ürün şifresi 4021.",
        "Msimbo wa posta 00100.",
        # psql's variable, set elsewhere
        "ALTER ROLE payments_rw WITH PASSWORD :'new_pw';",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
