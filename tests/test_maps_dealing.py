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


# --- the fill's own placement rules (docs/maps.md: "The cells nothing is dealt onto ...") --------

def _moat(extra: dict, water: int = 14, towers: int = 6) -> dict:
    """A 6 x 6 square board: water dealt into its 20 edge cells (a place the bag does not fill),
    towers anywhere, plain the fill."""
    return {"board": {"grid": "square", "shape": "rectangle", "cols": 6, "rows": 6}, "players": {"min": 2, "max": 2},
            "fill": "plain", "types": {"plain": {}, "tower": {}, "water": {}},
            "deal": [{"type": "water", "count": water, "in": {"ring": 0}}, {"type": "tower", "count": towers}], **extra}


@pytest.mark.parametrize("rule, water, towers", [
    ({"id": "plain-inland", "off_edge": "plain", "quote": "No open ground on the shore."}, 14, 6),
    ({"id": "walled", "not_adjacent": ["plain", "water"], "quote": "Towers wall the moat."}, 10, 12),
])
def test_the_fill_left_in_a_place_its_bag_does_not_fill_keeps_its_rules(tmp_path, rule, water, towers):
    """The edge cells the water leaves, or the cells beside the water, would become plain at the
    end of dealing: the towers go there first. (Before, every layout broke the rule.)"""
    gen, check = generator(_moat({"constraints": [rule]}, water, towers), tmp_path)
    rng = random.Random(4)
    for _ in range(50):
        layout = gen.generate(rng, 2, PLAIN)
        assert check.check(layout) == []
        cells = {(c["x"], c["y"]): c["type"] for c in layout.cells}
        if "off_edge" in rule:
            assert all(cells[c] != "plain" for c in grid.edge_cells(list(cells), "square"))


def test_a_fill_rule_the_tiles_cannot_keep_is_named(tmp_path):
    """Five towers for six edge cells left open: some plain stays on the shore on every board."""
    section = _moat({"constraints": [{"id": "plain-inland", "off_edge": "plain"}]})
    section["deal"][1]["count"] = 5
    gen, _ = generator(section, tmp_path)
    with pytest.raises(declared_gen.NoLayout, match=r"boards rejected by: plain-inland 30;"):
        gen.generate(random.Random(1), 2, MapOptions(balance=False, budget=30))
