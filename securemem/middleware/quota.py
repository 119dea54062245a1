"""Quota: per-file bytes and lines, per-namespace bytes and file count, checked on the final bytes.

The check wraps the transaction's ``write_file``, so it sees exactly what would be stored (after
PII scrubbing, after an edit is applied) and runs under the write lock: two writers in two
processes cannot both pass a check that only one of them fits under.
"""

from __future__ import annotations

import dataclasses

from securemem.commands import Result
from securemem.errors import QuotaExceeded
from securemem.middleware.base import Call, Handler
from securemem.middleware.txproxy import TxProxy
from securemem.policy import Policy, QuotaSettings
from securemem.store.base import StoreTx

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
        self._check_file(path, len(data), lines)
        self._check_namespace(path, len(data))
        super().write_file(path, data, lines, expires)

    def _check_file(self, path: str, size: int, lines: int) -> None:
        limit = self.limits.max_file_bytes
        if limit is not None and size > limit:
            raise QuotaExceeded(f"Error: Quota exceeded: {path} would be {size:,} bytes; the limit per file is "
                                f"{limit:,} bytes ({self.where}). {_ADVICE} Keep the file shorter or split it.")
        limit = self.limits.max_file_lines
        if limit is not None and lines > limit:
            raise QuotaExceeded(f"Error: Quota exceeded: {path} would have {lines:,} lines; the limit per file is "
                                f"{limit:,} lines ({self.where}). {_ADVICE} Keep the file shorter or split it.")

    def _check_namespace(self, path: str, size: int) -> None:
        if self.limits.max_total_bytes is None and self.limits.max_files is None:
            return
        old = self.inner.stat(path)
        used = self.inner.usage()
        total = used.bytes - (old.size if old is not None else 0) + size
        limit = self.limits.max_total_bytes
        if limit is not None and total > limit and total > used.bytes:
            raise QuotaExceeded(f"Error: Quota exceeded: this write would bring your memory to {total:,} bytes; "
                                f"the limit is {limit:,} bytes and {used.bytes:,} are in use ({self.where}). "
                                f"{_ADVICE} Delete or shorten memories you no longer need, then retry.")
        limit = self.limits.max_files
        if limit is not None and old is None and used.files + 1 > limit:
            raise QuotaExceeded(f"Error: Quota exceeded: the limit is {limit:,} files and {used.files:,} exist "
                                f"({self.where}). {_ADVICE} Delete files you no longer need, or add to an "
                                "existing file with str_replace or insert.")
