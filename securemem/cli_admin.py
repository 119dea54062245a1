"""``securemem stores``, and what every admin command shares (stores-api.md on the command line).

The admin commands are ``stores`` (here), ``memories`` and ``versions`` (cli_memories.py),
``export`` and ``import`` (cli_transfer.py) and ``audit`` (cli_audit.py). Every command opens the
store file with the same key options as the operator commands, and runs under the policy the
store records: there is no ``--policy`` here, so an admin write cannot loosen the rules (path
guard, PII scrubbing, quotas) that the memory tool's writes obey.

Output is JSON, one object per line, in ASCII: every other character is escaped, so a memory's
content cannot drive the terminal it is printed on. A listing prints one line per item, then
``{"next_page": ...}`` only when there is a next page (``--all`` walks every page instead).
Exit 0 ok; 1 an admin call refused or failed: ``{"error": {"code", "status", "message"}}`` on
stdout and one line on stderr; 2 a usage, key or database problem, as for every command.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeAlias, TypeVar

from securemem.actors import is_reserved
from securemem.admin import Admin, Page
from securemem.cli import EXIT_COMMAND, EXIT_OK, UsageError, _Parser, _store_args, say, store_keys
from securemem.errors import ApiError, NotFound
from securemem.store.base import Store, StoreInfo
from securemem.text import is_unicode_text

T = TypeVar("T")
Handler = Callable[[argparse.Namespace], int]
Subcommands: TypeAlias = "argparse._SubParsersAction[Any]"  # what add_subparsers returns

DEFAULT_ACTOR = "securemem-cli"  # the api_key_id recorded on the versions a CLI command creates
PAGE_SIZE, ALL_PAGE_SIZE = 20, 200  # a page shown to a person; a page of a walk with --all
STORE_ID_PREFIX = "memstore_"
STORE_ID = re.compile(r"memstore_[0-9a-f]{24}", re.IGNORECASE)  # an id's shape, in any case (a name may take it too)


# -- output ----------------------------------------------------------------------------------


def emit(item: Mapping[str, Any]) -> None:
    """One JSON line on stdout; ensure_ascii: no character of a memory reaches the terminal raw."""
    sys.stdout.write(json.dumps(item, ensure_ascii=True) + "\n")


def iso(value: datetime) -> str:
    """ISO 8601 in UTC, always with microseconds, so every time has one width and sorts as text."""
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def record(item: Any, *, content: bool = False) -> dict[str, Any]:
    """An admin record (store, memory, version) as JSON fields; ``content`` only when asked for."""
    fields = {field.name: getattr(item, field.name) for field in dataclasses.fields(item)}
    if not content:
        fields.pop("content", None)
    return {name: iso(value) if isinstance(value, datetime) else value for name, value in fields.items()}


def error_record(exc: ApiError) -> dict[str, Any]:
    # An admin error's message is as safe as the model's: no content, no PII, no key material.
    return {"code": exc.code, "status": exc.status, "message": str(exc)}


def refusals(handler: Handler) -> Handler:
    """Run a command; an admin call's refusal becomes the JSON error, a line on stderr, and exit 1."""

    @functools.wraps(handler)
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except ApiError as exc:
            emit({"error": error_record(exc)})
            say(f"securemem: {exc.code}: {exc}", sys.stderr)
            return EXIT_COMMAND

    return run


def listing(args: argparse.Namespace, fetch: Callable[[int, str | None], Page[T]], show: Callable[[T], Any]) -> int:
    """Print a page (or, with --all, every page from --page on) and the next page's cursor, if any."""
    limit = args.limit if args.limit is not None else (ALL_PAGE_SIZE if args.all else PAGE_SIZE)
    page = args.page
    while True:
        found = fetch(limit, page)
        for item in found.data:
            emit(show(item))
        if found.next_page is None:
            return EXIT_OK
        if not args.all:
            emit({"next_page": found.next_page})
            return EXIT_OK
        page = found.next_page


# -- opening, and what the arguments name ----------------------------------------------------


@contextmanager
def opened(args: argparse.Namespace) -> Iterator[Admin]:
    """The store file under its own recorded policy (policy=None); never creates a missing file."""
    keys = store_keys(args)
    with Admin.open(
        args.db,
        key=keys.get("key"),
        kek=keys.get("kek"),
        api_key_id=args.api_key_id,
        create=False,
        wait=getattr(args, "wait", None),
    ) as admin:
        yield admin


def find_store(store: Store, ref: str) -> StoreInfo:
    """The store whose id is ``ref`` when it has the shape of an id, else the store named ``ref``.

    An id never falls back to a name: a store may be named like an id (a namespace such as
    ``memstore_<hex>``), and a retried command that names a deleted store by its id must find
    nothing, not act on a store that took that id as its name."""
    shaped = STORE_ID.fullmatch(ref) is not None
    if not is_unicode_text(ref):  # a byte of the command line that is not UTF-8: no store has that name
        info = None
    else:
        info = store.find_store(store_id=ref) if shaped else store.find_store(name=ref)
    if info is None:
        raise NotFound("no memory store has that id or name")
    return info


# -- stores ----------------------------------------------------------------------------------


def cmd_stores_create(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        emit(record(admin.memory_stores.create(name=args.name, description=args.description)))
    return EXIT_OK


def cmd_stores_list(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        return listing(args, lambda limit, page: admin.memory_stores.list(limit=limit, page=page), record)


def cmd_stores_show(args: argparse.Namespace) -> int:
    with opened(args) as admin:
        emit(record(admin.memory_stores.retrieve(find_store(admin.store, args.store).id)))
    return EXIT_OK


def cmd_stores_update(args: argparse.Namespace) -> int:
    if args.name is None and args.description is None:
        raise UsageError("stores update changes --name, --description or both: give at least one")
    with opened(args) as admin:
        store_id = find_store(admin.store, args.store).id
        emit(record(admin.memory_stores.update(store_id, name=args.name, description=args.description)))
    return EXIT_OK


def cmd_stores_delete(args: argparse.Namespace) -> int:
    if not args.yes:
        raise UsageError("stores delete erases every memory and version of the store, unrecoverably: add --yes")
    with opened(args) as admin:
        info = find_store(admin.store, args.store)
        admin.memory_stores.delete(info.id)
    emit({"deleted": True, "id": info.id, "name": info.name})
    return EXIT_OK


# -- parser ----------------------------------------------------------------------------------


def group(sub: Subcommands, name: str, summary: str, examples: list[str]) -> Subcommands:
    """A command group (``securemem stores``, ...) and the subparsers of its actions."""
    parser: argparse.ArgumentParser = sub.add_parser(name, **_help(summary, examples))
    return parser.add_subparsers(dest="action", required=True, parser_class=_Parser)


def command(
    actions: Subcommands, name: str, summary: str, examples: list[str], handler: Handler, *, admin: bool = True
) -> argparse.ArgumentParser:
    """One action: the store and key options, --api-key-id (when it opens the admin surface), its help."""
    parser: argparse.ArgumentParser = actions.add_parser(name, **_help(summary, examples))
    _store_args(parser, policy=False)
    if admin:
        parser.add_argument(
            "--api-key-id",
            default=DEFAULT_ACTOR,
            type=actor_id,
            metavar="ID",
            help=f"the actor recorded on the versions this command creates (default: {DEFAULT_ACTOR})",
        )
    parser.set_defaults(handler=refusals(handler))
    return parser


def actor_id(text: str) -> str:
    """--api-key-id: any id but the ones securemem records for its own work (a usage error)."""
    if is_reserved(text):
        raise argparse.ArgumentTypeError("an id starting with 'securemem:' is securemem's own (expiry, migration)")
    return text


class _Help(argparse.RawDescriptionHelpFormatter):
    """Examples keep their lines; the rest wraps as usual."""


def _help(summary: str, examples: list[str]) -> dict[str, Any]:
    # allow_abbrev=False: "--content TEXT" must not pass for "--content-file TEXT" (and a script's
    # option means one thing even when a later release adds options that share its prefix).
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples)
    return {"help": summary, "description": summary, "epilog": epilog, "formatter_class": _Help, "allow_abbrev": False}


def store_ref(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", required=True, metavar="NAME_OR_ID", help="a memstore_... id or a store's name")


def paging(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, help=f"items per page, 1 to 1000 (default: {PAGE_SIZE})")
    parser.add_argument("--page", help="the next_page cursor printed by the previous listing")
    parser.add_argument("--all", action="store_true", help="walk every page (from --page on), no next_page line")


def no_content(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-content", action="store_true", help="print the metadata only, not the content")


def stores_commands(sub: Subcommands) -> None:
    db = "--db agent.db"
    actions = group(
        sub, "stores", "create, list, show, rename and delete memory stores", [f"securemem stores list {db}"]
    )
    create = command(
        actions,
        "create",
        "create a store",
        [f'securemem stores create {db} --name team-notes --description "What the team learned"'],
        cmd_stores_create,
    )
    create.add_argument("--name", required=True, help="1 to 128 characters, unique in the file")
    create.add_argument("--description", default="", help="what the store holds (shown to the agent)")
    stores_list = command(
        actions, "list", "list the stores, oldest first", [f"securemem stores list {db} --all"], cmd_stores_list
    )
    paging(stores_list)
    show = command(
        actions, "show", "show one store", [f"securemem stores show {db} --store team-notes"], cmd_stores_show
    )
    store_ref(show)
    update = command(
        actions,
        "update",
        "rename a store or change its description",
        [f'securemem stores update {db} --store team-notes --name "Team notes"'],
        cmd_stores_update,
    )
    store_ref(update)
    update.add_argument("--name", help="the new name")
    update.add_argument("--description", help="the new description")
    delete = command(
        actions,
        "delete",
        "delete a store: every memory and version of it erased, unrecoverably",
        [f"securemem stores delete {db} --store old-notes --yes"],
        cmd_stores_delete,
    )
    store_ref(delete)
    delete.add_argument("--yes", action="store_true", help="confirm: the erasure cannot be undone")


def admin_commands(sub: Subcommands) -> None:
    """Register the admin command groups on the top-level parser's subcommands."""
    from securemem.cli_audit import audit_commands
    from securemem.cli_memories import memories_commands, versions_commands
    from securemem.cli_transfer import transfer_commands

    stores_commands(sub)
    memories_commands(sub)
    versions_commands(sub)
    transfer_commands(sub)
    audit_commands(sub)
