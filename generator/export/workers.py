"""Image jobs -> PNG bytes on both cores. A job is a function of no arguments that draws one
image and returns its PNG bytes; forked workers inherit the jobs, so nothing is pickled but the
bytes coming back. Results are put back in job order: the files do not depend on the machine.

Workers end by themselves when their share is done; a worker that dies is reported, not waited
for.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
from typing import Callable

from .. import interrupt
from ..errors import BuildError
from ..parallel import can_fork, start_workers

MIN_JOBS = 12           # below this, forking costs more than it saves
WORKERS = 2
# glibc's mallopt: keep freed blocks up to this size for reuse instead of handing them back to
# the system. Each image allocates a few MB several times (cairo surface, pixels, PNG); returned
# and re-mapped every time, the zeroed fresh pages cost a worker more system time than the
# drawing (Cones of Dunshire png: 886,000 page faults, 1.4 s; kept: 92,000, 0.2 s).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
KEEP_BLOCKS_UP_TO = 32 * 1024 * 1024           # glibc's ceiling for M_MMAP_THRESHOLD on 64-bit
KEEP_FREE_UP_TO = 256 * 1024 * 1024

_jobs: list[Callable[[], bytes]] = []


def run_jobs(jobs: list[Callable[[], bytes]], advance: Callable[[int], None] | None = None,
             weights: list[int] | None = None) -> list[bytes]:
    """Every job's bytes, in order; advance(weight) after each (for the progress bar)."""
    weights = weights or [1] * len(jobs)
    if len(jobs) < MIN_JOBS or not can_fork():
        out = []
        for job, weight in zip(jobs, weights):
            interrupt.check()
            out.append(job())
            if advance:
                advance(weight)
        return out
    return _forked(jobs, advance, weights)


def _forked(jobs, advance, weights) -> list[bytes]:
    global _jobs
    ctx = multiprocessing.get_context("fork")
    _jobs = jobs
    results: list = [None] * len(jobs)
    pipes, workers = [], []
    try:
        start_workers(ctx, _work, range(WORKERS), pipes, workers)
        open_pipes = list(pipes)
        while open_pipes:
            interrupt.check()
            for pipe in multiprocessing.connection.wait(open_pipes, timeout=0.1):
                try:
                    status, index, payload = pipe.recv()
                except EOFError:
                    open_pipes.remove(pipe)
                    continue
                if status == "error":
                    raise BuildError(payload)
                results[index] = payload
                if advance:
                    advance(weights[index])
        if any(r is None for r in results):
            raise BuildError("an image worker stopped unexpectedly (out of memory?)")
        return results
    finally:
        _jobs = []
        for worker in workers:
            if worker.is_alive():
                worker.kill()
            worker.join()


def reuse_freed_memory() -> None:
    """In a worker (a process that ends when its share is done): freed image buffers stay in the
    process for the next image. Other C libraries have no mallopt; they just skip this."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        libc.mallopt(M_MMAP_THRESHOLD, KEEP_BLOCKS_UP_TO)
        libc.mallopt(M_TRIM_THRESHOLD, KEEP_FREE_UP_TO)
    except (OSError, AttributeError):
        pass


def _work(start: int, send) -> None:
    reuse_freed_memory()
    try:
        for index in range(start, len(_jobs), WORKERS):
            send.send(("ok", index, _jobs[index]()))
    except interrupt.Interrupted:     # the parent got the signal too and says so
        pass
    except Exception as exc:          # report, don't hang the parent
        send.send(("error", -1, f"drawing an image failed: {type(exc).__name__}: {exc}"))
    finally:
        send.close()
