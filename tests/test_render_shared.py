"""A face whose templates read nothing of its item (a deck's common back) is rendered once per
group and side, and still told about, warnings and all, as every item's own face."""
from __future__ import annotations

from conftest import write_deck
from generator.manifest import load_pack
from generator.render import FaceRef, FaceRenderer

FRONT = '{{ text_line(item.title, 5, 10, 50, size=9) }}\n'
# a back too small for its words: every copy of it warns
BACK = '{{ text_line("A back with too many words", 5, 10, 20, size=9, min_size=2) }}\n'
MACROS = '{% macro title() %}{{ text_line(item.title, 5, 20, 50, size=9) }}{% endmacro %}\n'
IMPORTING = '{% import "macros.svg.j2" as m with context %}<g>{{ m.title() }}</g>\n'


def _pack(folder, back: str):
    templates = {"front.svg.j2": FRONT, "back.svg.j2": back, "macros.svg.j2": MACROS}
    return load_pack(write_deck(folder, [f"Card {n}" for n in range(5)], templates))


def _render_all(game, monkeypatch):
    renderer, rendered = FaceRenderer(game, 3.0), []
    real = renderer._render
    monkeypatch.setattr(renderer, "_render", lambda face: rendered.append(face.key) or real(face))
    group = game.groups[0]
    svgs = [renderer.svg(FaceRef(group, item, side)) for item in group.items for side in ("front", "back")]
    return renderer, rendered, svgs


def test_a_back_that_reads_no_item_is_rendered_once_and_warns_for_every_card(tmp_path, monkeypatch):
    game = _pack(tmp_path / "deck", BACK)
    renderer, rendered, svgs = _render_all(game, monkeypatch)
    assert [k for k in rendered if k[2] == "back"] == [("deck", "card-0", "back")]
    assert len({svg for svg in svgs[1::2]}) == 1
    assert len(renderer.told) == 10
    [warning] = renderer.warnings
    assert "'card-0' (back)" in warning and "the same on 4 more faces" in warning


def test_a_back_reading_the_item_through_an_imported_macro_is_rendered_per_card(tmp_path, monkeypatch):
    game = _pack(tmp_path / "deck", IMPORTING)
    renderer, rendered, svgs = _render_all(game, monkeypatch)
    assert len([k for k in rendered if k[2] == "back"]) == 5
    assert len({svg for svg in svgs[1::2]}) == 5, "each back shows its own card's title"
