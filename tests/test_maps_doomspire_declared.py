"""Lords of Doomspire declared in the map vocabulary (issue 24): its map.yaml `layout:` against the
hand-written oracle (tests/map_oracles/). Both checkers agree on layouts of both generators and on
layouts broken one change at a time; the declared form drives `pnpgen map`; a copy of the pack
with a changed number maps by its own numbers."""
from __future__ import annotations

import copy
import json
import random
import shutil
from collections import Counter

import pytest

from conftest import ROOT, run_cli
from generator.maps import engine
from generator.maps.layout import Layout
from generator.maps.rules import MapOptions
from map_oracles.data import map_data
from map_oracles import lords_of_doomspire_check as oracle_check
from map_oracles import lords_of_doomspire_gen as oracle_gen

GAME = "lords-of-doomspire"
PACK = ROOT / "components" / GAME
PLAIN = MapOptions(balance=False)
POLICIES = set(map_data(GAME)["policies"])


def verdicts(layout: Layout) -> tuple:
    """(oracle, declared): each (legal?, a house policy noted?); on an illegal layout the notes
    are left out (the oracle stops at a broken board before judging the shares)."""
    hand = oracle_check.check(layout)
    ours = engine.check(layout, GAME)
    hand = (not [v for v in hand if v.rule not in POLICIES], any(v.rule in POLICIES for v in hand))
    ours = (not engine.broken_rules(ours), any(v.policy for v in ours))
    return tuple((legal, noted if legal else None) for legal, noted in (hand, ours))


def both_generators(rng: random.Random, n: int) -> list:
    gen = engine.generator_of(GAME)
    out = []
    for k in range(n):
        players = 2 + k % 3
        out.append(gen.generate(rng, players, PLAIN))
        out.append(oracle_gen.generate(rng, players, PLAIN))
    return out


def test_the_declared_form_drives_map():
    rules = engine.rules_for(GAME)
    assert "python_rules" not in rules.data and [name for name, _ in rules.checkers] == ["declared"]


@pytest.mark.parametrize("n, seed", [pytest.param(100, 1, id="200 layouts"),
                                     pytest.param(1500, 2, id="3000 layouts", marks=pytest.mark.slow)])
def test_both_checkers_pass_layouts_of_both_generators(n, seed):
    for layout in both_generators(random.Random(seed), n):
        assert verdicts(layout) == ((True, False), (True, False)), [str(v) for v in engine.check(layout, GAME)]


def _swap(a: dict, b: dict, keys=("type", "resources", "starred", "question_marks", "label")) -> None:
    ta, tb = {k: a.pop(k) for k in keys if k in a}, {k: b.pop(k) for k in keys if k in b}
    a.update(tb)
    b.update(ta)


def _broken(rng: random.Random, layout: Layout) -> Layout:
    """One random change a hand editing a layout file might make."""
    out = copy.deepcopy(layout)
    land = [c for c in out.cells if c["type"] != "ocean"]
    a, b = rng.choice(land), rng.choice(land)
    move = rng.randrange(12)
    if move == 0:                                  # two tiles change places (anywhere on the land)
        _swap(a, b)
        tokens = {tuple(p["cell"]) for p in out.placements if p["kind"] == "adventure-tokens"}
        out.placements = [p for p in out.placements if p["kind"] != "adventure-tokens"]
        for c in (c for c in out.cells if c["type"] in ("adventure", "oasis") and not c["face_down"]):
            out.placements.append({"kind": "adventure-tokens", "cell": [c["x"], c["y"]], "count": 2, "label": "2"})
        del tokens
    elif move == 1:                                # two tiles of one biome and quadrant-ring swap
        same = [c for c in land if c["biome"] == a["biome"] and c["type"] != "home" and c is not a]
        if a["type"] != "home" and same:
            _swap(a, rng.choice(same))
    elif move == 2:                                # a tile becomes another tile
        a["type"] = rng.choice(["adventure", "oasis", "trader", "temple", "bears-den", "resource"])
        if a["type"] == "resource" and "resources" not in a:
            a["resources"], a["starred"] = {"gold": 1}, False
    elif move == 3:                                # another yield
        if a["type"] == "resource":
            a["resources"] = rng.choice([{"gold": 1}, {"food": 2}, {"wood": 1, "ore": 1}, {"gold": 3}])
    elif move == 4:                                # a flag flipped
        key = rng.choice(["face_down", "starred", "coastal"])
        if key in a:
            a[key] = not a[key]
    elif move == 5:                                # a tier or question marks off by one
        key = rng.choice(["tier", "question_marks"])
        if key in a:
            a[key] += rng.choice((-1, 1))
    elif move == 6:                                # a zone renamed
        cell = rng.choice([c for c in out.cells if "zone" in c])
        cell["zone"] = rng.choice(["nw", "ne", "se", "sw"])
    elif move == 7:                                # a knight or boat moved or lost
        piece = rng.choice([p for p in out.placements if p["kind"] in ("knight", "boat")])
        if rng.random() < 0.5:
            out.placements.remove(piece)
        else:
            piece["cell"] = [rng.randrange(-1, 9), rng.choice((-1, 8))]
    elif move == 8:                                # adventure tokens lost, added or miscounted
        tokens = [p for p in out.placements if p["kind"] == "adventure-tokens"]
        pick = rng.randrange(3)
        if pick == 0:
            out.placements.remove(rng.choice(tokens))
        elif pick == 1:
            out.placements.append({"kind": "adventure-tokens", "cell": [a["x"], a["y"]], "count": 2, "label": "2"})
        else:
            rng.choice(tokens)["count"] = 3
    elif move == 9:                                # the seats turned, or two players swapped
        homes = [c for c in out.cells if c["type"] == "home"]
        owners = [c["owner"] for c in homes]
        shift = rng.randrange(1, 4) if rng.random() < 0.5 else None
        turned = owners[-shift:] + owners[:-shift] if shift else list(reversed(owners))
        for c, owner in zip(homes, turned):
            c["owner"] = owner
        where = {c["owner"]: (c["x"], c["y"]) for c in homes if c["owner"]}
        for p in out.placements:
            if p["kind"] in ("knight", "boat"):
                x, y = where[p["owner"]]
                p["cell"] = [x, y] if p["kind"] == "knight" else [8 if x else -1, 8 if y else -1]
                if p["kind"] == "boat":
                    p["zone"] = ("n" if y == 0 else "s") + ("w" if x == 0 else "e")
    elif move == 10:                               # a home's yield changed
        home = rng.choice([c for c in out.cells if c["type"] == "home"])
        home["resources"] = {"food": 2}
    else:                                          # an ocean cell turns to land, or a land tile is lost
        if rng.random() < 0.5:
            sea = rng.choice([c for c in out.cells if c["type"] == "ocean"])
            sea["type"] = "trader"
        else:
            out.cells.remove(a)
    return out


@pytest.mark.parametrize("n, seed", [pytest.param(300, 3, id="300 broken"),
                                     pytest.param(3000, 4, id="3000 broken", marks=pytest.mark.slow)])
def test_both_checkers_agree_on_broken_layouts(n, seed):
    rng = random.Random(seed)
    sources = both_generators(rng, 20)
    seen = Counter()
    for k in range(n):
        layout = _broken(rng, sources[k % len(sources)])
        hand, ours = verdicts(layout)
        assert hand == ours, (layout.to_dict(), [str(v) for v in oracle_check.check(layout)],
                              [str(v) for v in engine.check(layout, GAME)])
        seen[hand] += 1
    assert seen[(True, False)] > n // 20 and seen[(False, None)] > n // 3
    assert seen[(True, True)] > 0                   # a house policy broken alone: a note, legal


def test_map_and_check_from_the_command_line(tmp_path):
    code, out, err = run_cli("map", GAME, "--seed", "5", "--count", "6", "--balance", "off", "--out", tmp_path)
    assert code == 0, err
    path = tmp_path / GAME / f"{GAME}-maps-4p-5-x6.json"
    layouts = json.loads(path.read_text())["layouts"]
    for layout in layouts:
        assert oracle_check.check(Layout.from_dict(layout)) == []
    code, out, err = run_cli("map", GAME, "--check", path)
    assert code == 0 and out.count(f"legal {GAME} layout") == 6, out + err
    next(c for c in layouts[0]["cells"] if c.get("biome") == "hills")["face_down"] = False
    path.write_text(json.dumps({"layouts": layouts[:1]}))
    code, out, err = run_cli("map", GAME, "--check", path)
    assert code == 1 and "face-down" in out and "All hill and mountain tiles start unexplored" in out, out


def test_a_copy_with_a_changed_number_maps_by_its_own_numbers(tmp_path):
    """One more oasis and one adventure tile fewer in the plains: the copy maps (no
    RulesNotForThisCopy) and --check holds it to its own numbers."""
    pack = tmp_path / "doomspire-oases"
    shutil.copytree(PACK, pack)
    text = (pack / "map.yaml").read_text()
    for old, new in (("{type: adventure, count: 12, in:", "{type: adventure, count: 11, in:"),
                     ("{type: oasis, count: 4, in:", "{type: oasis, count: 5, in:"),
                     ("count: adventure, in: {biomes: plains}, exactly: 12", "count: adventure, in: {biomes: plains}, exactly: 11"),
                     ("count: oasis, in: {biomes: plains}, exactly: 4", "count: oasis, in: {biomes: plains}, exactly: 5")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (pack / "map.yaml").write_text(text)
    code, out, err = run_cli("map", pack, "--seed", "4", "--out", tmp_path / "out")
    assert code == 0, err
    path = tmp_path / "out" / "doomspire-oases" / "doomspire-oases-map-4p-4.json"
    layout = json.loads(path.read_text())
    plains = Counter(c["type"] for c in layout["cells"] if c.get("biome") == "plains")
    assert (plains["oasis"], plains["adventure"]) == (5, 11)
    code, out, err = run_cli("map", pack, "--check", path)
    assert code == 0 and "legal doomspire-oases layout" in out, out + err
    code, out, err = run_cli("map", GAME, "--check", path)      # the built-in rules: one oasis too many
    assert code == 1 and "tile-mix" in out
