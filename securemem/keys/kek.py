"""Key-encryption keys (KEKs): what wraps a store's data key (DEK) in its key header.

Every KEK provider has the same small surface: ``wrap(dek, context)`` gives a ``Wrapped`` (the
DEK sealed with AES-256-GCM, the store id and key id as associated data, and the key id that
says which KEK sealed it); ``unwrap(wrapped, context)`` gives the DEK back, or None when the
entry was sealed by another KEK; ``source`` names it for messages (scheme and path, never key
material).

Providers that hand us 32 bytes (a file, a variable, a helper command, a passphrase stretched
by scrypt) share ``MaterialKek``: their key id is an HMAC of the KEK under a fixed label, so the
id says which KEK it is without saying anything about it, and an entry is tried only by the
KEK whose id it carries. A PKCS#11 KEK (keys/pkcs11.py) never leaves its token: the token
encrypts and decrypts, and its key id names the token and the object.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from securemem.errors import KekError, KeyFileError, KeyHeaderError
from securemem.keys.file import create_key_file, read_key_file
from securemem.keys.passphrase import passphrase_bytes
from securemem.keys.raw import KEY_BYTES
from securemem.private_files import read_private_text

ALG = "A256GCM"
NONCE_BYTES = 12
_HEX64 = re.compile(r"[0-9A-Fa-f]{64}")
_ID_LABEL = b"securemem kek id v1"

# scrypt: memory-hard, so a stolen header cannot be brute-forced on GPUs cheaply. N=2**17, r=8
# (128 MiB, about half a second) is OWASP's advice; the parameters go in each entry, so raising
# them later leaves older entries readable. Entries read back are held to MAX_* (a hostile
# header must not make an open allocate gigabytes).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**17, 8, 1
MAX_SCRYPT_N, MAX_SCRYPT_R, MAX_SCRYPT_P = 2**20, 16, 4


@dataclass(frozen=True)
class Wrapped:
    """One KEK's seal of the DEK, as the key header stores it."""

    key_id: str
    nonce: bytes
    sealed: bytes
    alg: str = ALG
    kdf: Mapping[str, Any] | None = field(default=None)


@runtime_checkable
class KekProvider(Protocol):
    @property
    def source(self) -> str:
        """The KEK's URI for messages and the header (scheme and path; never key material)."""
        ...

    def wrap(self, dek: bytes, store_id: str) -> Wrapped:
        """Seal ``dek``, bound to the store id and key id (``context``) as associated data."""
        ...

    def unwrap(self, wrapped: Wrapped, store_id: str) -> bytes | None:
        """The DEK, or None when ``wrapped`` was sealed by another KEK."""
        ...


def context(store_id: str, key_id: str) -> bytes:
    """What a sealed DEK is bound to: moved to another store or another entry, it opens nothing."""
    return f"securemem dek\0{store_id}\0{key_id}".encode()


def key_id_of(kek: bytes) -> str:
    """A stable id for a 32-byte KEK that reveals nothing of it (a keyed hash under a fixed label)."""
    return "k" + hmac.new(kek, _ID_LABEL, hashlib.sha256).hexdigest()[:20]


def seal(kek: bytes, key_id: str, dek: bytes, store_id: str, kdf: Mapping[str, Any] | None = None) -> Wrapped:
    nonce = os.urandom(NONCE_BYTES)
    return Wrapped(key_id, nonce, AESGCM(kek).encrypt(nonce, dek, context(store_id, key_id)), kdf=kdf)


def open_sealed(kek: bytes, wrapped: Wrapped, store_id: str) -> bytes:
    """The DEK; a seal that fails its tag under the right KEK was edited: the header is damaged."""
    try:
        dek = AESGCM(kek).decrypt(wrapped.nonce, wrapped.sealed, context(store_id, wrapped.key_id))
    except InvalidTag:
        raise KeyHeaderError("a wrapped key fails its check") from None
    if len(dek) != KEY_BYTES:
        raise KeyHeaderError("a wrapped key has the wrong size")
    return dek


class MaterialKek:
    """A KEK we hold as 32 bytes, fetched once (lazily: a provider that is never used asks nothing)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._kek: bytes | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.source!r})"

    def fetch(self) -> bytes:
        raise NotImplementedError

    def material(self) -> bytes:
        if self._kek is None:
            self._kek = self.fetch()
        return self._kek

    @property
    def key_id(self) -> str:
        return key_id_of(self.material())

    def wrap(self, dek: bytes, store_id: str) -> Wrapped:
        return seal(self.material(), self.key_id, dek, store_id)

    def unwrap(self, wrapped: Wrapped, store_id: str) -> bytes | None:
        if wrapped.kdf is not None or not hmac.compare_digest(wrapped.key_id, self.key_id):
            return None
        return open_sealed(self.material(), wrapped, store_id)


def parse_hex_kek(text: str, where: str) -> bytes:
    if not _HEX64.fullmatch(text.strip()):
        raise KekError(f"{where} does not hold a KEK ({KEY_BYTES * 2} hex digits)")
    return bytes.fromhex(text.strip())


class FileKek(MaterialKek):
    """``file:/path``: 32 random bytes as hex, 0600; refused when other users can read it."""

    def __init__(self, path: str) -> None:
        super().__init__(f"file:{path}")
        self.path = path

    def fetch(self) -> bytes:
        try:
            return read_key_file(self.path)
        except KeyFileError as exc:
            raise KekError(f"KEK {self.source}: {exc}") from None

    def create_if_missing(self) -> bool:
        """Make a fresh KEK file when there is none (0600, never overwritten); True if made."""
        if os.path.lexists(self.path):
            return False
        try:
            self._kek = create_key_file(self.path)
        except KeyFileError as exc:
            raise KekError(f"KEK {self.source}: {exc}") from None
        return True


KEK_ENV = "SECUREMEM_KEK"  # the variable that names the KEK when no --kek is given
# The environment variables an ``env:`` KEK of this process reads: a ``command:`` helper never gets them.
_KEK_VARIABLES: set[str] = set()


def kek_variables() -> frozenset[str]:
    """The names of the environment variables that hold a KEK of this process (see EnvKek): those its ``env:`` KEKs
    read, those the key headers it read name (another entry's ``env:VAR`` may open the same store), and the one
    ``$SECUREMEM_KEK`` names (an attacker's round)."""
    named = os.environ.get(KEK_ENV, "")
    return frozenset(_KEK_VARIABLES | ({named[4:]} if named.startswith("env:") else set()))


def note_kek_source(source: str) -> None:
    """A KEK's URI this process came across (a key header's entry): an ``env:VAR`` one's variable is withheld too."""
    if source.startswith("env:"):
        _KEK_VARIABLES.add(source[4:])


class EnvKek(MaterialKek):
    """``env:VAR``: the KEK as hex in an environment variable."""

    def __init__(self, name: str, environ: Mapping[str, str] = os.environ) -> None:
        super().__init__(f"env:{name}")
        self.name = name
        self._environ = environ
        _KEK_VARIABLES.add(name)

    def fetch(self) -> bytes:
        value = self._environ.get(self.name)
        if not value:
            raise KekError(f"KEK {self.source}: ${self.name} is not set")
        return parse_hex_kek(value, f"KEK {self.source}")


class PassphraseKek:
    """``passphrase:`` (asked on the terminal) or ``passphrase:file:/path``, stretched by scrypt.

    Each wrap draws a fresh salt; the salt and scrypt's parameters go in the entry (``kdf``), so
    the KEK, and with it the key id, is derived again from what the entry records.
    """

    def __init__(self, source: str, read: Any, confirm: Any = None) -> None:
        self.source = source
        self._read = read  # () -> str, called at most once
        # () -> str: asks again before the passphrase wraps a key it has not opened (a typo at the
        # terminal would otherwise lock the store for good); None for a passphrase read from a file.
        self._confirm = confirm
        self._text: str | None = None
        self._derived: dict[tuple[bytes, int, int, int], bytes] = {}

    def __repr__(self) -> str:
        return f"PassphraseKek({self.source!r})"

    def diagnose(self) -> None:
        """When this KEK opened no entry: a passphrase file that cannot be read says so (a typo in its
        path is no wrong passphrase); nothing is asked on a terminal for it."""
        if self.source.startswith("passphrase:file:"):
            self._passphrase()

    def _passphrase(self) -> str:
        if self._text is None:
            text = self._read()
            if not text:
                raise KekError(f"KEK {self.source}: the passphrase is empty")
            self._text = text
        return self._text

    def _bytes(self, text: str) -> bytes:
        try:
            return passphrase_bytes(text)
        except UnicodeEncodeError:  # its message would quote the passphrase
            raise KekError(f"KEK {self.source}: the passphrase holds a character that is not text") from None

    def _derive(self, salt: bytes, n: int, r: int, p: int) -> bytes:
        found = self._derived.get((salt, n, r, p))
        if found is None:
            kdf = Scrypt(salt=salt, length=KEY_BYTES, n=n, r=r, p=p)
            found = self._derived[(salt, n, r, p)] = kdf.derive(self._bytes(self._passphrase()))
        return found

    def wrap(self, dek: bytes, store_id: str) -> Wrapped:
        if self._confirm is not None:
            first = self._bytes(self._passphrase())
            if not hmac.compare_digest(self._bytes(self._confirm()), first):
                raise KekError(f"KEK {self.source}: the two passphrases typed differ; nothing was changed")
            self._confirm = None
        salt = os.urandom(16)
        kek = self._derive(salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        kdf = {"alg": "scrypt", "salt": salt.hex(), "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P}
        return seal(kek, key_id_of(kek), dek, store_id, kdf)

    def unwrap(self, wrapped: Wrapped, store_id: str) -> bytes | None:
        kdf = wrapped.kdf
        if kdf is None or kdf.get("alg") != "scrypt":
            return None
        salt, n, r, p = _scrypt_params(kdf)
        kek = self._derive(salt, n, r, p)
        if not hmac.compare_digest(key_id_of(kek), wrapped.key_id):
            return None
        opened = open_sealed(kek, wrapped, store_id)
        self._confirm = None  # it opened a key: no need to type it again to wrap one
        return opened


def wraps_already(kek: KekProvider, wrapped: Iterable[Wrapped], store_id: str) -> str | None:
    """The key id of an entry of ``wrapped`` that ``kek`` opens already, or None.

    Other KEKs' key ids are their own: an entry with the same id is the same KEK. A passphrase's
    entry is derived with a salt of its own, so each wrap by the same passphrase gets another key
    id; only trying its entries tells (an attacker's round: the same passphrase added twice, then
    "rotated away" from, still opened the store through its second entry). One scrypt per
    passphrase entry tried, on a key change only.
    """
    return next(_twins(kek, wrapped, store_id), None)


def passphrase_twins(kek: KekProvider, wrapped: Iterable[Wrapped], store_id: str) -> list[str]:
    """The key ids of the entries of ``wrapped`` that ``kek``, a passphrase, opens (none for other KEKs)."""
    return list(_twins(kek, wrapped, store_id))


def _twins(kek: KekProvider, wrapped: Iterable[Wrapped], store_id: str) -> Iterator[str]:
    if not isinstance(kek, PassphraseKek):
        return
    for entry in wrapped:
        try:
            if kek.unwrap(entry, store_id) is not None:
                yield entry.key_id
        except KeyHeaderError:
            continue  # a damaged entry is not this KEK's to judge here


def _scrypt_params(kdf: Mapping[str, Any]) -> tuple[bytes, int, int, int]:
    try:
        salt = bytes.fromhex(str(kdf["salt"]))
        n, r, p = (int(kdf[name]) for name in ("n", "r", "p"))
    except (KeyError, ValueError, TypeError):
        raise KeyHeaderError("a passphrase entry's parameters are unreadable") from None
    powers = n >= 2 and n & (n - 1) == 0
    if not (powers and n <= MAX_SCRYPT_N and 1 <= r <= MAX_SCRYPT_R and 1 <= p <= MAX_SCRYPT_P and len(salt) >= 16):
        raise KeyHeaderError("a passphrase entry's parameters are out of range")
    return salt, n, r, p


def read_passphrase_text(path: str) -> str:
    """A passphrase kept in a file only its owner may read; one final newline is dropped."""
    where = f"KEK passphrase:file:{path}"
    try:
        text, shared = read_private_text(path, "utf-8")
    except FileNotFoundError:
        raise KekError(f"{where}: the file does not exist") from None
    except (OSError, UnicodeDecodeError):
        raise KekError(f"{where}: the file cannot be read as text") from None
    if shared:
        raise KekError(f"{where}: the file is accessible by other users; run: chmod 600 {path}")
    return text.removesuffix("\n").removesuffix("\r")
