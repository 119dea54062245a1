"""Promises of the README's PostgreSQL section checked against the code (a review's reproducers).

Each test asserts what the README promises, so each fails on the code it was written against.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import psycopg
import pytest

from securemem import SecureMemory
from securemem.store.factory import open_store
from securemem.store.history import ROW_SHARE
from securemem.store.postgres import PostgresStore
from tests.helpers import ok
from tests.pg import PG, sql, until

# What each store's history total is, summed from its versions (PostgresStore.recount_history's own sum).
_HISTORY = (
    "SELECT s.id, s.history_bytes, (SELECT coalesce(sum(v.hbytes + CASE WHEN v.op = 4 THEN 0 ELSE %s END), 0) "
    "FROM sm_versions v WHERE v.seq BETWEEN s.id << 40 AND ((s.id + 1) << 40) - 1) FROM sm_stores s"
)


def _lock_waits(conn: psycopg.Connection[Any]) -> int:
    """Backends of this database waiting for a lock: a row's, a transaction's, or a store's write lock."""
    row = conn.execute(
        "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database OR l.database IS NULL "
        "WHERE NOT l.granted AND l.locktype IN ('transactionid', 'tuple', 'advisory') "
        "AND d.datname = current_database()"
    ).fetchone()
    return int(row[0]) if row else 0


def test_a_history_recount_racing_a_writer_loses_the_writers_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """LOW-MEDIUM (a quota's total drifts for good; "quotas ... hold across hosts exactly as in one
    file"). ``PostgresStore.recount_history`` (run when a store adopts a policy with
    ``max_total_bytes``, memory.store_policy) rebuilds ``sm_stores.history_bytes`` with one
    ``UPDATE ... SET history_bytes = (SELECT sum(...) FROM sm_versions ...)`` and takes no store's
    write lock, where the SQLCipher store runs it in a write transaction that excludes every writer.
    A writer of the store that has recorded a version (and moved ``history_bytes`` by it) but not
    yet committed holds the store's row: the recount's UPDATE waits for it, then, under READ
    COMMITTED, writes a sum taken from its statement's snapshot, which lacks the writer's version.
    The writer's bytes are lost from the total that every quota check reads from then on (later
    writes move it by their own share only): the store holds more than ``max_total_bytes`` allows.
    Here an agent's ``create`` commits while an operator's recount waits on its row."""
    url, key = PG.fresh_url(), os.urandom(32)
    with SecureMemory.open(url, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="alpha\n")
    agent = SecureMemory.open(url, key=key)
    operator = open_store(url, key, create=False)
    assert isinstance(agent.store, PostgresStore) and isinstance(operator, PostgresStore)
    store = agent.store
    real_commit = store._commit
    at_commit, go_on = threading.Event(), threading.Event()

    def commit_later(db: Any) -> None:  # the agent's transaction, written, just before its COMMIT
        at_commit.set()
        go_on.wait(30)
        real_commit(db)

    monkeypatch.setattr(store, "_commit", commit_later)
    outcome: dict[str, Any] = {}
    write = threading.Thread(target=lambda: outcome.update(
        create=agent.execute({"command": "create", "path": "/memories/b.md", "file_text": "b" * 5000 + "\n"})
    ))  # fmt: skip
    recount = threading.Thread(target=operator.recount_history)
    try:
        write.start()
        assert at_commit.wait(30), "the agent's write never reached its commit"
        recount.start()
        with sql(url) as conn:
            until(lambda: _lock_waits(conn) >= 1, "the recount waits for the agent (its row, or its store's lock)")
        go_on.set()
        write.join(60)
        recount.join(60)
    finally:
        go_on.set()
        agent.close()
        operator.close()
    assert not outcome["create"].is_error, outcome["create"].content
    with sql(url) as conn:
        for ns, kept, summed in conn.execute(_HISTORY, (ROW_SHARE,)).fetchall():
            assert int(kept) == int(summed), f"store {ns}: the history total says {kept}, its versions hold {summed}"
