"""The text helpers' laid-out runs + the template's markup -> a face document (`Face`) that the
drawing stage splices runs into as ready operations, without reading them back from SVG text.

text_box and text_line lay text out into runs (position, style, words). Written as SVG, each run
would be escaped, parsed, styled and glyph-checked again when drawn: a third of a card's CPU.
Instead the helper writes a placeholder, `<pnpgen-run n="NONCE" i="K" k="N"/>`, and keeps runs K to
K+N-1 (a block's runs between its icons) in the face's side table; svgdraw's compiler turns the
placeholder into one text operation directly. A placeholder
the template writes itself draws the face's run K again, as a written one would (its text the
SVG text of that run too); one naming no run of the face is an unknown element. A template
that reworks a helper's output as a string (|upper) is rendered again with the helpers writing
SVG text, so it reworks that, as before runs were kept apart.

A Face is still the face's whole SVG as a string (its value: the runs written out exactly as
they were before), so everything that names, hashes, compares or caches faces by their SVG
(digests, shared backs, the preview's images, the element bound) sees the same text; only
`draw_svg` looks at `markup` and `runs`. Cairo-free: validate checks faces without it.
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
        return f'<text x="{self.x:.3f}" y="{self.y:.3f}" {self.style.head}>{escape(self.text)}</text>'


class RunTable:
    """The runs the helpers lay out on the face being rendered, each behind a placeholder."""

    def __init__(self) -> None:
        self.nonce = NONCE
        self.runs: list[Run] = []
        self._issued: set[tuple[str, str]] = set()     # (i, k) of each placeholder written
        self.placeholder_start = self._placeholder = f'<{RUN_TAG} n="{self.nonce}" i="'
        self._pattern = re.compile(f'<{RUN_TAG} n="{self.nonce}" i="([0-9]+)" k="([0-9]+)"/>')

    def clear(self) -> None:
        self.runs = []
        self._issued = set()

    def placeholder(self, runs: list[Run]) -> str:
        """The placeholder of consecutive runs (of one block, between its icons)."""
        first = len(self.runs)
        self.runs += runs
        self._issued.add((str(first), str(len(runs))))
        return f'{self._placeholder}{first}" k="{len(runs)}"/>'

    def written(self, markup: str) -> str:
        """The markup with each placeholder replaced by its runs' SVG."""
        runs = self.runs

        def svg(match):
            first = int(match.group(1))
            return "".join(run.svg() for run in runs[first:first + int(match.group(2))])
        return self._pattern.sub(svg, markup)

    def intact(self, output: str) -> bool:
        """Whether every placeholder in `output` stands as the helpers wrote it, and no more of
        them than the helpers wrote (a template may rework a helper's output as a string)."""
        if not self.runs:
            return True
        whole = self._pattern.findall(output)       # (i, k) of each
        return (len(whole) == output.count(RUN_TAG) and len(whole) <= len(self._issued)
                and "PNPGEN" not in output and "Pnpgen" not in output and all(m in self._issued for m in whole))

    def face(self, markup: str) -> "Face | str":
        """The face document: a Face when the helpers left runs in it, else the markup itself."""
        if not self.runs or self._placeholder not in markup:
            return markup
        face = Face(self.written(markup))
        face.markup, face.nonce, face.runs = markup, self.nonce, tuple(self.runs)
        return face


class Face(str):
    """A face's SVG (the string) with the document the drawing stage reads (`markup`: the
    SVG with the helpers' runs as placeholders, `runs`, `nonce`)."""

    markup: str
    nonce: str
    runs: tuple

    def __reduce__(self):                # to another process: as its text (drawn the slower way)
        return (str, (str(self),))
