"""Lords of Doomspire: a seeded random.Random -> one legal board Layout, plus fairness metrics.

The board is fixed in shape (8x8 land tiles, four L-shaped ocean zones, homes in the corners,
plains / hills / mountains by ring); what varies is which tile lies where. The tile mix, the
seats and every count come from components/lords-of-doomspire/map.yaml. Plains and hills are
dealt quadrant by quadrant so every home corner gets an equal or near-equal share of each kind of
tile, then shuffled inside each quadrant; the mountain tiles are shuffled over the centre.
"""
from __future__ import annotations

import random
from functools import lru_cache

from generator.maps.grid import square_distance
from generator.maps.layout import Layout, make_cell
from generator.maps.rules import MapOptions
from map_oracles.data import map_data

GAME = "lords-of-doomspire"
CLOCKWISE = ("nw", "ne", "se", "sw")
SPECIAL_TYPES = ("trader", "mercenary-camp", "temple")
ADVENTURE_TYPES = ("adventure", "oasis")
RANDOM_DEALS = 4          # random share-outs tried before the always-succeeding greedy one


class MapGenerationError(Exception):
    """The map data cannot be laid out (a tile mix that does not fit its biome, say)."""


@lru_cache(maxsize=1)
def _data() -> dict:
    return map_data(GAME)


def _players() -> tuple[int, int, int]:
    p = _data()["players"]
    return (p["min"], p["max"], p["default"])


PLAYERS = _players()
BALANCE_TRIES = 150


# --- board geometry, from the data -------------------------------------------------------------

@lru_cache(maxsize=1)
def _board() -> dict:
    """The fixed part of every board: positions by biome and quadrant (sorted), the corner homes,
    the ocean ring, the fields each position always carries, and each mix entry's tile fields."""
    data = _data()
    size = data["board"]["size"]
    half = size // 2

    def ring(x, y):
        return min(x, y, size - 1 - x, size - 1 - y)

    def quadrant(x, y):
        return ("n" if y < half else "s") + ("w" if x < half else "e")

    corners = {zone: tuple(xy) for zone, xy in data["home"]["corners"].items()}
    corner_cells = set(corners.values())
    biome_of_ring = {r: name for name, b in data["biomes"].items() for r in b["rings"]}
    land = [(x, y) for y in range(size) for x in range(size)]
    slots: dict[str, dict[str, list]] = {name: {q: [] for q in CLOCKWISE} for name in data["biomes"]}
    for x, y in land:
        if (x, y) not in corner_cells:
            slots[biome_of_ring[ring(x, y)]][quadrant(x, y)].append((x, y))
    ocean = [(x, y) for y in range(-1, size + 1) for x in range(-1, size + 1)
             if x in (-1, size) or y in (-1, size)]
    coastal_rings = set(data["board"]["coastal_rings"])
    static = {}           # fields every layout gives a land position, whatever tile lies there
    for x, y in land:
        b = data["biomes"][biome_of_ring[ring(x, y)]]
        static[(x, y)] = {"biome": biome_of_ring[ring(x, y)], "tier": b["tier"], "face_down": b["face_down"]}
        if ring(x, y) in coastal_rings:
            static[(x, y)].update(coastal=True, zone=quadrant(x, y))
    for x, y in ocean:
        static[(x, y)] = {"zone": quadrant(x, y), "label": quadrant(x, y).upper()}
    templates = {name: [_template(e, b["tier"]) for e in data["tiles"][name]]
                 for name, b in data["biomes"].items()}
    return {"size": size, "quadrant": quadrant, "corners": corners, "slots": slots,
            "ocean": ocean, "order": sorted(land + ocean, key=lambda c: (c[1], c[0])),
            "static": static, "templates": templates}


# --- sharing tiles out among quadrants ---------------------------------------------------------

def _share_out(row_sums: list[int], totals: list[int], rng: random.Random) -> list[list[int]]:
    """A matrix m with sum(m[r]) == row_sums[r], sum of column c == totals[c] and every m[r][c]
    equal to totals[c] // rows or one more: each column is shared out near-equally."""
    rows = len(row_sums)
    base = [t // rows for t in totals]
    extra = [t % rows for t in totals]
    need = [s - sum(base) for s in row_sums]
    if min(need) < 0 or sum(need) != sum(extra):
        raise MapGenerationError(f"cannot share {totals} near-equally into rows of {row_sums}")
    columns = list(range(len(totals)))
    for attempt in range(RANDOM_DEALS + 1):
        greedy = attempt == RANDOM_DEALS
        left = need[:]
        matrix = [base[:] for _ in range(rows)]
        rng.shuffle(columns)
        order = sorted(columns, key=lambda c: -extra[c]) if greedy else columns
        for c in order:
            if greedy:   # largest remaining need first (always succeeds when any answer exists)
                keys = [rng.random() for _ in range(rows)]
                chosen = sorted(range(rows), key=lambda r: (-left[r], keys[r]))[:extra[c]]
                if any(left[r] == 0 for r in chosen):
                    break
            else:
                open_rows = [r for r in range(rows) if left[r] > 0]
                if len(open_rows) < extra[c]:
                    break
                chosen = rng.sample(open_rows, extra[c])
            for r in chosen:
                matrix[r][c] += 1
                left[r] -= 1
        else:
            return matrix
    raise MapGenerationError(f"cannot share {totals} near-equally into rows of {row_sums}")


def _deal(entries: list[dict], capacity: list[int], rng: random.Random) -> list[list[int]]:
    """Tiles of one biome per quadrant: first each share group, then each entry inside its group,
    near-equally; returns per quadrant (in CLOCKWISE order) a list of indices into entries."""
    groups: list[str] = []
    for e in entries:
        group = e.get("share", e["type"])
        if group not in groups:
            groups.append(group)
    members = {g: [i for i, e in enumerate(entries) if e.get("share", e["type"]) == g] for g in groups}
    per_group = _share_out(capacity, [sum(entries[i]["count"] for i in members[g]) for g in groups], rng)
    hands: list[list[int]] = [[] for _ in capacity]
    for gi, g in enumerate(groups):
        quota = [per_group[q][gi] for q in range(len(capacity))]
        split = _share_out(quota, [entries[i]["count"] for i in members[g]], rng)
        for q in range(len(capacity)):
            for mi, i in enumerate(members[g]):
                hands[q].extend([i] * split[q][mi])
    return hands


# --- cells ---------------------------------------------------------------------------------------

def _template(entry: dict, tier: int) -> tuple[str, dict]:
    """(type, fields) of a tile of the mix lying in a biome of the given tier, with its label."""
    type_, fields = entry["type"], {}
    if type_ == "resource":
        fields["resources"] = dict(entry["resources"])
        fields["starred"] = sum(entry["resources"].values()) > 1
        fields["label"] = (("* " if fields["starred"] else "") +
                           " ".join(f"{n} {name}" for name, n in entry["resources"].items()))
    elif type_ in ADVENTURE_TYPES:
        fields["question_marks"] = tier
        fields["label"] = "?" * tier
    else:
        fields["label"] = ""
    return type_, fields


def generate(rng: random.Random, players: int, options: MapOptions) -> Layout:
    data, board = _data(), _board()
    low, high, _ = PLAYERS
    if not low <= players <= high:
        raise MapGenerationError(f"{GAME} is for {low}-{high} players, not {players}")
    content: dict[tuple[int, int], tuple[str, dict]] = {c: ("ocean", {}) for c in board["ocean"]}

    # Homes in the corners; players clockwise from a seat list.
    owners = {zone: n + 1 for n, zone in enumerate(data["home"]["seating"][players])}
    for zone in CLOCKWISE:
        owner = owners.get(zone)
        content[board["corners"][zone]] = ("home", {"resources": dict(data["home"]["resources"]),
                                                    "owner": owner, "label": f"P{owner}" if owner else ""})

    # Plains and hills: dealt near-equally per quadrant, shuffled inside the quadrant.
    for biome in ("plains", "hills"):
        templates = board["templates"][biome]
        slots = [board["slots"][biome][q] for q in CLOCKWISE]
        hands = _deal(data["tiles"][biome], [len(s) for s in slots], rng)
        for cells, hand in zip(slots, hands):
            cells = cells[:]
            rng.shuffle(cells)
            for cell, i in zip(cells, hand):
                content[cell] = templates[i]

    # Mountains: the centre tiles shuffled.
    centre = sorted(c for q in CLOCKWISE for c in board["slots"]["mountains"][q])
    pile = [t for e, t in zip(data["tiles"]["mountains"], board["templates"]["mountains"])
            for _ in range(e["count"])]
    if len(pile) != len(centre):
        raise MapGenerationError(f"{len(pile)} mountain tiles for {len(centre)} centre positions")
    rng.shuffle(pile)
    content.update(zip(centre, pile))

    cells = []
    for cell in board["order"]:
        type_, fields = content[cell]
        extra = {**board["static"][cell], **fields}
        if "resources" in extra:                       # every cell gets its own dict
            extra["resources"] = dict(extra["resources"])
        cells.append(make_cell(data["grid"]["type"], cell, type_, **extra))

    placements = []
    setup = data["setup"]
    for zone in CLOCKWISE:
        player = owners.get(zone)
        if player is None:
            continue
        home = board["corners"][zone]
        boat = (home[0] + (-1 if home[0] == 0 else 1), home[1] + (-1 if home[1] == 0 else 1))
        placements += [{"kind": "knight", "cell": list(home), "owner": player}
                       for _ in range(setup["knights_per_player"])]
        placements += [{"kind": "boat", "cell": list(boat), "owner": player, "zone": zone}
                       for _ in range(setup["boats_per_player"])]
    for cell in cells:
        if cell["type"] in ADVENTURE_TYPES and cell.get("face_down") is False:
            placements.append({"kind": "adventure-tokens", "cell": [cell["x"], cell["y"]],
                               "count": setup["adventure_tokens"], "label": str(setup["adventure_tokens"])})
    placements.sort(key=lambda p: (p["kind"], p.get("owner", 0), p["cell"]))
    return Layout(game=GAME, seed=None, players=players, grid=dict(data["grid"]), cells=cells,
                  placements=placements)


# --- fairness -----------------------------------------------------------------------------------

def metrics(layout: Layout) -> dict:
    """Access to resources, adventures, special tiles and Doomspire from each player's home.

    resource_access_spread   (max - min) / mean over homes of sum(yield / steps) of all resource tiles
    yield_near_min/_spread   resources produced by the resource tiles within `near` steps of a home
    resource_types_near_min  fewest kinds of resource (food/wood/ore/gold) within `near` steps
    adventure_near_spread    adventure + oasis tiles within `near` steps: best minus worst home
    special_distance_spread  steps to the nearest trader / mercenary camp / temple: worst minus best
    doomspire_distance_spread steps to Doomspire: worst minus best
    """
    near = _data()["balance"]["near"]
    homes, resources, adventures, specials, doomspire = [], [], [], [], []
    for cell in layout.cells:
        xy, t = (cell["x"], cell["y"]), cell["type"]
        if t == "home" and cell.get("owner"):
            homes.append(xy)
        elif t == "resource":
            resources.append((xy, cell["resources"]))
        elif t in ADVENTURE_TYPES:
            adventures.append(xy)
        elif t in SPECIAL_TYPES:
            specials.append(xy)
        elif t == "doomspire":
            doomspire.append(xy)
    access, near_yield, near_types, near_adv, special_d, doom_d = [], [], [], [], [], []
    for home in sorted(homes):
        total, within, kinds = 0.0, 0, set()
        for xy, res in resources:
            d = square_distance(home, xy)
            amount = sum(res.values())
            total += amount / d
            if d <= near:
                within += amount
                kinds.update(res)
        access.append(total)
        near_yield.append(within)
        near_types.append(len(kinds))
        near_adv.append(sum(1 for xy in adventures if square_distance(home, xy) <= near))
        special_d.append(min((square_distance(home, xy) for xy in specials), default=0))
        doom_d.append(min((square_distance(home, xy) for xy in doomspire), default=0))
    if not homes:
        return {}
    mean = sum(access) / len(access)
    return {
        "resource_access_spread": round((max(access) - min(access)) / mean, 4) if mean else 0.0,
        "yield_near_min": min(near_yield),
        "yield_near_spread": max(near_yield) - min(near_yield),
        "resource_types_near_min": min(near_types),
        "adventure_near_spread": max(near_adv) - min(near_adv),
        "special_distance_spread": max(special_d) - min(special_d),
        "doomspire_distance_spread": max(doom_d) - min(doom_d),
    }


def score(m: dict) -> float:
    """Higher is fairer: minus the weighted spreads of map.yaml balance.weights."""
    weights = _data()["balance"]["weights"]
    return -sum(weights[name] * m.get(name, 0) for name in sorted(weights))
