"""securemem: encrypted, policy-driven storage for Claude's memory tool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from securemem.commands import Result
from securemem.errors import (
    CommandError,
    DamagedStoreError,
    KeyFileError,
    NotAStoreError,
    PolicyError,
    SecureMemError,
    StorageError,
    StoreBusyError,
    StoreFullError,
    WrongKeyError,
)
from securemem.memory import SecureMemory
from securemem.policy import Policy, load_policy

if TYPE_CHECKING:
    from securemem.anthropic import AsyncSecureMemoryTool, SecureMemoryTool

__all__ = [
    "AsyncSecureMemoryTool",
    "CommandError",
    "DamagedStoreError",
    "KeyFileError",
    "NotAStoreError",
    "Policy",
    "PolicyError",
    "Result",
    "SecureMemError",
    "SecureMemory",
    "SecureMemoryTool",
    "StorageError",
    "StoreBusyError",
    "StoreFullError",
    "WrongKeyError",
    "load_policy",
]


def __getattr__(name: str) -> Any:
    # The SDK adapter is imported on first use: importing anthropic takes about a second,
    # which the CLI and library users who run their own tool loop need not pay.
    if name in ("SecureMemoryTool", "AsyncSecureMemoryTool"):
        from securemem import anthropic

        return getattr(anthropic, name)
    raise AttributeError(f"module 'securemem' has no attribute {name!r}")
