"""The mount table of a session with several stores: pure functions and values, no I/O.

``SecureMemory.open(..., stores=[...])`` attaches up to 8 stores to one session. Each is mounted
at ``/memories/<mount>/``: the model sees one tree, each store holds its files at the paths it
would hold them under when opened alone (``/memories/<mount>/notes.md`` is ``/memories/notes.md``
in the store). The table validates the attachments (every bad one is an ``InvalidRequest`` at
open, never a surprise at the first command), maps a mounted path to its store's path and back,
and writes the instructions that tell the model where each store is and what it may do there.

An empty table is a session with one store: every path is its own stored path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from securemem.errors import InvalidRequest
from securemem.paths import ROOT
from securemem.store.base import StoreInfo

MountAccess = Literal["read_only", "read_write"]
MAX_STORES = 8
MAX_PROMPT_CHARS = 4096
MAX_MOUNT_CHARS = 128  # as long as a store name may be, so every name has a slug that fits
_ACCESS = ("read_only", "read_write")
_KEYS = ("memory_store_id", "access", "prompt", "mount")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_INSIDE = ROOT + "/"


def slug(name: str) -> str:
    """A mount name made from a store name: lower case, ``[a-z0-9-]``, each run of anything else one ``-``.

    Only ASCII letters and digits survive, so a mount can never be a hidden name, a look-alike
    of another or a path trick, whatever the store is called.
    """
    return _NOT_SLUG.sub("-", name.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class Mount:
    """One attached store: where it is mounted, what the session may do there, what the model is told."""

    name: str
    store: StoreInfo
    access: MountAccess = "read_write"
    prompt: str = ""

    @property
    def root(self) -> str:
        """The mounted directory: ``/memories/<name>``."""
        return f"{ROOT}/{self.name}"

    @property
    def read_only(self) -> bool:
        return self.access == "read_only"


class MountTable:
    """The mounts of one session, in attachment order (empty: a session with one store)."""

    __slots__ = ("_by_name", "_slack", "mounts")

    def __init__(self, mounts: Iterable[Mount] = ()) -> None:
        self.mounts = tuple(mounts)
        self._by_name = {mount.name: mount for mount in self.mounts}
        self._slack = max((len(mount.name.encode("utf-8")) + 1 for mount in self.mounts), default=0)

    def __bool__(self) -> bool:
        return bool(self.mounts)

    def slack(self) -> int:
        """The most bytes a mount's directory adds before a path of its store ("/team-notes")."""
        return self._slack

    def mount_of(self, path: str) -> Mount | None:
        """The mount holding a canonical path (its own root included); None for ``/memories`` and outside."""
        if not self._by_name or not path.startswith(_INSIDE):  # most sessions have no mount: asked by every layer
            return None
        return self._by_name.get(path[len(ROOT) + 1 :].split("/", 1)[0])

    def outside(self, path: str) -> bool:
        """True for a path neither ``/memories`` itself nor inside a mount (always False without mounts)."""
        return bool(self.mounts) and path != ROOT and self.mount_of(path) is None

    def is_root(self, path: str) -> bool:
        """True for ``/memories`` and for each mount's own directory (the root of its store)."""
        mount = self.mount_of(path)
        return path == ROOT if mount is None else path == mount.root

    def stored(self, path: str) -> str:
        """The path as its store holds it (the path itself outside any mount)."""
        mount = self.mount_of(path)
        return path if mount is None else ROOT + path[len(mount.root) :]

    def shown(self, mount: Mount, stored: str) -> str:
        """A path of ``mount``'s store as the model sees it."""
        return mount.root + stored[len(ROOT) :]

    def home(self, paths: Sequence[str]) -> Mount:
        """The mount a command works in: that of its last path (a rename's destination), else the first."""
        for path in reversed(paths):
            mount = self.mount_of(path)
            if mount is not None:
                return mount
        return self.mounts[0]

    def roots(self) -> str:
        """Every mounted directory, for messages: ``/memories/a/, /memories/b/``."""
        return ", ".join(f"{mount.root}/" for mount in self.mounts)

    def writable(self) -> tuple[Mount, ...]:
        return tuple(mount for mount in self.mounts if not mount.read_only)

    def read_only_refusal(self, path: str) -> str | None:
        """What a change of ``path`` is told where a read-only mount holds it (its own root included), or None."""
        mount = self.mount_of(path)
        if mount is None or not mount.read_only:
            return None
        writable = self.writable()
        where = (
            f"Write your notes in {', '.join(f'{m.root}/' for m in writable)}."
            if writable
            else "No store of this session can be written to."
        )
        return (
            f"Error: {path} is in {mount.root}/, a read-only mount (store {quoted(mount.store.name)}): it can be "
            f"viewed but nothing in it can be created, edited, moved or deleted. {where}"
        )

    def instructions(self) -> str:
        """What to put in the system prompt: each mount, its store, its access and its prompt."""
        if not self.mounts:
            return ""
        lines = [
            f"Your memory directory {ROOT} holds {len(self.mounts)} memory store(s), each mounted as a "
            "directory of its own. Every path you use must lie inside one of them:",
        ]
        for mount in self.mounts:
            lines += _describe(mount)
        lines.append(
            "Files in a read-only store can be viewed but never created, edited, moved or deleted. "
            "Moving a file from one store to another makes it a new memory in the store it lands in."
        )
        return "\n".join(lines)


def quoted(name: str) -> str:
    """A store name as every text for the model gives it: quoted as JSON. A name is any text, and
    so quoted a quote or a line break in it cannot close the quote and pass for securemem's words."""
    return json.dumps(name, ensure_ascii=False)


def _describe(mount: Mount) -> list[str]:
    access = "read_only" if mount.read_only else "read_write"  # as the contract spells the access
    lines = [f"- {mount.root}/: store {quoted(mount.store.name)} ({access})"]
    if mount.store.description:
        lines.append(_indented("Description", mount.store.description))
    if mount.prompt:
        lines.append(_indented("Instructions", mount.prompt))
    return lines


def _indented(label: str, text: str) -> str:
    """A labelled block under a mount's line; continuation lines indented so the list stays readable."""
    return f"  {label}: " + "\n    ".join(text.splitlines() or [""])


# -- parsing attachments ---------------------------------------------------------------------


def parse_stores(attachments: object, find: Callable[[str], StoreInfo | None]) -> MountTable:
    """Validate ``stores=`` into a mount table; ``find(store_id)`` looks a store up.

    Raises ``InvalidRequest`` for anything wrong: not a list, more than 8 stores, an unknown key,
    a wrong ``access``, a prompt over 4,096 characters, an unknown or repeated store, a mount that
    is not a slug or is taken.
    """
    if isinstance(attachments, str | bytes | Mapping) or not isinstance(attachments, Sequence):
        raise InvalidRequest(
            "stores must be a list of attachments, each a dict with memory_store_id (and optionally access, "
            "prompt, mount)"
        )
    if not 1 <= len(attachments) <= MAX_STORES:
        raise InvalidRequest(f"stores takes 1 to {MAX_STORES} stores; {len(attachments)} were given")
    mounts: list[Mount] = []
    for index, raw in enumerate(attachments):
        mount = _mount(f"stores[{index}]", raw, find)
        for other, taken in enumerate(mounts):
            if taken.store.id == mount.store.id:
                raise InvalidRequest(f"stores[{index}]: the store {mount.store.id} is attached twice")
            if taken.name == mount.name:
                raise InvalidRequest(
                    f"stores[{index}]: the mount '{mount.name}' is already stores[{other}]'s; give one of them "
                    'another with "mount": "name"'
                )
        mounts.append(mount)
    return MountTable(mounts)


def _mount(where: str, raw: object, find: Callable[[str], StoreInfo | None]) -> Mount:
    if not isinstance(raw, Mapping):
        raise InvalidRequest(f"{where} must be a dict with memory_store_id (and optionally access, prompt, mount)")
    unknown = sorted(str(key)[:40] for key in raw if key not in _KEYS)
    if unknown:
        raise InvalidRequest(f"{where}: unknown key {unknown[0]!r} (the keys are: {', '.join(_KEYS)})")
    store_id, access, prompt = raw.get("memory_store_id"), raw.get("access", "read_write"), raw.get("prompt", "")
    if not isinstance(store_id, str):
        raise InvalidRequest(f"{where}.memory_store_id is required: the id of a memory store (a string)")
    if access not in _ACCESS:
        raise InvalidRequest(f"{where}.access must be 'read_only' or 'read_write'")
    if not isinstance(prompt, str) or len(prompt) > MAX_PROMPT_CHARS:
        raise InvalidRequest(f"{where}.prompt must be a string of at most {MAX_PROMPT_CHARS:,} characters")
    store = find(store_id)
    if store is None:
        raise InvalidRequest(f"{where}: no memory store has the id {store_id[:80]!r}")
    return Mount(_mount_name(where, raw, store), store, access, prompt)


def _mount_name(where: str, raw: Mapping[object, object], store: StoreInfo) -> str:
    if "mount" in raw:
        name = raw["mount"]
        if not isinstance(name, str) or len(name) > MAX_MOUNT_CHARS or not _SLUG.fullmatch(name):
            raise InvalidRequest(
                f"{where}.mount must be a slug of 1 to {MAX_MOUNT_CHARS} characters: lower-case letters, digits "
                "and single '-' between them"
            )
        return name
    made = slug(store.name)[:MAX_MOUNT_CHARS].strip("-")
    if not made:
        raise InvalidRequest(
            f"{where}: the name of store {store.id} has no letter or digit a-z, 0-9 to make a mount from; "
            'give one with "mount": "name"'
        )
    return made
