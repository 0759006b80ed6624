"""Dragon Towers in the map vocabulary (issue 24, item 6): the declared form (map.yaml `layout:`,
a laid map with tile sets and turn pieces) against the hand-written oracle (tests/map_oracles/): both
checkers agree on layouts of both generators and on layouts with one rule broken; the declared
form drives `pnpgen map`; a copy that changes a number maps its own way; every mistake in the new
terms is located."""
from __future__ import annotations

import ast
import json
import random
import re
import shutil
from collections import Counter

import pytest
import yaml

from conftest import ROOT, run_cli
from generator.maps import declared, declared_laid_gen, engine
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions
from map_oracles import dragon_towers_check as oracle_check, dragon_towers_gen as oracle_gen
from test_maps_dragon_towers import BREAKERS

GAME = "dragon-towers"
PACK = ROOT / "components" / GAME
PLAIN = MapOptions(balance=False)


def declared_check(layout: Layout) -> list:
    return engine.check(layout, GAME)


def verdicts(layout: Layout) -> tuple:
    """(oracle legal?, declared legal?): Dragon Towers has no policies, so a verdict is legal or not."""
    return (not oracle_check.check(layout), not engine.broken_rules(declared_check(layout)))


def test_the_declared_form_drives_map_and_build():
    rules = engine.rules_for(GAME)
    assert "python_rules" not in rules.data
    assert [name for name, _ in rules.checkers] == ["declared"]
    assert isinstance(rules.gen, declared_laid_gen.Generator)
    assert not (ROOT / "generator" / "maps" / "dragon_towers_gen.py").exists()


def _layouts(n: int, seed: int) -> list:
    rng = random.Random(seed)
    gen = engine.generator_of(GAME)
    out = []
    for k in range(n):
        source = gen if k % 2 else oracle_gen
        out.append(source.generate(rng, rng.randint(1, 4), MapOptions(balance=k % 3 == 0)))
    return out


def _agree_on(layouts: list) -> Counter:
    seen = Counter()
    for layout in layouts:
        assert verdicts(layout) == (True, True), layout.to_dict()
        for rule, breaker in BREAKERS.items():
            for k, broken in enumerate(breaker(layout)):
                if k == 3:
                    break
                found = verdicts(broken)
                assert found[0] == found[1], (rule, [str(v) for v in oracle_check.check(broken)],
                                              [str(v) for v in declared_check(broken)])
                seen[found[0]] += 1
    return seen


def test_both_checkers_agree_on_layouts_of_both_generators_and_broken_ones():
    seen = _agree_on(_layouts(60, 1))
    assert seen[False] > 1000          # the broken ones were broken


@pytest.mark.slow
def test_both_checkers_agree_on_thousands_of_layouts():
    seen = _agree_on(_layouts(2000, 2))
    assert seen[False] > 50_000


# where the declared checker says it in its own words: the printed values on each set's tiles are
# one set token (`token`), malformed layouts are structure, and a monster off the Empty tiles
# also stands on no number its roll could match
TOLD_OTHERWISE = {
    "structure": {"game", "players", "grid", "cell-shape", "cell-type", "cell-duplicate", "set", "piece", "placement", "token"},
    "empty-number": {"token"}, "empty-numbers-differ": {"token"}, "empty-set": {"token"},
    "monster-on-empty": {"monster-on-empty", "monster-roll"},
}


@pytest.mark.parametrize("rule", sorted(BREAKERS))
def test_each_rule_broken_alone_is_refused_by_the_declared_checker(rule):
    """A layout the oracle finds broken in this one rule only: the declared checker refuses it too."""
    for seed in range(30):
        legal = engine.generate(GAME, seed, 1 + seed % 4, PLAIN)
        for broken in BREAKERS[rule](legal):
            if {v.rule for v in oracle_check.check(broken)} == {rule}:
                found = engine.broken_rules(declared_check(broken))
                assert found, rule
                if rule not in TOLD_OTHERWISE:
                    assert {v.rule for v in found} == {rule}      # the same rule id, its own quote
                else:
                    assert {v.rule for v in found} <= TOLD_OTHERWISE[rule]
                return
    pytest.fail(f"could not break only {rule!r}")


def test_the_declared_layouts_carry_what_the_drawing_reads():
    layout = engine.generate(GAME, 3, 3, PLAIN)
    assert all(set(c) == {"q", "r", "type", "placed_by"} | ({"number"} if c["type"] == "empty" else set())
               for c in layout.cells)
    assert Counter(p["kind"] for p in layout.placements) == {"monster": 6, "outpost": 12}
    assert all(set(p) == {"kind", "cell", "owner", "roll"} for p in layout.placements if p["kind"] == "monster")
    assert [p["owner"] for p in layout.placements if p["kind"] == "outpost"] == [1, 2, 3] * 4    # taking turns


def test_a_copy_with_a_changed_number_maps_its_own_way(tmp_path):
    pack = tmp_path / "dragon-isles"
    shutil.copytree(PACK, pack)
    text = (pack / "map.yaml").read_text()
    text = text.replace("- {type: water, count: &water 5}", "- {type: water, count: &water 7}", 1)
    text = text.replace("set_count: water, exactly: 5", "set_count: water, exactly: 7", 1)
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--seed", "4", "--players", "3", "--out", tmp_path / "out")
    assert code == 0, err
    path = tmp_path / "out" / "dragon-isles" / "dragon-isles-map-3p-4.json"
    layout = json.loads(path.read_text())
    assert Counter((c["placed_by"], c["type"]) for c in layout["cells"])[(2, "water")] == 7
    code, out, err = run_cli("map", pack, "--check", path)
    assert code == 0 and "legal dragon-isles layout" in out, out + err


def test_check_names_a_broken_piece_rule_with_its_quote(tmp_path):
    layout = engine.generate(GAME, 5, 2, PLAIN).to_dict()
    monster = next(p for p in layout["placements"] if p["kind"] == "monster")
    monster["roll"] = monster["roll"] % 6 + 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(layout))
    code, out, err = run_cli("map", GAME, "--check", path)
    assert code == 1 and "monster-roll" in out and "Roll a 1d6." in out, out + err


# --- the new terms' mistakes, each located ---------------------------------------------------

def _section() -> dict:
    return yaml.safe_load((PACK / "map.yaml").read_text())["layout"]


MISTAKES = [
    (lambda s: s["sets"].pop("key"), r"layout\.sets\.key: must name the cell key"),
    (lambda s: s["sets"]["tiles"][0].update(type="lava"), r"sets\.tiles\[1\]\.type: 'lava' is not a declared type"),
    (lambda s: s["sets"].update(grow=20), r"sets\.grow: must be a number from 0 to 8"),
    (lambda s: s["sets"]["tokens"][0]["values"].pop(4), r"sets\.tokens\[1\]\.values: gives no values for seat 4"),
    (lambda s: s["sets"]["tokens"][0]["values"][2].append(1), r"values\.2: lists 6 values for the 5 tiles"),
    (lambda s: s["turn_pieces"][1].update(kind="monster"), r"turn_pieces\[2\]\.kind: must name the kind of piece \(once"),
    (lambda s: s["turn_pieces"][1].update(each=5), r"asks for \{'exactly': 4\} outpost each with 1 players, but turn_pieces: sets 5"),
    (lambda s: s["turn_pieces"][1]["prefer"].update(new="gold"), r"turn_pieces\[2\]\.prefer\.new: 'gold' is not a declared type"),
    (lambda s: s["constraints"][8].update(pieces_each="dragon"), r"constraints\[9\]\.pieces_each: 'dragon' is not a kind"),
    (lambda s: s["constraints"][10].update(shows="colour"), r"constraints\[11\]\.shows: 'colour' is not a token"),
    (lambda s: s["constraints"][10].update(die=1), r"constraints\[11\]\.die: must be a whole number from 2"),
    (lambda s: s["constraints"][11].update(pieces_apart=["monster"]), r"constraints\[12\]\.pieces_apart: must name two kinds"),
    (lambda s: s["constraints"][14].update(chain="yes"), r"constraints\[15\]\.chain: must be true or false"),
    (lambda s: s["constraints"].append({"off_edge": "rock"}), r"constraints\[18\]\.off_edge: reads a printed board"),
    (lambda s: s.update(starts={"over": "land"}), r"layout\.starts: is for a printed board"),
    (lambda s: s["board"].update(cols=3), r"layout\.board\.cols: a laid board has no printed cells"),
    (lambda s: s["objective"][0].update(piece_types="tower"), r"objective\[1\]: 'tower' is not a kind declared"),
    (lambda s: s["objective"].append({"start_spread": "vp"}), r"objective\[5\]"),
    (lambda s: s["board"].update(shape="hexagon", radius=4), r"layout\.sets: is for a map the players lay"),
]


@pytest.mark.parametrize("change, message", MISTAKES)
def test_a_mistake_in_the_new_terms_is_located(change, message, tmp_path):
    section = _section()
    change(section)
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump({"layout": section}, sort_keys=False))
    with pytest.raises(declared.DeclarationError) as caught:
        declared.load(section, path)
    assert re.search(r"map\.yaml:\d+:\d+: layout\.", str(caught.value)), str(caught.value)
    assert re.search(message, str(caught.value)), str(caught.value)


def test_a_mistake_in_the_pack_reaches_the_user_located(tmp_path):
    pack = tmp_path / "towers"
    shutil.copytree(PACK, pack)
    text = (pack / "map.yaml").read_text().replace("piece_roll: monster, die: 6", "piece_roll: monster, die: 0")
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2 and re.search(r"map\.yaml:\d+:\d+: layout\.constraints\[11\]\.die", err), err
    assert "Traceback" not in err


def test_the_declared_checker_is_written_apart_from_the_generators():
    for module in ("declared_check", "declared_laid_check"):
        tree = ast.parse((ROOT / "generator" / "maps" / f"{module}.py").read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    for alias in node.names} | {node.module or "" for node in ast.walk(tree)
                                                if isinstance(node, ast.ImportFrom)}
        assert not any("gen" in name or name == "engine" for name in imported), (module, imported)


def test_balancing_by_the_declared_objective_matches_the_tip():
    """With balancing on, every player's outposts stand on all four resource types (the rulebook's tip)."""
    for players in (2, 4):
        layout = engine.generate(GAME, 11, players, MapOptions())
        assert layout.metrics["outpost_resources"] == [4] * players
        assert oracle_gen.metrics(layout)["resource_types_held_min"] == 4


def test_prefer_acts_only_with_balancing_on():
    """docs/maps.md: `prefer` (the tip) places pieces with balancing on only."""
    gen = engine.generator_of(GAME)
    held = {True: [], False: []}
    for balance in (True, False):
        rng = random.Random(8)
        for _ in range(40):
            layout = gen.generate(rng, 3, MapOptions(balance=balance))
            held[balance].append(min(gen.metrics(layout)["outpost_resources"]))
    assert min(held[True]) >= 3 and sum(held[True]) / 40 > 3.8
    assert sum(held[False]) / 40 < 3


def test_the_metrics_are_the_documented_ones():
    one = engine.generate(GAME, 2, 1, MapOptions()).metrics
    four = engine.generate(GAME, 2, 4, MapOptions()).metrics
    for m, players in ((one, 1), (four, 4)):
        for name in ("outpost_resources", "outpost_resources_within_1", "monster_around_outpost"):
            assert len(m[name]) == players
        assert m["outpost_resources_shortfall"] == 4 - min(m["outpost_resources"])
        assert m["monster_around_outpost_spread"] == max(m["monster_around_outpost"]) - min(m["monster_around_outpost"])
    assert one["outpost_rival_distance"] is None and four["outpost_rival_distance"] >= 1
    assert four["score"] == round(-3 * four["outpost_resources_shortfall"] - four["outpost_resources_within_1_shortfall"]
                                  - four["monster_around_outpost_spread"] + 0.5 * min(four["outpost_rival_distance"], 4), 4)


def test_a_roll_no_tile_can_show_is_named_when_no_layout_is_found(tmp_path):
    """A d1000 rolled once per monster rarely shows one of the five numbers of a set: the dealing
    gives up within the budget and names the rule."""
    section = _section()
    section["constraints"][10]["die"] = 1000
    section["turn_pieces"][0]["rerolls"] = 1
    spec = declared.load(section, PACK / "map.yaml")
    gen = declared_laid_gen.Generator(spec, GAME)
    with pytest.raises(engine.MapError, match=r"no layout meets every rule .* in 30 boards; boards rejected by: monster-roll"):
        gen.generate(random.Random(1), 1, MapOptions(balance=False, budget=30))
