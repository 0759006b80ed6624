"""`options:` of the map vocabulary (docs/maps.md): what a switch of `pnpgen map` (--relaxed)
allows, as a number of breaks of named placement rules. Each documented behaviour: the mistakes
named with their place, the allowance used only when needed and never beyond its number (per
player count too), the checker holding a layout to its recorded mode, and --relaxed refused by
name where no option declares it."""
from __future__ import annotations

import random
import re

import pytest
import yaml

from generator.maps import declared, declared_check, declared_gen, engine, grid
from generator.maps.rules import MapOptions

PLAIN = MapOptions(balance=False)
RELAXED = MapOptions(balance=False, relaxed=True)
APART = {"id": "towers-apart", "not_adjacent": ["tower", "tower"], "quote": "Towers never touch."}


def tiny(tmp_path, size: int, towers: int, constraints: list, options=None, players=(2, 2)):
    """A size x size square board with `towers` towers dealt on it."""
    section = {"board": {"grid": "square", "shape": "rectangle", "cols": size, "rows": size},
               "players": {"min": players[0], "max": players[1]}, "fill": "plain",
               "types": {"plain": {}, "tower": {}}, "deal": [{"type": "tower", "count": towers}],
               "constraints": constraints}
    if options is not None:
        section["options"] = options
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    return declared_gen.Generator(declared.load(section, path), "tiny"), declared_check.Checker(path, "tiny")


def pairs(layout) -> int:
    towers = {(c["x"], c["y"]) for c in layout.cells if c["type"] == "tower"}
    return sum(1 for a in towers for b in grid.square_neighbours(a) if b in towers and a < b)


@pytest.mark.parametrize("options, said", [
    ({"loose": {"allow": {"towers-apart": 1}}}, r"layout\.options\.loose: 'loose' is not a switch of pnpgen map; name one of relaxed"),
    ({"relaxed": {"allow": {"towers-apat": 1}}}, r"layout\.options\.relaxed\.allow\.towers-apat: 'towers-apat' is not the id of a rule "
                                                 r"under constraints:; did you mean 'towers-apart'\?"),
    ({"relaxed": {"allow": {"zzz": 1}}}, r"'zzz' is not the id of a rule under constraints:; name a rule by its id: towers-apart"),
    ({"relaxed": {"allow": {"six-towers": 1}}}, r"'six-towers' is a count rule, whose breaks are not counted one by one; "
                                                r"allow breaks of not_adjacent, min_distance, off_edge, on_edge, near rules"),
    ({"relaxed": {"allow": {"twice": 1}}}, r"'twice' is the id of 2 rules; give the rule it allows an id of its own"),
    ({"relaxed": {"allow": {}}}, r"layout\.options\.relaxed\.allow: allows nothing"),
    ({"relaxed": {"allow": {"towers-apart": -1}}}, r"towers-apart: must be a whole number from 0 to 100000, not -1"),
    ({"relaxed": {"allow": {"towers-apart": {2: 1}}}}, r"towers-apart: gives no number for 3 players"),
    ({"relaxed": {"allow": {"towers-apart": 1}, "alow": 2}}, r"layout\.options\.relaxed: unknown key 'alow'; did you mean 'allow'\?"),
])
def test_a_mistake_in_options_is_named_with_its_place(tmp_path, options, said):
    constraints = [APART, {"id": "six-towers", "count": "tower", "exactly": 6, "quote": "Six towers."},
                   {"id": "twice", "off_edge": "tower"}, {"id": "twice", "on_edge": "plain"}]
    with pytest.raises(declared.DeclarationError) as caught:
        tiny(tmp_path, 5, 6, constraints, options, players=(2, 3))
    assert re.search(said, str(caught.value)), caught.value
    assert re.match(r".*map\.yaml:\d+:\d+: layout\.options", str(caught.value)), caught.value


def test_relaxed_is_refused_by_name_where_no_option_declares_it(tmp_path):
    gen, _ = tiny(tmp_path, 5, 4, [APART])
    assert "relaxed" not in gen.OPTIONS
    rules = engine.MapRules("tiny", tmp_path, {}, gen, ())
    with pytest.raises(engine.MapError, match="tiny takes no --relaxed: its map rules have no such option"):
        engine.generate(rules, 1, 2, RELAXED)


def test_the_allowance_is_used_only_when_needed(tmp_path):
    """Four towers on a 5 x 5 board always find a cell touching none: relaxed breaks nothing."""
    gen, check = tiny(tmp_path, 5, 4, [APART], {"relaxed": {"allow": {"towers-apart": 5}}})
    assert "relaxed" in gen.OPTIONS
    rng = random.Random(2)
    for _ in range(100):
        layout = gen.generate(rng, 2, RELAXED)
        assert pairs(layout) == 0 and layout.metrics == {"rules": "relaxed"} and check.check(layout) == []
        assert gen.generate(rng, 2, PLAIN).metrics == {"rules": "strict"}


def test_a_board_strict_rules_cannot_fill_is_dealt_within_the_allowance(tmp_path):
    """Six towers on 3 x 3 cells: at most five stand apart, and the fewest touching pairs is 3
    (the three empty cells on the middles of the sides). Strict finds no board; relaxed with 3
    allowed finds boards of exactly 3 pairs; with 2 allowed, none."""
    options = {"relaxed": {"allow": {"towers-apart": {2: 3, 3: 2}}}}
    gen, check = tiny(tmp_path, 3, 6, [APART], options, players=(2, 3))
    with pytest.raises(declared_gen.NoLayout, match="towers-apart"):
        gen.generate(random.Random(1), 2, MapOptions(balance=False, budget=50))
    rng = random.Random(3)
    for _ in range(30):
        layout = gen.generate(rng, 2, RELAXED)
        assert pairs(layout) == 3 and check.check(layout) == []
        assert gen.metrics(layout)["breaks"] == {"towers-apart": 3}
    with pytest.raises(declared_gen.NoLayout):                   # 2 allowed with 3 players
        gen.generate(random.Random(1), 3, MapOptions(balance=False, relaxed=True, budget=50))
    layout.metrics = {"rules": "strict"}                          # the same board claimed strict
    found = check.check(layout)
    assert [v.rule for v in found] == ["towers-apart"] and "3 pair(s) of touching tower and tower" in found[0].message
    assert "(strict allows 0)" in found[0].message
    layout.players = 3
    layout.metrics = {"rules": "relaxed"}
    assert "(relaxed allows 2)" in check.check(layout)[0].message
    layout.players = [3]                                          # garbage: said as such, never a traceback
    assert [v.rule for v in check.check(layout)] == ["players"]


def test_an_allowance_over_cells_counts_cells(tmp_path):
    """off_edge: two towers on 3 x 3 cells, one inland cell: one tower goes on the edge, no more."""
    rule = {"id": "inland", "off_edge": "tower", "quote": "Towers stand inland."}
    gen, check = tiny(tmp_path, 3, 2, [rule], {"relaxed": {"allow": {"inland": 1}}})
    rng = random.Random(5)
    for _ in range(30):
        layout = gen.generate(rng, 2, RELAXED)
        assert check.check(layout) == [] and gen.metrics(layout)["breaks"] == {"inland": 1}
        assert next(c for c in layout.cells if (c["x"], c["y"]) == (1, 1))["type"] == "tower"


def test_the_checker_holds_a_layout_to_its_recorded_mode(tmp_path):
    gen, check = tiny(tmp_path, 3, 6, [APART], {"relaxed": {"allow": {"towers-apart": 3}}})
    layout = gen.generate(random.Random(4), 2, RELAXED)
    for mode, rules in (("relaxed", []), ("strict", ["towers-apart"]), ("loose", ["rules-mode", "towers-apart"]),
                        (["relaxed"], ["rules-mode", "towers-apart"])):
        layout.metrics = {"rules": mode}
        assert [v.rule for v in check.check(layout)] == rules, mode
    layout.metrics = {}                                          # no mode said: checked as strict
    assert [v.rule for v in check.check(layout)] == ["towers-apart"]
    layout.metrics = {"rules": "loose"}
    said = next(v for v in check.check(layout) if v.rule == "rules-mode")
    assert "metrics.rules is 'loose', not strict or relaxed; checked as strict" in said.message


def test_relaxed_layouts_are_the_same_for_the_same_seed(tmp_path):
    gen, _ = tiny(tmp_path, 6, 14, [APART], {"relaxed": {"allow": {"towers-apart": 4}}})
    made = [[gen.generate(random.Random(s), 2, RELAXED).cells for s in (7, 8)] for _ in range(2)]
    assert made[0] == made[1] and made[0][0] != made[0][1]


def test_the_docs_show_royal_dukes_option_as_it_is():
    from conftest import ROOT
    doc = (ROOT / "docs" / "maps.md").read_text()
    block = doc.split("**Options: a rule the players may bend.**", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    shown = yaml.safe_load(block)
    real = yaml.safe_load((ROOT / "components" / "royal-dukes" / "map.yaml").read_text())["layout"]
    assert shown["options"]["relaxed"]["allow"] == real["options"]["relaxed"]["allow"]
    ids = {r["id"]: next(k for k in r if k not in ("id", "quote", "policy")) for r in real["constraints"]}
    for rule in shown["constraints"]:
        assert ids[rule["id"]] in rule


# --- an objective over markers near each start (docs/maps.md, objective: start_spread) ----------

def marked(tmp_path, objective):
    section = {"board": {"grid": "square", "shape": "rectangle", "cols": 7, "rows": 7},
               "players": {"min": 2, "max": 2}, "fill": "plain", "types": {"plain": {}, "keep": {}},
               "deal": [{"type": "keep", "count": 6}], "starts": {"over": "keep", "near": 1},
               "markers": [{"name": "pit", "over": "plain", "count": 5}], "objective": objective}
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    return declared_gen.Generator(declared.load(section, path), "pits")


def test_start_spread_counts_the_marked_cells_within_its_steps(tmp_path):
    gen = marked(tmp_path, [{"start_spread": "pit", "within": 2}])
    for seed in range(20):
        layout = engine.generate(engine.MapRules("pits", tmp_path, {}, gen, ()), seed, 2, PLAIN)
        starts = [tuple(p["cell"]) for p in layout.placements if p["kind"] == "start"]
        pits = [(c["x"], c["y"]) for c in layout.cells if c.get("pit")]
        near = [float(sum(1 for c in pits if abs(c[0] - s[0]) + abs(c[1] - s[1]) <= 2)) for s in starts]
        assert layout.metrics["pit_near_starts"] == near
        assert layout.metrics["pit_near_starts_spread"] == max(near) - min(near)


def test_balancing_evens_the_markers_near_each_start(tmp_path):
    gen = marked(tmp_path, [{"start_spread": "pit", "within": 1}])
    rules = engine.MapRules("pits", tmp_path, {}, gen, ())
    spread = lambda balance: sum(engine.generate(rules, s, 2, MapOptions(balance=balance)).metrics["pit_near_starts_spread"]
                                 for s in range(20))
    assert spread(True) < spread(False) / 2


@pytest.mark.parametrize("objective, said", [
    ({"start_spread": "pot", "within": 2}, r"objective\[1\]\.start_spread: no type or area declares the value 'pot'"),
    ({"start_spread": "pit", "within": 21}, r"objective\[1\]\.within: must be a whole number from 0 to 20"),
    ({"region_spread": "pit", "within": 2}, r"objective\[1\]: unknown key 'within'"),
])
def test_a_mistake_in_a_marker_objective_is_named(tmp_path, objective, said):
    with pytest.raises(declared.DeclarationError, match=said):
        marked(tmp_path, [objective])


def test_cones_balance_evens_its_doom_points():
    plain = [engine.generate("cones-of-dunshire", s, None, PLAIN).metrics for s in range(8)]
    fair = [engine.generate("cones-of-dunshire", s, None, MapOptions()).metrics for s in range(8)]
    key = "doom_point_near_starts_spread"
    assert sum(m[key] for m in fair) < sum(m[key] for m in plain) / 2
