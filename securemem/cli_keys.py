"""``securemem keys list | add | remove | rotate-kek | rotate-dek | adopt``: the KEKs and data key of a store.

``add``, ``remove`` and ``rotate-kek`` rewrite only ``DB.keys`` (atomically), never a byte of the
store file. Exit 1 for a refused operation (removing the last KEK, adding one that is there
already), 2 for a usage, key or database problem; one line on stderr either way.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from securemem import audit, custody
from securemem.cli import EXIT_OK, UsageError, _Parser, check_kek, kek_of, key_of, one_line, say, store_keys, warn
from securemem.errors import OutcomeUnknownError
from securemem.keys import KeyProvider, as_key_provider
from securemem.keys.header import keys_path
from securemem.keys.kek import KEK_ENV, FileKek, KekProvider
from securemem.keys.sources import KEY_ENV, default_key_file
from securemem.keys.uri import parse_kek
from securemem.progress import Meter
from securemem.store.factory import split_url
from securemem.targets import is_server_url


def _opener(args: argparse.Namespace) -> KekProvider:
    kek = kek_of(args)
    assert kek is not None
    return kek


def _new(args: argparse.Namespace, uri: str, option: str) -> KekProvider:
    """The KEK ``uri`` names, refused when its file is one of the store's own (see ``check_kek``)."""
    kek = parse_kek(uri)
    check_kek(kek, args.db, option, new=True)
    return kek


def _made(made: bool) -> str:
    return " (a new KEK file, mode 0600: back it up)" if made else ""


def cmd_list(args: argparse.Namespace) -> int:
    entries, authenticated = custody.list_keks(args.db, kek_of(args, required=False))
    if not authenticated:
        where = keys_path(args.db)
        warn(f"no KEK given: {where} is listed unauthenticated (--kek checks it)")
    for entry in entries:
        print(json.dumps({"key_id": entry.key_id, "provider": entry.provider, "added_at": entry.added_at}))
    return EXIT_OK


def cmd_add(args: argparse.Namespace) -> int:
    entry, made = custody.add_kek(args.db, _opener(args), _new(args, args.new_kek, "--new-kek"))
    say(f"{args.db}: KEK {entry.provider}{_made(made)} added as key id {entry.key_id}")
    return EXIT_OK


def cmd_remove(args: argparse.Namespace) -> int:
    gone = custody.remove_kek(args.db, _opener(args), args.key_id)
    say(f"{args.db}: KEK {gone.key_id} ({gone.provider}) removed; it no longer opens the store")
    return EXIT_OK


def cmd_rotate_kek(args: argparse.Namespace) -> int:
    added, removed, made = custody.rotate_kek(args.db, _opener(args), _new(args, args.to, "--to"))
    say(
        f"{args.db}: data key re-wrapped by {added.provider}{_made(made)} (key id {added.key_id}); "
        f"{removed.provider} (key id {removed.key_id}) no longer opens the store"
    )
    return EXIT_OK


def cmd_rotate_dek(args: argparse.Namespace) -> int:
    uris = args.kek or []
    keks = [_new(args, uri, "--kek") for uri in uris] if uris else [_opener(argparse.Namespace(db=args.db, kek=None))]
    # Progress goes to stderr only (a bar on a terminal, a few lines otherwise): stdout keeps
    # the one result line scripts read.
    meter = Meter(f"re-encrypting {one_line(args.db)}", stream=sys.stderr, quiet=args.quiet)
    header = custody.rotate_dek(args.db, keks, progress=meter)
    say(
        f"{args.db}: every page re-encrypted under a new data key, wrapped by the same {len(header.entries)} KEK(s); "
        "the old data key opens nothing any more"
    )
    stale = default_key_file(args.db)
    if Path(stale).exists():  # it was the store's key before it took KEKs (keys adopt): an attacker's round
        warn(
            f"{stale} holds the old data key and opens nothing now, but a command without --kek tries it first: "
            "remove it (the KEKs open the store)"
        )
    return EXIT_OK


def cmd_adopt(args: argparse.Namespace) -> int:
    legacy = key_of(args)
    entry, made = custody.adopt(args.db, legacy, _new(args, args.new_kek, "--new-kek"))
    say(
        f"{args.db}: its key is now wrapped in {keys_path(args.db)} by {entry.provider}{_made(made)} "
        f"(key id {entry.key_id}), not re-encrypted: {legacy.source} still opens it until the data key is rotated"
    )
    return EXIT_OK


def _files_only(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A key command for a store file, or its PostgreSQL form for a ``postgresql://`` URL: list, add,
    remove, rotate-kek and adopt change the KEKs that wrap the deployment's master key (in
    ``sm_meta``); rotate-dek gives every store a new data key (pgrotate.py). A key file option is
    for PostgreSQL only."""

    def run(args: argparse.Namespace) -> int:
        if is_server_url(args.db):
            return _PG[args.action](args)
        if args.action != "adopt" and (getattr(args, "key_file", None) or getattr(args, "passphrase_file", None)):
            if getattr(args, "kek", None):
                raise UsageError(
                    "--kek and --key-file/--passphrase-file cannot be given together: a store opens with one"
                )
            raise UsageError(f"--key-file and --passphrase-file open a PostgreSQL deployment; {args.db} uses KEKs")
        return handler(args)

    return run


# -- a PostgreSQL deployment: the KEKs of its master key -------------------------------------------

_PG_DB = "the PostgreSQL deployment"  # never the URL: it may carry a password
_PG_EVENTS = {"add": "kek_added", "remove": "kek_removed", "rotate-kek": "kek_rotated", "adopt": "store_adopted"}


def _pg_opener(args: argparse.Namespace, *, required: bool = True) -> KeyProvider | KekProvider | None:
    """--kek, $SECUREMEM_KEK, else --key-file, --passphrase-file or $SECUREMEM_KEY (a deployment made with a key)."""
    if not required and not (args.kek or args.key_file or args.passphrase_file or os.environ.get(KEK_ENV)
                             or os.environ.get(KEY_ENV)):  # fmt: skip
        return None
    found = store_keys(args)
    kek = found.get("kek")
    if kek is not None:
        assert isinstance(kek, KekProvider)
        return kek
    return as_key_provider(found["key"])


def _pg_url(args: argparse.Namespace) -> str:
    return split_url(args.db)[1]


def _pg_rotate_dek(args: argparse.Namespace) -> int:
    from securemem.store.factory import open_store
    from securemem.store.postgres import PostgresStore

    keks = args.kek or []
    if len(keks) > 1:
        raise UsageError("one KEK opens a PostgreSQL deployment's master key, which wraps every store's data key: "
                         "give one --kek")  # fmt: skip
    args.kek = keks[0] if keks else None
    opener = _pg_opener(args)
    if isinstance(opener, KekProvider):
        store = open_store(args.db, kek=opener, create=False)
    else:
        store = open_store(args.db, opener, create=False)
    assert isinstance(store, PostgresStore)
    try:
        done = store.rotate_data_keys()
    finally:
        store.close()
    audit.event("dek_rotated", store=store.store_id, by=custody.actor(), stores=done)
    say(f"{_PG_DB}: {done} store(s) re-encrypted under new data keys; the old data keys open nothing in it any more")
    return EXIT_OK


def _pg_list(args: argparse.Namespace) -> int:
    from securemem.store.postgres import kek_entries

    entries, authenticated = kek_entries(_pg_url(args), _pg_opener(args, required=False))
    if not authenticated:
        warn(f"no KEK or key given: {_PG_DB}'s KEKs are listed unauthenticated")
    for entry in entries:
        print(json.dumps({"key_id": entry.key_id, "provider": entry.provider, "added_at": entry.added_at}))
    return EXIT_OK


def _pg_change(
    args: argparse.Namespace, new: KekProvider | None, opener: KeyProvider | KekProvider | None = None, **change: Any
) -> Any:
    """The change made, with a new ``file:`` KEK created first (and removed again if the change fails)."""
    from securemem.store.postgres import change_keks

    opener = opener or _pg_opener(args)
    assert opener is not None
    made = isinstance(new, FileKek) and new.create_if_missing()
    try:
        done = change_keks(_pg_url(args), opener, add=new, **change)
    except OutcomeUnknownError:
        raise  # the change may have been kept: a KEK file just made may be the only one that opens now
    except BaseException:
        if made and isinstance(new, FileKek):
            Path(new.path).unlink(missing_ok=True)
        raise
    facts = {"added": done.added and done.added.key_id, "removed": done.removed and done.removed.key_id}
    kind = _PG_EVENTS[args.action]  # the names custody.py gives the same changes of a store file's KEKs
    audit.event(kind, store=done.deployment, by=custody.actor(), opened_with=done.opened_with, **facts)
    return done, made


def _pg_add(args: argparse.Namespace) -> int:
    done, made = _pg_change(args, parse_kek(args.new_kek))
    say(f"{_PG_DB}: KEK {done.added.provider}{_made(made)} added as key id {done.added.key_id}")
    return EXIT_OK


def _pg_remove(args: argparse.Namespace) -> int:
    done, _ = _pg_change(args, None, remove=args.key_id)
    say(f"{_PG_DB}: KEK {done.removed.key_id} ({done.removed.provider}) removed; it no longer opens it")
    return EXIT_OK


def _pg_rotate_kek(args: argparse.Namespace) -> int:
    done, made = _pg_change(args, parse_kek(args.to), drop_opener=True)
    say(
        f"{_PG_DB}: master key re-wrapped by {done.added.provider}{_made(made)} (key id {done.added.key_id}); "
        f"{done.removed.provider} (key id {done.removed.key_id}) no longer opens it"
    )
    return EXIT_OK


def _pg_adopt(args: argparse.Namespace) -> int:
    done, made = _pg_change(args, parse_kek(args.new_kek), key_of(args))  # the key, whatever $SECUREMEM_KEK says
    say(
        f"{_PG_DB}: its master key is now wrapped by {done.added.provider}{_made(made)} (key id "
        f"{done.added.key_id}) too; the key still opens it until: securemem keys remove --key-id {done.opened_with}"
    )
    return EXIT_OK


_PG: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": _pg_list,
    "add": _pg_add,
    "remove": _pg_remove,
    "rotate-kek": _pg_rotate_kek,
    "adopt": _pg_adopt,
    "rotate-dek": _pg_rotate_dek,
}


def keys_commands(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, parser_class=_Parser)

    def action(
        name: str, help_text: str, handler: Callable[[argparse.Namespace], int], *, kek: bool = True
    ) -> argparse.ArgumentParser:
        command = actions.add_parser(name, help=help_text, description=help_text)
        command.add_argument("--db", required=True, help="path of the encrypted store file, or a postgresql:// URL")
        if kek:
            command.add_argument("--kek", help="a KEK that opens the store (default: $SECUREMEM_KEK, else file:DB.kek)")
            command.add_argument("--key-file", help="a PostgreSQL deployment made with a key: its hex key file")
            command.add_argument("--passphrase-file", help="a PostgreSQL deployment made with a key: its passphrase")
        command.set_defaults(handler=_files_only(handler))
        return command

    action("list", "the KEKs that wrap the store's data key, as JSON lines", cmd_list)
    action("add", "wrap the data key with another KEK too", cmd_add).add_argument("--new-kek", required=True)
    action("remove", "stop a KEK from opening the store (never the last one)", cmd_remove).add_argument(
        "--key-id", required=True
    )
    action("rotate-kek", "wrap the data key with --to and drop the KEK used to open", cmd_rotate_kek).add_argument(
        "--to", required=True
    )
    rotate = actions.add_parser("rotate-dek", help="a new data key: every page re-encrypted (crash-safe)")
    rotate.add_argument("--db", required=True, help="path of the encrypted store file")
    rotate.add_argument(
        "--kek", action="append", help="a KEK of the store; give every one (repeat --kek): each wraps the new key"
    )
    rotate.add_argument("--quiet", action="store_true", help="no progress on stderr (only errors)")
    rotate.add_argument("--key-file", help="a PostgreSQL deployment made with a key: its hex key file")
    rotate.add_argument("--passphrase-file", help="a PostgreSQL deployment made with a key: its passphrase")
    rotate.set_defaults(handler=_files_only(cmd_rotate_dek))
    adopt = action("adopt", "move a store made with a key to KEKs, without re-encrypting", cmd_adopt, kek=False)
    adopt.add_argument("--key-file", help="the store's hex key file (default: DB.key)")
    adopt.add_argument("--passphrase-file", help="a file holding the store's passphrase")
    adopt.add_argument("--new-kek", required=True, help="the KEK URI that will wrap the store's key")
