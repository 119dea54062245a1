"""Writes store-v3.db with securemem as released with the version history (schema 3).

Run from a checkout of that release: ``python tests/data/v3/make_store_v3.py OUT.db``. The key is
the fixture's published test key; the store holds nothing secret. It has two stores, versions of
every kind (created, modified, deleted, a redaction) and a quota on total bytes, so the store's
history total was kept by that release.
"""

from __future__ import annotations

import sys

from securemem import Admin, Policy, SecureMemory

KEY = bytes(range(64, 96))
CLOCK = 1_800_000_000.0
POLICY = Policy.model_validate({"name": "fixture", "quota": {"max_total_bytes": 1_000_000}})


def main(out: str) -> None:
    with SecureMemory.open(out, key=KEY, clock=lambda: CLOCK, policy=POLICY, namespace="default") as memory:
        for call in [
            {"command": "create", "path": "/memories/notes/a.md", "file_text": "alpha\nbeta\n"},
            {"command": "create", "path": "/memories/notes/deep/b.md", "file_text": "deep one\n"},
            {"command": "str_replace", "path": "/memories/notes/a.md", "old_str": "beta", "new_str": "gamma"},
            {"command": "create", "path": "/memories/gone.md", "file_text": "to be deleted\n"},
            {"command": "delete", "path": "/memories/gone.md"},
            {"command": "rename", "old_path": "/memories/notes/deep/b.md", "new_path": "/memories/b.md"},
        ]:
            result = memory.execute(call)
            assert not result.is_error, result.text
        other = memory.in_namespace("tenant-7")
        assert not other.execute({"command": "create", "path": "/memories/x/y.md", "file_text": "other\n"}).is_error
    with Admin.open(out, key=KEY, clock=lambda: CLOCK, policy=POLICY) as admin:
        store = next(s for s in admin.memory_stores.list().data if s.name == "default")
        first = admin.memory_versions.list(store.id, operation="modified").data[-1]
        admin.memory_versions.redact(store.id, first.id)


if __name__ == "__main__":
    main(sys.argv[1])
