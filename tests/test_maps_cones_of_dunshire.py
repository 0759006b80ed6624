"""Cones of Dunshire map rules: generated layouts are legal for thousands of seeds, every rule of
components/cones-of-dunshire/map.yaml is caught when (only) it is broken, layouts are
deterministic, balancing helps, and the checker reads layouts back from JSON."""
from __future__ import annotations

import copy
import json
import random
import statistics
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.maps import engine
from generator.maps.grid import hex_distance, hex_neighbours, offset_to_axial
from generator.maps.layout import Layout, dumps, load
from generator.maps.rules import MapOptions
from map_oracles.data import map_data
from map_oracles import cones_of_dunshire_check as checker, cones_of_dunshire_gen as gen

GAME = "cones-of-dunshire"
DATA = map_data(GAME)
PLAIN = MapOptions(balance=False)
BALANCED = MapOptions(balance=True)
LOW, HIGH, DEFAULT = gen.PLAYERS
OUTLINE = {offset_to_axial(col, row) for row, first, last in DATA["board"]["rows"]
           for col in range(first, last + 1)}
COLOURS = list(DATA["colors"])


def plain(seed: int, players: int = DEFAULT) -> Layout:
    return engine.generate(GAME, seed, players, PLAIN)


def rules_of(layout: Layout) -> set[str]:
    """The rules the hand-written checker (the oracle) finds broken."""
    return {v.rule for v in checker.check(layout)}


def clone(layout: Layout) -> Layout:
    return Layout.from_dict(copy.deepcopy(layout.to_dict()))


# ---------------------------------------------------------------------------------------------
# reading a layout (the tests' own helpers, independent of generator and checker)

def cells(layout: Layout) -> dict:
    return {layout.coord(c): c for c in layout.cells}


def terrain(layout: Layout) -> dict:
    return {k: c for k, c in cells(layout).items() if c["type"] != "challenge"}


def spaces(layout: Layout) -> dict:
    return {k: c for k, c in cells(layout).items() if c["type"] == "challenge"}


def starts(layout: Layout) -> dict:
    """role -> start hex"""
    return {p["role"]: tuple(p["cell"]) for p in layout.placements if p["kind"] == "start"}


def around(layout: Layout, coord) -> list:
    land = terrain(layout)
    return [n for n in hex_neighbours(coord) if n in land]


def group(layout: Layout, coord) -> set:
    return {coord, *around(layout, coord)}


def doom(layout: Layout) -> set:
    return {k for k, c in cells(layout).items() if c.get("doom_point")}


def is_mountain(cell: dict) -> bool:
    return cell["type"] in ("mountain", "summit")


def move_start(layout: Layout, role: str, to) -> Layout:
    """The same layout with one player's start (and its Farms) moved to another hex."""
    out = clone(layout)
    out.placements = [p for p in out.placements if not (p["kind"] == "farm" and p["role"] == role)]
    for p in out.placements:
        if p["kind"] == "start" and p["role"] == role:
            p["cell"] = [to[0], to[1]]
            label = p["label"]
    for n in sorted(around(out, to)):
        out.placements.append({"kind": "farm", "cell": [n[0], n[1]], "role": role, "label": label})
    return out


# ---------------------------------------------------------------------------------------------
# legal for thousands of seeds

def assert_counts(layout: Layout) -> None:
    land = terrain(layout)
    assert len(land) == DATA["board"]["hex_count"] == 70
    assert set(land) == OUTLINE
    types = Counter(c["type"] for c in land.values())
    for colour, n in DATA["colors"].items():
        assert types[colour] == n
    heights = Counter(c["elevation"] for c in land.values() if c["type"] == "mountain")
    assert heights == Counter({int(k): v for k, v in DATA["mountain"]["elevations"].items()})
    assert types["summit"] == DATA["mountain"]["summit"]["count"] == 2
    assert {c["elevation"] for c in land.values() if c["type"] == "summit"} == {DATA["mountain"]["summit"]["elevation"]}
    assert sorted(starts(layout)) == sorted(r["id"] for r in DATA["roles"])
    assert len(set(starts(layout).values())) == 8
    assert sum(1 for p in layout.placements if p["kind"] == "farm") == 8 * DATA["start"]["neighbours"]
    assert sorted(c["god"] for c in spaces(layout).values()) == sorted(g["id"] for g in DATA["gods"])
    assert len(doom(layout)) == DATA["doom_points"]["count"]
    for role, s in starts(layout).items():
        nbrs = [n for n in hex_neighbours(s) if n in land]
        assert len(nbrs) == DATA["start"]["neighbours"] == 3
        assert not any(is_mountain(land[c]) for c in [s, *nbrs])


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_plain_layouts_are_legal(seed):
    for players in range(LOW, HIGH + 1):
        layout = plain(seed, players)
        assert checker.check(layout) == [], [str(v) for v in checker.check(layout)]
        assert layout.players == players
        assert_counts(layout)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_balanced_layouts_are_legal(seed):
    layout = engine.generate(GAME, seed, DEFAULT, BALANCED)
    assert checker.check(layout) == []
    assert_counts(layout)
    assert layout.metrics["balance"] == "on" and "score" in layout.metrics


def test_player_counts():
    assert gen.PLAYERS == (8, 8, 8)               # "8 players": one per role
    assert engine.player_counts(GAME) == (8, 8, 8)
    for players in (LOW - 1, HIGH + 1):
        with pytest.raises(engine.MapError):
            engine.generate(GAME, 1, players, PLAIN)


def test_layout_shape():
    layout = plain(11)
    assert layout.game == GAME and layout.seed == 11 and layout.players == 8
    assert layout.grid == {"type": "hex", "orientation": "pointy"}
    look = DATA["look"]
    assert {c["type"] for c in layout.cells} <= set(look["cells"])
    assert {p["kind"] for p in layout.placements} <= set(look["markers"])
    for cell in layout.cells:
        if cell["type"] in COLOURS:
            assert cell["color"] == cell["type"]
        elif cell["type"] == "challenge":
            assert cell["color"] == {g["id"]: g["color"] for g in DATA["gods"]}[cell["god"]]
        else:
            assert isinstance(cell["elevation"], int) and cell["elevation"] >= 1
    json.dumps(layout.metrics)                    # JSON-serialisable


# ---------------------------------------------------------------------------------------------
# every rule, broken alone

def break_board_hexes(layout):
    land, near_space = terrain(layout), {n for s in spaces(layout) for n in hex_neighbours(s)}
    setup = {c for s in starts(layout).values() for c in group(layout, s)}
    for coord in sorted(land):
        cell = land[coord]
        if cell["type"] in COLOURS and coord not in setup and coord not in doom(layout) \
                and coord not in near_space and not any(is_mountain(land[n]) for n in around(layout, coord)):
            out = clone(layout)
            moved = cells(out)[coord]
            moved["q"] += 40                        # far off the board, touching nothing
            return out


def break_color_mix(layout):
    start_hexes = set(starts(layout).values())
    out = clone(layout)
    for coord, cell in sorted(cells(out).items()):
        if cell["type"] == "green" and coord not in start_hexes:
            cell["type"] = cell["color"] = "blue"
            return out


def break_normal_elevation(layout):
    land = terrain(layout)
    out = clone(layout)
    for coord, cell in sorted(cells(out).items()):
        if cell["type"] in COLOURS and not any(is_mountain(land[n]) for n in around(layout, coord)):
            cell["elevation"] = 1
            return out


def break_mountain_mix(layout):
    # some Mountain hex changes elevation; keep the first change that leaves the Summit climbable
    for coord, cell in sorted(terrain(layout).items()):
        if cell["type"] != "mountain":
            continue
        for h in (1, 2, 3):
            if h != cell["elevation"]:
                out = clone(layout)
                cells(out)[coord]["elevation"] = h
                if "summit-reachable" not in rules_of(out):
                    return out


def break_mountain_central(layout):
    # swap an elevation-1 Mountain hex with a normal hex far from the centre (colours stay)
    land = terrain(layout)
    setup = {c for s in starts(layout).values() for c in group(layout, s)}
    centre = [offset_to_axial(c, r) for c, r in DATA["board"]["centre"]]
    far = [c for c in sorted(land) if land[c]["type"] in COLOURS and c not in setup and c not in doom(layout)
           and min(hex_distance(c, x) for x in centre) > DATA["mountain"]["radius"]]
    for m in sorted(c for c in land if land[c]["type"] == "mountain" and land[c]["elevation"] == 1):
        if any(land[n].get("elevation", 0) > 1 and land[n]["type"] == "mountain" for n in around(layout, m)):
            continue                                # M as lowland would cut no climb
        out = clone(layout)
        if not far:
            return None
        a, b = cells(out)[m], cells(out)[far[0]]
        colour = b["type"]
        b.pop("color"), b.update(type="mountain", elevation=1)
        a.pop("elevation"), a.update(type=colour, color=colour)
        return out


def break_summit_size(layout):
    land = terrain(layout)
    top = sorted(c for c in land if land[c]["type"] == "summit")
    centre = [offset_to_axial(c, r) for c, r in DATA["board"]["centre"]]
    for keep, move in (top, top[::-1]):
        for m in sorted(land):
            if land[m]["type"] != "mountain" or hex_distance(m, keep) < 2 \
                    or min(hex_distance(m, x) for x in centre) > DATA["mountain"]["summit_radius"]:
                continue
            out = clone(layout)
            a, b = cells(out)[move], cells(out)[m]
            a["type"], b["type"] = "mountain", "summit"
            a["elevation"], b["elevation"] = b["elevation"], a["elevation"]
            if rules_of(out) == {"summit-size"}:
                return out


def break_summit_top(layout):
    out = clone(layout)
    for cell in out.cells:
        if cell["type"] == "summit":
            cell["elevation"] = 3                   # no higher than the highest Mountain hexes
    return out


def break_summit_reachable(layout):
    # deal the Mountain's elevations again so that no elevation-3 hex touches the Summit
    land = terrain(layout)
    top = {c for c in land if land[c]["type"] == "summit"}
    slopes = sorted(c for c in land if land[c]["type"] == "mountain")
    heights = sorted((land[c]["elevation"] for c in slopes), reverse=True)
    order = sorted(slopes, key=lambda c: any(n in top for n in hex_neighbours(c)))
    assert sum(1 for c in order if not any(n in top for n in hex_neighbours(c))) >= heights.count(3)
    out = clone(layout)
    for c, h in zip(order, heights):
        cells(out)[c]["elevation"] = h
    return out


def break_start_roles(layout):
    out = clone(layout)
    for p in out.placements:
        if p.get("role") == "wizard-2":
            p["role"] = "wizard-1"                  # two Wizard 1 starts, no Wizard 2
    return out


def _start_moves(layout, degree_ok, overlap_ok):
    land, mine = terrain(layout), starts(layout)
    for role, here in sorted(mine.items()):
        others = {c for r, s in mine.items() if r != role for c in group(layout, s)}
        for to in sorted(land):
            g = group(layout, to)
            if to in mine.values() or land[to]["type"] in ("black", "mountain", "summit") or not degree_ok(len(g) - 1):
                continue
            if any(is_mountain(land[c]) for c in g) or g & doom(layout) or not overlap_ok(bool(g & others)):
                continue
            yield move_start(layout, role, to)


def break_start_hexes(layout):
    return next(_start_moves(layout, lambda n: n != 3, lambda shared: not shared), None)


def break_start_apart(layout):
    return next(_start_moves(layout, lambda n: n == 3, lambda shared: shared), None)


def break_start_not_black(layout):
    hexes = starts(layout)
    out = clone(layout)
    by = cells(out)
    black = next(c for c in sorted(by) if by[c]["type"] == "black")
    s = hexes["maverick"]
    colour = by[s]["type"]
    by[s]["type"] = by[s]["color"] = "black"
    by[black]["type"] = by[black]["color"] = colour
    return out


def break_setup_buildings(layout):
    out = clone(layout)
    start = next(p for p in out.placements if p["kind"] == "start")
    start["buildings"] = [b for b in start["buildings"] if b != "fort"]
    return out


def break_doom_point_count(layout):
    out = clone(layout)
    cells(out)[min(doom(layout))].pop("doom_point")
    return out


def break_doom_point_hexes(layout):
    farm = next(tuple(p["cell"]) for p in layout.placements if p["kind"] == "farm")
    out = clone(layout)
    cells(out)[min(doom(layout))].pop("doom_point")
    cells(out)[farm]["doom_point"] = True           # a Famine at night would burn a starting Farm
    return out


def break_challenge_spaces(layout):
    out = clone(layout)
    space = cells(out)[min(spaces(layout))]
    other = next(g for g in DATA["gods"] if g["id"] != space["god"])
    for p in out.placements:
        if p["kind"] == "challenge-deck" and p["god"] == space["god"]:
            p["god"] = other["id"]
    space["god"], space["color"] = other["id"], other["color"]
    return out


def _move_space(layout, ok):
    land, gods = terrain(layout), spaces(layout)
    gap = DATA["challenge"]["min_distance"]
    for s in sorted(gods):
        rest = [o for o in gods if o != s]
        for q in range(-8, 18):
            for r in range(-3, 12):
                to = (q, r)
                if to in land or to in gods or not ok(to, rest, land, gap):
                    continue
                out = clone(layout)
                cell = cells(out)[s]
                cell["q"], cell["r"] = to
                for p in out.placements:
                    if p["kind"] == "challenge-deck" and tuple(p["cell"]) == s:
                        p["cell"] = [to[0], to[1]]
                return out


def break_challenge_off_board(layout):
    return _move_space(layout, lambda to, rest, land, gap: not any(n in land for n in hex_neighbours(to))
                       and all(hex_distance(to, o) >= gap for o in rest))


def break_challenge_apart(layout):
    return _move_space(layout, lambda to, rest, land, gap: any(n in land for n in hex_neighbours(to))
                       and any(hex_distance(to, o) < gap for o in rest))


def break_challenge_decks(layout):
    out = clone(layout)
    deck = next(p for p in out.placements if p["kind"] == "challenge-deck")
    out.placements.remove(deck)
    return out


BREAKERS = {
    "board-hexes": break_board_hexes,
    "color-mix": break_color_mix,
    "normal-elevation": break_normal_elevation,
    "mountain-mix": break_mountain_mix,
    "mountain-central": break_mountain_central,
    "summit-size": break_summit_size,
    "summit-top": break_summit_top,
    "summit-reachable": break_summit_reachable,
    "start-roles": break_start_roles,
    "start-hexes": break_start_hexes,
    "start-apart": break_start_apart,
    "start-not-black": break_start_not_black,
    "setup-buildings": break_setup_buildings,
    "doom-point-count": break_doom_point_count,
    "doom-point-hexes": break_doom_point_hexes,
    "challenge-spaces": break_challenge_spaces,
    "challenge-off-board": break_challenge_off_board,
    "challenge-apart": break_challenge_apart,
    "challenge-decks": break_challenge_decks,
}


def test_every_rule_has_a_breaking_test():
    assert sorted(BREAKERS) == sorted(DATA["rules"])


@pytest.mark.parametrize("rule", sorted(DATA["rules"]))
def test_breaking_one_rule_is_reported(rule):
    found = 0
    for seed in range(12):
        layout = plain(seed)
        assert checker.check(layout) == []
        broken = BREAKERS[rule](layout)
        if broken is None:
            continue
        violations = checker.check(broken)
        assert {v.rule for v in violations} == {rule}, [str(v) for v in violations]
        for v in violations:
            assert v.quote == DATA["rules"][rule]
            assert "(" in v.message               # names the cells involved
        found += 1
        if found == 3:
            break
    assert found >= 1, f"no layout among 12 seeds could break only {rule}"


# ---------------------------------------------------------------------------------------------
# not a Cones of Dunshire board at all: reported, never raised

def test_structural_problems_are_reported():
    layout = plain(3)

    def rules_after(change) -> set:
        out = clone(layout)
        change(out)
        return {v.rule for v in checker.check(out)}

    # the checker of this game, called directly (engine.check picks the checker by layout.game)
    assert rules_after(lambda l: setattr(l, "game", "shires")) == {"game"}
    assert rules_after(lambda l: setattr(l, "players", 7)) == {"player-count"}
    assert rules_after(lambda l: setattr(l, "players", "eight")) == {"player-count"}
    assert "grid" in rules_after(lambda l: setattr(l, "grid", {"type": "square"}))
    assert "cell-type" in rules_after(lambda l: l.cells[0].update(type="forest"))
    assert "cell-type" in rules_after(lambda l: l.cells[0].update(color="purple"))
    assert "cell-type" in rules_after(lambda l: l.cells.append({"q": 40, "r": 40, "type": "challenge", "god": "gryphon"}))
    assert "duplicate-cell" in rules_after(lambda l: l.cells.append(dict(l.cells[5])))
    assert "board-hexes" in rules_after(lambda l: l.cells.append({"q": 30, "r": 0, "type": "green", "color": "green"}))
    assert "placement" in rules_after(lambda l: l.placements.append({"kind": "dragon", "cell": [0, 0]}))
    assert "placement" in rules_after(lambda l: l.placements.append({"kind": "farm", "cell": [50, 50], "role": "maverick"}))
    assert "placement" in rules_after(lambda l: l.placements.append({"kind": "farm", "cell": "here", "role": "maverick"}))
    # garbage of every shape: reported, no exception
    for junk in ([None, 3, "x"], [{"q": "a", "r": 1, "type": "green"}], [{"q": 1, "r": 1}],
                 [{"q": 1, "r": 1, "type": "mountain", "elevation": "high"}],
                 [{"q": 1, "r": 1, "type": "green", "color": "green", "doom_point": "yes"}], "cells", None):
        out = clone(layout)
        out.cells = junk
        assert checker.check(out)
    out = clone(layout)
    out.placements = [None, {"kind": "start", "cell": [0, 0]}, {"kind": "start", "cell": [0, 0], "role": "maverick"}]
    assert checker.check(out)
    out = clone(layout)
    out.placements = "none"
    assert checker.check(out)


# ---------------------------------------------------------------------------------------------
# determinism, balance, JSON

def test_same_seed_same_bytes_and_seeds_differ():
    for options in (PLAIN, BALANCED):
        a = dumps([engine.generate(GAME, 1234, 8, options)])
        b = dumps([engine.generate(GAME, 1234, 8, options)])
        assert a == b
        assert dumps([engine.generate(GAME, 1235, 8, options)]) != a
    # the generator uses only the rng it is given
    random.seed(1)
    x = gen.generate(random.Random(9), 8, PLAIN)
    random.seed(2)
    y = gen.generate(random.Random(9), 8, PLAIN)
    assert dumps([x]) == dumps([y])
    assert len({dumps([plain(s)]) for s in range(40)}) == 40


@pytest.mark.slow
def test_balancing_improves_the_metrics():
    seeds = range(20)
    balanced = [gen.metrics(engine.generate(GAME, s, 8, BALANCED)) for s in seeds]      # the oracle's metrics
    random_ = [gen.metrics(plain(s)) for s in seeds]
    mean = lambda ms, key: statistics.mean(m[key] for m in ms)   # noqa: E731
    assert mean(balanced, "summit_spread") < mean(random_, "summit_spread")
    assert mean(balanced, "color_spread") < mean(random_, "color_spread")
    assert mean(balanced, "challenge_spread") < mean(random_, "challenge_spread")
    assert statistics.mean(gen.score(m) for m in balanced) > statistics.mean(gen.score(m) for m in random_) + 5


def test_metrics_describe_every_start():
    layout = plain(21)
    m = gen.metrics(layout)
    roles = sorted(r["id"] for r in DATA["roles"])
    for key in ("summit_steps", "color_steps", "challenge_steps", "doom_near"):
        assert sorted(m[key]) == roles
    assert m["summit_spread"] == max(m["summit_steps"].values()) - min(m["summit_steps"].values())
    assert all(3 <= v < 20 for v in m["summit_steps"].values())


def test_checker_passes_a_layout_read_back_from_json(tmp_path):
    layouts = [plain(5), engine.generate(GAME, 6, 8, BALANCED)]
    for n, layout in enumerate(layouts):
        path = tmp_path / f"one-{n}.json"
        path.write_text(dumps([layout]), encoding="utf-8")
        (back,) = load(path)
        assert checker.check(back) == []
        assert dumps([back]) == dumps([layout])
    path = tmp_path / "two.json"
    path.write_text(dumps(layouts), encoding="utf-8")
    assert all(checker.check(l) == [] for l in load(path))
