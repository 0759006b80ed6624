"""What a renderer works out once for the faces of a template rather than for each face, and
that each face is still its own: its own text, its own pictures, its own reworked output."""
from __future__ import annotations

import json
import signal
import time

import pytest

from conftest import write_deck
from generator import cache, cli, facedoc, render, timelimit
from generator.manifest import load_pack
from generator.render import FaceRef, FaceRenderer

TITLES = ["Ash", "Birch", "Cedar", "Damson"]
SAME_OUTPUT = '<rect width="10" height="10" fill="#123456"/>\n{{ text_line(item.title, 5, 10, 50, size=9) }}\n'
BACK = '<rect width="10" height="10" fill="#654321"/>\n'


def _fronts(folder, front: str) -> tuple[FaceRenderer, list[str]]:
    game = load_pack(write_deck(folder, TITLES, {"front.svg.j2": front, "back.svg.j2": BACK}))
    renderer, group = FaceRenderer(game, 3.0), game.groups[0]
    return renderer, [renderer.svg(FaceRef(group, item, "front")) for item in group.items]


def test_cards_whose_template_writes_the_same_text_share_one_markup_checked_once(tmp_path, monkeypatch):
    checked = []
    real = facedoc.RunTable.intact
    monkeypatch.setattr(facedoc.RunTable, "intact", lambda self, output: checked.append(output) or real(self, output))
    _, svgs = _fronts(tmp_path / "deck", SAME_OUTPUT)
    assert len(checked) == 1, "the template's output is the same on every card: checked for the first alone"
    assert len({id(svg.markup) for svg in svgs}) == 1
    for title, svg in zip(TITLES, svgs):      # each face still shows its own title, and only it
        assert f">{title}</text>" in svg and sum(f">{t}</text>" in svg for t in TITLES) == 1


def test_a_card_whose_template_reworks_a_helpers_output_is_rendered_as_text_between_cards_that_do_not(tmp_path):
    front = ('{% if item.title == "Birch" %}{{ (text_line(item.title, 5, 10, 50, size=9) ~ "")|upper }}'
             '{% else %}{{ text_line(item.title, 5, 10, 50, size=9) }}{% endif %}\n')
    _, svgs = _fronts(tmp_path / "deck", front)
    assert [type(svg) for svg in svgs] == [facedoc.Face, str, facedoc.Face, facedoc.Face]
    assert "<TEXT" in svgs[1] and ">BIRCH</TEXT>" in svgs[1], "what the template did to the text is what prints"
    for title, svg in zip(TITLES[2:], svgs[2:]):
        assert f">{title}</text>" in svg and "<TEXT" not in svg


# pairs of items whose read fields, run together as text, would read the same
CLOSE_ITEMS = [({"title": "a", "kind": "bc"}, {"title": "ab", "kind": "c"}),
               ({"title": "x", "kind": 3}, {"title": "x", "kind": "3"}),
               ({"title": "x"}, {"title": "x", "kind": ""}),
               ({"title": "x", "kind": False}, {"title": "x", "kind": "false"}),
               ({"title": "x", "kind": True}, {"title": "x", "kind": 1}),
               ({"title": "x", "kind": ["a"]}, {"title": "x", "kind": '["a"]'}),
               ({"title": "s1:a", "kind": ""}, {"title": "", "kind": "s1:a"}),
               ({"title": "x", "kind": {"a": 1, "b": 2}}, {"title": "x", "kind": {"b": 2, "a": 1}})]


def test_a_face_key_tells_apart_items_whose_read_fields_run_together_alike(tmp_path):
    """A streamed build knows faces by their key: two items alike there would print one card twice."""
    from generator.cache import StreamedRenderer
    items = [dict(item, id=f"card-{n}") for n, item in enumerate(i for pair in CLOSE_ITEMS for i in pair)]
    pack = write_deck(tmp_path / "deck", [], {"front.svg.j2": '{{ text_line(item.title ~ item.kind|string, 5, 10, 50) }}',
                                              "back.svg.j2": BACK})
    deck = {"groups": [{"id": "deck", "kind": "card", "size": "poker", "template": "front.svg.j2",
                        "back_template": "back.svg.j2", "fields": {"title": "text", "kind": "data"}, "items": items}]}
    (pack / "deck.yaml").write_text(json.dumps(deck))
    game = load_pack(pack)
    group = game.groups[0]
    renderer = StreamedRenderer(game, 3.0)
    fronts = [FaceRef(group, item, "front") for item in group.items]
    keys = [renderer.identity(face) for face in fronts]
    assert len(set(keys)) == len(keys) == 2 * len(CLOSE_ITEMS)
    again = StreamedRenderer(load_pack(pack), 3.0)       # and the same in another renderer (process)
    assert [again.identity(FaceRef(again.game.groups[0], item, "front")) for item in again.game.groups[0].items] == keys
    backs = {renderer.identity(FaceRef(group, item, "back")) for item in group.items}
    assert len(backs) == 1 and not backs & set(keys)


def _busy(seconds: float) -> None:
    """Python running for `seconds` (a template's loop), stopped by an alarm if one goes off."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_faces_in_a_batch_are_each_timed_by_the_one_alarm_set_once(monkeypatch):
    """Inside face_batch every face still has its own limit: the one that runs on after quick
    faces is stopped at its limit, not at the alarm set for the first face (5 faces of 0.1 s
    each under a limit of 0.5 s all finish). The alarm is set once for the quick faces, and
    the handler and timer are as they were after the batch."""
    limit = render.time_limit(0.5, "template x ran for more than 0.5 s")
    set_to = []
    real = signal.setitimer
    monkeypatch.setattr(signal, "setitimer", lambda which, seconds, *rest: set_to.append(seconds) or real(which, seconds, *rest))
    before = signal.getsignal(signal.SIGALRM)
    with render.face_batch():
        for _ in range(3):
            with limit:
                _busy(0.05)
        assert set_to == [0.5], "one alarm for the quick faces"
        for _ in range(5):
            with limit:
                _busy(0.1)
        start = time.monotonic()
        with pytest.raises(render.TemplateTimeout, match="ran for more than 0.5 s"):
            with limit:
                _busy(60)
        assert 0.45 < time.monotonic() - start < 10
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_streamed_build_stops_a_template_that_runs_on_after_quick_faces(tmp_path, capsys, monkeypatch):
    """The writer renders each window of a streamed document's faces in one batch (separate
    cuts: no face is rendered before, to read its edges). (validate then tells every problem, as
    after any failed build: it times each face on its own.)"""
    monkeypatch.setattr(render, "TEMPLATE_SECONDS", 1)
    monkeypatch.setattr(cache, "STREAM_ABOVE", 0)
    front = ('{% if item.title == "Cedar" %}{% for i in range(10000) %}{% for j in range(10000) %}'
             '{% for k in range(10000) %}{% endfor %}{% endfor %}{% endfor %}{% endif %}' + SAME_OUTPUT)
    pack = write_deck(tmp_path / "deck", TITLES, {"front.svg.j2": front, "back.svg.j2": BACK})
    before, stopped = signal.getsignal(signal.SIGALRM), []
    real = timelimit._Batch._ring

    def ring(self, *args):
        try:
            real(self, *args)
        except render.TemplateTimeout:
            stopped.append(self.timed.message)
            raise
    monkeypatch.setattr(timelimit._Batch, "_ring", ring)
    start = time.monotonic()
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet", "--cuts", "separate"])
    err = capsys.readouterr().err
    assert stopped == ["template front.svg.j2 ran for more than 1 s"], "stopped by the batch's alarm"
    assert code == 1 and "item 'card-2' (front): template front.svg.j2 line 1: template front.svg.j2 ran for more " \
        "than 1 s" in err, err
    assert "Traceback" not in err and time.monotonic() - start < 30
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_helper_is_handed_the_template_frame_that_called_it_and_it_is_let_go_after(tmp_path, monkeypatch):
    """onface finds a block's template line from the frame the sandbox called the helper from,
    not by walking up the helper's own frames; no frame is kept once the helper returns."""
    from generator import onface, sandbox
    seen = []
    real = onface._template_line
    monkeypatch.setattr(onface, "_template_line", lambda: seen.append(sandbox.CALLER[0]) or real())
    _fronts(tmp_path / "deck", SAME_OUTPUT)
    assert len(seen) == len(TITLES)
    assert all(frame.f_globals["__jinja_template__"].name == "front.svg.j2" for frame in seen)
    assert sandbox.CALLER == [None]


@pytest.mark.parametrize("data", [{"title": "Ash", "cost": 3, "rare": True, "note": None, "w": 1.5},
                                  {"title": "Ash", "tags": ["a", "b"], "stats": {"hp": 2}},
                                  {"id": "own", "title": "Ash"}, {}])
def test_an_items_fields_are_given_read_only_as_read_only_of_the_whole_would_give_them(data):
    from generator.sandbox import ReadOnlyDict, ReadOnlyList, read_only, read_only_item
    given, whole = read_only_item("card-1", data), read_only({"id": "card-1", **data})
    assert type(given) is ReadOnlyDict and list(given.items()) == list(whole.items())
    with pytest.raises(TypeError, match="read-only"):
        given["title"] = "Birch"
    if "tags" in data:
        assert type(given["tags"]) is ReadOnlyList and type(given["stats"]) is ReadOnlyDict
