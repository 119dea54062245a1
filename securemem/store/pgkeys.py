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
from typing import Any

from securemem.errors import DamagedStoreError, KekError, WrongKekError, WrongKeyError
from securemem.keys import KeyProvider
from securemem.keys.kek import KekProvider
from securemem.store import pgschema
from securemem.store.pgschema import MIGRATION_LOCK, Db
from securemem.store.pgseal import (
    TAMPERED,
    HeldKek,
    MasterKeys,
    dump_wrapped,
    load_wrapped,
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
            wrapped = _kek_of(key, kek, salt).wrap(master, deployment)
            meta = {"deployment": deployment, "salt": salt.hex(), "master": dump_wrapped([wrapped])}
            mode = "own" if _is_pkcs11(kek) else "master"
            meta["store_keys"] = MasterKeys(master, deployment).seal_meta("store_keys", mode)
            for name, value in meta.items():
                db.run("INSERT INTO sm_meta (key, value) VALUES (%s, %s)", (name, value))
        db.run("COMMIT")
    except BaseException:
        db.run("ROLLBACK")
        raise
    return meta


_META_KEYS = "('deployment', 'salt', 'master', 'store_keys')"


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
