"""Reviewer CW's blind round (a hospital ward's handovers, an insurer's claims, payroll changes, a fintech's support
chats, an SRE team's runbooks, a utility's field tickets, a municipal office, a charity's rosters, a car rental's
reports, admissions, a property manager's tenants, shipping, a smart-home installer's handovers, a crypto exchange's
compliance desk, a dental clinic's recalls, an agent's memory; 30 languages): each form found missed, as a general
case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a key box's code after where the box is or whom the code is for, then the code's own word
        ("Lockbox on the gas meter, code 0731. Emergency contact sister Rosa.", ["0731"]),
        ("Discharge planning: key safe code for the carers: 1966.", ["1966"]),
        ("After-hours drop at lot C: key box code is 8163 this week, changes Mondays.", ["8163"]),
        # a ward's drug cupboard or medication room, a warehouse, a Czech gate, a Hungarian alarm
        ("Rapport avd 32: Läkemedelsrummets kod är 4719 sedan måndag.", ["4719"]),
        ("Overdracht afd. C2: Code medicijnkar is sinds vandaag 2207. Pompje bed 4 loopt.", ["2207"]),
        ("The drug cupboard code is 5512 until Friday.", ["5512"]),
        ("La clave del portón es 2853.", ["2853"]),
        ("Výměna plynoměru, zákaznice doma od 8:00. Kód k brance 0815, zvonek nefunguje.", ["0815"]),
        ("Wi-Fi 'NagyOtthon'; riasztó élesítő kód 7314; router admin 192.168.0.1", ["7314", "192.168.0.1"]),
        # a duress code, which an alarm's owner keys in under threat
        ("Alarmanlage Scharfschalt-Code 2580, Bedrohungscode 2581", ["2580", "2581"]),
        ("código do alarme 6623, código de coação 6624.", ["6623", "6624"]),
        ("Panel: user code 4410, duress code 3308.", ["3308"]),
        # an app's or a consumer's secret, an integration's key; Vault's unseal key "share #2"
        ("<wechat>\n  <appsecret>ba3de6ed133bf595b9500e050f7bc50e</appsecret>\n</wechat>",
         ["ba3de6ed133bf595b9500e050f7bc50e"]),
        ("Daraja: consumer key v7HUGgeYprSOfRQmF6INLnsnIPWwsGwoYHfITUZBTCXa7G4c, rotate it",
         ["v7HUGgeYprSOfRQmF6INLnsnIPWwsGwoYHfITUZBTCXa7G4c"]),
        ("Unseal key share #2: tAni7Kl59GSjFKlAnPD5wN7VBqjLgetwPhTk+bBjO8K3",
         ["tAni7Kl59GSjFKlAnPD5wN7VBqjLgetwPhTk+bBjO8K3"]),
        # a router's Wi-Fi key as its sticker prints it
        ("- WLAN 'FRITZ!Box 7590 KQ', Netzwerkschlüssel 4719 2281 0937 4416 2290", ["4719 2281 0937 4416 2290"]),
        ("Wi-Fi SSID aterm-4f7c21-g、暗号化キー 4a1c9e27f3b8d。", ["4a1c9e27f3b8d"]),
        # an authenticator's secret after the secret's word first, in Russian and Spanish
        ("Секрет TOTP для рабочего VPN (так он записан в заметке): m3ti dsyq vx6s pxw5 dcd7 ocvp n26r nkj3",
         ["m3ti dsyq vx6s pxw5 dcd7 ocvp n26r nkj3"]),
        ("Secreto TOTP para la VPN: m3ti dsyq vx6s pxw5 dcd7 ocvp n26r nkj3",
         ["m3ti dsyq vx6s pxw5 dcd7 ocvp n26r nkj3"]),
        # backup codes after Japanese's and Korean's label, the codes fullwidth or joined by "、"
        ("ユーザーの二段階認証バックアップコード：８ｄ７ｂ８－２９８６３、７ａａｂｄ－５０５ａａ",
         ["８ｄ７ｂ８－２９８６３", "７ａａｂｄ－５０５ａａ"]),
        ("백업 코드: 8d7b8-29863, 7aabd-505aa", ["8d7b8-29863", "7aabd-505aa"]),
        # an account after a line that holds an address at a reserved domain (".example" is no sample's word)
        ("e-mail jan.dvorak72@seznam.example. Plnění na účet 19-2994494754/0800.",
         ["jan.dvorak72@seznam.example", "19-2994494754/0800"]),
        # a checking or a savings account named by its kind alone, beside its routing number
        ("Direct deposit change: routing 085879382, checking 3820019475 (Chase).", ["3820019475"]),
        ("split deposit: (routing 219665676), 20% savings 000123987662.", ["000123987662"]),
        # a user, or a host's address, then " / " and a password with a symbol, after an account's or a login's word
        ("Home Assistant, owner account chidi / K1tch3n-L1ghts!. Long-lived token below", ["K1tch3n-L1ghts!"]),
        ("Workday ISU for the ADP connector: ISU_ADP_Payroll / q7!Rm2@vXe9#Lp (rotated 2024-09-15).",
         ["q7!Rm2@vXe9#Lp"]),
        # a HomeKit accessory's setup code; a lock's code under a settings file's key
        ("HomeKit setup codes (client keeps the stickers): bridge 482-19-735, garage opener 307-44-219.",
         ["482-19-735", "307-44-219"]),
        ("# secrets.yaml\nwifi_ssid: Casa\nalarm_code: '1408'\n", ["1408"]),
        ("door-pin = 5512", ["5512"]),
        # (the attacker of the README's promises) JSON's quoted key and value; a sticker key with no Wi-Fi word; a
        # form's "Routing #:" and "Checking #:"; "fail" inside another column's name; "do not" before a HomeKit code
        ('{"wifi_ssid": "Casa", "alarm_code": "1408"}', ["1408"]),
        ("FRITZ!Box 7590 KQ, Netzwerkschlüssel 4719 2281 0937 4416 2290", ["4719 2281 0937 4416 2290"]),
        ("Routing #: 085879382 Checking #: 3820019475", ["3820019475"]),
        ("Routing: 085879382\nChecking: 3820019475", ["3820019475"]),
        ("host,ssh_pass,failover\nweb01,Xk9#mQ2vLp,yes", ["Xk9#mQ2vLp"]),
        ("HomeKit setup code (do not lose the sticker): 482-19-735", ["482-19-735"]),
        # a national number after a name in a list where another name's number has its country's code
        ("Przypomnienia: Katarzyna Mazur +48 604 182 273, Tomasz Lewandowski 22 418 22 73.",
         ["+48 604 182 273", "22 418 22 73"]),
        ("Richiami igiene:\n- Francesca Gallo, 333 418 2273, ultima seduta 12/04\n- Paolo Conti, +39 340 227 7314",
         ["333 418 2273", "+39 340 227 7314"]),
        # a digit said twice with a hyphen ("double-oh")
        ("call me on oh seven seven double-oh nine double-oh three one six",
         ["oh seven seven double-oh nine double-oh three one six"]),
        # a Twilio API key's secret beside its SID
        ('const client = twilio("SKd75b2cae0045a72788f176ded89e6fd2", "LfUQi35I3SabcwmNlpmsJup67d9eDODd");',
         ["SKd75b2cae0045a72788f176ded89e6fd2", "LfUQi35I3SabcwmNlpmsJup67d9eDODd"]),
        # ... not a word in small letters and digits beside it
        ('pair("SKd75b2cae0045a72788f176ded89e6fd2", "lowercaseonlyletters0123456789ab")',
         ["SKd75b2cae0045a72788f176ded89e6fd2"]),
        # a guests' network's key after a compound's label, invisible joiners inside it
        ("Vieras-WLAN: Puolu\u200dkka-V\u200dieras\u200d-12", ["Puolu\u200dkka-V\u200dieras\u200d-12"]),
        ("Gäste-WLAN: Sonnenblume-2024!", ["Sonnenblume-2024!"]),
        # a Japanese contact's numbers after a clause that ended with a Latin "ID" and its number
        ("患者ID 00482731。キーパーソン長男 090-4721-3386、自宅 03-3981-2270。", ["090-4721-3386", "03-3981-2270"]),
        ("HS编码 8471.30.0000，毛重 1,240.5 KG，联系电话 139 1234 5678", ["139 1234 5678"]),
        # ... not an amount after a budget's line, nor a number after no name
        ("Presupuesto: Importe Total 612 345 678 EUR; contacto Ana Ruiz +34 644 81 27 39", ["+34 644 81 27 39"]),
        ("Paolo Conti +39 340 227 7314, Importo Totale 333 418 2273", ["+39 340 227 7314"]),
        ("Ana Ruiz +34 644 81 27 39; pedido 612 345 678", ["+34 644 81 27 39"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # a key box's report, firmware, API or deposit with a code
        "Lockbox exceptions for May, code 2017",
        "Keybox firmware notes: code 4521",
        "Lockbox API error code 4040 after the update",
        "Lockbox deposit from BofA, code 115",
        "lockbox model 5400 series",
        # a branch's code, a payment gateway's, a match's, an order's
        "Bank branch code: 2034, account type savings.",
        "Bramka płatności zwróciła kod 4021.",
        "Strzelił dwie bramki, kod meczu 4412.",
        "Dveře do skladu, kód zakázky 48213.",
        # a warehouse's aisle, a product's code
        "Clave del almacén central: sección 4, pasillo 12",
        "Bodega 14, clave de producto 55231",
        # (an attacker's round on these readers) an ERP's warehouse number; a ward's, a budget's, a product's code; an
        # alarm's event after a duress word; a placeholder key; tickets after a CJK label's words; a dashboard's
        # routing and savings; ledgers and breadcrumbs after "account"; Apple's refused HomeKit codes; a commented key
        "Traspaso entre almacenes: almacén origen clave 2010, almacén destino clave 2020.",
        "El almacén con clave 3050 cierra el inventario el viernes.",
        "Medication room, ward code 4410, level 3.",
        "Medicine cabinet restock: budget code 5521.",
        "Furtka ogrodowa, kod produktu 4410.",
        "Duress code sends Contact ID event 1121 to the monitoring station.",
        "Key safe for the carers, code 44421300, see the procurement portal.",
        "WLAN-Schlüssel 0000 0000 0000 0000 0000 bedeutet: noch nicht vergeben.",
        "バックアップコード関連チケット：AUTH-4521、AUTH-4522",
        "Call routing 2500 calls per day, savings 125000000.",
        "GL account 7100.20 / R&D-Expenses",
        "account 2024 / Q3-Revenue-Report!",
        "User stories: US-1042 / Checkout-Flow-v2!",
        "User plan: pro_2024 / $49.99+VAT",
        "HomeKit setup codes must not be 000-00-000, 111-11-111 or 123-45-678 (Apple rejects them).",
        "In HomeKit, the code is on the sticker; accessory category 005-01-002 is Bridge.",
        "door_code: 1012  # dock door id in the WMS",
        # (the attacker of the README's promises) words joined after a login's word, a ticket's or a case's number;
        # "code" inside other words; a telemetry record's bare alarm code; goals in Czech; round or counted sticker
        # digits, an example's
        "admin jsmith / Change#CHG-2291",
        "Account ACME-Corp / Case#00481-B",
        "User menu / Profile-Edit-v3!",
        "HomeKit starter kits: barcode scanned, tracking 482-19-735",
        '{"device": "pump-3", "alarm_code": 2145, "ts": 1}',
        "Vstřelil dvě branky, kód zápasu 4412.",
        "Network key 1000 2000 3000 4000 5000 are the CAN IDs of the five ECUs.",
        "Beispiel: Netzwerkschlüssel 1234 5678 9012 3456 7890 (steht bei Ihrer Box auf der Unterseite)",
        # a broker's routing key; a plan's years after a network key's name; a secret otp policy's words
        'routing_key = b"orders/EuropeWest1/Created"',
        "RabbitMQ routing key orders.created.v2 for the billing queue",
        "WLAN: network key 2024 2025 2026 2027 plan",
        "secret otp policy for users: test user mail 2345",
        "コードレビューの結果：バックアップコードの生成は 2024-05 から、テスト 3 件",
        # checking and savings that are no accounts; an example's account
        "routing table updated; checking 3 nodes, savings 1200 USD",
        "ABA routing 021000021 — checking the logs for 2024 errors",
        "Example: účet 19-2994494754/0800",
        "Gäste-WLAN: aktiviert",
        "802.11-WLAN: standard-compliant",
        # a page's path, two figures after a login's word; a build's number in a text about HomeKit; a year, an error
        "user guide v2.1 / Getting-Started-2024!",
        "LOGIN page KPIs: p95 1200ms / p99#3400ms",
        "HomeKit release notes: build 123-45-678 shipped",
        "alarm_code: 2024",
        "error_code: 4040",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
