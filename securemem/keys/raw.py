"""RawKey: 32 bytes held by the caller, used as the store key itself."""

from __future__ import annotations

from securemem.errors import KeyFileError

KEY_BYTES = 32
SALT_BYTES = 16


class RawKey:
    """A raw 32-byte key; its repr never shows it."""

    __slots__ = ("_key", "source")

    def __init__(self, key: bytes, *, source: str = "the raw key given") -> None:
        if len(key) != KEY_BYTES:
            raise KeyFileError(f"a raw key must be exactly {KEY_BYTES} bytes, got {len(key)}")
        self._key = bytes(key)
        self.source = source

    def __repr__(self) -> str:
        return f"RawKey(<redacted>, source={self.source!r})"

    @property
    def stretches(self) -> bool:
        return False

    def store_key(self, salt: bytes) -> bytes:
        del salt  # a raw key is the store key whatever the salt
        return self._key
