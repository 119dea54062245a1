"""Where the command line finds a store's key, in order, and how it says which one it used.

1. ``--key-file F``: a hex key file;
2. ``--passphrase-file F``: a passphrase kept in a file, so it never sits in shell history or
   the process table;
3. ``$SECUREMEM_KEY``: a passphrase, or 64 hex digits (a raw key);
4. ``DB.key``: the key file ``securemem init`` writes beside the store.

Every provider carries its ``source`` ("--key-file /etc/sm/agent.key", "$SECUREMEM_KEY (a
passphrase)"), which error messages name; key material never appears in a message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from securemem.errors import KeyFileError
from securemem.keys import KeyFile, KeyProvider, Passphrase, RawKey, as_key_provider, looks_like_hex_key
from securemem.private_files import read_private_text
from securemem.targets import shown_target

KEY_ENV = "SECUREMEM_KEY"


def default_key_file(db: str) -> str:
    return f"{db}.key"


def _describe(text: str, where: str) -> str:
    return f"{where} (64 hex digits: a raw key)" if looks_like_hex_key(text) else f"{where} (a passphrase)"


def read_passphrase_file(path: str) -> KeyProvider:
    """A passphrase (or hex key) from a file readable by its owner only; one final newline is dropped."""
    try:
        text, shared = read_private_text(path, "utf-8")
    except FileNotFoundError:
        raise KeyFileError(f"passphrase file {path} does not exist") from None
    except (OSError, UnicodeDecodeError):
        raise KeyFileError(f"passphrase file {path} cannot be read as text") from None
    if shared:
        raise KeyFileError(f"passphrase file {path} is accessible by other users; run: chmod 600 {path}")
    text = text.removesuffix("\n").removesuffix("\r")
    if not text:
        raise KeyFileError(f"passphrase file {path} is empty")
    return as_key_provider(text, source=_describe(text, f"--passphrase-file {path}"))


def resolve_key(
    db: str, *, key_file: str | None = None, passphrase_file: str | None = None, environ: Mapping[str, str] = os.environ
) -> tuple[KeyProvider, list[str]]:
    """The key provider for ``db`` and any warnings to show (one line each)."""
    if key_file and passphrase_file:
        raise KeyFileError("give --key-file or --passphrase-file, not both")
    if key_file:
        return KeyFile(key_file, source=f"--key-file {key_file}"), []
    if passphrase_file:
        return read_passphrase_file(passphrase_file), []
    beside = default_key_file(db)
    env = environ.get(KEY_ENV)
    if env:
        provider = as_key_provider(env, source=_describe(env, f"${KEY_ENV}"))
        warnings = []
        if Path(beside).exists() and not same_key(provider, beside):
            warnings.append(
                f"${KEY_ENV} is set, so it is the key used; the key file {shown_target(beside)} beside the store is "
                f"ignored (unset {KEY_ENV} to use it)"
            )
        return provider, warnings
    if Path(beside).exists():
        return KeyFile(beside, source=f"key file {beside}"), []
    raise KeyFileError(
        f"no key for {shown_target(db)}: pass --key-file F or --passphrase-file F, set ${KEY_ENV}, or keep the key "
        f"in {shown_target(beside)}"
    )


def same_key(provider: KeyProvider, key_file: str) -> bool:
    """``key_file`` holds the raw key ``provider`` gives (a passphrase and a key file differ in kind)."""
    if not isinstance(provider, (RawKey, KeyFile)):
        return False  # a passphrase and a key file differ in kind
    try:
        return KeyFile(key_file).store_key(b"") == provider.store_key(b"")
    except KeyFileError:
        return False


__all__ = ["KEY_ENV", "Passphrase", "default_key_file", "read_passphrase_file", "resolve_key", "same_key"]
