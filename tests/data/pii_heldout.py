"""The held-out adversarial set: tests/data/pii_heldout.jsonl, written by make_pii_corpus.py.

Written from another angle than the corpus' evasion section, which rewrites a value character by
character (other-script digits, invisible characters) inside a few fixed templates. Here a value is
disguised the way a person or a model would when told to slip it past a filter, inside the kind of
text it would sit in (chat, YAML, logs, a ticket):

- letters for digits inside numbers: O and o for 0, l and I for 1, where the rest is plainly a number;
- addresses spelt out: "jane at example dot com", "(at)", "{dot}", an "@" with spaces, one letter at a time;
- values spaced out character by character, or cut by spaces or a line break after their keyword;
- Unicode beyond the usual: digits of other scripts mixed in one number, superscripts, circled and
  dingbat digits, mathematical and enclosed letters, variation selectors, tag characters, soft
  hyphens and combining marks inside values;

and hard negatives of the same shapes that must stay intact (prose with "at ... dot", retina asset
names, package specifiers, versions with letters, spaced headings, counting, YAML blocks after a
secret-like key). Own seed: the corpus and this set never shift each other.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

import phonenumbers

R = random.Random(20261201)
PNF = phonenumbers.PhoneNumberFormat
Line = dict[str, Any]


def _line(text: str, entities: list[tuple[str, str]], note: str) -> Line:
    for _, value in entities:
        assert value in text, (value, text)
    return {"text": text, "entities": [{"type": t, "value": v} for t, v in entities], "note": note}


# ---------------------------------------------------------------- values

FIRST = ["maria", "tomas", "aiko", "olu", "priya", "sven", "noor", "jakub", "lucia", "wen"]
LAST = ["garcia", "berg", "sato", "adeyemi", "nair", "holm", "haddad", "novak", "rossi", "li"]
HOSTS = ["example.com", "example.org", "example.net", "mail.example.co.uk", "example.de", "example.io"]


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


def card() -> str:
    prefix = R.choice(["4", "51", "52", "55", "6011"])
    return luhn_complete(prefix + digits(15 - len(prefix)))


def ssn() -> str:
    return f"{R.randrange(100, 665)}-{R.randrange(10, 99)}-{R.randrange(1000, 9999)}"


def phone(region: str) -> phonenumbers.PhoneNumber:
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    assert example is not None
    national = str(example.national_number)
    for _ in range(200):
        number = phonenumbers.parse(f"+{example.country_code}{national[:-4]}{digits(4)}", None)
        if phonenumbers.is_valid_number(number):
            return number
    return example


def intl(region: str) -> str:
    return phonenumbers.format_number(phone(region), PNF.INTERNATIONAL)


def national(region: str) -> str:
    return phonenumbers.format_number(phone(region), PNF.NATIONAL)


def person() -> tuple[str, str, str]:
    return R.choice(FIRST), R.choice(LAST), R.choice(HOSTS)


def token(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    body = "".join(R.choice(alphabet) for _ in range(n - 2))
    return R.choice(string.digits) + body + R.choice(string.ascii_letters)


# ---------------------------------------------------------------- disguises


def letters_for_digits(value: str) -> str:
    """Some 0s become O or o and some 1s l or I; at least one changes when the value has a 0 or a 1."""
    out = list(value)
    places = [i for i, c in enumerate(value) if c in "01"]
    R.shuffle(places)
    for i in places[: max(1, len(places) // 2)]:
        out[i] = R.choice("Oo") if value[i] == "0" else R.choice("lI")
    return "".join(out)


def spaced_out(value: str) -> str:
    return " ".join(value.replace(" ", ""))


SCRIPTS = [0x0E50, 0x17E0, 0x1810, 0x0F20, 0x1040, 0x09E6, 0x0AE6, 0x0BE6, 0x0CE6, 0x0D66, 0x1D7EC, 0x1D7E2]
DINGBATS = {"0": "\u24ea", **{str(d): chr(0x2460 + d - 1) for d in range(1, 10)}}
NEGATIVE_DINGBATS = {"0": "\u24ff", **{str(d): chr(0x2776 + d - 1) for d in range(1, 10)}}
SUPERSCRIPTS = dict(zip("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079", strict=True))


def mixed_scripts(value: str) -> str:
    """Each digit from a script of its own: no one script to undo."""
    return "".join(chr(R.choice(SCRIPTS) + int(c)) if c.isdigit() else c for c in value)


def per_digit(table: dict[str, str]) -> Callable[[str], str]:
    return lambda value: "".join(table.get(c, c) for c in value)


def math_letters(value: str) -> str:
    """Mathematical bold or sans-serif letters and digits."""
    base_upper, base_lower, base_digit = R.choice([(0x1D400, 0x1D41A, 0x1D7CE), (0x1D5A0, 0x1D5BA, 0x1D7E2)])
    out = []
    for c in value:
        if "A" <= c <= "Z":
            out.append(chr(base_upper + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(base_lower + ord(c) - 97))
        elif c.isdigit():
            out.append(chr(base_digit + int(c)))
        else:
            out.append(c)
    return "".join(out)


def circled_letters(value: str) -> str:
    return "".join(chr(0x24D0 + ord(c) - 97) if "a" <= c <= "z" else c for c in value)


def squared_letters(value: str) -> str:
    """Negative squared capitals (no compatibility decomposition: NFKC leaves them as they are)."""
    return "".join(chr(0x1F170 + ord(c.upper()) - 65) if c.isalpha() and c.isascii() else c for c in value)


def between(char: str) -> Callable[[str], str]:
    return char.join


def tags(value: str) -> str:
    """A tag-character payload after every third character (invisible, like an emoji flag's tail)."""
    return "".join(c + ("\U000e0031\U000e0032" if i % 3 == 2 else "") for i, c in enumerate(value))


def marks(value: str) -> str:
    accents = ["\u0301", "\u0308", "\u0336", "\u20e3", "\u0489"]
    return "".join(c + R.choice(accents) for c in value)


# ---------------------------------------------------------------- the set


def positives() -> list[Line]:
    out: list[Line] = []
    add = out.append

    # Letters for digits inside numbers.
    for i in range(16):
        number = intl(R.choice(["US", "GB", "DE", "FR", "IN", "ES", "IT", "NL"]))
        shown = letters_for_digits(number)
        if shown == number:
            continue
        template = ["my cell: {v}", "Ring me on {v} after six", "WhatsApp {v}", "tel {v} (home)"][i % 4]
        add(_line(template.format(v=shown), [("PHONE", shown)], "held-out evasion: letters for digits"))
    for i in range(10):
        number = card()
        grouped = " ".join(number[j : j + 4] for j in range(0, 16, 4))
        shown = letters_for_digits(grouped if i % 2 else number)
        template = ["card {v} exp 09/29", "Paid with {v}, CVV on the back", "cc# {v}"][i % 3]
        add(_line(template.format(v=shown), [("CREDIT_CARD", shown)], "held-out evasion: letters for digits"))
    for i in range(6):
        value = ssn()
        while "0" not in value and "1" not in value:
            value = ssn()
        shown = letters_for_digits(value)
        add(_line(f"SSN on file: {shown}" if i % 2 else f"social security {shown}", [("US_SSN", shown)],
                  "held-out evasion: letters for digits"))  # fmt: skip

    # Addresses spelt out.
    spellings: list[Callable[[str, str, str], str]] = [
        lambda f, s, h: f"{f} at {h.replace('.', ' dot ')}",
        lambda f, s, h: f"{f} dot {s} at {h.replace('.', ' dot ')}",
        lambda f, s, h: f"{f}.{s} AT {h.replace('.', ' DOT ')}",
        lambda f, s, h: f"{f}(at){h.replace('.', '(dot)')}",
        lambda f, s, h: f"{f}{{at}}{h.replace('.', '{dot}')}",
        lambda f, s, h: f"{f}_{s} [at] {h.replace('.', ' [dot] ')}",
        lambda f, s, h: f"{f} @ {h.replace('.', ' . ')}",
        lambda f, s, h: f"{f}.{s} @ {h}",
        lambda f, s, h: f"{f} at {h}",
        lambda f, s, h: spaced_out(f"{f}@{h}"),
        lambda f, s, h: spaced_out(f"{f}.{s}@{h}"),
        lambda f, s, h: f"{f}<at>{h.replace('.', '<dot>')}",
    ]
    contexts = ["email me: {v}", "You can write to {v} anytime.", "contact -> {v}", "{v} is my address",
                "reply to {v} pls", "- owner: {v}"]  # fmt: skip
    for i in range(36):
        first, last, host = person()
        shown = spellings[i % len(spellings)](first, last, host)
        text = contexts[i % len(contexts)].format(v=shown)
        add(_line(text, [("EMAIL", shown)], "held-out evasion: address spelt out"))

    # Numbers spaced out one digit at a time.
    for i in range(8):
        shown = spaced_out(intl(R.choice(["US", "GB", "DE"])))
        add(_line(f"number is {shown}" if i % 2 else f"call {shown} tonight", [("PHONE", shown)],
                  "held-out evasion: spaced out"))  # fmt: skip
    for _ in range(4):
        shown = spaced_out(card())
        add(_line(f"card: {shown}", [("CREDIT_CARD", shown)], "held-out evasion: spaced out"))

    # Secrets cut by spaces or a line break after their keyword.
    for i in range(8):
        value = "ghp_" + token(36)
        cut = R.randrange(8, 30)
        shown = value[:cut] + ("\n" if i % 2 else " ") + value[cut:]
        key = ["GITHUB_TOKEN", "token", "gh_token", "auth token"][i % 4]
        add(_line(f"{key}: {shown}", [("GITHUB_PAT", shown)], "held-out evasion: secret cut after keyword"))
    for i in range(8):
        value = token(32)
        chunks = [value[j : j + 8] for j in range(0, 32, 8)]
        shown = (" " if i % 2 else "\n").join(chunks)
        key = ["api_key", "client_secret", "secret", "access_token"][i % 4]
        add(_line(f"{key} = {shown}", [("GENERIC_SECRET", shown)], "held-out evasion: secret cut after keyword"))
    for i in range(6):
        value = token(12, string.ascii_letters + string.digits + "!#%&*")
        cut = R.randrange(4, 8)
        shown = value[:cut] + " " + value[cut:]
        add(_line(f"password: {shown}" if i % 2 else f"wifi passwd = {shown}", [("PASSWORD", shown)],
                  "held-out evasion: secret cut after keyword"))  # fmt: skip

    # Unicode beyond the usual.
    unicode_ways: list[tuple[str, Callable[[str], str]]] = [
        ("mixed scripts", mixed_scripts),
        ("superscripts", per_digit(SUPERSCRIPTS)),
        ("circled digits", per_digit(DINGBATS)),
        ("negative circled", per_digit(NEGATIVE_DINGBATS)),
        ("mathematical", math_letters),
        ("variation selectors", between("\ufe0f")),
        ("tag characters", tags),
        ("soft hyphens", between("\u00ad")),
        ("combining marks", marks),
    ]
    for i in range(45):
        name, way = unicode_ways[i % len(unicode_ways)]
        kind = ["PHONE", "CREDIT_CARD", "US_SSN", "EMAIL", "AWS_ACCESS_KEY"][i % 5]
        if kind == "PHONE":
            value = intl(R.choice(["US", "GB", "FR"]))
        elif kind == "CREDIT_CARD":
            value = card()
        elif kind == "US_SSN":
            value = ssn()
        elif kind == "EMAIL":
            first, last, host = person()
            value = f"{first}.{last}@{host}"
        else:
            value = "AKIA" + "".join(R.choice(string.ascii_uppercase + "234567") for _ in range(16))
        if kind in ("EMAIL", "AWS_ACCESS_KEY") and name in ("superscripts", "circled digits", "negative circled"):
            way = circled_letters if kind == "EMAIL" else squared_letters
            name = "enclosed letters"
        shown = way(value)
        text = ["SSN {v}", "{v}", "fwd: {v}", "> {v}", "note={v};"][i % 5].format(v=shown)
        if kind == "US_SSN" and not text.startswith("SSN"):
            text = "ssn " + text
        add(_line(text, [(kind, shown)], f"held-out evasion: {name}"))

    # Several disguises at once.
    for _ in range(6):
        first, last, host = person()
        shown = f"{first}\u00ad{last} (at) {host.replace('.', ' (dot) ')}".replace("a", "\u0430", 1)
        add(_line(f"mail {shown}", [("EMAIL", shown)], "held-out evasion: combined"))
    for _ in range(6):
        number = intl("GB")
        shown = per_digit(SUPERSCRIPTS)(letters_for_digits(number)).replace(" ", "\u2009")
        add(_line(f"mob {shown}", [("PHONE", shown)], "held-out evasion: combined"))
    return out


NEGATIVES = [
    # "at ... dot" in prose
    "Let's meet at the cafe dot com event next week.",
    "Look at example dot com for the details.",
    "look at example dot",
    "We met at google dot com headquarters in 2019.",
    "The party is at noon, dot the i's before then.",
    "Arrive at 9 dot 30 sharp.",
    "She works at example dot org now.",
    "I'm at home dot dot dot",
    "Meet me at the station.",
    "Great at math, poor at art.",
    "They laughed at it (at first) and moved on.",
    "Click (at) your own risk.",
    "Stored at /var/lib/app (dot files included).",
    "at least 3 dot releases per year",
    "prices start at 9.99 per month",
    # "@" that is not an address
    "icon@2x.png and icon@3x.png ship with the app",
    "assets/btn-close@2x.webp",
    "npm i react@18.2.0 react-dom@18.2.0",
    "yarn add @babel/core@7.24.0",
    "pip install 'mylib @ git+https://github.com/org/mylib.git'",
    "image: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
    "result = weights @ inputs.T",
    "@decorator\ndef handler(): pass",
    "cc @maria and @tomas on the PR",
    "ping @ops-team about the outage",
    "email @ scale is hard",
    # letters beside digits that are not numbers
    "Boeing 737 MAX 8 and A320neo",
    "Model XL1000 and the O2 sensor",
    "ISO 9001 and ISO 27001 audits",
    "I/O bound: 100 requests, 10 workers",
    "lol 2024 was wild",
    "OOO until 10 Oct, back on the 11th",
    "Room 1O1? No, room 101 in block I.",
    "Serial IMG_0O12.png uploaded",
    "Version 1.0.1l-beta and v2.O.1",
    "build l0l0 passed",
    "Col 1, row 10, cell I10",
    "Order total 1O0 EUR",
    # spaced letters and digits that are not values
    "S U M M A R Y",
    "N O T E : read the docs first",
    "T O D O list for Monday",
    "a b c d e f g h i j",
    "count: 1 2 3 4 5 6 7 8 9 10",
    "5 4 3 2 1 liftoff",
    "x = 1 + 2 + 3 + 4 + 5",
    "Grid 0 1 0 1 1 0 0 1",
    "Rating: 4 . 5 out of 5",
    # after a secret-like keyword, but not a secret
    "password: please ask Maria for it",
    "token: see the vault entry for details",
    "secret:\n  name: prod-db\n  namespace: default",
    "api_key:\n  description: The key used by the billing worker",
    "password reset link sent at 10:00",
    "The key is in the drawer by the door.",
    "auth token expires in 3600 seconds",
    "access_token = get_access_token(client)",
    "password: Password must be at least 12 characters long",
    "client_secret = os.environ['CLIENT_SECRET']",
    # hosts, versions, files, ids
    "db-01.prod.example.com:5432",
    "host-101.example.net resolves to a private range",
    "release-1.10.0.tar.gz",
    "libfoo.so.1.2.3",
    "python3.11 -m venv .venv",
    "ubuntu-22.04.3-live-server-amd64.iso",
    "Windows 11 Pro 23H2 build 22631.3296",
    "RFC 5737 and RFC 3849 name the documentation ranges",
    "sha1 0bee89b07a248e27c83fc3d5951213c1",
    "uuid 3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "PR #1024 merged; closes #1011",
    "Invoice 2024-001-0042 due 2024-12-31",
    "tracking 1Z 999 AA1 01 2345 6784",
    # Unicode in ordinary text
    "Caf\u00e9 \u00e0 10 h, r\u00e9sum\u00e9 joint",
    "\u00b2 and \u00b3 are squares and cubes: 10\u00b2 = 100",
    "Step \u2460 unpack, step \u2461 install, step \u2462 run",
    "\u2764\ufe0f thanks team \U0001f44d\U0001f3fd",
    "\U0001f1e9\U0001f1ea Berlin office, \U0001f1eb\U0001f1f7 Paris office",
    "na\u00efve co\u00f6perate soft\u00adhyphen",
    "\u0417\u0434\u0440\u0430\u0432\u0441\u0442\u0432\u0443\u0439\u0442\u0435, 2024 \u0433\u043e\u0434",
    "\u6771\u4eac\u90fd 2024\u5e7412\u67081\u65e5",
    "H\u2082O and CO\u2082 levels at 415 ppm",
    "\U0001d400\U0001d401\U0001d402 headings in bold",
]


def negatives() -> list[Line]:
    return [_line(text, [], "held-out negative") for text in NEGATIVES]


def held_out() -> list[Line]:
    return positives() + negatives()
