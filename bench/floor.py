"""The floor: the least an encrypted, durable store can do per memory command, in raw SQLCipher.

No policy, no path checks, no directories, no metadata: one table keyed by path with the content
inline, opened exactly as securemem opens its store (the same key form, the same PRAGMAs), and per
command the minimal SQL inside ``BEGIN IMMEDIATE ... COMMIT``:

    create       INSERT INTO files (path, content) VALUES (?, ?)
    view         SELECT content FROM files WHERE path = ?
    str_replace  SELECT content ..., the replacement in Python, UPDATE files SET content = ? ...
    insert       SELECT content ..., the line inserted in Python, UPDATE files SET content = ? ...
    rename       UPDATE files SET path = ? WHERE path = ?
    delete       DELETE FROM files WHERE path = ?
    list         SELECT path, length(content) FROM files ORDER BY path LIMIT ?  (as many rows as the
                 tool's root listing shows)

A rowid table with a unique index on path, not a WITHOUT ROWID table: a ~1 KB row does not fit
in an index b-tree cell of a 4 KiB SQLCipher page (about 980 bytes), so every file would also
take an overflow page. With ``synchronous = FULL`` every write's COMMIT appends its pages to the
WAL and fsyncs it once: that is what securemem's full durability costs at the very least.

Erasure: ``secure_delete = ON`` zeroes freed cells, but old page images stay in the WAL until a
checkpoint; ``erase()`` runs ``wal_checkpoint(TRUNCATE)`` when a command freed content since the
last one, as securemem's store does within its ``erase_within`` bound.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlcipher3
from harness import wal_frames

PRAGMAS = (
    "PRAGMA cipher_hmac_algorithm = HMAC_SHA256",  # the page format securemem creates stores with
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA secure_delete = ON",
)
SCHEMA = "CREATE TABLE files (path TEXT PRIMARY KEY, content BLOB NOT NULL)"
ROOT = "/memories"


def _connect(path: Path) -> Any:
    conn = sqlcipher3.connect(str(path), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA cipher_log_level = NONE")
    # The form securemem uses: a raw 256-bit key and the 16-byte salt, in hex (no PBKDF2 on open).
    conn.execute(f"PRAGMA key = \"x'{os.urandom(32).hex()}{os.urandom(16).hex()}'\"")
    for pragma in PRAGMAS:
        conn.execute(pragma).fetchall()
    return conn


def sweep_floor(where: Path, texts: Sequence[str]) -> float:
    """Seconds for the least an erasing sweep can do: every file expired, one DELETE, its erasure.

    The files (path, content, expiry; an index on expiry) are loaded in one transaction and
    checkpointed; then ``DELETE FROM files WHERE expires <= ?`` in one ``BEGIN IMMEDIATE ... COMMIT``
    (``secure_delete`` zeroes every freed cell) and the ``wal_checkpoint(TRUNCATE)`` that takes the
    old page images out of the WAL are timed together. No batches, so no writer gets in meanwhile.
    """
    conn = _connect(where / "sweep-floor.db")
    try:
        conn.execute("CREATE TABLE files (path TEXT PRIMARY KEY, content BLOB NOT NULL, expires REAL NOT NULL)")
        conn.execute("CREATE INDEX files_expires ON files (expires)")
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT INTO files (path, content, expires) VALUES (?, ?, 1.0)",
            ((f"/memories/f{i}.md", text.encode()) for i, text in enumerate(texts)),
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM files WHERE expires <= 2.0")
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        return time.perf_counter() - started
    finally:
        conn.close()


class Floor:
    """A memory tool in raw SQLCipher: ``run(input)`` takes the tool inputs bench/throughput.py sends."""

    def __init__(self, where: Path, list_limit: int, *, autocheckpoint: bool = True) -> None:
        self.path = where / "floor.db"
        self.list_limit = list_limit
        self.statements = 0  # SQL statements run, BEGIN and COMMIT included
        self._freed = False
        conn = _connect(self.path)
        if not autocheckpoint:
            conn.execute("PRAGMA wal_autocheckpoint = 0").fetchall()
        conn.execute(SCHEMA)
        self._conn: Any = conn
        self.page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])

    def _sql(self, sql: str, *params: object) -> Any:
        self.statements += 1
        return self._conn.execute(sql, params)

    def run(self, inp: dict[str, Any]) -> object:
        command = inp["command"]
        self._sql("BEGIN IMMEDIATE")
        try:
            out = self._command(command, inp)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._sql("COMMIT")
        return out

    def _command(self, command: str, inp: dict[str, Any]) -> object:
        if command == "create":
            self._sql("INSERT INTO files (path, content) VALUES (?, ?)", inp["path"], inp["file_text"].encode())
            return None
        if command == "view" and inp["path"] == ROOT:
            return self._sql(
                "SELECT path, length(content) FROM files ORDER BY path LIMIT ?", self.list_limit
            ).fetchall()
        if command == "rename":
            self._sql("UPDATE files SET path = ? WHERE path = ?", inp["new_path"], inp["old_path"])
            self._freed = True
            return None
        if command == "delete":
            self._sql("DELETE FROM files WHERE path = ?", inp["path"])
            self._freed = True
            return None
        data: bytes = self._sql("SELECT content FROM files WHERE path = ?", inp["path"]).fetchone()[0]
        if command == "view":
            return data.decode()
        if command == "str_replace":
            data = data.replace(inp["old_str"].encode(), inp["new_str"].encode(), 1)
        elif command == "insert":
            lines = data.split(b"\n")
            lines.insert(inp["insert_line"], inp["insert_text"].encode().rstrip(b"\n"))
            data = b"\n".join(lines)
        else:
            raise ValueError(f"the floor has no command {command!r}")
        self._sql("UPDATE files SET content = ? WHERE path = ?", data, inp["path"])
        self._freed = True
        return None

    def erase(self) -> None:
        """Checkpoint and truncate the WAL if a command freed content since the last time."""
        if self._freed:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            self._freed = False

    def wal_frames(self) -> int:
        return wal_frames(Path(f"{self.path}-wal"))

    def close(self) -> None:
        self._conn.close()
