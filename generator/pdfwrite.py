"""Sheets (impose.Sheet) + face SVG -> a vector PDF through cairo, fonts embedded as subsets.

A face drawn more than once (a shared back, a repeated chit) is recorded once and painted where
needed, which cairo writes as one reused form object.
"""
from __future__ import annotations

import contextlib
import io
import math
import os
import re
import tempfile
from typing import Callable

import cairocffi as cairo

from . import glyphs, interrupt, version
from .errors import BuildError
from .render import MAX_ELEMENTS, drawn_elements, too_many_elements
from .impose import Placement, Sheet, placed_faces
from .pageguide import GUIDE_LEADING, GUIDE_SIZE
from .svgdraw import draw_svg
from .svgdraw.fontface import font_face
from .units import MM_PER

PT_PER_MM = 1 / MM_PER["pt"]
FIXED_DATE = "2000-01-01T00:00:00Z"    # builds are reproducible: no clock in the file
MARK_WIDTH = 0.25 / PT_PER_MM          # 0.25 pt
TICK_CASING = 0.4                      # mm: the white under a crop mark drawn on a bleed
LABEL_FONT = "Liberation Sans"


_RESOURCE_DICT = re.compile(rb"/(?:XObject|ExtGState|Pattern|Font|Shading) <<([^<>]*)>>")
_ENTRY = re.compile(rb"/([^\s/<>\[\]()]+) \d+ 0 R")


READ_PIECE = 1 << 20


def blank_repeated_keys(path: str) -> None:
    """cairo lists a form painted n times on a page n times in the page's resources
    (/x6 6 0 R /x6 6 0 R ...). Duplicate keys are invalid PDF, and qpdf (pikepdf), reading many
    of them, drops the page's resources: the page would print blank after a merge. So the
    repeats in the PDF file at `path` are blanked in place with as many spaces: every byte
    offset (the xref table) stays right, and only those bytes are written back. Read a piece at
    a time, each ending after its last 'endobj': a resource dictionary lies inside one object,
    so none is cut in two (one that never ends is carried on whole)."""
    with open(path, "r+b", buffering=0) as pdf:
        carried, offset = b"", 0        # offset: where `carried` starts in the file
        while True:
            piece = pdf.read(READ_PIECE)
            text = carried + piece
            end = text.rfind(b"endobj")
            cut = len(text) if not piece else end + len(b"endobj") if end >= 0 else 0
            for match in _RESOURCE_DICT.finditer(text, 0, cut):
                if _repeats(match.group(1)):
                    os.pwrite(pdf.fileno(), _deduped(match), offset + match.start())
            carried, offset = text[cut:], offset + cut
            if not piece:
                return


def _deduped(match) -> bytes:
    """A resource dictionary (a match of _RESOURCE_DICT in bytes) with each repeated entry
    blanked out with spaces."""
    seen = set()

    def entry(m):
        if m.group(1) in seen:
            return b" " * len(m.group(0))
        seen.add(m.group(1))
        return m.group(0)
    return match.group(0)[: match.start(1) - match.start(0)] + _ENTRY.sub(entry, match.group(1)) + b">>"


def _repeats(entries: bytes) -> bool:
    names = _ENTRY.findall(entries)
    return len(names) != len(set(names))


def _text_options():
    """Unhinted metrics: with hinting, advances snap to whole user units (millimetres here)."""
    options = cairo.FontOptions()
    options.set_hint_metrics(cairo.HINT_METRICS_OFF)
    options.set_hint_style(cairo.HINT_STYLE_NONE)
    return options


TEXT_OPTIONS = _text_options()


class _Sink(io.BytesIO):
    """The PDF's bytes. When a build stops with an error, the abandoned cairo surface writes its
    last bytes as it is collected, after the buffer is gone: those go nowhere, quietly, instead
    of printing a stray traceback under the real message."""

    def write(self, data):
        return 0 if self.closed else super().write(data)


class _Output:
    """Where PdfWriter's PDF goes: cairo writes it to a file by name, with its own buffered
    writes (through a Python write callback it made ~27,000 calls at 2,000 cards), into the
    file `into`, or into a temporary file whose bytes are then returned (and the file removed,
    whatever happens). Then cairo's repeated resource keys are blanked in place."""

    def __init__(self, into: str | None):
        self.into = into
        if into is None:
            handle, self.path = tempfile.mkstemp(prefix="pnpgen-", suffix=".pdf")
            os.close(handle)
        else:
            self.path = into

    def __enter__(self) -> "_Output":
        return self

    def __exit__(self, *exc) -> None:
        if self.into is None:
            with contextlib.suppress(OSError):
                os.remove(self.path)

    def surface(self, width_pt: float, height_pt: float) -> cairo.PDFSurface:
        return cairo.PDFSurface(self.path, width_pt, height_pt)

    def result(self) -> bytes | None:
        """After the surface is finished: the PDF's bytes, or None when it went to `into`."""
        blank_repeated_keys(self.path)
        if self.into is not None:
            return None
        with open(self.path, "rb") as pdf:
            return pdf.read()


def new_context(surface) -> cairo.Context:
    ctx = cairo.Context(surface)
    ctx.set_font_options(TEXT_OPTIONS)
    return ctx


# The per-face and per-mark calls go to cairo's C functions directly (as svgdraw/ops.py does):
# each Context method checks the context's status after its call, which doubled their cost
# (20,000 faces and 2,224 pages at 10,000 cards). cairo turns every call into a no-op once the
# context is in error, so one check after a face (_check) or a stroke loses nothing.
_lib = cairo.cairo

# where a face's top-left corner lands, by how far it is turned clockwise
_ORIGIN = {0: lambda p: (p.x, p.y), 90: lambda p: (p.x + p.w, p.y),
           180: lambda p: (p.x + p.w, p.y + p.h), 270: lambda p: (p.x, p.y + p.h)}


def _face_to_page(ptr, p: Placement) -> None:
    """Face coordinates (mm from the trim's top-left) onto the page, turned as placed; `ptr` is a
    Context's cairo_t (ctx._pointer)."""
    x, y = _ORIGIN[p.rotation](p)
    _lib.cairo_translate(ptr, x, y)
    if p.rotation:
        _lib.cairo_rotate(ptr, math.radians(p.rotation))


def _check(ptr) -> None:
    """What a Context method raises when the context is in error (cairocffi's own check)."""
    cairo._check_status(_lib.cairo_status(ptr))     # pylint: disable=protected-access


class PdfWriter:
    """Draws sheets; `face_svg(face)` gives a face's SVG, `face_outline(face, grow)` its outline,
    `face_name(face)` what to call it in an error; `face_id(face)` what tells two faces apart
    (equal: drawn once, painted where each stands), the SVG itself unless given; `face_seen(face)`
    is said of a face painted from another's drawing, whose SVG is not needed (face_svg unless given)."""

    def __init__(self, face_svg: Callable, face_name: Callable, face_outline: Callable, title: str,
                 subject: str = "", face_stamp: Callable | None = None, face_id: Callable | None = None,
                 face_seen: Callable | None = None, face_ahead: Callable | None = None,
                 face_batch: Callable = contextlib.nullcontext):
        self.face_svg, self.face_name, self.face_outline = face_svg, face_name, face_outline
        self.face_id, self.face_seen = face_id or face_svg, face_seen or face_svg
        self.face_ahead = face_ahead       # renders a face to be drawn soon, keeping it till then
        self.face_batch = face_batch       # a block the faces rendered ahead are rendered in
        self.title, self.subject = title, subject
        self.face_stamp = face_stamp       # face -> version.stamps' marks: drawn over the face
        self._label_font = None            # (characters covered, face) of LABEL_FONT, once found

    def write(self, sheets: list[Sheet], progress: Callable[[int], None] | None = None,
              into: str | None = None) -> bytes | None:
        """The PDF's bytes; with `into`, written to that file instead (one copy of it in memory,
        not two)."""
        with interrupt.deferred(), _Output(into) as output:    # never raise inside cairo
            self._write(sheets, progress, output)
            return output.result()

    def _write(self, sheets: list[Sheet], progress: Callable[[int], None] | None, output: _Output) -> None:
        first = sheets[0]
        surface = output.surface(first.width * PT_PER_MM, first.height * PT_PER_MM)
        surface.set_metadata(cairo.PDF_METADATA_TITLE, self.title)
        surface.set_metadata(cairo.PDF_METADATA_SUBJECT, self.subject)
        surface.set_metadata(cairo.PDF_METADATA_CREATOR, "pnpgen")
        surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
        surface.set_metadata(cairo.PDF_METADATA_MOD_DATE, FIXED_DATE)
        faces = _Faces()
        for face, reach in placed_faces(sheets):     # (impose.Imposed: its sheets not made for this)
            faces.count(self.face_id(face), reach)
        faces.counted_all()
        for start in range(0, len(sheets), AHEAD_PAGES):
            window = list(sheets[start:start + AHEAD_PAGES])     # made once, dropped when drawn
            if self.face_ahead:
                with self.face_batch():
                    self._render_ahead(window, faces)
            for sheet in window:
                interrupt.check()
                surface.set_size(sheet.width * PT_PER_MM, sheet.height * PT_PER_MM)
                ctx = new_context(surface)
                ctx.scale(PT_PER_MM, PT_PER_MM)
                ctx.translate(*sheet.shift)         # a back page moved for the printer (printer.py)
                self._draw_sheet(ctx, sheet, faces)
                ctx.show_page()
                if progress:
                    progress(len(sheet.placements))
            faces.window_drawn()
        surface.finish()

    def _render_ahead(self, sheets: list[Sheet], faces: "_Faces") -> None:
        """The faces these pages draw first, rendered (and counted in the element bound) before
        any of them is drawn: templates and cairo each run on for a while (a streamed build of
        2,000 cards, one process: 2.12 s CPU interleaved face by face, 1.97 s so)."""
        for sheet in sheets:
            for p in sheet.placements:
                key = self.face_id(p.face)
                if not faces.is_counted(key):
                    faces.bound(key, self.face_ahead(p.face), lambda: self.face_name(p.face))

    def _draw_sheet(self, ctx, sheet: Sheet, faces: "_Faces") -> None:
        if sheet.clip:
            ctx.save()
            ctx.rectangle(*sheet.clip)
            ctx.clip()
        # A board piece shows only part of its face: cairo would keep the first page's part of a
        # recorded face for every page, so pieces are drawn afresh.
        reuse = sheet.clip is None
        for placement in sheet.placements:
            self._draw_face(ctx, placement, faces, reuse)
        self._draw_cut_guides(ctx, sheet)      # a board piece's guides stay inside its window
        if sheet.clip:
            ctx.restore()
        _draw_crops(ctx, sheet.crops)          # ... and its crop marks outside it
        _draw_ticks(ctx, sheet.ticks)
        for tag in sheet.tags:
            _draw_tag(ctx, tag)
        if sheet.label:
            self._draw_label(ctx, sheet)

    def _draw_label(self, ctx, sheet: Sheet) -> None:
        """The sheet's label (a page guide, a board piece's name) in the label font, its characters
        checked first; the font's coverage and face found once per document (a label a page)."""
        if self._label_font is None:
            self._label_font = (glyphs.font_coverage(LABEL_FONT, False, False)[0],
                                font_face(LABEL_FONT, False, False))     # the face the check reads
        covered, face = self._label_font
        try:
            glyphs.check(sheet.label, covered, "page label", LABEL_FONT)
        except glyphs.GlyphError as exc:
            raise BuildError(str(exc)) from None
        ptr = ctx._pointer      # pylint: disable=protected-access (see _lib)
        _lib.cairo_set_source_rgb(ptr, 0.25, 0.25, 0.25)
        _lib.cairo_set_font_face(ptr, face._pointer)     # pylint: disable=protected-access
        if sheet.label_at:
            _lib.cairo_set_font_size(ptr, GUIDE_SIZE)
            x, y = sheet.label_at
        else:
            _lib.cairo_set_font_size(ptr, 2.8)
            x, y = sheet.clip[0] if sheet.clip else 10, sheet.height - 5 - 1.5
        for line in sheet.label.split("\n"):      # a page guide too long for one line: two
            _lib.cairo_move_to(ptr, x, y)
            _lib.cairo_show_text(ptr, line.encode("utf-8"))
            y += GUIDE_LEADING
        _check(ptr)

    def _draw_face(self, ctx, p, faces: "_Faces", reuse) -> None:
        ptr = ctx._pointer      # pylint: disable=protected-access (see _lib)
        _lib.cairo_save(ptr)
        if p.clip_path:                  # hexagons on shared cuts: bleed only where no neighbour
            _lib.cairo_move_to(ptr, *p.clip_path[0])
            for x, y in p.clip_path[1:]:
                _lib.cairo_line_to(ptr, x, y)
            _lib.cairo_close_path(ptr)
            _lib.cairo_clip(ptr)
        elif not p.clip_to_shape:        # rectangles: the bleed is square, whatever the corners
            left, top, right, bottom = p.bleed
            _lib.cairo_rectangle(ptr, p.x - left, p.y - top, p.w + left + right, p.h + top + bottom)
            _lib.cairo_clip(ptr)
        _face_to_page(ptr, p)
        part = getattr(p.face, "offset", None)      # a piece of a larger face
        if part is not None:
            _lib.cairo_translate(ptr, -part[0], -part[1])
        if p.clip_to_shape:
            self.face_outline(p.face, max(p.bleed)).trace(ctx)
            ctx.clip()
        key = self.face_id(p.face)
        try:
            if reuse and key in faces.recorded:
                self.face_seen(p.face)
            else:
                svg = self.face_svg(p.face)
                faces.bound(key, svg, lambda: self.face_name(p.face))
            if reuse and key in faces.reach:
                if key not in faces.recorded:
                    faces.recorded[key] = self._record(p, svg, faces.reach[key])
                _lib.cairo_set_source_surface(ptr, faces.recorded[key]._pointer, 0, 0)
                _lib.cairo_paint(ptr)
            else:
                draw_svg(ctx, svg, fresh=True)      # (saved, clipped and moved only; restored below)
            if _lib.cairo_status(ptr):
                _check(ptr)
        except ValueError as exc:      # e.g. an <image> pointing at a file or URL, a NaN
            raise BuildError(f"{self.face_name(p.face)}: {exc}") from None
        except (OSError, MemoryError) as exc:   # cairo reading an embedded image PIL could half-read
            raise BuildError(f"{self.face_name(p.face)}: an embedded image cannot be read ({exc}); embed a "
                             "whole PNG or JPEG file") from None
        except cairo.CairoError as exc:   # e.g. scale(0): a transform nothing can be drawn through
            raise BuildError(f"{self.face_name(p.face)}: cairo cannot draw it ({exc}); look for a "
                             "transform that scales by 0 or a huge factor") from None
        marks = self.face_stamp(p.face) if self.face_stamp else ()
        if marks:
            version.draw(ctx, marks)
        _lib.cairo_restore(ptr)

    def _record(self, p, key: str, bleed: float):
        """The face with as much bleed as its most exposed copy shows (each copy is clipped where
        it is painted), not just what the first copy needed."""
        b = bleed + 1
        w, h = getattr(p.face, "full", None) or ((p.w, p.h) if p.rotation in (0, 180) else (p.h, p.w))
        surface = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (-b, -b, w + 2 * b, h + 2 * b))
        draw_svg(new_context(surface), key, fresh=True)
        return surface

    def _draw_cut_guides(self, ctx, sheet: Sheet) -> None:
        ptr = ctx._pointer      # pylint: disable=protected-access (see _lib)
        _lib.cairo_save(ptr)
        _lib.cairo_set_line_width(ptr, MARK_WIDTH)
        _lib.cairo_set_source_rgb(ptr, 0, 0, 0)
        stroke_segments(ctx, sheet.lines, dash=FOLD_DASH if sheet.side == "board" else None)
        if sheet.outlines:      # white under black dashes: visible on any background
            for p in sheet.outlines:
                ctx.save()
                _face_to_page(ctx._pointer, p)      # pylint: disable=protected-access
                self.face_outline(p.face, 0.0).trace(ctx)
                ctx.restore()
            ctx.set_source_rgb(1, 1, 1)
            ctx.set_line_width(2 * MARK_WIDTH)
            ctx.stroke_preserve()
            ctx.set_source_rgb(0, 0, 0)
            ctx.set_line_width(MARK_WIDTH)
            ctx.set_dash([1.2, 0.8])
            ctx.stroke()
            ctx.set_dash([])
        if sheet.fold_x is not None:
            ctx.set_dash([3.0, 2.0])
            ctx.move_to(sheet.fold_x, 5)
            ctx.line_to(sheet.fold_x, sheet.height - 5)
            ctx.stroke()
        ctx.restore()


AHEAD_PAGES = 8     # a streamed build renders the faces of this many pages, then draws them


class _Faces:
    """The faces of one PDF (or part), told apart by PdfWriter.face_id: those drawn more than once
    with how much bleed at most (`reach`: each is recorded once, with the most bleed any copy
    shows, and painted where each copy stands), and the SVG elements of those drawn so far,
    bounded by MAX_ELEMENTS. A face drawn once is forgotten once its pages are drawn (50,000
    distinct cards: their keys were 10 MB in each drawing process)."""

    def __init__(self) -> None:
        self.reach: dict = {}        # while counting every face; then only those drawn more than once
        self.repeated: set = set()
        self.recorded: dict = {}
        self.counted: set = set()    # faces drawn more than once, bounded already
        self.in_window: set = set()  # faces drawn once, bounded already, on the pages being drawn
        self.elements = 0

    def count(self, key, reach: float) -> None:
        if key in self.reach:
            self.repeated.add(key)
            reach = max(self.reach[key], reach)
        self.reach[key] = reach

    def counted_all(self) -> None:
        self.reach = {key: self.reach[key] for key in self.repeated}
        self.repeated = set()

    def is_counted(self, key) -> bool:
        return key in self.counted or key in self.in_window

    def window_drawn(self) -> None:
        """The pages rendered ahead together are drawn: their faces drawn once are done with."""
        self.in_window.clear()

    def bound(self, key, svg: str, name: Callable[[], str]) -> None:
        if self.is_counted(key):
            return
        (self.counted if key in self.reach else self.in_window).add(key)
        self.elements += drawn_elements(svg)
        if self.elements > MAX_ELEMENTS:
            raise BuildError(too_many_elements(name(), svg))


FOLD_DASH = (2.0, 1.5)      # mm: a board's overlap lines and a tuck box's folds


def _draw_crops(ctx, crops) -> None:
    """A board piece's crop marks: solid, like the sheets', on the paper round its window."""
    if not crops:
        return
    ctx.save()
    ctx.set_line_width(MARK_WIDTH)
    ctx.set_source_rgb(0, 0, 0)
    stroke_segments(ctx, crops)
    ctx.restore()


def _draw_ticks(ctx, ticks) -> None:
    """Crop marks reaching into a bleed (impose._ticks): black on a white casing, seen on any art."""
    if not ticks:
        return
    ptr, path = ctx._pointer, _segments_path(tuple(ticks))[0]    # pylint: disable=protected-access
    _lib.cairo_save(ptr)
    _lib.cairo_set_source_rgb(ptr, 1, 1, 1)
    _lib.cairo_set_line_width(ptr, TICK_CASING)
    _lib.cairo_append_path(ptr, path)
    _lib.cairo_stroke(ptr)
    _lib.cairo_set_source_rgb(ptr, 0, 0, 0)
    _lib.cairo_set_line_width(ptr, MARK_WIDTH)
    _lib.cairo_append_path(ptr, path)
    _lib.cairo_stroke(ptr)
    _lib.cairo_restore(ptr)
    _check(ptr)


def _draw_tag(ctx, tag) -> None:
    """A piece's label (impose.Tag) on a white ground, over the art it sits on."""
    ctx.save()
    ctx.set_font_face(font_face(LABEL_FONT, False, False))
    ctx.set_font_size(GUIDE_SIZE)
    ctx.translate(tag.x, tag.y)
    ctx.rotate(math.radians(tag.turn))
    width = ctx.text_extents(tag.text)[4]
    ctx.rectangle(-0.6, -0.8 * GUIDE_SIZE, width + 1.2, 1.1 * GUIDE_SIZE)
    ctx.set_source_rgb(1, 1, 1)
    ctx.fill()
    ctx.set_source_rgb(0.2, 0.2, 0.2)
    ctx.move_to(0, 0)
    ctx.show_text(tag.text)
    ctx.restore()


def stroke_segments(ctx, segments, dash=None) -> None:
    """Straight segments (x0, y0, x1, y1), stroked at once in the context's colour and width,
    dashed when `dash` is given."""
    if dash:
        ctx.set_dash(list(dash))
    ptr = ctx._pointer      # pylint: disable=protected-access
    if segments:
        _lib.cairo_append_path(ptr, _segments_path(tuple(segments))[0])
    _lib.cairo_stroke(ptr)
    _check(ptr)           # (the status of the path appended too)
    if dash:
        ctx.set_dash([])


_PATHS: dict = {}


def _segments_path(segments: tuple) -> tuple:
    """The segments as one cairo path (move_to, line_to each), appended in one call: cairo
    appends it move by move and line by line, as those calls would (the same bytes). Made once
    for the sheets whose marks lie alike (2 x 28 segments on each of 2,224 pages at 10,000
    cards); (path, its data), kept alive together."""
    made = _PATHS.get(segments)
    if made is None:
        if len(_PATHS) > 256:
            _PATHS.clear()
        data = cairo.ffi.new("cairo_path_data_t[]", 4 * len(segments))   # per segment: header, point, header, point
        for i, (x0, y0, x1, y1) in enumerate(segments):
            for at, kind, x, y in ((4 * i, cairo.PATH_MOVE_TO, x0, y0), (4 * i + 2, cairo.PATH_LINE_TO, x1, y1)):
                data[at].header.type, data[at].header.length = kind, 2
                data[at + 1].point.x, data[at + 1].point.y = x, y
        path = cairo.ffi.new("cairo_path_t *", {"status": cairo.STATUS_SUCCESS, "data": data, "num_data": 4 * len(segments)})
        made = _PATHS[segments] = (path, data)
    return made
