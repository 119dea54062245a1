"""The audit trail: one JSON record per command on the ``securemem.audit`` logger, content-free.

Each record says who (namespace), what (command, canonical paths), the outcome (ok, or the
error class), which policy rule governed each path, what the PII layer scrubbed (types and
counts) and how long it took. It is written after the transaction ends, so "ok" means committed.
It never holds file content, search strings or key material, and never a path that was refused:
a refused path may be malformed or carry the very PII the policy keeps out of logs, so it is
logged as ``[refused]``. Route the logger to wherever audit records go (a file, syslog, a SIEM).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from securemem.commands import Command, Result
from securemem.errors import InvalidInput, InvalidPath, PIIRefused
from securemem.paths import canonical
from securemem.policy import Policy

audit_log = logging.getLogger("securemem.audit")
_UNSAFE_PATH_ERRORS = frozenset({InvalidPath.__name__, PIIRefused.__name__, InvalidInput.__name__})


def audit_record(
    policy: Policy, namespace: str, command: Command | None, result: Result, *, facts: Mapping[str, Any], seconds: float
) -> dict[str, Any]:
    """The record for one command (exposed for tests and custom sinks)."""
    error = result.meta.get("error") if result.is_error else None
    safe = command is not None and error not in _UNSAFE_PATH_ERRORS
    paths = [canonical(p) for p in command.paths] if safe and command is not None else ["[refused]"]
    rules = [rule.glob for rule in map(policy.rule_for, paths) if rule is not None] if safe else []
    return {
        "namespace": namespace,
        "command": command.command if command is not None else None,
        "paths": paths,
        "outcome": "error" if result.is_error else "ok",
        "error": error,
        "policy": policy.name,
        "rules": rules,
        "scrubbed": dict(facts.get("scrubbed", {})),
        "ms": round(seconds * 1000, 3),
    }


def emit(record: Mapping[str, Any]) -> None:
    audit_log.info(json.dumps(record, ensure_ascii=False, sort_keys=True))


def enabled() -> bool:
    return audit_log.isEnabledFor(logging.INFO)
