"""The version beyond the sheets: on maps (pnpgen map and the map in build), on handouts, on
exported images (export png, with export.json) and on the Tabletop Simulator saved object.
Read back from what is printed: PDF text with its printed size, pixels of the images."""
from __future__ import annotations

import json
import shutil

import numpy
import pymupdf
import pytest
from PIL import Image

from conftest import MM, copy_pack, run_cli
from test_version import versioned_mini
from generator.version import SAFE

MIN_PT = 6.0


def cli_ok(*args):
    code, stdout, stderr = run_cli(*args)
    assert code == 0, stderr
    return stdout


def spans_with(pdf, text: str) -> list[tuple[int, str, float]]:
    """(page, span text, printed size in pt) of every text span holding `text`."""
    found = []
    for number, page in enumerate(pymupdf.open(pdf)):
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                found += [(number, s["text"], s["size"]) for s in line["spans"] if text in s["text"]]
    return found


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    """A starter pack (it has a map and a handout) at version v2.1, built once."""
    folder = tmp_path_factory.mktemp("starter")
    pack = folder / "game"
    cli_ok("new", pack, "--title", "Starter")
    with open(pack / "game.yaml", "a") as handle:
        handle.write("version: v2.1\n")
    cli_ok("build", pack, "--out", folder / "out", "-q")
    return pack, folder / "out" / "game"


def test_the_map_in_build_shows_the_version_in_its_title_and_page_guide(starter):
    _, out = starter
    spans = spans_with(out / "game-map.pdf", "Starter v2.1")
    assert [text for _, text, _ in spans] == ["Starter v2.1 - map for 3 players, seed 1",
                                              "Starter v2.1 | Setup diagram: lay out the pieces as drawn (not to scale)"]
    assert all(size >= MIN_PT for _, _, size in spans)


def test_pnpgen_map_pdf_and_png_carry_it_and_version_overrides(starter, tmp_path):
    pack, _ = starter
    cli_ok("map", pack, "--seed", "3", "--format", "pdf", "--out", tmp_path, "--version", "v3 beta")
    spans = spans_with(tmp_path / "game" / "game-map-3p-3.pdf", "Starter v3 beta - map for 3 players, seed 3")
    assert len(spans) == 1 and spans[0][2] >= MIN_PT
    assert not spans_with(tmp_path / "game" / "game-map-3p-3.pdf", "v2.1")
    # the PNG is drawn from the same drawing: it differs from a version-less one only in the title line
    images = {}
    for version in ("v3 beta", ""):
        cli_ok("map", pack, "--seed", "3", "--format", "png", "--out", tmp_path / f"png{version}", "--version", version)
        png = tmp_path / f"png{version}" / "game" / "game-map-3p-3.png"
        images[version] = numpy.asarray(Image.open(png).convert("L"), dtype=int)
    changed = numpy.argwhere(numpy.abs(images["v3 beta"] - images[""]) > 60)
    dpi_mm = 150 / 25.4
    assert len(changed) > 50
    assert changed[:, 0].min() > 8 * dpi_mm and changed[:, 0].max() < 20 * dpi_mm     # the title strip, 8-20 mm down


def test_the_handout_shows_it_in_the_foot_of_every_page(tmp_path):
    pack = copy_pack("royal-dukes", tmp_path)
    cli_ok("handout", pack, "--out", tmp_path / "out", "--version", "v0.9")
    pdf = tmp_path / "out" / "royal-dukes" / "royal-dukes-handout.pdf"
    spans = spans_with(pdf, "v0.9")
    assert [(page, text) for page, text, _ in spans] == [(0, "Royal Dukes v0.9 - page 1"), (1, "Royal Dukes v0.9 - page 2")]
    assert all(size >= MIN_PT for _, _, size in spans)
    for page in pymupdf.open(pdf):
        (box,) = [w for w in page.get_text("words") if w[4] == "v0.9"]
        assert box[3] / MM <= page.rect.height / MM - 3.0        # inside the printable area


def test_the_handout_in_build_follows_game_yaml(starter):
    _, out = starter
    assert [text for _, text, _ in spans_with(out / "game-handout.pdf", "v2.1")] == ["Starter v2.1 - page 1"]


def stamp_pixels(pack, tmp_path, fmt: str, name: str) -> tuple[numpy.ndarray, numpy.ndarray]:
    """An image exported at --version v0.3 and at --version "", as grey levels."""
    images = []
    for version in ("v0.3", ""):
        folder = tmp_path / f"{fmt}{version or 'none'}"
        cli_ok("export", fmt, pack, "--out", folder, "--group", "cards", "-q", "--version", version)
        images.append(numpy.asarray(Image.open(folder / "mini" / fmt / name).convert("L"), dtype=int))
    return images[0], images[1]


def test_export_png_draws_it_where_the_sheets_do_and_lists_it(tmp_path):
    pack = versioned_mini(tmp_path)
    versioned, plain = stamp_pixels(pack, tmp_path, "png", "cards/plain-1-1-front.png")
    px = 300 / 25.4                     # the image is the 63 x 88 mm face plus 3 mm of bleed each side
    changed = numpy.argwhere(numpy.abs(versioned - plain) > 20)
    assert len(changed) > 30
    rows, cols = changed[:, 0] / px - 3.0, changed[:, 1] / px - 3.0      # mm from the trim's top-left
    assert rows.max() <= 88 - SAFE + 0.3 and rows.min() >= 88 - SAFE - 1.6       # 1.4 mm text on its baseline
    assert cols.max() <= 63 - SAFE + 0.2 and cols.min() >= 63 - 15
    doc = json.loads((tmp_path / "pngv0.3" / "mini" / "png" / "export.json").read_text())
    assert doc["version"] == "v0.3" and doc["game"] == "mini"
    assert {"path": "cards/plain-1-1-front.png", "group": "cards", "item": "plain-1", "copy": 1, "side": "front"} in doc["files"]
    assert len(doc["files"]) == 24


def test_export_tts_names_the_version_and_draws_it_on_the_cards(tmp_path):
    pack = versioned_mini(tmp_path)
    cli_ok("export", "tts", pack, "--out", tmp_path / "out", "-q")
    save = json.loads((tmp_path / "out" / "mini" / "tts" / "mini.json").read_text())
    assert save["SaveName"] == "Test Pack v0.3"
    (deck,) = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert {o["Description"] for o in save["ObjectStates"]} == {"Test Pack v0.3"}     # the board too
    assert {card["Description"] for card in deck["ContainedObjects"]} == {"Test Pack v0.3"}
    versioned, plain = stamp_pixels(pack, tmp_path, "tts", "images/cards-1.png")
    changed = numpy.argwhere(numpy.abs(versioned - plain) > 20)
    assert len(changed) > 20
    cell_h = versioned.shape[0] / 2            # 12 cards: a sheet of 2 rows (the last cell hidden)
    assert (changed[:, 0] % cell_h).min() > cell_h * (88 - SAFE - 2) / 88      # near the foot of each cell


def test_no_version_no_name_change(tmp_path):
    pack = copy_pack("mini", tmp_path)
    cli_ok("export", "tts", pack, "--out", tmp_path / "out", "-q", "--group", "cards")
    save = json.loads((tmp_path / "out" / "mini" / "tts" / "mini.json").read_text())
    assert save["SaveName"] == "Test Pack" and {o["Description"] for o in save["ObjectStates"]} == {""}


def test_a_template_drawn_map_prints_it_in_its_title(tmp_path):
    """Royal Dukes draws its map with its own template, which prints `title`."""
    cli_ok("map", "royal-dukes", "--seed", "2", "--format", "pdf", "--out", tmp_path, "--version", "v9")
    spans = spans_with(tmp_path / "royal-dukes" / "royal-dukes-map-4p-2.pdf", "v9")
    assert [text for _, text, _ in spans] == ["Royal Dukes v9 - map for 4 players, seed 2",
                                              "Royal Dukes v9 | Setup diagram: lay out the pieces as drawn (not to scale)"]
    assert all(size >= MIN_PT for _, _, size in spans)


def test_handout_expressions_read_it(starter, tmp_path):
    pack, _ = starter
    own = tmp_path / "game"
    shutil.copytree(pack, own)
    handout = own / "handout.yaml"
    handout.write_text(handout.read_text().replace("The first player with", "Edition {{ game.version }}: the first player with"))
    cli_ok("handout", own, "--out", tmp_path / "out")
    text = " ".join(pymupdf.open(tmp_path / "out" / "game" / "game-handout.pdf")[0].get_text().split())
    assert "Edition v2.1: the first player with" in text
