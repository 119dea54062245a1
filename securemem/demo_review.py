"""Part 3 of ``securemem demo``: a reviewer's day with memory stores and their versions.

An operator seeds a read-only reference store and gives an agent its own store; the agent works
through a session with both mounted; then the operator lists the versions, sees who wrote what,
redacts the version that held what it should not, restores an earlier one, and verifies the
audit chain. Everything runs on the same encrypted file as the rest of the demo.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from securemem.admin import Admin
from securemem.memory import SecureMemory
from securemem.store import history

STYLE = "# House style\n- Plain words, no jargon.\n- Refunds within 30 days need the order number only.\n"
# Personal data no pattern can catch (the regulated policy scrubs emails, phones, cards...; a
# person's private life is words): the reason a human reviews what the agent kept.
LEAK = "Dana Reyes mentioned her divorce; go easy on the late fee.\n"


def _say(step: int, text: str) -> None:
    print(f"\n--- {step}. {text}")


def _agent(memory: SecureMemory, step: int, title: str, tool_input: dict[str, Any]) -> int:
    result = memory.execute(tool_input)
    _say(step, title)
    print(f"> {json.dumps(tool_input, ensure_ascii=False)}")
    print(f"< [{'is_error' if result.is_error else 'ok'}] {result.text}")
    return step + 1


def review_day(db: Path, key: bytes, first_step: int) -> None:
    step = first_step
    with Admin.open(db, key=key, api_key_id="ops-jane") as admin:
        reference = admin.memory_stores.create(name="House style", description="How we write to customers.")
        admin.memories.write(reference.id, path="/style.md", content=STYLE)
        own = admin.memory_stores.create(name="Support agent", description="What the support agent learned.")
        _say(step, "ops-jane seeds a read-only reference store and gives the agent a store of its own")
        print(f"< {reference.name} ({reference.id}), {own.name} ({own.id})")
        step += 1
    attachments = [
        {"memory_store_id": reference.id, "access": "read_only", "prompt": "Follow it; never edit it."},
        {"memory_store_id": own.id},
    ]
    with SecureMemory.open(db, key=key, stores=attachments, session_id="sess_demo_0001") as memory:
        _say(step, "The session's instructions, for the system prompt")
        print(memory.instructions)
        step += 1
        step = _agent(memory, step, "The agent looks at its memory", {"command": "view", "path": "/memories"})
        path = "/memories/support-agent/case-4417.md"
        step = _agent(
            memory,
            step,
            "It takes a first note",
            {"command": "create", "path": path, "file_text": "Refund approved.\n"},
        )
        edit = {"command": "str_replace", "path": path, "old_str": "Refund approved.\n"}
        edit["new_str"] = "Refund approved.\n" + LEAK
        step = _agent(memory, step, "then keeps something it should not have (a customer's private life)", edit)
        style = {"command": "str_replace", "path": "/memories/house-style/style.md", "old_str": "Plain"}
        style["new_str"] = "Fancy"
        step = _agent(memory, step, "and cannot touch the reference store", style)
    with Admin.open(db, key=key, api_key_id="ops-jane") as admin:
        versions = admin.memory_versions.list(own.id).data
        _say(step, "ops-jane lists the versions of the agent's store: who wrote what, when")
        for version in versions:
            who = version.session_id or version.api_key_id
            print(
                f"< {version.id}  {version.operation:<8} {version.path}  by {who}  {version.content_size_bytes} bytes"
            )
        step += 1
        leaked, good = versions[0], versions[1]
        redacted = admin.memory_versions.redact(own.id, leaked.id)
        _say(step, "She redacts the version that held it: content, hash, size and path are gone")
        print(f"< {redacted.id}: path={redacted.path} content={redacted.content} redacted_at={redacted.redacted_at}")
        step += 1
        restored = admin.memory_versions.restore(own.id, good.id)
        _say(step, "and restores the version before it (a new version; the memory keeps its id)")
        print(f"< {restored.id} {restored.path}: {restored.content!r}")
        step += 1
        info = admin.store.find_store(store_id=own.id)
        assert info is not None
        report = history.check(info.key, admin.store.chain(info.name, store_key=info.key))
        _say(step, "She verifies the audit chain and notes its head (securemem audit verify / audit head)")
        verdict = "intact" if not report.problems else "BROKEN: " + "; ".join(report.problems)
        print(f"< {report.versions} versions, chain {verdict}, head {report.head.hex()[:16]}...")
