"""Every glyph printed is one the font has, everywhere text is set, or the build stops naming
the text and its place; accents composed, soft hyphens honoured, templates read-only."""
import re

import pymupdf
import pytest

from conftest import copy_pack, run_cli
from generator import cli

CJK, EMOJI, HEBREW = "\u6f22\u5b57", "\U0001f600", "\u05e9\u05dc\u05d5\u05dd"


def build(pack, tmp_path, capsys):
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    return code, capsys.readouterr().err


def set_raw_text(pack, text):
    card = pack / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + f'<text x="5" y="70" font-family="Liberation Sans" font-size="3">{text}</text>')


@pytest.mark.parametrize("text,expected", [
    (CJK, "has no glyph for '\u6f22', '\u5b57' (U+6F22 CJK UNIFIED IDEOGRAPH-6F22)"),
    (EMOJI, "has no glyph for '\U0001f600' (U+1F600 GRINNING FACE)"),
])
def test_raw_text_a_font_cannot_print_stops_the_build(tmp_path, capsys, text, expected):
    pack = copy_pack("mini", tmp_path)
    set_raw_text(pack, text)
    code, err = build(pack, tmp_path, capsys)
    assert code == 1 and "Traceback" not in err
    assert re.search(r"cards\.yaml:\d+:\d+: group 'cards', item 'plain-1' \(front\): template card\.svg\.j2: <text>: text", err) and "Liberation Sans" in err and expected in err, err
    assert not (tmp_path / "out" / "mini").exists()


def test_helpers_refuse_the_same(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text().replace("title: Plain", f'title: "{CJK}"'))
    code, err = build(pack, tmp_path, capsys)
    assert code == 1 and "item 'plain-1' (front)" in err and "has no glyph" in err, err


def glyph_lines(pdf, alphabet):
    """Each line of the first page holding a character of `alphabet`: its characters as they
    stand on the page from left to right, with their boxes."""
    lines = []
    for block in pymupdf.open(pdf)[0].get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            chars = sorted((c for span in line["spans"] for c in span["chars"]), key=lambda c: c["origin"][0])
            if any(c["c"] in alphabet for c in chars):
                lines.append(chars)
    return lines


def test_hebrew_prints_right_to_left_in_raw_text_and_helpers(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    set_raw_text(pack, f"{HEBREW} 12")
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace('body: "A :star: card."', f'body: "{HEBREW} :star: 7"'))
    code, err = build(pack, tmp_path, capsys)
    assert code == 0, err
    seen = ["".join(c["c"] for c in chars) for chars in glyph_lines(tmp_path / "out" / "mini" / "mini-sheets.pdf", HEBREW)]
    # on the page, left to right: the word's last letter first (it reads from the right), the
    # number after a Hebrew word stays left of it, written left to right
    assert f"12 {HEBREW[::-1]}" in seen, seen
    assert f"7 {HEBREW[::-1]}" in seen or f"7{HEBREW[::-1]}" in seen, seen     # the icon between: no text


def test_a_combining_mark_without_a_composed_form_sits_on_its_letter(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    set_raw_text(pack, "q\u0301q")
    code, err = build(pack, tmp_path, capsys)
    assert code == 0, err
    chars = next(line for line in glyph_lines(tmp_path / "out" / "mini" / "mini-sheets.pdf", "\u0301")
                 if any(c["c"] == "q" for c in line))
    q1, q2 = [c for c in chars if c["c"] == "q"][:2]
    mark = next(c for c in chars if c["c"] == "\u0301")
    assert q1["bbox"][0] <= (mark["bbox"][0] + mark["bbox"][2]) / 2 <= q1["bbox"][2], "over the first q"
    assert q2["origin"][0] >= q1["bbox"][2] - 0.2, "the mark takes no room of its own"


def test_right_to_left_where_nothing_shapes_it_is_refused(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    card = pack / "templates" / "card.svg.j2"       # per-glyph x positions: drawn by cairosvg
    card.write_text(card.read_text() + f'<text x="5 8" y="70" font-family="Liberation Sans" font-size="3">{HEBREW}</text>')
    code, err = build(pack, tmp_path, capsys)
    assert code == 1 and "right-to-left text (U+05E9 HEBREW LETTER SHIN) cannot be set here" in err, err


def test_a_board_name_the_label_font_cannot_print_is_refused(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    board = pack / "board.yaml"
    board.write_text(board.read_text().replace("kind: mat", f"name: Board {CJK}\n    kind: mat"))
    code, err = build(pack, tmp_path, capsys)
    assert code == 1 and "page label: text" in err and "has no glyph" in err, err


def page_text(pdf, number=0):
    return pymupdf.open(pdf)[number].get_text()


def test_accents_written_as_combining_marks_print_composed(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    set_raw_text(pack, "Cafe\u0301 raw")
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text().replace("title: Plain", 'title: "Re\u0301sume\u0301"'))
    code, err = build(pack, tmp_path, capsys)
    assert code == 0, err
    text = page_text(tmp_path / "out" / "mini" / "mini-sheets.pdf")
    assert "Caf\u00e9 raw" in text and "R\u00e9sum\u00e9" in text and "\u0301" not in text


def test_soft_hyphens_break_words_in_boxes_and_vanish_elsewhere(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    long = "Extra\u00adordinarily\u00adlong\u00adwords\u00adhere"
    set_raw_text(pack, "Un\u00adbroken")
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace('body: "A :star: card."', f'body: "See {long} {long} now."'))
    card = pack / "templates" / "card.svg.j2"       # a narrow box, where the long words must break
    card.write_text(card.read_text().replace("text_box(item.body, 5, 20, face.width - 10, 40",
                                             "text_box(item.body, 5, 20, 30, 40"))
    code, err = build(pack, tmp_path, capsys)
    assert code == 0, err
    text = page_text(tmp_path / "out" / "mini" / "mini-sheets.pdf")
    assert "Unbroken" in text and "Un-broken" not in text and "\u00ad" not in text
    lines = text.splitlines()
    start = lines.index("See Extraordinarily-")       # broken at the last soft hyphen that fits
    assert lines[start:start + 4] == ["See Extraordinarily-", "longwordshere", "Extraordinarilylong-", "wordshere now."]


def test_handout_text_the_fonts_cannot_print_names_its_place(tmp_path):
    pack = copy_pack("royal-dukes", tmp_path)
    handout = pack / "handout.yaml"
    original = handout.read_text()
    handout.write_text(original.replace("title: Royal Dukes", f"title: Royal Dukes {CJK}", 1))
    code, _, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 1 and "handout.yaml:9:" in err and "handout title: text" in err and "has no glyph" in err, err
    handout.write_text(original.replace("heading: Setup", f"heading: Setup {HEBREW}", 1))
    code, _, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 1 and "handout.yaml:26:" in err and "right-to-left" in err, err
    assert not (tmp_path / "out").exists()


def test_a_pack_title_the_map_cannot_print_stops_the_build(tmp_path):
    pack = copy_pack("royal-dukes", tmp_path)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace("title: Royal Dukes", f"title: Royal Dukes {CJK}", 1))
    code, _, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "has no glyph for '\u6f22'" in err and "Traceback" not in err, err


@pytest.mark.parametrize("call", ["palette.update({'card': '#ff0000'})", "game.data.update({'x': 1})",
                                  "item.update({'title': 'x'})", "groups.cards['items'].append(1)"])
def test_a_template_cannot_change_what_it_is_given(tmp_path, capsys, call):
    pack = copy_pack("mini", tmp_path)
    card = pack / "templates" / "card.svg.j2"
    card.write_text("{% set _ = " + call + " %}" + card.read_text())
    code, err = build(pack, tmp_path, capsys)
    assert code == 1 and "the template is given" in err and "Traceback" not in err, err


def test_a_template_may_change_its_own_copies(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    card = pack / "templates" / "card.svg.j2"
    card.write_text("{% set mine = dict(palette) %}{% set _ = mine.update({'card': '#123456'}) %}"
                    "{% set xs = [] %}{% set _ = xs.append(1) %}" + card.read_text().replace("palette.card", "mine.card"))
    code, err = build(pack, tmp_path, capsys)
    assert code == 0, err
