"""Royal Dukes map rules: generated layouts (the declared form's) are legal for every player count
and option, every rule is caught when broken alone by the declared checker and by the hand-written
oracle (tests/map_oracles/), the checkers survive malformed layouts, generation is deterministic
and balancing evens out the VP between the board's quadrants."""
from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.maps import engine
from map_oracles import royal_dukes_check, royal_dukes_gen
from generator.maps.grid import axial_to_offset, components, edge_cells, hex_neighbours, hex_rectangle
from generator.maps.layout import Layout, dumps, load
from generator.maps.rules import MapOptions
from map_oracles.data import map_data

GAME = "royal-dukes"
DATA = map_data(GAME)
RULES = sorted(DATA["rules"])
PLAIN = MapOptions(balance=False)
PLAYER_COUNTS = (2, 3, 4)                               # "Abstract Strategy. 2-4 players."
ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT.parent / "shared" / "seeds" / "004_52d56f6197ed427e.txt"

# The rulebook's Settlement table and board, written out here independently of map.yaml.
TABLE = {"village": (6, 1), "town": (5, 2), "castle": (4, 3), "mine": (3, 4), "city": (2, 5)}
BOARD = hex_rectangle(10, 10)
EDGE = set(edge_cells(BOARD, "hex"))
SETTLEMENT_TYPES = set(TABLE)


def plain(seed: int, players: int = 4, **options) -> Layout:
    return royal_dukes_gen.generate(random.Random(seed), players, MapOptions(balance=False, **options))


def rule_ids(layout: Layout) -> list[str]:
    return sorted({v.rule for v in royal_dukes_check.check(layout)})


def clone(layout: Layout) -> Layout:
    return Layout.from_dict(json.loads(json.dumps(layout.to_dict())))


def coord(cell: dict) -> tuple[int, int]:
    return (cell["q"], cell["r"])


def label(c: tuple[int, int]) -> str:
    col, row = axial_to_offset(c)
    return f"{'ABCDEFGHIJ'[row]}{col + 1}"


def cells_of(layout: Layout) -> dict:
    return {coord(c): c for c in layout.cells}


def settlements(layout: Layout) -> list[tuple[int, int]]:
    return sorted(coord(c) for c in layout.cells if c["type"] in SETTLEMENT_TYPES)


def set_type(layout: Layout, at: tuple[int, int], kind: str) -> None:
    cell = cells_of(layout)[at]
    cell["type"] = kind
    cell.pop("vp", None)
    if kind in TABLE:
        cell["vp"] = TABLE[kind][1]


def free_ok(layout: Layout) -> bool:
    """Empty spaces in one piece and every settlement next to one (computed here, not by the checker)."""
    cells = cells_of(layout)
    empty = [c for c, cell in cells.items() if cell["type"] == "empty"]
    empty_set = set(empty)
    return len(components(empty, "hex")) <= 1 and all(
        any(n in empty_set for n in hex_neighbours(s)) for s in settlements(layout))


def move_settlement(layout: Layout, want, inland_only: bool = False) -> tuple[int, int]:
    """Move some settlement (if inland_only, one off the side of the map and touching no other) to
    an empty cell for which want(layout, cell) holds, keeping the empty spaces in one piece;
    return the new cell."""
    for source in settlements(layout):
        if inland_only and (source in EDGE or settled_neighbours(layout, source)):
            continue
        kind = cells_of(layout)[source]["type"]
        for target in sorted(cells_of(layout)):
            if cells_of(layout)[target]["type"] != "empty":
                continue
            trial = clone(layout)
            set_type(trial, source, "empty")
            set_type(trial, target, kind)
            if want(trial, target) and free_ok(trial):
                layout.cells = trial.cells
                return target
    raise AssertionError("no such move")


def settled_neighbours(layout: Layout, at: tuple[int, int]) -> int:
    cells = cells_of(layout)
    return sum(1 for n in hex_neighbours(at) if n in cells and cells[n]["type"] in SETTLEMENT_TYPES)


def add_mountains(layout: Layout, count: int, cells: list | None = None) -> list:
    """Turn `count` empty cells into mountains, never cutting the empty spaces or shutting in a settlement."""
    placed = []
    for at in cells if cells is not None else sorted(cells_of(layout)):
        if len(placed) == count:
            break
        if cells_of(layout)[at]["type"] != "empty":
            continue
        trial = clone(layout)
        set_type(trial, at, "mountain")
        if free_ok(trial):
            layout.cells = trial.cells
            placed.append(at)
    assert len(placed) == count
    return placed


def assert_counts(layout: Layout, mountains: int = 0) -> None:
    types = [c["type"] for c in layout.cells]
    assert sorted(coord(c) for c in layout.cells) == sorted(BOARD)
    for kind, (number, vp) in TABLE.items():
        assert types.count(kind) == number
        assert all(c["vp"] == vp for c in layout.cells if c["type"] == kind)
    assert types.count("mountain") == mountains
    assert types.count("empty") == 100 - 20 - mountains
    assert all(c["label"] == label(coord(c)) for c in layout.cells)


# ---------------------------------------------------------------------------------------------
# generated layouts are legal


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), players=st.sampled_from(PLAYER_COUNTS))
def test_strict_layouts_are_legal(seed, players):
    layout = engine.generate(GAME, seed, players, PLAIN)
    assert engine.check(layout) == []
    assert layout.players == players and layout.game == GAME and layout.seed == seed
    assert_counts(layout)
    spots = settlements(layout)
    assert not EDGE & set(spots)                                    # none on the side of the map
    assert all(settled_neighbours(layout, s) == 0 for s in spots)   # none next to another


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), players=st.sampled_from(PLAYER_COUNTS),
       relaxed=st.booleans(), mountains=st.integers(min_value=0, max_value=DATA["mountains"]["max"]))
@pytest.mark.slow
def test_layouts_with_options_are_legal(seed, players, relaxed, mountains):
    layout = engine.generate(GAME, seed, players, MapOptions(balance=False, relaxed=relaxed, mountains=mountains))
    assert royal_dukes_check.check(layout) == [] and engine.check(layout) == []
    assert_counts(layout, mountains)
    assert layout.metrics["rules"] == ("relaxed" if relaxed else "strict")
    limits = DATA["placement_limits"]["relaxed" if relaxed else "strict"]
    assert layout.metrics["breaks"]["settlement-edge"] <= limits["edge_settlements"]
    assert layout.metrics["breaks"]["settlement-adjacent"] <= limits["adjacent_pairs"]
    assert free_ok(layout)


@pytest.mark.parametrize("options", [MapOptions(), MapOptions(relaxed=True, mountains=12)],
                         ids=["strict", "relaxed+mountains"])
def test_balanced_layouts_are_legal(options):
    for seed in range(4):
        layout = engine.generate(GAME, seed, None, options)
        assert layout.players == 4                                   # the pack's usual count
        assert royal_dukes_check.check(layout) == []
        assert layout.metrics["balance"] == "on" and "score" in layout.metrics


def test_player_counts_and_bad_options():
    assert engine.player_counts(GAME) == (2, 4, 4)
    with pytest.raises(engine.MapError):
        engine.generate(GAME, 1, 5, PLAIN)
    with pytest.raises(engine.MapError):
        engine.generate(GAME, 1, 1, PLAIN)
    with pytest.raises(engine.MapError):
        engine.generate(GAME, 1, 4, MapOptions(balance=False, mountains=DATA["mountains"]["max"] + 1))
    with pytest.raises(engine.MapError):
        engine.generate(GAME, 1, 4, MapOptions(balance=False, mountains=-1))


def test_relaxed_layouts_use_the_allowance():
    layouts = [plain(seed, relaxed=True) for seed in range(30)]
    assert any(l.metrics["rules"] == "relaxed" for l in layouts)
    assert sum(royal_dukes_gen.metrics(l)["edge_settlements"] for l in layouts) > 0
    assert sum(royal_dukes_gen.metrics(l)["adjacent_pairs"] for l in layouts) > 0


# ---------------------------------------------------------------------------------------------
# each rule broken alone is reported alone, naming the cells


def _break_settlement_edge(layout):
    at = move_settlement(layout, lambda l, c: c in EDGE and settled_neighbours(l, c) == 0)
    return label(at)


def _break_settlement_adjacent(layout):
    at = move_settlement(layout, lambda l, c: c not in EDGE and settled_neighbours(l, c) == 1)
    return label(at)


def _break_settlement_count(layout):
    at = settlements(layout)[0]
    set_type(layout, at, "empty")
    return "19 settlements"


def _break_settlement_mix(layout):
    at = next(coord(c) for c in layout.cells if c["type"] == "village")
    set_type(layout, at, "town")
    return "6 town"


def _break_settlement_vp(layout):
    cell = next(c for c in layout.cells if c["type"] == "castle")
    cell["vp"] = 5
    return label(coord(cell))


def _break_mountain_count(layout):
    too_many = DATA["mountains"]["max"] + 1
    add_mountains(layout, too_many)
    return f"{too_many} mountains"


def _break_free_connected(layout):
    corner = (0, 0)                                   # A1: its two neighbours A2 and B1 shut it in
    for n in hex_neighbours(corner):
        if n in cells_of(layout):
            set_type(layout, n, "mountain")
    return "A1"


def _break_settlement_access(layout):
    for s in settlements(layout):
        trial = clone(layout)
        for n in hex_neighbours(s):
            set_type(trial, n, "mountain")
        empty = [coord(c) for c in trial.cells if c["type"] == "empty"]
        others = [t for t in settlements(trial) if t != s]
        if len(components(empty, "hex")) == 1 and all(
                any(cells_of(trial)[n]["type"] == "empty" for n in hex_neighbours(t)) for t in others):
            layout.cells = trial.cells
            return label(s)
    raise AssertionError("no settlement to shut in")


def _break_cell_duplicate(layout):
    layout.cells.append(dict(cells_of(layout)[(0, 0)]))
    return "A1"


def _break_board_complete(layout):
    layout.cells = [c for c in layout.cells if coord(c) != (0, 0)]
    return "A1"


def _break_cell_type(layout):
    cells_of(layout)[(0, 0)]["type"] = "forest"
    return "forest"


def _break_cell_label(layout):
    cells_of(layout)[(0, 0)]["label"] = "J10"
    return "A1"


def _break_cell_shape(layout):
    layout.cells.append({"q": "x", "r": 0, "type": "empty"})
    return "cell 101"


def _break_cell_off_board(layout):
    layout.cells.append({"q": 20, "r": 20, "type": "empty"})
    return "(20, 20)"


def _break_game(layout):
    layout.game = "shires"
    return "shires"


def _break_players(layout):
    layout.players = 5
    return "5"


def _break_grid(layout):
    layout.grid = {"type": "hex", "orientation": "flat"}
    return "flat"


def _break_placement(layout):
    layout.placements = [{"kind": "knight", "cell": [2, 2]}]
    return "knight"


def _break_rules_mode(layout):
    layout.metrics["rules"] = "loose"
    return "loose"


BREAKERS = {
    "game": _break_game, "players": _break_players, "grid": _break_grid,
    "cell-shape": _break_cell_shape, "cell-off-board": _break_cell_off_board,
    "cell-duplicate": _break_cell_duplicate, "board-complete": _break_board_complete,
    "cell-type": _break_cell_type, "cell-label": _break_cell_label,
    "settlement-vp": _break_settlement_vp, "placement": _break_placement,
    "rules-mode": _break_rules_mode, "settlement-count": _break_settlement_count,
    "settlement-mix": _break_settlement_mix, "settlement-edge": _break_settlement_edge,
    "settlement-adjacent": _break_settlement_adjacent, "mountain-count": _break_mountain_count,
    "free-connected": _break_free_connected, "settlement-access": _break_settlement_access,
}


def test_every_rule_has_a_breaking_test():
    assert sorted(BREAKERS) == RULES


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seed", [3, 1234])
def test_rule_broken_alone_is_reported_alone(rule, seed):
    layout = clone(engine.generate(GAME, seed, 4, PLAIN))
    assert rule_ids(layout) == []
    named = BREAKERS[rule](layout)
    violations = royal_dukes_check.check(layout)
    assert [v.rule for v in violations] == [rule], violations
    assert named in violations[0].message
    assert violations[0].quote == DATA["rules"][rule]
    assert rule in str(violations[0]) and DATA["rules"][rule] in str(violations[0])


# the declared checker's id for what the oracle calls settlement-vp; a settlement short is also a
# type short of its number (the declared checker counts each type by its own rule)
DECLARED_IDS = {"settlement-vp": {"cell-value"}, "settlement-count": {"settlement-count", "settlement-mix"}}


@pytest.mark.parametrize("rule", RULES)
def test_rule_broken_alone_is_reported_by_the_declared_checker(rule):
    layout = clone(engine.generate(GAME, 3, 4, PLAIN))
    BREAKERS[rule](layout)
    found = engine.check(layout, GAME)
    assert {v.rule for v in found} == DECLARED_IDS.get(rule, {rule}), found
    assert all(v.policy == (rule in DATA["policies"]) for v in found)


def test_relaxed_allowance_and_its_limits():
    layout = next(l for l in (plain(s, relaxed=True) for s in range(50))
                  if royal_dukes_gen.metrics(l)["edge_settlements"] and royal_dukes_gen.metrics(l)["adjacent_pairs"])
    assert rule_ids(layout) == []
    strict = clone(layout)
    strict.metrics = {}                                  # no declaration: checked as strict
    assert rule_ids(strict) == ["settlement-adjacent", "settlement-edge"]

    limit = DATA["placement_limits"]["relaxed"]["edge_settlements"]
    over = clone(plain(11))
    over.metrics["rules"] = "relaxed"
    for _ in range(limit + 1):
        move_settlement(over, lambda l, c: c in EDGE and settled_neighbours(l, c) == 0, inland_only=True)
    assert rule_ids(over) == ["settlement-edge"]
    over.metrics["rules"] = "strict"
    assert rule_ids(over) == ["settlement-edge"]

    limit = DATA["placement_limits"]["relaxed"]["adjacent_pairs"]
    over = clone(plain(12))
    over.metrics["rules"] = "relaxed"
    for _ in range(limit + 1):
        move_settlement(over, lambda l, c: c not in EDGE and settled_neighbours(l, c) == 1, inland_only=True)
    assert royal_dukes_gen.metrics(over)["adjacent_pairs"] == limit + 1
    assert rule_ids(over) == ["settlement-adjacent"]


def test_messages_name_every_broken_cell():
    layout = clone(plain(5))
    moved = [label(move_settlement(layout, lambda l, c: c in EDGE and settled_neighbours(l, c) == 0,
                                   inland_only=True)) for _ in range(3)]
    assert len(set(moved)) == 3
    violations = royal_dukes_check.check(layout)
    assert [v.rule for v in violations] == ["settlement-edge"]
    assert all(f"{name} (" in violations[0].message for name in moved)
    assert "3 settlement(s)" in violations[0].message


# ---------------------------------------------------------------------------------------------
# the checker never raises on malformed layouts


def test_checker_survives_garbage():
    good = engine.generate(GAME, 9, 4, PLAIN)
    broken = [
        Layout(game=None, seed=None, players="four", grid=None, cells=None, placements=None, metrics=None),
        Layout(game=GAME, seed=1, players=True, grid={"type": "square"}, cells=[None, 3, "x", {"q": 1}],
               placements=["x", {"kind": None}], metrics={"rules": ["strict"]}),
        Layout(game=GAME, seed=1, players=4, grid=good.grid, cells=[{**c, "type": ["village"], "vp": "1"}
                                                                    for c in good.cells], metrics=[]),
        Layout(game=GAME, seed=1, players=4, grid=good.grid, cells=[{**c, "label": {"a": 1}} for c in good.cells]),
        Layout(game=GAME, seed=1, players=4, grid=good.grid, cells=[]),
    ]
    for layout in broken:
        violations = royal_dukes_check.check(layout)
        assert violations and all(v.rule in DATA["rules"] for v in violations)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_checker_survives_random_damage(data):
    layout = clone(engine.generate(GAME, data.draw(st.integers(0, 50)), 4, PLAIN))
    junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 120), st.text(max_size=4),
                     st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))
    for _ in range(data.draw(st.integers(1, 6))):
        cell = layout.cells[data.draw(st.integers(0, len(layout.cells) - 1))]
        key = data.draw(st.sampled_from(["q", "r", "type", "vp", "label"]))
        cell[key] = data.draw(junk)
    violations = royal_dukes_check.check(layout)
    assert all(v.rule in DATA["rules"] for v in violations)
    royal_dukes_gen.metrics(layout)                      # metrics of a damaged layout do not raise either


# ---------------------------------------------------------------------------------------------
# determinism, JSON, balance


def test_same_seed_same_bytes_and_seeds_differ():
    for options in (PLAIN, MapOptions(), MapOptions(balance=False, relaxed=True, mountains=7)):
        a = engine.generate(GAME, 42, 3, options)
        b = engine.generate(GAME, 42, 3, options)
        assert dumps([a]) == dumps([b])
        c = engine.generate(GAME, 43, 3, options)
        assert dumps([a]) != dumps([c])
    texts = {dumps([engine.generate(GAME, s, 4, PLAIN)]) for s in range(50)}
    assert len(texts) == 50


def test_same_bytes_across_processes_and_hash_seeds():
    code = ("from generator.maps import engine; from generator.maps.layout import dumps; "
            "from generator.maps.rules import MapOptions; import sys; "
            "sys.stdout.write(dumps([engine.generate('royal-dukes', 77, 2, MapOptions(mountains=5))]))")
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    assert outputs == {dumps([engine.generate(GAME, 77, 2, MapOptions(mountains=5))])}


def test_json_round_trip_keeps_a_legal_layout(tmp_path):
    for n, options in enumerate((MapOptions(), MapOptions(relaxed=True, mountains=9))):
        layout = engine.generate(GAME, 500 + n, 2, options)
        path = tmp_path / f"layout{n}.json"
        path.write_text(dumps([layout]), encoding="utf-8")
        loaded = load(path)
        assert len(loaded) == 1 and dumps(loaded) == dumps([layout])
        assert engine.check(loaded[0]) == []
    many = [engine.generate(GAME, s, 4, PLAIN) for s in range(3)]
    path = tmp_path / "many.json"
    path.write_text(dumps(many), encoding="utf-8")
    assert [engine.check(l) for l in load(path)] == [[], [], []]


def test_metrics_are_json_numbers_rounded():
    layout = engine.generate(GAME, 8, 4, MapOptions(mountains=6))
    m = layout.metrics
    assert json.loads(json.dumps(m)) == m
    assert [c["type"] for c in layout.cells].count("mountain") == 6
    for cut in ("quadrants", "diagonal-halves", "wedges"):
        assert abs(sum(m[f"vp_{cut}"]) - sum(n * vp for n, vp in TABLE.values())) < 1e-3   # 50 VP in all
        for value in m[f"vp_{cut}"] + [m[f"vp_{cut}_spread"]]:
            assert round(value, 4) == value


@pytest.mark.slow
@pytest.mark.parametrize("options", [dict(), dict(mountains=10)], ids=["plain-board", "mountains"])
def test_balancing_evens_out_the_quadrants(options):
    seeds = range(20)
    plain_ = [engine.generate(GAME, s, 4, MapOptions(balance=False, **options)).metrics for s in seeds]
    balanced = [engine.generate(GAME, s, 4, MapOptions(balance=True, **options)).metrics for s in seeds]
    mean = lambda ms, key: statistics.mean(m[key] for m in ms)
    assert mean(balanced, "vp_quadrants_spread") < mean(plain_, "vp_quadrants_spread") / 2
    assert mean(balanced, "score") > statistics.mean(engine.generator_of(GAME).score(m) for m in plain_)


# ---------------------------------------------------------------------------------------------
# map.yaml: every number and rule traced to the rulebook, the look covers every cell type


def test_map_yaml_matches_the_rulebook_table():
    types = DATA["settlements"]["types"]
    assert {k: (v["number"], v["vp"]) for k, v in types.items()} == TABLE
    assert DATA["settlements"]["total"] == 20 == sum(n for n, _ in TABLE.values())
    assert (DATA["board"]["cols"], DATA["board"]["rows"]) == (10, 10)
    assert DATA["players"] == {"min": 2, "max": 4, "default": 4}
    assert DATA["grid"] == {"type": "hex", "orientation": "pointy"}


def test_rule_quotes_come_from_the_rulebook():
    if not RULEBOOK.exists():
        pytest.skip("rulebook not present")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    for rule, quote in DATA["rules"].items():
        if quote.startswith("House rule: "):
            continue
        for sentence in re.split(r"(?<=[.)])\s+", " ".join(quote.split())):
            assert sentence in book, (rule, sentence)


def test_the_map_template_draws_every_cell_type_by_its_icon():
    """The map is drawn by templates/royal-dukes/map.svg.j2 (look.template), which draws each
    settlement and mountain with the game's icon of that name: every type a layout holds has one."""
    icons = yaml.safe_load((ROOT / "components" / GAME / "game.yaml").read_text())["icons"]
    assert "icon(cell.type" in (ROOT / "templates" / GAME / "map.svg.j2").read_text()
    emitted = set()
    for seed in range(10):
        emitted |= {c["type"] for c in plain(seed, mountains=3).cells}
    assert emitted == SETTLEMENT_TYPES | {"empty", "mountain"}
    assert emitted - {"empty"} <= set(icons)
