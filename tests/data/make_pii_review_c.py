#!/usr/bin/env python3
"""Blind labelled corpus for a PII / secret scrubber (reviewer C, round 1).

Reproducible: fixed seed.  Requires the `phonenumbers` package (used to
validate every generated phone number against libphonenumber's plans; the
generator retries until a number is valid, so the package is needed for
byte-identical output).

    python3 tests/data/make_pii_review_c.py   # writes pii_review_c.jsonl next to this file

Every template is a string with §NAME§ placeholders.  Upper-case names
produce a labelled value (type, value, scope); lower-case names produce
unlabelled filler.  Offsets are computed while assembling the text, then
re-verified, together with Luhn, IBAN mod-97, SSN structure and phone
validity, before the file is written.
"""

import base64
import itertools
import json
import os
import random
import re
import string
import sys
from collections.abc import Callable
from typing import Any

import phonenumbers as PN

SEED = 20240611
R = random.Random(SEED)
Label = tuple[str, str, str]  # (type, value, scope)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pii_review_c.jsonl")

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
B62 = UP + LO + DG
HEX = "0123456789abcdef"
B64 = B62 + "+/"
B64U = B62 + "-_"


def pick(fns: list[Callable[[], str]]) -> str:
    """call one of ``fns``, chosen at random"""
    return R.choice(fns)()


def rs(alpha: str, n: int) -> str:
    return "".join(R.choice(alpha) for _ in range(n))


def rs_mixed(alpha: str, n: int) -> str:
    """random string that contains at least one upper, lower and digit if alpha allows"""
    while True:
        s = rs(alpha, n)
        ok = True
        if any(c in UP for c in alpha) and not any(c in UP for c in s):
            ok = False
        if any(c in LO for c in alpha) and not any(c in LO for c in s):
            ok = False
        if any(c in DG for c in alpha) and not any(c in DG for c in s):
            ok = False
        if ok:
            return s


# ---------------------------------------------------------------- checksums
def luhn_ok(num: str) -> bool:
    d = [int(c) for c in num]
    s = 0
    for i, x in enumerate(reversed(d)):
        if i % 2 == 1:
            x *= 2
            if x > 9:
                x -= 9
        s += x
    return s % 10 == 0


def luhn_complete(prefix_body: str) -> str:
    for c in DG:
        if luhn_ok(prefix_body + c):
            return prefix_body + c
    raise AssertionError


def iban_ok(iban: str) -> bool:
    s = iban.replace(" ", "")
    s = s[4:] + s[:4]
    n = "".join(str(int(c, 36)) for c in s)
    return int(n) % 97 == 1


def iban_make(cc: str, bban: str) -> str:
    s = bban + cc + "00"
    n = int("".join(str(int(c, 36)) for c in s))
    chk = 98 - n % 97
    out = "%s%02d%s" % (cc, chk, bban)
    assert iban_ok(out)
    return out


def ssn_ok(s: str) -> bool:
    d = re.sub(r"\D", "", s)
    if len(d) != 9:
        return False
    a, g, n = d[:3], d[3:5], d[5:]
    return a not in ("000", "666") and a[0] != "9" and g != "00" and n != "0000"


# ---------------------------------------------------------------- filler
FIRST = [
    "Anna",
    "Lukas",
    "Priya",
    "Rahul",
    "Sofia",
    "Mateo",
    "Yuki",
    "Haruto",
    "Chloé",
    "Julien",
    "Fatima",
    "Omar",
    "Ingrid",
    "Sven",
    "Maria",
    "João",
    "Aisha",
    "Kwame",
    "Mei",
    "Wei",
    "Olivia",
    "Liam",
    "Noah",
    "Emma",
    "Carlos",
    "Lucía",
    "Ananya",
    "Vikram",
    "Hannah",
    "Jonas",
    "Camille",
    "Théo",
    "Ravi",
    "Sakura",
    "Daniel",
    "Grace",
    "Ethan",
    "Zoe",
    "Marta",
    "Pedro",
]
LAST = [
    "Müller",
    "Schmidt",
    "Sharma",
    "Patel",
    "García",
    "Rossi",
    "Tanaka",
    "Suzuki",
    "Dubois",
    "Martin",
    "Khan",
    "Haddad",
    "Larsen",
    "Nilsson",
    "Silva",
    "Santos",
    "Okafor",
    "Mensah",
    "Chen",
    "Wang",
    "Johnson",
    "Brown",
    "Nguyen",
    "Kowalski",
    "Fernández",
    "López",
    "Iyer",
    "Reddy",
    "Becker",
    "Weber",
    "Moreau",
    "Lefèvre",
    "Gupta",
    "Yamamoto",
    "O'Brien",
    "Walsh",
    "Novak",
    "Costa",
    "Pereira",
    "Anderson",
]
ASCII_FIRST = [
    "anna",
    "lukas",
    "priya",
    "rahul",
    "sofia",
    "mateo",
    "yuki",
    "haruto",
    "chloe",
    "julien",
    "fatima",
    "omar",
    "ingrid",
    "sven",
    "maria",
    "joao",
    "aisha",
    "kwame",
    "mei",
    "wei",
    "olivia",
    "liam",
    "noah",
    "emma",
    "carlos",
    "lucia",
    "ananya",
    "vikram",
    "hannah",
    "jonas",
    "camille",
    "theo",
    "ravi",
    "sakura",
    "daniel",
    "grace",
]
ASCII_LAST = [
    "mueller",
    "schmidt",
    "sharma",
    "patel",
    "garcia",
    "rossi",
    "tanaka",
    "suzuki",
    "dubois",
    "martin",
    "khan",
    "haddad",
    "larsen",
    "nilsson",
    "silva",
    "santos",
    "okafor",
    "mensah",
    "chen",
    "wang",
    "johnson",
    "brown",
    "nguyen",
    "kowalski",
    "fernandez",
    "lopez",
    "iyer",
    "reddy",
    "becker",
    "weber",
    "moreau",
    "gupta",
]
DOMAINS_GEN = [
    "gmail.com",
    "outlook.com",
    "yahoo.com",
    "hotmail.com",
    "icloud.com",
    "proton.me",
    "fastmail.com",
    "aol.com",
    "hey.com",
    "zoho.com",
]
DOMAINS_CORP = [
    "northwind-traders.com",
    "contoso.co.uk",
    "acme-logistics.io",
    "fabrikam.de",
    "globex-corp.com",
    "initech.net",
    "umbrella-health.org",
    "hooli.dev",
    "stark-industries.biz",
    "wayne-ent.co",
    "blue-harbor.ai",
    "tidepool.tech",
    "mail.uni-heidelberg.de",
    "cs.northfield.edu",
    "eng.kestrel-systems.com",
]
DOMAINS_DE = ["web.de", "gmx.de", "t-online.de", "posteo.de", "gmx.net", "freenet.de", "mailbox.org"]
DOMAINS_FR = ["orange.fr", "free.fr", "laposte.net", "sfr.fr", "wanadoo.fr"]
DOMAINS_ES = ["telefonica.net", "gmail.com", "hotmail.es", "yahoo.es"]
DOMAINS_BR = ["uol.com.br", "bol.com.br", "terra.com.br", "gmail.com", "globo.com"]
DOMAINS_IN = ["rediffmail.com", "gmail.com", "yahoo.co.in", "outlook.in", "infosys-mail.in"]
DOMAINS_JP = ["docomo.ne.jp", "ezweb.ne.jp", "yahoo.co.jp", "softbank.ne.jp", "example-shoji.co.jp"]
COMPANY = ["Northwind", "Contoso", "Acme", "Globex", "Initech", "Hooli", "Tidepool", "Kestrel"]
CITIES = ["Berlin", "Pune", "Lyon", "Osaka", "Leeds", "Austin", "Porto", "Valencia", "Denver"]
ORGS = ["acme", "tidepool-labs", "kestrel-sys", "northwind", "hooli-infra", "globex"]
REPOS = ["billing-api", "infra", "web-frontend", "data-pipeline", "mobile-app", "terraform-live"]
WORDS = [
    "amber",
    "falcon",
    "river",
    "copper",
    "maple",
    "orbit",
    "velvet",
    "tundra",
    "saffron",
    "glacier",
    "pepper",
    "lantern",
    "harbor",
    "cobalt",
    "meadow",
    "quartz",
    "ember",
    "willow",
]
BICS = [
    "DEUTDEFFXXX",
    "COBADEFFXXX",
    "BNPAFRPPXXX",
    "BARCGB22",
    "INGBNL2A",
    "CAIXESBBXXX",
    "UNCRITMMXXX",
    "GKCCBEBB",
    "UBSWCHZH80A",
    "BKAUATWW",
]


def _date() -> str:
    return "2024-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28))


def _time() -> str:
    return "%02d:%02d" % (R.randint(0, 23), R.randint(0, 59))


def _iso() -> str:
    return "%sT%02d:%02d:%02d.%03dZ" % (
        _date(),
        R.randint(0, 23),
        R.randint(0, 59),
        R.randint(0, 59),
        R.randint(0, 999),
    )


def _clf() -> str:
    m = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "%02d/%s/2024:%02d:%02d:%02d +0000" % (
        R.randint(1, 28),
        R.choice(m),
        R.randint(0, 23),
        R.randint(0, 59),
        R.randint(0, 59),
    )


def _uuid() -> str:
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def _luhn_bad(d: str) -> str:
    while luhn_ok(d):
        d = d[:-1] + str((int(d[-1]) + 1) % 10)
    return d


def _isbn() -> str:
    body = "978" + rs(DG, 9)
    chk = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
    g = R.choice([1, 1, 2])
    pub = R.randint(2, 4)
    rest = body[3:]
    return "978-%s-%s-%s-%d" % (rest[:g], rest[g : g + pub], rest[g + pub :], chk)


def _ean() -> str:
    body = R.choice(["400", "401", "590", "760", "871", "304"]) + rs(DG, 9)
    chk = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
    return _luhn_bad(body + str(chk)) if body[0] in "3456" and luhn_ok(body + str(chk)) else body + str(chk)


def _bad16(sep: str = " ") -> str:
    d = _luhn_bad(R.choice("3456") + rs(DG, 15))
    return sep.join(d[i : i + 4] for i in range(0, 16, 4))


def _amz(pre: str) -> str:
    while True:
        d = pre + rs(DG, 14)
        if not luhn_ok(d):
            return "%s-%s-%s" % (d[:3], d[3:10], d[10:])


def _ups() -> str:
    while True:
        u = "1Z" + rs(UP + DG, 6) + rs(DG, 10)
        runs = re.findall(r"\d{13,}", u)
        if not any(luhn_ok(x) for x in runs):
            return u


def _body(nbytes: int, prefix: bytes = b"") -> str:
    s = b64(prefix + rbytes(nbytes))
    return "\n".join(s[i : i + 64] for i in range(0, len(s), 64))


FILL: dict[str, Callable[[], str]] = {
    "first": lambda: R.choice(FIRST),
    "last": lambda: R.choice(LAST),
    "fullname": lambda: R.choice(FIRST) + " " + R.choice(LAST),
    "user": lambda: R.choice(ASCII_FIRST) + R.choice(["", "_", "."]) + R.choice(ASCII_LAST)[:5],
    "company": lambda: R.choice(COMPANY),
    "city": lambda: R.choice(CITIES),
    "date": _date,
    "time": _time,
    "iso": _iso,
    "clf": _clf,
    "uuid": _uuid,
    "sha": lambda: rs(HEX, 40),
    "sha7": lambda: rs(HEX, 7),
    "sha256": lambda: rs(HEX, 64),
    "md5": lambda: rs(HEX, 32),
    "hex16": lambda: rs(HEX, 16),
    "hex32": lambda: rs(HEX, 32),
    "hex40": lambda: rs(HEX, 40),
    "hex5": lambda: rs(LO + DG, 5),
    "n2": lambda: str(R.randint(2, 99)),
    "n3": lambda: str(R.randint(100, 999)),
    "n4": lambda: str(R.randint(1000, 9999)),
    "n5": lambda: str(R.randint(10000, 99999)),
    "n6": lambda: str(R.randint(100000, 999999)),
    "pid": lambda: str(R.randint(1000, 65000)),
    "port": lambda: str(R.randint(40000, 65000)),
    "last4": lambda: rs(DG, 4),
    "digits9": lambda: rs(DG, 9),
    "digits21": lambda: "1" + rs(DG, 20),
    "ticket": lambda: R.choice(["INC", "SUP", "OPS", "BILL", "HR"]) + "-" + str(R.randint(1000, 99999)),
    "domain": lambda: R.choice(
        [
            "acme-logistics.io",
            "tidepool.tech",
            "kestrel-systems.com",
            "northwind-traders.com",
            "hooli.dev",
            "globex-corp.com",
        ]
    ),
    "org": lambda: R.choice(ORGS),
    "repo": lambda: R.choice(REPOS),
    "proj": lambda: R.choice(["billing", "atlas", "orion", "helios", "nova"]) + "-" + rs(DG, 6),
    "acct": lambda: R.choice(["stprod", "acmedata", "logsarchive", "mediaeu"]) + rs(LO + DG, 4),
    "ssid": lambda: R.choice(["FRITZ!Box 7590 XQ", "Vodafone-5G-2A1F", "Livebox-8C3E", "HomeNet_5G", "NETGEAR42"]),
    "bic": lambda: R.choice(BICS),
    "word": lambda: R.choice(WORDS),
    "semver": lambda: "%d.%d.%d" % (R.randint(0, 9), R.randint(0, 30), R.randint(0, 40)),
    "epoch": lambda: str(R.randint(1690000000, 1730000000)),
    "epochms": lambda: str(R.randint(1690000000000, 1730000000000)),
    "b64hash": lambda: b64(rbytes(64)),
    "hex12": lambda: rs(HEX, 12),
    "b62_14": lambda: rs_mixed(B62, 14),
    "b62_23": lambda: rs_mixed(B62, 23),
    "UP8": lambda: rs(UP + DG, 8),
    "UP21": lambda: rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 21),
    "d12": lambda: str(R.randint(10**11, 10**12 - 1)),
    "amz": lambda: _amz(R.choice(["111", "112", "113", "114"])),
    "amzde": lambda: _amz(R.choice(["302", "303", "304", "028"])),
    "ups": _ups,
    "bad16": lambda: _bad16(R.choice([" ", "-", ""])),
    "bad16s": lambda: _bad16(""),
    "d12g": lambda: "%s %s %s" % (rs(DG, 4), rs(DG, 4), rs(DG, 4)),
    "usps": lambda: "9400 " + " ".join(rs(DG, 4) for _ in range(4)) + " " + rs(DG, 2),
    "isbn": _isbn,
    "ean": _ean,
    "sku": lambda: "%s-%s-%s" % (rs(UP, 2), rs(DG, 4), rs(DG, 3)),
    "money": lambda: f"{R.randint(100, 99999):,}" + "." + rs(DG, 2),
    "po": lambda: "45000" + rs(DG, 5),
    "pmid": lambda: str(R.randint(30000000, 38999999)),
    "certbody": lambda: _body(R.randint(400, 700), b"0\x82\x03").replace("\\n", "\n"),
    "pubbody": lambda: _body(
        270, b'0\x82\x01"0\r\x06\t*\x86H\x86\xf7\r\x01\x01\x01\x05\x00\x03\x82\x01\x0f\x00'
    ).replace("\\n", "\n"),
    "b64_43": lambda: rs_mixed(B62 + "+/", 43),
    "b64_80": lambda: rs_mixed(B62 + "+/", 80),
    "n7": lambda: rs(DG, 7),
    "hex8": lambda: rs(HEX, 8),
    "HEX16": lambda: rs(HEX, 16).upper(),
    "n8": lambda: str(R.randint(10**7, 10**8 - 1)),
}


# ---------------------------------------------------------------- PII generators
def email_of(domains: list[str], style: int | None = None) -> str:
    f, l = R.choice(ASCII_FIRST), R.choice(ASCII_LAST)
    style = style if style is not None else R.randint(0, 9)
    local = [
        f + "." + l,
        f[0] + "." + l,
        f + "_" + l,
        f + l + str(R.randint(1, 99)),
        f + "+" + R.choice(["news", "receipts", "github", "work"]),
        l + "." + f + "-" + str(R.randint(70, 99)),
        f[0] + l,
        f + "." + l[0],
        (f + "." + l).title(),
        f + "-" + l,
    ][style]
    dom = R.choice(domains)
    if style == 8:
        dom = dom.upper() if R.random() < 0.5 else dom.title()
    return local + "@" + dom


def phone_valid(e164: str) -> bool:
    try:
        return PN.is_valid_number(PN.parse(e164))
    except Exception:
        return False


PHONE_PLANS = {
    # region: (country code, list of (prefix, total NSN length))
    "US": (
        "1",
        [
            (a, 10)
            for a in [
                "212",
                "310",
                "312",
                "415",
                "512",
                "617",
                "646",
                "702",
                "206",
                "303",
                "404",
                "305",
                "713",
                "858",
                "919",
                "503",
                "612",
                "214",
            ]
        ],
    ),
    "CA": ("1", [("416", 10), ("604", 10), ("514", 10)]),
    "GBM": (
        "44",
        [("74" + c, 10) for c in "012346789"]
        + [("78" + c, 10) for c in "014589"]
        + [("79" + c, 10) for c in "2456789"],
    ),
    "GBL": ("44", [("207946", 10), ("203", 10), ("1614960", 10), ("1134960", 10), ("1314960", 10)]),
    "DEL": ("49", [("30", 10), ("89", 10), ("40", 10), ("221", 10), ("69", 10), ("711", 10)]),
    "DEM": ("49", [("151", 11), ("160", 10), ("170", 10), ("171", 10), ("176", 11), ("177", 11), ("152", 11)]),
    "FRL": ("33", [("1", 9), ("4", 9), ("5", 9), ("9", 9)]),
    "FRM": ("33", [("6", 9), ("7", 9)]),
    "INM": ("91", [(p, 10) for p in ["98", "99", "97", "96", "94", "93", "90", "88", "87", "70", "63", "81"]]),
    "INL": ("91", [("11", 10), ("22", 10), ("80", 10), ("40", 10), ("33", 10)]),
    "JP": ("81", [("90", 10), ("80", 10), ("3", 10), ("6", 10)]),
    "AU": ("61", [("4", 9), ("2", 9), ("3", 9)]),
    "BR": ("55", [("119", 11), ("219", 11), ("31", 10)]),
    "ES": ("34", [("6", 9), ("91", 9), ("93", 9)]),
    "IT": ("39", [("34", 10), ("33", 10), ("06", 10)]),
    "NL": ("31", [("6", 9), ("20", 9)]),
    "CN": ("86", [("138", 11), ("139", 11), ("186", 11)]),
    "MX": ("52", [("55", 10), ("33", 10)]),
    "ZA": ("27", [("82", 9), ("21", 9)]),
    "AE": ("971", [("50", 9), ("55", 9)]),
    "SG": ("65", [("9", 8), ("8", 8)]),
    "KR": ("82", [("10", 10)]),
    "NG": ("234", [("803", 10), ("806", 10)]),
    "PL": ("48", [("51", 9), ("60", 9)]),
    "SE": ("46", [("70", 9), ("73", 9)]),
    "CH": ("41", [("79", 9), ("44", 9)]),
    "IE": ("353", [("87", 9), ("85", 9)]),
    "IR": ("98", [("912", 10), ("935", 10)]),
    "BD": ("880", [("171", 10), ("181", 10)]),
    "EG": ("20", [("10", 10), ("12", 10)]),
    "SA": ("966", [("50", 9), ("55", 9)]),
    "TR": ("90", [("532", 10), ("505", 10)]),
}


def phone_nsn(plan: str) -> tuple[str, str]:
    cc, prefixes = PHONE_PLANS[plan]
    for _ in range(500):
        p, ln = R.choice(prefixes)
        nsn = p + rs(DG, ln - len(p))
        if plan in ("US", "CA"):
            ex = nsn[3:6]
            if ex[0] in "01" or ex[1:] == "11" or ex == "555":
                continue
        if phone_valid("+" + cc + nsn):
            return cc, nsn
    raise AssertionError(plan)


def pn_fmt(cc: str, nsn: str, kind: str) -> str:
    n = PN.parse("+" + cc + nsn)
    return PN.format_number(
        n,
        {
            "intl": PN.PhoneNumberFormat.INTERNATIONAL,
            "nat": PN.PhoneNumberFormat.NATIONAL,
            "e164": PN.PhoneNumberFormat.E164,
        }[kind],
    )


def phone_us(style: int | None = None) -> str:
    _cc, n = phone_nsn("US")
    a, b, c = n[:3], n[3:6], n[6:]
    forms = [
        "(%s) %s-%s",
        "%s-%s-%s",
        "%s.%s.%s",
        "%s %s %s",
        "+1 %s-%s-%s",
        "+1 (%s) %s-%s",
        "+1%s%s%s",
        "1-%s-%s-%s",
        "+1.%s.%s.%s",
        "+1 %s %s %s",
    ]
    f = forms[style if style is not None else R.randrange(len(forms))]
    return f % (a, b, c)


def phone_gb(mobile: bool | None = None, intl: bool | None = None) -> str:
    plan = "GBM" if (mobile if mobile is not None else R.random() < 0.6) else "GBL"
    cc, n = phone_nsn(plan)
    nat = pn_fmt(cc, n, "nat")
    intl_s = pn_fmt(cc, n, "intl")
    if intl is None:
        intl = R.random() < 0.4
    if intl:
        return R.choice([intl_s, intl_s.replace("+44 ", "+44 (0)"), "+44" + n, intl_s.replace(" ", "-")])
    return R.choice([nat, nat, "0" + n, nat.replace(" ", "-") if plan == "GBM" else nat])


def phone_de(mobile: bool | None = None, intl: bool | None = None) -> str:
    plan = "DEM" if (mobile if mobile is not None else R.random() < 0.5) else "DEL"
    _cc, n = phone_nsn(plan)
    ac_len = 3 if plan == "DEM" or n.startswith(("221", "711")) else 2
    ac, rest = n[:ac_len], n[ac_len:]
    if intl is None:
        intl = R.random() < 0.4
    if intl:
        return R.choice(
            [
                "+49 %s %s" % (ac, rest),
                "+49 (0)%s %s" % (ac, rest),
                "+49-%s-%s" % (ac, rest),
                "+49%s%s" % (ac, rest),
                "+49 %s %s %s" % (ac, rest[:4], rest[4:]),
            ]
        )
    return R.choice(
        [
            "0%s %s" % (ac, rest),
            "0%s/%s" % (ac, rest),
            "(0%s) %s" % (ac, rest),
            "0%s-%s" % (ac, rest),
            "0%s %s %s" % (ac, rest[:4], rest[4:]),
            "0%s/%s %s" % (ac, rest[:4], rest[4:]),
        ]
    )


def phone_fr(mobile: bool | None = None, intl: bool | None = None) -> str:
    plan = "FRM" if (mobile if mobile is not None else R.random() < 0.6) else "FRL"
    _cc, n = phone_nsn(plan)
    nat = "0" + n
    pairs = [nat[i : i + 2] for i in range(0, 10, 2)]
    if intl is None:
        intl = R.random() < 0.35
    if intl:
        return R.choice(
            [
                "+33 %s %s" % (n[0], " ".join(pairs[1:])),
                "+33 (0)%s %s" % (n[0], " ".join(pairs[1:])),
                "+33" + n,
                "+33 %s.%s" % (n[0], ".".join(pairs[1:])),
            ]
        )
    return R.choice([" ".join(pairs), ".".join(pairs), nat, "-".join(pairs), " ".join(pairs)])


def phone_in(mobile: bool | None = None, intl: bool | None = None, bare: bool = False) -> str:
    plan = "INM" if (mobile if mobile is not None else R.random() < 0.75) else "INL"
    _cc, n = phone_nsn(plan)
    if bare:
        return n
    if intl is None:
        intl = R.random() < 0.5
    if plan == "INM":
        a, b = n[:5], n[5:]
        if intl:
            return R.choice(["+91 %s %s" % (a, b), "+91-%s-%s" % (a, b), "+91" + n, "+91 " + n, "+91-" + n])
        return R.choice(["0%s %s" % (a, b), "%s %s" % (a, b), "%s-%s" % (a, b), "0" + n])
    a, b, c = n[:2], n[2:6], n[6:]
    if intl:
        return R.choice(["+91 %s %s %s" % (a, b, c), "+91-%s-%s%s" % (a, b, c)])
    return R.choice(["0%s %s %s" % (a, b, c), "0%s-%s%s" % (a, b, c), "0%s-%s-%s" % (a, b, c)])


INTL_OTHERS = [
    "JP",
    "AU",
    "BR",
    "ES",
    "IT",
    "NL",
    "CN",
    "MX",
    "ZA",
    "AE",
    "SG",
    "KR",
    "NG",
    "PL",
    "SE",
    "CH",
    "IE",
    "CA",
    "EG",
    "SA",
    "TR",
]


def phone_intl(region: str | None = None) -> str:
    region = region or R.choice(INTL_OTHERS)
    cc, n = phone_nsn(region)
    s = pn_fmt(cc, n, "intl")
    v = R.random()
    if v < 0.15:
        s = pn_fmt(cc, n, "e164")
    elif v < 0.25:
        s = s.replace(" ", "-")
    elif v < 0.32:
        s = s.replace(" ", ".", 1) if region not in ("JP",) else s
    return s


def phone_national_other(region: str | None = None) -> str:
    region = region or R.choice(["JP", "AU", "ES", "BR", "KR", "IT", "NL", "MX"])
    cc, n = phone_nsn(region)
    return pn_fmt(cc, n, "nat")


# ---- cards
TEST_CARDS = {
    "4111111111111111",
    "4242424242424242",
    "5555555555554444",
    "378282246310005",
    "4012888888881881",
    "5105105105105100",
    "6011111111111117",
    "371449635398431",
    "30569309025904",
    "3530111333300000",
    "4000056655665556",
    "5200828282828210",
}


def card_digits(brand: str | None = None) -> str:
    brand = brand or R.choice(
        ["visa", "visa", "visa", "mc", "mc", "mc2", "amex", "disc", "jcb", "diners", "unionpay", "maestro"]
    )
    if brand == "visa":
        pre, ln = "4" + rs(DG, 5), 16
    elif brand == "mc":
        pre, ln = "5" + R.choice("12345"), 16
    elif brand == "mc2":
        pre, ln = str(R.randint(2221, 2720)), 16
    elif brand == "amex":
        pre, ln = R.choice(["34", "37"]), 15
    elif brand == "disc":
        pre, ln = R.choice(["6011", "65" + rs(DG, 2), str(R.randint(644, 649))]), 16
    elif brand == "jcb":
        pre, ln = str(R.randint(3528, 3589)), 16
    elif brand == "diners":
        pre, ln = R.choice(["36", "30" + R.choice("012345"), "38"]), 14
    elif brand == "unionpay":
        pre, ln = "62" + rs(DG, 2), R.choice([16, 19])
    else:  # maestro
        pre, ln = R.choice(["6759", "5018", "6304"]), R.choice([16, 19])
    while True:
        num = luhn_complete(pre + rs(DG, ln - len(pre) - 1))
        if num not in TEST_CARDS and len(set(num)) > 3:
            return num


def card_groups(num: str) -> list[str]:
    if len(num) == 15:
        return [num[:4], num[4:10], num[10:]]
    if len(num) == 14:
        return [num[:4], num[4:10], num[10:]]
    if len(num) == 19:
        return [num[i : i + 4] for i in range(0, 16, 4)] + [num[16:]]
    return [num[i : i + 4] for i in range(0, len(num), 4)]


def card_fmt(num: str, sep: str | None = None) -> str:
    if sep is None:
        sep = R.choice([" ", " ", "-", "", ".", "\u00a0"])
    return sep.join(card_groups(num))


# ---- SSN
BAD_SSN = {"078051120", "219099999", "123456789", "111111111"}


def ssn_digits() -> str:
    while True:
        a = R.randint(1, 899)
        if a == 666:
            continue
        s = "%03d%02d%04d" % (a, R.randint(1, 99), R.randint(1, 9999))
        if s not in BAD_SSN and ssn_ok(s):
            return s


def ssn_fmt(d: str, sep: str = "-") -> str:
    return d[:3] + sep + d[3:5] + sep + d[5:]


# ---- IBAN
def es_dc(bank: str, branch: str, acct: str) -> str:
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

    def dc(ds: str) -> int:
        v = 11 - sum(int(x) * y for x, y in zip(ds, w)) % 11
        return {11: 0, 10: 1}.get(v, v)

    return "%d%d" % (dc("00" + bank + branch), dc(acct))


IT_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21]


def it_cin(s: str) -> str:
    tot = 0
    for i, c in enumerate(s):
        v = int(c)
        tot += IT_ODD[v] if i % 2 == 0 else v
    return UP[tot % 26]


def iban_digits(cc: str | None = None) -> str:
    cc = cc or R.choice(["DE", "DE", "GB", "FR", "ES", "NL", "IT", "AT", "BE", "CH", "IE"])
    if cc == "DE":
        bban = rs(DG, 8) + rs(DG, 10)
    elif cc == "GB":
        bban = R.choice(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "MONZ"]) + rs(DG, 6) + rs(DG, 8)
    elif cc == "FR":
        b, g, a = rs(DG, 5), rs(DG, 5), rs(DG, 11)
        key = 97 - ((89 * int(b) + 15 * int(g) + 3 * int(a)) % 97)
        bban = b + g + a + "%02d" % key
    elif cc == "ES":
        b, br, a = rs(DG, 4), rs(DG, 4), rs(DG, 10)
        bban = b + br + es_dc(b, br, a) + a
    elif cc == "NL":
        while True:
            a = rs(DG, 9)
            for last in DG:
                acc = a + last
                if sum(int(x) * (10 - i) for i, x in enumerate(acc)) % 11 == 0:
                    break
            else:
                continue
            break
        bban = R.choice(["ABNA", "INGB", "RABO", "TRIO", "SNSB"]) + acc
    elif cc == "IT":
        rest = rs(DG, 5) + rs(DG, 5) + rs(DG, 12)
        bban = it_cin(rest) + rest
    elif cc == "AT":
        bban = rs(DG, 5) + rs(DG, 11)
    elif cc == "BE":
        first = rs(DG, 10)
        k = int(first) % 97 or 97
        bban = first + "%02d" % k
    elif cc == "CH":
        bban = rs(DG, 5) + rs(DG, 12)
    elif cc == "IE":
        bban = R.choice(["AIBK", "BOFI", "IPBS"]) + rs(DG, 6) + rs(DG, 8)
    return iban_make(cc, bban)


def iban_fmt(s: str, grouped: bool | None = None) -> str:
    if grouped is None:
        grouped = R.random() < 0.7
    if grouped:
        return " ".join(s[i : i + 4] for i in range(0, len(s), 4))
    return s


# ---- IP
def ipv4_pub() -> str:
    while True:
        a = R.choice(
            [
                23,
                31,
                37,
                45,
                46,
                62,
                77,
                78,
                80,
                84,
                91,
                94,
                103,
                109,
                141,
                151,
                176,
                178,
                185,
                188,
                193,
                195,
                203,
                212,
                217,
                49,
                52,
                3,
                13,
                34,
                35,
            ]
        )
        s = "%d.%d.%d.%d" % (a, R.randint(0, 255), R.randint(0, 255), R.randint(1, 254))
        return s


def ipv4_priv() -> str:
    k = R.randrange(3)
    if k == 0:
        return "10.%d.%d.%d" % (R.randint(0, 255), R.randint(0, 255), R.randint(2, 254))
    if k == 1:
        return "192.168.%d.%d" % (R.randint(0, 255), R.randint(2, 254))
    return "172.%d.%d.%d" % (R.randint(16, 31), R.randint(0, 255), R.randint(2, 254))


def h16() -> str:
    return "%x" % R.randint(1, 0xFFFF)


def ipv6() -> str:
    k = R.randrange(6)
    if k == 0:
        return "2001:db8:%s:%s::%s" % (h16(), h16(), h16())
    if k == 1:
        return "2a02:%s:%s:%s:%s:%s:%s:%s" % tuple(h16() for _ in range(7))
    if k == 2:
        return "fe80::%s:%sff:fe%s:%s" % (h16(), rs(HEX, 2), rs(HEX, 2), h16())
    if k == 3:
        return "2600:1f18:%s:%s:%s:%s:%s:%s" % tuple(h16() for _ in range(6))
    if k == 4:
        return "2001:0db8:%04x:%04x:0000:0000:%04x:%04x" % tuple(R.randint(0, 0xFFFF) for _ in range(4))
    return "2a01:4f8:%s:%s::%s" % (h16(), h16(), R.randint(2, 9))


# ---------------------------------------------------------------- secrets
def aws_akid() -> str:
    return R.choice(["AKIA", "AKIA", "AKIA", "ASIA"]) + rs_mixed(UP + "234567", 16)


def aws_secret() -> str:
    return rs_mixed(B62 + "+/", 40)


def b64(bs: bytes) -> str:
    return base64.b64encode(bs).decode()


def b64url(bs: bytes) -> str:
    return base64.urlsafe_b64encode(bs).decode().rstrip("=")


def rbytes(n: int) -> bytes:
    return bytes(R.randrange(256) for _ in range(n))


def openai_key() -> str:
    if R.random() < 0.75:
        return "sk-proj-" + rs(B62 + "-_", 74) + "T3BlbkFJ" + rs(B62 + "-_", 74)
    return "sk-" + rs_mixed(B62, 20) + "T3BlbkFJ" + rs_mixed(B62, 20)


def anthropic_key() -> str:
    return "sk-ant-api03-" + rs(B62 + "-_", 93) + "AA"


def slack_bot() -> str:
    return "xoxb-%s-%s-%s" % (rs(DG, 12), rs(DG, 13), rs_mixed(B62, 24))


def slack_user() -> str:
    return "xoxp-%s-%s-%s-%s" % (rs(DG, 12), rs(DG, 12), rs(DG, 13), rs(HEX, 32))


def slack_webhook() -> str:
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UP + DG, 8), rs(UP + DG, 10), rs_mixed(B62, 24))


def discord_webhook() -> str:
    return "https://discord.com/api/webhooks/%s/%s" % ("1" + rs(DG, 18), rs_mixed(B62 + "-_", 68))


def sendgrid() -> str:
    return "SG." + rs_mixed(B62 + "-_", 22) + "." + rs_mixed(B62 + "-_", 43)


def azure_ad_secret() -> str:
    return rs(B62, 3) + R.choice(DG) + "Q~" + rs(B62 + "_~.-", 34)


def jwt(long_header: bool = False, rs256: bool | None = None) -> str:
    if rs256 is None:
        rs256 = R.random() < 0.5
    hdr = {"alg": "RS256" if rs256 else "HS256", "typ": "JWT"}
    if long_header:
        hdr = {
            "alg": "RS256",
            "kid": rs(HEX, 40),
            "typ": "at+jwt",
            "x5t": b64url(rbytes(20)),
            "x5t#S256": b64url(rbytes(32)),
            "jku": "https://login.%s/.well-known/jwks.json" % R.choice(["kestrel-systems.com", "tidepool.tech"]),
            "cty": "JWT",
        }
        rs256 = True
    iat = R.randint(1700000000, 1720000000)
    pl = {
        "sub": _uuid() if R.random() < 0.5 else str(R.randint(10000, 999999)),
        "iss": "https://auth.%s/" % R.choice(["acme-logistics.io", "hooli.dev", "tidepool.tech"]),
        "aud": R.choice(["api", "billing-service", "https://api.hooli.dev"]),
        "iat": iat,
        "exp": iat + R.choice([900, 3600, 86400]),
        "scope": R.choice(["read:orders write:orders", "openid profile", "admin"]),
    }
    if R.random() < 0.4:
        pl["jti"] = rs(HEX, 24)
    sig = b64url(rbytes(256 if rs256 else 32))
    return (
        b64url(json.dumps(hdr, separators=(",", ":")).encode())
        + "."
        + b64url(json.dumps(pl, separators=(",", ":")).encode())
        + "."
        + sig
    )


def pem(kind: str) -> str:
    if kind == "rsa":
        head, body = (
            "RSA PRIVATE KEY",
            b"\x30\x82\x04\xa3\x02\x01\x00\x02\x82\x01\x01\x00" + rbytes(R.randint(300, 1180)),
        )
    elif kind == "pkcs8":
        head, body = (
            "PRIVATE KEY",
            b"0\x82\x04\xbd\x02\x01\x000\r\x06\t*\x86H\x86\xf7\r\x01\x01\x01\x05\x00\x04\x82\x04\xa7"
            + rbytes(R.randint(300, 1180)),
        )
    elif kind == "ec":
        head, body = (
            "EC PRIVATE KEY",
            b"0w\x02\x01\x01\x04 "
            + rbytes(32)
            + b"\xa0\n\x06\x08*\x86H\xce=\x03\x01\x07\xa1D\x03B\x00\x04"
            + rbytes(64),
        )
    elif kind == "openssh":
        head, body = (
            "OPENSSH PRIVATE KEY",
            b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x33\x00\x00\x00\x0bssh-ed25519"
            + rbytes(R.randint(180, 300)),
        )
    elif kind == "enc":
        head, body = (
            "ENCRYPTED PRIVATE KEY",
            b"0\x82\x05\x1e0@\x06\t*\x86H\x86\xf7\r\x01\x05\r03" + rbytes(R.randint(400, 1200)),
        )
    else:
        raise ValueError(kind)
    s = b64(body)
    lines = [s[i : i + (70 if kind == "openssh" else 64)] for i in range(0, len(s), 70 if kind == "openssh" else 64)]
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (head, "\n".join(lines), head)


def pgp_priv() -> str:
    s = b64(b"\x95\x03\xc6\x04" + rbytes(R.randint(300, 700)))
    lines = [s[i : i + 64] for i in range(0, len(s), 64)]
    crc = b64(rbytes(3))
    return "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PRIVATE KEY BLOCK-----" % (
        "\n".join(lines),
        crc,
    )


SYM = "!#$%&*+-.?^_~"


def password(urlsafe: bool = False) -> str:
    k = R.randrange(6)
    if k == 0:
        p = (
            R.choice(
                [
                    "Sommer",
                    "Winter",
                    "Herbst",
                    "Summer",
                    "Spring",
                    "Autumn",
                    "Bayern",
                    "Dragon",
                    "Monkey",
                    "Sunshine",
                    "Liverpool",
                    "Barcelona",
                    "Shadow",
                ]
            )
            + str(R.randint(1970, 2025))
            + R.choice("!#$?.*")
        )
    elif k == 1:
        p = "-".join(R.sample(WORDS, 3)) + "-" + str(R.randint(10, 99))
    elif k == 2:
        p = rs_mixed(B62 + ("-_.~" if urlsafe else SYM + "@"), R.randint(12, 20))
    elif k == 3:
        w = R.choice(["P4ssw0rd", "S3cur3", "Adm1n", "Welc0me", "L3tM3In", "Qwerty", "Ch4ngeM3"])
        p = w + R.choice(["!", "#", "_", "."]) + R.choice(COMPANY) + str(R.randint(1, 99))
    elif k == 4:
        p = R.choice(WORDS).capitalize() + R.choice(["&", "+", "_", "."]) + R.choice(WORDS) + str(R.randint(100, 999))
    else:
        p = rs_mixed(B62, R.randint(10, 16))
    if urlsafe:
        p = "".join(c if c in B62 + "-_.~" else "_" for c in p)
    return p


def generic_secret() -> str:
    k = R.randrange(5)
    if k == 0:
        return rs_mixed(B62, R.randint(24, 40))
    if k == 1:
        return rs(HEX, R.choice([32, 40, 64]))
    if k == 2:
        return "tok_" + rs_mixed(B62, 28)
    if k == 3:
        return rs_mixed(B62 + "-_", 43)
    return b64(rbytes(R.choice([24, 30, 33])))


def high_entropy() -> str:
    k = R.randrange(4)
    if k == 0:
        return b64(rbytes(32))
    if k == 1:
        return rs(HEX, 64)
    if k == 2:
        return rs_mixed(B62 + "-_", R.randint(40, 64))
    return b64url(rbytes(48))


def django_secret() -> str:
    return (
        "django-insecure-" + rs("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50)
        if R.random() < 0.3
        else rs("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50)
    )


def wp_salt() -> str:
    return rs(B62 + "!@#$%^&*()-_ []{}<>~+=,.;:/?|", 64).replace("  ", " x")


PROVIDERS: list[tuple[str, str, Callable[[], str]]] = [
    # (env var / keyword, display name, generator)
    ("GITHUB_TOKEN", "GitHub", lambda: "ghp_" + rs_mixed(B62, 36)),
    ("GH_OAUTH_TOKEN", "GitHub OAuth", lambda: "gho_" + rs_mixed(B62, 36)),
    ("GITHUB_APP_TOKEN", "GitHub App", lambda: "ghs_" + rs_mixed(B62, 36)),
    ("GITHUB_USER_TOKEN", "GitHub", lambda: "ghu_" + rs_mixed(B62, 36)),
    ("GH_REFRESH", "GitHub", lambda: "ghr_" + rs_mixed(B62, 36)),
    ("GITHUB_PAT", "GitHub fine-grained", lambda: "github_pat_" + rs_mixed(B62, 22) + "_" + rs_mixed(B62, 59)),
    ("GITLAB_TOKEN", "GitLab", lambda: "glpat-" + rs_mixed(B62 + "-_", 20)),
    ("CI_RUNNER_TOKEN", "GitLab runner", lambda: "glrt-" + rs_mixed(B62 + "-_", 20)),
    ("GITLAB_TRIGGER", "GitLab trigger", lambda: "glptt-" + rs(HEX, 40)),
    ("GITLAB_DEPLOY_TOKEN", "GitLab deploy", lambda: "gldt-" + rs_mixed(B62, 20)),
    ("RUNNER_REGISTRATION_TOKEN", "GitLab", lambda: "GR1348941" + rs_mixed(B62 + "-_", 20)),
    ("SLACK_BOT_TOKEN", "Slack", slack_bot),
    ("SLACK_USER_TOKEN", "Slack", slack_user),
    ("SLACK_APP_TOKEN", "Slack", lambda: "xapp-1-A%s-%s-%s" % (rs(UP + DG, 10), rs(DG, 13), rs(HEX, 64))),
    ("STRIPE_SECRET_KEY", "Stripe", lambda: "sk_live_" + rs_mixed(B62, R.choice([24, 99]))),
    ("STRIPE_RESTRICTED_KEY", "Stripe", lambda: "rk_live_" + rs_mixed(B62, R.choice([24, 99]))),
    ("STRIPE_TEST_KEY", "Stripe", lambda: "sk_test_" + rs_mixed(B62, R.choice([24, 99]))),
    ("GOOGLE_API_KEY", "Google", lambda: "AIza" + rs_mixed(B62 + "-_", 35)),
    ("OPENAI_API_KEY", "OpenAI", openai_key),
    ("ANTHROPIC_API_KEY", "Anthropic", anthropic_key),
    ("ANTHROPIC_ADMIN_KEY", "Anthropic", lambda: "sk-ant-admin01-" + rs(B62 + "-_", 93) + "AA"),
    ("TWILIO_API_KEY", "Twilio", lambda: "SK" + rs(HEX, 32)),
    ("SENDGRID_API_KEY", "SendGrid", sendgrid),
    ("NPM_TOKEN", "npm", lambda: "npm_" + rs_mixed(B62, 36)),
    ("PYPI_TOKEN", "PyPI", lambda: "pypi-AgEIcHlwaS5vcmc" + rs_mixed(B62 + "-_", R.randint(60, 160))),
    ("AZURE_CLIENT_SECRET", "Azure AD", azure_ad_secret),
    ("DIGITALOCEAN_TOKEN", "DigitalOcean", lambda: "dop_v1_" + rs(HEX, 64)),
    ("DO_OAUTH_TOKEN", "DigitalOcean", lambda: "doo_v1_" + rs(HEX, 64)),
    ("SHOPIFY_ACCESS_TOKEN", "Shopify", lambda: "shpat_" + rs(HEX, 32)),
    ("SHOPIFY_SHARED_SECRET", "Shopify", lambda: "shpss_" + rs(HEX, 32)),
    ("SHOPIFY_CUSTOM_TOKEN", "Shopify", lambda: "shpca_" + rs(HEX, 32)),
    ("VAULT_TOKEN", "Vault", lambda: "hvs." + rs_mixed(B62 + "_-", R.randint(90, 110))),
    ("TFE_TOKEN", "Terraform Cloud", lambda: rs(LO + DG, 14) + ".atlasv1." + rs(LO + DG + "-_", 67)),
    ("MAILGUN_API_KEY", "Mailgun", lambda: "key-" + rs(HEX, 32)),
    ("MAILCHIMP_API_KEY", "Mailchimp", lambda: rs(HEX, 32) + "-us" + str(R.randint(10, 21))),
    ("HF_TOKEN", "Hugging Face", lambda: "hf_" + rs_mixed(UP + LO, 34)),
    ("DATABRICKS_TOKEN", "Databricks", lambda: "dapi" + rs(HEX, 32)),
    ("NEW_RELIC_API_KEY", "New Relic", lambda: "NRAK-" + rs(UP + DG, 27)),
    ("POSTMAN_API_KEY", "Postman", lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34)),
    ("LINEAR_API_KEY", "Linear", lambda: "lin_api_" + rs_mixed(B62, 40)),
    ("GRAFANA_SA_TOKEN", "Grafana", lambda: "glsa_" + rs_mixed(B62, 32) + "_" + rs(HEX, 8)),
    ("PULUMI_ACCESS_TOKEN", "Pulumi", lambda: "pul-" + rs(HEX, 40)),
    ("DOPPLER_TOKEN", "Doppler", lambda: "dp.pt." + rs_mixed(B62, 43)),
    ("SQUARE_ACCESS_TOKEN", "Square", lambda: "EAAA" + rs_mixed(B62 + "-_", 60)),
    ("SHIPPO_API_TOKEN", "Shippo", lambda: "shippo_live_" + rs(HEX, 40)),
    ("EASYPOST_API_KEY", "EasyPost", lambda: "EZAK" + rs_mixed(B62, 54)),
    ("DOCKERHUB_TOKEN", "Docker Hub", lambda: "dckr_pat_" + rs_mixed(B62 + "-_", 27)),
    ("NOTION_TOKEN", "Notion", lambda: "ntn_" + rs(DG, 11) + rs_mixed(B62, 35)),
    ("PERPLEXITY_API_KEY", "Perplexity", lambda: "pplx-" + rs_mixed(B62, 48)),
    ("PLANETSCALE_TOKEN", "PlanetScale", lambda: "pscale_tkn_" + rs_mixed(B62 + "_-", 43)),
    ("SENTRY_AUTH_TOKEN", "Sentry", lambda: "sntryu_" + rs(HEX, 64)),
    ("RUBYGEMS_API_KEY", "RubyGems", lambda: "rubygems_" + rs(HEX, 48)),
    ("CLOJARS_TOKEN", "Clojars", lambda: "CLOJARS_" + rs(LO + DG, 60)),
    ("PREFECT_API_KEY", "Prefect", lambda: "pnu_" + rs_mixed(B62, 36)),
    ("README_API_KEY", "ReadMe", lambda: "rdme_" + rs(LO + DG, 70)),
    ("DUFFEL_TOKEN", "Duffel", lambda: "duffel_live_" + rs_mixed(B62 + "_-", 43)),
    ("ALIBABA_ACCESS_KEY_ID", "Alibaba", lambda: "LTAI" + rs_mixed(B62, 20)),
    ("ARTIFACTORY_API_KEY", "Artifactory", lambda: "AKCp" + rs_mixed(B62, 69)),
    ("DT_API_TOKEN", "Dynatrace", lambda: "dt0c01." + rs(UP + DG, 24) + "." + rs(UP + DG, 64)),
    ("FLW_SECRET_KEY", "Flutterwave", lambda: "FLWSECK_TEST-" + rs("abcdefgh" + DG, 32) + "-X"),
    ("FRAMEIO_TOKEN", "Frame.io", lambda: "fio-u-" + rs_mixed(B62 + "-_", 64)),
    ("HEROKU_API_TOKEN", "Heroku", lambda: "HRKU-AA" + rs_mixed(B62 + "_-", 58)),
    ("BREVO_API_KEY", "Sendinblue", lambda: "xkeysib-" + rs(HEX, 64) + "-" + rs_mixed(B62, 16)),
    ("ATLASSIAN_API_TOKEN", "Atlassian", lambda: "ATATT3xFfGF0" + rs_mixed(B62 + "-_", 174) + "=" + rs(HEX.upper(), 8)),
    ("OP_SERVICE_ACCOUNT_TOKEN", "1Password", lambda: "ops_eyJ" + rs_mixed(B62 + "+/", 300)),
    ("INFRACOST_API_KEY", "Infracost", lambda: "ico-" + rs_mixed(B62, 32)),
    ("AGE_KEY", "age", lambda: "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
    ("OCTOPUS_API_KEY", "Octopus", lambda: "API-" + rs(UP + DG, 26)),
    ("SCALINGO_API_TOKEN", "Scalingo", lambda: "tk-us-" + rs_mixed(B62 + "-_", 48)),
    ("TYPEFORM_TOKEN", "Typeform", lambda: "tfp_" + rs_mixed(B62 + "-_", 59)),
    ("CF_ORIGIN_CA_KEY", "Cloudflare", lambda: "v1.0-" + rs(HEX, 24) + "-" + rs(HEX, 146)),
    ("OPENSHIFT_TOKEN", "OpenShift", lambda: "sha256~" + rs_mixed(B62 + "-_", 43)),
    ("CLICKHOUSE_SECRET", "ClickHouse", lambda: "4b1d" + rs_mixed(B62, 38)),
    ("MAXMIND_LICENSE_KEY", "MaxMind", lambda: rs_mixed(B62, 6) + "_" + rs_mixed(B62, 29) + "_mmk"),
    ("SETTLEMINT_TOKEN", "SettleMint", lambda: "sm_pat_" + rs_mixed(B62, 16)),
    ("DEFINED_NET_KEY", "Defined", lambda: "dnkey-" + rs(LO + DG, 26) + "-" + rs(LO + DG, 52)),
    ("GROQ_API_KEY", "Groq", lambda: "gsk_" + rs_mixed(B62, 52)),
    ("XAI_API_KEY", "xAI", lambda: "xai-" + rs_mixed(B62, 80)),
    ("REPLICATE_API_TOKEN", "Replicate", lambda: "r8_" + rs_mixed(B62, 37)),
    ("SUPABASE_ACCESS_TOKEN", "Supabase", lambda: "sbp_" + rs(HEX, 40)),
    ("CONTENTFUL_PAT", "Contentful", lambda: "CFPAT-" + rs_mixed(B62 + "-_", 43)),
    ("AIRTABLE_PAT", "Airtable", lambda: "pat" + rs_mixed(B62, 14) + "." + rs(HEX, 64)),
    ("SONAR_TOKEN", "SonarQube", lambda: "squ_" + rs(HEX, 40)),
    ("SOURCEGRAPH_TOKEN", "Sourcegraph", lambda: "sgp_" + rs(HEX, 16) + "_" + rs(HEX, 40)),
    ("TELEGRAM_BOT_TOKEN", "Telegram", lambda: str(R.randint(10**8, 10**10 - 1)) + ":AA" + rs_mixed(B62 + "-_", 33)),
    ("DATADOG_API_KEY", "Datadog", lambda: rs(HEX, 32)),
    ("DATADOG_APP_KEY", "Datadog", lambda: rs(HEX, 40)),
    ("CLOUDFLARE_API_TOKEN", "Cloudflare", lambda: rs_mixed(B62 + "-_", 40)),
    ("FASTLY_API_TOKEN", "Fastly", lambda: rs_mixed(B62 + "-_", 32)),
    ("OKTA_API_TOKEN", "Okta", lambda: "00" + rs_mixed(B62 + "-_", 40)),
    ("ALGOLIA_ADMIN_KEY", "Algolia", lambda: rs(HEX, 32)),
    ("TWILIO_AUTH_TOKEN", "Twilio", lambda: rs(HEX, 32)),
    ("MAPBOX_SECRET_TOKEN", "Mapbox", lambda: "sk.eyJ1Ijoi" + rs_mixed(B62, 50) + "." + rs_mixed(B62 + "-_", 22)),
    ("COHERE_API_KEY", "Cohere", lambda: rs_mixed(B62, 40)),
    ("HEROKU_API_KEY", "Heroku", lambda: _uuid()),
    ("SNYK_TOKEN", "Snyk", lambda: _uuid()),
    ("PLAID_SECRET", "Plaid", lambda: rs(LO + DG, 30)),
    ("AWS_SESSION_TOKEN", "AWS STS", lambda: "IQoJb3JpZ2luX2Vj" + rs_mixed(B62 + "+/", 300) + "=="),
    ("AZURE_STORAGE_KEY", "Azure Storage", lambda: b64(rbytes(64))),
    (
        "DISCORD_BOT_TOKEN",
        "Discord",
        lambda: "M" + rs_mixed(B62, 25) + "." + rs_mixed(B62 + "-_", 6) + "." + rs_mixed(B62 + "-_", 38),
    ),
]
PROV_BY_ENV = {p[0]: p for p in PROVIDERS}

# ---------------------------------------------------------------- Unicode evasion helpers
DIGIT_BASE = {
    "fw": 0xFF10,
    "ar": 0x0660,
    "fa": 0x06F0,
    "dev": 0x0966,
    "ben": 0x09E6,
    "thai": 0x0E50,
    "math": 0x1D7CE,
    "tamil": 0x0BE6,
}


def to_script(s: str, script: str) -> str:
    base = DIGIT_BASE[script]
    return "".join(chr(base + int(c)) if c in DG else c for c in s)


def fullwidth_all(s: str) -> str:
    out = []
    for c in s:
        o = ord(c)
        if 0x21 <= o <= 0x7E:
            out.append(chr(o + 0xFEE0))
        else:
            out.append(c)
    return "".join(out)


def sprinkle(s: str, ch: str, k: int | None = None, protect: int = 0) -> str:
    """insert invisible ch at k random interior positions (never at the very ends)"""
    k = k or R.randint(1, 3)
    pos = sorted(R.sample(range(max(2, protect + 1), len(s) - 1), min(k, len(s) - 3)))
    out, last = [], 0
    for p in pos:
        out.append(s[last:p])
        out.append(ch)
        last = p
    out.append(s[last:])
    return "".join(out)


WORDS_EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
SUPERS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
CIRCLED = "⓪①②③④⑤⑥⑦⑧⑨"


def L(t: str, v: str, scope: str = "claim") -> Label:
    return (t, v, scope)


def prov(env: str) -> Callable[[], Label]:
    return lambda: L("API_KEY", PROV_BY_ENV[env][2]())


def card_zw(ch: str) -> str:
    d = card_digits()
    g = card_groups(d)
    mode = R.randrange(2)
    if mode == 0:
        return ch.join(g)
    return sprinkle(d, ch, R.randint(2, 4))


def card_sep(sep: str) -> str:
    return sep.join(card_groups(card_digits()))


def card_mixed() -> str:
    g = card_groups(card_digits())
    seps = [" ", "-", "\u2013", "\u00a0", "\u2009", ".", "\u2011", "\u202f"]
    out = g[0]
    for x in g[1:]:
        out += R.choice(seps) + x
    return out


def card_splitline() -> str:
    g = card_groups(card_digits())
    k = R.randint(1, len(g) - 1)
    return " ".join(g[:k]) + R.choice(["\n", "\n", " \n", "\r\n"]) + " ".join(g[k:])


def phone_any() -> str:
    return pick([phone_us, phone_gb, phone_de, phone_fr, phone_in, phone_intl])


def phone_pick_intl() -> str:
    return pick(
        [
            lambda: phone_us(R.choice([4, 5, 9])),
            lambda: phone_gb(intl=True),
            lambda: phone_de(intl=True),
            lambda: phone_fr(intl=True),
            lambda: phone_in(intl=True),
            phone_intl,
        ]
    )


def email_any() -> str:
    return email_of(R.choice([DOMAINS_GEN, DOMAINS_CORP, DOMAINS_DE, DOMAINS_FR]))


def jwt_split() -> str:
    t = jwt()
    a, b, c = t.split(".")
    return R.choice([a + ".\n" + b + "." + c, a + "." + b + ".\n" + c, t[:76] + "\n" + t[76:]])


def long_wrap(s: str, width: int | None = None) -> str:
    width = width or R.choice([64, 72, 76, 80])
    return "\n".join(s[i : i + width] for i in range(0, len(s), width))


def split_phone(p: str) -> str:
    k = max(p.rfind(" "), p.rfind("-"), p.rfind("."))
    if k > 4:
        return p[:k] + p[k] + "\n" + p[k + 1 :] if p[k] == "-" else p[:k] + "\n" + p[k + 1 :]
    k = len(p) // 2 + 1
    return p[:k] + "\n" + p[k:]


def phone_words() -> str:
    d = phone_us(1).replace("-", "")
    parts = [d[:3], d[3:6], d[6:]]
    return ", ".join(" ".join(WORDS_EN[int(c)] for c in p) for p in parts)


def html_ent(s: str) -> str:
    return "".join("&#%d;" % ord(c) if R.random() < 0.6 else c for c in s)


def email_obf(kind: str) -> str:
    e = email_of(DOMAINS_GEN + DOMAINS_CORP, R.choice([0, 2, 3, 9]))
    local, dom = e.split("@")
    if kind == "word":
        return (
            local
            + R.choice([" at ", " [at] ", " (at) ", " AT "])
            + dom.replace(".", R.choice([" dot ", " [dot] ", " (dot) "]))
        )
    if kind == "ent":
        return local + "&#64;" + dom
    if kind == "pct":
        return local + "%40" + dom
    if kind == "small":
        return local + "\ufe6b" + dom
    if kind == "full":
        return fullwidth_all(e)
    raise ValueError


G: dict[str, Callable[[], Label]] = {
    # ---- email
    "EMAIL": lambda: L("EMAIL", email_any()),
    "EMAIL_GEN": lambda: L("EMAIL", email_of(DOMAINS_GEN)),
    "EMAIL_CORP": lambda: L("EMAIL", email_of(DOMAINS_CORP)),
    "EMAIL_DE": lambda: L("EMAIL", email_of(DOMAINS_DE + DOMAINS_CORP[3:4])),
    "EMAIL_FR": lambda: L("EMAIL", email_of(DOMAINS_FR)),
    "EMAIL_ES": lambda: L("EMAIL", email_of(DOMAINS_ES)),
    "EMAIL_BR": lambda: L("EMAIL", email_of(DOMAINS_BR)),
    "EMAIL_IN": lambda: L("EMAIL", email_of(DOMAINS_IN)),
    "EMAIL_JP": lambda: L("EMAIL", email_of(DOMAINS_JP)),
    "SA_EMAIL": lambda: L(
        "EMAIL",
        "%s@%s-%s.iam.gserviceaccount.com"
        % (
            R.choice(["deployer", "ci-runner", "bq-export", "terraform"]),
            R.choice(["atlas", "orion", "nova"]),
            rs(DG, 6),
        ),
    ),
    # ---- phone
    "PHONE": lambda: L("PHONE", phone_any()),
    "PHONE_US": lambda: L("PHONE", phone_us()),
    "PHONE_US_NAT": lambda: L("PHONE", phone_us(R.choice([0, 1, 2, 3, 7]))),
    "PHONE_US_INTL": lambda: L("PHONE", phone_us(R.choice([4, 5, 6, 8, 9]))),
    "PHONE_US_BARE": lambda: L("PHONE", phone_us(6)[2:]),
    "PHONE_GB": lambda: L("PHONE", phone_gb()),
    "PHONE_GB_MOB": lambda: L("PHONE", phone_gb(mobile=True, intl=False)),
    "PHONE_GB_LAND": lambda: L("PHONE", phone_gb(mobile=False, intl=False)),
    "PHONE_GB_INTL": lambda: L("PHONE", phone_gb(intl=True)),
    "PHONE_DE": lambda: L("PHONE", phone_de(intl=False)),
    "PHONE_DE_MOB": lambda: L("PHONE", phone_de(mobile=True, intl=False)),
    "PHONE_DE_LAND": lambda: L("PHONE", phone_de(mobile=False, intl=False)),
    "PHONE_DE_INTL": lambda: L("PHONE", phone_de(intl=True)),
    "PHONE_FR": lambda: L("PHONE", phone_fr(intl=False)),
    "PHONE_FR_INTL": lambda: L("PHONE", phone_fr(intl=True)),
    "PHONE_IN": lambda: L("PHONE", phone_in(intl=False)),
    "PHONE_IN_INTL": lambda: L("PHONE", phone_in(intl=True)),
    "PHONE_IN_BARE": lambda: L("PHONE", phone_in(mobile=True, bare=True)),
    "PHONE_INTL": lambda: L("PHONE", phone_intl()),
    "PHONE_ANY_INTL": lambda: L("PHONE", phone_pick_intl()),
    "PHONE_JP_INTL": lambda: L("PHONE", phone_intl("JP")),
    "PHONE_BR_INTL": lambda: L("PHONE", phone_intl("BR")),
    "PHONE_ES_INTL": lambda: L("PHONE", phone_intl("ES")),
    "PHONE_AU_INTL": lambda: L("PHONE", phone_intl("AU")),
    "PHONE_NAT_OTHER": lambda: L("PHONE", phone_national_other(), "beyond"),
    "PHONE_JP_NAT": lambda: L("PHONE", phone_national_other("JP"), "beyond"),
    "PHONE_BR_NAT": lambda: L("PHONE", phone_national_other("BR"), "beyond"),
    "PHONE_ES_NAT": lambda: L("PHONE", phone_national_other("ES"), "beyond"),
    "PHONE_DE_00": lambda: L("PHONE", "0049 " + phone_de(intl=False)[1:].replace("/", " "), "beyond"),
    # ---- card / ssn / iban / ip
    "CARD": lambda: L("CREDIT_CARD", card_fmt(card_digits())),
    "CARD_VISA": lambda: L("CREDIT_CARD", card_fmt(card_digits("visa"))),
    "CARD_MC": lambda: L("CREDIT_CARD", card_fmt(card_digits(R.choice(["mc", "mc2"])))),
    "CARD_AMEX": lambda: L("CREDIT_CARD", card_fmt(card_digits("amex"), R.choice([" ", "-", ""]))),
    "CARD_DISC": lambda: L("CREDIT_CARD", card_fmt(card_digits("disc"))),
    "CARD_JCB": lambda: L("CREDIT_CARD", card_fmt(card_digits("jcb"))),
    "CARD_DINERS": lambda: L("CREDIT_CARD", card_fmt(card_digits("diners"), " ")),
    "CARD_UP": lambda: L("CREDIT_CARD", card_fmt(card_digits("unionpay"), R.choice([" ", ""]))),
    "CARD_PLAIN": lambda: L("CREDIT_CARD", card_digits()),
    "CARD_DASH": lambda: L("CREDIT_CARD", card_fmt(card_digits(), "-")),
    "CARD_DOT": lambda: L("CREDIT_CARD", card_fmt(card_digits(), ".")),
    "CARD_NBSP": lambda: L("CREDIT_CARD", card_fmt(card_digits(), "\u00a0")),
    "SSN": lambda: L("US_SSN", ssn_fmt(ssn_digits())),
    "SSN_SPACE": lambda: L("US_SSN", ssn_fmt(ssn_digits(), " ")),
    "SSN_BARE": lambda: L("US_SSN", ssn_digits()),
    "IBAN": lambda: L("IBAN", iban_fmt(iban_digits())),
    "IBAN_DE": lambda: L("IBAN", iban_fmt(iban_digits("DE"))),
    "IBAN_GB": lambda: L("IBAN", iban_fmt(iban_digits("GB"))),
    "IBAN_FR": lambda: L("IBAN", iban_fmt(iban_digits("FR"))),
    "IBAN_ES": lambda: L("IBAN", iban_fmt(iban_digits("ES"))),
    "IBAN_NL": lambda: L("IBAN", iban_fmt(iban_digits("NL"))),
    "IBAN_IT": lambda: L("IBAN", iban_fmt(iban_digits("IT"))),
    "IBAN_EU": lambda: L("IBAN", iban_fmt(iban_digits(R.choice(["AT", "BE", "CH", "IE", "NL", "IT"])))),
    "IBAN_COMPACT": lambda: L("IBAN", iban_digits()),
    "IBAN_LOWER": lambda: L("IBAN", iban_fmt(iban_digits()).lower(), "beyond"),
    "IPV4": lambda: L("IP_ADDRESS", ipv4_pub()),
    "IPV4_PRIV": lambda: L("IP_ADDRESS", ipv4_priv()),
    "IPV6": lambda: L("IP_ADDRESS", ipv6()),
    "IPV4_MAPPED": lambda: L("IP_ADDRESS", "::ffff:" + ipv4_pub()),
    # ---- secrets
    "AWS_AKID": lambda: L("API_KEY", aws_akid()),
    "AWS_SECRET": lambda: L("API_KEY", aws_secret()),
    "GH_PAT": prov("GITHUB_TOKEN"),
    "GH_FINE": prov("GITHUB_PAT"),
    "GH_APP": prov("GITHUB_APP_TOKEN"),
    "GL_PAT": prov("GITLAB_TOKEN"),
    "SLACK_BOT": prov("SLACK_BOT_TOKEN"),
    "SLACK_USER": prov("SLACK_USER_TOKEN"),
    "SLACK_WEBHOOK": lambda: L("API_KEY", slack_webhook()),
    "DISCORD_WEBHOOK": lambda: L("API_KEY", discord_webhook()),
    "STRIPE_SK": prov("STRIPE_SECRET_KEY"),
    "STRIPE_RK": prov("STRIPE_RESTRICTED_KEY"),
    "GOOGLE_KEY": prov("GOOGLE_API_KEY"),
    "OPENAI_KEY": prov("OPENAI_API_KEY"),
    "ANTHROPIC": prov("ANTHROPIC_API_KEY"),
    "TWILIO_SK": prov("TWILIO_API_KEY"),
    "SENDGRID": prov("SENDGRID_API_KEY"),
    "NPM": prov("NPM_TOKEN"),
    "PYPI": prov("PYPI_TOKEN"),
    "AZURE_AD_SECRET": prov("AZURE_CLIENT_SECRET"),
    "AZURE_STORAGE_KEY": prov("AZURE_STORAGE_KEY"),
    "DO_PAT": prov("DIGITALOCEAN_TOKEN"),
    "SHOPIFY": prov("SHOPIFY_ACCESS_TOKEN"),
    "VAULT": prov("VAULT_TOKEN"),
    "TFC": prov("TFE_TOKEN"),
    "DATADOG_API": prov("DATADOG_API_KEY"),
    "DATADOG_APP": prov("DATADOG_APP_KEY"),
    "HF": prov("HF_TOKEN"),
    "DOCKER_PAT": prov("DOCKERHUB_TOKEN"),
    "TELEGRAM": prov("TELEGRAM_BOT_TOKEN"),
    "HEROKU_UUID": lambda: L("API_KEY", _uuid()),
    "TWILIO_AUTH": prov("TWILIO_AUTH_TOKEN"),
    "AWS_SESSION": prov("AWS_SESSION_TOKEN"),
    "PASSWORD": lambda: L("PASSWORD", password()),
    "HEX128": lambda: L("HIGH_ENTROPY_SECRET", rs(HEX, 128)),
    "WHSEC": lambda: L("API_KEY", "whsec_" + rs_mixed(B62, 32)),
    "PASSWORD_URLSAFE": lambda: L("PASSWORD", password(urlsafe=True)),
    "PASSWORD_BEYOND": lambda: L("PASSWORD", password(), "beyond"),
    "B64PASS": lambda: L("PASSWORD", b64(password().encode())),
    "GENERIC": lambda: L("GENERIC_SECRET", generic_secret()),
    "GENERIC32": lambda: L("GENERIC_SECRET", rs(HEX, 32)),
    "HIGHENT": lambda: L("HIGH_ENTROPY_SECRET", high_entropy()),
    "DJANGO_SECRET": lambda: L("HIGH_ENTROPY_SECRET", django_secret()),
    "WPSALT": lambda: L("HIGH_ENTROPY_SECRET", wp_salt()),
    "LARAVEL_KEY": lambda: L("HIGH_ENTROPY_SECRET", "base64:" + b64(rbytes(32))),
    "PYBYTES": lambda: L("HIGH_ENTROPY_SECRET", "".join("\\x%02x" % b for b in rbytes(24))),
    "JWT": lambda: L("JWT", jwt()),
    "JWT_LONG": lambda: L("JWT", jwt(long_header=True)),
    "BEARER": lambda: L(
        "BEARER_TOKEN",
        pick(
            [
                lambda: "ya29.a0" + rs_mixed(B62 + "-_", R.randint(140, 200)),
                lambda: rs_mixed(B62 + "-._~", R.randint(32, 48)),
                lambda: rs(HEX, 40),
                lambda: "at_" + rs_mixed(B62, 32),
                lambda: b64url(rbytes(36)),
            ]
        ),
    ),
    "BASIC": lambda: L("BASIC_AUTH", b64(("%s:%s" % (FILL["user"](), password())).encode())),
    "BASICPLAIN": lambda: L("BASIC_AUTH", "%s:%s" % (FILL["user"](), password(urlsafe=True))),
    "URLCRED": lambda: L(
        "URL_CREDENTIALS",
        "%s:%s"
        % (R.choice(["admin", "app", "svc_etl", "deploy", "root", "reporter", FILL["user"]()]), password(urlsafe=True)),
    ),
    "URLCRED_PWONLY": lambda: L("URL_CREDENTIALS", password(urlsafe=True)),
    "PEM_RSA": lambda: L("PRIVATE_KEY", pem("rsa")),
    "PEM_PKCS8": lambda: L("PRIVATE_KEY", pem("pkcs8")),
    "PEM_EC": lambda: L("PRIVATE_KEY", pem("ec")),
    "PEM_OPENSSH": lambda: L("PRIVATE_KEY", pem("openssh")),
    "PEM_ENC": lambda: L("PRIVATE_KEY", pem("enc")),
    "PGP_PRIV": lambda: L("PRIVATE_KEY", pgp_priv()),
    "PEM_JSON": lambda: L("PRIVATE_KEY", pem("pkcs8").replace("\n", "\\n") + "\\n"),
    "PEM_INDENT": lambda: L("PRIVATE_KEY", pem("pkcs8").replace("\n", "\n    ")),
    "PEM_CRLF": lambda: L("PRIVATE_KEY", pem(R.choice(["rsa", "ec"])).replace("\n", "\r\n")),
    "PEM_B64": lambda: L("PRIVATE_KEY", b64((pem("ec") + "\n").encode()), "beyond"),
    # ---- evasion: cards
    "CARD_ZW": lambda: L("CREDIT_CARD", card_zw("\u200b")),
    "CARD_WJ": lambda: L("CREDIT_CARD", card_zw("\u2060")),
    "CARD_SHY": lambda: L("CREDIT_CARD", card_zw("\u00ad")),
    "CARD_BOM": lambda: L("CREDIT_CARD", card_zw("\ufeff")),
    "CARD_ZWNJ": lambda: L("CREDIT_CARD", card_zw(R.choice(["\u200c", "\u200d"]))),
    "CARD_FW": lambda: L("CREDIT_CARD", to_script(card_fmt(card_digits(), R.choice([" ", "－", "", "\u3000"])), "fw")),
    "CARD_AR": lambda: L("CREDIT_CARD", to_script(card_fmt(card_digits(), R.choice([" ", "-", ""])), "ar")),
    "CARD_FA": lambda: L("CREDIT_CARD", to_script(card_fmt(card_digits(), R.choice([" ", "-"])), "fa")),
    "CARD_DEV": lambda: L("CREDIT_CARD", to_script(card_fmt(card_digits(), R.choice([" ", "-"])), "dev")),
    "CARD_BEN": lambda: L("CREDIT_CARD", to_script(card_fmt(card_digits(), " "), "ben")),
    "CARD_ENDASH": lambda: L(
        "CREDIT_CARD", card_sep(R.choice(["\u2013", "\u2014", "\u2212", "\u2010", "\u2011", "\u2012", "\u2015"]))
    ),
    "CARD_NNBSP": lambda: L("CREDIT_CARD", card_sep("\u202f")),
    "CARD_THIN": lambda: L("CREDIT_CARD", card_sep(R.choice(["\u2009", "\u2007", "\u2008", "\u200a"]))),
    "CARD_MIXED": lambda: L("CREDIT_CARD", card_mixed()),
    "CARD_SPLITLINE": lambda: L("CREDIT_CARD", card_splitline()),
    "CARD_SPACED": lambda: L("CREDIT_CARD", " ".join(card_digits())),
    "CARD_IDEO": lambda: L("CREDIT_CARD", card_sep("\u3000"), "beyond"),
    "CARD_MATH": lambda: L("CREDIT_CARD", to_script(card_fmt(card_digits(), " "), "math"), "beyond"),
    "CARD_WORDS": lambda: L("CREDIT_CARD", " ".join(WORDS_EN[int(c)] for c in card_digits("visa")), "beyond"),
    "CARD_SLASH": lambda: L("CREDIT_CARD", card_sep("/"), "beyond"),
    # ---- evasion: phones
    "PHONE_FW": lambda: L("PHONE", to_script(phone_pick_intl(), "fw").replace("+", R.choice(["+", "＋"]))),
    "PHONE_FW_NAT": lambda: L(
        "PHONE",
        to_script(R.choice([phone_us(R.choice([0, 1])), phone_de(intl=False), phone_gb(intl=False)]), "fw").replace(
            "-", R.choice(["-", "－"])
        ),
    ),
    "PHONE_AR": lambda: L("PHONE", to_script(phone_intl(R.choice(["AE", "SA", "EG"])), "ar")),
    "PHONE_FA": lambda: L("PHONE", to_script(phone_intl("IR"), "fa")),
    "PHONE_DEV": lambda: L("PHONE", to_script(phone_in(mobile=True, intl=R.random() < 0.6), "dev")),
    "PHONE_BEN": lambda: L("PHONE", to_script(phone_intl("BD"), "ben")),
    "PHONE_ZW": lambda: L(
        "PHONE",
        sprinkle(
            phone_pick_intl(), R.choice(["\u200b", "\u2060", "\ufeff", "\u00ad", "\u200c"]), R.randint(1, 3), protect=2
        ),
    ),
    "PHONE_DASHU": lambda: L(
        "PHONE", phone_us(1).replace("-", R.choice(["\u2013", "\u2011", "\u2212", "\u2010", "\u2012"]))
    ),
    "PHONE_NBSP": lambda: L(
        "PHONE",
        R.choice([phone_fr(intl=False), phone_gb(intl=True), phone_de(intl=True), phone_in(intl=True)]).replace(
            " ", R.choice(["\u00a0", "\u202f", "\u2009", "\u2007"])
        ),
    ),
    "PHONE_SPLIT": lambda: L(
        "PHONE",
        split_phone(
            R.choice([phone_gb(intl=True), phone_de(intl=True), phone_fr(intl=True), phone_in(intl=True), phone_us(9)])
        ),
    ),
    "PHONE_WORDS": lambda: L("PHONE", phone_words(), "beyond"),
    "PHONE_HTML": lambda: L("PHONE", html_ent(phone_pick_intl()), "beyond"),
    "PHONE_SUPER": lambda: L("PHONE", "".join(CIRCLED[int(c)] if c in DG else c for c in phone_us(1)), "beyond"),
    "PHONE_MATH": lambda: L("PHONE", to_script(phone_intl(), "math"), "beyond"),
    "PHONE_THAI": lambda: L(
        "PHONE", to_script("+66 " + R.choice(["81", "89", "86"]) + " " + rs(DG, 3) + " " + rs(DG, 4), "thai"), "beyond"
    ),
    # ---- evasion: emails
    "EMAIL_FWAT": lambda: L("EMAIL", email_any().replace("@", "＠")),
    "EMAIL_ZW": lambda: L(
        "EMAIL",
        (
            lambda e: sprinkle(
                e, R.choice(["\u200b", "\u2060", "\u200c", "\u200d", "\ufeff"]), R.randint(1, 2), protect=1
            )
        )(email_any()),
    ),
    "EMAIL_SHY": lambda: L("EMAIL", (lambda e: e[: e.index("@") - 2] + "\u00ad" + e[e.index("@") - 2 :])(email_any())),
    "EMAIL_SPLIT": lambda: L("EMAIL", email_any().replace("@", "@\n")),
    "EMAIL_FULL": lambda: L("EMAIL", email_obf("full"), "beyond"),
    "EMAIL_WORD": lambda: L("EMAIL", email_obf("word"), "beyond"),
    "EMAIL_ENT": lambda: L("EMAIL", email_obf("ent"), "beyond"),
    "EMAIL_PCT": lambda: L("EMAIL", email_obf("pct"), "beyond"),
    "EMAIL_SMALLAT": lambda: L("EMAIL", email_obf("small"), "beyond"),
    # ---- evasion: ssn / iban / ip
    "SSN_FW": lambda: L("US_SSN", to_script(ssn_fmt(ssn_digits(), R.choice(["-", "－"])), "fw")),
    "SSN_DASHU": lambda: L("US_SSN", ssn_fmt(ssn_digits(), R.choice(["\u2013", "\u2011", "\u2212", "\u2014"]))),
    "SSN_ZW": lambda: L("US_SSN", sprinkle(ssn_fmt(ssn_digits()), R.choice(["\u200b", "\u2060", "\u00ad"]), 2)),
    "SSN_AR": lambda: L("US_SSN", to_script(ssn_fmt(ssn_digits()), R.choice(["ar", "dev"]))),
    "SSN_NBSP": lambda: L("US_SSN", ssn_fmt(ssn_digits(), R.choice(["\u00a0", "\u2009"]))),
    "SSN_SPACED": lambda: L("US_SSN", " ".join(ssn_fmt(ssn_digits())), "beyond"),
    "IBAN_ZW": lambda: L(
        "IBAN", sprinkle(iban_fmt(iban_digits()), R.choice(["\u200b", "\u2060", "\u00ad"]), 2, protect=2)
    ),
    "IBAN_NBSP": lambda: L(
        "IBAN", iban_fmt(iban_digits(), True).replace(" ", R.choice(["\u00a0", "\u202f", "\u2009"]))
    ),
    "IBAN_SPLIT": lambda: L(
        "IBAN", (lambda g: " ".join(g[:3]) + "\n" + " ".join(g[3:]))(iban_fmt(iban_digits(), True).split(" "))
    ),
    "IBAN_FW": lambda: L("IBAN", to_script(iban_fmt(iban_digits()), "fw")),
    "IBAN_DASH": lambda: L("IBAN", iban_fmt(iban_digits(), True).replace(" ", "-")),
    "IP_FW": lambda: L("IP_ADDRESS", to_script(ipv4_pub(), "fw")),
    "IP_ZW": lambda: L("IP_ADDRESS", sprinkle(ipv4_pub(), "\u200b", 1)),
    "IP_AR": lambda: L("IP_ADDRESS", to_script(ipv4_pub(), "ar")),
    "IP_DEFANG": lambda: L("IP_ADDRESS", ipv4_pub().replace(".", "[.]"), "beyond"),
    # ---- evasion: tokens
    "GH_ZW": lambda: L(
        "API_KEY",
        sprinkle(PROV_BY_ENV["GITHUB_TOKEN"][2](), R.choice(["\u200b", "\u2060"]), R.randint(1, 3), protect=4),
    ),
    "AWS_SHY": lambda: L("API_KEY", sprinkle(aws_akid(), "\u00ad", R.randint(1, 2), protect=4)),
    "STRIPE_WJ": lambda: L("API_KEY", sprinkle(PROV_BY_ENV["STRIPE_SECRET_KEY"][2](), "\u2060", 2, protect=8)),
    "SLACK_ZW": lambda: L("API_KEY", sprinkle(slack_bot(), R.choice(["\u200b", "\u200d"]), 2, protect=5)),
    "ANTHROPIC_BOM": lambda: L("API_KEY", sprinkle(anthropic_key(), "\ufeff", 2, protect=14)),
    "GOOGLE_ZWJ": lambda: L(
        "API_KEY", sprinkle(PROV_BY_ENV["GOOGLE_API_KEY"][2](), R.choice(["\u200d", "\u200c", "\u2063"]), 2, protect=4)
    ),
    "OPENAI_SPLIT": lambda: L("API_KEY", long_wrap(openai_key())),
    "ANTHROPIC_SPLIT": lambda: L("API_KEY", long_wrap(anthropic_key())),
    "TOKEN_SPLIT": lambda: L(
        "API_KEY", (lambda t: t[: len(t) // 2] + "\n" + t[len(t) // 2 :])(R.choice(PROVIDERS[:30])[2]())
    ),
    "JWT_SPLIT": lambda: L("JWT", jwt_split()),
    "JWT_ZW": lambda: L("JWT", (lambda t: t.replace(".", ".\u200b", 1))(jwt())),
    "PASSWORD_ZW": lambda: L("PASSWORD", sprinkle(password(), "\u200b", 1)),
    "GH_HOMO": lambda: L("API_KEY", "gh\u0440_" + rs_mixed(B62, 36), "beyond"),
    "AWS_HOMO": lambda: L("API_KEY", "\u0410KIA" + rs_mixed(UP + "234567", 16), "beyond"),
    "TOKEN_FWALL": lambda: L("API_KEY", fullwidth_all(PROV_BY_ENV["GITHUB_TOKEN"][2]()), "beyond"),
    "TOKEN_B64": lambda: L("API_KEY", b64(R.choice(PROVIDERS[:20])[2]().encode()), "beyond"),
    "TOKEN_REV": lambda: L("API_KEY", PROV_BY_ENV["GITHUB_TOKEN"][2]()[::-1], "beyond"),
    "TOKEN_SPACED": lambda: L("API_KEY", " ".join(aws_akid()), "beyond"),
    "PASSWORD_HEX": lambda: L("PASSWORD", password().encode().hex(), "beyond"),
}

# ---------------------------------------------------------------- assembling
PH = re.compile(r"§([A-Za-z0-9_]+)(?:=(\d+))?§")


def instantiate(tpl: str) -> tuple[str, list[dict[str, Any]]]:
    text = ""
    labels: list[dict[str, Any]] = []
    memo: dict[tuple[str, str], str | Label] = {}
    pos = 0
    for m in PH.finditer(tpl):
        text += tpl[pos : m.start()]
        pos = m.end()
        name, key = m.group(1), m.group(2)
        if key and (name, key) in memo:
            val = memo[(name, key)]
        else:
            if name in FILL:
                val = FILL[name]()
            elif name in G:
                val = G[name]()
            elif name.startswith("P_") and name[2:] in PROV_BY_ENV:
                val = L("API_KEY", PROV_BY_ENV[name[2:]][2]())
            else:
                raise KeyError(name)
            if key:
                memo[(name, key)] = val
        if isinstance(val, str):
            text += val
        else:
            t, v, scope = val
            start = len(text)
            text += v
            labels.append({"type": t, "value": v, "start": start, "end": len(text), "scope": scope})
    text += tpl[pos:]
    return text, labels


# ---------------------------------------------------------------- templates
# Templates for make_corpus.py.  §NAME§ = placeholder (UPPER = labelled, lower = filler).

PROVIDER_TEMPLATES = [
    "{ENV}={KEY}",
    "Note to self: the {NAME} key for prod is {KEY} (rotate in Q3)",
    'export {ENV}="{KEY}"',
    "[§time§] §first§: here's the {NAME} token, don't share it: {KEY}",
    "{env_lower}: {KEY}",
    '{"{env_lower}": "{KEY}", "region": "eu-west-1", "retries": 3}',
    "Der {NAME}-Token für Staging ist {KEY} – bitte nicht weitergeben.",
    '[secrets]\n{env_lower} = "{KEY}"\ntimeout_s = 30',
    'os.environ["{ENV}"] = "{KEY}"  # TODO remove before commit',
    "La clé API {NAME} de prod : {KEY}",
    "const token = process.env.{ENV} || '{KEY}';",
    "      - {ENV}={KEY}",
    "{NAME} のAPIトークン: {KEY}",
    '  env:\n    - name: {ENV}\n      value: "{KEY}"',
    '$env:{ENV} = "{KEY}"',
    "User asked me to remember their {NAME} token: {KEY}",
    "set -gx {ENV} {KEY}",
    'gh secret set {ENV} --body "{KEY}"',
    'memory.save(key="{env_lower}", value="{KEY}")',
    "A chave do {NAME} é {KEY}, guarda bem.",
]
# indices of templates that carry an English secret keyword next to the value
# (used for provider keys that have no distinctive prefix)
PROVIDER_CTX_TEMPLATES = [0, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 18]
CTX_ENVS = {
    "DATADOG_API_KEY",
    "DATADOG_APP_KEY",
    "CLOUDFLARE_API_TOKEN",
    "FASTLY_API_TOKEN",
    "OKTA_API_TOKEN",
    "ALGOLIA_ADMIN_KEY",
    "TWILIO_AUTH_TOKEN",
    "COHERE_API_KEY",
    "HEROKU_API_KEY",
    "SNYK_TOKEN",
    "PLAID_SECRET",
    "AZURE_STORAGE_KEY",
    "MAILCHIMP_API_KEY",
    "TELEGRAM_BOT_TOKEN",
    "OCTOPUS_API_KEY",
    "DISCORD_BOT_TOKEN",
    "MAXMIND_LICENSE_KEY",
}

POSITIVE = [
    # ---------------- e-mail, chat, tickets
    ("Hi §first§, please send the signed contract to §EMAIL§ by Friday. Thanks!", 2),
    (
        "From: §fullname§ <§EMAIL_CORP§>\nTo: §EMAIL_GEN§\nDate: §date§ §time§\nSubject: Re: invoice §ticket§\n\nSee attached.",
        2,
    ),
    ("User asked me to remember: my phone is §PHONE_US§ and my email is §EMAIL_GEN§.", 2),
    ("[§time§] §first§: call me on §PHONE_GB_MOB§ when you land\n[§time§] §first§: ok 👍", 2),
    ("[§time§] §first§: new number, old one is dead → §PHONE_ANY_INTL§", 2),
    ("id,name,email,phone\n1042,§fullname§,§EMAIL§,§PHONE_US§\n1043,§fullname§,§EMAIL§,§PHONE_GB_INTL§", 2),
    ('{"customer": {"name": "§fullname§", "email": "§EMAIL§", "phone": "§PHONE_ANY_INTL§"}, "card": "§CARD§"}', 2),
    ('contact:\n  email: §EMAIL_DE§\n  phone: "§PHONE_DE_INTL§"\n  iban: §IBAN_DE§', 2),
    ("Remember that the user's SSN is §SSN§ (needed for the W-9 next week).", 2),
    ("Payment failed for card §CARD§ (exp 09/27). Customer: §EMAIL§", 2),
    ("Wire the deposit to IBAN §IBAN§ (BIC §bic§), reference §ticket§.", 2),
    ("§iso§ WARN auth: failed login for §EMAIL_CORP§ from §IPV4§ (attempt 3/5)", 2),
    ('§IPV4§ - - [§clf§] "GET /api/v1/orders?page=2 HTTP/1.1" 200 5123 "-" "Mozilla/5.0 (X11; Linux x86_64)"', 2),
    (
        "§date§ 03:12:44 bastion sshd[§pid§]: Accepted publickey for deploy from §IPV6§ port §port§ ssh2: ED25519 SHA256:§hex16§",
        2,
    ),
    (
        "JIRA §ticket§: Customer §fullname§ (§EMAIL§, §PHONE_GB§) says card ending §last4§ was charged twice. Full PAN from the screenshot: §CARD_PLAIN§.",
        2,
    ),
    ("Zendesk #§n6§ — caller ID §PHONE_ANY_INTL§, identity verified with DOB + SSN §SSN§.", 2),
    ("Please update my billing details:\nName: §fullname§\nCard: §CARD_VISA§\nExp: 03/28\nZIP: 94107", 2),
    ("I paid with my Mastercard §CARD_MC§, can you check why it was declined?", 2),
    ("Card: §CARD_AMEX§ (Amex, exp 04/28, billing zip 10001)", 2),
    ("cc_number,exp,holder\n§CARD_PLAIN§,07/26,§fullname§\n§CARD_PLAIN§,11/25,§fullname§", 2),
    ("order.payment = { pan: '§CARD_DASH§', exp: '12/26', holder: '§fullname§' };", 2),
    ('{"amount": 4999, "currency": "eur", "source": {"number": "§CARD_PLAIN§", "exp_month": 8, "exp_year": 2027}}', 2),
    ("card no. §CARD_DOT§ — please refund the duplicate charge", 2),
    ("Paid with Discover §CARD_DISC§, JCB backup §CARD_JCB§.", 1),
    ("Diners Club: §CARD_DINERS§", 1),
    ("银联卡号 §CARD_UP§，请核对。", 1),
    ("Card number: §CARD_NBSP§", 2),
    ("SSN: §SSN§", 2),
    ("Employee onboarding — name: §fullname§, SSN §SSN_SPACE§, start date §date§", 2),
    ('applicant: {first: "§first§", ssn: "§SSN_BARE§", dob: "1987-04-12"}', 2),
    ("tax_form_w4.pdf extracted fields -> SSN=§SSN§; filing status=single", 1),
    ("Kontoinhaber: §fullname§\nIBAN: §IBAN_DE§\nBIC: §bic§", 2),
    ("Please pay invoice §ticket§ to §IBAN_GB§ (sort code is in the IBAN).", 2),
    ("iban=§IBAN_COMPACT§&amount=120.00&purpose=Rent", 2),
    ("Beneficiary IBAN: §IBAN_EU§", 2),
    ("Rekening: §IBAN_NL§ t.n.v. §fullname§", 1),
    ("Bonifico su §IBAN_IT§, causale: saldo fattura §n4§", 1),
    # ---------------- IPs
    ("X-Forwarded-For: §IPV4§, §IPV4_PRIV§", 2),
    ("server {\n    listen 443 ssl;\n    allow §IPV4§;\n    allow §IPV6§;\n    deny all;\n}", 2),
    ("sudo ufw allow from §IPV4§ to any port 22 proto tcp", 2),
    ("Host bastion\n    HostName §IPV4§\n    User ec2-user\n    IdentityFile ~/.ssh/bastion.pem", 2),
    ("$ ping6 -c 3 §IPV6§\n64 bytes from §IPV6§: icmp_seq=1 ttl=57 time=12.4 ms", 1),
    ("curl -sk https://[§IPV6§]:8443/healthz", 2),
    ('psycopg2.OperationalError: connection to server at "§IPV4_PRIV§", port 5432 failed: Connection refused', 2),
    ("2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9001\n    inet §IPV4_PRIV§/20 scope global dynamic eth0", 2),
    ("The customer's home router is at §IPV4§; they say the VPN drops every 20 minutes.", 2),
    ("client_ip=§IPV4_MAPPED§ method=POST path=/login status=401 latency_ms=87", 1),
    ("allowed_hosts:\n  - §IPV4§\n  - §IPV6§\n  - internal.§domain§", 1),
    # ---------------- configs with secrets
    (
        "DATABASE_URL=postgres://§URLCRED§@db.§domain§:5432/app\nREDIS_URL=redis://cache:6379/0\nSTRIPE_SECRET_KEY=§STRIPE_SK§",
        1,
    ),
    (
        "export AWS_ACCESS_KEY_ID=§AWS_AKID§\nexport AWS_SECRET_ACCESS_KEY=§AWS_SECRET§\nexport AWS_DEFAULT_REGION=eu-central-1",
        2,
    ),
    ("[default]\naws_access_key_id = §AWS_AKID§\naws_secret_access_key = §AWS_SECRET§\nregion = us-east-1", 2),
    (
        "[profile ci]\naws_access_key_id=§AWS_AKID§\naws_secret_access_key=§AWS_SECRET§\naws_session_token=§AWS_SESSION§",
        1,
    ),
    (
        "  512  git remote set-url origin https://§GH_PAT§@github.com/§org§/§repo§.git\n  513  git push -u origin main",
        1,
    ),
    ('curl -H "Authorization: Bearer §BEARER§" https://api.§domain§/v2/me', 2),
    ("curl -u §BASICPLAIN§ https://jenkins.§domain§/api/json?pretty=true", 2),
    ("GET /v1/accounts HTTP/1.1\nHost: api.§domain§\nAuthorization: Basic §BASIC§\nAccept: application/json", 2),
    (
        "GET /v1/accounts HTTP/1.1\nHost: api.§domain§\nAuthorization: Bearer §BEARER§\nUser-Agent: python-requests/2.31.0",
        2,
    ),
    ('from openai import OpenAI\nclient = OpenAI(api_key="§OPENAI_KEY§")', 1),
    ('import anthropic\nclient = anthropic.Anthropic(api_key="§ANTHROPIC§")', 1),
    ("const stripe = require('stripe')('§STRIPE_SK§');", 1),
    ('os.Setenv("GITHUB_TOKEN", "§GH_PAT§")', 1),
    ('String dbPassword = "§PASSWORD§"; // TODO move to vault', 1),
    (
        '"ConnectionStrings": {\n  "Default": "Server=tcp:sql-prod.database.windows.net,1433;Initial Catalog=orders;User ID=app_admin;Password=§PASSWORD§;Encrypt=True;"\n}',
        1,
    ),
    ("Stripe.api_key = '§STRIPE_RK§'", 1),
    ("define( 'DB_PASSWORD', '§PASSWORD§' );\ndefine( 'AUTH_KEY',         '§WPSALT§' );", 1),
    ('let slack = SlackClient::new("§SLACK_BOT§");', 1),
    ('slack_token = "§SLACK_USER§"', 1),
    ('provider "datadog" {\n  api_key = "§DATADOG_API§"\n  app_key = "§DATADOG_APP§"\n}', 1),
    ("echo §DOCKER_PAT§ | docker login -u §user§ --password-stdin", 1),
    ("//npm.registry.local/:_authToken=§NPM§", 1),
    ("[pypi]\n  username = __token__\n  password = §PYPI§", 1),
    ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\ndata:\n  password: §B64PASS§", 1),
    ("AZURE_TENANT_ID=§uuid§\nAZURE_CLIENT_ID=§uuid§\nAZURE_CLIENT_SECRET=§AZURE_AD_SECRET§", 1),
    (
        "DefaultEndpointsProtocol=https;AccountName=§acct§;AccountKey=§AZURE_STORAGE_KEY§;EndpointSuffix=core.windows.net",
        1,
    ),
    ("doctl auth init --access-token §DO_PAT§", 1),
    ("SHOPIFY_ACCESS_TOKEN=§SHOPIFY§", 1),
    ("$ vault login §VAULT§\nSuccess! You are now authenticated.", 1),
    ('credentials "app.terraform.io" {\n  token = "§TFC§"\n}', 1),
    ("TWILIO_ACCOUNT_SID=AC§hex32§\nTWILIO_AUTH_TOKEN=§TWILIO_AUTH§\nTWILIO_API_KEY=§TWILIO_SK§", 1),
    ("sg = SendGridAPIClient('§SENDGRID§')", 1),
    ("https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=§GOOGLE_KEY§", 1),
    (
        'const firebaseConfig = {\n  apiKey: "§GOOGLE_KEY§",\n  authDomain: "§proj§.firebaseapp.com",\n  projectId: "§proj§"\n};',
        1,
    ),
    ("curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy finished\"}' §SLACK_WEBHOOK§", 1),
    ("notify:\n  discord: §DISCORD_WEBHOOK§", 1),
    ("git clone https://oauth2:§GL_PAT§@gitlab.§domain§/infra/terraform.git", 1),
    ("huggingface-cli login --token §HF§", 1),
    ("- name: Checkout\n  uses: actions/checkout@v4\n  with:\n    token: §GH_APP§", 1),
    ("netrc:\nmachine api.heroku.com\n  login §EMAIL_GEN§\n  password §HEROKU_UUID§", 1),
    ("MONGO_URI=mongodb+srv://§URLCRED§@cluster0.§hex5§.mongodb.net/prod?retryWrites=true&w=majority", 2),
    ('broker_url = "amqp://§URLCRED§@rabbitmq.internal:5672/%2F"', 1),
    ("jdbc:postgresql://db.§domain§:5432/sales?user=report&password=§PASSWORD_URLSAFE§&ssl=true", 2),
    ("pip install --index-url https://§URLCRED§@pypi.§domain§/simple/ internal-lib==§semver§", 1),
    ("lftp ftp://§URLCRED§@ftp.§domain§/uploads/", 1),
    ("REDIS_URL=redis://:§URLCRED_PWONLY§@redis-12345.c1.eu-west-1.ec2.cloud.redislabs.com:12345", 1),
    ("Trigger: https://§URLCRED§@jenkins.§domain§/job/deploy/build?token=§GENERIC§", 1),
    ("wifi password is §PASSWORD§ (network: §ssid§)", 2),
    ("Login for the staging admin panel: user §user§ / password: §PASSWORD§", 2),
    ("spring:\n  datasource:\n    url: jdbc:mysql://db:3306/shop\n    username: shop\n    password: §PASSWORD§", 1),
    ('[database]\nhost = "db.internal"\nuser = "svc_billing"\npassword = "§PASSWORD§"', 1),
    ("    environment:\n      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD=§PASSWORD§", 1),
    ("[client]\nuser=backup\npasswd=§PASSWORD§", 1),
    ("smtp:\n  host: smtp.§domain§\n  port: 587\n  user: §EMAIL_CORP§\n  pass: §PASSWORD§", 1),
    ("client_secret=§HIGHENT§", 1),
    ("secret: §GENERIC§", 1),
    ("token=§GENERIC§", 1),
    ('api_key: "§GENERIC§"', 1),
    ("X-API-Key: §GENERIC§", 1),
    ('{"apiKey": "§GENERIC§", "endpoint": "https://api.§domain§/v3"}', 1),
    (
        "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://api.§domain§/v1/export?api_key=§GENERIC§&format=csv",
        1,
    ),
    ("SECRET_KEY = '§DJANGO_SECRET§'", 1),
    ("JWT_SECRET=§HIGHENT§\nSESSION_SECRET=§HIGHENT§", 1),
    ("APP_KEY=§LARAVEL_KEY§", 1),
    ("app.secret_key = b'§PYBYTES§'", 1),
    ("signing_key: §HIGHENT§\nencryption_key: §HIGHENT§", 1),
    ('{"access_token":"§JWT_LONG§","token_type":"Bearer","expires_in":3600,"refresh_token":"§GENERIC§"}', 2),
    ("Authorization: Bearer §JWT§", 2),
    ("Set-Cookie: session=§JWT§; Path=/; HttpOnly; Secure; SameSite=Lax", 2),
    ("https://app.§domain§/callback#id_token=§JWT_LONG§&state=§hex16§", 2),
    ('jwt = "§JWT§"  # copied from localStorage', 1),
    ("the token from the login response was §JWT§ if that helps debugging", 1),
    # ---------------- private keys
    ("Here is the deploy key, keep it safe:\n§PEM_OPENSSH§", 2),
    ("cat ~/.ssh/id_rsa\n§PEM_RSA§", 2),
    (
        '{\n  "type": "service_account",\n  "project_id": "§proj§",\n  "private_key_id": "§hex40§",\n  "private_key": "§PEM_JSON§",\n  "client_email": "§SA_EMAIL§",\n  "client_id": "§digits21§"\n}',
        2,
    ),
    ("ssl_certificate_key inline:\n§PEM_EC§", 1),
    ("tls:\n  key: |\n    §PEM_INDENT§\n  cert: /etc/tls/tls.crt", 1),
    ("§PEM_ENC§\n(passphrase is on the sticky note)", 1),
    ("§PGP_PRIV§", 1),
    # ---------------- multilingual notes
    (
        "Hallo §first§, meine Handynummer ist §PHONE_DE_MOB§ und meine E-Mail §EMAIL_DE§. Bitte überweise die Miete auf §IBAN_DE§.",
        2,
    ),
    ("Tel.: §PHONE_DE_LAND§ · Mobil: §PHONE_DE_MOB§ · USt-IdNr.: DE§digits9§", 2),
    ("Rückruf bitte unter §PHONE_DE_INTL§ (ab 14 Uhr).", 2),
    ("Bonjour, vous pouvez me joindre au §PHONE_FR§ ou par mail à §EMAIL_FR§. Mon IBAN : §IBAN_FR§.", 2),
    ("Numéro de carte : §CARD§ — expiration 11/26.", 1),
    ("Merci de rappeler M. §last§ au §PHONE_FR_INTL§.", 2),
    ("Hola, mi correo es §EMAIL_ES§ y mi móvil §PHONE_ES_INTL§. Te paso el IBAN: §IBAN_ES§", 2),
    ("Oi! Meu e-mail é §EMAIL_BR§ e o WhatsApp é §PHONE_BR_INTL§.", 2),
    ("नमस्ते, मेरा मोबाइल नंबर §PHONE_IN§ है और ईमेल §EMAIL_IN§ है।", 2),
    ("bhai mera number §PHONE_IN_INTL§ hai, UPI se bhej dena", 2),
    ("Office (Bengaluru): §PHONE_IN§, Mon–Fri 10:00–18:00 IST", 1),
    ("お世話になっております。連絡先は§EMAIL_JP§、電話番号は§PHONE_JP_INTL§です。", 2),
    ("クレジットカード番号：§CARD§（有効期限 2027/08）", 1),
    ("my number is §PHONE_US_BARE§ text me anytime", 2),
    ("My number is §PHONE_IN_BARE§, call after 6pm IST", 2),
    ("you can reach me at §PHONE_US_NAT§ or §PHONE_US_INTL§ (cell)", 2),
    ("UK office: §PHONE_GB_LAND§ | US: §PHONE_US_INTL§ | AU: §PHONE_AU_INTL§", 2),
    ("Remember for next time: the staging db password is §PASSWORD§, admin email §EMAIL_CORP§, jump host §IPV4§.", 2),
    ("User profile — email: §EMAIL§; phone: §PHONE§; last login from §IPV4§", 2),
    # ---------------- beyond-scope positives
    ("mysql -h db.§domain§ -u root -p'§PASSWORD_BEYOND§' orders < dump.sql", 1),
    ("sshpass -p '§PASSWORD_BEYOND§' ssh admin@§IPV4§", 1),
    ("Das WLAN-Passwort lautet §PASSWORD_BEYOND§, der Router steht im Flur.", 1),
    ("Le mot de passe du Wi-Fi est §PASSWORD_BEYOND§", 1),
    ("Anruf aus der Schweiz bitte über §PHONE_DE_00§.", 1),
    ("携帯: §PHONE_JP_NAT§（平日のみ）", 1),
    ("Liga para §PHONE_BR_NAT§ depois das 18h.", 1),
    ("Llámame al §PHONE_ES_NAT§ cuando puedas.", 1),
    ("iban (lower-cased by the form): §IBAN_LOWER§", 1),
    ("tls.key: §PEM_B64§", 1),
    ("PGPASSWORD=§PASSWORD§ psql -h db.§domain§ -U app app", 1),
    ("mysqldump --user=root --password=§PASSWORD§ shop > shop.sql", 1),
    ('{"username": "§user§", "password": "§PASSWORD§", "remember": true}', 2),
    ('<add key="ClearTextPassword" value="§PASSWORD§" />', 1),
    ("pwd: §PASSWORD_BEYOND§", 1),
    ("auth_token: §GENERIC§", 1),
    ("https://api.§domain§/oauth/callback?access_token=§GENERIC§&expires_in=3600", 1),
    ('"client_secret": "§HIGHENT§"', 2),
    ("SECRET_KEY_BASE=§HEX128§", 1),
    ("NEXTAUTH_SECRET=§HIGHENT§", 1),
    ("webhook_secret: §WHSEC§", 1),
    ("GET /v2/forecast?apikey=§GENERIC§&q=Berlin", 1),
    ("api-key: §GENERIC§", 1),
    ("private_token: §GENERIC§", 1),
    ("ENCRYPTION_KEY=§HIGHENT§", 1),
    ('hmac_secret = "§HIGHENT§"', 1),
    ("ok here's the token: §GENERIC§ — it expires Friday", 1),
    ("§JWT§", 1),
    ("2024-03-15 10:22:01 DEBUG http: Authorization header = Bearer §JWT§", 1),
    ("token=§JWT_LONG§", 1),
    ("localStorage.setItem('access_token', '§JWT§');", 1),
    ('{"auths": {"registry.§domain§": {"auth": "§BASIC§"}}}', 1),
    ("git clone https://§URLCRED§@bitbucket.org/§org§/§repo§.git", 1),
    ("SQLALCHEMY_DATABASE_URI = 'mysql+pymysql://§URLCRED§@db:3306/app'", 1),
    ("export https_proxy=http://§URLCRED§@proxy.corp.§domain§:3128", 1),
    ('git -c http.extraheader="AUTHORIZATION: basic §BASIC§" clone https://dev.azure.com/§org§/_git/§repo§', 1),
    ("Proxy-Authorization: Basic §BASIC§", 1),
    ("fetch(url, { headers: { Authorization: 'Bearer §BEARER§' } })", 2),
    ("wscat -c 'wss://stream.§domain§/v1/events?access_token=§BEARER§'", 1),
    ("http --auth-type=bearer --auth §BEARER§ GET api.§domain§/me", 1),
    ("-H 'authorization: bearer §BEARER§'", 1),
]

EVASION = [
    ("My card is §CARD_ZW§, please charge it.", 3),
    ("c.c. §CARD_WJ§ exp 03/27", 2),
    ("Karte: §CARD_SHY§", 2),
    ("card §CARD_BOM§ (copied from the PDF)", 1),
    ("Kartennummer §CARD_ZWNJ§", 1),
    ("カード番号 §CARD_FW§", 3),
    ("رقم البطاقة §CARD_AR§", 2),
    ("شماره کارت §CARD_FA§", 1),
    ("कार्ड नंबर §CARD_DEV§", 2),
    ("কার্ড নম্বর §CARD_BEN§", 1),
    ("card number §CARD_ENDASH§", 3),
    ("Numéro de carte : §CARD_NNBSP§", 2),
    ("card: §CARD_THIN§", 2),
    ("PAN §CARD_MIXED§", 3),
    ("card: §CARD_SPLITLINE§ exp 10/26", 3),
    ("here it is digit by digit: §CARD_SPACED§", 2),
    ("Sure! The number you asked for is §CARD_ZW§ — let me know if you need the CVV.", 1),
    ("call me: §PHONE_FW§", 3),
    ("電話：§PHONE_FW_NAT§", 2),
    ("اتصل بي على §PHONE_AR§", 2),
    ("شماره من §PHONE_FA§ است", 1),
    ("मेरा नंबर §PHONE_DEV§ है", 2),
    ("আমার নম্বর §PHONE_BEN§", 1),
    ("phone: §PHONE_ZW§", 3),
    ("tel §PHONE_DASHU§", 3),
    ("Tél : §PHONE_NBSP§", 3),
    ("Ring me on §PHONE_SPLIT§ after 5", 3),
    ("mail me at §EMAIL_FWAT§", 3),
    ("contact: §EMAIL_ZW§", 3),
    ("email: §EMAIL_SHY§", 2),
    ("write to §EMAIL_SPLIT§ for access", 1),
    ("SSN §SSN_FW§", 2),
    ("ssn: §SSN_DASHU§", 2),
    ("SSN §SSN_ZW§", 2),
    ("social: §SSN_AR§", 1),
    ("SSN: §SSN_NBSP§", 1),
    ("IBAN §IBAN_ZW§", 2),
    ("IBAN: §IBAN_NBSP§", 2),
    ("Bitte überweisen auf\n§IBAN_SPLIT§\nDanke!", 2),
    ("IBAN：§IBAN_FW§", 1),
    ("IBAN §IBAN_DASH§", 1),
    ("server at §IP_FW§", 1),
    ("login from §IP_ZW§ blocked", 1),
    ("العنوان §IP_AR§", 1),
    ("token: §GH_ZW§", 3),
    ("AWS key §AWS_SHY§", 2),
    ("stripe: §STRIPE_WJ§", 2),
    ("SLACK_BOT_TOKEN=§SLACK_ZW§", 1),
    ("ANTHROPIC_API_KEY=§ANTHROPIC_BOM§", 1),
    ("maps key §GOOGLE_ZWJ§", 1),
    ("OPENAI_API_KEY=§OPENAI_SPLIT§", 2),
    ("here's the key (wrapped by the terminal):\n§ANTHROPIC_SPLIT§", 1),
    ("key:\n§TOKEN_SPLIT§", 3),
    ("Authorization: Bearer §JWT_SPLIT§", 2),
    ("id_token=§JWT_ZW§", 1),
    ("password: §PASSWORD_ZW§", 2),
    ("§PEM_CRLF§", 1),
    # ---- beyond
    ("card: §CARD_IDEO§", 1),
    ("card: §CARD_MATH§", 1),
    ("my card is §CARD_WORDS§", 1),
    ("card §CARD_SLASH§", 1),
    ("my number is §PHONE_WORDS§", 1),
    ("tel: §PHONE_HTML§", 1),
    ("phone §PHONE_SUPER§", 1),
    ("phone §PHONE_MATH§", 1),
    ("เบอร์ §PHONE_THAI§", 1),
    ("mail: §EMAIL_FULL§", 1),
    ("reach me at §EMAIL_WORD§", 2),
    ('<a href="mailto:§EMAIL_ENT§">mail</a>', 1),
    ("mailto:§EMAIL_PCT§?subject=hi", 1),
    ("email §EMAIL_SMALLAT§", 1),
    ("S S N : §SSN_SPACED§", 1),
    ("blocked §IP_DEFANG§ (defanged IOC)", 1),
    ("token §GH_HOMO§", 1),
    ("key §AWS_HOMO§", 1),
    ("token §TOKEN_FWALL§", 1),
    ("base64 of my token: §TOKEN_B64§", 1),
    ("reversed, so the scanner won't see it: §TOKEN_REV§", 1),
    ("A K I A spelled out: §TOKEN_SPACED§", 1),
    ("hex of the password: §PASSWORD_HEX§", 1),
    ("pass\u200bword: §PASSWORD_BEYOND§", 1),
]

NEGATIVE = [
    # ---------------- file names, @ that is not e-mail
    ("Replace icon@2x.png and icon@3x.png in Assets.xcassets before the release.", 1),
    ("Added logo@2x.webp, logo@3x.webp and splash@2x~ipad.png", 1),
    ('<img srcset="hero@1x.jpg 1x, hero@2x.jpg 2x, hero@3x.jpg 3x" src="hero@1x.jpg">', 1),
    ("npm install react@18.2.0 react-dom@18.2.0 @types/react@18.2.45", 1),
    ("pnpm add -D @typescript-eslint/parser@6.19.0 eslint@8.56.0", 1),
    ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css">', 1),
    ("docker pull python@sha256:§sha256§", 2),
    ("FROM node:20-alpine@sha256:§sha256§ AS build", 2),
    ("git remote add origin git@github.com:§org§/§repo§.git", 2),
    ("ssh -T git@gitlab.com", 1),
    ("@media (max-width: 600px) { .nav { display: none; } }\n@import url('theme.css');", 1),
    ("@app.route('/health')\ndef health():\n    return {'status': 'ok'}", 1),
    ('@Override\npublic String toString() { return "User@" + Integer.toHexString(hashCode()); }', 1),
    ("java.lang.Object@1b6d3586 cannot be cast to com.acme.Order", 1),
    ("ping @oncall-infra and @§first§ about the failed deploy", 2),
    ("See https://medium.com/@dev-notes/scaling-postgres-7f3a2b1c9d0e for the write-up.", 1),
    ("https://www.google.com/maps/@52.5200066,13.404954,14z", 1),
    ("perl -e 'print scalar(@ARGV)' a b c", 1),
    ("$props = @{ Name = 'web01'; Role = 'frontend' }", 1),
    ("ubuntu@web-01:~$ sudo systemctl restart nginx", 1),
    ("git log --format='%H %an <%ae>' -n 5   # shows commit authors", 1),
    # ---------------- versions, hashes, ids
    ("Upgraded to v1.2.3.4 of the firmware; see CHANGELOG.", 1),
    ('[assembly: AssemblyVersion("2.4.1.0")]\n[assembly: AssemblyFileVersion("2.4.1.0")]', 1),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.129 Safari/537.36",
        1,
    ),
    ("Microsoft Windows [Version 10.0.22631.3155]", 1),
    ("python 3.12.1, pip 23.3.2, setuptools 69.0.3, numpy==1.26.3", 1),
    ("Bump version: §semver§ → §semver§", 3),
    ("release 1.0.0-rc.1+build.5 tagged from §sha7§", 1),
    ("SNMP OID 1.3.6.1.4.1.2021.10.1.3.1 returns the 1-minute load average", 1),
    ("See section 3.2.1.4 of the spec and heading 15.5.2 of RFC 9110.", 1),
    ("commit §sha§\nAuthor: CI Bot <ci-bot>\nDate:   §date§\n\n    chore: bump deps", 2),
    ("Merged PR #§n4§ (§sha7§) into main", 2),
    ("sha256sum: §sha256§  dist/app-§semver§.tar.gz", 2),
    ("md5: §md5§  backup-§date§.tar.gz", 2),
    ('"integrity": "sha512-§b64hash§"', 3),
    ("request_id=§uuid§ trace_id=§hex32§ span_id=§hex16§ status=200", 3),
    ("traceparent: 00-§hex32§-§hex16§-01", 2),
    ("Correlation-Id: §uuid§", 2),
    ('ETag: W/"§hex16§-§n4§"', 1),
    ('{"event_id": "§hex32§", "level": "error", "platform": "python"}', 2),
    ("container §hex12§ exited with code 137 (OOMKilled)", 2),
    ("kubectl logs api-7d9f8b6c5-x2x9k -c app --since=1h", 1),
    ("docker image id: sha256:§sha256§", 1),
    ("Stripe objects: cus_§b62_14§, pi_3§b62_23§, ch_3§b62_23§ (ids only)", 2),
    ("Slack channel C0§UP8§, user U0§UP8§, team T0§UP8§", 1),
    ("AWS ARN: arn:aws:iam::§d12§:role/deploy-role", 2),
    ("arn:aws:s3:::acme-backups-eu/§date§/db.sql.gz", 1),
    ("S-1-5-21-3623811015-3361044348-30300820-1013 is the SID of the service account", 1),
    ("Tokens starting with ghp_ are classic PATs; fine-grained ones start with github_pat_.", 1),
    ("Stripe keys look like sk_live_… (secret) or pk_live_… (publishable); never log them.", 1),
    ("The AWS key id prefix AKIA means long-term credentials, ASIA means temporary STS.", 1),
    # ---------------- numbers that look like cards / phones / ssn
    ("Order #§amz§ shipped via UPS §ups§", 3),
    ("Reference: §bad16§", 3),
    ("Tracking number §bad16s§ (DHL Express)", 2),
    ("FedEx tracking §d12g§ — out for delivery", 2),
    ("USPS §usps§", 2),
    ("ISBN §isbn§ — 3rd edition, paperback", 3),
    ("EAN §ean§ · SKU §sku§", 2),
    ("Invoice INV-§date§-§n5§ total €§money§", 3),
    ("PO number §po§ approved by finance", 2),
    ("Case No. 1:23-cv-§n5§ (S.D.N.Y.)", 1),
    ("part no. §n3§-§n2§-§n3§, qty 12", 2),
    ("build §epoch§ finished in 4m12s", 2),
    ("created_at=§epochms§ updated_at=§epochms§", 2),
    ("Unix timestamp §epoch§ corresponds to §date§.", 2),
    ("PID §pid§ listening on localhost:8080 (bound to loopback only)", 1),
    ("Ticket §ticket§: the checkout page times out after 30s", 3),
    ("Meeting moved to §date§ §time§ CET (Room 4.012)", 2),
    ('§iso§ INFO  [main] o.a.c.h.Http11NioProtocol - Starting ProtocolHandler ["http-nio-8080"]', 2),
    ("2024-03-15T14:22:05+05:30 job=etl step=load rows=1048576 duration=00:03:41.221", 1),
    ("Les ventes ont augmenté de +33 % en 2023 et de +44 % au premier trimestre.", 1),
    ("Temperature: +21.5 °C, humidity 48 %, pressure 1013 hPa", 1),
    ("Population (2023): 1 428 627 663; area: 3 287 263 km²", 1),
    ("Montant : 12 345 678,90 € HT", 1),
    ("Umsatz 2023: 4.512.300 € (+12,4 %)", 1),
    ("$1,234,567.89 was the Q3 revenue; Q4 target is $1,500,000.00", 1),
    ("Coordinates: 37.774929, -122.419416 (San Francisco)", 1),
    ("Screen resolution 2560x1440 @ 165 Hz, DPI 109", 1),
    ("Error 0x80070643: installation failed (KB5034441)", 1),
    ("CVE-2024-3094 affects xz 5.6.0 and 5.6.1", 1),
    ("DOI: 10.1038/s41586-020-2649-2; arXiv:2403.§n5§; PMID §pmid§", 2),
    ("ZIP 94107-1234, postcode SW1A 2AA, PLZ 10115, code postal 75008", 1),
    ("Flight LH 401 departs 13:45 from gate B44, seat 23A", 1),
    ("Serial number: 5CG§n4§XQZ, model HP EliteBook 840 G8", 2),
    ("VAT ID DE§digits9§, BIC §bic§, Handelsregister HRB §n5§ B", 2),
    ("Bank routing: BIC §bic§ (no account number given)", 1),
    ("The IBAN field must be 15–34 characters and start with a country code.", 1),
    ("SSN format is AAA-GG-SSSS; never store it in plain text.", 1),
    ("Phone numbers are stored in E.164, e.g. +<country code><number>, max 15 digits.", 1),
    ("Luhn check failed for input; please re-enter the card number.", 1),
    ("sum = 1234 + 5678 + 9012 + 3455", 1),
    ("matrix = [[4, 9, 2], [3, 5, 7], [8, 1, 6]]  # magic square, rows sum to 15", 1),
    ("pi ≈ 3.14159265358979323846; e ≈ 2.71828182845904523536", 1),
    ("fib(30) = 832040, fib(40) = 102334155, fib(50) = 12586269025", 1),
    ("SELECT * FROM orders WHERE id BETWEEN 1000000 AND 1999999 LIMIT 50;", 1),
    ("for i in range(0, 4294967295, 65536): pass", 1),
    ("2^53 = 9007199254740992 is the largest exact integer in a double", 1),
    ("INT64_MAX = 9223372036854775807", 1),
    ("hexdump: 0000: 4865 6c6c 6f20 576f 726c 6421 0a00 0000", 1),
    ("Score: 1 412 points, rank 7 of 3 280", 1),
    ("Seed: 42; epochs: 120; lr: 3e-4; batch: 256; params: 7241728000", 1),
    ("Tests: 1532 passed, 4 skipped, 0 failed in 312.48s", 1),
    ("§iso§ GC pause 18.4ms heap 512MB→301MB", 2),
    # ---------------- hosts, URLs without credentials
    ("postgres://db.internal:5432/orders?sslmode=require", 1),
    ("DATABASE_HOST=db-primary.§domain§\nDATABASE_PORT=5432\nDATABASE_NAME=app", 1),
    ("mongodb+srv://cluster0.§hex5§.mongodb.net/test?retryWrites=true", 2),
    ("redis://cache.internal:6379/0", 1),
    ("jdbc:mysql://db-host:3306/shop?useSSL=true&serverTimezone=UTC", 1),
    ("https://api.§domain§/v1/users?page=2&per_page=50&sort=-created_at", 2),
    ("Listening on http://localhost:3000 and https://dev.§domain§:8443", 2),
    ("upstream backend { server app1.internal:8080; server app2.internal:8080; }", 1),
    ("ssh -p 2222 -i ~/.ssh/id_ed25519 bastion.§domain§", 1),
    ("ftp://ftp.gnu.org/gnu/bash/bash-5.2.tar.gz", 1),
    ("git clone https://github.com/§org§/§repo§.git && cd §repo§", 2),
    ("https://docs.python.org/3/library/re.html#re.Pattern.match", 1),
    ("curl -fsSL https://get.docker.com | sh", 1),
    # ---------------- keyword-ish but not secret
    ("Password must be at least 12 characters and contain one digit.", 1),
    ("Forgot your password? Click 'Reset password' and check your inbox.", 1),
    ("password_min_length: 12\npassword_require_symbols: true\npassword_max_age_days: 90", 1),
    ("DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=${API_KEY}", 1),
    ('password: "{{ vault_db_password }}"', 1),
    ("api_key: YOUR_API_KEY_HERE", 1),
    ("OPENAI_API_KEY=<your-key-here>", 1),
    ('token: null\nsecret: ""\npassword: ~', 1),
    ("PASSWORD_FILE=/run/secrets/db_password", 1),
    ("kubectl create secret generic db-creds --from-file=./password.txt", 1),
    ("aws secretsmanager get-secret-value --secret-id prod/db/credentials --query SecretString", 1),
    ('"usage": {"prompt_tokens": §n4§, "completion_tokens": §n3§, "total_tokens": §n4§}', 3),
    ("response = client.messages.create(model=model, max_tokens=4096, messages=msgs)", 1),
    ("The tokenizer splits 'unbelievable' into 3 tokens.", 1),
    ('{"token_type": "Bearer", "expires_in": 3600, "scope": "read write"}', 1),
    ("Authorization: Bearer <token>", 1),
    ('curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user', 1),
    ('headers = {"Authorization": f"Bearer {access_token}"}', 1),
    ("Authorization: Basic <base64(user:pass)>", 1),
    ("The bearer of this letter is authorised to collect the parcel.", 1),
    ("Basic usage: run `make` then `make install`.", 1),
    ("Secret Santa draw is on Friday, budget 20 €.", 1),
    ("We use a token bucket rate limiter: 100 tokens, refill 10/s.", 1),
    ("def get_password_hash(password: str) -> str:\n    return pwd_context.hash(password)", 1),
    ("const apiKeyHeaderName = 'X-API-Key';\nconst TOKEN_TTL_SECONDS = 3600;", 1),
    ("if (!user.passwordResetToken || user.passwordResetExpires < Date.now()) throw new Error('expired');", 1),
    ('secret_name = "prod/payments/stripe"\nregion = "eu-west-1"', 1),
    ("keyboard: event.key === 'Enter' && !event.shiftKey", 1),
    ("The passwordless login flow sends a magic link that expires in 15 minutes.", 1),
    ('ssh-keygen -t ed25519 -C "laptop-2024" -f ~/.ssh/id_ed25519', 1),
    ("-----BEGIN CERTIFICATE-----\n§certbody§\n-----END CERTIFICATE-----", 2),
    ("-----BEGIN PUBLIC KEY-----\n§pubbody§\n-----END PUBLIC KEY-----", 1),
    ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI§b64_43§ deploy@ci", 1),
    ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA§b64_80§", 2),
    # ---------------- code / identifiers / IPv6 look-alikes
    ("std::vector<std::string> parts; std::chrono::seconds timeout{30};", 1),
    ("use crate::db::pool::Pool;\nimpl From<io::Error> for AppError {}", 1),
    ("Net::HTTP.get(URI('https://example.org')) rescue Errno::ECONNREFUSED", 1),
    ("arr[::2], arr[1::3], arr[::-1]", 1),
    ("length :: [a] -> Int", 1),
    ("a:hover::before { content: ''; }", 1),
    ("Time: 12:34:56, elapsed 01:02:03.456", 1),
    ("deadbeef:cafebabe:0000:1111 is a sample hex dump row", 1),
    ("while (i < 10) { i += 2; } // 2 4 6 8 10", 1),
    ("const ORDER_ID_RE = /^\\d{3}-\\d{7}-\\d{7}$/;", 1),
    ("phone_regex = r'^\\+?[1-9]\\d{1,14}$'", 1),
    ('EMAIL_RE = re.compile(r"[^@\\s]+@[^@\\s]+\\.[a-z]{2,}")', 1),
    (
        "Traceback (most recent call last):\n  File \"/app/main.py\", line 42, in <module>\n    run()\nKeyError: 'user_id'",
        1,
    ),
    (
        "at com.acme.billing.InvoiceService.generate(InvoiceService.java:214)\nat java.base/java.lang.Thread.run(Thread.java:1583)",
        1,
    ),
    ("WARN  [pool-3-thread-7] HikariPool-1 - Connection is not available, request timed out after 30000ms.", 1),
    ("E0315 14:22:05.123456   12345 reflector.go:138] Failed to watch *v1.Pod: unknown", 1),
    ("kernel: [12345.678901] EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode", 1),
    ("FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install -r requirements.txt", 1),
    ('resource "aws_instance" "web" {\n  ami           = "ami-0c55b159cbfafe1f0"\n  instance_type = "t3.micro"\n}', 1),
    ("vpc-0a1b2c3d4e5f67890 subnet-0123456789abcdef0 sg-0fedcba9876543210", 1),
    ("replicas: 3\nresources:\n  limits:\n    cpu: 500m\n    memory: 512Mi", 1),
    ('[tool.poetry.dependencies]\npython = "^3.11"\nhttpx = "^0.27.0"', 1),
    ('{"name": "billing-api", "version": "§semver§", "private": true}', 2),
    ("Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH", 1),
    ("uuid4: §uuid§", 2),
    ("ULID 01HRZ§UP21§ assigned to the job", 1),
    ("Color palette: #1e293b #f97316 #22c55e rgba(15, 23, 42, 0.8)", 1),
    ("Dimensions: 1200 × 630 px, 72 dpi", 1),
    # ---------------- multilingual negatives
    ("Die Besprechung ist am 15.03.2024 um 14:30 Uhr in Raum 2.041.", 1),
    ("Bestellnummer §amzde§ wurde versandt.", 2),
    ("La réunion aura lieu le 15/03/2024 à 14h30, salle 3.12.", 1),
    ("Facture n° 2024-§n5§ — montant 1 249,00 € TTC", 2),
    ("El pedido §n8§ llegará el 15/03/2024.", 2),
    ("O pedido nº §n8§ foi entregue em 15/03/2024.", 1),
    ("आदेश संख्या §n8§ आज भेजा गया।", 1),
    ("注文番号 §n4§-§n4§-§n4§ は発送済みです。", 2),
    ("会議は2024年3月15日14時30分からです。", 1),
    ("Version 2.4.1 — Veröffentlicht am 2024-03-15", 1),
    ("Rechnung Nr. RE-2024-§n5§ vom 15.03.2024", 1),
    # ---------------- misc prose
    ("The quick brown fox jumps over the lazy dog.", 1),
    ("Let's sync tomorrow at 10 — bring the Q3 numbers.", 1),
    ("Reminder: standup moved to 9:45 because of the all-hands.", 1),
    ("I prefer tabs over spaces, but the style guide says 4 spaces.", 1),
    ("The user prefers dark mode and metric units.", 1),
    ("User's favourite editor is Neovim; they use the Catppuccin theme.", 1),
    ("Agent note: the user is working on the billing-api repo, branch feat/invoices.", 1),
    ("Remember: deploys happen Tuesdays and Thursdays after 14:00 UTC.", 1),
    ("Dear team, the office will be closed on 25 December.", 1),
    ("Sprint 42 velocity: 38 points (planned 40).", 1),
    ("Chapter 7, verse 3.16 — see page 1,024.", 1),
    ("Room 101, floor 3, building B; parking spot 4-17.", 1),
    ("Git SHA §sha7§ fixed the race condition in the cache layer.", 2),
    ("TODO(§user§): handle the 429 response with exponential backoff", 2),
    ("Alert: p99 latency 1,234 ms > 1,000 ms threshold for 5m", 1),
    ("backup_§date§_§n6§.tar.zst (4.2 GiB)", 2),
    ("IMG_§date§_§n6§.HEIC", 1),
    ("report-final-v2 (1).docx", 1),
    ("~/Downloads/statement_2024_03.pdf", 1),
    ("Windows build 22631.3155, macOS 14.4.1 (23E224), iOS 17.4.1", 1),
    ("Node v20.11.1, npm 10.2.4, yarn 1.22.21", 1),
    ("implementation 'com.squareup.okhttp3:okhttp:4.12.0'", 1),
    (
        "<dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId><version>42.7.2</version></dependency>",
        1,
    ),
    ("Cron: 0 */6 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1", 1),
    ("PROJ-1234 is blocked by PROJ-1200 and PROJ-1187", 1),
    ("Sehr geehrte Damen und Herren, anbei die Unterlagen zum Vertrag Nr. 2024/00123.", 1),
    ("Le colis n° 6A§n5§§n6§ sera livré demain entre 9h et 13h.", 1),
    ("Checksum (CRC32): 0x§hex8§", 2),
    ("Host key fingerprint is SHA256:§b64_43§.", 2),
    ("GPG key ID 0x§HEX16§ (public), see keys.openpgp.org", 1),
    ("Kundennummer §n6§, Rechnungsbetrag 1.234,56 EUR", 2),
    ("Zoom meeting ID: 845 2210 9934 (no passcode, waiting room on)", 1),
    ("Set max_connections = 200, shared_buffers = 4GB, work_mem = 64MB", 1),
    ("Your verification code expires in 10 minutes.", 1),
    ("Call-center hours: Mon–Fri 8:00–20:00, Sat 9:00–14:00", 1),
    ("IPv4 has 4,294,967,296 addresses; IPv6 has 2^128.", 1),
    ("The build took 00:12:43.051 on runner ubuntu-22.04 (job 1§n8§)", 2),
]


def build() -> list[dict[str, Any]]:
    rows = []

    def emit(section: str, tpl: str) -> None:
        text, labels = instantiate(tpl)
        rows.append({"section": section, "text": text, "labels": labels})

    # positives: hand templates (each used `reps` times) + provider sweep
    for tpl, reps in POSITIVE:
        for _ in range(reps):
            emit("positive", tpl)
    envs = list(PROV_BY_ENV)
    k_all = k_ctx = 0
    for env in envs:
        if env in CTX_ENVS:
            tpl = PROVIDER_TEMPLATES[PROVIDER_CTX_TEMPLATES[k_ctx % len(PROVIDER_CTX_TEMPLATES)]]
            k_ctx += 1
        else:
            tpl = PROVIDER_TEMPLATES[k_all % len(PROVIDER_TEMPLATES)]
            k_all += 1
        p = PROV_BY_ENV[env]
        tpl = tpl.replace("{ENV}", env).replace("{NAME}", p[1]).replace("{env_lower}", env.lower())
        tpl = tpl.replace("{KEY}", "§P_%s§" % env)
        emit("positive", tpl)
    for tpl, reps in EVASION:
        for _ in range(reps):
            emit("evasion", tpl)
    seen = set()
    for tpl, reps in NEGATIVE:
        for _ in range(reps):
            text, labels = instantiate(tpl)
            assert not labels, tpl
            if text in seen:
                continue
            seen.add(text)
            rows.append({"section": "negative", "text": text, "labels": []})
    return rows


def norm_text(v: str) -> str:
    """what a human reads: NFKC, drop format chars, unify dashes/spaces, join split lines"""
    import unicodedata

    out = []
    for c in unicodedata.normalize("NFKC", v):
        if unicodedata.category(c) == "Cf" or c in "\n\r":
            continue
        if unicodedata.category(c) == "Pd" or c == "\u2212":
            c = "-"
        elif unicodedata.category(c) == "Zs":
            c = " "
        elif unicodedata.category(c) == "Nd":
            c = str(unicodedata.digit(c))
        out.append(c)
    return "".join(out)


def phone_claim_valid(v: str) -> bool:
    v = v.replace("(0)", "")
    regions = [None] if v.strip().startswith("+") else ["US", "GB", "DE", "FR", "IN"]
    for reg in regions:
        try:
            if PN.is_valid_number(PN.parse(v, reg)):
                return True
        except Exception:
            pass
    return False


def verify(rows: list[dict[str, Any]]) -> int:
    digits_tbl = {}
    for sc, base in DIGIT_BASE.items():
        for i in range(10):
            digits_tbl[chr(base + i)] = str(i)

    def ascii_digits(s: str) -> str:
        return "".join(digits_tbl.get(c, c) for c in s if (c in DG or c in digits_tbl))

    n_bad = 0
    for r in rows:
        t = r["text"]
        for lab in r["labels"]:
            assert t[lab["start"] : lab["end"]] == lab["value"], (r, lab)
            v = lab["value"]
            if lab["type"] == "CREDIT_CARD" and "zero" not in v and "one" not in v:
                d = ascii_digits(v)
                assert 13 <= len(d) <= 19 and luhn_ok(d), (v, d)
            if lab["type"] == "IBAN":
                s = re.sub(r"[^0-9A-Za-z]", "", "".join(digits_tbl.get(c, c) for c in v)).upper()
                assert iban_ok(s), v
            if lab["type"] == "US_SSN":
                assert ssn_ok(ascii_digits(v)), v
            if lab["type"] == "PHONE" and lab["scope"] == "claim":
                d = ascii_digits(v)
                assert 8 <= len(d) <= 15, v
                assert phone_claim_valid(norm_text(v)), v
            if lab["type"] == "EMAIL" and lab["scope"] == "claim":
                assert re.fullmatch(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}", norm_text(v)), v
        if r["section"] == "negative":
            assert not r["labels"]
        else:
            assert r["labels"], r
            # labels must not overlap
            sp = sorted((lab["start"], lab["end"]) for lab in r["labels"])
            for (_a, b), (c, _d) in itertools.pairwise(sp):
                assert b <= c, r
    # negatives: no 13-19 digit run that is Luhn-valid unless it is an explicitly allowed kind
    for r in rows:
        if r["section"] != "negative":
            continue
        for m in re.finditer(r"(?<![\d])(?:\d[ -]?){13,19}(?!\d)", r["text"]):
            d = re.sub(r"\D", "", m.group())
            if 13 <= len(d) <= 19 and luhn_ok(d) and d[0] in "3456" and not r.get("_ok"):
                print("WARN negative has Luhn-valid card-like run:", m.group(), "|", r["text"][:80], file=sys.stderr)
                n_bad += 1
    return n_bad


def main() -> None:
    rows = build()
    order = {"positive": 0, "evasion": 1, "negative": 2}
    rows.sort(key=lambda r: order[r["section"]])
    verify(rows)
    with open(OUT, "w", encoding="utf-8") as f:
        for i, r in enumerate(rows):
            obj = {"id": "cr1-%04d" % i, "round": 1, "section": r["section"], "text": r["text"], "labels": r["labels"]}
            f.write(json.dumps(obj, ensure_ascii=True) + "\n")
    # re-read and re-verify from disk
    with open(OUT, encoding="utf-8") as f:
        back = [json.loads(x) for x in f]
    for o in back:
        for lab in o["labels"]:
            assert o["text"][lab["start"] : lab["end"]] == lab["value"]
    from collections import Counter

    sec = Counter(o["section"] for o in back)
    typ = Counter((lab["type"], lab["scope"]) for o in back for lab in o["labels"])
    print("rows", len(back), dict(sec))
    for (t, s), n in sorted(typ.items()):
        print("  %-20s %-7s %d" % (t, s, n))


if __name__ == "__main__":
    main()
