"""docs/your-game.md, step by step: a starter pack, a card with the user's own JPEG, the pack's
own font, a build whose PDF embeds both (issue 23)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pikepdf
import pymupdf
from PIL import Image

from conftest import ROOT, run_cli

DOC = ROOT / "docs" / "your-game.md"


def doc_line(pattern: str) -> str:
    """The line of the walk-through that matches (so the test follows what the page says)."""
    [line] = [l.strip() for l in DOC.read_text().splitlines() if re.search(pattern, l.strip())]
    return line


def test_the_walk_through_builds_a_deck_with_art_and_a_pack_font(tmp_path):
    assert run_cli("new", "my-first-game", cwd=tmp_path)[0] == 0
    pack = tmp_path / "my-first-game"
    # step 3: the user's own picture, named in a new row of cards.csv
    row = doc_line(r"^goblin,")
    Image.new("RGB", (600, 420), (40, 140, 60)).save(pack / "art" / "goblin.jpg", quality=90)
    with open(pack / "cards.csv", "a") as sheet:
        sheet.write(row + "\n")
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("rulebook_count: 18", "rulebook_count: 20"))
    # step 4: the font folder and the role line, as the page writes them
    shutil.copytree(ROOT / "docs" / "examples" / "my-first-game" / "fonts", pack / "fonts")
    game = pack / "game.yaml"
    role = doc_line(r"^title: \{family: CabinSketch")
    text = game.read_text()
    assert "  title: {family: Liberation Serif, weight: bold}" in text
    game.write_text(text.replace("title: {family: Liberation Serif, weight: bold}", role))
    # step 5
    code, out, err = run_cli("build", cwd=pack)
    assert code == 0, err
    built = pack / "output" / "my-first-game"
    sheets = built / "my-first-game-sheets.pdf"
    with pymupdf.open(sheets) as doc:
        fonts = {basefont.split("+")[-1]: ext for page in doc for _, ext, _, basefont, *_ in page.get_fonts()}
        assert fonts.get("CabinSketch-Bold") not in (None, "n/a"), fonts
        words = {w[4] for page in doc for w in page.get_text("words")}
        assert {"Goblin", "Ranger"} <= words
    goblin = (pack / "art" / "goblin.jpg").read_bytes()
    with pikepdf.open(sheets) as pdf:
        jpegs = [obj.read_raw_bytes() for obj in pdf.objects
                 if isinstance(obj, pikepdf.Stream) and obj.get("/Filter") == pikepdf.Name.DCTDecode]
    assert goblin in jpegs, "the JPEG is not stored as the file itself"
    listed = json.loads((built / "build.json").read_text())["fonts"]
    assert {"family": "CabinSketch", "file": "fonts/CabinSketch-Bold.ttf", "licence": "fonts/OFL.txt"}.items() \
        <= next(f for f in listed if f["family"] == "CabinSketch").items()
