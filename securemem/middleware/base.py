"""What a middleware layer is: a callable with the shape of what it wraps, and the typed Call.

A layer gets the Call and ``call_next``. On the way down it may refuse (raise a CommandError),
rewrite the command (``call.with_command``), set a typed field (the view limit), and register a
check on the changes the command will make (``call.checks``). On the way up it reads the typed
Result (``result.view``) and may add a note for the model or a follow-up write.

The store transaction is opened by the ``Transaction`` layer, the innermost but one: everything
the outer layers do on the way down (path rules, PII scanning of the input, size pre-checks)
happens before the store-wide write lock is taken. Checks run under the lock, in chain order,
on the final change (see ``securemem.changes``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FunctionType
from typing import Protocol, TypeVar, cast

from securemem.changes import Change, commit
from securemem.commands import Command, Result
from securemem.store.base import StoreTx

Check = Callable[[Change, StoreTx], Change]
Followup = Callable[[StoreTx], None]
C = TypeVar("C", bound=Change)


@dataclass(frozen=True, slots=True)
class ViewLimit:
    """How many characters a view may return, and how many of them to keep for a closing note."""

    chars: int
    reserve: int


@dataclass
class AuditFacts:
    """Content-free facts for the audit record, filled in as the call goes down and up."""

    paths: tuple[str, ...] | None = None  # canonical paths that passed every guard (None: refused)
    scrubbed: Counter[str] = field(default_factory=Counter)


@dataclass
class Call:
    """One command on its way through the chain."""

    command: Command
    checks: list[Check] = field(default_factory=list)
    tx: StoreTx | None = None  # set by the Transaction layer
    now: float | None = None  # the transaction's instant, read once it held its lock
    view_limit: ViewLimit | None = None  # set by ViewTruncate
    notes: list[str] = field(default_factory=list)  # told to the model after a successful result
    audit: AuditFacts = field(default_factory=AuditFacts)
    # Small writes a read asks for (an expiry refresh), run in one short write transaction after
    # the read commits, so that views never wait for a writer's fsync.
    followups: list[Followup] = field(default_factory=list)
    request: object = None  # an admin call's own arguments, for the admin endpoint (securemem.admin)
    outcome: object = None  # what the admin endpoint returns besides the Result (a typed record)

    def with_command(self, command: Command) -> Call:
        self.command = command
        return self

    @property
    def txn(self) -> StoreTx:
        """The open transaction (layers inside the Transaction layer, and checks, may use it)."""
        if self.tx is None:
            raise RuntimeError("no store transaction is open yet: this layer runs outside the Transaction layer")
        return self.tx

    def apply(self, change: C) -> C:
        """Run every registered check on ``change``, in chain order, then write it."""
        tx = self.txn
        current: Change = change
        for check in self.checks:
            current = check(current, tx)
        if type(current) is not type(change):
            raise TypeError("a check must return a change of the kind it was given")
        commit(current, tx)
        return cast(C, current)


Handler = Callable[[Call], Result]


class Middleware(Protocol):
    def __call__(self, call: Call, call_next: Handler) -> Result: ...


def chain(layers: Sequence[Middleware], endpoint: Handler, *, reads: bool = False) -> Handler:
    """Fold the layers around the endpoint; the first layer is the outermost.

    ``reads``: the chain only ever runs commands that change nothing (views), and leaves out the
    layers that say they act only on commands that do, with a class attribute ``only_mutations = True``.
    """
    handler = endpoint
    for layer in reversed(layers):
        if reads and getattr(layer, "only_mutations", False) is True:  # exactly True: never a look-alike value
            continue
        handler = _bind(layer, handler)
    return handler


def _bind(layer: Middleware, call_next: Handler) -> Handler:
    # A layer object's own method is called: calling the object itself goes through its type's
    # __call__ slot, a slower path that makes up half the cost of a chain of layers that do little.
    run = layer if isinstance(layer, FunctionType) else layer.__call__

    def handler(call: Call) -> Result:
        return run(call, call_next)

    return handler
