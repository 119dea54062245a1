"""``command:/path/to/helper arg...``: a helper program prints the KEK, as git credential helpers do.

For Vault, 1Password or a company script. The helper runs without a shell (the URI is split
like a shell word list, but no shell ever sees it), with no standard input, within a time
limit, and its output is read up to a bound (a helper printing more is killed). Its stdout must
be the KEK as hex; its stderr is never echoed (a helper may print secrets or tokens there), so a
failure is told by its exit status alone. It gets this process's environment without the secrets
securemem reads from it (an attacker's round: a helper saw the hex of the ``env:`` KEK being
rotated away from, the HSM's PIN and PostgreSQL's password): no ``SECUREMEM_*`` variable, no
``PGPASSWORD``, and no variable an ``env:`` KEK of this process names.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import time
from typing import IO

from securemem.errors import KekError
from securemem.keys.kek import MaterialKek, kek_variables, parse_hex_kek
from securemem.private_files import MAX_PRIVATE_TEXT

TIMEOUT = 30.0
# A KEK is 64 hex digits: at most what a key file may hold is read (the bound every key source
# has), and a helper that prints more (a runaway loop, a binary dumped by mistake) is killed, so
# it cannot fill this process's memory for the whole time limit.
MAX_OUTPUT = MAX_PRIVATE_TEXT


_WITHHELD = frozenset({"PGPASSWORD"})  # besides SECUREMEM_* and the env: KEKs' variables


def helper_environment() -> dict[str, str]:
    """The environment a helper runs with: this process's, without the secrets securemem reads from it."""
    withheld = _WITHHELD | kek_variables()
    return {
        name: value for name, value in os.environ.items() if not name.startswith("SECUREMEM_") and name not in withheld
    }


class _TooMuch(Exception):
    """The helper printed more than MAX_OUTPUT bytes."""


class CommandKek(MaterialKek):
    def __init__(self, command: str, *, timeout: float = TIMEOUT) -> None:
        try:
            argv = shlex.split(command)
        except ValueError:
            argv = []
        if not argv:
            raise KekError("a command: KEK names a helper program: command:/path/to/helper [args]")
        super().__init__(f"command:{argv[0]}")
        self.argv = argv
        self.timeout = timeout

    def fetch(self) -> bytes:
        where = f"KEK {self.source}"
        try:
            code, out = self._run()
        except subprocess.TimeoutExpired:
            raise KekError(f"{where}: the helper did not answer within {self.timeout:g} s") from None
        except _TooMuch:
            raise KekError(
                f"{where}: the helper printed more than {MAX_OUTPUT:,} bytes (no KEK): it was stopped"
            ) from None
        except OSError as exc:
            raise KekError(f"{where}: cannot run the helper ({exc.strerror})") from None
        if code != 0:
            raise KekError(f"{where}: the helper exited with status {code} (its stderr is not shown)")
        try:
            text = out.decode("ascii")
        except UnicodeDecodeError:
            text = ""
        return parse_hex_kek(text, f"{where}: the helper's output")

    def _run(self) -> tuple[int, bytes]:
        """The helper's exit status and its stdout (at most MAX_OUTPUT bytes), within the time limit;
        the helper is killed on any way out before it ended."""
        deadline = time.monotonic() + self.timeout
        helper = subprocess.Popen(  # noqa: S603 - argv from the operator's own URI, run without a shell
            self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=helper_environment(), start_new_session=True,  # its own process group: what it started goes with it
        )  # fmt: skip
        try:
            assert helper.stdout is not None
            out = _read_bounded(helper.stdout, deadline, self.argv, helper)
            return helper.wait(timeout=max(0.0, deadline - time.monotonic())), out
        finally:
            if helper.poll() is None:
                helper.kill()
                helper.wait()
            # A child the helper left behind (a shell's "&", an agent it started) would hold its stdout
            # open, and run on: an attacker's round found it alive after the timeout.
            with contextlib.suppress(OSError):
                os.killpg(helper.pid, signal.SIGKILL)
            if helper.stdout is not None:
                helper.stdout.close()


_QUIET = 0.2  # seconds the helper's stdout may stay open and silent after it ended


def _read_bounded(
    stream: IO[bytes], deadline: float, argv: list[str], helper: subprocess.Popen[bytes] | None = None
) -> bytes:
    """What ``stream`` gives until its end, or until ``helper`` ended and the stream stayed quiet for
    _QUIET seconds (a child it left holds the stream open): _TooMuch past MAX_OUTPUT bytes,
    TimeoutExpired at ``deadline``."""
    chunks: list[bytes] = []
    size = 0
    quiet_since: float | None = None
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(argv[0], 0)
            if not selector.select(min(left, _QUIET)):
                if helper is not None and helper.poll() is not None:
                    now = time.monotonic()
                    quiet_since = now if quiet_since is None else quiet_since
                    if now - quiet_since >= _QUIET:
                        return b"".join(chunks)
                continue
            quiet_since = None
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_OUTPUT:
                raise _TooMuch
            chunks.append(chunk)
