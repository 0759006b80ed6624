"""Ctrl-C and kill, delivered at safe points.

A signal handler that raises at once can land inside cairo's write callback, where Python can
only print the exception and carry on. The CLI's handlers just set a flag; the long loops
(page drawing, waiting for workers) call check() between pages and stop there cleanly.
"""
from __future__ import annotations

import signal

from .errors import PnpError


class Interrupted(PnpError):
    exit_code = 130


_received: int | None = None


def _note(signum, frame) -> None:
    global _received
    _received = signum


def install() -> dict:
    """Route SIGINT and SIGTERM to the flag; returns the previous handlers for restore()."""
    global _received
    _received = None
    return {signum: signal.signal(signum, _note) for signum in (signal.SIGINT, signal.SIGTERM)}


def restore(previous: dict) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def check() -> None:
    if _received is not None:
        raise Interrupted(f"interrupted by {signal.Signals(_received).name}")
