"""Files only their owner may read: created 0600 from their first byte, refused when others can read them.

Key files, passphrase files and the store file itself go through here, so the one rule (ssh's
rule for private keys) is written once.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def create_private(path: str | os.PathLike[str]) -> int:
    """A new file opened for writing, mode 0600 from its first byte; raises FileExistsError, OSError.

    O_EXCL: an existing file is never replaced (a key file may be the only copy of a key).
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.fchmod(fd, 0o600)  # the umask may have cleared owner bits
    return fd


def read_private_text(path: str | os.PathLike[str], encoding: str) -> tuple[str, bool]:
    """The file's text, and whether other users can read or write it (which callers refuse).

    Raises FileNotFoundError, IsADirectoryError, OSError or UnicodeDecodeError for the caller to
    turn into its own one-line message.
    """
    where = Path(path)
    info = where.stat()
    return where.read_text(encoding=encoding), bool(info.st_mode & (stat.S_IRWXG | stat.S_IRWXO))
