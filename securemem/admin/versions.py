"""``admin.memory_versions``: list (newest first, filtered, paged), retrieve, redact, restore.

A page ends at a version's number and the next page starts below it, so a walk never sees a
version twice, never skips one, and never sees one committed after the walk began.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

from securemem.admin.endpoint import GONE, Restore
from securemem.admin.models import Memory, MemoryVersion, Page, utc
from securemem.admin.support import Context, limit_of, outer, paged
from securemem.commands import AdminCommand
from securemem.errors import Conflict, InvalidRequest, NotFound
from securemem.store.base import StoreInfo, StoreTx, VersionQuery, VersionRow
from securemem.text import is_unicode_text

OPERATIONS = ("created", "modified", "deleted")
NO_VERSION = "no memory version has that id in this store"


def _in_store(tx: StoreTx, memory: int) -> bool:
    """The memory is this store's: it has a version here (whatever the filters), or a file."""
    return bool(tx.versions(VersionQuery(limit=1, memory=memory))) or tx.memory(memory) is not None


def _time(value: object, name: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InvalidRequest(f"{name} must be a datetime")
    return (value if value.tzinfo is not None else value.replace(tzinfo=UTC)).timestamp()


def _text_or_none(value: object, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InvalidRequest(f"{name} must be a string")
    if value is not None and not is_unicode_text(value):
        raise InvalidRequest(f"{name} must be Unicode text that UTF-8 can hold (it has a lone surrogate)")
    return value


class MemoryVersions:
    def __init__(self, context: Context) -> None:
        self._c = context

    def _public(self, info: StoreInfo, row: VersionRow, *, content: bool) -> MemoryVersion:
        created = utc(row.created)
        assert created is not None
        return MemoryVersion(
            id=self._c.ids.encode("memver", row.seq, info.id),
            memory_id=self._c.ids.encode("mem", row.memory),
            store_id=info.id,
            operation="deleted" if row.op == "expired" else row.op,  # type: ignore[arg-type]
            path=None if row.path is None else outer(row.path),
            content_sha256=None if row.sha256 is None else row.sha256.hex(),
            content_size_bytes=row.size,
            session_id=row.session_id,
            api_key_id=row.api_key_id,
            created_at=created,
            redacted_at=utc(row.redacted),
            content=row.data.decode("utf-8", "replace") if content and row.data is not None else None,
        )

    def list(  # noqa: PLR0917 - the contract's signature
        self,
        store_id: str,
        memory_id: str | None = None,
        operation: str | None = None,
        session_id: str | None = None,
        api_key_id: str | None = None,
        created_at_gte: datetime | None = None,
        created_at_lte: datetime | None = None,
        limit: int = 20,
        page: str | None = None,
    ) -> Page[MemoryVersion]:
        info = self._c.store_info(store_id)
        limit = limit_of(limit)
        if operation is not None and operation not in OPERATIONS:
            raise InvalidRequest(f"operation must be one of: {', '.join(OPERATIONS)}")
        query = VersionQuery(
            limit=limit + 1,
            memory=None if memory_id is None else self._c.ids.decode("mem", memory_id, "memory"),
            ops=None if operation is None else (operation,),
            session_id=_text_or_none(session_id, "session_id"),
            api_key_id=_text_or_none(api_key_id, "api_key_id"),
            created_gte=_time(created_at_gte, "created_at_gte"),
            created_lte=_time(created_at_lte, "created_at_lte"),
        )
        # The cursor is bound to the store and to every filter: it cannot continue another listing.
        scope = "versions:" + json.dumps([info.id, query.memory, operation, session_id, api_key_id,
                                          query.created_gte, query.created_lte])  # fmt: skip
        if page is not None:
            before = self._c.ids.position(scope, page)
            if not isinstance(before, int):
                raise InvalidRequest("page is not a next_page of this listing")
            query = dataclasses.replace(query, before=before)
        with self._c.reading(info) as tx:
            rows = tx.versions(query)
            if not rows and page is None and query.memory is not None and not _in_store(tx, query.memory):
                # Another store's memory id answers as an unknown id does, not with an empty page.
                raise NotFound(GONE)
        seqs = {self._c.ids.encode("memver", r.seq, info.id): r.seq for r in rows}
        data = [self._public(info, r, content=False) for r in rows]
        return paged(data, limit, lambda v: self._c.ids.cursor(scope, seqs[v.id]))

    def _row(self, info: StoreInfo, version_id: str) -> VersionRow:
        seq = self._c.ids.decode("memver", version_id, "memory version", info.id)
        with self._c.reading(info) as tx:
            row = tx.version(seq)
        if row is None:
            raise NotFound(NO_VERSION)
        return row

    def retrieve(self, store_id: str, version_id: str) -> MemoryVersion:
        info = self._c.store_info(store_id)
        return self._public(info, self._row(info, version_id), content=True)

    def redact(self, store_id: str, version_id: str) -> MemoryVersion:
        """Erase the version's content, hash, size and path from the files; actor and times stay.

        Redacting a version twice changes nothing the second time. The memory's live content is
        not touched: to erase text a memory still holds, update or delete the memory, then redact.
        """
        info = self._c.store_info(store_id)
        with self._c.refusals("redact", info):
            seq = self._c.ids.decode("memver", version_id, "memory version", info.id)
            with self._c.writing(info) as tx:
                row = tx.version(seq)
                if row is None:
                    raise NotFound(NO_VERSION)
                redacting = row.redacted is None
                if redacting:
                    tx.redact(seq)
                    row = tx.version(seq)
                    assert row is not None
        if redacting:
            self._c.erase_now()
            self._c.audit("redact", info, memory=row.memory, version=version_id, outcome="ok")
        return self._public(info, row, content=True)

    def restore(self, store_id: str, version_id: str) -> Memory:
        """Make the version's content and path the memory's head again (a new version); the memory
        keeps its id, even when it had been deleted."""
        info = self._c.store_info(store_id)
        with self._c.refusals("restore", info):
            row, path, text, sha256 = self._restorable(info, version_id)
        command = AdminCommand(command="restore", path=path, file_text=text.decode("utf-8", "replace"))
        entry, data = self._c.run(info, command, Restore(row.seq, row.memory, sha256))
        return self._c.public_memory(info, entry, data, content=True)

    def _restorable(self, info: StoreInfo, version_id: str) -> tuple[VersionRow, str, bytes, bytes]:
        """The version, its path, content and hash, or the contract's error for one that cannot be restored."""
        row = self._row(info, version_id)
        if row.op not in ("created", "modified"):
            raise Conflict("a deleted version has no content to restore")
        if row.redacted is not None:
            raise Conflict("a redacted version cannot be restored")
        if row.sha256 is None or row.path is None:
            # Hidden, not yet redacted: the memory expired, and the sweep will erase this content.
            raise Conflict("this version's memory has expired: its content is no longer shown and cannot be restored")
        if row.data is None:
            raise Conflict("this version's content was not kept (the store's history keeps metadata only)")
        return row, row.path, row.data, row.sha256
