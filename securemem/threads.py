"""The threads securemem starts (the eraser's timers, the stop eraser, the background sweeper, a
progress watcher) leave stop signals to the process's other threads.

Python runs a signal's handler in the main thread only. A stop signal the kernel hands to one of
our threads (it may, when the main thread already has a signal pending) interrupts nothing in the
main thread: one blocked in C, on a lock or a queue (a pool's worker waiting for its next task),
never runs the handler that erases and then ends the process, and the process would outlive SIGTERM
(the default action the handler replaced would have ended it). Each of our threads blocks the stop
signals first.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

# SIGINT too: Python's own handler for it (KeyboardInterrupt) runs in the main thread alike.
STOP_SIGNALS = frozenset(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))


def block_stop_signals() -> None:
    """Block the stop signals in the calling thread (where the platform has per-thread masks)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def quiet(target: Callable[_P, _T]) -> Callable[_P, _T]:
    """``target``, run with the stop signals blocked in the thread that runs it."""

    def run(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        block_stop_signals()
        return target(*args, **kwargs)

    return run


class QuietTimer(threading.Timer):
    """A ``threading.Timer`` whose thread blocks the stop signals while it waits, not only once it fires."""

    def run(self) -> None:
        block_stop_signals()
        super().run()
