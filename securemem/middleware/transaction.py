"""Transaction: the layer that opens the store transaction, the innermost but one.

Everything outside it (path rules, PII scanning of the input, size pre-checks) runs before the
store-wide write lock is taken, so one slow scan never holds up other writers; the checks those
layers registered run inside it, under the lock, on the change itself. The transaction's clock is
read once the lock is held (``tx.now``), so a command that waited cannot act on a stale instant.

In a session with several stores the transaction is opened on the store of the command's last
path (a rename's destination, where a quota is checked) and handed down as a ``MountedTx``,
which reaches any other mounted store in the same transaction. Those stores exist (they were
checked at open), so none is ever made here; a mount is bound to its store by number: renamed,
it still works, and deleted since, it fails the command (a listing of ``/memories`` shows the
stores still there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import Any

from securemem.commands import Result
from securemem.middleware.base import Call, Handler
from securemem.mounted import MountedTx
from securemem.mounts import Mount, MountTable
from securemem.store.base import Actor, Clock, History, MissingStore, Store, StoreTx


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
        mounts: MountTable | None = None,
        history: History | None = None,
        store_key: int | None = None,
        bind: bool = False,
    ) -> None:
        """``bind``: the first transaction's store stays this one's, by number (a session's handle)."""
        self.store = store
        self.namespace = namespace
        self.clock = clock
        self.check = check
        self.actor = actor
        self.create = create
        self.mounts = mounts or MountTable()
        self.history = history  # what this handle's policy keeps of each version
        self.store_key = store_key  # the store by number (an admin call), not by its name
        self.bind = bind

    def open(self, paths: Sequence[str], *, write: bool) -> AbstractContextManager[StoreTx]:
        """The transaction for a command on ``paths`` (also used for the follow-up writes of a read)."""
        if not self.mounts:
            return _OneStore(self, write)
        return self._mounted(paths, write)

    @contextmanager
    def _mounted(self, paths: Sequence[str], write: bool) -> Iterator[StoreTx]:
        home = self.mounts.home(paths)
        # A command on /memories itself (a listing) is in no mount: any attached store can carry its
        # transaction, and one an operator deleted must not make the others' listing fail.
        inside = any(self.mounts.mount_of(path) is not None for path in paths)
        homes = [home] if inside else [home, *(mount for mount in self.mounts.mounts if mount is not home)]
        with ExitStack() as stack:
            for number, candidate in enumerate(homes, 1):
                try:
                    tx = stack.enter_context(self._begin(candidate, write))
                except MissingStore:
                    if number == len(homes):
                        raise
                    continue
                home = candidate
                break
            yield MountedTx(self.mounts, home, tx)

    def _begin(self, home: Mount | None, write: bool) -> AbstractContextManager[StoreTx]:
        return _Checked(self._store_tx(home, write), self.check)

    def _store_tx(self, home: Mount | None, write: bool) -> AbstractContextManager[StoreTx]:
        """The store's own transaction (not begun, and not checked yet) for ``home``, None: the session's store."""
        # A mount is bound to its store by number: renamed, or its name given to another store,
        # the session still works in the store it attached (and a deleted one is an error).
        namespace, create = (self.namespace, self.create) if home is None else (home.store.name, False)
        key = self.store_key if home is None else home.store.key
        return self.store.transaction(
            namespace,
            write=write,
            clock=self.clock,
            actor=self.actor,
            create=create,
            history=self.history,
            store_key=key,
        )

    def __call__(self, call: Call, call_next: Handler) -> Result:
        with self.open(call.command.paths, write=call.command.mutates) as tx:
            call.tx, call.now = tx, tx.now
            try:
                return call_next(call)
            finally:
                call.tx = None


class _OneStore(AbstractContextManager[StoreTx]):
    """The transaction of a session with one store (a class, not a generator: it is on every command's path)."""

    __slots__ = ("_found", "_inner", "_owner", "_write")

    def __init__(self, owner: Transaction, write: bool) -> None:
        self._owner = owner
        self._write = write
        self._inner: AbstractContextManager[StoreTx] | None = None
        self._found = -1

    def __enter__(self) -> StoreTx:
        owner = self._owner
        try:
            self._inner = owner._store_tx(None, self._write)
            tx = _begun(self._inner, owner.check)
        except MissingStore:
            if not owner.bind or owner.store_key is None:
                raise
            # The store this session was bound to was deleted: its name is free, and the session
            # goes on by name (made again on its next write, under the namespace rule).
            owner.store_key = None
            self._inner = owner._store_tx(None, self._write)
            tx = _begun(self._inner, owner.check)
        self._found = tx.store_key  # < 0: none of that name yet (a read)
        return tx

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        assert self._inner is not None
        self._inner.__exit__(kind, exc, tb)  # commits, or rolls back after ``exc``
        owner = self._owner
        # Committed: the store found (or made) by its name is this session's by its number from
        # then on: an operator renaming it does not move the session into a new, empty store of
        # the old name while its memory lives on under the new one. Never before the commit: a
        # store made by a transaction that rolled back leaves its number to the next store made.
        if kind is None and owner.bind and owner.store_key is None and self._found >= 0:
            owner.store_key = self._found


class _Checked(AbstractContextManager[StoreTx]):
    """A store transaction whose handle check (``Transaction.check``) runs once it has begun."""

    def __init__(self, inner: AbstractContextManager[StoreTx], check: Callable[[], None] | None) -> None:
        self._inner = inner
        self._check = check

    def __enter__(self) -> StoreTx:
        return _begun(self._inner, self._check)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> bool | None:
        return self._inner.__exit__(kind, exc, tb)


def _begun(inner: AbstractContextManager[StoreTx], check: Callable[[], None] | None) -> StoreTx:
    """Begin ``inner``, then run the handle's check under its lock: a refusal rolls it back."""
    tx = inner.__enter__()
    if check is not None:
        try:
            check()
        except BaseException as exc:
            inner.__exit__(type(exc), exc, exc.__traceback__)
            raise
    return tx
