"""A new data key for a PostgreSQL store: every ciphertext and token of it sealed again.

``securemem keys rotate-dek --db postgresql://...`` gives each store of the deployment a fresh
random data key, one store per transaction under the store's write lock (writers wait; readers
see the store before or after, whole). Under the new key: every path token (a path is found by
an HMAC under the store's key), every sealed path and content, every version's sealed fields and
writers' tokens, the store's name and description, and the seal of its newest version. The
master key (or, for a store whose key lives on a PKCS#11 token, its own key object there) wraps
the new key. What was sealed under the old key opens nothing in the live database afterwards;
a dump taken before still opens with the old key, which the KEK still unwraps from that dump
(README: what erasure reaches).
"""

from __future__ import annotations

import os
from typing import Any

from securemem.store.pgkeys import OwnKeys
from securemem.store.pgschema import Db
from securemem.store.pgseal import KEY_BYTES, MasterKeys, StoreKeys, row_facts
from securemem.store.pgversions import TAIL_COLUMNS, seq_range, tail_of

_ENTRY = "tok, is_dir, memory, size, lines, pbytes, created, modified, accessed, expires, path_ct, data_ct, head"


def rotate_store_key(db: Db, master: MasterKeys, *, public_id: str, old: StoreKeys, own: OwnKeys | None) -> StoreKeys:
    """Seal ``old``'s store again under a new data key (its lock held). The store's row keeps the
    new key sealed by the master key, after its own key object on the token (``own``) sealed it,
    where the deployment keeps one per store. Returns the new keys."""
    ns, dek = old.ns, os.urandom(KEY_BYTES)
    new = StoreKeys(ns, dek)
    _entries(db, old, new)
    _versions(db, old, new)
    row = db.one("SELECT name_ct, desc_ct FROM sm_stores WHERE id = %s FOR UPDATE", (ns,))
    assert row is not None  # the caller holds the store's lock and found its row
    name = old.open_text("store-name", public_id, bytes(row[0]))
    description = old.open_text("store-description", public_id, bytes(row[1]))
    lo, hi = seq_range(ns)
    newest = db.one(f"SELECT {TAIL_COLUMNS} FROM sm_versions WHERE seq BETWEEN %s AND %s ORDER BY seq DESC LIMIT 1",
                    (lo, hi))  # fmt: skip
    db.run(
        "UPDATE sm_stores SET name_ct = %s, desc_ct = %s, dek = %s, tail_ct = %s WHERE id = %s",
        (new.seal_text("store-name", public_id, name), new.seal_text("store-description", public_id, description),
         master.wrap_dek(ns, public_id, dek if own is None else own.rewrap(public_id, dek)),
         new.seal_tail(tail_of(ns, newest)), ns),
    )  # fmt: skip
    return new


def _entries(db: Db, old: StoreKeys, new: StoreKeys) -> None:
    rows = db.all(f"SELECT {_ENTRY} FROM sm_entries WHERE ns = %s", (old.ns,))
    moved: list[dict[str, Any]] = []
    for r in rows:
        tok, is_dir, memory, size, lines = bytes(r[0]), bool(r[1]), int(r[2]), int(r[3]), int(r[4])
        expires, head = r[9], int(r[12])
        facts = row_facts(is_dir, size, lines, None if expires is None else float(expires), head)
        path = old.open_path(bytes(r[10]), tok, memory, facts)
        token = new.token(path)
        data = None if r[11] is None else new.seal_content(old.open_content(bytes(r[11]), memory, head), memory, head)
        moved.append({
            "ns": new.ns, "tok": token, "dir": is_dir, "m": memory, "s": size, "l": lines, "b": r[5], "c": r[6],
            "mo": r[7], "a": r[8], "e": expires, "p": new.seal_path(path, token, memory, facts), "d": data, "h": head,
        })  # fmt: skip
    db.run("DELETE FROM sm_entries WHERE ns = %s", (old.ns,))  # the same rows go back in: the totals stand
    db.run_many(
        f"INSERT INTO sm_entries ({_ENTRY}, ns) VALUES (%(tok)s, %(dir)s, %(m)s, %(s)s, %(l)s, %(b)s, %(c)s, %(mo)s, "
        "%(a)s, %(e)s, %(p)s, %(d)s, %(h)s, %(ns)s)",
        moved,
    )


def _versions(db: Db, old: StoreKeys, new: StoreKeys) -> None:
    lo, hi = seq_range(old.ns)
    updates = []
    for r in db.all(
        "SELECT seq, memory, op, meta_ct, data_ct, session, actor FROM sm_versions WHERE seq BETWEEN %s AND %s",
        (lo, hi),
    ):
        seq, memory, op = int(r[0]), int(r[1]), int(r[2])
        secret = old.open_version(seq, memory, op, None if r[3] is None else bytes(r[3]))
        data = None if r[4] is None else old.open_version_data(seq, memory, bytes(r[4]))
        updates.append({
            "seq": seq, "m": new.seal_version(seq, memory, op, secret),
            "d": None if data is None else new.seal_version_data(seq, memory, data),
            "s": new.seal_who("session", seq, old.open_who("session", seq, r[5])),
            "a": new.seal_who("actor", seq, old.open_who("actor", seq, r[6])),
        })  # fmt: skip
    db.run_many(
        "UPDATE sm_versions SET meta_ct = %(m)s, data_ct = %(d)s, session = %(s)s, actor = %(a)s WHERE seq = %(seq)s",
        updates,
    )
