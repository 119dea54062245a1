"""Quota: per-file bytes and lines, per-namespace bytes and file count, checked on the final bytes.

The check wraps the transaction's ``write_file``, so it sees exactly what would be stored (after
PII scrubbing, after an edit is applied) and runs under the write lock: two writers in two
processes cannot both pass a check that only one of them fits under.

A write is refused when it would cross a limit. One that makes a file or the namespace smaller
is let through even if it is still over (a limit lowered after the fact), so the model can
always trim its way back under.
"""

from __future__ import annotations

import dataclasses

from securemem.commands import Result
from securemem.errors import QuotaExceeded
from securemem.middleware.base import Call, Handler
from securemem.middleware.txproxy import TxProxy
from securemem.policy import Policy, QuotaSettings
from securemem.store.base import Entry, StoreTx, Usage

_ADVICE = "Nothing was written."


class Quota:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def __call__(self, call: Call, call_next: Handler) -> Result:
        if call.command.command in ("create", "str_replace", "insert"):
            call = dataclasses.replace(call, tx=QuotaTx(call.tx, self.policy.quota, self.policy.name))
        return call_next(call)


class QuotaTx(TxProxy):
    def __init__(self, inner: StoreTx, limits: QuotaSettings, policy_name: str) -> None:
        super().__init__(inner)
        self.limits = limits
        self.where = f"policy '{policy_name}'"

    def write_file(self, path: str, data: bytes, lines: int, expires: float | None) -> None:
        old = self.inner.stat(path)
        used = self.inner.usage()
        self._check(path, len(data), lines, old, used)  # most refusals: before anything is written
        super().write_file(path, data, lines, expires)
        # A layer below may still change the bytes (the PII safety net puts tokens in): check what
        # was stored. Raising here rolls the whole command back, the write included.
        stored = self.inner.stat(path)
        if stored is not None and (stored.size, stored.lines) != (len(data), lines):
            self._check(path, stored.size, stored.lines, old, used)

    def _check(self, path: str, size: int, lines: int, old: Entry | None, used: Usage) -> None:
        self._check_file(path, size, lines, old)
        self._check_namespace(size, old, used)

    def _check_file(self, path: str, size: int, lines: int, old: Entry | None) -> None:
        limit = self.limits.max_file_bytes
        if limit is not None and size > limit and (old is None or size > old.size):
            now = f" (it is {old.size:,} now)" if old is not None else ""
            raise QuotaExceeded(
                f"Error: Quota exceeded: {path} would be {size:,} bytes{now}; the limit per file "
                f"is {limit:,} bytes ({self.where}). {_ADVICE} Keep the file shorter or split it."
            )
        limit = self.limits.max_file_lines
        if limit is not None and lines > limit and (old is None or lines > old.lines):
            now = f" (it has {old.lines:,} now)" if old is not None else ""
            raise QuotaExceeded(
                f"Error: Quota exceeded: {path} would have {lines:,} lines{now}; the limit per "
                f"file is {limit:,} lines ({self.where}). {_ADVICE} Keep the file shorter or "
                "split it."
            )

    def _check_namespace(self, size: int, old: Entry | None, used: Usage) -> None:
        total = used.bytes - (old.size if old is not None else 0) + size
        limit = self.limits.max_total_bytes
        if limit is not None and total > limit and total > used.bytes:
            raise QuotaExceeded(
                f"Error: Quota exceeded: this write would bring your memory to {total:,} bytes; "
                f"the limit is {limit:,} bytes and {used.bytes:,} are in use ({self.where}). "
                f"{_ADVICE} Delete or shorten memories you no longer need, then retry."
            )
        limit = self.limits.max_files
        if limit is not None and old is None and used.files + 1 > limit:
            raise QuotaExceeded(
                f"Error: Quota exceeded: the limit is {limit:,} files and {used.files:,} exist "
                f"({self.where}). {_ADVICE} Delete files you no longer need, or add to an "
                "existing file with str_replace or insert."
            )
