"""The text helpers' runs reach the drawing as they were laid out (generator/facedoc.py): a face
drawn from its runs prints byte for byte what its SVG text prints, under whatever the template
wraps the runs in, and a placeholder is never printed nor forged."""
from __future__ import annotations

import io

import cairocffi as cairo
import pymupdf
import pytest

from conftest import copy_pack
from generator import cli, templating
from generator.facedoc import RUN_TAG, Face
from generator.manifest import load_pack
from generator.pdfwrite import FIXED_DATE, new_context
from generator.render import FaceRenderer, expand_faces
from generator.svgdraw import draw_svg, supported

HEBREW = "\u05e9\u05dc\u05d5\u05dd"
# runs under inherited anchor, opacity, stroke, a transform, hidden, right to left, icons inline
WRAPPED = f"""<rect x="0" y="0" width="{{{{ face.width }}}}" height="{{{{ face.height }}}}" fill="#ffffff"/>
<g text-anchor="middle" fill-opacity="0.5">{{{{ text_line(item.title, 5, 12, face.width - 10, size=10, min_size=6, font='title') }}}}</g>
<g transform="rotate(90 31.5 44)" stroke="#0000ff" stroke-width="0.1">{{{{ text_box(item.body, 12, 30, 40, 30, size=9, min_size=6) }}}}</g>
<g text-anchor="end" fill-opacity="0.8">{{{{ text_box(item.body ~ ' and more words, wrapped onto lines :star: here', 5, 60, 30, 14, size=6, min_size=4) }}}}</g>
<g style="visibility:hidden">{{{{ text_line('hidden', 5, 70, 40) }}}}</g>
<g opacity="0.7" font-size="20">{{{{ text_line('{HEBREW} 12 :star:', 5, 80, face.width - 10, size=7, color='#336699') }}}}</g>
"""


def faces_of(pack, count=None):
    game = load_pack(pack)
    group = next(g for g in game.groups if g.id == "cards")
    renderer = FaceRenderer(game, 3.0)
    return [renderer.svg(face) for face in expand_faces(group)[0][:count]]


def pdf_of(svg) -> bytes:
    out = io.BytesIO()
    surface = cairo.PDFSurface(out, 200, 260)
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)       # else the clock's second
    ctx = new_context(surface)
    ctx.translate(10, 10)
    draw_svg(ctx, svg)
    surface.finish()
    return out.getvalue()


def test_a_face_drawn_from_its_runs_prints_what_its_svg_prints(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(WRAPPED)
    faces = faces_of(pack)
    assert faces and all(type(f) is Face and f"<{RUN_TAG} " in f.markup for f in faces)
    for face in faces:
        text = str(face)                    # the same SVG, as text only: parsed and compiled as such
        assert type(text) is str and RUN_TAG not in text and "<text x=" in text
        assert supported(face) and supported(text)
        assert pdf_of(face) == pdf_of(text)
    words = pymupdf.open(stream=pdf_of(faces[0]), filetype="pdf")[0].get_text()
    assert "Plain" in words and "12" in words and "hidden" not in words


def test_a_run_inside_cdata_is_written_as_text_and_no_placeholder_is_printed(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        '<text x="5" y="70" font-family="Liberation Sans" font-size="1"><![CDATA[{{ text_line("Ab", 5, 60, 20) }}]]></text>\n'
        '{{ text_line(item.title, 5, 12, face.width - 10) }}\n')
    face = faces_of(pack)[0]
    assert type(face) is str and RUN_TAG not in face and face.count("<text x=") == 3
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    assert code == 0
    page = pymupdf.open(tmp_path / "out" / "mini" / "mini-sheets.pdf")[0].get_text()
    assert RUN_TAG not in page and 'font-family="Liberation Sans"' in page


def test_a_placeholder_the_template_writes_is_not_a_run(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        f'<{RUN_TAG} n="0" i="0"/><{RUN_TAG} i="0"/>\n{{{{ text_line(item.title, 5, 12, face.width - 10) }}}}\n')
    face = faces_of(pack)[0]
    assert type(face) is str and not supported(face)       # unknown elements: drawn by cairosvg
    assert face.count(f"<{RUN_TAG}") == 2 and face.count("<text x=") == 1
    words = pymupdf.open(stream=pdf_of(face), filetype="pdf")[0].get_text()
    assert words.split() == ["Plain"]


def test_helpers_without_a_renderer_write_svg(tmp_path):
    game = load_pack(copy_pack("mini", tmp_path))
    markup = templating.Helpers(game).text_line("Plain", 5, 12, 40)       # a map's template, say
    assert markup.startswith("<text x=") and RUN_TAG not in markup


@pytest.mark.parametrize("call,expected", [
    ("text_line(item.title, 5, 12, 40, color='blu')", "fill='blu' is not a colour (it would print black); did you mean 'blue'?"),
    ("text_box(item.body, 5, 20, 40, 30, color='#12345')", "fill='#12345' is not a colour"),
])
def test_a_helper_colour_that_is_no_colour_is_refused_at_its_line(tmp_path, capsys, call, expected):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(f'<rect width="5" height="5"/>\n{{{{ {call} }}}}\n')
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"template card.svg.j2 line 2: {expected}" in err, err


@pytest.mark.parametrize("rework,same", [
    ("|upper", str.upper),
    ("|replace('k=', 'q=')", lambda s: s.replace("k=", "q=")),
])
def test_a_helper_output_the_template_reworks_is_its_svg_text_reworked(tmp_path, rework, same):
    """The template treats what text_line gave as a string: it gets the SVG text as before, and
    no placeholder reaches the face."""
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        f'<desc>{{{{ text_line(item.title, 5, 12, 40){rework} }}}}</desc>\n'
        '{{ text_line(item.title, 5, 20, 40) }}\n')
    first, again = faces_of(pack, 1)[0], faces_of(pack, 1)[0]
    assert first == again and RUN_TAG not in first.lower() and RUN_TAG.upper() not in first
    plain = str(first).split("<desc>")[1].split("</desc>")[0]
    expected = templating.Helpers(load_pack(pack)).text_line("Plain", 5, 12, 40)
    assert plain == same(str(expected))


def test_a_reworked_output_tells_its_warnings_once(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        '{{ text_line(item.title ~ " is a long title", 5, 12, 8, size=9, min_size=2)|upper }}\n')
    game = load_pack(pack)
    renderer = FaceRenderer(game, 3.0)
    group = next(g for g in game.groups if g.id == "cards")
    renderer.svg(expand_faces(group)[0][0])
    assert len(renderer.helpers.said) == 1 and "below the 6 pt" in renderer.helpers.said[0]


@pytest.mark.parametrize("forged", [f'<{RUN_TAG} n="0" i="7" k="1"/>', f'<{RUN_TAG} n="0" i="0" k="0"/>'])
def test_a_placeholder_naming_no_run_is_an_unknown_element(tmp_path, forged):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        f'{{% set unused = text_line(item.title, 5, 20, 40) %}}{forged}\n{{{{ text_line(item.title, 5, 12, 40) }}}}\n')
    face = faces_of(pack, 1)[0]
    assert type(face) is str and forged in face and face.count("<text x=") == 1
    assert pymupdf.open(stream=pdf_of(face), filetype="pdf")[0].get_text().split() == ["Plain"]
