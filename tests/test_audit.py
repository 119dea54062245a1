"""The audit trail: one content-free JSON record per command, naming the rule that applied."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from securemem import SecureMemory
from tests.helpers import audit_records

SECRET_EMAIL = "dana.reyes@example.com"
BODY = "call back about the refund"


@pytest.fixture
def regulated(tmp_path: Path) -> SecureMemory:
    return SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy="regulated", namespace="bank")


def test_ok_record_names_path_rule_and_scrub_counts(regulated: SecureMemory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="securemem.audit")
    regulated.execute(
        {"command": "create", "path": "/memories/scratch/a.md", "file_text": f"{BODY}, mail {SECRET_EMAIL}\n"}
    )
    [record] = audit_records(caplog)
    assert record["outcome"] == "ok" and record["command"] == "create" and record["ns"] == regulated.namespace_id
    assert "bank" not in json.dumps(record) and record["ts"].endswith("Z")
    assert record["paths"] == ["/memories/scratch/a.md"] and record["rules"] == ["/memories/scratch/**"]
    assert record["scrubbed"] == {"EMAIL": 1} and record["policy"] == "regulated"


def test_refusals_are_recorded_without_the_refused_path(
    regulated: SecureMemory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="securemem.audit")
    regulated.execute({"command": "create", "path": f"/memories/{SECRET_EMAIL}.md", "file_text": "x"})
    regulated.execute({"command": "view", "path": "/memories/../../etc/passwd"})
    regulated.execute({"command": "create", "path": "/memories/reference/x.md", "file_text": "x"})
    pii, traversal, read_only = audit_records(caplog)
    assert (pii["error"], pii["paths"]) == ("PIIRefused", ["[refused]"])
    assert (traversal["error"], traversal["paths"]) == ("InvalidPath", ["[refused]"])
    assert read_only["error"] == "ReadOnly" and read_only["rules"] == ["/memories/reference/**"]


def test_no_log_record_of_any_logger_carries_content_or_pii(
    regulated: SecureMemory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    regulated.execute({"command": "create", "path": "/memories/n.md", "file_text": f"{BODY} {SECRET_EMAIL}\n"})
    regulated.execute(
        {"command": "str_replace", "path": "/memories/n.md", "old_str": SECRET_EMAIL, "new_str": "+1 415 555 2671"}
    )
    regulated.execute({"command": "create", "path": "/memories/k.md", "file_text": "sk-ant-api03-" + "a1" * 20})
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert len(audit_records(caplog)) == 3
    for forbidden in (SECRET_EMAIL, BODY, "415 555", "sk-ant-api03"):
        assert forbidden not in text


def test_silent_when_the_audit_logger_is_off(regulated: SecureMemory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="securemem.audit")
    regulated.execute({"command": "view", "path": "/memories"})
    assert audit_records(caplog) == []
