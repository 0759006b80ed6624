"""Royal Dukes declared (issue 24): its map.yaml `layout:` with --relaxed as `options:` drives
`pnpgen map` and `build`; the hand-written checker it replaced (tests/map_oracles/) agrees with the
declared checker on layouts of both generators, strict and relaxed, with and without mountains,
and on deliberately broken ones (one rule at a time, 6 settlements on the side under relaxed)."""
from __future__ import annotations

import copy
import json
import random
import shutil
from collections import Counter

import pytest
import yaml

from conftest import ROOT, run_cli
from generator.maps import declared, declared_gen, engine, grid
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions
from map_oracles import royal_dukes_check, royal_dukes_gen

RD = ROOT / "components" / "royal-dukes"
GAME = "royal-dukes"
DATA = yaml.safe_load((RD / "map.yaml").read_text())
POLICIES = set(DATA["policies"])
SETTLEMENTS = {"village": 1, "town": 2, "castle": 3, "mine": 4, "city": 5}    # Settlement table: VP
EDGE = set(grid.edge_cells(grid.hex_rectangle(10, 10), "hex"))
PLAIN = MapOptions(balance=False)
# strict and relaxed, with and without mountains
CONFIGS = [MapOptions(balance=False, relaxed=r, mountains=m) for r in (False, True) for m in (0, 9)]


def declared_generator():
    return declared_gen.Generator(declared.load(DATA["layout"], RD / "map.yaml"), GAME)


def verdicts(layout: Layout) -> dict:
    """checker -> (legal?, the policies it notes): the oracle and the declared checker."""
    oracle = royal_dukes_check.check(layout)
    found = engine.check(layout, GAME)
    return {"oracle": (not [v for v in oracle if v.rule not in POLICIES], sorted({v.rule for v in oracle} & POLICIES)),
            "declared": (not engine.broken_rules(found), sorted({v.rule for v in found if v.policy}))}


def test_royal_dukes_is_driven_by_its_declared_form():
    rules = engine.rules_for(GAME)
    assert "python_rules" not in rules.data and [name for name, _ in rules.checkers] == ["declared"]
    assert isinstance(rules.gen, declared_gen.Generator)
    assert {"relaxed", "mountains"} <= set(rules.gen.OPTIONS)
    assert not (ROOT / "generator" / "maps" / "python_rules.py").exists()


def _generated(rng: random.Random, n: int) -> list[Layout]:
    """n layouts of each generator in every configuration, at random player counts."""
    gen = declared_generator()
    out = []
    for options in CONFIGS:
        for source in (gen, royal_dukes_gen):
            out += [source.generate(rng, rng.choice((2, 3, 4)), options) for _ in range(n)]
    return out


def _agree_on_generated(n: int, seed: int) -> Counter:
    modes = Counter()
    for layout in _generated(random.Random(seed), n):
        assert verdicts(layout) == {"oracle": (True, []), "declared": (True, [])}, layout.to_dict()
        modes[layout.metrics["rules"]] += 1
    return modes


def test_both_checkers_pass_layouts_of_both_generators_strict_and_relaxed():
    modes = _agree_on_generated(50, 13)                  # 400 layouts
    assert modes == {"strict": 200, "relaxed": 200}


@pytest.mark.slow
def test_both_checkers_pass_thousands_of_layouts_of_both_generators():
    assert sum(_agree_on_generated(400, 14).values()) == 3200


def _settle(cell: dict, kind: str) -> None:
    cell["type"] = kind
    cell.pop("vp", None)
    if kind in SETTLEMENTS:
        cell["vp"] = SETTLEMENTS[kind]


def _push(rng: random.Random, cells: list, want) -> None:
    """A settlement moved to an empty cell for which want(cell) holds (if there is one)."""
    empty = [c for c in cells if c["type"] == "empty" and want(c)]
    if empty:
        town = rng.choice([c for c in cells if c["type"] in SETTLEMENTS])
        target = rng.choice(empty)
        _settle(target, town["type"])
        _settle(town, "empty")


def _touching(cells: list):
    settled = {(c["q"], c["r"]) for c in cells if c["type"] in SETTLEMENTS}
    return lambda c: (c["q"], c["r"]) not in EDGE and any(m in settled for m in grid.hex_neighbours((c["q"], c["r"])))


def _broken(rng: random.Random, layout: Layout) -> Layout:
    """One change a hand editing a layout file might make, one rule at a time."""
    out = copy.deepcopy(layout)
    cells = out.cells
    move = rng.randrange(9)
    i, j = rng.randrange(len(cells)), rng.randrange(len(cells))
    if move == 0:                                   # a space becomes another type
        _settle(cells[i], rng.choice([*SETTLEMENTS, "empty", "mountain"]))
    elif move == 1:                                 # two spaces swap (a settlement moves)
        a, b = dict(cells[i]), dict(cells[j])
        _settle(cells[i], b["type"])
        _settle(cells[j], a["type"])
    elif move == 2:                                 # a space is left out
        del cells[i]
    elif move == 3:                                 # a wrong vp
        cells[i]["vp"] = 9
    elif move == 4:                                 # a few mountains
        for c in rng.sample([c for c in cells if c["type"] == "empty"], rng.randrange(1, 25)):
            c["type"] = "mountain"
    elif move == 5:                                 # 1-7 settlements pushed to the side of the map
        for _ in range(rng.randrange(1, 8)):
            _push(rng, cells, lambda c: (c["q"], c["r"]) in EDGE)
    elif move == 6:                                 # 1-7 settlements pushed next to another
        for _ in range(rng.randrange(1, 8)):
            _push(rng, cells, _touching(cells))
    elif move == 7:                                 # the layout claims another mode
        out.metrics = {**out.metrics, "rules": rng.choice(["strict", "relaxed", "loose", None, ["relaxed"]])}
    else:                                           # the mode left out: checked as strict
        out.metrics = {k: v for k, v in out.metrics.items() if k != "rules"}
    return out


def _agree_on_broken(n: int, seed: int) -> Counter:
    rng = random.Random(seed)
    layouts = _generated(rng, 10)
    agreed = Counter()
    for k in range(n):
        layout = _broken(rng, layouts[k % len(layouts)])
        found = verdicts(layout)
        assert found["oracle"] == found["declared"], (layout.to_dict(), found)
        agreed[found["oracle"][0], bool(found["oracle"][1])] += 1
    return agreed


def test_both_checkers_agree_on_broken_layouts():
    agreed = _agree_on_broken(400, 7)
    # legal and not, with and without notes: every verdict was exercised
    assert all(agreed[legal, noted] > 8 for legal in (True, False) for noted in (True, False)), agreed


@pytest.mark.slow
def test_both_checkers_agree_on_thousands_of_broken_layouts():
    agreed = _agree_on_broken(4000, 8)
    assert all(agreed[legal, noted] > 80 for legal in (True, False) for noted in (True, False)), agreed


def _with_edge_settlements(count: int, relaxed: bool) -> Layout:
    """A strict layout with `count` settlements moved onto the side of the map, none touching."""
    layout = copy.deepcopy(royal_dukes_gen.generate(random.Random(11), 4, PLAIN))
    layout.metrics = {"rules": "relaxed" if relaxed else "strict"}
    cells = {(c["q"], c["r"]): c for c in layout.cells}
    moved = 0
    for at in sorted(EDGE):
        if moved == count:
            break
        near = [m for m in grid.hex_neighbours(at) if m in cells]
        if cells[at]["type"] != "empty" or any(cells[m]["type"] != "empty" for m in near):
            continue
        source = next(c for c in cells.values() if c["type"] in SETTLEMENTS and (c["q"], c["r"]) not in EDGE)
        _settle(cells[at], source["type"])
        _settle(source, "empty")
        moved += 1
    assert moved == count
    return layout


@pytest.mark.parametrize("count, relaxed, noted", [(5, True, False), (6, True, True), (1, False, True), (0, False, False)])
def test_the_allowance_holds_to_its_number_in_both_checkers(count, relaxed, noted):
    layout = _with_edge_settlements(count, relaxed)
    found = verdicts(layout)
    assert found["oracle"] == found["declared"] == (True, ["settlement-edge"] if noted else [])
    if noted:
        note = next(v for v in engine.check(layout, GAME) if v.rule == "settlement-edge")
        assert f"{count} settlement cell(s) on the edge" in note.message
        assert f"({'relaxed' if relaxed else 'strict'} allows {5 if relaxed else 0})" in note.message


def test_relaxed_layouts_use_the_allowance_only_when_needed():
    gen, rng = declared_generator(), random.Random(3)
    edges, pairs = Counter(), Counter()
    for _ in range(300):
        layout = gen.generate(rng, 4, MapOptions(balance=False, relaxed=True))
        breaks = gen.metrics(layout)["breaks"]
        edges[breaks["settlement-edge"]] += 1
        pairs[breaks["settlement-adjacent"]] += 1
    assert max(edges) <= 5 and max(pairs) <= 5
    assert edges[5] < 15 and pairs[5] < 15                   # "Some of this is ok": not always all
    assert edges[0] + edges[1] + edges[2] > 200 and pairs[0] + pairs[1] + pairs[2] > 200     # docs: mostly 0-2
    assert sum(edges.values()) == 300 and edges[0] < 300 and pairs[0] < 300    # it is used


def test_the_mode_is_recorded_and_read_back(tmp_path):
    for flag, mode in (((), "strict"), (("--relaxed",), "relaxed")):
        code, out, err = run_cli("map", GAME, "--seed", "5", *flag, "--out", tmp_path / mode)
        assert code == 0, err
        path = tmp_path / mode / GAME / f"{GAME}-map-4p-5.json"
        data = json.loads(path.read_text())
        assert data["metrics"]["rules"] == mode and set(data["metrics"]["breaks"]) == {"settlement-edge", "settlement-adjacent"}
        code, out, err = run_cli("map", "--check", path)
        assert code == 0 and "legal royal-dukes layout" in out, out + err
    data["metrics"]["rules"] = "loose"
    path.write_text(json.dumps(data))
    code, out, err = run_cli("map", "--check", path)
    assert code == 0 and "note: rules-mode" in out and "'loose', not strict or relaxed" in out, out + err


def test_a_copy_that_changes_the_numbers_simply_maps(tmp_path):
    """No more hand-written numbers to disagree with: a copy with a third city maps by its own
    declaration, and build makes its map."""
    pack = tmp_path / "big-duchy"
    shutil.copytree(RD, pack)
    text = (pack / "map.yaml").read_text()
    text = text.replace("- {type: city, count: 2}", "- {type: city, count: 3}")
    text = text.replace("count: settlement, exactly: &settlements 20", "count: settlement, exactly: &settlements 21")
    text = text.replace("count: city, exactly: 2,", "count: city, exactly: 3,")
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--seed", "4", "--relaxed", "--out", tmp_path / "out")
    assert code == 0, err
    path = tmp_path / "out" / "big-duchy" / "big-duchy-map-4p-4.json"
    assert Counter(c["type"] for c in json.loads(path.read_text())["cells"])["city"] == 3
    code, out, err = run_cli("map", pack, "--check", path)
    assert code == 0 and "legal big-duchy layout" in out, out + err


def test_balance_by_the_declared_objective_evens_every_cut():
    plain = [engine.generate(GAME, s, None, PLAIN).metrics for s in range(30)]
    fair = [engine.generate(GAME, s, None, MapOptions()).metrics for s in range(30)]
    for cut in ("quadrants", "diagonal-halves", "wedges"):
        key = f"vp_{cut}_spread"
        assert sum(m[key] for m in fair) < 0.6 * sum(m[key] for m in plain), cut
