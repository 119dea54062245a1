"""securemem: encrypted, policy-driven storage for Claude's memory tool."""

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

__all__ = [
    "CommandError",
    "DamagedStoreError",
    "KeyFileError",
    "NotAStoreError",
    "Policy",
    "PolicyError",
    "Result",
    "SecureMemError",
    "SecureMemory",
    "StorageError",
    "StoreBusyError",
    "StoreFullError",
    "WrongKeyError",
    "load_policy",
]
