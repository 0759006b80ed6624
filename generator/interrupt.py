"""Ctrl-C and kill: every command stops within a second, exit 130 (SIGINT) or 143 (SIGTERM).

The CLI's handler raises Interrupted at once, wherever Python is, except inside `deferred()`
blocks: there it only notes the signal, and the block calls check() at its safe points. Two
kinds of work are deferred: cairo drawing (an exception raised inside cairo's write callback
is printed and lost, not raised) and switching a finished build into place (stopping halfway
would leave a mix of old and new files).

Interrupted derives from BaseException, like KeyboardInterrupt, so no `except Exception` that
reports a broken layout or template can swallow it.
"""
from __future__ import annotations

import contextlib
import signal

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    def __init__(self, signum: int, message: str = ""):
        super().__init__(signum, message)
        self.signum = signum
        self.message = message or f"interrupted by {signal.Signals(signum).name}; earlier output left as it was"

    @property
    def exit_code(self) -> int:
        return 128 + self.signum        # the shell's convention: 130 for SIGINT, 143 for SIGTERM

    def __str__(self) -> str:
        return self.message


_received: int | None = None
_deferred = 0


def _on_signal(signum, frame) -> None:
    global _received
    _received = signum
    if _deferred == 0:
        raise Interrupted(signum)


def install() -> dict:
    """Route SIGINT and SIGTERM here; returns the previous handlers for restore()."""
    global _received, _deferred
    _received, _deferred = None, 0
    return {signum: signal.signal(signum, _on_signal) for signum in SIGNALS}


def restore(previous: dict) -> None:
    global _received, _deferred
    _received, _deferred = None, 0
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def received() -> int | None:
    return _received


def check() -> None:
    if _received is not None:
        raise Interrupted(_received)


@contextlib.contextmanager
def deferred():
    """Signals inside the block are only noted; the block calls check() where stopping is safe."""
    global _deferred
    _deferred += 1
    try:
        yield
    finally:
        _deferred -= 1


class immediate:
    """Inside a deferred block, a stretch of pure Python (a template) that may stop at once.
    A class, not a generator-based context manager: it is entered for every face (0.8 us so)."""
    __slots__ = ("saved",)

    def __enter__(self) -> None:
        global _deferred
        check()             # (before the deferral is lifted: nothing to restore if it raises)
        self.saved, _deferred = _deferred, 0

    def __exit__(self, *exc) -> None:
        global _deferred
        _deferred = self.saved


def hold() -> None:
    """From here to the end of the process signals are only noted: the command has finished
    and its exit code is being returned."""
    global _deferred
    _deferred += 1
