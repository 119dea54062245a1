"""Sections of the PII corpus added for detection hardening, and the must-survive set.

Called by make_pii_corpus.py after its own sections, with a seed of its own so the earlier lines
stay byte for byte as they were. Everything here is synthetic: numbers are drawn until
phonenumbers, Luhn or mod 97 accept them, secrets follow the published token formats (the recipes
of make_secret_rules.py), and the evasion section rewrites such values the way an adversarial
writer would (other-script digits, invisible characters, Unicode separators, look-alike letters).
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from collections.abc import Callable
from pathlib import Path

import phonenumbers
from make_secret_rules import RECIPES, fill

R = random.Random(20250315)
Add = Callable[..., None]
PNT = phonenumbers.PhoneNumberType
PNF = phonenumbers.PhoneNumberFormat


# ---------------------------------------------------------------- value factories


def digits(n: int) -> str:
    return "".join(R.choice(string.digits) for _ in range(n))


def luhn_complete(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return body + str((10 - total % 10) % 10)


def card(prefix: str = "4", length: int = 16) -> str:
    return luhn_complete(prefix + digits(length - len(prefix) - 1))


def ssn() -> str:
    while True:
        area = R.randrange(1, 900)
        if area != 666:
            return f"{area:03d}-{R.randrange(1, 100):02d}-{R.randrange(1, 10000):04d}"


def iban_de() -> str:
    bban = digits(18)
    check = 98 - int("".join(str(int(c, 36)) for c in bban + "DE00")) % 97
    return f"DE{check:02d}{bban}"


def phone(region: str, kind: int = PNT.MOBILE) -> phonenumbers.PhoneNumber:
    """A valid number of ``region``: the example number with its last digits redrawn."""
    example = phonenumbers.example_number_for_type(region, kind)
    assert example is not None, region
    national = str(example.national_number)
    for _ in range(200):
        candidate = national[:-4] + digits(4)
        number = phonenumbers.parse("+" + str(example.country_code) + candidate, None)
        if phonenumbers.is_valid_number(number):
            return number
    return example


def spelled(number: phonenumbers.PhoneNumber, style: str) -> str:
    if style == "intl":
        return phonenumbers.format_number(number, PNF.INTERNATIONAL)
    if style == "e164":
        return phonenumbers.format_number(number, PNF.E164)
    if style == "intl-dash":
        return phonenumbers.format_number(number, PNF.INTERNATIONAL).replace(" ", "-")
    if style == "00":
        return "00" + phonenumbers.format_number(number, PNF.INTERNATIONAL)[1:]
    return phonenumbers.format_number(number, PNF.NATIONAL)


FIRST = ["Ana", "Bo", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena", "Omar", "Pia"]
LAST = ["Keller", "Osei", "Novak", "Ibarra", "Lindqvist", "Moreau", "Tanaka", "Okafor", "Brandt", "Sorensen"]
DOMAINS = ["example.com", "example.org", "mail.example.co.uk", "corp.example.de", "example.fr", "example.in"]


def email() -> str:
    first, last = R.choice(FIRST), R.choice(LAST)
    local = R.choice([f"{first}.{last}", f"{first[0]}{last}", f"{last}{R.randrange(1, 99)}", f"{first}_{last}"])
    return local + "@" + R.choice(DOMAINS)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwt(header: dict[str, object]) -> str:
    head = b64url(json.dumps(header, separators=(",", ":")).encode())
    body = b64url(json.dumps({"sub": str(R.randrange(10**6)), "iat": 1710000000}).encode())
    return f"{head}.{body}.{b64url(bytes(R.randrange(256) for _ in range(32)))}"


# ---------------------------------------------------------------- phones of many regions

PHONE_TEMPLATES = [
    "Caller left a callback number: {p}. Wants to dispute the March fee.",
    "Spoke with the account holder at {p} to confirm the transfer.",
    "Emergency contact: brother, {p}",
    "call_log ts=2024-04-11T16:20:03Z from={p} duration=312s",
    "Please phone the ward on {p} before discharge.",
    "Alt. number on file is {p}; primary bounced.",
    "Tel.: {p}",
    "SMS verification sent to {p} at 10:42.",
    "Bitte unter {p} zurückrufen.",
    "Rappeler le client au {p} demain matin.",
]


def phones(add: Add) -> None:
    national = {
        "GB": [PNT.FIXED_LINE, PNT.MOBILE],
        "DE": [PNT.FIXED_LINE, PNT.MOBILE],
        "FR": [PNT.FIXED_LINE, PNT.MOBILE],
        "IN": [PNT.MOBILE],
        "US": [PNT.FIXED_LINE_OR_MOBILE, PNT.FIXED_LINE],
    }
    for region, kinds in national.items():
        for i in range(14):
            value = spelled(phone(region, kinds[i % len(kinds)]), ["national", "intl", "national", "00", "e164"][i % 5])
            if region == "DE" and i % 7 == 2:
                value = value.replace(" ", "/", 1)  # "030/1234567"
            if region == "GB" and i % 7 == 3:
                value = value.replace(" ", "-")
            add(R.choice(PHONE_TEMPLATES).format(p=value), [("PHONE", value)], f"phone {region}")
    abroad = [
        "JP",
        "BR",
        "AU",
        "ES",
        "IT",
        "NL",
        "SE",
        "MX",
        "ZA",
        "NG",
        "KE",
        "SG",
        "CN",
        "KR",
        "PL",
        "CH",
        "AT",
        "BE",
        "IE",
        "NZ",
        "AR",
        "TR",
        "PH",
        "EG",
        "AE",
    ]
    for i, region in enumerate(abroad * 2):
        value = spelled(phone(region, [PNT.MOBILE, PNT.FIXED_LINE][i % 2]), ["intl", "intl-dash", "e164"][i % 3])
        add(R.choice(PHONE_TEMPLATES).format(p=value), [("PHONE", value)], f"phone +{region}")
    # Long groups that a digit-group limit missed, and bare digits after "my number is".
    for value in ["+49 30 12345678", "030 12345678", "+49 89 1234567", "089 1234567", "+33 612345678"]:
        add(f"New landline: {value}.", [("PHONE", value)], "phone long group")
    for _ in range(8):
        bare = phonenumbers.format_number(phone("US", PNT.FIXED_LINE_OR_MOBILE), PNF.E164)[2:]
        text = R.choice(["my number is {p}", "You can reach me at {p} after six.", "mobile no. {p}", "ph {p}"])
        add(text.format(p=bare), [("PHONE", bare)], "phone bare digits after a phone word")
    for _ in range(4):
        bare = "0" + str(phone("GB", PNT.MOBILE).national_number)
        add(f"my number is {bare}", [("PHONE", bare)], "phone bare GB")


# ---------------------------------------------------------------- cards, SSNs, IBANs in new separators


def numbers(add: Add) -> None:
    for i in range(12):
        c = card(R.choice(["4", "51", "2221", "6011"]))
        sep = [".", "\u00a0", "\u202f", "\u2009", "\u2013"][i % 5]
        shown = sep.join(c[j : j + 4] for j in range(0, 16, 4))
        add(f"Customer paid with card {shown} yesterday.", [("CREDIT_CARD", shown)], "card dots/no-break spaces")
    for i in range(8):
        s = ssn()
        shown = s.replace("-", [".", "\u00a0", "\u2011", "\u2013"][i % 4])
        context = "SSN " if i % 4 == 1 else "ssn: "
        add(f"Verified {context}{shown} on the call.", [("US_SSN", shown)], "ssn dots/no-break spaces/dashes")
    for i in range(6):
        value = iban_de()
        shown = "\u00a0".join(value[j : j + 4] for j in range(0, len(value), 4)) if i % 2 else value
        add(f"Payout account {shown} confirmed.", [("IBAN", shown)], "iban no-break spaces")


# ---------------------------------------------------------------- secrets

SECRET_TEMPLATES = [
    "Found a leaked credential «» in last night's CI log; rotating it.",
    'config = {{"api": "«»", "region": "eu-west-1"}}',
    "export PROVIDER_CREDENTIAL=«»",
    "The vendor emailed «» in plain text, do not reuse.",
    "curl -H 'X-Auth: «»' https://api.example.com/v2/me",
    "step 3: paste «» into the dashboard",
]


def secrets(add: Add) -> None:
    for index, (kind, shape, _) in enumerate(RECIPES):
        recipe = shape if "«" in shape else SECRET_TEMPLATES[index % len(SECRET_TEMPLATES)].replace("«»", f"«{shape}»")
        text = fill(recipe)
        start, end = text.index("«"), text.index("»")
        value = text[start + 1 : end]
        add(text.replace("«", "").replace("»", ""), [(kind, value)], "secret rule")

    passwords = [
        "hunter22",
        "Tr0ub4dor&3",
        "correct-horse-battery-9",
        "Summer2024!",
        "p@ssw0rd123",
        "letmein42",
        "S3cr3t_Pa55",
        "Zq8!mN2#vX",
        "changeme99",
        "Welcome#2025",
    ]
    forms = [
        "password: {v}",
        "DB_PASSWORD={v}",
        '"password": "{v}",',
        "passwd={v}",
        "mysql -u root --password {v}",
        "The admin password is {v}",
        "pwd = '{v}'",
        "smtp_pass: {v}",
        "Wi-Fi passphrase: {v}",
        "PIN: {v}",
    ]
    for i, form in enumerate(forms * 2):
        value = passwords[(i * 3) % len(passwords)] if "PIN" not in form else digits(6)
        add(form.format(v=value), [("PASSWORD", value)], "password by keyword")
    generic_forms = [
        "client_secret = {v}",
        "token={v}",
        "SECRET: {v}",
        "x-api-key: {v}",
        "auth_token: '{v}'",
        "signing_key={v}",
        '"access_token": "{v}"',
        "?api_key={v}&format=json",
    ]
    for i, form in enumerate(generic_forms * 2):
        value = fill(["{A24}", "{H32}", "{B40}", "{A16}"][i % 4])
        add(form.format(v=value), [("GENERIC_SECRET", value)], "secret by keyword")

    for i in range(24):
        scheme = ["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp", "https", "ftp"][i % 8]
        user = R.choice(["admin", "app", "svc_ledger", "root", "", "deploy"])
        password = fill(R.choice(["{A16}", "{A12}!", "p{D6}w", "{L20}"]))
        cred = f"{user}:{password}"
        host = R.choice(
            [
                "db.internal.example.com:5432",
                "10.0.4.12:3306",
                "cluster0.abcde.mongodb.net",
                "cache.example.com:6379",
                "mq.example.com",
                "files.example.org",
            ]
        )
        entities = [("URL_CREDENTIALS", cred)]
        if host.startswith("10."):
            entities.append(("IP_ADDRESS", host.split(":")[0]))
        add(f"DATABASE_URL={scheme}://{cred}@{host}/app", entities, "credentials in a URL")
    for _ in range(4):
        cred = f"deploy:{fill('{A14}')}"
        add(f"curl -u {cred} https://ci.example.com/api/json", [("URL_CREDENTIALS", cred)], "curl -u credentials")
    for _ in range(8):
        raw = f"{R.choice(['svc', 'admin', 'jdoe'])}:{fill('{A12}')}".encode()
        value = base64.b64encode(raw).decode()
        add(f"Authorization: Basic {value}", [("BASIC_AUTH", value)], "basic auth")
    # A secret word, then "is" or ":" is an assignment (GENERIC_SECRET); a few words later, no assignment,
    # a random value is HIGH_ENTROPY_SECRET.
    prose = [
        ("my github token is {v}", "GENERIC_SECRET"),
        ("here is the api key {v} for staging", "HIGH_ENTROPY_SECRET"),
        ("the secret for the webhook: {v} (rotate!)", "HIGH_ENTROPY_SECRET"),
        ("use access key {v} until Friday", "HIGH_ENTROPY_SECRET"),
        ("our Stripe credential {v} expired", "HIGH_ENTROPY_SECRET"),
        ("token: {v}", "GENERIC_SECRET"),
    ]
    for i, (form, kind) in enumerate(prose * 3):
        value = fill(["{H32}", "{A24}", "{H40}", "{A20}"][i % 4])
        add(form.format(v=value), [(kind, value)], "secret in prose")
    for _ in range(5):
        token = jwt({"alg": "RS256", "typ": "JWT", "kid": fill("{H40}"), "x5c": [fill("{S900}")]})
        add(f"id_token={token}", [("JWT", token)], "jwt with a long header")
    for i in range(12):
        local, domain = R.choice(FIRST).lower(), R.choice(["example", "mail.example"])
        tld = R.choice(["com", "org", "co.uk"])
        dotted = domain.replace(".", " [dot] ") + " [dot] " + tld.replace(".", " [dot] ")
        shown = [f"{local} [at] {dotted}", f"{local}(at){domain}.{tld}", f"{local} {{at}} {domain}.{tld}"][i % 3]
        add(f"Write to {shown} for the forms.", [("EMAIL", shown)], "obfuscated email")


# ---------------------------------------------------------------- evasion

FULLWIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
SCRIPT_ZEROS = [0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0x1D7CE, 0x1D7F6, 0xFF10]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f", "\u180e"]
SPACES = ["\u00a0", "\u2009", "\u202f", "\u2007", "\u3000", "\u2002"]
DASHES = ["\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212", "\ufe63"]
HOMOGLYPHS = {
    "a": "\u0430",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "c": "\u0441",
    "x": "\u0445",
    "A": "\u0410",
    "E": "\u0415",
    "K": "\u041a",
    "M": "\u041c",
    "O": "\u041e",
    "P": "\u0420",
    "C": "\u0421",
    "T": "\u0422",
    "I": "\u0406",
    "S": "\u0405",
}


def fullwidth(value: str) -> str:
    return "".join(FULLWIDTH.get(c, "\u3000" if c == " " else c) for c in value)


def script_digits(value: str) -> str:
    zero = R.choice(SCRIPT_ZEROS)
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in value)


def sprinkle(value: str) -> str:
    """Invisible characters between characters (never first or last)."""
    char = R.choice(INVISIBLE)
    step = R.choice([1, 2, 4])
    return "".join(c + (char if (i + 1) % step == 0 and i < len(value) - 1 else "") for i, c in enumerate(value))


def isolate(value: str) -> str:
    """Each group wrapped in a bidi isolate: displays the same, reads as noise to a regex."""
    parts = value.split(" ")
    inner = len(parts) - 1
    return " ".join(f"\u2066{part}\u2069" if 0 < i < inner else part for i, part in enumerate(parts))


def separators(value: str) -> str:
    space, dash = R.choice(SPACES), R.choice(DASHES)
    return value.replace(" ", space).replace("-", dash)


def homoglyphs(value: str) -> str:
    head = max(4, value.find("_") + 1, value.find("-") + 1)
    return "".join(HOMOGLYPHS.get(c, c) for c in value[:head]) + value[head:]


def marks(value: str) -> str:
    return "".join(c + ("\u0332" if c.isdigit() else "") for c in value)


EVASIONS: dict[str, Callable[[str], str]] = {
    "fullwidth": fullwidth,
    "script digits": script_digits,
    "invisible": sprinkle,
    "bidi isolate": isolate,
    "unicode separators": separators,
    "combining marks": marks,
}
EVASION_TEMPLATES = [
    "Note for the file: {v} (as the customer typed it).",
    "Customer details -> {v}",
    "Copied from the chat: {v}, please action.",
    "value={v}",
]


def evasion(add: Add) -> None:
    values: list[tuple[str, str]] = []
    for _ in range(20):
        values.append(("EMAIL", email()))
        values.append(("PHONE", spelled(phone(R.choice(["US", "GB", "DE", "FR"]), PNT.MOBILE), "intl")))
        values.append(("CREDIT_CARD", card()))
        values.append(("US_SSN", ssn()))
    for _ in range(8):
        c = card("51")
        values.append(("CREDIT_CARD", " ".join(c[j : j + 4] for j in range(0, 16, 4))))
        values.append(("IBAN", iban_de()))
        values.append(("IP_ADDRESS", f"203.0.113.{R.randrange(1, 255)}"))
    secret_recipes = [
        ("AWS_ACCESS_KEY", "AKIA{U16}"),
        ("GITHUB_PAT", "ghp_{A36}"),
        ("STRIPE_SECRET_KEY", "sk_live_{A24}"),
        ("GOOGLE_API_KEY", "AIza{B35}"),
        ("SLACK_BOT_TOKEN", "xoxb-{D12}-{D13}-{A24}"),
        ("ANTHROPIC_API_KEY", "sk-ant-api03-{B93}AA"),
    ]
    for kind, recipe in secret_recipes * 4:
        values.append((kind, fill(recipe)))
    for index, (kind, value) in enumerate(values):
        names = list(EVASIONS)
        if kind in ("IP_ADDRESS", "IBAN") or kind in {k for k, _ in secret_recipes}:
            names = (
                ["fullwidth", "invisible", "script digits"] if kind != "IP_ADDRESS" else ["fullwidth", "script digits"]
            )
        if kind == "EMAIL":
            names = ["fullwidth", "invisible", "combining marks"]
        name = names[index % len(names)]
        shown = EVASIONS[name](value)
        if kind in {k for k, _ in secret_recipes} and index % 3 == 0:
            shown, name = homoglyphs(value), "homoglyph prefix"
        text = EVASION_TEMPLATES[index % len(EVASION_TEMPLATES)].format(v=shown)
        if kind == "US_SSN":
            text = "SSN " + text
        add(text, [(kind, shown)], f"evasion: {name}")
    # Keywords spelled with look-alikes and invisible characters still anchor a password.
    for _ in range(12):
        value = fill("{A10}9")
        key = R.choice(
            ["p\u0430ssword", "pass\u200bword", "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44", "PASSWORD"]
        )
        add(f"{key}: {value}", [("PASSWORD", value)], "evasion: disguised keyword")


# ---------------------------------------------------------------- benign text that must stay intact

MUST_SURVIVE_FIXED = r"""
icon@2x.png
logo@3x.webp
avatar@1.5x.jpg
assets/img/hero@2x.avif
IMG_20240315_101530.jpg
backup_2024-01-01T00-00-00Z.tar.gz
report-2024-03-15.pdf
data.v2.1.3.json
sha256sums.txt
Dockerfile.prod
.env.example
requirements-dev.txt
package-lock.json
v1.2.3
1.2.3-rc.1+build.5
Python 3.11.7
node v18.17.0
Windows 10.0.19045.3693
go1.22.1
release-2024.03.15
foo==4.2.0.post1
Chrome 120.0.6099.109
kernel 6.1.0-18-amd64
npm i lodash@4.17.21
pip install requests==2.31.0
@types/node@20.11.5
docker pull nginx:1.25.3
cr.test/org/app:2024.03.15-1a2b3c4
9fceb02d0ae598e95dc970b74767f19372d61af8
git checkout 1a2b3c4
md5 d41d8cd98f00b204e9800998ecf8427e
sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
sha256:4bcff63911fcb4448bd4fdacec207030997caf25e9bea4045fa6c8c44de311d1
$2b$12$KIXQkR6yq1ZJ0Zl2sVwQeOq7y0yQy3p8j4e6ZzZzZzZzZzZzZzZzZ
ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"
123e4567-e89b-12d3-a456-426614174000
550e8400-e29b-41d4-a716-446655440000
01ARZ3NDEKTSV4RRFFQ69G5FAV
2024-03-15T10:30:00Z
2024-03-15T10:30:00.123456+00:00
Fri, 15 Mar 2024 10:30:00 GMT
15.03.2024 14:00
03/15/2024 10:30 AM
1710498600
1710498600123
2024/12/31
Q1 2024
db.internal.example.com:5432
localhost:8080
localhost:8000
[::1]:8080
api.example.com:443
redis://cache.example.com:6379/0
postgres://db.example.com:5432/app
postgresql://db.internal.example.com/app?sslmode=require
mongodb://mongo-0.mongo.svc.cluster.local:27017/?replicaSet=rs0
https://api.example.com/v1/items?page=2&size=50
https://example.com/login?next=/dashboard
ssh://git@github.com/org/repo.git
git@github.com:org/repo.git
s3://bucket-name/path/to/key.parquet
amqp://mq.example.com:5672/vhost
file:///var/lib/app/data.db
https://user@example.com/profile
password_min_length = 12
password_max_age_days: 90
token_count: 4096
max_tokens=1024
api_key: ${API_KEY}
api_key: {{ .Values.apiKey }}
password: <redacted>
password: ********
password: required
secret: true
auth: none
key_size: 2048
sort_key = created_at
primary_key: id
secret_name: prod-db-credentials
cache_key = f"user:{user_id}"
password = os.environ["DB_PASSWORD"]
token = get_token()
token = settings.API_TOKEN
secret_key = SECRET_KEY
tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
Reset your password: click the link below.
The token expires in 3600 seconds.
Keep the signing secret in the vault, never in code.
GitHub tokens start with ghp_ and Slack bot tokens with xoxb-.
Our API key rotation policy is 90 days.
Use the Authorization header with the Bearer scheme.
This is the public key, not a secret.
-----BEGIN PUBLIC KEY-----
kubectl get pods -n kube-system -o wide
git checkout -b feature/JIRA-1234-login-fix
curl -sSL https://get.example.com/install.sh | sh
SELECT id, email_verified FROM users WHERE created_at > '2024-01-01' LIMIT 100;
for i in range(10): print(i ** 2)
std::vector<int> v(16, 0);
if (x >= 0x7fffffff) return -1;
values[1::2]
Order #48213
Invoice INV-2024-00042
PO 4500012345
Ticket #44123
ISBN 978-3-16-148410-0
CVE-2024-3094
RFC 7519
ISO 8601
E.164
MAC 00:1a:2b:3c:4d:5e
OID 1.3.6.1.4.1.311
Coordinates 37.7749, -122.4194
Temperature -5.5 to 12.3
1e-9
3.14159265358979
$1,299.00
EUR 4.500,00
Population 331,449,281
^1.2.3 || ~2.0.0
room 4B, floor 12
Meeting ID 845 2291 3377
Flight LH 454 at 21:35
Ratio 16:9
Build 2.0.0.1234
build 20240315.1
version 10.0.0.1
ZIP 94105-1234
London SW1A 1AA
UPS 1Z999AA10123456784
Lot 12345678 expires 2026-08
Case 00123456
""".strip().splitlines()


def must_survive() -> list[str]:
    lines = list(MUST_SURVIVE_FIXED)
    exts = ["png", "jpg", "svg", "webp", "pdf", "csv", "json", "yaml", "tar.gz", "log"]
    for i in range(40):
        export = f"export_{R.randrange(2019, 2026)}_{R.randrange(1, 13):02d}.{exts[i % len(exts)]}"
        chart = f"chart_v{R.randrange(1, 9)}.{R.randrange(0, 20)}.{exts[i % 3]}"
        lines.append(R.choice([f"screenshot-{i}@2x.{exts[i % 4]}", export, chart]))
    for _ in range(30):
        lines.append(f"{R.randrange(0, 30)}.{R.randrange(0, 40)}.{R.randrange(0, 200)}")
    for _ in range(30):
        lines.append(str(uuid.UUID(int=R.getrandbits(128))))
    for _ in range(30):
        lines.append(f"{R.getrandbits(160):040x}"[: R.choice([7, 12, 40])])
    for _ in range(25):
        lines.append(
            f"{R.randrange(2019, 2027)}-{R.randrange(1, 13):02d}-{R.randrange(1, 29):02d}T"
            f"{R.randrange(24):02d}:{R.randrange(60):02d}:{R.randrange(60):02d}Z"
        )
    hosts = ["db", "api", "cache", "queue", "search", "auth", "metrics", "grafana", "vault", "registry"]
    for _ in range(30):
        host = f"{R.choice(hosts)}-{R.randrange(0, 9)}.{R.choice(['internal', 'prod', 'staging'])}.example.com"
        lines.append(R.choice([f"{host}:{R.randrange(1024, 65535)}", f"https://{host}/healthz", f"tcp://{host}:9092"]))
    return lines


def extend(add: Add, must_survive_path: Path) -> None:
    phones(add)
    numbers(add)
    secrets(add)
    evasion(add)
    survive = must_survive()
    must_survive_path.write_text("\n".join(survive) + "\n", encoding="utf-8")
    for line in survive:
        add(line, [], "must survive")
