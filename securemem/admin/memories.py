"""``admin.memories``: list by path prefix, retrieve, write (upsert), update by id, delete.

Writes run through the policy's layers and the admin endpoint (``endpoint.py``), where the
precondition is checked under the store's write lock: two processes doing read-modify-write with
``content_sha256`` never lose an update, and of two racing ``not_exists`` writes exactly one wins.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

from securemem.admin.endpoint import Remove, Update, Write
from securemem.admin.models import Memory, Page
from securemem.admin.support import Context, inner, limit_of, paged, text_of
from securemem.commands import AdminCommand
from securemem.errors import Conflict, InvalidRequest, NotFound
from securemem.paths import ROOT
from securemem.store.base import StoreInfo
from securemem.text import is_unicode_text

_SHA = frozenset("0123456789abcdef")


def precondition_of(precondition: object, *allowed: str) -> tuple[bool, str | None]:
    """(not_exists, content_sha256) from a precondition object; InvalidRequest for anything else."""
    if precondition is None:
        return False, None
    if not isinstance(precondition, Mapping) or not isinstance(precondition.get("type"), str):
        raise InvalidRequest('a precondition is an object with a "type"')
    kind = precondition["type"]
    if kind not in allowed:
        raise InvalidRequest(f"the precondition type must be one of: {', '.join(allowed)}")
    if kind == "not_exists":
        if set(precondition) != {"type"}:
            raise InvalidRequest('a not_exists precondition has no field but "type"')
        return True, None
    if set(precondition) != {"type", "content_sha256"}:
        raise InvalidRequest('a content_sha256 precondition has exactly the fields "type" and "content_sha256"')
    return False, sha_of(precondition["content_sha256"])


def sha_of(value: object) -> str:
    if not isinstance(value, str) or len(value) != 64 or not set(value) <= _SHA:
        raise InvalidRequest("content_sha256 is 64 lowercase hexadecimal digits")
    return value


class Memories:
    def __init__(self, context: Context) -> None:
        self._c = context

    def list(
        self, store_id: str, path_prefix: str | None = None, limit: int = 20, page: str | None = None
    ) -> Page[Memory]:
        info = self._c.store_info(store_id)
        limit = limit_of(limit)
        if path_prefix is not None and not isinstance(path_prefix, str):
            raise InvalidRequest("path_prefix must be a string")
        if path_prefix is not None and not is_unicode_text(path_prefix):
            raise InvalidRequest("path_prefix must be Unicode text that UTF-8 can hold (it has a lone surrogate)")
        scope = f"memories:{info.id}:{path_prefix or ''}"
        after = None if page is None else self._c.ids.position(scope, page)
        if after is not None and not isinstance(after, str):
            raise InvalidRequest("page is not a next_page of this listing")
        prefix = path_prefix or "/"
        if not prefix.startswith("/"):  # a plain string prefix: every path starts with "/"
            return Page([], None)
        with self._c.reading(info) as tx:
            found = tx.files(ROOT + prefix, after, limit + 1)
        # Metadata only: the hash and size are computed from the content, which is not returned.
        data = [self._c.public_memory(info, entry, content, content=False) for entry, content in found]
        at = {memory.id: entry.path for memory, (entry, _) in zip(data, found, strict=True)}
        return paged(data, limit, lambda m: self._c.ids.cursor(scope, at[m.id]))

    def retrieve(self, store_id: str, memory_id: str) -> Memory:
        info = self._c.store_info(store_id)
        number = self._c.ids.decode("mem", memory_id, "memory")
        with self._c.reading(info) as tx:
            found = tx.memory(number)
        if found is None:
            raise NotFound("no memory has that id in this store")
        return self._c.public_memory(info, found[0], found[1], content=True)

    def write(self, store_id: str, path: str, content: str, precondition: object = None) -> Memory:
        info = self._c.store_info(store_id)
        not_exists, _ = precondition_of(precondition, "not_exists")
        command = AdminCommand(command="write", path=inner(path), file_text=text_of(content))
        entry, data = self._c.run(info, command, Write(not_exists))
        return self._c.public_memory(info, entry, data, content=True)

    def update(
        self,
        store_id: str,
        memory_id: str,
        content: str | None = None,
        path: str | None = None,
        precondition: object = None,
    ) -> Memory:
        info = self._c.store_info(store_id)
        number = self._c.ids.decode("mem", memory_id, "memory")
        not_exists, sha = precondition_of(precondition, "content_sha256", "not_exists")
        if content is None and path is None:
            raise InvalidRequest("an update changes the content, the path, or both: give content= or path=")
        command = AdminCommand(
            command="update",
            path=None if path is None else inner(path),
            file_text=None if content is None else text_of(content),
        )
        with self._lost_race(info, number):
            entry, data = self._c.run(info, command, Update(number, sha, not_exists))
        return self._c.public_memory(info, entry, data, content=True)

    def delete(self, store_id: str, memory_id: str, expected_content_sha256: str | None = None) -> None:
        info = self._c.store_info(store_id)
        number = self._c.ids.decode("mem", memory_id, "memory")
        sha = None if expected_content_sha256 is None else sha_of(expected_content_sha256)
        with self._lost_race(info, number):
            self._c.run(info, AdminCommand(command="remove"), Remove(number, sha))

    @contextlib.contextmanager
    def _lost_race(self, info: StoreInfo, number: int) -> Iterator[None]:
        """A memory that existed when the call began and was gone once it held the lock was deleted
        by another writer meanwhile: a lost race is a ``Conflict`` (the contract), an id never seen a
        ``NotFound``. Read before the call, not told after it by the deletion's version: a version's
        time is when its writer took the lock, which may be before this call began."""
        with self._c.reading(info) as tx:
            existed = tx.memory(number) is not None
        try:
            yield
        except NotFound:
            if not existed:
                raise
            raise Conflict(
                "the memory was deleted by another writer while this call waited; nothing was changed"
            ) from None
