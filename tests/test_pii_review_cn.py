"""Reviewer CN's blind round (an energy utility's, a legal-tech e-signature provider's and a pharmacy marketplace's
agents; 22 languages): each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

SECRET = "yU4RRpGBLwuqRyiAMpYKv7+smTEoE7AjLKiOAx8+x5P803Lp"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a secret's label with an aside in brackets after its compound words
        (f"Webhook-Geheimnis für die Signatur-Callbacks (nur Prod): {SECRET} – bitte löschen.", [SECRET]),
        (f"Webhook-Geheimnis für die Signatur-Callbacks [nur Prod]: {SECRET}", [SECRET]),
        # Thai words glued to a password's label, then words of another script before the colon
        ("รหัสผ่านระบบ SCADA สำรอง: vAsOSFezH$9@Di$x (ห้ามส่งต่อ)", ["vAsOSFezH$9@Di$x"]),
        # an address's dots said in Russian, four numbers shaped as one or named so
        ("адрес шлюза: 62 точка 136 точка 9 точка 64, порт 502", ["62 точка 136 точка 9 точка 64"]),
        ("IP-адрес 10 точка 0 точка 12 точка 7", ["10 точка 0 точка 12 точка 7"]),
        # Japanese's "の" between a phone's groups written in numerals, in katakana too; Russian's dot in capitals
        ("電話番号は〇八〇の三六九七の八四三四とのこと。", ["〇八〇の三六九七の八四三四"]),
        ("電話番号は〇八〇ノ三六九七ノ八四三四です", ["〇八〇ノ三六九七ノ八四三四"]),
        ("電話番号は〇八〇ー三六九七ー八四三四です", ["〇八〇ー三六九七ー八四三四"]),
        ("адрес шлюза: 62 ТОЧКА 136 ТОЧКА 9 ТОЧКА 64", ["62 ТОЧКА 136 ТОЧКА 9 ТОЧКА 64"]),
        # words for "@" and "." of more languages, in brackets (an attacker's round)
        ("ایمیل: ali.rezaei [at] shahr [نقطه] example [نقطه] ir", ["ali.rezaei [at] shahr [نقطه] example [نقطه] ir"]),
        ("пошта: o.kovalenko [равлик] ukr [крапка] net", ["o.kovalenko [равлик] ukr [крапка] net"]),
        ("kontakt: ola.nordmann [krøllalfa] epost [dot] no", ["ola.nordmann [krøllalfa] epost [dot] no"]),
        ("Emel: hajar.yusof [ di ] kedaiubat [ titik ] com", ["hajar.yusof [ di ] kedaiubat [ titik ] com"]),
        # a Discord token whose first joint is written as it is and the second spaced (an attacker's round)
        (
            "token OTEwMzYxMjU0NzM4NjYyNjIw.h4r-k_ . nTQVwP1zVlxMvQYTne03WZpw13d9LlwJxc7IWr",
            ["OTEwMzYxMjU0NzM4NjYyNjIw.h4r-k_ . nTQVwP1zVlxMvQYTne03WZpw13d9LlwJxc7IWr"],
        ),
        # "@" and "." as Malay and Arabic write them, in brackets
        (
            "Emel penjual: hajar.yusof [di] kedaiubat [titik] example [titik] my.",
            ["hajar.yusof [di] kedaiubat [titik] example [titik] my"],
        ),
        (
            "البريد: khalid.q [at] kahraba [نقطة] example [نقطة] sa (مكتوب بهذا الشكل)",
            ["khalid.q [at] kahraba [نقطة] example [نقطة] sa"],
        ),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a clause's numbering and a version with Russian's spoken dot
        "Пункт 12 точка 3 точка 1 точка 4 договора",
        "версия 14 точка 0 точка 1 точка 2",
        # Japanese's "の" in an address's numbers and between words
        "三丁目一の二の三に住んでいます",
        "二〇二四年の三月の一日",
        "特許第六一二三四五六ノ二号",
        "Равлик повзе по саду, крапка дощу впала.",
        # Malay's "di" and "titik" as words, Arabic's "نقطة" as a point of an agenda
        "Saya tinggal di Jakarta dan bekerja di kantor pusat titik temu.",
        "Lihat catatan (di) bawah ini (titik) penting",
        "النقطة الأولى: نقطة مهمة في الاجتماع",
        # a Thai password's label before a place, not a value; a policy's name and a standard's year
        "รหัสผ่านระบบ SCADA สำรอง: ดูในตู้เซฟ",
        "นโยบายรหัสผ่านระบบ ISO 27001: 2022",
        # an aside that names an id's kind; an aside before a colon with no secret after it
        "Token für die Telematik-Schnittstelle [Ticket]: INC0012345678ABCDEF",
        "ラーメン一ー二 セット",
        "Webhook-Geheimnis für die Signatur-Callbacks (nur Prod): siehe Tresor",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
