"""The operator's command line: ``securemem init | exec | replay | demo | verify | rekey | sweep | policy |
backup | restore``, ``securemem keys`` (cli_keys.py), and the admin surface's ``stores | memories |
versions | export | import | audit`` (cli_admin.py and the modules it registers).

Exit codes: 0 success, 1 a memory command failed (its message is printed) or a key operation was
refused (removing the last KEK), 2 a usage, key, policy or database problem (one line on stderr,
never a traceback). When the reader of the output goes away (``securemem replay ... | head``),
securemem stops quietly with the status of a process ended by SIGPIPE (141), as coreutils do.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext, suppress
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import IO, Any, NoReturn, TextIO

from securemem.errors import RefusedError, SecureMemError, StorageError, StoreBusyError, WrongKekError, WrongKeyError
from securemem.keys import KeyFile, KeyProvider, as_key_provider, create_key_file
from securemem.keys.header import keys_path
from securemem.keys.kek import KEK_ENV, FileKek, KekProvider
from securemem.keys.sources import KEY_ENV, default_key_file, resolve_key, same_key
from securemem.keys.uri import parse_kek
from securemem.memory import SecureMemory, configure_store, recorded_policy, store_policy
from securemem.middleware import policy_layers
from securemem.policy import exact_duration, load_policy, parse_duration
from securemem.policy_check import describe, policy_warnings
from securemem.private_files import MAX_INPUT_BYTES, keep_keys_out_of_core_dumps, read_limited
from securemem.store.base import Store
from securemem.store.factory import MAX_WAIT, check_wait, open_store, split_url
from securemem.store.sqlcipher import LEFTOVER, REPLAYED, SIDE_FILES, leftover_side_file
from securemem.sweep import DEFAULT_BATCH, SweepReport, sweep
from securemem.targets import is_server_url, shown_target

EXIT_OK, EXIT_COMMAND, EXIT_USAGE = 0, 1, 2


class UsageError(SecureMemError):
    """A problem with how securemem was called."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage dump: operators grep logs for "securemem: error".
        raise UsageError(f"{message} (see: {self.prog} --help)")


def key_of(args: argparse.Namespace) -> KeyProvider:
    """The key for ``--db``: --key-file, --passphrase-file, $SECUREMEM_KEY or DB.key (warnings on stderr)."""
    check_key_file(args.key_file, args.db, "--key-file")
    check_key_file(args.passphrase_file, args.db, "--passphrase-file")
    if not (args.key_file or args.passphrase_file or os.environ.get(KEY_ENV)):
        # rekey holds the key-change lock already (a second flock of it here would wait for ever)
        finish_interrupted_rekey(args.db, locked=getattr(args, "key_change_held", False))
    provider, warnings = resolve_key(args.db, key_file=args.key_file, passphrase_file=args.passphrase_file)
    for warning in warnings:
        warn(warning)
    return provider


def finish_interrupted_rekey(db: str, *, locked: bool = False) -> None:
    """A rekey killed after the store took its new key but before the key files changed places leaves the
    store under ``DB.key.new`` while ``DB.key`` still holds the old key (or, killed between the two moves,
    no ``DB.key`` at all): every command would then fail. Where ``DB.key`` is missing or no longer opens
    the store and ``DB.key.new`` does, the swap is finished here (under the key-change lock), and said on
    stderr."""
    beside = default_key_file(db)
    fresh = f"{beside}.new"
    if not (os.path.isfile(fresh) and os.path.isfile(db)):
        return
    if not locked:
        from securemem.store.keylock import key_change

        with key_change(db):
            finish_interrupted_rekey(db, locked=True)
        return
    from securemem.errors import KeyFileError, WrongKeyError
    from securemem.store.sqlcipher import peek_store_id

    def opens(path: str) -> bool:
        try:
            peek_store_id(db, KeyFile(path, source=f"key file {path}"))
        except (WrongKeyError, KeyFileError):
            return False
        return True

    present = os.path.isfile(beside)
    if not os.path.isfile(fresh) or (present and opens(beside)) or not opens(fresh):
        return  # the rekey never took (the next one uses that file), or neither key opens the store
    saved = set_aside(beside) if present else None
    os.replace(fresh, beside)
    kept = f"the old key file was moved to {saved}" if saved else "the old key file had been moved aside already"
    warn(
        f"a rekey of {shown_target(db)} was interrupted after the store took its new key: that key is now in "
        f"{beside}, and {kept}"
    )


def set_aside(path: str) -> str:
    """Move a key file to ``PATH.old-<time>`` (``-2``, ``-3``... when taken): never over another old key,
    which may be the only one that opens an earlier copy of the store. Linked, then unlinked: killed
    between, the key is in both places, never in neither."""
    from securemem.backup import link_or_move

    stamp = f"{path}.old-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    for number in range(1, 1000):
        saved = stamp if number == 1 else f"{stamp}-{number}"
        try:
            link_or_move(path, saved)
        except FileExistsError:
            continue
        with suppress(FileNotFoundError):  # moved, where the file system has no hard links
            os.unlink(path)
        return saved
    raise UsageError(f"cannot set {path} aside: {stamp} and 998 more names after it are taken")


def default_kek(db: str) -> str:
    return f"file:{db}.kek"


def kek_of(args: argparse.Namespace, *, required: bool = True) -> KekProvider | None:
    """The KEK for a key operation: --kek, else $SECUREMEM_KEK, else file:DB.kek when it exists."""
    uri = args.kek or os.environ.get(KEK_ENV)
    if uri:
        kek = parse_kek(uri)
        check_kek(kek, args.db, "--kek")
        return kek
    if Path(f"{args.db}.kek").exists():
        return parse_kek(default_kek(args.db))
    if required:
        raise UsageError(f"no KEK for {shown_target(args.db)}: pass --kek URI or set ${KEK_ENV}")
    return None


# -- the files beside a store, and the key files a command is given -------------------------

# The files beside the store (SIDE_FILES: SQLite's, and the scrub's journal): each is read as the
# store's own and deleted, so a key kept there is lost.
# What DB names beside itself; ".key.new" is where a rekey stages the new key (an attacker's round: a key file or
# an export there was taken for a rekey's, moved over DB.key, or made every later rekey fail).
STORE_FILES = ("", *SIDE_FILES, ".key", ".keys", ".kek", ".key.new")
# Where no key file may be: the store, SQLite's files, the header, the file a rekey stages its new key in.
_NOT_FOR_KEYS = ("", *SIDE_FILES, ".keys", ".key.new")


def store_file_at(path: str | os.PathLike[str], db: str, ends: Sequence[str] = STORE_FILES) -> str | None:
    """The file of the store ``db`` (``db`` + one of ``ends``) that ``path`` names, or None.

    Paths are compared resolved (symlinks followed, ``..`` taken out), and as one inode when both
    exist (a hard link), so no spelling of a store's file passes for another file."""
    if is_server_url(db):  # a server has no files beside it
        return None
    for end in ends:
        if _same_file(path, f"{db}{end}"):
            return f"{db}{end}"
    return None


# A key file a rekey set aside (``set_aside``: "<key file>.old-<UTC time>", "-2"... when taken).
_SET_ASIDE = re.compile(r"\.key\.old-[0-9]{8}T[0-9]{6}Z(?:-[0-9]+)?\Z", re.IGNORECASE)


def old_key_of(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` (its symlinks followed) is a key file a rekey set aside, of any store, whatever
    the ``--db`` spelling (a symlink, another store in the directory, a store renamed since: an attacker's
    round): it may be the only key that opens a backup made before that rekey."""
    try:
        target = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    return _SET_ASIDE.search(target.name) is not None


def _same_file(a: str | os.PathLike[str], b: str) -> bool:
    try:
        if Path(a).resolve() == Path(b).resolve():
            return True
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte: not the store's file
        return False


def kek_files(kek: object) -> list[str]:
    """The files a KEK reads its key, passphrase or PIN from (none for env:, command:, KMS...)."""
    if isinstance(kek, FileKek):
        return [kek.path]
    source = getattr(kek, "source", "")
    if isinstance(source, str) and source.startswith("passphrase:file:"):
        return [source.removeprefix("passphrase:file:")]
    pin = getattr(kek, "pin_file", None)
    return [pin] if isinstance(pin, str) else []


def check_key_file(path: str | None, db: str, what: str, *, kept: str = "a key") -> None:
    """Refuse, in one line and before anything changes, a key, KEK, passphrase or PIN file that is
    the store itself, one of SQLite's files beside it or its key header: SQLite would delete it (or
    read it as the store's journal), or the header would replace it, and the store be lost."""
    clash = None if path is None else store_file_at(path, db, _NOT_FOR_KEYS)
    if clash is None:
        return
    if clash == db:
        role = f"the store {db} itself"
    elif clash.endswith(".keys"):
        role = f"the key header of {db}"
    elif clash.endswith(".key.new"):
        role = f"where a rekey of {db} stages its new key (the next command would take it for one)"
    else:
        role = f"{clash}, a file SQLite keeps beside {db} and deletes"
    raise UsageError(f"{what} {path} is {role}: {kept} kept there would be lost; choose another file")


def check_kek(kek: object, db: str, option: str, *, new: bool = False) -> None:
    for path in kek_files(kek):
        check_key_file(path, db, f"{option}: the KEK file")
        if new:
            check_own_file(path, f"{option}: the KEK file")


def check_own_file(path: str | None, what: str) -> None:
    """Refuse an existing file that is to become a new key (of a store, of a backup, a KEK) unless it is a
    regular file of this user's or root's: one another user planted would give them the key (a root cron
    job can read any user's file of mode 0600). Keys that only open a store may be anyone's: a wrong one
    opens nothing."""
    if path is None:
        return
    try:
        info = os.stat(path)
    except OSError:
        return  # missing (made anew, mode 0600) or unreadable: the reader says so
    if stat.S_ISREG(info.st_mode) and info.st_uid not in (os.geteuid(), 0):
        raise UsageError(f"{what} {path} belongs to another user; a new key is only taken from a file of this user's")


def given_key_files(args: argparse.Namespace) -> list[str]:
    """The key, passphrase, KEK and PIN files a command was given to open its store with."""
    given = [getattr(args, "key_file", None), getattr(args, "passphrase_file", None)]
    uris = getattr(args, "kek", None) or os.environ.get(KEK_ENV)
    for uri in uris if isinstance(uris, list) else [uris]:
        if uri:
            given += kek_files(parse_kek(uri))
    return [path for path in given if path]


def store_keys(args: argparse.Namespace) -> dict[str, object]:
    """``{"kek": ...}`` or ``{"key": ...}`` for ``--db``, in the order of keys.md.

    --kek, else $SECUREMEM_KEK, else the legacy sources (--key-file, --passphrase-file,
    $SECUREMEM_KEY, DB.key), else file:DB.kek when it exists.
    """
    legacy = args.key_file or args.passphrase_file
    if args.kek and legacy:
        raise UsageError("give --kek or --key-file/--passphrase-file, not both")
    for path in given_key_files(args):  # opening the store would delete a key SQLite takes for its own file
        check_key_file(path, args.db, "the key file given")
    if args.kek:
        return {"kek": parse_kek(args.kek)}
    if os.environ.get(KEK_ENV):
        if legacy:
            warn(f"${KEK_ENV} is set, so it is the KEK used; --key-file/--passphrase-file are ignored")
        return {"kek": parse_kek(os.environ[KEK_ENV])}
    if split_url(args.db)[0] == "postgresql":  # no key files beside a server; never echo its URL
        if legacy or os.environ.get(KEY_ENV):
            return {"key": key_of(args)}
        raise UsageError(
            f"no key for the PostgreSQL store: pass --kek URI, --key-file F or --passphrase-file F, or set "
            f"${KEK_ENV} or ${KEY_ENV}"
        )
    beside = default_key_file(args.db)
    # DB.key.new alone: a rekey killed between its two moves, which key_of finishes
    mid_swap = Path(f"{beside}.new").exists() and not keys_path(args.db).exists()
    if legacy or os.environ.get(KEY_ENV) or Path(beside).exists() or mid_swap:
        return {"key": key_of(args)}
    if Path(f"{args.db}.kek").exists():
        return {"kek": parse_kek(default_kek(args.db))}
    raise UsageError(
        f"no key for {args.db}: pass --kek URI, --key-file F or --passphrase-file F, set ${KEK_ENV} or "
        f"${KEY_ENV}, or keep the key in {default_key_file(args.db)} (or the KEK in {args.db}.kek)"
    )


def open_db(args: argparse.Namespace) -> Store:
    keys = store_keys(args)
    return open_store(args.db, keys.get("key"), create=False, kek=keys.get("kek"), wait=getattr(args, "wait", None))


def open_memory(args: argparse.Namespace, *, create: bool = False) -> SecureMemory:
    keys = store_keys(args)
    return SecureMemory.open(
        args.db,
        key=keys.get("key"),
        kek=keys.get("kek"),
        policy=args.policy,
        namespace=args.namespace,
        create=create,
        wait=getattr(args, "wait", None),
    )


def print_result(content: str | list[dict[str, Any]], out: TextIO) -> None:
    """A tool result as the operator reads it: the model's text may hold escape sequences (a title set, the
    screen cleared, the summary overwritten: an attacker's round), escaped here as in any echoed line; its
    line breaks and tabs stay."""
    text = content if isinstance(content, str) else json.dumps(content)
    out.write(printable(text.translate(_RESULT_ESCAPES) + "\n", out))


# Control characters escaped wherever a line is echoed: C0, DEL, C1 (NEL included), the line and
# paragraph separators and the bidi controls. A path or KEK URI holding a newline would otherwise
# split a one-line message (a forged "securemem: ok" line after it), and escape sequences would
# drive the operator's terminal.
_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))} | {
    c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
}


_RESULT_ESCAPES = {c: escaped for c, escaped in _ESCAPES.items() if c not in (0x09, 0x0A)}


def one_line(text: str) -> str:
    """``text`` with every control, separator and bidi character backslash-escaped: one line, shown as is."""
    return text.translate(_ESCAPES)


def say(line: str, out: TextIO | None = None) -> None:
    """Print one operator-facing line (stdout by default): every message the CLI writes goes
    through here, so a user-supplied path or URI it echoes cannot split it or reach the terminal raw."""
    stream = sys.stdout if out is None else out
    stream.write(printable(one_line(line) + "\n", stream))


def warn(text: str) -> None:
    say(f"securemem: warning: {text}", sys.stderr)


def printable(text: str, out: TextIO) -> str:
    """``text`` as ``out`` can encode it: what it cannot (a lone surrogate a message echoes, a
    character a legacy locale lacks) becomes a backslash escape instead of an exception."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # a stream naming a codec Python does not have: plain ASCII always prints
        return text.encode("ascii", "backslashreplace").decode("ascii")
    return text


def _say(line: str) -> None:
    print_result(line, sys.stdout)


# -- commands --------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> int:
    """A new store and its key, under the store's key-change lock: two inits of one --db at once would
    otherwise take each other's files (one's key file emptied, the other's store removed by the first's
    clean-up)."""
    _file_only(args, "init", "a PostgreSQL store is made by: securemem migrate --db URL, then its first open")
    _check_new_store_path(args.db)
    from securemem.store.keylock import key_change

    with key_change(args.db):
        args.key_change_held = True
        _check_new_store_path(args.db)  # another init may have made it while this one waited
        return _init(args)


def _init(args: argparse.Namespace) -> int:
    if args.kek or os.environ.get(KEK_ENV):
        return _init_envelope(args)
    key: KeyProvider
    made_key = None
    check_key_file(args.key_file, args.db, "--key-file")
    check_key_file(args.passphrase_file, args.db, "--passphrase-file")
    check_own_file(args.key_file, "--key-file")
    check_own_file(args.passphrase_file, "--passphrase-file")
    if args.passphrase_file or (os.environ.get(KEY_ENV) and not args.key_file):
        key = key_of(args)
        where = key.source
    else:
        made_key = args.key_file or default_key_file(args.db)
        beside = made_key == default_key_file(args.db)
        if beside and os.path.lexists(made_key):
            # DB.key with no DB: an init killed after its key file and before its store. The key is used,
            # never replaced, and never removed if this init fails (another store's --key-file is refused),
            # and only a regular file of this user's (a key another user planted would open the new store).
            info = os.lstat(made_key)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                raise UsageError(
                    f"key file {made_key} already exists and is not a regular file of this user's; refusing to use it"
                )
        if beside and _own_empty_file(made_key):
            os.unlink(made_key)  # an init killed as it made its key file: an empty file holds no key
        if beside and os.path.lexists(made_key):
            existing = KeyFile(made_key, source=f"key file {made_key}")
            existing.store_key(b"")  # a malformed or shared file is refused here, in one line
            key, made_key = existing, None
            where = f"key file {existing.path} (it was there already and is kept; mode 0600: back it up)"
        else:
            key = as_key_provider(create_key_file(made_key), source=f"key file {made_key}")
            where = f"key file {made_key} (mode 0600: back it up; without it the store cannot be read)"
    leftovers = _new_files(args.db)
    try:
        store = open_store(args.db, key, create=True)
        try:
            store_policy(store, load_policy(args.policy) if args.policy else None, adopt=False)
        finally:
            store.close()
    except BaseException:
        # A failed init leaves nothing behind: an orphan key file would block the retry.
        for path in [*leftovers, *([made_key] if made_key else [])]:
            Path(path).unlink(missing_ok=True)
        raise
    say(f"created encrypted store {shown_target(args.db)} with a {where}")
    return EXIT_OK


def _own_empty_file(path: str) -> bool:
    """An empty regular file of this user's (what a process killed as it made a key file leaves)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and info.st_size == 0


def _init_envelope(args: argparse.Namespace) -> int:
    """A new store under a random data key, wrapped by the KEK in DB.keys (a missing file: KEK is made)."""
    if args.key_file or args.passphrase_file:
        raise UsageError("give --kek or --key-file/--passphrase-file, not both")
    kek = parse_kek(args.kek or os.environ[KEK_ENV])
    check_kek(kek, args.db, "--kek", new=True)
    if os.path.lexists(keys_path(args.db)):
        raise UsageError(f"{keys_path(args.db)} already exists; init never overwrites a key header")
    made_kek = kek.path if isinstance(kek, FileKek) and not os.path.lexists(kek.path) else None
    leftovers = [*_new_files(args.db), str(keys_path(args.db)), *([made_kek] if made_kek else [])]
    try:
        store = open_store(args.db, kek=kek, create=True)
        try:
            store_policy(store, load_policy(args.policy) if args.policy else None, adopt=False)
        finally:
            store.close()
    except BaseException:
        for path in leftovers:
            Path(path).unlink(missing_ok=True)
        raise
    where = f"a new KEK file {kek.source} (mode 0600: back it up)" if made_kek else f"the KEK {kek.source}"
    say(f"created encrypted store {shown_target(args.db)}; its data key is in {keys_path(args.db)}, wrapped by {where}")
    return EXIT_OK


def _check_new_store_path(db: str) -> None:
    """Refuse, in one line, a --db that init cannot or must not create."""
    if not db:
        raise UsageError("--db is empty; give the path of the store file to create, e.g. --db agent.db")
    path = Path(db)
    if path.is_dir():
        raise UsageError(f"{db} is a directory; give the path of a store file, e.g. --db {path / 'agent.db'}")
    if os.path.lexists(db):
        raise UsageError(f"{db} already exists; init never overwrites a store")
    parent = path.parent
    if not parent.exists():
        raise UsageError(f"cannot create {db}: the directory {parent} does not exist")
    if not parent.is_dir():
        raise UsageError(f"cannot create {db}: {parent} is not a directory")
    if (side := leftover_side_file(db)) is not None:
        raise UsageError(f"{side} exists: {REPLAYED}; {LEFTOVER}")


PG_KEYS = (
    "a PostgreSQL deployment's keys are rotated by securemem keys rotate-kek (the KEKs of its master key) and "
    "securemem keys rotate-dek (every store's data key)"
)


def _file_only(args: argparse.Namespace, command: str, instead: str) -> None:
    """Refuse, in one line, a command made for a store file when --db names a PostgreSQL server."""
    if is_server_url(args.db or ""):
        raise UsageError(f"securemem {command} works on a SQLCipher store file, not a PostgreSQL URL; {instead}")


def _new_files(db: str) -> list[str]:
    """The store's files that do not exist yet, so a failed init may remove them."""
    return [name for name in (db, *(f"{db}{suffix}" for suffix in SIDE_FILES)) if not os.path.lexists(name)]


def cmd_exec(args: argparse.Namespace) -> int:
    tool_input = _parse_tool_input(_read_tool_input(args.input))
    with open_memory(args) as memory:
        result = memory.execute(tool_input)
    print_result(result.content, sys.stderr if result.is_error else sys.stdout)
    if result.is_error and result.error in _storage_errors():
        return EXIT_USAGE  # the store failed (busy, full, damaged): a database problem, as for every command
    return EXIT_COMMAND if result.is_error else EXIT_OK


def _storage_errors() -> set[str]:
    """The names of StorageError and its subclasses: a result that failed with one is the store's failure."""
    names, pending = set(), [StorageError]
    while pending:
        kind = pending.pop()
        names.add(kind.__name__)
        pending.extend(kind.__subclasses__())
    return names


def _read_tool_input(source: str) -> str:
    """The tool input: '-' reads stdin, '@FILE' reads a file, anything else is the JSON itself.

    stdin and files keep what the input holds (often personal data) out of the process table
    and the shell history.
    """
    if source == "-":
        where = "stdin"
    elif source.startswith("@"):
        where = source[1:]
        if not where:
            raise UsageError("@ needs a file name: @input.json reads the tool input from input.json")
    else:
        return source
    try:
        data = read_limited(sys.stdin.buffer if source == "-" else where)
    except OSError as exc:
        raise UsageError(f"cannot read the tool input from {where}: {exc.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"the tool input in {where} is not UTF-8 (byte {exc.start + 1})") from None


class _Unreadable(Exception):
    """A tool input that is not a JSON document Python can hold; the message says why."""


def _parse_tool_input(text: str) -> Any:
    try:
        return _load_json(text)
    except _Unreadable as exc:
        raise UsageError(f"the tool input is not valid JSON ({exc})") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each once: a repeated key would make the last one win unseen
    ('{"command":"view","command":"delete"}' deleted: an attacker's round). The key is not named: it is input."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Unreadable("an object holds the same key twice")
    return out


def _load_json(text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise _Unreadable(f"{exc.msg} at character {exc.pos}") from None
    except RecursionError:
        raise _Unreadable("nested too deeply") from None
    except ValueError:  # an integer with more digits than int() reads (sys.get_int_max_str_digits)
        raise _Unreadable(f"a number has more than {sys.get_int_max_str_digits()} digits") from None


# replay echoes each line cut to this many characters, with control characters escaped, so a
# huge or hostile line cannot flood or drive the terminal.
ECHO_CHARS = 200


def cmd_replay(args: argparse.Namespace) -> int:
    """One answer per line, whatever it holds (a blank one is said to be skipped); always the summary;
    exit 1 if any failed."""
    total = failures = 0
    with _replay_source(args.file) as source, open_memory(args) as memory:
        # A line of the bound's length and its line break is read whole; one byte more is too long.
        for number, raw in enumerate(iter(partial(source.readline, MAX_INPUT_BYTES + 2), b""), 1):
            if len(raw.rstrip(b"\r\n")) > MAX_INPUT_BYTES:
                total, failures = total + 1, failures + 1
                if raw.endswith(b"\n") or _skip_line(source):
                    _say(f"[{number}] error: the line is longer than {MAX_INPUT_BYTES:,} bytes; skipped")
                    continue
                # A device (/dev/zero) or a file with no line breaks: no line of it ends.
                _say(f"[{number}] error: the line is longer than {MAX_SKIPPED_BYTES:,} bytes; the rest is not read")
                break
            if not raw.strip():
                _say(f"[{number}] skipped: the line is blank (no tool input)")
                continue
            total += 1
            failures += not _replay_line(memory, number, raw)
    _say(f"replayed {total} commands, {failures} failed")
    return EXIT_COMMAND if failures else EXIT_OK


MAX_SKIPPED_BYTES = 1 << 30  # how far replay reads past a line too long to run, looking for its end
_SKIP_CHUNK = 1 << 20


def _skip_line(source: IO[bytes]) -> bool:
    """Read to the end of the current line, a chunk at a time (never the whole line in memory); False
    if it runs on past MAX_SKIPPED_BYTES (a device, or a file with no line breaks)."""
    skipped = 0
    while skipped < MAX_SKIPPED_BYTES:
        chunk = source.readline(_SKIP_CHUNK)
        if not chunk or chunk.endswith(b"\n"):
            return True
        skipped += len(chunk)
    return False


def _replay_source(name: str) -> AbstractContextManager[IO[bytes]]:
    """The JSONL file as bytes (each line is decoded on its own), or stdin for '-'."""
    if name == "-":
        return nullcontext(sys.stdin.buffer)
    try:
        return open(name, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror}") from None


def _replay_line(memory: SecureMemory, number: int, raw: bytes) -> bool:
    """Answer one line, whatever it holds and whatever its result holds; True when it succeeded."""
    _say(f"[{number}] > {_echo(raw)}")
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        _say(f"[{number}] error: the line is not valid UTF-8 (byte {exc.start + 1})")
        return False
    try:
        tool_input = _load_json(text)
    except _Unreadable as exc:
        _say(f"[{number}] error: the line is not valid JSON ({exc})")
        return False
    try:
        result = memory.execute(tool_input)
        answer = f"[{number}] {'error' if result.is_error else 'ok'}:\n"
        content = result.content if isinstance(result.content, str) else json.dumps(result.content)
        # A result may quote the input (a path, the reference str_replace message repeats old_str)
        # or show what a store whose policy keeps personal data holds: shown as the echo shows it,
        # each value the scanner finds by its type (this output goes to operators' logs).
        answer += _redacted(content, len(content))
        _say(answer)  # one write: a result that cannot be printed leaves no half answer behind
    except BrokenPipeError:
        raise
    except SecureMemError as exc:  # the store failed (busy, full, damaged): say so, go on
        _say(f"[{number}] error: {exc}")
        return False
    except Exception as exc:  # a bug: one line, never a traceback with data in it
        _say(f"[{number}] error: internal error ({type(exc).__name__}); please report it")
        return False
    return not result.is_error


def _echo(raw: bytes) -> str:
    """The line as the operator's log may show it: personal data and secrets the scanner finds are
    shown as ``[TYPE]`` whatever the policy stores (a refused value is echoed by no one), control
    characters escaped, and a long line cut."""
    line = raw.strip()
    # Scanned well past what is shown, so that no value the echo starts is cut before the scan
    # (then unrecognised); the echo shows the line's first ECHO_CHARS characters, each value in
    # them replaced whole.
    text = line[:_ECHO_SCAN].decode("utf-8", errors="backslashreplace")
    shown = _redacted(text, ECHO_CHARS)
    if len(text) <= ECHO_CHARS and len(line) <= _ECHO_SCAN:
        return shown.translate(_ESCAPES)
    return f"{shown.translate(_ESCAPES)} ... (cut: the line holds {len(line):,} bytes)"


_ECHO_SCAN = 64 * 1024
# A JSON escape of a control character, as long as two spaces: a value on a line of its own in a
# file_text ("...\n123-45-6789") is read apart from the escape's letter.
_JSON_CONTROL = re.compile(r"\\[rtbf]")
_JSON_NEWLINE = re.compile(r"\\n")
# A view's line numbers ("     2\t"): blanked for the scan, so that a value the file wraps over two
# lines is read whole, as detect() reads the file itself.
_LINE_NUMBER = re.compile(r"^ *[0-9]+\t", re.MULTILINE)


def _redacted(text: str, limit: int) -> str:
    """``text[:limit]``, each value the scanner finds in ``text`` that starts there shown by its type."""
    from securemem.pii import detect  # the scanner's tables load only when replay runs

    pieces, done = [], 0
    # Offsets kept: a JSON "\\n" is read as the line break it stands for (then a space), other escapes
    # as two spaces; line numbers as blanks.
    scanned = _LINE_NUMBER.sub(lambda match: " " * len(match.group()), text)
    scanned = _JSON_CONTROL.sub("  ", _JSON_NEWLINE.sub("\n ", scanned))
    for finding in detect(scanned):
        if finding.start >= limit:
            break
        if finding.start >= done:
            pieces += [text[done : finding.start], f"[{finding.type}]"]
            done = finding.end
    return "".join([*pieces, text[done:limit] if done < limit else ""])


def cmd_demo(args: argparse.Namespace) -> int:
    from securemem.demo import run_demo  # the demo's script is long; load it only when asked

    return run_demo(keep=args.keep)


def cmd_verify(args: argparse.Namespace) -> int:
    if args.backup:
        return _verify_backup(args)
    if not args.db:
        raise UsageError("verify needs --db DB (a store) or --backup FILE --kek URI (a backup)")
    store = open_db(args)
    try:
        problems = store.integrity_errors()
    finally:
        store.close()
    server = split_url(args.db)[0] == "postgresql"
    where = "the PostgreSQL store" if server else args.db  # a URL may carry a password: never echoed
    if problems:
        say(f"{where}: {len(problems)} integrity problem(s); first: {problems[0]}", sys.stderr)
        return EXIT_COMMAND
    checks = "every store's data key unseals" if server else "integrity_check and cipher_integrity_check passed"
    say(f"{where}: ok ({checks})")
    return EXIT_OK


def _verify_backup(args: argparse.Namespace) -> int:
    from securemem.backup import verify_backup

    if args.db or not args.kek:
        raise UsageError("verify --backup FILE takes --kek URI (a KEK of the backup) and no --db")
    opened = verify_backup(args.backup, parse_kek(args.kek))
    say(
        f"{args.backup}: ok (opened with KEK {opened.used.key_id}; MAC, integrity_check and cipher_integrity_check "
        f"passed; store {opened.header.store_id})"
    )
    return EXIT_OK


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent, encrypted snapshot in one file, under a fresh DEK wrapped by the chosen KEKs."""
    from securemem.backup import make_backup
    from securemem.store.sqlcipher import SQLCipherStore

    _file_only(
        args, "backup", "back a PostgreSQL store up with the server's own tools (pg_dump): it holds only ciphertext"
    )

    given = args.kek or []
    args.kek = given[0] if given else None  # the store opens with the first; a backup's default wraps with all
    keks = [parse_kek(uri) for uri in args.backup_kek or []] or _store_keks(args, given[1:])
    for kek in keks:
        check_kek(kek, args.db, "--backup-kek", new=True)
    check_key_file(args.out, args.db, "--out", kept="a backup")
    store = open_db(args)
    made: list[str] = []
    try:
        if not isinstance(store, SQLCipherStore):
            raise UsageError("only a sqlcipher store can be backed up")
        made = [k.path for k in keks if isinstance(k, FileKek) and k.create_if_missing()]
        header = make_backup(store, args.out, keks)
    except BaseException:
        for path in made:  # a KEK file made for a backup that was not written
            Path(path).unlink(missing_ok=True)
        raise
    finally:
        store.close()
    names = ", ".join(f"{e.provider} ({e.key_id})" for e in header.entries)
    note = f"; new KEK file(s), mode 0600: {', '.join(made)}" if made else ""
    say(f"backup of {shown_target(args.db)} written to {args.out}, its key wrapped by {names}{note}")
    return EXIT_OK


def _store_keks(args: argparse.Namespace, more: list[str]) -> list[KekProvider]:
    """The default KEKs of a backup: every KEK of the store, each of which must be here to wrap its key
    (``--kek`` once for each; ``more``: those after the first)."""
    from securemem.custody import covering_keks

    if not keys_path(args.db).exists():
        raise UsageError(
            f"{shown_target(args.db)} has no KEKs (a store opened with a key): name the backup's with --backup-kek URI"
        )
    kek = store_keys(args).get("kek")
    if not isinstance(kek, KekProvider):
        raise UsageError("give --kek URI (a KEK of the store) or name the backup's KEKs with --backup-kek URI")
    return covering_keks(args.db, [kek, *(parse_kek(uri) for uri in more)], "a backup")


def cmd_restore(args: argparse.Namespace) -> int:
    from securemem.backup import restore

    _file_only(args, "restore", "a backup restores to a new store file (--db PATH)")
    if os.path.lexists(args.db):
        raise UsageError(f"{args.db} already exists; restore never overwrites (choose a new --db)")
    opened = restore(args.backup, parse_kek(args.kek), args.db)
    say(f"{args.backup} restored to {args.db} (store {opened.header.store_id}); {args.db}.keys holds its KEKs")
    return EXIT_OK


def cmd_rekey(args: argparse.Namespace) -> int:
    """Re-encrypt under a new key file; the default key file is replaced after a safe copy of the old one.

    A key change like ``keys add`` or ``keys adopt``, so under the same lock: an adopt running meanwhile
    would otherwise wrap the key this re-key retires, and leave a key header that opens nothing."""
    _file_only(args, "rekey", PG_KEYS)
    from securemem.store.keylock import key_change

    with key_change(args.db):
        args.key_change_held = True
        return _rekey(args)


def _rekey(args: argparse.Namespace) -> int:
    if keys_path(args.db).exists():
        raise UsageError(
            f"{args.db} keeps its data key in {keys_path(args.db)} (KEKs): rekey does not apply; "
            "change its KEKs with: securemem keys rotate-kek"
        )
    old = key_of(args)
    beside = default_key_file(args.db)
    target = args.new_key_file or beside
    if target == beside and not (isinstance(old, KeyFile) and old.path == beside):
        raise UsageError(f"--new-key-file is needed: the store is not opened with {beside}")
    if os.path.abspath(target) == os.path.abspath(f"{beside}.new"):
        raise UsageError(f"{target} is where rekey stages a new {beside}; give --new-key-file another name")
    fresh = f"{target}.new" if target == beside else target
    check_key_file(target, args.db, "--new-key-file")  # DB.key.new, rekey's own staging, is refused as a target
    check_own_file(target, "--new-key-file")
    if fresh != target and _own_empty_file(fresh):
        os.unlink(fresh)  # a rekey killed as it made its new key file: an empty file holds no key
    if Path(fresh).is_file() and same_key(old, fresh):
        raise UsageError(
            f"{fresh} holds the key {shown_target(args.db)} is under now: give --new-key-file a new file (it is "
            "created) or one holding another key"
        )
    if not Path(fresh).exists():
        create_key_file(fresh)
    store = open_db(args)
    try:
        rekey = getattr(store, "rekey", None)
        if rekey is None:
            raise UsageError("this store has no key to change")
        rekey(KeyFile(fresh))
    finally:
        store.close()
    if fresh != target:  # the new key takes the default file's place; the old one is kept aside
        saved = set_aside(beside)
        os.replace(fresh, beside)
        say(
            f"{args.db} re-encrypted under a new key, now in {beside}; the old key file was moved to {saved} "
            "and no longer opens the store"
        )
    else:
        say(f"{args.db} re-encrypted under the key in {target}; the old key ({old.source}) no longer opens it")
    return EXIT_OK


def cmd_policy_set(args: argparse.Namespace) -> int:
    """Adopt a policy for a store: recorded in the store, expiries restamped, written to the audit trail."""
    store = open_db(args)
    try:
        policy = store_policy(store, load_policy(args.file), adopt=True)
    finally:
        store.close()
    say(f"{shown_target(args.db)} now runs under policy '{policy.name}'")
    return EXIT_OK


def cmd_policy_check(args: argparse.Namespace) -> int:
    """Validate, warn (stderr, one line each) about what is likely not meant, describe, dump."""
    policy = load_policy(args.file)
    for warning in policy_warnings(policy):
        warn(f"{args.file}: {warning}")
    layers = [type(layer).__name__ for layer in policy_layers(policy, token_key=bytes(32))] + ["Transaction"]
    say(f"{args.file}: valid policy '{policy.name}'")
    print(f"middleware chain: {' -> '.join([*layers, 'Dispatcher'])}")
    for line in describe(policy):
        print(line)
    print("effective settings, defaults included:")
    print(json.dumps(policy.model_dump(mode="json"), indent=2))
    return EXIT_OK


def _progress(deleted: int, total: int) -> None:
    sys.stderr.write(f"\rswept {deleted}/{total} expired entries")
    sys.stderr.flush()


def _sweep_or_skip(store: Store, batch: int) -> None:
    """A long-running sweeper's sweep: writers that keep the store busy past its retries put it off to
    the next interval, with one line, rather than end the sweeper (an attacker's round found it exit 2)."""
    try:
        _sweep_once(store, batch)
    except StoreBusyError:
        sys.stderr.write("securemem: sweep put off: the memory store is busy; the next one runs at the next interval\n")
        sys.stderr.flush()


def _sweep_once(store: Store, batch: int) -> SweepReport:
    progress = _progress if sys.stderr.isatty() else None
    # The store's own policy says what its history keeps, and for how long.
    policy = recorded_policy(store) or load_policy(None)
    configure_store(store, policy)
    keep = policy.history.keep_content_for
    report = sweep(store, time.time(), batch=batch, progress=progress, keep_content_for=keep)
    if progress and report.deleted:
        sys.stderr.write("\n")
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {report.summary()}", flush=True)
    # A sweep is done when what it freed is erased: a failure other than readers keeping the store
    # busy (a full disk) is this run's error (exit 2), not a line lost in cron's log.
    with suppress(StoreBusyError):  # readers: owed to the next handle, erased then
        store.flush_erasure()
    return report


def cmd_sweep(args: argparse.Namespace) -> int:
    every = _duration(args.every) if args.every is not None else None
    store = open_db(args)
    stop = threading.Event()
    # systemd and Kubernetes stop a service with SIGTERM: finish the batch, close, exit 0.
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        if every is None:
            _sweep_once(store, args.batch)  # from cron: a busy store is this run's error, exit 2
        else:
            _sweep_or_skip(store, args.batch)
            while not stop.wait(every):
                _sweep_or_skip(store, args.batch)
    finally:
        signal.signal(signal.SIGTERM, previous)
        store.close()
    return EXIT_OK


MAX_BATCH = 1_000_000  # entries per sweep transaction: more would hold the write lock for long


def _batch(text: str) -> int:
    value = int(text) if text.strip().isdigit() and len(text) <= len(str(MAX_BATCH)) else 0
    if not 1 <= value <= MAX_BATCH:
        shown = text if len(text) <= 20 else f"{text[:20]}..."
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_BATCH:,}, not {shown!r}")
    return value


def _seconds(text: str) -> float:
    """--wait's value: seconds from 0 to an hour, decimals allowed (the store factory's rule)."""
    try:
        value = check_wait(float(text)) if len(text) <= 20 else None
    except (ValueError, StorageError):  # not a number; out of range, NaN and infinities included
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"must be a number of seconds from 0 to {MAX_WAIT:.0f}")
    return value


MAX_EVERY = 366 * 86400.0  # a sweeper that waits longer than a year between sweeps is a mistake
# ... and one that sweeps more than once a second only spends the store's lock and the log: "0.0001s" swept
# about every millisecond, nearly a core and 1,700 log lines a second (an attacker's round)
MIN_EVERY = 1.0


def _duration(text: str) -> float:
    try:
        every = parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"--every: {exc}") from None
    # (checked before any sweep runs: a wait past threading.TIMEOUT_MAX would fail later; from the duration's own
    # digits, as the floor is: "366.00000000000002d" rounds to 366d as a float)
    if every > MAX_EVERY or exact_duration(text) > MAX_EVERY:
        raise UsageError("--every: at most 366d between two sweeps; a sweeper run less often is better run by cron")
    if every < MIN_EVERY or exact_duration(text) < MIN_EVERY:  # the text's own digits, not their rounded float
        raise UsageError("--every: at least 1s between two sweeps (nothing expired is ever shown, swept or not)")
    return every


# -- parser ----------------------------------------------------------------------------------


def _store_args(parser: argparse.ArgumentParser, *, policy: bool = True, every_kek: bool = False) -> None:
    parser.add_argument("--db", required=True, help="path of the encrypted store file")
    parser.add_argument("--key-file", help=f"hex key file (default: DB.key); or set ${KEY_ENV} to a passphrase")
    parser.add_argument("--passphrase-file", help="a file holding the passphrase (kept out of shell history)")
    if every_kek:  # a backup wraps its key with every KEK of the store: each may be given
        parser.add_argument(
            "--kek", action="append", help=f"a KEK of the store; repeat to give every one (default: ${KEK_ENV})"
        )
    else:
        parser.add_argument("--kek", help=f"KEK URI of an envelope store (default: ${KEK_ENV}, else file:DB.kek)")
    parser.add_argument(
        "--wait",
        type=_seconds,
        metavar="SECONDS",
        help="how long to wait for another process's write before failing as busy, exit 2 "
        "(default: 10 for a file store, 30 for PostgreSQL; 0: at once)",
    )
    if policy:
        parser.add_argument(
            "--policy",
            default=None,
            help="policy file or shipped name (default: the policy the store records; a new store: default)",
        )
        parser.add_argument("--namespace", default="default", help="namespace inside the store")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="securemem", description="Encrypted, policy-driven storage for Claude's memory tool.")
    parser.add_argument("--version", action="version", version=f"securemem {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands: list[tuple[str, str, Callable[[argparse.Namespace], int]]] = [
        ("init", "create a store and a fresh random key file", cmd_init),
        ("exec", "run one memory tool input (JSON) and print the result", cmd_exec),
        ("replay", "run a JSONL file of tool inputs, one per line", cmd_replay),
        ("demo", "replay a realistic agent session against a fresh encrypted store", cmd_demo),
        ("verify", "run SQLite's and SQLCipher's integrity checks", cmd_verify),
        ("rekey", "re-encrypt the store under a new key", cmd_rekey),
        ("sweep", "delete expired memories now (--every for a long-running sweeper)", cmd_sweep),
        ("policy", "check a policy file, or set the policy a store runs under", cmd_policy_check),
        ("keys", "list, add, remove and rotate the KEKs of a store; adopt a legacy store", cmd_policy_check),
        ("backup", "write an encrypted, consistent backup of a store to one file", cmd_backup),
        ("restore", "restore a backup to a new store", cmd_restore),
        ("migrate", "create or upgrade the schema of a PostgreSQL store (run once, as the schema owner)", cmd_migrate),
    ]
    for name, help_text, handler in commands:
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(handler=handler)
        if name in ("rekey", "sweep", "backup"):
            _store_args(command, policy=False, every_kek=name == "backup")
        elif name not in ("demo", "policy", "keys", "verify", "restore", "migrate"):
            _store_args(command)
    sub.choices["exec"].add_argument(
        "input", help="the tool input: '-' reads it from stdin, @FILE from a file, else the JSON itself"
    )
    sub.choices["replay"].add_argument("file", help="JSONL file, one tool input per line ('-': stdin)")
    sub.choices["demo"].add_argument(
        "--keep", metavar="DIR", help="keep the demo store and its key in DIR, to open it afterwards"
    )
    _backup_args(sub.choices)
    sub.choices["rekey"].add_argument(
        "--new-key-file", help="new key file (created if missing; default: replace DB.key)"
    )
    sub.choices["sweep"].add_argument("--every", help="keep running, sweeping at this interval (e.g. 10m)")
    sub.choices["sweep"].add_argument("--batch", type=_batch, default=DEFAULT_BATCH, help="entries per transaction")
    migrate = sub.choices["migrate"]
    migrate.add_argument("--db", required=True, help="postgresql://user@host:5432/database (a role that may run DDL)")
    migrate.add_argument("--key-file", help=f"hex key file, for an upgrade that seals rows again; or set ${KEY_ENV}")
    migrate.add_argument("--passphrase-file", help="a file holding the passphrase (kept out of shell history)")
    migrate.add_argument("--kek", help=f"KEK URI, for an upgrade that seals every row again (default: ${KEK_ENV})")
    _policy_commands(sub.choices["policy"])
    from securemem.cli_keys import keys_commands

    keys_commands(sub.choices["keys"])
    from securemem.cli_admin import admin_commands

    admin_commands(sub)
    return parser


def cmd_migrate(args: argparse.Namespace) -> int:
    """Create the PostgreSQL schema, or bring it to this release's version: agents never run DDL."""
    scheme, location = split_url(args.db)
    if scheme != "postgresql":
        raise UsageError("securemem migrate is for PostgreSQL stores: --db postgresql://user@host:5432/database")
    from securemem.store.factory import as_kek_provider
    from securemem.store.postgres import migrate

    keys = store_keys(args) if _any_key(args) else {}
    key, kek = keys.get("key"), keys.get("kek")
    before, after = migrate(
        location,
        key=None if key is None else as_key_provider(key),
        kek=None if kek is None else as_kek_provider(kek),
    )
    said = "already at" if before == after else ("created at" if before == 0 else f"upgraded from {before} to")
    print(f"securemem: the PostgreSQL schema is {said} version {after}")
    return 0


def _any_key(args: argparse.Namespace) -> bool:
    """Whether a key or KEK was given (a first migration needs none; an upgrade that reseals does)."""
    given = args.kek or args.key_file or args.passphrase_file
    return bool(given or os.environ.get(KEK_ENV) or os.environ.get(KEY_ENV))


def _backup_args(choices: Mapping[str, argparse.ArgumentParser]) -> None:
    verify = choices["verify"]
    verify.add_argument("--db", help="path of the encrypted store file to check")
    verify.add_argument("--key-file", help=f"hex key file (default: DB.key); or set ${KEY_ENV} to a passphrase")
    verify.add_argument("--passphrase-file", help="a file holding the passphrase (kept out of shell history)")
    verify.add_argument("--kek", help="KEK URI (of the store, or of the backup with --backup)")
    verify.add_argument("--backup", help="check this backup file end to end instead of a store (needs --kek)")
    choices["backup"].add_argument("--out", required=True, help="the backup file to write (never overwritten)")
    choices["backup"].add_argument(
        "--backup-kek", action="append", help="a KEK to wrap the backup's key (repeat; default: the store's KEKs)"
    )
    restore = choices["restore"]
    restore.add_argument("--backup", required=True, help="the backup file")
    restore.add_argument("--kek", required=True, help="a KEK of the backup")
    restore.add_argument("--db", required=True, help="the new store to write (never an existing one)")


def _policy_commands(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, parser_class=_Parser)
    check = actions.add_parser("check", help="validate a policy file and print its effective settings")
    check.add_argument("file", help="policy file, or a shipped policy name")
    check.set_defaults(handler=cmd_policy_check)
    adopt = actions.add_parser("set", help="make a store run under a policy (recorded in the store, audited)")
    _store_args(adopt, policy=False)
    adopt.add_argument("file", help="policy file, or a shipped policy name")
    adopt.set_defaults(handler=cmd_policy_set)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the command itself (not a caller's own process): no core dump holds its keys
        keep_keys_out_of_core_dumps()
    try:
        return _run(argv)
    except BrokenPipeError:  # stdout, or stderr while reporting an error
        return _reader_gone()


def _run(argv: Sequence[str] | None) -> int:
    stdout = sys.stdout
    output = _Output(stdout)
    sys.stdout = output
    try:
        return _command(argv)
    except OutputLost as exc:
        return _output_lost(exc)
    except SystemExit:  # argparse's --version and --help: their output is flushed here, while it can be said
        try:
            output.flush()
        except OutputLost as exc:
            return _output_lost(exc)
        if output.lost is not None:
            return _output_lost(output.lost)
        raise
    finally:
        sys.stdout = stdout


def _command(argv: Sequence[str] | None) -> int:
    args: argparse.Namespace | None = None
    try:
        args = build_parser().parse_args(argv)
        _no_empty_keks(args)
        if isinstance(getattr(args, "db", None), str):
            # a malformed URL refused here, before any command reads it as a file's path; a store file's URL is its
            # path from here on, so that the files beside it (DB.key, DB.keys, DB.kek) are found (an attacker's round:
            # "keys adopt --db sqlcipher:///..." ended in an internal error)
            scheme, location = split_url(args.db)
            if scheme == "sqlcipher":
                args.db = location
        code: int = args.handler(args)
        sys.stdout.flush()  # here, so that a closed pipe is seen while it can still be handled
        return code
    except (BrokenPipeError, OutputLost):
        raise
    except RefusedError as exc:
        say(f"securemem: refused: {exc}", sys.stderr)
        return EXIT_COMMAND
    except SecureMemError as exc:
        say(f"securemem: error: {exc}{_stale_key_hint(exc, args)}", sys.stderr)
    except KeyboardInterrupt:
        say("securemem: interrupted", sys.stderr)
        return 130
    except Exception as exc:  # a bug: still one line, never a traceback with data in it
        say(f"securemem: internal error ({type(exc).__name__}); please report it", sys.stderr)
    return EXIT_USAGE


def _stale_key_hint(exc: SecureMemError, args: argparse.Namespace | None) -> str:
    """For a store that took KEKs and was re-keyed since, opened by the key file found beside it: what
    happened (an attacker's round: "DB.key does not open DB (wrong key, or ... damaged)" for an intact store)."""
    db = getattr(args, "db", None)
    if (
        not isinstance(exc, WrongKeyError)
        or isinstance(exc, WrongKekError)  # a KEK's failure: DB.key was not what failed (an attacker's round)
        or not isinstance(db, str)
        or split_url(db)[0] == "postgresql"
    ):
        return ""
    given = getattr(args, "key_file", None) or getattr(args, "passphrase_file", None) or getattr(args, "kek", None)
    if given or os.environ.get(KEY_ENV) or os.environ.get(KEK_ENV) or not keys_path(db).exists():
        return ""
    beside = default_key_file(db)
    if not Path(beside).exists():
        return ""
    return (
        f"; if {beside} is the key the store had before it took KEKs (keys adopt) and its data key was rotated since, "
        f"it opens nothing now: open the store with --kek (the KEKs in {keys_path(db)}), then remove {beside}"
    )


class OutputLost(OSError):
    """Standard output could not be written (a full disk, /dev/full, an I/O error): not a bug."""


class _Output:
    """``sys.stdout`` while a command runs: an OSError writing it (a closed pipe apart) is OutputLost."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost: OutputLost | None = None  # kept: argparse's own printing swallows an OSError

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.lost = OutputLost(exc.errno, exc.strerror)
            raise self.lost from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.lost = OutputLost(exc.errno, exc.strerror)
            raise self.lost from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _output_lost(exc: OutputLost) -> int:
    """One line, and the output let go (the interpreter's last flush would fail again on the way out)."""
    say(
        f"securemem: error: cannot write to standard output ({exc.strerror}); what the command changed in the "
        "store is kept, only its output is lost",
        sys.stderr,
    )
    with suppress(OSError, ValueError):  # streams without a file descriptor (a test's capture)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_USAGE


_KEK_OPTIONS = {"kek": "--kek", "new_kek": "--new-kek", "to": "--to", "backup_kek": "--backup-kek"}


def _no_empty_keks(args: argparse.Namespace) -> None:
    """An empty KEK URI is a mistake (an unset shell variable), never a way to ask for the default."""
    for name, option in _KEK_OPTIONS.items():
        value = getattr(args, name, None)
        for uri in value if isinstance(value, list) else [value]:
            if isinstance(uri, str) and not uri.strip():
                raise UsageError(f"{option} was given an empty KEK URI; give a URI such as file:/path/to/kek")


def _reader_gone() -> int:
    """The reader of our output went away (``securemem replay ... | head``): stop quietly.

    As coreutils do: no message, and the status of a process ended by SIGPIPE. stdout and
    stderr are pointed at /dev/null so that the interpreter's last flush does not report the
    closed pipe again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            os.dup2(devnull, stream.fileno())
    except (OSError, ValueError):  # streams without a file descriptor (a test's capture)
        pass
    return 128 + signal.SIGPIPE


def package_version() -> str:
    try:
        return metadata.version("securemem")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


if __name__ == "__main__":
    sys.exit(main())
