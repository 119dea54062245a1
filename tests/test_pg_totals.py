"""A PostgreSQL store's totals (``sm_stores``: files, dirs, bytes, pbytes) are its rows' own.

Every write moves them in the statement that changes the rows (pgtx._counted), so a quota check
reads one row instead of summing the store's. A random run of every command, expiry and sweeps
included, is checked against the sum of the rows after each step; so is an upgrade from schema 1.
Every test uses the real server of tests/pg.py (it skips with one line where none answers).
"""

from __future__ import annotations

import random

import pytest

from securemem import SecureMemory
from securemem.policy import TTLSettings, load_policy
from securemem.sweep import sweep
from tests.pg import totals_match


def _command(rng: random.Random, files: list[str], dirs: list[str]) -> dict[str, object]:
    kind = rng.choice(["create", "create", "str_replace", "insert", "delete", "rename", "view"])
    if kind == "create" or not files:
        where = rng.choice(["/memories", *dirs, "/memories/d" + str(rng.randrange(4))])
        return {
            "command": "create",
            "path": f"{where}/f{rng.randrange(10**6)}.md",
            "file_text": "x" * rng.randrange(1, 300) + "\nend\n",
        }
    path = rng.choice(files)
    if kind == "str_replace":
        return {"command": "str_replace", "path": path, "old_str": "end", "new_str": "end" + "y" * rng.randrange(1, 90)}
    if kind == "insert":
        return {"command": "insert", "path": path, "insert_line": 0, "insert_text": "z" * rng.randrange(1, 80) + "\n"}
    if kind == "delete":
        return {"command": "delete", "path": rng.choice([path, *dirs]) if dirs else path}
    if kind == "rename":
        source = rng.choice([path, *dirs]) if dirs else path
        return {"command": "rename", "old_path": source, "new_path": f"/memories/r{rng.randrange(10**6)}/m"}
    return {"command": "view", "path": path}


@pytest.mark.slow
def test_every_command_keeps_the_totals_the_rows_hold(url: str, key: bytes) -> None:
    rng = random.Random(20261201)
    now = [1_900_000_000.0]
    policy = load_policy("default").model_copy(update={"ttl": TTLSettings(expire_after=3600)})
    done: dict[str, int] = {}
    swept = 0
    with SecureMemory.open(url, key=key, clock=lambda: now[0], policy=policy) as memory:
        for step in range(160):
            listing = memory.execute({"command": "view", "path": "/memories"}).text
            entries = [line.split("\t")[1] for line in listing.splitlines()[1:] if "\t" in line]
            files = [p for p in entries if p.endswith(".md")]
            dirs = [p for p in entries if not p.endswith(".md") and p != "/memories"]
            command = _command(rng, files, dirs)
            if not memory.execute(command).is_error:
                kind = str(command["command"])
                target = str(command.get("path", command.get("old_path")))
                kind += "" if target.endswith(".md") or kind in ("create", "insert", "str_replace") else " dir"
                done[kind] = done.get(kind, 0) + 1
            if step % 40 == 39:
                now[0] += 1800 + rng.randrange(3600)  # some expire, some not
                swept += sweep(memory.store, now[0]).deleted
            totals_match(url)
    wanted = ("create", "str_replace", "insert", "delete", "delete dir", "rename", "rename dir")
    assert swept > 0 and not [k for k in wanted if not done.get(k)], (swept, [k for k in wanted if not done.get(k)])
