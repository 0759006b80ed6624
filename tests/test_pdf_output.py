"""The built PDFs, opened with a PDF library and rasterized: sizes, fonts, positions, marks,
duplex backs, board pieces, determinism."""
from pathlib import Path

import pymupdf
import pytest
from fontTools.ttLib import TTFont

from conftest import MM, ROOT, load_build_json

TOL = 0.1      # mm
PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}


def pdfs(folder: Path):
    return sorted(folder.glob("*.pdf"))


def our_font_names() -> set[str]:
    names = set()
    for path in (ROOT / "fonts").glob("*.ttf"):
        font = TTFont(str(path), lazy=True)
        names.add(font["name"].getDebugName(6))
        font.close()
    return names


def green_rects(page):
    """The trim-sized rectangles the test card template fills with #00ff00, in mm."""
    return sorted((round(d["rect"].x0 / MM, 2), round(d["rect"].y0 / MM, 2),
                   d["rect"].width / MM, d["rect"].height / MM)
                  for d in page.get_drawings() if d.get("fill") == (0.0, 1.0, 0.0))


def word_centre(page, text):
    hits = page.search_for(text)
    assert hits, f"{text!r} not on page"
    r = hits[0]
    return ((r.x0 + r.x1) / 2 / MM, (r.y0 + r.y1) / 2 / MM)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_is_exactly_the_paper(built, paper):
    out = built("royal-dukes", "--paper", paper)
    width, height = PAPERS[paper]
    for path in pdfs(out):
        for page in pymupdf.open(path):
            size = (page.rect.width / MM, page.rect.height / MM)
            if path.name.endswith("-map.pdf"):       # a wide map's page is turned to landscape
                size = tuple(sorted(size))
            assert size == (pytest.approx(width, abs=TOL), pytest.approx(height, abs=TOL))
    files = load_build_json(out)["files"]
    assert {(f["page_width_mm"], f["page_height_mm"]) if f["role"] != "map" else
            tuple(sorted((f["page_width_mm"], f["page_height_mm"]))) for f in files if f["pages"]} == {(width, height)}


@pytest.mark.slow
def test_every_font_is_ours_and_embedded(built):
    ours = our_font_names()
    for pack in ("royal-dukes", "mini"):
        for path in pdfs(built(pack)):
            doc = pymupdf.open(path)
            fonts = {f for page in doc for f in page.get_fonts(full=True)}
            assert fonts, f"{path.name} has no fonts"
            for xref, ext, kind, basefont, *_ in fonts:
                assert ext != "n/a", f"{basefont} in {path.name} is not embedded"
                assert basefont.split("+")[-1] in ours, f"{basefont} in {path.name} is not one of fonts/"


@pytest.mark.parametrize("paper,size,columns,rows", [
    # 195 x 270 mm block plus 2.5 mm for marks each side, centred in 200 x 284 (the page guide
    # takes 3 mm at the foot)
    ("a4", (63, 88), [10.5, 73.5, 136.5], [15.0, 103.0, 191.0]),
    # three rows need 270 of Letter's 266.4 mm: the cards turn, two across and four down
    ("letter", (88, 63), [19.95, 107.95], [12.2, 75.2, 138.2, 201.2]),
])
def test_card_positions_and_sizes_in_mm(built, paper, size, columns, rows):
    page = pymupdf.open(built("mini", "--paper", paper) / "mini-sheets.pdf")[0]
    rects = green_rects(page)
    assert len(rects) == len(columns) * len(rows)
    for x, y, w, h in rects:
        assert w == pytest.approx(size[0], abs=TOL) and h == pytest.approx(size[1], abs=TOL)
        assert min(abs(x - c) for c in columns) <= TOL and min(abs(y - r) for r in rows) <= TOL


def test_crop_marks_at_the_trim_corners(built):
    page = pymupdf.open(built("mini") / "mini-sheets.pdf")[0]
    lines = [item for d in page.get_drawings() if d.get("color") == (0.0, 0.0, 0.0)
             for item in d["items"] if item[0] == "l"]
    vertical = {round(p1.x / MM, 2) for _, p1, p2 in lines if abs(p1.x - p2.x) < 1e-3}
    horizontal = {round(p1.y / MM, 2) for _, p1, p2 in lines if abs(p1.y - p2.y) < 1e-3}
    for x, y, w, h in green_rects(page):
        for corner_x in (x, x + w):
            assert min(abs(corner_x - v) for v in vertical) <= TOL
        for corner_y in (y, y + h):
            assert min(abs(corner_y - v) for v in horizontal) <= TOL
    for _, p1, p2 in lines:     # marks stay out of the printer margin
        for p in (p1, p2):
            assert 5 - TOL <= p.x / MM <= 205 + TOL and 5 - TOL <= p.y / MM <= 292 + TOL


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_land_behind_their_fronts(built, duplex):
    doc = pymupdf.open(built("mini", "--duplex", duplex) / "mini-sheets.pdf")
    front, back = doc[0], doc[1]
    for n in range(1, 10):
        fx, fy = word_centre(front, f"front plain-{n}")
        bx, by = word_centre(back, f"back plain-{n}")
        # the label sits at a different height on each side, so compare the card it is on:
        if duplex == "long":
            assert bx == pytest.approx(210 - fx, abs=1.0)
        else:
            card_top = next(y for x, y, w, h in green_rects(front) if x <= fx <= x + w and y <= fy <= y + h)
            back_card_top = 297 - (card_top + 88)
            assert back_card_top <= by <= back_card_top + 88


def test_fold_and_glue_sheet(built):
    doc = pymupdf.open(built("mini", "--duplex", "none") / "mini-sheets.pdf")
    page = doc[0]
    fx, fy = word_centre(page, "front plain-1")
    bx, by = word_centre(page, "back plain-1")
    assert fx < 105 < bx
    # the card (turned to fit four on the half page) and its back, mirrored across the fold
    x, y, w, h = next(r for r in green_rects(page) if r[0] <= fx <= r[0] + r[2] and r[1] <= fy <= r[1] + r[3])
    assert 210 - x - w <= bx <= 210 - x and y <= by <= y + h


def test_board_pieces_cover_the_board_with_overlap(built):
    doc = pymupdf.open(built("mini") / "mini-board.pdf")
    assert len(doc) == 4
    yellow = (255, 238, 136)
    coverage = []
    for page in doc:
        pix = page.get_pixmap(dpi=25)
        px_per_mm = 25 / 25.4
        # the board colour shows inside the piece window only
        painted = [(x, y) for y in range(pix.height) for x in range(pix.width)
                   if all(abs(a - b) <= 12 for a, b in zip(pix.pixel(x, y), yellow))]
        xs, ys = [p[0] for p in painted], [p[1] for p in painted]
        width_mm = (max(xs) - min(xs) + 1) / px_per_mm
        height_mm = (max(ys) - min(ys) + 1) / px_per_mm
        coverage.append((width_mm, height_mm))
        assert "overlap 10 mm" in page.get_text()
    # two columns of pieces cover 306 mm with one 10 mm overlap; two rows cover 406 mm
    assert coverage[0][0] + coverage[1][0] == pytest.approx(306 + 10, abs=4)
    assert coverage[0][1] + coverage[2][1] == pytest.approx(406 + 10, abs=4)


@pytest.mark.slow
def test_rebuild_is_byte_identical(built, tmp_path):
    from conftest import run_cli
    first = built("royal-dukes")
    code, _, err = run_cli("build", "royal-dukes", "--out", tmp_path, "--quiet")
    assert code == 0, err
    for path in list(pdfs(first)) + [first / "build.json"]:
        assert (tmp_path / "royal-dukes" / path.name).read_bytes() == path.read_bytes(), path.name


def test_manifest_strings_render_as_text(built):
    text = "".join(page.get_text() for page in pymupdf.open(built("mini") / "mini-sheets.pdf"))
    assert "</text><script>&]]>" in text
    assert "Fish & chips <b>" in text


def test_counters_look_right_when_rasterized(built):
    """The first counter: parchment inside, the owner's red round the edge, a dark number."""
    doc = pymupdf.open(built("royal-dukes") / "royal-dukes-sheets.pdf")
    page = next(p for p in doc if "Monk" in p.get_text())
    hit = page.search_for("Monk")[0]
    pix = page.get_pixmap(dpi=150, clip=pymupdf.Rect(hit.x0 - 40, hit.y0 - 30, hit.x1 + 40, hit.y1 + 60))
    pixels = [pix.pixel(x, y) for y in range(pix.height) for x in range(pix.width)]
    parchment = sum(1 for p in pixels if abs(p[0] - 0xf4) < 8 and abs(p[1] - 0xec) < 8 and abs(p[2] - 0xd8) < 8)
    red = sum(1 for p in pixels if abs(p[0] - 0xa4) < 10 and abs(p[1] - 0x26) < 10 and abs(p[2] - 0x2c) < 10)
    dark = sum(1 for p in pixels if sum(p) < 150)
    assert parchment > 0.2 * len(pixels)
    assert red > 0.1 * len(pixels)
    assert dark > 50


def test_build_json_lists_items_and_files(built):
    data = load_build_json(built("royal-dukes"))
    totals = {}
    for item in data["items"]:
        totals[item["group"]] = totals.get(item["group"], 0) + item["copies"]
        assert {"id", "group", "kind", "shape", "copies", "width_mm", "height_mm", "sides"} <= set(item)
    assert totals["counters"] == 180 and totals["settlements"] == 20 and totals["board"] == 1
    counter = next(i for i in data["items"] if i["id"] == "monk-1-red")
    assert (counter["kind"], counter["shape"], counter["sides"]) == ("chit", "hexagon", 2)
    assert counter["width_mm"] == pytest.approx(21)
    roles = {f["role"] for f in data["files"]}
    assert roles == {"sheets", "board", "map", "handout"}
    for f in data["files"]:
        if f["path"].endswith(".pdf"):
            assert len(pymupdf.open(built("royal-dukes") / f["path"])) == f["pages"]


def test_pdf_metadata_names_the_game(built):
    doc = pymupdf.open(built("royal-dukes") / "royal-dukes-sheets.pdf")
    assert "Royal Dukes" in doc.metadata["title"]


def test_print_shop_pages_have_trim_and_bleed_boxes(built):
    doc = pymupdf.open(built("mini", "--paper", "face") / "mini-sheets.pdf")
    assert len(doc) == 24                       # 12 cards, front then back
    for page in doc:
        assert page.rect.width / MM == pytest.approx(63 + 6, abs=TOL)
        assert page.rect.height / MM == pytest.approx(88 + 6, abs=TOL)
        trim, bleed = page.trimbox, page.bleedbox
        assert trim.x0 / MM == pytest.approx(3, abs=TOL) and trim.width / MM == pytest.approx(63, abs=TOL)
        assert trim.height / MM == pytest.approx(88, abs=TOL)
        assert bleed.width / MM == pytest.approx(69, abs=TOL) and bleed.height / MM == pytest.approx(94, abs=TOL)
    assert "front plain-1" in doc[0].get_text() and "back plain-1" in doc[1].get_text()


@pytest.mark.slow
def test_bleed_option_changes_the_output(built):
    """--bleed 0 puts abutting cards with no art past the trim: the red bleed colour is gone."""
    def red_pixels(folder):
        pix = pymupdf.open(folder / "mini-sheets.pdf")[0].get_pixmap(dpi=30)
        return sum(1 for y in range(pix.height) for x in range(pix.width) if pix.pixel(x, y) == (255, 0, 0))
    assert red_pixels(built("mini")) > 100
    assert red_pixels(built("mini", "--bleed", "0")) == 0


def test_text_line_shrinks_instead_of_wrapping(tmp_path):
    """A title too wide for its line is set smaller on that one line, never broken in two."""
    import shutil
    from conftest import run_cli, FIXTURES
    pack = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", pack)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: Plain,", "title: Extraordinarily Long Title Of Legends,"))
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err
    page = pymupdf.open(tmp_path / "out" / "mini" / "mini-sheets.pdf")[0]
    hits = page.search_for("Extraordinarily Long Title Of Legends")
    assert len(hits) == 9, "the title was broken over two lines"      # one whole line per card
    assert all(h.height / MM < 5 and h.width / MM <= 53 + TOL for h in hits)


@pytest.mark.slow
def test_every_page_of_a_two_worker_build_keeps_its_faces(tmp_path):
    """A build of many pages is drawn in two chunks and merged; each page, shared backs included,
    must still show its faces (cairo's repeated resource entries once made qpdf drop them)."""
    import sys
    from conftest import run_cli
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_cards
    pack = bench_cards.write_pack(tmp_path, bench_cards.make_cards(160))      # 18 pages: 2 chunks
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err
    doc = pymupdf.open(tmp_path / "out" / "bench-deck" / "bench-deck-sheets.pdf")
    assert len(doc) == 36
    band = (0x35, 0x58, 0x6e)
    for number, page in enumerate(doc):
        pix = page.get_pixmap(dpi=12)
        coloured = sum(1 for y in range(pix.height) for x in range(pix.width)
                       if all(abs(a - b) < 10 for a, b in zip(pix.pixel(x, y), band)))
        assert coloured > 20, f"page {number + 1} lost its faces"
        if number % 2 == 0:
            assert "Action" in page.get_text() or "Event" in page.get_text() or "Item" in page.get_text()


def test_a_build_over_the_output_byte_limit_is_refused_and_writes_nothing(tmp_path, monkeypatch):
    from conftest import copy_pack
    from generator import build as build_module
    from generator.build import BuildRequest, build
    from generator.errors import BuildError
    pack = copy_pack("mini", tmp_path)
    monkeypatch.setattr(build_module, "MAX_OUTPUT_BYTES", 20_000)
    with pytest.raises(BuildError, match=r"mini: the build's files come to [\d,]+ bytes, over the limit of 20,000 bytes"):
        build(pack, BuildRequest(out_dir=tmp_path / "out"))
    assert not (tmp_path / "out" / "mini").exists()
