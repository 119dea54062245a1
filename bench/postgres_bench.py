"""PostgreSQL against SQLCipher: per-command latency, writers in several processes, and scale.

Run from the repository root, with a PostgreSQL server (``$SECUREMEM_BENCH_POSTGRES``, default
postgresql://postgres@127.0.0.1:5432/test; the bench makes its own database and drops it):

    .venv/bin/python bench/postgres_bench.py            # full sizes (several minutes)
    .venv/bin/python bench/postgres_bench.py --smoke    # tiny sizes (seconds)

1. Per command, regulated policy, full durability (SQLCipher synchronous=FULL; PostgreSQL
   synchronous_commit=on): N ~1 KB notes created, viewed, edited (str_replace, insert), the root
   listed, renamed and deleted, one subject after the other on a fresh store; median latency and
   ops/s, and PostgreSQL's time over SQLCipher's.
2. Aggregate ops/s of 1, 4 and 8 agent processes, each creating and editing its own memories in
   one store: the SQLCipher file takes one writer at a time; PostgreSQL locks per store, so the
   processes still queue on that store's lock, but the round trips and the encryption run in
   parallel. (Writers on different stores do not wait for each other at all: the last table.)
3. Scale: view, str_replace and the listing of one memory's directory in one store, with 100 x
   1,000 and then 1,000 x 1,000 memories in the database (loaded in bulk, sealed as the store
   seals them): flat if the per-command cost does not grow with the database.
4. Store size: the same commands in one store of 1,000 and then of 20,000 memories: flat if no
   command's cost grows with its store.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
from harness import machine, median, note_text, policy_with, ratio, scratch_dir, table

from securemem import SecureMemory
from securemem.keys import as_key_provider
from securemem.paths import ROOT
from securemem.store.base import path_bytes
from securemem.store.pgschema import RECOUNT
from securemem.store.pgseal import row_facts
from securemem.store.postgres import PostgresStore, migrate

SERVER = os.environ.get("SECUREMEM_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
COMMANDS = ("create", "view", "str_replace", "insert", "list root", "rename", "delete")
FORK = multiprocessing.get_context("fork")
TTL = policy_with("regulated").ttl.expire_after or 0.0


class Server:
    """The bench's own database on the server, and a fresh schema per store."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.database = f"securemem_bench_{os.getpid()}"
        with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{self.database}"')
        self.base = server.rsplit("/", 1)[0] + "/" + self.database

    def fresh(self) -> str:
        schema = "b" + secrets.token_hex(4)
        with psycopg.connect(self.base, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        url = f"{self.base}?options=-csearch_path%3D{schema}"
        migrate(url)
        return url

    def drop(self) -> None:
        with psycopg.connect(self.server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')


# -- 1. per command ----------------------------------------------------------------------------------


def _inputs(n: int) -> dict[str, list[dict[str, Any]]]:
    paths = [f"/memories/proj{i % 5}/topic{i % 7}/note{i}.md" for i in range(n)]
    return {
        "create": [{"command": "create", "path": p, "file_text": note_text(i)} for i, p in enumerate(paths)],
        "view": [{"command": "view", "path": p} for p in paths],
        "str_replace": [
            {"command": "str_replace", "path": p, "old_str": "Status: open", "new_str": "Status: done"} for p in paths
        ],
        "insert": [{"command": "insert", "path": p, "insert_line": 1, "insert_text": "Owner: team"} for p in paths],
        "list root": [{"command": "view", "path": ROOT}] * max(5, n // 20),
        "rename": [
            {"command": "rename", "old_path": p, "new_path": p.replace("/topic", "/archive/topic")} for p in paths
        ],
        "delete": [{"command": "delete", "path": p.replace("/topic", "/archive/topic")} for p in paths],
    }


def _per_command(memory: SecureMemory, n: int) -> dict[str, float]:
    """Median milliseconds per command, each phase over the whole workload."""
    out = {}
    for name, inputs in _inputs(n).items():
        times = []
        for tool_input in inputs:
            started = time.perf_counter()
            result = memory.execute(tool_input)
            times.append(time.perf_counter() - started)
            assert not result.is_error, result.text
        out[name] = median(times) * 1000
    return out


def per_command(server: Server, n: int) -> None:
    policy = policy_with("regulated")
    with scratch_dir(None, "pg") as where, SecureMemory.open(where / "s.db", key=os.urandom(32), policy=policy) as m:
        lite = _per_command(m, n)
    with SecureMemory.open(server.fresh(), key=os.urandom(32), policy=policy) as memory:
        pg = _per_command(memory, n)
    rows = [
        (c, lite[c], 1000 / lite[c], pg[c], 1000 / pg[c], ratio(pg[c], lite[c])) for c in COMMANDS
    ]  # fmt: skip
    print(f"\n1. per command, regulated policy, full durability, {n} notes of ~1 KB (median)")
    print(table(["command", "SQLCipher ms", "ops/s", "PostgreSQL ms", "ops/s", "PG / SQLCipher"], rows))


# -- 2. writers in several processes -----------------------------------------------------------------


def _writer(db: str, key: bytes, worker: int, ops: int, namespace: str, out: Any) -> None:
    policy = _writers_policy()
    with SecureMemory.open(db, key=key, policy=policy, namespace=namespace) as memory:
        started = time.perf_counter()
        for i in range(ops // 2):
            path = f"/memories/w{worker}/n{i}.md"
            for tool_input in (
                {"command": "create", "path": path, "file_text": note_text(i, 512)},
                {"command": "str_replace", "path": path, "old_str": "Status: open", "new_str": "Status: done"},
            ):
                result = memory.execute(tool_input)
                assert not result.is_error, result.text
        out.put(time.perf_counter() - started)


def _writers_policy() -> Any:
    return policy_with("regulated", big_quotas=True)


def _prepared(db: str, key: bytes, writers: int) -> str:
    """The store (and each writer's own store) made under the writers' policy, then closed."""
    for namespace in ["default", *(f"agent{n}" for n in range(writers))]:
        SecureMemory.open(db, key=key, policy=_writers_policy(), namespace=namespace).close()
    return db


def _aggregate(db: str, key: bytes, writers: int, ops: int, *, own_stores: bool) -> float:
    """Commands per second of ``writers`` processes together (wall time of the slowest)."""
    queue: Any = FORK.Queue()
    procs = [
        FORK.Process(target=_writer, args=(db, key, n, ops, f"agent{n}" if own_stores else "default", queue))
        for n in range(writers)
    ]
    started = time.perf_counter()
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(600)
        assert proc.exitcode == 0, f"a writer failed (exit {proc.exitcode})"
    wall = time.perf_counter() - started
    return writers * (ops // 2) * 2 / wall


def writers(server: Server, ops: int) -> None:
    rows = []
    for count in (1, 4, 8):
        key = os.urandom(32)
        with scratch_dir(None, "pgw") as where:
            lite = _aggregate(_prepared(str(where / "w.db"), key, count), key, count, ops, own_stores=False)
        pg_one = _aggregate(_prepared(server.fresh(), key, count), key, count, ops, own_stores=False)
        pg_own = _aggregate(_prepared(server.fresh(), key, count), key, count, ops, own_stores=True)
        rows.append((count, lite, pg_one, ratio(pg_one, lite), pg_own, ratio(pg_own, lite)))
    print(f"\n2. aggregate ops/s, writer processes on different memories ({ops} commands each: create, str_replace)")
    print(
        table(
            [
                "processes",
                "SQLCipher (one file)",
                "PG, one store",
                "PG / SQLCipher",
                "PG, a store each",
                "PG / SQLCipher",
            ],
            rows,
        )
    )


# -- 3. scale ----------------------------------------------------------------------------------------


def _load(url: str, key: bytes, stores: int, memories: int) -> None:
    """``stores`` stores of ``memories`` notes each, written straight into the tables with the store's
    own keys and layout (what put_file writes, minus the versions): minutes of commands otherwise."""
    store = PostgresStore.open(url, key=as_key_provider(key))
    try:
        for s in range(stores):
            info = store.create_store(f"agent-{s}", "", time.time())
            assert info is not None
            with psycopg.connect(url, autocommit=True) as conn:
                keys = store.keys_of(_Db(conn), info.key)
                _copy_rows(conn, info.key, keys, memories)
        with psycopg.connect(url, autocommit=True) as conn:
            # The rows went in by COPY: the stores' totals (which every write keeps) summed once here.
            conn.execute(RECOUNT)
            conn.execute("ANALYZE")
    finally:
        store.close()


def _copy_rows(conn: Any, ns: int, keys: Any, memories: int) -> None:
    first = int(conn.execute("SELECT nextval('sm_memory_numbers')").fetchone()[0])
    conn.execute("SELECT setval('sm_memory_numbers', %s)", (first + memories,))
    spread = max(1, memories // 100)
    now = time.time()
    expires = now + TTL  # as the regulated policy stamps a write: no first read rewrites it
    columns = "ns, tok, is_dir, memory, size, lines, pbytes, created, modified, accessed, expires, path_ct, data_ct"
    with conn.cursor() as cur, cur.copy(f"COPY sm_entries ({columns}) FROM STDIN") as copy:
        for path in [ROOT, *(f"{ROOT}/d{d}" for d in range(spread))]:
            tok, when = keys.token(path), None if path == ROOT else expires
            sealed = keys.seal_path(path, tok, 0, row_facts(True, 0, 0, None, 0))
            copy.write_row((ns, tok, True, 0, 0, 0, path_bytes(path), now, now, now, when, sealed, None))
        for m in range(memories):
            path, data, number = f"{ROOT}/d{m % spread}/n{m}.md", note_text(m, 512).encode(), first + m
            tok, lines = keys.token(path), data.count(b"\n")
            facts = row_facts(False, len(data), lines, expires, 0)
            # head 0: written without versions, as a store with the history off writes (pgtx.py)
            sealed_path, sealed_data = keys.seal_path(path, tok, number, facts), keys.seal_content(data, number, 0)
            row = (ns, tok, False, number, len(data), lines, path_bytes(path), now, now, now, expires)
            copy.write_row((*row, sealed_path, sealed_data))


class _Db:
    """What PostgresStore.keys_of needs of a connection (the store's own wrapper is private)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def all(self, sql: str, params: Any = ()) -> Any:
        return self.conn.execute(sql, params or None).fetchall()

    def one(self, sql: str, params: Any = ()) -> Any:
        return self.conn.execute(sql, params or None).fetchone()

    def run(self, sql: str, params: Any = ()) -> int:
        return int(self.conn.execute(sql, params or None).rowcount)

    def run_many(self, sql: str, params: Any) -> None:
        raise NotImplementedError


def _scale_once(url: str, key: bytes, stores: int, memories: int, rounds: int) -> dict[str, float]:
    out: dict[str, list[float]] = {"view": [], "str_replace": [], "list dir": []}
    policy = policy_with("regulated", big_quotas=True)
    spread = max(1, memories // 100)
    with SecureMemory.open(url, key=key, policy=policy, namespace=f"agent-{stores // 2}") as memory:
        for i in range(rounds):
            m = (i * 7919) % memories
            path = f"/memories/d{m % spread}/n{m}.md"
            for name, tool_input in (
                ("view", {"command": "view", "path": path}),
                (
                    "str_replace",
                    {"command": "str_replace", "path": path, "old_str": "Status: ", "new_str": "Status: x"},
                ),
                ("list dir", {"command": "view", "path": f"/memories/d{m % spread}"}),
            ):
                started = time.perf_counter()
                result = memory.execute(tool_input)
                out[name].append((time.perf_counter() - started) * 1000)
                assert not result.is_error, result.text
    return {name: median(times) for name, times in out.items()}


def scale(server: Server, small: int, big: int, memories: int, rounds: int) -> None:
    key = os.urandom(32)
    results = {}
    for stores in (small, big):
        url = server.fresh()
        started = time.perf_counter()
        _load(url, key, stores, memories)
        loaded = time.perf_counter() - started
        results[stores] = (_scale_once(url, key, stores, memories, rounds), loaded)
    print(f"\n3. scale: one store's commands with {small} and {big} stores x {memories:,} memories (median ms)")
    rows = [
        (name, results[small][0][name], results[big][0][name], ratio(results[big][0][name], results[small][0][name]))
        for name in ("view", "str_replace", "list dir")
    ]
    print(table(["command", f"{small:,} x {memories:,}", f"{big:,} x {memories:,}", "ratio"], rows))
    print(f"(bulk load: {results[small][1]:.0f} s and {results[big][1]:.0f} s)")


def store_size(server: Server, small: int, big: int, rounds: int) -> None:
    """One store of ``small`` and then ``big`` memories: a write's quota check reads the store's
    totals from its row (pgtx.usage), so no command's cost grows with the store."""
    key = os.urandom(32)
    results = {}
    for memories in (small, big):
        url = server.fresh()
        _load(url, key, 1, memories)
        results[memories] = _scale_once(url, key, 1, memories, rounds)
    print(f"\n4. store size: one store of {small:,} and of {big:,} memories (median ms)")
    rows = [
        (name, results[small][name], results[big][name], ratio(results[big][name], results[small][name]))
        for name in ("view", "str_replace", "list dir")
    ]
    print(table(["command", f"{small:,}", f"{big:,}", "ratio"], rows))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: checks the bench still runs")
    options = parser.parse_args(argv)
    try:
        server = Server(SERVER)
    except psycopg.Error:
        if os.environ.get("SECUREMEM_REQUIRE_POSTGRES") == "1":
            print("no PostgreSQL server answers at $SECUREMEM_BENCH_POSTGRES", file=sys.stderr)
            return 1
        print("skipped: no PostgreSQL server answers at $SECUREMEM_BENCH_POSTGRES")
        return 0
    # Eight SQLCipher writers keep one file busy: its eraser's "retrying" notes would drown the tables.
    logging.getLogger("securemem.store").setLevel(logging.ERROR)
    print(machine())
    steps: list[Callable[[], None]]
    if options.smoke:
        steps = [
            lambda: per_command(server, 10),
            lambda: writers(server, 6),
            lambda: scale(server, 2, 4, 30, 5),
            lambda: store_size(server, 20, 60, 5),
        ]
    else:
        steps = [
            lambda: per_command(server, 300),
            lambda: writers(server, 200),
            lambda: scale(server, 100, 1000, 1000, 60),
            lambda: store_size(server, 1000, 20000, 60),
        ]
    try:
        for step in steps:
            step()
    finally:
        server.drop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
