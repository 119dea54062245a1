"""Files only their owner may read: created 0600 from their first byte, refused when others can read them.

Key files, passphrase files, key headers and the store file itself go through here, so the one
rule (ssh's rule for private keys) is written once.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO


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
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_PRIVATE_TEXT:
        # A FIFO would block the read until a writer came, a device (/dev/zero) would never end: a
        # key or a passphrase is a small regular file.
        raise OSError(errno.EINVAL, "not a small regular file", os.fspath(path))
    return where.read_text(encoding=encoding), bool(info.st_mode & (stat.S_IRWXG | stat.S_IRWXO))


MAX_PRIVATE_TEXT = 1 << 20  # a key file holds 64 hex characters, a passphrase file one line
MAX_INPUT_BYTES = 64 << 20  # a tool input, a memory's text, a replay's line: far more than any policy stores


def read_limited(source: str | os.PathLike[str] | BinaryIO, limit: int = MAX_INPUT_BYTES) -> bytes:
    """All of a file (a path) or a stream, refused past ``limit`` bytes (OSError EFBIG, its strerror
    saying so): a device such as /dev/zero, or a file far larger than any input, must not fill the
    memory. A FIFO or a shell's process substitution is read like a file."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as stream:
            return read_limited(stream, limit)
    data = source.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes")
    return data


def write_private_atomic(path: str | os.PathLike[str], data: bytes, *, replace: bool = True) -> None:
    """Put ``data`` at ``path`` in one step: a reader sees the old bytes or the new, never a mix.

    A temporary file is made beside it (0600, O_EXCL, so never someone else's file), written and
    fsynced, then renamed over ``path`` and the directory fsynced, so the rename itself survives
    a power loss. ``replace=False`` links instead of renaming: an existing ``path`` is never
    replaced (FileExistsError), for files whose loss would lose a key.
    """
    target = Path(path)
    temp = target.with_name(f".{target.name}.tmp-{os.getpid()}-{os.urandom(4).hex()}")
    fd = create_private(temp)
    try:
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(temp, target)
        else:
            os.link(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    _fsync_dir(target.parent)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def keep_keys_out_of_core_dumps() -> bool:
    """Make this process write no core dump, on any host setting: a crash would otherwise write its
    memory, data keys included (raw, and as the hex of SQLCipher's key), to a file in clear.

    Sets the core-file limit to zero (soft and hard) and, on Linux, the process's "dumpable" flag
    off, which also stops other processes of the same user from attaching to it or reading its
    memory through /proc. Process-wide, so the library leaves it to the application; the CLI calls
    it first. True if both took effect.
    """
    import ctypes
    import ctypes.util
    import resource

    done = True
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (OSError, ValueError):
        done = False
    if not sys.platform.startswith("linux"):
        return done
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        done = libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 and done
    except (OSError, AttributeError):
        done = False
    return done


_PR_SET_DUMPABLE = 4  # linux/prctl.h
