"""An account's password written in a service's own syntax, with no label that says "password".

From reviewer Q's blind round:
- an admin account and its password as "user / password" ("Grafana admin fallback: admin /
  BNXNs4BZ7fv8D29z", "statuspage-admin / <b>nHNELqNbveoC3K%01</b>");
- Redis's AUTH command as MONITOR prints it ('"AUTH" "SfoQbSzRr5zYdpapMOTdv01RoOFwIXfb"') or as typed
  at its prompt ("127.0.0.1:6379> AUTH ...");
- HAProxy's "stats auth admin:undo-monkey-disagree-add4".
The value must still look like a password (letters with a digit and both cases, or a password's own
symbol): "admin / settings" is a menu's path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# An admin account's name, a slash with a blank on either side (a path has none), the password maybe
# in markup's emphasis.
_ADMIN_PAIR = re.compile(
    r"(?<![\w/.\-])(?:admin|root|administrator|superuser|sa|postgres|[a-z0-9._\-]{1,32}-admin|admin-[a-z0-9._\-]{1,32})"
    r"[ \t]+/[ \t]+(?:<b>|<strong>|\*\*|`)?(?P<value>[^\s<>/*`'\"]{8,64})"
)
# Redis 6 takes a user first ("AUTH default <password>"): the password is the last argument.
_REDIS_AUTH = re.compile(
    r"\"auth\"[ \t]+(?:\"[^\"\s]{1,64}\"[ \t]+)?\"(?P<quoted>[^\"\s]{6,128})\"[ \t]*\r?$"
    r"|(?:^|>[ \t]*)auth[ \t]+(?:[^\s\"]{1,64}[ \t]+)?(?P<bare>[^\s\"]{6,128})[ \t]*\r?$",
    re.M,
)
_STATS_AUTH = re.compile(r"(?<![\w-])stats[ \t]+auth[ \t]+[^\s:]{1,64}[ \t]?:(?P<value>\S{4,128})")
_PLACEHOLDERS = frozenset({"password", "passwd", "secret", "changeme", "default", "basic_auth", "none", "null"})
_SYMBOLS = frozenset("!#$%&*@^~?+=")


def may_hold_account_password(scan: Scan) -> bool:
    lower = scan.lower
    return (" / " in lower and ("admin" in lower or "root" in lower or "postgres" in lower)) or "auth" in lower


def find_account_passwords(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    if " / " in lower:
        for match in _ADMIN_PAIR.finditer(lower):
            start, end = match.span("value")
            while end > start and text[end - 1] in ".,;:)":
                end -= 1
            # The pair ends its clause ("admin / UserManagement2 / Roles", "root / Documents2023
            # folder" are a menu's path and a folder), and the value is no word with a number.
            if _CLAUSE_END.match(text, match.end()) and _strong(text[start:end]) and not _WORDY.search(text[start:end]):
                yield "PASSWORD", start, end
    if "auth" in lower:
        for match in _REDIS_AUTH.finditer(lower):
            group = "quoted" if match["quoted"] is not None else "bare"
            value = text[match.start(group) : match.end(group)]
            if not _placeholder(value) and (_strong(value) or _random(value)):
                yield "PASSWORD", *match.span(group)
        for match in _STATS_AUTH.finditer(lower):
            if not _placeholder(match["value"]):
                yield "PASSWORD", *match.span("value")


# Five small letters in a row: a word ("UserManagement2", "OAuth2Config"), not a random password.
_WORDY = re.compile(r"[a-z]{5}")
_CLAUSE_END = re.compile(r"(?:</b>|</strong>|\*\*|`)?[.,;:)]?[ \t]*(?:\r?$|[(\[<]|\Z)", re.M)


def _placeholder(value: str) -> bool:
    return value.startswith(("$", "<", "{", "%")) or value.lower() in _PLACEHOLDERS


def _strong(value: str) -> bool:
    letters = any(char.isalpha() for char in value)
    digits = any(char.isdigit() for char in value)
    mixed = value.lower() != value != value.upper()
    return letters and ((mixed and digits) or any(char in _SYMBOLS for char in value))


def _random(value: str) -> bool:
    """Letters and digits, twelve characters or more: what a generated password is."""
    return len(value) >= 12 and any(char.isdigit() for char in value) and any(char.isalpha() for char in value)
