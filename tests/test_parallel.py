"""Two-process drawing (generator.parallel): an interrupted build ends, whatever its worker is
doing at that moment."""
from __future__ import annotations

import multiprocessing
import signal
import threading
from types import SimpleNamespace

from generator import interrupt, parallel


class _Writer:
    """Stands in for PdfWriter: the worker's chunk finishes at once with more than a pipe holds,
    the parent's chunk is interrupted only after that, so the worker is blocked sending."""
    title = "test"

    def __init__(self):
        self.worker_done = multiprocessing.get_context("fork").Event()

    def write(self, sheets, progress=None):
        if sheets[0].number == 0:
            self.worker_done.wait(60)
            raise interrupt.Interrupted(signal.SIGTERM)
        self.worker_done.set()
        return b"%" * (8 * 1024 * 1024)


def test_an_interrupted_build_does_not_wait_for_a_worker_blocked_sending_its_pdf():
    sheets = [SimpleNamespace(side="front", number=n) for n in range(2 * parallel.MIN_PAGES_PER_CHUNK)]
    outcome = []

    def build():
        try:
            parallel.write_pdf(_Writer(), sheets)
        except interrupt.Interrupted as exc:
            outcome.append(exc)

    previous = interrupt.install()     # as in the CLI: a worker notes SIGTERM instead of dying
    try:
        thread = threading.Thread(target=build, daemon=True)
        thread.start()
        thread.join(30)                # returns as soon as write_pdf does
    finally:
        interrupt.restore(previous)
    assert not thread.is_alive(), "write_pdf hung waiting for its worker"
    assert outcome and "interrupted" in str(outcome[0])
