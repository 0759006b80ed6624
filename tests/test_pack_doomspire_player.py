"""Lords of Doomspire pack, the player pieces and shared tokens (player.yaml, tokens.yaml): counts
in build.json against game.yaml data, map.yaml and the adventure / trader decks, sizes in mm, the
duplex boat / warship chit, and numbers on the faces read from the manifests (change them in a
copy of the pack, rebuild, the faces follow)."""
from __future__ import annotations

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, assert_item_sizes, copy_pack, group_items, indexed_build_info, run_cli, word_centres
from generator.manifest import load_pack
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "lords-of-doomspire"
TOL = 0.01


def _yaml(name):
    return yaml.safe_load((PACK / name).read_text())


@pytest.fixture(scope="module")
def out(built):
    return built("lords-of-doomspire")


@pytest.fixture(scope="module")
def info(out):
    return indexed_build_info(out)


_items = group_items


def test_player_piece_counts_follow_game_data(info):
    game = _yaml("game.yaml")
    data, seats = game["data"], len(game["player_colors"])
    g = info["groups"]
    assert seats == 4
    for group in ("castle-boards", "buildings", "knights", "boats", "flags", "inventories",
                  "markers", "cheat-sheets", "die-stickers", "resources", "bears",
                  "adventure-tokens", "monster-markers", "item-markers", "first-player",
                  "dragon-standee"):
        assert g[group]["total"] == g[group]["rulebook_count"], group
    assert g["castle-boards"]["total"] == g["cheat-sheets"]["total"] == seats
    assert g["knights"]["total"] == data["pieces"]["knights"] * seats == 12
    assert g["inventories"]["total"] == data["builds"]["knight"]["max"] * seats
    assert g["boats"]["total"] == data["pieces"]["boats"] * seats == data["builds"]["boat"]["max"] * seats
    assert g["flags"]["total"] == data["pieces"]["flags"] * seats == 40
    assert g["markers"]["total"] == 2 * seats
    assert g["buildings"]["total"] == data["building_slots"] * seats
    # 4 D3 dice a player (castle + max knights), 6 faces each
    dice = data["dice"]["castle"] + data["dice"]["per_knight"] * data["builds"]["knight"]["max"]
    assert g["die-stickers"]["total"] == dice * len(data["dice"]["faces"]) * seats == 96
    assert g["first-player"]["total"] == g["dragon-standee"]["total"] == 1


def test_adventure_tokens_follow_the_tile_mix():
    tiles = map_data("lords-of-doomspire")["tiles"]
    per_tile = map_data("lords-of-doomspire")["setup"]["adventure_tokens"]
    want = {1: 0, 2: 0, 3: 0}
    tier = {"plains": 1, "hills": 2, "mountains": 3}
    for biome, entries in tiles.items():
        for entry in entries:
            if entry["type"] in ("adventure", "oasis"):
                want[tier[biome]] += per_tile * entry["count"]
    game = load_pack(PACK)
    group = next(g for g in game.groups if g.id == "adventure-tokens")
    got = {1: 0, 2: 0, 3: 0}
    for item in group.items:
        got[item.data["tier"]] += item.copies
    assert got == want and sum(want.values()) == group.rulebook_count == 50


def test_markers_cover_the_decks():
    game = load_pack(PACK)
    decks = game.group_data()
    groups = {g.id: g for g in game.groups}
    monsters = {i["title"] for i in decks["adventure"]["items"] if i["type"] == "monster"} - {"Bear"}
    items = ({i["title"] for i in decks["adventure"]["items"] if i["type"] == "treasure"}
             | {i["title"] for i in decks["trader"]["items"]})
    shown = lambda gid: {decks[i.data["deck"]][i.data["card"]]["title"] for i in groups[gid].items}
    assert shown("monster-markers") == monsters
    assert shown("item-markers") == items


@pytest.mark.parametrize("group,width,height,sides", [
    ("castle-boards", 190.0, 130.0, 1),
    ("buildings", 24.0, 24.0, 2),
    ("knights", 26.0, 66.0, 1),
    ("boats", 30.0, 16.0, 2),
    ("flags", 14.0, 14.0, 1),
    ("inventories", 88.0, 63.0, 1),
    ("markers", 16.0, 16.0, 1),
    ("cheat-sheets", 90.0, 130.0, 1),
    ("die-stickers", 14.0, 14.0, 1),
    ("resources", 16.0, 16.0, 1),
    ("bears", 20.0, 20.0, 1),
    ("adventure-tokens", 14.0, 14.0, 1),
    ("monster-markers", 22.0, 22.0, 1),
    ("item-markers", 22.0, 22.0, 1),
    ("first-player", 30.0, 30.0, 2),
    ("dragon-standee", 44.0, 100.0, 1),
])
def test_sizes_in_mm(info, group, width, height, sides):
    assert_item_sizes(info, group, width, height, sides, TOL)


_words = word_centres


def test_each_boat_has_its_warship_behind_it(out):
    doc = pymupdf.open(out / "lords-of-doomspire-sheets.pdf")
    found = 0
    for index, page in enumerate(doc):
        fronts = _words(page, "BOAT")
        if not fronts:
            continue
        backs = _words(doc[index + 1], "WARSHIP")
        assert len(backs) == len(fronts)
        width = page.rect.width / MM
        for x, y in fronts:
            # the label sits right of the chit's centre: mirrored, it lands left of it
            assert min(abs(y - by) + abs((width - x) - bx) for bx, by in backs) < 12
        found += len(fronts)
    assert found == 8


def _page_words(pdf, marker):
    """Words of every page that holds `marker`."""
    pages = []
    for page in pymupdf.open(pdf):
        words = [w[4] for w in page.get_text("words")]
        if marker in words:
            pages.append(words)
    return pages


@pytest.mark.slow
def test_faces_read_their_numbers_from_the_manifests(out, tmp_path):
    before = _page_words(out / "lords-of-doomspire-boards.pdf", "Recruit")
    assert sum(w.count("Recruit") for w in before) == 4      # four boards, two to a page
    assert all("3" in w and "17" not in w for w in before)
    assert all("8" in w for w in _page_words(out / "lords-of-doomspire-sheets.pdf", "DRAGON"))

    pack = copy_pack("lords-of-doomspire", tmp_path)
    path = pack / "game.yaml"
    game = yaml.safe_load(path.read_text())
    data = game["data"]
    data["builds"]["knight"]["cost"]["food"] = 17
    data["dragon"]["might"] = 13
    data["bear"]["might"] = 19
    path.write_text(yaml.safe_dump(game, sort_keys=False))
    code, _, stderr = run_cli("build", pack, "--out", tmp_path / "out", "--quiet", "--lenient")
    assert code == 0, stderr
    built = tmp_path / "out" / "lords-of-doomspire"
    after = _page_words(built / "lords-of-doomspire-boards.pdf", "Recruit")
    assert sum(w.count("Recruit") for w in after) == 4 and all("17" in w for w in after)
    assert all("13" in w for w in _page_words(built / "lords-of-doomspire-sheets.pdf", "DRAGON"))
    bears = _page_words(built / "lords-of-doomspire-sheets.pdf", "BEAR")
    assert bears and all("19" in w for w in bears)
