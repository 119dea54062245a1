"""Attacks on ``securemem keys rotate-dek --db postgresql://...`` (pgrotate.py, PostgresStore.rotate_data_keys).

Each test asserts the behaviour a rotation promises (agents open across it go on; nothing of a
store is lost or left under the old key), so each fails on the code it was written against.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from securemem import Admin, SecureMemory
from securemem.store import pgrotate, pgversions
from securemem.store.factory import open_store
from securemem.store.postgres import PostgresStore
from tests.helpers import ok
from tests.pg import PG, hold_store_lock, lock_waiters, queued, sql, until


def _rotate(url: str, key: bytes, into: dict[str, Any]) -> None:
    store = open_store(url, key, create=False)
    assert isinstance(store, PostgresStore)
    try:
        into["rotated"] = store.rotate_data_keys()
    except Exception as exc:  # reported to the test, which checks it
        into["rotation error"] = exc
    finally:
        store.close()


def test_a_mounted_store_named_while_a_rotation_holds_it_is_refused_as_damaged() -> None:
    """MEDIUM (a false "damaged" error for a session open across a rotation). ``PgTx.sibling`` takes
    the sibling store's keys (``keys_of``) *before* it waits for that store's lock; the re-check after
    the wait compares only the store's number. When a rotation of the sibling holds the lock, the
    sibling's keys are the old data key while its rows, and its sealed tail, are under the new one:
    the sibling's version log checks the tail with the old key and the command fails with "fails its
    authentication check" (DamagedStoreError), though nothing was tampered with. Here: a session
    mounting two stores renames a file from one into the other while the rotation holds the source."""
    url, key = PG.fresh_url(), os.urandom(32)
    with Admin.open(url, key=key) as admin:
        source = admin.memory_stores.create(name="source")
        target = admin.memory_stores.create(name="target")
        admin.memories.write(source.id, path="/a.md", content="alpha\n")
        admin.memories.write(target.id, path="/t.md", content="tango\n")
    attach = [{"memory_store_id": source.id}, {"memory_store_id": target.id}]
    session = SecureMemory.open(url, key=key, stores=attach)
    try:
        ok(session, command="view", path="/memories/source/a.md")  # the handle holds both stores' keys
        results: dict[str, Any] = {}
        with sql(url) as conn, sql(url) as holder:
            (ns,) = conn.execute("SELECT id FROM sm_stores WHERE public_id = %s", (source.id,)).fetchone()  # type: ignore[misc]
            hold_store_lock(holder, ns)  # a writer of the source store, finishing

            def rename() -> None:
                results["rename"] = session.execute(
                    {"command": "rename", "old_path": "/memories/source/a.md", "new_path": "/memories/target/a.md"}
                )

            queued(conn, holder, ns, (lambda: _rotate(url, key, results), "the rotation waits for the source's lock"),
                   (rename, "the session's rename waits behind the rotation"))  # fmt: skip
        assert "rotation error" not in results, results.get("rotation error")
        outcome = results["rename"]
        assert not outcome.is_error, f"a rename across a rotation was refused: {outcome.content}"
        assert "alpha" in ok(session, command="view", path="/memories/target/a.md")
    finally:
        session.close()


def test_a_store_renamed_during_a_rotation_is_damaged_under_its_new_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """HIGH (a store unreachable by its name; its rename and description silently lost). The Admin
    API's ``memory_stores.update`` (PostgresStore.update_store) locks the store's row (FOR UPDATE) but
    not the store's advisory lock, which is all a rotation takes. ``rotate_store_key`` reads
    ``name_ct``/``desc_ct`` with a plain SELECT and later writes them back, re-sealed, with its own
    UPDATE. A rename that commits in between (or that holds the row when the rotation reads it) is
    overwritten: the row keeps the new name's token (``name_tok``, which the rotation does not
    write) with the *old* name sealed in ``name_ct``. Every open by the new name then fails with
    "fails its authentication check" (DamagedStoreError, _check_name), the old name no longer
    finds the store (an agent opening it gets a new, empty store), and the Admin API shows the old
    name and description. The hook below only pins the interleaving: the rename runs, on another
    handle, while the rotation holds the store (it must wait for it, then apply on the new key)."""
    url, key = PG.fresh_url(), os.urandom(32)
    with Admin.open(url, key=key) as admin:
        store = admin.memory_stores.create(name="before", description="old words")
        admin.memories.write(store.id, path="/a.md", content="alpha\n")
    real = pgversions.tail_of
    done: list[str] = []
    renames: list[threading.Thread] = []

    def rename() -> None:
        with Admin.open(url, key=key) as other:
            other.memory_stores.update(store.id, name="after", description="new words")
        done.append("renamed")

    def renamed_meanwhile(ns: int, row: Sequence[Any] | None) -> Any:
        if not renames:  # the rename starts while the rotation holds the store; it waits for the lock
            renames.append(threading.Thread(target=rename))
            renames[0].start()
            with sql(url) as conn:
                until(lambda: lock_waiters(conn, ns) == 1, "the rename waits for the rotation's lock")
        return real(ns, row)

    monkeypatch.setattr(pgrotate, "tail_of", renamed_meanwhile)
    results: dict[str, Any] = {}
    _rotate(url, key, results)
    monkeypatch.setattr(pgrotate, "tail_of", real)
    renames[0].join(60)
    assert done and results.get("rotated") == 1, results
    with Admin.open(url, key=key) as admin:
        shown = admin.memory_stores.retrieve(store.id)
        assert (shown.name, shown.description) == ("after", "new words"), "the rename was undone by the rotation"
    with SecureMemory.open(url, key=key, namespace="after") as agent:
        assert "alpha" in ok(agent, command="view", path="/memories/a.md")
