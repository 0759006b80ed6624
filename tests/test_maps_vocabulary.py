"""The map vocabulary as a designer meets it (issue 24): a marsh game written only in docs/maps.md
terms, whose layouts pnpgen's own checker must pass; each bug found there, and each rule broken
alone in a layout the checker must refuse."""
from __future__ import annotations

import copy
import json
import random
import re

import pytest
import yaml

from conftest import run_cli
from generator.maps import declared, declared_check, declared_gen, engine
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions

PLAIN = MapOptions(balance=False)
NUMBERS = [2, 3, 3, 4, 4, 5, 5, 6, 8, 9, 9, 10, 11, 12]

MARSH = {
    "board": {"grid": "hex", "shape": "hexagon", "radius": 3},
    "players": {"min": 2, "max": 3, "default": 3},
    "types": {"reed": {"values": {"food": 1}}, "pool": {"values": {"food": 2}},
              "mud": {"values": {"depth": [1, 2]}}, "bog": {}, "heron": {}},
    "groups": {"wet": ["reed", "pool"]},
    "fill": "bog",
    "deal": [{"type": "reed", "count": 8}, {"type": "pool", "count": 6},
             {"type": "mud", "count": 3, "values": {"depth": 1}}, {"type": "mud", "count": 2, "values": {"depth": 2}}],
    "tokens": [{"name": "number", "over": "wet", "values": NUMBERS}],
    "starts": {"over": "bog", "near": 1},
    "outside": [{"type": "heron"}],
    "constraints": [
        {"id": "heron-far", "min_distance": ["heron", "pool"], "distance": 3, "quote": "The heron keeps away from pools."},
        {"id": "one-twelve", "count": "wet", "where": {"number": 12}, "exactly": 1, "quote": "One 12."},
        {"id": "reeds-apart", "not_adjacent": ["reed", "pool"], "policy": True, "quote": "Reeds ring no pool."},
    ],
}


def marsh(tmp_path, edit=None):
    section = copy.deepcopy(MARSH)
    if edit:
        edit(section)
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    spec = declared.load(section, path)
    return declared_gen.Generator(spec, "marsh"), declared_check.Checker(path, "marsh")


def rules_broken(check, layout) -> list[str]:
    return sorted(v.rule for v in check.check(layout))


def test_a_space_off_the_board_keeps_its_distance_from_board_types(tmp_path):
    gen, check = marsh(tmp_path)
    rng = random.Random(3)
    for _ in range(150):
        assert rules_broken(check, gen.generate(rng, 3, PLAIN)) == []


def test_a_count_where_a_token_has_a_value_is_met_by_the_generator(tmp_path):
    gen, check = marsh(tmp_path, lambda s: s["tokens"][0].update(values=NUMBERS[:-2] + [12, 12]))
    with pytest.raises(declared_gen.NoLayout, match=r"boards rejected by: one-twelve"):
        gen.generate(random.Random(1), 3, PLAIN)          # two 12s can never make one: said by name
    gen, check = marsh(tmp_path)
    layout = gen.generate(random.Random(1), 3, PLAIN)
    assert sum(c.get("number") == 12 for c in layout.cells) == 1 and rules_broken(check, layout) == []


def test_two_token_lists_of_one_name_are_refused(tmp_path):
    with pytest.raises(declared.DeclarationError, match=r"tokens\[2\]\.name: a second token named 'number'"):
        marsh(tmp_path, lambda s: s["tokens"].append({"name": "number", "over": "pool", "values": [1]}))


def test_a_per_player_count_quota_is_read_and_kept(tmp_path):
    quota = {"id": "pools-spread", "quota": "pool", "per": "quadrants", "min": {2: 1, 3: 1}, "max": {2: 3, 3: 2},
             "quote": "Pools in every quarter."}
    gen, check = marsh(tmp_path, lambda s: s["constraints"].append(quota))
    rng = random.Random(2)
    for players in (2, 3, 3):
        layout = gen.generate(rng, players, PLAIN)
        assert rules_broken(check, layout) == []
    # three pools in one quarter: only the quota breaks (3 players: at most 2)
    gen, check = marsh(tmp_path, lambda s: s["constraints"].append({**quota, "max": {2: 3, 3: 1}}))
    found = [v for v in check.check(layout) if v.rule == "pools-spread"]
    assert found and "outside 1-1" in found[0].message


def test_an_objective_over_a_value_each_tile_carries_scores_it(tmp_path):
    gen, _ = marsh(tmp_path, lambda s: s.update(objective=[{"region_spread": "depth", "per": ["quadrants"]}]))
    rng = random.Random(5)
    spreads = {gen.metrics(gen.generate(rng, 3, PLAIN))["depth_quadrants_spread"] for _ in range(20)}
    assert max(spreads) > 0 and len(spreads) > 1


def test_an_objective_over_a_token_scores_it(tmp_path):
    gen, _ = marsh(tmp_path, lambda s: s.update(objective=[{"start_spread": "number"}]))
    rng = random.Random(5)
    metrics = [gen.metrics(gen.generate(rng, 3, PLAIN)) for _ in range(10)]
    assert all(len(m["number_near_starts"]) == 3 for m in metrics)
    assert len({m["number_near_starts_spread"] for m in metrics}) > 1


def _good(tmp_path):
    gen, check = marsh(tmp_path)
    layout = gen.generate(random.Random(9), 3, PLAIN)
    assert rules_broken(check, layout) == []
    return layout, check


def _wet(layout) -> list[dict]:
    return [c for c in layout.cells if c["type"] in ("reed", "pool")]


@pytest.mark.parametrize("edit, said", [
    (lambda L: _wet(L)[0].update(number=7), r"number tokens .*7"),
    (lambda L: next(c for c in _wet(L) if c["number"] == 2).update(number=12), r"number tokens .*12"),
    (lambda L: next(c for c in _wet(L) if c["number"] == 3).update(number="3"), r"number tokens .*'3'"),
])
def test_check_refuses_token_values_the_rules_do_not_deal(tmp_path, edit, said):
    layout, check = _good(tmp_path)
    edit(layout)
    found = [v for v in check.check(layout) if v.rule == "token"]
    assert found and __import__("re").search(said, found[0].message), check.check(layout)


def test_check_refuses_two_players_starting_on_one_cell(tmp_path):
    layout, check = _good(tmp_path)
    starts = [p for p in layout.placements if p["kind"] == "start"]
    starts[1]["cell"] = list(starts[0]["cell"])
    found = [v for v in check.check(layout) if v.rule == "start"]
    assert found and "two or more players start on" in found[0].message


def test_check_refuses_a_second_space_off_the_board(tmp_path):
    layout, check = _good(tmp_path)
    heron = next(c for c in layout.cells if c["type"] == "heron")
    spots = [(heron["q"] + dq, heron["r"] + dr) for dq, dr in ((0, 1), (1, 0), (0, -1), (-1, 0), (1, -1), (-1, 1))]
    on = {(c["q"], c["r"]) for c in layout.cells}
    q, r = next(s for s in spots if s not in on and any(((s[0] + a, s[1] + b) in on) for a, b in
                                                        ((0, 1), (1, 0), (0, -1), (-1, 0), (1, -1), (-1, 1))))
    layout.cells.append({"q": q, "r": r, "type": "heron"})
    assert "outside" in rules_broken(check, layout)


# --- failure a designer can act on ----------------------------------------------------------
POOLS_SPREAD = {"id": "pools-spread", "quota": "pool", "per": "quadrants", "min": 1, "quote": "A pool in every quarter."}


def test_no_layout_names_the_rules_that_rejected_most_boards(tmp_path):
    # six pools, two in every quarter: no board can (dealing grows the pond as one, so a pool in
    # every quarter alone can be met)
    gen, _ = marsh(tmp_path, lambda s: s["constraints"].extend([
        {**POOLS_SPREAD, "min": 2}, {"id": "pools-joined", "connected": "pool", "quote": "One pond."}]))
    with pytest.raises(declared_gen.NoLayout) as caught:
        gen.generate(random.Random(1), 3, MapOptions(balance=False, budget=60))
    said = str(caught.value)
    counts = dict((rule, int(n)) for rule, n in re.findall(r"([a-z-]+) (\d+)", said.split("rejected by: ")[1].split(";")[0]))
    assert sum(counts.values()) == 60 and set(counts) <= {"pools-spread", "pools-joined"}
    assert list(counts) == sorted(counts, key=lambda r: -counts[r])          # most first
    assert "in 60 boards" in said and "loosen the rules named first" in said and "raise the budget (--budget 600)" in said
    docs = (__import__("conftest").ROOT / "docs" / "maps.md").read_text()
    assert "loosen the rules named first, deal fewer\n  tiles, or raise the budget (--budget 4,000)" in docs


def _marsh_pack(tmp_path, edit=None):
    pack = tmp_path / "marsh"
    pack.mkdir()
    (pack / "game.yaml").write_text("title: Marsh\n")
    section = copy.deepcopy(MARSH)
    if edit:
        edit(section)
    (pack / "map.yaml").write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    return pack


def test_count_writes_the_layouts_it_found_and_names_the_seeds_that_failed(tmp_path):
    pack = _marsh_pack(tmp_path, lambda s: s["constraints"].append(POOLS_SPREAD))
    # with a budget of one board, seed 22 finds a layout and 20, 21, 23, 24 do not
    code, out, err = run_cli("map", pack, "--seed", "20", "--count", "5", "--budget", "1", "--balance", "off",
                             "--out", tmp_path / "out")
    assert code == 1
    assert re.search(r"error: 4 of 5 seeds found no layout: seed 20: marsh: no layout .* in 1 board; boards "
                     r"rejected by: pools-spread 1", err), err
    assert [int(s) for s in re.findall(r"seed (\d+):", err)] == [20, 21, 23, 24]
    [written] = (tmp_path / "out" / "marsh").glob("marsh-maps-*p-20-x5.json")     # named with the player count
    data = json.loads(written.read_text())
    assert data["seed"] == 22
    code, out, err = run_cli("map", pack, "--check", written)
    assert code == 0, out + err
    # when no seed finds one, nothing is written
    code, out, err = run_cli("map", pack, "--seed", "20", "--count", "2", "--budget", "1", "--out", tmp_path / "none")
    assert code == 2 and "no seed of 20-21 found a layout" in err and not (tmp_path / "none").exists()


def test_the_budget_is_bounded(tmp_path):
    code, _, err = run_cli("map", "shires", "--budget", "100001", "--out", tmp_path)
    assert code == 2 and "argument --budget: 100001 is outside 1-100,000 boards" in err


# --- gaps of the vocabulary (issue 24): each rule kept by the generator, broken alone -----------
def tiny(tmp_path, section: dict):
    base = {"board": {"grid": "square", "shape": "rectangle", "cols": 5, "rows": 5}, "players": {"min": 2, "max": 2},
            "fill": "plain", "types": {"plain": {}}}
    section = {**base, **section}
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    return declared_gen.Generator(declared.load(section, path), "tiny"), declared_check.Checker(path, "tiny")


def sizes_of_pieces(layout, types) -> list[int]:
    from generator.maps import grid
    return [len(p) for t in types for p in grid.components(
        [(c["x"], c["y"]) for c in layout.cells if c["type"] == t], "square")]


CLUSTERS = {"types": {"plain": {}, "wood": {}, "lake": {}}, "groups": {"terrain": ["wood", "lake"]},
            "deal": [{"type": "wood", "count": 7}, {"type": "lake", "count": 6}],
            "constraints": [{"id": "small-groves", "clusters": "terrain", "max": {2: 2}, "quote": "No more than two of a terrain together."}]}


def test_clusters_keeps_each_connected_piece_of_a_type_small(tmp_path):
    gen, check = tiny(tmp_path, CLUSTERS)
    rng = random.Random(4)
    for _ in range(100):
        layout = gen.generate(rng, 2, PLAIN)
        assert max(sizes_of_pieces(layout, ["wood", "lake"])) <= 2 and check.check(layout) == []
    # three woods in a row, the rest unchanged in number: only the clusters rule breaks
    for cell in layout.cells:
        cell["type"] = "plain"
    for x, y, t in [(0, 0, "wood"), (1, 0, "wood"), (2, 0, "wood"), (4, 0, "wood"), (0, 2, "wood"), (2, 2, "wood"),
                    (4, 2, "wood"), (0, 4, "lake"), (2, 4, "lake"), (4, 4, "lake"), (1, 3, "lake"), (3, 3, "lake"),
                    (3, 1, "lake")]:
        next(c for c in layout.cells if (c["x"], c["y"]) == (x, y))["type"] = t
    found = check.check(layout)
    assert [v.rule for v in found] == ["small-groves"] and "larger than 2: wood (0, 0), (1, 0), (2, 0)" in found[0].message


def test_clusters_needs_a_max(tmp_path):
    section = copy.deepcopy(CLUSTERS)
    del section["constraints"][0]["max"]
    with pytest.raises(declared.DeclarationError, match=r"constraints\[1\]: clusters: needs max:"):
        tiny(tmp_path, section)


EQUAL = {"types": {"plain": {}, "land": {}}, "deal": [{"type": "land", "count": 10}],
         "tokens": [{"name": "number", "over": "land", "values": [2, 3, 3, 4, 4, 5, 5, 6, 6, 8]}],
         "constraints": [{"id": "no-twins", "tokens_not_adjacent": "number", "equal": True, "quote": "Equal numbers never touch."}]}


def test_equal_token_values_never_touch(tmp_path):
    gen, check = tiny(tmp_path, EQUAL)
    rng = random.Random(6)
    for _ in range(100):
        layout = gen.generate(rng, 2, PLAIN)
        at = {(c["x"], c["y"]): c["number"] for c in layout.cells if "number" in c}
        assert not any(at.get((x + 1, y)) == v or at.get((x, y + 1)) == v for (x, y), v in at.items())
        assert check.check(layout) == []
    # two touching lands swap their numbers so that two 3s (or 4s, ...) touch: that rule alone
    at = {(c["x"], c["y"]): c for c in layout.cells if "number" in c}
    for (x, y), cell in at.items():
        twin = next((o for o in at.values() if o is not cell and o["number"] == cell["number"]), None)
        side = at.get((x + 1, y)) or at.get((x, y + 1))
        if twin is not None and side is not None and side is not twin:
            side["number"], twin["number"] = twin["number"], side["number"]
            break
    found = check.check(layout)
    assert [v.rule for v in found] == ["no-twins"] and "touching equal number tokens" in found[0].message


def test_tokens_not_adjacent_needs_values_or_equal(tmp_path):
    section = copy.deepcopy(EQUAL)
    section["constraints"][0].pop("equal")
    with pytest.raises(declared.DeclarationError, match=r"constraints\[1\]: needs values: .* or equal: true"):
        tiny(tmp_path, section)


STARTS = {"types": {"plain": {}, "treasure": {}}, "deal": [{"type": "treasure", "count": 2}],
          "starts": {"over": "plain", "near": 1},
          "constraints": [
              {"id": "starts-on-edge", "start_edge": "on", "quote": "Each player starts on the edge."},
              {"id": "fair-treasure", "start_nearest": "treasure", "max": 3, "spread": 1,
               "quote": "Each start the same distance, within one, from a treasure."}]}


def _steps(layout, start) -> int:
    return min(abs(start[0] - c["x"]) + abs(start[1] - c["y"]) for c in layout.cells if c["type"] == "treasure")


def test_starts_on_the_edge_and_near_a_treasure_alike(tmp_path):
    gen, check = tiny(tmp_path, STARTS)
    rng = random.Random(8)
    for _ in range(100):
        layout = gen.generate(rng, 2, PLAIN)
        starts = [tuple(p["cell"]) for p in layout.placements if p["kind"] == "start"]
        assert all(x in (0, 4) or y in (0, 4) for x, y in starts)
        steps = [_steps(layout, s) for s in starts]
        assert max(steps) <= 3 and max(steps) - min(steps) <= 1 and check.check(layout) == []
    start = next(p for p in layout.placements if p["kind"] == "start")
    other = next(tuple(p["cell"]) for p in layout.placements if p["kind"] == "start" and p is not start)
    plains = [(c["x"], c["y"]) for c in layout.cells if c["type"] == "plain" and (c["x"], c["y"]) != other]
    seen = set()
    for cell in plains:                 # moved inland, or too far from a treasure: each rule alone
        start["cell"] = list(cell)
        found = [v.rule for v in check.check(layout)]
        if len(found) == 1:
            seen.add(found[0])
    assert seen == {"starts-on-edge", "fair-treasure"}


@pytest.mark.parametrize("edit, said", [
    (lambda s: s["constraints"][0].update(start_edge="yes"), r"constraints\[1\]\.start_edge: is 'yes'; use on"),
    (lambda s: s["constraints"][1].pop("max") and s["constraints"][1].pop("spread"), r"constraints\[2\]: start_nearest: needs"),
    (lambda s: s["constraints"][1].update(start_nearest="gold"), r"constraints\[2\]\.start_nearest: 'gold' is not a declared"),
    (lambda s: s.pop("starts"), r"starts: the start rules need start positions"),
])
def test_a_mistake_in_the_start_rules_is_located(tmp_path, edit, said):
    section = copy.deepcopy(STARTS)
    edit(section)
    with pytest.raises(declared.DeclarationError, match=r"map\.yaml:\d+:\d+: layout\." + said):
        tiny(tmp_path, section)


def test_type_spread_evens_the_pips_of_each_resource(tmp_path):
    """The classic balance: each resource's number tokens counted as their pips, as even as can be."""
    pips = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    goal = {"type_spread": "number", "over": "wet", "as": pips}
    gen, _ = marsh(tmp_path, lambda s: s.update(objective=[goal]))
    metrics = gen.metrics(gen.generate(random.Random(2), 3, PLAIN))
    assert set(metrics["number_per_type"]) == {"pool", "reed"}
    assert metrics["number_per_type_spread"] == abs(metrics["number_per_type"]["pool"] - metrics["number_per_type"]["reed"])
    from generator.maps import engine
    pack = _marsh_pack(tmp_path, lambda s: s.update(objective=[goal], tries=40))
    on = [engine.generate(pack, seed, 3, MapOptions()).metrics["number_per_type_spread"] for seed in range(5)]
    off = [engine.generate(pack, seed, 3, PLAIN).metrics["number_per_type_spread"] for seed in range(5)]
    assert sum(on) < sum(off)
    with pytest.raises(declared.DeclarationError, match=r"objective\[1\]: type_spread needs over:"):
        marsh(tmp_path, lambda s: s.update(objective=[{"type_spread": "number"}]))
    with pytest.raises(declared.DeclarationError, match=r"objective\[1\]\.as\.6: must be a number"):
        marsh(tmp_path, lambda s: s.update(objective=[{**goal, "as": {6: "five"}}]))


def test_the_built_in_regions_cut_ties_as_the_docs_say():
    """docs/maps.md, Terms: the middle column is west, the middle row north, the diagonal sw, the
    middle cell west in wedges; order nw, ne, sw, se / ne, sw / n, e, s, w."""
    from generator.maps import grid
    cells = [(x, y) for y in range(3) for x in range(3)]

    def named(scheme):
        names = grid.REGION_SCHEMES[scheme][0]
        return dict(zip(cells, (names[k] for k in grid.region_of(cells, "square", scheme))))
    quad, half, wedge = named("quadrants"), named("diagonal-halves"), named("wedges")
    assert grid.REGION_SCHEMES["quadrants"][0] == ("nw", "ne", "sw", "se")
    assert [quad[c] for c in [(1, 1), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2)]] == ["nw", "nw", "sw", "nw", "ne", "se"]
    assert [half[c] for c in [(2, 0), (0, 0), (1, 1), (0, 2)]] == ["ne", "sw", "sw", "sw"]
    assert [wedge[c] for c in [(1, 1), (2, 2), (0, 0), (1, 0), (1, 2)]] == ["w", "e", "w", "n", "s"]
    docs = (__import__("conftest").ROOT / "docs" / "maps.md").read_text()
    assert "a cell on the middle\n  column is west and one on the middle row north" in docs


BANKS = {"types": {"plain": {}, "ford": {}}, "deal": [{"type": "ford", "count": 3}],
         "regions": {"banks": {"west": [[0, y] for y in range(5)], "east": [[4, y] for y in range(5)]}},
         "constraints": [{"id": "a-ford-each-bank", "quota": "ford", "per": "banks", "min": 1,
                          "quote": "A ford on each bank."}]}


def test_a_pack_draws_its_own_regions(tmp_path):
    gen, check = tiny(tmp_path, BANKS)
    rng = random.Random(1)
    for _ in range(60):
        layout = gen.generate(rng, 2, PLAIN)
        fords = [c["x"] for c in layout.cells if c["type"] == "ford"]
        assert 0 in fords and 4 in fords and check.check(layout) == []
    at = {(c["x"], c["y"]): c for c in layout.cells}
    for cell in layout.cells:
        cell["type"] = "plain"
    for spot in [(0, 2), (2, 2), (4, 2)]:
        at[spot]["type"] = "ford"
    assert check.check(layout) == []
    at[(0, 2)]["type"], at[(1, 2)]["type"] = "plain", "ford"      # the west bank's ford moved inland
    found = check.check(layout)
    assert [v.rule for v in found] == ["a-ford-each-bank"] and "west has 0" in found[0].message


@pytest.mark.parametrize("edit, said", [
    (lambda s: s["regions"]["banks"]["west"].append([9, 9]), r"regions\.banks\.west\[6\]: cell \[9, 9\] is not on the board"),
    (lambda s: s["regions"]["banks"]["east"].append([0, 0]), r"regions\.banks\.east\[6\]: cell \[0, 0\] is in two parts"),
    (lambda s: s["regions"].update(quadrants={"a": [[0, 0]]}), r"regions\.quadrants: 'quadrants' is a built-in cut"),
    (lambda s: s["constraints"][0].update(per="bank"), r"constraints\[1\]\.per: is 'bank'; use one of quadrants, "
                                                       r"diagonal-halves, wedges, banks"),
])
def test_a_mistake_in_the_regions_is_located(tmp_path, edit, said):
    section = copy.deepcopy(BANKS)
    edit(section)
    with pytest.raises(declared.DeclarationError, match=r"map\.yaml:\d+:\d+: layout\." + said):
        tiny(tmp_path, section)


def dungeon(gap: bool = True) -> dict:
    """A 5 x 5 dungeon: a wall between columns 1 and 2, open at the bottom row when `gap`."""
    rows = range(4) if gap else range(5)
    return {"board": {"grid": "square", "shape": "rectangle", "cols": 5, "rows": 5,
                      "walls": [[[1, y], [2, y]] for y in rows],
                      "fixed": [{"type": "door", "cells": [[0, 0]]}]},
            "types": {"plain": {}, "door": {}, "treasure": {}, "monster": {}},
            "deal": [{"type": "treasure", "count": 1}, {"type": "monster", "count": 1}],
            "constraints": [
                {"id": "treasure-reachable", "reachable": "treasure", "from": "door", "by": "height", "step": 0,
                 "quote": "The treasure can be walked to from the door."},
                {"id": "monster-far", "min_distance": ["monster", "door"], "distance": 5,
                 "quote": "The monster lurks at least five steps from the door."}]}


def _put(layout, **where):
    for cell in layout.cells:
        if cell["type"] in where:
            cell["type"] = "plain"
    for t, (x, y) in where.items():
        next(c for c in layout.cells if (c["x"], c["y"]) == (x, y))["type"] = t


def test_walls_are_walked_around_by_distance(tmp_path):
    from generator.maps import grid
    gen, check = tiny(tmp_path, dungeon())
    cells = [(x, y) for y in range(5) for x in range(5)]
    _, walled = grid.walled("square", cells, [[(1, y), (2, y)] for y in range(4)])
    assert walled((0, 0), (2, 0)) == 10 and walled((0, 0), (1, 2)) == 3
    rng = random.Random(2)
    seen = set()
    for _ in range(100):
        layout = gen.generate(rng, 2, PLAIN)
        monster = next((c["x"], c["y"]) for c in layout.cells if c["type"] == "monster")
        assert walled((0, 0), monster) >= 5 and check.check(layout) == []
        seen.add(monster)
    assert (2, 0) in seen or (2, 1) in seen          # two steps away as the crow flies, ten around the wall
    _put(layout, monster=(2, 0), treasure=(4, 4))
    assert check.check(layout) == []
    _put(layout, monster=(1, 2), treasure=(4, 4))   # three steps from the door: that rule alone
    assert [v.rule for v in check.check(layout)] == ["monster-far"]


def test_walls_cut_what_is_reachable(tmp_path):
    gen, check = tiny(tmp_path, dungeon(gap=False))
    rng = random.Random(3)
    for _ in range(60):
        layout = gen.generate(rng, 2, PLAIN)
        assert next(c["x"] for c in layout.cells if c["type"] == "treasure") <= 1 and check.check(layout) == []
    monster = next((c["x"], c["y"]) for c in layout.cells if c["type"] == "monster")
    _put(layout, treasure=(3, 3), monster=monster)
    assert [v.rule for v in check.check(layout)] == ["treasure-reachable"]


@pytest.mark.parametrize("wall, said", [
    ([[0, 0], [2, 0]], r"board\.walls\[1\]: cells \[0, 0\] and \[2, 0\] are not neighbours"),
    ([[4, 0], [5, 0]], r"board\.walls\[1\]: cell \[5, 0\] is not on the board"),
    ([[0, 0]], r"board\.walls\[1\]: must be a pair of neighbouring cells"),
])
def test_a_mistake_in_the_walls_is_located(tmp_path, wall, said):
    section = dungeon()
    section["board"]["walls"] = [wall]
    with pytest.raises(declared.DeclarationError, match=r"map\.yaml:\d+:\d+: layout\." + said):
        tiny(tmp_path, section)


HARBOURS = __import__("conftest").ROOT / "docs" / "examples" / "harbour-island"


def test_the_harbour_island_of_the_docs_is_its_map_yaml_and_balances_pips(tmp_path):
    doc = (__import__("conftest").ROOT / "docs" / "maps.md").read_text()
    block = doc.split("### Second worked example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    assert yaml.safe_load(block)["layout"] == yaml.safe_load((HARBOURS / "map.yaml").read_text())["layout"]
    code, out, err = run_cli("map", HARBOURS, "--seed", "1", "--count", "20", "--balance", "off", "--out", tmp_path)
    assert code == 0, err
    [path] = (tmp_path / "harbour-island").glob("harbour-island-maps-*p-1-x20.json")
    code, out, err = run_cli("map", HARBOURS, "--check", path)
    assert code == 0 and out.count("legal harbour-island layout") == 20, out + err
    from generator.maps import engine, grid
    for layout in json.loads(path.read_text())["layouts"]:
        cells = {(c["q"], c["r"]): c for c in layout["cells"]}
        ring = set(grid.hex_ring((0, 0), 3))
        assert {k for k, c in cells.items() if c["type"] in ("sea", "harbour")} == ring
        assert not any(cells[k]["type"] == cells[m]["type"] == "harbour" for k in ring for m in grid.hex_neighbours(k) if m in ring)
        numbers = {k: c["number"] for k, c in cells.items() if "number" in c}
        assert not any(numbers.get(m) == v for k, v in numbers.items() for m in grid.hex_neighbours(k))
    balanced = [engine.generate(HARBOURS, s, None, MapOptions()).metrics["number_per_type_spread"] for s in range(8)]
    plain = [engine.generate(HARBOURS, s, None, PLAIN).metrics["number_per_type_spread"] for s in range(8)]
    assert sum(balanced) < sum(plain) / 2


PER_COUNT = {"players": {"min": 2, "max": 3}, "types": {"plain": {}, "camp": {}},
             "deal": [{"type": "camp", "count": {2: 3, 3: 4}}],
             "starts": {"over": "plain", "near": 1},
             "constraints": [
                 {"id": "camps-apart", "min_distance": ["camp", "camp"], "distance": {2: 4, 3: 2},
                  "quote": "Camps far apart with two players, apart with three."},
                 {"id": "starts-apart", "start_distance": {2: 6, 3: 3}, "quote": "Starts spread out."}]}


def test_distances_take_a_value_per_player_count(tmp_path):
    from generator.maps import grid
    gen, check = tiny(tmp_path, PER_COUNT)
    rng = random.Random(5)
    for players, apart, starts_apart in ((2, 4, 6), (3, 2, 3)):
        for _ in range(40):
            layout = gen.generate(rng, players, PLAIN)
            camps = [(c["x"], c["y"]) for c in layout.cells if c["type"] == "camp"]
            starts = [tuple(p["cell"]) for p in layout.placements]
            assert min(grid.square_distance(a, b) for a in camps for b in camps if a != b) >= apart
            assert min(grid.square_distance(a, b) for a in starts for b in starts if a != b) >= starts_apart
            assert check.check(layout) == []
    # camps three steps apart: legal with three players, and with two the one broken rule
    def made(players, camps, starts):
        cells = [{"x": x, "y": y, "type": "camp" if (x, y) in camps else "plain"} for y in range(5) for x in range(5)]
        return Layout(game="tiny", seed=1, players=players, grid={"type": "square"}, cells=cells,
                      placements=[{"kind": "start", "player": n + 1, "cell": list(c)} for n, c in enumerate(starts)])
    assert check.check(made(3, [(0, 0), (0, 3), (4, 0), (4, 2)], [(4, 4), (1, 0), (2, 2)])) == []
    found = check.check(made(2, [(0, 0), (0, 3), (4, 0)], [(4, 4), (1, 0)]))
    assert [v.rule for v in found] == ["camps-apart"] and "closer than 4" in found[0].message


def test_a_distance_missing_a_player_count_is_located(tmp_path):
    section = copy.deepcopy(PER_COUNT)
    section["constraints"][0]["distance"] = {2: 4}
    with pytest.raises(declared.DeclarationError, match=r"layout\.constraints\[1\]\.distance: gives no number for 3 players"):
        tiny(tmp_path, section)
    section["constraints"][0]["distance"] = {2: 4, 3: 1}
    with pytest.raises(declared.DeclarationError, match=r"constraints\[1\]\.distance\.3: must be a whole number from 2 to 100"):
        tiny(tmp_path, section)
