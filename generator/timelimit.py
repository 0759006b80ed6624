"""Time limits of template runs: a block interrupted by SIGALRM once it runs past its seconds
(main thread only, where signals are delivered), and batches of faces whose limits share one
alarm. Used by render.py (each face) and handout.py (each expression)."""
from __future__ import annotations

import _signal
import signal
import threading
import time


class TemplateTimeout(Exception):
    pass


class time_limit:
    """Interrupt the block after `seconds` (main thread only, where signals are delivered).
    A class calling _signal itself: entered for every face, where signal.signal's enum
    conversions and a generator-based context manager cost 6 us of a face's ~300. One may be
    entered again once left (a renderer keeps one per template), not while inside it. Inside
    face_batch() the batch's one alarm times it, and entering it sets no handler nor timer."""
    __slots__ = ("seconds", "message", "previous", "armed", "expire")

    def __init__(self, seconds: float, message: str):
        self.seconds, self.message, self.previous, self.armed = seconds, message, None, False
        self.expire = self._expire

    def __enter__(self):
        if _BATCH.open:
            _BATCH.start(self)
        elif threading.current_thread() is threading.main_thread():
            self.previous = _signal.signal(signal.SIGALRM, self.expire)
            self.armed = True
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc) -> None:
        if self.armed:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            _signal.signal(signal.SIGALRM, self.previous)
        else:
            _BATCH.timed = None

    def _expire(self, signum, frame):
        raise TemplateTimeout(self.message)


class _Batch:
    """Faces rendered one after another (the writer renders a window of pages' faces before
    drawing them): each time_limit entered inside is timed by one alarm, set when the first
    face starts and again only when it goes off while a face is still short of its limit, so a
    face costs a clock reading, not two handlers and two timers set (1.1 us). Main thread only
    (elsewhere nothing is timed, as with time_limit). Entered inside itself, the inner is none."""
    __slots__ = ("open", "depth", "timed", "started", "rings_at", "previous")

    def __init__(self) -> None:
        self.open, self.depth, self.timed, self.started, self.rings_at, self.previous = False, 0, None, 0.0, None, None

    def __enter__(self):
        self.depth += 1
        if self.depth == 1 and threading.current_thread() is threading.main_thread():
            self.previous = _signal.signal(signal.SIGALRM, self._ring)
            self.open = True
        return self

    def __exit__(self, *exc) -> None:
        self.depth -= 1
        if self.open and not self.depth:
            self.open, self.timed, self.rings_at = False, None, None
            signal.setitimer(signal.ITIMER_REAL, 0)
            _signal.signal(signal.SIGALRM, self.previous)

    def start(self, limit: "time_limit") -> None:
        """A face starts under `limit`: the alarm set unless it goes off by its limit already."""
        now = time.monotonic()
        self.timed, self.started = limit, now
        if self.rings_at is None or self.rings_at > now + limit.seconds:
            self._set(limit.seconds, now)

    def _set(self, seconds: float, now: float) -> None:
        self.rings_at = now + seconds
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def _ring(self, signum, frame):
        self.rings_at = None
        limit = self.timed
        if limit is None:           # between faces: the next face sets it again
            return
        now = time.monotonic()
        left = limit.seconds - (now - self.started)
        if left <= 0:
            raise TemplateTimeout(limit.message)
        self._set(left, now)


_BATCH = _Batch()       # the one batch of this process: SIGALRM is one per process


def face_batch() -> _Batch:
    """A block whose faces' time limits share one alarm (_Batch)."""
    return _BATCH
