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
    """The actor is securemem's, or reads as one: capitals, compatibility forms, look-alike letters
    ("sеcuremem:" with a Cyrillic "е"), and invisible characters or spaces anywhere change nothing a
    reader sees. After the name, anything but an ASCII letter, digit, "-", "_" or "." is taken for
    its colon: Unicode has dozens of colon look-alikes (Mongolian, Ethiopic, Runic, visargas, "⁚"),
    and a list of them is never complete ("securemem-ci" stays free)."""
    if actor.startswith(RESERVED_PREFIX):
        return True
    seen = "".join(char for char in unicodedata.normalize("NFD", skeleton(actor)) if not unicodedata.combining(char))
    name = RESERVED_PREFIX[:-1]
    # A Latin letter outside ASCII where the name has one reads as it: small capitals ("ꜱecuremem"), phonetic
    # letters ("securəmem"), a stroked or hooked one the marks' removal left: no list of look-alikes is ever
    # complete. Other scripts' look-alikes the view made Latin already; their other letters are another name.
    return (
        len(seen) > len(name)
        and all(char == want or _latin_twin(char) for char, want in zip(seen, name, strict=False))
        and seen[len(name)] not in _NAME_GOES_ON
    )


def _latin_twin(char: str) -> bool:
    return not char.isascii() and unicodedata.name(char, "").startswith("LATIN ")


def skeleton(actor: str) -> str:
    """What a reader sees of ``actor``: the scanner's view (invisible characters dropped, look-alike
    letters made Latin, NFKC), colons folded, blanks dropped, case folded."""
    from securemem.pii.normalize import normalise_text  # its tables load when an actor is checked

    seen = normalise_text(actor).translate(_COLONS)
    return "".join(char for char in seen if not char.isspace()).casefold()


_NAME_GOES_ON = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")  # after "securemem": another name
_COLONS = str.maketrans(dict.fromkeys("\uff1a\ua789\u2236\ufe13\ufe55\u02d0\u02f8\u0589\u05c3\u0703\u1361", ":"))
# Characters that break the one line an actor is shown on, or reorder or hide what follows it.
_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c")


def _printable(value: str) -> bool:
    if not is_unicode_text(value) or not skeleton(value):
        return False  # a lone surrogate, or nothing a reader would see
    return not any(char in _BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in value)


def check_actors(*, session_id: object = None, api_key_id: object = None) -> None:
    """``InvalidRequest`` for a session_id or api_key_id that is not text one line can show (empty, a
    control character, a lone surrogate) or that names one of securemem's own actors."""
    for what, value in (("session_id", session_id), ("api_key_id", api_key_id)):
        if value is not None and not isinstance(value, str):
            raise InvalidRequest(f"{what} must be a string or None")
        if isinstance(value, str) and not _printable(value):
            raise InvalidRequest(
                f"{what} must be printable text on one line (not empty, no control character, no lone surrogate)"
            )
        if isinstance(value, str) and is_reserved(value):
            raise InvalidRequest(
                f"{what} may not start with {RESERVED_PREFIX!r}: securemem records its own work (expiry, "
                "retention, migration) under such names"
            )
