"""Reviewer CI's blind round (a hospital's, a pharmacy chain's and a wealth manager's agents; 25 languages and
scripts): each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # numbers read out after a word for "call (me back)" in Russian and Swahili, Arabic's comma between the groups
        (
            "Расшифровка автоответчика: перезвоните на плюс, семь, девять три ноль, пять один пять, шесть два, восемь "
            "пять.",
            ["плюс, семь, девять три ноль, пять один пять, шесть два, восемь пять"],
        ),
        (
            "Ujumbe wa sauti: nipigie kwa sifuri saba mbili mbili, mbili saba sita, nane nne mbili tafadhali.",
            ["sifuri saba mbili mbili, mbili saba sita, nane nne mbili"],
        ),
        (
            "اتصل بي على زائد، تسعة ستة ستة، خمسة ثمانية، ثلاثة صفر خمسة، تسعة ثمانية ثمانية ثمانية من فضلك.",
            ["زائد، تسعة ستة ستة، خمسة ثمانية، ثلاثة صفر خمسة، تسعة ثمانية ثمانية ثمانية"],
        ),
        # Catalan's telephone; its password's word and "is"
        ("Barcelona; telèfon 93 828 00 83, correu", ["93 828 00 83"]),
        ("la contrasenya és Calcot#Vermut24", ["Calcot#Vermut24"]),
        # accounts: a wire's beneficiary's, a Swahili bank's, a Tamil label's, a bank's own name before "account",
        # Hungary's three groups of eight and Serbia's 3-13-2 by their check digits, a Norwegian one after words and
        # a colon, a Japanese transfer's branch and ordinary account
        (
            "WIRE INSTRUCTIONS\nBeneficiary bank: JPMorgan Chase, ABA 071000013\nBeneficiary account: 2809440605",
            ["2809440605"],
        ),
        ("Maelekezo ya malipo: akaunti ya benki 1324005267811 (Equity Bank).", ["1324005267811"]),
        ("பணம் திரும்ப: கணக்கு எண் 70814911525304, IFSC IOBA0000123.", ["70814911525304"]),
        ("i-refund sa BDO account 5270-4150-53 ni Aling Nena.", ["5270-4150-53"]),
        ("Refund to my Wells Fargo account 7720193846 please.", ["7720193846"]),
        (
            "Átutalási megbízás: bankszámlaszám 10742369-43694165-30508501, kedvezményezett",
            ["10742369-43694165-30508501"],
        ),
        ("текући рачун за повраћај: 160-1214799669129-28.", ["160-1214799669129-28"]),
        ("Kontonummer for refusjon: 3000.02.42906.", ["3000.02.42906"]),
        ("振込先：渋谷支店（店番135）普通 1993311。", ["1993311"]),
        # secrets: a leet secret's or token's label, Ethereum's hex private key after a word for one
        ("s3cr3t=wcn26n7u2RW74CRsb4bD2cdwgYulACt01K5i", ["wcn26n7u2RW74CRsb4bD2cdwgYulACt01K5i"]),
        ("t0k3n: Zk3p9QmL2xV8rT4wN6yB1cD5", ["Zk3p9QmL2xV8rT4wN6yB1cD5"]),
        (
            "hot-wallet signer key (ETH) 0xad742ced50123cd28e86223c53224ec7fb3f03b4c84e5c1b3670fb07d1948ea9; legacy",
            ["0xad742ced50123cd28e86223c53224ec7fb3f03b4c84e5c1b3670fb07d1948ea9"],
        ),
        # an email whose local part's dots are said as its domain's are
        ("Kontakt: jens punkt oberhuber (at) gmx punkt at", ["jens punkt oberhuber (at) gmx punkt at"]),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "beneficiary account 2809440605 in the CRM",  # no bank named
        "chase account 40817263 for the invoice",  # "chase" the verb
        "SBI a/c serial 4013256789",  # "a/c" is not read beside a bank's name
        "sprint ticket 10742369-43694165-30508501",  # Hungary's groups, no account named
        "bankszámlaszám 10742369-43694165-30508502",  # its check digit does not check
        "račun 160-1214799669129-27",  # nor this one's
        "broj 160-1214799669129-28",  # no word for an account
        "振込手数料 普通 1500円",  # a transfer's fee
        "s3cr3t=hidden",
        "t0k3n: none",
        "tx hash 0xad742ced50123cd28e86223c53224ec7fb3f03b4c84e5c1b3670fb07d1948ea9",
        "public key 0xad742ced50123cd28e86223c53224ec7fb3f03b4c84e5c1b3670fb07d1948ea9",
        "Kontonummer for sak: 3000.02.42907.",  # not Norway's check digit
        "Kontonummer ref: 3000.02.42906",  # a reference's label between
        # the attacker's round on these readers: counts after a bank's name, a receipt's number, Swahili's "piga", a
        # player's name, a public key, a sample's number, a bingo card, a build number
        "HSBC account holders passed 39500000 worldwide",
        "Fiskalni račun broj 003-1187-88 za kafu",
        "Piga hesabu hizi: saba, tano, nane, mbili, tisa, moja, sita",
        "Leaderboard t0k3n: XxSniperKing99xX_Pro",
        "signer key (public) 0x3f5c1d2e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f",
        "public signer key 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",  # the README's round
        "普通 1234567 は見本の番号です",
        "普通預金 1980500 JPY まで",
        "我的号码是 seven two nine four one three eight — that's my bingo card, not a phone.",
        "Bank account module, release for Norway: 2024.06.10346 deployed to prod.",
        "Customer on 01234567890 ledger line",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
