"""How the declared generator deals (docs/maps.md, "Placement rules ... hold while dealing"): tiles
of a `connected` type grow as one piece, and start positions are searched for, so a board with
no legal starts is given up at once and one with few is not thrown away."""
from __future__ import annotations

import random

import pytest
import yaml

from generator.maps import declared, declared_apart, declared_check, declared_gen, grid
from generator.maps.rules import MapOptions

PLAIN = MapOptions(balance=False)
POND = {
    "board": {"grid": "hex", "shape": "hexagon", "radius": 4},
    "players": {"min": 2, "max": 2},
    "types": {"pool": {}, "grass": {}},
    "fill": "grass",
    "deal": [{"type": "pool", "count": 9}],
    "constraints": [{"id": "pond", "connected": "pool", "quote": "One pond."},
                    {"id": "inland", "off_edge": "pool", "quote": "The pond is inland."}],
}


def generator(section, tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}))
    return declared_gen.Generator(declared.load(section, path), "pond"), declared_check.Checker(path, "pond")


def test_a_connected_type_grows_as_one_piece(tmp_path):
    """Nine pools on 37 inland cells fall into one piece at random only now and then; dealt next
    to each other they make one pond on the first board of nearly every seed."""
    gen, check = generator(POND, tmp_path)
    found = 0
    for seed in range(100):
        try:
            layout = gen.generate(random.Random(seed), 2, MapOptions(balance=False, budget=1))
        except declared_gen.NoLayout:
            continue
        assert check.check(layout) == []
        found += 1
    assert found >= 95


def test_a_connected_rule_is_still_checked_on_the_finished_board(tmp_path):
    """The pond cannot be one piece and also never touch itself: every board is refused by a rule."""
    section = {**POND, "constraints": POND["constraints"] + [{"id": "apart", "not_adjacent": ["pool", "pool"], "quote": "x"}]}
    gen, _ = generator(section, tmp_path)
    with pytest.raises(declared_gen.NoLayout, match="rejected by: pond 20"):
        gen.generate(random.Random(1), 2, MapOptions(balance=False, budget=20))


def test_the_start_search_finds_the_one_set_there_is():
    """Five candidates in a row, two starts at least four apart: only the two ends will do."""
    cells = list(range(5))
    clash = {c: sum(1 << j for j in cells if abs(c - j) < 4) for c in cells}
    for seed in range(20):
        assert sorted(declared_apart.pick_apart(random.Random(seed), cells, 2, clash)) == [0, 4]
    assert declared_apart.pick_apart(random.Random(1), cells, 3, clash) is None


def test_the_start_search_takes_the_greedy_choice_first():
    """The first set tried is the random order's greedy one (what shuffling once used to give)."""
    cells = list(range(30))
    clash = {c: sum(1 << j for j in cells if abs(c - j) < 2) for c in cells}
    for seed in range(10):
        order = cells[:]
        random.Random(seed).shuffle(order)
        greedy, blocked = [], set()
        for c in order:
            if c not in blocked and len(greedy) < 5:
                greedy.append(c)
                blocked |= {c - 1, c, c + 1}
        assert declared_apart.pick_apart(random.Random(seed), cells, 5, clash) == greedy
