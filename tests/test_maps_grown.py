"""The map vocabulary's terms for maps laid tile by tile (issue 24, Shires): a grown board, the
`touching` and `turns` rules, numbered tiles with marks, pieces set at setup (`pieces:`,
`piece_count`), edge marks (`mark_edge`) and the `pick_spread` objective, each generated, checked,
broken alone and refused with its place when mis-declared (docs/maps.md)."""
from __future__ import annotations

import copy
import json
import random
import re
import shutil

import pytest
import yaml

from conftest import ROOT, run_cli
from generator.maps import declared, declared_check, declared_gen, engine, grid
from generator.maps.rules import MapOptions

PLAIN = MapOptions(balance=False)

# a small made-up game: two players lay 12 numbered tiles, forests get a token from a pile
GROVE = {
    "board": {"grid": "hex", "shape": "grown", "first": [2, -1]},
    "players": {"min": 2, "max": 3, "default": 2},
    "types": {
        "forest": {"values": {"wood": 1}, "tiles": {"count": 7, "marks": {7: 3}}},
        "lake": {"tiles": {"count": 6, "marks": {6: 3}, "values": {"deep": {1: True, 2: False, 3: True, 4: False,
                                                                             5: True, 6: False}}}},
    },
    "deal": [{"tiles": "forest"}, {"tiles": "lake"}],
    "pieces": [
        {"id": "forest-tokens", "kind": "grove-token", "over": "forest", "fields": {"face_down": True},
         "pile": {"name": "beast", "counts": {2: {"bear": 2, "wolf": 4}, 3: {"bear": 3, "wolf": 4}}},
         "quote": "Each forest gets a beast token, face down."},
        {"id": "fish", "kind": "fish", "over": "lake", "where": {"deep": True}, "quote": "Deep lakes hold a fish."},
    ],
    "constraints": [
        {"id": "forests", "count": "forest", "exactly": {2: 6, 3: 7}, "quote": "Six forests (seven with three)."},
        {"id": "bears", "piece_count": "grove-token", "where": {"beast": "bear"}, "exactly": {2: 2, 3: 3},
         "quote": "Two bears (three with three players)."},
        {"id": "in-turn", "turns": True, "policy": True, "quote": "Players lay in turn."},
        {"id": "first-touch", "touching": 1, "first": 1, "quote": "Your first tile touches one."},
        {"id": "later-touch", "touching": 2, "after": 1, "quote": "Later tiles touch two."},
        {"id": "snug", "touching": 2, "after": 1, "faces_meet": True, "policy": True, "quote": "Snugly."},
        {"id": "shore", "mark_edge": "shore", "quote": "Tiles on the edge are shore."},
    ],
    "objective": [{"pick_spread": "wood", "over": "lake", "near": 1, "spacing": 2}],
    "tries": 10,
}


def grove(tmp_path, section=None):
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section or GROVE}, sort_keys=False))
    spec = declared.load(section or GROVE, path)
    return declared_gen.Generator(spec, "grove"), declared_check.Checker(path, "grove")


def test_a_grown_map_is_laid_tile_by_tile_as_declared(tmp_path):
    gen, check = grove(tmp_path)
    rng = random.Random(3)
    for _ in range(200):
        players = rng.choice((2, 3))
        layout = gen.generate(rng, players, PLAIN)
        assert check.check(layout) == []
        cells = sorted(layout.cells, key=lambda c: c["order"])
        assert (cells[0]["q"], cells[0]["r"]) == (2, -1)                  # board.first
        assert [c["placed_by"] for c in cells] == [k % players + 1 for k in range(len(cells))]
        laid = set()
        for k, c in enumerate(cells):                                    # each touched as the rules say
            touching = [m for m in grid.hex_neighbours((c["q"], c["r"])) if m in laid]
            assert k == 0 or len(touching) >= (1 if k < players else 2)
            laid.add((c["q"], c["r"]))
        tiles = sorted(c["tile"] for c in cells)
        assert len(tiles) == len(set(tiles)) == (11 if players == 2 else 13)
        assert ("forest-7" in tiles) == (players == 3)                     # a tile marked 3 only with 3
        assert all(c["deep"] == (int(c["tile"][5:]) % 2 == 1) for c in cells if c["type"] == "lake")
        edge = set(grid.edge_cells([(c["q"], c["r"]) for c in cells], "hex"))
        assert all(c["shore"] == ((c["q"], c["r"]) in edge) for c in cells)
        beasts = sorted(p["beast"] for p in layout.placements if p["kind"] == "grove-token")
        assert beasts == sorted(["bear"] * players + ["wolf"] * 4)
        fish = sorted(tuple(p["cell"]) for p in layout.placements if p["kind"] == "fish")
        assert fish == sorted((c["q"], c["r"]) for c in cells if c.get("deep"))


def _first(layout, key, value):
    return next(c for c in layout.cells if c.get(key) == value)


def _rank(layout, k):
    return next(c for c in layout.cells if c["order"] == k)


def _move_last(layout, spot):
    """The last tile laid, with its pieces, moved to spot; the shore marks follow."""
    last = max(layout.cells, key=lambda c: c["order"])
    for p in layout.placements:
        if p["cell"] == [last["q"], last["r"]]:
            p["cell"] = list(spot)
    last["q"], last["r"] = spot
    edge = set(grid.edge_cells([(c["q"], c["r"]) for c in layout.cells], "hex"))
    for c in layout.cells:
        c["shore"] = (c["q"], c["r"]) in edge
    return layout


def _moved_to_touch_one(layout):
    """The last tile moved to an open spot that touches one other tile."""
    last = max(layout.cells, key=lambda c: c["order"])
    others = {(c["q"], c["r"]) for c in layout.cells if c is not last}
    for spot in sorted({m for c in others for m in grid.hex_neighbours(c)} - others):
        if sum(m in others for m in grid.hex_neighbours(spot)) == 1:
            return _move_last(layout, spot)
    return None


BREAK = {
    "order": lambda l: _rank(l, len(l.cells)).update(order=len(l.cells) + 5),
    "in-turn": lambda l: _rank(l, 5).update(placed_by=9),
    "later-touch": _moved_to_touch_one,
    "shore": lambda l: l.cells[0].update(shore=not l.cells[0]["shore"]),
    "tile": lambda l: _first(l, "type", "lake").update(tile="lake-77"),
    "forest-tokens": lambda l: next(p for p in l.placements if p["kind"] == "grove-token").update(face_down=False),
    "fish": lambda l: l.placements.remove(next(p for p in l.placements if p["kind"] == "fish")),
    "bears": lambda l: next(p for p in l.placements if p.get("beast") == "wolf").update(beast="bear"),
    "cell-detached": lambda l: _move_last(l, (40, 40)),
}
ALSO = {"later-touch": {"snug"}, "cell-detached": {"later-touch", "snug"}}    # a tile laid far off touches none


@pytest.mark.parametrize("rule", sorted(BREAK))
def test_each_rule_of_the_terms_breaks_alone(rule, tmp_path):
    gen, check = grove(tmp_path)
    rng = random.Random(11)
    for _ in range(50):
        layout = gen.generate(rng, 2, PLAIN)
        if BREAK[rule](layout) is not False and layout is not None and check.check(layout):
            break
    found = check.check(layout)
    assert rule in {v.rule for v in found} and {v.rule for v in found} <= {rule} | ALSO.get(rule, set()), \
        [(v.rule, v.message) for v in found]
    quoted = [v for v in found if v.rule == rule]
    assert all(v.quote for v in quoted)
    assert all(v.policy == (rule == "in-turn") for v in quoted)


def test_a_grown_map_says_which_laying_rule_stopped_it(tmp_path):
    section = copy.deepcopy(GROVE)
    section["constraints"][4]["touching"] = 3          # every later tile in a notch of three: soon stuck
    gen, _ = grove(tmp_path, section)
    with pytest.raises(engine.MapError, match=r"dealing \(no cell left for a tile under the laying rules "
                                              r"first-touch, later-touch, snug\) \d+"):
        gen.generate(random.Random(1), 2, MapOptions(balance=False, budget=30))


def test_pieces_tiles_and_edge_marks_on_a_drawn_board(tmp_path):
    section = {"board": {"grid": "hex", "shape": "hexagon", "radius": 2}, "players": {"min": 2, "max": 2},
               "types": {"town": {"tiles": {"count": 4}}, "field": {}}, "fill": "field",
               "deal": [{"tiles": "town"}],
               "pieces": [{"kind": "well", "over": "town", "pile": {"name": "depth", "counts": {2: {"deep": 1, "dry": 3}}}}],
               "constraints": [{"id": "rim", "mark_edge": "rim", "quote": "The rim."}]}
    gen, check = grove(tmp_path, section)
    rng = random.Random(2)
    for _ in range(50):
        layout = gen.generate(rng, 2, PLAIN)
        assert check.check(layout) == []
        assert sorted(c["tile"] for c in layout.cells if c["type"] == "town") == ["town-1", "town-2", "town-3", "town-4"]
        assert sum(c["rim"] for c in layout.cells) == 12
        assert sorted(p["depth"] for p in layout.placements) == ["deep", "dry", "dry", "dry"]
    layout.placements[0]["cell"] = next([c["q"], c["r"]] for c in layout.cells if c["type"] == "field")
    assert [v.rule for v in check.check(layout)] == ["piece"]


@pytest.mark.parametrize("edit, said", [
    (lambda s: s["board"].update(cols=3), r"layout\.board\.cols: a grown board has no outline"),
    (lambda s: s.update(fill="lake"), r"layout\.fill: is not for a grown board"),
    (lambda s: s["board"].update(first=[0]), r"layout\.board\.first: must be a cell"),
    (lambda s: s["types"]["forest"]["tiles"].update(marks={9: 3}), r"layout\.types\.forest\.tiles\.marks"),
    (lambda s: s["types"]["lake"]["tiles"]["values"]["deep"].pop(6), r"layout\.types\.lake\.tiles\.values\.deep: must give the value of each tile 1-6"),
    (lambda s: s["deal"].append({"tiles": "meadow"}), r"layout\.deal\[3\]\.tiles: 'meadow' is not a type with numbered tiles"),
    (lambda s: s["deal"][0].update(count=3), r"layout\.deal\[1\]: a bag of numbered tiles takes only tiles"),
    (lambda s: s["constraints"][0].update(exactly={2: 5, 3: 7}), r"asks for exactly 5 of forest with 2 players, but the deal puts 6"),
    (lambda s: s["constraints"][3].pop("first"), r"layout\.constraints\[4\]: touching: needs first: n"),
    (lambda s: s["constraints"][3].update(touching=7), r"layout\.constraints\[4\]\.touching: must be a whole number from 1 to 6"),
    (lambda s: s["constraints"][2].update(turns="yes"), r"layout\.constraints\[3\]\.turns: must be true"),
    (lambda s: s["constraints"][1].update(piece_count="grove-tokens"), r"'grove-tokens' is not a kind declared under pieces"),
    (lambda s: s["pieces"][0]["pile"]["counts"][2].update(bear=3), r"layout\.constraints \(bears\): asks for .* but pieces: puts 3"),
    (lambda s: s["pieces"][0]["pile"]["counts"].pop(3), r"layout\.pieces\[1\]\.pile\.counts: gives no pile for 3 players"),
    (lambda s: s["pieces"][1].update(over="river"), r"layout\.pieces\[2\]\.over: 'river' is not a declared type"),
    (lambda s: s["pieces"][1].update(fields={"cell": [0, 0]}), r"layout\.pieces\[2\]\.fields: sets cell"),
    (lambda s: s["constraints"].append({"id": "x", "not_adjacent": ["lake", "lake"]}), r"not_adjacent: is a rule about a drawn board"),
    (lambda s: s["objective"].append(dict(s["objective"][0])), r"layout\.objective\[2\]\.name: a second pick_spread named 'wood'"),
    (lambda s: s["objective"][0].update(pick_spread="gold"), r"layout\.objective\[1\]\.pick_spread: no type, token or piece carries the value 'gold'"),
])
def test_a_mistake_in_the_terms_is_named_with_its_place(tmp_path, edit, said):
    section = copy.deepcopy(GROVE)
    edit(section)
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    with pytest.raises(declared.DeclarationError, match=said) as caught:
        declared.load(section, path)
    assert re.match(r".*map\.yaml:\d+:\d+: layout\.", str(caught.value)), caught.value


def test_touching_and_turns_are_for_grown_boards(tmp_path):
    section = {"board": {"grid": "hex", "shape": "hexagon", "radius": 1}, "players": {"min": 2, "max": 2},
               "constraints": [{"id": "t", "touching": 1, "first": 1}]}
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}))
    with pytest.raises(declared.DeclarationError, match=r"constraints\[1\]\.touching: is a rule about laying tiles"):
        declared.load(section, path)


def test_pick_spread_is_measured_and_balanced(tmp_path):
    gen, check = grove(tmp_path)
    rules = engine.MapRules("grove", tmp_path, {}, gen, (("declared", check.check),))
    plain = [engine.generate(rules, s, 2, PLAIN).metrics for s in range(20)]
    fair = [engine.generate(rules, s, 2, MapOptions()).metrics for s in range(20)]
    assert all(len(m["wood_picks"]) == 2 for m in plain)
    assert sum(m["wood_picks_spread"] for m in fair) < sum(m["wood_picks_spread"] for m in plain)


SHIRES = ROOT / "components" / "shires"


def test_a_copy_of_shires_with_another_number_maps_by_its_declaration(tmp_path):
    """Four Trade hexes at three players (trade-4 unmarked, the chart changed with it): the copy
    maps, its layouts are legal to its own rules, and a mark changed without the chart is refused."""
    pack = tmp_path / "more-trade"
    shutil.copytree(SHIRES, pack)
    text = (pack / "map.yaml").read_text()
    text = text.replace("trade: {tiles: &trade-tiles {count: 5, marks: {4: 4, 5: 5}}}", "trade: {tiles: &trade-tiles {count: 5, marks: {5: 5}}}")
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--players", "3", "--seed", "2", "--out", tmp_path / "out")
    assert code == 2 and re.search(r"map\.yaml:\d+:\d+: layout\.constraints \(hex-counts\): asks for exactly 3 of "
                                   r"trade with 3 players, but the deal puts 4", err), err
    text = text.replace("count: trade, exactly: &trade-count {3: 3, 4: 4, 5: 5}", "count: trade, exactly: &trade-count {3: 4, 4: 4, 5: 5}")
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--players", "3", "--seed", "2", "--out", tmp_path / "out")
    assert code == 0, err
    path = tmp_path / "out" / "more-trade" / "more-trade-map-3p-2.json"
    layout = json.loads(path.read_text())
    assert sorted(c["tile"] for c in layout["cells"] if c["type"] == "trade") == ["trade-1", "trade-2", "trade-3", "trade-4"]
    code, out, err = run_cli("map", pack, "--check", path)
    assert code == 0 and "legal more-trade layout" in out, out + err


def test_a_piece_may_carry_a_label_and_nothing_unknown():
    layout = engine.generate("shires", 3, 4, PLAIN)
    layout.placements[0]["label"] = "TC"
    assert engine.unknown_keys(layout) == []
    layout.placements[0]["lable"] = "TC"
    assert any("placements[0].lable: unknown key; did you mean 'label'?" in k for k in engine.unknown_keys(layout))
