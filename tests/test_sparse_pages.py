"""Paper not wasted: boards that fit the paper share sheets, no page is left sparse while its
pieces would fit in room left on the other pages, and build.json says what was done with each
group's cut lines (and why) rather than only what was asked.

Geometry is asserted on the planned pages (build.plan_sheets, packing's pages), in millimetres;
the cut-line report on a built pack's build.json.
"""
from __future__ import annotations

import pytest

from conftest import ROOT, build_pack, copy_pack, load_build_json
from generator import impose, packing
from generator.build import BuildRequest, board_files, documents, group_options, plan_sheets
from generator.manifest import load_pack
from test_impose import _assert_apart

PACKS = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
SPARSE = 0.5      # pages whose faces (with bleed and marks) cover less than this share are judged


def _planned_pages(monkeypatch, game, paper: str) -> dict[str, list]:
    """Document name -> the packer's pages of it (boards tiled across pages have none)."""
    pages: list = []

    def recording(runs, opts):
        pages.append(packing._pack(runs, opts))
        return pages[-1]
    monkeypatch.setattr(impose, "_pack", recording)
    request = BuildRequest(paper=paper)
    options = group_options(game, request)
    out = {}
    for name, role, groups in documents(game, None, options):
        pages.clear()
        plan_sheets(game, groups, request, role, options)
        out[name] = pages[0] if pages else []
    return out


def _used(page) -> float:
    boxes = [f for block in page.blocks for f in block.footprints()]
    return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / (page.area[2] * page.area[3])


def _fits_elsewhere(page, others, marks: str) -> bool:
    """Could every face of the page go in the free room of the other pages (tried on copies)?
    Two-sided faces only onto pages with backs; one-sided ones anywhere."""
    copies: dict[int, packing._Page] = {}
    for block in page.blocks:
        first, end = block.first, block.first + len(block.boxes)
        for target in others:
            if block.run.backs is not None and not target.two_sided:
                continue
            trial = copies.setdefault(id(target), packing._Page(target.area, list(target.free), list(target.blocks)))
            while first < end:
                choice = packing._best_rect(block.run, trial, end - first, marks, block.shared)
                if not choice:
                    break
                packing._place(trial, choice[0], choice[1], block.run, first)
                first += len(choice[1].boxes)
        if first < end:
            return False
    return True


def test_the_sparse_page_check_finds_a_page_whose_pieces_fit_elsewhere():
    """The judge below can fail: two pages of one card each, made by hand, are one page too many."""
    opts = impose.Options("a4", 210, 297)
    run = impose.Run("cards", "Cards", ["a", "b"], None, 63, 88)
    pages = []
    for i in range(2):
        area = (5.0, 5.0, 200.0, 284.0)
        page = packing._Page(area, [area])
        block = packing._fit(run, area, 1, opts.marks, False)
        packing._place(page, area, block, run, i)
        pages.append(page)
    assert _used(pages[1]) < SPARSE and _fits_elsewhere(pages[1], pages[:1], opts.marks)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_sparse_page_whose_pieces_would_fit_on_the_other_pages(monkeypatch, paper):
    """Every document of every pack laid out on sheets (the sheets and the boards): a page less
    than half covered holds only pieces that the room left on its other pages cannot take."""
    wasted = []
    for pack in PACKS:
        game = load_pack(ROOT / "components" / pack)
        marks = group_options(game, BuildRequest(paper=paper))[game.groups[0].id].marks
        for name, pages in _planned_pages(monkeypatch, game, paper).items():
            for i, page in enumerate(pages):
                if _used(page) < SPARSE and _fits_elsewhere(page, pages[:i] + pages[i + 1:], marks):
                    wasted.append(f"{name} on {paper}: page {i + 1} ({_used(page):.0%} used)")
    assert not wasted, "\n".join(wasted)


# --- boards share sheets --------------------------------------------------------------------------

DOOMSPIRE_BOARDS = {"ocean-nw": 2, "ocean-ne": 2, "ocean-se": 2, "ocean-sw": 2, "castle-boards": 4, "track": 1}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_boards_that_fit_the_paper_share_sheets_in_one_file(paper):
    """Lords of Doomspire's four L-shaped oceans (each cut in two rectangles), four castle boards
    and the track: one file of five pages on A4 and on Letter, where a file per board took 7 and
    9 pages (each ocean alone on a page, 27 % used), every piece once, none over another."""
    game = load_pack(ROOT / "components" / "lords-of-doomspire")
    request = BuildRequest(paper=paper)
    options = group_options(game, request)
    boards = [(name, groups) for name, role, groups in documents(game, None, options) if role == "board"]
    assert [(name, sorted(g.id for g in groups)) for name, groups in boards] == \
        [("lords-of-doomspire-boards.pdf", sorted(DOOMSPIRE_BOARDS))]
    # the file a reprint list names for a changed board (build._changes_file)
    assert board_files(documents(game, None, options)) == {g: "lords-of-doomspire-boards.pdf" for g in DOOMSPIRE_BOARDS}
    sheets = plan_sheets(game, boards[0][1], request, "board", options)
    assert len(sheets) == 5
    count = {}
    for sheet in sheets:
        assert sheet.side == "one-sided"
        _assert_apart(sheet)
        for p in sheet.placements:
            count[p.face.group.id] = count.get(p.face.group.id, 0) + 1
    assert count == DOOMSPIRE_BOARDS


def test_two_seats_castle_boards_share_a_cut_and_a_letter_page():
    """190 x 130 mm boards: two fit a Letter page only on one shared cut (2 x 130 + 6 mm of
    266.4). The seat colour stops 1.5 mm short of the top and bottom cut (a paper rim), so two
    seats' boards may share it: four boards on two pages, one above the other, no gutter."""
    game = load_pack(ROOT / "components" / "lords-of-doomspire")
    request = BuildRequest(paper="letter")
    castles = [g for g in game.groups if g.id == "castle-boards"]
    pages = [s for s in plan_sheets(game, castles, request, "board") if s.placements]
    assert len(pages) == 2
    for sheet in pages:
        upper, lower = sorted(sheet.placements, key=lambda p: p.y)
        assert lower.y == pytest.approx(upper.y + upper.h, abs=1e-6)
        assert upper.bleed[3] == lower.bleed[1] == 0.0


def test_one_board_laid_like_a_card_keeps_its_name_and_a_tiled_board_its_own_file():
    game = load_pack(ROOT / "components" / "shires")
    names = [(name, [g.id for g in groups]) for name, role, groups in documents(game) if role == "board"]
    assert names == [("shires-player-mats.pdf", ["player-mats"]), ("shires-turn-tracker.pdf", ["turn-tracker"])]


# --- what was done with the cut lines ------------------------------------------------------------

TWO_TONE = """
  - id: twotone          # a header across the top and a stripe down the left: no side matches its opposite
    name: Two-tone cards
    kind: card
    size: {width: 63mm, height: 88mm}
    template: face.svg.j2
    fields: {edge: color, middle: color, header: text, stripe: text}
    items:
      - {id: t1, edge: "#ffffff", middle: "#ffffff", header: "#1b4f72", stripe: "#c0392b", copies: 4}
  - id: discs
    name: Discs
    kind: chit
    shape: circle
    size: 20mm
    template: face.svg.j2
    fields: {edge: color, middle: color, header: text, stripe: text}
    items:
      - {id: d1, edge: "#ffffff", middle: "#ffffff", header: "", stripe: "", copies: 4}
"""


def test_build_json_says_what_was_done_with_each_groups_cut_lines_and_why(tmp_path):
    pack = copy_pack("cutedges", tmp_path / "packs")
    with open(pack / "components.yaml", "a") as f:
        f.write(TWO_TONE)
    shared = {g["id"]: g for g in load_build_json(build_pack(pack, tmp_path / "shared"))["groups"]}
    assert {g["options"]["cuts"] for g in shared.values()} == {"shared"}       # what was asked
    assert shared["plain"]["cut_lines"] == ["shared"]
    assert shared["headed"]["cut_lines"] == [
        "shared side by side, separate one above the other: their top and bottom edges differ in colour"]
    # rows could share their cuts, but three rows fit A4 with a gutter between each as well
    assert shared["striped"]["cut_lines"] == ["separate: shared cut lines would fit no more faces on a sheet"]
    assert shared["twotone"]["cut_lines"] == ["separate: the faces' edges differ in colour, and a miscut would show it"]
    assert shared["discs"]["cut_lines"] == ["separate: only rectangles and hexagons share cut lines"]
    separate = load_build_json(build_pack(pack, tmp_path / "separate", "--cuts", "separate"))["groups"]
    assert {(g["options"]["cuts"], *g["cut_lines"]) for g in separate} == {("separate", "separate, as asked")}


def test_each_board_is_planned_once_per_build_and_handed_down(monkeypatch, tmp_path):
    """Whether a board fits the paper and how it splits into pieces is decided once per build
    (boardplan), and the list of documents, their pages and the reprint list's file names are
    all read from that decision: a build with --changes-since whose castle boards changed plans
    each of Doomspire's boards exactly once, and names the file that prints them."""
    from collections import Counter

    from generator import boardplan
    from generator.build import build
    from generator.changes import Baseline
    pack = ROOT / "components" / "lords-of-doomspire"
    first = build(pack, BuildRequest(paper="letter", out_dir=tmp_path / "old"))
    old = load_build_json(first.out_dir)
    for item in old["items"]:
        if item["group"] == "castle-boards":
            item["faces"]["front"] = "0" * len(item["faces"]["front"])     # drawn otherwise then
    asked: Counter = Counter()
    plan = boardplan.plan_board
    monkeypatch.setattr(boardplan, "plan_board", lambda group, opts: (asked.update([group.id]), plan(group, opts))[1])
    result = build(pack, BuildRequest(paper="letter", out_dir=tmp_path / "new", changes_since=Baseline("old", old)))
    assert asked == {group: 1 for group in DOOMSPIRE_BOARDS}
    import pymupdf
    with pymupdf.open(result.out_dir / "lords-of-doomspire-changes.pdf") as doc:     # the players' list
        assert "lords-of-doomspire-boards.pdf" in " ".join(page.get_text() for page in doc)


def test_a_page_is_saved_by_doing_without_room_for_marks_only_where_it_saves_one():
    """A4 holds a 190 mm square board only without room for its marks (196 + 5 > 200 mm), which
    leaves 88 mm under it: a 180 x 80 mm strip (86 mm with bleed) fits there only without room
    for marks too. Packed a second time so, the document takes one page, not two, and the strip's
    marks are ticks. Where that saves no page (three strips alone), every block keeps its room."""
    opts = impose.Options("a4", 210, 297)
    board = impose.Run("board", "Board", ["b"], None, 190, 190)
    strip = impose.Run("strip", "Strip", ["s"], None, 180, 80)
    (sheet,) = impose.impose_runs([board, strip], opts)
    assert len(sheet.placements) == 2 and not sheet.outlines and sheet.ticks
    assert len(packing._first_fit([board, strip], opts, unmarked=False)) == 2
    strips = impose.Run("strip", "Strip", ["s1", "s2", "s3"], None, 180, 80)
    (sheet,) = impose.impose_runs([strips], opts)
    assert len(sheet.placements) == 3 and not sheet.ticks and not sheet.outlines and sheet.lines


def test_pages_packed_alike_share_the_free_rectangles_worked_out_once_but_not_the_list():
    from generator.packing import _free_after, _free_left, _taken
    area, footprints = (5.0, 5.0, 200.0, 280.0), [(10.0, 10.0, 79.0, 104.0), (79.0, 10.0, 148.0, 104.0)]
    first, again = _free_left([area], footprints), _free_left([area], footprints)
    assert first == again == _free_after([area], _taken(footprints)) and first is not again
    first.clear()       # a page's own list: emptying it (impose_runs does) leaves the next page's alone
    assert _free_left([area], footprints) == again
