"""A handout table taller than a column (a deck's `from:` table grown with the deck) flows:
split between rows across columns and pages, its header row repeated at the top of each part,
every row printed once and in order. Read back from the PDF as a player sees it."""
from __future__ import annotations

import csv
import re

import pymupdf
import pytest

from conftest import run_cli


def grown_starter(tmp_path, items: int, copies: int = 3):
    """`pnpgen new` grown to `items` cards of `copies` each (the rulebook count let go)."""
    pack = tmp_path / "grown"
    code, _, err = run_cli("new", pack)
    assert code == 0, err
    deck = pack / "cards.yaml"
    deck.write_text("".join(line for line in deck.read_text().splitlines(keepends=True) if "rulebook_count" not in line))
    with open(pack / "cards.csv", newline="") as f:
        header, *rows = list(csv.reader(f))
    grown = [[f"hero-{k}", str(copies), f"Hero {k}", str(k % 5), rows[k % len(rows)][4], rows[k % len(rows)][5]]
             for k in range(items)]
    with open(pack / "cards.csv", "w", newline="") as f:
        csv.writer(f).writerows([header] + grown)
    return pack


def spans(pdf) -> list[tuple[int, dict]]:
    return [(number, s) for number, page in enumerate(pdf) for b in page.get_text("dict")["blocks"]
            for line in b.get("lines", []) for s in line["spans"] if s["text"].strip()]


@pytest.mark.parametrize("items, copies", [(100, 3), (300, 1)])
def test_a_deck_table_taller_than_a_column_flows_with_its_header_repeated(items, copies, tmp_path):
    pack = grown_starter(tmp_path, items, copies)
    code, _, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 0, err
    pdf = pymupdf.open(tmp_path / "out" / "grown" / "grown-handout.pdf")
    assert pdf.page_count <= 2
    found = spans(pdf)
    heads = [(n, s["bbox"]) for n, s in found if s["text"].strip() == "Hero" and "Bold" in s["font"]]
    assert len(heads) >= 2, heads                       # a part per column, each under its own header
    titles = [(n, s) for n, s in found if re.fullmatch(r"Hero \d+", s["text"].strip())]
    assert [s["text"].strip() for _, s in titles] == [f"Hero {k}" for k in range(items)]   # once each, in order
    for n, s in titles:             # each row sits below the header of its own part (same page and column)
        assert any(hn == n and abs(hb[0] - s["bbox"][0]) < 1 and hb[1] < s["bbox"][1] for hn, hb in heads), s
    assert min(s["size"] for _, s in found if s["size"] < 9) >= 8.5 - 0.01   # only the foot is under 9.5 pt
    assert all(s["size"] >= 9.5 - 0.01 for _, s in titles)
    page = pdf[0].rect
    assert all(0 < s["bbox"][0] and s["bbox"][2] < page.width and s["bbox"][3] < page.height for _, s in found)


def test_a_deck_table_too_long_for_the_sheet_says_how_to_shorten_it(tmp_path):
    pack = grown_starter(tmp_path, 390, 1)
    code, out, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in out + err
    assert re.fullmatch(r"\S*handout\.yaml:10:5: handout: section 'Setup' does not fit on the sheet: the text needs 3 "
                        r"pages, at most 2 are allowed \(body text stays at 9\.5 pt or more\); shorten this section or "
                        r"one before it \(its table from: heroes has a row per item: list the rows that matter "
                        r"instead, rows: \[\.\.\.\]\)\n", err), err
