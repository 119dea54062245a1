"""Key material: key files, passphrase stretching, and the only code that renders a key as hex.

Keys reach SQLCipher only as ``x'<hex>'`` strings that this module builds from bytes, so no text
that came from a user or a model is ever spliced into a PRAGMA. A passphrase is stretched here
(PBKDF2-HMAC-SHA512, 256,000 iterations, the same work SQLCipher 4 uses) with the store's own
16-byte salt, which SQLCipher keeps in the clear at the head of the file: one KDF per open.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from securemem.errors import KeyFileError

KEY_BYTES = 32
SALT_BYTES = 16
KDF_ITERATIONS = 256_000


class KeyMaterial:
    """A raw 32-byte key or a passphrase; its repr never shows either."""

    __slots__ = ("_passphrase", "_raw")

    def __init__(self, key: bytes | bytearray | str) -> None:
        if isinstance(key, str):
            if not key:
                raise KeyFileError("the passphrase is empty")
            self._raw: bytes | None = None
            self._passphrase: str | None = key
        elif isinstance(key, bytes | bytearray):
            if len(key) != KEY_BYTES:
                raise KeyFileError(f"a raw key must be exactly {KEY_BYTES} bytes, got {len(key)}")
            self._raw, self._passphrase = bytes(key), None
        else:
            raise KeyFileError("the key must be 32 raw bytes or a passphrase string")

    def __repr__(self) -> str:
        return "KeyMaterial(<redacted>)"

    @property
    def is_passphrase(self) -> bool:
        return self._passphrase is not None

    def pragma_value(self, salt: bytes | None) -> str:
        """The value for ``PRAGMA key``/``rekey``: app-made hex only.

        For a passphrase, ``salt`` is the store's salt (read from an existing file, or fresh for a
        new one) and is appended so that SQLCipher writes it into a new file's header.
        """
        if self._raw is not None:
            return f"x'{self._raw.hex()}'"
        assert self._passphrase is not None and salt is not None
        return f"x'{stretch(self._passphrase, salt).hex()}{salt.hex()}'"


def stretch(passphrase: str, salt: bytes) -> bytes:
    kdf = PBKDF2HMAC(algorithm=hashes.SHA512(), length=KEY_BYTES, salt=salt, iterations=KDF_ITERATIONS)
    return kdf.derive(passphrase.encode("utf-8"))


def new_salt() -> bytes:
    return os.urandom(SALT_BYTES)


def create_key_file(path: str | os.PathLike[str]) -> bytes:
    """Write a fresh random key as hex to a new file, mode 0600. Never overwrites."""
    key = os.urandom(KEY_BYTES)
    try:
        # O_EXCL: an existing key file is never replaced (it may be the only copy of a key).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise KeyFileError(f"key file {os.fspath(path)} already exists; refusing to overwrite it") from None
    except OSError as exc:
        raise KeyFileError(f"cannot create key file {os.fspath(path)}: {exc.strerror}") from None
    with os.fdopen(fd, "w") as handle:
        os.fchmod(handle.fileno(), 0o600)  # the umask may have cleared owner bits
        handle.write(key.hex() + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return key


def read_key_file(path: str | os.PathLike[str]) -> bytes:
    """Read a hex key file; refuse one that other users can read, like ssh does."""
    where = os.fspath(path)
    try:
        info = Path(where).stat()
        text = Path(where).read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise KeyFileError(f"key file {where} does not exist") from None
    except (OSError, UnicodeDecodeError):
        raise KeyFileError(f"key file {where} cannot be read as a hex key") from None
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise KeyFileError(f"key file {where} is accessible by other users; run: chmod 600 {where}")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise KeyFileError(f"key file {where} must hold {KEY_BYTES * 2} hex characters")
    return key
