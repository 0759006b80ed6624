"""The text helpers' runs reach the drawing as they were laid out (generator/facedoc.py): a face
drawn from its runs prints byte for byte what its SVG text prints, under whatever the template
wraps the runs in, and a placeholder is never printed nor forged. Cards of one template share
one parsed, checked and compiled document, each drawing its own blocks into it."""
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


# cards of one deck: texts of other lengths and sizes, inline icons, a stroked block
DECK = """<rect x="0" y="0" width="{{ face.width }}" height="{{ face.height }}" fill="#ffffff"/>
{{ text_line(item.title, 5, 12, face.width - 10, size=10, min_size=6, font='title', color=COLOUR) }}
<circle cx="50" cy="20" r="4" fill="#336699"/>
<g transform="rotate(3 31 44)">{{ text_box(item.body, 5, 24, face.width - 10, 40, size=9, min_size=5) }}</g>
<g stroke="#0000ff" stroke-width="0.1">{{ text_line(item.id, 5, 80, 30, color='#993300') }}</g>
<rect x="5" y="82" width="10" height="2" fill="#000000"/>
"""
BODIES = ["Gain :star: now.", "Draw two cards, then :star: and :star: again, and pass the dice to the left.",
          "Plain words only, on three or four lines of this card's body text box. " * 3, ":star: first"]


def deck_faces(tmp_path, bodies=BODIES, colour="'#000000'"):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(DECK.replace("COLOUR", colour))
    items = "".join(f'      - {{id: c{i}, title: "Card {i}", body: "{body}"}}\n' for i, body in enumerate(bodies))
    cards = (pack / "cards.yaml").read_text().replace("rulebook_count: 12", f"rulebook_count: {len(bodies)}")
    (pack / "cards.yaml").write_text(cards[:cards.index("    items:")] + "    items:\n" + items)
    return faces_of(pack)


def test_cards_of_a_template_share_one_document_and_print_what_their_svg_prints(tmp_path):
    faces = deck_faces(tmp_path)
    assert all(type(f) is Face for f in faces)
    assert len({id(f.doc) for f in faces}) == 1         # parsed, checked and compiled once
    assert "scale(" not in faces[0].markup and "scale(" in faces[0]    # icons stand behind the placeholders
    for face in faces:
        assert pdf_of(face) == pdf_of(str(face))        # the shared program, its own blocks
    assert 1 <= len(faces[0].doc.program[1]) < len(faces)      # (reused, not compiled whole each time)


def test_a_block_that_leaves_another_state_is_compiled_whole(tmp_path):
    """A title in another colour leaves another colour set after its block than the first
    card's did: that card's program is compiled whole, and prints what its SVG prints."""
    faces = deck_faces(tmp_path, BODIES[:3], "'#993300' if item.id == 'c1' else '#000000'")
    assert len({id(f.doc) for f in faces}) == 1
    for face in faces:
        assert pdf_of(face) == pdf_of(str(face))
    first, second = faces[0].doc.program[1]         # the third card's fits the first's
    assert first.program(faces[1].doc.root, faces[1].blocks, faces[1].nonce) is None
    assert first.program(faces[2].doc.root, faces[2].blocks, faces[2].nonce) is not None


def test_a_face_with_an_empty_block_has_markup_of_its_own(tmp_path):
    faces = deck_faces(tmp_path, ["", "Gain :star: now.", ""])
    assert faces[0].doc is faces[2].doc is not faces[1].doc
    for face in faces:
        assert pdf_of(face) == pdf_of(str(face))


def test_an_inline_icon_holding_an_id_is_drawn_in_the_faces_document(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "icons" / "star.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><path id="p" d="M0 0h10v10z"/></defs>'
        '<use href="#p"/></svg>')
    (pack / "templates" / "card.svg.j2").write_text("{{ text_box(item.body, 5, 20, 50, 30) }}\n")
    face = faces_of(pack, 1)[0]
    assert type(face) is str and '<use href="#p"' in face
    assert supported(face) and len(pymupdf.open(stream=pdf_of(face), filetype="pdf")[0].get_drawings()) == 1


def test_a_colour_inside_an_inline_icon_is_still_refused(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    (pack / "icons" / "star.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z" fill="gren"/></svg>')
    (pack / "templates" / "card.svg.j2").write_text("<rect width='5' height='5'/>\n{{ text_box(item.body, 5, 20, 50, 30) }}\n")
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "fill='gren' is not a colour (it would print black); did you mean 'green'?" in err, err


def test_helpers_called_in_loops_blocks_and_macros_draw_as_elsewhere(tmp_path):
    """The sandbox calls pnpgen's helpers at once (Sandbox.trusted_calls), dropping the loop and
    block variables Jinja passes along inside a loop or a block, as Jinja's own call does."""
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        "{% macro label(t, y) %}{{ text_line(t, 5, y, 40) }}{% endmacro %}"
        "{% for i in range(2) %}{{ text_line(item.title, 5, 10 + i * 6, 40) }}{{ label('m' ~ i, 30 + i * 6) }}{% endfor %}"
        "{% block b %}{{ text_line('in a block', 5, 50, 40) }}{% endblock %}\n")
    face = faces_of(pack, 1)[0]
    assert type(face) is Face and face.count("<text x=") == 5 and ">in a block</text>" in face
    assert pdf_of(face) == pdf_of(str(face))


# an escaped '<' in a run, comments and CDATA holding '<' and '</', icons inline
COUNTED = """<!-- a <rect/> not drawn </g> --><rect x="0" y="0" width="{{ face.width }}" height="{{ face.height }}" fill="#ffffff"/>
{{ text_line(item.title ~ ' <&> :star:', 5, 12, face.width - 10, size=8, min_size=4) }}
<g transform="rotate(3 31 44)">{{ text_box(item.body, 5, 24, face.width - 10, 40, size=9, min_size=5) }}</g>
<text x="5" y="84" font-family="Liberation Sans" font-size="2"><![CDATA[a <b> </c>]]></text>
"""


def test_a_face_counts_the_elements_its_text_opens_from_its_parts(tmp_path):
    """Face.elements (the element bound, asked of every face drawn) is what its whole text opens,
    '<' less '</', on faces whose text holds comments, CDATA, escaped text and icons; and a plain
    SVG text is counted from its text."""
    from generator.facedoc import opened
    from generator.render import drawn_elements
    faces = deck_faces(tmp_path)
    pack = copy_pack("mini", tmp_path / "counted")
    (pack / "templates" / "card.svg.j2").write_text(COUNTED)
    faces += faces_of(pack)
    assert all(type(f) is Face for f in faces) and len({id(f.doc) for f in faces}) == 2
    assert all("&lt;" in f and "<g transform=" in f for f in faces[-2:])
    for face in faces:
        assert face.elements() == opened(str(face)) == drawn_elements(face) > 3, face
    assert drawn_elements('<svg><g><rect/></g><!-- </g> --></svg>') == 4     # (its comment one too)
