"""The five packs as a player meets them, judged by class over every page of every PDF a build
writes (sheets, boards, map, handout) on A4 and on Letter, read back with PyMuPDF:

- no text under 6 pt;
- nothing printed that is a missing value ("None", "Tier ?"), a template's braces or a field name;
- no two seat colours, and no seat's piece and another piece of the same size and shape, closer
  than MIN_DELTA_E (CIEDE2000);
- every tile the map legend names is drawn on the map, and every tile drawn is in the legend;
- a handout table is never split across a page or a column, nor a lead-in from its list, and
  no handout text but the page's foot is under 9.5 pt;
- no two texts of a map overlap;
- no front or one-sided page of the sheets is near empty.
"""
from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import numpy
import pymupdf
import pytest
import yaml

from conftest import ROOT
from generator.manifest import load_pack
from generator.maps.render import png_bytes
from generator.render import FaceRenderer, expand_faces

PACKS = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
PAPERS = ("a4", "letter")
MIN_PT = 6.0
# CIEDE2000 rather than CIE76: CIE76 overstates differences between saturated colours (yellows,
# blues) and understates them between darks, where players confuse pieces most. 15 is about six
# times the just-noticeable difference (2.3): home printers and papers shift a colour by up to
# 5-8, so two colours 15 apart stay clearly apart however each is printed. The packs' seat colours
# are 21 or more apart; the clashes the playtest found were 0 (Revolt token and Red) to 9.
MIN_DELTA_E = 15.0


def spans(page):
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if span["text"].strip():
                    yield span


@pytest.fixture(scope="module", params=PAPERS)
def builds(request, built):
    return request.param, {pack: built(pack, "--paper", request.param) for pack in PACKS}


def pdfs(folder: Path):
    return sorted(folder.glob("*.pdf"))


@pytest.mark.slow
def test_no_text_under_6_pt_on_any_page(builds):
    paper, folders = builds
    small = []
    for pack, folder in folders.items():
        for pdf in pdfs(folder):
            for number, page in enumerate(pymupdf.open(pdf), 1):
                small += [f"{pdf.name} p{number}: {s['size']:.2f} pt '{s['text'].strip()[:30]}'"
                          for s in spans(page) if s["size"] < MIN_PT - 0.02]
    assert not small, f"{paper}: {len(small)} spans under {MIN_PT} pt:\n" + "\n".join(small[:40])


@pytest.mark.slow
def test_no_text_under_6_pt_with_a_version_and_new_marks(tmp_path):
    """A pack built with a version and --changes-since carries NEW on what changed: NEW prints at
    6 pt or more like every other text; the version itself is the one small mark (1.4 mm, about
    4 pt, by default: a build identifier for the designer, docs/manifests.md)."""
    from conftest import copy_pack, run_cli
    pack = copy_pack("royal-dukes", tmp_path)
    code, _, err = run_cli("build", pack, "--out", tmp_path / "old", "--quiet", "--version", "v1")
    assert code == 0, err
    settlements = pack / "settlements.yaml"
    settlements.write_text(settlements.read_text().replace("name: Village,", "name: Hamlet,"))
    code, _, err = run_cli("build", pack, "--out", tmp_path / "new", "--quiet", "--version", "v2",
                           "--changes-since", tmp_path / "old" / "royal-dukes")
    assert code == 0, err
    small, new = [], 0
    for pdf in pdfs(tmp_path / "new" / "royal-dukes"):
        for number, page in enumerate(pymupdf.open(pdf), 1):
            for s in spans(page):
                new += s["text"].strip() == "NEW"
                if s["size"] < MIN_PT - 0.02 and s["text"].strip() != "v2":
                    small.append(f"{pdf.name} p{number}: {s['size']:.2f} pt '{s['text'].strip()[:30]}'")
    assert new >= 6, f"{new} NEW marks printed (6 Village chits changed, on the sheets and in the changes PDF)"
    assert not small, "\n".join(small[:40])


# --- nothing printed that a player would read as a missing value -----------------------------

# "None" (or null, nan) alone or after a word ("Player None"); not "None open: ..." opening a sentence
MISSING = re.compile(r"(^|\w[ :]+)(None|null|nan|NaN|undefined)$|(\w[ :]+)(None|null|NaN|undefined)\b"
                     r"|\{\{|\}\}|\{[a-z_]+\}")
# A '?' ends a question (after a letter, a closing quote or bracket) or stands alone as a symbol
# the pack's rulebook uses (Lords of Doomspire marks adventure tiers with 1-3 question marks); a
# '?' after a word and a space ("Tier ?", "Player ?") is a value that was never filled in.
LOOSE_QUESTION_MARK = re.compile(r"[A-Za-z]+:? \?+(?![?\w])")
# On a handout or a map, read as prose, every '?' ends a question: a symbol such as Doomspire's
# tier marks is drawn as a sign there, for "(?, ??, ???)" in a sentence reads as missing text.
NOT_A_QUESTION = re.compile(r"(?<![A-Za-z'\"\u2019)\]])\?|\?(?=[?\w])")


def read_as_prose(pdf: Path) -> bool:
    return pdf.name.endswith("-handout.pdf") or "-map" in pdf.name


def field_names(pack: str) -> set[str]:
    """Field names of the pack's groups that a reader would never write: those with an
    underscore (a lone word like 'cost' may well be printed on purpose)."""
    game = load_pack(ROOT / "components" / pack)
    names = set()
    for group in game.groups:
        for item in group.items:
            names |= {key for key in item.data if "_" in key}
    return names


@pytest.mark.slow
def test_nothing_printed_is_a_missing_value_or_a_field_name(builds):
    paper, folders = builds
    found = []
    for pack, folder in folders.items():
        names = field_names(pack)
        for pdf in pdfs(folder):
            for number, page in enumerate(pymupdf.open(pdf), 1):
                lines = [" ".join(s["text"] for s in line["spans"]).strip()
                         for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])]
                for text in filter(None, lines):
                    words = set(re.findall(r"[a-z0-9_]+", text))
                    loose = (NOT_A_QUESTION if read_as_prose(pdf) else LOOSE_QUESTION_MARK).search(text)
                    if MISSING.search(text) or loose or words & names:
                        found.append(f"{pdf.name} p{number}: '{text[:60]}'")
    assert not found, f"{paper}:\n" + "\n".join(found[:40])


def test_the_missing_value_rules_catch_what_they_are_for():
    assert LOOSE_QUESTION_MARK.search("Tier ?") and LOOSE_QUESTION_MARK.search("face down · Tier ??")
    assert not LOOSE_QUESTION_MARK.search("How many farms does the Arbiter own?")
    assert not LOOSE_QUESTION_MARK.search("one deck per tier (?, ??, ???)")
    assert NOT_A_QUESTION.search("one deck per tier (?, ??, ???)") and NOT_A_QUESTION.search("Tier ?")
    assert NOT_A_QUESTION.search("marks ?? here") and NOT_A_QUESTION.search("what?no")
    assert not NOT_A_QUESTION.search("Lost your last knight? Keep your castle die")
    assert not NOT_A_QUESTION.search('Who said "why?" and (really?)')
    assert MISSING.search("Home / Player None") and MISSING.search("{owner}")
    assert not MISSING.search("None open: nobody moves")            # a sentence, not a value
    assert not MISSING.search("Nonesuch")


# --- colours ---------------------------------------------------------------------------------

def lab(rgb) -> tuple[float, float, float]:
    """sRGB 0-255 -> CIELAB (D65)."""
    c = numpy.array(rgb, dtype=float) / 255
    c = numpy.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    xyz = numpy.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                       [0.0193339, 0.1191920, 0.9503041]]) @ c / numpy.array([0.95047, 1.0, 1.08883])
    f = numpy.where(xyz > 216 / 24389, numpy.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e_2000(lab1, lab2) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 if abs(h2 - h1) <= 180 else h2 - h1 - 360 if h2 > h1 else h2 - h1 + 360)
    dl, dc, dhh = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    rc = 2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    rt = -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def test_delta_e_2000_matches_the_published_test_data():
    # pairs 1, 7 and 17 of Sharma, Wu and Dalal's table
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e_2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def hex_rgb(colour: str):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def face_colour(renderer, face) -> tuple[int, int, int]:
    """The colour a player sees a piece as: the largest area of one colour in the middle of the
    face (its outer fifth holds frames and rings), paper, white and black left out where another
    colour covers at least 8 % of it."""
    group = face.group
    dpi = max(40, 80 * 25.4 / min(group.width, group.height))
    pix = pymupdf.Pixmap(png_bytes(renderer.svg(face), group.width, group.height, dpi))
    image = numpy.frombuffer(pix.samples, dtype=numpy.uint8).reshape(pix.height, pix.width, pix.n)[..., :3]
    h, w = image.shape[:2]
    core = image[h // 5:h - h // 5, w // 5:w - w // 5].reshape(-1, 3).astype(int)
    bins = (core // 24) @ numpy.array([10000, 100, 1])
    values, counts = numpy.unique(bins, return_counts=True)
    means = [core[bins == values[k]].mean(axis=0) for k in counts.argsort()[::-1]]
    shares = sorted(counts, reverse=True)
    for mean, count in zip(means, shares):
        neutral = mean.max() - mean.min() < 18 and (mean.min() > 200 or mean.max() < 60)
        if not neutral and count / len(bins) >= 0.08:
            return tuple(int(v) for v in mean)
    return tuple(int(v) for v in means[0])


def pieces(game):
    """{(kind, shape, width, height): [(group, item kind, seat or None, face)]}: one face of each
    item of every chit, standee and per-player group, by the size and shape a player sees."""
    out: dict = {}
    for group in game.groups:
        fronts, _ = expand_faces(group)
        seen = set()
        for face in fronts:
            if face.item.id in seen:
                continue
            seen.add(face.item.id)
            seat = face.item.player.id if face.item.player else None
            if group.kind == "chit" or "standee" in group.id or seat:
                kind = face.item.id.rsplit("-" + seat, 1)[0] if seat else face.item.id
                key = (group.kind, group.shape, round(group.width), round(group.height))
                out.setdefault(key, []).append((group.id, kind, seat, face))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("pack", PACKS)
def test_seat_and_piece_colours_stay_apart(pack):
    game = load_pack(ROOT / "components" / pack)
    close = [f"seats {a.name} {a.color} and {b.name} {b.color}: {d:.1f}"
             for a, b in itertools.combinations(game.players, 2)
             if (d := delta_e_2000(lab(hex_rgb(a.color)), lab(hex_rgb(b.color)))) < MIN_DELTA_E]
    renderer = FaceRenderer(game, 0.0)
    for shape, faces in pieces(game).items():
        colours = {id(face): face_colour(renderer, face) for *_, face in faces}
        reported = set()
        for (ga, ka, sa, fa), (gb, kb, sb, fb) in itertools.combinations(faces, 2):
            if not (sa or sb):
                continue                          # unowned pieces: told apart by what they print
            d = delta_e_2000(lab(colours[id(fa)]), lab(colours[id(fb)]))
            if sa and sb and (sa == sb or d < 1):
                continue    # one seat's own pieces, or a piece every seat has alike (its seat mark: test_told_apart)
            key = tuple(sorted([(ga, sa or ka), (gb, sb or kb)]))
            if d < MIN_DELTA_E and key not in reported:
                reported.add(key)
                close.append(f"{shape[1]} {shape[2]}x{shape[3]} mm: {ga}/{fa.item.id} {colours[id(fa)]} and "
                             f"{gb}/{fb.item.id} {colours[id(fb)]}: {d:.1f}")
    assert not close, f"CIEDE2000 under {MIN_DELTA_E}:\n" + "\n".join(close[:30])


# --- maps ------------------------------------------------------------------------------------

def tile_names(pack: str) -> set[str]:
    look = yaml.safe_load((ROOT / "components" / pack / "map.yaml").read_text()).get("look", {})
    names = set()
    for style in list(look.get("cells", {}).values()) + [
            v for k, v in look.get("face_down", {}).items() if isinstance(v, dict)]:
        names |= {style.get("name"), style.get("legend")}
        names |= {v.get(k) for v in style.get("variants", {}).values() for k in ("name", "legend")}
    return names - {None}


DRAWN_MAPS = [p for p in PACKS if not yaml.safe_load((ROOT / "components" / p / "map.yaml").read_text())
              .get("look", {}).get("template")]


@pytest.mark.slow
@pytest.mark.parametrize("pack", DRAWN_MAPS)
def test_every_legend_entry_is_drawn_on_the_map_and_every_tile_drawn_is_in_the_legend(pack, built):
    page = pymupdf.open(built(pack) / f"{pack}-map.pdf")[0]
    look = yaml.safe_load((ROOT / "components" / pack / "map.yaml").read_text())["look"]
    words = page.get_text("words")
    heading = next(w for w in words if w[4] == "Tiles")
    turned = page.get_text("dict")["blocks"][0]["lines"][0]["dir"][1] != 0
    # the legend starts at the heading's row (its entries run on beside it)
    below = (lambda b: b[0] > heading[0] - 1) if turned else (lambda b: b[1] > heading[1] - 1)
    board, legend = set(), set()
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = " ".join(s["text"] for s in line["spans"]).strip()
            (legend if below(line["bbox"]) else board).add(text)
    names = tile_names(pack)
    styles = list(look.get("cells", {}).values()) + [
        v for v in look.get("face_down", {}).values() if isinstance(v, dict)]
    styles += [{**s, **v} for s in list(styles) for v in s.get("variants", {}).values()]
    drawn = {(s["name"], s.get("legend", s["name"])) for s in styles if s.get("name") in board}
    assert drawn, "no tile names on the map"
    missing = [name for name, entry in drawn if entry not in legend]
    assert not missing, f"drawn but not in the legend: {missing}"
    extra = [entry for entry in legend & names
             if not any(entry == e for _, e in drawn) and entry not in board]
    assert not extra, f"in the legend but not drawn: {extra}"


# --- handouts --------------------------------------------------------------------------------

HANDOUT_MIN_PT = 9.5         # body and tables alike (docs/handouts.md); only the page's foot line is smaller


@pytest.mark.slow
def test_no_handout_text_but_the_page_foot_is_under_9_5_pt(builds):
    """Tables are read at the same arm's length as the body: no cell, heading or line of a
    handout is under 9.5 pt. The foot line (game, version, page number) is the one exception."""
    paper, folders = builds
    small = []
    for pack, folder in folders.items():
        for number, page in enumerate(pymupdf.open(folder / f"{pack}-handout.pdf"), 1):
            foot = page.rect.height - 12 * 72 / 25.4
            small += [f"{pack} p{number}: {s['size']:.2f} pt '{s['text'].strip()[:30]}'"
                      for s in spans(page) if s["size"] < HANDOUT_MIN_PT - 0.02 and s["bbox"][1] < foot]
    assert not small, f"{paper}: {len(small)} handout spans under {HANDOUT_MIN_PT} pt:\n" + "\n".join(small[:40])


@pytest.mark.slow
def test_no_handout_word_is_broken_across_lines(builds):
    """A table column too narrow for a word breaks it with a hyphen ('Monst-er', 'Valu-es'):
    legal for a designer's own pack, but the five packs' columns are wide enough for every word
    they hold at 9.5 pt. A word ending in '-' that the handout.yaml never wrote is a broken one."""
    paper, folders = builds
    broken = []
    for pack, folder in folders.items():
        written = (ROOT / "components" / pack / "handout.yaml").read_text()
        for number, page in enumerate(pymupdf.open(folder / f"{pack}-handout.pdf"), 1):
            broken += [f"{pack} p{number}: {w[4]!r}" for w in page.get_text("words")
                       if w[4].endswith("-") and len(w[4]) > 2 and w[4] not in written]
    assert not broken, f"{paper}:\n" + "\n".join(broken)


@pytest.mark.slow
def test_no_handout_line_starts_with_punctuation(builds):
    """reportlab may break a line at either side of an inline icon, space or not: an icon set
    against punctuation (':gold:,' or '(:tiers:)') can leave ',' or ')' opening the next line.
    The packs' handouts keep a space on both sides of every icon, so no line opens that way."""
    paper, folders = builds
    opening = []
    for pack, folder in folders.items():
        for number, page in enumerate(pymupdf.open(folder / f"{pack}-handout.pdf"), 1):
            blocks = page.get_text("dict")["blocks"]
            icons = [b["bbox"] for b in blocks if b["type"] == 1]
            for line in (line for b in blocks for line in b.get("lines", [])):
                text = "".join(s["text"] for s in line["spans"]).strip()
                x0, y0, _, y1 = line["bbox"]
                # PyMuPDF starts a new text line after each icon: that is no line start
                after_icon = any(abs(b[2] - x0) < 2.5 and b[1] < y1 and y0 < b[3] for b in icons)
                if text[:1] in tuple(",.;:)]") and not after_icon:
                    opening.append(f"{pack} p{number}: {text[:40]!r}")
    assert not opening, f"{paper}:\n" + "\n".join(opening)


def table_headers(page, accent: str) -> int:
    """How many table header rows a handout page shows: bands filled in the handout's accent
    colour no taller than a few lines (the title band is taller)."""
    want = tuple(int(accent[i:i + 2], 16) for i in (1, 3, 5))
    return sum(1 for d in page.get_drawings() if d.get("fill") and d["rect"].height < 12 * 72 / 25.4
               and all(abs(round(c * 255) - w) <= 2 for c, w in zip(d["fill"], want)))


@pytest.mark.slow
@pytest.mark.parametrize("paper", PAPERS)
def test_a_handout_table_is_never_split_across_a_page_or_a_column(paper, built):
    """reportlab repeats a table's header where it continues it, so a split table shows its
    header twice: the header rows printed must be exactly the tables written."""
    for pack in PACKS:
        written = yaml.safe_load((ROOT / "components" / pack / "handout.yaml").read_text())
        tables = sum(1 for s in written["sections"] for b in s["blocks"] if "table" in b)
        doc = pymupdf.open(built(pack, "--paper", paper) / f"{pack}-handout.pdf")
        printed = sum(table_headers(page, written.get("accent", "#37474f")) for page in doc)
        assert printed == tables, f"{pack} on {paper}: {tables} tables, {printed} header rows printed"


def ink_boxes(page):
    """(x0, y0, x1, y1, text) of each text run's ink: cap height above the baseline to the
    descenders below it (a line box's leading would make stacked lines 'overlap')."""
    for span in spans(page):
        x, y = span["origin"]
        yield span["bbox"][0], y - 0.72 * span["size"], span["bbox"][2], y + 0.21 * span["size"], span["text"]


@pytest.mark.slow
@pytest.mark.parametrize("pack", PACKS)
def test_no_two_texts_on_a_map_overlap(pack, tmp_path):
    """At the fewest and the most players, on A4 and Letter, no text of the map covers another:
    where the map prints small and its text must grow to stay 6 pt, the rows of a cell move apart
    (and its icon goes) rather than print over each other."""
    from conftest import run_cli
    players = yaml.safe_load((ROOT / "components" / pack / "game.yaml").read_text())["players"]
    overlaps = []
    for paper in PAPERS:
        for n in sorted({players["min"], players["max"]}):
            out = tmp_path / f"{paper}-{n}"
            code, _, err = run_cli("map", pack, "--players", n, "--seed", 1, "--format", "pdf",
                                   "--paper", paper, "--out", out)
            assert code == 0, err
            for pdf in out.rglob("*.pdf"):
                for page in pymupdf.open(pdf):
                    boxes = sorted(ink_boxes(page))
                    for i, a in enumerate(boxes):
                        for b in boxes[i + 1:]:
                            if b[0] >= a[2] - 0.3:
                                break
                            if min(a[2], b[2]) - max(a[0], b[0]) > 0.3 and min(a[3], b[3]) - max(a[1], b[1]) > 0.3:
                                overlaps.append(f"{pdf.name}: {a[4]!r} / {b[4]!r}")
    assert not overlaps, "\n".join(overlaps[:20])


@pytest.mark.slow
@pytest.mark.parametrize("paper", PAPERS)
def test_a_handout_column_never_ends_on_a_lead_in(paper, built):
    """A sentence ending in ':' ("resolve in this order:") is read with the list or table it
    leads into: it never ends a column or a page, the list starting at the top of the next."""
    band = 22 / 25.4 * 72                      # the title band and its subtitle
    for pack in PACKS:
        count = yaml.safe_load((ROOT / "components" / pack / "handout.yaml").read_text()).get("columns", 3)
        doc = pymupdf.open(built(pack, "--paper", paper) / f"{pack}-handout.pdf")
        reading = []                            # every column of both pages, in reading order
        for page in doc:
            lines = [(line["bbox"], "".join(s["text"] for s in line["spans"]).strip())
                     for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])]
            lines = [(box, text) for box, text in lines if text and band < box[1] and box[3] < page.rect.height * 0.95]
            # the page's columns side by side between its margins (the leftmost text's x); a line
            # belongs to the column its start is in
            left = min(box[0] for box, _ in lines)
            width = (page.rect.width - 2 * left) / count
            columns: dict = {}
            for box, text in lines:
                columns.setdefault(int((box[0] - left + 2) // width), []).append((box[3], text))
            reading += [(page.number + 1, sorted(columns[key])) for key in sorted(columns)]
        for (page, column), (_, following) in zip(reading, reading[1:]):
            last, first = column[-1][1], following[0][1]
            # a sentence running on into the next column ("... Green 2: each type ...") is no lead-in
            assert not (last.endswith(":") and not first[:1].islower()), \
                f"{pack} on {paper}, page {page}: a column ends on {last!r}, the next begins {first!r}"


# --- sheets ----------------------------------------------------------------------------------

@pytest.mark.slow
def test_no_sheet_is_near_empty(builds):
    """Every front and one-sided page of every pack's sheets is at least 15 % covered: small
    pieces that overflow a sheet by a few (Dragon Towers' six damage tokens, Doomspire's thirteen
    adventure tokens, each alone on a page at 5-8 %) are packed onto the sheets before. Backs are
    not judged: a sheet mixing one- and two-sided pieces has a sparse back by nature."""
    paper, folders = builds
    sparse = []
    for pack, folder in folders.items():
        sheets = next(f for f in json.loads((folder / "build.json").read_text())["files"] if f["role"] == "sheets")
        doc = pymupdf.open(folder / sheets["path"])
        for page in (entry for entry in sheets["layout"] if entry["side"] in ("front", "one-sided")):
            pix = doc[page["page"] - 1].get_pixmap(dpi=20)
            rgb = numpy.frombuffer(pix.samples, dtype=numpy.uint8).reshape(pix.height, pix.width, pix.n)
            covered = float((rgb.min(axis=2) < 235).mean())
            if covered < 0.15:
                sparse.append(f"{pack} on {paper}, page {page['page']} ({', '.join(page['groups'])}): {covered:.0%}")
    assert not sparse, "\n".join(sparse)
