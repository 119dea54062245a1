"""Forms from reviewer Z's blind round (tests/data/pii_review_z.jsonl: telecom, utilities, automotive and
pharmacy desks; voicemails, chats, CRM notes, YAML and CSV; 15 languages; taken as it came). Each case
lists exactly what is found: the ordinary lines beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Numbers read out in Swedish and Romanian, and after "call me back" in Dutch, Italian, Polish.
        (
            "ring mig på noll sju tre, fyra fyra två, nio ett, noll åtta, det gäller elavtalet",
            ["noll sju tre, fyra fyra två, nio ett, noll åtta"],
        ),
        (
            "sunați-mă la zero șapte patru doi, unu opt cinci, nouă zero trei, e vorba de mașina",
            ["zero șapte patru doi, unu opt cinci, nouă zero trei"],
        ),
        (
            "bel me terug op nul zes, een twee, acht zeven, vijf vier, drie negen, het gaat over",
            ["nul zes, een twee, acht zeven, vijf vier, drie negen"],
        ),
        (
            "richiamatemi al tre tre nove, quattro uno due, otto otto cinque sei per il guasto",
            ["tre tre nove, quattro uno due, otto otto cinque sei"],
        ),
        (
            "proszę oddzwonić na pięć zero jeden, dwa trzy osiem, dziewięć cztery sześć, chodzi o",
            ["pięć zero jeden, dwa trzy osiem, dziewięć cztery sześć"],
        ),
        ("ik bel je morgen, een twee drie vier vijf zes zeven keer geprobeerd", []),
        # France reads a number in pairs (reviewers W and Z, and T's transcript).
        (
            "rappelez-moi au zéro six, quarante-deux, dix-huit, soixante-treize, zéro cinq, c'est pour la coupure",
            ["zéro six, quarante-deux, dix-huit, soixante-treize, zéro cinq"],
        ),
        (
            "mon numéro c'est le zéro sept, quatre-vingt-seize, soixante-dix-neuf, soixante, zéro quatre.",
            ["zéro sept, quatre-vingt-seize, soixante-dix-neuf, soixante, zéro quatre"],
        ),
        ("Il y avait vingt, trente, quarante, cinquante personnes, soixante peut-être.", []),
        ("Le score final : zéro un, quarante-deux, dix-huit, soixante-treize, zéro cinq.", []),
        # Phones glued to Japanese and Korean words; "번호" (number) names a phone as often as anything.
        ("お客様：番号は090-4821-7736です。", ["090-4821-7736"]),
        ("고객: 번호이동하려고요, 번호는 010-4823-7719입니다", ["010-4823-7719"]),
        ("주문번호 010-4823-7719 확인", []),
        ("품번은 010-4823-7719입니다", []),
        # A month and its year before a count.
        ("Tachipirina 1000 mg, lotto T3190, scadenza 05/2027 — 24 confezioni in magazzino.", []),
    ],
)
def test_phones_of_reviewer_z(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A password under a JSON key in another language; a label's quote before its colon only.
        ('{"cliente": "Marcos Alves", "senha_app": "Verde#2291casa"}', ["Verde#2291casa"]),
        ("{'contraseña': 'Sol-2291casa!'}", ["Sol-2291casa!"]),
        ('<label for="password">Password:</label>', []),
        ("the 'password' field is required", []),
        # An AWS key pair in markdown's backticks.
        (
            "- S3 export creds: `AKIAHILDAEXE7UCQCYH2` / `Ovc3QgiD86eXr48vHZwvi8tam4v77QF1p6dEOeYR`",
            ["AKIAHILDAEXE7UCQCYH2", "Ovc3QgiD86eXr48vHZwvi8tam4v77QF1p6dEOeYR"],
        ),
        # Wi-Fi keys in groups after a Wi-Fi's label; a setting's name there stays.
        ("SSID Sunrise_5G_8841, WLAN-Schlüssel 7hQm-Xk2p-Rv9s, danke", ["7hQm-Xk2p-Rv9s"]),
        ("- Clé Wi-Fi (WPA2) : `qv7R-2mLx-9TfA-Wk3e`", ["qv7R-2mLx-9TfA-Wk3e"]),
        ("WPA2 key: PSK-SHA256", []),
        ("WPA2 key: WPA2-Enterprise-Mode", []),
        # A car radio's anti-theft code, Swedish door codes, a Polish e-prescription's code.
        ("- Codice antifurto autoradio: 2716", ["2716"]),
        ("Installatörens anteckningar: portkod 4718, router i hallen", ["4718"]),
        ("portkoden byttes 2024", []),
        ("Zahlencode gültig bis Dezember 2025.", []),
        ("pani Zofia Wójcik podała kod e-recepty 8316 i lek wydany", ["8316"]),
        ("Norsk kunde: sikkerhetskode 9731 sendt på SMS", ["9731"]),
        # A French line's porting code (RIO); not a name in capitals with a number.
        ("bonjour je pars chez Free, voici mon RIO 02P7XK3F9A41 pour la ligne", ["02P7XK3F9A41"]),
        ("RIO 2016 OLYMPICS P12", []),
    ],
)
def test_secrets_of_reviewer_z(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Addresses said in Greek ("παπάκι", "τελεία") and Korean ("골뱅이", "점").
        (
            "στείλτε τον λογαριασμό στο maria.georgiou παπάκι gmail τελεία com παρακαλώ",
            ["maria.georgiou παπάκι gmail τελεία com"],
        ),
        ("청구서는 minho.park 골뱅이 daum 점 net 으로 보내 주세요", ["minho.park 골뱅이 daum 점 net"]),
        ("회의는 3시 점심 후에 합니다", []),
    ],
)
def test_addresses_of_reviewer_z(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A card read out over two lines, named only after it (its expiry, "name on card") or in Korean.
        (
            "Deposit (customer read it out, I typed as he spoke):\n5480 2006\n4146 3165\nexp 11/26, name on card",
            ["5480 2006\n4146 3165"],
        ),
        ('고객 문자 원문:\n"카드번호 5433 8923\n1674 8926 유효기간 09/28"', ["5433 8923\n1674 8926"]),
        ("カード番号 5433-8923-1674-8926", ["5433-8923-1674-8926"]),
        ("Totals for the quarter:\n5480 2006\n4146 3165\nexpected by Friday", []),
        ("ids:\n5480 2006\n4146 3165\n", []),
        # A fresh attacker's: words after a split number that are not an expiry or a code with its value.
        ("date\n20240101\n20240228\nvalid rows: 2", []),
        ("Build 4000 0123\n4567 8996\non branch master", []),
        ("Run 4000 0123\n4567 8996\nexp 3: lr=0.01", []),
        ('{"ids": [4000 0123\n4567 8996], "valid": true}', []),
        ("Shipment IDs:\n4000 0123\n4567 8996\nPacked in 2 cardboard boxes", []),
        # A PIN after Japanese "暗証番号" (and a card's or a door's Korean "비밀번호", Chinese "密码"): digits
        # alone; not a count of digits, a year or an example everyone writes.
        ("訪問メモ：玄関オートロックの暗証番号 3916。", ["3916。"]),  # a value that ends the text keeps its stop
        ("暗証番号 3916。次回は変更", ["3916"]),
        ("카드 비밀번호는 3916입니다", ["3916"]),
        ("银行卡密码 391620", ["391620"]),
        ("暗証番号は4桁です", []),
        ("暗証番号 2024年に変更", []),
        ("비밀번호 4자리", []),
        ("비밀번호 1234 같은 쉬운 번호는 쓰지 마세요", []),
        # ... and counts, amounts, ports, dates and service numbers after those labels.
        ("密码 6688 个字符", []),
        ("密码 600000 iterations", []),
        ("密码 4096 位密钥", []),
        ("비밀번호 5000원", []),
        ("密码 8080 端口", []),
        ("密码 20240315 已修改", []),
        ("密码 10086 查询", []),
        ("비밀번호 1588 1234 고객센터", []),
    ],
)
def test_cards_and_pins_of_reviewer_z(text: str, values: list[str]) -> None:
    assert found_values(text) == values
