"""``command:/path/to/helper arg...``: a helper program prints the KEK, as git credential helpers do.

For Vault, 1Password or a company script. The helper runs without a shell (the URI is split
like a shell word list, but no shell ever sees it), with no standard input, within a time
limit. Its stdout must be the KEK as hex; its stderr is never echoed (a helper may print
secrets or tokens there), so a failure is told by its exit status alone.
"""

from __future__ import annotations

import shlex
import subprocess

from securemem.errors import KekError
from securemem.keys.kek import MaterialKek, parse_hex_kek

TIMEOUT = 30.0


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
            done = subprocess.run(  # noqa: S603 - argv from the operator's own URI, run without a shell
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise KekError(f"{where}: the helper did not answer within {self.timeout:g} s") from None
        except OSError as exc:
            raise KekError(f"{where}: cannot run the helper ({exc.strerror})") from None
        if done.returncode != 0:
            raise KekError(f"{where}: the helper exited with status {done.returncode} (its stderr is not shown)")
        try:
            text = done.stdout.decode("ascii")
        except UnicodeDecodeError:
            text = ""
        return parse_hex_kek(text, f"{where}: the helper's output")
