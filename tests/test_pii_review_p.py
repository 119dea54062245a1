"""Forms from reviewer P's blind round (tests/data/pii_review_p.jsonl: what regulated companies' agents
keep in memory; taken as it came). Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A SQL dump's INSERT names its columns once: each value is read as its column says.
        (
            "INSERT INTO customers (id, full_name, ssn) VALUES\n (1042, 'Priya R', '143071073'),\n (1043, 'M', NULL);",
            ["143071073"],
        ),
        ("INSERT INTO orders (id, total) VALUES (1, 123456789);", []),
        ("INSERT INTO users (name, password) VALUES ('bob', 'Hunter2!x')", ["Hunter2!x"]),
        # A MySQL client's table: the rule between header and rows is passed over.
        (
            "+----+-------+------------------+\n| id | login | password_plain   |\n+----+-------+------------------+\n"
            "|  1 | admin | Rotterdam!2011   |\n+----+-------+------------------+",
            ["Rotterdam!2011"],
        ),
        # An SSN column's values written with spaces.
        ("emp_id,name,ssn\nE1023,Victor Ramirez,545 22 0950\n", ["545 22 0950"]),
        ("emp_id,name,ssn\nE1023,Victor Ramirez,000 22 0950\n", []),  # area 000: no SSN
        # A seed phrase on the line after its label's colon, the label's remark longer than before.
        (
            'He pasted his wallet recovery phrase into the chat "so we can verify ownership":\n'
            "digital profit undo melt pen brief judge stairs museum you ticket blood",
            ["digital profit undo melt pen brief judge stairs museum you ticket blood"],
        ),
        # A password in backticks after its label; a default given to ENV.fetch.
        ("can someone reset the QA db password? it's still `kPU1CYN#VMuH5R25oBT`", ["kPU1CYN#VMuH5R25oBT"]),
        ("the password field is called `password_hash` here", []),
        ('  password: <%= ENV.fetch("BILLING_DB_PASSWORD", "baZ%L5oK1iW*5a7hYqRp") %>', ["baZ%L5oK1iW*5a7hYqRp"]),
        # Express's signed session cookie, sent by curl -b; a key named "bearer".
        (
            "$ curl -b 'connect.sid=s%3AjcidIjjkmP0bjwy9qQ3HfaV0kwFNM2Ul.Oyr9dq4ewM1rqf2wow17TRage4uoAQUgSH8' https://a.io/",
            ["s%3AjcidIjjkmP0bjwy9qQ3HfaV0kwFNM2Ul.Oyr9dq4ewM1rqf2wow17TRage4uoAQUgSH8"],
        ),
        ("ls -b sid=1234567890abcdefgh", []),  # no curl, no cookie
        (
            "TWITTER_BEARER=AAAAAAAAAAAAAAAAAAAAAUHrMhUI4Kgpxm608FCVhD1CEZ%3DyQRcsnNTIGVNNlLonyHC51ge5",
            ["AAAAAAAAAAAAAAAAAAAAAUHrMhUI4Kgpxm608FCVhD1CEZ%3DyQRcsnNTIGVNNlLonyHC51ge5"],
        ),
        ("use_bearer = enabled_for_all_clients", []),
        # Phones: a plural label; "called from" in Portuguese; a ZIP code range is none.
        ("- Phones: +351 912 007 674 (personal), 21 262 4810 (desk)", ["+351 912 007 674", "21 262 4810"]),
        ("- BR: Camila ligou de (11) 99022-3803, quer portabilidade", ["(11) 99022-3803"]),
        ("US ZIP codes served by the desk: 60601-60699, 46201", []),
        # Addresses: after an ellipsis; an email after a URL in a CSV row.
        ("established between 85.103.124.133[vpn]...62.71.152.105[peer]", ["85.103.124.133", "62.71.152.105"]),
        ("Work,Okta,https://meridian.okta.com,t.brandt@meridian-bank.net,x", ["t.brandt@meridian-bank.net"]),
        # Mollie's keys, Vault's service tokens before 1.10, OpenWeather's appid: both cases and a digit
        # for the first two ("test_" and "s." start names in code).
        ("- Mollie (NL/BE): live_Z5U8pqIi1P4x7C8YihiDTWoUieRXcQ", ["live_Z5U8pqIi1P4x7C8YihiDTWoUieRXcQ"]),
        ("def test_abcdefghijklmnopqrstuvwxyzabcd(): pass", []),
        ("vault login s.u02dcPApm8XtvERukSyzlMDr", ["s.u02dcPApm8XtvERukSyzlMDr"]),
        ("self.s.getElementByIdentifierName()", []),
        ("GET /forecast?q=Hamburg&appid=cd9301925253daffad942f819e3698c1", ["cd9301925253daffad942f819e3698c1"]),
        ("appid = com.example.app", []),
        # A JWT a log wrapped inside its JSON string: up to the quote that closes the string.
        (
            '{"access_token":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ODU0Njc3In0.W0jxvu\n'
            '9PFABxV-kaVdGheeAuokp7bInmqtQs3P0Jwg","token_type":"Bearer"}',
            [
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ODU0Njc3In0.W0jxvu\n9PFABxV-kaVdGheeAuokp7bInmqtQs3P0Jwg"
            ],
        ),
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ODU0Njc3In0.W0jxvu9PFABxV\n"
            "X-Request-Id: abcdef0123456789",
            ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ODU0Njc3In0.W0jxvu9PFABxV"],
        ),
        # Kept: a version after "fixed in", the limited broadcast, a placeholder password.
        ("Reproduced on build 22631.3527; fixed in client 5.2.0.14.", []),
        ("  broadcast 255.255.255.255", []),
        ("ADMIN_PASSWORD=changeme", []),
    ],
)
def test_forms_of_reviewer_p(text: str, values: list[str]) -> None:
    assert found_values(text) == values
