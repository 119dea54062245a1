"""Schema 1 -> 2 of the PostgreSQL store: every row's ciphertexts sealed again under the new bindings.

Schema 2 binds more of each row into its ciphertexts (pgseal.py): a file's path names its size,
lines and expiry; its content names the memory's newest version (``head``); a version's fields
name its memory and operation. A schema-1 ciphertext opens only under its old binding, so the
upgrade (``securemem migrate`` with the key) opens each one that way and seals it again, inside
the migration's one transaction: a failure leaves the database at schema 1, whole.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from securemem.errors import DamagedStoreError
from securemem.store.pgschema import Db
from securemem.store.pgseal import TAMPERED, StoreKeys, Tail, row_facts, version_secret
from securemem.store.pgversions import TAIL_COLUMNS, seq_range, tail_of

# The memory's newest version of its own chain (created, modified, deleted, expired) in the store.
_HEAD = "SELECT max(seq) FROM sm_versions WHERE memory = %s AND seq BETWEEN %s AND %s AND op < 4"


def reseal_schema1(db: Db, keys_of: Callable[[int, str, bytes], StoreKeys]) -> None:
    """Seal again every entry and version of every store (``keys_of(ns, public_id, dek)``: its keys),
    and seal each store's newest version into its row."""
    for ns, public_id, dek in db.all("SELECT id, public_id, dek FROM sm_stores ORDER BY id"):
        keys = keys_of(int(ns), str(public_id), bytes(dek))
        _entries(db, keys)
        _versions(db, keys)
        tail = _newest(db, keys.ns)
        db.run("UPDATE sm_stores SET tail_ct = %s WHERE id = %s", (keys.seal_tail(tail), keys.ns))


def _newest(db: Db, ns: int) -> Tail:
    lo, hi = seq_range(ns)
    row = db.one(
        f"SELECT {TAIL_COLUMNS} FROM sm_versions WHERE seq BETWEEN %s AND %s ORDER BY seq DESC LIMIT 1", (lo, hi)
    )
    return tail_of(ns, row)


def _entries(db: Db, keys: StoreKeys) -> None:
    lo, hi = seq_range(keys.ns)
    rows = db.all(
        "SELECT tok, is_dir, memory, size, lines, expires, path_ct, data_ct FROM sm_entries WHERE ns = %s", (keys.ns,)
    )
    updates = []
    for r in rows:
        tok, is_dir, memory = bytes(r[0]), bool(r[1]), int(r[2])
        path = keys.open_schema1("path", tok + struct.pack(">q", memory), bytes(r[6])).decode("utf-8")
        if keys.token(path) != tok:
            raise DamagedStoreError(TAMPERED)
        expires = None if r[5] is None else float(r[5])
        head, data_ct = 0, None
        if not is_dir:
            if r[7] is None:
                raise DamagedStoreError(TAMPERED)
            data = keys.open_schema1("content", memory, bytes(r[7]))
            found = db.one(_HEAD, (memory, lo, hi))
            head = 0 if found is None or found[0] is None else int(found[0])
            data_ct = keys.seal_content(data, memory, head)
        facts = row_facts(is_dir, int(r[3]), int(r[4]), expires, head)
        updates.append({
            "ns": keys.ns, "tok": tok, "h": head, "d": data_ct, "p": keys.seal_path(path, tok, memory, facts),
        })  # fmt: skip
    db.run_many(
        "UPDATE sm_entries SET path_ct = %(p)s, data_ct = %(d)s, head = %(h)s WHERE ns = %(ns)s AND tok = %(tok)s",
        updates,
    )


def _versions(db: Db, keys: StoreKeys) -> None:
    lo, hi = seq_range(keys.ns)
    updates = []
    for r in db.all("SELECT seq, memory, op, meta_ct, data_ct FROM sm_versions WHERE seq BETWEEN %s AND %s", (lo, hi)):
        seq, memory, op, meta_ct, data_ct = int(r[0]), int(r[1]), int(r[2]), r[3], r[4]
        meta = None
        if meta_ct is not None:
            doc = keys.open_schema1("version", seq, bytes(meta_ct))
            secret = version_secret(doc)
            meta = keys.seal_version(seq, memory, op, secret)
        data = None if data_ct is None else keys.open_schema1("version-data", seq, bytes(data_ct))
        updates.append({
            "seq": seq, "m": meta, "d": None if data is None else keys.seal_version_data(seq, memory, data),
        })  # fmt: skip
    db.run_many("UPDATE sm_versions SET meta_ct = %(m)s, data_ct = %(d)s WHERE seq = %(seq)s", updates)
