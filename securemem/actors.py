"""The actors securemem records on versions for its own work, which no caller may take.

Expiry and the history's retention record their versions as ``EXPIRY_ACTOR``, a store migrated
from before the history as ``MIGRATION_ACTOR``: both start with ``securemem:``, as any actor of its
own that securemem adds will. An auditor filtering the history on one of them must find only what
securemem did, so no handle may record a person's or an application's work under such a name.
"""

from __future__ import annotations

import unicodedata

from securemem.errors import InvalidRequest
from securemem.text import is_unicode_text

RESERVED_PREFIX = "securemem:"  # store.history.EXPIRY_ACTOR, MIGRATION_ACTOR, and any later one


def is_reserved(actor: str) -> bool:
    """The actor is securemem's, or reads as one: capitals, compatibility forms ("securemem：" with a
    fullwidth colon), invisible characters and spaces around it change nothing a reader sees."""
    if actor.startswith(RESERVED_PREFIX):
        return True
    seen = "".join(char for char in unicodedata.normalize("NFKC", actor) if unicodedata.category(char) != "Cf")
    return seen.strip().casefold().startswith(RESERVED_PREFIX)


def check_actors(*, session_id: object = None, api_key_id: object = None) -> None:
    """``InvalidRequest`` for a session_id or api_key_id that is not text one line can show (empty, a
    control character, a lone surrogate) or that names one of securemem's own actors."""
    for what, value in (("session_id", session_id), ("api_key_id", api_key_id)):
        if value is not None and not isinstance(value, str):
            raise InvalidRequest(f"{what} must be a string or None")
        if isinstance(value, str) and (
            not value.strip() or not is_unicode_text(value) or any(unicodedata.category(c) == "Cc" for c in value)
        ):
            raise InvalidRequest(
                f"{what} must be printable text on one line (not empty, no control character, no lone surrogate)"
            )
        if isinstance(value, str) and is_reserved(value):
            raise InvalidRequest(
                f"{what} may not start with {RESERVED_PREFIX!r}: securemem records its own work (expiry, "
                "retention, migration) under such names"
            )
