"""Reviewer CL's blind round (a remittance and mobile-money fintech's, a microinsurer's and their mobile team's
agents; 20 languages): each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

ONESIGNAL = (
    "os_v2_app_eovwx6pobx7hjqyiwxs7jcdng3t257gzpm2bvgpqfa43a5mtcncxck52sbww6pzhcdmn2nfaaqfxaa5u6qd6ahm"
    "fkwaaz6rfjje22r672nsrrb"
)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # an international number without its "+" after a wallet's name, under a subscriber's number's field
        ("Payout KES 3,000 to M-Pesa 254759867454. DOB on policy 17/12/1980", ["254759867454"]),
        ('-d \'{"msisdn":"254774943714","amount":2500,"currency":"KES"}\'', ["254774943714"]),
        (
            "INSERT INTO customers (id, full_name, msisdn) VALUES (987971, 'Omondi Mutiso', '254729093239');",
            ["254729093239"],
        ),
        # a national mobile of a market outside the configured regions, right after its wallet's name
        ("sa GCash ko, 09666485704 po yung number.", ["09666485704"]),
        ("لم يصل إلى محفظة فودافون كاش 01225467837. الرقم القومي", ["01225467837"]),
        ("صارف کا کہنا ہے کہ جاز کیش اکاؤنٹ 03276178821 میں رقم نہیں آئی۔", ["03276178821"]),
        ("su Yape es 985 722 528. Operación 12758737", ["985 722 528"]),
        ("የደንበኛው ስልክ 0938291903 ነው።", ["0938291903"]),
        # spoken dots after a word that names an address, in capitals, in French and Turkish
        ("IP-Adresse 10 Punkt 0 Punkt 12 Punkt 7", ["10 Punkt 0 Punkt 12 Punkt 7"]),
        ("adresse IP 192 point 168 point 1 point 20", ["192 point 168 point 1 point 20"]),
        # msisdn's other fields, Kafka's user info in JSON
        ("<msisdn>254712345678</msisdn>", ["254712345678"]),
        ("customer_msisdn=254712345678", ["254712345678"]),
        (
            '"basic.auth.user.info": "P4ITARQJ08Y8NH9Q:hUq2ZkP9xW3mLr7TgB5vN8cQ1sD4fY6jH0aK2eR9uI3oP5"',
            ["P4ITARQJ08Y8NH9Q:hUq2ZkP9xW3mLr7TgB5vN8cQ1sD4fY6jH0aK2eR9uI3oP5"],
        ),
        # numbers read out in Hausa, Amharic (its comma between groups), Arabic after a wallet
        (
            "lambar wayarsa ita ce sifiri tara sifiri tara biyu uku ɗaya huɗu tara biyu huɗu.",
            ["sifiri tara sifiri tara biyu uku ɗaya huɗu tara biyu huɗu"],
        ),
        ("phone: ዜሮ ዘጠኝ ሶስት ስምንት፣ ሁለት ዘጠኝ፣ አንድ ዘጠኝ፣ ዜሮ ሶስት", ["ዜሮ ዘጠኝ ሶስት ስምንት፣ ሁለት ዘጠኝ፣ አንድ ዘጠኝ፣ ዜሮ ሶስት"]),
        (
            "رقم المحفظة صفر واحد خمسة تسعة خمسة خمسة ثلاثة تسعة تسعة ستة ستة.",
            ["صفر واحد خمسة تسعة خمسة خمسة ثلاثة تسعة تسعة ستة ستة"],
        ),
        # accounts: after a bank's name and "acct"/"a/c", Hausa's and Yoruba's labels, by their own check digits
        ("Ticket: transfer to GTBank acct 5124164224 reversed", ["5124164224"]),
        ("payout to Co-op Bank a/c 01114929365046 instead", ["01114929365046"]),
        ("Lambar asusun banki: 1460012514 (First Bank).", ["1460012514"]),
        ("Nọ́mbà àkáǹtì mi ni 4884767621 ní GTBank", ["4884767621"]),
        ("RIB ديالو 007 450 6936444209882625 55. رقم الحوالة", ["007 450 6936444209882625 55"]),
        ("NIB do cliente 0011 1995 60890672844 29. Referência interna", ["0011 1995 60890672844 29"]),
        ("el depósito al CCI 003-367-505326778452-02 no se abonó", ["003-367-505326778452-02"]),
        ("CLABE con puntos para que no la detecten: 137.150.66761926865.1.", ["137.150.66761926865.1"]),
        ("Alıcı IBAN: TR36/0006/2072/2793/5766/1004/48 (eğik çizgiyle).", ["TR36/0006/2072/2793/5766/1004/48"]),
        # passwords: Swahili's "ni" after "ya", Hausa's and Amharic's labels, pairs listed one after another
        ("password ya app ni Kenya@2016 na namba yangu", ["Kenya@2016"]),
        ("Ya faɗi kalmar sirrinsa ta app a waya: Kano_968$ — an gaya masa", ["Kano_968$"]),
        ("ደንበኛው የይለፍ ቃሉን በቻት ላከ፦ Abay#7570። እንዲቀይር", ["Abay#7570"]),
        (
            "QA accounts: a.team49@sendara.app / gDBQ3SrR!3?+ and b.team28@sendara.app / Harvest#1304. Reset.",
            ["a.team49@sendara.app", "gDBQ3SrR!3?+", "b.team28@sendara.app", "Harvest#1304"],
        ),
        ("ADMIN_PW = ''.join(['uq&M', 's9gA', '8A0w'])", ["uq&M', 's9gA', '8A0w"]),
        # keys: OneSignal's REST keys, a webhook's signing key that is a UUID, an access token named in snake case
        (f"ONESIGNAL_REST_API_KEY={ONESIGNAL}", [ONESIGNAL]),
        ("CKO_WEBHOOK_SIGNATURE_KEY=20b6cc44-c6a7-44c3-8429-297b020881bb", ["20b6cc44-c6a7-44c3-8429-297b020881bb"]),
        ("Daraja: access_token Ad5JcH1ZlrTDjQ5d9YUWs8Wgcimc ilitolewa saa 20:34", ["Ad5JcH1ZlrTDjQ5d9YUWs8Wgcimc"]),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # the ordinary lines reviewer CL counted altered: a SPEI transfer's tracking key, an API schema's access mode,
        # releases after "builds"
        "Clave de rastreo MBAN01002603100655790536, referencia numérica 3260206, CEP validado.",
        '{"msisdn": "string (E.164)", "email": "string", "password": "write-only"}',
        "Crash only on builds 5.13.0.6 and 5.13.1.6 (internal track); fixed in 5.14.0.1.",
        # a count of subscribers' numbers, a count of wallet money, an id that is no phone after its wallet's word
        "msisdn_count=12845561 window=1h",
        "Pesa 1,500 zimetumwa",
        "M-Pesa confirmation QKJ4H7Y2ZP: Ksh 1,500 sent",
        "Order 254759867454 shipped",
        "شناختی کارڈ 42101-5962555-5۔",
        # "nor" in Spanish and French, and Swahili's "is" with no "of" before it
        "No compartas la contraseña ni OAuth2-tokens con nadie.",
        "Ni mot de passe ni Wi-Fi6 dans cette salle.",
        # "a/c" with no bank's name before it, a ledger's equity account; "Fatura numarası" is an invoice's
        "lobby a/c serial 12345678",
        "Owner's equity a/c 30100000 closing",
        "Fatura numarası sıfır sıfır bir iki üç dört beş altı yedi.",
        # an idempotency key and a key's id that are UUIDs; a RIB whose key is wrong
        "IDEMPOTENCY_KEY=20b6cc44-c6a7-44c3-8429-297b020881bb",
        "webhook_key_id: 20b6cc44-c6a7-44c3-8429-297b020881bb",
        "RIB 007 450 6936444209882625 56",
        "Rib weights 1250 1300 1475 1520 1600 1000 g for the six steaks.",  # numbers side by side (an attacker's)
        # an access token's life in prose, and code's names after it
        "the access_token expired after 3600 seconds; refresh_token rotation on",
        "See refresh_token RefreshTokenRotationPolicyV2 for details.",
        # the attacker's round on these readers: amounts after a wallet's name, words that are digits and a word
        # before them that names no phone, a law's numbering spoken, a product after a password's long clause,
        # Kafka's placeholders, a template in spaced dashes, a dated batch after "CCI"
        "Nimetuma pesa 2500000 kwa mama jana.",
        "GCash 8500000 users joined in 2020.",
        "جزیره کیش 91000000 متر مربع مساحت دارد.",
        "Production line output (unit sejam): lapan, tujuh, sembilan, enam, lima, lapan, tujuh.",
        "Cep harçlığı: beş, üç, iki, dokuz, yedi, sekiz, bir lira aldılar.",
        "Laskun numero: kaksi nolla kaksi neljä nolla kuusi yksi yksi, eräpäivä perjantaina.",
        "Pasal 12 titik 3 titik 1 titik 4 mengatur sanksi administratif.",
        "We keep every shared password for the ops and support teams in one place: 1Password.",
        "Şifre politikası tüm yönetici hesapları için bu dokümanda anlatılıyor: ISO-27001:2022",
        "Urefu wa password ya akaunti ni Herufi-12 angalau.",
        "basic.auth.user.info={{sr_key}}:{{sr_secret}}",
        "basic.auth.user.info=USERNAME:PASSWORD",
        "Format: xoxb - 000000000000 - 0000000000000 - XXXXXXXXXXXXXXXXXXXXXXXX",
        "glpat - gitlab_personal_access_token",
        "CCI batch 20240611103000000053 exported to the regulator portal.",
        "CLABE: 000-000-00000000000-0 (formato)",
        "Reg. nr. 4567 i varekartoteket; kontonr. 7788990011 er lagerkontoen.",
        "webhook_event_key=1aaf51fa-50f4-40d3-879c-6aadce2dae5b",
        'password = join("", ["$${", "var.db_password", "}"])',
        "HubSpot contact 79213456780 merged into 79213456781 by the dedupe job.",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
