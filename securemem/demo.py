"""``securemem demo``: a realistic agent session replayed against a fresh encrypted store.

No API key and no network: the tool inputs below are what a model sends in the customer-service
example of the memory tool's documentation, plus the hostile and awkward calls a handler must
survive; then the same store under the ``regulated`` policy: a scrubbed write, a refused secret,
a refused over-quota write, and an expiry (with the clock moved, as the tests do); then a
reviewer's day with memory stores and versions (``demo_review.py``). The demo ends by reading the
store's bytes back and showing that none of what was written is there in
clear text.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from securemem.demo_review import review_day
from securemem.errors import SecureMemError
from securemem.keys import create_key_file
from securemem.memory import SecureMemory

GUIDELINES = """<guidelines>
  <tone>Warm, concise, no jargon.</tone>
  <escalation>Escalate billing disputes over $500 to a human agent.</escalation>
  <refunds>Refunds within 30 days need the order number only.</refunds>
</guidelines>
"""

SESSION: list[tuple[str, dict[str, Any]]] = [
    ("The model always looks at its memory first", {"command": "view", "path": "/memories"}),
    (
        "It records what it learned",
        {"command": "create", "path": "/memories/customer_service_guidelines.xml", "file_text": GUIDELINES},
    ),
    (
        "and keeps notes on the open case",
        {
            "command": "create",
            "path": "/memories/cases/order-4417.md",
            "file_text": "# Order 4417\n- status: refund requested\n- reason: arrived damaged\n",
        },
    ),
    ("A traversal attempt is refused", {"command": "view", "path": "/memories/../../etc/passwd"}),
    ("So is a look-alike of the root", {"command": "create", "path": "/memoriesX/backdoor.md", "file_text": "x"}),
    (
        "A multi-line edit",
        {
            "command": "str_replace",
            "path": "/memories/customer_service_guidelines.xml",
            "old_str": "  <refunds>Refunds within 30 days need the order number only.</refunds>\n",
            "new_str": "  <refunds>\n    Refunds within 30 days need the order number only.\n"
            "    After 30 days, offer store credit.\n  </refunds>\n",
        },
    ),
    (
        "An insert after line 1",
        {
            "command": "insert",
            "path": "/memories/cases/order-4417.md",
            "insert_line": 1,
            "insert_text": "- customer prefers email follow-up",
        },
    ),
    ("Viewing a file shows numbered lines", {"command": "view", "path": "/memories/cases/order-4417.md"}),
    (
        "A rename moves the case to the archive",
        {
            "command": "rename",
            "old_path": "/memories/cases/order-4417.md",
            "new_path": "/memories/archive/2026/order-4417.md",
        },
    ),
    ("A malformed call gets a message naming the field", {"command": "insert", "path": "/memories/x.md"}),
    ("The empty folder is deleted", {"command": "delete", "path": "/memories/cases"}),
    ("The final state", {"command": "view", "path": "/memories"}),
]


REGULATED: list[tuple[str, dict[str, Any] | str]] = [
    (
        "PII is scrubbed before it is stored: emails and phones become keyed tokens, cards are masked",
        {
            "command": "create",
            "path": "/memories/customers/customer-17.md",
            "file_text": "Customer: Dana Reyes, dana.reyes@example.com, +1 415 555 2671\n"
            "Card on file: 4111 1111 1111 1111\nPrefers email follow-up.\n",
        },
    ),
    ("The model sees tokens, never the values", {"command": "view", "path": "/memories/customers/customer-17.md"}),
    (
        "Editing by the original value still works: old_str is scrubbed the same way",
        {
            "command": "str_replace",
            "path": "/memories/customers/customer-17.md",
            "old_str": "dana.reyes@example.com",
            "new_str": "(email on file)",
        },
    ),
    (
        "A secret is refused outright, named by type, never echoed",
        {
            "command": "create",
            "path": "/memories/notes/deploy.md",
            "file_text": "use key sk-ant-api03-Zx81bd0QpLm3VtY7nRk2Hs9WqE4cFa6U for deploys",
        },
    ),
    (
        "A path that carries PII is refused",
        {"command": "create", "path": "/memories/dana.reyes@example.com.md", "file_text": "x"},
    ),
    (
        "A write over the per-file quota is refused whole",
        {"command": "create", "path": "/memories/dump.md", "file_text": "log line\n" * 40_000},
    ),
    (
        "Scratch notes expire a day after their last write (rule /memories/scratch/**)",
        {"command": "create", "path": "/memories/scratch/todo.md", "file_text": "call back Friday\n"},
    ),
    ("... visible now", {"command": "view", "path": "/memories"}),
    ("advance the clock by 25 hours", "advance"),
    ("... expired: invisible at once, before any sweep", {"command": "view", "path": "/memories/scratch/todo.md"}),
    ("the operator's sweep (securemem sweep, e.g. from cron) really deletes it", "sweep"),
]


def _show(step: int, title: str, tool_input: dict[str, Any], memory: SecureMemory) -> None:
    result = memory.execute(tool_input)
    print(f"\n--- {step}. {title}")
    shown = {
        k: (f"<{len(v):,} characters>" if isinstance(v, str) and len(v) > 300 else v) for k, v in tool_input.items()
    }
    print(f"> {json.dumps(shown, ensure_ascii=False)}")
    status = "is_error" if result.is_error else "ok"
    print(f"< [{status}] {result.text}")


def _regulated(db: Path, key: bytes, first_step: int) -> None:
    clock = _Clock(time.time())
    # The policy belongs to the store: switching it is explicit (adopt_policy=True, or
    # `securemem policy set`), recorded in the store and written to the audit trail.
    with SecureMemory.open(
        db, key=key, policy="regulated", adopt_policy=True, namespace="bank-agent", clock=clock
    ) as memory:
        for step, (title, action) in enumerate(REGULATED, first_step):
            if action == "advance":
                clock.now += 25 * 3600
                print(f"\n--- {step}. ({title})")
            elif action == "sweep":
                print(f"\n--- {step}. {title}\n< {memory.sweep().summary()}")
            else:
                assert isinstance(action, dict)
                _show(step, title, action, memory)


class _Clock:
    """The demo's clock: time moves when the script says so (TTL tests do the same)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _plaintext_found(files: Iterable[Path], markers: Iterable[str]) -> list[str]:
    blobs = [f.read_bytes() for f in files if f.exists()]
    return [m for m in markers if any(m.encode() in blob for blob in blobs)]


DEMO_DB = "demo.db"


def run_demo(keep: str | None = None, *, confirm: Callable[[str], bool] | None = None) -> int:
    """Replay the session; with ``keep``, leave a store in that folder that can be opened afterwards.

    A kept store has its key beside it (``demo.db.key``, mode 0600), where the CLI looks for it.
    A folder that already holds a demo store is never overwritten without a yes from ``confirm``
    (by default: asked on a terminal, refused otherwise).
    """
    folder = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="securemem-demo-"))
    db = folder / DEMO_DB
    if keep:
        _make_room(folder, confirm or _ask)
        key = create_key_file(f"{db}.key")
    else:
        key = os.urandom(32)
    print(f"securemem demo: a fresh encrypted store at {db} (random 256-bit key, {_held(keep, db)})")
    try:
        print("\n=== Part 1: an agent session under the default policy")
        with SecureMemory.open(db, key=key) as memory:
            for step, (title, tool_input) in enumerate(SESSION, 1):
                _show(step, title, tool_input, memory)
        print("\n=== Part 2: the operator switches the store to the 'regulated' policy (namespace 'bank-agent')")
        _regulated(db, key, first_step=len(SESSION) + 1)
        print("\n=== Part 3: a reviewer's day: memory stores, versions, redaction, restore, the audit chain")
        review_day(db, key, first_step=len(SESSION) + len(REGULATED) + 1)
        code = _report(db)
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    if keep:
        _how_to_open(db)
    return code


def _held(keep: str | None, db: Path) -> str:
    return f"kept in {db}.key" if keep else "held in memory"


def _store_files(db: Path) -> list[Path]:
    return [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.key")]


def _make_room(folder: Path, confirm: Callable[[str], bool]) -> None:
    """Create the folder, or clear an earlier demo store from it once the operator says yes."""
    if folder.exists() and not folder.is_dir():
        raise SecureMemError(f"{folder} is not a directory; --keep needs a directory for the demo store")
    present = [path for path in _store_files(folder / DEMO_DB) if os.path.lexists(path)]
    if present:
        if not confirm(
            f"{folder} already holds a demo store ({', '.join(p.name for p in present)}); replace it? [y/N] "
        ):
            raise SecureMemError(
                f"{folder} already holds a demo store ({present[0].name}); remove it or choose another directory"
            )
        for path in present:
            path.unlink()
    try:
        # A folder made here is private (0700) from its creation: it holds the store's key.
        if not folder.is_dir():
            folder.parent.mkdir(parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
    except OSError as exc:
        raise SecureMemError(f"cannot create {folder}: {exc.strerror}") from None


def _ask(question: str) -> bool:
    """Yes only from a person at a terminal: a script or a pipe never replaces a store."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    try:
        return input().strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _how_to_open(db: Path) -> None:
    exe, where = _securemem_command(), shlex.quote(str(db.resolve()))
    view = shlex.quote(json.dumps({"command": "view", "path": "/memories"}))
    print(f"\n--- Kept: {db} and its key {db}.key (mode 0600). Open it with:")
    print(f"{exe} exec --db {where} {view}")
    print(f"{exe} exec --db {where} --policy regulated --namespace bank-agent {view}")


def _securemem_command() -> str:
    """How this process was started, so the printed command runs as it is."""
    started = Path(sys.argv[0])
    if started.name == "securemem":
        on_path = shutil.which("securemem")
        if on_path and Path(on_path).resolve() == started.resolve():
            return "securemem"
        return shlex.quote(str(started.resolve()))
    return f"{shlex.quote(sys.executable)} -m securemem.cli"


def _report(db: Path) -> int:
    files = [db, Path(f"{db}-wal")]
    markers = [
        "Escalate billing disputes",
        "arrived damaged",
        "customer_service_guidelines",
        "order-4417",
        "Dana Reyes",
        "bank-agent",
        "House style",
        "her divorce",
        "SQLite format 3",
    ]
    found = _plaintext_found(files, markers)
    size = sum(f.stat().st_size for f in files if f.exists())
    print(f"\n--- On disk: {db.name} and its WAL, {size} bytes in all")
    if found:
        print(f"FAILED: plaintext found on disk: {', '.join(found)}")
        return 1
    print(
        f"No plaintext: none of {len(markers)} markers (file contents, paths, SQLite's own header) "
        "appears in the store's bytes."
    )
    return 0
