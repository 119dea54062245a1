"""``securemem memories | versions``: a store's memories and their versions (stores-api.md).

Content goes in from a file or stdin, never from the command line (where the process table and
the shell history would keep it), and comes out only where the contract returns it: ``cat``,
``versions show``, and the results of ``write``, ``update`` and ``restore`` (``--no-content``
drops it). Output, errors and exit codes are those of ``cli_admin.py``.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from securemem.admin import Admin, Page
from securemem.cli import EXIT_OK, UsageError
from securemem.cli_admin import (
    Subcommands,
    command,
    emit,
    find_store,
    group,
    listing,
    no_content,
    opened,
    paging,
    record,
    store_ref,
)
from securemem.errors import InvalidRequest, NotFound
from securemem.private_files import read_limited
from securemem.text import is_unicode_text


def memory_id(admin: Admin, store_id: str, ref: str) -> str:
    """A ``mem_...`` id as given, or the id of the memory at a path (a path starts with "/")."""
    if not ref.startswith("/"):
        return ref
    if not is_unicode_text(ref):  # a command-line byte that is not UTF-8: no memory's path holds one
        raise InvalidRequest("the path must be Unicode text that UTF-8 can hold (it has a lone surrogate)")
    # The exact path sorts first among the paths it prefixes, so one item answers.
    found = admin.memories.list(store_id, path_prefix=ref, limit=1).data
    if not found or found[0].path != ref:
        raise NotFound("no memory is at that path in this store")
    return found[0].id


def read_content(source: str) -> str:
    """A memory's text from a file or stdin ('-'): never the command line, where the process table
    and the shell history would keep it."""
    try:
        data = read_limited(sys.stdin.buffer if source == "-" else source)
    except OSError as exc:
        raise UsageError(f"cannot read the content from {source}: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = "stdin" if source == "-" else source
        raise UsageError(f"the content in {where} is not UTF-8 (byte {exc.start + 1})") from None


def moment(text: str) -> datetime:
    """--since / --until: an ISO 8601 date or time; one without a zone is UTC."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        shown = repr(text[:40]) if is_unicode_text(text) else "a byte in it is not UTF-8"
        raise argparse.ArgumentTypeError(f"not an ISO 8601 date or time: {shown}") from None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# -- memories --------------------------------------------------------------------------------


def cmd_memories_ls(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        return listing(
            args,
            lambda limit, page: admin.memories.list(store_id, path_prefix=args.path_prefix, limit=limit, page=page),
            record,
        )


def cmd_memories_cat(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        memory = admin.memories.retrieve(store_id, memory_id(admin, store_id, args.memory))
    emit(record(memory, content=not args.no_content))
    return EXIT_OK


def cmd_memories_write(args: argparse.Namespace) -> int:
    content = read_content(args.content_file)
    precondition = {"type": "not_exists"} if args.if_not_exists else None
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        memory = admin.memories.write(store_id, path=args.path, content=content, precondition=precondition)
    emit(record(memory, content=not args.no_content))
    return EXIT_OK


def _update_precondition(args: argparse.Namespace) -> dict[str, str] | None:
    if args.if_sha256 is not None:
        return {"type": "content_sha256", "content_sha256": args.if_sha256}
    return {"type": "not_exists"} if args.if_not_exists else None


def cmd_memories_update(args: argparse.Namespace) -> int:
    if args.content_file is None and args.path is None:
        raise UsageError("memories update changes --content-file, --path or both: give at least one")
    content = None if args.content_file is None else read_content(args.content_file)
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        memory = admin.memories.update(
            store_id,
            memory_id(admin, store_id, args.memory),
            content=content,
            path=args.path,
            precondition=_update_precondition(args),
        )
    emit(record(memory, content=not args.no_content))
    return EXIT_OK


def cmd_memories_rm(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        gone = memory_id(admin, store_id, args.memory)
        admin.memories.delete(store_id, gone, expected_content_sha256=args.if_sha256)
    emit({"deleted": True, "id": gone})
    return EXIT_OK


# -- versions --------------------------------------------------------------------------------


def cmd_versions_ls(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        memory = None if args.memory_id is None else memory_id(admin, store_id, args.memory_id)

        def fetch(limit: int, page: str | None) -> Page[Any]:
            return admin.memory_versions.list(
                store_id,
                memory_id=memory,
                operation=args.operation,
                session_id=args.session_id,
                api_key_id=args.by_api_key_id,
                created_at_gte=args.since,
                created_at_lte=args.until,
                limit=limit,
                page=page,
            )

        return listing(args, fetch, record)


def cmd_versions_show(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        version = admin.memory_versions.retrieve(find_store(admin.store, args.store).id, args.version)
    emit(record(version, content=not args.no_content))
    return EXIT_OK


def cmd_versions_redact(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        version = admin.memory_versions.redact(find_store(admin.store, args.store).id, args.version)
    emit(record(version))
    return EXIT_OK


def cmd_versions_restore(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        memory = admin.memory_versions.restore(find_store(admin.store, args.store).id, args.version)
    emit(record(memory, content=not args.no_content))
    return EXIT_OK


# -- parser ----------------------------------------------------------------------------------


def _memory_ref(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("memory", metavar="MEMORY", help="a mem_... id, or the path of a memory (/notes/a.md)")


class _RefuseContent(argparse.Action):
    """``--content TEXT``, refused without echoing TEXT: it is already in ps and the shell history."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object, **__: object) -> None:
        raise UsageError(
            "content is never taken from the command line (the process table and the shell history keep it): "
            "give --content-file FILE, or --content-file - to read it from stdin"
        )


def _content_file(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument(
        "--content-file",
        required=required,
        metavar="FILE",
        help="the new content, UTF-8 ('-': stdin); never on the command line, where ps and the history keep it",
    )
    parser.add_argument("--content", action=_RefuseContent, help=argparse.SUPPRESS)


_SHA_HELP = "apply only if the stored content still has this SHA-256 (64 lowercase hex digits)"


def _sha(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--if-sha256", metavar="HEX", help=_SHA_HELP)


def memories_commands(sub: Subcommands) -> None:
    db = "--db agent.db --store team-notes"
    summary = "list, read, write, update and remove the memories of a store"
    actions = group(sub, "memories", summary, [f"securemem memories ls {db} --path-prefix /notes/"])
    ls = command(
        actions,
        "ls",
        "list memories in path order (metadata only)",
        [f"securemem memories ls {db} --path-prefix /notes/ --all"],
        cmd_memories_ls,
    )
    store_ref(ls)
    ls.add_argument("--path-prefix", help="a plain prefix: /notes/ matches /notes/a.md, not /notes_old/b.md")
    paging(ls)
    cat = command(
        actions,
        "cat",
        "show one memory with its content",
        [f"securemem memories cat {db} /notes/a.md", f"securemem memories cat {db} mem_... | jq -r .content"],
        cmd_memories_cat,
    )
    store_ref(cat)
    _memory_ref(cat)
    no_content(cat)
    _write_command(actions, db)
    _update_command(actions, db)
    rm = command(
        actions,
        "rm",
        "remove a memory (its versions stay)",
        [f"securemem memories rm {db} /notes/a.md"],
        cmd_memories_rm,
    )
    store_ref(rm)
    _memory_ref(rm)
    _sha(rm)


def _write_command(actions: Subcommands, db: str) -> None:
    write = command(
        actions,
        "write",
        "write a memory at a path (create, or replace what is there)",
        [
            f"securemem memories write {db} --path /notes/a.md --content-file a.md",
            f"printf 'text' | securemem memories write {db} --path /notes/b.md --content-file - --if-not-exists",
        ],
        cmd_memories_write,
    )
    store_ref(write)
    write.add_argument("--path", required=True, help="the memory's path in the store, such as /notes/a.md")
    _content_file(write, required=True)
    write.add_argument("--if-not-exists", action="store_true", help="create only: refused if a memory is at the path")
    no_content(write)


def _update_command(actions: Subcommands, db: str) -> None:
    update = command(
        actions,
        "update",
        "change a memory's content, path (a rename) or both; it keeps its id",
        [
            f"securemem memories update {db} /notes/a.md --path /notes/b.md",
            f"securemem memories update {db} mem_... --content-file new.md --if-sha256 HEX",
        ],
        cmd_memories_update,
    )
    store_ref(update)
    _memory_ref(update)
    _content_file(update, required=False)
    update.add_argument("--path", help="the new path (a rename)")
    preconditions = update.add_mutually_exclusive_group()
    preconditions.add_argument("--if-sha256", metavar="HEX", help=_SHA_HELP)
    preconditions.add_argument(
        "--if-not-exists", action="store_true", help="a rename onto a taken path changes nothing instead of failing"
    )
    no_content(update)


def versions_commands(sub: Subcommands) -> None:
    db = "--db agent.db --store team-notes"
    summary = "list, show, redact and restore the versions of a store's memories"
    actions = group(sub, "versions", summary, [f"securemem versions ls {db} --memory-id mem_..."])
    ls = command(
        actions,
        "ls",
        "list versions, newest first (metadata only)",
        [
            f"securemem versions ls {db} --operation deleted --since 2026-01-01",
            f"securemem versions ls {db} --by-api-key-id ops-cli --all",
        ],
        cmd_versions_ls,
    )
    store_ref(ls)
    ls.add_argument("--memory-id", metavar="MEMORY", help="one memory's versions: a mem_... id (or a live path)")
    ls.add_argument("--operation", choices=("created", "modified", "deleted"))
    ls.add_argument("--session-id", help="versions made by this memory tool session")
    ls.add_argument("--by-api-key-id", metavar="ID", help="versions made by this actor (api_key_id)")
    when = "ISO 8601 time (UTC if it names no zone; a date alone is its 00:00)"
    ls.add_argument("--since", type=moment, help=f"created at or after this {when}")
    ls.add_argument("--until", type=moment, help=f"created at or before this {when}")
    paging(ls)
    actions_of_one = {
        "show": ("show one version, with its content while it has one", cmd_versions_show),
        "redact": ("erase a version's content, hash, size and path; actor and times stay", cmd_versions_redact),
        "restore": ("make a version's content and path the memory's head again", cmd_versions_restore),
    }
    for name, (summary, handler) in actions_of_one.items():
        parser = command(actions, name, summary, [f"securemem versions {name} {db} memver_..."], handler)
        store_ref(parser)
        parser.add_argument("version", metavar="VERSION", help="a memver_... id (from versions ls)")
        if name != "redact":
            no_content(parser)
