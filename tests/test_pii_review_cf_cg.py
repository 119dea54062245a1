"""Reviewers CF's and CG's blind rounds (schools, research, logistics and field technicians; capital markets, crypto
and small businesses' back offices; 25 and 29 languages): each form found missed or altered, as a general case, with
the near forms that must stay as they were."""

from __future__ import annotations

import hashlib
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.helpers import found_values

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58(raw: bytes) -> str:
    number = int.from_bytes(raw, "big")
    out = ""
    while number:
        number, digit = divmod(number, 58)
        out = _BASE58[digit] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _checked(payload: bytes) -> str:
    return _base58(payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4])


_RANDOM = random.Random(57)
_KEY = bytes(_RANDOM.randrange(256) for _ in range(32))
WIF = _checked(b"\x80" + _KEY)
WIF_COMPRESSED = _checked(b"\x80" + _KEY + b"\x01")
XPRV = _checked(bytes.fromhex("0488ade4") + b"\0" * 9 + bytes(_RANDOM.randrange(256) for _ in range(32)) + b"\0" + _KEY)
XPUB = _checked(
    bytes.fromhex("0488b21e") + b"\0" * 9 + bytes(_RANDOM.randrange(256) for _ in range(32)) + b"\x02" + _KEY
)
BAD_WIF = WIF[:-1] + ("1" if WIF[-1] != "1" else "2")  # its check bytes no longer check
LITECOIN_WIF = _checked(b"\xb0" + _KEY + b"\x01")  # Litecoin's and Dogecoin's version bytes
DOGECOIN_WIF = _checked(b"\x9e" + _KEY + b"\x01")
VPRV = _checked(bytes.fromhex("02575048") + b"\0" * 9 + bytes(32) + b"\0" + _KEY)  # SLIP-132's multisig testnet
_SEED = bytes(_RANDOM.randrange(256) for _ in range(32))
_PAIR = _SEED + Ed25519PrivateKey.from_private_bytes(_SEED).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
KEYPAIR = "[" + ",".join(str(byte) for byte in _PAIR) + "]"  # a seed and its public key, as solana-keygen writes them
SOLANA_SECRET = _base58(_PAIR)
_NOT_A_PAIR = bytes(_RANDOM.randrange(1, 256) for _ in range(64))  # a signature's 64 bytes, or an image's row
SIGNATURE = _base58(_NOT_A_PAIR)
NUMBERS = "[" + ",".join(str(byte) for byte in _NOT_A_PAIR) + "]"
_MARKED = "\u200f052\u200e-\u200e664\u200e-\u200e6054\u200f"  # a phone between right-to-left and left-to-right marks
_JOINED = "ghp_eLcRvqsp', 'fDwzKw18z6R0QH', '4qR9j02o02Zxvm"  # a token's pieces, the junctions between them


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a wallet's private key: WIF (compressed or not) and BIP 32's xprv, by their check bytes
        (f"customer pasted the paper-wallet key to sweep: {WIF}. Told him never to share it.", [WIF]),
        (f"imported key {WIF_COMPRESSED} into electrum", [WIF_COMPRESSED]),
        (f"cold storage: account xprv was pasted in chat – {XPRV} – sweep to a new vault.", [XPRV]),
        # other coins' keys, a multisig cosigner's (an attacker's round)
        (f"Litecoin Core dumpprivkey: {LITECOIN_WIF}", [LITECOIN_WIF]),
        (f"Dogecoin wallet privkey {DOGECOIN_WIF}", [DOGECOIN_WIF]),
        (f"Multisig testnet cosigner Vprv: {VPRV}", [VPRV]),
        # an SSN with a blank each side of its slashes, right after its label; a phone between direction marks
        ("ssn#121 / 06 / 5659 (student worker, payroll)", ["121 / 06 / 5659"]),
        (f"טלפון לקוח: {_MARKED} (הועתק)", [_MARKED]),
        # Solana's keypair file and its Base58 secret where the text names a key, a keypair or an export
        (f"~/.config/solana/payout-keypair.json contents: {KEYPAIR}", [KEYPAIR]),
        (f"Phantom export for the market-maker wallet: {SOLANA_SECRET}", [SOLANA_SECRET]),
        # answers to security questions
        ("security Q&A: mother's maiden name = Kowalczyk; first pet = Mochi", ["Kowalczyk", "Mochi"]),
        ("security question 'first pet' = Rocky, card reader PIN 7887", ["Rocky", "7887"]),
        ("pregunta de seguridad «ciudad de nacimiento de su madre»: Cáceres.", ["Cáceres"]),
        # bank files: NACHA's entry detail, BACS Standard 18, SWIFT MT940's field 25, ISO 20022's Othr/Id
        (
            "payroll.ach\n5200BLUE FERN DENTAL                    1936641711PPDREFUND    251101251101   "
            "1019339180003337\n"
            "6222626601941179753738       0000522530EMP8485        TYRONE ELLIS            0019339180523853\n",
            ["1179753738"],
        ),
        (
            "BACS STD18 record:\n1649350030925309960590465521479000000000301831SALARY JUL           HANNAH BROOKS     ",
            ["00309253", "65521479"],
        ),
        (":20:STMT23040801\n:25:37040044/3892978315\n:28C:00072/001", ["37040044/3892978315"]),
        # (a BIC before the account, with one digit of its own: no placeholder)
        (":20:940S240311\n:25:ABNANL2A/NL26SNSB8994879724\n:28C:12/1", ["ABNANL2A/NL26SNSB8994879724"]),
        ("<CdtrAcct><Id><Othr><Id>4672967160</Id></Othr></Id></CdtrAcct>", ["4672967160"]),
        # countries' own accounts
        ("transferir al CBU 2854957820745379290929 (titular Lucía Fernández)", ["2854957820745379290929"]),
        ("me pasó el CBU para la devolución: 2850594783001649194591. Dice", ["2850594783001649194591"]),
        ("장학금 지급 - 박지훈 학생, 신한은행 110-648-661424 (예금주 본인).", ["110-648-661424"]),
        ("pengembalian UKT, rekening BCA 1507209585 a.n. yang bersangkutan.", ["1507209585"]),
        ("Kurir minta ongkir ditransfer ke BNI 7194077726.", ["7194077726"]),
        ("minta gaji dimasukkan ke akaun Maybank 164065793732.", ["164065793732"]),
        ("Depósito no Banco do Brasil, agência 1282-0 conta corrente 98015-9.", ["98015-9"]),
        ("Zwrot na rachunek nr 34 1050 1445 7797 5879 3944 1682. PESEL", ["34 1050 1445 7797 5879 3944 1682"]),
        ("Реквизиты: БИК 044030653, счёт 40817810081560900129.", ["40817810081560900129"]),
        ("pago a cuenta de ahorros Bancolombia 280-322177-09. Retención", ["280-322177-09"]),
        ("pay invoice via EFT, BSB 033-663, acc 9124 2623.", ["9124 2623"]),
        ("name,routing,account\nOwen Gallagher,027906242,770164571852", ["770164571852"]),
        # a lock that takes a code, its code right after it
        ("alarm code 7889, lockbox 6302 on side door", ["7889", "6302"]),
        ("Intervention plomberie, digicode C6004, 3e étage gauche.", ["C6004"]),
        ("訪問修理：オートロック解除番号 2862、駐車場は来客用2番。", ["2862"]),
        ("שליחויות: קוד השער בבניין הוא 7152, לתאם עם הלקוח", ["7152"]),
        ("Заявка мастеру: код домофона 789К6432, тел.", ["789К6432"]),
        # Wi-Fi keys after a quoted network name, "the Wi-Fi's password"; a login pair ending its sentence
        ("Wi-Fi 'Xfinity61' pass ember-tiger-tiger-cactus. Their public IP", ["ember-tiger-tiger-cactus"]),
        ('POS Wi-Fi SSID "Cafe_POS" key EhDKEYfz8q; router admin', ["EhDKEYfz8q"]),
        ("nenosiri la Wi-Fi Granite-sokol3734.", ["Granite-sokol3734"]),
        ("their accounting login: schroederm@gmail.com / Ykouypha8605@. Remove after filing.", ["Ykouypha8605@"]),
        # a password listed with other fields, a question's answer after it
        (
            "usuario pjnezxzs, contraseña akJibNpGlU#, pregunta de seguridad «ciudad»: Cáceres.",
            ["akJibNpGlU#", "Cáceres"],
        ),
        # exchanges' and node providers' keys
        ("BYBIT_KEY=RkgHLj6ZutFvSAiXsC", ["RkgHLj6ZutFvSAiXsC"]),
        ("alpaca:\n  key_id: PKWXMY03CY8L7Q6Q842U\n", ["PKWXMY03CY8L7Q6Q842U"]),
        (
            'rpc = "https://eth-mainnet.g.alchemy.com/v2/qj9fIDDUJkpFJrF_lyauVEX1qaPk8h4-"',
            ["qj9fIDDUJkpFJrF_lyauVEX1qaPk8h4-"],
        ),
        # a token's pieces in a list joined with nothing
        ("const t = ['ghp_eLcRvqsp', 'fDwzKw18z6R0QH', '4qR9j02o02Zxvm'].join('');", [_JOINED]),
        ("tok = ''.join(['ghp_eLcRvqsp', 'fDwzKw18z6R0QH', '4qR9j02o02Zxvm'])", [_JOINED]),
        # a round of attacks on the README's promises: curly quotes, an answer on the question's next line, a colon
        # after "SSID", a bar between the agency and the account
        ("security question ‘first pet’ = Rocky", ["Rocky"]),
        ("Q: What is your mother's maiden name?\nA: Kowalczyk", ["Kowalczyk"]),
        ('POS Wi-Fi SSID: "Cafe_POS" key EhDKEYfz8q', ["EhDKEYfz8q"]),
        ("Agência: 1282-0 | Conta: 98015-9", ["98015-9"]),
        # a Vietnamese one-time code with "to receive the goods" before it
        ("Mã OTP nhận hàng 086029, mã vận đơn GHN97JVHU.", ["086029"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    found = found_values(text)
    assert all(value in found for value in values), found


@pytest.mark.parametrize(
    "text",
    [
        # public keys and addresses, a key whose check bytes fail, a signature where no key is named
        f"watch-only wallet: {XPUB}",
        "address 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa and 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
        f"typo'd key {BAD_WIF} rejected by the wallet",
        f"tx signature {SIGNATURE} confirmed, exported from the wallet",
        f"secret keypair export: {NUMBERS}",
        # a question asked, a setting, an answer not given
        "Security question: What was the name of your first pet?",
        "The security question is optional.",
        "Security question (optional): Skip.",
        # single digits a text that holds "cbu" (McBurney's point) spaced (a CBU's reader raised on them, and every
        # write of such a text failed)
        "Patient with McBurney point tenderness; pain 7 8 8 9 9 9 8 7 7 6 6 5 5 4 over the day.",
        "CBU: 28 54 95 78 20 74 53 79 29 09 29",
        "Security questions: enabled for all staff",
        "Our first pet was a cat named Mochi; the maiden name is on file.",
        # a lock's model, a product's number
        "Ordered a lockbox 2024 model for the site",
        "The lockbox 1200 series holds 10 keys",
        # a bill's number after Polish "rachunek", a company's account, a bank's phone
        "Rachunek nr 4588127 za usługi dentystyczne, proszę o przelew.",
        # spaced slashes with no SSN's label right before: a plan's revision
        "rev 121 / 06 / 5659 of the plan",
        "TED agendada: banco 341, agência 0412, conta 98321-4 (PJ, fornecedor), valor",
        "신한은행 2024-05-01 방문 예정",
        "transferir al CBU 2854957820745379290928",
        # more than a CBU's 22 digits, whose first 22 pass its checks
        "transferir al CBU 2854957820745379290929123",
        # a list joined with commas, a Wi-Fi name and words
        "const t = ['ghp_eLcRvqsp', 'fDwzKw18z6R0QH', '4qR9j02o02Zxvm'].join(', ');",
        'Wi-Fi "Guest" password is on the fridge',
        # AWS's placeholder id under a key id's name
        "aws_access_key_id: AKIAXXXXXXXXXXXXXXXX",
        # registry numbers, a price, a DOI, a return's and a cost center's numbers, a GLN
        "ООО «Северный Ветер», ИНН 2871830032, КПП 632301001, ОГРН 1864960925120 | Сумма",
        "Faktura VAT | NIP sprzedawcy 686-107-45-23 | REGON 298649814",
        "トヨタ（7203）2844円、ISIN JP3633400001。",
        "see doi:10.1016/j.cell.2024.11.419 (n=329)",
        "Order shipped; RMA 9270 118 275; serial SN PKB2KUT5P8ZH",
        "PO-2025-41701, cost center 0812-354, $12,266.81 incl.",
        "pallet ids PL-7769385321; GLN 4074991394595",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_pair_ends_its_sentence_as_a_login_only_where_a_login_is_named() -> None:
    assert found_values("Send invoices to billing@acme.com / AP-Dept2. Net 30.") == ["billing@acme.com"]
    assert found_values("login: billing@acme.com / AP-Dept2#x. Net 30.") == ["billing@acme.com", "AP-Dept2#x"]


def test_a_banks_phone_is_no_account() -> None:
    assert found_values("신한은행 02-1234-5678 으로 문의") == ["02-1234-5678"]


def test_a_keypair_is_a_seed_and_its_public_key_wherever_it_is() -> None:
    # Read by what it is, not by the words around it: 64 bytes near "secret", "keypair" or "export" are a signature or
    # a lookup table as often (an attacker's round); a seed and its own public key are a keypair with no word at all.
    assert found_values(f"image row 7: {KEYPAIR}") == [KEYPAIR]
    assert found_values(f"row 7: {SOLANA_SECRET}") == [SOLANA_SECRET]
    assert found_values(f"secret keypair: {NUMBERS}") == []
