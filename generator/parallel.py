"""Sheets -> PDF on both cores (and the page boxes cairo cannot write): large jobs are cut into page-aligned chunks; the
parent renders and draws the first while a forked worker renders and draws each other one, and the chunk PDFs
are merged with pikepdf. Rendering the templates is most of a card's cost, so it is split too; each worker
sends back, with its PDF, the warnings its faces gave (render.Renderers), told by the parent in page order.

The number of chunks depends only on the page count, never on the machine, so the same input
gives the same bytes everywhere; a machine with one core just draws the chunks in turn.
"""
from __future__ import annotations

import contextlib
import ctypes
import gc
import io
import multiprocessing
import multiprocessing.connection
import os
import tempfile

from . import interrupt
from .apart import die_with
from .errors import BuildError

MIN_PAGES_PER_CHUNK = 8      # below this, forking costs more than it saves
CHUNKS = 2

_jobs = None                 # the jobs of side_by_side, inherited by its forked workers


def chunk_sheets(sheets: list) -> list[list]:
    """Contiguous, page-aligned chunks; a back page stays with its front."""
    if len(sheets) < 2 * MIN_PAGES_PER_CHUNK:
        return [sheets]
    cut = len(sheets) // CHUNKS
    while 0 < cut < len(sheets) and sheets[cut].side in ("back", "blank"):
        cut += 1
    return [sheets[:cut], sheets[cut:]]


def write_pdf(writer, sheets: list, progress=None, renderers=None, into: str | None = None) -> bytes | None:
    """`renderers` (render.Renderers, or None): where the faces' warnings are kept. With `into`,
    the PDF is written to that file and None returned: a large one is never held in memory."""
    chunks = chunk_sheets(sheets)
    if len(chunks) == 1:
        with frozen_heap():
            return writer.write(sheets, progress, into=into)
    with tempfile.TemporaryDirectory(prefix="pnpgen-merge-") as folder:
        jobs = [_drawing(writer, chunk, renderers, os.path.join(folder, f"part{index}.pdf"))
                for index, chunk in enumerate(chunks)]
        drawn = side_by_side(jobs, progress) if can_fork() else _one_by_one(jobs, progress)
        for _, told, _ in drawn[1:]:
            if renderers is not None:
                renderers.hear(told)
        pictures = [set(p) for _, _, p in drawn]
        shared = set.union(*(a & b for i, a in enumerate(pictures) for b in pictures[i + 1:]))
        merged = merge_files([name for name, _, _ in drawn], folder, None if shared else into)
    if not shared:
        return merged
    pdf = pictures_once(merged)
    if into is None:
        return pdf
    with open(into, "wb") as handle:
        handle.write(pdf)
    return None


def _one_by_one(jobs: list, progress) -> list:
    """The jobs in turn, here (one core, or no fork), the collector as while drawing side by side."""
    with frozen_heap():
        return [job(progress or _ignore) for job in jobs]


def _drawing(writer, chunk, renderers, name: str):
    """The job of drawing one chunk into the file `name`: the file, what rendering its faces said
    (to be told by the parent when a worker drew it), and the pictures it holds (a picture in
    more than one chunk is stored once after the merge). The PDF goes to a file, not through
    the pipe: a chunk of art is 100s of MB, and pickling it would hold it twice on each side."""
    def job(advance):
        from .svgdraw.images import drawn_for_pdf
        known = renderers.known() if renderers is not None else None
        before = len(drawn_for_pdf())
        writer.write(chunk, advance, into=name)
        return name, renderers.told_since(known) if renderers is not None else None, drawn_for_pdf(before)
    return job


def in_halves(count: int, run, progress=None, minimum: int = 256) -> list:
    """[run(0, half, advance), run(half, count, advance)]: the first half done here while a
    forked worker does the second (each result must pickle); one call for small jobs, or where
    there is one core or no fork. `advance(n)` reports progress from either process."""
    if count < minimum or not can_fork():
        return [run(0, count, progress or _ignore)]
    half = count // 2
    return side_by_side([lambda advance: run(0, half, advance), lambda advance: run(half, count, advance)], progress)


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) >= 2


def side_by_side(jobs: list, progress=None) -> list:
    """[job(advance) for job in jobs], the first run here while a forked worker runs each other
    one (their results must pickle): the parent does its share instead of waiting, and its part
    needs no pipe. `advance(n)` reports progress from any of them to `progress`."""
    global _jobs
    ctx = multiprocessing.get_context("fork")
    counter = ctx.Value("q", 0)
    _jobs = (jobs, counter)
    pipes, workers, results = [], [], None
    try:
        with frozen_heap():
            start_workers(ctx, _work, range(1, len(jobs)), pipes, workers)
            report = _Progress(progress, counter)
            first = jobs[0](report.own)
            results = [first] + _collect(pipes, report)
            return results
    finally:
        _jobs = None
        _stop(workers, pipes, finished=results is not None)


def _ignore(n: int) -> None:
    pass


def start_workers(ctx, target, indices, pipes: list, workers: list) -> None:
    """A forked process running target(index, send) per index; the read end of each one's pipe
    goes to `pipes`, the process to `workers` (as each starts, so the caller can stop them all)."""
    parent = os.getpid()
    for index in indices:
        receive, send = ctx.Pipe(duplex=False)
        worker = ctx.Process(target=_worker_main, args=(target, parent, index, send, [*pipes, receive]), daemon=True)
        worker.start()
        send.close()
        pipes.append(receive)
        workers.append(worker)


def _worker_main(target, parent: int, index: int, send, read_ends: list) -> None:
    """A worker's whole life. It holds no read end of any pipe (a worker that held its own once
    waited for ever to send a large PDF to a parent killed with SIGKILL), it dies with its
    parent, and a stop signal from the parent, however late it comes, ends it without a
    traceback: the parent tells the user."""
    for pipe in read_ends:
        pipe.close()
    try:
        die_with(parent)
        target(index, send)
    except interrupt.Interrupted:
        pass
    finally:
        interrupt.hold()        # a SIGTERM while exiting is only noted


YOUNG_GC = 20_000     # objects allocated (less those freed) between collections of the youngest


@contextlib.contextmanager
def frozen_heap():
    """While drawing, the garbage collector leaves the objects made before alone. Side by side,
    in every process: walking them writes to every page the processes share, and the kernel
    then copies each one (two processes x1.55 -> x1.62 at 10,000 cards); in one process, its
    full collections walked the whole loaded deck (0.23 s of GC drawing 10,000 cards, 0.04 s
    now). And it looks for cycles less often: drawing frees nearly everything it makes by
    reference counts, yet collecting every 700 objects (Python's default) cost 0.17 s of a
    10,000-card build's CPU in its two processes, 0.08 s every 20,000."""
    gc.freeze()
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], YOUNG_GC), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


EXIT_GRACE = 10.0     # seconds a worker that has sent its result is given to exit by itself


def _stop(workers, pipes, finished: bool = False) -> None:
    """Workers ended, whatever state they are in. Closing our pipe ends first matters: a worker
    that finished while we were interrupted is blocked sending its PDF, and only a broken pipe
    wakes it; one still drawing stops at its next page on the terminate signal. `finished`:
    every worker has sent its result and is only exiting; a terminate signal then could land
    before it holds signals and print a stray traceback, so each is waited for first."""
    for pipe in pipes:
        pipe.close()
    for worker in workers:
        if finished:
            worker.join(EXIT_GRACE)
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(10)
        if worker.is_alive():          # stuck inside cairo: no clean stop possible
            worker.kill()
            worker.join()


class _Progress:
    """Forwards the parent's pages and the workers' shared page counter to one callback."""

    def __init__(self, progress, counter):
        self.progress, self.counter, self.shown = progress, counter, 0

    def own(self, n: int) -> None:
        if self.progress:
            self.progress(n)
        self.workers()

    def workers(self) -> None:
        done = self.counter.value
        if self.progress and done > self.shown:
            self.progress(done - self.shown)
            self.shown = done


def _collect(pipes, report: _Progress) -> list:
    """Each worker's result, in job order; woken as soon as one arrives (no polling delay)."""
    results = [None] * len(pipes)
    waiting = dict(enumerate(pipes))
    while waiting:
        interrupt.check()
        for pipe in multiprocessing.connection.wait(list(waiting.values()), timeout=0.1):
            index = next(i for i, p in waiting.items() if p is pipe)
            try:
                results[index] = pipe.recv()
            except EOFError:
                raise BuildError("a drawing worker stopped unexpectedly (out of memory?)") from None
            del waiting[index]
        report.workers()
    for status, payload in results:
        if status == "error":
            raise payload
    return [payload for _, payload in results]


def _work(index: int, send) -> None:
    """In a forked worker: job `index` of side_by_side, its result or its error sent back."""
    jobs, counter = _jobs

    def advance(n):
        with counter.get_lock():
            counter.value += n
    try:
        result = ("ok", jobs[index](advance))
    except (BuildError, interrupt.Interrupted) as exc:
        result = ("error", exc)
    except Exception as exc:          # report, don't hang the parent
        result = ("error", BuildError(f"drawing failed: {type(exc).__name__}: {exc}"))
    try:
        send.send(result)
    except (OSError, interrupt.Interrupted):   # the parent stopped listening or stopped us
        pass
    finally:
        send.close()


def merge(parts: list[bytes]) -> bytes:
    """PDFs given as bytes, as one: merge_files over a private temporary folder."""
    with tempfile.TemporaryDirectory(prefix="pnpgen-merge-") as folder:
        names = []
        for index, part in enumerate(parts):
            names.append(os.path.join(folder, f"part{index}.pdf"))
            with open(names[-1], "wb") as handle:
                handle.write(part)
        return merge_files(names, folder)


def merge_files(names: list[str], folder: str, into: str | None = None) -> bytes | None:
    """The PDF files `names` as one, made in `folder` (or written to the file `into`, returning
    None); deterministic output (no random /ID, fixed dates).

    One qpdf job over files copies the pages in C++: twice as fast as appending them one by
    one through pikepdf's page list (0.16 s against 0.33 s for 2,224 pages, one run)."""
    import pikepdf          # here: validate splits its work with this module and never merges
    out = into or os.path.join(folder, "merged.pdf")
    pages = [arg for name in names[1:] for arg in (name, "1-z")]
    pikepdf.Job(["pnpgen", names[0], "--pages", ".", "1-z", *pages, "--", "--deterministic-id",
                 "--compress-streams=y", "--object-streams=preserve", out]).run()
    _trim_heap()
    if into is not None:
        return None
    with open(out, "rb") as handle:
        return handle.read()


def _trim_heap() -> None:
    """qpdf's objects freed, their memory given back to the system (glibc keeps it otherwise)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


def pictures_once(pdf: bytes) -> bytes:
    """The merged PDF with each picture stored once: cairo stores a picture once per file, so
    one drawn in two chunks came out twice. Images with the same bytes and dictionary (their
    masks compared alike) are pointed at the first; the others, now unused, are not written."""
    import hashlib
    import pikepdf
    doc = pikepdf.Pdf.open(io.BytesIO(pdf))
    keys: dict = {}

    def key(image):
        if image.objgen not in keys:
            entries = sorted((str(k), key(v) if k == "/SMask" else repr(v)) for k, v in image.items() if k != "/Length")
            keys[image.objgen] = hashlib.sha256(image.read_raw_bytes() + repr(entries).encode()).hexdigest()
        return keys[image.objgen]
    first: dict = {}
    for obj in doc.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
            first.setdefault(key(obj), obj)
    for obj in doc.objects:     # pages' and forms' resources
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)) and "/Resources" in obj:
            xobjects = obj.Resources.get("/XObject")
            for name, target in (xobjects.items() if xobjects is not None else ()):
                if target.get("/Subtype") == "/Image" and first[key(target)].objgen != target.objgen:
                    xobjects[name] = first[key(target)]
    out = io.BytesIO()
    doc.save(out, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return out.getvalue()


def set_print_boxes(pdf: bytes, sheets: list) -> bytes:
    """TrimBox (the finished size) and BleedBox (trim plus bleed) on print-shop pages; cairo
    cannot write them. PDF boxes count from the bottom-left, in points."""
    import pikepdf
    doc = pikepdf.Pdf.open(io.BytesIO(pdf))
    pt = 72 / 25.4
    for page, sheet in zip(doc.pages, sheets):
        if not sheet.trim:
            continue
        x, y, w, h = sheet.trim
        bottom = sheet.height - y - h
        page.obj.TrimBox = pikepdf.Array([x * pt, bottom * pt, (x + w) * pt, (bottom + h) * pt])
        page.obj.BleedBox = pikepdf.Array([0, 0, sheet.width * pt, sheet.height * pt])
    out = io.BytesIO()
    doc.save(out, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return out.getvalue()
