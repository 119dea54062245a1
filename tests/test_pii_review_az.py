"""What reviewer AZ (a health insurer's claims desk, a hospital laboratory, a customs broker's and a payroll
outsourcer's agents' memories; 24 languages) found: door, gate, alarm and barrier codes as each language
names them (compounds, inflected locks, the lock after the word for its code, CJK's glued forms); passwords
at the end of their label's clause after a verb, a preposition or a qualifier; one-time codes after Nordic,
Vietnamese and Tagalog words; mobiles after a person's name in a text whose language names their country;
"No." alone before a guide's number and GS1's element strings, which are no phones; and what those readers
leave alone, after the earlier attackers' rounds on the same shapes."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # locks.py
        ("kod do bramy wjazdowej 4490, kod alarmu w biurze 1357.", [("PASSWORD", "4490"), ("PASSWORD", "1357")]),
        ("Depot Venlo: alarmcode hal 2 is 5813, hekcode vrachtwagenpoort #2207.", [("PASSWORD", "5813"),
                                                                                ("PASSWORD", "#2207")]),
        ("Sleutelkluis bij de achteringang: code 0458.", [("PASSWORD", "0458")]),
        ("toegangscode 2468B voor de monsterkluis", [("PASSWORD", "2468B")]),
        ("Budapest raktár: az irodai riasztó kódja 8024.", [("PASSWORD", "8024")]),
        ("Kód k závoře 2019.", [("PASSWORD", "2019")]),
        ("kode akses lemari sampel di lantai 3 adalah 5520. Kurir", [("PASSWORD", "5520")]),
        ("货代备注：仓库门禁密码 2580#，周日不收货。", [("PASSWORD", "2580#")]),
        ("창고 출입문 비밀번호 1472*, 야간엔 경비실 먼저 들르기.", [("PASSWORD", "1472*")]),
        ("מחסן אשדוד: הקוד לשער הוא 2468. הנהג יגיע", [("PASSWORD", "2468")]),
        ("Jourhavande: portkoden är 2580 etter kl 20.", [("PASSWORD", "2580")]),
        # clauses.py
        ("heslo k portálu pro praktické lékaře bylo resetováno na Brno-Lab-2024.", [("PASSWORD", "Brno-Lab-2024")]),
        ("Tymczasowe hasło ustawione na Wiosna!2024kr, kontakt", [("PASSWORD", "Wiosna!2024kr")]),
        ("Wachtwoord loonstrokenportaal tijdelijk Loon2024!Daan.", [("PASSWORD", "Loon2024!Daan")]),
        ("Password portal INSW sementara Cikarang!88, jangan disebar.", [("PASSWORD", "Cikarang!88")]),
        ("A palavra-passe da área de cliente foi reposta para Carvalho2024#.", [("PASSWORD", "Carvalho2024#")]),
        ("Пароль до порталу митного брокера є Mytnytsia_24!, логін", [("PASSWORD", "Mytnytsia_24!")]),
        ("Ο κωδικός πρόσβασης για την πλατφόρμα αποτελεσμάτων του συνεργαζόμενου κέντρου είναι Lab@Athina21. Μαρία",
         [("PASSWORD", "Lab@Athina21")]),
        ("会員サイトのパスワードを Misaki_0412 に再設定済み", [("PASSWORD", "Misaki_0412")]),
        ("Online işlem şifresi olarak Emre.1984! verdi, sisteme girip", [("PASSWORD", "Emre.1984!")]),
        ("la contraseña del wifi del piso de la playa es GaviotaAzul_2024", [("PASSWORD", "GaviotaAzul_2024")]),
        # the attacker's round's positives: "now" after the copula, a chat's particle or a day after the value
        ("Passwort lautet jetzt Mond7Stern.", [("PASSWORD", "Mond7Stern")]),
        ("Heslo je teď Praha#2024.", [("PASSWORD", "Praha#2024")]),
        ("Ang password ng wifi ay Bahay#2024 po.", [("PASSWORD", "Bahay#2024")]),
        ("Heslo jsem změnil na Brno#2024 včera.", [("PASSWORD", "Brno#2024")]),
        # codes.py
        ("Engångskod till lönebeskedet: 169474.", [("GENERIC_SECRET", "169474")]),
        ("Mã OTP đã gửi: 183861.", [("GENERIC_SECRET", "183861")]),
        ("Ang OTP niyo po para sa member portal ay 188157 - huwag", [("GENERIC_SECRET", "188157")]),
        # recovery.py: a TOTP seed right after its label, no colon between
        ("Admin MFA for the payroll SaaS: TOTP seed Q6TGCERNJAFNPMNRVA6STQOSK3PYFWKJ. Recovery codes:",
         [("GENERIC_SECRET", "Q6TGCERNJAFNPMNRVA6STQOSK3PYFWKJ")]),
        # contact.py
        ("Sklad Ostrava: řidič Tomáš Svoboda 606 649 164 přiveze palety zítra v 7:00.", [("PHONE", "606 649 164")]),
        ("Vakthavende bioingeniør Kari Nordmann, 40 31 09 36.", [("PHONE", "40 31 09 36")]),
        ("Paciente crítico, se avisó a la Dra. Paz al 611 58 24 52 a las 02:15.", [("PHONE", "611 58 24 52")]),
        ("my no. is 9812345670", [("PHONE", "9812345670")]),
        ("Alternate no. 07001642067 given for OTP delivery.", [("PHONE", "07001642067")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # A lock's word beside another thing's code, a year, a count, a network's port, a one-time code's word.
        "A kapukód cseréje 2025. március 1-jén lesz.",
        "Authorization code flow on port 8080.",
        "Il porta documenti, codice 45120, costa 19 euro.",
        "OTP codes issued by the new gateway last month: 48213",
        "Çelik kapı, ürün kodu 70215, montaj dahil 15000 TL.",
        "Zugangscode gültig bis Dezember 2025.",
        "portkoden byttes 2024",
        "код домофона 2024",
        "Error code 4031 on the door sensor.",
        "The alarm code was changed in 2019.",
        "Doors: code review 1245 merged",
        "porta 8080, codice di stato 200",
        "Gate B22 code share 4412",
        "HS code 8471 for the gate controllers",
        # What a password is of, a name in code, a setting, a date, a question.
        "Password for SRV-DB01 was rotated.",
        "Reset the password of user JSmith42.",
        "Password policy: at least 12 chars, e.g. Tr0ub4dor&3.",
        "password to self.Http2Client",
        "the password is config.DbPassword1",
        "Passwort für den Router FRITZ!Box7590",
        "What's the password for the printer Canon2019?",
        "La password di rete è impostata a WPA2-Personal",
        "Masukkan kata sandi baru Minimal8karakter",
        "Password expires: 15-Apr-2024",
        "reason=bad_password attempts=4",
        "TOTP seed rotation is quarterly",
        # "No." alone, a GS1 element string, a range after "al".
        "Guia TISS nº 2024118734, procedimento TUSS 40901300, valor R$ 1.180,00, competência 10/2024.",
        "Companies House no. 09876543",
        "Pallet label: SSCC (00)340123452352377045, GTIN (02)14012345487524, batch (10)L2410-77.",
        "Chiamata con il fornitore: budget dal 347 123 4567 al 360 000 0000",
        "Faktura Nummer 40 21 16 82 og",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
