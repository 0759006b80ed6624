"""What a renderer works out once for the faces of a template rather than for each face, and
that each face is still its own: its own text, its own pictures, its own reworked output."""
from __future__ import annotations

import json

from conftest import write_deck
from generator import facedoc
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
