"""Templates specialized per group (generator/specialize.py): what a face template works out from
`face`, `palette` and `game` alone is done once per group, and every face still reads as the
plain template renders it; what cannot be sure to be the same is left to run on each face."""
from __future__ import annotations

import pytest

from conftest import write_deck
from generator import manifest, render, specialize
from generator.errors import BuildError
from generator.sandbox import read_only

FRONT = """{% set inset = face.width / 4 %}
<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" height="{{ face.height + 2 * face.bleed }}" fill="{{ palette.paper }}"/>
{% for n in range(3) %}<circle cx="{{ inset + n * face.width / 8 }}" cy="{{ face.height - face.bleed ** 2 }}" r="{{ (face.width // 7) % 4 }}" fill="{{ palette['ink'] }}"/>{% endfor %}
<text x="{{ face.width|round(1) }}" y="9">{{ game.title ~ '!' }} &amp; {{ face.width - 10 }}</text>
{{ text_line(item.title, 5, face.height / 2, face.width - 10, size=12, min_size=5, color=palette.ink) }}
"""
BACK = '<rect x="0" y="0" width="{{ face.width }}" height="{{ face.height }}" fill="{{ palette.ink }}"/>\n'


def _renderer(tmp_path, front: str, titles=("Card one", "A second card", "Three"), at: int = 1, monkeypatch=None):
    pack = write_deck(tmp_path / "deck", list(titles), {"front.svg.j2": front, "back.svg.j2": BACK})
    game = manifest.load_pack(pack)
    if monkeypatch is not None:
        monkeypatch.setattr(render, "SPECIALIZE_AT", at)
    return render.FaceRenderer(game, 3.0), render.expand_faces(game.groups[0])[0]


def test_faces_rendered_with_the_specialized_template_are_those_of_the_plain_one(tmp_path, monkeypatch):
    specialized, fronts = _renderer(tmp_path / "a", FRONT, monkeypatch=monkeypatch, at=1)
    faces = [str(specialized.svg(f)) for f in fronts]
    plain, _ = _renderer(tmp_path / "b", FRONT, monkeypatch=monkeypatch, at=10**9)
    assert faces == [str(plain.svg(f)) for f in fronts]
    assert [t for _, _, t in specialized._settings.values() if t is not None], "the front was specialized"
    assert not [t for _, _, t in plain._settings.values() if t is not None]


def _fixed(renderer, face) -> dict:
    return renderer._setting(face)[1]


def test_what_reads_only_the_group_is_worked_out_once_and_what_reads_the_item_on_each_face(tmp_path):
    """The specialized template, given another `face` than the group's, still prints the group's
    sizes (they are constants in it now), while the item's title is read on each face."""
    renderer, fronts = _renderer(tmp_path, FRONT)
    fixed = _fixed(renderer, fronts[0])
    template = specialize.specialized(renderer.env, "front.svg.j2", fixed)
    assert template is not None
    other = {**fixed, "face": read_only({**fixed["face"], "width": 1000.0}), "item": read_only({"title": "Other"}),
             "player": None}
    renderer.helpers.runs = None            # the helpers write SVG text: the title shows in the output
    out = render.bounded_output(template, other)
    width = fixed["face"]["width"]
    assert f'width="{width + 6}"' in out and f"&amp; {width - 10}" in out and "1000" not in out
    assert "Other" in out


@pytest.mark.parametrize("source", [
    "{% set face = {'width': 1} %}{{ face.width * 2 }}",
    "{% for face in [1, 2] %}{{ face * 2 }}{% endfor %}",
    "{% macro m(palette) %}{{ palette.ink }}{% endmacro %}{{ face.width * 2 }}",
    "{% with face = 3 %}{{ face * 2 }}{% endwith %}",
    "{% import 'back.svg.j2' as face %}{{ palette.ink }}",
    "{% extends 'back.svg.j2' %}",
])
def test_a_template_that_gives_a_fixed_name_another_value_is_not_specialized(tmp_path, source):
    renderer, fronts = _renderer(tmp_path, FRONT)
    (tmp_path / "deck" / "templates" / "other.svg.j2").write_text(source)
    assert specialize.specialized(renderer.env, "other.svg.j2", _fixed(renderer, fronts[0])) is None


def test_nothing_to_work_out_once_is_no_specialized_template(tmp_path):
    renderer, fronts = _renderer(tmp_path, FRONT)
    (tmp_path / "deck" / "templates" / "other.svg.j2").write_text("{{ item.title * 2 }} {{ 3 * 4 }}")
    assert specialize.specialized(renderer.env, "other.svg.j2", _fixed(renderer, fronts[0])) is None


@pytest.mark.parametrize("line, message", [
    ('<rect fill="{{ palette.gld }}"/>', r"line 2: the palette has no colour 'gld'"),
    ('<rect width="{{ face.width / 0 }}"/>', r"line 2: .*division by zero"),
    ('<rect width="{{ palette.ink * 10 ** 9 }}"/>', r"line 2: .*"),
    ('<rect width="{{ face.nope + 1 }}"/>', r"line 2: .*'nope'"),
])
def test_an_expression_that_fails_on_every_face_is_told_as_before(tmp_path, monkeypatch, line, message):
    """Left to run on each face: the same error, from its line, specialized or not."""
    front = "{{ text_line(item.title, 5, 10, 30) }}\n" + line + "\n"
    told = []
    for at, folder in ((1, "a"), (10**9, "b")):
        renderer, fronts = _renderer(tmp_path / folder, front, monkeypatch=monkeypatch, at=at)
        with pytest.raises(BuildError, match=message) as caught:
            renderer.svg(fronts[0])
        told.append(str(caught.value).replace(str(tmp_path / folder), ""))
    assert told[0] == told[1]
