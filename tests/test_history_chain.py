"""The hash chain: a key holder's direct edits of version rows are named; redactions are not."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from securemem import Admin
from securemem.policy import Policy
from securemem.store import history
from securemem.store.base import Actor, VersionRow
from tests.helpers import BACKENDS, Clock, connection_of


def _url(tmp_path: Path, backend: str) -> str:
    return "memory://" if backend == "memory" else f"sqlcipher://{tmp_path / 'c.db'}"


def _history(tmp_path: Path, *, redact: bool = True, backend: str = "sqlcipher") -> tuple[int, list[VersionRow]]:
    with Admin.open(_url(tmp_path, backend), key=b"c" * 32, api_key_id="ops") as admin:
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
    # rows[0] is the redacted first version, rows[1] a version that kept its text
    "kept content removed": lambda rows: [rows[0], replace(rows[1], data=None), *rows[2:]],
    "redaction undone": lambda rows: [
        replace(rows[0], path="/a.md", data=b"one\n", sha256=history.sha256(b"one\n"), size=4),
        *rows[1:],
    ],
    "redacted row given a path": lambda rows: [replace(rows[0], path="/memories/x.md"), *rows[1:]],
    "redacted row given content": lambda rows: [replace(rows[0], data=b"anything"), *rows[1:]],
    "redacted row given a salt": lambda rows: [replace(rows[0], salt=b"s" * 16), *rows[1:]],
    "every key renumbered": lambda rows: [replace(row, seq=row.seq + 1000) for row in rows],
    "one key renumbered": lambda rows: [*rows[:-1], replace(rows[-1], seq=rows[-1].seq + 1)],
}


def test_an_untouched_chain_with_a_redaction_verifies(tmp_path: Path) -> None:
    ns, rows = _history(tmp_path)
    report = history.check(ns, rows)
    assert report.problems == [] and report.versions == len(rows) == 5
    assert history.check(ns, rows, pinned=rows[2].link).problems == []
    assert history.check(ns, rows, pinned=report.head).problems == []


@pytest.mark.parametrize("backend", sorted(BACKENDS))
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_each_direct_edit_is_named(tmp_path: Path, edit: str, backend: str) -> None:
    ns, rows = _history(tmp_path, backend=backend)
    assert history.check(ns, rows).problems == []
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
    # Cut before its redaction event, the chain also ends on a total that counts the erased text.
    assert _besides_total(history.check(ns, rows[:-1]).problems) == ["version 1: redacted without a recorded redaction"]


def test_a_renumbered_version_is_named_by_its_place(tmp_path: Path) -> None:
    ns, rows = _history(tmp_path, redact=False)
    report = history.check(ns, [*rows[:2], *(replace(row, seq=row.seq + 5) for row in rows[2:])])
    assert [problem.place for problem in report.found] == [8]
    assert "numbered out of turn (the chain's next number is 3)" in report.problems[0]


def _expired_history(url: str, *, redact_expired: bool) -> tuple[int, list[VersionRow]]:
    """A memory written twice, then expired and swept: its versions, then its ``expired`` event."""
    clock = Clock()
    policy = Policy.model_validate(
        {"ttl": {"expire_after": 60, "since": "write"}, "history": {"redact_expired": redact_expired}}
    )
    with Admin.open(url, key=b"c" * 32, policy=policy, clock=clock, api_key_id="ops") as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="one\n")
        admin.memories.update(store.id, memory.id, content="two\n")
        clock.at(120)
        assert admin.sweep().deleted == 1
        info = admin.store.find_store(store_id=store.id)
        assert info is not None
        return info.key, list(admin.store.chain(info.name))


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_only_an_expiry_that_erased_the_path_covers_the_redacted_versions_before_it(
    tmp_path: Path, backend: str
) -> None:
    ns, rows = _expired_history(_url(tmp_path, backend), redact_expired=True)
    assert [(row.op, row.path, row.redacted is not None) for row in rows] == [
        ("created", None, True),
        ("modified", None, True),
        ("expired", None, False),
    ]
    assert history.check(ns, rows).problems == []  # the expiry's redaction is chained by its event
    (tmp_path / "kept").mkdir()
    ns, rows = _expired_history(_url(tmp_path / "kept", backend), redact_expired=False)
    assert [(row.op, row.path, row.redacted) for row in rows] == [
        ("created", "/memories/a.md", None),
        ("modified", "/memories/a.md", None),
        ("expired", "/memories/a.md", None),
    ]
    assert history.check(ns, rows).problems == []
    forged = [replace(row, path=None, sha256=None, size=None, data=None, salt=None, redacted=1.0) for row in rows[:2]]
    assert _besides_total(history.check(ns, [*forged, rows[2]]).problems) == [
        "version 1: redacted without a recorded redaction",
        "version 2: redacted without a recorded redaction",
    ]


def _besides_total(problems: list[str]) -> list[str]:
    """The problems other than the history total's (where the backend keeps one, the same edit
    changes what the versions hold, and the newest row's total no longer matches: named too)."""
    return [p for p in problems if "the history total it records" not in p]


def test_the_ns_column_means_nothing_the_key_names_the_store(tmp_path: Path) -> None:
    """A version's store is its key's high bits: an edited ``ns`` column changes no read or redaction."""
    with Admin.open(tmp_path / "n.db", key=b"c" * 32, api_key_id="ops") as admin:
        store = admin.memory_stores.create(name="s")
        memory = admin.memories.write(store.id, path="/a.md", content="one\n")
        admin.memories.update(store.id, memory.id, content="two\n")
        first, second = admin.memory_versions.list(store.id).data[::-1]
        connection_of(admin.store).execute("UPDATE versions SET ns = ns + 7")
        assert admin.memory_versions.retrieve(store.id, first.id).content == "one\n"
        assert [v.id for v in admin.memory_versions.list(store.id).data] == [second.id, first.id]
        assert admin.memory_versions.redact(store.id, first.id).redacted_at is not None
        info = admin.store.find_store(store_id=store.id)
        assert info is not None
        rows = list(admin.store.chain(info.name))
        assert [row.op for row in rows] == ["created", "modified", "redaction"]
        assert history.check(info.key, rows).problems == []


@pytest.mark.parametrize("event", ["redaction", "expired"])
def test_a_version_an_erasure_names_or_covers_but_that_holds_its_text_is_named(tmp_path: Path, event: str) -> None:
    """A redaction event names a version, an erasing expiry covers every earlier version of its
    memory: a version that still holds its text when the walk reaches such an event was put back
    (its ciphertexts and ``redacted`` restored by someone who can write the rows: a PostgreSQL DBA).
    The chain's links alone cannot tell, since the version's own fields are those it was made with."""
    ns, rows = _history(tmp_path, redact=False)
    first = rows[0]  # the memory's first version, whole
    tail = rows[-1]
    erasure = history.new_version(
        tail.seq + 1, event, first.memory, None, None, ref=first.seq if event == "redaction" else None,
        actor=Actor(None, history.EXPIRY_ACTOR), prev=tail.link, created=tail.created + 1, keep=True,
    )  # fmt: skip
    assert history.check(ns, rows).problems == []  # the control: the chain without the event
    problems = history.check(ns, [*rows, erasure]).problems
    assert any(f"version {first.seq & ((1 << history.SEQ_BITS) - 1)}:" in p and "holds its" in p for p in problems), (
        problems
    )
