"""Two-process drawing (generator.parallel): an interrupted build ends, whatever its worker is
doing at that moment."""
from __future__ import annotations

import multiprocessing
import signal
import threading
from types import SimpleNamespace

from conftest import write_deck
from generator import interrupt, parallel


class _Writer:
    """Stands in for PdfWriter: the worker's chunk finishes at once with more than a pipe holds,
    the parent's chunk is interrupted only after that, so the worker is blocked sending."""
    title = "test"

    def __init__(self):
        self.worker_done = multiprocessing.get_context("fork").Event()

    def write(self, sheets, progress=None, into=None):
        if sheets[0].number == 0:
            self.worker_done.wait(60)
            raise interrupt.Interrupted(signal.SIGTERM)
        self.worker_done.set()
        with open(into, "wb") as handle:
            handle.write(b"%" * (8 * 1024 * 1024))


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


def test_a_worker_that_has_sent_its_result_is_not_stopped_with_a_signal(monkeypatch, capfd):
    """A worker that has sent its result is waited for while it exits: a terminate signal landing
    before it held signals printed a stray traceback under a finished build."""
    hold = interrupt.hold

    def slow_exit():             # widens the moment between sending the result and holding signals
        if multiprocessing.parent_process() is not None:
            threading.Event().wait(0.5)
        hold()
    monkeypatch.setattr(interrupt, "hold", slow_exit)
    previous = interrupt.install()     # as in the CLI: SIGTERM raises Interrupted
    try:
        assert parallel.side_by_side([lambda advance: "here", lambda advance: "there"]) == ["here", "there"]
    finally:
        interrupt.restore(previous)
    assert "Traceback" not in capfd.readouterr().err


FRONT = """<rect x="0" y="0" width="{{ face.width }}" height="{{ face.height }}" fill="{{ palette.paper }}"/>
{{ text_line(item.title, 5, 10, 30, size=12, min_size=2) }}
"""
BACK = '<rect x="0" y="0" width="{{ face.width }}" height="{{ face.height }}" fill="{{ palette.ink }}"/>\n'


def _split_deck(folder, titles):
    """A deck of one card per title, long enough to be drawn by two processes."""
    return write_deck(folder, titles, {"front.svg.j2": FRONT, "back.svg.j2": BACK})


def _build_warnings(pack, out, monkeypatch, split: bool):
    from generator.build import BuildRequest, build
    monkeypatch.setattr(parallel, "MIN_PAGES_PER_CHUNK", 8 if split else 10**9)
    result = build(pack, BuildRequest(out_dir=out))
    assert (result.files[0]["pages"] >= 2 * 8) or not split
    return result.warnings


def test_faces_rendered_by_a_worker_give_the_same_warnings_in_the_same_order(tmp_path, monkeypatch):
    # readable titles, titles shrunk below 6 pt on pages of either process, one long title on
    # the first and the last card (one warning, counted on both faces)
    titles = [f"Card {n}" for n in range(200)]
    for n in (3, 60, 150, 190):
        titles[n] = f"Card {n} has a title far too long to stay readable"
    titles[0] = titles[-1] = "One long title on the first and the last card"
    pack = _split_deck(tmp_path / "split deck", titles)
    split = _build_warnings(pack, tmp_path / "two", monkeypatch, split=True)
    alone = _build_warnings(pack, tmp_path / "one", monkeypatch, split=False)
    assert split == alone
    assert len(alone) == 5 and "Card 190" in alone[-1]
    assert "'card-0'" in alone[0] and "the same on 1 more faces" in alone[0]


def test_a_template_error_on_a_workers_page_names_its_face(tmp_path, monkeypatch):
    from generator.errors import BuildError
    titles = [f"Card {n}" for n in range(200)]
    titles[180] = "Card :nowhere:"
    pack = _split_deck(tmp_path / "deck", titles)
    monkeypatch.setattr(parallel, "MIN_PAGES_PER_CHUNK", 8)
    try:
        _build_warnings(pack, tmp_path / "out", monkeypatch, split=True)
    except BuildError as exc:
        message = str(exc)
    else:
        raise AssertionError("the build should fail")
    assert "deck.yaml" in message and "'card-180'" in message and ":nowhere:" in message


def test_validate_on_two_cores_reports_what_one_core_reports(tmp_path, monkeypatch):
    from generator import validate as validation
    titles = [f"Card {n}" for n in range(200)]
    for n in (5, 150):
        titles[n] = f"Card {n} has a title far too long to stay readable"
    titles[20], titles[170] = "Card :nowhere:", "Card :elsewhere:"
    titles[0] = titles[-1] = "One long title on the first and the last card"
    pack = _split_deck(tmp_path / "deck", titles)
    split = validation.validate(pack)
    monkeypatch.setattr(validation, "in_halves", lambda count, run, progress: [run(0, count, progress)])
    alone = validation.validate(pack)
    assert (split.errors, split.warnings, split.faces) == (alone.errors, alone.warnings, alone.faces)
    assert len(alone.errors) == 2 and "'card-170'" in alone.errors[1]
    assert len(alone.warnings) == 3 and "the same on 1 more faces" in alone.warnings[0]
    assert alone.faces == 398


def test_while_drawing_side_by_side_the_collector_skips_the_old_heap_and_runs_less_often():
    import gc

    from generator.parallel import YOUNG_GC, frozen_heap
    before = gc.get_threshold()
    try:
        with frozen_heap():
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold() == (max(before[0], YOUNG_GC), *before[1:])
            raise KeyError("a build stopped while drawing")
    except KeyError:
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0



def test_drawing_in_one_process_also_leaves_the_old_heap_to_itself(monkeypatch):
    """One chunk, or chunks in turn where there is no fork: drawn with the heap frozen too."""
    import gc
    seen = []

    class Writer:
        def write(self, sheets, progress=None, into=None):
            seen.append((len(sheets), gc.get_freeze_count() > 0, gc.get_threshold()[0]))
            if into is None:
                return b"%PDF"
            with open(into, "wb") as handle:
                handle.write(b"%PDF")
            return None
    monkeypatch.setattr(parallel, "merge_files", lambda names, folder, into=None: b"merged")
    for pages, fork in ((3, True), (40, False)):
        monkeypatch.setattr(parallel, "can_fork", lambda: fork)
        parallel.write_pdf(Writer(), [SimpleNamespace(side="front") for _ in range(pages)])
    assert [n for n, _, _ in seen] == [3, 20, 20]
    assert all(frozen and threshold >= parallel.YOUNG_GC for _, frozen, threshold in seen)
    assert gc.get_freeze_count() == 0
