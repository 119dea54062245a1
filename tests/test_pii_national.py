"""NATIONAL_ID: each country's identity or tax number after its label, its check digit (or date) holding; the same
number with its last digit changed is not one; a label's acronym only in capitals; documentation's examples left."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.pii import detect
from securemem.pii.entities import families_of
from securemem.policy import load_policy
from tests.helpers import create, view

# (text, the number): most numbers are reviewer CZ's, drawn with each country's check digit by its own generator.
NUMBERS = [
    ("BSN: 682090359", "682090359"),
    ("BSN (gekopieerd uit DigiD-scherm): 470145304", "470145304"),
    ("PESEL: 66121917249", "66121917249"),
    ("Steuer-ID: 42 935 968 709", "42 935 968 709"),
    ("SV-Nummer: 15 220364 S 150", "15 220364 S 150"),
    ("Sig. Luca Romano, C.F. RMNLCU57B03A662Z, cell.", "RMNLCU57B03A662Z"),
    ("codice fiscale: FRRLSN61D19F205M", "FRRLSN61D19F205M"),
    ("Asegurado: Javier Morales Gil, DNI 46048370R", "46048370R"),
    ("DNI del conductor (dictado y tecleado con puntos): 13.248.053-F", "13.248.053-F"),
    ("Interesado: Karim Benali, NIE Y2705947B", "Y2705947B"),
    ("N° de sécurité sociale : 2 68 05 69 138 701 32", "2 68 05 69 138 701 32"),
    ("NI number: WL 72 84 57 C", "WL 72 84 57 C"),
    ("NHS number 397 976 7280, mobile", "397 976 7280"),
    # (reviewer CB counted a patient's NHS number as no one's: it is the patient's, as a national identifier is)
    ("Discharge letter 22/08/2025, NHS number 4145266773, clinic code RESP2", "4145266773"),
    ("Patient Priya Chauhan, NHS No. 540 881 7628, follow-up in 12 weeks", "540 881 7628"),
    ("fødselsnummer 09118925138, lønnskonto", "09118925138"),
    ("Anders Lundqvist, personnummer 550313-3752, tel", "550313-3752"),
    ("Eero Korhonen, henkilötunnus 070685-842E", "070685-842E"),
    ("Inês Carvalho Matos | NIF 137083971", "137083971"),
    ("Cliente: Rafael Nogueira Santos | CPF 853.398.961-02 | celular", "853.398.961-02"),
    ("Elif Yıldırım, T.C. Kimlik No 35713612738, cep", "35713612738"),
    ("TCKN 46426480262", "46426480262"),
    ("आधार संख्या: 7214 7084 5507", "7214 7084 5507"),
    ("छात्र ने आधार नंबर हिंदी अंकों में लिखा है: ९८४१ ५२८० २५०१ — कृपया", "९८४१ ५२८० २५०१"),
    ("पैन: QVIPC0087W", "QVIPC0087W"),
    ("asigurata Elena Stoica, CNP 2920519207577", "2920519207577"),
    ("ת.ז.: 012363610", "012363610"),
    ("Заявник: Олександр Коваленко, РНОКПП 5604986995", "5604986995"),
    ("身份证号：310115200612295268", "310115200612295268"),
    ("佐藤 美咲 さんから電話。マイナンバー 2106 9163 2770", "2106 9163 2770"),
    ("เลขประจำตัวประชาชน: 2-3331-09605-09-4", "2-3331-09605-09-4"),
    ("Nama: Budi Santoso, NIK 3273011610630971", "3273011610630971"),
    ("Người nhận Trần Thị Thu Hà, CCCD 079073308824", "079073308824"),
    ("CURP: HELM890913MJCRPR06", "HELM890913MJCRPR06"),
    ("Émilie Gagnon (Montréal), SIN 667 908 669.", "667 908 669"),
    ("Jack Wilson, TFN 155 598 702, super fund", "155 598 702"),
    ("Mitarbeiterin Sabrina Meier: AHV-Nr. 756.2676.8749.63", "756.2676.8749.63"),
    ("Γιώργος Παπαδόπουλος, ΑΜΚΑ 01070677933", "01070677933"),
    ("Employee Ciarán Murphy, PPSN 0165919J", "0165919J"),
    ("الطالب عبدالله القحطاني، رقم الهوية الوطنية 1563739604، الجوال", "1563739604"),
    ("رقم الهوية الإماراتية: 784-1981-5816938-7", "784-1981-5816938-7"),
    ("আবেদনকারী তানভীর হাসান, জাতীয় পরিচয়পত্র নম্বর 9643563945। মোবাইল", "9643563945"),
    # printed as on its card, no label: a Swiss AHV number, an Emirates ID
    ("Reto Müller 756.3572.8636.00 (Lohnausweis)", "756.3572.8636.00"),
    ("scan of the card: 784-1981-5816938-7", "784-1981-5816938-7"),
]


@pytest.mark.parametrize(("text", "number"), NUMBERS)
def test_a_national_number_after_its_label_is_found(text: str, number: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text) if f.type == "NATIONAL_ID"] == [
        ("NATIONAL_ID", number)
    ]


def _last_digit_changed(number: str) -> str:
    at = max(index for index, char in enumerate(number) if char in "0123456789")
    return number[:at] + str((int(number[at]) + 1) % 10) + number[at + 1 :]


# Schemes with no check digit: their label alone says what the number is (a changed digit is another such number).
_UNCHECKED = {"WL 72 84 57 C", "QVIPC0087W", "3273011610630971", "079073308824", "9643563945"}


@pytest.mark.parametrize(
    ("text", "number"), [(text, number) for text, number in NUMBERS if number not in _UNCHECKED and number.isascii()]
)
def test_the_same_number_with_its_check_digit_wrong_is_not_one(text: str, number: str) -> None:
    changed = text.replace(number, _last_digit_changed(number))
    assert all(f.type != "NATIONAL_ID" for f in detect(changed))


@pytest.mark.parametrize(
    "text",
    [
        # an acronym that is a word in another language, written in small letters: Polish "nie" (not), "dni"
        # (days), Spanish "sin" (without)
        "Klient nie 46048370R potwierdził",
        "termin 30 dni 46048370R",
        "pedido sin 551 725 641 de referencia",
        # documentation's examples
        "Ejemplo del formulario: DNI 12345678Z, NIE X1234567L (valores de muestra).",
        "Place-holder från manualen: personnummer 19121212-1212 (Skatteverkets exempel).",
        # nine digits after "TIN" are a US employer's number as often as anyone's
        "PAYER'S TIN 94-3127790",
        # a number with no label, even one whose check digit holds
        "Order 682090359 shipped",
        "EAN 7562676874963",
    ],
)
def test_what_is_not_a_national_number_stays(text: str) -> None:
    assert all(f.type != "NATIONAL_ID" for f in detect(text))


def test_national_ids_are_personal_data_that_the_regulated_policy_redacts(tmp_path: Path) -> None:
    assert families_of("NATIONAL_ID") == ("PII",)
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy=load_policy("regulated")) as memory:
        create(memory, "/memories/intake.md", "Intake: BSN 682090359, PESEL 66121917249.\n")
        shown = view(memory, "/memories/intake.md")
    assert "682090359" not in shown and "66121917249" not in shown
    assert shown.count("[NATIONAL_ID]") == 2
