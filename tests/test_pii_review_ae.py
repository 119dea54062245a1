"""Forms from reviewer AE's blind round (tests/data/pii_review_ae.jsonl: structured content agents save,
HTML forms and tables, CSV, psql output, JSON, YAML, logs; taken as it came). Each case lists exactly what
is found: the ordinary forms beside them, nothing."""

from __future__ import annotations

import pytest

from securemem.pii import detect
from tests.helpers import found_values

_BEARER = (
    "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzNDIzMzMzIiwiaWF\n"
    "0IjoxNzA3NTQ4NzI0LCJleHAiOjE3MDc1NTIzMjQsInNjb3BlIjoiYWRtaW4iLCJ\n"
    "pc3MiOiJodHRwczovL2F1dGgubm9yZGJhbmstaW50ZXJuYWwubmV0In0.uyVkEyh\n"
    "Cj6q7DvDQW5ZFkZzETb-NBvliUObeE26c3iI"
)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A form's field: its type, name, id or autocomplete hint names the value, in any attribute order.
        ('<input name="otp" type="text" inputmode="numeric" value="604913" maxlength="6">', ["604913"]),
        ('<input value="Hunter2!xyz" type="password">', ["Hunter2!xyz"]),
        ("<INPUT TYPE=password VALUE='Fjord-Temp-8812'>", ["Fjord-Temp-8812"]),
        ('<input autocomplete="one-time-code" value="839201">', ["839201"]),
        ('<input name="cardNumber" value="4378 4445 6046 9757">', ["4378 4445 6046 9757"]),
        ('<input name="user[password]" value="Sp@rkStreams!2024">', ["Sp@rkStreams!2024"]),
        # ... and what a form holds besides: nothing
        ('<input type="password" name="pw" value="">', []),
        ('<input type="password" value="{{ form.password }}">', []),
        ('<input name="q" type="search" value="quarterly report 2024">', []),
        ('<input name="qty" type="number" value="123456">', []),
        ('<input name="postcode" value="10115"><input name="country_code" value="4420">', []),
        ('<input type="hidden" name="page" value="4829">', []),
        # A table of keys and values: each row's key names its value.
        (
            "id,type,value,created_at\n1,otp,550183,2024-03-04 10:21:07\n"
            "2,reset_token,Oc-6SERRiyzfxxmtjRp2yZ-8dWKccC0bbDNxk8sVo5V,2024-03-04 10:22:55",
            ["550183", "Oc-6SERRiyzfxxmtjRp2yZ-8dWKccC0bbDNxk8sVo5V"],
        ),
        ("key,value\nsmtp_host,mail.example.com\nsmtp_password,Hunter2!xyz\nretries,5", ["Hunter2!xyz"]),
        ("name,value\ntimeout,30\nport,8080\nversion,2.14.3", []),
        ("setting | value\n--- | ---\nmax_connections | 500\ncode | 4821", []),
        # Codes under a column that names them (psql's rule under the header too), and a "secret"
        # beside a login: that login's password.
        (
            "user_id | mfa_backup_code\n--------+----------------\n  10231 | 4829-1736\n  10232 | 9051-2284",
            ["4829-1736", "9051-2284"],
        ),
        ("login,secret,role\nsvc_report,Rpt-2024-Kq8!zz,readonly", ["Rpt-2024-Kq8!zz"]),
        ("country,code,name\nDE,276,Germany\nFR,250,France", []),
        ("status_code,count\n200,48213\n404,1204", []),
        # A value cut into a row's cells or a key's list, read whole where the parts alone are none.
        ("<tr><th>SSN</th><td>761</td><td>34</td><td>2273</td></tr>", ["761</td><td>34</td><td>2273"]),
        ("<tr><td>Tel.</td><td>+49</td><td>30</td><td>901820</td></tr>", ["+49</td><td>30</td><td>901820"]),
        ('{"pan":["4438", "1058", "7740", "0862"],"exp":"11/28"}', ['4438", "1058", "7740", "0862']),
        ("<tr><th>Year</th><td>2019</td><td>2020</td><td>2021</td><td>2022</td></tr>", []),
        ('{"version": ["4", "17", "21"], "build": ["2024", "03", "15"]}', []),
        # A record's "code" key in a line about a one-time code; an error's or a status's code stays.
        ("INFO auth.mfa user_id=55120 channel=sms to=+1 646 372 1185 code=392017", ["+1 646 372 1185", "392017"]),
        ('[sms-gateway] template=login_otp params={"code":"661094"} err="rate limited"', ["661094"]),
        ('{"error":{"code":40001,"message":"otp expired"}}', []),
        ("verify otp failed status=400 code=1003", []),
        ("GET /v1/rates code=2000 dur_ms=4", []),
        # An instruction names a code; a coupon's stays.
        ("Use code 83 41 27 to finish signing in.", ["83 41 27"]),
        ("Enter the code 482913 to verify your account", ["482913"]),
        ("Use code 2024 to log in", []),
        ("Press 1 or use code 7890 to continue to the main menu", []),
        ("Codice OTP dispositivo: 73918402", ["73918402"]),
    ],
)
def test_structured_values_of_reviewer_ae(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_a_bearer_token_wrapped_after_its_label_is_read_to_its_last_line() -> None:
    findings = detect(_BEARER)
    assert [(f.type, f.start, f.end) for f in findings] == [("JWT", _BEARER.index("eyJ"), len(_BEARER))]


def test_a_key_wrapped_after_its_label_is_not_joined_to_the_next_lines_own_token() -> None:
    # An age identity: its public half after a label, its secret on the next line (reviewer P): two values.
    public = "age13333nhqnlm4ffpee6lkvtg9pksglr3fvw2r2zfl29m5kghawt6qtgft2n6"
    secret = "AGE-SECRET-KEY-1WHUC2TWQCPWSCQ8GN8F48W87FRLV4DJ3KWZ8M6FT029S5LGLYPQ0U348U4"
    text = f"# public key: {public}\n{secret}\nOlder archives use the GPG key."
    kinds = {text[f.start : f.end]: f.type for f in detect(text)}
    assert kinds.get(secret) == "AGE_SECRET_KEY"
