"""pdfwrite's drawing of faces and marks calls cairo's C functions directly (generator/pdfwrite.py):
the same PDF, byte for byte, as the Context methods it replaced, and a context in error still
stops the build with the face named."""
from __future__ import annotations

import io

import cairocffi as cairo
import pymupdf
import pytest

from generator import pdfwrite
from generator.errors import BuildError
from generator.impose import Placement, Sheet
from generator.pdfwrite import FIXED_DATE, PdfWriter, new_context, stroke_segments

SEGMENTS = [(10.0, 5.0, 10.0, 2.0), (10.0, 95.0, 10.0, 98.0), (4.5, 20.25, 1.5, 20.25), (60, 40, 63, 40)]


def pdf(draw) -> bytes:
    out = io.BytesIO()
    surface = cairo.PDFSurface(out, 200, 200)
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
    ctx = new_context(surface)
    ctx.scale(pdfwrite.PT_PER_MM, pdfwrite.PT_PER_MM)
    ctx.set_line_width(pdfwrite.MARK_WIDTH)
    draw(ctx)
    surface.finish()
    return out.getvalue()


def one_by_one(ctx, segments, dash=None):
    """stroke_segments as it was: a Context call per point."""
    if dash:
        ctx.set_dash(list(dash))
    for x0, y0, x1, y1 in segments:
        ctx.move_to(x0, y0)
        ctx.line_to(x1, y1)
    ctx.stroke()
    if dash:
        ctx.set_dash([])


@pytest.mark.parametrize("dash", [None, (2.0, 1.5)])
def test_marks_drawn_as_one_path_print_what_a_call_per_point_printed(dash):
    def twice(draw):        # the second time from the remembered path
        return lambda ctx: [draw(ctx, SEGMENTS, dash), ctx.translate(5, 5), draw(ctx, SEGMENTS, dash)]
    assert pdf(twice(stroke_segments)) == pdf(twice(one_by_one))
    assert pdf(lambda ctx: stroke_segments(ctx, [])) == pdf(lambda ctx: one_by_one(ctx, []))


def test_the_marks_are_where_the_segments_say():
    page = pymupdf.open(stream=pdf(lambda ctx: stroke_segments(ctx, SEGMENTS)), filetype="pdf")[0]
    ends = sorted((round(item[1].x / pdfwrite.PT_PER_MM, 2), round(item[1].y / pdfwrite.PT_PER_MM, 2),
                   round(item[2].x / pdfwrite.PT_PER_MM, 2), round(item[2].y / pdfwrite.PT_PER_MM, 2))
                  for drawing in page.get_drawings() for item in drawing["items"])
    assert ends == sorted(tuple(float(v) for v in s) for s in SEGMENTS)


class Face:
    def __init__(self, svg):
        self.svg = svg


def write(svg: str, rotation: int = 0, face_stamp=None) -> bytes:
    writer = PdfWriter(face_svg=lambda f: f.svg, face_name=lambda f: "cards/c1 (front)",
                       face_outline=None, title="t", face_stamp=face_stamp)
    placement = Placement(20, 30, 63, 88, (3.0,) * 4, Face(svg), False, rotation)
    return writer.write([Sheet(210, 297, "one-sided", [placement])])


def test_a_face_turned_on_the_sheet_lands_where_its_placement_says():
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="10" height="5" fill="#ff0000"/></svg>'
    for rotation, box in ((0, (20, 30, 30, 35)), (90, (78, 30, 83, 40)), (180, (73, 113, 83, 118)), (270, (20, 108, 25, 118))):
        page = pymupdf.open(stream=write(svg, rotation), filetype="pdf")[0]
        (red,) = [d["rect"] for d in page.get_drawings() if d.get("fill") == (1.0, 0.0, 0.0)]
        assert tuple(round(v / pdfwrite.PT_PER_MM, 1) for v in red) == pytest.approx(box, abs=0.05), rotation


def test_a_face_that_leaves_cairo_in_error_is_a_build_error_naming_it(monkeypatch):
    """Drawing calls no longer check the status one by one: the check after the face catches
    what any of them left (here a transform that scales by 0, set straight through cairo)."""
    def broken(ctx, svg, fresh=False):
        cairo.cairo.cairo_scale(ctx._pointer, 0, 0)
    monkeypatch.setattr(pdfwrite, "draw_svg", broken)
    with pytest.raises(BuildError, match=r"^cards/c1 \(front\): cairo cannot draw it \(.*INVALID_MATRIX"):
        write('<svg xmlns="http://www.w3.org/2000/svg"/>')


# Faces that set the state draw_svg starts from otherwise (dashes, caps, joins, miters, even-odd
# fills, a group's opacity, text filled and stroked), and one drawn by cairosvg (a <style>).
FRESH_FACES = [
    '<svg xmlns="http://www.w3.org/2000/svg"><path d="M1 1h20v20z M5 5h5v5z" fill="#123456" fill-rule="evenodd"'
    ' stroke="#ff0000" stroke-width="1.5" stroke-dasharray="2 1" stroke-linecap="round" stroke-linejoin="bevel"/>'
    '<polyline points="1,30 10,40 20,30" fill="none" stroke="#00ff00" stroke-miterlimit="2"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><g opacity="0.5"><rect x="2" y="2" width="30" height="10" fill="#0000ff"'
    ' stroke="#000" stroke-width="2"/></g><polyline points="1,30 10,40 20,30" fill="none" stroke="#000"/>'
    '<text x="3" y="50" font-family="Liberation Sans" font-size="4" stroke="#333" stroke-width="0.2">Stroked</text>'
    '<text x="3" y="60" font-family="Liberation Serif" font-size="5" text-anchor="middle">Filled</text></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><style>rect { fill: #00aa00 }</style><rect x="1" y="1" width="9" height="9"'
    ' stroke="#000" stroke-dasharray="1"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><path d="M1 1h20v20z" fill="#999"/></svg>',
]


def on_a_page(fresh: bool) -> bytes:
    """Each face twice, one after another, as _draw_face draws them: saved, clipped, moved, drawn,
    restored (the caller's restore is what a fresh face relies on)."""
    def draw(ctx):
        ptr = ctx._pointer
        for i, svg in enumerate(FRESH_FACES * 2):
            cairo.cairo.cairo_save(ptr)
            cairo.cairo.cairo_rectangle(ptr, 0, 0, 200, 200)
            cairo.cairo.cairo_clip(ptr)
            cairo.cairo.cairo_translate(ptr, 4 * i, i)
            pdfwrite.draw_svg(ctx, svg, fresh=fresh)
            cairo.cairo.cairo_restore(ptr)
    return pdf(draw)


def test_a_face_drawn_fresh_prints_what_one_drawn_from_a_saved_state_printed():
    """draw_svg(fresh=True) sets only the miter limit and leaves saving and restoring to the
    caller: the same bytes as the full preamble (state set, saved, restored)."""
    assert on_a_page(True) == on_a_page(False)
    page = pymupdf.open(stream=on_a_page(True), filetype="pdf")[0]
    assert page.get_text().split() == ["Filled"] * 2      # (stroked text is drawn as outlines)
    drawings = page.get_drawings()
    assert any(d.get("even_odd") for d in drawings) and any(d.get("dashes") not in (None, "[] 0") for d in drawings)


def test_a_fresh_face_drawn_by_pdfwrite_prints_what_a_saved_one_printed(monkeypatch):
    """pdfwrite draws its faces fresh: the PDF is the one drawn with draw_svg's own preamble."""
    from generator.version import Stamp
    svg = FRESH_FACES[0][:-6] + FRESH_FACES[1][len('<svg xmlns="http://www.w3.org/2000/svg">'):]
    marks = lambda face: (Stamp("v2", 60, 85, 2.0, "end", lead="NEW"),)     # drawn over the face, after it
    fresh, stamped = write(svg), write(svg, face_stamp=marks)
    real = pdfwrite.draw_svg
    monkeypatch.setattr(pdfwrite, "draw_svg", lambda ctx, svg, fresh=False: real(ctx, svg))
    assert write(svg) == fresh and write(svg, face_stamp=marks) == stamped != fresh
    assert "NEW v2" in pymupdf.open(stream=stamped, filetype="pdf")[0].get_text()


def test_ticks_drawn_directly_print_what_the_context_methods_printed():
    """_draw_ticks: a white casing then the black tick, one path appended twice."""
    def by_methods(ctx, ticks):
        ctx.save()
        ctx.set_source_rgb(1, 1, 1)
        ctx.set_line_width(pdfwrite.TICK_CASING)
        one_by_one(ctx, ticks)
        ctx.set_source_rgb(0, 0, 0)
        ctx.set_line_width(pdfwrite.MARK_WIDTH)
        one_by_one(ctx, ticks)
        ctx.restore()
    assert pdf(lambda ctx: pdfwrite._draw_ticks(ctx, SEGMENTS)) == pdf(lambda ctx: by_methods(ctx, SEGMENTS))


def test_the_label_font_is_looked_up_once_a_document_and_each_label_checked(monkeypatch):
    """Every page has a label: the font's coverage and face are found once, each label's
    characters are checked, and a label the font cannot print still stops the build."""
    from generator import glyphs
    looked_up, checked = [], []
    coverage, check = glyphs.font_coverage, glyphs.check
    monkeypatch.setattr(glyphs, "font_coverage", lambda *a: looked_up.append(a) or coverage(*a))
    monkeypatch.setattr(glyphs, "check", lambda text, *a: checked.append(text) or check(text, *a))
    writer = PdfWriter(face_svg=lambda f: f.svg, face_name=lambda f: "cards/c1 (front)", face_outline=None, title="t")
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="5" fill="#ff0000"/></svg>'
    sheets = [Sheet(210, 297, "one-sided", [Placement(20, 30, 63, 88, (3.0,) * 4, Face(svg), False, 0)],
                    label=f"Page {n} of 3") for n in (1, 2, 3)]
    doc = pymupdf.open(stream=writer.write(sheets), filetype="pdf")
    assert [page.get_text().strip() for page in doc] == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    assert len(looked_up) == 1 and checked == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    sheets[1].label = "Page \u2603 of 3"     # a snowman: no glyph in Liberation Sans
    with pytest.raises(BuildError, match="page label: text .* has no glyph"):
        writer.write(sheets)
