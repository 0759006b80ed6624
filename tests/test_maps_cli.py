"""pnpgen map as a user runs it: files, determinism across processes, --check, formats."""
import json
import os
import re
import subprocess
import sys

import pymupdf
import pytest

from conftest import MM, ROOT, run_cli
from generator.manifest import load_pack
from generator.maps import engine
from map_oracles.data import map_data


def map_json(tmp_path, *args):
    code, out, err = run_cli("map", *args, "--out", tmp_path)
    assert code == 0, err
    path = ROOT / out.strip().splitlines()[-1] if not os.path.isabs(out.strip().splitlines()[-1]) else out.strip().splitlines()[-1]
    return json.loads(open(path).read()), path


@pytest.mark.slow
@pytest.mark.parametrize("game", engine.GAMES)
def test_every_game_makes_a_layout_its_checker_passes(tmp_path, game):
    data, path = map_json(tmp_path, game, "--seed", "11")
    assert data["game"] == game and data["seed"] == 11
    assert data["players"] == engine.player_counts(game)[2]
    code, out, err = run_cli("map", "--check", path)
    assert code == 0, out + err
    assert f"legal {game} layout" in out


@pytest.mark.slow
def test_same_seed_same_bytes_in_another_process(tmp_path):
    _, first = map_json(tmp_path / "a", "royal-dukes", "--seed", "42")
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    proc = subprocess.run([sys.executable, "-m", "generator", "map", "royal-dukes", "--seed", "42",
                           "--out", str(tmp_path / "b")], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    second = tmp_path / "b" / "royal-dukes" / "royal-dukes-map-4p-42.json"
    assert open(first, "rb").read() == second.read_bytes()
    _, other = map_json(tmp_path / "c", "royal-dukes", "--seed", "43")
    assert open(other, "rb").read() != second.read_bytes()


def test_without_a_seed_one_is_chosen_and_printed(tmp_path):
    code, out, err = run_cli("map", "royal-dukes", "--out", tmp_path)
    assert code == 0
    seed = int(re.search(r"seed: (\d+) \(use --seed \1 to make this map again\)", err).group(1))
    assert f"royal-dukes-map-4p-{seed}.json" in out


def test_count_writes_several_layouts_in_one_file(tmp_path):
    data, _ = map_json(tmp_path, "royal-dukes", "--seed", "5", "--count", "3", "--balance", "off")
    assert [layout["seed"] for layout in data["layouts"]] == [5, 6, 7]
    assert all(layout["metrics"]["balance"] == "off" for layout in data["layouts"])


def test_check_reports_a_broken_rule_with_its_rulebook_sentence(tmp_path):
    data, path = map_json(tmp_path, "royal-dukes", "--seed", "3")
    empty = next(c for c in data["cells"] if c["type"] == "empty" and c["label"] not in ("A1",))
    empty["type"], empty["vp"] = "city", 5                     # a 21st settlement
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    code, out, err = run_cli("map", "--check", broken)
    assert code == 1
    assert "settlement-count" in out and "20 of the 100 spaces are Settlements" in out


def test_check_of_a_file_that_is_not_json_points_at_the_spot(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "royal-dukes",\n "players": }')
    code, out, err = run_cli("map", "--check", bad)
    assert code == 1 and re.search(r"bad\.json:2:\d+: not valid JSON", err) and "Traceback" not in err


def test_wrong_player_count_is_a_usage_error(tmp_path):
    code, out, err = run_cli("map", "royal-dukes", "--players", "9", "--seed", "1", "--out", tmp_path)
    assert code == 2 and "royal-dukes is for 2-4 players, not 9" in err


def test_a_wrong_player_count_tells_no_seed_and_writes_nothing(tmp_path):
    """Without --seed a map run first tells the seed it drew; for a count the game refuses no map is
    made, so the error is all it says."""
    code, out, err = run_cli("map", "royal-dukes", "--players", "9", "--out", tmp_path)
    assert code == 2 and err == "error: royal-dukes is for 2-4 players, not 9\n" and out == ""
    assert not any(tmp_path.iterdir())


def test_png_shows_the_cells_in_the_pack_palette(tmp_path):
    code, out, err = run_cli("map", "lords-of-doomspire", "--seed", "2", "--format", "png", "--dpi", "40", "--out", tmp_path)
    assert code == 0, err
    png = tmp_path / "lords-of-doomspire" / "lords-of-doomspire-map-4p-2.png"
    pix = pymupdf.Pixmap(str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and pix.width > 300
    colors = {pix.pixel(x, y) for y in range(0, pix.height, 3) for x in range(0, pix.width, 3)}
    palette = load_pack(ROOT / "components" / "lords-of-doomspire").palette
    for kind in ("home", "resource", "ocean"):
        fill = map_data("lords-of-doomspire")["look"]["cells"][kind]["fill"]
        hex_color = palette.get(fill, fill)
        rgb = tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
        assert any(all(abs(a - b) < 6 for a, b in zip(c, rgb)) for c in colors), kind


def test_royal_dukes_layout_is_drawn_on_the_pack_board(tmp_path):
    data, _ = map_json(tmp_path, "royal-dukes", "--seed", "2")
    code, out, err = run_cli("map", "royal-dukes", "--seed", "2", "--format", "svg", "--out", tmp_path)
    svg = (tmp_path / "royal-dukes" / "royal-dukes-map-4p-2.svg").read_text()
    assert svg.startswith("<svg") and "ROYAL DUKES" in svg          # the board's own title art
    names = re.findall(r">(Village|Town|Castle|Mine|City)<", svg)
    expected = sorted(c["type"].capitalize() for c in data["cells"] if c["type"] not in ("empty", "mountain"))
    assert sorted(names) == expected and len(names) == 20


def test_pdf_map(tmp_path):
    code, out, err = run_cli("map", "royal-dukes", "--seed", "2", "--format", "pdf", "--paper", "letter", "--out", tmp_path)
    doc = pymupdf.open(tmp_path / "royal-dukes" / "royal-dukes-map-4p-2.pdf")
    # a wide board goes on the page turned to landscape, the map upright on it
    assert len(doc) >= 1 and sorted((doc[0].rect.width / MM, doc[0].rect.height / MM)) == \
        [pytest.approx(215.9, abs=0.1), pytest.approx(279.4, abs=0.1)]
    assert "Royal Dukes - map for 4 players, seed 2" in doc[0].get_text()


@pytest.mark.slow
@pytest.mark.parametrize("game", engine.GAMES)
def test_every_map_is_a_one_page_setup_diagram_with_its_title_once(tmp_path, game):
    """Tiles are components and boards have their own PDF: the map is a setup diagram, on one
    page, nothing cut at a seam, the title printed once."""
    code, out, err = run_cli("map", game, "--seed", "3", "--format", "pdf", "--out", tmp_path)
    assert code == 0, err
    doc = pymupdf.open(next((tmp_path / game).glob(f"{game}-map-*p-3.pdf")))
    assert len(doc) == 1
    text = " ".join(doc[0].get_text().split())
    assert text.count("seed 3") == 1 and "map for" in text


def test_count_output_names_are_those_the_docs_give(tmp_path):
    """docs/maps.md: `<game>-maps-<players>p-<seed>-x<K>.json`, and one SVG or PNG per layout."""
    docs = " ".join((ROOT / "docs" / "maps.md").read_text().split())
    assert "`<game>-maps-<players>p-<seed>-x<K>.json`" in docs
    assert "`<game>-maps-<players>p-<seed>-x<K>-<its seed>.<ext>`" in docs
    code, out, err = run_cli("map", "royal-dukes", "--seed", "5", "--count", "2", "--balance", "off",
                             "--out", tmp_path)
    assert code == 0, err
    assert [os.path.basename(line) for line in out.split()] == ["royal-dukes-maps-4p-5-x2.json"]
    code, out, err = run_cli("map", "royal-dukes", "--seed", "5", "--count", "2", "--balance", "off",
                             "--format", "svg", "--out", tmp_path)
    assert code == 0, err
    assert [os.path.basename(line) for line in out.split()] == ["royal-dukes-maps-4p-5-x2-5.svg", "royal-dukes-maps-4p-5-x2-6.svg"]


def test_row_letter_labels_are_for_rectangle_hex_boards_as_the_docs_say(tmp_path):
    from generator.maps import declared
    docs = (ROOT / "docs" / "maps.md").read_text()
    assert "`labels: row-letter` names the hexes of a `rectangle` hex board" in docs
    section = {"board": {"grid": "hex", "shape": "rectangle", "cols": 3, "rows": 2, "labels": "row-letter"},
               "types": {"rock": {}}, "fill": "rock"}
    assert declared.load(section, tmp_path / "map.yaml").labels == ["A1", "A2", "A3", "B1", "B2", "B3"]
    for board in ({"grid": "hex", "shape": "hexagon", "radius": 2}, {"grid": "square", "cols": 3, "rows": 2}):
        section["board"] = {**board, "labels": "row-letter"}
        with pytest.raises(declared.DeclarationError, match=r"board\.labels: is 'row-letter'; row-letter .* is for "
                                                            r"rectangle hex boards"):
            declared.load(section, tmp_path / "map.yaml")
