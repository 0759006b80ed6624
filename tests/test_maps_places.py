"""The map vocabulary's places (docs/maps.md: `in:`, rings, `areas`, bags dealt into a place and
shared out, `seats`, `pieces`, `quota` with `spread`/`where`/`in`, `count` with `in`): what each
makes the generator do, that the checker holds each alone, and each mistake located in map.yaml."""
from __future__ import annotations

import copy
import random
import re
from collections import Counter

import pytest
import yaml

from generator.maps import declared, declared_check, declared_gen
from generator.maps.rules import MapOptions

PLAIN = MapOptions(balance=False)

# a 6 x 6 square board: ring 0 the edge (20 cells), ring 1 (12), ring 2 the centre (4)
GAME = {
    "board": {"grid": "square", "shape": "rectangle", "cols": 6, "rows": 6,
              "fixed": [{"type": "camp", "cells": [[1, 1], [4, 4]]}]},
    "players": {"min": 1, "max": 2, "default": 2},
    "regions": {"zones": {"rim": {"ring": 0}, "mid": {"ring": 1}, "core": {"ring": 2}}},
    "types": {"sea": {}, "camp": {}, "gem": {"values": {"worth": [1, 2]}}, "rock": {}, "idol": {}},
    "groups": {"loot": ["gem", "idol"]},
    "fill": "sea",
    "areas": [
        {"id": "depth", "in": {"zones": "mid"}, "values": {"deep": False}, "quote": "The middle ring is shallow."},
        {"id": "depth", "in": {"zones": "core"}, "values": {"deep": True}, "quote": "The core is deep."},
        {"id": "glow", "in": {"ring": 2}, "over": "loot", "values": {"glow": 3}, "quote": "Loot in the core glows."},
    ],
    "deal": [
        {"type": "gem", "count": 4, "values": {"worth": 1}, "in": {"zones": "mid"}, "share": "quadrants", "group": "g"},
        {"type": "rock", "count": 4, "in": {"zones": "mid"}, "share": "quadrants", "group": "r"},
        {"type": "gem", "count": 1, "values": {"worth": 2}, "in": {"zones": "core"}},
        {"type": "idol", "count": 1, "in": {"zones": "core"}},
    ],
    "seats": {"key": "owner", "turn": True, "near": 2, "id": "seats", "quote": "Players sit at the camps.",
              "places": [{"name": "a", "cell": [1, 1], "pieces": [{"kind": "hero", "cell": [1, 1]},
                                                                  {"kind": "ship", "cell": [0, 0], "in": {"ring": 0, "quadrants": "nw"}}]},
                         {"name": "b", "cell": [4, 4], "pieces": [{"kind": "hero", "cell": [4, 4]},
                                                                  {"kind": "ship", "cell": [5, 5], "in": {"ring": 0, "quadrants": "se"}}]}],
              "taken": {1: ["a"], 2: ["a", "b"]}},
    "pieces": [{"id": "idol-guard", "kind": "guard", "over": "loot", "where": {"deep": True}, "fields": {"count": 1},
                "quote": "Every deep treasure is guarded."}],
    "constraints": [
        {"id": "gems-mid", "count": "gem", "in": {"zones": "mid"}, "exactly": 4, "quote": "Four gems in the middle ring."},
        {"id": "even-rocks", "quota": "rock", "per": "quadrants", "in": {"zones": "mid"}, "spread": 0, "quote": "Rocks evenly."},
        {"id": "even-small-gems", "quota": "gem", "per": "quadrants", "in": {"zones": "mid"}, "where": {"worth": 1},
         "spread": 0, "policy": True, "quote": "House rule: small gems evenly."},
    ],
    "objective": [{"start_spread": "worth"}],
}


def load(tmp_path, section=None):
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section or GAME}, sort_keys=False))
    spec = declared.load(section or GAME, path)
    return declared_gen.Generator(spec, "places"), declared_check.Checker(path, "places")


def at(layout, x, y):
    return next(c for c in layout.cells if (c["x"], c["y"]) == (x, y))


def ring(c):
    return min(c["x"], c["y"], 5 - c["x"], 5 - c["y"])


def quadrant(c):
    return ("n" if c["y"] <= 2 else "s") + ("w" if c["x"] <= 2 else "e")


def test_generated_layouts_keep_every_place_rule(tmp_path):
    gen, check = load(tmp_path)
    rng = random.Random(1)
    for _ in range(60):
        players = rng.choice((1, 2))
        layout = gen.generate(rng, players, PLAIN)
        assert check.check(layout) == [], [str(v) for v in check.check(layout)]
        cells = layout.cells
        # bags into a place: gems and rocks only in ring 1, one of each per quadrant; the core's two
        mid = [c for c in cells if ring(c) == 1 and c["type"] != "camp"]
        assert Counter(c["type"] for c in mid) == {"gem": 4, "rock": 4, "sea": 2}
        for t in ("gem", "rock"):
            assert Counter(quadrant(c) for c in mid if c["type"] == t) == {"nw": 1, "ne": 1, "sw": 1, "se": 1}
        core = [c for c in cells if ring(c) == 2]
        assert sorted(c["type"] for c in core) == ["gem", "idol", "sea", "sea"]
        assert all(c["type"] == "sea" for c in cells if ring(c) == 0)
        # areas: values by place (and type)
        assert all(c["deep"] is False for c in cells if ring(c) == 1)
        assert all(c["deep"] is True for c in core) and all("deep" not in c for c in cells if ring(c) == 0)
        assert all(c.get("glow") == (3 if c["type"] in ("gem", "idol") else None) for c in core)
        # seats: the owner on each place's cell, the pieces of each taken seat
        assert at(layout, 1, 1)["owner"] == 1 and at(layout, 4, 4)["owner"] == (2 if players == 2 else None)
        seated = sorted((p["kind"], tuple(p["cell"]), p["owner"]) for p in layout.placements if p["kind"] in ("hero", "ship"))
        want = [("hero", (1, 1), 1), ("ship", (0, 0), 1)] + ([("hero", (4, 4), 2), ("ship", (5, 5), 2)] if players == 2 else [])
        assert seated == sorted(want)
        # pieces: a guard on every deep gem or idol
        guards = sorted(tuple(p["cell"]) for p in layout.placements if p["kind"] == "guard")
        assert guards == sorted((c["x"], c["y"]) for c in core if c["type"] in ("gem", "idol"))
        assert all(p["count"] == 1 for p in layout.placements if p["kind"] == "guard")


def _first_legal(tmp_path):
    gen, check = load(tmp_path)
    return gen.generate(random.Random(4), 2, PLAIN), check


def _move_rock_across(layout):
    """A rock and a gem-free sea cell of ring 1 in another quadrant change places."""
    rock = next(c for c in layout.cells if c["type"] == "rock")
    sea = next(c for c in layout.cells if ring(c) == 1 and c["type"] == "sea" and quadrant(c) != quadrant(rock))
    rock["type"], sea["type"] = "sea", "rock"


@pytest.mark.parametrize("how, rule, said, policy", [
    ("area", "depth", "has deep none, not False", False),
    ("area-stray", "depth", "which no area gives it", False),
    ("area-over", "glow", "has glow none, not 3", False),
    ("seat-owner", "seats", "the seats hold players", False),
    ("seat-piece", "seats", "the seats' pieces differ", False),
    ("piece", "idol-guard", "guard piece(s), needs 1", False),
    ("quota-spread", "even-rocks", "more than 0 apart", False),
    ("count-in", "gems-mid", "not 4", False),
])
def test_each_place_rule_breaks_alone(tmp_path, how, rule, said, policy):
    layout, check = _first_legal(tmp_path)
    cells, placements = layout.cells, layout.placements
    if how == "area":
        del next(c for c in cells if ring(c) == 1)["deep"]
    elif how == "area-stray":
        next(c for c in cells if ring(c) == 0)["deep"] = False
    elif how == "area-over":
        del next(c for c in cells if c["type"] == "idol")["glow"]
    elif how == "seat-owner":
        at(layout, 1, 1)["owner"] = 2          # both seats player 2
    elif how == "seat-piece":
        placements.remove(next(p for p in placements if p["kind"] == "hero"))
    elif how == "piece":
        placements.remove(next(p for p in placements if p["kind"] == "guard"))
    elif how == "quota-spread":
        _move_rock_across(layout)
    else:                                      # a gem of the middle ring becomes a rock: 3 gems
        next(c for c in cells if c["type"] == "gem" and ring(c) == 1)["type"] = "rock"
        next(c for c in cells if c["type"] == "rock" and ring(c) == 1).pop("worth", None)
    found = check.check(layout)
    ours = [v for v in found if v.rule == rule]
    assert ours and any(said in v.message for v in ours), [str(v) for v in found]
    if how == "count-in":                     # the rock left a gem's worth behind, and the quadrants are uneven
        return
    assert {v.rule for v in found} == {rule}, [str(v) for v in found]


def test_seats_may_turn_and_ships_may_sail_within_their_place(tmp_path):
    layout, check = _first_legal(tmp_path)
    for c, p in (((1, 1), 2), ((4, 4), 1)):     # a turn of the seats, pieces following
        at(layout, *c)["owner"] = p
    for piece in layout.placements:
        if piece.get("owner"):
            piece["owner"] = 3 - piece["owner"]
    ship = next(p for p in layout.placements if p["kind"] == "ship" and p["cell"] == [0, 0])
    ship["cell"] = [2, 0]                       # still ring 0 in the north-west
    assert check.check(layout) == []
    ship["cell"] = [3, 0]                       # the north-east: not its place
    assert [v.rule for v in check.check(layout)] == ["seats"]
    section = copy.deepcopy(GAME)
    section["seats"]["turn"] = False
    _, strict = load(tmp_path, section)
    ship["cell"] = [0, 0]
    assert [v.rule for v in strict.check(layout)] == ["seats"]


def test_a_broken_policy_quota_is_a_note(tmp_path):
    layout, check = _first_legal(tmp_path)
    gems = [c for c in layout.cells if c["type"] == "gem" and ring(c) == 1]
    rocks = [c for c in layout.cells if c["type"] == "rock" and quadrant(c) != quadrant(gems[0])]
    for key in ("type",):                        # a small gem and a rock of another quadrant swap
        gems[0][key], rocks[0][key] = rocks[0][key], gems[0][key]
    rocks[0]["worth"] = gems[0].pop("worth")
    found = check.check(layout)
    notes = [v for v in found if v.rule == "even-small-gems"]
    assert notes and all(v.policy for v in notes)


def test_objective_counts_a_mapping_as_its_sum_and_looks_from_the_seats(tmp_path):
    section = copy.deepcopy(GAME)
    section["types"]["gem"]["values"]["worth"] = [{"gold": 1}, {"gold": 1, "silver": 1}]
    for bag in section["deal"]:
        if bag["type"] == "gem":
            bag["values"]["worth"] = {"gold": 1} if bag["values"]["worth"] == 1 else {"gold": 1, "silver": 1}
    section["constraints"][2]["where"] = {"worth": {"gold": 1}}
    gen, check = load(tmp_path, section)
    layout = gen.generate(random.Random(2), 2, PLAIN)
    assert check.check(layout) == []
    m = gen.metrics(layout)
    cells = {(c["x"], c["y"]): c for c in layout.cells}
    for seat, total in zip(((1, 1), (4, 4)), m["worth_near_starts"]):
        near = [c for xy, c in cells.items() if abs(xy[0] - seat[0]) + abs(xy[1] - seat[1]) <= 2 and "worth" in c]
        assert total == sum(sum(c["worth"].values()) for c in near)


MISTAKES = [
    (lambda s: s["areas"][0].update({"in": {"zone": "mid"}}), r"areas\[1\]\.in\.zone: is neither ring nor a cut"),
    (lambda s: s["areas"][0].update({"in": {"zones": "deep"}}), r"areas\[1\]\.in\.zones: 'deep' is not a part of zones"),
    (lambda s: s["areas"][0].update({"in": {"ring": 7}}), r"areas\[1\]\.in: holds no cell of the board"),
    (lambda s: s["types"]["rock"].update({"values": {"deep": True}}), r"areas\[1\]\.values\.deep: is a value of type rock already"),
    (lambda s: s["areas"].append({"in": {"ring": 1}, "values": {"deep": True}}), r"areas\[4\]\.values\.deep: is given to cells areas\[1\] gives it to"),
    (lambda s: s["deal"][0].pop("in"), r"deal\[1\]\.share: needs in:"),
    (lambda s: s["deal"][3].update({"in": {"ring": [1, 2]}}), r"deal\[4\]\.in: overlaps the place of another bag"),
    (lambda s: s["deal"][1].update({"count": 9}), r"deal\[1\]\.in: deals 13 tiles with 1 players into 10 free cells"),
    (lambda s: s["deal"][1].update({"share": "wedges"}), r"deal\[2\]\.share: is 'wedges', but deal\[1\] shares"),
    (lambda s: s["seats"]["taken"].update({2: ["a"]}), r"seats\.taken\.2: must list 2 different places"),
    (lambda s: s["seats"]["places"][0]["pieces"][1].update({"cell": [5, 0]}), r"seats\.places\[1\]\.pieces\[2\]\.cell: cell \[5, 0\] is not in the piece's place"),
    (lambda s: s["seats"]["places"][0]["pieces"][0].update({"owner": 1}), r"seats\.places\[1\]\.pieces\[1\]\.owner: is the seat's player"),
    (lambda s: s["pieces"][0]["fields"].update({"cell": [0, 0]}), r"pieces\[1\]\.fields: sets cell"),
    (lambda s: s["constraints"][1].pop("spread"), r"constraints\[2\]: a quota needs min:, max: or spread:"),
    (lambda s: s["constraints"][0].update({"in": {"zones": "rim", "ring": 2}}), r"constraints\[1\]\.in: holds no cell"),
    (lambda s: s["regions"]["zones"].update({"all": {"ring": [0, 1]}}), r"regions\.zones\.all: cell \[0, 0\] is in two parts"),
]


@pytest.mark.parametrize("edit, said", MISTAKES)
def test_each_mistake_in_a_place_is_located(tmp_path, edit, said):
    section = copy.deepcopy(GAME)
    edit(section)
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    with pytest.raises(declared.DeclarationError) as error:
        declared.load(section, path)
    message = str(error.value)
    assert re.match(r".*map\.yaml:\d+:\d+: layout\.", message), message
    assert re.search(said, message), message


def test_an_unknown_top_level_key_is_named_under_layout(tmp_path):
    section = copy.deepcopy(GAME)
    section["seatz"] = section.pop("seats")
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    with pytest.raises(declared.DeclarationError) as error:
        declared.load(section, path)
    assert re.match(r".*map\.yaml:\d+:\d+: layout: unknown key 'seatz'; did you mean 'seats'\?", str(error.value)), str(error.value)


def test_a_count_the_deal_cannot_keep_is_still_checked(tmp_path):
    """Rules the deal keeps by itself are not checked again while dealing; one it cannot keep
    (five gems asked in the middle ring, four dealt there) fails every board, named."""
    section = copy.deepcopy(GAME)
    section["constraints"][0]["exactly"] = 5
    gen, _ = load(tmp_path, section)
    with pytest.raises(declared_gen.NoLayout, match=r"gems-mid 40"):
        gen.generate(random.Random(1), 2, MapOptions(balance=False, budget=40))


def test_nearest_spread_measures_the_steps_from_each_seat(tmp_path):
    section = copy.deepcopy(GAME)
    section["objective"] = [{"nearest_spread": "loot"}]
    gen, _ = load(tmp_path, section)
    layout = gen.generate(random.Random(3), 2, PLAIN)
    m = gen.metrics(layout)
    loot = [(c["x"], c["y"]) for c in layout.cells if c["type"] in ("gem", "idol")]
    want = [min(abs(x - a) + abs(y - b) for x, y in loot) for a, b in ((1, 1), (4, 4))]
    assert m["loot_nearest"] == want and m["loot_nearest_spread"] == max(want) - min(want)
    assert gen.score(m) == -m["loot_nearest_spread"]
