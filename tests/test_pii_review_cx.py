"""Reviewer CX's blind round (customer calls, wire and payee changes, security questions, door and intercom codes,
medical intake, insurance claims, runbooks, shell history, config snippets, HTML e-mails; 31 languages): each form
found missed that this stop reads, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # any character written as an HTML number, read as the view reads that character: a no-break hyphen, a
        # zero-width space, a narrow no-break space, a plus sign and a no-break space
        ("SSN: 602&#8209;58&#8209;0537", ["602&#8209;58&#8209;0537"]),
        ("card 4111&#8203;1111 1111 1111", ["4111&#8203;1111 1111 1111"]),
        ("IBAN&#58; DE89&#8239;3704&#8239;0044&#8239;0532&#8239;0130&#8239;00",
         ["DE89&#8239;3704&#8239;0044&#8239;0532&#8239;0130&#8239;00"]),
        ("tel&#58; &#43;49&#160;30&#8209;1234567", ["&#43;49&#160;30&#8209;1234567"]),
        # ... typography stays as it was
        ("price 12&#8364; &#8211; 2024&#8211;2025 &#169; 2024", []),
        # a PIN after a PIN's word that names none (India's postcode's), then an ATM's PIN
        ("पिन कोड नहीं, ATM पिन: ८४०२ (ग्राहक ने फ़ोन पर बताया)।", ["८४०२"]),
        ("पिन कोड 110001, नई दिल्ली", []),
        # a card after the account it pays for, the card named earlier in its line; an account's number alone is none
        ("Amex on file for the corporate travel account: 3744 220407 59098, exp 09/27.", ["3744 220407 59098"]),
        ("user account: 4111111111111111", []),
        # a keypad's code with its "*" inside
        ("Server room door keypad code changed to 2580*7 effective today; old code retired.", ["2580*7"]),
        ("Order 4711: 12*3 = 36 units, door code section B", []),
        # ... or a keypad's letter, A to D, before its digits (after them it is a model's, a section's or a house's)
        ("Le code de la porte d'entrée est B4792 et le digicode du parking 1357A. Interphone au nom de Martin.",
         ["B4792"]),
        ("keypad model 5400D installed", []),
        # four numbers after a build's word in Dutch and Russian: a release, not an address; an address after them is
        ("Bouwnummer 1.8.4.2 van de kassa-software is uitgerold op alle filialen.", []),
        ("Давление 130/85, пульс 76. Сборка 5.4.1.2 установлена.", []),
        ("Сборка 5.4.1.2 установлена на сервер 84.17.201.9.", ["84.17.201.9"]),
    ],
)  # fmt: skip
def test_reviewer_cx_forms(text: str, values: list[str]) -> None:
    assert found_values(text) == values


# What an attacker of these readers found altered as first written, each left as it was since: cards' words that name
# no payment card (and a brand's letters inside other words) before an account's number, India's and Bangladesh's
# postcodes and counts after a PIN's word read again, a year before a keypad's "#", a build server's address.
ATTACKED = [
    "We discovered the Meta ad account 2381905461537297 was restricted for policy reasons",
    "Postcard campaign results are in the Meta ad account 2381905461537297",
    "SIM card provisioning is done by the system account 2381905461537297",
    "cc: marketing — the Meta ad account 2381905461537297 needs a new budget",
    "Business cards ordered for the team, billed to cost-center account 2381905461537297",
    "Maestro Abbado's estate: the royalties account 2381905461537297 (publisher's ledger)",
    "Scorecard export for the Google Analytics account 2381905461537297",
    "Master branch deploys use account 2381905461537297",
    "Wildcard DNS *.example.com for account 4000056655665556",
    "card-based MFA enabled on account 4242424242424242",
    "Visa application: applicant account no. 4059287572754138",
    "Gift card balance moved to account 4111111111111111",
    "Pin code (PIN): 560001",
    "pin code or pin 560034",
    "PIN code: PIN 560001 Bengaluru",
    "पिन कोड (पिन): 110001",
    "पिन कोड — पिन: 226001 लखनऊ",
    "পিন কোড, পিন: 700019",
    "পিন কোড, পিন নম্বর: 1200 পাতা",
    "पिन कोड पिन: 4000 पन्ने",
    "Door code since 2019#3",
    "The door code policy changed in 2024#12 of the handbook",
    # a second round: a keypad's letter after its digits, a box's number before a "*"
    "Keypad firmware 1205a fixes the beeping.",
    "Per building code 101A, the door must open outward.",
    "door code of 221B Baker Street",
    "Alarm code E401a shown on the panel",
    "Door code for unit 305D is at reception.",
    "The keys are in lockbox #101A; ask reception for the code.",
    "key box #1024*768",
    # ... and a password's word, an aside and a colon before a rule, a ticket or a setting (a reader of those was
    # dropped: it also lost passwords read before, "Password for the router, as requested: Hx7pLw29q")
    "Password, as per policy: Min8Chars!",
    "Password, see ticket: INC#4521",
    "Password, bcrypt work factor: cost=12",
]


@pytest.mark.parametrize("text", ATTACKED)
def test_what_an_attacker_of_these_readers_found_stays_as_it_was(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a bank's account after a card's brand is a bank's; a build server's address is an address
        ("Visa fee refunded to bank account 4217459296642845", ["4217459296642845"]),
        ("Сервер сборки 8.8.8.8", ["8.8.8.8"]),
        ("Password for the router, as requested: Hx7pLw29q", ["Hx7pLw29q"]),
        # a national number a fax's line broke right after its abbreviated label; not a count, a year or pages
        ("Tel. 0171\n482 9317 (Zeilenumbruch im Fax)", ["0171\n482 9317"]),
        ("Tel. 0171\n2024 Umsatz", []),
        ("Fax: 030\n12 Seiten", []),
        ("mobile 48213\n20931", []),
        # Windows-1252's dashes as browsers read them, more zeros before a number, a thin space by its name
        ("SSN 602&#150;58&#150;0537", ["602&#150;58&#150;0537"]),
        ("SSN 602&#0000008209;58&#0000008209;0537", ["602&#0000008209;58&#0000008209;0537"]),
        ("card 4111&thinsp;1111&thinsp;1111&thinsp;1111", ["4111&thinsp;1111&thinsp;1111&thinsp;1111"]),
    ],
)
def test_the_values_beside_them_are_read(text: str, values: list[str]) -> None:
    assert found_values(text) == values
