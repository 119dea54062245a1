"""Generate tests/data/pii_corpus.jsonl: synthetic values only (test BINs, computed checksums)."""

import base64
import json
import random
import string
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Writes beside this script unless a path is given: python tests/data/make_pii_corpus.py [OUT]
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("pii_corpus.jsonl")

R = random.Random(20240615)
lines: list[dict[str, Any]] = []


def add(text: str, entities: Sequence[tuple[str, str]] = (), note: str = "") -> None:
    for etype, value in entities:
        assert value in text, (value, text)
    lines.append({"text": text, "entities": [{"type": t, "value": v} for t, v in entities], "note": note})


# ---------- value factories ----------
def luhn_digit(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def card(prefix: str, length: int) -> str:
    body = prefix + "".join(R.choice(string.digits) for _ in range(length - len(prefix) - 1))
    return body + luhn_digit(body)


def luhn_ok(num: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def group(num: str, sizes: Sequence[int], sep: str) -> str:
    out, i = [], 0
    for s in sizes:
        out.append(num[i : i + s])
        i += s
    return sep.join(out)


def iban(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    numeric = "".join(str(int(c, 36)) for c in rearranged)
    check = 98 - int(numeric) % 97
    return f"{country}{check:02d}{bban}"


def grouped4(s: str) -> str:
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4))


def digits(n: int) -> str:
    return "".join(R.choice(string.digits) for _ in range(n))


def upper_alnum(n: int) -> str:
    return "".join(R.choice(string.ascii_uppercase + string.digits) for _ in range(n))


def alnum(n: int) -> str:
    return "".join(R.choice(string.ascii_letters + string.digits) for _ in range(n))


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwt(payload: dict[str, str | int]) -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(payload, separators=(",", ":")).encode())
    sig = b64url(bytes(R.randrange(256) for _ in range(32)))
    return f"{header}.{body}.{sig}"


def ssn() -> str:
    while True:
        area = R.randrange(1, 900)
        if area == 666:
            continue
        return f"{area:03d}-{R.randrange(1, 100):02d}-{R.randrange(1, 10000):04d}"


def pem(kind: str) -> str:
    body = base64.b64encode(bytes(R.randrange(256) for _ in range(R.choice([96, 144, 192])))).decode()
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    label = f"{kind} PRIVATE KEY" if kind else "PRIVATE KEY"
    return f"-----BEGIN {label}-----\n" + "\n".join(rows) + f"\n-----END {label}-----"


FIRST = [
    "Ana",
    "Bo",
    "Chen",
    "Dara",
    "Eli",
    "Fatima",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kai",
    "Lena",
    "Mo",
    "Nia",
    "Omar",
    "Pia",
    "Quinn",
    "Rui",
    "Sana",
    "Tomas",
]
LAST = ["Keller", "Osei", "Novak", "Ibarra", "Lindqvist", "Moreau", "Tanaka", "Okafor", "Brandt", "Sorensen"]
DOMAINS = ["example.com", "example.org", "example.net", "mail.example.co.uk", "corp.example.de", "test.example.io"]

# ---------- EMAIL ----------
email_templates = [
    "Customer {n} asked us to send the statement to {e} instead of the branch address.",
    "2024-05-02T09:14:55Z INFO notify: sent reset link to={e} status=ok",
    "Reply-To: <{e}>",
    "Please cc {e} on the escalation; she handles the chargeback queue.",
    '{{"user": {{"id": 4821, "email": "{e}", "tier": "gold"}}}}',
    "mailto:{e}?subject=Appointment",
    "Patient prefers contact by email ({e}) rather than phone.",
    "notification_email = {e}",
    'Forwarded from {e}: "can you confirm the wire went out?"',
    "Owner: {e}; reviewer: compliance team.",
]
for i in range(32):
    f, l, d = R.choice(FIRST), R.choice(LAST), R.choice(DOMAINS)
    style = i % 6
    local = [
        f"{f}.{l}",
        f"{f[0]}{l}",
        f"{f}_{l}{R.randrange(10, 99)}",
        f"{f}.{l}+billing",
        f"{l}{R.randrange(1, 9)}",
        f"{f}-{l}",
    ][style]
    e = f"{local}@{d}"
    if i % 7 == 3:
        e = e.upper() if i % 2 else e.lower()
    add(R.choice(email_templates).format(n=R.randrange(1000, 9999), e=e), [("EMAIL", e)], "email")

# ---------- PHONE ----------
us_numbers = [
    "(415) 555-2671",
    "415-555-2671",
    "+1 415 555 2671",
    "(212) 555-0123",
    "202-555-0143",
    "+1-650-253-0000",
    "415.555.2671",
    "1.800.555.0199",
    "+1 (312) 555-0147",
    "(646) 555-0187",
    "303-555-0112",
    "+14155552671",
    "(617) 555-0134",
    "206.555.0166",
    "+1 202 555 0175",
]
intl_numbers = [
    "+44 20 7946 0958",
    "+49 30 901820",
    "+33 1 42 68 53 00",
    "+91 98765 43210",
    "+61 2 9374 4000",
    "+81 3-1234-5678",
    "+353 1 234 5678",
    "+34 912 345 678",
    "+39 06 1234 5678",
    "+31 20 123 4567",
    "+46 8 123 456 78",
    "+41 44 668 18 00",
    "+55 11 91234-5678",
    "+52 55 1234 5678",
    "+44 (0)20 7946 0958",
    "+49 (30) 901820",
    "+44 7400 123456",
    "+33 6 12 34 56 78",
]
phone_templates = [
    "Caller left a callback number: {p}. Wants to dispute the March fee.",
    "Spoke with the account holder at {p} to confirm the transfer.",
    "Emergency contact: sister, {p}",
    "call_log ts=2024-04-11T16:20:03Z from={p} duration=312s",
    "Please phone the ward on {p} before discharge.",
    "Alt. number on file is {p}; primary bounced.",
    "Cell: {p}",
    "SMS verification sent to {p} at 10:42.",
]
for p in us_numbers + intl_numbers:
    add(R.choice(phone_templates).format(p=p), [("PHONE", p)], "phone")
add("Mobile number 4155552671 was verified by SMS.", [("PHONE", "4155552671")], "phone: compact with context word")
add("tel: 2125550123 (office)", [("PHONE", "2125550123")], "phone: compact after 'tel'")

# ---------- CREDIT_CARD ----------
test_cards = [
    "4111111111111111",
    "4012888888881881",
    "5555555555554444",
    "5105105105105100",
    "378282246310005",
    "371449635398431",
    "6011111111111117",
    "6011000990139424",
    "3530111333300000",
    "30569309025904",
    "2223003122003222",
    "4000056655665556",
]
gen_cards = [
    card("4", 16),
    card("4", 16),
    card("51", 16),
    card("53", 16),
    card("2221", 16),
    card("34", 15),
    card("37", 15),
    card("6011", 16),
    card("65", 16),
    card("4", 13),
    card("4", 19),
    card("36", 14),
]
card_templates = [
    "Customer read out card {c} exp 09/27 to pay the overdue balance.",
    "payment_attempt card={c} amount=129.00 currency=USD result=declined",
    "Refund issued to the card ending in the number {c}.",
    "PAN: {c}",
    "Charged {c} for the March invoice, auth code 0042.",
    "Card on file {c} was replaced after the fraud report.",
]
for i, c in enumerate(test_cards + gen_cards):
    assert luhn_ok(c)
    if len(c) == 15:
        shown = group(c, [4, 6, 5], " " if i % 2 else "-") if i % 3 else c
    elif len(c) == 16:
        shown = [c, group(c, [4, 4, 4, 4], " "), group(c, [4, 4, 4, 4], "-")][i % 3]
    elif len(c) == 14:
        shown = group(c, [4, 6, 4], " ") if i % 2 else c
    elif len(c) == 19:
        shown = group(c, [4, 4, 4, 4, 3], " ")
    else:
        shown = c
    add(R.choice(card_templates).format(c=shown), [("CREDIT_CARD", shown)], "card (Luhn-valid, test BIN)")

# ---------- IBAN ----------
iban_specs: list[tuple[str, Callable[[], str]]] = [
    ("DE", lambda: digits(18)),
    ("GB", lambda: "WEST" + digits(14)),
    ("FR", lambda: digits(10) + upper_alnum(11) + digits(2)),
    ("NL", lambda: "ABNA" + digits(10)),
    ("ES", lambda: digits(20)),
    ("IT", lambda: "X" + digits(10) + upper_alnum(12)),
    ("CH", lambda: digits(5) + upper_alnum(12)),
    ("BE", lambda: digits(12)),
    ("NO", lambda: digits(11)),
    ("PL", lambda: digits(24)),
    ("AT", lambda: digits(16)),
    ("IE", lambda: "AIBK" + digits(14)),
    ("SE", lambda: digits(20)),
    ("PT", lambda: digits(21)),
    ("DK", lambda: digits(14)),
    ("FI", lambda: digits(14)),
]
iban_templates = [
    "Beneficiary IBAN {i}, reference 'rent May'.",
    "Please update the payout account to {i} effective next cycle.",
    "sepa_transfer iban={i} amount=2500.00 EUR status=queued",
    "Wire instructions: IBAN {i} BIC DEUTDEFF",
    "Client changed salary account to {i} on the 3rd.",
]
for i, (cc, bban) in enumerate(iban_specs * 2):
    value = iban(cc, bban())
    shown = grouped4(value) if i % 2 else value
    add(R.choice(iban_templates).format(i=shown), [("IBAN", shown)], f"iban {cc}")
add(
    "Known good IBAN DE89 3704 0044 0532 0130 00 from the docs example.",
    [("IBAN", "DE89 3704 0044 0532 0130 00")],
    "iban",
)
add("Lowercase as typed by the client: gb82west12345698765432", [("IBAN", "gb82west12345698765432")], "iban lowercase")

# ---------- US_SSN ----------
ssn_templates = [
    "Verified identity with SSN {s} and date of birth.",
    "Applicant {s} flagged for manual review.",
    "W-9 on file, taxpayer number {s}.",
    "ssn={s} dob=1984-07-12 state=OH",
    "The caller gave {s} as her social security number.",
]
for _ in range(14):
    s = ssn()
    add(R.choice(ssn_templates).format(s=s), [("US_SSN", s)], "ssn dashed")
for t in ["SSN: {d}", "social security number {d} on the form", "ssn {d}", "SSN#{d} matched the bureau record"]:
    d = ssn().replace("-", "")
    add(t.format(d=d), [("US_SSN", d)], "ssn undashed with context")
d = ssn().replace("-", " ")
add(f"SSN {d} read over the phone", [("US_SSN", d)], "ssn spaced with context")

# ---------- IP_ADDRESS ----------
ipv4s = [
    "192.168.1.10",
    "10.0.0.5",
    "172.16.254.1",
    "203.0.113.42",
    "198.51.100.7",
    "8.8.8.8",
    "255.255.255.0",
    "100.64.12.9",
    "192.0.2.155",
    "127.0.0.1",
]
ipv6s = [
    "2001:db8::1",
    "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
    "fe80::1ff:fe23:4567:890a",
    "2001:db8:0:0:1:0:0:1",
    "::ffff:192.0.2.128",
    "2001:db8:abcd:12::",
]
ip_templates = [
    "Failed login from {ip} (3 attempts) for user jdoe.",
    'nginx: {ip} - - [12/Mar/2024:10:15:32 +0000] "GET /login HTTP/1.1" 401 512',
    "Customer's home router is {ip}; whitelist it.",
    "allowed_hosts: [{ip}]",
    "Session moved from {ip} to a new device.",
]
for ip in ipv4s + ipv6s:
    add(R.choice(ip_templates).format(ip=ip), [("IP_ADDRESS", ip)], "ip")
add("ssh deploy@[2001:db8::42]:22 timed out", [("IP_ADDRESS", "2001:db8::42")], "ipv6 in brackets")
add("Link-local peer fe80::1%eth0 answered.", [("IP_ADDRESS", "fe80::1%eth0")], "ipv6 with zone")
add(
    "CIDR 10.20.0.0/16 routes through 10.20.0.1.",
    [("IP_ADDRESS", "10.20.0.1")],
    "ipv4 cidr",
)

# ---------- AWS_ACCESS_KEY ----------
for i in range(8):
    key = ("AKIA" if i % 3 else "ASIA") + upper_alnum(16)
    t = [
        "aws_access_key_id = {k}",
        "export AWS_ACCESS_KEY_ID={k}",
        "Found hard-coded key {k} in the repo history.",
        '"AccessKeyId": "{k}",',
    ][i % 4]
    add(t.format(k=key), [("AWS_ACCESS_KEY", key)], "aws access key id")

# ---------- API_KEY ----------
api_keys = [
    "sk-ant-api03-" + "".join(R.choice(string.ascii_letters + string.digits + "-_") for _ in range(93)) + "AA",
    "sk-ant-api03-" + alnum(40) + "-" + alnum(20),
    "sk-proj-" + alnum(48) + "_" + alnum(20),
    "sk-" + alnum(48),
    "ghp_" + alnum(36),
    "gho_" + alnum(36),
    "ghs_" + alnum(36),
    "github_pat_" + alnum(22) + "_" + alnum(59),
    "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
    "xoxp-" + digits(11) + "-" + digits(11) + "-" + digits(13) + "-" + alnum(32),
    "sk_live_" + alnum(24),
    "rk_live_" + alnum(32),
    "sk_test_" + alnum(24),
    "AIza" + "".join(R.choice(string.ascii_letters + string.digits + "-_") for _ in range(35)),
]
api_templates = [
    "ANTHROPIC_API_KEY={k}",
    'client = Client(api_key="{k}")',
    "token: {k}",
    "Rotated the leaked key {k} this morning.",
    "config.set('key', '{k}')",
    "--api-key {k}",
]
api_key_types = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "SK_API_KEY",
    "GITHUB_PAT",
    "GITHUB_OAUTH_TOKEN",
    "GITHUB_APP_TOKEN",
    "GITHUB_FINE_GRAINED_PAT",
    "SLACK_BOT_TOKEN",
    "SLACK_USER_TOKEN",
    "STRIPE_SECRET_KEY",
    "STRIPE_RESTRICTED_KEY",
    "STRIPE_SECRET_KEY",
    "GOOGLE_API_KEY",
]
for i, k in enumerate(api_keys):
    add(api_templates[i % len(api_templates)].format(k=k), [(api_key_types[i], k)], "api key")
secret = "".join(R.choice(string.ascii_letters + string.digits + "/+") for _ in range(40))
add(f"aws_secret_access_key = {secret}", [("AWS_SECRET_KEY", secret)], "aws secret access key by name")

# ---------- PRIVATE_KEY ----------
for kind in ["RSA", "EC", "OPENSSH", "", "ENCRYPTED", "DSA"]:
    block = pem(kind)
    add(f"Here is the deploy key, do not share:\n{block}\nThanks!", [("PRIVATE_KEY", block)], "pem block")
block = pem("RSA")
escaped = block.replace("\n", "\\n")
add(
    '{"private_key": "' + escaped + '", "client_email": "svc"}',
    [("PRIVATE_KEY", escaped)],
    "pem in json, escaped newlines",
)

# ---------- JWT ----------
for i in range(6):
    token = jwt({"sub": str(R.randrange(10**6)), "iat": 1700000000 + i, "role": "teller"})
    t = [
        "id_token={t}",
        "Cookie: session={t}; Path=/",
        "The SSO callback returned {t} which we logged by mistake.",
        "jwt: {t}",
        "curl https://api.example.com/v1/me?access_token={t}",
        "token from login: {t}",
    ][i]
    add(t.format(t=token), [("JWT", token)], "jwt")

# ---------- BEARER_TOKEN ----------
for i in range(6):
    token = (
        "".join(R.choice(string.ascii_letters + string.digits + "-._~") for _ in range(R.choice([24, 32, 40]))) + "9"
    )
    t = [
        "Authorization: Bearer {t}",
        "curl -H 'Authorization: Bearer {t}' https://api.example.com/v2/accounts",
        "headers = {{'Authorization': 'Bearer {t}'}}",
        "DEBUG http: > authorization: bearer {t}",
        "Request failed with Bearer {t} (401)",
        'proxy_set_header Authorization "Bearer {t}";',
    ][i]
    add(t.format(t=token), [("BEARER_TOKEN", token)], "bearer token")
token = jwt({"sub": "svc-ledger", "scope": "read"})
add(f"Authorization: Bearer {token}", [("JWT", token)], "jwt inside bearer: reported once, as JWT")
key = "sk-ant-api03-" + alnum(60)
add(f"Authorization: Bearer {key}", [("ANTHROPIC_API_KEY", key)], "api key inside bearer: reported once")

# ---------- mixed ----------
for _ in range(16):
    f, l = R.choice(FIRST), R.choice(LAST)
    e = f"{f}.{l}@{R.choice(DOMAINS)}".lower()
    p = R.choice(us_numbers + intl_numbers)
    c = group(card("4", 16), [4, 4, 4, 4], " ")
    s = ssn()
    ip = R.choice(ipv4s)
    variant = _ % 4
    if variant == 0:
        add(
            f"Ticket 8812: {f} {l} ({e}, {p}) reports card {c} charged twice.",
            [("EMAIL", e), ("PHONE", p), ("CREDIT_CARD", c)],
            "mixed",
        )
    elif variant == 1:
        add(f"KYC update: SSN {s}, phone {p}, email {e}.", [("US_SSN", s), ("PHONE", p), ("EMAIL", e)], "mixed")
    elif variant == 2:
        add(f"login ok user={e} ip={ip} at 2024-06-01T08:00:00Z", [("EMAIL", e), ("IP_ADDRESS", ip)], "mixed log")
    else:
        ib = grouped4(iban("DE", digits(18)))
        add(
            f"{f} asked to move the standing order to {ib}; confirm by phone on {p}.",
            [("IBAN", ib), ("PHONE", p)],
            "mixed",
        )

# ---------- BENIGN ----------
benign = [
    # dates and times
    "The quarterly review is on 2024-03-15 at 10:30 in room 4B.",
    "Statement period 01/15/2024 - 02/14/2024.",
    "Termin am 15.01.2024 um 14:00 Uhr.",
    "Created 2024-03-15T10:30:00Z, updated 2024-03-15T11:02:41.123456+00:00.",
    "Unix time 1700000000 corresponds to November 2023.",
    "Event ts_ms=1700000000123 processed in 42 ms.",
    "Office hours are 09:00-17:00, Monday to Friday.",
    "Backup window 2024-01-01 00:00 to 2024-01-01 04:00 UTC.",
    "Born in 1984, joined in 2009, promoted in 2015.",
    "Due 2024/12/31; grace period ends 2025-01-15.",
    # versions
    "Upgraded the service from version 1.2.3 to 1.2.4.",
    "Installed Python 3.11.7 and Node v18.17.0 on the runner.",
    "Running kernel 6.1.0-18-amd64 on Debian 12.",
    "Windows build 10.0.19045.3693 is supported.",
    "Release v10.0.0.1 fixes the login bug.",
    "Chrome 120.0.6099.109 renders the page correctly.",
    "Dependency pinned to 2.14.1.3.7 by the vendor.",
    "The firmware version 10.0.0.1 must be replaced.",
    "Package foo==4.2.0.post1 and bar>=1.0.0rc2.",
    "Kubernetes 1.28.3 and Helm 3.13.2 are required.",
    "Bump 10.0.0.1.2 to 10.0.0.1.3 in the manifest.",
    # order numbers, references
    "Order #48213 shipped; order 1002345678 is on hold.",
    "Invoice INV-2024-00042 was paid on time.",
    "PO 4500012345 approved by procurement.",
    "Ticket #44123 closed as duplicate of #44120.",
    "Case 00123456 escalated to tier 2.",
    "Your order number is 2025550143, please keep it.",
    "Order ID: 8005551234 — reference for the returns desk.",
    "Claim 2024-0001234 awaiting documents.",
    "Reference no. 7712345678 for the wire.",
    "Item SKU 0012345678905 restocked.",
    # prices and amounts
    "The plan costs $1,299.00 per year or $129.99 per month.",
    "Total: EUR 4.500,00 incl. VAT.",
    "Budget spent: $12,450.00 of $20,000.",
    "Fee £89.99, discount 15%, net £76.49.",
    "Population 331,449,281 as of the 2020 census.",
    "Revenue grew 12.5% to 4,532,109.87 USD.",
    "Wire of 2,500,000.00 approved.",
    "Price per share: 142.57; volume 18,234,556.",
    # code
    "for (int i = 0; i < 10; i++) { sum += arr[i]; }",
    "result = matrix_a @ matrix_b  # matmul",
    "@dataclass(frozen=True)\nclass Point:\n    x: int",
    "evens = values[::2]; odds = values[1::2]",
    "std::vector<int> v; v.push_back(42);",
    "if (x >= 0x7fffffff) return -1;",
    "SELECT * FROM orders WHERE id = 1234567 LIMIT 10;",
    "assert add(2, 3) == 5, 'math is broken'",
    "def f(a: int = 10, b: float = 2.5) -> None: ...",
    "port_map = {'8080:80', '5432:5432'}",
    "docker run -p 8080:80 nginx:1.25.3",
    "image: python:3.11-slim",
    "x = 3.14159265358979; y = 2.718281828459045",
    "timeout=30s retries=5 backoff=1.5",
    "url = 'https://example.com/api/v1/items?page=2&size=50'",
    "chmod 0644 /etc/app/config.yaml",
    "user@localhost is not a routable address.",
    # identifiers and hashes
    "Request id 123e4567-e89b-12d3-a456-426614174000 failed.",
    "Trace 550e8400-e29b-41d4-a716-446655440000 completed in 35 ms.",
    "Commit 9fceb02d0ae598e95dc970b74767f19372d61af8 introduced the regression.",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "md5 d41d8cd98f00b204e9800998ecf8427e",
    "Build artifact 7f3a9c2e1b.tar.gz uploaded.",
    "Object key 4f2d8e9a-1c3b-4e5f-9a7b-0c1d2e3f4a5b/report.pdf",
    "ISBN 978-3-16-148410-0 is on the reading list.",
    "DOI 10.1000/182 describes the handle system.",
    # zip codes, addresses, tracking
    "Ship to 123 Main St, San Francisco, CA 94105.",
    "ZIP+4 code 94105-1234 is valid.",
    "London SW1A 1AA, United Kingdom.",
    "UPS tracking 1Z999AA10123456784 in transit.",
    "USPS tracking 9400 1000 0000 0000 0000 00 delivered.",
    "FedEx 7489 2345 6789 shipped.",
    "Postal code 10115 Berlin.",
    # numbers that fail Luhn
    "Card number 4111 1111 1111 1112 was rejected as invalid.",
    "Test string 1234567812345678 is not a card.",
    "The value 4000-0000-0000-0001 failed validation.",
    "Account 5555 5555 5555 5555 rejected by the checker.",
    "Reference 378282246310006 does not pass Luhn.",
    # invalid IBAN checksums
    "IBAN DE89 3704 0044 0532 0130 01 failed the checksum.",
    "Typo'd account GB00WEST12345698765432 rejected.",
    "FR00 1234 5678 9012 3456 7890 123 is not valid.",
    "The code XX12 3456 7890 1234 5678 is not a country.",
    # invalid SSNs
    "Placeholder SSN 000-12-3456 is never issued.",
    "666-12-3456 is an invalid area number.",
    "ITIN-like 912-34-5678 is not an SSN.",
    "Group zero 123-00-4567 is invalid.",
    "Serial zero 123-45-0000 is invalid.",
    "The number 123456789 appears without any context.",
    # invalid phones
    "Dial (555) 123-4567 in the movie script.",
    "Fake number 123-456-7890 in the template.",
    "Extension 4021 at the front desk.",
    "Local 555-0100 without area code.",
    "Phone: 000-000-0000 is a placeholder.",
    "Call 1-800-FLOWERS for delivery.",
    # invalid IPs / ip-like
    "Version string 1.2.3.4.5 is not an address.",
    "256.1.1.1 is out of range.",
    "OID 1.3.6.1.4.1.311 identifies the vendor.",
    "Times 10:30:00 and 12:45:30 logged.",
    "MAC 00:1a:2b:3c:4d:5e registered.",
    "Ratio 16:9 and 4:3 supported.",
    "Coordinates 37.7749, -122.4194 point to SF.",
    "Build 2.0.0.1234 is the nightly.",
    # secrets-ish but benign
    "The bearer of this letter is authorised to collect the documents.",
    "Bearer bonds were discontinued in 1982.",
    "Use the Authorization header with the Bearer scheme.",
    "GitHub tokens start with ghp_ and Slack tokens with xoxb-.",
    "We use the sk-learn style API in our risk-assessment-2024-q1 notebook.",
    "AKIA keys are access key ids; rotate them every 90 days.",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----",
    "The header eyJ is base64 for '{\"'.",
    "Slack channel #xoxo-fans is noisy.",
    "pk_live_ keys are publishable and safe to ship.",
    # misc prose
    "Thanks everyone for the hard work this quarter.",
    "Please merge outstanding pull requests before the code freeze on the 22nd.",
    "The patient reported mild headaches for 3 days; BP 120/80, HR 72.",
    "Dosage 2.5 mg twice daily for 14 days.",
    "Room 1204, bed 2, ward C.",
    "Meeting ID 845 2291 3377 for the all-hands.",
    "Temperature ranged from -5.5 to 12.3 degrees.",
    "Chapter 3, section 2.4.1, paragraph 7.",
    "Score: 98.6 out of 100.",
    "The loan term is 30 years at 6.875% APR.",
    "Batch 2024-17 of 1,000 units passed QA.",
    "Speed 1.21 GW, year 1985.",
    "Lot 12345678 expires 2026-08.",
    "Flight LH 454 departs at 21:35 from gate B44.",
]
for t in benign:
    add(t, [], "benign")

# extra generated benign: dates, versions, prices, uuids, hashes in sentences
for _ in range(45):
    variety = _ % 9
    if variety == 0:
        t = f"Report generated on {R.randrange(2019, 2026)}-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d} at {R.randrange(24):02d}:{R.randrange(60):02d}."
    elif variety == 1:
        t = f"Bumped library to {R.randrange(0, 12)}.{R.randrange(0, 30)}.{R.randrange(0, 50)} after review."
    elif variety == 2:
        t = f"Order #{R.randrange(10000, 99999)} total ${R.randrange(1, 9999)}.{R.randrange(100):02d}."
    elif variety == 3:
        import uuid

        t = f"correlation_id={uuid.UUID(int=R.getrandbits(128))} status=200"
    elif variety == 4:
        t = f"checksum {R.getrandbits(160):040x}"
    elif variety == 5:
        t = f"Processed {R.randrange(1000, 99999):,} records in {R.randrange(1, 999)}.{R.randrange(10)} s."
    elif variety == 6:
        while True:
            n = card("4", 16)
            bad = n[:-1] + str((int(n[-1]) + R.randrange(1, 10)) % 10)
            if not luhn_ok(bad):
                break
        t = f"Rejected number {group(bad, [4, 4, 4, 4], ' ')} (checksum)."
    elif variety == 7:
        t = f"Deployed build {R.randrange(100, 999)}.{R.randrange(10)}.{R.randrange(10)}.{R.randrange(10)}.{R.randrange(10)} to staging."
    else:
        t = f"Zip {R.randrange(10000, 99999)}, suite {R.randrange(100, 999)}, floor {R.randrange(1, 40)}."
    add(t, [], "benign generated")

# ---------- international phones, secrets, evasion, more benign text (own seed: the lines above stay as they were)
sys.path.insert(0, str(Path(__file__).parent))
from pii_corpus_more import extend  # noqa: E402

extend(add, OUT.with_name("must_survive.txt"))

# ---------- bank accounts after their labels (own seed: the lines above stay as they were). A bank's own
# numbers (routing number, sort code, IFSC) name a branch and stay; so does a cloud's or a service's account.
B = random.Random(20261205)
bank_templates = [
    "Bank: {bank}\nRouting number: 021000021\nAccount number: {a} (checking)",
    "Refund by EFT: checking acct {a}, routing on file.",
    "Payment to be made by BACS - sort code 20-32-06, account no. {a}.",
    "Kontonummer: {a} bei der Sparkasse",
    "Número de cuenta bancaria: {a}",
    "numéro de compte bancaire : {a}",
    "Savings account {a} at the credit union",
    "खाता संख्या: {a}\nIFSC: HDFC0001234",
    "口座番号：{a}（普通）",
    "계좌번호 {a} (국민은행)",
    "Bank account number: {a}",
    "Direct deposit to account # {a}, effective next payroll.",
]
for n_bank in range(36):
    size = B.choice((8, 9, 12))
    account = str(B.randrange(1, 10)) + "".join(B.choice(string.digits) for _ in range(size - 1))
    template = bank_templates[n_bank % len(bank_templates)]
    add(
        template.format(a=account, bank=B.choice(("TD Bank", "Citizens Bank", "Navy Federal"))),
        [("BANK_ACCOUNT", account)],
        "bank account",
    )
add("Номер счёта: 40817810099910004312, банк ВТБ", [("BANK_ACCOUNT", "40817810099910004312")], "bank account ru")
for text in (
    "AWS account 123456789012 hosts the bank's staging stack.",
    "Account id 4471920 belongs to the wire-transfer service.",
    "Sort code 20-32-06 belongs to the Moorgate branch.",
    "ABA routing number 021000021 (wire) / 026009593 (international wire).",
    "Customer account 99812345 asked about the bank holiday.",
    "Account reference ACCT-0099-1832 is the premium account, not a bank account.",
    "Klient podał numer konta 611 857 383 przez telefon.",
    "Account number 88213344 for the gym membership renewal.",
):
    add(text, [], "benign bank words")

# ---------- national identity and tax numbers (NATIONAL_ID), their check digits computed here; a generator of
# their own, so that the lines above keep their values
N = random.Random(68)


def _digits(count: int) -> str:
    return "".join(N.choice(string.digits) for _ in range(count))


def bsn() -> str:
    while True:
        body = str(N.randrange(1, 10)) + _digits(7)
        last = sum(int(d) * w for d, w in zip(body, range(9, 1, -1), strict=True)) % 11
        if last < 10:
            return body + str(last)


def pesel() -> str:
    body = f"{N.randrange(50, 99):02d}{N.randrange(1, 13):02d}{N.randrange(1, 29):02d}" + _digits(4)
    total = sum(int(d) * w for d, w in zip(body, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3), strict=True))
    return body + str((10 - total % 10) % 10)


def nhs() -> str:
    while True:
        body = str(N.randrange(4, 7)) + _digits(8)
        check = 11 - sum(int(d) * w for d, w in zip(body, range(10, 1, -1), strict=True)) % 11
        if check != 10:
            return body + str(check % 11)


def cpf() -> str:
    body = _digits(9)
    first = sum(int(d) * w for d, w in zip(body, range(10, 1, -1), strict=True)) * 10 % 11 % 10
    second = sum(int(d) * w for d, w in zip(body + str(first), range(11, 1, -1), strict=True)) * 10 % 11 % 10
    return body + str(first) + str(second)


def dni() -> str:
    number = N.randrange(10_000_000, 99_999_999)
    return f"{number}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"


def sin() -> str:
    body = str(N.randrange(1, 8)) + _digits(7)
    return body + luhn_digit(body)


national: list[tuple[str, Callable[[], str], Callable[[str], str]]] = [
    ("BSN: {v}", bsn, lambda v: v),
    ("Intakeformulier — burgerservicenummer {v}, huisarts dr. Bakker", bsn, lambda v: group(v, (4, 2, 3), ".")),
    ("Dłużnik: PESEL {v}, zgoda na restrukturyzację", pesel, lambda v: v),
    ("Referral received, NHS number {v}, triage category 3", nhs, lambda v: group(v, (3, 3, 4), " ")),
    ("Cliente: CPF {v} | celular pendente", cpf, lambda v: f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}"),
    ("Asegurado: DNI {v}, parte de asistencia", dni, lambda v: v),
    ("Payroll setup: SIN {v}, province QC", sin, lambda v: group(v, (3, 3, 3), " ")),
]
for n_national in range(28):
    template, make, written = national[n_national % len(national)]
    value = written(make())
    add(template.format(v=value), [("NATIONAL_ID", value)], "national id")
# evasion: fullwidth digits, a zero-width joiner between digits
for n_national in range(4):
    value = bsn()
    wide = "".join(chr(ord(char) + 0xFEE0) for char in value)
    add(f"BSN (uit de scan): {wide}", [("NATIONAL_ID", wide)], "evasion national id fullwidth")
    joined = "\u200d".join(pesel())
    add(f"PESEL: {joined} — sprawdzić", [("NATIONAL_ID", joined)], "evasion national id zero-width")
for text in (
    "BSN-formulier versie 3, pagina 2 van 4.",
    "Order 682090358 shipped; the BSN field was left empty.",
    "PESEL verification service returned HTTP 503 at 10:42.",
    "NHS 111 is the non-emergency number; NHS trust code RX1.",
    "CPF inválido no cadastro 12345, pedido 2024-118.",
    "Sin embargo, el pedido 551725641 sigue pendiente.",
):
    add(text, [], "benign national id words")

with open(OUT, "w", encoding="utf-8") as out:
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
print(len(lines), "lines;", sum(1 for l in lines if not l["entities"]), "benign")

# ---------- the held-out adversarial set, a file of its own (pii_heldout.py says how it differs)
from pii_heldout import held_out  # type: ignore[import-not-found]  # noqa: E402

held = held_out()
with open(OUT.with_name("pii_heldout.jsonl"), "w", encoding="utf-8") as out:
    for line in held:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
print(len(held), "held-out lines;", sum(1 for l in held if not l["entities"]), "negative")
