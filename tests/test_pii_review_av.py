"""What reviewer AV (a retail bank's and a telecom's agents' memories: call notes, fraud cases, number
porting and SIM swaps, and their engineers' runbooks, configs and logs; 16 languages) found, both ways:
national numbers of countries outside the configured regions that the text itself names (by a "+"
number, an IBAN, an address's country domain or its language) right after a phone's word, a Chinese
mobile's eleven bare digits in a text about phones; and what those readers leave alone (references,
amounts, orders and accounts, postcodes, the attackers' earlier strings in tests/test_pii_review_*)."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Cliente Lucía Fernández Ortega llama desde 650 773 803; quiere cambiar la domiciliación a "
            "ES10 2038 6724 6486 1331 4860.",
            [("PHONE", "650 773 803"), ("IBAN", "ES10 2038 6724 6486 1331 4860")],
        ),
        (
            "Klientka prosi o zmianę numeru do autoryzacji SMS na +48 568 321 484. Stary numer: 611 857 383.",
            [("PHONE", "+48 568 321 484"), ("PHONE", "611 857 383")],
        ),
        ("Przeniesienie numeru 550 151 923 do Veltro, termin 7 dni.", [("PHONE", "550 151 923")]),
        ("Portabilidad entrante del 605 84 92 98 (titular Marta).", [("PHONE", "605 84 92 98")]),
        ("携号转网：用户18497278985申请转入，授权码 582913。", [("PHONE", "18497278985")]),
        ("Klient: telefon komórkowy 611 857 383", [("PHONE", "611 857 383")]),
        ("Chiamata: 347 123 4567 per il cliente", [("PHONE", "347 123 4567")]),
        # A password after what it is for, made of a name, digits and a symbol or a few letters; after an
        # Italian preposition that lost its vowel, a Polish or a Russian one.
        (
            "ha comunicato la password dell'home banking Martina2011!. Password resettata.",
            [("PASSWORD", "Martina2011!.")],
        ),
        ("hasło do bazy testowej Pierogi2023!, użytkownik test_app.", [("PASSWORD", "Pierogi2023!")]),
        ("пароль от интернет-банка Zenit2008! — заблокировали доступ", [("PASSWORD", "Zenit2008!")]),
        # An authenticator's seed after its label, in groups of four or not.
        ("TOTP seed: TX4I2SVMBLYXPSARHD6Q4LNZCX2DAZTW", [("GENERIC_SECRET", "TX4I2SVMBLYXPSARHD6Q4LNZCX2DAZTW")]),
        (
            "TOTP secret as shown in the app: VM43 Y62I GITA VI2U Q727 PCAT 2FQU UX65",
            [("GENERIC_SECRET", "VM43 Y62I GITA VI2U Q727 PCAT 2FQU UX65")],
        ),
        # HMAC's hash names the signing key's algorithm, not a digest of it.
        (
            "Webhook signed with HMAC-SHA256; signing secret: "
            "a5c89c1d982544c698af85257bbe5d14e09cce515f1fdcaeaf8d96f2882be9b5. Verify the header.",
            [("GENERIC_SECRET", "a5c89c1d982544c698af85257bbe5d14e09cce515f1fdcaeaf8d96f2882be9b5")],
        ),
        # An aside in brackets that holds a verb: the label's clause does not start inside it (its "is" was
        # taken for the label's verb); the network's name in brackets after a password is no password.
        (
            "PW (careful, there is an invisible char in it from the PDF): Sonne\u200bnblume!87",
            [("PASSWORD", "Sonne\u200bnblume!87")],
        ),
        ("wifi password is ember-meadow-falcon-37 (network: NETGEAR42)", [("PASSWORD", "ember-meadow-falcon-37")]),
        # An SSN's label dotted as an acronym.
        ("S.S.N.: 546 55 7647", [("US_SSN", "546 55 7647")]),
        # A password option and its value as two items of an argument list.
        (
            'command: ["redis-server", "--requirepass", "Matjesbroetchen77"]',
            [("PASSWORD", "Matjesbroetchen77")],
        ),
        # The phone, not the postcode beside it.
        (
            "Celular (11) 98742-3160; endereço Rua Haddock Lobo, 595, São Paulo – SP, 01414-001.",
            [("PHONE", "(11) 98742-3160")],
        ),
    ],
)
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # A number its words give to an invoice, an account, an order, a transfer, an amount.
        "Faktura nr 611 857 383, klient zadzwoni jutro.",
        "Klient podał numer konta 611 857 383 przez telefon.",
        "Zamówienie 611 857 383 — klient dzwonił dwa razy",
        "Cliente pidió SIM nueva. Transferencia de 612 345 678 hoy.",
        "Llamada de 612 345 678 € pagada, cliente llama mañana",
        "Portabilidad: pedido 612 345 678 aprobado",
        "Llamada del siniestro 612 345 678",
        "chiamata della pratica 347 123 4567",
        # "№" reads "No": any reference's number.
        "Заказ № 8 (495) 318-42-76",
        # An elided preposition is no password; a release's name after what it is for; a digest; an OTP's setting.
        "Operatrice: grazie, e la password dell'home banking non me la dica.",
        "reset the password for the laptop Windows10.",
        "password for the VPN Office2019.",
        "sha256 of the token: 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
        "TOTP key: rotate monthly",
        # What an attacker's round on these readers found them taking: counts, orders, invoices, lotteries
        # and batches after a call's, an operator's, a SIM's or a number's word; Chinese references; names of
        # products and events; accounts, keys and paths quoted after a password's clause; a label's line
        # about a token's kind; hardware keys' serials; digests an HMAC or a stop set apart.
        "Llamadas recibidas: 912 345 678 en el primer trimestre del año.",
        "Pedido número 612 345 678 enviado el lunes.",
        "Número 612 345 678 de la lotería del Niño.",
        "SIM 612 345 678 del lote de tarjetas del proveedor.",
        "El operador logístico 612 345 678 entrega mañana.",
        "Zamówienie numer 512 345 678 zostało wysłane.",
        "Zadzwonił kurier, paczka numer 712 345 678 jest w drodze.",
        "Klient: Telefonrechnung Nummer 512 345 678 ist offen.",
        "会员号码：13912345678，请核对电话。",
        "手机型号 13912345678 的配件。",
        "携号转网：工单 13912345678 处理中。",
        "What's the password for the printer Canon2019?",
        "Season pass for the festival Coachella2024!",
        "password for the phone Redmi12c",
        "la parola del giorno Ciao2024!",
        'password for the user = "svc-backup-01"',
        'Password for the vault path = "secret/data/app-1"',
        'password for the keystore alias: "release-key2024!"',
        "Token usage by build:\nbuild-20240315-AbCdEf123456",
        "Password hint:\nMyFirstDogsName1999",
        "2FA key fob serial: YKCQ2345RSTUVWXY",
        "TOTP key vault name: ProdMfaVault2345",
        "MFA seed: test user mail 2345",
        "HMAC-SHA256 of the api token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "Checksums (sha256); token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "Phone models (2023)\nsee the list below",
        # A second attacker's round: amounts and counts in Chinese, a form's fields described in brackets, HMAC
        # signatures (digests), a year in brackets, events and sales, UI strings and examples quoted, words run
        # together below a label, a base32 run of one letter, what a number is said to be after it, psql's
        # "--password" (it asks; a database's name follows).
        "手机市场规模达 15000000000 元，同比增长。",
        "来电量 13600000000 次。",
        "Password (optional): blank",
        "Passwort (Pflichtfeld) = erforderlich",
        "Computed HMAC-SHA256 signature: 5d41402abc4b2a76b9719d911017c592",
        "Telefon (2023)\n3 456 Anrufe",
        "Password for the discount Spring2024%",
        "senha do evento Carnaval2025!",
        "password of the month Winter2023!",
        'password for the SQL query = "SELECT*1"',
        'password for the label = "Enter#Pwd1"',
        "otp key: AAAAAAAAAAAAAAA2",
        "Contato: 3003 4000 é o ramal interno da operadora.",
        "subprocess.run(['psql', '--password', 'ledger2024'])",
        'args: ["docker", "run", "-p", "8080:80", "nginx"]',
        "otp secret: ABCDEFGHIJKLMNOP",
        # Brazil's postcodes: five digits, a dash and three.
        "Agências: CEP 01310-100 (Av. Paulista), 22021-001 (Copacabana), 30130-010 (Belo Horizonte).",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
