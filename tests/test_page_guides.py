"""The page guide at the foot of every sheet is never cut short: too long for one line, its groups
go on a second line where the page has room, else the side is said shorter, else the groups that
fit are named and the rest counted. Measured with the font's own advances, and read back from
the PDFs as drawn."""
from __future__ import annotations

import pymupdf
import pytest

from conftest import ROOT
from generator.impose import Options, Run, impose_runs
from generator.pageguide import GUIDE_SIZE, _guide_metrics, guide_lines

PACKS = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
LONG_NAMES = [f"Very long group name number {i} (with a note)" for i in range(9)]


def width(text: str) -> float:
    return _guide_metrics().width(text, GUIDE_SIZE)


def test_a_guide_that_fits_is_one_line_as_it_was():
    lines = guide_lines("Game", "front", 3, "long", ["Cards", "Chits"], 200)
    assert lines == ["Game | front of sheet 3 - print double-sided, flip on the long edge | Cards, Chits"]


def test_too_long_for_one_line_the_groups_go_on_a_second():
    lines = guide_lines("Game", "front", 3, "long", LONG_NAMES[:4], 200)
    assert lines == ["Game | front of sheet 3 - print double-sided, flip on the long edge", ", ".join(LONG_NAMES[:4])]
    assert all(width(line) <= 200 for line in lines)


def test_without_room_for_two_lines_the_side_is_said_shorter_then_groups_counted():
    names = ", ".join(LONG_NAMES[:3])
    room = (width(f"Game | sheet 12, one-sided - nothing is printed behind it | {names}")
            + width(f"Game | sheet 12, one-sided | {names}")) / 2
    short = guide_lines("Game", "one-sided", 12, "long", LONG_NAMES[:3], room, two=False)
    assert short == [f"Game | sheet 12, one-sided | {names}"]
    counted = guide_lines("Game", "one-sided", 12, "long", LONG_NAMES, 200, two=False)
    assert len(counted) == 1 and width(counted[0]) <= 200
    assert counted[0].startswith("Game | sheet 12, one-sided | " + LONG_NAMES[0])
    named = sum(name in counted[0] for name in LONG_NAMES)
    assert counted[0].endswith(f"{9 - named} more groups (build.json lists them)")


@pytest.mark.parametrize("two", [True, False])
def test_no_guide_is_ever_cut_with_dots_or_wider_than_the_page(two):
    for n in range(0, 12):
        for side in ("front", "back", "one-sided", "blank", "fold"):
            for line in guide_lines("A Game With A Rather Long Title", side, 100 + n, "short", LONG_NAMES[:n], 150, two):
                assert "..." not in line and width(line) <= 150, line


def test_a_page_with_room_below_its_faces_prints_both_lines_in_the_strip_and_above_it():
    runs = [Run(f"g{i}", LONG_NAMES[i], [f"f{i}"], None, 40, 40) for i in range(4)]
    (sheet,) = impose_runs(runs, Options("a4", 210, 297), "Game")
    lines = sheet.label.split("\n")
    assert len(lines) == 2 and lines[1] == ", ".join(LONG_NAMES[:4])
    bottom = max(p.y + p.h + p.bleed[3] for p in sheet.placements)
    first_cap_top = sheet.label_at[1] - 0.75 * GUIDE_SIZE
    assert first_cap_top > bottom and sheet.label_at[1] + 2.7 == pytest.approx(297 - 5 - 0.6)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_packs_page_guides_fit_their_pages_whole(paper, built):
    """Every page of every PDF of the five packs: the guide's lines (and a board piece's label)
    lie inside the printer margin, and none ends in '...'."""
    for pack in PACKS:
        folder = built(pack, "--paper", paper)
        for pdf in sorted(folder.glob("*.pdf")):
            if pdf.name.endswith(("-map.pdf", "-handout.pdf")):
                continue
            doc = pymupdf.open(pdf)
            width_mm = doc[0].rect.width / 72 * 25.4
            for number, page in enumerate(doc, 1):
                guide = [span for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
                         for span in line["spans"] if span["text"].strip() and min(abs(span["size"] - mm * 72 / 25.4) for mm in (GUIDE_SIZE, 2.8)) < 0.2]
                assert guide, (pdf.name, number)
                for span in guide:
                    assert not span["text"].rstrip().endswith("..."), (pdf.name, number, span["text"])
                    assert span["bbox"][0] / 72 * 25.4 >= 5 - 0.1, (pdf.name, number)
                    assert span["bbox"][2] / 72 * 25.4 <= width_mm - 5 + 0.1, (pdf.name, number, span["text"])



@pytest.mark.parametrize("number", [1, 7, 38, 99, 100, 1234])
def test_a_guide_measured_once_per_length_of_its_numbers_decides_as_measuring_each_page(number):
    """The fit is remembered with the guide's digits as 0s (Liberation Sans' digits are one
    width): at a width exactly that of the page's own line, and a hair under it, the decision is
    what measuring that very line gives, whichever page of as many digits was laid out first."""
    head = f"Game 2 | front of sheet {number} - print double-sided, flip on the long edge"
    line = f"{head} | Cards 3"
    exact = width(line)
    assert width(line.translate(str.maketrans("123456789", "987654321"))) == exact
    for room, expected in ((exact, [line]), (exact - 1e-9, [head, "Cards 3"])):
        guide_lines("Game 2", "front", int("9" * len(str(number))), "long", ["Cards 3"], room)   # first
        assert guide_lines("Game 2", "front", number, "long", ["Cards 3"], room) == expected
