"""Forms from reviewer I's blind round (tests/data/pii_review_i.jsonl, taken as it came): values it
labels that were missed, each with the hard cases around it. Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ('<td class="contact">noor.saito83<wbr>@<wbr>northbridge-capital<wbr>.com</td>', None),
        ("mail jo&shy;hn.doe@exa&#8203;mple.com", ["jo&shy;hn.doe@exa&#8203;mple.com"]),
        ("customer card 4750 **6495** 1749 2268 was charged twice", ["4750 **6495** 1749 2268"]),
        ("card **4750 6495 1749 2268**.", ["4750 6495 1749 2268"]),
        ("NM1*IL*1*DOE*JANE****34*604755135~", ["604755135"]),  # X12's empty elements are no markdown
        ("**2024** roadmap and **Q3** goals", []),
        (
            "Content-Transfer-Encoding: quoted-printable\n\ncontact lotte.haddad@ayurm=\ned-hospitals.in directly.",
            ["lotte.haddad@ayurm=\ned-hospitals.in"],
        ),
        ("API_KEY=\nDB_HOST=localhost", []),  # a soft line break only where the text names the encoding
        (
            "GET /cb?next=postgres%3A%2F%2Fetl%3AFN3DJRAYaWWfFJIYW0%40db-prod.northbridge.local%3A5432%2Fledger",
            ["etl%3AFN3DJRAYaWWfFJIYW0"],
        ),
        ("see https%3A%2F%2Fdocs.example.com%2Fa%2Fb", []),
    ],
)
def test_what_a_page_or_a_mail_hides_inside_a_value(text: str, values: list[str] | None) -> None:
    if values is None:
        values = ["noor.saito83<wbr>@<wbr>northbridge-capital<wbr>.com"]
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Κωδικός πρόσβασης e-banking (προσωρινός): Θάλασσα114#", ["Θάλασσα114#"]),
        ("[Подключение]\nПользователь=Администратор\nПароль=Солнце_2019!\n", ["Солнце_2019!"]),
        ("パスワードはP@ssw0rd#1です", ["P@ssw0rd#1"]),  # a Latin password glued to the sentence
        ("密码：至少8位", []),  # the sentence goes on: "at least 8 digits"
        ("पासवर्ड: रीसेट", []),
        ("DBユーザー batch のパスワード「zFA9z2lSEYlS!*」で接続確認する。", ["zFA9z2lSEYlS!*"]),
        ("パスワード『zFA9z2lSEYlS!*』", ["zFA9z2lSEYlS!*"]),
        ("パスワード「変更済み」", []),
        ("senha do app redefinida para Granite!velvet75 a pedido do gerente", ["Granite!velvet75"]),
        ("contraseña para el portal: Xyz123!abc", ["Xyz123!abc"]),
        ("Mot de passe provisoire de l'espace client communiqué oralement : Soleil*169 (à changer)", ["Soleil*169"]),
        ("password: &CpbMWz8nQsyRm7xC", ["&CpbMWz8nQsyRm7xC"]),  # not a reference of Rust
        ("fn check(password: &str) -> bool", []),
        ("κωδικός προϊόντος: AB-1234", []),
    ],
)
def test_passwords_of_other_scripts_in_brackets_and_after_longer_labels(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("username netops privilege 15 secret 0 _RDDG9UTG0!i", ["_RDDG9UTG0!i"]),
        ("line vty 0 4\n password 7 0822455D0A16\n login", ["0822455D0A16"]),
        ("the password 7 days\nok", []),
        ("rotate the secret 0 times", []),
    ],
)
def test_router_configuration_passwords(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("kenta.sato アットマーク yahoo ドット co ドット jp", ["kenta.sato アットマーク yahoo ドット co ドット jp"]),
        ("이메일: yujin.choi 골뱅이 naver 닷 com (확인)", ["yujin.choi 골뱅이 naver 닷 com"]),
        ("email hai priya.nair at the rate gmail dot com, bhejna", ["priya.nair at the rate gmail dot com"]),
        ("prices grow at the rate of inflation.", []),
        ("客户邮箱：lina99﹫163.com（请勿外传）", ["lina99﹫163.com"]),
        ("邮箱lina99@163.com", ["lina99@163.com"]),  # the label glued before it is not its local part
        ("用户@例子.广告", ["用户@例子.广告"]),
        ("édouard@exemple.fr", ["édouard@exemple.fr"]),
        ("q@k.transpose(-2, -1)", []),
    ],
)
def test_addresses_spelt_in_japanese_korean_and_indian_english_or_glued_to_labels(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("شماره شبا مشتری IR910712297168336597892749 است.", ["IR910712297168336597892749"]),
        ("?30COBADEFFXXX?31DE29304301291118325461?32ANJA VOGEL", ["DE29304301291118325461"]),
        ("?31DE29304301291118325462?32", []),  # its check digits fail
        ("REF*SY*604755135~", ["604755135"]),
        ("PER*IC*BILLING OFFICE*TE*6193366958*EM*x~", ["6193366958"]),
        ("REF*EA*604755135~", []),  # a medical record number's qualifier
        ("REF*SY*000123456~", []),  # no SSN has area 000
        ("Versione del database: Oracle 11.2.0.4 (patch set 2024Q1)", []),
        ("Oracle listener on 81.2.69.160", ["81.2.69.160"]),
    ],
)
def test_ibans_and_numbers_named_by_their_format(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            'caller: "my social is eight one three, three zero, four three four four" [confidence 0.91]',
            ["eight one three, three zero, four three four four"],
        ),
        (
            'Transcripción: "el número de la tarjeta es cuatro seis siete cuatro, cero cuatro nueve uno, uno dos '
            'tres ocho, siete dos dos cuatro", caduca en agosto.',
            [
                "cuatro seis siete cuatro, cero cuatro nueve uno, uno dos tres ocho, siete dos dos cuatro",
            ],
        ),
        ("my social is nine one three, three zero, four three four four", []),  # no SSN begins with 9
        ("card one two three four one two three four one two three four one two three four", []),  # fails Luhn
        ("the security review covered one two three four five six seven eight nine", []),  # named no SSN
    ],
)
def test_ssns_and_cards_read_out_digit_by_digit(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "Müşteri e-postasını şöyle yazdı: mehmet.sahin et saglik-sigorta nokta com nokta tr — kontrol edilecek.",
            ["mehmet.sahin et saglik-sigorta nokta com nokta tr"],
        ),
        ("Pierre et Marie point com", []),  # French "et" (and): only with Turkish "nokta"
        ("ventes et marketing nokta yok", []),  # no top-level domain at the end
    ],
)
def test_an_address_spelt_in_turkish(text: str, values: list[str]) -> None:
    assert found_values(text) == values
