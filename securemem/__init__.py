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
    RekeyedError,
    SecureMemError,
    StorageError,
    StoreBusyError,
    StoreFullError,
    WrongKeyError,
)
from securemem.keys import KeyFile, KeyProvider, Passphrase, RawKey
from securemem.memory import SecureMemory
from securemem.policy import Policy, load_policy
from securemem.store.factory import open_store

if TYPE_CHECKING:
    from securemem.anthropic import AsyncSecureMemoryTool, SecureMemoryTool

__all__ = [
    "AsyncSecureMemoryTool",
    "CommandError",
    "DamagedStoreError",
    "KeyFile",
    "KeyFileError",
    "KeyProvider",
    "NotAStoreError",
    "Passphrase",
    "Policy",
    "PolicyError",
    "RawKey",
    "RekeyedError",
    "Result",
    "SecureMemError",
    "SecureMemory",
    "SecureMemoryTool",
    "StorageError",
    "StoreBusyError",
    "StoreFullError",
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
