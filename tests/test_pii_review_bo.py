"""Reviewer BO's blind round (healthcare and insurance records, customer care, engineering artefacts, evasion):
each form it found missed or altered, as a general case. Bank accounts are in tests/test_pii_banking.py."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[str]:
    return [text[f.start : f.end] for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # an SSN under the SSA's object identifier in a CDA document, in either order of the attributes
        ('<id extension="708542248" root="2.16.840.1.113883.4.1"/>', "708542248"),
        ("<id root='2.16.840.1.113883.4.1' extension='133037334'/>", "133037334"),
        # Mexico's mobiles as still written with the old "1"
        ("Nuria Vidal · +52 1 33 0824 8410", "+52 1 33 0824 8410"),
        # OCR's "l" for the "1" before a North American number
        ("Fax: l-489-682-6892", "l-489-682-6892"),
        ("Member Phone: l-913-234-6806", "l-913-234-6806"),
        # Finnish's possessive forms of "password"
        ("Salasanani on PaJM4Ucq!878", "PaJM4Ucq!878"),
        ("Minun salasanasi: Kk29xq!aa", "Kk29xq!aa"),
        # a key printed as a bytes literal, in hex or base64
        ('HMAC_SIGNING_KEY = b"584e22422f77f2b1501f334a71566e0bb5803de0d50ebe3314d5ca01bf93183b"', "584e22422f77"),
        ('api_secret = b"Wxmdo5_7EBMrcUnCUiscQ31xDlEa0c_4Ifro3oSe8eI"', "Wxmdo5_7EBMrcUnCUiscQ31xDlEa0c_4Ifro3oSe8eI"),
        # addresses base64- or percent-encoded whole (numbers are not read so: see below)
        ("Ti scrivo la mail in base64: Z3Jvc3NpMTY3QHRpc2NhbGkuaXQ=", "Z3Jvc3NpMTY3QHRpc2NhbGkuaXQ="),
        ("u?e=%70%65%72%65%69%72%61%2E%6A%6F%61%6F%39%33%40%62%6F%6C%2E%63%6F%6D", "%70%65%72%65%69%72%61"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert any(value in finding for finding in found(text))


def test_literals_joined_by_a_plus_and_a_line_continuation_are_one_key() -> None:
    text = 'KEY = "sk-ant-api03-Ihme-4w" + "toaHRgaUW_Br0QMOQc-5eYydJ_LeZr66-gn" + \\\n      "SDWm3UCWDsKNreTxcwl"'
    (finding,) = found(text)
    assert finding.startswith("sk-ant-api03-Ihme-4w") and finding.endswith("SDWm3UCWDsKNreTxcwl")


def test_a_number_after_a_spaced_l_is_found_as_before() -> None:
    # The first reading of OCR's "l" took "l 800 555 0123" whole and then found nothing (an attacker's round).
    assert found("Ref: l 800 555 0123") == ["800 555 0123"]


def test_a_secret_named_the_hasher_keeps_its_secret() -> None:
    assert found("HASHER_SECRET=Xk29sd8fj3kLq") == ["Xk29sd8fj3kLq"]
    assert found("PASSWORD_HASHING_KEY=Xk29sd8fj3kLq0pZ") == ["Xk29sd8fj3kLq0pZ"]


def test_a_slack_configuration_token_of_any_length_is_found() -> None:
    token = "xoxe.xoxp-1-" + "AXrWLvv30VxXMBoppFskESX6x7JJ2UVFbv3qShIZn9sVXomhIhY2eMFGRm9tFRsjErpQt8UX8rj3cTw"
    assert found(f"SLACK_CONFIG_TOKEN='{token}'") == [token]


@pytest.mark.parametrize(
    "text",
    [
        "PASSWORD_HASHER=argon2id",
        "PASSWORD_HASHERS=bcrypt",
        "LOINC 6690-2 / 3016-3",
        "codes 6690-2 / 1742-6",
        "q=%68%65%6C%6C%6F%20%77%6F%72%6C%64%21",
        "path=%2Fhome%2Fuser%2Fdocs%2Freport.pdf",
        '<id extension="708542248" root="2.16.840.1.113883.3.9928.1"/>',
        "Section I 200 300 4000",
        # numbers decoded lose the label that said what they are (an attacker's round): a Kafka offset in base64
        "offset: NTY4NTE2NDQzMTI5MTgxNTM0MA==",
        "?lot=%32%33%31%2D%30%37%2D%31%32%33%34",
        "Step I-800-555-0123 done",
        'i18n_key = b"LoginPage_Title_Welcome2"',
        'key = b"d41d8cd98f00b204e9800998ecf8427e"',
        "fw_loadConfig0x1F2E3D4C5B6A",
        '<id root="2.16.840.1.113883.4.1" nullFlavor="MSK"/> Claim 536228147 received',
    ],
)
def test_ordinary_text_stays(text: str) -> None:
    assert found(text) == []
