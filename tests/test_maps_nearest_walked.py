"""The objective nearest_spread walked (docs/maps.md): steps from each start to its nearest cell of
a type (or the sum over all of them), walked as the rules let a piece walk, balanced by its spread."""
from __future__ import annotations

import random

import pytest

from generator.maps import declared, declared_steps
from generator.maps.layout import Layout

SECTION = {
    "board": {"grid": "square", "shape": "rectangle", "cols": 5, "rows": 1},
    "players": {"min": 2, "max": 2},
    "types": {"plain": {}, "cliff": {"values": {"height": 5}}, "well": {}, "gate": {}},
    "fill": "plain",
    "deal": [{"type": "well", "count": 1}],
    "starts": {"over": "plain"},
    "outside": [{"type": "gate"}],
    "objective": [{"nearest_spread": "well", "step": 1}, {"nearest_spread": "well", "by": "height", "step": 1},
                  {"nearest_spread": "gate", "each": True}],
}


def steps(goals, row, starts, spec) -> dict:
    return declared_steps.metrics(goals, layout(row, starts), spec, [(x, 0) for x in starts])


def layout(row: list[str], starts: list[int], gate=(5, 0)) -> Layout:
    cells = [{"x": x, "y": 0, "type": t, **({"height": 5} if t == "cliff" else {})} for x, t in enumerate(row)]
    cells.append({"x": gate[0], "y": gate[1], "type": "gate"})
    return Layout("g", 1, 2, {"type": "square"}, cells,
                  [{"kind": "start", "player": n + 1, "cell": [x, 0]} for n, x in enumerate(starts)])


def test_steps_to_the_nearest_cell_walked_as_the_rules_allow(tmp_path):
    spec = declared.load(SECTION, tmp_path / "map.yaml")
    m = steps(spec.objective, ["plain", "well", "cliff", "plain", "plain"], [0, 4], spec)
    assert m["well_nearest"] == [1, 3]            # the cliff is crossed when no value is read
    assert m["well_nearest_spread"] == 2
    # the walk that reads height may not climb the cliff (5 > 0 + 1): start 2 never reaches the well
    goals = spec.objective[1:2]
    m = steps(goals, ["plain", "well", "cliff", "plain", "plain"], [0, 4], spec)
    assert m["well_nearest_by_height"] == [1, declared_steps.FAR]


def test_a_space_off_the_board_is_reached_not_walked_through(tmp_path):
    spec = declared.load(SECTION, tmp_path / "map.yaml")
    m = steps(spec.objective[2:], ["plain", "well", "plain", "plain", "plain"], [0, 3], spec)
    assert m["gate_to_each"] == [5, 2]            # one step beyond the last cell


def test_walked_nearest_needs_starts(tmp_path):
    section = {**SECTION}
    section.pop("starts")
    with pytest.raises(declared.DeclarationError, match=r"objective\[1\]: nearest_spread needs starts: or seats:"):
        declared.load(section, tmp_path / "map.yaml")
    with pytest.raises(declared.DeclarationError, match=r"objective\[1\]\.nearest_spread: 'lake' is not a declared type"):
        declared.load({**SECTION, "objective": [{"nearest_spread": "lake", "by": "height"}]}, tmp_path / "map.yaml")


def test_balancing_evens_the_steps_out():
    """Cones of Dunshire balances by walked nearest_spread: its balanced layouts' spreads are smaller."""
    from generator.maps import engine
    from generator.maps.rules import MapOptions
    plain = [engine.generate("cones-of-dunshire", s, None, MapOptions(balance=False)).metrics for s in range(6)]
    fair = [engine.generate("cones-of-dunshire", s, None, MapOptions()).metrics for s in range(6)]
    key = "summit_nearest_by_elevation_spread"
    assert sum(m[key] for m in fair) < sum(m[key] for m in plain)
    score = engine.generator_of("cones-of-dunshire").score
    assert sum(m["score"] for m in fair) > sum(score(m) for m in plain) + 20


def test_starts_near_takes_a_number_per_player_count(tmp_path):
    """docs/maps.md: starts.near per player count; start_spread sums within that many steps."""
    from generator.maps import declared_gen
    from generator.maps.rules import MapOptions
    section = {"board": {"grid": "square", "shape": "rectangle", "cols": 7, "rows": 1},
               "players": {"min": 2, "max": 3}, "types": {"plain": {"values": {"food": 1}}, "rock": {}},
               "fill": "plain", "deal": [{"type": "rock", "count": 1}],
               "starts": {"over": "plain", "near": {2: 1, 3: 0}}, "objective": [{"start_spread": "food"}]}
    spec = declared.load(section, tmp_path / "map.yaml")
    assert spec.starts["near"] == {2: 1, 3: 0}
    gen = declared_gen.Generator(spec, "g")
    for players, near in ((2, 1), (3, 0)):
        made = gen.generate(random.Random(4), players, MapOptions(balance=False))
        m = gen.metrics(made)
        food = {(c["x"], c["y"]): c.get("food", 0) for c in made.cells}
        starts = [tuple(p["cell"]) for p in made.placements if p["kind"] == "start"]
        assert m["food_near_starts"] == [sum(v for c, v in food.items() if abs(c[0] - s[0]) <= near) for s in starts]
    with pytest.raises(declared.DeclarationError, match=r"starts\.near: gives no number for 3 players"):
        declared.load({**section, "starts": {"over": "plain", "near": {2: 1}}}, tmp_path / "map.yaml")
