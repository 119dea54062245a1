"""Key files: a fresh random key written as hex, mode 0600, never overwritten; read back with care.

A key file readable or writable by other users is refused, as ssh refuses such private keys: the
key is the whole of the store's protection.
"""

from __future__ import annotations

import os

from securemem.errors import KeyFileError
from securemem.keys.raw import KEY_BYTES, RawKey
from securemem.private_files import create_private, read_private_text


class KeyFile:
    """A provider that reads a hex key file (at most once per provider)."""

    __slots__ = ("_key", "path", "source")

    def __init__(self, path: str | os.PathLike[str], *, source: str | None = None) -> None:
        self.path = os.fspath(path)
        self.source = source or f"key file {self.path}"
        self._key: RawKey | None = None

    def __repr__(self) -> str:
        return f"KeyFile({self.path!r})"

    @property
    def stretches(self) -> bool:
        return False

    def store_key(self, salt: bytes) -> bytes:
        if self._key is None:
            self._key = RawKey(read_key_file(self.path), source=self.source)
        return self._key.store_key(salt)

    def reread(self) -> KeyFile:
        """The same file as a new provider, which reads it again (a key change may have replaced it)."""
        return KeyFile(self.path, source=self.source)


def create_key_file(path: str | os.PathLike[str]) -> bytes:
    """Write a fresh random key as hex to a new file, mode 0600 from its first byte. Never overwrites."""
    key = os.urandom(KEY_BYTES)
    try:
        fd = create_private(path)
    except FileExistsError:
        raise KeyFileError(f"key file {os.fspath(path)} already exists; refusing to overwrite it") from None
    except OSError as exc:
        raise KeyFileError(f"cannot create key file {os.fspath(path)}: {exc.strerror}") from None
    with os.fdopen(fd, "w") as handle:
        handle.write(key.hex() + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return key


def read_key_file(path: str | os.PathLike[str]) -> bytes:
    """Read a hex key file; refuse one that other users can read, like ssh does."""
    where = os.fspath(path)
    try:
        text, shared = read_private_text(where, "ascii")
    except FileNotFoundError:
        raise KeyFileError(f"key file {where} does not exist") from None
    except IsADirectoryError:
        raise KeyFileError(f"key file {where} is a directory") from None
    except (OSError, UnicodeDecodeError):
        raise KeyFileError(f"key file {where} cannot be read as a hex key") from None
    if shared:
        raise KeyFileError(f"key file {where} is accessible by other users; run: chmod 600 {where}")
    text = text.strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise KeyFileError(f"key file {where} must hold {KEY_BYTES * 2} hex characters")
    return key
