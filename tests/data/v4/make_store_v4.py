"""Writes store-v4.db with securemem as released with schema 4 (before the per-memory version links).

Run from a checkout of that release: ``python tests/data/v4/make_store_v4.py OUT.db``. The key is
the fixture's published test key; the store holds nothing secret. It has two stores; a memory
edited several times, one renamed, one deleted, one deleted while the history was off (its
versions from before stay), one restored after its deletion, and a redaction: every way a
memory's versions can end, so the migration's links can be checked against each.
"""

from __future__ import annotations

import sys

from securemem import Admin, Policy, SecureMemory

KEY = bytes(range(96, 128))
CLOCK = 1_800_000_000.0
POLICY = Policy.model_validate({"name": "fixture", "quota": {"max_total_bytes": 1_000_000}})
OFF = Policy.model_validate({"name": "fixture-off", "history": {"versions": False}})


def run(memory: SecureMemory, calls: list[dict[str, object]]) -> None:
    for call in calls:
        result = memory.execute(call)
        assert not result.is_error, result.text


def main(out: str) -> None:
    with SecureMemory.open(out, key=KEY, clock=lambda: CLOCK, policy=POLICY, namespace="default") as memory:
        run(
            memory,
            [
                {"command": "create", "path": "/memories/notes/a.md", "file_text": "alpha\nbeta\n"},
                {"command": "create", "path": "/memories/notes/deep/b.md", "file_text": "deep one\n"},
                {"command": "str_replace", "path": "/memories/notes/a.md", "old_str": "beta", "new_str": "gamma"},
                {"command": "insert", "path": "/memories/notes/a.md", "insert_line": 0, "insert_text": "top\n"},
                {"command": "create", "path": "/memories/gone.md", "file_text": "to be deleted\n"},
                {"command": "delete", "path": "/memories/gone.md"},
                {"command": "rename", "old_path": "/memories/notes/deep/b.md", "new_path": "/memories/b.md"},
                {"command": "create", "path": "/memories/back.md", "file_text": "deleted, then restored\n"},
                {"command": "create", "path": "/memories/quiet.md", "file_text": "deleted unversioned\n"},
                {"command": "delete", "path": "/memories/back.md"},
            ],
        )
        other = memory.in_namespace("tenant-7")
        run(other, [{"command": "create", "path": "/memories/x/y.md", "file_text": "other\n"}])
    with Admin.open(out, key=KEY, clock=lambda: CLOCK, policy=POLICY) as admin:
        store = next(s for s in admin.memory_stores.list().data if s.name == "default")
        first = admin.memory_versions.list(store.id, operation="modified").data[-1]
        admin.memory_versions.redact(store.id, first.id)
        back = admin.memory_versions.list(store.id, operation="created").data[1]  # back.md's creation
        assert back.path == "/back.md", back.path
        admin.memory_versions.restore(store.id, back.id)
    with SecureMemory.open(out, key=KEY, clock=lambda: CLOCK, policy=OFF, namespace="default", adopt_policy=True) as m:
        run(m, [{"command": "delete", "path": "/memories/quiet.md"}])
    with SecureMemory.open(out, key=KEY, clock=lambda: CLOCK, policy=POLICY, namespace="default", adopt_policy=True):
        pass


if __name__ == "__main__":
    main(sys.argv[1])
