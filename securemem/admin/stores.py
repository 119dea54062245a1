"""``admin.memory_stores``: create, list, retrieve, update and delete stores.

A store is what the memory tool calls a namespace. Deleting one erases every memory and every
version of it from the files (the store's erasure rule), unrecoverable even with the key.
"""

from __future__ import annotations

import unicodedata

from securemem.admin.models import MemoryStore, Page
from securemem.admin.support import STORE_GONE, Context, limit_of, paged
from securemem.errors import Conflict, InvalidRequest, NotFound
from securemem.scripts import invisible_char
from securemem.store.base import NameTaken

MAX_NAME = 128
MAX_DESCRIPTION = 4096
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_JOINERS = frozenset("\u200c\u200d")
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
TAKEN = "a memory store with that name exists; store names are unique"


def check_name(name: object) -> str:
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise InvalidRequest(f"a store name is text of 1 to {MAX_NAME} characters")
    # Names reach the system prompt (session instructions) and listings, one line each: no control,
    # format (bidi overrides, zero-width marks), private-use or unassigned character, no lone
    # surrogate, no line or paragraph separator (U+2028, U+2029). The zero-width joiners stay
    # allowed where the script of the word needs them, as in paths.
    for c in name:
        if unicodedata.category(c) in _REFUSED and not (c in _JOINERS and invisible_char(name) is None):
            raise InvalidRequest(
                f"a store name must not contain control, format or invisible characters, line or paragraph "
                f"separators or lone surrogates (U+{ord(c):04X})"
            )
    return name


def check_description(description: object) -> str:
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        raise InvalidRequest(f"a store description is text of at most {MAX_DESCRIPTION} characters")
    if any(unicodedata.category(c) == "Cs" for c in description):
        raise InvalidRequest("a store description must not contain lone surrogates")
    # A description reaches the system prompt too, on lines of its own (an attacker's round: an escape
    # sequence, a bidi override or a line separator there reorders or hides what the model and a reader
    # see): line breaks and tabs are its only control characters.
    for c in description.replace("\r\n", "\n"):  # a Windows line break is one
        if c not in "\n\t" and (unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI):
            raise InvalidRequest(
                f"a store description must not contain control characters but line breaks and tabs, bidi "
                f"controls or line or paragraph separators (U+{ord(c):04X})"
            )
    return description


class MemoryStores:
    def __init__(self, context: Context) -> None:
        self._c = context

    def create(self, name: str, description: str = "") -> MemoryStore:
        with self._c.refusals("store_create", None):
            self._c.check_store_text(check_name(name), check_description(description))
            info = self._c.store.create_store(name, description, self._c.clock())
            if info is None:
                raise Conflict(TAKEN)
        self._c.audit("store_create", info, outcome="ok")
        return self._c.public_store(info)

    def list(self, limit: int = 20, page: str | None = None) -> Page[MemoryStore]:
        limit = limit_of(limit)
        after = None if page is None else self._c.ids.position("stores", page)
        if after is not None and not isinstance(after, int):
            raise InvalidRequest("page is not a next_page of this listing")
        rows = self._c.store.list_stores(after, limit + 1)
        keys = {info.id: info.key for info in rows}
        found = paged(
            [self._c.public_store(info) for info in rows], limit, lambda s: self._c.ids.cursor("stores", keys[s.id])
        )
        return found

    def retrieve(self, store_id: str) -> MemoryStore:
        return self._c.public_store(self._c.store_info(store_id))

    def update(self, store_id: str, name: str | None = None, description: str | None = None) -> MemoryStore:
        name = None if name is None else check_name(name)
        description = None if description is None else check_description(description)
        current = self._c.store_info(store_id)
        if (name is None or name == current.name) and (description is None or description == current.description):
            # nothing to change: no write, and its update time stays (an attacker's round, stop 50)
            return self._c.public_store(current)
        with self._c.refusals("store_update", current):
            self._c.check_store_text(name, description)
            try:
                info = self._c.store.update_store(store_id, name, description, self._c.clock())
            except NameTaken:
                raise Conflict(TAKEN) from None
            if info is None:
                raise NotFound(STORE_GONE)
        self._c.audit("store_update", info, outcome="ok")
        return self._c.public_store(info)

    def delete(self, store_id: str) -> None:
        info = self._c.store_info(store_id)
        with self._c.refusals("store_delete", info):
            if not self._c.store.drop_namespace(info.name):
                raise NotFound(STORE_GONE)
        self._c.erase_now()
        self._c.audit("store_delete", info, outcome="ok")
