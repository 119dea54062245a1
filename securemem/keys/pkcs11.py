"""``pkcs11:token=NAME;object=LABEL``: a KEK that never leaves its HSM (the only module importing pkcs11).

The token holds an AES key; wrapping and unwrapping are AES-GCM encrypt and decrypt calls made
on the token, so the KEK is never in this process. The module (the vendor's .so) comes from
``$SECUREMEM_PKCS11_MODULE``; the user PIN from ``pin-source=file:/path`` in the URI (a file
only its owner may read) or ``$SECUREMEM_PKCS11_PIN``. The key id names the token and object,
which is how an operator finds the key again on the HSM.

python-pkcs11 is an optional extra (``pip install securemem[pkcs11]``): imported here, on first use.
"""

from __future__ import annotations

import copy
import hashlib
import os
import threading
from collections.abc import Mapping
from typing import Any

from securemem.errors import KekError
from securemem.keys.kek import NONCE_BYTES, Wrapped, context
from securemem.private_files import read_private_text

MODULE_ENV = "SECUREMEM_PKCS11_MODULE"
PIN_ENV = "SECUREMEM_PKCS11_PIN"
_libs: dict[str, Any] = {}
_libs_lock = threading.Lock()


def parse_pkcs11_uri(rest: str) -> dict[str, str]:
    """The attributes of ``token=NAME;object=LABEL[;pin-source=file:/path]`` (after ``pkcs11:``)."""
    fields: dict[str, str] = {}
    for part in rest.split(";"):
        name, sep, value = part.partition("=")
        if not sep or not value or name in fields or name not in ("token", "object", "pin-source"):
            raise KekError("a pkcs11: KEK is pkcs11:token=NAME;object=LABEL[;pin-source=file:/path]")
        fields[name] = value
    if "token" not in fields or "object" not in fields:
        raise KekError("a pkcs11: KEK names its token and object: pkcs11:token=NAME;object=LABEL")
    return fields


class Pkcs11Kek:
    def __init__(self, rest: str, environ: Mapping[str, str] = os.environ) -> None:
        fields = parse_pkcs11_uri(rest)
        self.token, self.object = fields["token"], fields["object"]
        self._pin_source = fields.get("pin-source")
        self._environ = environ
        self.source = f"pkcs11:token={self.token};object={self.object}"
        digest = hashlib.sha256(f"{self.token}\0{self.object}".encode()).hexdigest()[:20]
        self.key_id = "p" + digest

    def __repr__(self) -> str:
        return f"Pkcs11Kek({self.source!r})"

    def wrap(self, dek: bytes, store_id: str) -> Wrapped:
        nonce = os.urandom(NONCE_BYTES)
        return Wrapped(self.key_id, nonce, self._call("encrypt", dek, nonce, context(store_id, self.key_id)))

    def unwrap(self, wrapped: Wrapped, store_id: str) -> bytes | None:
        if wrapped.kdf is not None or wrapped.key_id != self.key_id:
            return None
        return self._call("decrypt", wrapped.sealed, wrapped.nonce, context(store_id, self.key_id))

    def diagnose(self) -> None:
        """Called when this KEK wraps none of a store's keys: a token or key that cannot be reached
        is said as such (KekError), not as a wrong KEK."""
        self._session(self._key)

    @property
    def pin_file(self) -> str | None:
        """The file the PIN is read from (``pin-source=file:/path``), if the URI names one."""
        source = self._pin_source
        return source.removeprefix("file:") if source is not None and source.startswith("file:") else None

    def _pin(self) -> str:
        if self._pin_source is not None:
            if not self._pin_source.startswith("file:"):
                raise KekError(f"KEK {self.source}: pin-source must be file:/path")
            path = self._pin_source.removeprefix("file:")
            try:
                text, shared = read_private_text(path, "utf-8")
            except (OSError, UnicodeDecodeError):
                raise KekError(f"KEK {self.source}: the PIN file {path} cannot be read") from None
            if shared:
                raise KekError(f"KEK {self.source}: the PIN file {path} is accessible by other users")
            return text.strip()
        pin = self._environ.get(PIN_ENV)
        if not pin:
            raise KekError(f"KEK {self.source}: no PIN: add ;pin-source=file:/path to the URI or set ${PIN_ENV}")
        try:  # a byte that is not UTF-8 comes as a lone surrogate, which the module cannot be given
            pin.encode("utf-8")
        except UnicodeEncodeError:  # its message would quote the PIN
            raise KekError(f"KEK {self.source}: ${PIN_ENV} cannot be read as a PIN (it is not UTF-8 text)") from None
        return pin

    def for_object(self, label: str) -> Pkcs11Kek:
        """The same token and PIN with another key object: a store's own key (store/postgres.py)."""
        twin = copy.copy(self)
        twin.object = label
        twin.source = f"pkcs11:token={self.token};object={label}"
        twin.key_id = "p" + hashlib.sha256(f"{self.token}\0{label}".encode()).hexdigest()[:20]
        return twin

    def create_key(self) -> None:
        """Make this object on the token: an AES-256 key that never leaves it (sensitive, not extractable)."""
        from pkcs11 import Attribute, KeyType

        template = {Attribute.SENSITIVE: True, Attribute.EXTRACTABLE: False}
        self._session(
            lambda s: s.generate_key(KeyType.AES, 256, label=self.object, store=True, template=template), rw=True
        )

    def destroy_key(self) -> int:
        """Destroy every key object with this label on the token (crypto-shredding); how many."""
        from pkcs11 import Attribute, ObjectClass

        def destroy(session: Any) -> int:
            found = list(session.get_objects({Attribute.LABEL: self.object, Attribute.CLASS: ObjectClass.SECRET_KEY}))
            for key in found:
                key.destroy()
            return len(found)

        return int(self._session(destroy, rw=True))

    def _key(self, session: Any) -> Any:
        """The one AES key with this label. The token's search is read to its end before anything is said:
        python-pkcs11's get_key raised on a second key with the search still open, and the search, closed
        later on a session already gone, printed a traceback after the one-line error (an attacker's round)."""
        import pkcs11
        from pkcs11 import Attribute, KeyType, ObjectClass

        found = list(
            session.get_objects(
                {Attribute.LABEL: self.object, Attribute.CLASS: ObjectClass.SECRET_KEY, Attribute.KEY_TYPE: KeyType.AES}
            )
        )
        if not found:
            raise pkcs11.exceptions.NoSuchKey
        if len(found) > 1:
            raise pkcs11.exceptions.MultipleObjectsReturned
        return found[0]

    def _call(self, operation: str, data: bytes, nonce: bytes, context: bytes) -> bytes:
        import pkcs11
        from pkcs11.mechanisms import GCMParams

        def run(session: Any) -> bytes:
            key = self._key(session)
            call = key.encrypt if operation == "encrypt" else key.decrypt
            return bytes(call(data, mechanism=pkcs11.Mechanism.AES_GCM, mechanism_param=GCMParams(nonce, context)))

        return bytes(self._session(run, decrypting=operation == "decrypt"))

    def _session(self, body: Any, *, decrypting: bool = False, rw: bool = False) -> Any:
        """``body(session)`` in a session on the token (read-write to make or destroy an object),
        its errors made one line each."""
        import pkcs11

        where = f"KEK {self.source}"
        lib = _library(self._environ, where)
        try:
            token = lib.get_token(token_label=self.token)
            with token.open(user_pin=self._pin(), rw=rw) as session:
                return body(session)
        except pkcs11.exceptions.NoSuchToken:
            raise KekError(f"{where}: no token labelled {self.token!r} (is the HSM reachable?)") from None
        except pkcs11.exceptions.PinIncorrect:
            raise KekError(f"{where}: the token refused the PIN") from None
        except pkcs11.exceptions.NoSuchKey:
            raise KekError(f"{where}: no AES key labelled {self.object!r} on the token") from None
        except pkcs11.exceptions.MultipleObjectsReturned:
            raise KekError(f"{where}: several keys are labelled {self.object!r} on the token") from None
        except pkcs11.exceptions.MultipleTokensReturned:
            raise KekError(f"{where}: several tokens are labelled {self.token!r}; give each its own label") from None
        except pkcs11.exceptions.PKCS11Error as exc:
            if decrypting:
                why = "the token could not unwrap the data key (a different key under that label?)"
                raise KekError(f"{where}: {why}") from None
            raise KekError(f"{where}: the token refused ({type(exc).__name__})") from None


def _library(environ: Mapping[str, str], where: str) -> Any:
    try:
        import pkcs11
    except ImportError:
        raise KekError(f"{where}: python-pkcs11 is not installed (pip install 'securemem[pkcs11]')") from None
    module = environ.get(MODULE_ENV)
    if not module:
        raise KekError(f"{where}: set ${MODULE_ENV} to the PKCS#11 module (.so) of the HSM")
    with _libs_lock:
        if module not in _libs:
            try:
                _libs[module] = pkcs11.lib(module)
            except (OSError, RuntimeError):
                raise KekError(f"{where}: cannot load the PKCS#11 module {module}") from None
        return _libs[module]
