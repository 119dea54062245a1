"""Expiry sweeps: really delete what has expired, in short batches, safe while agents keep working.

Expired entries are already invisible (the store hides them at once); a sweep deletes them,
files and the directories whose files have all expired. Each batch is its own short write
transaction, so a writer waits at most one batch, never the whole sweep. What a sweep deletes is
erased from the store's files like any deletion (rule 5 of ``store/base.py``): within the store's
erasure bound, and before the store is closed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from securemem import audit
from securemem.errors import StorageError, StoreBusyError
from securemem.store.base import Store
from securemem.threads import quiet

logger = logging.getLogger("securemem.sweep")
DEFAULT_BATCH = 2000
PAUSE = 0.003  # seconds between batches
Progress = Callable[[int, int], None]  # (deleted so far, expired at the start)


@dataclass(frozen=True)
class SweepReport:
    deleted: int
    batches: int
    seconds: float
    redacted: int = 0  # versions whose content outlived the history's keep_content_for

    def summary(self) -> str:
        text = f"swept {self.deleted} expired entries in {self.batches} batches, {self.seconds:.2f}s"
        return text + (f"; redacted {self.redacted} versions past the history's retention" if self.redacted else "")


def sweep(
    store: Store,
    now: float,
    *,
    batch: int = DEFAULT_BATCH,
    progress: Progress | None = None,
    pause: float = PAUSE,
    keep_content_for: float | None = None,
) -> SweepReport:
    """Delete every file that expired at or before ``now``; ``pause`` seconds between batches.

    The pause lets a writer in: the store polls for its lock every millisecond or two, so a
    writer that arrives during a batch goes next instead of waiting for the whole sweep. With
    ``keep_content_for`` (the policy's ``history.keep_content_for``), versions older than that
    are redacted too, in batches of the same size.
    """
    _check_batch(batch)
    started = time.perf_counter()
    total = store.count_expired(now) if progress else 0
    deleted = batches = 0
    while True:
        count = _batch_with_retry(store, now, batch)
        if count == 0:
            break
        deleted, batches = deleted + count, batches + 1
        if progress:
            progress(deleted, total)
        if count < batch:
            break
        if pause:
            time.sleep(pause)
    redacted = 0
    while keep_content_for is not None:
        count = store.expire_history(now, now - keep_content_for, batch)
        redacted += count
        if count < batch:
            break
    report = SweepReport(deleted, batches, time.perf_counter() - started, redacted)
    if deleted or redacted:
        # what a sweep erased is on the audit trail as a count, as an admin's change is (never a path)
        audit.event("sweep", deleted=deleted, redacted=redacted, seconds=round(report.seconds, 3))
    return report


def _check_batch(batch: int) -> None:
    # SQLite reads LIMIT 0 as "nothing" (a sweep that never deletes) and a negative LIMIT as "no
    # limit" (one unbounded transaction that blocks every writer): neither is a batch.
    if batch < 1:
        raise ValueError("batch must be a positive number of entries")


BUSY_RETRIES = 5


def _batch_with_retry(store: Store, now: float, batch: int) -> int:
    """One batch; if writers keep the store busy past the busy timeout, back off and retry.

    Agents have priority: a sweep is maintenance, so it yields rather than failing the run.
    """
    for attempt in range(BUSY_RETRIES):
        try:
            return store.sweep_batch(now, batch)
        except StoreBusyError:
            if attempt == BUSY_RETRIES - 1:
                raise
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")  # pragma: no cover


class BackgroundSweeper:
    """An in-process sweeper thread: ``start()``, ``stop()``, or use it as a context manager."""

    def __init__(
        self,
        store: Store,
        *,
        every: float,
        clock: Callable[[], float] = time.time,
        batch: int = DEFAULT_BATCH,
        keep_content_for: float | None = None,
        before_each: Callable[[], float | None] | None = None,
    ) -> None:
        """``before_each``: called before each round, it returns the ``keep_content_for`` that
        round applies (a handle's sweeper follows the store's policy as an operator changes it)."""
        if every <= 0:
            raise ValueError("every must be a positive number of seconds")
        _check_batch(batch)
        self.store, self.every, self.clock, self.batch = store, every, clock, batch
        self.keep_content_for = keep_content_for
        self._before_each = before_each
        self.total_deleted = 0
        self.runs = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> BackgroundSweeper:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=quiet(self._loop), name="securemem-sweeper", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run_once(self) -> SweepReport:
        if self._before_each is not None:
            self.keep_content_for = self._before_each()
        report = sweep(self.store, self.clock(), batch=self.batch, keep_content_for=self.keep_content_for)
        self.total_deleted += report.deleted
        self.runs += 1
        return report

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except StorageError as exc:  # busy or full: log and try again next time
                logger.warning("sweep failed: %s", exc)
            self._stop.wait(self.every)

    def __enter__(self) -> BackgroundSweeper:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
