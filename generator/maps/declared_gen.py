"""A checked declaration (declared.py) + seed -> random legal layouts: the generic generator of
the map vocabulary.

The bags are dealt one tile at a time onto a free cell drawn from those where the tile breaks no
placement rule (edge, adjacency, distance) with what is already down; when no cell is left for a
tile, a random tile already down is lifted again and dealing goes on (a whole-board restart would
rarely finish a crowded board). The rules about the whole board (counts, connected regions,
required neighbours, quotas) are then checked, and the board is dealt again if one fails. Number
tokens, start positions, markers and spaces off the board come last, the same way. At most
`budget` boards are dealt; when none is legal, NoLayout says which rules rejected most of them.
Balancing is the engine's: the best of `tries` legal layouts by the declared objective.
"""
from __future__ import annotations

import copy
import random

from . import declared_allow, declared_apart, declared_areas as areas, declared_connect, declared_fair, \
    declared_fill, declared_grow_gen as grow, declared_holds as holds, declared_outside, grid
from .declared import GLOBAL_RULES, LOCAL_RULES, Declared, Rule, count_is_dealt
from .declared_options import STRICT
from .layout import Layout
from .rules import MapError, MapOptions

MAX_ATTEMPTS = 400          # boards dealt before giving up (the default budget)
MAX_BUDGET = 100_000        # the most --budget may ask for
REPAIRS = 2000              # tiles lifted again on one board before dealing it again
TOKEN_DEALS = 20            # token deals tried on one board before dealing it again
WORK_PER_BOARD = 100_000    # cells opened or closed while dealing one board (real games: under 10,000)


OVER_WORK = "over-work"      # _deal's answer when a board cost more than WORK_PER_BOARD


class NoLayout(MapError):
    """No board of the budget met every rule: says which rules rejected most boards."""
    SHOWN = 5

    def __init__(self, game_id: str, source: str, budget: int, rejected: dict):
        self.budget, self.rejected = budget, dict(rejected)
        worst = sorted(rejected.items(), key=lambda kv: (-kv[1], kv[0]))
        said = ", ".join(f"{rule} {n:,}" for rule, n in worst[:self.SHOWN])
        more = f" and {len(worst) - self.SHOWN} more" if len(worst) > self.SHOWN else ""
        super().__init__(f"{game_id}: no layout meets every rule of {source} in {budget:,} "
                         f"board{'s' if budget != 1 else ''}; boards "
                         f"rejected by: {said}{more}; loosen the rules named first, deal fewer tiles, or raise "
                         f"the budget (--budget {min(budget * 10, MAX_BUDGET):,})")


class _Board:
    def __init__(self, spec: Declared):
        self.n = len(spec.coords)
        index = {c: i for i, c in enumerate(spec.coords)}
        if spec.walls:          # walled pairs are no neighbours; distances walk around walls
            neighbours, self.distance = grid.walled(spec.grid, spec.coords, spec.walls)
        else:
            neighbours, self.distance = grid.neighbours_fn(spec.grid), grid.distance_fn(spec.grid)
        self.nbrs = [[index[m] for m in neighbours(c) if m in index] for c in spec.coords]
        self.area = [frozenset((i, *self.nbrs[i])) for i in range(self.n)]      # a cell and its neighbours
        edges = set(grid.edge_cells(spec.coords, spec.grid))
        self.edge = [c in edges for c in spec.coords]
        self.regions = {s: part_of for s, (_, part_of) in spec.regions.items()}
        self.region_names = {s: names for s, (names, _) in spec.regions.items()}
        self._within: dict = {}
        self.clash: dict = {}              # declared_apart.clash_bits, per cell
        self.coords = spec.coords

    def within(self, d: int, coords) -> list[list[int]]:
        """For each cell, the other cells closer than d steps (cached per d)."""
        if d not in self._within:
            dist = self.distance
            self._within[d] = [[j for j, b in enumerate(coords) if j != i and dist(a, b) < d]
                               for i, a in enumerate(coords)]
        return self._within[d]


class Generator:
    """The engine's generator interface (PLAYERS, generate, metrics, score) for declared rules."""

    def __init__(self, spec: Declared, game_id: str):
        self.spec, self.game_id = spec, game_id
        self.PLAYERS = spec.players
        self.BALANCE_TRIES = spec.tries
        self.OPTIONS = tuple(sorted({"budget", *(option for _, _, option, _, _ in spec.deal if option),
                                     *(spec.options or {})}))
        self._token_names = {t["name"] for t in spec.tokens}
        local = [r.id for r in spec.rules if r.kind in LOCAL_RULES]
        self._placement_stage = ("dealing (no cell left for a tile under the placement rules "
                                 f"{', '.join(dict.fromkeys(local))})" if local else "dealing (more tiles than free cells)")
        self.board = _Board(spec)
        self._grower = grow.Grower(spec) if spec.first is not None else None
        self._growth = declared_connect.Growth(spec.rules, self.board.nbrs)
        # placement classes per player count (distances may differ by it); equal ones shared
        made: dict = {}
        self._placements = {}
        for p in range(spec.players[0], spec.players[1] + 1):
            key = tuple(repr(r.args.get("distance", {}).get(p)) for r in spec.rules)
            if key not in made:
                made[key] = self._placement(p, self.spec.rules)
            self._placements[p] = made[key]
        self._relaxed: dict = {}            # (option, players) -> the placement less the allowed rules
        self._fills: dict = {}              # (mode, players) -> the fill's placement rules, or None
        # the values every cell of a type carries (a list is a choice each tile makes for itself)
        self._constant = {t: {k: v for k, v in values.items() if not isinstance(v, list)}
                          for t, values in spec.types.items()}
        self._places: dict = {}             # id(rule) -> the sorted cells of its place
        self._board_rules = {p: self._rules_to_check(p) for p in range(spec.players[0], spec.players[1] + 1)}
        # the values the areas write onto each cell, by the type that lies there (none: no areas)
        self._area_values = [{t: areas.area_values(spec, c, t) for t in spec.types} for c in range(len(spec.coords))] \
            if spec.areas else None
        keys = ("q", "r") if spec.grid == "hex" else ("x", "y")
        self._cell_bases = [{keys[0]: c[0], keys[1]: c[1], **({"label": spec.labels[i]} if spec.labels else {})}
                            for i, c in enumerate(spec.coords)]

    # --- placement rules, precomputed: types with the same rules share a class, and each class
    # keeps the list of cells still open to it, updated as tiles go down and are lifted ---
    def _placement(self, players: int, rules: list, governed=frozenset()) -> tuple:
        """The classes, their open cells and effects, and the empty board, for these rules; the
        `governed` types (named by rules an option allows to break) get a class of their own."""
        self._local_rules(players, rules, governed)
        # what putting or lifting a tile may cost at most: the cells it opens or closes
        cost = {t: sum(max(map(len, around), default=0) for _, around in self.effects[t]) for t in self.effects}
        return self.classes, self.class_of, self.open_cell, self.effects, self._empty_board(), cost

    def _local_rules(self, players: int, chosen: list, governed) -> dict:
        rules = {t: {"forbid": set(), "far": [], "edge": None, "zone": None} for t in self.spec.types}
        board = self.board
        for rule in chosen:
            a = rule.args.get("a", ())
            if rule.kind == "not_adjacent":
                for t in a:
                    rules[t]["forbid"] |= rule.args["b"]
                for t in rule.args["b"]:
                    rules[t]["forbid"] |= a
            elif rule.kind == "min_distance":
                d = rule.args["distance"][players]
                for t in a:
                    rules[t]["far"].append((d, frozenset(rule.args["b"])))
                for t in rule.args["b"]:
                    rules[t]["far"].append((d, frozenset(a)))
            elif rule.kind in ("off_edge", "on_edge"):
                for t in a:
                    rules[t]["edge"] = rule.kind
            elif rule.kind == "near":
                zone = holds.zone(rule, self.spec.coords, board, players)
                for t in a:
                    rules[t]["zone"] = zone if rules[t]["zone"] is None else rules[t]["zone"] & zone
        keys = {t: (frozenset(r["forbid"]), tuple(sorted(set(r["far"]), key=repr)), r["edge"],
                    None if r["zone"] is None else tuple(sorted(r["zone"])), t in governed) for t, r in rules.items()}
        self.classes = sorted({k for k in keys.values() if k != (frozenset(), (), None, None, False)}, key=repr)
        self.class_of = {t: (self.classes.index(k) if k in self.classes else -1) for t, k in keys.items()}
        self.open_cell = [[(edge is None or board.edge[c] == (edge == "on_edge")) and (zone is None or c in zone)
                           for c in range(board.n)] for _, _, edge, zone, _ in self.classes]
        # effects[t]: (class, the cells around a cell of type t that it closes to that class)
        self.effects = {t: [] for t in self.spec.types}
        for k, (forbid, far, _, _, _) in enumerate(self.classes):
            for t in forbid:
                self.effects[t].append((k, board.nbrs))
            for d, others in far:
                near = board.within(d, self.spec.coords)
                for t in others:
                    self.effects[t].append((k, near))
        return rules

    def _bag(self, rng: random.Random, players: int, options: MapOptions) -> tuple[list[str], dict]:
        """The tiles to deal, and for each type whose tiles carry values of their own, those values
        (one dict per tile, in random order: they go onto that type's cells in cell order)."""
        bag, carried = [], {}
        bound = {n for place in self.spec.bound or () for n, _ in place["bags"]}
        for at, (sides, count, option, high, values) in enumerate(self.spec.deal):
            if at in bound:                     # dealt into its place: declared_areas.deal_bound
                continue
            n = count[players]
            if option:
                n = getattr(options, option, 0) or 0
                if not isinstance(n, int) or not 0 <= n <= high:
                    raise MapError(f"{self.game_id} takes 0-{high} {option}, not {n}")
            bag += [sides[0] if len(sides) == 1 else rng.choice(sides) for _ in range(n)]
            if values:
                carried.setdefault(sides[0], []).extend([values] * n)
        rng.shuffle(bag)
        for tiles in carried.values():
            rng.shuffle(tiles)
        # tiles bound by placement rules go down first, while the board is open
        bag.sort(key=lambda t: self.class_of[t] < 0)
        return bag, carried

    def _empty_board(self) -> tuple:
        """kind, lists, pos, blocked of the board with only its fixed cells: lists[k] holds the
        cells open to placement class k, pos[k][c] is c's place there (-1: not open), blocked[k][c]
        how many tiles around c close it to class k."""
        n, classes = self.board.n, len(self.classes)
        kind: list = [None] * n
        lists = [[c for c in range(n) if self.open_cell[k][c]] for k in range(classes)]
        pos = [[-1] * n for _ in lists]
        for k, cells in enumerate(lists):
            for at, c in enumerate(cells):
                pos[k][c] = at
        blocked = [[0] * n for _ in range(classes)]
        state = (kind, lists, pos, blocked)
        put, _, _ = self._deal_ops(state)
        for i, t in sorted(self.spec.fixed.items()):
            put(t, i)
        return state

    def _deal_ops(self, state):
        """put(type, cell), lift(cell) -> type, and reopen(cell) on one board's state."""
        kind, lists, pos, blocked = state
        open_cell, effects = self.open_cell, self.effects
        every = range(len(self.classes))

        def close(spots, where, c):
            at = where[c]
            if at >= 0:
                last = spots.pop()
                if last != c:
                    spots[at] = last
                    where[last] = at
                where[c] = -1

        def put(t, c):
            kind[c] = t
            for k in every:
                close(lists[k], pos[k], c)
            for k, around in effects[t]:
                row, spots, where = blocked[k], lists[k], pos[k]
                for j in around[c]:
                    row[j] += 1
                    at = where[j]
                    if at >= 0:                 # close(spots, where, j), inlined: the hot loop
                        last = spots.pop()
                        if last != j:
                            spots[at] = last
                            where[last] = at
                        where[j] = -1

        def reopen(c):
            for k in every:
                if blocked[k][c] == 0 and open_cell[k][c] and pos[k][c] < 0:
                    pos[k][c] = len(lists[k])
                    lists[k].append(c)

        def lift(c):
            t, kind[c] = kind[c], None
            for k, around in effects[t]:
                row, spots, where, opened = blocked[k], lists[k], pos[k], open_cell[k]
                for j in around[c]:
                    row[j] -= 1
                    if row[j] == 0 and kind[j] is None and opened[j] and where[j] < 0:
                        where[j] = len(spots)
                        spots.append(j)
            return t

        return put, lift, reopen

    def _deal(self, rng: random.Random, bag: list[str], bound=()) -> "list | str | None":
        """Kind of every cell after dealing the bag (the tiles dealt into their places first,
        then those under placement rules), None when the tiles found no room, OVER_WORK when the
        board cost more than WORK_PER_BOARD."""
        kind, lists, pos, blocked = self._start
        state = kind, lists, pos, blocked = (kind[:], [l[:] for l in lists], [p[:] for p in pos],
                                             [b[:] for b in blocked])
        put, lift, reopen = self._deal_ops(state)
        class_of, rand, cost = self.class_of, rng.random, self._cost
        grow = self._growth.start() if self._growth.of else None
        for c, t, _ in bound:              # a cell of its place that the placement rules closed: dealt again
            if class_of[t] >= 0 and pos[class_of[t]][c] < 0:
                return None
            put(t, c)
            if grow:
                grow.put(t, c)
        work = 0
        placed: list[int] = []
        pending = list(reversed(bag))
        repairs = REPAIRS
        resting = -1            # a lifted cell sits out one placement, so the tile goes elsewhere
        allow = self._allow      # an option's allowance: the cheapest cell within it, or none
        if allow:
            allow.start(kind)
        while pending and class_of[pending[-1]] >= 0:
            cells, c = lists[class_of[pending[-1]]], -1
            if cells:
                work += cost[pending[-1]] + (len(cells) if allow else 0)
                if work > WORK_PER_BOARD:
                    return OVER_WORK
                pool = grow.near(pending[-1], cells) if grow else cells
                c = pool[int(rand() * len(pool))] if allow is None else allow.pick(pending[-1], pool, rand)
                if c < 0 and pool is not cells:
                    c = allow.pick(pending[-1], cells, rand)
            if c < 0:
                if resting >= 0:
                    reopen(resting)
                    resting = -1
                    continue
                if not placed or not repairs:
                    return None
                repairs -= 1
                resting = placed.pop(int(rand() * len(placed)))
                pending.append(lift(resting))
                if grow:
                    grow.lift(pending[-1], resting)
                if allow:
                    allow.lift(pending[-1], resting)
                work += cost[pending[-1]]
                continue
            t = pending.pop()
            if allow:
                allow.put(t, c)
            put(t, c)
            if grow:
                grow.put(t, c)
            placed.append(c)
            if resting >= 0:
                reopen(resting)
                resting = -1
        if self._fill is not None:         # the rest first where the fill may not go (declared_fill.py)
            return [self.spec.fill if k is None else k for k in kind] if self._fill.deal_rest(rand, kind, pending) else None
        free = [c for c, t in enumerate(kind) if t is None]       # the rest go anywhere
        if len(free) < len(pending):
            return None
        while pending:
            at = int(rand() * len(free))
            kind[free[at]] = pending.pop()
            free[at] = free[-1]
            free.pop()
        fill = self.spec.fill
        return [fill if k is None else k for k in kind]

    def _whole_board_fails(self, kind: list, players: int) -> Rule | None:
        """The first rule about the whole board that the dealt board breaks, or None."""
        for rule in self._board_rules[players]:
            if "where" in rule.args or rule.kind == "reachable":    # need the tiles' values: _values_ok
                continue
            a = rule.args["a"]
            cells = [i for i in self._pool(rule, kind) if kind[i] in a]
            if not holds.global_holds(rule, cells, kind, self.board, players):
                return rule
        return None

    def _pool(self, rule: Rule, kind: list):
        """The cells a rule looks at: those of its place (`in:`), else the whole board."""
        place = rule.args.get("in")
        if place is None:
            return range(len(kind))
        if id(rule) not in self._places:
            self._places[id(rule)] = sorted(place)
        return self._places[id(rule)]

    def _rules_to_check(self, players: int) -> list:
        """The rules about the whole board, less the exact counts the deal meets by itself
        (load() proved it: the bags put exactly that many of one-sided tiles down)."""
        proven = {id(r) for r in self.spec.rules if (r.kind == "count" and count_is_dealt(self.spec, r, players))
                  or areas.proven_by_deal(self.spec, r, players)}
        return [r for r in self.spec.rules if r.kind in GLOBAL_RULES and id(r) not in proven]

    def _tokens(self, rng: random.Random, kind: list, carried: dict, players: int) -> "dict | str":
        """token name -> {cell: value}, or the id of the rule the tokens could not be made to keep."""
        failed = ""
        for _ in range(TOKEN_DEALS):
            out = {}
            for token in self.spec.tokens:
                placed = self._token_deal(rng, kind, token, players)
                if isinstance(placed, str):
                    return placed
                out[token["name"]] = placed
            rule = self._values_ok(kind, carried, players, out) if out else None
            if rule is None:
                return out
            failed = rule.id
        return failed

    def _token_deal(self, rng: random.Random, kind: list, token: dict, players: int) -> "dict | str":
        cells = [i for i, t in enumerate(kind) if t in token["over"]]
        values = list(token["values"].get(players, []))
        if len(values) != len(cells):
            raise MapError(f"{self.game_id}: {len(values)} {token['name']} tokens for {len(cells)} cells")
        rules = [r for r in self.spec.rules if r.kind == "tokens_not_adjacent" and r.args["token"] == token["name"]]
        for _ in range(200):
            rng.shuffle(values)
            placed = dict(zip(cells, values))
            broken = next((rule for rule in rules if not holds.tokens_apart(rule, placed, self.board)), None)
            if broken is None:
                return placed
        return broken.id

    def _starts(self, rng: random.Random, kind: list, players: int) -> list[int] | None:
        if self.spec.starts is None:
            return []
        starts, nbrs = self.spec.starts, self.board.nbrs
        cells = [i for i, t in enumerate(kind) if t in starts["over"]
                 and (starts["neighbours"] is None or len(nbrs[i]) == starts["neighbours"])
                 and (starts["around"] is None or all(kind[m] in starts["around"] for m in nbrs[i]))]
        apart = [r.args["distance"][players] for r in self.spec.rules if r.kind == "start_distance"]
        disjoint = any(r.kind == "start_areas_apart" for r in self.spec.rules)
        if len(cells) < players:
            return None
        quotas = [r for r in self.spec.rules if r.kind == "start_quota"]
        coords, dist = self.spec.coords, self.board.distance
        cells = [c for c in cells if all(holds.start_quota_holds(r, c, kind, coords, dist, players) for r in quotas)]
        cells = [c for c in cells if all(self.board.edge[c] == r.args["on"] for r in self._rules("start_edge"))]
        nearest = [(r, self._nearest(r, kind, cells)) for r in self._rules("start_nearest")]
        cells = [c for c in cells if all(holds.bound(r, "min", players, 0) <= steps[c] <= holds.bound(r, "max", players, steps[c])
                                         for r, steps in nearest)]
        clash = {c: declared_apart.clash_bits(self.board, c, tuple(apart), disjoint) for c in cells}

        def spread_ok(chosen) -> bool:
            return all(max(steps[c] for c in chosen) - min(steps[c] for c in chosen) <= r.args["spread"][players]
                       for r, steps in nearest if "spread" in r.args)

        return declared_apart.pick_apart(rng, cells, players, clash, spread_ok)

    def _rules(self, kind: str) -> list:
        return [r for r in self.spec.rules if r.kind == kind]

    def _nearest(self, rule: Rule, kind: list, cells: list) -> dict:
        """Steps from each of the cells to the nearest cell of the rule's types (a large number when none)."""
        targets = [self.spec.coords[i] for i, t in enumerate(kind) if t in rule.args["a"]]
        dist, coords = self.board.distance, self.spec.coords
        return {c: min((dist(coords[c], m) for m in targets), default=grid.UNREACHABLE) for c in cells}

    def generate(self, rng: random.Random, players: int, options: MapOptions) -> Layout:
        spec = self.spec
        budget = options.budget or MAX_ATTEMPTS
        rejected: dict = {}             # why boards were dealt again: rule id (or stage) -> boards
        for _ in range(budget):
            found = self._attempt(rng, players, options)
            if isinstance(found, Layout):
                return found
            rejected[found] = rejected.get(found, 0) + 1
        raise NoLayout(self.game_id, spec.source, budget, rejected)

    def _attempt(self, rng: random.Random, players: int, options: MapOptions) -> "Layout | str":
        """One board dealt and finished, or the rule (or stage) that made it fail."""
        spec = self.spec
        # the switch on (metrics.rules), if any: `pnpgen map --relaxed` where map.yaml declares it
        mode = next((name for name in spec.options or {} if getattr(options, name, False)), STRICT)
        # this player count's placement classes (the same for every count unless distances differ)
        placement, self._allow = self._placements[players], None
        if mode != STRICT:
            placement, self._allow = self._relaxed_placement(mode, players)
        self.classes, self.class_of, self.open_cell, self.effects, self._start, self._cost = placement
        self._fill = self._fill_rules(mode, players)
        if self._grower is not None:            # a grown board: the tiles are laid one by one
            return self._grower.attempt(self, rng, players, options)
        bag, carried = self._bag(rng, players, options)
        bound = areas.deal_bound(rng, spec.bound, spec.deal, players) if spec.bound else []
        kind = None if bound is None else self._deal(rng, bag, bound)
        if kind is None:
            return self._placement_stage
        if kind is OVER_WORK:
            return f"dealing (over {WORK_PER_BOARD:,} cell updates on one board: the placement rules close too many cells)"
        rule = (self._fill.broken(kind) if self._fill else None) or self._whole_board_fails(kind, players)
        carried = {**self._carried(kind, carried, {c for c, _, _ in bound}), **{c: v for c, _, v in bound if v}} \
            if rule is None else carried
        rule = rule or self._values_ok(kind, carried, players)
        if rule is not None:
            return rule.id
        tokens = self._tokens(rng, kind, carried, players)
        if isinstance(tokens, str):
            return tokens
        starts = self._starts(rng, kind, players)
        if starts is None:
            return "starts (no seats meet starts: and the start rules)"
        marks = declared_apart.markers(spec, self.board, rng, kind, starts, players)
        if marks is None:
            return "markers (no cells meet markers: and the marker rules)"
        if options.balance:             # the fairest of a few marker deals for these starts
            again = lambda: declared_apart.markers(spec, self.board, rng, kind, starts, players)    # noqa: E731
            marks = declared_fair.fairest_markers(spec, self.board, again, marks, starts)
        spaces = declared_outside.place(self.spec, self.board, rng, kind, players)
        if spaces is None:
            return "outside (no spaces off the board meet the min_distance rules)"
        layout = self._layout(kind, tokens, starts, players, carried, marks, spaces)
        if spec.options:
            layout.metrics = {"rules": mode}
        if self.spec.tiles or self.spec.pieces or self._rules("mark_edge"):
            on_board = layout.cells[:len(self.spec.coords)]
            edge = {c for c, e in zip(self.spec.coords, self.board.edge) if e}
            layout.placements += grow.finish(self.spec, rng, on_board, self.spec.coords, edge, players)
        return layout

    def _fill_rules(self, mode: str, players: int):
        if (mode, players) not in self._fills:
            allowed = self.spec.options[mode]["allow"] if mode != STRICT else {}
            fill = declared_fill.FillRules(self.spec, self.board, players, allowed)
            self._fills[mode, players] = fill if fill.rules else None
        return self._fills[mode, players]

    def _relaxed_placement(self, mode: str, players: int) -> tuple:
        """The placement classes less the rules the option allows to break, and its allowance."""
        if (mode, players) not in self._relaxed:
            allowed = self.spec.options[mode]["allow"]
            allow = declared_allow.Allowance(self.spec, self.board, allowed, players)
            rules = [r for n, r in enumerate(self.spec.rules) if n not in allowed]
            self._relaxed[mode, players] = (self._placement(players, rules, allow.governed), allow)
        return self._relaxed[mode, players]

    def _carried(self, kind: list, carried: dict, bound=frozenset()) -> dict:
        """cell -> the values its tile carries (the type's shuffled tiles, in cell order; the
        tiles dealt into a place carry their own)."""
        out = {}
        for t, tiles in carried.items():
            for c, values in zip((c for c, k in enumerate(kind) if k == t and c not in bound), tiles):
                out[c] = values
        return out

    def _values_ok(self, kind: list, carried: dict, players: int, tokens: dict | None = None) -> Rule | None:
        """The first rule that reads cells' values (counts with `where:`, reachable) and fails once
        the tiles' own values are down, or None. Without `tokens`, a count whose `where` reads a
        token is left for later; with them, only such counts are checked."""
        names = self._token_names
        placed = tokens or {}

        records: dict = {}
        on_area = self._area_values

        def value(c, key):
            if key in placed:
                return placed[key].get(c)
            if c not in records:
                records[c] = {**self._constant[kind[c]], **carried.get(c, {}), **(on_area[c][kind[c]] if on_area else {})}
            return records[c].get(key)

        for rule in self._board_rules[players]:
            if rule.kind == "reachable":
                if tokens is None and not holds.reachable(rule, kind, self.board, value, players):
                    return rule
                continue
            where = rule.args.get("where")
            if where is None or (tokens is None) == bool(names & set(where)):
                continue
            a, wanted = rule.args["a"], where.items()
            cells = [c for c in self._pool(rule, kind) if kind[c] in a and all(value(c, k) == v for k, v in wanted)]
            if not holds.global_holds(rule, cells, kind, self.board, players):
                return rule
        return None

    def _layout(self, kind, tokens, starts, players, carried, marks, spaces) -> Layout:
        spec = self.spec
        constant = self._constant
        cells = [{**base, "type": t, **constant[t], **carried.get(c, {})}
                 for c, (base, t) in enumerate(zip(self._cell_bases, kind))]
        for name, placed in tokens.items():
            for i, value in placed.items():
                cells[i][name] = value
        for name, marked in marks.items():
            for i in marked:
                cells[i][name] = True
        keys = ("q", "r") if spec.grid == "hex" else ("x", "y")
        for space, c in zip(spec.outside or [], spaces):
            cells.append({keys[0]: c[0], keys[1]: c[1], "type": space["type"], **constant[space["type"]], **space["values"]})
        placements = areas.finish(spec, cells, kind, players, self._area_values) + self._start_placements(starts)
        placements += [{**copy.deepcopy(space["piece"]), "cell": list(c)}
                       for space, c in zip(spec.outside or [], spaces) if space["piece"]]
        grid_spec = {"type": spec.grid, "orientation": spec.orientation} if spec.grid == "hex" else {"type": "square"}
        return Layout(game=self.game_id, seed=None, players=players, grid=grid_spec, cells=cells,
                      placements=placements, metrics={})

    def _start_placements(self, starts: list) -> list:
        """Each start (with its role and declared fields), then the pieces beside it."""
        spec = self.spec
        decl = spec.starts or {}
        out, beside = [], []
        for p, c in enumerate(starts):
            seat = {"player": p + 1, **({"role": decl["roles"][p]} if decl.get("roles") else {}),
                    **({"label": decl["labels"][p]} if decl.get("labels") else {})}
            out.append({"kind": "start", **seat, "cell": list(spec.coords[c]), **copy.deepcopy(decl.get("fields", {}))})
            if decl.get("around_piece"):
                beside += [{"kind": decl["around_piece"], **seat, "cell": list(spec.coords[m])}
                           for m in sorted(self.board.nbrs[c])]
        return out + beside

    # --- fairness: declared_fair.py ---
    def metrics(self, layout: Layout) -> dict:
        found = declared_fair.metrics(self.spec, self.board, layout)
        return {**declared_allow.metrics(self.spec, self.board, layout), **found} if self.spec.options else found

    def score(self, metrics: dict) -> float:
        """Higher is fairer: minus the weighted spreads of the declared objective."""
        return declared_fair.score(self.spec, metrics)
