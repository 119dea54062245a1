"""Writes store-v2.db with securemem as released before the version history (schema 2).

Run from a checkout of that release: ``python tests/data/v2/make_store_v2.py OUT.db``. The key is
the fixture's published test key; the store holds nothing secret.
"""

from __future__ import annotations

import sys

from securemem import SecureMemory

KEY = bytes(range(32, 64))
CLOCK = 1_800_000_000.0


def main(out: str) -> None:
    with SecureMemory.open(out, key=KEY, clock=lambda: CLOCK) as memory:
        for path, text in [
            ("/memories/notes/a.md", "alpha\nbeta\n"),
            ("/memories/notes/deep/b.md", "deep one\n"),
            ("/memories/日本語/メモ.md", "日本語のメモ\n"),
            ("/memories/empty.md", ""),
        ]:
            result = memory.execute({"command": "create", "path": path, "file_text": text})
            assert not result.is_error, result.text
        other = memory.in_namespace("tenant-7")
        assert not other.execute({"command": "create", "path": "/memories/x/y.md", "file_text": "other\n"}).is_error


if __name__ == "__main__":
    main(sys.argv[1])
