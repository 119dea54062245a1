"""SecureMemory: the safe recipe. Policy -> middleware chain -> dispatcher -> store, one transaction.

``execute`` never raises for anything the model sends: every failure becomes a Result with
``is_error=True`` and a message the model can act on. The whole chain runs inside one store
transaction (a write transaction, ``BEGIN IMMEDIATE``, for anything that may write), so a failed
command writes nothing and a check made by a layer still holds when the write happens.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

from securemem import audit
from securemem.commands import Command, Result, parse_command
from securemem.dispatcher import Dispatcher, DispatchOptions
from securemem.errors import CommandError, SecureMemError, StorageError
from securemem.keys import KeyMaterial
from securemem.middleware import Call, Handler, Middleware, build_layers, chain
from securemem.policy import Policy, load_policy
from securemem.store.base import Store
from securemem.store.sqlcipher import SQLCipherStore
from securemem.sweep import DEFAULT_BATCH, BackgroundSweeper, SweepReport, sweep

logger = logging.getLogger("securemem")
Clock = Callable[[], float]
_NAMESPACE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:-]{0,127}$")


def check_namespace(name: str) -> str:
    if not isinstance(name, str) or not _NAMESPACE.match(name):
        raise SecureMemError(
            "a namespace is 1-128 characters: letters, digits and _ . @ : - (starting with a letter or digit)"
        )
    return name


class SecureMemory:
    """One namespace of an encrypted store, behind the policy's middleware chain."""

    def __init__(
        self,
        store: Store,
        policy: Policy,
        *,
        namespace: str = "default",
        clock: Clock = time.time,
        layers: Sequence[Middleware] = (),
        owns_store: bool = True,
    ) -> None:
        self.store = store
        self.policy = policy
        self.namespace = check_namespace(namespace)
        self.clock = clock
        self._extra = tuple(layers)
        self._owns_store = owns_store
        options = DispatchOptions(
            overwrite_on_create=policy.create.overwrite,
            max_image_bytes=policy.view.max_image_bytes,
            max_chars=policy.view.max_chars,
        )
        token_key = bytes.fromhex(store.meta["token_key"])
        self._handler: Handler = chain(build_layers(policy, token_key, self._extra), Dispatcher(options))

    @classmethod
    def open(
        cls,
        db_path: str | os.PathLike[str],
        *,
        key: bytes | str,
        policy: Policy | str | os.PathLike[str] | None = None,
        namespace: str = "default",
        clock: Clock = time.time,
        layers: Sequence[Middleware] = (),
        create: bool = True,
    ) -> SecureMemory:
        """Open (or create) the store at ``db_path``.

        ``key`` is 32 raw bytes (the SQLCipher key itself) or a passphrase (stretched once here).
        ``policy`` is None (the shipped default), a Policy, a policy file path or a shipped name.
        """
        resolved = load_policy(policy if policy is None or isinstance(policy, Policy) else str(policy))
        check_namespace(namespace)
        store = SQLCipherStore.open(db_path, KeyMaterial(key), create=create, durability=resolved.storage.durability)
        return cls(store, resolved, namespace=namespace, clock=clock, layers=layers)

    def in_namespace(self, namespace: str) -> SecureMemory:
        """Another namespace of the same store, same policy (closing it leaves the store open)."""
        return SecureMemory(
            self.store, self.policy, namespace=namespace, clock=self.clock, layers=self._extra, owns_store=False
        )

    # -- commands --------------------------------------------------------------------------

    def execute(self, tool_input: Mapping[str, Any]) -> Result:
        """Run one memory tool input; every failure comes back as ``is_error`` with a message."""
        started = time.perf_counter()
        command: Command | None = None
        facts: dict[str, Any] = {}
        try:
            command = parse_command(tool_input)
            result = self._run(command, facts)
        except CommandError as exc:
            result = _error(str(exc), exc)
        except StorageError as exc:
            result = _error(f"Error: {exc}. The command was not applied.", exc)
        except Exception as exc:  # never let a bug become a traceback for the model
            logger.error("internal error running a memory command: %s", _where(exc))
            result = _error("Error: internal error in the memory store; the command was not applied.", exc)
        if audit.enabled():
            elapsed = time.perf_counter() - started
            audit.emit(audit.audit_record(self.policy, self.namespace, command, result, facts=facts, seconds=elapsed))
        return result

    def _run(self, command: Command, facts: dict[str, Any]) -> Result:
        now = self.clock()
        with self.store.transaction(self.namespace, write=command.mutates, now=now) as tx:
            call = Call(command=command, tx=tx, now=now, facts=facts)
            result = self._handler(call)
        if call.followups:
            self._run_followups(call)
        if tx.freed:  # content was deleted (a delete, or an expired file replaced): drop it from the WAL
            self.store.scrub_free_space()
        if call.notes and not result.is_error and isinstance(result.content, str):
            result = Result("\n".join([result.content, *call.notes]), meta=result.meta)
        return result

    def _run_followups(self, call: Call) -> None:
        """A read's small writes; if the store is busy they wait for the next read, the read stands."""
        try:
            with self.store.transaction(self.namespace, write=True, now=call.now) as tx:
                for write in call.followups:
                    write(tx)
        except StorageError as exc:
            logger.warning("expiry refresh after a read skipped: %s", exc)

    # -- expiry sweeps (they cover every namespace of the store) ------------------------------

    def sweep(self, *, batch: int = DEFAULT_BATCH) -> SweepReport:
        """Delete every expired file now, in short batches."""
        return sweep(self.store, self.clock(), batch=batch)

    def sweeper(self, every: float, *, batch: int = DEFAULT_BATCH) -> BackgroundSweeper:
        """A background sweeper thread (not started): ``with memory.sweeper(600): ...``."""
        return BackgroundSweeper(self.store, every=every, clock=self.clock, batch=batch)

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> SecureMemory:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _error(message: str, exc: BaseException) -> Result:
    return Result(message, is_error=True, meta={"error": type(exc).__name__})


def _where(exc: BaseException) -> str:
    """Type and innermost frame of an exception: never its message, which may carry data."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    place = f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}" if tb else "?"
    return f"{type(exc).__name__} at {place}"
