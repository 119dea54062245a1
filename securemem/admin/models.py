"""The records of the admin surface (``stores-api.md``): stores, memories, versions and pages.

Frozen dataclasses: what an admin call returns is a snapshot, never a handle on live state.
Every time is a timezone-aware UTC ``datetime``; paths are store-relative (``/notes/a.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, Literal, TypeVar

T = TypeVar("T")
Operation = Literal["created", "modified", "deleted"]


def utc(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


@dataclass(frozen=True, slots=True)
class MemoryStore:
    id: str
    name: str
    description: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Memory:
    id: str
    store_id: str
    path: str
    content_sha256: str
    content_size_bytes: int
    created_at: datetime
    updated_at: datetime
    content: str | None = None


@dataclass(frozen=True, slots=True)
class MemoryVersion:
    id: str
    memory_id: str
    store_id: str
    operation: Operation
    path: str | None
    content_sha256: str | None
    content_size_bytes: int | None
    session_id: str | None
    api_key_id: str | None
    created_at: datetime
    redacted_at: datetime | None
    content: str | None = None


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a listing; pass ``next_page`` as ``page=`` for the next (None on the last page)."""

    data: list[T]
    next_page: str | None
