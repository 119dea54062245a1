"""What every admin resource shares: the store, ids, argument checks, the write chain, errors.

Errors are mapped by type, never by message text: the path guard's refusals become
``InvalidRequest``, the policy's (PII, secrets, quotas) ``PolicyViolation``, a taken path
``Conflict``; their messages are the ones the model would get, which never echo content or PII.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from securemem import audit
from securemem.admin.endpoint import Request, endpoint, hex_sha256
from securemem.admin.ids import Ids
from securemem.admin.models import Memory, MemoryStore, Page, utc
from securemem.commands import AdminCommand
from securemem.errors import (
    AlreadyExists,
    Conflict,
    InvalidInput,
    InvalidPath,
    InvalidRange,
    InvalidRequest,
    NotFound,
    PIIRefused,
    PolicyChangedError,
    PolicyViolation,
    QuotaExceeded,
    ReadOnly,
    StorageError,
)
from securemem.memory import SecureMemory, history_of
from securemem.middleware import Call, Transaction, chain, policy_layers
from securemem.paths import ROOT
from securemem.store.base import Actor, Entry, MissingStore, StoreInfo, StoreTx
from securemem.text import is_unicode_text

T = TypeVar("T")
MAX_LIMIT = 1000
STORE_GONE = "no memory store has that id"


_logger = logging.getLogger("securemem")


class Context:
    def __init__(self, memory: SecureMemory, *, api_key_id: str | None) -> None:
        self.memory = memory
        self.store = memory.store
        self.clock = memory.clock
        self.actor = Actor(None, api_key_id)
        self.ids = Ids(self.store.token_key)
        self.history = history_of(memory.policy)
        self._layers = policy_layers(memory.policy, self.store.token_key, admin=True)

    # -- stores -----------------------------------------------------------------------------

    def check_store_text(self, name: str | None, description: str | None) -> None:
        """A store's name becomes a path the model sees (its mount) and, with its description, a
        line of the session's system prompt: under a policy that scans for personal data and
        secrets, neither may carry any (``PolicyViolation`` naming the types, never the values)."""
        policy = self.memory.policy
        texts = [text for text in (name, description) if text]
        if not policy.pii.enabled or not texts:
            return
        from securemem.pii.scrub import Scrubber  # the scanner loads on first use (securemem/pii/__init__.py)

        scrubber = Scrubber(policy.pii.actions, hash_key=self.store.token_key, phone_regions=policy.pii.phone_regions)
        found = sorted({kind for text in texts for kind in scrubber.contains(text)})
        if found:
            raise PolicyViolation(
                f"a store's name and description reach the model (as its directory and in its instructions) and "
                f"must not carry personal data or secrets; found {', '.join(found)} (policy '{policy.name}')"
            )

    def erase_now(self) -> None:
        """Erase what a redaction or a store's deletion freed before the call returns: the contract says
        it is unrecoverable from the files, with no window (the memory tool's own deletions wait up to
        ``storage.erase_within``; a crash in that window left redacted text on disk until the next open:
        an attacker's round). Readers keeping the store busy past the busy timeout leave it to the
        eraser, which retries; the call has done what it was asked and says so."""
        try:
            self.store.flush_erasure()
        except StorageError as exc:
            audit.log_quietly(_logger, logging.WARNING, "an erasure the admin call freed is pending (retried): %s", exc)

    def store_info(self, store_id: object) -> StoreInfo:
        if not isinstance(store_id, str):
            raise InvalidRequest("a memory store id must be a string")
        if not is_unicode_text(store_id):
            raise NotFound(STORE_GONE)  # no id of ours holds a lone surrogate
        info = self.store.find_store(store_id=store_id)
        if info is None:
            raise NotFound(STORE_GONE)
        return info

    def public_store(self, info: StoreInfo) -> MemoryStore:
        created, updated = utc(info.created), utc(info.updated)
        assert created is not None and updated is not None
        return MemoryStore(info.id, info.name, info.description, created, updated)

    @contextmanager
    def reading(self, info: StoreInfo) -> Iterator[StoreTx]:
        # A store deleted between the lookup of its id and this read is gone: NotFound, as for any
        # unknown store (never the store's own MissingStore).
        with (
            translated(),
            self.store.transaction(
                info.name, write=False, clock=self.clock, history=self.history, store_key=info.key
            ) as tx,
        ):
            yield tx

    def writing(self, info: StoreInfo) -> AbstractContextManager[StoreTx]:
        return self._writing(info)

    @contextmanager
    def _writing(self, info: StoreInfo) -> Iterator[StoreTx]:
        with (
            translated(),
            self.store.transaction(
                info.name,
                write=True,
                clock=self.clock,
                actor=self.actor,
                create=False,
                history=self.history,
                store_key=info.key,
            ) as tx,
        ):
            self.memory.ensure_policy()
            yield tx

    # -- writes through the policy's layers --------------------------------------------------

    def run(self, info: StoreInfo, command: AdminCommand, request: Request) -> Any:
        """One admin write through the path guard, PII, TTL and quota layers, then the endpoint."""
        transaction = Transaction(
            self.store,
            info.name,
            self.clock,
            self.memory.ensure_policy,
            self.actor,
            create=False,
            history=self.history,
            store_key=info.key,
        )
        handler = chain([*self._layers, transaction], endpoint)
        call = Call(command)
        call.request = request
        operation = "delete" if command.command == "remove" else command.command
        asked = getattr(request, "memory", None)
        try:
            with translated():
                result = handler(call)
            if result.is_error:  # a layer answered instead of raising (none does today)
                raise PolicyViolation(result.text)
        except Exception as exc:
            # a refused change is on the record too, as a tool command's is (an attacker's round): its class only
            self.audit(operation, info, memory=asked, outcome="error", error=type(exc).__name__)
            raise
        outcome = call.outcome
        memory = outcome[0].memory if isinstance(outcome, tuple) and isinstance(outcome[0], Entry) else asked
        self.audit(operation, info, memory=memory, outcome="ok")
        return outcome

    def audit(self, operation: str, info: StoreInfo | None, *, memory: int | None = None, **facts: Any) -> None:
        """One record on the audit log for an admin change, as each memory command has one (an attacker's
        round: admin writes, redactions and a store's deletion left none): which operation, on which store and
        memory, by which API key; never a path, a name or content."""
        audit.event(
            "admin",
            operation=operation,
            store=None if info is None else info.id,
            memory=None if not memory else self.ids.encode("mem", memory),
            api_key_id=self.actor.api_key_id,
            **facts,
        )

    @contextmanager
    def refusals(self, operation: str, info: StoreInfo | None, *, memory: int | None = None) -> Iterator[None]:
        """A store-level change or a redaction that is refused once its store is known is on the record too,
        with its error's class only, as a refused memory write is."""
        try:
            yield
        except Exception as exc:
            self.audit(operation, info, memory=memory, outcome="error", error=type(exc).__name__)
            raise

    # -- records -----------------------------------------------------------------------------

    def public_memory(self, info: StoreInfo, entry: Entry, data: bytes | None, *, content: bool) -> Memory:
        created, updated = utc(entry.created), utc(entry.modified)
        assert created is not None and updated is not None and data is not None
        return Memory(
            id=self.ids.encode("mem", entry.memory),
            store_id=info.id,
            path=outer(entry.path),
            content_sha256=hex_sha256(data),
            content_size_bytes=len(data),
            created_at=created,
            updated_at=updated,
            content=data.decode("utf-8", "replace") if content else None,
        )


@contextmanager
def translated() -> Iterator[None]:
    """The layers' and the store's errors, as the contract's."""
    try:
        yield
    except (InvalidPath, InvalidInput, InvalidRange) as exc:
        raise InvalidRequest(store_relative(str(exc))) from None
    except (PIIRefused, QuotaExceeded) as exc:
        # the path and the advice in store-relative terms too (an attacker's round: "Quota exceeded:
        # /memories/moved.md would be ...", "such as /memories/customers/customer-42.md")
        raise PolicyViolation(store_relative(str(exc))) from None
    except ReadOnly as exc:  # names the policy's rule, whose glob is written in the memory tool's paths
        raise PolicyViolation(str(exc)) from None
    except (AlreadyExists, PolicyChangedError) as exc:  # the store's policy changed: the handle must reopen
        raise Conflict(str(exc)) from None
    except MissingStore:
        raise NotFound(STORE_GONE) from None


_RULE = "Paths must be /memories or start with /memories/, use plain names"
_TOOL_PATH = re.compile(r"(?<![\w/])/memories(?:/|(?!\w))")


def store_relative(message: str) -> str:
    """A path guard's message in the admin surface's terms: its paths are store-relative ("/notes/a.md"),
    the memory tool's are below /memories; advice in the tool's terms would name the wrong path."""
    message = message.replace(_RULE, "Paths are absolute inside the store (such as /notes/a.md), use plain names")
    message = message.replace("The /memories directory itself", "The store's root directory itself")
    return _TOOL_PATH.sub("/", message)


def limit_of(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest(f"limit must be an integer from 1 to {MAX_LIMIT}")
    return limit


def inner(path: object) -> str:
    """A memory's store-relative path (``/notes/a.md``) as the memory tool names it
    (``/memories/notes/a.md``). A trailing "/" names a directory, never a memory (the memory tool's
    ``create`` refuses it too): ``/notes/`` is refused, not written as ``/notes``."""
    if not isinstance(path, str):
        raise InvalidRequest("a path must be a string")
    if not path.startswith("/"):
        raise InvalidRequest("a path is absolute inside the store, such as /notes/a.md")
    if path.endswith("/"):
        raise InvalidRequest("a memory's path names a file, such as /notes.md; a path ending in '/' names a directory")
    return ROOT + path


def outer(path: str) -> str:
    return path[len(ROOT) :] or "/"


def text_of(content: object) -> str:
    if not isinstance(content, str):
        raise InvalidRequest("content must be a string")
    if not is_unicode_text(content):
        raise InvalidRequest("content must be Unicode text that UTF-8 can hold (it has a lone surrogate)")
    return content


def paged(items: list[T], limit: int, cursor: Callable[[T], str]) -> Page[T]:
    """``items`` holds up to ``limit + 1`` rows: the extra one only says that another page exists."""
    if len(items) <= limit:
        return Page(items, None)
    shown = items[:limit]
    return Page(shown, cursor(shown[-1]))
