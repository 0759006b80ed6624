"""Map rules as data (issue 13, points 2 and 3): legal versus policy in --check, a bag typo
caught, a new game written from scratch in the vocabulary, and Cones of Dunshire declared against
its hand-written oracle. (Royal Dukes against its oracle: test_maps_royal_dukes_declared.py.)"""
from __future__ import annotations

import copy
import json
import re
import random
import shutil
from collections import Counter

import pytest
import yaml

from conftest import ROOT, run_cli
from generator.maps import declared, declared_check, declared_gen, engine, grid
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions
from map_oracles import cones_of_dunshire_check, cones_of_dunshire_gen, royal_dukes_gen

RD = ROOT / "components" / "royal-dukes"
PLAIN = MapOptions(balance=False)


def test_check_fails_only_on_rulebook_rules_and_lists_policies(tmp_path):
    layout = royal_dukes_gen.generate(random.Random(2), 4, PLAIN).to_dict()
    settlements = [c for c in layout["cells"] if c["type"] == "village"]
    empties = [c for c in layout["cells"] if c["type"] == "empty" and (c["q"], c["r"]) in
               set(grid.edge_cells(grid.hex_rectangle(10, 10), "hex"))]
    moved, target = settlements[0], empties[0]
    target["type"], target["vp"], moved["type"] = moved["type"], moved.pop("vp"), "empty"
    path = tmp_path / "hand-made.json"
    path.write_text(json.dumps(layout))
    code, out, err = run_cli("map", "--check", path)
    assert code == 0, out + err                    # a settlement at the side: "Some of this is ok"
    assert "note: settlement-edge" in out and "house policy" in out and "legal royal-dukes layout" in out
    target["type"] = "city"                        # now one city too many: the Settlement table
    target["vp"] = 5
    path.write_text(json.dumps(layout))
    code, out, err = run_cli("map", "--check", path)
    assert code == 1 and "settlement-mix" in out and "rulebook:" in out


def test_a_bag_typo_is_caught_not_copied(monkeypatch):
    """Villages 7, towns 4 in the data the oracle generator deals from: the declared checker counts
    from its constraints and refuses every board; a typo in the declared bag is refused on load."""
    board = royal_dukes_gen._BOARD
    typo = [t for t in board.bag if t != "village" and t != "town"] + ["village"] * 7 + ["town"] * 4
    monkeypatch.setattr(board, "bag", typo)
    rng = random.Random(1)
    for _ in range(20):
        layout = royal_dukes_gen.generate(rng, 4, PLAIN)
        assert "settlement-mix" in {v.rule for v in engine.broken_rules(engine.check(layout, "royal-dukes"))}
    section = yaml.safe_load((RD / "map.yaml").read_text())["layout"]
    section["deal"][0]["count"], section["deal"][1]["count"] = 7, 4
    with pytest.raises(declared.DeclarationError, match=r"asks for exactly 6 of village .* the deal puts 7"):
        declared.load(section, "map.yaml")


# --- a game written from scratch in the vocabulary (the worked example of docs/maps.md) --------

ISLAND = ROOT / "docs" / "examples" / "hex-island"


def test_the_worked_example_makes_legal_maps(tmp_path):
    code, out, err = run_cli("validate", ISLAND)
    assert code == 0, err
    code, out, err = run_cli("map", ISLAND, "--seed", "5", "--count", "50", "--balance", "off",
                             "--out", tmp_path)
    assert code == 0, err
    path = tmp_path / "hex-island" / "hex-island-maps-4p-5-x50.json"
    layouts = json.loads(path.read_text())["layouts"]
    for layout in layouts:
        cells = {(c["q"], c["r"]): c for c in layout["cells"]}
        assert len(cells) == 19 and Counter(c["type"] for c in cells.values())["desert"] == 1
        red = {k for k, c in cells.items() if c.get("number") in (6, 8)}
        assert not any(n in red for k in red for n in grid.hex_neighbours(k))
        assert all("number" in c for c in cells.values() if c["type"] != "desert")
        assert len([p for p in layout["placements"] if p["kind"] == "start"]) == layout["players"]
    code, out, err = run_cli("map", ISLAND, "--check", path)
    assert code == 0 and out.count("legal hex-island layout") == 50, out + err
    bad = layouts[0]
    six = next(c for c in bad["cells"] if c.get("number") == 6)
    neighbour = next(c for c in bad["cells"] if (c["q"], c["r"]) in grid.hex_neighbours((six["q"], six["r"]))
                     and "number" in c)
    other_eight = next(c for c in bad["cells"] if c.get("number") == 8)
    neighbour["number"], other_eight["number"] = 8, neighbour["number"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(bad))
    code, out, err = run_cli("map", ISLAND, "--check", broken)
    assert code == 1 and "red-numbers-apart" in out and "touching number tokens" in out


def test_a_mistake_in_the_vocabulary_is_named(tmp_path):
    pack = tmp_path / "island"
    shutil.copytree(ISLAND, pack)
    text = (pack / "map.yaml").read_text().replace("not_adjacent:", "not_adjacnt:", 1)
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2 and re.search(r"map\.yaml:\d+:\d+: layout\.constraints\[\d\]", err) and "not_adjacent" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("game", engine.GAMES)
def test_every_policy_is_a_rule_the_checker_quotes(game):
    """Each policy names a rule the declared checker reports (a constraint's id or a structure check),
    and the checker turns that rule's breaks into notes."""
    from generator.maps import declared_check, declared_laid_check
    from generator.maps.keys import _ids
    data = yaml.safe_load((ROOT / "components" / game / "map.yaml").read_text())
    checked = set(_ids(data["layout"])) | set(declared_check.STRUCTURE) | set(declared_laid_check.STRUCTURE)
    assert set(data.get("policies", [])) <= checked


def test_docs_show_the_worked_example_as_it_is(tmp_path):
    doc = (ROOT / "docs" / "maps.md").read_text()
    block = doc.split("### Worked example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    shown = yaml.safe_load(block)["layout"]
    real = yaml.safe_load((ISLAND / "map.yaml").read_text())["layout"]
    real.pop("tries", None)
    assert shown == real


def test_a_policy_broken_in_the_example_is_a_note(tmp_path):
    code, out, err = run_cli("map", ISLAND, "--seed", "2", "--balance", "off", "--out", tmp_path)
    assert code == 0, err
    path = tmp_path / "hex-island" / "hex-island-map-4p-2.json"
    layout = json.loads(path.read_text())
    coast = set(grid.edge_cells(grid.hex_disc((0, 0), 2), "hex"))
    mountain = next(c for c in layout["cells"] if c["type"] == "mountains")
    shore = next(c for c in layout["cells"] if (c["q"], c["r"]) in coast and c["type"] == "forest")
    for key in ("type", "yield"):                 # the tiles swap; numbers and starts stay put
        mountain[key], shore[key] = shore[key], mountain[key]
    path.write_text(json.dumps(layout))
    code, out, err = run_cli("map", ISLAND, "--check", path)
    assert "note: mountains-inland" in out and "house policy" in out, out + err
    assert code == 0 and "legal hex-island layout" in out


def test_each_start_keeps_its_quota_and_the_checker_counts_it(tmp_path):
    code, out, err = run_cli("map", ISLAND, "--seed", "9", "--count", "20", "--balance", "off", "--out", tmp_path)
    assert code == 0, err
    path = tmp_path / "hex-island" / "hex-island-maps-4p-9-x20.json"
    for layout in json.loads(path.read_text())["layouts"]:
        rock = {(c["q"], c["r"]) for c in layout["cells"] if c["type"] in ("hills", "mountains")}
        for start in layout["placements"]:
            near = grid.hex_disc(tuple(start["cell"]), 1)
            assert rock & set(near), start
    stricter = tmp_path / "stricter"
    shutil.copytree(ISLAND, stricter)
    edit = (stricter / "map.yaml").read_text().replace("start_quota: rock, within: 1, min: 1", "start_quota: rock, within: 1, min: 5")
    (stricter / "map.yaml").write_text(edit)
    (stricter / "game.yaml").write_text((ISLAND / "game.yaml").read_text() + "id: hex-island\n")
    code, out, err = run_cli("map", stricter, "--check", path)
    assert code == 0 and "note: rock-near-start" in out and "within 1 of a start outside 5-any" in out, out + err


NEAR_GAME = {
    "board": {"grid": "hex", "shape": "hexagon", "radius": 3},
    "players": {"min": 2, "max": 2, "default": 2},
    "types": {"peak": {"values": {"height": [3, 4], "rock": 1}}, "hill": {}, "plain": {}},
    "fill": "plain",
    "deal": [{"type": "peak", "count": 1, "values": {"height": 3}}, {"type": "peak", "count": 1, "values": {"height": 4}},
             {"type": "hill", "count": 6}],
    "constraints": [
        {"id": "one-high-peak", "count": "peak", "where": {"height": 4}, "exactly": 1, "quote": "One peak of height 4."},
        {"id": "peaks-central", "near": "peak", "cells": [[0, 0], [1, 0]], "distance": 1,
         "quote": "The peaks stand at the centre."},
        {"id": "hills-apart", "not_adjacent": ["hill", "hill"], "quote": "No two hills touch."},
    ],
}


def _near_game(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": NEAR_GAME}))
    spec = declared.load(NEAR_GAME, path)
    return declared_gen.Generator(spec, "near-game"), declared_check.Checker(path, "near-game")


def test_near_keeps_a_type_within_reach_of_listed_cells_and_the_checker_sees_it(tmp_path):
    gen, check = _near_game(tmp_path)
    centre = [(0, 0), (1, 0)]
    rng = random.Random(4)
    seen = set()
    for _ in range(300):
        layout = gen.generate(rng, 2, PLAIN)
        peaks = [(c["q"], c["r"]) for c in layout.cells if c["type"] == "peak"]
        assert len(peaks) == 2 and all(min(grid.hex_distance(p, m) for m in centre) <= 1 for p in peaks)
        seen.update(peaks)
        assert check.check(layout) == []
    assert len(seen) == 10                  # every cell in reach was used: the zone, not one spot
    # a peak moved out of reach breaks that rule alone
    layout = gen.generate(random.Random(1), 2, PLAIN)
    peak = next(c for c in layout.cells if c["type"] == "peak")
    far = next(c for c in layout.cells if c["type"] == "plain" and (c["q"], c["r"]) == (-3, 0))
    peak["type"], far["type"] = "plain", "peak"
    for key in ("height", "rock"):
        far[key] = peak.pop(key)
    found = check.check(layout)
    assert [v.rule for v in found] == ["peaks-central"] and "more than 1 step(s)" in found[0].message
    assert "(-3, 0)" in found[0].message and found[0].quote == "The peaks stand at the centre."


def test_near_on_a_type_never_dealt_is_refused(tmp_path):
    section = copy.deepcopy(NEAR_GAME)
    section["constraints"][1]["near"] = "plain"
    with pytest.raises(declared.DeclarationError, match=r"constraints\[2\]\.near.*fill type"):
        declared.load(section, tmp_path / "map.yaml")
    section["constraints"][1].update(near="peak", cells=[[0]])
    with pytest.raises(declared.DeclarationError, match=r"constraints\[2\]\.cells\[1\]"):
        declared.load(section, tmp_path / "map.yaml")


def test_tiles_carry_values_of_their_own_and_a_count_can_ask_for_them(tmp_path):
    gen, check = _near_game(tmp_path)
    rng = random.Random(6)
    for _ in range(200):
        layout = gen.generate(rng, 2, PLAIN)
        peaks = sorted((c["height"], c["rock"]) for c in layout.cells if c["type"] == "peak")
        assert peaks == [(3, 1), (4, 1)]
        assert all("height" not in c for c in layout.cells if c["type"] != "peak")
        assert check.check(layout) == []
    high = next(c for c in layout.cells if c.get("height") == 4)
    high["height"] = 3                          # still a height a peak may have: only the count breaks
    found = check.check(layout)
    assert [v.rule for v in found] == ["one-high-peak"] and "0 peak (height 4) cell(s), not 1" in found[0].message
    high["height"] = 7                          # no peak is that high
    assert {v.rule for v in check.check(layout)} == {"one-high-peak", "cell-value"}


@pytest.mark.parametrize("edit, said", [
    (lambda s: s["deal"][0].pop("values"), r"deal\[1\]\.values: gives no height"),
    (lambda s: s["deal"][0]["values"].update(height=5), r"deal\[1\]\.values\.height: is 5, not one of \[3, 4\]"),
    (lambda s: s["deal"][2].update(values={"height": 3}), r"deal\[3\]\.values\.height: hill lists no choices"),
    (lambda s: s["types"]["plain"].update(values={"height": [1, 2]}), r"types\.plain\.values: lists choices"),
])
def test_a_mistake_in_tile_values_is_named(tmp_path, edit, said):
    section = copy.deepcopy(NEAR_GAME)
    edit(section)
    with pytest.raises(declared.DeclarationError, match=said):
        declared.load(section, tmp_path / "map.yaml")


# --- a second game: the terrain of Cones of Dunshire in the vocabulary ------------------------
CONES_TERRAIN = ROOT / "components" / "cones-of-dunshire" / "map.yaml"
# the hand-written checker's rules about the terrain, which the declaration says too
TERRAIN_RULES = {"board-hexes", "color-mix", "normal-elevation", "mountain-mix", "mountain-central",
                 "summit-size", "summit-top", "summit-reachable", "cell-type", "duplicate-cell",
                 "start-roles", "start-hexes", "start-not-black", "start-apart", "setup-buildings", "placement",
                 "doom-point-count", "doom-point-hexes"}
CONES_KINDS = ["green", "blue", "red", "yellow", "black", "mountain", "summit"]


def _cones_terrain():
    section = yaml.safe_load(CONES_TERRAIN.read_text())["layout"]
    return (declared_gen.Generator(declared.load(section, CONES_TERRAIN), "cones-of-dunshire"),
            declared_check.Checker(CONES_TERRAIN, "cones-of-dunshire"))


def _terrain_verdicts(layout: Layout, check=None) -> tuple:
    """(hand-written oracle, declared) verdicts on a Cones of Dunshire layout: legal or not."""
    return (not engine.broken_rules(cones_of_dunshire_check.check(layout)),
            not engine.broken_rules(engine.check(layout, "cones-of-dunshire")))


def _broken_terrain(rng: random.Random, layout: Layout) -> Layout:
    out = copy.deepcopy(layout)
    terrain = [c for c in out.cells if c.get("type") != "challenge"]
    a, b = rng.choice(terrain), rng.choice(terrain)
    move = rng.randrange(12)
    if move == 0:                                   # a hex becomes another kind
        kind = rng.choice(CONES_KINDS)
        a.pop("color", None), a.pop("elevation", None)
        a["type"] = kind
        if kind in ("mountain", "summit"):
            a["elevation"] = 4 if kind == "summit" else rng.randint(1, 3)
        else:
            a["color"] = kind
    elif move == 1:                                 # two hexes swap
        for key in ("type", "color", "elevation"):
            x, y = a.pop(key, None), b.pop(key, None)
            for cell, value in ((a, y), (b, x)):
                if value is not None:
                    cell[key] = value
    elif move == 2:                                 # a hex is left out
        out.cells.remove(a)
    elif move == 5:                                 # a start moves to another hex
        start = rng.choice([p for p in out.placements if p["kind"] == "start"])
        start["cell"] = [a["q"], a["r"]]
    elif move == 6:                                 # a starting Farm is lost
        out.placements.remove(rng.choice([p for p in out.placements if p["kind"] == "farm"]))
    elif move == 8:                                 # a Doom Point moves to another hex
        doom = [c for c in terrain if c.get("doom_point")]
        rng.choice(doom).pop("doom_point")
        a["doom_point"] = True
    elif move == 9:                                 # a Doom Point more or less
        if rng.random() < 0.5:
            a["doom_point"] = True
        else:
            rng.choice([c for c in terrain if c.get("doom_point")]).pop("doom_point")
    elif move == 10:                                # a Challenge space moves one step
        space = rng.choice([c for c in out.cells if c.get("type") == "challenge"])
        space["q"] += rng.choice((-1, 1))
    elif move == 11:                                # two Challenge decks change places
        x, y = rng.sample([p for p in out.placements if p["kind"] == "challenge-deck"], 2)
        x["god"], y["god"] = y["god"], x["god"]
    elif move == 7:                                 # two starts change roles
        x, y = rng.sample([p for p in out.placements if p["kind"] == "start"], 2)
        x["role"], y["role"] = y["role"], x["role"]
    else:                                           # a Mountain or Summit hex at another elevation
        high = [c for c in terrain if c["type"] in ("mountain", "summit")]
        rng.choice(high)["elevation"] = rng.randint(0, 5)
    return out


def test_cones_of_dunshire_is_driven_by_its_declared_form():
    rules = engine.rules_for("cones-of-dunshire")
    assert "python_rules" not in rules.data and [name for name, _ in rules.checkers] == ["declared"]
    assert isinstance(rules.gen, declared_gen.Generator)


def _cones_agree(declared_n: int, oracle_n: int, broken_n: int, seed: int) -> Counter:
    gen, check = _cones_terrain()
    rng = random.Random(seed)
    layouts = [gen.generate(rng, 8, PLAIN) for _ in range(declared_n)]
    layouts += [cones_of_dunshire_gen.generate(rng, 8, PLAIN) for _ in range(oracle_n)]
    for layout in layouts:
        assert _terrain_verdicts(layout, check) == (True, True)
    mix = Counter((c["type"], c.get("elevation")) for c in layouts[0].cells)
    assert mix[("mountain", 1)] == 6 and mix[("mountain", 3)] == 4 and mix[("summit", 4)] == 2
    agreed = Counter()
    for n in range(broken_n):
        layout = _broken_terrain(rng, layouts[n % len(layouts)])
        python, ours = _terrain_verdicts(layout, check)
        assert python == ours, layout.to_dict()
        agreed[python] += 1
    return agreed


def test_cones_both_checkers_agree_on_layouts_of_both_generators_and_broken_ones():
    agreed = _cones_agree(60, 40, 300, 22)
    assert agreed[True] > 20 and agreed[False] > 150


@pytest.mark.slow
def test_cones_both_checkers_agree_on_thousands_of_layouts():
    agreed = _cones_agree(1000, 300, 2000, 21)
    assert agreed[True] > 150 and agreed[False] > 1200          # both verdicts were exercised (191 and 1,809)


def test_reachable_breaks_alone_when_the_summit_cannot_be_climbed():
    gen, check = _cones_terrain()
    layout = gen.generate(random.Random(8), 8, PLAIN)
    cells = {(c["q"], c["r"]): c for c in layout.cells}
    summit = {k for k, c in cells.items() if c["type"] == "summit"}
    beside = {m for s in summit for m in grid.hex_neighbours(s)} - summit
    ones = [c for k, c in cells.items() if c.get("elevation") == 1 and k not in beside]
    for k in sorted(beside):                   # the hexes around the Summit drop to elevation 1 or 2
        if cells.get(k, {}).get("elevation") == 3:
            ones.pop()["elevation"], cells[k]["elevation"] = 3, 1
    found = check.check(layout)
    assert [v.rule for v in found] == ["summit-reachable"], [(v.rule, v.message) for v in found]
    assert "cannot be reached from normal in steps of at most 1 elevation" in found[0].message
    assert _terrain_verdicts(layout, check) == (False, False)


def _cones_start_broken(how: str) -> Layout:
    gen, _ = _cones_terrain()
    layout = gen.generate(random.Random(30), 8, PLAIN)
    starts = [p for p in layout.placements if p["kind"] == "start"]
    cells = {(c["q"], c["r"]): c for c in layout.cells}
    if how == "role":
        starts[0]["role"], starts[1]["role"] = starts[1]["role"], starts[0]["role"]
    elif how == "fields":
        starts[2]["buildings"] = ["farm"]
    elif how == "piece":
        layout.placements.remove(next(p for p in layout.placements if p["kind"] == "farm"))
    elif how == "around":                       # a Mountain hex beside a start (the counts kept: a swap)
        beside = next(m for m in grid.hex_neighbours(tuple(starts[0]["cell"])) if m in cells)
        high = next(c for c in layout.cells if c["type"] == "mountain" and c["elevation"] == 1)
        low = cells[beside]
        for key in ("type", "color", "elevation"):
            x, y = high.pop(key, None), low.pop(key, None)
            for cell, value in ((high, y), (low, x)):
                if value is not None:
                    cell[key] = value
    return layout


@pytest.mark.parametrize("how, rule, said", [
    ("role", "start", "role and player do not agree"),
    ("fields", "start", "buildings ['farm']"),
    ("piece", "start", "farm pieces are not one beside each start"),
])
def test_each_start_rule_breaks_alone(how, rule, said):
    _, check = _cones_terrain()
    found = check.check(_cones_start_broken(how))
    assert {v.rule for v in found} == {rule} and any(said in v.message for v in found), [(v.rule, v.message) for v in found]


def test_start_neighbours_and_around_break_alone(tmp_path):
    _, check = _cones_terrain()
    layout = _cones_start_broken("around")
    found = check.check(layout)
    # the Mountain hex that went to the lowland breaks the Mountain's rules too; of the start rules, only `around`
    start = [v for v in found if v.rule.startswith("start")]
    assert [v.rule for v in start] == ["start"] and "beside the start" in start[0].message
    # a start moved off its corner: neighbours (and its Farms) break, nothing about the terrain
    gen, _ = _cones_terrain()
    rng, inland = random.Random(31), None
    while inland is None:                        # a layout with a lowland hex clear of starts and Doom Points
        layout = gen.generate(rng, 8, PLAIN)
        start = next(p for p in layout.placements if p["kind"] == "start")
        inland = next((c for c in layout.cells if c["type"] in ("green", "blue", "red", "yellow") and
                      sum(m in {(d["q"], d["r"]) for d in layout.cells} for m in grid.hex_neighbours((c["q"], c["r"]))) == 6
                      and min(grid.hex_distance((c["q"], c["r"]), tuple(p["cell"])) for p in layout.placements) >= 3
                      and not any(d.get("doom_point") and grid.hex_distance((c["q"], c["r"]), (d["q"], d["r"])) <= 1
                                  for d in layout.cells)), None)
    start["cell"] = [inland["q"], inland["r"]]
    found = check.check(layout)
    assert {v.rule for v in found} == {"start"} and "has 6 neighbours, not 3" in found[0].message


def test_start_areas_apart_breaks_alone(tmp_path):
    section = yaml.safe_load(CONES_TERRAIN.read_text())["layout"]
    section["starts"].pop("neighbours")            # any buildable hex may be a start
    section["starts"].pop("around_piece")
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}))
    gen = declared_gen.Generator(declared.load(section, path), "cones-of-dunshire")
    check = declared_check.Checker(path, "cones-of-dunshire")
    rng = random.Random(5)
    for _ in range(50):
        layout = gen.generate(rng, 8, PLAIN)
        assert check.check(layout) == []
        starts = [tuple(p["cell"]) for p in layout.placements if p["kind"] == "start"]
        assert all(grid.hex_distance(a, b) >= 2 for i, a in enumerate(starts) for b in starts[i + 1:])
    starts = [p for p in layout.placements if p["kind"] == "start"]
    high = {(d["q"], d["r"]) for d in layout.cells if d["type"] in ("mountain", "summit")}
    moves = [(j, c) for i, a in enumerate(starts) for j in range(len(starts)) if j != i for c in layout.cells
             if grid.hex_distance((c["q"], c["r"]), tuple(a["cell"])) == 2 and c["type"] in ("green", "blue", "red", "yellow")
             and all(grid.hex_distance((c["q"], c["r"]), tuple(p["cell"])) >= 2 for k, p in enumerate(starts) if k != j)
             and not high & set(grid.hex_neighbours((c["q"], c["r"])))
             and not any(d.get("doom_point") for d in layout.cells if grid.hex_distance((d["q"], d["r"]), (c["q"], c["r"])) <= 1)]
    j, c = moves[0]                              # a start moved two steps from another: their areas meet
    starts[j]["cell"] = [c["q"], c["r"]]
    found = check.check(layout)
    assert [v.rule for v in found] == ["start-apart"] and "share a cell" in found[0].message


@pytest.mark.parametrize("how, rule, said", [
    ("count", "doom-point-count", "not exactly 6"),
    ("apart", "doom-point-hexes", "doom_point closer than 2"),
    ("start", "doom-point-hexes", "on a start or beside one"),
    ("type", "marker", "on normal only"),
])
def test_each_marker_rule_breaks_alone(how, rule, said):
    gen, check = _cones_terrain()
    layout = gen.generate(random.Random(40), 8, PLAIN)
    cells = {(c["q"], c["r"]): c for c in layout.cells}
    doom = [k for k, c in cells.items() if c.get("doom_point")]
    starts = [tuple(p["cell"]) for p in layout.placements if p["kind"] == "start"]
    areas = {m for s in starts for m in (s, *grid.hex_neighbours(s))}
    normal = ("green", "blue", "red", "yellow", "black")

    def far_from(k, others):
        return all(grid.hex_distance(k, o) >= 2 for o in others)

    if how == "count":                          # one more, on a hex no other rule minds
        k = next(k for k, c in cells.items() if c["type"] in normal and k not in areas and far_from(k, doom))
        cells[k]["doom_point"] = True
    elif how == "apart":                        # one moves beside another
        k = next(k for k in grid.hex_neighbours(doom[0]) if k in cells and cells[k]["type"] in normal
                 and k not in areas and far_from(k, doom[1:]) and k not in doom)
        del cells[doom[1]]["doom_point"]
        cells[k]["doom_point"] = True
    elif how == "start":                        # one moves onto a start
        k = next(s for s in starts if far_from(s, doom[1:]))
        del cells[doom[0]]["doom_point"]
        cells[k]["doom_point"] = True
    else:                                       # one moves onto the Mountain
        k = next(k for k, c in cells.items() if c["type"] == "mountain" and far_from(k, doom[1:]))
        del cells[doom[0]]["doom_point"]
        cells[k]["doom_point"] = True
    found = check.check(layout)
    assert [v.rule for v in found] == [rule] and said in found[0].message, [(v.rule, v.message) for v in found]


def test_a_marker_count_that_breaks_its_rule_is_refused(tmp_path):
    section = yaml.safe_load(CONES_TERRAIN.read_text())["layout"]
    section["markers"][0]["count"] = 7
    with pytest.raises(declared.DeclarationError, match=r"doom-point-count.*markers: puts 7"):
        declared.load(section, tmp_path / "map.yaml")


@pytest.mark.parametrize("how, said", [
    ("inland", "not one step from the board"),
    ("deck", "not its challenge-deck"),
    ("twice", "0 challenge space(s) with {'god': 'kraken', 'color': 'blue'}"),
])
def test_each_outside_rule_breaks_alone(how, said):
    gen, check = _cones_terrain()
    layout = gen.generate(random.Random(50), 8, PLAIN)
    spaces = [c for c in layout.cells if c["type"] == "challenge"]
    decks = [p for p in layout.placements if p["kind"] == "challenge-deck"]
    board = {(c["q"], c["r"]) for c in layout.cells if c["type"] != "challenge"}
    if how == "inland":                          # a space two steps out, far from the others
        ring2 = [c for c in grid.hex_disc((spaces[0]["q"], spaces[0]["r"]), 1)
                 if c not in board and not board & set(grid.hex_neighbours(c))]
        spaces[0]["q"], spaces[0]["r"] = ring2[0]
        next(d for d in decks if d["god"] == spaces[0]["god"])["cell"] = list(ring2[0])
    elif how == "deck":
        decks[0]["god"], decks[1]["god"] = decks[1]["god"], decks[0]["god"]
    else:                                        # the Kraken's space made the Dragon's
        kraken = next(c for c in spaces if c["god"] == "kraken")
        kraken["god"], kraken["color"] = "dragon", "green"
    found = check.check(layout)
    assert [v.rule for v in found] == ["outside"] and said in found[0].message, [(v.rule, v.message) for v in found]
    assert _terrain_verdicts(layout) == (False, False)
