"""An attacker's round on the store's core guarantees (erasure, crashes, audit, quotas, modes, rekey,
policy ownership, the CLI): what it found, each with a test that fails on the tree before the fix.
"""

from __future__ import annotations

import logging

import pytest

from securemem import SecureMemory
from securemem.audit import REFUSED
from securemem.policy import load_policy
from securemem.store.base import Store
from tests.helpers import audit_records, err, ok


@pytest.mark.parametrize(
    ("below", "destination"),
    [
        ("/memories/contact/com/notes.md", "/memories/dana.reyes@example"),  # an address once "com" is below it
        ("/memories/b/45-6789/x.md", "/memories/123"),  # an SSN once "45-6789" is below it
    ],
)
def test_a_rename_refused_for_what_lands_below_it_is_audited_without_its_destination(
    store: Store, caplog: pytest.LogCaptureFixture, below: str, destination: str
) -> None:
    mem = SecureMemory(store, load_policy("regulated"), owns_store=False)
    ok(mem, command="create", path=below, file_text="x\n")
    moved = "/" + "/".join(below.split("/")[1:3])
    caplog.set_level(logging.INFO, logger="securemem.audit")
    assert "would make a path below its destination carry personal data" in err(
        mem, command="rename", old_path=moved, new_path=destination
    )
    (record,) = [r for r in audit_records(caplog) if r["command"] == "rename"]
    assert (record["error"], record["paths"]) == ("PIIRefused", [moved, REFUSED])
