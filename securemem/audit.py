"""The audit trail: one JSON record per command on the ``securemem.audit`` logger, content-free.

Each record says when (``ts``, UTC), which namespace (``ns``: a keyed digest of its name, since a
namespace may be named after a person; ``SecureMemory.namespace_id`` gives the same digest), what
(command, canonical paths), the outcome (ok, or the error class), which policy rule governed each
path, what the PII layer scrubbed (types and counts) and how long it took. It is written after
the transaction ends, so "ok" means committed.

It never holds file content, search strings or key material, and never a path that did not pass
every guard: a path refused as malformed, or as carrying PII, or one that never reached the
store, is logged as ``[refused]``. Writing a record never raises: a failing handler is reported
by the logging module, and the command's result stands. Route the logger to wherever audit
records go (a file, syslog, a SIEM).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from securemem.commands import Command, Result
from securemem.middleware.base import AuditFacts
from securemem.policy import Policy

audit_log = logging.getLogger("securemem.audit")
_internal = logging.getLogger("securemem")
REFUSED = "[refused]"


def namespace_digest(token_key: bytes, namespace: str) -> str:
    """A stable id for a namespace that does not reveal its name (keyed by the store's secret)."""
    mac = hmac.new(token_key, b"namespace:" + namespace.encode("utf-8"), hashlib.sha256)
    return "ns_" + mac.hexdigest()[:20]


def utc_now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def audit_record(
    policy: Policy,
    ns: str,
    command: Command | None,
    result: Result,
    *,
    facts: AuditFacts,
    seconds: float,
    stored: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """The record for one command (exposed for tests and custom sinks).

    ``stored`` maps a mounted path to the path its store holds, which is what policy rules match.
    """
    paths = list(facts.paths) if facts.paths is not None and command is not None else [REFUSED]
    rule_of = policy.rule_for if stored is None else lambda path: policy.rule_for(stored(path))
    rules = [] if facts.paths is None else [r.glob for r in map(rule_of, paths) if r is not None]
    return {
        "ts": utc_now(),
        "ns": ns,
        "command": command.command if command is not None else None,
        "paths": paths,
        "outcome": "error" if result.is_error else "ok",
        "error": result.error if result.is_error else None,
        "policy": policy.name,
        "rules": rules,
        "scrubbed": dict(facts.scrubbed),
        "ms": round(seconds * 1000, 3),
    }


def emit(record: Mapping[str, Any]) -> None:
    """Write one record; never raises (a broken sink must not turn a committed command into an error)."""
    try:
        audit_log.info(json.dumps(record, ensure_ascii=False, sort_keys=True))
    except Exception as exc:  # a handler or filter that raises: say so without the record itself
        log_quietly(_internal, logging.ERROR, "an audit record could not be written (%s)", type(exc).__name__)


def log_quietly(log: logging.Logger, level: int, message: str, *args: object) -> None:
    """Log where a failure must not escape: the same broken handler (on ``securemem`` or the root
    logger) that made a record fail would raise again on the message saying so."""
    with contextlib.suppress(Exception):  # nowhere left to say it
        log.log(level, message, *args)


def event(kind: str, **facts: Any) -> None:
    """A store-level event (a policy adopted): same logger, same guarantees, no content."""
    emit({"ts": utc_now(), "event": kind, **facts})


def enabled() -> bool:
    return audit_log.isEnabledFor(logging.INFO)
