"""Progress of a long operation (``keys rotate-dek``) on stderr: a bar on a terminal, a few lines elsewhere.

Never on stdout, which carries the command's result (and JSON lines for scripts). Two parts:

- ``watch_writes``: SQLCipher re-keys every page inside one ``PRAGMA rekey`` call that reports
  nothing on its way, so a thread samples how many bytes this process has written so far
  (``wchar`` in ``/proc/self/io``, Linux) against what the re-key writes in all: every page into
  the WAL, then every page back into the store file. Where that count cannot be read, only the
  start and the end are reported.
- ``Meter``: draws what it is told. On a terminal one line redrawn in place (``\\r``) at most
  five times a second: a bar, the percentage, MB done of total, the rate. Elsewhere (a log, a
  pipe) a line at the start, at each quarter and at the end. ``quiet``: nothing.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

from securemem.threads import quiet

Report = Callable[[int, int], None]  # (bytes done, bytes in all)
INTERVAL = 0.2
WIDTH = 28
MB = 2**20


def written_bytes() -> int | None:
    """Bytes this process has passed to write(2) and friends so far, or None where that is not told."""
    try:
        with open("/proc/self/io", encoding="ascii") as stats:
            for line in stats:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


@contextlib.contextmanager
def watch_writes(total: int, expected_writes: int, report: Report | None) -> Iterator[None]:
    """Report ``total`` scaled by the share of ``expected_writes`` written so far, while the block runs."""
    if report is None:
        yield
        return
    report(0, total)
    start = written_bytes()
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(INTERVAL):
            now = written_bytes()
            if start is not None and now is not None:
                share = min(0.99, (now - start) / max(1, expected_writes))  # 100% only once it is done
                report(int(total * share), total)

    watcher = threading.Thread(target=quiet(sample), name="securemem-progress", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()
    report(total, total)


class Meter:
    """Draws (done, total) byte counts for ``what`` on ``stream`` (stderr by default)."""

    def __init__(self, what: str, *, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self._started = time.monotonic()
        self._quarter = -1
        self._drawn = False
        self._lock = threading.Lock()

    def __call__(self, done: int, total: int) -> None:
        if self.quiet:
            return
        with self._lock:
            if not self._drawn:
                self._started = time.monotonic()  # the rate counts from the first report, not from set-up
                self._drawn = True
            if self.tty:
                self._draw(done, total)
            else:
                self._line(done, total)

    def _figures(self, done: int, total: int) -> tuple[float, str]:
        share = done / total if total else 1.0
        seconds = max(time.monotonic() - self._started, 1e-6)
        rate = f"{done / MB / seconds:,.1f} MB/s" if done else "-- MB/s"
        return share, f"{done / MB:,.1f}/{total / MB:,.1f} MB, {rate}"

    def _draw(self, done: int, total: int) -> None:
        share, figures = self._figures(done, total)
        filled = int(WIDTH * share)
        bar = "#" * filled + "." * (WIDTH - filled)
        end = "\n" if done >= total else ""
        self.stream.write(f"\r{self.what} [{bar}] {share:4.0%} {figures}\x1b[K{end}")
        self.stream.flush()

    def _line(self, done: int, total: int) -> None:
        share, figures = self._figures(done, total)
        quarter = 4 if done >= total else int(share * 4)
        if quarter == self._quarter:
            return
        self._quarter = quarter
        if done >= total:
            seconds = time.monotonic() - self._started
            self.stream.write(
                f"{self.what}: done, {total / MB:,.1f} MB in {seconds:,.1f} s ({figures.split(', ')[1]})\n"
            )
        else:
            self.stream.write(f"{self.what}: {share:.0%} ({figures})\n")
        self.stream.flush()
