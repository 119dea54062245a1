"""Reviewer CU's blind round (a mobile operator's stores and porting desk, a payroll and HR outsourcer, a crypto
exchange's compliance and support, a hotel chain's front desk and loyalty programme, a municipal utility's billing, a
SaaS company's on-call notes; 36 languages): each form found missed, as a general case, with the near forms that
must stay as they were."""

from __future__ import annotations

import random

import pytest

from tests.helpers import found_values

_SEED_24 = (
    "unaware mask agree negative meat crystal solar gain beyond excuse brave visual surround refuse verb enhance palm "
    "wonder bind below delay inspire volume portion"
)
_SEED_12 = "liar hurry puzzle few pig daring dice own wreck sun liquid canvas"
_SEED_CAPS = "ADVANCE-CLAY-ONLY-FETCH-WILD-NORTH-CURRENT-POLICE-EXPOSE-VARIOUS-DOG-TRIGGER"
_SEED_CUT = "enfo exte okay dept reso dela indo caug joke rada rhyt fict"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a seed phrase with no label we know, by BIP-39's checksum, in a text about wallets: in Russian, Chinese,
        # Indonesian; in capitals joined by dashes; cut to each word's first four letters
        (f"Клиент прислал сид-фразу в чат поддержки: {_SEED_24}. Переписка скрыта.", [_SEED_24]),
        (f"用户在工单里贴了助记词：{_SEED_12}，已提醒其立即转移资产。", [_SEED_12]),
        (f"Pengguna mengirim frasa pemulihan: {_SEED_12}. Akun dibekukan sementara.", [_SEED_12]),
        (f"backup string from the customer's note app: {_SEED_CAPS}", [_SEED_CAPS]),
        (f"customer wrote his phrase 'in shorthand': {_SEED_CUT}", [_SEED_CUT]),
        # Russian's "code word", a SIM's PUK with its code's word, Mexico's porting NIP, a one-time password of a word
        # and a number
        ("Перенос номера к нам. Кодовое слово: Ромашка1987.", ["Ромашка1987."]),
        ("SIM-kortin PUK-koodi: 33203366.", ["33203366"]),
        ("el cliente recibió su NIP de portabilidad 4314 por SMS, ventana de 24 h", ["4314"]),
        ("Neues Einmalpasswort: Lindenhof-7319, E-Mail folgt.", ["Lindenhof-7319"]),
        # a Hungarian account number by its two check digits, its label after it
        ("Tóth Gábor fizetését a 12077894-21352740-61799842 számlaszámra utaljuk.", ["12077894-21352740-61799842"]),
        # a wallet's private key named in Vietnamese; in hex groups after a wallet's word
        ("khóa riêng tư ví: 78f3e89e2b9f7ec071fa05a8baa42c40257d7a9618f412fd7fc72f7236d3cbf2",
         ["78f3e89e2b9f7ec071fa05a8baa42c40257d7a9618f412fd7fc72f7236d3cbf2"]),
        ("cold-wallet export (paper): EF3D 4A8C BF51 C2EC 3A6D 5EC1 E12B C4FC 1130 DAB8 6403 E9DB C775 BB3E C755 9669",
         ["EF3D 4A8C BF51 C2EC 3A6D 5EC1 E12B C4FC 1130 DAB8 6403 E9DB C775 BB3E C755 9669"]),
        # a token encoded as hex
        ("release bot creds (hex so the scanner shuts up): 6768705f4146705971685469526c6d4e55335a43546b454b67645761"
         "6f3070684a45314c7757577a",
         ["6768705f4146705971685469526c6d4e55335a43546b454b676457616f3070684a45314c7757577a"]),
        # a card's groups under four keys that count them
        ('payload: {"c1": "4929", "c2": "7137", "c3": "2018", "c4": "1583", "exp": "08/27"}',
         ['4929", "c2": "7137", "c3": "2018", "c4": "1583']),
        # (the attacker's round) "PUK-Nr.", "NIP para portabilidad", hex after "0x", a wallet and its key named in
        # Chinese or German
        ("PUK-Nr.: 33203366", ["33203366"]),
        ("NIP para la portabilidad 4314 enviado por SMS", ["4314"]),
        ("creds: 0x6768705f4146705971685469526c6d4e55335a43546b454b676457616f3070684a45314c7757577a",
         ["0x6768705f4146705971685469526c6d4e55335a43546b454b676457616f3070684a45314c7757577a"]),
        ("钱包私钥备份: EF3D 4A8C BF51 C2EC 3A6D 5EC1 E12B C4FC 1130 DAB8 6403 E9DB C775 BB3E C755 9669",
         ["EF3D 4A8C BF51 C2EC 3A6D 5EC1 E12B C4FC 1130 DAB8 6403 E9DB C775 BB3E C755 9669"]),
        ("Geldbörse Schlüssel (Papier): ef3d4a8c bf51c2ec 3a6d5ec1 e12bc4fc 1130dab8 6403e9db c775bb3e c7559669",
         ["ef3d4a8c bf51c2ec 3a6d5ec1 e12bc4fc 1130dab8 6403e9db c775bb3e c7559669"]),
        # a number's word in a porting's clause
        ("Portabilidade aberta para o número (61) 98713-1482. E-mail bia.nogueira@uol.com.br.",
         ["(61) 98713-1482", "bia.nogueira@uol.com.br"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # twelve words of BIP-39's list whose checksum fails, or with no wallet spoken of, or a developer's mnemonic
        "wallet notes, printed on the mug: liar hurry puzzle few pig daring dice own wreck sun liquid window",
        f"the poem: {_SEED_12}",
        "backup: myth like bonus scare over problem client lizard pioneer submit female collect",
        "recovery drill notes: test test test test test test test test test test test junk",
        # a one-time password's label before a setting
        "Einmalpasswort: 6-stellig",
        "Einmalpasswort: SMS-Versand",
        # a code word that gives no password
        "кодовое слово: тайна",
        # Hungarian digits whose check digits fail, or with no account spoken of
        "számla: 12077894-21352741-61799842",
        "rendelés 12077894-21352740-61799842",
        # a wallet's address or transaction in hex groups
        "wallet address hash: EF3D 4A8C BF51 C2EC 3A6D 5EC1 E12B C4FC 1130 DAB8 6403 E9DB C775 BB3E C755 9669",
        "wallet tx: ef3d4a8c bf51c2ec 3a6d5ec1 e12bc4fc 1130dab8 6403e9db c775bb3e c7559669",
        # hex that decodes to no secret, a digest
        "hex: 48656c6c6f20776f726c642c2074686973206973206a7573742074657874",
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        # counted keys of a series, of years, of too few digits
        '{"dose_part1": "4100", "dose_part2": "4105", "dose_part3": "4110", "dose_part4": "4115"}',
        '{"q1": "2024", "q2": "2025", "q3": "2026", "q4": "2027"}',
        # an order's number in a porting's note; a Dutch outage's number
        "Portabilidade do pedido número 98713-1482 concluída",
        "Storing opgelost om 21:47; storingsnummer 240611-0087.",
        "Ordernummer 240611-0087 is verzonden",
        # (the attacker's round) the list quoted in order, a test vector, a demo's; a porting's file number; the SSN's
        # words before a file's number and its year or a product's round dimensions; a mail's word before a host
        "BIP-39 wallet docs, the list starts: abandon ability able about above absent absorb abstract absurd abuse "
        "access accident",
        'wallet PR review: the mnemonic test vector "scheme spot photo card baby mountain device kick cradle pact join '
        'borrow" passes',
        "Portabilidad: el folio número 712 345 678 vence mañana.",
        "F. No. 102/15/2023-IT (SSN) 102/15/2023 circular attached",
        "SS# 316/20/1250 stainless bracket, qty 40",
        "Mail relay: edge-at-fra1.mailgun.eu handles outbound",
        "E-mail campaign landing page: work-at-home.com (affiliate, paused)",
        # ... a Hungarian invoice's number near "számla" (an invoice as often as an account)
        "Számla sorszáma: 54255506-34910650, kiállítva 2024.06.11.",
        # ... lists of ports and counted keys of weeks, a wallet app's digest, an aside that names an identifier
        "ports=4040|8080|9090|3006 (nginx upstream list)",
        'weekly units {"week1": "4312", "week2": "4587", "week3": "3990", "week4": "4006"}',
        "Wallet app v3.2.1 SHA-256: 9f86d081 884c7d65 9a2feaa0 c55ad015 a3bf4f1b 2b0b822c d15d6c15 b0f00a08",
        "Signing key (kid): 2f8c1a0e-7b1d-4c9e-9a1f-6c3e2b7d9f10",
        "WLAN-Schlüssel: Fritzbox-7590 Aufkleber auf der Unterseite",
        # ... Poland's tax number after "NIP", a wallet's address hash in Chinese, hex of text after "0x"
        "NIP: 123-456-32-18",
        "p/w: 0.35 kg per watt",
        "NIP para facturas 5261040828",
        "钱包地址哈希: EF3D 4A8C BF51 C2EC 3A6D 5EC1 E12B C4FC 1130 DAB8 6403 E9DB C775 BB3E C755 9669",
        "0x48656c6c6f20776f726c642c2074686973206973206a7573742074657874",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    "before", ["Seed phrase ", "wallet backup, keep it safe ", "my wallet seed again ", "wallet paper "]
)
def test_a_seed_after_a_word_of_the_list_is_found_whole(before: str) -> None:
    """(the attacker's round) A word of BIP-39's list before a phrase may start a window whose checksum passes too,
    one word short of the phrase's end: forty phrases after each such word are found whole."""
    from securemem.pii import bip39

    rng = random.Random(before)
    words = sorted(bip39.WORDS)
    for _ in range(40):
        while not bip39.checksum_holds(phrase := [rng.choice(words) for _ in range(12)]):
            pass
        seed = " ".join(phrase)
        assert any(seed in value for value in found_values(before + seed))


@pytest.mark.parametrize("between", ["please check ", "Mnemonic words below ", ""])
def test_a_labelled_phrase_of_24_words_is_found_whole_whatever_stands_between(between: str) -> None:
    """(the attacker of the README's promises) The label's reader reads its count of words after the colon: words
    between the label and the phrase pushed its last ones out, until a window whose checksum holds is joined."""
    from securemem.pii import bip39

    rng = random.Random(between)
    words = sorted(bip39.WORDS)
    for _ in range(20):
        while not bip39.checksum_holds(phrase := [rng.choice(words) for _ in range(24)]):
            pass
        seed = " ".join(phrase)
        assert any(seed in value for value in found_values(f"Recovery phrase: {between}{seed}"))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # (the attacker of the README's promises) a card's expiry or code written after its joined groups
        ("4266|3813|5488|4319 exp 08/27", "4266|3813|5488|4319"),
        ("5430:0521:9755:8992 (valid thru 08/27)", "5430:0521:9755:8992"),
        ("Teilnehmernummer: 0151 23456789", "0151 23456789"),
        ("Vertragsrufnummer: 0171 2345678", "0171 2345678"),
        ("Bestellertelefonnummer 0176 23456789", "0176 23456789"),
    ],
)
def test_a_phones_compound_that_starts_like_a_references_still_names_a_phone(text: str, value: str) -> None:
    assert found_values(text) == [value]


def test_a_personal_number_after_its_compound_is_still_found() -> None:
    """A business's "-nummer" compound names a reference; a person's ("Personnummer") is still read."""
    assert found_values("Personnummer 710716-1320") == ["710716-1320"]
