"""A KEK named by its URI, as the command line, a config or ``SecureMemory.open(kek=...)`` give it.

``file:/path`` · ``env:VAR`` · ``passphrase:`` (asked on the terminal) · ``passphrase:file:/path``
· ``command:/path/to/helper arg...`` · ``pkcs11:token=NAME;object=LABEL[;pin-source=file:/path]``
· ``aws-kms:arn:aws:kms:REGION:ACCOUNT:key/ID``.
"""

from __future__ import annotations

import getpass
import os
import re
import sys
from collections.abc import Mapping

from securemem.errors import KekError
from securemem.keys.command import CommandKek
from securemem.keys.kek import EnvKek, FileKek, KekProvider, PassphraseKek, read_passphrase_text

SCHEMES = ("file", "env", "passphrase", "command", "pkcs11", "aws-kms")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_kek(uri: str, *, environ: Mapping[str, str] = os.environ) -> KekProvider:
    """The provider a KEK URI names; a one-line KekError for anything else (the URI is not echoed whole)."""
    scheme, sep, rest = uri.partition(":")
    if not sep or scheme not in SCHEMES:
        raise KekError(f"a KEK is a URI starting with one of: {', '.join(s + ':' for s in SCHEMES)}")
    if scheme == "file":
        if not rest:
            raise KekError("a file: KEK names its file: file:/path/to/kek")
        return FileKek(rest)
    if scheme == "env":
        if not _ENV_NAME.fullmatch(rest):
            raise KekError("an env: KEK names an environment variable: env:VAR")
        return EnvKek(rest, environ)
    if scheme == "passphrase":
        return _passphrase(rest)
    if scheme == "command":
        return CommandKek(rest)
    if scheme == "aws-kms":
        from securemem.keys.kms import AwsKmsKek

        return AwsKmsKek(rest, environ)
    from securemem.keys.pkcs11 import Pkcs11Kek

    return Pkcs11Kek(rest, environ)


def _passphrase(rest: str) -> PassphraseKek:
    if rest.startswith("file:") and len(rest) > len("file:"):
        path = rest.removeprefix("file:")
        return PassphraseKek(f"passphrase:file:{path}", lambda: read_passphrase_text(path))
    if rest:
        raise KekError("a passphrase KEK is passphrase: (asked on the terminal) or passphrase:file:/path")
    return PassphraseKek("passphrase:", _ask, confirm=_ask_again)


def _ask() -> str:
    if not sys.stdin.isatty():
        raise KekError("KEK passphrase: needs a terminal to ask on; use passphrase:file:/path in scripts")
    return getpass.getpass("securemem: KEK passphrase: ")


def _ask_again() -> str:
    return getpass.getpass("securemem: KEK passphrase (again): ")
