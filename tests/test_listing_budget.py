"""A listing reads no more rows than the view cap could show, and hidden names never starve it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from securemem import SecureMemory
from securemem.policy import Policy, ViewSettings
from tests.helpers import write_many


def test_big_directory_listing_is_cut_with_a_note_and_reads_a_bounded_number_of_rows(tmp_path: Path) -> None:
    policy = Policy(view=ViewSettings(max_chars=2000))
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy=policy) as mem:
        write_many(mem, [f"/memories/big/f{i:05d}.md" for i in range(5000)])
        seen: list[int] = []
        tree = mem.store.transaction  # count the rows the listing asks the store for
        with tree(mem.namespace, write=False, clock=time.time) as tx:
            seen.append(len(tx.tree("/memories/big", 2, lambda n: False, limit=100)))
        result = mem.execute({"command": "view", "path": "/memories/big"})
    assert seen == [101]
    text = str(result.content)
    assert not result.is_error and len(text) <= 2000 and "Listing truncated" in text
    assert "\t/memories/big/f00000.md" in text and "f04999" not in text


def test_hidden_names_do_not_starve_the_budget(tmp_path: Path) -> None:
    policy = Policy(view=ViewSettings(max_chars=1000))
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy=policy) as mem:
        write_many(
            mem, [f"/memories/d/.hidden{i:04d}" for i in range(3000)] + ["/memories/d/zeta.md", "/memories/d/yak.md"]
        )
        text = str(mem.execute({"command": "view", "path": "/memories/d"}).content)
    assert text.splitlines()[1:] == ["2.9K\t/memories/d", "1B\t/memories/d/yak.md", "1B\t/memories/d/zeta.md"]
