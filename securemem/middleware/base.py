"""What a middleware layer is: a callable with the shape of what it wraps.

A layer gets the Call and ``call_next``; it may refuse (raise a CommandError), rewrite the
command (``call.with_command``), wrap the store transaction, or post-process the Result.
The chain runs inside the command's single transaction, so whatever a layer reads (usage,
expiry, the current file) is what the write will see: checks cannot race a second writer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from securemem.commands import Command, Result
from securemem.store.base import StoreTx


@dataclass
class Call:
    """One command on its way through the chain."""

    command: Command
    tx: StoreTx
    now: float
    expires: float | None = None  # expiry for files this call writes (set by the TTL layer)
    notes: list[str] = field(default_factory=list)  # told to the model after a successful result
    facts: dict[str, Any] = field(default_factory=dict)  # content-free facts for the audit record
    # Small writes a read asks for (an expiry refresh), run in one short write transaction after
    # the read commits, so that views never take the write lock.
    followups: list[Callable[[StoreTx], None]] = field(default_factory=list)

    def with_command(self, command: Command) -> Call:
        return dataclasses.replace(self, command=command)


Handler = Callable[[Call], Result]


class Middleware(Protocol):
    def __call__(self, call: Call, call_next: Handler) -> Result: ...


def chain(layers: list[Middleware], endpoint: Handler) -> Handler:
    """Fold the layers around the endpoint; the first layer is the outermost."""
    handler = endpoint
    for layer in reversed(layers):
        handler = _bind(layer, handler)
    return handler


def _bind(layer: Middleware, call_next: Handler) -> Handler:
    def handler(call: Call) -> Result:
        return layer(call, call_next)

    return handler
