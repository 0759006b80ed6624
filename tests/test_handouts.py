"""Handouts: every game's handout builds on one sheet (2 pages), sets its body at 9.5 pt or
more (tables 1 pt less but never under 9.5 pt), embeds only our fonts, has every required section, and shows manifest values."""
import re

import pymupdf
import pytest
import yaml

from conftest import ROOT, copy_pack, run_cli
from test_pdf_output import our_font_names

HANDOUTS = sorted(p.parent.name for p in (ROOT / "components").glob("*/handout.yaml"))
REQUIRED = {     # section -> words one of the headings must contain
    "goal": r"goal|win|object|aim",
    "setup": r"set.?up",
    "turn": r"turn|round|phase",
    "actions": r"action|cost|build|buy|recruit|decree",
    "conflict": r"combat|battle|conflict|control|fight|challenge|dispute",
    "scoring": r"scor|rank|victory|renown|end",
    "legend": r"symbol|legend|icon",
    "house calls": r"house call",
}


@pytest.fixture(scope="module")
def handouts(tmp_path_factory):
    out = tmp_path_factory.mktemp("handouts")
    built = {}
    for game in HANDOUTS:
        code, stdout, err = run_cli("handout", game, "--out", out)
        assert code == 0, err
        built[game] = out / game / f"{game}-handout.pdf"
    return built


@pytest.mark.slow
@pytest.mark.parametrize("game", HANDOUTS)
def test_handout_fits_on_letter_too(game, tmp_path):
    code, stdout, err = run_cli("handout", game, "--paper", "letter", "--out", tmp_path)
    assert code == 0, err
    doc = pymupdf.open(tmp_path / game / f"{game}-handout.pdf")
    assert len(doc) <= 2 and doc[0].rect.height / 72 * 25.4 == pytest.approx(279.4, abs=0.1)


def test_the_five_games_have_handouts():
    assert set(HANDOUTS) >= {"royal-dukes", "shires", "lords-of-doomspire", "dragon-towers", "cones-of-dunshire"}


@pytest.mark.slow
@pytest.mark.parametrize("game", HANDOUTS)
def test_handout_fits_one_sheet_with_readable_type(handouts, game):
    doc = pymupdf.open(handouts[game])
    assert 1 <= len(doc) <= 2
    sizes = [span["size"] for page in doc for block in page.get_text("dict")["blocks"]
             for line in block.get("lines", []) for span in line["spans"] if span["text"].strip()]
    body = max(set(sizes), key=sizes.count)           # the size most text is set in
    assert body >= 9.5 - 0.01, f"body text at {body} pt"
    assert min(sizes) >= 8.5 - 0.01                      # the page foot; all else: test_packs_as_printed
    ours = our_font_names()
    for page in doc:
        for xref, ext, kind, basefont, *_ in page.get_fonts(full=True):
            assert ext != "n/a" and basefont.split("+")[-1] in ours, basefont


@pytest.mark.parametrize("game", HANDOUTS)
def test_handout_has_every_required_section(handouts, game):
    headings = [s["heading"] for s in yaml.safe_load((ROOT / "components" / game / "handout.yaml").read_text())["sections"]]
    text = " ".join(page.get_text() for page in pymupdf.open(handouts[game]))
    for heading in headings:
        assert " ".join(heading.split()[:2]) in " ".join(text.split()), heading
    for name, pattern in REQUIRED.items():
        assert any(re.search(pattern, h, re.I) for h in headings), f"{game}: no section for {name} in {headings}"


def test_royal_dukes_handout_shows_the_manifest_values(handouts):
    text = " ".join(" ".join(page.get_text().split()) for page in pymupdf.open(handouts["royal-dukes"]))
    settlements = yaml.safe_load((ROOT / "components" / "royal-dukes" / "settlements.yaml").read_text())
    for item in settlements["groups"][0]["items"]:
        assert re.search(rf"{item['name']} {item['copies']} {item['vp']}\b", text), item["name"]


@pytest.mark.slow
def test_a_changed_manifest_value_changes_the_handout(tmp_path):
    """The handout reads the manifest: edit a VP in the manifest and the handout follows."""
    import shutil
    pack = tmp_path / "royal-dukes"
    shutil.copytree(ROOT / "components" / "royal-dukes", pack)
    settlements = pack / "settlements.yaml"
    settlements.write_text(settlements.read_text().replace("{id: city, name: City, vp: 5,", "{id: city, name: City, vp: 7,"))
    code, out, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 0, err
    text = " ".join(" ".join(p.get_text().split()) for p in pymupdf.open(tmp_path / "out" / "royal-dukes" / "royal-dukes-handout.pdf"))
    assert re.search(r"City 2 7\b", text)


def test_overflow_names_the_section(tmp_path):
    pack = tmp_path / "long"
    pack.mkdir()
    words = "word " * 400
    sections = "".join(f"  - heading: Part {n}\n    blocks:\n      - text: \"{words}\"\n" for n in range(12))
    (pack / "handout.yaml").write_text("title: Long\nsections:\n" + sections)
    code, out, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in err
    assert re.search(r"handout\.yaml:\d+:\d+: handout: section 'Part \d+' does not fit on the sheet", err)
    assert not (tmp_path / "out" / "long" / "long-handout.pdf").exists()


def test_handout_text_is_escaped_and_marked_up(tmp_path):
    pack = tmp_path / "esc"
    pack.mkdir()
    (pack / "handout.yaml").write_text('title: Esc\nsections:\n  - heading: A & B\n    blocks:\n'
                                       '      - text: "Fish & <chips> **bold**"\n')
    code, out, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 0, err
    page = pymupdf.open(tmp_path / "out" / "esc" / "esc-handout.pdf")[0]
    assert "Fish & <chips> bold" in page.get_text() and "A & B" in page.get_text()
    bold = [s for b in page.get_text("dict")["blocks"] for l in b.get("lines", []) for s in l["spans"] if s["text"].strip() == "bold"]
    assert bold and "Bold" in bold[0]["font"]


@pytest.mark.slow
def test_handout_rebuild_is_byte_identical(handouts, tmp_path):
    code, out, err = run_cli("handout", "royal-dukes", "--out", tmp_path)
    assert code == 0
    assert (tmp_path / "royal-dukes" / "royal-dukes-handout.pdf").read_bytes() == handouts["royal-dukes"].read_bytes()


TOOL_WORDS = re.compile(r"pnpgen|\.yaml\b|\.json\b|--[a-z]|\bmap\.\w")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", HANDOUTS)
def test_handout_speaks_to_players_and_never_turns_the_page_mid_sentence(game, paper, tmp_path):
    """No tool names or file names; page 2 starts a sentence (a line that opens with a
    lower-case word continues one from the page before)."""
    code, stdout, err = run_cli("handout", game, "--paper", paper, "--out", tmp_path)
    assert code == 0, err
    doc = pymupdf.open(tmp_path / game / f"{game}-handout.pdf")
    for number, page in enumerate(doc, 1):
        text = page.get_text()
        assert not TOOL_WORDS.search(text), (number, TOOL_WORDS.search(text).group(0))
        width = page.rect.width
        lines = [line for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
                 if "".join(s["text"] for s in line["spans"]).strip()]
        columns = {}
        for line in lines:
            column = int(line["bbox"][0] // (width / 4))
            columns.setdefault(column, []).append(line)
        for column, members in columns.items():
            if number == 1 or column != min(columns):
                continue
            top = min(members, key=lambda line: line["bbox"][1])
            first = "".join(s["text"] for s in top["spans"]).strip()
            assert not re.match(r"(?!d\d)[a-z(]", first), (number, column, first)     # d8: a die


def test_handout_reads_groups_as_templates_do_and_dashed_ids_in_brackets(tmp_path):
    """docs/handouts.md: `groups.` as in templates, `group.` the same, a dashed id in brackets;
    the sections are the author's choice (one section, none of the built-in packs' headings)."""
    pack = copy_pack("mini", tmp_path)
    (pack / "board.yaml").write_text((pack / "board.yaml").read_text().replace("id: board\n", "id: sea-board\n"))
    (pack / "handout.yaml").write_text(
        'title: Mini\nsections:\n  - heading: Counts\n    blocks:\n'
        '      - text: "cards {{ groups.cards.total }} / {{ group.cards.total }} / boards {{ groups[\'sea-board\'].total }}'
        ' / plain {{ groups.cards[\'plain-3\'].n }}"\n')
    code, out, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 0, err
    text = " ".join(pymupdf.open(tmp_path / "out" / "mini" / "mini-handout.pdf")[0].get_text().split())
    assert "cards 12 / 12 / boards 1 / plain 3" in text, text


def _icon_handout(tmp_path, text: str):
    """Lords of Doomspire copied, with a one-section handout of `text`: its first page."""
    pack = copy_pack("lords-of-doomspire", tmp_path)
    (pack / "handout.yaml").write_text(yaml.safe_dump({"title": "Icons", "sections": [
        {"heading": "Icons", "blocks": [{"text": text}]}]}))
    code, _, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 0, err
    return pymupdf.open(tmp_path / "out" / pack.name / f"{pack.name}-handout.pdf")[0]


def test_a_line_never_starts_with_the_punctuation_set_against_an_icon(tmp_path):
    """reportlab may break a line on either side of an inline image, space or not; the handout
    keeps an icon with the ',' or ')' it touches. Run-in words of every length come before the
    icons, so many an icon meets the end of a line."""
    text = " ".join(f"{'x' * (n % 7 + 1)} {n} :tier1:, ({n} :tier2:) and" for n in range(60))
    page = _icon_handout(tmp_path, text)
    blocks = page.get_text("dict")["blocks"]
    icons = [b["bbox"] for b in blocks if b["type"] == 1]
    assert len(icons) == 120
    opening = []
    for line in (line for b in blocks for line in b.get("lines", [])):
        x0, y0, _, y1 = line["bbox"]
        # PyMuPDF starts a text line after each icon: that one is no line start
        if not any(abs(b[2] - x0) < 2.5 and b[1] < y1 and y0 < b[3] for b in icons):
            opening += [line["spans"][0]["text"]] if line["spans"][0]["text"][:1] in ",)" else []
    assert not opening, opening


def test_a_wide_icon_keeps_its_proportions(tmp_path):
    """Doomspire's tier marks are 1 to 3 signs wide: the handout draws each icon as tall as the
    text and as wide as its viewBox says, the three tiers in one sign about 4.2 times as wide."""
    page = _icon_handout(tmp_path, "One :tier1: and all :tiers: and a :food: square.")
    widths = sorted((b["bbox"][2] - b["bbox"][0]) / (b["bbox"][3] - b["bbox"][1])
                    for b in page.get_text("dict")["blocks"] if b["type"] == 1)
    assert widths == pytest.approx([1.0, 29 / 24, 100.73 / 24], abs=0.02)


def test_a_count_and_its_icon_stay_on_one_line(tmp_path):
    """'2 :wood:' is read as one thing: the icon never opens a line apart from its number."""
    text = " ".join(f"{'x' * (n % 9 + 1)} {n % 10} :tier1: and" for n in range(60))
    page = _icon_handout(tmp_path, text)
    blocks = page.get_text("dict")["blocks"]
    icons = [b["bbox"] for b in blocks if b["type"] == 1]
    spans = [s for b in blocks for line in b.get("lines", []) for s in line["spans"]]
    alone = [icon for icon in icons
             if not any(s["text"].rstrip()[-1:].isdigit() and abs(s["bbox"][2] - icon[0]) < 4
                        and s["bbox"][1] < icon[3] and icon[1] < s["bbox"][3] for s in spans)]
    assert len(icons) == 60 and not alone, f"{len(alone)} icons open a line without their number"
