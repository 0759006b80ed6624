"""Maps as players read them: the pack's art, words players use, hidden tiles hidden, a legend
that matches what is drawn, markers by kind with the owner's number."""
import re
import xml.etree.ElementTree as ET

import pytest

from generator.maps import engine
from generator.maps.output import render_layout
from map_oracles.data import map_data

DRAWN = [g for g in engine.GAMES if not map_data(g).get("look", {}).get("template")]
NS = "{http://www.w3.org/2000/svg}"


def drawing(game, seed=4):
    layout = engine.generate(game, seed)
    svg, _, _ = render_layout(layout, "Title")
    root = ET.fromstring(svg)
    texts = [(float(t.get("y")), "".join(t.itertext())) for t in root.iter(NS + "text")]
    legend_top = next(y for y, s in texts if s == "Tiles")      # the legend's first row: its heading and entries
    return layout, texts, legend_top


@pytest.mark.parametrize("game", DRAWN)
def test_the_legend_names_every_tile_drawn_and_nothing_else(game):
    layout, texts, legend_top = drawing(game)
    look = map_data(game)["look"]
    on_board = {s for y, s in texts if y < legend_top}
    legend = {s for y, s in texts if y >= legend_top}
    names = set()
    for style in look["cells"].values():
        names |= {style["name"]} | {v.get("name") for v in style.get("variants", {}).values()}
    drawn_names = on_board & names
    assert drawn_names, "no tile names on the board"
    for name in drawn_names:
        styles = [s for s in look["cells"].values() if s["name"] == name] + \
                 [v for s in look["cells"].values() for v in s.get("variants", {}).values() if v.get("name") == name]
        assert any(s.get("legend", s["name"]) in legend for s in styles), name
    legend_tiles = {s for s in legend if s in names}
    assert legend_tiles <= drawn_names          # nothing in the legend that is not on the board


@pytest.mark.parametrize("game", DRAWN)
def test_every_marker_kind_placed_is_in_the_legend_with_its_shape(game):
    layout, texts, legend_top = drawing(game)
    look = map_data(game)["look"]
    legend = {s for y, s in texts if y >= legend_top}
    for placement in layout.placements:
        style = look["markers"][placement["kind"]]
        variant = style.get("variants", {}).get(placement.get(style.get("by")), {})
        assert variant.get("name", style["name"]) in legend
    shapes = {s.get("shape") for s in look["markers"].values()}
    assert len(shapes) == len(look["markers"]), "two marker kinds share a shape"


@pytest.mark.parametrize("game", engine.GAMES)
def test_maps_print_only_player_words(game):
    layout = engine.generate(game, 4)
    svg, _, _ = render_layout(layout, "Title")
    words = " ".join("".join(t.itertext()) for t in ET.fromstring(svg).iter(NS + "text"))
    assert not re.search(r"\b[a-z]+-\d+\b", words), "an internal id such as hamlet-15"
    for debug in ("placed_by", "order ", "tile ", "face_down", "_"):
        assert debug not in words


def test_face_down_tiles_show_their_back_only():
    layout, texts, legend_top = drawing("lords-of-doomspire")
    on_board = [s for y, s in texts if y < legend_top]
    hidden = [c for c in layout.cells if c.get("face_down")]
    assert len(hidden) == 4 + 12                  # the mountain centre and the ring of hills
    assert "Doomspire" not in on_board and "Bear's den" not in on_board
    assert on_board.count("Hills") == sum(c["biome"] == "hills" for c in hidden)       # each tile's back
    assert on_board.count("Mountain") == sum(c["biome"] == "mountains" for c in hidden)
    # adventure tokens go on face-up tiles only: the map draws none on a back
    shown_tokens = [s for y, s in texts if y < legend_top and re.fullmatch(r"\d", s)]
    face_up_tokens = [p for p in layout.placements if p["kind"] == "adventure-tokens"
                      and not layout.by_coord()[tuple(p["cell"])].get("face_down")]
    owners = [p for p in layout.placements if "owner" in p]
    assert len(shown_tokens) == len(face_up_tokens) + len(owners)


def test_owned_markers_carry_the_seat_number():
    """Every owned piece, and every tile's badge of whose set it comes from (look.badges with
    owner: true), carries its seat number; each Empty tile's badge its d6 number."""
    layout, texts, legend_top = drawing("dragon-towers")
    numbers = [s for y, s in texts if y < legend_top and s.isdigit()]
    owned = [p for p in layout.placements if "owner" in p]
    expected = [str(p["owner"]) for p in owned] + [str(c["placed_by"]) for c in layout.cells]
    expected += [str(c["number"]) for c in layout.cells if "number" in c]
    assert sorted(numbers) == sorted(expected)
    words = [s for y, s in texts if y < legend_top]
    assert not any(w.startswith(("Player ", "Roll ")) for w in words)      # badges, not label lines


def test_a_map_of_one_seat_prints_no_owner_badges():
    """Solo Dragon Towers: every tile is the one player's, so no tile carries a '1' badge; the
    pieces still carry their seat number and the Empty tiles their d6 number."""
    layout = engine.generate("dragon-towers", 4, players=1)
    svg, _, _ = render_layout(layout, "Title")
    texts = [(float(t.get("y")), "".join(t.itertext())) for t in ET.fromstring(svg).iter(NS + "text")]
    legend_top = next(y for y, s in texts if s == "Tiles")
    numbers = [s for y, s in texts if y < legend_top and s.isdigit()]
    expected = [str(p["owner"]) for p in layout.placements if "owner" in p]
    expected += [str(c["number"]) for c in layout.cells if "number" in c]
    assert sorted(numbers) == sorted(expected)
    assert "From this player's set of tiles" not in {s for y, s in texts if y >= legend_top}


def test_a_separate_reveal_sheet_shows_the_face_down_tiles(tmp_path):
    from generator.impose import Options
    from generator.maps.output import map_files
    layout = engine.generate("lords-of-doomspire", 4)
    revealed, _, _ = render_layout(layout, "Title", reveal=True)
    words = ["".join(t.itertext()) for t in ET.fromstring(revealed).iter(NS + "text")]
    assert "Doomspire" in words and "REVEAL SHEET" in " ".join(words)
    paper = Options(paper="a4", page_width=210, page_height=297, margin=5, bleed=0.0, marks="none")
    files = map_files([layout], "pdf", "m", "Title", paper)
    assert set(files) == {"m.pdf", "m-reveal.pdf"}
    plain = map_files([engine.generate("dragon-towers", 4)], "pdf", "d", "Title", paper)
    assert set(plain) == {"d.pdf"}                 # nothing hidden: no reveal sheet


def test_a_look_of_the_wrong_shape_is_a_message_not_a_traceback(tmp_path):
    import shutil
    from conftest import ROOT, run_cli
    pack = tmp_path / "island"
    shutil.copytree(ROOT / "docs" / "examples" / "hex-island", pack)
    path = pack / "map.yaml"
    path.write_text(path.read_text().replace('labels: {number: "{number}"}', "labels: [number]"))
    code, out, err = run_cli("validate", pack)
    assert code == 1 and "look.labels: must be a mapping" in err and "Traceback" not in err


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_wide_cones_board_prints_on_a_landscape_page_larger(paper):
    """The legend's groups run beside their headings, entries as wide as their words: the Cones
    drawing is short enough that the page turned draws it about 18 % larger than upright (it was
    printed upright at 0.64, held by the page width), the map upright on the page."""
    from generator.impose import Options
    from generator.maps.output import map_pdf
    import pymupdf
    layout = engine.generate("cones-of-dunshire", 1)
    drawing = render_layout(layout, "Title")
    size = {"a4": (210, 297), "letter": (215.9, 279.4)}[paper]
    options = Options(paper=paper, page_width=size[0], page_height=size[1], margin=5, bleed=3.0, marks="none")
    page = pymupdf.open(stream=map_pdf([layout], [drawing], "Title", options))[0]
    assert page.rect.width > page.rect.height
    scale = max(d["rect"].width for d in page.get_drawings()) / (drawing[1] * 72 / 25.4)
    assert scale > 0.74, f"printed at {scale:.2f}"
