"""Cones of Dunshire (seed 000): random, rules-legal board layouts, and their fairness metrics.

Every count, size and name comes from components/cones-of-dunshire/map.yaml (see
docs/maps-cones-of-dunshire.md). The board outline is fixed there (70 terrain hexes); a layout
chooses what lies on it:

  1. the Summit (2 adjacent hexes near the centre) and a Mountain grown around it inside the
     central zone, its elevations rising towards the Summit like a cone, re-dealt until the Summit
     can be climbed from the lowland in steps of at most 1 elevation;
  2. eight start hexes: board corners with exactly 3 neighbours, none of the 4 hexes on the
     Mountain, no two starting groups sharing a hex (random backtracking), one role each;
  3. the colours of the normal hexes (the multiset of map.yaml, shuffled; a black start hex is
     swapped with a random non-start hex of an allowed colour);
  4. the Doom Points (random, on normal hexes outside the starting groups, kept apart);
  5. the four god Challenge spaces (off-board cells next to the board, kept apart).

Only the rng passed in is used, and every choice is made from a sorted list, so a seed gives the
same layout everywhere. Each step has a bounded number of restarts and raises MapGenerationError
when they run out.
"""
from __future__ import annotations

import random
from collections import deque

from generator.maps.grid import hex_distance, hex_neighbours, offset_to_axial
from generator.maps.layout import Layout, make_cell
from generator.maps.rules import MapOptions
from map_oracles.data import map_data

GAME = "cones-of-dunshire"
DATA = map_data(GAME)
PLAYERS = (DATA["players"]["min"], DATA["players"]["max"], DATA["players"]["default"])
BALANCE_TRIES = DATA["generator"]["balance_tries"]
TRIES = DATA["generator"]["tries"]


class MapGenerationError(RuntimeError):
    pass


class _Board:
    """The fixed geometry of map.yaml, computed once."""

    def __init__(self, data: dict):
        self.data = data
        self.grid = dict(data["grid"])
        self.cells = sorted(offset_to_axial(col, row) for row, first, last in data["board"]["rows"]
                            for col in range(first, last + 1))
        self.inside = set(self.cells)
        self.adj = {c: [n for n in hex_neighbours(c) if n in self.inside] for c in self.cells}
        self.centre = [offset_to_axial(col, row) for col, row in data["board"]["centre"]]
        mountain = data["mountain"]
        self.zone = [c for c in self.cells if self._from_centre(c) <= mountain["radius"]]
        self.zone_set = set(self.zone)
        self.zone_adj = {c: [n for n in self.adj[c] if n in self.zone_set] for c in self.zone}
        summit_zone = {c for c in self.cells if self._from_centre(c) <= mountain["summit_radius"]}
        self.summit_pairs = sorted((a, b) for a in sorted(summit_zone) for b in self.adj[a]
                                   if b in summit_zone and a < b)
        self.mountain_elevations = [int(e) for e, n in sorted(mountain["elevations"].items(),
                                                              key=lambda kv: -int(kv[0]))
                                    for _ in range(n)]                 # highest first
        self.mountain_size = len(self.mountain_elevations) + mountain["summit"]["count"]
        self.summit_elevation = mountain["summit"]["elevation"]
        self.max_step = mountain["max_step"]
        start = data["start"]
        self.start_degree = start["neighbours"]
        self.corners = [c for c in self.cells if len(self.adj[c]) == self.start_degree]
        self.start_sets: dict = {}
        self.forbidden_start = set(start["forbidden_colors"])
        self.roles = data["roles"]
        self.colors = [name for name, n in data["colors"].items() for _ in range(n)]
        self.doom = data["doom_points"]
        self.doom_radius = data["metrics"]["doom_near"]
        self.part_tries = data["generator"]["part_tries"]
        self.gods = data["gods"]
        self.challenge_gap = data["challenge"]["min_distance"]
        self.outside = sorted({n for c in self.cells for n in hex_neighbours(c) if n not in self.inside})
        self.challenge_close = {o: {p for p in self.outside if hex_distance(o, p) < self.challenge_gap}
                                for o in self.outside}
        self.doom_close = {c: {d for d in self.cells if hex_distance(c, d) < self.doom["min_distance"]}
                           for c in self.cells}
        self.elevation_tries = data["generator"]["elevation_tries"]
        self.kinds = data["kinds"]
        self.metric_colors = data["metrics"]["colors"]
        self.weights = data["metrics"]["weights"]

    def _from_centre(self, cell) -> int:
        return min(hex_distance(cell, c) for c in self.centre)


BOARD = _Board(DATA)


# ---------------------------------------------------------------------------------------------
# generation

def _grow_mountain(rng: random.Random, b: _Board) -> tuple[list, set] | None:
    summit = list(rng.choice(b.summit_pairs))
    mountain = set(summit)
    touching: dict = {}                      # frontier cell -> how many Mountain hexes it touches
    for c in summit:
        for n in b.zone_adj[c]:
            if n not in mountain:
                touching[n] = touching.get(n, 0) + 1
    while len(mountain) < b.mountain_size:
        if not touching:
            return None                      # the central zone cannot hold the whole Mountain
        frontier = sorted(touching)
        # favour cells touching more of the Mountain: compact, cone-like shapes
        pick = rng.choices(frontier, [touching[c] ** 2 for c in frontier])[0]
        mountain.add(pick)
        del touching[pick]
        for n in b.zone_adj[pick]:
            if n not in mountain:
                touching[n] = touching.get(n, 0) + 1
    return summit, mountain


def _summit_steps(b: _Board, height: dict, summit: list) -> dict:
    """Advance steps from the Summit (one space) to every hex it connects to; moves are
    symmetric, so this is also every hex's distance to the Summit."""
    dist = {c: 0 for c in summit}
    queue = deque(summit)
    while queue:
        c = queue.popleft()
        h = height[c]
        for n in b.adj[c]:
            if n not in dist and abs(height[n] - h) <= b.max_step:
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


def _elevations(rng: random.Random, b: _Board, summit: list, mountain: set, starts: list,
                balance: bool) -> dict | None:
    """Deal the Mountain's elevations like a cone: the hexes nearest the Summit get the highest.
    Keep a deal from which the Summit can be climbed (the first one, or with balancing the one
    with the smallest spread of start-to-Summit steps)."""
    dist = {c: 0 for c in summit}
    queue = deque(summit)
    while queue:
        c = queue.popleft()
        for n in b.adj[c]:
            if n in mountain and n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    slopes = sorted(c for c in mountain if c not in summit)
    best, best_cost = None, None
    for _ in range(b.part_tries if balance else b.elevation_tries):
        order = sorted(slopes, key=lambda c: (dist[c], rng.random()))
        height = dict.fromkeys(b.cells, 0)
        height.update(zip(order, b.mountain_elevations))
        for c in summit:
            height[c] = b.summit_elevation
        steps = _summit_steps(b, height, summit)
        if any(c not in mountain for c in steps):          # the lowland reaches the Summit
            if not balance:
                return height
            cost = _spread(steps.get(s, _FAR) for s in starts)
            if best_cost is None or cost < best_cost:
                best, best_cost = height, cost
    return best


def _start_sets(b: _Board, count: int) -> list:
    """Every set of `count` start corners whose starting groups (start + neighbours) are
    pairwise disjoint, computed once per count."""
    if count not in b.start_sets:
        found: list = []

        def search(i: int, chosen: list, used: set) -> None:
            if len(chosen) == count:
                found.append(tuple(chosen))
                return
            if len(b.corners) - i < count - len(chosen) or len(found) > 10000:
                return
            c = b.corners[i]
            group = {c, *b.adj[c]}
            if not group & used:
                search(i + 1, chosen + [c], used | group)
            search(i + 1, chosen, used)

        search(0, [], set())
        b.start_sets[count] = found
    return b.start_sets[count]


def _pick_starts(rng: random.Random, b: _Board, mountain: set, count: int) -> list | None:
    """A random set of start corners none of whose 4 hexes lies on the Mountain."""
    fits = [s for s in _start_sets(b, count)
            if not any(c in mountain for start in s for c in (start, *b.adj[start]))]
    return list(rng.choice(fits)) if fits else None


def _pick_apart(rng: random.Random, candidates: list, count: int, close: dict, tries: int = 20) -> list | None:
    """count cells from candidates, none within another's `close` set (random greedy, restarted)."""
    for _ in range(tries):
        chosen: list = []
        blocked: set = set()
        while len(chosen) < count:
            free = [c for c in candidates if c not in blocked]
            if not free:
                break
            c = rng.choice(free)
            chosen.append(c)
            blocked |= close[c]
        if len(chosen) == count:
            return chosen
    return None


def _walkable(adj: dict, height: dict, max_step: int) -> dict:
    """The moves of the Advance phase: to an adjacent hex whose elevation differs by at most max_step."""
    return {c: [n for n in adj[c] if abs(height[n] - height[c]) <= max_step] for c in adj}


def _advance_steps(start, walk: dict) -> dict:
    """Advance steps from start to every terrain hex it can reach (breadth first: nearest first)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        d = dist[c] + 1
        for n in walk[c]:
            if n not in dist:
                dist[n] = d
                queue.append(n)
    return dist


def _spread(values) -> int:
    values = list(values)
    return max(values) - min(values) if values else 0


def _by_distance(dist: dict) -> list:
    """The hexes reached from a start, nearest first: a breadth-first walk records them in
    that order already."""
    return list(dist)


def _color_terms(dists: list, orders: list, color_of: dict, colors: list) -> tuple[list, int, int]:
    """Per start: the sum over the paying colours of the steps to the nearest hex of that colour;
    the spread of those sums; the largest spread of any one colour."""
    per_color = {name: [] for name in colors}
    sums = []
    wanted = len(colors)
    for dist, order in zip(dists, orders):
        best = {}
        for c in order:
            name = color_of.get(c)
            if name in per_color and name not in best:
                best[name] = dist[c]
                if len(best) == wanted:
                    break
        total = 0
        for name in colors:
            d = best.get(name, _FAR)
            per_color[name].append(d)
            total += d
        sums.append(total)
    return sums, _spread(sums), max((_spread(v) for v in per_color.values()), default=0)


def _challenge_cost(dist: dict, space) -> int:
    """Steps from a start to a Challenge space: to a terrain hex next to it, then 1 more."""
    return min((dist[n] + 1 for n in hex_neighbours(space) if n in dist), default=_FAR)


def _doom_near(start, doom, radius: int) -> int:
    return sum(1 for d in doom if hex_distance(start, d) <= radius)


_FAR = 99


def _attempt(rng: random.Random, b: _Board, players: int, balance: bool) -> Layout | None:
    grown = _grow_mountain(rng, b)
    if grown is None:
        return None
    summit, mountain = grown
    starts = _pick_starts(rng, b, mountain, players)
    if starts is None:
        return None
    elevation = _elevations(rng, b, summit, mountain, starts, balance)
    if elevation is None:
        return None
    roles = list(b.roles)
    rng.shuffle(roles)
    role_of = dict(zip(starts, roles))
    group_cells = {c for s in starts for c in (s, *b.adj[s])}
    w = b.weights
    tries = b.part_tries if balance else 1
    if balance:
        walk = _walkable(b.adj, elevation, b.max_step)
        dists = [_advance_steps(s, walk) for s in starts]
        orders = [_by_distance(dist) for dist in dists]
        space_cost = [{o: _challenge_cost(dist, o) for o in b.outside} for dist in dists]
        balls = [{c for c in b.cells if hex_distance(s, c) <= b.doom_radius} for s in starts]

    # colours of the normal hexes
    normal = [c for c in b.cells if c not in mountain]
    allowed = [c for c in normal if c not in role_of]
    best_color, best_cost = None, None
    for _ in range(tries):
        pool = list(b.colors)
        rng.shuffle(pool)
        color = dict(zip(normal, pool))
        for s in starts:
            if color[s] in b.forbidden_start:
                other = rng.choice([c for c in allowed if color[c] not in b.forbidden_start])
                color[s], color[other] = color[other], color[s]
        if balance:
            _, spread, worst = _color_terms(dists, orders, color, b.metric_colors)
            cost = w["color"] * spread + w["worst_color"] * worst
            if best_cost is None or cost < best_cost:
                best_color, best_cost = color, cost
        else:
            best_color = color
    color = best_color

    # Doom Points
    doom_candidates = [c for c in normal if c not in group_cells]
    best_doom, best_cost = None, None
    for _ in range(tries):
        doom = _pick_apart(rng, doom_candidates, b.doom["count"], b.doom_close)
        if doom is None:
            continue
        if balance:
            cost = _spread(len(ball.intersection(doom)) for ball in balls)
            if best_cost is None or cost < best_cost:
                best_doom, best_cost = doom, cost
        else:
            best_doom = doom
    if best_doom is None:
        return None
    doom_set = set(best_doom)

    # the gods' Challenge spaces
    best_spaces, best_cost = None, None
    for _ in range(tries):
        spaces = _pick_apart(rng, b.outside, len(b.gods), b.challenge_close)
        if spaces is None:
            continue
        if balance:
            cost = _spread(sum(costs[o] for o in spaces) for costs in space_cost)
            if best_cost is None or cost < best_cost:
                best_spaces, best_cost = spaces, cost
        else:
            best_spaces = spaces
    if best_spaces is None:
        return None
    gods = list(b.gods)
    rng.shuffle(gods)
    god_at = dict(zip(sorted(best_spaces), gods))

    cells = []
    for c in b.cells:
        if c in mountain:
            kind = "summit" if c in summit else "mountain"
            cells.append(make_cell("hex", c, kind, elevation=elevation[c]))
        else:
            extra = {"doom_point": True} if c in doom_set else {}
            cells.append(make_cell("hex", c, color[c], color=color[c], **extra))
    for c in sorted(god_at):
        god = god_at[c]
        cells.append(make_cell("hex", c, "challenge", god=god["id"], color=god["color"]))

    placements = []
    order = {r["id"]: i for i, r in enumerate(b.roles)}
    for s in sorted(starts, key=lambda s: order[role_of[s]["id"]]):
        role = role_of[s]
        placements.append({"kind": b.kinds["start"], "cell": [s[0], s[1]], "role": role["id"],
                           "label": role["label"], "avatar": True,
                           "buildings": list(b.data["start"]["buildings"])})
        for n in sorted(b.adj[s]):
            placements.append({"kind": b.kinds["farm"], "cell": [n[0], n[1]], "role": role["id"],
                               "label": role["label"]})
    for god in b.gods:
        c = next(c for c, g in god_at.items() if g["id"] == god["id"])
        placements.append({"kind": b.kinds["deck"], "cell": [c[0], c[1]], "god": god["id"],
                           "label": god["label"]})
    return Layout(game=GAME, seed=None, players=players, grid=dict(b.grid), cells=cells,
                  placements=placements)


def generate(rng: random.Random, players: int, options: MapOptions) -> Layout:
    """One legal layout. With options.balance, each part dealt after the Mountain and the starts
    (colours, Doom Points, Challenge spaces) is the fairest of a few deals for those starts; the
    engine then keeps the best of BALANCE_TRIES such layouts."""
    low, high, _ = PLAYERS
    if not low <= players <= high:
        raise ValueError(f"Cones of Dunshire is for {low if low == high else f'{low}-{high}'} players, not {players}")
    for _ in range(TRIES):
        layout = _attempt(rng, BOARD, players, options.balance)
        if layout is not None:
            return layout
    raise MapGenerationError(f"no legal Cones of Dunshire layout found in {TRIES} tries")


# ---------------------------------------------------------------------------------------------
# metrics

def metrics(layout: Layout) -> dict:
    """Fairness of the eight starts (docs/maps-cones-of-dunshire.md): steps to the Summit, to the
    paying colours and to the Challenge spaces, Doom Points nearby; the spread of each between the
    best and the worst start."""
    b = BOARD
    height, color_of, spaces = {}, {}, []
    for cell in layout.cells:
        c = layout.coord(cell)
        if cell["type"] == "challenge":
            spaces.append(c)
        else:
            height[c] = int(cell.get("elevation", 0) or 0)
            color_of[c] = cell["type"]
    doom = [layout.coord(cell) for cell in layout.cells if cell.get("doom_point")]
    adj = b.adj if height.keys() == b.inside else \
        {c: [n for n in hex_neighbours(c) if n in height] for c in height}
    summit = [c for c, t in color_of.items() if t == "summit"]
    starts = [(p["role"], tuple(p["cell"])) for p in layout.placements
              if p.get("kind") == b.kinds["start"] and tuple(p.get("cell", ())) in height]
    walk = _walkable(adj, height, b.max_step)
    dists = [_advance_steps(s, walk) for _, s in starts]
    roles = [role for role, _ in starts]
    summit_steps = {role: min((dist[c] for c in summit if c in dist), default=_FAR)
                    for role, dist in zip(roles, dists)}
    orders = [_by_distance(dist) for dist in dists]
    sums, color_spread, worst = _color_terms(dists, orders, color_of, b.metric_colors)
    challenge = {role: sum(_challenge_cost(dist, o) for o in spaces) for role, dist in zip(roles, dists)}
    doom_near = {role: _doom_near(s, doom, b.doom_radius) for role, s in starts}
    return {
        "summit_steps": summit_steps,
        "summit_spread": _spread(summit_steps.values()),
        "mean_summit_steps": round(sum(summit_steps.values()) / max(1, len(summit_steps)), 4),
        "color_steps": dict(zip(roles, sums)),
        "color_spread": color_spread,
        "worst_color_spread": worst,
        "challenge_steps": challenge,
        "challenge_spread": _spread(challenge.values()),
        "doom_near": doom_near,
        "doom_spread": _spread(doom_near.values()),
    }


def score(m: dict) -> float:
    """Higher is fairer: minus the weighted spreads between the best and the worst start."""
    w = BOARD.weights
    return -(w["summit"] * m["summit_spread"] + w["color"] * m["color_spread"]
             + w["worst_color"] * m["worst_color_spread"] + w["challenge"] * m["challenge_spread"]
             + w["doom"] * m["doom_spread"])
