"""Reviewer BW's blind round (machine-readable payloads and links that end up in an agent's notes: deep links, QR
payloads, OAuth redirects, signed URLs, connection strings, encoded values, in 24 languages): each form found missed or
altered, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import base64

import pytest

from tests.helpers import found_values

_TOKEN = "b6zUVkVXv0Ch4MVLKwjTp7C5F2INg42aUcFRgm2S"
_AWS_SECRET = "z1SprEtRNrZ2su23/AWw1snKG6FBZaNDTs9iTFQ+"
_CODE = "fwO0_Q-2J_tJh3z2UhsxqVNBossZowbwT5VtP8aVt5Ei"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a query encoded inside another's ("%3F", "%3D", "%26" read as "?", "=" and "&"), a base64 value's padding
        (
            "logout?post_logout_redirect_uri=https%3A%2F%2Fapp.rivertown-cu.org%2Fcb%3Faccess_token%3D"
            + _TOKEN
            + "%26expires_in%3D3600",
            _TOKEN,
        ),
        ("proxy?auth=Basic%20c2Nhbm5lcjpfWm41cDFUaDJLQHhNUGg%3D&target=x", "c2Nhbm5lcjpfWm41cDFUaDJLQHhNUGg%3D"),
        # links to a number: Telegram's, Android's intent to send, a UPI payee at a mobile number
        ("https://t.me/+31689801025", "+31689801025"),
        ("お客様からhttps://t.me/+8613977157360が送られてきた", "+8613977157360"),
        ("intent://send/+46723551470#Intent;scheme=smsto;package=com.whatsapp;end", "+46723551470"),
        ("upi://pay?pa=6848283569@ybl&pn=Rahul%20Deshmukh&am=4938.00&cu=INR", "6848283569"),
        # a Pix payload's key, by its length, an address or a phone
        (
            "00020126430014BR.GOV.BCB.PIX0121j.carvalho@uol.com.br5204000053039865406147.095802BR5913JOAO CARVALHO",
            "j.carvalho@uol.com.br",
        ),
        ("00020126360014BR.GOV.BCB.PIX0114+55119876543215204000053039865802BR", "+5511987654321"),
        # a Wi-Fi QR payload's key, escapes and all
        ("WIFI:T:WPA;S:Station\\;Nord;P:0PE4\\:dF$YlK!5kD;;", "0PE4\\:dF$YlK!5kD"),
        # a bank account's field named in French beside a routing number
        ('{"payee": {"numero_compte": "319500339040", "routing_number": "026009593"}}', "319500339040"),
        # a connection string's password holding "@", up to its next property
        (
            "jdbc:sqlserver://sql-claims-01:1433;databaseName=Claims;user=rw;password=K4szt4n@439;encrypt=true;",
            "K4szt4n@439",
        ),
        # an AWS secret key under "aws_sk"; an OAuth redirect's code beside its state; a card split across two fields
        ("aws_sk = " + _AWS_SECRET, _AWS_SECRET),
        ("https://portal.example.de/auth/redirect?code=" + _CODE + "&state=elgMRJqGZOt4I9KBSBEAxR3j", _CODE),
        (
            "https://pay.example.com.br/v/confirm?pan_head=54923638&pan_tail=26160398&exp=0328",
            "54923638&pan_tail=26160398",
        ),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a masked Wi-Fi key and a placeholder's
        "WIFI:T:WPA;S:Praxis-Gast;P:********;;",
        "WIFI:S:Praxis-Gast;T:WPA;P:<password>;;",
        # ids after an encoded "=", and Twitter's bearer tokens keep their "%3D" (found as tokens, not cut there)
        "ids%3D202%2520555%25200147",
        # a promotion's code beside a state; a code with no state; a Telegram invite; a UPI payee that is no mobile
        "https://shop.example.org/cart?code=SUMMER2024SALE-EXTRA&state=CA",
        "https://x.example.org/verify?code=fwO0Q2JtJh3z2UhsxqVNBossZowbwT5VtP8aVt5Ei",
        "https://t.me/+AbCdEf123456",
        "upi://pay?pa=1234567890@ybl",
        # a Pix payload's random key, a bank's opaque id
        "00020126580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-4266554400005204",
        # a card's fields that fail Luhn
        "?pan_head=12345678&pan_tail=12345678",
        # (an attacker's round on these readers) a payload's placeholder key and the code that builds one; a status
        # line; a chart of accounts; BIN and date ranges; a Telegram invite; OAuth's specification example; another
        # URL's state; a ticket after "the new one is"; a table's "aws_sk"
        "QR format: WIFI:T:WPA;S:MyNetwork;P:{password};; (escape \\; and \\: in values)",
        'qr = f"WIFI:T:{auth};S:{escape(ssid)};P:{escape(psk)};H:{hidden};;"',
        "Status wifi:P: degraded; S: ok; uptime 99.2%",
        '{"journal": "BQ1", "numero_compte": "51210000", "libelle": "Banque BNP", "source": "bank_statement_import"}',
        '{"numero_compte": "51210000", "label": "Banque BNP c/c", "routing_key": "ledger.posting.created"}',
        "routing_rule?id=79&pan_start=45184500&pan_end=45184599&network=acme",
        "/api/reports?card_start=20231108&card_end=20240105&group=week",
        "trace?span_start=41111111&pan_end=11111111",
        "Join the beta group: https://t.me/+447548968931Kw5a",
        "Location: https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
        "200 GET /static/app.js?code=BuildHashZKxjbVk7OYS0ZkmE ref=/orders?id=7&state=shipped",
        "The API key's support ticket was closed and reopened; the new one is INC0012345678ABCDEF",
        "table aws_sk (sort key) sample row: USER#42 | Zk3mP9qR2vT5wY8bC1dF4gH7jK0nL6pS3rU9xA2e | 2024-09-21",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # what the readers once cut at: a password's own ";x=", a URL password's, a quoted property's
        ("password: HJh1;Ab=MUiH2", "HJh1;Ab=MUiH2"),
        ("postgres://admin:Ia9;Tz=6dsSXA@db.example.com:5432/app", "admin:Ia9;Tz=6dsSXA"),
        ('Server=db;User ID=svc;Password="24pX;Wq=K3Jr8";Encrypt=True', "24pX;Wq=K3Jr8"),
        # a Wi-Fi payload without its last ";", a Pix key whose length is wrong, a lower-case Pix payload
        ("WIFI:T:WPA;S:HomeNet;P:Cz7FWNln95m1", "Cz7FWNln95m1"),
        ("Chave Pix: BR.GOV.BCB.PIX0110ana.souza@gmail.com (copiar e colar)", "ana.souza@gmail.com"),
        ("00020126430014br.gov.bcb.pix0121j.carvalho@uol.com.br5204000053039865406147.09", "j.carvalho@uol.com.br"),
        # JSON inside a string inside a string, its quotes escaped three times
        (
            '{"tool_result": "{\\"body\\": \\"{\\\\\\"login\\\\\\": \\\\\\"frontdesk\\\\\\", '
            '\\\\\\"pwd\\\\\\": \\\\\\"Falcon-lotus94\\\\\\"}\\"}"}',
            "Falcon-lotus94",
        ),
        # a query's password up to the next parameter; bank fields in camelCase and with "de"
        ("https://x.example.io/account?password=Xk9m2Lq7&lang=en", "Xk9m2Lq7"),
        ('{"numero_de_cuenta": "319500339040", "routing_number": "026009593"}', "319500339040"),
        ('{"numeroConta": "319500339040", "iban": "PT50000201231234567890154"}', "319500339040"),
        ("AWS_SK=z1SprEtRNrZ2su23/AWw1snKG6FBZaNDTs9iTFQ+", "z1SprEtRNrZ2su23/AWw1snKG6FBZaNDTs9iTFQ+"),
    ],
)
def test_the_attackers_values_are_found_whole(text: str, value: str) -> None:
    assert value in found_values(text)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_a_plus_number_under_a_phones_key_in_base64_json_is_found_and_other_numbers_stay() -> None:
    """Decoded text is read for secrets and addresses only (a number decoded has lost its label), but for a "+" number
    under a phone's own key in decoded JSON ("state" of an OAuth request)."""
    state = _b64('{"msisdn": "+4917644055456", "locale": "de-DE"}').rstrip("=") + "%3D"
    assert found_values(f"https://sso.example.kr/start?state={state}") == [state]
    assert found_values("https://sso.example.kr/start?state=" + _b64('{"page": "+4917644055456", "n": 2}')) == []


@pytest.mark.parametrize(
    "token",
    [
        "AAAAAAAAAAAAAAAAAAAAAAm4XCJrncvD3VRvvFleILT0tidsFGW%3DgZzANdwZtcY7bPJREpfXcHgi5ZkXIU9b98KT9EJ4WQ95Nb7fEI",
        # its "%3D" after other escapes (an attacker's round)
        "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3DEUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChT",
    ],
)
def test_a_twitter_bearer_token_keeps_its_escaped_equals_sign(token: str) -> None:
    assert token in found_values(f"Authorization: Bearer {token}")
