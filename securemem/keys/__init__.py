"""Where a store's key comes from: one ``KeyProvider`` interface, one module per source.

A provider answers one question, "what is the 32-byte key of the store whose salt is this?", and
says where it got the answer (``source``, for messages: a file name or a variable name, never key
material). The store asks it; how the key is fed to the backend (SQLCipher's ``PRAGMA key``
syntax) stays inside the backend. Providers:

- ``RawKey``: 32 bytes held by the caller (the store key itself; the salt is not used);
- ``Passphrase``: stretched with PBKDF2-HMAC-SHA512 (256,000 iterations) and the store's salt;
- ``KeyFile``: a hex key file, refused when other users can read it (as ssh does).

``as_key_provider`` turns what ``SecureMemory.open(key=...)`` accepts into a provider. A ``str``
of exactly 64 hexadecimal digits (white space around it ignored, as ``open(...).read()`` leaves a
newline) is a raw key written in hex, not a passphrase: stretching it would open nothing and
report a wrong key. To use such a string as a passphrase anyway, pass ``Passphrase(text)``.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

from securemem.errors import KeyFileError
from securemem.keys.file import KeyFile, create_key_file, read_key_file
from securemem.keys.passphrase import Passphrase
from securemem.keys.raw import KEY_BYTES, SALT_BYTES, RawKey

__all__ = [
    "KEY_BYTES",
    "SALT_BYTES",
    "KeyFile",
    "KeyProvider",
    "Passphrase",
    "RawKey",
    "as_key_provider",
    "create_key_file",
    "looks_like_hex_key",
    "read_key_file",
]

_HEX_KEY = re.compile(r"[0-9A-Fa-f]{64}")


@runtime_checkable
class KeyProvider(Protocol):
    @property
    def source(self) -> str:
        """Where the key came from, for messages (never the key)."""
        ...

    @property
    def stretches(self) -> bool:
        """True when the key is derived from the salt (a passphrase): a new salt needs a new key."""
        ...

    def store_key(self, salt: bytes) -> bytes:
        """The 32-byte key of the store whose 16-byte salt is ``salt``."""
        ...


def looks_like_hex_key(text: str) -> bool:
    return _HEX_KEY.fullmatch(text.strip()) is not None


def as_key_provider(key: object, *, source: str | None = None) -> KeyProvider:
    """A provider for 32 raw bytes, a hex key string, a passphrase string, or a provider."""
    if isinstance(key, KeyProvider):
        return key
    if isinstance(key, bytes | bytearray):
        return RawKey(bytes(key), source=source or "the raw key given")
    if isinstance(key, str):
        if looks_like_hex_key(key):
            return RawKey(bytes.fromhex(key.strip()), source=source or "the hex key given")
        return Passphrase(key, source=source or "the passphrase given")
    raise KeyFileError("the key must be 32 raw bytes, 64 hex digits, a passphrase string or a KeyProvider")
