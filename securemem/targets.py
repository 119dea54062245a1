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


def shown_target(target: str) -> str:
    """``target`` with the password of its userinfo and any ``password=`` parameter replaced."""
    text = _PASSWORD_PARAM.sub(lambda m: m.group(1) + HIDDEN, target)
    scheme, sep, rest = text.partition("://")
    if not sep or "@" not in rest:
        return text
    userinfo, _, place = rest.rpartition("@")  # the last '@': a password may hold one unescaped
    user, colon, _ = userinfo.partition(":")
    return f"{scheme}://{user}{colon and ':' + HIDDEN}@{place}"


def is_server_url(target: str) -> bool:
    """A PostgreSQL URL (a server), not a store file: the file-beside-the-store defaults do not apply."""
    return target.startswith(("postgresql://", "postgres://"))
