"""Lords of Doomspire maps: generated boards are legal for every player count, each rule of
map.yaml is caught alone by the checker, layouts are reproducible, balancing helps, and the
checker never raises on malformed input."""
from __future__ import annotations

import copy
import inspect
import random
import re
import statistics
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.maps import engine
from generator.maps import layout as layout_mod
from map_oracles import lords_of_doomspire_check as checker
from map_oracles import lords_of_doomspire_gen as gen
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions, Violation
from map_oracles.data import map_data

GAME = "lords-of-doomspire"
DATA = map_data(GAME)
RULES = sorted(DATA["rules"])
OFF = MapOptions(balance=False)
LOW, HIGH, DEFAULT = DATA["players"]["min"], DATA["players"]["max"], DATA["players"]["default"]


def plain(seed: int, players: int = DEFAULT) -> Layout:
    return engine.generate(GAME, seed, players, OFF)


def rule_ids(layout: Layout) -> list[str]:
    return sorted({v.rule for v in engine.check(layout)} | {v.rule for v in checker.check(layout)})


def cell_at(layout: Layout, x: int, y: int) -> dict:
    return next(c for c in layout.cells if (c["x"], c["y"]) == (x, y))


def ring(c: dict) -> int:
    return min(c["x"], c["y"], 7 - c["x"], 7 - c["y"])


def quadrant(c: dict) -> str:
    return ("n" if c["y"] < 4 else "s") + ("w" if c["x"] < 4 else "e")


def cells_where(layout: Layout, **want) -> list[dict]:
    """Land cells whose keys equal want (plus ring=..., quadrant=... on position), sorted."""
    out = []
    for c in layout.cells:
        if c["type"] == "ocean":
            continue
        where = {**c, "ring": ring(c), "quadrant": quadrant(c)}
        if all(where.get(k) == v for k, v in want.items()):
            out.append(c)
    return sorted(out, key=lambda c: (c["y"], c["x"]))


def mix_count(biome: str, **want) -> int:
    return sum(e["count"] for e in DATA["tiles"][biome] if all(e.get(k) == v for k, v in want.items()))


# --- generated layouts are legal ----------------------------------------------------------------

def assert_counts(layout: Layout, players: int) -> None:
    land = [c for c in layout.cells if c["type"] != "ocean"]
    ocean = [c for c in layout.cells if c["type"] == "ocean"]
    assert len(land) == 64 and {(c["x"], c["y"]) for c in land} == {(x, y) for x in range(8) for y in range(8)}
    assert len(ocean) == 36 and Counter(c["zone"] for c in ocean) == {"nw": 9, "ne": 9, "se": 9, "sw": 9}
    types = Counter(c["type"] for c in land)
    for type_ in ("adventure", "oasis", "trader", "mercenary-camp", "temple", "bears-den", "resource"):
        want = sum(mix_count(b, type=type_) for b in ("plains", "hills", "mountains"))
        assert types[type_] == want, type_
    assert types["home"] == 4 and types["doomspire"] == 1
    assert sorted(c["owner"] for c in land if c["type"] == "home" and c["owner"]) == list(range(1, players + 1))
    assert Counter(c["zone"] for c in land if c.get("coastal")) == {z: 7 for z in ("nw", "ne", "se", "sw")}
    assert all(c["face_down"] == (ring(c) >= 2) for c in land)
    kinds = Counter(p["kind"] for p in layout.placements)
    assert kinds["knight"] == players and kinds["boat"] == players
    assert kinds["adventure-tokens"] == mix_count("plains", type="adventure") + mix_count("plains", type="oasis")
    starred = sum(1 for c in land if c.get("starred"))
    assert starred == sum(e["count"] for b in ("plains", "hills") for e in DATA["tiles"][b]
                          if sum(e.get("resources", {}).values()) > 1)


@pytest.mark.parametrize("players", range(LOW, HIGH + 1))
@settings(max_examples=1000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_every_seed_gives_a_legal_board(players, seed):
    layout = plain(seed, players)
    assert engine.check(layout) == [], [str(v) for v in engine.check(layout)]
    assert_counts(layout, players)


def test_balanced_layouts_are_legal_too():
    for players in range(LOW, HIGH + 1):
        layout = engine.generate(GAME, 7, players, MapOptions())
        assert engine.check(layout) == []
        assert layout.metrics["balance"] == "on" and "score" in layout.metrics


def test_player_counts_come_from_the_map_data():
    assert engine.player_counts(GAME) == (LOW, HIGH, DEFAULT) == (2, 4, 4)
    assert plain(1).players == DEFAULT
    with pytest.raises(engine.MapError):
        engine.generate(GAME, 1, HIGH + 1, OFF)


def test_board_geometry_matches_the_rulebook():
    layout = plain(3)
    # "Plains: These are the outer 2 layers", hills the next ring, "Mountains: ... the center 4 tiles"
    assert {c["biome"] for c in cells_where(layout, ring=0)} | {c["biome"] for c in cells_where(layout, ring=1)} == {"plains"}
    assert len(cells_where(layout, biome="hills")) == 12 and len(cells_where(layout, biome="mountains")) == 4
    assert sorted(c["type"] for c in cells_where(layout, biome="mountains")) == ["adventure"] * 3 + ["doomspire"]
    # The rulebook's boat examples: (0,0) and "three steps east (0,3)" share the northwest zone,
    # "(0,6), near the northeast corner" is in the northeast zone. The rulebook writes (row, col).
    assert cell_at(layout, 0, 0)["zone"] == cell_at(layout, 3, 0)["zone"] == "nw"
    assert cell_at(layout, 6, 0)["zone"] == "ne"
    # "each touching 7 coastal land tiles": the land tiles next to each L-shaped zone
    for zone in ("nw", "ne", "se", "sw"):
        water = {(c["x"], c["y"]) for c in layout.cells if c["type"] == "ocean" and c["zone"] == zone}
        touched = {(c["x"], c["y"]) for c in layout.cells if c["type"] != "ocean" and any(
            (c["x"] + dx, c["y"] + dy) in water for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))}
        assert len(touched) == 7
        assert all(cell_at(layout, *xy).get("coastal") and cell_at(layout, *xy)["zone"] == zone for xy in touched)


def test_quadrants_get_equal_shares_of_the_plains():
    for seed in range(30):
        layout = plain(seed)
        for group in ("normal-resources", "starred-resources", "adventure", "oasis", "special"):
            kinds = [e for e in DATA["tiles"]["plains"] if e["share"] == group]
            per = Counter(quadrant(c) for c in cells_where(layout, biome="plains") if any(
                c["type"] == e["type"] and c.get("resources") == e.get("resources") for e in kinds))
            counts = [per[q] for q in ("nw", "ne", "se", "sw")]
            assert max(counts) - min(counts) <= 1, (seed, group, counts)


def test_unused_corners_keep_an_unowned_home():
    layout = plain(5, 2)
    homes = {(c["x"], c["y"]): c["owner"] for c in layout.cells if c["type"] == "home"}
    assert homes == {(0, 0): 1, (7, 7): 2, (7, 0): None, (0, 7): None}
    assert {tuple(p["cell"]) for p in layout.placements if p["kind"] == "knight"} == {(0, 0), (7, 7)}


# --- every rule, broken alone -------------------------------------------------------------------

def swap_tiles(layout: Layout, a: dict, b: dict) -> None:
    """Exchange the tiles lying on two positions (their adventure tokens move with them)."""
    keys = ("type", "resources", "starred", "question_marks", "label")
    ta = {k: a.pop(k) for k in keys if k in a}
    tb = {k: b.pop(k) for k in keys if k in b}
    a.update(tb)
    b.update(ta)
    pa, pb = [a["x"], a["y"]], [b["x"], b["y"]]
    for p in layout.placements:
        if p["kind"] == "adventure-tokens":
            p["cell"] = pb if p["cell"] == pa else pa if p["cell"] == pb else p["cell"]


def break_home_owners(layout: Layout) -> None:
    """Players no longer numbered clockwise: swap the owners of the NE and SW homes (their
    knights and boats follow)."""
    ne, sw = cell_at(layout, 7, 0), cell_at(layout, 0, 7)
    ne["owner"], sw["owner"] = sw["owner"], ne["owner"]
    owner_of = {"nw": 1, "ne": ne["owner"], "se": 3, "sw": sw["owner"]}
    for p in layout.placements:
        if p["kind"] in ("knight", "boat"):
            p["owner"] = owner_of[quadrant({"x": p["cell"][0], "y": p["cell"][1]})]


def move_placement(layout: Layout, kind: str, player: int, cell: list, **extra) -> None:
    p = next(p for p in layout.placements if p["kind"] == kind and p.get("owner") == player)
    p["cell"] = cell
    p.update(extra)


BREAKERS = {
    "structure": lambda L: setattr(L, "players", HIGH + 1),
    "board-size": lambda L: L.cells.remove(cell_at(L, 3, 3)),
    "ocean-zones": lambda L: cell_at(L, -1, -1).update(zone="ne"),
    "coastal-tiles": lambda L: cell_at(L, 3, 0).update(coastal=False),
    "home-corners": lambda L: cell_at(L, 0, 0).update(resources={"food": 2}),
    "home-owners": break_home_owners,
    "biomes": lambda L: cell_at(L, 1, 1).update(tier=2),
    "face-down": lambda L: cell_at(L, 2, 2).update(face_down=False),
    "mountain-tiles": lambda L: cells_where(L, biome="mountains", type="adventure")[0].update(type="oasis"),
    "adventure-tier": lambda L: cells_where(L, biome="plains", type="adventure")[0].update(question_marks=2),
    "starred-tiles": lambda L: cells_where(L, biome="plains", resources={"food": 2})[0].update(starred=False),
    "tile-mix": lambda L: cells_where(L, biome="plains", resources={"food": 2})[0].update(resources={"gold": 2}),
    "quadrant-share": lambda L: swap_tiles(L, cells_where(L, quadrant="nw", biome="plains", resources={"food": 1})[0],
                                           cells_where(L, quadrant="ne", biome="plains", type="adventure")[0]),
    "knights": lambda L: move_placement(L, "knight", 1, [1, 0]),
    "boats": lambda L: move_placement(L, "boat", 1, [8, -1], zone="ne"),
    "adventure-tokens": lambda L: L.placements.remove(
        next(p for p in L.placements if p["kind"] == "adventure-tokens")),
}


def test_every_rule_has_a_breaking_test():
    assert sorted(BREAKERS) == RULES


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seed", [11, 2024])
def test_breaking_one_rule_reports_exactly_that_rule(rule, seed):
    """A declared layout with one rule broken: the hand-written oracle names exactly that rule,
    and the declared checker (what `pnpgen map --check` runs) finds it broken too, as a rule or,
    for a house policy, as a policy."""
    layout = plain(seed)
    assert engine.check(layout) == [] and checker.check(layout) == []
    BREAKERS[rule](layout)
    violations = checker.check(layout)
    assert {v.rule for v in violations} == {rule}, [str(v) for v in violations]
    declared = engine.check(layout)
    assert declared, rule
    if rule in DATA["policies"]:
        assert all(v.policy for v in declared) and {v.rule for v in declared} == {rule}
    else:
        assert engine.broken_rules(declared), rule
    for v in violations:
        assert isinstance(v, Violation) and v.quote == DATA["rules"][rule]
        if rule != "structure":
            assert re.search(r"\(-?\d+, -?\d+\)", v.message), v.message   # names the cells


@pytest.mark.parametrize("mutate, words", [
    (lambda L: setattr(L, "game", "shires"), "not 'lords-of-doomspire'"),
    (lambda L: setattr(L, "players", 1), "2-4 players"),
    (lambda L: setattr(L, "players", True), "2-4 players"),
    (lambda L: setattr(L, "grid", {"type": "hex", "orientation": "pointy"}), "square grid"),
    (lambda L: cell_at(L, 4, 4).update(type="castle"), "unknown type 'castle'"),
    (lambda L: cell_at(L, 4, 4).update(type=["adventure"]), "unknown type"),
    (lambda L: L.cells.append(dict(cell_at(L, 4, 4))), "two cells at (4, 4)"),
    (lambda L: L.cells.append({"x": 12, "y": 0, "type": "ocean", "zone": "ne"}), "(12, 0) is off the board"),
    (lambda L: cell_at(L, 2, 0).update(face_down="no"), "face_down must be true or false"),
    (lambda L: cells_where(L, type="resource")[0].update(resources={"mana": 1}), "resources must map"),
    (lambda L: cells_where(L, type="resource")[0].pop("resources"), "resources must map"),
    (lambda L: L.cells.append("tile"), "cell 101 is not an object"),
    (lambda L: L.placements.append({"kind": "dragon", "cell": [0, 0]}), "kind is one of"),
    (lambda L: L.placements.append({"kind": "knight", "cell": [20, 20], "owner": 1}), "no cell"),
    (lambda L: L.placements.append({"kind": "knight", "cell": [0, 0], "owner": "red"}), "owner must be"),
    (lambda L: setattr(L, "cells", None), "cells must be a list"),
])
def test_structural_problems_are_reported_without_raising(mutate, words):
    layout = plain(4)
    mutate(layout)
    violations = checker.check(layout)       # directly: engine.check would dispatch on the game
    assert {v.rule for v in violations} == {"structure"}
    assert any(words in v.message for v in violations), [v.message for v in violations]


def seat_two_players(layout: Layout, one: tuple, two: tuple) -> None:
    """Put player 1 in corner `one` and player 2 in corner `two`, knights and boats included."""
    for c in layout.cells:
        if c["type"] == "home":
            c["owner"] = {one: 1, two: 2}.get((c["x"], c["y"]))
    for p in layout.placements:
        if p["kind"] in ("knight", "boat"):
            x, y = one if p["owner"] == 1 else two
            p["cell"] = [x, y] if p["kind"] == "knight" else [8 if x else -1, 8 if y else -1]
            if p["kind"] == "boat":
                p["zone"] = ("n" if y == 0 else "s") + ("w" if x == 0 else "e")


def test_two_player_seats_may_be_rotated_but_not_adjacent():
    layout = plain(8, 2)
    seat_two_players(layout, (7, 0), (0, 7))       # a quarter turn: NE and SW, still opposite
    assert engine.check(layout) == []
    seat_two_players(layout, (0, 0), (7, 0))       # NW and NE sit side by side
    assert rule_ids(layout) == ["home-owners"]


MUTATIONS = st.sampled_from(["drop", "none", "string", "list", "negative", "dict", "float", "bool"])
KEYS = st.sampled_from(["type", "x", "y", "resources", "starred", "question_marks", "face_down",
                        "tier", "biome", "coastal", "zone", "owner", "label"])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 1000), picks=st.lists(st.tuples(st.integers(0, 200), KEYS, MUTATIONS),
                                                  min_size=1, max_size=4),
       pplace=st.lists(st.tuples(st.integers(0, 100), st.sampled_from(["kind", "cell", "owner", "count", "zone"]),
                                 MUTATIONS), max_size=2))
@pytest.mark.slow
def test_checker_never_raises_on_mangled_layouts(seed, picks, pplace):
    layout = plain(seed % 10, 2 + seed % 3)
    values = {"none": None, "string": "x", "list": [1, 2], "negative": -3, "dict": {"a": 1},
              "float": 1.5, "bool": True}
    for index, key, how in picks:
        cell = layout.cells[index % len(layout.cells)]
        if how == "drop":
            cell.pop(key, None)
        else:
            cell[key] = copy.deepcopy(values[how])
    for index, key, how in pplace:
        if layout.placements:
            p = layout.placements[index % len(layout.placements)]
            if how == "drop":
                p.pop(key, None)
            else:
                p[key] = copy.deepcopy(values[how])
    violations = checker.check(layout)
    assert all(isinstance(v, Violation) and v.rule in DATA["rules"] for v in violations)


# --- reproducible, balanced, round-trips --------------------------------------------------------

def test_same_seed_same_bytes_and_different_seeds_differ():
    for options in (OFF, MapOptions()):
        a = layout_mod.dumps([engine.generate(GAME, 99, 4, options)])
        b = layout_mod.dumps([engine.generate(GAME, 99, 4, options)])
        assert a == b
    texts = {layout_mod.dumps([plain(seed)]) for seed in range(20)}
    assert len(texts) == 20


def test_generator_uses_only_the_rng_it_is_given():
    random.seed(1)
    a = layout_mod.dumps([gen.generate(random.Random(5), 3, OFF)])
    random.seed(2)
    b = layout_mod.dumps([gen.generate(random.Random(5), 3, OFF)])
    assert a == b


@pytest.mark.slow
def test_balancing_beats_plain_layouts_on_average():
    """The declared objective evens out the resources near each home (the hand-written metrics,
    measured on the same layouts, say the same of yield_near_spread)."""
    seeds = range(20)
    plain_layouts = [plain(s) for s in seeds]
    balanced = [engine.generate(GAME, s, 4, MapOptions()) for s in seeds]
    mean = lambda ls, key: statistics.mean(l.metrics[key] for l in ls)
    assert mean(balanced, "resources_near_starts_spread") < 0.5 * mean(plain_layouts, "resources_near_starts_spread")
    oracle = lambda ls, key: statistics.mean(gen.metrics(l)[key] for l in ls)
    assert oracle(balanced, "yield_near_spread") < 0.5 * oracle(plain_layouts, "yield_near_spread")


def test_metrics_are_json_numbers_rounded():
    m = plain(1).metrics
    assert m["balance"] == "off"
    for key, value in m.items():
        if key != "balance":
            for number in value if isinstance(value, list) else [value]:
                assert isinstance(number, (int, float)) and round(number, 4) == number, key


def test_checker_passes_a_layout_round_tripped_through_json(tmp_path):
    original = engine.generate(GAME, 31, 3, MapOptions())
    path = tmp_path / "doomspire.json"
    path.write_text(layout_mod.dumps([original]))
    [loaded] = layout_mod.load(path)
    assert engine.check(loaded) == []
    assert layout_mod.dumps([loaded]) == layout_mod.dumps([original])


# --- the data and the look ---------------------------------------------------------------------

def test_look_covers_every_cell_type_and_placement():
    assert set(DATA["look"]["cells"]) == set(DATA["cell_types"])
    assert set(DATA["look"]["markers"]) == set(DATA["setup"]["placement_kinds"])
    layout = engine.generate(GAME, 2, 4, MapOptions())
    assert {c["type"] for c in layout.cells} == set(DATA["cell_types"])
    face_down = {c["biome"] for c in layout.cells if c.get("face_down")}
    assert face_down and face_down <= set(DATA["look"]["face_down"])      # every back has a look


def test_tile_mix_fits_the_board():
    assert sum(e["count"] for e in DATA["tiles"]["plains"]) == 48 - 4
    assert sum(e["count"] for e in DATA["tiles"]["hills"]) == 12
    assert sum(e["count"] for e in DATA["tiles"]["mountains"]) == 4
    # "All resource tiles in Tier 2 region are starred, and some in Tier 1."
    assert all(sum(e["resources"].values()) > 1 for e in DATA["tiles"]["hills"] if e["type"] == "resource")
    plains_yields = [sum(e["resources"].values()) for e in DATA["tiles"]["plains"] if e["type"] == "resource"]
    assert 1 in plains_yields and max(plains_yields) > 1


def test_checker_is_written_apart_from_the_generator():
    imports = re.findall(r"^\s*(?:from|import) .*$", inspect.getsource(checker), re.M)
    assert imports and not any("_gen" in line for line in imports), imports
