"""A laid map (declared.py with `board: {shape: laid}`, `sets:`, `turn_pieces:`) + seed -> random legal
set-ups: the generator of maps the players lay from their own tiles (Dragon Towers).

1. Each seat in turn lays its set as one section touching the map so far (a habit of the
   generator, not a rule): a random free cell beside the map, then cells drawn with weight
   (touching tiles of the section) ** `sets.grow`, so a section grows as a blob.
2. Each seat's tiles are shuffled onto its section, its set tokens onto its tiles of their
   types; the whole-board rules (connected, adjacent, clusters) are checked, and a failed deal is
   dealt again on the same shape a few times before a new shape is grown.
3. The pieces, kind by kind in the order declared, players taking turns one piece at a time:
   each on a random cell the piece rules allow (`piece_on`, `pieces_apart`, `piece_beside`; a
   `piece_roll` rolls the die until a free cell shows the roll). With balancing on, a kind's
   `prefer` picks first among cells of a type the player holds none of yet (`new`), away from
   rivals' pieces (`apart`).

Every choice comes from the rng passed in, over sorted lists. At most `budget` boards are tried;
NoLayout says which rules rejected them.
"""
from __future__ import annotations

import random

from . import declared_holds as holds, declared_laid_fair, grid
from .declared import Declared
from .declared_gen import MAX_ATTEMPTS, NoLayout
from .layout import Layout
from .rules import MapError, MapOptions

DEALS_PER_SHAPE = 50        # deals tried on one grown shape before growing another


class _Laid:
    """One grown map as the rule tests (declared_holds) read a board: cell indices, neighbours."""

    def __init__(self, coords: list, neighbours):
        self.n = len(coords)
        index = {c: i for i, c in enumerate(coords)}
        self.nbrs = [[index[m] for m in neighbours(c) if m in index] for c in coords]


class Generator:
    """The engine's generator interface (PLAYERS, OPTIONS, generate, metrics, score) for laid maps."""

    def __init__(self, spec: Declared, game_id: str):
        self.spec, self.game_id = spec, game_id
        self.PLAYERS = spec.players
        self.BALANCE_TRIES = spec.tries
        self.OPTIONS = ("budget",)
        self._neighbours = grid.neighbours_fn(spec.grid)
        self._distance = grid.distance_fn(spec.grid)
        self._memo: dict = {}
        self._board_rules = [r for r in spec.rules if r.kind in ("connected", "adjacent", "clusters")]
        self._rules = {kind: [r for r in spec.rules if r.kind == kind]
                       for kind in ("piece_on", "piece_roll", "pieces_apart", "piece_beside")}

    def _nb(self, cell: tuple) -> tuple:
        """The grid neighbours of a cell, memoised (the same few hundred cells are asked for over and over)."""
        found = self._memo.get(cell)
        if found is None:
            found = self._memo[cell] = tuple(self._neighbours(cell))
        return found

    # --- 1. the sections ---
    def _grow(self, rng: random.Random, players: int) -> dict | None:
        """coord -> seat: each seat's tiles one blob touching the map laid before; None when a
        seat is walled in."""
        size = sum(count[players] for _, count in self.spec.sets["tiles"])
        grow = self.spec.sets["grow"]
        owner: dict = {}
        border: set = set()                   # free cells next to the map
        for seat in range(1, players + 1):
            start = (0, 0) if not owner else _one(rng, sorted(border))
            frontier: dict = {}               # free cell -> the section's tiles it touches
            cell = start
            for placed in range(size):
                if placed:
                    if not frontier:
                        return None
                    cells = sorted(frontier)
                    cell = _weighted(rng, cells, [frontier[c] ** grow for c in cells])
                    del frontier[cell]
                owner[cell] = seat
                border.discard(cell)
                for m in self._nb(cell):
                    if m not in owner:
                        frontier[m] = frontier.get(m, 0) + 1
                        border.add(m)
        return owner

    # --- 2. the tiles and the values printed on them ---
    def _deal(self, rng: random.Random, coords: list, seat_of: list, players: int, board: _Laid) -> "list | str":
        """The type of every cell, or the id of the whole-board rule the last deal broke."""
        tiles = [t for t, count in self.spec.sets["tiles"] for _ in range(count[players])]
        cells_of = {s: [i for i, o in enumerate(seat_of) if o == s] for s in range(1, players + 1)}
        failed = ""
        for _ in range(DEALS_PER_SHAPE):
            kind: list = [None] * len(coords)
            for seat in range(1, players + 1):
                mix = tiles[:]
                rng.shuffle(mix)
                for i, t in zip(cells_of[seat], mix):
                    kind[i] = t
            broken = next((r for r in self._board_rules
                           if not holds.global_holds(r, [i for i, t in enumerate(kind) if t in r.args["a"]],
                                                     kind, board, players)), None)
            if broken is None:
                return kind
            failed = broken.id
        return failed

    def _tokens(self, rng: random.Random, kind: list, seat_of: list) -> dict:
        """token name -> {cell: value}: each seat's own values, shuffled onto its tiles of the token's types."""
        out = {}
        for token in self.spec.sets["tokens"]:
            placed = {}
            for seat in sorted(set(seat_of)):
                cells = [i for i, (t, s) in enumerate(zip(kind, seat_of)) if s == seat and t in token["over"]]
                shown = list(token["values"][seat])
                rng.shuffle(shown)
                placed.update(zip(cells, shown))
            out[token["name"]] = placed
        return out

    # --- 3. the pieces ---
    def _pieces(self, rng, kind, tokens, board, players, balance) -> "list | str":
        """(kind, cell, player, roll) of every piece in the order set, or the piece rule that left a
        player no cell."""
        set_down: list = []
        for piece in self.spec.turn_pieces:
            name = piece["kind"]
            allowed = [i for i, t in enumerate(kind) if all(t in r.args["over"] for r in self._piece_rules("piece_on", name))]
            for _ in range(piece["each"][players]):
                for player in range(1, players + 1):
                    legal = self._legal(name, allowed, set_down, player, kind, board)
                    if not legal:
                        return f"pieces (no cell left for a {name} under the piece rules)"
                    roll = None
                    for rule in self._piece_rules("piece_roll", name):
                        shown = tokens.get(rule.args["shows"], {})
                        for _ in range(piece["rerolls"]):
                            roll = rng.randint(1, rule.args["die"])
                            rolled = [c for c in legal if shown.get(c) == roll]
                            if rolled:
                                break
                        else:
                            return rule.id
                        legal = rolled
                    if balance:
                        legal = self._preferred(piece, legal, set_down, player, kind, board)
                    set_down.append((name, legal[int(rng.randrange(len(legal)))], player, roll))
        return set_down

    def _piece_rules(self, kind: str, piece: str) -> list:
        return [r for r in self._rules[kind] if r.args["piece"] == piece]

    def _legal(self, name, allowed, set_down, player, kind, board) -> list:
        barred = {c for other, c, _, _ in set_down for r in self._rules["pieces_apart"]
                  if (name, other) in (r.args["pieces"], r.args["pieces"][::-1])}
        legal = [c for c in allowed if c not in barred]
        for rule in self._piece_rules("piece_beside", name):
            own = {c for other, c, p, _ in set_down if other == name and p == player} if rule.args["chain"] else set()
            of = rule.args["of"]
            legal = [c for c in legal if any(kind[m] in of or m in own for m in board.nbrs[c])]
        return legal

    def _preferred(self, piece, legal, set_down, player, kind, board) -> list:
        """The rulebook's tip as a preference: cells of a type this player holds none of yet,
        then a step away from rivals' pieces of the kind; each only where some cell is left."""
        mine = [c for other, c, p, _ in set_down if other == piece["kind"] and p == player]
        if piece["new"] is not None:
            held = {kind[c] for c in mine}
            new = [c for c in legal if kind[c] in piece["new"] and kind[c] not in held]
            legal = new or [c for c in legal if kind[c] in piece["new"]] or legal
        if piece["apart"]:
            rivals = {m for other, c, p, _ in set_down if other == piece["kind"] and p != player for m in board.nbrs[c]}
            legal = [c for c in legal if c not in rivals] or legal
        return legal

    # --- the whole ---
    def generate(self, rng: random.Random, players: int, options: MapOptions) -> Layout:
        budget = options.budget or MAX_ATTEMPTS
        rejected: dict = {}
        for _ in range(budget):
            found = self._attempt(rng, players, options.balance)
            if isinstance(found, Layout):
                return found
            rejected[found] = rejected.get(found, 0) + 1
        raise NoLayout(self.game_id, self.spec.source, budget, rejected)

    def _attempt(self, rng: random.Random, players: int, balance: bool) -> "Layout | str":
        owner = self._grow(rng, players)
        if owner is None:
            return "dealing (a seat's section was walled in)"
        coords = sorted(owner, key=lambda c: (c[1], c[0]))
        seat_of = [owner[c] for c in coords]
        board = _Laid(coords, self._nb)
        kind = self._deal(rng, coords, seat_of, players, board)
        if isinstance(kind, str):
            return kind
        tokens = self._tokens(rng, kind, seat_of)
        pieces = self._pieces(rng, kind, tokens, board, players, balance)
        if isinstance(pieces, str):
            return pieces
        return self._layout(coords, kind, seat_of, tokens, pieces, players)

    def _layout(self, coords, kind, seat_of, tokens, pieces, players) -> Layout:
        spec = self.spec
        keys = ("q", "r") if spec.grid == "hex" else ("x", "y")
        cells = []
        for i, c in enumerate(coords):
            cell = {keys[0]: c[0], keys[1]: c[1], "type": kind[i], spec.sets["key"]: seat_of[i]}
            for name, placed in tokens.items():
                if i in placed:
                    cell[name] = placed[i]
            cells.append(cell)
        placements = [{"kind": name, "cell": list(coords[c]), "owner": player, **({} if roll is None else {"roll": roll})}
                      for name, c, player, roll in pieces]
        grid_spec = {"type": spec.grid, "orientation": spec.orientation} if spec.grid == "hex" else {"type": "square"}
        return Layout(game=self.game_id, seed=None, players=players, grid=grid_spec, cells=cells,
                      placements=placements, metrics={})

    # --- fairness: declared_laid_fair.py ---
    def metrics(self, layout: Layout) -> dict:
        return declared_laid_fair.metrics(self.spec, layout)

    def score(self, metrics: dict) -> float:
        return declared_laid_fair.score(self.spec, metrics)


def _one(rng: random.Random, items: list):
    return items[rng.randrange(len(items))]


def _weighted(rng: random.Random, items: list, weights: list):
    """Weighted choice with integer-valued weights (randrange only: the same on every Python)."""
    roll = rng.randrange(int(sum(weights)))
    for item, weight in zip(items, weights):
        roll -= weight
        if roll < 0:
            return item
    return items[-1]
