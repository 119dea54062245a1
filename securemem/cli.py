"""The operator's command line: ``securemem init | exec | replay | demo | verify | rekey | sweep | policy``.

Exit codes: 0 success, 1 a memory command failed (its message is printed), 2 a usage, key,
policy or database problem (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from securemem.errors import SecureMemError
from securemem.keys import KeyMaterial, create_key_file, read_key_file
from securemem.memory import SecureMemory
from securemem.middleware import build_layers
from securemem.policy import load_policy, parse_duration
from securemem.policy_check import describe, policy_warnings
from securemem.store.sqlcipher import SQLCipherStore
from securemem.sweep import DEFAULT_BATCH, SweepReport, sweep

EXIT_OK, EXIT_COMMAND, EXIT_USAGE = 0, 1, 2
KEY_ENV = "SECUREMEM_KEY"


class UsageError(SecureMemError):
    """A problem with how securemem was called."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage dump: operators grep logs for "securemem: error".
        raise UsageError(f"{message} (see: {self.prog} --help)")


def default_key_file(db: str) -> str:
    return f"{db}.key"


def resolve_key(args: argparse.Namespace) -> bytes | str:
    """--key-file, else $SECUREMEM_KEY (a passphrase), else the key file beside the store."""
    if args.key_file:
        return read_key_file(args.key_file)
    passphrase = os.environ.get(KEY_ENV)
    if passphrase:
        return passphrase
    beside = default_key_file(args.db)
    if Path(beside).exists():
        return read_key_file(beside)
    raise UsageError(f"no key: pass --key-file, set {KEY_ENV}, or keep the key in {beside}")


def open_memory(args: argparse.Namespace, *, create: bool = False) -> SecureMemory:
    return SecureMemory.open(
        args.db, key=resolve_key(args), policy=args.policy, namespace=args.namespace, create=create
    )


def print_result(content: str | list[dict[str, Any]], out: TextIO) -> None:
    out.write((content if isinstance(content, str) else json.dumps(content)) + "\n")


# -- commands --------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> int:
    if Path(args.db).exists():
        raise UsageError(f"{args.db} already exists; init never overwrites a store")
    if os.environ.get(KEY_ENV) and not args.key_file:
        key: bytes | str = os.environ[KEY_ENV]
        where = f"passphrase from ${KEY_ENV}"
    else:
        key_file = args.key_file or default_key_file(args.db)
        key = create_key_file(key_file)
        where = f"key file {key_file} (mode 0600: back it up; without it the store cannot be read)"
    SQLCipherStore.open(args.db, KeyMaterial(key), create=True).close()
    print(f"created encrypted store {args.db} with a {where}")
    return EXIT_OK


def cmd_exec(args: argparse.Namespace) -> int:
    try:
        tool_input = json.loads(args.input)
    except json.JSONDecodeError as exc:
        raise UsageError(f"the tool input is not valid JSON ({exc.msg} at character {exc.pos})") from None
    with open_memory(args) as memory:
        result = memory.execute(tool_input)
    print_result(result.content, sys.stderr if result.is_error else sys.stdout)
    return EXIT_COMMAND if result.is_error else EXIT_OK


def _replay_line(memory: SecureMemory, number: int, line: str) -> bool:
    try:
        tool_input = json.loads(line)
    except json.JSONDecodeError as exc:
        print(f"[{number}] error: line is not valid JSON ({exc.msg})")
        return False
    print(f"[{number}] > {json.dumps(tool_input, ensure_ascii=False)}")
    result = memory.execute(tool_input)
    print(f"[{number}] {'error' if result.is_error else 'ok'}:")
    print_result(result.content, sys.stdout)
    return not result.is_error


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        lines = Path(args.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or 'not UTF-8'}") from None
    failures = 0
    with open_memory(args) as memory:
        for number, line in enumerate(lines, 1):
            if line.strip():
                failures += not _replay_line(memory, number, line)
    print(f"replayed {sum(1 for x in lines if x.strip())} commands, {failures} failed")
    return EXIT_COMMAND if failures else EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    from securemem.demo import run_demo  # the demo's script is long; load it only when asked

    return run_demo(keep=args.keep)


def cmd_verify(args: argparse.Namespace) -> int:
    store = SQLCipherStore.open(args.db, KeyMaterial(resolve_key(args)), create=False)
    try:
        problems = store.integrity_errors()
    finally:
        store.close()
    if problems:
        print(f"{args.db}: {len(problems)} integrity problem(s); first: {problems[0]}", file=sys.stderr)
        return EXIT_COMMAND
    print(f"{args.db}: ok (integrity_check and cipher_integrity_check passed)")
    return EXIT_OK


def cmd_rekey(args: argparse.Namespace) -> int:
    new_key: bytes | str = (
        create_key_file(args.new_key_file) if not Path(args.new_key_file).exists() else read_key_file(args.new_key_file)
    )
    store = SQLCipherStore.open(args.db, KeyMaterial(resolve_key(args)), create=False)
    try:
        store.rekey(KeyMaterial(new_key))
    finally:
        store.close()
    print(f"{args.db} re-encrypted under the key in {args.new_key_file}; retire the old key")
    return EXIT_OK


def cmd_policy_check(args: argparse.Namespace) -> int:
    """Validate, warn (stderr, one line each) about what is likely not meant, describe, dump."""
    policy = load_policy(args.file)
    for warning in policy_warnings(policy):
        print(f"securemem: warning: {args.file}: {warning}", file=sys.stderr)
    layers = [type(layer).__name__ for layer in build_layers(policy, token_key=bytes(32))]
    print(f"{args.file}: valid policy '{policy.name}'")
    print(f"middleware chain: {' -> '.join([*layers, 'Dispatcher'])}")
    for line in describe(policy):
        print(line)
    print("effective settings, defaults included:")
    print(json.dumps(policy.model_dump(mode="json"), indent=2))
    return EXIT_OK


def _progress(deleted: int, total: int) -> None:
    sys.stderr.write(f"\rswept {deleted}/{total} expired entries")
    sys.stderr.flush()


def _sweep_once(store: SQLCipherStore, batch: int) -> SweepReport:
    progress = _progress if sys.stderr.isatty() else None
    report = sweep(store, time.time(), batch=batch, progress=progress)
    if progress and report.deleted:
        sys.stderr.write("\n")
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {report.summary()}", flush=True)
    return report


def cmd_sweep(args: argparse.Namespace) -> int:
    every = _duration(args.every) if args.every else None
    store = SQLCipherStore.open(args.db, KeyMaterial(resolve_key(args)), create=False)
    stop = threading.Event()
    # systemd and Kubernetes stop a service with SIGTERM: finish the batch, close, exit 0.
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        _sweep_once(store, args.batch)
        while every is not None and not stop.wait(every):
            _sweep_once(store, args.batch)
    finally:
        signal.signal(signal.SIGTERM, previous)
        store.close()
    return EXIT_OK


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def _duration(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"--every: {exc}") from None


# -- parser ----------------------------------------------------------------------------------


def _store_args(parser: argparse.ArgumentParser, *, policy: bool = True) -> None:
    parser.add_argument("--db", required=True, help="path of the encrypted store file")
    parser.add_argument("--key-file", help=f"hex key file (default: DB.key); or set ${KEY_ENV} to a passphrase")
    if policy:
        parser.add_argument("--policy", default=None, help="policy file or shipped name (default: default)")
        parser.add_argument("--namespace", default="default", help="namespace inside the store")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="securemem", description="Encrypted, policy-driven storage for Claude's memory tool.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands: list[tuple[str, str, Callable[[argparse.Namespace], int]]] = [
        ("init", "create a store and a fresh random key file", cmd_init),
        ("exec", "run one memory tool input (JSON) and print the result", cmd_exec),
        ("replay", "run a JSONL file of tool inputs, one per line", cmd_replay),
        ("demo", "replay a realistic agent session against a fresh encrypted store", cmd_demo),
        ("verify", "run SQLite's and SQLCipher's integrity checks", cmd_verify),
        ("rekey", "re-encrypt the store under a new key", cmd_rekey),
        ("sweep", "delete expired memories now (--every for a long-running sweeper)", cmd_sweep),
        ("policy", "validate a policy file and print its effective settings", cmd_policy_check),
    ]
    for name, help_text, handler in commands:
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(handler=handler)
        if name in ("init", "verify", "rekey", "sweep"):
            _store_args(command, policy=False)
        elif name not in ("demo", "policy"):
            _store_args(command)
    sub.choices["exec"].add_argument("input", help="the tool input as JSON")
    sub.choices["replay"].add_argument("file", help="JSONL file, one tool input per line")
    sub.choices["demo"].add_argument("--keep", help="keep the demo store in this directory")
    sub.choices["rekey"].add_argument("--new-key-file", required=True, help="new key file (created if missing)")
    sub.choices["sweep"].add_argument("--every", help="keep running, sweeping at this interval (e.g. 10m)")
    sub.choices["sweep"].add_argument("--batch", type=_positive, default=DEFAULT_BATCH, help="entries per transaction")
    sub.choices["policy"].add_argument("action", choices=["check"], help="what to do with the policy")
    sub.choices["policy"].add_argument("file", help="policy file, or a shipped policy name")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code: int = args.handler(args)
        return code
    except SecureMemError as exc:
        print(f"securemem: error: {exc}", file=sys.stderr)
    except KeyboardInterrupt:
        print("securemem: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: still one line, never a traceback with data in it
        print(f"securemem: internal error ({type(exc).__name__}); please report it", file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
