"""Transaction: the layer that opens the store transaction, the innermost but one.

Everything outside it (path rules, PII scanning of the input, size pre-checks) runs before the
store-wide write lock is taken, so one slow scan never holds up other writers; the checks those
layers registered run inside it, under the lock, on the change itself. The transaction's clock is
read once the lock is held (``tx.now``), so a command that waited cannot act on a stale instant.
"""

from __future__ import annotations

from collections.abc import Callable

from securemem.commands import Result
from securemem.middleware.base import Call, Handler
from securemem.store.base import Actor, Clock, Store


class Transaction:
    """``check``, when given, runs first inside the transaction (under the lock) and may refuse it."""

    def __init__(
        self,
        store: Store,
        namespace: str,
        clock: Clock,
        check: Callable[[], None] | None = None,
        actor: Actor | None = None,
        *,
        create: bool = True,
    ) -> None:
        self.store = store
        self.namespace = namespace
        self.clock = clock
        self.check = check
        self.actor = actor
        self.create = create

    def __call__(self, call: Call, call_next: Handler) -> Result:
        write = call.command.mutates
        with self.store.transaction(
            self.namespace, write=write, clock=self.clock, actor=self.actor, create=self.create
        ) as tx:
            if self.check is not None:
                self.check()
            call.tx, call.now = tx, tx.now
            try:
                return call_next(call)
            finally:
                call.tx = None
