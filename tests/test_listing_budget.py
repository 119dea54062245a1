"""A listing reads no more rows than the view cap could show, and hidden names never starve it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.policy import Policy, ViewSettings
from securemem.store.base import Entry
from securemem.store.sqltx import SqlTx
from tests.helpers import write_many


def test_big_directory_listing_is_cut_with_a_note_and_reads_a_bounded_number_of_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = Policy(view=ViewSettings(max_chars=2000))
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy=policy) as mem:
        write_many(mem, [f"/memories/big/f{i:05d}.md" for i in range(5000)])
        read: list[int] = []  # entries each tree() call of the view brings back from the store
        tree = SqlTx.tree

        def counted(self: SqlTx, *args: Any, **kwargs: Any) -> list[Entry]:
            found = tree(self, *args, **kwargs)
            read.append(len(found))
            return found

        monkeypatch.setattr(SqlTx, "tree", counted)
        result = mem.execute({"command": "view", "path": "/memories/big"})
    # A 2,000-character view shows at most 2000 // 15 rows (the shortest row is 15 characters):
    # the store is asked for a few more than that, never for all 5,000.
    assert len(read) == 1 and 2000 // 15 < read[0] <= 2000 // 15 + 3
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
