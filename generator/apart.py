"""A job -> its result, computed in a forked child and sent back pickled.

What the job allocates and drops on the way dies with the child: the parent's heap holds only
the result, in objects unpickled one after another. Loading 50,000 cards in the process that
builds them left 155 MB resident for 52 MB of live objects: the YAML scraps were freed between
the objects that live on, and glibc cannot give such holes back (malloc_trim returned 1 MB).

The pickle is written to an unnamed temporary file as it is made, and read from it as it is
unpickled once the child has ended, so neither side holds it whole and the two are never large
at once (read from a pipe as it came, the parent's model grew while the child still held the
whole of its own: `pnpgen load` of 50,000 cards peaked at 217 MB for the two). Where no child
can be forked (no fork, other threads running) or the child ends without a result (killed, or
a bug in the job: its traceback is the caller's to show), the caller is told with None and
does the job itself.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import signal
import tempfile
import threading
from typing import Callable, TypeVar

T = TypeVar("T")
SPOOL_BUFFER = 1 << 16
PR_SET_PDEATHSIG = 1


def result_of(job: Callable[[], T]) -> T | None:
    """job(), run in a forked child; None when no child could run it to the end."""
    if not _may_fork():
        return None
    parent = os.getpid()
    with tempfile.TemporaryFile(prefix="pnpgen-apart-") as spool:
        pid = os.fork()
        if pid == 0:                               # the child: never returns
            _child(job, os.dup(spool.fileno()), parent)
        status = None
        try:
            status = os.waitpid(pid, 0)[1]         # 0: the child wrote its result and ended
        finally:
            if status is None:                     # interrupted while waiting
                _end(pid)
        if status != 0:
            return None
        spool.seek(0)
        try:
            return pickle.load(spool)[0]
        except (EOFError, pickle.UnpicklingError, OSError):
            return None


def _may_fork() -> bool:
    """Forking a process with other threads running copies their locks in whatever state they
    are (the preview's server): never done."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _child(job: Callable, write: int, parent: int) -> None:
    """In the child: the job's result pickled into the spool file, then exit at once (no cleanup of a
    heap about to vanish, no buffered output of the parent's written twice)."""
    status = 1
    try:
        die_with(parent)
        result = job()
        with os.fdopen(write, "wb", buffering=SPOOL_BUFFER) as stream:
            pickle.dump((result,), stream, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    except BaseException:           # noqa: BLE001 (the parent does the job itself and shows why)
        pass
    finally:
        os._exit(status)


def die_with(parent: int) -> None:
    """SIGKILL to this process when its parent ends (Linux); the parent gone already: end now.
    (parallel.py's drawing workers use it too.)"""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _end(pid: int) -> None:
    """The child reaped; one still running (the parent was interrupted while waiting) killed."""
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done == 0:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
