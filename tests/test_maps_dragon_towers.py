"""Dragon Towers maps: generated layouts (the declared rules of map.yaml `layout:` drive `pnpgen
map`) are legal by the hand-written checker kept as an oracle (tests/map_oracles/), each rule is
caught alone, same seed -> same bytes, balancing helps, and the oracle checker is independent of
every generator."""
from __future__ import annotations

import ast
import copy
import hashlib
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from generator.maps import engine
from generator.maps import layout as layout_io
from generator.maps.grid import hex_distance, hex_neighbours
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions
from map_oracles.data import map_data
from map_oracles import dragon_towers_check as checker, dragon_towers_gen as oracle_gen

GAME = "dragon-towers"
DATA = map_data(GAME)
RULES: dict = DATA["rules"]
MIX: dict = DATA["tiles_per_player"]
LOW, HIGH = DATA["players"]["min"], DATA["players"]["max"]
PLAIN = MapOptions(balance=False)
BALANCED = MapOptions(balance=True)
ROOT = Path(__file__).resolve().parent.parent


def plain(seed: int, players: int) -> Layout:
    return engine.generate(GAME, seed, players, PLAIN)


def rules_of(layout: Layout) -> set[str]:
    return {v.rule for v in checker.check(layout)}


def assert_counts(layout: Layout, players: int) -> None:
    """Counted here from the rulebook numbers, not with the checker."""
    assert layout.game == GAME and layout.players == players
    assert layout.grid == {"type": "hex", "orientation": "pointy"}
    assert len(layout.cells) == sum(MIX.values()) * players
    assert len({(c["q"], c["r"]) for c in layout.cells}) == len(layout.cells)
    for p in range(1, players + 1):
        mine = Counter(c["type"] for c in layout.cells if c["placed_by"] == p)
        assert dict(mine) == MIX
        numbers = sorted(c["number"] for c in layout.cells if c["placed_by"] == p and c["type"] == "empty")
        assert len(set(numbers)) == MIX["empty"] and set(numbers) <= set(range(1, 7))
    kinds = Counter((pl["kind"], pl["owner"]) for pl in layout.placements)
    for p in range(1, players + 1):
        assert kinds[("monster", p)] == DATA["monsters_per_player"]
        assert kinds[("outpost", p)] == DATA["outposts_per_player"]
    assert sum(kinds.values()) == (DATA["monsters_per_player"] + DATA["outposts_per_player"]) * players


# ---------------------------------------------------------------- property tests

@pytest.mark.slow
@pytest.mark.parametrize("players", range(LOW, HIGH + 1))
@settings(max_examples=750, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64))
def test_plain_layouts_are_legal(players, seed):
    layout = plain(seed, players)
    assert checker.check(layout) == []
    assert_counts(layout, players)
    assert layout.metrics["balance"] == "off"


@pytest.mark.parametrize("players", range(LOW, HIGH + 1))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64))
def test_balanced_layouts_are_legal(players, seed):
    layout = engine.generate(GAME, seed, players, BALANCED)
    assert checker.check(layout) == []
    assert_counts(layout, players)
    assert layout.metrics["balance"] == "on" and "score" in layout.metrics


def test_player_counts_and_default():
    assert engine.player_counts(GAME) == (1, 4, 2)
    assert engine.generate(GAME, 3, options=PLAIN).players == 2
    for bad in (0, 5):
        with pytest.raises(engine.MapError):
            engine.generate(GAME, 3, bad, PLAIN)


# ---------------------------------------------------------------- one broken rule at a time

def _cell(layout, where):
    return next(c for c in layout.cells if (c["q"], c["r"]) == tuple(where))


def _occupied(layout, kind=None):
    return {tuple(p["cell"]) for p in layout.placements if kind is None or p["kind"] == kind}


def _variant(layout, change):
    other = copy.deepcopy(layout)
    change(other)
    return other


def break_structure(layout):
    yield _variant(layout, lambda l: setattr(l, "game", "shires"))


def break_tile_count(layout):
    def change(l):
        next(c for c in l.cells if c["type"] == "food")["type"] = "wood"
    yield _variant(layout, change)


def break_continuity(layout):
    far = max(abs(c["q"]) + abs(c["r"]) for c in layout.cells) + 10
    for index, cell in enumerate(layout.cells):
        if cell["type"] == "water":
            def change(l, index=index):
                l.cells[index]["q"] += far
            yield _variant(layout, change)


def break_land_continuity(layout):
    types = {(c["q"], c["r"]): c["type"] for c in layout.cells}
    spots = sorted({n for w in types for n in hex_neighbours(w) if n not in types
                    and all(types.get(m, "water") == "water" for m in hex_neighbours(n))})
    busy = _occupied(layout)
    for index, cell in enumerate(layout.cells):
        if cell["type"] in ("food", "wood", "rock") and (cell["q"], cell["r"]) not in busy:
            for spot in spots:
                if hex_distance(spot, (cell["q"], cell["r"])) > 1:
                    def change(l, index=index, spot=spot):
                        l.cells[index]["q"], l.cells[index]["r"] = spot
                    yield _variant(layout, change)


def _free_empties(layout):
    monsters = _occupied(layout, "monster")
    return [i for i, c in enumerate(layout.cells) if c["type"] == "empty" and (c["q"], c["r"]) not in monsters]


def break_empty_number(layout):
    for index in _free_empties(layout):
        def change(l, index=index):
            l.cells[index]["number"] = 7
        yield _variant(layout, change)


def break_empty_numbers_differ(layout):
    for index in _free_empties(layout):
        cell = layout.cells[index]
        for other in layout.cells:
            if other is not cell and other["type"] == "empty" and other["placed_by"] == cell["placed_by"]:
                def change(l, index=index, number=other["number"]):
                    l.cells[index]["number"] = number
                yield _variant(layout, change)


def break_empty_set(layout):
    """One Empty tile shows its seat's missing face, the numbers still all different."""
    from map_oracles.data import map_data
    faces = {int(k): v for k, v in map_data("dragon-towers")["empty_faces"].items()}
    for index in _free_empties(layout):
        cell = layout.cells[index]
        missing = [f for f in range(1, 7) if f not in faces[cell["placed_by"]]]
        def change(l, index=index, number=missing[0]):
            l.cells[index]["number"] = number
        yield _variant(layout, change)


def break_monster_count(layout):
    def change(l):
        l.placements.remove(next(p for p in l.placements if p["kind"] == "monster"))
    yield _variant(layout, change)


def _moves(layout, kind, targets):
    for index, placement in enumerate(layout.placements):
        if placement["kind"] == kind:
            for target in targets:
                def change(l, index=index, target=target):
                    l.placements[index]["cell"] = [target[0], target[1]]
                    if kind == "monster" and _cell(l, target)["type"] == "empty":
                        l.placements[index]["roll"] = _cell(l, target)["number"]
                yield _variant(layout, change)


def break_monster_on_empty(layout):
    busy = _occupied(layout)
    targets = [(c["q"], c["r"]) for c in layout.cells
               if c["type"] in ("food", "wood", "rock", "mana") and (c["q"], c["r"]) not in busy]
    yield from _moves(layout, "monster", targets)


def break_monster_roll(layout):
    def change(l):
        monster = next(p for p in l.placements if p["kind"] == "monster")
        monster["roll"] = monster["roll"] % 6 + 1
    yield _variant(layout, change)


def break_monster_stack(layout):
    yield from _moves(layout, "monster", sorted(_occupied(layout, "monster")))


def break_outpost_count(layout):
    busy = _occupied(layout)
    types = {(c["q"], c["r"]): c["type"] for c in layout.cells}
    for where in sorted(types):
        if types[where] != "water" and where not in busy and any(types.get(n) == "water" for n in hex_neighbours(where)):
            def change(l, where=where):
                l.placements.append({"kind": "outpost", "cell": [where[0], where[1]], "owner": 1})
            yield _variant(layout, change)


def break_outpost_not_water(layout):
    busy = _occupied(layout)
    yield from _moves(layout, "outpost", [(c["q"], c["r"]) for c in layout.cells
                                          if c["type"] == "water" and (c["q"], c["r"]) not in busy])


def break_outpost_adjacent(layout):
    busy = _occupied(layout)
    types = {(c["q"], c["r"]): c["type"] for c in layout.cells}
    inland = [w for w in sorted(types) if types[w] != "water" and w not in busy
              and not any(types.get(n) == "water" for n in hex_neighbours(w))]
    yield from _moves(layout, "outpost", inland)


def break_outpost_stack(layout):
    yield from _moves(layout, "outpost", sorted(_occupied(layout, "outpost")))


def break_outpost_not_on_monster(layout):
    yield from _moves(layout, "outpost", sorted(_occupied(layout, "monster")))


BREAKERS = {
    "structure": break_structure,
    "tile-count": break_tile_count,
    "continuity": break_continuity,
    "land-continuity": break_land_continuity,
    "empty-number": break_empty_number,
    "empty-numbers-differ": break_empty_numbers_differ,
    "empty-set": break_empty_set,
    "monster-count": break_monster_count,
    "monster-on-empty": break_monster_on_empty,
    "monster-roll": break_monster_roll,
    "monster-stack": break_monster_stack,
    "outpost-count": break_outpost_count,
    "outpost-not-water": break_outpost_not_water,
    "outpost-adjacent": break_outpost_adjacent,
    "outpost-stack": break_outpost_stack,
    "outpost-not-on-monster": break_outpost_not_on_monster,
}


def test_every_rule_has_a_breaking_test():
    assert sorted(BREAKERS) == sorted(RULES)


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("rule", sorted(RULES))
def test_breaking_one_rule_reports_only_that_rule(rule, players):
    for seed in range(20):
        legal = plain(seed, players)
        assert checker.check(legal) == []
        for broken in BREAKERS[rule](legal):
            violations = checker.check(broken)
            if {v.rule for v in violations} == {rule}:
                for v in violations:
                    assert v.quote == RULES[rule]
                    assert v.message and v.quote in str(v)
                    if rule not in ("structure", "monster-count", "tile-count"):
                        assert "(" in v.message, v.message      # names the cells involved
                return
    pytest.fail(f"could not break only {rule!r}")


@pytest.mark.parametrize("change, words", [
    (lambda l: setattr(l, "players", 5), "players"),
    (lambda l: setattr(l, "players", 0), "players"),
    (lambda l: setattr(l, "players", True), "players"),
    (lambda l: setattr(l, "grid", {"type": "square"}), "grid"),
    (lambda l: l.cells[0].update(type="forest"), "forest"),
    (lambda l: l.cells.append(dict(l.cells[3])), "two tiles"),
    (lambda l: l.cells[2].update(placed_by=7), "placed_by"),
    (lambda l: l.cells[2].pop("placed_by"), "placed_by"),
    (lambda l: l.placements[0].update(cell=[999, 999]), "off the map"),
    (lambda l: l.placements[0].update(cell="here"), "not [q, r]"),
    (lambda l: l.placements[0].update(owner=9), "owner"),
    (lambda l: l.placements.append({"kind": "dragon", "cell": [0, 0]}), "dragon"),
    (lambda l: l.cells.append({"q": "a", "r": 0, "type": "food"}), "integer"),
    (lambda l: l.cells.append("food"), "integer"),
    (lambda l: setattr(l, "cells", "food"), "cells"),
    (lambda l: setattr(l, "cells", []), "no hexes"),
    (lambda l: setattr(l, "placements", None), "placements"),
])
def test_structure_problems_are_reported_not_raised(change, words):
    broken = _variant(plain(11, 2), change)
    violations = checker.check(broken)
    assert violations and {v.rule for v in violations} == {"structure"}
    assert any(words in v.message for v in violations), [v.message for v in violations]


def test_checker_survives_garbage():
    for garbage in (None, 42, "layout", Layout(game=GAME, seed=None, players=2, grid=None, cells=None)):
        violations = checker.check(garbage)
        assert violations and all(v.rule == "structure" for v in violations)


def test_hand_made_layout_without_roll_is_rejected_with_monster_roll():
    layout = plain(5, 3)
    next(p for p in layout.placements if p["kind"] == "monster").pop("roll")
    assert rules_of(layout) == {"monster-roll"}


def test_outpost_chain_must_start_at_water():
    """Two outposts touching each other but no Water: neither could have gone down first."""
    layout = plain(2, 1)
    types = {(c["q"], c["r"]): c["type"] for c in layout.cells}
    busy = _occupied(layout)
    inland = [w for w in sorted(types) if types[w] != "water" and w not in busy
              and not any(types.get(n) == "water" for n in hex_neighbours(w))]
    pair = next((a, b) for a in inland for b in inland if b in hex_neighbours(a))
    for trial in ([0, 1], [1, 0], [2, 3], [0, 3], [1, 2]):
        test = copy.deepcopy(layout)
        test_outposts = [p for p in test.placements if p["kind"] == "outpost"]
        for index, where in zip(trial, pair):
            test_outposts[index]["cell"] = list(where)
        if rules_of(test) == {"outpost-adjacent"}:
            messages = [v.message for v in checker.check(test)]
            assert any(f"({pair[0][0]}, {pair[0][1]})" in m and f"({pair[1][0]}, {pair[1][1]})" in m for m in messages)
            return
    pytest.fail("no pair move left the other outposts legal")


# ---------------------------------------------------------------- determinism and JSON

@pytest.mark.parametrize("options", [PLAIN, BALANCED], ids=["plain", "balanced"])
def test_same_seed_same_bytes(options):
    a = layout_io.dumps([engine.generate(GAME, 1234, 3, options)])
    b = layout_io.dumps([engine.generate(GAME, 1234, 3, options)])
    c = layout_io.dumps([engine.generate(GAME, 1235, 3, options)])
    assert a == b
    assert a != c


def test_same_bytes_whatever_the_hash_seed():
    code = ("import hashlib; from generator.maps import engine, layout; "
            "from generator.maps.rules import MapOptions; "
            "print(hashlib.sha256(layout.dumps([engine.generate('dragon-towers', 77, 4, MapOptions(balance=False))])"
            ".encode()).hexdigest())")
    digests = set()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    here = hashlib.sha256(layout_io.dumps([plain(77, 4)]).encode()).hexdigest()
    assert digests == {here}


def test_checker_passes_json_round_trip(tmp_path):
    layouts = [engine.generate(GAME, seed, players, BALANCED if seed % 2 else PLAIN)
               for seed, players in ((1, 1), (2, 2), (3, 3), (4, 4))]
    for index, layout in enumerate(layouts):
        path = tmp_path / f"one-{index}.json"
        path.write_text(layout_io.dumps([layout]))
        (loaded,) = layout_io.load(path)
        assert checker.check(loaded) == []
        assert engine.check(loaded) == []
        assert layout_io.dumps([loaded]) == layout_io.dumps([layout])
    path = tmp_path / "many.json"
    path.write_text(layout_io.dumps(layouts))
    assert all(checker.check(l) == [] for l in layout_io.load(path))


# ---------------------------------------------------------------- balance

@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_balancing_improves_the_metrics(players):
    """Measured by the oracle's metrics (written apart), on the declared rules' layouts."""
    gen = oracle_gen
    plain_m = [gen.metrics(plain(seed, players)) for seed in range(20)]
    fair_m = [gen.metrics(engine.generate(GAME, seed, players, BALANCED)) for seed in range(20)]

    def mean(rows, key):
        return sum(r[key] for r in rows) / len(rows)

    assert mean(fair_m, "resource_types_held_min") > mean(plain_m, "resource_types_held_min")
    assert mean(fair_m, "monster_pressure_spread") < mean(plain_m, "monster_pressure_spread")
    assert mean(fair_m, "rival_distance_min") > mean(plain_m, "rival_distance_min")
    assert sum(gen.score(m) for m in fair_m) > sum(gen.score(m) for m in plain_m)


def test_metrics_are_json_numbers_rounded():
    for players in (1, 3):
        m = engine.generate(GAME, 9, players, BALANCED).metrics
        for key, value in m.items():
            values = value if isinstance(value, list) else [value]
            for v in values:
                assert v is None or isinstance(v, (int, str)) or round(v, 4) == v, key


# ---------------------------------------------------------------- independence

def test_checker_does_not_use_the_generator():
    tree = ast.parse((ROOT / "tests" / "map_oracles" / "dragon_towers_check.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not any("gen" in name.split(".")[-1] or name.endswith("engine") or "declared" in name
                   for name in imported), imported
    assert {"grid", "layout", "rules"} >= {name for name in imported if name in ("grid", "layout", "rules", "engine")}
