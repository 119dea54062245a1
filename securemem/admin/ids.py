"""Public ids and page cursors: opaque strings that name a number and carry a keyed tag.

A memory id is ``mem_`` and a version id ``memver_``, then 16 hex digits of the backend's number
and 8 of an HMAC under the store's token key. The tag makes a guessed, mistyped or foreign id
(another deployment's, or a number that never existed) a plain "not found" without a lookup, and
keeps ids from being forged by counting. Cursors are tagged the same way, so a page token cannot
be edited into a query the caller did not make.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re

from securemem.errors import InvalidRequest, NotFound

_ID = re.compile(r"([a-z]+)_([0-9a-f]{16})([0-9a-f]{8})")


class Ids:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def _tag(self, kind: str, body: bytes) -> bytes:
        return hmac.new(self._key, kind.encode() + b"\x00" + body, hashlib.sha256).digest()

    def encode(self, kind: str, number: int, scope: str = "") -> str:
        """``scope`` binds the id to a store (a version's number is only unique while its store lives)."""
        return f"{kind}_{number:016x}{self._tag(kind, f'{scope}:{number}'.encode())[:4].hex()}"

    def decode(self, kind: str, text: object, what: str, scope: str = "") -> int:
        """The number behind an id of ``kind``; ``NotFound`` for anything that is not one of ours."""
        if not isinstance(text, str):
            raise InvalidRequest(f"a {what} id must be a string")
        found = _ID.fullmatch(text)
        if found is None or found.group(1) != kind:
            raise NotFound(f"no {what} has that id")
        number = int(found.group(2), 16)
        if not hmac.compare_digest(bytes.fromhex(found.group(3)), self._tag(kind, f"{scope}:{number}".encode())[:4]):
            raise NotFound(f"no {what} has that id")
        return number

    def cursor(self, scope: str, position: object) -> str:
        body = json.dumps([scope, position], separators=(",", ":")).encode("utf-8")
        return base64.urlsafe_b64encode(body + self._tag("page", body)[:8]).decode("ascii").rstrip("=")

    def position(self, scope: str, page: object) -> object:
        """What a cursor made by ``cursor(scope, ...)`` holds; ``InvalidRequest`` for any other text."""
        if not isinstance(page, str):
            raise InvalidRequest("page must be the next_page string of an earlier listing")
        try:
            raw = base64.urlsafe_b64decode(page + "=" * (-len(page) % 4))
            body, tag = raw[:-8], raw[-8:]
            ok = len(raw) > 8 and hmac.compare_digest(tag, self._tag("page", body)[:8])
            found = json.loads(body) if ok else None
        except (ValueError, UnicodeDecodeError):
            found = None
        if not isinstance(found, list) or len(found) != 2 or found[0] != scope:
            raise InvalidRequest(
                "page is not a next_page of this listing (it belongs to another listing, or was changed)"
            )
        return found[1]
