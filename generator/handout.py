"""A game's handout.yaml (+ its manifests and map data) -> a two-page rule summary PDF.

Typeset with reportlab's platypus in two or three columns; numbers shared with components come
from the manifests through sandboxed Jinja2 expressions, never typed twice. The type is set at
the largest size that still fits the sheet (two pages), body text never under MIN_BODY_PT; a
table or a list is never split across a page or a column, but for a table taller than a whole
column, split between rows with its header repeated. Content that does not fit at the
smallest size is an error naming the section, never smaller type.
"""
from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

import jinja2
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, KeepTogether, PageTemplate,
                                Paragraph, Spacer, Table, TableStyle)
from reportlab.platypus.doctemplate import LayoutError

from . import confine, glyphs
from .errors import ManifestError, Mark, Reporter, display_path, plain_words
from .fonts import FONT_DIR
from .schema import INVALID, AnyData, Bool, Choice, Color, Field, Int, ListOf, Spec, Str
from .render import TEMPLATE_SECONDS, TemplateTimeout, bounded_output, time_limit
from .handout_icons import IconParagraph, icon_aspect, icon_png
from .handout_words import hyphenable, markup_words
from .sandbox import Sandbox, read_only
from .version import titled
from .yamlsrc import load_yaml

MAX_PAGES = 2
# Body sizes tried, largest first that fits: read at arm's length across a table, never below 9.5 pt.
MIN_BODY_PT, MAX_BODY_PT, STEP_PT = 9.5, 12.0, 0.25
# Table text is a little under the body, where the body is large, but a player reads a table at
# the same arm's length: never under the body's floor.
CELL_BELOW_BODY, MIN_CELL_PT = 1.0, MIN_BODY_PT
HEADING_OVER_BODY, TITLE_PT = 1.2, 20
MARGIN, GUTTER, BAND = 7 * mm, 4 * mm, 12 * mm      # home printers need 5 mm of margin
FOOT = 10 * mm               # bottom margin: the footer line sits under the columns
FONTS = {"Sans": "LiberationSans-Regular.ttf", "Sans-Bold": "LiberationSans-Bold.ttf",
         "Sans-Italic": "LiberationSans-Italic.ttf", "Serif-Bold": "LiberationSerif-Bold.ttf"}
BLOCK_KINDS = ("text", "bullets", "steps", "table", "note")
CELL_PADDING = 1.6           # pt each side of a cell's text
MAX_TABLE_ROWS = 400         # a table of a two-page handout: more rows could not be printed (and lay out slowly)
MAX_WORD_LINES = 3           # a word broken across more lines than this is refused, not printed

TABLE_COLUMN = Spec("table column", {"header": Field(Str(80), True), "field": Field(Str(80), True)})
TABLE_SPEC = Spec("table", {
    "columns": Field(ListOf(AnyData(), 1, 12), True, doc="headers, or {header, field} with 'from'"),
    "rows": Field(ListOf(ListOf(AnyData(), 1, 12), 0, 200), default=[]),
    "widths": Field(ListOf(Int(1, 100), 1, 12)),
    "from": Field(Str(80), doc="a component group id: one row per item"),
})
BLOCK_SPEC = Spec("block", {
    "text": Field(Str(5000)), "note": Field(Str(2000)),
    "bullets": Field(ListOf(Str(2000), 1, 60)), "steps": Field(ListOf(Str(2000), 1, 60)),
    "table": Field(TABLE_SPEC),
})
SECTION_SPEC = Spec("section", {
    "heading": Field(Str(120), True, doc="the section's heading"),
    "box": Field(Bool(), default=False),
    "blocks": Field(ListOf(BLOCK_SPEC, 1, 80), True, doc="a list of text, bullets, steps, table or note"),
})
HANDOUT_SPEC = Spec("handout", {
    "title": Field(Str(120)), "subtitle": Field(Str(200), default="Rule summary"),
    "columns": Field(Choice(2, 3), default=3),
    "accent": Field(Color(), default="#37474f"),
    "sections": Field(ListOf(SECTION_SPEC, 1, 40), True, doc="the handout's sections"),
})


@dataclass
class HandoutSource:
    """What a handout is made from: its file, the game's title, palette and icons, and the data
    its expressions may read."""
    path: Path
    title: str
    icons: dict
    context: dict
    version: str = ""             # printed in the foot of both pages (game.yaml's, or --version)


def load_handout(source: HandoutSource):
    rep = Reporter()
    raw = load_yaml(source.path, rep)
    rec = HANDOUT_SPEC.check(raw, Mark(display_path(source.path), 1, 1), rep, "") if raw is not None else None
    if rec is not None and rec is not INVALID and rec.sections:
        for section in rec.sections:
            for block in section.blocks or []:
                present = [k for k in BLOCK_KINDS if block.values.get(k) is not None]
                if len(present) != 1:
                    rep.error(block.mark, f"a block needs exactly one of {', '.join(BLOCK_KINDS)}"
                              f"{' (it has ' + ', '.join(present) + ')' if present else ''}",
                              "split it into one block per kind")
                if block.values.get("table") is not None:
                    _check_columns(block.table, rep)
    rep.raise_if_errors()
    return rec


def _check_columns(table, rep: Reporter) -> None:
    """A table's columns, here where their places are known: {header, field} each with `from`
    (a stray key refused, not dropped while typesetting), a header text each without it."""
    columns = table.source.get("columns") if isinstance(table.source, dict) else None
    for n, column in enumerate(columns or []):
        mark = columns.item_mark(n) if hasattr(columns, "item_mark") else table.mark
        if table.values.get("from") is not None:
            TABLE_COLUMN.check(column, mark, rep, f"table.columns[{n}]")
        elif isinstance(column, (dict, list)):
            rep.error(mark, f"table.columns[{n}]: a column of a table without 'from' is its header text",
                      "write the header, or add from: GROUP to take the rows from a component group")


def _register_fonts() -> None:
    for name, file in FONTS.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    # <b> and <i> in paragraphs pick these faces (there is no bold italic: bold wins)
    registerFontFamily("Sans", normal="Sans", bold="Sans-Bold", italic="Sans-Italic", boldItalic="Sans-Bold")


class _Typesetter:
    """Handout record -> platypus flowables, each tagged with its section for overflow reports."""

    def __init__(self, rec, source: HandoutSource, keep_boxes: bool = True, body_pt: float = MIN_BODY_PT):
        self.rec, self.source, self.keep_boxes, self.body_pt = rec, source, keep_boxes, body_pt
        body, cell, heading = body_pt, max(body_pt - CELL_BELOW_BODY, MIN_CELL_PT), body_pt * HEADING_OVER_BODY
        accent = colors.HexColor(rec.accent)
        self.accent = accent
        self.env = Sandbox(undefined=jinja2.StrictUndefined, autoescape=False)
        self.context = read_only(source.context)
        self.styles = {
            "body": ParagraphStyle("body", fontName="Sans", fontSize=body, leading=body * 1.16, alignment=TA_LEFT,
                                   spaceAfter=body * 0.16),
            "note": ParagraphStyle("note", fontName="Sans-Italic", fontSize=body, leading=body * 1.16,
                                   spaceAfter=body * 0.16, textColor=colors.HexColor("#444444")),
            "heading": ParagraphStyle("heading", fontName="Sans-Bold", fontSize=heading, leading=heading * 1.2,
                                      textColor=accent, spaceBefore=body * 0.45, spaceAfter=body * 0.2),
            "cell": ParagraphStyle("cell", fontName="Sans", fontSize=cell, leading=cell * 1.12),
            "head": ParagraphStyle("head", fontName="Sans-Bold", fontSize=cell, leading=cell * 1.12,
                                   textColor=colors.white),
            "list": ParagraphStyle("list", fontName="Sans", fontSize=body, leading=body * 1.16, leftIndent=body * 1.05,
                                   bulletIndent=1, spaceAfter=body * 0.06, bulletFontName="Sans-Bold",
                                   bulletFontSize=body, bulletColor=accent),
        }

    def flowables(self, width: float) -> list:
        out = []
        for section in self.rec.sections:
            items = [self._heading(section.heading, section)]
            lead_in = None          # a text ending in ':' stays with the list or table it leads into
            for block in section.blocks:
                made = self._block(block, section, width - (8 if section.box else 0))
                if lead_in is not None:
                    items = items[:lead_in] + [KeepTogether([*items[lead_in:], *_unkept(made[0])])] + made[1:]
                else:
                    items += made
                text = block.values.get("text")
                lead_in = len(items) - 1 if isinstance(text, str) and text.rstrip().endswith(":") else None
            if section.box:        # a box that fits in a column is broken only when the sheet is full
                items = self._boxed([part for item in items for part in _unkept(item)], width)
                items = [KeepTogether(items)] if self.keep_boxes else items
            else:
                # a heading never ends a column (a KeepTogether inside another measures as endless)
                items = [KeepTogether([items[0], *(_unkept(items[1]) if len(items) > 1 else [])])] + items[2:]
            out += [_SectionMark(section)] + items
        return out

    def _heading(self, text, section):
        try:
            return IconParagraph(self._markup(text), self.styles["heading"])
        except glyphs.GlyphError as exc:
            raise ManifestError([_problem(section.value_mark("heading"), f"handout heading: {exc}", GLYPH_HINT)]) from None
        except EXPRESSION_ERRORS as exc:
            raise ManifestError([_problem(section.value_mark("heading"), f"handout heading: {exc}",
                                          "check its **bold**, *italic* and {{ ... }} markup")]) from None

    def _block(self, block, section, width) -> list:
        kind = next(k for k in BLOCK_KINDS if block.values.get(k) is not None)
        value = block.values[kind]
        try:
            return getattr(self, f"_block_{kind}")(value, width)
        except glyphs.GlyphError as exc:
            raise ManifestError([_problem(block.mark, f"section '{section.heading}', {kind}: {exc}", GLYPH_HINT)]) from None
        except WordTooLong as exc:
            raise ManifestError([_problem(block.mark, f"section '{section.heading}', table: {exc}",
                                          "widen that column (the table's widths:), shorten the word, or give it "
                                          "a space or a hyphen where it may break")]) from None
        except EXPRESSION_ERRORS as exc:
            hint = "check the {{ ... }} expression against the manifests"
            if "map" not in self.source.context:
                hint += " (map.* reads map.yaml, and this pack has none)"
            raise ManifestError([_problem(block.mark, f"section '{section.heading}', {kind}: {plain_words(str(exc))}",
                                          hint)]) from None

    def _block_text(self, value, width):
        return [_Sentences(self._markup(value), self.styles["body"])]

    def _block_note(self, value, width):
        return [_Sentences(self._markup(value), self.styles["note"])]

    # A list or a table is read as one thing: it moves whole to the next column rather than split.
    def _block_bullets(self, value, width):
        return [KeepTogether([IconParagraph(self._markup(v), self.styles["list"], bulletText="\u2022") for v in value])]

    def _block_steps(self, value, width):
        return [KeepTogether([IconParagraph(self._markup(v), self.styles["list"], bulletText=f"{n}.")
                              for n, v in enumerate(value, 1)])]

    def _block_table(self, table, width):
        headers, rows = self._table_rows(table)
        widths = table.widths or [1] * len(headers)
        if len(widths) != len(headers):
            raise ValueError(f"{len(widths)} widths for {len(headers)} columns")
        col_widths = [width * w / sum(widths) for w in widths]
        cells = [[self._cell(h, "head", w, h) for h, w in zip(headers, col_widths)]]
        cells += [[self._cell(str(c), "cell", w, h) for c, w, h in zip(row, col_widths, headers)] for row in rows]
        t = _HandoutTable(cells, colWidths=col_widths, repeatRows=1, hAlign="LEFT")
        t.setStyle(TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), "Sans"),      # else reportlab names Helvetica
            ("BACKGROUND", (0, 0), (-1, 0), self.accent),
            ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.HexColor("#9e9e9e")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING), ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2),
        ]))
        return [t, Spacer(1, 3)]

    def _cell(self, text: str, style_name: str, column_width: float, header: str) -> Paragraph:
        """A table cell whose every word fits its column. A word wider than the column is broken
        with a hyphen where the line is full; a word that would take more than MAX_WORD_LINES
        lines is refused."""
        markup, style = self._markup(text), self.styles[style_name]
        room = column_width - 2 * CELL_PADDING
        too_wide = {w for w, font in markup_words(markup, style.fontName)
                    if pdfmetrics.stringWidth(w, font, style.fontSize) > room}
        if not too_wide:
            return IconParagraph(markup, style)
        usable = room - pdfmetrics.stringWidth("-", "Sans-Bold", style.fontSize)
        for word in too_wide:
            width = pdfmetrics.stringWidth(word, "Sans-Bold", style.fontSize)
            if usable <= 0 or math.ceil(width / usable) > MAX_WORD_LINES:
                raise WordTooLong(f"the word '{word[:30]}{'...' if len(word) > 30 else ''}' ({len(word)} characters) "
                                  f"is too long for the column '{header}' ({room / mm:.1f} mm for text): at "
                                  f"{style.fontSize:g} pt it would be broken across more than {MAX_WORD_LINES} lines")
        return IconParagraph(hyphenable(markup, too_wide), ParagraphStyle(f"{style.name}-hyphenated", parent=style,
                                                                       embeddedHyphenation=1))

    def _table_rows(self, table):
        if table.values.get("from") is None:
            if len(table.rows or []) > MAX_TABLE_ROWS:
                raise ValueError(f"{len(table.rows):,} rows are over the limit of {MAX_TABLE_ROWS} for a two-page handout")
            for row in table.rows or []:
                if len(row) != len(table.columns):
                    raise ValueError(f"a row has {len(row)} cells for {len(table.columns)} columns")
            return [str(c) for c in table.columns], table.rows or []
        group = self.source.context["group"].get(table.values["from"])
        if group is None:
            raise KeyError(f"no component group '{table.values['from']}'")
        if len(group["items"]) > MAX_TABLE_ROWS:         # refused before reportlab lays them out
            raise ValueError(f"'from: {table.values['from']}' makes {len(group['items']):,} rows, one per item, over "
                             f"the limit of {MAX_TABLE_ROWS} for a two-page handout; make a table of the rows "
                             "that matter (rows: [...])")
        columns = [TABLE_COLUMN.check(c, None, Reporter(), "column") for c in table.columns]   # checked when loaded
        rows = [[item.get(c.field, "") for c in columns] for item in group["items"]]
        return [c.header for c in columns], rows

    def _boxed(self, items, width) -> list:
        """A shaded, ruled box that may break between its items (between columns or pages):
        one single-cell table per item, the rules above the first and below the last."""
        pieces = []
        for index, item in enumerate(items):
            piece = Table([[item]], colWidths=[width])
            style = [
                ("FONTNAME", (0, 0), (-1, -1), "Sans"),
                ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f3efe6")),
                ("LINEBEFORE", (0, 0), (-1, -1), 0.6, self.accent),
                ("LINEAFTER", (0, 0), (-1, -1), 0.6, self.accent),
                ("LEFTPADDING", (0, 0), (-1, -1), 4), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 1 if index == 0 else 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4 if index == len(items) - 1 else 0),
            ]
            if index == 0:
                style.append(("LINEABOVE", (0, 0), (-1, -1), 0.6, self.accent))
            if index == len(items) - 1:
                style.append(("LINEBELOW", (0, 0), (-1, -1), 0.6, self.accent))
            piece.setStyle(TableStyle(style))
            pieces.append(piece)
        return pieces

    def _markup(self, text: str) -> str:
        """Manifest expressions, then escaping, then **bold**, *italic* and :icon: markup."""
        if "{" in str(text):
            with time_limit(TEMPLATE_SECONDS, f"an expression ran for more than {TEMPLATE_SECONDS} s"):
                text = bounded_output(self.env.from_string(str(text)), self.context, MAX_TEXT_CHARS, "one handout text")
        else:
            text = str(text)
        text = glyphs.composed(text)
        glyphs.check(re.sub(r":([a-z0-9][a-z0-9_-]*):", "", text), handout_coverage("Sans"), "handout", "Liberation Sans")
        text = escape(text)
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", text)
        _check_nesting(text)
        text = re.sub(r"(\d) (?=:[a-z0-9][a-z0-9_-]*:)", "\\1\u00a0", text)     # "2 :wood:" never parts
        return re.sub(r":([a-z0-9][a-z0-9_-]*):", self._icon, text)

    def _icon(self, match):
        name = match.group(1)
        icon = self.source.icons.get(name)
        if icon is None:
            return match.group(0)
        path, height = icon_png(icon, self.rec.accent), self.body_pt + 1
        return f'<img src="{path}" width="{height * icon_aspect(icon):g}" height="{height:g}" valign="-2"/>'


def _unkept(flowable) -> list:
    """A KeepTogether's contents (a table cell, such as a box's, cannot hold one), else the flowable."""
    return list(flowable._content) if isinstance(flowable, KeepTogether) else [flowable]


class WordTooLong(ValueError):
    pass


class _HandoutTable(Table):
    """A table read as one thing: one that fits in a column moves whole to the next column or
    page rather than split. One taller than a whole column (a deck's table grown with the deck)
    could never move whole: it is split between rows, filling the column it starts in, its
    header row repeated at the top of each part, across columns and pages."""

    def split(self, available_width, available_height):
        _, height = self.wrap(available_width, available_height)
        if height <= _Doc.frame_height + 0.01:
            return []
        tallest = max(self._rowHeights[1:] or [0]) + self._rowHeights[0]     # with the repeated header
        if tallest > _Doc.frame_height + 0.01:
            raise RowTooTall(f"a row {tallest / mm:.0f} mm tall with the header, taller than a column "
                             f"({_Doc.frame_height / mm:.0f} mm)")
        return super().split(available_width, available_height)


class RowTooTall(ValueError):
    pass


SENTENCE_END = re.compile(r"[.!?:;)\]]['\u2019\u201d\"]?$")


class _Sentences(IconParagraph):
    """A paragraph that breaks across columns and pages only between sentences: a reader never
    turns the sheet in the middle of one. With no sentence end that fits, it moves whole."""

    strict = True                 # also between columns; the page turn is always kept
    at_page_end = False           # set by the document: the frame being filled is the page's last

    def split(self, available_width, available_height):
        if not (_Sentences.strict or _Sentences.at_page_end):
            return super().split(available_width, available_height)
        height, leading = available_height, self.style.leading
        while height >= leading:
            parts = super().split(available_width, height)
            if len(parts) != 2:
                return parts
            if SENTENCE_END.search(parts[0].getPlainText().rstrip()):
                return parts
            height -= leading
        return []


def _check_nesting(markup: str) -> None:
    """**bold** and *italic* must nest, not cross: reportlab would stop the whole handout."""
    open_tags = []
    for match in re.finditer(r"<(/?)([bi])>", markup):
        closing, tag = match.groups()
        if not closing:
            open_tags.append(tag)
        elif not open_tags or open_tags.pop() != tag:
            raise ValueError("**bold** and *italic* markup cross each other; close the inner one before the outer")


def _problem(mark, message, hint):
    from .errors import Problem
    return Problem(mark, message, hint)


class _SectionMark(Flowable):
    """Takes no space; tells the document which section the following flowables belong to."""

    def __init__(self, section):
        super().__init__()
        self.section = section

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        pass


class _Doc(BaseDocTemplate):
    frame_height = 0.0            # the tallest column (page 2's): what a whole table must fit in

    def __init__(self, buffer, source, rec, page_size):
        super().__init__(buffer, pagesize=page_size, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                         bottomMargin=FOOT, title=f"{source.title} - {rec.subtitle}", author="pnpgen",
                         creator="pnpgen", subject=f"Rule summary for {source.title}", invariant=1,
                         initialFontName="Sans", initialFontSize=MIN_BODY_PT)
        _Doc.frame_height = page_size[1] - MARGIN - FOOT
        self.source, self.rec = source, rec
        self.current = self.overflow = None
        width, height = page_size
        col_w = (width - 2 * MARGIN - (rec.columns - 1) * GUTTER) / rec.columns
        self.col_w = col_w

        def frames(top):
            return [Frame(MARGIN + i * (col_w + GUTTER), FOOT, col_w, height - FOOT - top,
                          leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id=f"c{i}")
                    for i in range(rec.columns)]
        self.addPageTemplates([PageTemplate("first", frames(MARGIN + BAND), onPage=self._band),
                               PageTemplate("rest", frames(MARGIN), onPage=self._footer)])

    def handle_pageBegin(self):
        super().handle_pageBegin()
        self._handle_nextPageTemplate("rest")
        if self.page > MAX_PAGES and self.overflow is None:
            self.overflow = self.current       # the section being set when the sheet ran out

    def handle_frameBegin(self, *args, **kwargs):
        super().handle_frameBegin(*args, **kwargs)
        _Sentences.at_page_end = self.frame.id == f"c{self.rec.columns - 1}"

    def afterFlowable(self, flowable):
        if isinstance(flowable, _SectionMark):
            self.current = flowable.section

    def _band(self, canvas, doc):
        width, height = doc.pagesize
        canvas.saveState()
        canvas.setFillColor(colors.HexColor(self.rec.accent))
        canvas.rect(0, height - MARGIN - BAND + 3 * mm, width, BAND + MARGIN, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        canvas.setFont("Serif-Bold", TITLE_PT)
        canvas.drawString(MARGIN, height - MARGIN - 6.5 * mm, self.rec.title or self.source.title)
        canvas.setFont("Sans", 9.5)
        canvas.drawRightString(width - MARGIN, height - MARGIN - 6.5 * mm, self.rec.subtitle)
        canvas.restoreState()
        self._footer(canvas, doc)

    def _footer(self, canvas, doc):
        width, _ = doc.pagesize
        canvas.saveState()
        canvas.setFont("Sans", 8.5)
        canvas.setFillColor(colors.HexColor("#666666"))
        title = titled(self.rec.title or self.source.title, self.source.version)
        canvas.drawRightString(width - MARGIN, 5 * mm, f"{title} - page {doc.page}")
        canvas.restoreState()


def handout_pdf(source: HandoutSource, page_size_mm: tuple[float, float]) -> bytes:
    """Typeset the handout at the largest body size that fits the sheet (both pages filled as
    far as the content goes); raise ManifestError naming the first section that spills past
    page 2 at the smallest size."""
    rec = load_handout(source)
    _check_band(rec, source)
    _register_fonts()
    sizes = [MIN_BODY_PT + STEP_PT * k for k in range(int(round((MAX_BODY_PT - MIN_BODY_PT) / STEP_PT)) + 1)]
    smallest = _set_at(rec, source, page_size_mm, sizes[0], strict_only=False)
    if smallest.overflow:
        raise ManifestError([_problem(smallest.overflow.mark, smallest.message, smallest.hint)])
    best, low, high = smallest, 1, len(sizes) - 1
    while low <= high:            # the largest size that fits: a bisection over a fixed list, so deterministic
        middle = (low + high) // 2
        attempt = _set_at(rec, source, page_size_mm, sizes[middle], strict_only=True)
        if attempt.overflow:
            high = middle - 1
        else:
            best, low = attempt, middle + 1
    return best.pdf


@dataclass
class _Setting:
    pdf: bytes = b""
    overflow: object = None       # the section that did not fit, or None
    message: str = ""
    hint: str = ""


def _set_at(rec, source, page_size_mm, body_pt: float, strict_only: bool) -> _Setting:
    """The handout at one body size. Best first: boxes whole and sentences whole in every column;
    at the smallest size, if the sheet is too small, boxes may break, then sentences may break
    between columns (never at the page turn). Lists, and tables that fit a column, are never split."""
    chain = ((True, True),) if strict_only else ((True, True), (False, True), (False, False))
    for keep_boxes, strict in chain:
        buffer = io.BytesIO()
        _Sentences.strict = strict
        doc = _Doc(buffer, source, rec, (page_size_mm[0] * mm, page_size_mm[1] * mm))
        try:
            doc.build(_Typesetter(rec, source, keep_boxes, body_pt).flowables(doc.col_w))
        except RowTooTall as exc:
            section = doc.current or rec.sections[0]
            return _Setting(overflow=section, message=f"handout: section '{section.heading}' holds a table row "
                            f"taller than a whole column, which cannot be broken ({exc})", hint="shorten the row")
        except LayoutError:              # reportlab's words name its objects by address: not said
            section = doc.current or rec.sections[0]
            return _Setting(overflow=section, message=f"handout: section '{section.heading}' holds a box taller "
                            "than a whole column, which cannot be broken", hint=(
                                "split the list or table in the box into smaller ones, or take it out of the box"))
        if doc.page <= MAX_PAGES:
            return _Setting(pdf=buffer.getvalue())
    section = doc.overflow or rec.sections[-1]
    return _Setting(overflow=section, message=f"handout: section '{section.heading}' does not fit on the sheet: "
                    f"the text needs {doc.page} pages, at most {MAX_PAGES} are allowed (body text stays at "
                    f"{MIN_BODY_PT} pt or more)", hint="shorten this section or one before it" + _from_hint(section))


def _from_hint(section) -> str:
    """A table of a row per item is the part that grows with a deck: say how to shorten it."""
    groups = [block.table.values["from"] for block in section.blocks
              if block.values.get("table") is not None and block.table.values.get("from")]
    return (f" (its table from: {groups[0]} has a row per item: list the rows that matter instead, rows: [...])"
            if groups else "")


MAX_TEXT_CHARS = 100_000     # one text of a two-page handout; its expressions may not build more
EXPRESSION_ERRORS = (jinja2.TemplateError, TypeError, KeyError, ValueError, ArithmeticError, RecursionError, NameError,
                     MemoryError, TemplateTimeout)
GLYPH_HINT = "change the text; the handout is set in the Liberation fonts of fonts/"


@lru_cache(maxsize=None)
def handout_coverage(family: str) -> frozenset:
    """Characters every face of a handout family has (regular, bold, italic)."""
    files = [file for name, file in FONTS.items() if name.split("-")[0] == family]
    return frozenset.intersection(*(glyphs.coverage(FONT_DIR / file) for file in files))


def _check_band(rec, source) -> None:
    """The title band and footer, drawn straight onto the page: the same glyph check."""
    title = rec.title or source.title
    for text, families, key in ((title, ("Serif", "Sans"), "title"), (rec.subtitle, ("Sans",), "subtitle")):
        covered = frozenset.intersection(*(handout_coverage(family) for family in families))
        try:
            glyphs.check(text, covered, f"handout {key}", " and ".join(f"Liberation {f}" for f in families))
        except glyphs.GlyphError as exc:
            mark = rec.value_mark(key) if key in rec.source else Mark(display_path(source.path), 1, 1)
            raise ManifestError([_problem(mark, str(exc), GLYPH_HINT)]) from None


def source_for(folder: Path, version: str | None = None) -> HandoutSource:
    """The handout of a pack folder (game.yaml optional): its title, icons, version (`version`,
    else game.yaml's) and data for expressions."""
    import yaml

    from .manifest import load_pack
    context: dict = {"group": {}}          # map: only where the pack has a map.yaml
    title, icons = folder.name.replace("-", " ").title(), {}
    game = load_pack(folder) if (folder / "game.yaml").is_file() else None
    if version is None:
        version = game.version if game else ""
    if game is not None:
        title, icons = game.title, game.icons
        context["game"] = {"title": game.title, "palette": game.palette, "notes": game.notes, "data": game.data,
                           "version": version}
        context["group"] = game.group_data()
    context["groups"] = context["group"]    # the name templates use; `group` as handouts first had it
    for path in (folder / "handout.yaml", folder / "map.yaml"):
        problem = confine.read_problem(path, folder) if path.exists() or path.is_symlink() else ""
        if problem:
            raise ManifestError([_problem(Mark(display_path(path), 1, 1), problem,
                                          "copy the file into the game pack instead of linking it")])
    if (folder / "map.yaml").is_file():
        context["map"] = yaml.safe_load((folder / "map.yaml").read_text(encoding="utf-8")) or {}
    return HandoutSource(folder / "handout.yaml", title, icons, context, version)
