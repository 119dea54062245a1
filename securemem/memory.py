"""SecureMemory: the safe recipe. Policy -> middleware chain -> dispatcher -> store.

``execute`` never raises, whatever the input and whatever state the store is in: every failure
becomes a Result with ``is_error=True`` and a message the model can act on. The policy's layers
run first, outside the store's lock; the Transaction layer then opens one store transaction for
the command, so a failed command writes nothing and a check made by a layer still holds when the
write happens.

The policy belongs to the store: a store records the policy it runs under, opening it without a
policy uses that one, and opening it with a different one is refused unless the caller asks to
adopt it (``adopt_policy=True``, or ``securemem policy set``), which is written to the audit trail.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from securemem import audit
from securemem.actors import check_actors
from securemem.changes import ALL_LEVELS
from securemem.commands import Command, Result, parse_command
from securemem.dispatcher import Dispatcher, DispatchOptions
from securemem.errors import (
    CommandError,
    InvalidRequest,
    PolicyChangedError,
    PolicyError,
    ReadOnly,
    StorageError,
)
from securemem.middleware import AuditFacts, Call, Handler, Middleware, Transaction, build_layers, chain
from securemem.mounts import MountTable, parse_stores
from securemem.paths import ROOT, parent_of
from securemem.policy import Policy, load_policy
from securemem.store.base import Actor, Clock, History, Store
from securemem.store.factory import open_store
from securemem.sweep import DEFAULT_BATCH, BackgroundSweeper, SweepReport, sweep
from securemem.text import is_unicode_text

logger = logging.getLogger("securemem")
_NAMESPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@:-]{0,127}")
POLICY_SETTING = "policy"
RESTAMP_SETTING = "restamp_pending"  # set while an adopted policy re-stamps the files
_UNSET = "\x00"  # never the text of a recorded policy (JSON)


def check_namespace(name: object, store: Store | None = None) -> str:
    """A namespace name a store may be created under, or (given ``store``) the name of one it has.

    A store created through the admin surface may have any name of 1-128 characters (spaces and
    capitals too); ``namespace=`` opens it by that exact name, but makes a missing one only when
    the name follows the stricter namespace rule.
    """
    # fullmatch: with match and "$", "user-1\n" would pass and name a second, look-alike namespace.
    if isinstance(name, str) and _NAMESPACE.fullmatch(name):
        return name
    if (
        isinstance(name, str)
        and store is not None
        and is_unicode_text(name)
        and store.find_store(name=name) is not None
    ):
        return name
    raise InvalidRequest(
        "a namespace is 1-128 characters: letters, digits and _ . @ : - (starting with a letter or digit), "
        "or the exact name of an existing store"
    )


# Passed by a caller that resolved the handle's policy against the store's itself (SecureMemory.open,
# in_namespace) or, in tests, writes past the store's policy on purpose as an operator would.
POLICY_CHECKED = object()


def new_session_id() -> str:
    return "sess_" + secrets.token_hex(12)


def _check_mounts(mounts: MountTable, policy: Policy, token_key: bytes) -> None:
    """Under a policy that keeps personal data out of paths, no attached store may show any to the
    model: not in its mount (a path every listing shows), nor in the name or the description the
    session's instructions carry (a store named before the policy scanned names)."""
    if not (policy.pii.enabled and policy.pii.refuse_paths):
        return
    from securemem.pii import Scrubber

    scrubber = Scrubber(policy.pii.actions, hash_key=token_key, phone_regions=policy.pii.phone_regions)
    for index, mount in enumerate(mounts.mounts):
        texts = (mount.root, mount.store.name, mount.store.description)  # the prompt is the application's own
        found = sorted({kind for text in texts if text for kind in scrubber.contains(text)})
        if found:
            raise InvalidRequest(
                f"stores[{index}]: the store {mount.store.id}'s mount, name or description carries "
                f"{', '.join(found)}, which the policy '{policy.name}' keeps from the model; rename the store "
                "or change its description (admin memory_stores.update), and give it a neutral mount"
            )


class SecureMemory:
    """One namespace of a store (or several stores, each mounted), behind the policy's middleware chain."""

    def __init__(
        self,
        store: Store,
        policy: Policy,
        *,
        namespace: str = "default",
        clock: Clock = time.time,
        layers: Sequence[Middleware] = (),
        owns_store: bool = True,
        session_id: str | None = None,
        api_key_id: str | None = None,
        mounts: MountTable | None = None,
        adopt_policy: bool = False,
        _checked: object = None,
    ) -> None:
        check_actors(session_id=session_id, api_key_id=api_key_id)
        if _checked is not POLICY_CHECKED:
            # The policy belongs to the store (mounted stores included: they live in it), whichever way
            # the handle is made: a store that records another is refused unless the caller adopts this
            # one (audited), one that records none records this one. SecureMemory.open and
            # in_namespace checked it already (POLICY_CHECKED).
            store_policy(store, policy, adopt=adopt_policy, clock=clock)
        self.store = store
        self.policy = policy
        self.mounts = mounts or MountTable()
        # With mounts, the first attached store stands for the session where one name is asked for.
        self.namespace = self.mounts.mounts[0].store.name if self.mounts else check_namespace(namespace, store)
        self.session_id = session_id or new_session_id()
        self.api_key_id = api_key_id
        self.actor = Actor(self.session_id, api_key_id)  # recorded on every version this handle makes
        self.clock = clock
        self._extra = tuple(layers)
        self._owns_store = owns_store
        self.namespace_id = audit.namespace_digest(store.token_key, self.namespace)
        # The policy text the store recorded when this handle was made: every command checks,
        # under the store's lock, that it is still the store's policy (see _check_policy).
        self._recorded = store.get_setting(POLICY_SETTING)
        options = DispatchOptions(
            overwrite_on_create=policy.create.overwrite, max_image_bytes=policy.view.max_image_bytes
        )
        self._transaction = Transaction(
            store,
            self.namespace,
            clock,
            self._check_policy,
            self.actor,
            mounts=self.mounts,
            history=history_of(policy),
            # A store named outside the namespace rule was opened because it existed: gone (deleted,
            # or renamed by an operator), it is never made again under that name.
            create=_NAMESPACE.fullmatch(self.namespace) is not None,
            bind=True,
        )
        layers, dispatcher = build_layers(policy, self._transaction, self._extra), Dispatcher(options)
        self._handler: Handler = chain(layers, dispatcher)
        # Views run through the layers that act on a command that changes nothing (most do).
        self._reader: Handler = chain(layers, dispatcher, reads=True)

    @classmethod
    def open(
        cls,
        db: str | os.PathLike[str],
        *,
        key: object = None,
        kek: object = None,
        policy: Policy | str | os.PathLike[str] | None = None,
        namespace: str = "default",
        clock: Clock = time.time,
        layers: Sequence[Middleware] = (),
        create: bool = True,
        adopt_policy: bool = False,
        session_id: str | None = None,
        api_key_id: str | None = None,
        stores: Sequence[Mapping[str, object]] | None = None,
        wait: float | None = None,
    ) -> SecureMemory:
        """Open (or create) the store ``db`` (a path, ``sqlcipher:///abs/path``, or ``memory://``).

        ``key``: 32 raw bytes, 64 hex digits, a passphrase ``str``, or a ``KeyProvider``.
        ``kek``: instead of ``key``, a KEK URI (``"file:/etc/sm/kek"``, ``"pkcs11:token=...;object=..."``)
        or a ``KekProvider``: the store's data key is unwrapped from its key header ``DB.keys``.
        ``policy``: None (the store's own policy; the shipped default for a new store), a Policy, a
        policy file path or a shipped name. A store already running under another policy is
        refused unless ``adopt_policy=True``.
        ``session_id`` (default: a fresh ``sess_...``) and ``api_key_id`` are recorded on every
        version this handle's commands create.
        ``stores``: instead of ``namespace``, up to 8 existing stores for one session, each mounted
        at ``/memories/<mount>/``: ``[{"memory_store_id": id, "access": "read_only" | "read_write",
        "prompt": text, "mount": name}, ...]`` (only the id is required; see ``securemem.mounts``).
        A bad attachment raises ``InvalidRequest``. Tell the model about them: ``instructions``.
        ``wait``: the seconds a command waits for another process's write before it fails as busy
        (None: 10 for a file store, 30 for PostgreSQL; 0: at once).
        """
        if stores is not None and namespace != "default":
            raise InvalidRequest(
                "stores= and namespace= cannot be given together: a session with several stores names each in stores="
            )
        if not isinstance(namespace, str) or not 1 <= len(namespace) <= 128:
            check_namespace(namespace)
        check_actors(session_id=session_id, api_key_id=api_key_id)
        requested = None if policy is None else load_policy(policy if isinstance(policy, Policy) else str(policy))
        store = open_store(db, key, create=create, kek=kek, wait=wait)
        try:
            mounts = None if stores is None else parse_stores(stores, lambda id_: store.find_store(store_id=id_))
            resolved = store_policy(store, requested, adopt=adopt_policy, clock=clock)
            if mounts is not None:
                _check_mounts(mounts, resolved, store.token_key)
            configure_store(store, resolved)
            memory = cls(
                store,
                resolved,
                _checked=POLICY_CHECKED,
                namespace=namespace,
                clock=clock,
                layers=layers,
                session_id=session_id,
                api_key_id=api_key_id,
                mounts=mounts,
            )
            memory._pin()
            return memory
        except BaseException:
            store.close()
            raise

    @property
    def instructions(self) -> str:
        """For the system prompt: each mount, its store's name and description, its access and prompt.

        Empty for a session with one store: the memory tool's own prompt says all there is.
        """
        return self.mounts.instructions()

    def in_namespace(self, namespace: str) -> SecureMemory:
        """Another namespace of the same store, same policy (closing it leaves the store open)."""
        other = SecureMemory(
            self.store,
            self.policy,
            namespace=namespace,
            clock=self.clock,
            layers=self._extra,
            owns_store=False,
            session_id=self.session_id,
            api_key_id=self.api_key_id,
            _checked=POLICY_CHECKED,
        )
        other._recorded = self._recorded  # the same policy, checked against what this handle saw
        return other

    # -- commands --------------------------------------------------------------------------

    def execute(self, tool_input: Mapping[str, Any]) -> Result:
        """Run one memory tool input; every failure comes back as ``is_error`` with a message."""
        started = time.perf_counter()
        command: Command | None = None
        call: Call | None = None
        try:
            command = parse_command(tool_input)
            call = Call(command)
            result = self._run(call)
        except CommandError as exc:
            result = _error(str(exc), exc)
        except StorageError as exc:
            result = _error(f"Error: {exc}. The command was not applied.", exc)
        except Exception as exc:  # never let a bug become a traceback for the model
            audit.log_quietly(logger, logging.ERROR, "internal error running a memory command: %s", _where(exc))
            result = _error("Error: internal error in the memory store; the command was not applied.", exc)
        if audit.enabled():
            self._audit(command, call, result, time.perf_counter() - started)
        return result

    def clear_all(self) -> Result:
        """Delete everything below /memories that this session may delete: the SDK's ``clear_all_memory``.

        Each top-level entry (each mount's, in a session with several stores) goes by a ``delete``
        through the whole chain, as a model's would: access rules hold, each deletion is versioned
        with this handle's actor and erased from the files like any other. What a rule keeps (a
        read-only mount or path) stays, and the result is an error that says how much stayed.
        """
        try:
            depth = 2 if self.mounts else 1  # a mount's directory is its store's root: what lies in it goes
            pending = self._below(ROOT, depth)
        except StorageError as exc:
            return _error(f"Error: {exc}. Nothing was deleted.", exc)
        except Exception as exc:  # as execute: never a traceback
            audit.log_quietly(logger, logging.ERROR, "internal error clearing the memory: %s", _where(exc))
            return _error("Error: internal error in the memory store; nothing was deleted.", exc)
        failed: list[Result] = []
        tried = deleted = 0
        walked: set[str] = set()  # directories whose entries were cleared one by one (each tried once more)
        pending.reverse()  # popped from the end: in order
        while pending:
            path, is_dir = pending.pop()
            result = self.execute({"command": "delete", "path": path})
            if not result.is_error:
                tried += 1
                deleted += 1
                continue
            if result.error in _STORE_FAILURES:
                # The store, not a rule, refused (busy, full, closed, re-keyed): each delete after it would wait
                # as long and fail alike (a review: 3,000 entries behind a held lock took a minute), so stop here.
                cause = result.text.removeprefix("Error: ").removesuffix(" The command was not applied.")
                return Result(
                    f"Error: {deleted} of the {tried + 1 + len(pending)} entries below {ROOT} were deleted, then "
                    f"the store refused: {cause} Retry to delete the rest.",
                    is_error=True,
                    error=result.error,
                )
            if (
                is_dir
                and path not in walked
                and result.error == ReadOnly.__name__
                and self.mounts.read_only_refusal(path) is None
            ):
                # Refused for a read-only area inside it ("/memories/a" holding "/memories/a/ro/**"), or read-only
                # itself with a writable area inside ("/memories/ref/**" and "/memories/ref/inbox/**"): what it
                # holds may go one entry at a time, each under the rules, then the directory is tried again (two
                # attackers' rounds: what the session may delete stayed). A read-only mount holds nothing
                # writable: not walked.
                children = self._children(path)
                if children:
                    walked.add(path)
                    pending.append((path, True))
                    pending.extend(reversed(children))
                    continue
            tried += 1
            failed.append(result)
        if failed:
            return Result(
                f"Error: {len(failed)} of the {tried} entries below {ROOT} were not deleted; the first "
                f"refusal: {failed[0].text.removeprefix('Error: ')}",
                is_error=True,
                error=failed[0].error,
            )
        return Result("All memory cleared")

    def _below(self, path: str, depth: int) -> list[tuple[str, bool]]:
        """The entries ``depth`` levels below ``path`` (each path and whether it is a directory), in order."""
        level = path.count("/") + depth
        with self._transaction.open((path,), write=False) as tx:
            entries = tx.tree(path, depth, _keep_all)
        return [(entry.path, entry.is_dir) for entry in entries if entry.path.count("/") == level]

    def _children(self, path: str) -> list[tuple[str, bool]]:
        """``_below(path, 1)``, or none where the store cannot say (the directory's refusal then stands)."""
        try:
            return self._below(path, 1)
        except Exception:  # as execute: never a traceback
            return []

    def _run(self, call: Call) -> Result:
        try:
            result = (self._handler if call.command.mutates else self._reader)(call)
        finally:
            if call.followups:
                self._run_followups(call)
        if call.notes and not result.is_error and isinstance(result.content, str):
            result = Result("\n".join([result.content, *call.notes]), view=result.view)
        return result

    def _pin(self) -> None:
        """Opened by ``open``: the policy read at construction must be the one resolved at open.

        Another process may have set a policy in between; then no recorded text counts as
        current, and every command compares the rules themselves (and is refused).
        """
        try:
            recorded = recorded_policy(self.store)
        except PolicyError:
            recorded = None
        if recorded is None or recorded.model_dump() != self.policy.model_dump():
            self._recorded = _UNSET

    def _check_policy(self) -> None:
        """Refuse the command when an operator set another policy for the store since this handle opened it.

        Runs first inside the command's transaction, after the lock: the policy read is the one
        the command would write under. Refused rather than reloaded: the layers that ran before
        the lock (path rules, PII scrubbing, size checks) ran under the old policy, so a command
        never goes ahead on their word. One lookup of the policy's row per command.
        """
        current = self.store.get_setting(POLICY_SETTING)
        if current == self._recorded:
            return
        try:
            policy = recorded_policy(self.store)
        except PolicyError:  # written by a newer securemem
            policy = None
        if policy is not None and policy.model_dump() == self.policy.model_dump():
            self._recorded = current  # the same rules written again: nothing changed
            return
        name = "one this handle cannot read" if policy is None else f"'{policy.name}'"
        raise PolicyChangedError(
            f"the store's policy was changed by an operator (it now runs under policy {name}, this "
            f"handle under '{self.policy.name}'); reopen the store to run under its current policy"
        )

    def ensure_policy(self) -> None:
        """Inside a write transaction: refuse it if an operator set another policy since this handle opened."""
        self._check_policy()

    def _run_followups(self, call: Call) -> None:
        """A read's small writes; if the store is busy they wait for the next read, the read stands."""
        try:
            # The transaction runs _check_policy: no expiry refresh computed under a policy no longer the store's.
            with self._transaction.open(call.command.paths, write=True) as tx:
                for write in call.followups:
                    write(tx)
        except StorageError as exc:
            audit.log_quietly(logger, logging.WARNING, "expiry refresh after a read skipped: %s", exc)

    def _audit(self, command: Command | None, call: Call | None, result: Result, seconds: float) -> None:
        try:
            facts = call.audit if call is not None else AuditFacts()
            record = audit.audit_record(
                self.policy,
                self._audit_ns(facts),
                command,
                result,
                facts=facts,
                seconds=seconds,
                stored=self.mounts.stored,
            )
            audit.emit(record)
        except Exception as exc:  # the record is best effort; the result stands
            audit.log_quietly(logger, logging.ERROR, "an audit record could not be built (%s)", type(exc).__name__)

    def _audit_ns(self, facts: AuditFacts) -> str:
        """The digest of the store a command worked in: with mounts, that of its last path's mount."""
        if not self.mounts or not facts.paths:
            return self.namespace_id
        return audit.namespace_digest(self.store.token_key, self.mounts.home(facts.paths).store.name)

    # -- expiry sweeps (they cover every namespace of the store) ------------------------------

    def sweep(self, *, batch: int = DEFAULT_BATCH) -> SweepReport:
        """Delete every expired entry now, in short batches, as the store's policy says."""
        return sweep(self.store, self.clock(), batch=batch, keep_content_for=self._sweep_settings())

    def sweeper(self, every: float, *, batch: int = DEFAULT_BATCH) -> BackgroundSweeper:
        """A background sweeper thread (not started): ``with memory.sweeper(600): ...``."""
        return BackgroundSweeper(
            self.store,
            every=every,
            clock=self.clock,
            batch=batch,
            keep_content_for=self.policy.history.keep_content_for,
            before_each=self._sweep_settings,
        )

    def _sweep_settings(self) -> float | None:
        """Before a sweep: what the store's policy says of the history now (an operator may have set
        another since this handle opened; its commands are refused then, its sweeps follow the
        store), configured on the store; the retention it asks for."""
        if self.store.get_setting(POLICY_SETTING) == self._recorded:
            return self.policy.history.keep_content_for  # unchanged since this handle opened
        try:
            policy = recorded_policy(self.store) or self.policy
        except PolicyError:  # written by a newer securemem: sweep as this handle knows
            policy = self.policy
        configure_store(self.store, policy)
        return policy.history.keep_content_for

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> SecureMemory:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def history_of(policy: Policy) -> History:
    """What the policy's history keeps, as the store's versions take it."""
    settings = policy.history
    keep = settings.versions and settings.content == "keep"
    counted = policy.quota.max_total_bytes is not None  # only a total-bytes quota reads the history's total
    return History(versions=settings.versions, content=keep, redact_expired=settings.redact_expired, count=counted)


def configure_store(store: Store, policy: Policy) -> None:
    """Durability, the erasure bound and what the history keeps (for sweeps), as the policy says.

    Each handle's commands record versions as its own policy says (``Transaction(history=...)``);
    what the store is configured with serves sweeps and calls made without a handle.
    """
    store.configure(
        durability=policy.storage.durability, erase_within=policy.storage.erase_within, history=history_of(policy)
    )


def policy_json(policy: Policy) -> str:
    # Only what was set: defaults stay defaults (a later release may improve them), and validators
    # that ask "was this set?" read the recorded policy as they read the file.
    return policy.model_dump_json(exclude_unset=True)


def recorded_policy(store: Store) -> Policy | None:
    """The policy the store records, or None for a store that records none yet."""
    text = store.get_setting(POLICY_SETTING)
    if text is None:
        return None
    try:
        return Policy.model_validate_json(text)
    except ValueError:
        raise PolicyError(
            "the policy recorded in this store cannot be read by this version of securemem; "
            "upgrade securemem, or set a policy with: securemem policy set"
        ) from None


def store_policy(store: Store, requested: Policy | None, *, adopt: bool, clock: Clock = time.time) -> Policy:
    """The policy a store runs under: its own, or ``requested`` when it records none or adopts it."""
    recorded = recorded_policy(store)
    if requested is None:
        requested = recorded or load_policy(None)
    if recorded is not None and recorded.model_dump() == requested.model_dump():
        if store.get_setting(RESTAMP_SETTING):  # an adoption cut short: finish its re-stamp
            restamp(store, recorded, clock())
            store.set_setting(RESTAMP_SETTING, "")
        return recorded
    if recorded is not None and not adopt:
        differ = _differences(recorded.model_dump(), requested.model_dump())
        shown = ", ".join(differ[:_DIFFERENCES_SHOWN]) + (", ..." if len(differ) > _DIFFERENCES_SHOWN else "")
        raise PolicyError(
            f"this store runs under policy '{recorded.name}' (recorded in the store), not the policy "
            f"'{requested.name}' it was opened with (they differ in {shown}); to switch it, run: "
            "securemem policy set --db DB POLICY (in Python: SecureMemory.open(..., adopt_policy=True))"
        )
    # The writes below (and the erasure they set off) run under the policy being recorded, its
    # erasure bound included, not under the defaults the store was opened with.
    configure_store(store, requested)
    if recorded is None:
        store.set_setting(POLICY_SETTING, policy_json(requested))
        return requested
    # Recorded first: from that commit on, every handle still on the old policy refuses to write
    # (SecureMemory._check_policy), so no file written under the old rules can land after the
    # re-stamp of its namespace. The marker makes the next open finish a re-stamp a crash cut short.
    store.set_setting(RESTAMP_SETTING, "pending")
    store.set_setting(POLICY_SETTING, policy_json(requested))
    restamp(store, requested, clock())
    if requested.quota.max_total_bytes is not None:  # the history's total was not kept without one
        store.recount_history()
    store.set_setting(RESTAMP_SETTING, "")
    audit.event("policy_adopted", store=store.store_id, previous=recorded.name, policy=requested.name)
    return requested


_DIFFERENCES_SHOWN = 5  # settings a refusal names (a policy of another name may differ in dozens)


def _differences(recorded: object, requested: object, prefix: str = "") -> list[str]:
    """The dotted names of the settings two policies' dumps differ in (names only: never a value)."""
    if isinstance(recorded, dict) and isinstance(requested, dict):
        found: list[str] = []
        for key in sorted(set(recorded) | set(requested), key=str):
            name = f"{prefix}.{key}" if prefix else str(key)
            if key not in recorded or key not in requested:
                found.append(name)
            else:
                found += _differences(recorded[key], requested[key], name)
        return found
    return [] if recorded == requested else [prefix or "the policy"]


def restamp(store: Store, policy: Policy, now: float) -> int:
    """Give every file the expiry the policy's rules give it now (when a store adopts a policy)."""
    changed = 0
    for namespace in store.namespaces():
        with store.transaction(namespace, write=True, clock=lambda: now) as tx:
            entries = tx.tree(ROOT, ALL_LEVELS, _keep_all)
            now_expires: dict[str, float | None] = {}  # each entry's expiry under the policy adopted
            held: dict[str, list[str]] = {}  # directory -> what it holds
            for entry in entries:
                held.setdefault(parent_of(entry.path), []).append(entry.path)
                if entry.is_dir:
                    continue
                expiry = policy.expiry_for(entry.path)
                base = entry.accessed if expiry.since == "access" else entry.modified
                deadline = now_expires[entry.path] = expiry.deadline(base)
                if deadline != entry.expires:
                    tx.set_expiry(entry.path, deadline)
                    changed += 1
            # A directory's expiry becomes exactly the latest of what it holds (rule 4), which a
            # shorter TTL lowers: files, and directories, an empty one keeping its own. Deepest
            # first, so that each directory is set from its subdirectories' final expiry.
            for entry in sorted((e for e in entries if e.is_dir and e.path != ROOT), key=lambda e: -e.path.count("/")):
                inside = held.get(entry.path)
                deadline = _latest([now_expires[p] for p in inside]) if inside else entry.expires
                now_expires[entry.path] = deadline
                if inside:
                    tx.set_expiry(entry.path, deadline)  # set_expiry of what it holds may have moved it
    return changed


def _latest(expiries: list[float | None]) -> float | None:
    """The latest of several expiries; None (never) if any is None."""
    return None if any(e is None for e in expiries) else max(e for e in expiries if e is not None)


def _subclasses(kind: type[BaseException]) -> set[str]:
    return {kind.__name__}.union(*(_subclasses(sub) for sub in kind.__subclasses__()))


# The names a result's ``error`` carries when the store failed rather than a rule refused (see clear_all).
_STORE_FAILURES = frozenset(_subclasses(StorageError))


def _keep_all(_name: str) -> bool:
    return False


def _error(message: str, exc: BaseException) -> Result:
    return Result(message, is_error=True, error=type(exc).__name__)


def _where(exc: BaseException) -> str:
    """Type and innermost frame of an exception: never its message, which may carry data."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    place = f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}" if tb else "?"
    return f"{type(exc).__name__} at {place}"
