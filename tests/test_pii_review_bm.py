"""What reviewer BM (blind: call-centre, voicemail and meeting transcripts in 16 languages, and developer artefacts)
found stored: numbers read out with a caller's pauses, ellipses and corrections between the digit words, "plus"
said before a country code read digit by digit, German's pairs said as one number, addresses dictated letter by
letter with the dot, the underscore and the dash said in the caller's language, passwords spelt out with their
case or a radio alphabet; in developer artefacts, SASL's PLAIN, PHP's and gdb's dumps, kubectl's node and address.
And what those readers leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # pauses ("…", "hang on") and a correction that drops the group it corrects
        ("can you ring me back on oh one six one … hang on … seven nine six … three eight one six sorry scratch "
         "that one eight one six I'm in all afternoon",
         [("PHONE", "oh one six one … hang on … seven nine six … three eight one six sorry scratch that one eight "
                    "one six")]),
        ("Could you give me a call back at two one two … eight six seven … nine oh two six. Thanks",
         [("PHONE", "two one two … eight six seven … nine oh two six")]),
        ("Kund: mitt nummer är plus fyra sex, sju noll, sex tre fyra, nej förlåt, fem tre fyra, fem nio, nio sex\n",
         [("PHONE", "plus fyra sex, sju noll, sex tre fyra, nej förlåt, fem tre fyra, fem nio, nio sex")]),
        ("Agente: ¿Un teléfono de contacto?\nCliente: sí, apunte, más tres cuatro, siete dos siete, digo, seis dos "
         "siete ocho uno seis cinco cero seis\n",
         [("PHONE", "más tres cuatro, siete dos siete, digo, seis dos siete ocho uno seis cinco cero seis")]),
        # addresses dictated
        ("CUSTOMER: yeah so s o n e i l l at icloud dot com", [("EMAIL", "s o n e i l l at icloud dot com")]),
        ("it's h e a t h e r dot k o w a l c z y k at brightlake dash health dot org",
         [("EMAIL", "h e a t h e r dot k o w a l c z y k at brightlake dash health dot org")]),
        ("das ist F R I E D E R I K E Punkt O S T E R H O L T Klammeraffe gmx Punkt de",
         [("EMAIL", "F R I E D E R I K E Punkt O S T E R H O L T Klammeraffe gmx Punkt de")]),
        ("oder per Mail an mehmet Unterstrich aydin ät web Punkt de. Danke.",
         [("EMAIL", "mehmet Unterstrich aydin ät web Punkt de")]),
        ("a adres e-mail to jest katarzynanowak dziewięć siedem małpa wp kropka pl dziękuję",
         [("EMAIL", "katarzynanowak dziewięć siedem małpa wp kropka pl")]),
        ("الإيميل omar شرطة سفلية khatib آت outlook دوت sa", [("EMAIL", "omar شرطة سفلية khatib آت outlook دوت sa")]),
        ("मेरी ईमेल है sunita डॉट deshpande एट द रेट gmail डॉट com",
         [("EMAIL", "sunita डॉट deshpande एट द रेट gmail डॉट com")]),
        ("李建国: 是chen 点 xiaowen 艾特 163 点 com", [("EMAIL", "chen 点 xiaowen 艾特 163 点 com")]),
        ("just send the deck to siobhan [00:47:48] dot [00:47:49] oneill at brightlake dash health dot org and cc me",
         [("EMAIL", "siobhan [00:47:48] dot [00:47:49] oneill at brightlake dash health dot org")]),
        ('"and the emails dana dot whitfield at northwind-bank dotcom all one word"',
         [("EMAIL", "dana dot whitfield at northwind-bank dotcom")]),
        # Arabic's and Russian's digit words and "plus", a number asked for a line before
        ("الموظف: رقم الجوال للتواصل؟\nالعميل: رقمي زائد تسعة ستة ستة, 5 ثلاثة واحد 9 ثلاثة تسعة سبعة أربعة اثنين\n",
         [("PHONE", "زائد تسعة ستة ستة, 5 ثلاثة واحد 9 ثلاثة تسعة سبعة أربعة اثنين")]),
        ("По какому номеру с вами связаться?\nКлиент: записывайте, плюс семь, 9 один 3, шесть ноль восемь, 3 два, "
         "5 один\n",
         [("PHONE", "плюс семь, 9 один 3, шесть ноль восемь, 3 два, 5 один")]),
        # German's pairs said as one number
        ("meine Handynummer ist null vier null zweiundvierzig dreiunddreißig neunundvierzig null acht",
         [("PHONE", "null vier null zweiundvierzig dreiunddreißig neunundvierzig null acht")]),
        # passwords spelt out, with a case or a radio alphabet said
        ("[user] hey assistant text Heather the wifi password is capital b, l, lowercase u, e, capital h, a, r, b, o, "
         "lowercase r, nine, eight, exclamation mark\n[intent] SendMessage",
         [("PASSWORD", "capital b, l, lowercase u, e, capital h, a, r, b, o, lowercase r, nine, eight, exclamation "
                       "mark")]),
        ("Okay I've set a temporary password, ready? lowercase Victor, lowercase Hotel, lowercase Mike, two, capital "
         "Kilo, lowercase Lima\n",
         [("PASSWORD", "lowercase Victor, lowercase Hotel, lowercase Mike, two, capital Kilo, lowercase Lima")]),
        ("le mot de passe c'est m majuscule, a, r, m, o, t, t, e, six, six, point d'exclamation\n",
         [("PASSWORD", "m majuscule, a, r, m, o, t, t, e, six, six, point d'exclamation")]),
        # developer artefacts: SASL PLAIN in an strace, PHP's var_dump, gdb's char pointer, kubectl's node
        ('[pid 52440] write(7, "AUTH PLAIN AHNpb2JoYW5vbmVpbGw3N0BvdXRsb29rLmNvbQBYSXQyIzQ3NlJpSCVtbQ==\\r\\n", 73)',
         [("BASIC_AUTH", "AHNpb2JoYW5vbmVpbGw3N0BvdXRsb29rLmNvbQBYSXQyIzQ3NlJpSCVtbQ==")]),
        ('  ["password"]=>\n  string(13) "P@ssw0rd_0qJe"', [("PASSWORD", "P@ssw0rd_0qJe")]),
        ('conn = {user = 0x55e63c814e66 "svc_bind", password = 0x5597eb396bf4 "Maple1689&", timeout_ms = 1904}',
         [("PASSWORD", "Maple1689&")]),
        ("Node:             node-pool-y14h/192.168.129.211", [("IP_ADDRESS", "192.168.129.211")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # a snail at a point, children eating lunch, dinner at home: prose in the words that say "@" and "."
        "Ho visto una chiocciola nel punto in cui il muro finisce.",
        "Barnen ät lunch punkt nu",
        "kom hem och ät middag punkt com",
        "The main point is at the end of the deck dot com era",
        # a case's number read out, then read back: no phone
        "SPEAKER_1: your case number is four nine two five, five nine eight zero\n"
        "SPEAKER_2: sorry, four nine two five, five nine eight zero?",
        # counts with pauses: no number a phone's word names
        "we had one two … three four … five six attendees, sorry, seven",
        # pairs counted in German; letters listed near a password's word; a product's version; no NUL in PLAIN
        "Wir haben zwanzig dreißig vierzig fünfzig Stühle",
        "Password policy: use a, b, c, d, e, f style options only",
        "Le mot de passe doit contenir: a, b, c, un, deux, trois",
        "Mozilla/5.0 Chrome/122.0.0.0 Safari/537.36",
        "C: AUTH PLAIN aGVsbG8gd29ybGQ=",
        '  ["username"]=>\n  string(5) "alice"',
        # an attacker's round on these readers
        "Caller: I was given a number on the call, six one seven … no … six one eight … four nine two … three one",
        "Give me a ring when the bids reach nine four five … hang on … eight seven six … five four three two",
        "The phone survey gave us four two five … so … seven seven seven … one zero one zero responses overall",
        "Call it y plus three three six … i mean … three three seven … eight eight one … two two, then simplify",
        "Q: How many tickets did the call centre close?\nA: seven eight one … you know … seven eight two … three",
        "Nico: we lost the thread [00:03:10] at one point in the call",
        "see the section getting dash started at README dot md",
        "my e t a at this point is noon",
        "今天 check in at 8点 at the gate",
        "Menü: iki et sote, nokta. ve pilav",
    ],
)
def test_ordinary_lines_stay(text: str) -> None:
    assert found(text) == []
