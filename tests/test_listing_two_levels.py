"""A directory's listing reads its two levels in two statements, not one per subdirectory.

``SqlTx.tree(path, 2, ...)`` (what ``view`` of a directory shows) fetches the children, then the
grandchildren of every child directory at once. It must give exactly what the level-by-level
walk gives, for every directory, cap and hidden name, with expired files and directories among
them; and a capped listing still reads no more rows than the cap can show.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.policy import Policy
from securemem.store.base import Entry
from securemem.store.sqltx import own_totals
from tests.helpers import ok, sqlcipher_of

NAMES = ("a", "a-b", "a.b", "b", ".hidden", "node_modules", "z", "a0", "A", "ü")


def _hidden(name: str) -> bool:
    return name.startswith(".") or name == "node_modules"


def _build(memory: SecureMemory, rnd: random.Random, files: int) -> list[str]:
    dirs = {"/memories"}
    for i in range(files):
        depth = rnd.randint(1, 4)
        parts = [rnd.choice(NAMES) for _ in range(depth - 1)]
        path = "/".join(["/memories", *parts, f"{rnd.choice(NAMES)}{i}.md"])
        result = memory.execute({"command": "create", "path": path, "file_text": f"file {i}\n"})
        if not result.is_error:
            dirs.update("/".join(["/memories", *parts[:k]]) for k in range(1, len(parts) + 1))
    return sorted(dirs)


def _listing(memory: SecureMemory, directory: str, limit: int | None, now: float, *, walk: bool) -> list[Entry]:
    store = sqlcipher_of(memory.store)
    with store.transaction(memory.namespace, write=False, clock=lambda: now) as tx:
        if not walk:
            return tx.tree(directory, 2, _hidden, limit)
        expired = [(f"{r[0]}/{r[1]}", own_totals(r)) for r in tx._expired_rows(directory)]
        out: list[Entry] = []
        tx._walk(directory, 2, _hidden, expired, out, cap=None if limit is None else limit + 1)
        return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_statements_list_what_the_walk_lists(tmp_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    now = [1_900_000_000.0]
    policy = Policy.model_validate({"name": "short", "ttl": {"expire_after": 86400, "since": "write"}})
    with SecureMemory.open(tmp_path / "t.db", key=os.urandom(32), policy=policy, clock=lambda: now[0]) as memory:
        dirs = _build(memory, rnd, 160)
        now[0] += 0.5 * 86400
        _build(memory, rnd, 60)  # written later: these outlive the first ones
        ok(memory, command="view", path="/memories")
        for moment in (now[0], now[0] + 0.6 * 86400):  # then the first files have expired
            for directory in dirs:
                for limit in (None, 1, 2, 3, 7, 40):
                    got = _listing(memory, directory, limit, moment, walk=False)
                    assert got == _listing(memory, directory, limit, moment, walk=True), (directory, limit)
