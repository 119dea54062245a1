"""What reviewer BN (blind: the machine formats of payments and insurance an operations agent pastes, in 16
languages) found stored: cards in magnetic-stripe and chip data, PIN blocks and key components, FIX's password
fields, phones kept as a country code and a number in two fields, an SSN as ACORD's government id, cards, SSNs and
IBANs base64-encoded in a field named for them; and FIX's timestamps read as phones. With what those readers
leave alone."""

from __future__ import annotations

import pytest

from tests.helpers import found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('<field id="45" value="B4917070621615639^OSTERMANN/ANJA^26061018203540746522"/>',
         [("CREDIT_CARD", "4917070621615639")]),
        ("5A 08 5020741905611954\n5F34 01 00\n57 13 5020741905611954D290210158176306920402",
         [("CREDIT_CARD", "5020741905611954"), ("CREDIT_CARD", "5020741905611954")]),
        ("DE049    : 840\nDE052 PIN block: 1E6210F0F054B90E\nDE055    : 9F26",
         [("GENERIC_SECRET", "1E6210F0F054B90E")]),
        ("Component 1 (custodian A): F09B 349F B3F9 1132 5D74 38A5 D57F 8618\nKCV (combined): 6A4FAB",
         [("GENERIC_SECRET", "F09B 349F B3F9 1132 5D74 38A5 D57F 8618")]),
        ("8=FIX.4.4 | 35=A | 553=ops.fixgw | 554=fW0cqH6rDw!! | 925=nDqB488S0D?! | 10=030 |",
         [("PASSWORD", "fW0cqH6rDw!!"), ("PASSWORD", "nDqB488S0D?!")]),
        ('"mobilePhone": {"cc": "33", "subscriber": "982827383"},', [("PHONE", '33", "subscriber": "982827383')]),
        ('"shipping":{"phone":{"country_code":"+44","number":"1618321158"}}',
         [("PHONE", '+44","number":"1618321158')]),
        ("<Phone><AreaCode>212</AreaCode><DialNumber>5550133</DialNumber></Phone>",
         [("PHONE", "212</AreaCode><DialNumber>5550133")]),
        ('<GovtID>046320961</GovtID><GovtIDTC tc="1">Social Security Number</GovtIDTC>', [("US_SSN", "046320961")]),
        # base64 in a field named for the value, or a tag that says it is base64
        ('"pan_enc":"b64","pan":"MzU4OTk4MzA1NTQyNTM1OQ==","exp":"0930"',
         [("CREDIT_CARD", "MzU4OTk4MzA1NTQyNTM1OQ==")]),
        ('<TaxId encoding="base64">Nzc0LTQxLTEzMzk=</TaxId>', [("US_SSN", "Nzc0LTQxLTEzMzk=")]),
        ('<Cnts encoding="base64">TkwyNkFCTkEyMTU5MTM4NzA5</Cnts>', [("IBAN", "TkwyNkFCTkEyMTU5MTM4NzA5")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # FIX's timestamps; a chip's PAN tag or a track whose number fails Luhn; a zeroed PIN block; a tax id of
        # another type; a code and a number that make no phone; FIX's tags without its header
        "8=FIX.4.4|9=151|35=W|34=46232|52=20240612-14:00:00.250|262=MD117708|55=USD/JPY|10=073|",
        "5A 08 5020741905611955\n57 13 5020741905611955D2902101",
        '<field id="45" value="B4917070621615630^TEST/CARD^2606"/>',
        "DE052 PIN block: 0000000000000000",
        '<GovtID>046320961</GovtID><GovtIDTC tc="2">Tax Identification Number</GovtIDTC>',
        '{"cc": "33", "subscriber": "000000"}',
        "order 554=12345 and 925=abc in a table",
        # an attacker's round on these readers
        "Part B6021184007193125^2 appears in the squared-term formula",
        "Shipment 6021184007193125D20240 left the Rotterdam depot",
        "Component 1: d41d8cd98f00b204e9800998ecf8427e (MD5 of the empty file)",
        "8=FIX.4.4|35=A|554=****|98=0|10=002|",
        "Spreadsheet: 8=FIX row; 554=total orders 925=filled",
        '{"model": "Vespa Primavera", "cc": "49", "number": "15112345678"}',
        "<AreaCode>999</AreaCode><DialNumber>9999999</DialNumber>",
        '<Party><GovtID>123456789</GovtID><GovtIDTC tc="1">SSN</GovtIDTC></Party>',
        '"pan":"aGVsbG8gd29ybGQgaGk="',  # base64 of words
        '"account":"MTIzNDU2Nzg5MDEy"',  # base64 of a number that is no card
    ],
)
def test_ordinary_lines_stay(text: str) -> None:
    assert found(text) == []
