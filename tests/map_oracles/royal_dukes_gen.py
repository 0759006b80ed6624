"""Royal Dukes map generator: 20 settlements (and optional mountains) on the 10 x 10 hex board.

The hand-written generator of Royal Dukes before the game was declared in the map vocabulary
(components/royal-dukes/map.yaml `layout:`, its --relaxed as `options:`): kept as an independent
test oracle that the declared generator is measured and checked against (tests/test_maps_declared.py,
bench/bench_declared.py).

The rules come from components/royal-dukes/map.yaml. Settlements are placed one at a time on a
cell drawn from the cells still legal for them (a maintained list: a placed settlement strikes
out itself and, while no more touching pairs are allowed, its neighbours). When the list runs dry
before all 20 are down, a random settlement is lifted again and placement goes on, rather than
starting over: whole-board rejection never finds a strict board, and plain restarts need ~20
boards for one (random sequential placement jams at 17-18 settlements on the 8 x 8 inland hexes).
Mountains then go one at a time on empty cells whose loss neither cuts the empty spaces apart
nor takes a settlement's last empty neighbour.

With balancing on, each candidate's settlement types are also improved by random swaps that
even out the VP that each quadrant of the board can reach (the engine then keeps the best of
BALANCE_TRIES candidates by score()).
"""
from __future__ import annotations

import random
from collections import deque

from generator.maps import grid
from generator.maps.layout import Layout, make_cell
from generator.maps.rules import MapError, MapOptions
from map_oracles.data import map_data

GAME = "royal-dukes"
_DATA = map_data(GAME)
PLAYERS = (_DATA["players"]["min"], _DATA["players"]["max"], _DATA["players"]["default"])
OPTIONS = ("mountains", "relaxed")      # the command-line options these rules read
BALANCE_TRIES = 60
MAX_ATTEMPTS = 200           # whole boards started over before giving up (strict ones almost never need a second)
REPAIRS = 1000               # settlements lifted again when placement gets stuck, per board (about 30 on average)

# Hex neighbours in circular order around a cell (the ring test for cut cells needs the order).
_RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class _Board:
    """The board's cells by index (row order, A1..J10) and everything placement needs about them."""

    def __init__(self, data: dict):
        board = data["board"]
        self.cols, self.rows = board["cols"], board["rows"]
        self.coords: list[grid.Cell] = grid.hex_rectangle(self.cols, self.rows)
        self.index = index = {c: i for i, c in enumerate(self.coords)}
        self.n = len(self.coords)
        self.ring = [[index.get((q + dq, r + dr), -1) for dq, dr in _RING] for q, r in self.coords]
        self.nbrs = [[j for j in ring if j >= 0] for ring in self.ring]
        edges = set(grid.edge_cells(self.coords, "hex"))
        self.edge = [c in edges for c in self.coords]
        letters = board["row_letters"]
        self.offset = [grid.axial_to_offset(c) for c in self.coords]
        self.labels = [f"{letters[row]}{col + 1}" for col, row in self.offset]
        self.quadrant = [(2 if row >= self.rows // 2 else 0) + (1 if col >= self.cols // 2 else 0)
                         for col, row in self.offset]
        # other cuts of the board the balance is judged by, though swaps only even the quadrants
        self.halves = grid.region_of(self.coords, "hex", "diagonal-halves")
        self.wedges = grid.region_of(self.coords, "hex", "wedges")
        settlements = data["settlements"]
        self.total = settlements["total"]
        self.vp = {name: t["vp"] for name, t in settlements["types"].items()}
        self.bag = [name for name, t in settlements["types"].items() for _ in range(t["number"])]
        self.empty = data["cell_types"]["empty"]
        self.mountain = data["cell_types"]["mountain"]
        self.limits = data["placement_limits"]
        self.mountain_max = data["mountains"]["max"]
        self.swap_passes = data["balance"]["swap_passes"]


_BOARD = _Board(_DATA)


def _error(message: str) -> Exception:
    return MapError(message)


# ---------------------------------------------------------------------------------------------
# settlements

def _place_settlements(rng: random.Random, b: _Board, edge_limit: int, adj_limit: int) -> list[int] | None:
    """Cell indices of `b.total` settlements within the limits, or None when stuck for too long.

    `avail` lists the cells that may take the next settlement; with no touching pairs left to
    allow, a placed settlement strikes out its neighbours at once, and any other cell that has
    become too costly (too many touching pairs or edge cells) is struck out when drawn. Relaxed
    placement uses its allowance only when needed: it draws among the cheapest cells (off the
    edge and touching no settlement while there is one), so exceptions come one at a time. When the
    list runs dry before all settlements are down, a random settlement is lifted again (its cell
    waits one placement before it may be drawn again), instead of starting the board over.
    """
    n, nbrs, edge = b.n, b.nbrs, b.edge
    base = [i for i in range(n) if not (edge_limit == 0 and edge[i])]
    ok = [False] * n
    avail = list(base)
    pos = [-1] * n
    for k, i in enumerate(avail):
        pos[i] = k
        ok[i] = True

    def remove(i: int) -> None:
        k = pos[i]
        if k < 0:
            return
        last = avail.pop()
        if last != i:
            avail[k] = last
            pos[last] = k
        pos[i] = -1

    def add(i: int) -> None:
        if pos[i] < 0:
            pos[i] = len(avail)
            avail.append(i)

    settled = [False] * n
    touching = [0] * n                 # settled neighbours of each cell
    placed: list[int] = []
    edge_used = adj_used = 0
    incremental = edge_limit == 0 and adj_limit == 0    # a lift frees only the lifted cell's neighbours
    pending = -1                       # the last lifted cell, back in the list after one placement
    repairs = REPAIRS

    def legal(i: int) -> bool:
        return (ok[i] and not settled[i] and adj_used + touching[i] <= adj_limit
                and edge_used + edge[i] <= edge_limit)

    rand = rng.random
    total = b.total
    while len(placed) < total:
        if not avail:
            if not repairs or not placed:
                return None
            repairs -= 1
            if pending >= 0 and legal(pending):
                add(pending)
            s = placed.pop(int(rand() * len(placed)))
            settled[s] = False
            adj_used -= touching[s]
            edge_used -= edge[s]
            for j in nbrs[s]:
                touching[j] -= 1
                if incremental and touching[j] == 0 and ok[j]:
                    add(j)
            if not incremental:        # budgets grew: any cell may be legal again
                for i in base:
                    if i != s and legal(i):
                        add(i)
            pending = s
            if not avail:
                add(s)
                pending = -1
            continue
        if incremental:
            c = avail[int(rand() * len(avail))]
        else:                          # relaxed: the cheapest cells (a plain one while there is one)
            cost = [touching[i] + edge[i] for i in avail]
            least = min(cost)
            cheapest = [i for i, k in zip(avail, cost) if k == least]
            c = cheapest[int(rand() * len(cheapest))]
        if not incremental and not legal(c):
            remove(c)                  # costs only grow until the next lift: drop it for now
            continue
        remove(c)
        placed.append(c)
        settled[c] = True
        adj_used += touching[c]
        edge_used += edge[c]
        full = adj_used == adj_limit
        for j in nbrs[c]:
            touching[j] += 1
            if full and pos[j] >= 0:   # remove(j), inlined: this is the hot loop
                k, last = pos[j], avail.pop()
                if last != j:
                    avail[k] = last
                    pos[last] = k
                pos[j] = -1
        if pending >= 0:
            if legal(pending):
                add(pending)
            pending = -1
    return placed


# ---------------------------------------------------------------------------------------------
# mountains and the free-space conditions

def _cuts(b: _Board, free: list[bool], c: int) -> bool:
    """Would turning free cell c into a mountain split the free cells? (free is connected)"""
    ring = b.ring[c]
    arcs = sum(1 for k in range(6) if ring[k] >= 0 and free[ring[k]] and not (ring[k - 1] >= 0 and free[ring[k - 1]]))
    if arcs <= 1:
        return False                   # its free neighbours touch one another around it
    targets = {j for j in b.nbrs[c] if free[j]}
    start = min(targets)
    seen = {start, c}
    queue = deque([start])
    found = 1
    while queue:
        i = queue.popleft()
        for j in b.nbrs[i]:
            if j not in seen and free[j]:
                seen.add(j)
                if j in targets:
                    found += 1
                    if found == len(targets):
                        return False
                queue.append(j)
    return True


def _place_mountains(rng: random.Random, b: _Board, types: list[str], count: int) -> bool:
    if count == 0:
        return True
    free = [t == b.empty for t in types]
    settled = [t in b.vp for t in types]
    free_nbrs = [sum(free[j] for j in b.nbrs[i]) for i in range(b.n)]
    candidates = [i for i in range(b.n) if free[i]]
    placed = 0
    while placed < count:
        if not candidates:
            return False
        k = rng.randrange(len(candidates))
        c = candidates[k]
        candidates[k] = candidates[-1]
        candidates.pop()
        if any(settled[j] and free_nbrs[j] <= 1 for j in b.nbrs[c]) or _cuts(b, free, c):
            continue
        free[c] = False
        types[c] = b.mountain
        for j in b.nbrs[c]:
            free_nbrs[j] -= 1
        placed += 1
    return True


def _free_ok(b: _Board, types: list[str]) -> bool:
    """Every settlement has an empty neighbour and the empty cells are all one piece."""
    free = [t == b.empty for t in types]
    for i, t in enumerate(types):
        if t in b.vp and not any(free[j] for j in b.nbrs[i]):
            return False
    cells = [i for i in range(b.n) if free[i]]
    if not cells:
        return True
    seen = {cells[0]}
    queue = deque([cells[0]])
    while queue:
        i = queue.popleft()
        for j in b.nbrs[i]:
            if free[j] and j not in seen:
                seen.add(j)
                queue.append(j)
    return len(seen) == len(cells)


# ---------------------------------------------------------------------------------------------
# balancing: spread each settlement's VP over the quadrants of its empty neighbours

def _shares(b: _Board, types: list[str], settlements: list[int]) -> list[list[float]]:
    out = []
    for s in settlements:
        free = [j for j in b.nbrs[s] if types[j] == b.empty]
        share = [0.0, 0.0, 0.0, 0.0]
        for j in free:
            share[b.quadrant[j]] += 1.0 / len(free)
        out.append(share)
    return out


def _balance_types(rng: random.Random, b: _Board, types: list[str], settlements: list[int]) -> None:
    """Swap settlement types while that does not widen the spread of VP between quadrants."""
    shares = _shares(b, types, settlements)
    vps = [b.vp[types[s]] for s in settlements]
    region = [sum(v * sh[q] for v, sh in zip(vps, shares)) for q in range(4)]
    spread = max(region) - min(region)
    m = len(settlements)
    for _ in range(b.swap_passes):
        i, j = rng.randrange(m), rng.randrange(m)
        dv = vps[j] - vps[i]
        if dv == 0:
            continue
        new = [region[q] + dv * (shares[i][q] - shares[j][q]) for q in range(4)]
        new_spread = max(new) - min(new)
        if new_spread <= spread:
            region, spread = new, new_spread
            vps[i], vps[j] = vps[j], vps[i]
            si, sj = settlements[i], settlements[j]
            types[si], types[sj] = types[sj], types[si]


# ---------------------------------------------------------------------------------------------

def generate(rng: random.Random, players: int, options: MapOptions) -> Layout:
    b = _BOARD
    mode = "relaxed" if options.relaxed else "strict"
    limits = b.limits[mode]
    mountains = options.mountains or 0
    if not isinstance(mountains, int) or not 0 <= mountains <= b.mountain_max:
        raise _error(f"royal-dukes takes 0-{b.mountain_max} mountains, not {mountains}")
    for _ in range(MAX_ATTEMPTS):
        settlements = _place_settlements(rng, b, limits["edge_settlements"], limits["adjacent_pairs"])
        if settlements is None:
            continue
        bag = list(b.bag)
        rng.shuffle(bag)
        types = [b.empty] * b.n
        for s, t in zip(settlements, bag):
            types[s] = t
        if options.relaxed and not _free_ok(b, types):
            continue                   # strict boards always pass: every settlement's ring is empty
        if not _place_mountains(rng, b, types, mountains):
            continue
        if options.balance:
            _balance_types(rng, b, types, sorted(settlements))
        cells = []
        for i, t in enumerate(types):
            if t in b.vp:
                cells.append(make_cell("hex", b.coords[i], t, label=b.labels[i], vp=b.vp[t]))
            else:
                cells.append(make_cell("hex", b.coords[i], t, label=b.labels[i]))
        return Layout(game=GAME, seed=None, players=players, grid=dict(_DATA["grid"]), cells=cells,
                      placements=[], metrics={"rules": mode})
    raise _error(f"royal-dukes: no legal board with {mountains} mountains ({mode}) "
                 f"after {MAX_ATTEMPTS} attempts")


def metrics(layout: Layout) -> dict:
    """Fairness of a layout: how evenly the settlements' VP can be reached from the four quadrants
    (NW, NE, SW, SE), how evenly the settlements lie in them, and the empty space around them."""
    b = _BOARD
    index, nbrs, quadrant, vp_of, empty = b.index, b.nbrs, b.quadrant, b.vp, b.empty
    types: list = [None] * b.n
    for cell in layout.cells:
        try:
            i, t = index[cell["q"], cell["r"]], cell["type"]
        except (KeyError, TypeError):
            continue                   # not a board cell: the checker reports it
        if types[i] is None and isinstance(t, str):
            types[i] = t
    region = [0.0, 0.0, 0.0, 0.0]
    halves, wedges = [0.0, 0.0], [0.0, 0.0, 0.0, 0.0]
    first_pick = [0] * b.n             # VP of the settlements a counter on each empty space touches
    count = [0, 0, 0, 0]
    free_counts = []
    edge = pairs = 0
    for i, t in enumerate(types):
        vp = vp_of.get(t)
        if vp is None:
            continue
        count[quadrant[i]] += 1
        edge += b.edge[i]
        free = [j for j in nbrs[i] if types[j] == empty]
        pairs += sum(1 for j in nbrs[i] if j > i and types[j] in vp_of)
        free_counts.append(len(free))
        for j in free:                 # the VP is shared by the quadrants its empty ring lies in
            region[quadrant[j]] += vp / len(free)
            halves[b.halves[j]] += vp / len(free)
            wedges[b.wedges[j]] += vp / len(free)
            first_pick[j] += vp
    region_vp = [round(v, 4) for v in region]
    rules = layout.metrics.get("rules", "strict") if isinstance(layout.metrics, dict) else "strict"
    return {
        "rules": rules,
        "mountains": types.count(b.mountain),
        "region_vp": region_vp,
        "region_vp_spread": round(max(region) - min(region), 4),
        "region_vp_min": min(region_vp),
        "region_vp_max": max(region_vp),
        "region_settlements": count,
        "region_settlement_spread": max(count) - min(count),
        "mean_free_neighbours": round(sum(free_counts) / len(free_counts), 4) if free_counts else 0.0,
        "min_free_neighbours": min(free_counts) if free_counts else 0,
        "edge_settlements": edge,
        "adjacent_pairs": pairs,
        "halves_vp_spread": round(max(halves) - min(halves), 4),
        "wedges_vp_spread": round(max(wedges) - min(wedges), 4),
        "best_first_pick": max(first_pick),
    }


def score(m: dict) -> float:
    """Higher is fairer: even VP across quadrants first, then even settlement counts, then room
    around the settlements (only mountains or relaxed placement take that away); the other cuts
    of the board (diagonal halves, wedges) and the best first counter count too, so the quadrant
    swaps do not buy an even quadrant split with an uneven diagonal one."""
    return (-m["region_vp_spread"] - 0.5 * m["region_settlement_spread"] + 0.25 * m["mean_free_neighbours"]
            - 0.5 * (m["halves_vp_spread"] + m["wedges_vp_spread"]) - 0.25 * m["best_first_pick"])
