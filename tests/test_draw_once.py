"""What the drawing stage and the face checks work out once and use again, face after face
(svgdraw/text.py, svgdraw/transforms.py, svgcheck.py, onface.py): an inline icon's operations,
the transform that places an inline icon, a run style or an icon found to print as written, and
the marks of a document's body. Each reuse prints, or finds, what working it out again would."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import cairocffi as cairo
import pytest

from test_face_runs import deck_faces, pdf_of
from generator import onface, svgcheck
from generator.facedoc import Document, Face, InlineIcon, Run, run_style, written_place
from generator.svgdraw import draw_svg, text, transforms
from generator.svgdraw.units import MAX_COORDINATE

SVG = "http://www.w3.org/2000/svg"
PLACED = (2.0, 3.0, 0.5, 0.0, 0.0)      # translate(2.000,3.000) scale(0.50000) translate(0,0)


def test_an_inline_icons_numbers_place_it_where_its_written_transform_does():
    """An inline icon is handed to the drawing stage as numbers; the matrix they make is the one
    the general scan reads from the icon's written transform, bit for bit (-0, rounding at the
    last written digit, 'g' forms with exponents); they make none where a number is not finite
    or past the coordinate bound, and the drawing reads the text then, as before."""
    read_once = transforms._parse_transform_tuple.__wrapped__         # (not the lru_cache's answer)
    rng = random.Random(29)
    choices = [lambda: rng.uniform(-300, 300), lambda: rng.uniform(0, 2), lambda: float(rng.randint(-5, 5)),
               lambda: -0.0, lambda: -0.0001, lambda: 0.0004999, lambda: 100000.0, lambda: -100000.0,
               lambda: 100000.001, lambda: 99999.9996, lambda: 1e-05, lambda: -3.5e-7, lambda: 2.5e6,
               lambda: float("nan"), lambda: float("inf"), lambda: rng.uniform(-1, 1) * 10 ** rng.randint(-8, 7)]
    number = lambda: rng.choice(choices)()      # noqa: E731
    icons = [InlineIcon(tuple(number() for _ in range(5)), None, "") for _ in range(4000)]

    placed = [transforms.placed_matrix(*written_place(icon.place)) for icon in icons]
    assert sum(matrix is None for matrix in placed) > 500 and sum(matrix is not None for matrix in placed) > 1000
    for icon, matrix in zip(icons, placed):
        if matrix is None:      # (the drawing reads the text then, as it always did)
            assert not all(abs(number) <= MAX_COORDINATE for number in written_place(icon.place))
        else:
            assert repr(matrix) == repr(read_once(icon.transform))


def test_an_icon_on_many_faces_is_compiled_once_and_placed_by_each(tmp_path):
    """Each face prints its icons where its own SVG text puts them, with the icon's operations
    kept from the first face; compiling every face afresh prints the same bytes."""
    text._ICON_BODIES.clear()
    faces = deck_faces(tmp_path, ["Gain :star: now.", "Then, after a longer line of words, :star: again.",
                                  ":star: first", "Far below :star: on the last line of all :star:"])
    printed = [pdf_of(face) for face in faces]
    assert printed == [pdf_of(str(face)) for face in faces]
    assert text._ICON_BODIES            # (the star's operations, kept)
    text._ICON_BODIES.clear()
    faces[0].doc.program = None         # the document's holed programs too: every face compiled again
    assert [pdf_of(face) for face in faces] == printed


def face_of(markup: str, icon: InlineIcon) -> Face:
    """A face of one block, an icon alone: its text the markup with the icon written in."""
    root = ET.fromstring(markup)
    face = Face(markup.replace('<pnpgen-run n="0" b="0"/>', icon.svg()))
    face.doc, face.nonce, face.blocks = Document(markup, root, "0"), "0", ((icon,),)
    return face


def dark_pixels(face: Face) -> int:
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 100, 100)
    ctx = cairo.Context(surface)
    ctx.scale(10, 10)
    draw_svg(ctx, face)
    surface.flush()
    return sum(1 for alpha in bytes(surface.get_data())[3::4] if alpha > 128)


def test_an_icon_that_uses_the_faces_definitions_is_compiled_on_each_face():
    """An icon's <use> reads the face's document, so its operations are not kept for the next
    face: a face whose #p is a smaller square prints the smaller square."""
    def face(side):
        return face_of(f'<svg xmlns="{SVG}"><defs><path id="p" d="M0 0h{side}v{side}h-{side}z"/></defs>'
                       f'<pnpgen-run n="0" b="0"/></svg>', InlineIcon(PLACED, "#000000", '<use href="#p"/>'))
    text._ICON_BODIES.clear()
    big, small = dark_pixels(face(10)), dark_pixels(face(5))
    assert big == pytest.approx(2500, abs=120) and small == pytest.approx(625, abs=60)
    assert not text._ICON_BODIES


@pytest.mark.parametrize("markup, icon_markup", [
    (f'<!DOCTYPE svg><svg xmlns="{SVG}"><pnpgen-run n="0" b="0"/></svg>', '<path d="M0 0h1v1z"/>'),
    (f'<svg xmlns="{SVG}"><pnpgen-run n="0" b="0"/></svg>', '<path d="M0 0h1v1z"/><!-- <!ENTITY e "x"> -->'),
], ids=["in the face's markup", "in an inline icon"])
def test_a_face_with_a_doctype_or_entity_is_refused_as_its_text_would_be(markup, icon_markup):
    """A Face's markup is checked once per document and each icon where it is drawn, not the
    face's whole text on every face: either still refuses what the text's check refused."""
    face = face_of(markup, InlineIcon(PLACED, None, icon_markup))
    for _ in range(2):      # the second time from what the first kept
        with pytest.raises(ValueError, match="must not contain a DOCTYPE or entities"):
            dark_pixels(face)


def stretch(colour: str) -> tuple:
    return (Run(5.0, 10.0, run_style("Liberation Sans", 3.0, False, False, colour), "Words"),)


def test_a_style_or_icon_with_a_problem_is_found_on_every_face():
    """What prints as written is remembered; what does not is found, and told, on every face."""
    good = (stretch("#000000"), InlineIcon(PLACED, "#000000", '<path d="M0 0h1v1z"/>'))
    bad = (stretch("gren"), InlineIcon(PLACED, None, '<path d="M0 0h1v1z" fill="bleu"/>'))
    for _ in range(3):
        assert svgcheck.block_problems((0,), (good,)) == []
        assert [written for written, _ in svgcheck.block_problems((0, 1), (good, bad))] == ["gren", "bleu"]


def test_an_icon_whose_problem_was_found_first_elsewhere_on_a_face_is_not_remembered_as_fine():
    """The face's stretch finds 'gren' first, so its icon's own 'gren' adds nothing to that
    face's problems; on a face with the icon alone, the icon's 'gren' is found."""
    icon = InlineIcon(PLACED, None, '<path d="M0 0h1v1z" fill="gren"/>')
    assert [written for written, _ in svgcheck.block_problems((0,), ((stretch("gren"), icon),))] == ["gren"]
    assert [written for written, _ in svgcheck.block_problems((0,), ((icon,),))] == ["gren"]


def test_a_bodys_marks_are_counted_for_that_body():
    """Faces of one document share its body's counts of <text> and frames; another body (of
    another length) read against the same tree is counted afresh."""
    root = ET.fromstring(f'<svg xmlns="{SVG}"><text x="-5" y="3">off the face</text></svg>')
    written = '<text x="-5" y="3">off the face</text>'
    told = onface.outside(root, written, onface.Placed(), 10, 10, line_of=lambda text: " line 2")
    assert told.startswith(" line 2: text 'off the face' is drawn outside its 10 x 10 mm face")
    assert onface.outside(root, "", onface.Placed(), 10, 10) == ""


@pytest.mark.parametrize("template, line", [
    ('<rect width="63" height="88" fill="#fff"/>\n{{ text_box("Off the edge", 50, 10, 30, 10) }}\n', 2),
    ('<rect width="63" height="88" fill="#fff"/>\n\n{{ text_line("Off the edge", 50, 10, 30) }}\n', 3),
    ('{% macro label(t) %}\n<g>\n{{ text_line(t, 50, 10, 30) }}</g>{% endmacro %}\n<rect width="63" height="88"/>\n'
     '{{ label("Off the edge") }}\n', 3),
    ('<rect width="63" height="88"/>\n{% for i in range(2) %}\n{% if i %}{{ text_box("Off the edge", 5, 85, 40, 9) }}'
     '{% endif %}{% endfor %}\n', 3),
], ids=["text_box", "text_line", "inside a macro", "inside a loop"])
def test_a_block_off_the_face_is_told_at_the_line_that_drew_it(tmp_path, capsys, template, line):
    """The line is the nearest template frame's, found from the helper's caller up."""
    from generator import cli
    from conftest import copy_pack
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(template)
    code = cli.main(["validate", str(pack)])
    err = capsys.readouterr().err
    assert code == 1 and f"template card.svg.j2 line {line}: text 'Off the edge' is drawn outside its" in err, err


def test_an_entity_in_the_icon_of_a_face_drawn_the_slow_way_is_refused():
    """A document outside the fast path's subset is drawn by cairosvg from the face's whole text
    (its icons' markup included), which is checked first, as supported() checks it."""
    from generator.svgdraw import supported
    face = face_of(f'<svg xmlns="{SVG}"><style>rect {{fill: red}}</style><pnpgen-run n="0" b="0"/></svg>',
                   InlineIcon(PLACED, None, '<path d="M0 0h1v1z"/><!-- <!ENTITY e "x"> -->'))
    for _ in range(2):
        with pytest.raises(ValueError, match="must not contain a DOCTYPE or entities"):
            supported(face)
        with pytest.raises(ValueError, match="must not contain a DOCTYPE or entities"):
            dark_pixels(face)


@pytest.mark.parametrize("text, meant", [
    ("translate(1,2) scale(2)", True), ("rotate(90 10 20)", True), ("matrix(1 0 0 1 0 0)", True),
    ("translate(-.5e1,+3)", True), ("skewX(10),skewY(5)", True), ("translate(1-2)", True), ("", True),
    (" translate(3.125,1.5) scale(0.02500) translate(-0,-0) ", True),
    ("translate(nan,5)", False), ("rotate(45deg)", False), ("translate(abc)", False), ("scale(2", False),
    ("translate(1e)", False), ("translate(1,2) junk", False),
])
def test_a_transform_with_words_where_numbers_go_is_not_well_formed(text, meant):
    """The drawing's scan reads 'translate(nan,5)' as translate(5): svgcheck refuses it first."""
    assert transforms.well_formed(text) is meant
    if meant and text.strip():
        transforms._parse_transform_tuple(text)         # (and the drawing reads it)
