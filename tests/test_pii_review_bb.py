"""What reviewer BB (a life insurer's claims desk, a pharmacy chain's and a home-care provider's, a law firm's and a
notary's, a recruiting agency's, a logistics company's dispatchers', a crypto exchange's and a benefits office's
agents' memories; 28 languages) found, after BA's readers: a password after what it is for in more languages, or
with no preposition after a label of another script, or glued to a CJK label; a key box's code in fifteen
languages; a fuel card's number and the PIN given right after a card's number; SMS, one-time and e-signature codes;
a mobile written whole with its trunk "0"; a callback asked for; and what those readers leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a password after what it is for: more prepositions, four words, a "!" inside it
        ("Farmacia: password del gestionale ricette Ricette!2024#; OTP", [("PASSWORD", "Ricette!2024#")]),
        ("Аптека: пароль от портала рецептов Recept!Msk2024; код", [("PASSWORD", "Recept!Msk2024")]),
        ("κωδικός για την πύλη συνταγών Syntagi#2024!· ο", [("PASSWORD", "Syntagi#2024!·")]),
        ("passord til datarommet Fjord#Datarom24; klient", [("PASSWORD", "Fjord#Datarom24")]),
        ("heslo k datové místnosti Datovka!2024x, klient", [("PASSWORD", "Datovka!2024x")]),
        ("contraseña del portal de receta electrónica Receta$Sol2024; paciente", [("PASSWORD", "Receta$Sol2024")]),
        # ... with no preposition after a label of another script; glued to a CJK label
        ("كلمة مرور غرفة البيانات Dubai#Deal2024؛ بريد", [("PASSWORD", "Dubai#Deal2024")]),
        ("סיסמה לחדר הנתונים Herzl!Data24; לקוח", [("PASSWORD", "Herzl!Data24")]),
        ("Nhà thuốc: mật khẩu cổng kê đơn Thuoc@HCM2024; mã", [("PASSWORD", "Thuoc@HCM2024")]),
        ("药房系统，密码Yao#Fang2024；", [("PASSWORD", "Yao#Fang2024")]),
        # a key box's code
        ("Otthoni ápolás: a kulcsdoboz kódja 6704, Kovács Erzsébet", [("PASSWORD", "6704")]),
        ("Domácí péče: kód schránky na klíče 2450 u paní Marie", [("PASSWORD", "2450")]),
        ("Perawat kunjungan: kode kotak kunci 5748 di rumah Ibu Siti", [("PASSWORD", "5748")]),
        ("Îngrijire la domiciliu: codul cutiei cu chei 0963, doamna Elena", [("PASSWORD", "0963")]),
        ("الرعاية المنزلية: رمز صندوق المفاتيح 6422 لدى المريضة", [("PASSWORD", "6422")]),
        ("上门护理：钥匙盒密码9559；女儿", [("PASSWORD", "9559")]),
        ("Dock C gate code is #7305* until Friday.", [("PASSWORD", "#7305*")]),
        ("nøkkelboks hos Ingrid Solberg, Kirkeveien 88, 0364 Oslo, kode 9972; sønnen", [("PASSWORD", "9972")]),
        # a fuel card and its PIN
        ("Fahrer: Tankkarte 7083 6790 4167 0403, PIN 9594.", [("CREDIT_CARD", "7083 6790 4167 0403"),
                                                              ("PASSWORD", "9594")]),
        ("karta paliwowa 700609 3457891588311, PIN 4064.", [("CREDIT_CARD", "700609 3457891588311"),
                                                            ("PASSWORD", "4064")]),
        ("tarjeta de combustible 4857-4681-6051-8416, NIP 1631.", [("CREDIT_CARD", "4857-4681-6051-8416"),
                                                                   ("PASSWORD", "1631")]),
        ("yakıt kartı 5567 4509 4765 2823, şifre 6686; depo", [("CREDIT_CARD", "5567 4509 4765 2823"),
                                                              ("PASSWORD", "6686")]),
        # SMS, one-time and e-signature codes
        ("jelszó Patika#2024bp; SMS-kód 567259.", [("PASSWORD", "Patika#2024bp"), ("GENERIC_SECRET", "567259")]),
        ("cod unic pentru semnătura electronică 136882; client", [("GENERIC_SECRET", "136882")]),
        ("קוד חד-פעמי לחתימה 179411; לקוח", [("GENERIC_SECRET", "179411")]),
        ("OTP firma digitale 587103.", [("GENERIC_SECRET", "587103")]),
        ("MFA backup codes left: 9921-3557, 7601-4327.", [("GENERIC_SECRET", "9921-3557"),
                                                          ("GENERIC_SECRET", "7601-4327")]),
        # phones: a mobile written whole with its trunk, a callback asked for, North America's trunk "1"
        ("Driver Marcus Bell (truck 17), 07723922403. Fuel card", [("PHONE", "07723922403")]),
        ("chiede di essere richiamato al 338-5482513; liquidazione", [("PHONE", "338-5482513")]),
        ("계약자 김민준 님 콜백 요청: 01060368797; 보험금", [("PHONE", "01060368797")]),
        ("Callback 1 (773) 950-1992; she is hard of hearing", [("PHONE", "1 (773) 950-1992")]),
        # a provider's token; a UUID right after "API Key"
        ("access token de Mercado Pago APP_USR-4007506383313504-075786-1cd8cf5c82f96ec8fffd4051f315e2f8-173698210;",
         [("MERCADOPAGO_ACCESS_TOKEN",
           "APP_USR-4007506383313504-075786-1cd8cf5c82f96ec8fffd4051f315e2f8-173698210")]),
        ("交易所：API Key 3c6b887c-fae2-43dc-90b4-23cfa3905f83，Secret Key 9f8e7d6c5b4a", [("GENERIC_SECRET",
                                                                 "3c6b887c-fae2-43dc-90b4-23cfa3905f83")]),
        ("identifiants du portail : recrut.lyon / Verif@Lyon#19.", [("PASSWORD", "Verif@Lyon#19")]),
        # a value told in parts, each named by where it goes
        ("the first three are 895, the middle two 14 and the last four 8024.",
         [("US_SSN", "895"), ("US_SSN", "14"), ("US_SSN", "8024")]),
        ("číslo karty: první polovina 49297779, druhá polovina 24567343. Platnost 05/27.",
         [("CREDIT_CARD", "49297779"), ("CREDIT_CARD", "24567343")]),
        # an AWS secret key in the line that names it or holds its key id, words between them (stop 47),
        # soft hyphens inside it (normalised away, the whole original span replaced)
        ("aws_secret_access_key pasted from a Word doc: m\u00ad8ZZh4\u00adUl41Evtj5n9CgkIWnv\u00advvfiC5qvbDUxdpZY",
         [("AWS_SECRET_KEY", "m\u00ad8ZZh4\u00adUl41Evtj5n9CgkIWnv\u00advvfiC5qvbDUxdpZY")]),
        # stop 47: BB's leftovers: a "+" number after Hebrew's "to" with no phone word; a key box's code followed
        # by whose it is (Italian "per la signora", Finnish "asiakkaalla"); a name, a dash, digits and a "!"; an SMS
        # code "from the SMS" that "came"
        ("המבוטח מבקש שיחזרו אליו ל-+972 58 230 0531; תשלום", [("PHONE", "+972 58 230 0531")]),
        ("codice della cassetta chiavi 4583 per la signora Rosa Bianchi", [("PASSWORD", "4583")]),
        ("Kotihoito: avainsäilön koodi 7817 asiakkaalla Aino Mäkinen", [("PASSWORD", "7817")]),
        ("password della data room Rogito-7741!; OTP firma", [("PASSWORD", "Rogito-7741!")]),
        ("код из СМС 9563 пришёл на телефон", [("GENERIC_SECRET", "9563")]),
        ("Lockbox at Flat 3 opens with 8326; the building door takes 6536#.",
         [("PASSWORD", "8326"), ("PASSWORD", "6536#")]),
        ("rotated key id ASIALIKKJ6EZYIZ7UZFW; its secret is now 8ZZh4Ul41Evtj5n9CgkIWnvvvfiC5qvbDUxdpZYq.",
         [("AWS_ACCESS_KEY", "ASIALIKKJ6EZYIZ7UZFW"), ("AWS_SECRET_KEY", "8ZZh4Ul41Evtj5n9CgkIWnvvvfiC5qvbDUxdpZYq")]),
        ("key id ASIALIKKJ6EZYIZ7UZFW rotated in commit 9fceb02d0ae598e95dc970b74767f19372d61af8",  # a commit
         [("AWS_ACCESS_KEY", "ASIALIKKJ6EZYIZ7UZFW")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # a router's name after "the password for"; a password-shaped word with a "!" at its end only
        "Passwort für die neue Fritz!Box7490.",
        "password for the ticket CHG0045123!",
        # files named like an address; a handle before a sentence's capital
        "the file manual_v2@print.pdf is the right one",
        "bump @acmepay/sdk@2.3.1 and ping @payments-oncall. No values here on purpose.",
        # an order's, a court file's number; a price; a reference before a mobile-shaped number
        "הזמנה 7731-2024-55 נשלחה",
        "Dosar nr. 1234/211/2023 la Judecătoria Cluj-Napoca",
        "कीमत 09349430451 रुपये",
        "order 07723922403",
        "tracking 700609 3457891588311 shipped",
        # an identifier after "API key"'s own name; another thing's code after a box or a code word
        "API key id 3c6b887c-fae2-43dc-90b4-23cfa3905f83",
        "API key 3c6b887c-fae2-43dc-90b4-23cfa3905f83 revoked by jsmith on 2024-05-01",
        "mã đơn hàng 1234.",
        "kód produktu 2450 u nás",
        "backup codes: 9921-3557, 7601-4327.txt",
        "код подтверждения 1500 клиентам",
        # a key box named earlier, and another thing's code opening no clause of its own
        "Lockbox at Flat 3; tracking code 12345678",
        "The lockbox vendor replied, error code 4040.",
        # parts that make no SSN one may issue, halves that make no card
        "the first three were 900, the middle two 14 and the last four 8024",
        "first half 12345678, second half 87654321",
        "First half revenue 45095826, second half 87305792",
        "Sales by month: first three 734, second two 28, final four 3307.",
        # a count after a key box's code, Hebrew's "to" before an amount, a product key's code, a year after "from SMS"
        "codice della cassetta chiavi 4583 per mese",
        "שילמנו ל-+5 שקלים",
        "codice chiavi 4583 per la signora",
        "код из СМС 2024 года",
        "the door takes 2000 ms to close; the gate takes 1500 cars a day; the gate takes 2025.",
        # 40 characters in an AWS line that no secret key is: a commit, a word run, a path
        "aws secret rotation: see the runbook section aboutrotatingcredentialsquarterlyplease",
        "aws_secret_access_key lives in s3://team/ops/credentials/rotation/2024/README.md",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
