"""Passphrase: stretched into the store key with the store's own salt.

PBKDF2-HMAC-SHA512 with 256,000 iterations is the work SQLCipher 4 itself would do; we do it
here so that SQLCipher only ever receives hex we built (no user text spliced into a PRAGMA), and
so that stores written by earlier releases keep opening. One stretch per open (about 0.1 s).
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from securemem.errors import KeyFileError
from securemem.keys.raw import KEY_BYTES

KDF_ITERATIONS = 256_000
_BLANKS = " \t\r\n\v\f\x00"


class Passphrase:
    __slots__ = ("_cache", "_text", "source")

    def __init__(self, text: str, *, source: str = "the passphrase given") -> None:
        if not isinstance(text, str) or not text.strip(_BLANKS):
            # Blanks alone are an empty key file's newline or a variable set to a space, not a passphrase (an
            # attacker's round: "\n" opened a store under the passphrase "\n").
            raise KeyFileError("the passphrase is empty (or only blanks)")
        try:
            passphrase_bytes(text)
        except UnicodeEncodeError:
            # The exception's own text would quote the passphrase: only its source is named.
            raise KeyFileError(f"{source} holds a character that is not text (a lone surrogate)") from None
        self._text = text
        self._cache: tuple[bytes, bytes] | None = None
        self.source = source

    def __repr__(self) -> str:
        return f"Passphrase(<redacted>, source={self.source!r})"

    @property
    def stretches(self) -> bool:
        return True

    def store_key(self, salt: bytes) -> bytes:
        if self._cache is None or self._cache[0] != salt:
            self._cache = (salt, stretch(self._text, salt))
        return self._cache[1]


def stretch(passphrase: str, salt: bytes) -> bytes:
    kdf = PBKDF2HMAC(algorithm=hashes.SHA512(), length=KEY_BYTES, salt=salt, iterations=KDF_ITERATIONS)
    return kdf.derive(passphrase_bytes(passphrase))


def passphrase_bytes(passphrase: str) -> bytes:
    """UTF-8; a byte that was not UTF-8 where the passphrase came from (an environment variable, an
    argument: Python keeps it as a surrogate) is that byte again, so such a passphrase stays usable."""
    return passphrase.encode("utf-8", "surrogateescape")
