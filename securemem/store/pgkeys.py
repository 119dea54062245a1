"""The PostgreSQL store's keys: the master key unwrapped at open, and each store's own key object.

See pgseal.py for what each key seals. ``unlock`` checks the schema version and unwraps the
master key with the KEK (``kek=``) or the 32 bytes of a ``key=`` provider; the first open of a
migrated database makes the master key (DML only, under the migration lock, once). ``OwnKeys``:
with a PKCS#11 KEK each store's data key is also wrapped by a key object of its own on the token,
destroyed when the store is deleted (crypto-shredding that reaches old dumps and replicas).
No driver is imported here: ``Db`` is the connection the backend module gives.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from typing import Any

from securemem.errors import DamagedStoreError, KekError, RefusedError, StorageError, WrongKekError, WrongKeyError
from securemem.keys import KeyProvider
from securemem.keys.header import utc_stamp
from securemem.keys.kek import KekProvider, passphrase_twins, wraps_already
from securemem.store import pgschema
from securemem.store.pgschema import MIGRATION_LOCK, Db
from securemem.store.pgseal import (
    TAMPERED,
    HeldKek,
    MasterKeys,
    keks_digest,
    load_wrapped,
    settings_digest,
    wrapped_doc,
    wrapped_of,
)


def unlock(
    db: Db, key: KeyProvider | None, kek: KekProvider | None, *, check: bool = True
) -> tuple[MasterKeys, OwnKeys | None]:
    """Check the schema (unless a migration, mid-way, asks), and unwrap the master key (made by
    the first open of a migrated database)."""
    if check:
        pgschema.check_version(db)
    meta = dict(db.all(f"SELECT key, value FROM sm_meta WHERE key IN {_META_KEYS}"))
    if "master" not in meta:  # the first open of a migrated database (DML only: no DDL)
        meta = _initialise(db, key, kek)
    deployment, salt = str(meta["deployment"]), bytes.fromhex(str(meta["salt"]))
    provider = _kek_of(key, kek, salt)
    for wrapped in load_wrapped(str(meta["master"])):
        master = provider.unwrap(wrapped, deployment)
        if master is not None:
            keys = MasterKeys(master, deployment)
            if check:  # an upgrade from schema 1 writes the seal of the entries (postgres._resealer)
                _check_keks(keys, meta)
            return keys, _own_keys(keys.open_meta("store_keys", meta.get("store_keys")), kek, deployment)
    if kek is not None:
        raise WrongKekError(f"the KEK {provider.source} does not open this PostgreSQL store")
    raise WrongKeyError("the key does not open this PostgreSQL store")


def _kek_of(key: KeyProvider | None, kek: KekProvider | None, salt: bytes) -> KekProvider:
    if kek is not None:
        return kek
    assert key is not None
    return HeldKek(key.source, key.store_key(salt))


def _initialise(db: Db, key: KeyProvider | None, kek: KekProvider | None) -> dict[str, Any]:
    """The deployment's id, salt and master key (wrapped by the KEK): once, under the migration lock."""
    db.run("BEGIN")
    try:
        db.run("SELECT pg_advisory_xact_lock(%s, %s)", MIGRATION_LOCK)
        meta = dict(db.all(f"SELECT key, value FROM sm_meta WHERE key IN {_META_KEYS}"))
        if "master" not in meta:
            deployment, salt = "memstore_" + secrets.token_hex(12), os.urandom(16)
            master = os.urandom(32)
            provider = _kek_of(key, kek, salt)
            wrapped = {**wrapped_doc(provider.wrap(master, deployment)), "provider": provider.source,
                       "added_at": utc_stamp()}  # fmt: skip
            meta = {"deployment": deployment, "salt": salt.hex(), "master": json.dumps([wrapped], sort_keys=True)}
            meta["keks"] = seal_keks(MasterKeys(master, deployment), meta["master"])
            mode = "own" if _is_pkcs11(kek) else "master"
            meta["store_keys"] = MasterKeys(master, deployment).seal_meta("store_keys", mode)
            meta["settings"] = MasterKeys(master, deployment).seal_meta("settings", settings_digest({}))
            for name, value in meta.items():
                db.run("INSERT INTO sm_meta (key, value) VALUES (%s, %s)", (name, value))
        db.run("COMMIT")
    except BaseException:
        db.run("ROLLBACK")
        raise
    return meta


_META_KEYS = "('deployment', 'salt', 'master', 'store_keys', 'keks')"


def _check_keks(keys: MasterKeys, meta: dict[str, Any]) -> None:
    """The list of wrapped entries is the one the master key sealed: none planted or dropped by SQL."""
    if keys.open_meta("keks", meta.get("keks")) != keks_digest(str(meta["master"])):
        raise DamagedStoreError(TAMPERED)


def seal_keks(keys: MasterKeys, master: str) -> str:
    """The ``keks`` row for the list of wrapped entries ``master`` (as stored)."""
    return keys.seal_meta("keks", keks_digest(master))


def _is_pkcs11(kek: KekProvider | None) -> bool:
    if kek is None or not str(getattr(kek, "source", "")).startswith("pkcs11:"):
        return False
    from securemem.keys.pkcs11 import Pkcs11Kek

    return isinstance(kek, Pkcs11Kek)


def _own_keys(mode: object, kek: KekProvider | None, deployment: str) -> OwnKeys | None:
    if mode != "own":
        return None
    if not _is_pkcs11(kek):
        raise WrongKekError(
            "this PostgreSQL store keeps each store's key on its PKCS#11 token: open it with its pkcs11: KEK"
        )
    return OwnKeys(kek, deployment)


class OwnKeys:
    """One key object per store on the PKCS#11 token (``<object>.<store id>``) wraps the store's data
    key, so deleting the store destroys its key on the token: erasure that reaches every dump,
    replica and backup made before, where the rows survive but their key does not."""

    def __init__(self, kek: Any, deployment: str) -> None:
        self._kek = kek
        self._deployment = deployment

    def _object(self, public_id: str) -> Any:
        return self._kek.for_object(f"{self._kek.object}.{public_id}")

    def create(self, public_id: str, dek: bytes) -> bytes:
        own = self._object(public_id)
        own.create_key()
        return json.dumps(wrapped_doc(own.wrap(dek, f"{self._deployment}/{public_id}"))).encode()

    def rewrap(self, public_id: str, dek: bytes) -> bytes:
        """A new data key of the store sealed by the store's existing key object (a data key rotation)."""
        return json.dumps(wrapped_doc(self._object(public_id).wrap(dek, f"{self._deployment}/{public_id}"))).encode()

    def unwrap(self, public_id: str, sealed: bytes) -> bytes:
        try:
            dek = self._object(public_id).unwrap(wrapped_of(json.loads(sealed)), f"{self._deployment}/{public_id}")
        except KekError:
            raise WrongKeyError(
                "the store's own key is not on the PKCS#11 token (the store was deleted): nothing of it decrypts"
            ) from None
        except ValueError:
            raise DamagedStoreError(TAMPERED) from None
        if dek is None:
            raise DamagedStoreError(TAMPERED)
        return bytes(dek)

    def destroy(self, public_id: str) -> None:
        self._object(public_id).destroy_key()


# -- KEK custody: the KEKs that wrap the master key (``securemem keys`` on a PostgreSQL URL) --------


@dataclass(frozen=True)
class KekEntry:
    """One KEK that wraps the deployment's master key, as ``securemem keys list`` shows it."""

    key_id: str
    provider: str
    added_at: str


@dataclass(frozen=True)
class KekChange:
    """What a key change did: the entry added and the entry removed (either may be None)."""

    added: KekEntry | None
    removed: KekEntry | None
    opened_with: str  # the key id of the KEK (or key) that opened the master key
    deployment: str


_UNRECORDED = "(not recorded: added before securemem recorded providers)"


def _entry(doc: dict[str, Any]) -> KekEntry:
    return KekEntry(str(doc.get("key_id")), str(doc.get("provider", _UNRECORDED)), str(doc.get("added_at", "")))


def kek_entries(db: Db, opener: KeyProvider | KekProvider | None) -> tuple[list[KekEntry], bool]:
    """The KEKs of the deployment, and whether ``opener`` authenticated the list (it opened the master key)."""
    pgschema.check_version(db)
    meta = dict(db.all(f"SELECT key, value FROM sm_meta WHERE key IN {_META_KEYS}"))
    if "master" not in meta:
        raise StorageError("this PostgreSQL deployment has no master key yet: its first open makes it")
    docs = _docs(str(meta["master"]))
    if opener is None:
        return [_entry(doc) for doc in docs], False
    master, _ = _opened(docs, opener, meta)
    _check_keks(MasterKeys(master, str(meta["deployment"])), meta)
    return [_entry(doc) for doc in docs], True


def change_keks(
    db: Db,
    opener: KeyProvider | KekProvider,
    *,
    add: KekProvider | None = None,
    remove: str | None = None,
    drop_opener: bool = False,
) -> KekChange:
    """Wrap the master key with ``add`` too, and/or drop the entry ``remove`` (or the opener's own).

    The caller holds a transaction; the migration lock is taken here, so two key changes (or a
    change and a first open) run one at a time. Refused (RefusedError) when no KEK would be left,
    when ``add`` wraps the key already, and for a deployment whose stores keep their keys on its
    PKCS#11 token (those key objects belong to that KEK)."""
    db.run("SELECT pg_advisory_xact_lock(%s, %s)", MIGRATION_LOCK)
    pgschema.check_version(db)
    meta = dict(db.all(f"SELECT key, value FROM sm_meta WHERE key IN {_META_KEYS}"))
    if "master" not in meta:
        raise StorageError("this PostgreSQL deployment has no master key yet: its first open makes it")
    docs = _docs(str(meta["master"]))
    master, used = _opened(docs, opener, meta)
    deployment = str(meta["deployment"])
    keys = MasterKeys(master, deployment)
    _check_keks(keys, meta)
    if keys.open_meta("store_keys", meta.get("store_keys")) == "own":
        raise RefusedError(
            "this PostgreSQL deployment keeps each store's key on its PKCS#11 token, under that KEK's object: "
            "its KEKs cannot be changed (securemem export each store, and import it into a new deployment)"
        )
    added = removed = None
    if add is not None:
        twin = wraps_already(add, (wrapped_of(doc) for doc in docs), deployment)
        if twin is not None:
            raise RefusedError(f"the KEK {add.source} (key id {twin}) already wraps the master key")
        wrapped = add.wrap(master, deployment)
        if any(doc.get("key_id") == wrapped.key_id for doc in docs):
            raise RefusedError(f"the KEK {add.source} (key id {wrapped.key_id}) already wraps the master key")
        doc = {**wrapped_doc(wrapped), "provider": add.source, "added_at": utc_stamp()}
        docs.append(doc)
        added = _entry(doc)
    gone = used if drop_opener else remove
    if gone is not None:
        found = next((doc for doc in docs if doc.get("key_id") == gone), None)
        if found is None:
            raise RefusedError(f"no KEK with key id {gone} wraps the master key (see: securemem keys list)")
        docs.remove(found)
        if drop_opener and isinstance(opener, KekProvider):  # a passphrase added twice by an earlier release
            twins = set(passphrase_twins(opener, (wrapped_of(doc) for doc in docs), deployment))
            docs = [doc for doc in docs if doc.get("key_id") not in twins]
        if not docs:
            raise RefusedError(f"{gone} is the last KEK of the deployment: without it nothing opens it; add one first")
        removed = _entry(found)
    listed = json.dumps(docs, sort_keys=True)
    db.run("UPDATE sm_meta SET value = %s WHERE key = 'master'", (listed,))
    db.run("UPDATE sm_meta SET value = %s WHERE key = 'keks'", (seal_keks(keys, listed),))
    return KekChange(added, removed, used, deployment)


def _docs(text: str) -> list[dict[str, Any]]:
    load_wrapped(text)  # the same checks an open makes
    docs = json.loads(text)
    return [dict(doc) for doc in docs]


def _opened(docs: list[dict[str, Any]], opener: KeyProvider | KekProvider, meta: dict[str, Any]) -> tuple[bytes, str]:
    """The master key and the key id of the entry ``opener`` opened."""
    deployment, salt = str(meta["deployment"]), bytes.fromhex(str(meta["salt"]))
    provider = opener if isinstance(opener, KekProvider) else _kek_of(opener, None, salt)
    for doc in docs:
        master = provider.unwrap(wrapped_of(doc), deployment)
        if master is not None:
            return master, str(doc.get("key_id"))
    if isinstance(opener, KekProvider):
        raise WrongKekError(f"the KEK {provider.source} does not open this PostgreSQL store")
    raise WrongKeyError("the key does not open this PostgreSQL store")
