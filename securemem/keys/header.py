"""The key header ``DB.keys``: the store's data key (DEK), wrapped by each of its KEKs.

It is a small JSON file beside the store, 0600, replaced in one atomic step. What it holds:
the store id and the store file's salt (the first 16 bytes of ``DB``, in clear there too), and
one entry per KEK (key id, provider URI, when it was added, the sealed DEK). No KEK and no DEK
is in it: a DEK only sealed (AES-256-GCM, the store id and key id as associated data), and a MAC
under a key derived from the DEK.

Three checks, each with its own message:
- ``check``, a SHA-256 of everything else, and the file's bytes must be exactly the canonical
  form: any flipped byte is "damaged" before any KEK is asked (an HSM, a passphrase prompt);
- the salt must be the store file's: another store's header "belongs to another store";
- ``mac`` (HMAC-SHA256 under HKDF(DEK)): whoever edits a header on purpose and fixes up
  ``check`` still cannot forge it without the DEK. The store id is checked again once the store
  is open (SQLCipher's own meta row).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from securemem.errors import KeyHeaderError
from securemem.keys.kek import Wrapped, note_kek_source
from securemem.private_files import write_private_atomic

FORMAT = "securemem-keys"
VERSION = 1
MAX_BYTES = 1 << 20
_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_SHA = re.compile(r"[0-9a-f]{64}")


def keys_path(db: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(db)}.keys")


def utc_stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass(frozen=True)
class Entry:
    provider: str
    added_at: str
    wrapped: Wrapped

    @property
    def key_id(self) -> str:
        return self.wrapped.key_id


@dataclass(frozen=True)
class Pending:
    """A data key rotation under way: the new DEK wrapped by every KEK, and the salt it goes with."""

    db_salt: bytes
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Header:
    store_id: str
    db_salt: bytes
    entries: tuple[Entry, ...]
    mac: str = ""
    pending: Pending | None = None
    pending_mac: str = ""  # the same body's MAC under the pending DEK

    def entry(self, key_id: str) -> Entry | None:
        return next((e for e in self.entries if e.key_id == key_id), None)

    def signed(self, dek: bytes, pending_dek: bytes | None = None) -> Header:
        unsigned = replace(self, mac="", pending_mac="")
        pending_mac = _mac(pending_dek, unsigned) if pending_dek is not None and self.pending is not None else ""
        return replace(unsigned, mac=_mac(dek, unsigned), pending_mac=pending_mac)

    def mac_ok(self, dek: bytes, *, pending: bool = False) -> bool:
        expected = self.pending_mac if pending else self.mac
        return bool(expected) and hmac.compare_digest(expected, _mac(dek, replace(self, mac="", pending_mac="")))


def _mac(dek: bytes, header: Header) -> str:
    mac_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"securemem key header mac v1").derive(dek)
    return hmac.new(mac_key, _canonical(_body(header)), hashlib.sha256).hexdigest()


def _canonical(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=True).encode("ascii")


def _body(header: Header) -> dict[str, Any]:
    body: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "store_id": header.store_id,
        "db_salt": header.db_salt.hex(),
        "entries": [_entry_doc(e) for e in header.entries],
    }
    if header.pending is not None:
        body["pending"] = {
            "db_salt": header.pending.db_salt.hex(),
            "entries": [_entry_doc(e) for e in header.pending.entries],
        }
    return body


def _entry_doc(entry: Entry) -> dict[str, Any]:
    w = entry.wrapped
    doc: dict[str, Any] = {
        "key_id": w.key_id,
        "provider": entry.provider,
        "added_at": entry.added_at,
        "alg": w.alg,
        "nonce": w.nonce.hex(),
        "sealed": w.sealed.hex(),
    }
    if w.kdf is not None:
        doc["kdf"] = dict(w.kdf)
    return doc


def serialize(header: Header) -> bytes:
    doc = {**_body(header), "mac": header.mac}
    if header.pending is not None:
        doc["pending_mac"] = header.pending_mac
    return _canonical({**doc, "check": hashlib.sha256(_canonical(doc)).hexdigest()}) + b"\n"


def write_header(db: str | os.PathLike[str], header: Header, *, new: bool = False) -> None:
    """Replace ``DB.keys`` atomically (``new``: only if there is none yet)."""
    try:
        write_private_atomic(keys_path(db), serialize(header), replace=not new)
    except FileExistsError:
        raise KeyHeaderError(f"the key header {keys_path(db)} exists already; refusing to replace it") from None
    except OSError as exc:
        raise KeyHeaderError(f"cannot write the key header {keys_path(db)}: {exc.strerror}") from None


def read_header(db: str | os.PathLike[str]) -> Header:
    """The key header of ``db``, checked for damage (the MAC is checked once the DEK is known)."""
    path = keys_path(db)
    try:
        with path.open("rb") as handle:
            shared = os.fstat(handle.fileno()).st_mode & 0o077
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        if not os.path.lexists(db):
            raise KeyHeaderError(
                f"no securemem store at {os.fspath(db)}; create one with: securemem init --db {os.fspath(db)} --kek URI"
            ) from None
        raise KeyHeaderError(
            f"{os.fspath(db)} has no key header {path}: a store made with a key, not a KEK (open it with "
            "its key, or move it to KEKs with: securemem keys adopt)"
        ) from None
    except OSError as exc:
        raise KeyHeaderError(f"cannot read the key header {path}: {exc.strerror}") from None
    if shared:
        # keys.md: DB.keys is 0600. One that others may write lets them make the store fail to open;
        # refused as the other key files are.
        raise KeyHeaderError(f"the key header {path} is accessible by other users; run: chmod 600 {path}")
    return parse_header(data, f"the key header {path}")


def parse_header(data: bytes, what: str, advice: str = "; restore it from a backup") -> Header:
    """A key header from its bytes (DB.keys, or the one inside a backup), checked for damage."""
    try:
        return _parse(data)
    except (ValueError, KeyError, TypeError):
        raise KeyHeaderError(f"{what} is damaged{advice}") from None


def _parse(data: bytes) -> Header:
    doc = json.loads(data.decode("ascii"))
    if not isinstance(doc, dict) or serialize_doc(doc) != data:
        raise ValueError("not canonical")
    check = doc.pop("check")
    if not isinstance(check, str) or not hmac.compare_digest(check, hashlib.sha256(_canonical(doc)).hexdigest()):
        raise ValueError("check")
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise ValueError("format")
    entries = _parse_entries(doc["entries"])
    mac = _text(doc, "mac")
    pending, pending_mac = None, ""
    if "pending" in doc:
        pending = Pending(_hex(doc["pending"], "db_salt"), _parse_entries(doc["pending"]["entries"]))
        pending_mac = _text(doc, "pending_mac")
        if not _SHA.fullmatch(pending_mac):
            raise ValueError("pending_mac")
    if not _SHA.fullmatch(mac):
        raise ValueError("mac")
    return Header(_text(doc, "store_id"), _hex(doc, "db_salt"), entries, mac, pending, pending_mac)


def _parse_entries(docs: Any) -> tuple[Entry, ...]:
    if not isinstance(docs, list):
        raise TypeError("entries")
    entries = tuple(_parse_entry(e) for e in docs)
    if not entries or len({e.key_id for e in entries}) != len(entries):
        raise ValueError("entries")
    return entries


def serialize_doc(doc: dict[str, Any]) -> bytes:
    return _canonical(doc) + b"\n"


def _parse_entry(doc: Any) -> Entry:
    if not isinstance(doc, dict):
        raise TypeError("entry")
    kdf = doc.get("kdf")
    if kdf is not None and not isinstance(kdf, dict):
        raise TypeError("kdf")
    wrapped = Wrapped(_text(doc, "key_id"), _hex(doc, "nonce"), _hex(doc, "sealed"), _text(doc, "alg"), kdf)
    provider = _text(doc, "provider")
    note_kek_source(provider)  # a command: helper run later never gets that variable
    return Entry(provider, _text(doc, "added_at"), wrapped)


def _text(doc: dict[str, Any], name: str) -> str:
    value = doc[name]
    if not isinstance(value, str):
        raise TypeError(name)
    return value


def _hex(doc: dict[str, Any], name: str) -> bytes:
    value = _text(doc, name)
    if not _HEX.fullmatch(value):
        raise ValueError(name)
    return bytes.fromhex(value)
