"""IconParagraph keeps an inline icon on one line with the text set against it by joining
reportlab's words in its private `paragraph._getFragWords`. No public API does that job in the
reportlab we run: these tests say so, and fail the day one does (then use it and drop the hook)."""
from __future__ import annotations

import struct
import zlib

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from generator.handout_icons import IconParagraph

STYLE = ParagraphStyle("s", fontName="Helvetica", fontSize=10, leading=12)


@pytest.fixture
def icon(tmp_path) -> str:
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    path = tmp_path / "icon.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00\xff")) + chunk(b"IEND", b""))
    return f'<img src="{path}" width="10" height="10"/>'


def lines(paragraph, width: float) -> list[str]:
    """The lines a paragraph breaks into at `width`, an icon written [I]."""
    out = []
    for line in paragraph.breakLines(width).lines:
        if hasattr(line, "words"):
            out.append("".join("[I]" if getattr(getattr(f, "cbDefn", None), "width", 0) else f.text for f in line.words))
        else:
            out.append(" ".join(line[1]))
    return out


def opens_with_comma(make, markup: str) -> list[float]:
    return [w for w in range(40, 110, 5) if any(text.startswith(",") for text in lines(make(markup, STYLE), w))]


@pytest.mark.parametrize("kept", ["<nobr>2 {icon},</nobr>", "2\u00a0{icon},", "<nobr>2\u00a0{icon},</nobr>"])
def test_reportlabs_public_markup_does_not_keep_an_icon_with_its_comma(kept, icon):
    """<nobr> only turns hyphenation off, and a no-break space is no help: an image is a word
    of its own, breakable on either side. When this fails, reportlab can do it in public."""
    assert opens_with_comma(Paragraph, "aaaa bbbbbbb " + kept.format(icon=icon) + " x")


def test_the_icon_paragraph_keeps_it(icon):
    assert not opens_with_comma(IconParagraph, f"aaaa bbbbbbb 2\u00a0{icon}, x")
    assert lines(IconParagraph(f"aaaa bbbbbbb 2\u00a0{icon}, x", STYLE), 60) == ["aaaa", "bbbbbbb", "2\u00a0[I], x"]
