"""Reviewer CQ's blind round (an insurer's claims desk's, a SaaS developer-relations team's and a school district's
agents; 33 languages): each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

# 64 bytes, random: no Ed25519 seed and its key
BYTES = (
    "[41,197,1,51,130,127,36,74,48,188,241,82,50,166,41,8,135,199,81,130,104,19,161,81,192,158,239,225,84,253,111,49,"
    "211,52,0,189,151,56,243,229,67,246,178,86,159,128,245,182,201,153,137,177,203,18,161,124,202,206,96,98,244,76,93,"
    "222]"
)
HEX = "0x9580da7238e0356856c37bb4f675683cac7f442dec1251171c61c48e23ce323f"
NATO = (
    "Alfa Kilo India Alfa Kilo Echo Yankee Juliett three three seven Bravo Victor Juliett Whiskey Yankee Uniform "
    "Alfa Victor five"
)
QP = (
    "Content-Transfer-Encoding: quoted-printable\n\n"
    "Merci de r=C3=A9pondre =C3=A0 elodiefon138=40laposte.net avant lundi."
)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a Solana keypair's 64 bytes named so, whatever they hold; a Hardhat network's accounts
        (f"Solana keypair the customer attached (id.json): {BYTES}", [BYTES]),
        (f'networks: {{ sepolia: {{ url: process.env.RPC_URL, accounts: ["{HEX}"] }} }}', [HEX]),
        # Spanish's "that they call her at", digits read out
        ("La persona asegurada pide que la llamen al seis uno cinco, ocho seis cuatro, cero dos cero, por la tarde.",
         ["seis uno cinco, ocho seis cuatro, cero dos cero"]),
        # Tamil's mobile; Basque's telephone
        ("பெற்றோர்: கார்த்திக் சுப்பிரமணியன், கைபேசி 072 877 8016, மாணவர் எண் JF/4482/652", ["072 877 8016"]),
        ("Bezeroaren oharra: deitu du. Telefonoa: 944 685 723. Helbidea: Autonomia kalea 28.", ["944 685 723"]),
        # Norway's dotted account after a bare "konto"; Poland's NRB after it
        ("Erstatning utbetales til konto 9710.44.18264.", ["9710.44.18264"]),
        ("przelew na konto 71 1050 1445 8167 5074 4022 3466", ["71 1050 1445 8167 5074 4022 3466"]),
        # an IBAN's groups in a CSV's cells
        ("iban_1,iban_2,iban_3,iban_4,iban_5,iban_6,bic\nDE65,3703,0624,0961,2084,16,COBADEFFXXX",
         ["DE65,3703,0624,0961,2084,16"]),
        # a card's group in a code span between its others
        ("card on file: **4663** *2728* `9130` 6925 (typed in markdown)", ["**4663** *2728* `9130` 6925"]),
        # a value written backwards, the line saying so
        ("reversed so no alert: 8w8lSc7a6QmueE6DdYKCFiMG_evil_ks.", ["8w8lSc7a6QmueE6DdYKCFiMG_evil_ks"]),
        ("Il paziente ha scritto l'email al contrario nel modulo: ti.orebil@78.elisab.g (va letta da destra).",
         ["ti.orebil@78.elisab.g"]),
        # a key read out in the radio alphabet
        (f"caller read the access key as: {NATO}", [NATO]),
        # quoted-printable's "@"
        (QP, ["elodiefon138=40laposte.net"]),
        # (the attacker's round) a card's word in the language of the word for "reversed"; Hardhat's accounts one a
        # line and after another item, Truffle's privateKeys, ethers' Wallet; quoted-printable's "=2E" and Latin-1
        ("card наоборот: 9150238127910264", ["9150238127910264"]),
        (f'accounts: [\n  "{HEX}"\n]', [HEX]),
        (f'accounts: [process.env.PK_1, "{HEX}"]', [HEX]),
        (f'new HDWalletProvider({{ privateKeys: ["{HEX}"], providerOrUrl: RPC }})', [HEX]),
        (f'const wallet = new ethers.Wallet("{HEX}", provider)', [HEX]),
        ("Merci de r=C3=A9pondre =C3=A0 elodie.fontaine=40laposte=2Enet", ["elodie.fontaine=40laposte=2Enet"]),
        ("Gr=FC=DFe, bitte an k.meyer84=40web.de antworten", ["k.meyer84=40web.de"]),
        ("Lønn går til kontoen 9714.86.79839", ["9714.86.79839"]),
        ("Sakelakoa: 688 913 204", ["688 913 204"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a PEM block whose body is a placeholder
        "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n(never paste the real key into an issue)",
        "-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----",
        # 64 bytes named no keypair; a transaction's hash
        f"sha512 digest bytes: {BYTES}",
        f'tx: "{HEX}"',
        # Spanish's "be named"; Tamil's mobile before a sales figure
        "El perro se llama Toby y come dos veces al día.",
        "கைபேசி விற்பனை 1290000 ரூபாய்",
        # a donation account's number after "Konto"; Norway's shape failing its check digit
        "Konto: 5550 1234 9 ist das Spendenkonto, BLZ 37020500",
        "konto 9710.44.18265",
        # cells that make no IBAN
        "code,a,b\nAB12,3456,7890",
        # "reversed" inside a word, dates and releases near the word
        "Sorted in reverse: 2024-03-15, 2023-11-02, version 1.2.3",
        "The unreversed list: 8w8lSc7a6QmueE6DdYKCFiMG_evil_ks",
        # radio-alphabet words as names of teams
        "the teams: Alfa Bravo Charlie Delta Echo Foxtrot squads meet at nine",
        # "=40" outside quoted-printable text
        "width=40px.test and x=40abc.com",
        # (the attacker's round) ids, tickets and invoices after "reverse"; a count named a file "*_id.json"; Basque's
        # phone as a device before figures; "llamarla" in code; a placeholder in capitals (a key's first characters,
        # however few, are read as the key); one escape of a high byte in an env file
        "Ticket numbers in reverse: 4021 4020 4019 4018",
        "Sorted orders in reverse: ORD-2024-309167",
        "Postcodes listed backwards: 48222 90015 44520",
        f"Bayer dither matrix (dither_id.json): {BYTES}",
        "keypair.json in the fixtures is a placeholder: [" + ", ".join(map(str, range(64))) + "]",
        "Mugikorra 5G, 6.1 hazbete, 128 256 512 GB aukerak.",
        "Hay que llamarla con 3 argumentos: 469 524 269",
        "-----BEGIN PRIVATE KEY-----\nREDACTED\n-----END PRIVATE KEY-----",
        "color=FF0000; width=40px.test",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_key_cut_into_words_is_still_a_key() -> None:
    # An EC key's base64 cut into pieces that read as words (the attacker's round): longer than any placeholder.
    body = "Mhc cqqe eib kg yg zk qd wn zh gbk xx eeib poo ik hhq gko zi zj aw eho uqd qga eq ms zn ue kxd"
    block = f"-----BEGIN EC PRIVATE KEY-----\n{body}\n-----END EC PRIVATE KEY-----"
    assert found_values(block) == [block]
