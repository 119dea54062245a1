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
_REDIS_AUTH = re.compile(
    r"(?:\"auth\"[ \t]+\"(?P<quoted>[^\"\s]{6,128})\"|(?:^|>[ \t]*)auth[ \t]+(?P<bare>[^\s\"]{6,128})[ \t]*\r?$)", re.M
)
_STATS_AUTH = re.compile(r"(?<![\w-])stats[ \t]+auth[ \t]+[^\s:]{1,64}:(?P<value>\S{4,128})")
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
            if _strong(text[start:end]):
                yield "PASSWORD", start, end
    if "auth" in lower:
        for match in _REDIS_AUTH.finditer(lower):
            group = "quoted" if match["quoted"] is not None else "bare"
            if _strong(text[match.start(group) : match.end(group)]) or match["quoted"] is not None:
                yield "PASSWORD", *match.span(group)
        for match in _STATS_AUTH.finditer(lower):
            yield "PASSWORD", *match.span("value")


def _strong(value: str) -> bool:
    letters = any(char.isalpha() for char in value)
    digits = any(char.isdigit() for char in value)
    mixed = value.lower() != value != value.upper()
    return letters and ((mixed and digits) or any(char in _SYMBOLS for char in value))
