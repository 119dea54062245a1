"""How a message shows a store target (``--db``): never with the password a URL may carry.

A ``postgresql://user:PASSWORD@host/db`` URL (or one with ``?password=...``) names its secret in
the text itself; a message, a log line or an exception that quotes ``--db`` as given would print
it. Every message that names a store target goes through ``shown_target``. The parse is by hand,
not ``urllib``: a malformed URL (an unclosed ``[``) must be shown redacted too, never refused.
"""

from __future__ import annotations

import re

HIDDEN = "***"
_PASSWORD_PARAM = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^&\s]*)", re.IGNORECASE)


# A URL's query parameters whose values say where and how to connect, never a secret: any other
# parameter's value (``options=-c app.secret=...``, ``sslpassword``, one libpq adds later) is hidden.
_SHOWN_PARAMS = frozenset(
    {"host", "hostaddr", "port", "dbname", "user", "sslmode", "connect_timeout", "target_session_attrs",
     "application_name", "gssencmode", "channel_binding", "load_balance_hosts"}
)  # fmt: skip


# A scheme, a colon and up to two slashes, then a userinfo: a URL typed with a slash too few.
_MANGLED = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)(:/{0,2})(?=[^/@:]*:?[^@]*@)")
# A part of a path with "user:password@" in it; the password may hold a "/".
_CREDENTIALS = re.compile(r"((?:^|/)[^/:@]*:)[^@]*@")


def _shown_query(query: str) -> str:
    def one(param: str) -> str:
        name, equals, _ = param.partition("=")
        if not equals:  # no parameter libpq reads: shown as nothing it could be
            return HIDDEN
        return param if name.strip().lower() in _SHOWN_PARAMS else f"{name}={HIDDEN}"

    return "&".join(one(param) for param in query.split("&"))


def shown_target(target: str) -> str:
    """``target`` with the password of its userinfo, any ``password=`` parameter and the value of
    every URL query parameter that is not plainly about where to connect replaced."""
    text = _PASSWORD_PARAM.sub(lambda m: m.group(1) + HIDDEN, target)
    scheme, sep, rest = text.partition("://")
    if not sep:
        mangled = _MANGLED.match(text)  # "postgresql:/user:pw@host": a URL missing a slash
        if mangled is None:  # "postgresql//user:pw@host": one missing its colon
            return _CREDENTIALS.sub(lambda m: f"{m.group(1)}{HIDDEN}@", text)
        scheme, sep, rest = mangled.group(1), mangled.group(2), text[mangled.end() :]
    shown = ""
    if "@" in rest:  # the userinfo first: its password may hold a "?" unescaped, which no query starts
        userinfo, _, rest = rest.rpartition("@")  # the last '@': a password may hold one unescaped
        user, colon, _ = userinfo.partition(":")
        shown = f"{user}{colon and ':' + HIDDEN}@"
    if "?" in rest:
        rest, _, query = rest.partition("?")
        rest = f"{rest}?{_shown_query(query)}"
    return f"{scheme}{sep}{shown}{rest}"


def is_server_url(target: str) -> bool:
    """A PostgreSQL URL (a server), not a store file: the file-beside-the-store defaults do not apply."""
    return target[:13].lower().startswith(("postgresql://", "postgres://"))
