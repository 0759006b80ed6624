"""The text helpers' laid-out blocks + the template's markup -> a face document (`Face`) that the
drawing stage splices blocks into as ready operations, without reading them back from SVG text.

text_box and text_line lay text out into runs (position, style, words) and inline icons. Written
as SVG, each run would be escaped, parsed, styled and glyph-checked again when drawn: a third of
a card's CPU. Instead the helper writes a placeholder, `<pnpgen-run n="NONCE" b="B"/>`, and keeps
block B's parts (its stretches of runs and the icons between them) in the face's side table;
svgdraw's compiler turns the placeholder into drawing operations directly. The placeholder names
the block, not its runs, so cards of one template whose texts differ give the same markup: it is
parsed, checked and compiled once (`Document`), and only the blocks are the face's own. A
placeholder the template writes itself draws the face's block B again, as a written one would
(its text the SVG text of that block too); one naming no block of the face is an unknown element.
A template that reworks a helper's output as a string (|upper) is rendered again with the
helpers writing SVG text, so it reworks that, as before runs were kept apart.

A Face is still the face's whole SVG as a string (its value: the blocks written out exactly as
they were before), so everything that names, hashes, compares or caches faces by their SVG
(digests, shared backs, the preview's images, the element bound) sees the same text; only
`draw_svg` looks at `doc` and `blocks`. Cairo-free: validate checks faces without it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

RUN_TAG = "pnpgen-run"
NONCE = "0"         # the same in every run: whatever a template does with a placeholder, the same input prints the same
_XML_BLANKS = str.maketrans("\t\n\r", "   ")     # what an XML parser makes of them in an attribute


@dataclass(frozen=True, eq=False)
class RunStyle:
    """How a run is written: the attributes after x and y, as text (`head`) and as the
    inherited-property declarations the compiler's cascade reads from them (`changes`).
    Compared by identity (the helpers make each once): the drawing stage keys its cache by it."""
    family: str
    size: str            # mm, written with three decimals as the SVG had it
    bold: bool
    italic: bool
    color: str
    head: str
    changes: tuple


def run_style(family: str, size_mm: float, bold: bool, italic: bool, color) -> RunStyle:
    size, color = f"{size_mm:.3f}", str(color)
    weight = ' font-weight="bold"' if bold else ""
    slant = ' font-style="italic"' if italic else ""
    head = f'font-family="{escape(family)}" font-size="{size}"{weight}{slant} fill="{escape(color)}"'
    written = (("font-family", family.translate(_XML_BLANKS)), ("font-size", size)) \
        + ((("font-weight", "bold"),) if bold else ()) + ((("font-style", "italic"),) if italic else ()) \
        + (("fill", color.translate(_XML_BLANKS)),)
    # as the cascade reads the <text> these attributes are written on: 'inherit' and '' set nothing
    changes = tuple((name, value) for name, value in written if value and value != "inherit")
    return RunStyle(family, size, bold, italic, color, head, changes)


class Run:
    """One run of text on a baseline: x, y in mm (written with three decimals), its style and
    its words (composed, soft hyphens gone: as drawn). Made for every run of every face: a
    plain class with slots, not a frozen dataclass (three times the cost to make)."""
    __slots__ = ("x", "y", "style", "text")

    def __init__(self, x: float, y: float, style: RunStyle, text: str):
        self.x, self.y, self.style, self.text = x, y, style, text

    def svg(self) -> str:
        text = self.text
        if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
            text = escape(text)         # (most runs have nothing to escape: asked first, at a fifth of the cost)
        x, y = self.x, self.y
        return f'<text x="{_MM.get(x) or _mm(x)}" y="{_MM.get(y) or _mm(y)}" {self.style.head}>{text}</text>'


_MM: dict[float, str] = {}      # a position -> as written: cards of a template repeat their lines' baselines and starts


def _mm(value: float) -> str:
    """A position in mm as a run writes it, three decimals (remembered, but not 0: -0.0 equals
    0.0 and is written otherwise)."""
    written = f"{value:.3f}"
    if value:
        if len(_MM) >= 4096:
            _MM.clear()
        _MM[value] = written
    return written


class InlineIcon:
    """An icon a text block draws between its runs. `place`: the numbers (x, y, scale, dx, dy) of
    its transform, translate(x,y) scale(scale) translate(dx,dy); its SVG as written (a `<g>` with
    that transform placing the icon's elements); and, for the drawing stage, the `<g>` as a parsed
    element (made when first asked for; the icon's own elements parsed once per icon and colour)."""
    __slots__ = ("place", "fill", "markup", "_element", "_transform")

    def __init__(self, place: tuple, fill: str | None, markup: str):
        self.place, self.fill, self.markup, self._element, self._transform = place, fill, markup, None, None

    @property
    def transform(self) -> str:
        """The transform as the SVG writes it (formatted once)."""
        if self._transform is None:
            x, y, scale, dx, dy = self.place
            self._transform = f"translate({x:.3f},{y:.3f}) scale({scale:.5f}) translate({dx:g},{dy:g})"
        return self._transform

    def svg(self) -> str:
        fill = f' fill="{escape(self.fill)}"' if self.fill is not None else ""
        return f'<g transform="{self.transform}"{fill}>{self.markup}</g>'

    def elements(self) -> int:
        """The elements its SVG opens: its <g> (its fill escaped, its transform numbers) and what
        its markup opens."""
        count = _ICON_COUNTS.get(self.markup)
        if count is None:
            if len(_ICON_COUNTS) >= 256:
                _ICON_COUNTS.clear()
            count = _ICON_COUNTS[self.markup] = opened(self.markup)
        return 1 + count

    def element(self):
        """The `<g>` as the face's parser would read it inside the face's <svg>."""
        if self._element is None:
            import xml.etree.ElementTree as ET
            attrib = {"transform": self.transform}
            if self.fill is not None:
                attrib["fill"] = self.fill.translate(_XML_BLANKS)
            group = ET.Element(_SVG + "g", attrib)
            group.extend(_icon_elements(self.markup))
            self._element = group
        return self._element


def written_place(place: tuple) -> tuple:
    """An inline icon's `place` rounded as its `transform` writes it: each number what a parser
    reads back from the text (round(x, 3) is float(f"{x:.3f}"): one correctly rounded conversion)."""
    x, y, scale, dx, dy = place
    return round(x, 3), round(y, 3), round(scale, 5), float(f"{dx:g}"), float(f"{dy:g}")


def opened(svg: str) -> int:
    """The elements an SVG text opens: its '<' less its '</' (an element opens once; its closing
    tag is not another). render.drawn_elements, which bounds what a document draws."""
    return svg.count("<") - svg.count("</")


_ICON_COUNTS: dict[str, int] = {}     # an icon's markup -> the elements it opens
_SVG = "{http://www.w3.org/2000/svg}"
_BLOCK_INDEX = re.compile("[0-9]+")
_ICON_ELEMENTS: dict[str, list] = {}     # an icon's markup -> its parsed elements (shared, never changed)


def _icon_elements(markup: str) -> list:
    elements = _ICON_ELEMENTS.get(markup)
    if elements is None:
        import xml.etree.ElementTree as ET
        elements = list(ET.fromstring(f'<svg xmlns="{_SVG[1:-1]}">{markup}</svg>'))
        if len(_ICON_ELEMENTS) >= 256:
            _ICON_ELEMENTS.clear()
        _ICON_ELEMENTS[markup] = elements
    return elements


def part_svg(part) -> str:
    """A block's part as SVG text: a stretch of runs (a tuple) or an inline icon."""
    if type(part) is tuple:
        return "".join([run.svg() for run in part])
    return part.svg()


def parts_svg(parts: tuple) -> str:
    """A block's SVG text: its parts written one after the other."""
    return "".join(map(part_svg, parts))


class RunTable:
    """The text blocks the helpers lay out on the face being rendered, each behind a placeholder:
    a block is a tuple of parts, each a stretch of runs (a tuple of Run) or an InlineIcon."""

    def __init__(self) -> None:
        self.nonce = NONCE
        self.blocks: list[tuple] = []
        self._svgs: list[str | None] = []       # each block's SVG text, once written
        self.placeholder_start = self._placeholder = f'<{RUN_TAG} n="{self.nonce}" b="'
        self._pattern = re.compile(f'<{RUN_TAG} n="{self.nonce}" b="([0-9]+)"/>')

    @property
    def runs(self) -> list[Run]:
        """Every run of the face's blocks, in order."""
        return [run for block in self.blocks for part in block if type(part) is tuple for run in part]

    def clear(self) -> None:
        self.blocks = []
        self._svgs = []

    def placeholder(self, parts: tuple, svg: str | None = None) -> str:
        """The placeholder of a block's parts (`svg`: their SVG text, when already written)."""
        self.blocks.append(parts)
        self._svgs.append(svg)
        return f'{self._placeholder}{len(self.blocks) - 1}"/>'

    def block_svg(self, index: int) -> str:
        svg = self._svgs[index]
        if svg is None:
            svg = self._svgs[index] = parts_svg(self.blocks[index])
        return svg

    def written(self, markup: str) -> str:
        """The markup with each placeholder replaced by its block's SVG."""
        return self._pattern.sub(lambda match: self.block_svg(int(match.group(1))), markup)

    def _written_doc(self, doc: "Document") -> str:
        """written(doc.markup), from the document's markup split once at its placeholders (cards
        of one template share it): no pattern searched per face."""
        if doc.split is None:
            split = self._pattern.split(doc.markup)     # literal, block, literal, ..., literal
            split[1::2] = map(int, split[1::2])
            doc.split = tuple(split)
        out = list(doc.split)
        out[1::2] = map(self.block_svg, out[1::2])
        return "".join(out)

    def intact(self, output: str) -> bool:
        """Whether every placeholder in `output` stands as the helpers wrote it, and no more of
        them than the helpers wrote (a template may rework a helper's output as a string).
        Remembered for outputs up to MAX_INTACT_CHARS: the faces of a template often write the
        same output around their placeholders, its texts all in the blocks."""
        if not self.blocks:
            return True
        if len(output) > MAX_INTACT_CHARS:
            return self._intact(output)
        key = (output, len(self.blocks), self.nonce)
        known = _INTACT.get(key)
        if known is None:
            if len(_INTACT) >= 256:
                _INTACT.clear()
            known = _INTACT[key] = self._intact(output)
        return known

    def _intact(self, output: str) -> bool:
        whole = self._pattern.findall(output)       # the block of each
        return (len(whole) == output.count(RUN_TAG) and len(whole) <= len(self.blocks)
                and "PNPGEN" not in output and "Pnpgen" not in output
                and set(whole) <= set(map(str, range(len(self.blocks)))))     # each as written: '3', not '03'

    def face(self, doc: "Document") -> "Face | str":
        """The face document: a Face when the helpers left blocks in it, else the markup itself."""
        if not self.blocks or not doc.placeholders:
            return doc.markup
        face = Face(self._written_doc(doc))
        face.doc, face.nonce, face.blocks = doc, self.nonce, tuple(self.blocks)
        return face


MAX_INTACT_CHARS = 20_000      # an output remembered by RunTable.intact (256 of them at most)
_INTACT: dict[tuple[str, int, str], bool] = {}     # (output, blocks on the face, nonce) -> intact


class Document:
    """A face's markup (its blocks behind placeholders) parsed once, with what is found of it
    once: cards of one template share it, so each is parsed, checked and compiled once.
    `placeholders`: the block of each placeholder the drawing can put a block in, in document
    order; `spliced`: whether every placeholder of the markup is one (not text in CDATA or a
    comment); `clean`: whether its own elements (blocks aside) have no unknown colour or font
    (None: not checked yet); `program`: what the drawing stage compiled of it (svgdraw's);
    `split`: its text at the placeholders (RunTable writes the face's SVG from it)."""

    __slots__ = ("markup", "root", "placeholders", "spliced", "clean", "program", "split", "elements")

    def __init__(self, markup: str, root, nonce: str) -> None:
        self.markup, self.root = markup, root
        run = _SVG + RUN_TAG
        self.placeholders = tuple(int(e.get("b")) for e in root.iter(run)
                                  if e.get("n") == nonce and _BLOCK_INDEX.fullmatch(e.get("b") or ""))
        self.spliced = len(self.placeholders) == markup.count(f'<{RUN_TAG} n="{nonce}" b="')
        self.clean = None
        self.program = None
        self.split = None       # the markup at its placeholders, for RunTable (made when first asked for)
        self.elements = None    # the elements its text between those placeholders opens (Face.elements)


class Face(str):
    """A face's SVG (the string) with the document the drawing stage reads (`doc`: its markup
    with the helpers' blocks behind placeholders, parsed; `blocks`; `nonce`)."""

    doc: Document
    nonce: str
    blocks: tuple

    @property
    def markup(self) -> str:
        return self.doc.markup

    def elements(self) -> int:
        """opened(self) from its parts, not its whole text (asked of every face drawn): its
        document's text between the placeholders counted once per document, and each block's
        parts as often as the document writes it (RunTable._written_doc): a run one element (its
        text escaped, its style's attributes too), an icon its own."""
        doc = self.doc
        count = doc.elements
        if count is None:
            count = doc.elements = sum(map(opened, doc.split[0::2]))
        blocks = self.blocks
        for index in doc.split[1::2]:
            for part in blocks[index]:
                count += len(part) if type(part) is tuple else part.elements()
        return count

    def __reduce__(self):                # to another process: as its text (drawn the slower way)
        return (str, (str(self),))
