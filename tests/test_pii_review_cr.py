"""Reviewer CR's blind round (a hospital pharmacy's and lab's, a telecom operator's customer care and number porting,
a fintech's payments operations and developer platform; 32 languages): each form found missed, as a general case,
with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

RADIO_IBAN = (
    "India Echo six eight India Papa Bravo Sierra one four seven seven zero four eight five eight niner zero seven "
    "three zero"
)
SEED = "almost account actor august audit aisle about athlete album awesome antique athlete"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # digits read out: Turkish's "call (polite)" and "from the number", Greek's "call me", Spanish's formal "call
        # me"; groups set apart by pipes; an account's number after its name
        ("Beni şu numaradan arayın: sıfır beş beş üç, beş yedi yedi, bir beş, iki dokuz - thanks!",
         ["sıfır beş beş üç, beş yedi yedi, bir beş, iki dokuz"]),
        ("chat> Καλέστε με στο έξι εννέα επτά, έξι οκτώ πέντε, εννέα πέντε επτά δύο",
         ["έξι εννέα επτά, έξι οκτώ πέντε, εννέα πέντε επτά δύο"]),
        ("chat> Llámeme al cero uno uno, uno cinco, cuatro ocho siete uno, cero tres cuatro nueve",
         ["cero uno uno, uno cinco, cuatro ocho siete uno, cero tres cuatro nueve"]),
        ("Kartennummer buchstabiert: vier eins sechs sieben | sieben sechs sieben vier | sieben eins vier acht | "
         "eins eins eins vier, gültig bis 2028.",
         ["vier eins sechs sieben | sieben sechs sieben vier | sieben eins vier acht | eins eins eins vier"]),
        ("Supplier phoned in new bank details: account number eight seven one - zero eight four - four four six eight.",
         ["eight seven one - zero eight four - four four six eight"]),
        # a Korean number said in syllables, "에" for the dash
        ("이 번호로 연락 주세요: 공일공에 팔이이구에 팔육육삼 (한글로 적음).", ["공일공에 팔이이구에 팔육육삼"]),
        # a person's mobile in brackets before their address, or after a customer's word, in a text whose language
        # names the country
        ("Eskalering: Mette Sørensen (93 41 88 97, m.sorensen@gmail.com) har haft ustabil 5G.",
         ["93 41 88 97", "m.sorensen@gmail.com"]),
        ("Sjåfør Lars Haugen (493 02 110) ringte for sin leietaker, som trenger norsk SIM.", ["493 02 110"]),
        # Italian's landline "linked"; Hebrew's "from" glued to the number
        ("IBAN IT61 U494 4558 2215 5711 4431 837. Numero fisso collegato 349 420 1381.",
         ["IT61 U494 4558 2215 5711 4431 837", "349 420 1381"]),
        ("הלקוחה התקשרה מ-058-619-9710 בנוגע לחיוב כפול", ["058-619-9710"]),
        # (a price "fixed" is no landline: an amount follows)
        ("Prezzo fisso collegato 349 420 1381 euro, IBAN IT61 U494 4558 2215 5711 4431 837.",
         ["IT61 U494 4558 2215 5711 4431 837"]),
        # a password's verb right after its label, then another label's clause joined to it
        ("reset admin password to Bsl%M9#zc%K?% and Wi-Fi key to harbor-thistle-ember-69.", ["Bsl%M9#zc%K?%"]),
        # a key's number among several between its name and its value
        ("unseal key 1 of 5: FKMZqEH97dO9RDHb3V5rSTO8CKvQT5vTlisTYDiyq24=",
         ["FKMZqEH97dO9RDHb3V5rSTO8CKvQT5vTlisTYDiyq24="]),
        # letters spaced out before a clause's dash; a card whose groups are each a code span
        ("indirizzo email: e s p o s i t o . f r a n c e s c a @ a l i c e . i t - thanks",
         ["e s p o s i t o . f r a n c e s c a @ a l i c e . i t"]),
        ("| card | `4986` `7829` `1380` `6926` |", ["`4986` `7829` `1380` `6926`"]),
        # an HL7 segment quoted after a log's arrow
        ("ADT^A04 from kiosk 3 -> PID|1||A7925882^^^ARDV^MR||DELGADO^ROSA||19421121|M|||47 W 16th St||(919) 782-5094"
         "||||||670507362", ["(919) 782-5094", "670507362"]),
        # a password's second half in the next message
        ("[10:02] admin: first half of the recon db pw is gkXsAV8pU\n[10:03] admin: second half (append, no space): "
         "Nomp!kL=*", ["gkXsAV8pU", "Nomp!kL=*"]),
        # an IBAN read back in the radio alphabet; a backup seed named so
        (f"Radio-style readback of the payee IBAN: {RADIO_IBAN}.", [RADIO_IBAN]),
        (f"Backup seed for the Ledger device: {SEED}. Move to HSM by Q2!", [SEED]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a Korean specimen's receipt number; an order's number read out in Greek
        "검체 접수 번호 260314-0417, 공복 혈당 98 mg/dL (참고치 70-99), 보고 시각 10:42.",
        "Ο αριθμός παραγγελίας είναι έξι εννέα επτά, έξι οκτώ πέντε, εννέα πέντε επτά δύο",
        # a count after "account number"; a balance read out
        "The account number of players: one two three four five six seven eight nine.",
        "Account balance: eight seven one, zero eight four, four four six eight dollars.",
        # a product's name before the number in brackets, a company's after a customer's word (the attacker's round);
        # a number after a name with a word of its own; an address that is none
        "Produktet Vask Pro (493 02 110) er ikke på lager.",
        "Kunde Oslo Sykkel (97 30 44 18) har betalt; trenger kvittering.",
        "Sjåfør Lars Haugen (kundenummer 493 02 110) ringte.",
        "Sprint Nordlys Alpha (20 24 11 05, build@ci) ringte ingen alarmer; også norsk logg.",
        # (the attacker's round) a keypad's test and a countdown read out, a count with its unit, a Korean count, an
        # order's number after Hebrew's "from", a name mapped to a password's field, garden seeds
        "Το τηλέφωνο δείχνει ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα μηδέν στο τεστ πληκτρολογίου.",
        "número de cuenta regresiva: nueve ocho siete, seis cinco cuatro, tres dos uno, cero, ¡despegue!",
        "Llámenos para confirmar el inventario: cero dos cuatro, seis ocho cero, uno tres cinco, siete nueve unidades.",
        "재고 수량 공일공에 팔이이구에 팔육육삼 개라고 읽지 마세요, 숫자로 쓰세요.",
        "הלקוחה התקשרה מ-050-2024 (מספר הזמנה) לגבי המשלוח",
        "Map password to hashed_secret_v2 and token to bearer_header, then redeploy.",
        "Recovery seed bank list: wheat barley oat rice corn bean pea lentil cotton grass clover flower.",
        # a date after Hebrew's "from"
        "הטלפון של דני נקנה מ-15 03 2024",
        # a password's clause that gives no value, and one whose verb sends elsewhere
        "password reset link sent to the user and key to x",
        "the password policy was changed and the wiki was moved to Confluence2024",
        # a key's number before a word, a step's number
        "key 1 of 5: rotated yesterday",
        "step 1 of 5: run the migration",
        # a second half that is a season's, or a task's
        "First half of the season was slow. Password reset emails went out. Second half: Growth2024 is the theme.",
        "first half of the pw rollout done; second part: review the docs.",
        # an IBAN read back whose check digits fail; a seed's rotation described
        f"IBAN check: {RADIO_IBAN[:-4]}one.",
        "Backup seed rotation is scheduled: every quarter we review the process and the team signs the runbook again.",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_value_in_one_code_span_keeps_its_backticks() -> None:
    text = "key `sk_live_4eC39HqLyjWDarjtT1zdp7dc` here"
    assert found_values(text) == ["sk_live_4eC39HqLyjWDarjtT1zdp7dc"]
