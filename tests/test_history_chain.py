"""The hash chain: a key holder's direct edits of version rows are named; redactions are not."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from securemem import Admin
from securemem.store import history
from securemem.store.base import VersionRow


def _history(tmp_path: Path, *, redact: bool = True) -> tuple[int, list[VersionRow]]:
    with Admin.open(tmp_path / "c.db", key=b"c" * 32, api_key_id="ops") as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="one\n")
        admin.memories.update(store.id, memory.id, content="two\n", path="/b.md")
        admin.memories.write(store.id, path="/c.md", content="three\n")
        admin.memories.delete(store.id, memory.id)
        if redact:
            first = admin.memory_versions.list(store.id, operation="created").data[-1]
            admin.memory_versions.redact(store.id, first.id)
        info = admin.store.find_store(store_id=store.id)
        assert info is not None
        return info.key, list(admin.store.chain(info.name))


Edit = Callable[[list[VersionRow]], list[VersionRow]]
EDITS: dict[str, Edit] = {
    "content": lambda rows: [rows[0], replace(rows[1], data=b"tw0\n"), *rows[2:]],
    "path": lambda rows: [rows[0], replace(rows[1], path="/memories/x.md"), *rows[2:]],
    "actor": lambda rows: [replace(rows[0], api_key_id="someone-else"), *rows[1:]],
    "time": lambda rows: [rows[0], replace(rows[1], created=rows[1].created - 60), *rows[2:]],
    "removed": lambda rows: [rows[0], *rows[2:]],
    "reordered": lambda rows: [rows[0], rows[2], rows[1], *rows[3:]],
    "forged redaction": lambda rows: [
        rows[0],
        rows[1],
        replace(rows[2], path=None, data=None, sha256=None, size=None, salt=None, redacted=1.0),
        *rows[3:],
    ],
    "moved to another store": lambda rows: rows,  # checked under another store's number below
}


def test_an_untouched_chain_with_a_redaction_verifies(tmp_path: Path) -> None:
    ns, rows = _history(tmp_path)
    report = history.check(ns, rows)
    assert report.problems == [] and report.versions == len(rows) == 5
    assert history.check(ns, rows, pinned=rows[2].link).problems == []
    assert history.check(ns, rows, pinned=report.head).problems == []


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_each_direct_edit_is_named(tmp_path: Path, edit: str) -> None:
    ns, rows = _history(tmp_path)
    if edit == "moved to another store":
        ns += 1
    report = history.check(ns, EDITS[edit](rows))
    assert report.problems, f"{edit} went unnoticed"


def test_a_cut_tail_is_caught_by_a_pinned_head_or_by_the_redaction_it_takes(tmp_path: Path) -> None:
    ns, rows = _history(tmp_path, redact=False)
    head = history.check(ns, rows).head
    assert history.check(ns, rows[:-2]).problems == []  # a shorter chain is a valid chain...
    assert history.check(ns, rows[:-2], pinned=head).problems  # ...unless its head was pinned
    (tmp_path / "again").mkdir()
    ns, rows = _history(tmp_path / "again", redact=True)
    assert history.check(ns, rows[:-1]).problems == ["version 1: redacted without a recorded redaction"]
