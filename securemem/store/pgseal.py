"""What the PostgreSQL store encrypts, and with which key, before anything leaves the process.

The server holds ciphertext only (AES-256-GCM, ``cryptography``). The keys, from the top:

- the deployment's KEK (``kek=``: a provider of the key issue, so ``pkcs11:`` keeps it in an HSM;
  or ``key=``: 32 bytes of a KeyProvider, stretched with the database's salt for a passphrase)
  wraps one random **master key**, kept wrapped in ``sm_meta``;
- the master key seals the store-wide settings and each store's random **data key**
  (``sm_stores.dek``), and keys the store-name tokens (HMAC): a store is found by name without
  the name on the server;
- a store's data key seals its name and description, its paths, file contents, and its
  versions' paths, hashes, salts and contents, and keys its **path tokens**: a path is looked up
  by HMAC, never by its text. With a PKCS#11 KEK, each store's data key is wrapped by a key
  object of its own on the token first (store/postgres.py, ``OwnKeys``).

Every ciphertext carries associated data naming its place: the field, the store's number and the
row's identity (a path's token and memory number, a memory's number, a version's number). Copied
or swapped to another row, field or store by SQL, it fails its tag and the read stops with a
``DamagedStoreError`` that names no content.

A path token is the concatenation of 8-byte HMACs of the path and of each of its ancestors, root
first. So ``tok`` of ``/memories/a/b`` starts with ``tok`` of ``/memories/a``: one btree range of
the token is a whole subtree, as a range of the plaintext path would be. The server learns the
shape of the tree (depth, which entries share a directory), never a name.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import struct
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from securemem.errors import DamagedStoreError
from securemem.keys.kek import MaterialKek, Wrapped
from securemem.paths import ancestors

NONCE_BYTES = 12
TOKEN_BYTES = 8  # per path level: collisions need ~2**32 entries in one store
KEY_BYTES = 32
WHO_TOKEN_BYTES = 16  # of a version's session or actor token: equal tokens, same writer (nothing more)
_LABEL = b"securemem-pg-v1\x00"
TAMPERED = "a row of the PostgreSQL store fails its authentication check (changed, copied or moved outside securemem)"


def derive(key: bytes, label: str) -> bytes:
    """A sub-key for one purpose: a leak of one (a token key in a log) says nothing of the others."""
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None, info=_LABEL + label.encode()).derive(key)


def place(field: str, ns: int, ident: bytes | int | str) -> bytes:
    """The associated data of one ciphertext: its field, its store's number and its row's identity."""
    if isinstance(ident, int):
        ident = struct.pack(">q", ident)
    elif isinstance(ident, str):
        ident = ident.encode("utf-8")
    return _LABEL + field.encode() + b"\x00" + struct.pack(">q", ns) + b"\x00" + ident


class Sealer:
    """AES-256-GCM under one key; a fresh random nonce per ciphertext, stored in front of it."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, data: bytes, where: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, data, where)

    def open(self, blob: bytes, where: bytes) -> bytes:
        try:
            return self._aead.decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], where)
        except (InvalidTag, ValueError):
            raise DamagedStoreError(TAMPERED) from None


class HeldKek(MaterialKek):
    """The 32 bytes a ``key=`` provider gave, used as the KEK that wraps the master key."""

    def __init__(self, source: str, material: bytes) -> None:
        super().__init__(source)
        self._kek = material


def wrapped_doc(wrapped: Wrapped) -> dict[str, Any]:
    doc: dict[str, Any] = {"key_id": wrapped.key_id, "nonce": wrapped.nonce.hex(), "sealed": wrapped.sealed.hex()}
    doc["alg"] = wrapped.alg
    if wrapped.kdf is not None:
        doc["kdf"] = dict(wrapped.kdf)
    return doc


def wrapped_of(doc: Any) -> Wrapped:
    try:
        kdf = doc.get("kdf")
        return Wrapped(
            str(doc["key_id"]), bytes.fromhex(doc["nonce"]), bytes.fromhex(doc["sealed"]), str(doc["alg"]), kdf
        )
    except (KeyError, ValueError, TypeError, AttributeError):
        raise DamagedStoreError("the PostgreSQL store's wrapped master key is unreadable") from None


def load_wrapped(text: str) -> list[Wrapped]:
    try:
        docs = json.loads(text)
    except ValueError:
        raise DamagedStoreError("the PostgreSQL store's wrapped master key is unreadable") from None
    if not isinstance(docs, list):
        raise DamagedStoreError("the PostgreSQL store's wrapped master key is unreadable")
    return [wrapped_of(doc) for doc in docs]


class MasterKeys:
    """What the master key does: store names, settings, store data keys, and the Store's token key."""

    def __init__(self, master: bytes, deployment: str) -> None:
        self.deployment = deployment
        self._names = Sealer(derive(master, "names"))
        self._deks = Sealer(derive(master, "store-keys"))
        self._name_tokens = derive(master, "name-tokens")
        self.token_key = derive(master, "token-key")

    def name_token(self, name: str) -> bytes:
        return hmac.new(self._name_tokens, name.encode("utf-8"), hashlib.sha256).digest()

    def seal_setting(self, name: str, value: str) -> str:
        return self._names.seal(value.encode("utf-8"), place("setting", 0, name)).hex()

    def open_setting(self, name: str, value: str) -> str:
        try:
            blob = bytes.fromhex(value)
        except ValueError:
            raise DamagedStoreError(TAMPERED) from None
        return self._names.open(blob, place("setting", 0, name)).decode("utf-8")

    def seal_meta(self, name: str, value: str) -> str:
        """A deployment-wide fact kept in ``sm_meta`` (the per-store key mode): sealed, so SQL can
        neither change nor delete it unseen (a place of its own: no setting's ciphertext fits)."""
        return self._names.seal(value.encode("utf-8"), place("meta", 0, name)).hex()

    def open_meta(self, name: str, value: str | None) -> str:
        if value is None:
            raise DamagedStoreError(TAMPERED)
        try:
            blob = bytes.fromhex(value)
        except ValueError:
            raise DamagedStoreError(TAMPERED) from None
        return self._names.open(blob, place("meta", 0, name)).decode("utf-8")

    def wrap_dek(self, ns: int, public_id: str, dek: bytes) -> bytes:
        """A store's data key (or its seal by the store's own key object) sealed for its row."""
        return self._deks.seal(dek, place("store-key", ns, public_id))

    def unwrap_dek(self, ns: int, public_id: str, blob: bytes) -> bytes:
        return self._deks.open(blob, place("store-key", ns, public_id))


Tail = tuple[int, int, int, bytes]  # a store's newest version: seq, memory, op, link


@dataclass(frozen=True, slots=True)
class VersionSecret:
    """What a version keeps sealed: its path, content hash, size and chain salt."""

    path: str | None
    sha256: bytes | None
    size: int | None
    salt: bytes | None


class StoreKeys:
    """One store's data key: its paths, contents and versions, and its path tokens."""

    def __init__(self, ns: int, dek: bytes) -> None:
        self.ns = ns
        self._sealer = Sealer(derive(dek, "data"))
        self._tokens = derive(dek, "path-tokens")
        self._who = derive(dek, "who-tokens")
        self.checked_tail: tuple[Any, ...] | None = None  # the last (tail_ct, newest row) check_tail passed

    def _one(self, path: str) -> bytes:
        return hmac.new(self._tokens, path.encode("utf-8"), hashlib.sha256).digest()[:TOKEN_BYTES]

    def token(self, path: str) -> bytes:
        """The path's token: its ancestors' 8-byte HMACs and its own, root first (see the module doc)."""
        return b"".join(self._one(p) for p in [*ancestors(path), path])

    def seal_path(self, path: str, tok: bytes, memory: int, facts: bytes) -> bytes:
        """A row's path, bound to the row's token, memory number and ``facts`` (row_facts): the clear
        columns a read trusts (a file's size, lines and expiry) cannot be changed by SQL unseen."""
        return self._sealer.seal(path.encode("utf-8"), place("path", self.ns, tok + struct.pack(">q", memory) + facts))

    def open_path(self, blob: bytes, tok: bytes, memory: int, facts: bytes) -> str:
        where = place("path", self.ns, tok + struct.pack(">q", memory) + facts)
        path = self._sealer.open(blob, where).decode("utf-8")
        if self.token(path) != tok:  # a path sealed for this very row always has this token
            raise DamagedStoreError(TAMPERED)
        return path

    def seal_text(self, field: str, public_id: str, text: str) -> bytes:
        """A store's name or description: under its own key, so a store's deletion shreds them too."""
        return self._sealer.seal(text.encode("utf-8"), place(field, self.ns, public_id))

    def open_text(self, field: str, public_id: str, blob: bytes) -> str:
        return self._sealer.open(blob, place(field, self.ns, public_id)).decode("utf-8")

    def seal_content(self, data: bytes, memory: int, head: int) -> bytes:
        """A file's content, bound to its memory and to ``head``, the memory's newest version when it
        was written (0 with the history off): an older ciphertext of the same file, written back by
        SQL, names an older version than the history's newest, and is refused (pgtx.py)."""
        return self._sealer.seal(data, place("content", self.ns, struct.pack(">qq", memory, head)))

    def open_content(self, blob: bytes, memory: int, head: int) -> bytes:
        return self._sealer.open(blob, place("content", self.ns, struct.pack(">qq", memory, head)))

    def seal_version(self, seq: int, memory: int, op: int, secret: VersionSecret) -> bytes | None:
        if secret.path is None and secret.sha256 is None and secret.size is None and secret.salt is None:
            return None
        doc = {
            "p": secret.path,
            "h": None if secret.sha256 is None else secret.sha256.hex(),
            "s": secret.size,
            "t": None if secret.salt is None else secret.salt.hex(),
        }
        return self._sealer.seal(json.dumps(doc).encode(), _version_place(self.ns, seq, memory, op))

    def open_version(self, seq: int, memory: int, op: int, blob: bytes | None) -> VersionSecret:
        if blob is None:
            return VersionSecret(None, None, None, None)
        return version_secret(self._sealer.open(blob, _version_place(self.ns, seq, memory, op)))

    def seal_who(self, field: str, seq: int, value: str | None) -> str | None:
        """A version's ``session`` or ``actor`` (a session id, an API key id: often a person's name or
        e-mail) as stored: ``<token>.<ciphertext>``, both hex. The token (an HMAC of the value) lets
        the server filter versions by who wrote them without reading who; the ciphertext, bound to
        the version's number, is what a read shows."""
        if value is None:
            return None
        sealed = self._sealer.seal(value.encode("utf-8"), place(f"version-{field}", self.ns, seq))
        return f"{self.who_token(field, value)}.{sealed.hex()}"

    def who_token(self, field: str, value: str) -> str:
        mac = hmac.new(self._who, f"{field}\x00{value}".encode(), hashlib.sha256)
        return mac.hexdigest()[: 2 * WHO_TOKEN_BYTES]

    def open_who(self, field: str, seq: int, stored: str | None) -> str | None:
        if stored is None:
            return None
        token, _, sealed = stored.partition(".")
        try:
            blob = bytes.fromhex(sealed)
        except ValueError:
            raise DamagedStoreError(TAMPERED) from None
        value = self._sealer.open(blob, place(f"version-{field}", self.ns, seq)).decode("utf-8")
        if token != self.who_token(field, value):  # the token a filter matches is the value's own
            raise DamagedStoreError(TAMPERED)
        return value

    def seal_tail(self, tail: Tail) -> bytes:
        """The store's newest version (number, memory, operation, chain link), kept sealed in its
        ``sm_stores`` row: every transaction checks the history against it, so SQL can neither cut
        the newest versions off nor move the newest to another memory or operation unseen."""
        seq, memory, op, link = tail
        return self._sealer.seal(struct.pack(">qqh", seq, memory, op) + link, place("store-tail", self.ns, b""))

    def open_tail(self, blob: bytes | None) -> Tail:
        if blob is None:
            raise DamagedStoreError(TAMPERED)
        found = self._sealer.open(blob, place("store-tail", self.ns, b""))
        seq, memory, op = struct.unpack(">qqh", found[:18])
        return int(seq), int(memory), int(op), found[18:]

    def open_schema1(self, field: str, ident: bytes | int, blob: bytes) -> bytes:
        """A ciphertext sealed by a schema-1 release (its bindings named fewer facts): read once, by
        the upgrade that seals it again (pgupgrade.py), never by a store."""
        return self._sealer.open(blob, place(field, self.ns, ident))

    def seal_version_data(self, seq: int, memory: int, data: bytes) -> bytes:
        return self._sealer.seal(data, place("version-data", self.ns, struct.pack(">qq", seq, memory)))

    def open_version_data(self, seq: int, memory: int, blob: bytes) -> bytes:
        return self._sealer.open(blob, place("version-data", self.ns, struct.pack(">qq", seq, memory)))


def keks_digest(master: str) -> str:
    """What the sealed ``keks`` row of ``sm_meta`` vouches for: the list of the master key's wrapped
    entries as stored, so an entry planted, dropped or edited by SQL is noticed at every open."""
    return hashlib.sha256(master.encode()).hexdigest()


def settings_digest(settings: dict[str, str]) -> str:
    """What the sealed ``settings`` row of ``sm_meta`` vouches for: every ``setting:<name>`` row as
    it is stored (its sealed value), so one put back from a dump, or deleted, is noticed."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


def version_secret(doc: bytes) -> VersionSecret:
    """What a version's ``meta_ct`` holds, once opened."""
    found = json.loads(doc)
    sha, salt = found.get("h"), found.get("t")
    return VersionSecret(
        found.get("p"),
        None if sha is None else bytes.fromhex(sha),
        found.get("s"),
        None if salt is None else bytes.fromhex(salt),
    )


def _version_place(ns: int, seq: int, memory: int, op: int) -> bytes:
    """A version's sealed fields name its number, its memory and its operation: a version moved to
    another memory, or made another operation, by SQL no longer opens."""
    return place("version", ns, struct.pack(">qqB", seq, memory, op))


def row_facts(is_dir: bool, size: int, lines: int, expires: float | None, head: int) -> bytes:
    """The clear columns of an ``sm_entries`` row that its sealed path vouches for. A file's size,
    line count, expiry (so SQL can neither revive an expired file nor misstate its size) and head
    (so a row put back from a dump cannot pass as one written with the history off); a
    directory's expiry is not among them: every write below bumps it by SQL, without reading it,
    and it can only show a directory's name, never a file (README: what the database can change)."""
    if is_dir:
        return b"D"
    stamp = b"-" if expires is None else struct.pack(">d", expires)
    return b"F" + struct.pack(">qqq", size, lines, head) + stamp


def subtree_bounds(tok: bytes) -> tuple[bytes, bytes]:
    """(low, high) of every token strictly below ``tok``: longer tokens that start with it.

    ``high`` is ``tok`` incremented as a big-endian number, so ``low < t < high`` is one range of
    the key the planner can use (no OR). A token of all 0xff bytes has no increment: its bound is
    itself followed by more 0xff bytes than any path has levels (a path is at most 1,024 bytes)."""
    head = tok.rstrip(b"\xff")
    if not head:
        return tok, tok + b"\xff" * (TOKEN_BYTES * 1024 + 1)
    return tok, head[:-1] + bytes([head[-1] + 1])
