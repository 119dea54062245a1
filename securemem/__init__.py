"""securemem: encrypted, policy-driven storage for Claude's memory tool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from securemem.admin import Admin, Memory, MemoryStore, MemoryVersion, Page
from securemem.commands import Result
from securemem.errors import (
    ApiError,
    CommandError,
    Conflict,
    DamagedStoreError,
    InvalidRequest,
    KekError,
    KeyFileError,
    KeyHeaderError,
    NotAStoreError,
    NotFound,
    PolicyError,
    PolicyViolation,
    PreconditionFailed,
    RekeyedError,
    SecureMemError,
    StorageError,
    StoreBusyError,
    StoreFullError,
    WrongKekError,
    WrongKeyError,
)
from securemem.keys import KeyFile, KeyProvider, Passphrase, RawKey
from securemem.keys.kek import KekProvider
from securemem.memory import SecureMemory
from securemem.policy import Policy, load_policy
from securemem.store.factory import open_store

if TYPE_CHECKING:
    from securemem.anthropic import AsyncSecureMemoryTool, SecureMemoryTool

__all__ = [
    "Admin",
    "ApiError",
    "AsyncSecureMemoryTool",
    "CommandError",
    "Conflict",
    "DamagedStoreError",
    "InvalidRequest",
    "KekError",
    "KekProvider",
    "KeyFile",
    "KeyFileError",
    "KeyHeaderError",
    "KeyProvider",
    "Memory",
    "MemoryStore",
    "MemoryVersion",
    "NotAStoreError",
    "NotFound",
    "Page",
    "Passphrase",
    "Policy",
    "PolicyError",
    "PolicyViolation",
    "PreconditionFailed",
    "RawKey",
    "RekeyedError",
    "Result",
    "SecureMemError",
    "SecureMemory",
    "SecureMemoryTool",
    "StorageError",
    "StoreBusyError",
    "StoreFullError",
    "WrongKekError",
    "WrongKeyError",
    "load_policy",
    "open_store",
]


def __getattr__(name: str) -> Any:
    # The SDK adapter is imported on first use: importing anthropic takes about a second,
    # which the CLI and library users who run their own tool loop need not pay.
    if name in ("SecureMemoryTool", "AsyncSecureMemoryTool"):
        from securemem import anthropic

        return getattr(anthropic, name)
    raise AttributeError(f"module 'securemem' has no attribute {name!r}")
