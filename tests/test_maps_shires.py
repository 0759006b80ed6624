"""Shires map rules: the declared form (components/shires/map.yaml `layout:`) against the
hand-written oracle (tests/map_oracles/): layouts of both generators are legal to both checkers,
every rule is caught by both when broken alone, the checkers survive malformed layouts,
generation is deterministic and balancing helps."""
from __future__ import annotations

import ast
import json
import random
import statistics
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.maps import engine
from generator.maps.grid import edge_cells, hex_distance, hex_neighbours
from generator.maps.layout import Layout, dumps, load
from generator.maps.rules import MapOptions
from map_oracles.data import map_data
from map_oracles import shires_check, shires_gen

DATA = map_data("shires")
RULES = sorted(DATA["rules"])
PLAIN = MapOptions(balance=False)
PLAYER_COUNTS = (3, 4, 5)

# The setup chart of the rulebook, written out here independently of map.yaml.
HEXES = {3: {"hamlet": 15, "blank": 4, "trade": 3},
         4: {"hamlet": 19, "blank": 5, "trade": 4},
         5: {"hamlet": 21, "blank": 6, "trade": 5}}
BUILDINGS = {3: {"timber-camp": 5, "quarry": 5, "iron-mine": 5},
             4: {"timber-camp": 7, "quarry": 6, "iron-mine": 6},
             5: {"timber-camp": 7, "quarry": 7, "iron-mine": 7}}


def plain(seed: int, players: int) -> Layout:
    """A layout of the hand-written oracle generator."""
    return shires_gen.generate(random.Random(seed), players, PLAIN)


def declared_plain(seed: int, players: int) -> Layout:
    """A layout of the declared rules (what `pnpgen map shires --balance off` makes)."""
    return engine.generate("shires", seed, players, PLAIN)


SOURCES = {"oracle": plain, "declared": declared_plain}
POLICIES = set(DATA["policies"])


def verdicts(layout: Layout) -> dict:
    """checker -> (legal?, the policies it notes): the oracle's with map.yaml's `policies`."""
    oracle = shires_check.check(layout)
    declared = engine.check(layout, "shires")
    return {"oracle": (not [v for v in oracle if v.rule not in POLICIES], sorted({v.rule for v in oracle if v.rule in POLICIES})),
            "declared": (not engine.broken_rules(declared), sorted({v.rule for v in declared if v.policy}))}


def agree(layout: Layout) -> tuple:
    """Both checkers' verdict, asserted equal: legal or not, and on a legal layout the same notes."""
    found = verdicts(layout)
    assert found["oracle"][0] == found["declared"][0], (found, layout.to_dict())
    if found["oracle"][0]:
        assert found["oracle"] == found["declared"], (found, layout.to_dict())
    return found["oracle"]


def rule_ids(layout: Layout) -> list[str]:
    return sorted({v.rule for v in shires_check.check(layout)})


def clone(layout: Layout) -> Layout:
    return Layout.from_dict(json.loads(json.dumps(layout.to_dict())))


def coord(cell: dict) -> tuple[int, int]:
    return (cell["q"], cell["r"])


def by_order(layout: Layout) -> list[dict]:
    return sorted(layout.cells, key=lambda c: c["order"])


def recoast(layout: Layout) -> None:
    edge = set(edge_cells([coord(c) for c in layout.cells], "hex"))
    for cell in layout.cells:
        cell["coastal"] = coord(cell) in edge


def move(layout: Layout, old: tuple[int, int], new: tuple[int, int]) -> None:
    """Move the hex at old (with what lies on it) to new, and re-mark the coasts."""
    for cell in layout.cells:
        if coord(cell) == old:
            cell["q"], cell["r"] = new
    for p in layout.placements:
        if tuple(p["cell"]) == old:
            p["cell"] = list(new)
    recoast(layout)


def remove(layout: Layout, at: tuple[int, int]) -> None:
    layout.cells = [c for c in layout.cells if coord(c) != at]
    layout.placements = [p for p in layout.placements if tuple(p["cell"]) != at]
    recoast(layout)


def outside(layout: Layout) -> list[tuple[int, int]]:
    inside = {coord(c) for c in layout.cells}
    return sorted({n for c in inside for n in hex_neighbours(c)} - inside)


# ------------------------------------------------------------------ legal layouts

def assert_legal_setup(layout: Layout, players: int) -> None:
    assert shires_check.check(layout) == []
    assert layout.game == "shires" and layout.players == players
    assert layout.grid == {"type": "hex", "orientation": "pointy"}
    types = [c["type"] for c in layout.cells]
    assert {t: types.count(t) for t in sorted(set(types))} == HEXES[players]
    assert len({coord(c) for c in layout.cells}) == len(layout.cells)
    assert sorted(c["order"] for c in layout.cells) == list(range(1, len(layout.cells) + 1))
    for cell in by_order(layout):
        assert cell["placed_by"] == (cell["order"] - 1) % players + 1
    built = [p["building"] for p in layout.placements if p["kind"] == "starting-building"]
    assert {b: built.count(b) for b in sorted(set(built))} == BUILDINGS[players]
    hamlets = sorted(coord(c) for c in layout.cells if c["type"] == "hamlet")
    fields = sorted(tuple(p["cell"]) for p in layout.placements if p["kind"] == "small-field")
    assert fields == hamlets
    tokens = sorted(tuple(p["cell"]) for p in layout.placements if p["kind"] == "exploration-token")
    explore = sorted(coord(c) for c in layout.cells if c.get("exploration"))
    assert tokens == explore and len(explore) == {3: 2, 4: 3, 5: 3}[players]
    tiles = [c["tile"] for c in layout.cells]
    assert len(set(tiles)) == len(tiles)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_plain_layouts_are_legal(players, seed):
    assert_legal_setup(plain(seed, players), players)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_balanced_layouts_are_legal(players):
    for seed in range(3):
        layout = engine.generate("shires", seed, players, MapOptions())
        assert_legal_setup(layout, players)
        assert layout.metrics["balance"] == "on" and "score" in layout.metrics
        assert engine.check(layout) == []


def test_the_declared_form_drives_map_and_build():
    rules = engine.rules_for("shires")
    assert "python_rules" not in rules.data and [name for name, _ in rules.checkers] == ["declared"]


def test_default_and_range():
    assert shires_gen.PLAYERS == engine.player_counts("shires") == (3, 5, 4)
    assert engine.generate("shires", 5, None, PLAIN).players == 4
    with pytest.raises(engine.MapError):
        engine.generate("shires", 5, 6, PLAIN)


def test_every_hex_is_used_at_five_players():
    layout = plain(11, 5)
    assert len(layout.cells) == 32                         # "32 Shire Hexes"
    assert sorted(c["tile"] for c in layout.cells) == sorted(
        [f"hamlet-{n}" for n in range(1, 22)] + [f"blank-{n}" for n in range(1, 7)]
        + [f"trade-{n}" for n in range(1, 6)])


def test_marked_hexes_are_removed_for_fewer_players():
    layout = plain(12, 3)
    numbers = {t: sorted(int(c["tile"].split("-")[1]) for c in layout.cells if c["type"] == t)
               for t in ("hamlet", "blank", "trade")}
    assert numbers == {"hamlet": list(range(1, 16)), "blank": [1, 2, 3, 4], "trade": [1, 2, 3]}


# ------------------------------------------------------------------ each rule broken alone

def find(players: int, found, source=plain) -> Layout:
    """The first plain layout (seeds 0, 1, ...) that `found` turns into a broken one."""
    for seed in range(300):
        broken = found(source(seed, players))
        if broken is not None:
            return broken
    raise AssertionError("no layout could be broken that way")


def only(layout: Layout, rule: str) -> list:
    violations = shires_check.check(layout)
    assert sorted({v.rule for v in violations}) == [rule], [str(v) for v in violations]
    for v in violations:
        assert v.quote == DATA["rules"][rule] and v.quote
        assert "(" in v.message                              # names the hexes involved
    return violations


def break_hex_counts(layout):
    last = by_order(layout)[-1]
    if last["type"] == "hamlet" or last.get("exploration"):
        return None
    remove(layout, coord(last))
    return layout


def break_hex_tiles(layout):
    cell = next(c for c in layout.cells if c["tile"] == "hamlet-1")
    cell["tile"] = "hamlet-20"                               # marked "5": removed at 4 players
    return layout


def break_placement_order(layout):
    by_order(layout)[-1]["order"] += 5
    return layout


def break_turn_order(layout):
    a, b = by_order(layout)[-2:]
    a["placed_by"], b["placed_by"] = b["placed_by"], a["placed_by"]
    return layout


def break_first_hexes_touch(layout):
    """Move a player's second hex to where, when placed, it touched no hex."""
    cells = by_order(layout)
    second = cells[2 * layout.players - 1]
    earlier = {coord(c) for c in cells[:2 * layout.players - 1]}
    for spot in outside(layout):
        if any(n in earlier for n in hex_neighbours(spot)):
            continue
        trial = clone(layout)
        move(trial, coord(second), spot)
        if rule_ids(trial) == ["first-hexes-touch"]:
            return trial
    return None


def break_later_hexes_touch(layout):
    """Move the last hex to a spot touching only one hex."""
    last = coord(by_order(layout)[-1])
    for spot in outside(layout):
        others = [n for n in hex_neighbours(spot) if n != last and any(coord(c) == n for c in layout.cells)]
        if len(others) == 1:
            move(layout, last, spot)
            return layout
    return None


def break_starting_building(layout):
    building = next(p for p in layout.placements if p["kind"] == "starting-building")
    building["side"] = "upgraded"
    return layout


def break_starting_building_mix(layout):
    building = next(p for p in layout.placements if p.get("building") == "timber-camp")
    building["building"] = "quarry"
    return layout


def break_small_field(layout):
    layout.placements.remove(next(p for p in layout.placements if p["kind"] == "small-field"))
    return layout


def break_exploration_tokens(layout):
    layout.placements.remove(next(p for p in layout.placements if p["kind"] == "exploration-token"))
    return layout


def break_coastal(layout):
    cell = next(c for c in by_order(layout) if c["coastal"])
    cell["coastal"] = False
    return layout


def break_adjacent_faces(layout):
    """The last hex moved to a spot touching two hexes whose faces do not meet."""
    last = coord(by_order(layout)[-1])
    inside = {coord(c) for c in layout.cells} - {last}
    for spot in outside(layout):
        touching = [n for n in hex_neighbours(spot) if n in inside]
        if len(touching) == 2 and hex_distance(*touching) == 2:
            move(layout, last, spot)
            return layout
    return None


BREAKERS = {
    "adjacent-faces": break_adjacent_faces,
    "hex-counts": break_hex_counts,
    "hex-tiles": break_hex_tiles,
    "placement-order": break_placement_order,
    "turn-order": break_turn_order,
    "first-hexes-touch": break_first_hexes_touch,
    "later-hexes-touch": break_later_hexes_touch,
    "starting-building": break_starting_building,
    "starting-building-mix": break_starting_building_mix,
    "small-field": break_small_field,
    "exploration-tokens": break_exploration_tokens,
    "coastal": break_coastal,
}


def test_every_rule_has_a_breaking_test():
    assert sorted(BREAKERS) == RULES


# the declared checker's ids where they differ from the oracle's (a structure check of the
# vocabulary), and the policy a hex touching too few also breaks there
DECLARED_IDS = {"hex-tiles": [{"tile"}], "placement-order": [{"order"}],
                "later-hexes-touch": [{"later-hexes-touch"}, {"later-hexes-touch", "adjacent-faces"}]}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_breaking_one_rule_reports_exactly_that_rule(rule, players, source):
    """Each rule broken alone, on a layout of either generator: the oracle reports that rule, the
    declared checker the same rule (with the rulebook's quote) and the same verdict."""
    broken = find(players, BREAKERS[rule], SOURCES[source])
    only(broken, rule)
    declared = engine.check(broken, "shires")
    assert {v.rule for v in declared} in DECLARED_IDS.get(rule, [{rule}]), [str(v) for v in declared]
    if rule in DATA["rules"] and rule not in DECLARED_IDS:
        assert all(v.quote for v in declared)
    agree(broken)


# more ways to break single rules

def test_later_hex_bridging_opposite_faces_is_a_policy_note():
    """House reading of "touch at least two other hexes on adjacent faces": two faces that meet.
    The rulebook's words allow the looser reading, so --check lists it as a note, not a failure."""
    layout = find(4, break_adjacent_faces)
    violations = only(layout, "adjacent-faces")
    assert "faces that meet" in violations[0].message
    found = engine.check(layout, "shires")
    assert [v.policy for v in found] == [True] and engine.broken_rules(found) == []


@pytest.mark.parametrize("how", ["move", "two", "blank", "unknown"])
def test_starting_building_variants(how):
    layout = plain(3, 4)
    buildings = [p for p in layout.placements if p["kind"] == "starting-building"]
    if how == "move":             # one Hamlet gets two, another none: the mix is unchanged
        buildings[0]["cell"] = buildings[1]["cell"]
    elif how == "two":            # swap two buildings' Hamlets: still legal
        buildings[0]["cell"], buildings[1]["cell"] = buildings[1]["cell"], buildings[0]["cell"]
        assert shires_check.check(layout) == []
        return
    elif how == "blank":          # moved off its Hamlet onto a Blank hex
        blank = next(c for c in layout.cells if c["type"] == "blank")
        buildings[0]["cell"] = [blank["q"], blank["r"]]
    elif how == "unknown":
        buildings[0]["building"] = "sawmill"
        buildings[1]["building"] = "sawmill"
        violations = shires_check.check(layout)
        assert {v.rule for v in violations} == {"starting-building", "starting-building-mix"}
        return
    only(layout, "starting-building")


@pytest.mark.parametrize("how", ["face-up", "on-trade", "two", "large"])
def test_small_field_variants(how):
    layout = plain(4, 5)
    field = next(p for p in layout.placements if p["kind"] == "small-field")
    if how == "face-up":
        field["face_down"] = False
    elif how == "on-trade":
        trade = next(c for c in layout.cells if c["type"] == "trade")
        layout.placements.append(dict(field, cell=[trade["q"], trade["r"]]))
    elif how == "two":
        layout.placements.append(dict(field))
    elif how == "large":
        field["kind"] = "large-field"
    only(layout, "small-field")


@pytest.mark.parametrize("how", ["face-up", "plain-blank", "hamlet"])
def test_exploration_token_variants(how):
    layout = plain(5, 4)
    token = next(p for p in layout.placements if p["kind"] == "exploration-token")
    if how == "face-up":
        token["face_down"] = False
    elif how == "plain-blank":
        blank = next(c for c in layout.cells if c["type"] == "blank" and not c["exploration"])
        layout.placements.append(dict(token, cell=[blank["q"], blank["r"]]))
    elif how == "hamlet":
        hamlet = next(c for c in layout.cells if c["type"] == "hamlet")
        token["cell"] = [hamlet["q"], hamlet["r"]]
    only(layout, "exploration-tokens")


def test_exploration_flag_must_match_the_tile():
    layout = plain(6, 4)
    blank = next(c for c in layout.cells if c["type"] == "blank" and not c["exploration"])
    blank["exploration"] = True
    layout.placements.append({"kind": "exploration-token", "cell": [blank["q"], blank["r"]],
                              "face_down": True, "side": "not-yet-ventured-upon"})
    only(layout, "hex-tiles")


@pytest.mark.parametrize("how", ["duplicate", "unknown", "missing", "wrong-type"])
def test_hex_tile_variants(how):
    layout = plain(7, 5)
    hamlets = [c for c in layout.cells if c["type"] == "hamlet"]
    if how == "duplicate":
        hamlets[0]["tile"] = hamlets[1]["tile"]
    elif how == "unknown":
        hamlets[0]["tile"] = "hamlet-22"
    elif how == "missing":
        del hamlets[0]["tile"]
    elif how == "wrong-type":
        hamlets[0]["tile"] = "trade-1"
    only(layout, "hex-tiles")


@pytest.mark.parametrize("how", ["duplicate", "missing", "text"])
def test_placement_order_variants(how):
    layout = plain(8, 3)
    cells = by_order(layout)
    if how == "duplicate":
        def same_order(layout):
            a, b = by_order(layout)[-2:]
            a["order"] = b["order"]
            return layout if rule_ids(layout) == ["placement-order"] else None
        only(find(3, same_order), "placement-order")
        return
    if how == "missing":
        del cells[5]["order"]
    else:
        cells[5]["order"] = "6"
    assert rule_ids(layout) == ["placement-order"]


def test_turn_order_names_the_hex_and_player():
    layout = plain(9, 4)
    cell = by_order(layout)[-1]
    cell["placed_by"] = cell["placed_by"] % 4 + 1
    [violation] = only(layout, "turn-order")
    assert f"({cell['q']}, {cell['r']})" in violation.message


# ------------------------------------------------------------------ malformed layouts

def test_structural_problems_are_reported_not_raised():
    good = plain(10, 4)

    def ids_after(change) -> set:
        layout = clone(good)
        change(layout)
        violations = shires_check.check(layout)
        assert not any("could not be read" in v.message for v in violations)
        return {v.rule for v in violations}

    assert "game" in ids_after(lambda l: setattr(l, "game", "royal-dukes"))
    assert "player-count" in ids_after(lambda l: setattr(l, "players", 6))
    assert "player-count" in ids_after(lambda l: setattr(l, "players", "four"))
    assert "player-count" in ids_after(lambda l: setattr(l, "players", True))
    assert "grid" in ids_after(lambda l: setattr(l, "grid", {"type": "square"}))
    assert "cell-type" in ids_after(lambda l: l.cells[0].update(type="village"))
    assert "cell-type" in ids_after(lambda l: l.cells[0].update(q="1"))
    assert "cell-type" in ids_after(lambda l: l.cells.append("hex"))
    assert "duplicate-cell" in ids_after(lambda l: l.cells.append(dict(l.cells[3])))
    assert "off-map" in ids_after(lambda l: l.cells.append(dict(l.cells[3], q=50, r=50, tile="blank-6")))
    assert "placement" in ids_after(lambda l: l.placements.append({"kind": "dragon", "cell": [0, 0]}))
    assert "placement" in ids_after(lambda l: l.placements.append({"kind": "small-field", "cell": [99, 99]}))
    assert "placement" in ids_after(lambda l: l.placements.append({"kind": "small-field"}))
    assert "placement" in ids_after(lambda l: l.placements.append(7))
    assert ids_after(lambda l: setattr(l, "cells", [])) >= {"hex-counts", "starting-building-mix"}
    assert ids_after(lambda l: setattr(l, "cells", None))
    assert ids_after(lambda l: setattr(l, "placements", None))


def test_wrong_player_count_for_the_hexes():
    layout = plain(13, 4)
    layout.players = 3
    assert {"hex-counts", "hex-tiles", "starting-building-mix", "turn-order"} <= set(rule_ids(layout))


_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=4),
                  st.lists(st.integers(-2, 2), max_size=3), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


def _mangled(data, make):
    """A copy of a layout `make` gave, with 1-4 cells, placements or top-level keys dropped or
    set to junk."""
    layout = clone(make(data.draw(st.integers(0, 20)), data.draw(st.sampled_from(PLAYER_COUNTS))))
    for _ in range(data.draw(st.integers(1, 4))):
        target = data.draw(st.sampled_from(["cell", "placement", "top"]))
        if target == "cell":
            cell = data.draw(st.sampled_from(layout.cells))
            key = data.draw(st.sampled_from(sorted(cell) + ["extra"]))
            if data.draw(st.booleans()):
                cell.pop(key, None)
            else:
                cell[key] = data.draw(_JUNK)
        elif target == "placement" and layout.placements:
            p = data.draw(st.sampled_from(layout.placements))
            p[data.draw(st.sampled_from(sorted(p)))] = data.draw(_JUNK)
        else:
            setattr(layout, data.draw(st.sampled_from(["players", "game"])), data.draw(_JUNK))
    return layout


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_declared_checker_never_raises_on_mangled_layouts(data):
    """The declared checker, as `pnpgen map --check` runs it, on layouts mangled the same way."""
    layout = _mangled(data, declared_plain)
    from generator.maps.layout import _structure_problem
    assume(not _structure_problem(layout.to_dict()))          # what `pnpgen map --check` lets through
    for v in engine.check(layout, "shires"):
        assert v.rule and v.message


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_checker_never_raises_on_mangled_layouts(data):
    layout = _mangled(data, plain)
    violations = shires_check.check(layout)
    assert all(v.rule in DATA["rules"] or v.rule in DATA["structure"] for v in violations)
    assert not any("could not be read" in v.message for v in violations)


def test_checker_is_written_apart_from_the_generator():
    tree = ast.parse(Path(shires_check.__file__).read_text())
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names] + [node.module or "" for node in ast.walk(tree)
                                            if isinstance(node, ast.ImportFrom)]
    assert not any("shires_gen" in name for name in imported)


# ------------------------------------------------------------------ determinism, JSON, balance

@pytest.mark.parametrize("balance", [False, True])
def test_same_seed_same_bytes(balance):
    options = MapOptions(balance=balance)
    a = engine.generate("shires", 1234, 4, options)
    b = engine.generate("shires", 1234, 4, options)
    c = engine.generate("shires", 1235, 4, options)
    assert dumps([a]) == dumps([b])
    assert dumps([a]) != dumps([c])


def test_json_round_trip(tmp_path):
    layouts = [engine.generate("shires", seed, players, MapOptions(balance=seed % 2 == 0))
               for seed, players in ((1, 3), (2, 4), (3, 5))]
    path = tmp_path / "shires.json"
    path.write_text(dumps(layouts))
    loaded = load(path)
    assert [dumps([l]) for l in loaded] == [dumps([l]) for l in layouts]
    for layout in loaded:
        assert shires_check.check(layout) == []
    single = tmp_path / "one.json"
    single.write_text(dumps(layouts[:1]))
    [one] = load(single)
    assert engine.check(one) == []


@pytest.mark.slow
def test_balance_improves_fairness():
    """The declared objective (the players' simulated choices of a starting Hamlet get even sums)
    evens what it optimises, and the oracle's own start metrics follow."""
    plain_l = [engine.generate("shires", seed, 4, PLAIN) for seed in range(20)]
    fair_l = [engine.generate("shires", seed, 4, MapOptions()) for seed in range(20)]

    def mean(layouts, key):
        return statistics.mean(shires_gen.metrics(l)[key] for l in layouts)
    assert statistics.mean(l.metrics["building_picks_spread"] for l in fair_l) < \
        0.5 * statistics.mean(l.metrics["building_picks_spread"] for l in plain_l)
    assert mean(fair_l, "start_value_spread") < mean(plain_l, "start_value_spread")
    assert mean(fair_l, "start_wood_spread") < mean(plain_l, "start_wood_spread")
    for layout in fair_l:
        json.dumps(layout.metrics)
        assert all(round(v, 4) == v for v in layout.metrics.values() if isinstance(v, float))


# ------------------------------------------------------------------ the two checkers agree

def _layouts(rng: random.Random, n: int) -> list[Layout]:
    """n layouts of each generator, at random player counts."""
    out = []
    for _ in range(n):
        players = rng.choice(PLAYER_COUNTS)
        out.append(shires_gen.generate(rng, players, PLAIN))
        out.append(engine.generate("shires", rng.randrange(10 ** 9), players, PLAIN))
    return out


def _broken(rng: random.Random, layout: Layout) -> Layout:
    """One random change a hand editing a layout file might make."""
    out = clone(layout)
    cells, placements = out.cells, out.placements
    a, b = rng.sample(cells, 2)
    move_ = rng.randrange(12)
    if move_ == 0:                                  # two hexes swap their places in the laying order
        a["order"], b["order"] = b["order"], a["order"]
    elif move_ == 1:                                # two hexes laid one after the other swap
        ranked = by_order(out)
        k = rng.randrange(1, len(ranked) - 1)
        ranked[k]["order"], ranked[k + 1]["order"] = ranked[k + 1]["order"], ranked[k]["order"]
    elif move_ == 2:                                # a hex moved to an open spot (coasts kept right)
        move(out, coord(a), rng.choice(outside(out)))
    elif move_ == 3:                                # a hex laid by another player
        a["placed_by"] = rng.randint(0, out.players + 1)
    elif move_ == 4:                                # a hex left out
        remove(out, coord(a))
    elif move_ == 5:                                # a piece moved to another hex
        rng.choice(placements)["cell"] = [b["q"], b["r"]]
    elif move_ == 6:                                # a piece lost
        placements.remove(rng.choice(placements))
    elif move_ == 7:                                # another starting building
        building = rng.choice([p for p in placements if p["kind"] == "starting-building"])
        building["building"] = rng.choice(["timber-camp", "quarry", "iron-mine", "sawmill"])
    elif move_ == 8:                                # a wrong coast mark
        a["coastal"] = not a["coastal"]
    elif move_ == 9:                                # another tile of the type (maybe one marked for more players)
        a["tile"] = f"{a['type']}-{rng.randint(1, 22)}"
    elif move_ == 10:                               # the exploration flag of a Blank hex flipped
        blank = next((c for c in cells if c["type"] == "blank"), a)
        blank["exploration"] = not blank.get("exploration")
    else:                                           # two hexes swap tiles and types (pieces stay)
        for key in ("type", "tile", "exploration"):
            x, y = a.pop(key, None), b.pop(key, None)
            for cell, value in ((a, y), (b, x)):
                if value is not None:
                    cell[key] = value
    return out


def test_both_checkers_pass_layouts_of_both_generators():
    for layout in _layouts(random.Random(24), 150):
        assert agree(layout) == (True, [])


def test_both_checkers_agree_on_broken_layouts():
    rng = random.Random(25)
    layouts = _layouts(rng, 20)
    seen = Counter(agree(_broken(rng, layouts[n % len(layouts)]))[0] for n in range(300))
    assert seen[True] > 20 and seen[False] > 150             # both verdicts were exercised


@pytest.mark.slow
def test_both_checkers_agree_on_thousands_of_layouts():
    rng = random.Random(26)
    layouts = _layouts(rng, 1500)
    for layout in layouts:
        assert agree(layout) == (True, [])
    seen = Counter(agree(_broken(rng, layouts[n])) [0] for n in range(3000))
    assert seen[True] > 200 and seen[False] > 1500


# ------------------------------------------------------------------ drawn as before

@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_declared_map_is_drawn_with_every_hex_and_piece(players, tmp_path):
    """`pnpgen map shires` draws what the layout holds: a name per hex, Coastal and Exploration
    under the hexes that are, one marker per piece (starting buildings by the resource they make),
    and the rasterized page shows Hamlet brown where the Hamlets are."""
    import xml.etree.ElementTree as ET

    import pymupdf
    from conftest import run_cli
    from generator.maps.output import render_layout
    layout = engine.generate("shires", 7, players)
    svg, _, _ = render_layout(layout, "Title")
    ns = "{http://www.w3.org/2000/svg}"
    texts = [(float(t.get("y")), "".join(t.itertext())) for t in ET.fromstring(svg).iter(ns + "text")]
    legend_top = next(y for y, s in texts if s == "Tiles")
    board = [s for y, s in texts if y < legend_top]
    legend = {s for y, s in texts if y > legend_top}
    types = [c["type"] for c in layout.cells]
    assert board.count("Hamlet") == types.count("hamlet") == HEXES[players]["hamlet"]
    assert board.count("Open Space") == types.count("blank") and board.count("Trade Spot") == types.count("trade")
    labels = " ".join(board)
    assert labels.count("Coastal") == sum(c["coastal"] for c in layout.cells) > 0
    assert labels.count("Exploration") == sum(bool(c.get("exploration")) for c in layout.cells) == {3: 2, 4: 3, 5: 3}[players]
    assert {"Timber Camp (makes Wood)", "Quarry (makes Stone)", "Iron Mine (makes Iron)", "Small Field (field side up)",
            "Exploration token (face down)"} <= legend
    # one marker per piece, each in its kind's colour (plus one in the legend per kind or building)
    root = ET.fromstring(svg)
    fills = [e.get("fill") for e in root.iter() if e.tag in (ns + "polygon", ns + "circle")]
    circles = [e.get("fill") for e in root.iter(ns + "circle")]
    assert fills.count("#b39a45") == HEXES[players]["hamlet"] + 1                   # Small Fields
    assert fills.count("#8c8c8c") == HEXES[players]["hamlet"] + 3                   # starting buildings
    assert circles.count("#d8d2b8") == {3: 2, 4: 3, 5: 3}[players] + 1               # Exploration tokens
    code, out, err = run_cli("map", "shires", "--players", str(players), "--seed", "7", "--format", "png",
                             "--dpi", "40", "--out", tmp_path)
    assert code == 0, err
    [png] = (tmp_path / "shires").glob("*.png")
    pix = pymupdf.Pixmap(str(png))
    hamlet = bytes.fromhex("a9783f")
    samples = pix.samples
    n = pix.n
    brown = sum(1 for i in range(0, len(samples), n * 3) if samples[i:i + 3] == hamlet)
    assert brown > 0.02 * pix.width * pix.height / 3                  # the Hamlets are drawn in their colour
