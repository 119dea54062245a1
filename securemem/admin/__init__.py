"""The admin surface of ``stores-api.md``: stores, memories and versions, on the deployment's own store.

``Admin`` is a recipe like ``SecureMemory``: it opens the store exactly as ``SecureMemory.open``
does (same key, policy and creation rules; it is one underneath), and every write it makes runs
through the same policy layers as a tool command (path guard, PII scrubbing, TTL, quotas), except
read-only rules: an operator seeds the read-only reference material. Reads go straight to the
store: an operator's review refreshes no expiry. Each version an admin call creates records the
handle's ``api_key_id``.
"""

from __future__ import annotations

import os
import time
from types import TracebackType

from securemem.actors import check_actors
from securemem.admin.memories import Memories
from securemem.admin.models import Memory, MemoryStore, MemoryVersion, Page
from securemem.admin.stores import MemoryStores
from securemem.admin.support import Context
from securemem.admin.versions import MemoryVersions
from securemem.memory import SecureMemory
from securemem.policy import Policy
from securemem.store.base import Clock
from securemem.sweep import SweepReport

__all__ = ["Admin", "Memory", "MemoryStore", "MemoryVersion", "Page"]


class Admin:
    """Operators' and applications' access to every store of one encrypted file."""

    def __init__(self, memory: SecureMemory, *, api_key_id: str | None = None) -> None:
        check_actors(api_key_id=api_key_id)
        self._memory = memory
        self.store = memory.store
        self.policy = memory.policy
        context = Context(memory, api_key_id=api_key_id)
        self.memory_stores = MemoryStores(context)
        self.memories = Memories(context)
        self.memory_versions = MemoryVersions(context)

    @classmethod
    def open(
        cls,
        db: str | os.PathLike[str],
        *,
        key: object = None,
        kek: object = None,
        policy: Policy | str | os.PathLike[str] | None = None,
        api_key_id: str | None = None,
        create: bool = True,
        adopt_policy: bool = False,
        clock: Clock = time.time,
        wait: float | None = None,
    ) -> Admin:
        """Open (or create) the store ``db`` as ``SecureMemory.open`` would; ``api_key_id`` is the
        actor recorded on every version this handle creates; ``wait`` as for ``SecureMemory.open``."""
        check_actors(api_key_id=api_key_id)  # before the file is opened, or made (a string or None)
        memory = SecureMemory.open(
            db, key=key, kek=kek, policy=policy, create=create, adopt_policy=adopt_policy, clock=clock, wait=wait
        )
        return cls(memory, api_key_id=api_key_id)

    def sweep(self) -> SweepReport:
        """Delete what has expired and redact versions past the history's retention, now."""
        return self._memory.sweep()

    def close(self) -> None:
        self._memory.close()

    def __enter__(self) -> Admin:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
