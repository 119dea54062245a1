"""Forms from reviewer AA's blind round (tests/data/pii_review_aa.jsonl: agents' memories of every kind in
24 languages; taken as it came). Each case lists exactly what is found: the ordinary lines beside them,
written against each rule as an attacker would, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # One-time codes after the labels of the languages people are sent them in. The view writes a
        # Cyrillic letter that looks Latin as Latin: the Russian label was never read as written.
        ("Код подтверждения: 5823. Никому не сообщайте этот код.", ["5823"]),
        ("КОД ПОДТВЕРЖДЕНИЯ 5823", ["5823"]),
        ("Ваш код подтверждения — 582391", ["582391"]),
        ("Код для входа: 582391", ["582391"]),
        # Chinese: the code glued to "是" (is), then a fullwidth comma and the next clause's digit.
        ("您的验证码是962403，5分钟内有效。", ["962403"]),
        ("【淘宝】验证码 482913，请勿泄露", ["482913"]),
        ("您的动态码为 482913", ["482913"]),
        ("認証番号は482913です", ["482913"]),
        ("확인 코드: 482913", ["482913"]),
        ("رمز التأكيد الخاص بك هو 482913", ["482913"]),
        ("आपका सत्यापन कोड 482913 है", ["482913"]),
        ("รหัสยืนยันของคุณคือ 482913", ["482913"]),
        ("Mã xác thực của bạn là 482913", ["482913"]),
        ("Kode OTP Anda adalah 482913", ["482913"]),
        ("Tu código de un solo uso es 482913", ["482913"]),
        ("Ihr Verifizierungscode lautet 482913", ["482913"]),
        ("Votre code d'authentification : 482913", ["482913"]),
        ("Il codice monouso è 482913", ["482913"]),
        ("Uw bevestigingscode is 482913", ["482913"]),
        ("Onay kodunuz: 482913", ["482913"]),
        ("Váš ověřovací kód je 482913", ["482913"]),
        ("קוד אימות: 482913", ["482913"]),
        ("Κωδικός επαλήθευσης: 482913", ["482913"]),
        # The same labels in ordinary text: a status, an error, a length, a lifetime, a count, an amount.
        ("код 200 OK", []),
        ("Код ошибки 4040, повторите позже", []),
        ("Код подтверждения отправлен на номер, действует 5 минут", []),
        ("Код подтверждения действителен 1800 секунд", []),
        ("Код подтверждения 5000 рублей", []),
        ("Проверочный код состоит из 6 цифр", []),
        ("验证码已发送", []),
        ("验证码有效期为5分钟", []),
        ("验证码长度为6位", []),
        ("验证码 5000 条", []),
        ("确认码将在 2024 年失效", []),
        ("認証番号の有効期限は1800秒です", []),
        ("인증번호 유효시간 180초", []),
        ("확인 코드 2024년 변경", []),
        ("رمز التحقق صالح لمدة 10 دقائق", []),
        ("Mã xác nhận 5000 lần", []),
        ("Kode verifikasi berlaku 300 detik", []),
        ("kode verifikasi 5000 kali", []),
        ("Der Verifizierungscode ist 6-stellig", []),
        ("Le code d'authentification expire après 300 secondes", []),
        ("Il codice monouso scade dopo 2024", []),
        ("The verification code field is empty; user never received the SMS.", []),
    ],
)
def test_one_time_codes_of_reviewer_aa(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A password after what it is for, with no verb or colon, in several languages (a value that
        # ends the text keeps its stop).
        (
            "Dados do cliente: João Silva, CPF 529.982.247-25, celular (11) 97384-2615, senha do portal Jabuticaba#91.",
            ["(11) 97384-2615", "Jabuticaba#91."],  # (the CPF is the example validators' documentation prints)
        ),
        ("password for the VPN Tr0ub4dor&3", ["Tr0ub4dor&3"]),
        ("Passwort für das Portal Kx9#mLq2", ["Kx9#mLq2"]),
        ("mot de passe du portail Jabuticaba#91, merci", ["Jabuticaba#91"]),
        ("contraseña del portal Jabuticaba#91", ["Jabuticaba#91"]),
        ("hasło do portalu Jabuticaba#91", ["Jabuticaba#91"]),
        ("wachtwoord voor de portal Jabuticaba#91", ["Jabuticaba#91"]),
        # What else follows such a phrase: a rule, a lifetime, whose account, a product and its version,
        # a channel, a language, a path, a name the sentence goes on about.
        ("the password policy requires 12 characters", []),
        ("the password for the portal expires in 90 days.", []),
        ("Reset the password for user JSmith#01.", []),
        ("the password for the service account svc#01 was rotated", []),
        ("password for the VPN GlobalProtect6", []),
        ("password for the router Summer2024", []),
        ("The password for SSO v2.0#beta is rotated", []),
        ("the password for the ACME#2 portal", []),
        ("Our password for the portal Q3#2024 rotation is done.", []),
        ("Update the password for the team channel #ops-2024.", []),
        ("The password for the compiler C++2023.", []),
        ("password for the db $DB_PASS_2", []),
        ("password for the staging env: see vault path kv/app#3", []),
        ("senha do portal deve ter 8 caracteres", []),
    ],
)
def test_passwords_of_reviewer_aa(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A call, who made it, "from the" and a Spanish or Portuguese number.
        (
            "Llamada de Lucía Fernández desde el 671 28 39 46; quiere domiciliar en ES90 5956 8396 8153 1734 1037.",
            ["671 28 39 46", "ES90 5956 8396 8153 1734 1037"],
        ),
        ("chamada da Ana do 912 345 678", ["912 345 678"]),
        ("chiamata di Marco dal 347 123 4567", ["347 123 4567"]),
        ("Llamada del número 671 28 39 46", ["671 28 39 46"]),
        ("Called from 671 28 39 46 about the invoice", ["671 28 39 46"]),
        # ... not a date written with blanks, numbers drawn, a year, an order's, a policy's or a contract's.
        ("Llamada de soporte del 12 03 2024 cerrada", []),
        ("Llamadas recibidas desde el 01 02 2024 hasta hoy", []),
        ("The function is called from 12 34 56 78 places", []),
        ("Called from 2019 to 2023 every quarter", []),
        ("Llamada programada desde el 15 de marzo", []),
        ("Llamada de seguimiento del pedido de 612 345 678", []),
        ("Llamada de Ana sobre la póliza del 4821 3390 12", []),
        ("Ligação sobre o contrato do 912 345 678", []),
        ("Anruf wegen der Rechnung vom 612 345 678", []),
        # A phone's word in brackets right after the number.
        (
            "Garage callback list\n- Bill Tran 713-294-8165\n- Susan Pike 7132948170 (landline)\n"
            "- Ray Ortiz +17136042281",
            ["713-294-8165", "7132948170", "+17136042281"],
        ),
        ("Susan Pike 7132948170 (home phone)", ["7132948170"]),
        ("Lucía 671 28 39 46 (móvil)", ["671 28 39 46"]),
        ("Susan Pike 7132948170", []),
        ("Build 7132948170 (mobile app)", []),
        ("Order 7132948170 (mobile)", []),
        ("Ticket 7132948170 (phone)", []),
        ("Invoice 7132948170 (landline bill)", []),
        # An area code's brackets with blanks inside, as OCR spaces them.
        (
            "OCR scan p.2: Name: M1CHAEL J0RDAN SSN: 5 3 6 - 8 2 - 9 1 7 4 Phone: ( 617 ) 284 - 3916",
            ["5 3 6 - 8 2 - 9 1 7 4", "( 617 ) 284 - 3916"],
        ),
        ("Tel: ( 030 ) 1234 5678", ["( 030 ) 1234 5678"]),
        ("see eq. ( 3 ) 2024 results", []),
        ("Step ( 4 ) 555 1234 done", []),
        ("Score ( 10 ) 234 567 890", []),
        ("Total ( 12 ) 345 678 units", []),
    ],
)
def test_phones_of_reviewer_aa(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An IBAN wrapped after its bank's letters, or after its check digits; its length and mod-97 check
        # decide.
        ("Kontonummer bitte: NL15 INGB\n1938 0389 92", ["NL15 INGB\n1938 0389 92"]),
        ("Kontonummer bitte: NL15\nINGB 1938 0389 92", ["NL15\nINGB 1938 0389 92"]),
        ("IBAN: GB29 NWBK\n6016 1331 9268 19", ["GB29 NWBK\n6016 1331 9268 19"]),
        ("NL15 INGB\n1938 0389 93", []),
        ("Room AB12 CDEF\n1938 0389 92 chairs", []),
        ("Order NL15 INGB\nshipped today", []),
        ("Flight LH12 FRA\nBoarding 08:30 gate B12", []),
        ("Part XY12 ABCD\n5566 7788 99 in stock", []),
    ],
)
def test_ibans_of_reviewer_aa(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A release's path, a clause's number after another's: no addresses.
        ("Upgraded switch firmware from 4.1.12.7 to 4.1.13.0 on all 12 access switches.", []),
        ("Upgraded firmware from 4.1.12.7 -> 4.1.13.0", []),
        ("Contract clause 2.4.1.3 supersedes 1.9.2.10 (see annex B, p. 14).", []),
        ("sections 4.1.2.3 and 4.1.2.5 apply", []),
        # The addresses on such lines stay found.
        ("pushed firmware 4.1.12.7 to 10.0.0.5", ["10.0.0.5"]),
        ("Upgraded firmware on 10.0.0.5 from 4.1.12.7 to 4.1.13.0", ["10.0.0.5"]),
        ("Upgraded switch firmware from 4.1.12.7 to 4.1.13.0 on switch 172.16.4.20", ["172.16.4.20"]),
        ("Upgraded the router at 192.168.1.1 from firmware 1.0.2.3 to 1.0.3.0", ["192.168.1.1"]),
        ("Upgraded kernel from 5.15.0.1 to 6.1.0.2 on 10.0.0.7 and 10.0.0.8", ["10.0.0.7", "10.0.0.8"]),
        ("updated the DNS record from 1.1.1.1 to 8.8.8.8", ["1.1.1.1", "8.8.8.8"]),
        ("copied the firmware image from 10.1.1.1 to 10.1.1.5", ["10.1.1.1", "10.1.1.5"]),
        ("Updated the firmware from 10.0.0.5 over TFTP", ["10.0.0.5"]),
        ("migrated the database from 10.0.0.5 to 10.0.0.9", ["10.0.0.5", "10.0.0.9"]),
        ("See section 4.2.1.1 for setting DNS to 1.1.1.1", ["1.1.1.1"]),
        ("Clause 2.4.1.3 applies to host 10.0.0.5", ["10.0.0.5"]),
        ("Per clause 4.1.2.3, route traffic through 8.8.8.8", ["8.8.8.8"]),
        ("Table 3.1.2.1 to 3.1.2.4 lists the hosts 10.2.3.4 and 10.2.3.5", ["10.2.3.4", "10.2.3.5"]),
    ],
)
def test_addresses_of_reviewer_aa(text: str, values: list[str]) -> None:
    assert found_values(text) == values
