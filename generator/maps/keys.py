"""A pack's map.yaml as read -> the same data, or a MapError naming each part of it nothing reads
(`map.yaml:LINE:COL: unknown key 'bogus'; did you mean 'look'? ...`), each at its place.

A key no reader looks at would change nothing and say nothing: a designer who edits it expects an
effect. So map.yaml takes only the keys of MAP_KEYS (load_pack says so before anything is drawn,
the engine again for `pnpgen map`); `layout:` is checked by declared.py, its `where:` keys, its
policies and `look:` here, once the layout is read; `data:` is the designer's own, read by the
pack's manifests (`=map.data.KEY`) and handout (`{{ map.data.KEY }}`), never by the map engine.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import did_you_mean
from .rules import MapError

# map.yaml `look:` (drawn by render.py from these, or by the pack's template): the keys each level
# takes. `labels` (cell key -> format) and `item` (the template's values) are the designer's own.
STYLE = ("name", "fill", "icon", "legend")
CELL = (*STYLE, "labels", "by", "variants")
MARKER = (*STYLE, "shape", "text", "hidden_on_face_down", "by", "variants")
LOOK = {
    "drawn": ("cells", "face_down", "labels", "badges", "markers", "owner_key", "one_page"),
    "template": ("template", "size", "item", "one_page"),
    "size": ("width", "height"),
    "cells.*": CELL,
    "cells.*.variants.*": (*STYLE, "labels"),
    "face_down.*": STYLE,                      # but `by` and `default`'s own keys: the backs by value
    "badges.*": (*STYLE, "shape", "text", "owner", "hidden"),
    "markers.*": MARKER,
    "markers.*.variants.*": (*STYLE, "shape", "text"),
}

# key -> what reads it (docs/maps.md, "What map.yaml holds", lists the same; a test holds them equal)
MAP_KEYS = {
    "layout": "the map rules in the map vocabulary: what `pnpgen map` deals, balances and checks",
    "look": "how the setup map draws each cell type and piece",
    "policies": "ids of rules that are the generator's preferences, not the rulebook's: notes in --check",
    "data": "numbers the pack's manifests (=map.data.KEY) and handout ({{ map.data.KEY }}) read; "
            "not read by the map engine",
}

# keys an older map.yaml held, with what to do instead
REMOVED = {
    "python_rules": ("was removed: the map now comes from `layout:`, the rules in the map vocabulary (docs/maps.md)",
                     "delete python_rules and declare the rules under layout:"),
}
DATA_HINT = ("the map engine reads only layout, look and policies; declare the map's rules under "
             "layout: (docs/maps.md) and put numbers your manifests or handout read under data:")


def check_keys(data: dict, path: Path) -> dict:
    """data when every top-level key is one map.yaml takes; else MapError, one line per key."""
    problems = top_level_problems(data, path)
    if problems:
        raise MapError("\n".join(map(str, problems)))
    return data


def top_level_problems(data: dict, path: Path) -> list:
    """A Problem (file:line:col, what, hint) for each top-level key of map.yaml nothing reads, and
    for `policies` or `data` of the wrong shape. load_pack reports them too, before any drawing."""
    from ..errors import Problem
    problems = [Problem(_mark(data, key, path), *_unknown(key)) for key in data if key not in MAP_KEYS]
    policies = data.get("policies")
    if policies is not None and not (isinstance(policies, list) and all(isinstance(p, str) for p in policies)):
        problems.append(Problem(_mark(data, "policies", path, True), f"policies: must be a list of rule ids, "
                                f"not {policies!r:.60}", "e.g. policies: [settlement-edge]"))
    if data.get("data") is not None and not isinstance(data["data"], dict):
        problems.append(Problem(_mark(data, "data", path, True), f"data: must be a mapping of keys, "
                                f"not {data['data']!r:.60}", "e.g. data: {settlements: 20}"))
    return problems


def check_look(data: dict, path: Path, types, cell_keys, kinds) -> None:
    """MapError for each part of `look:` nothing would draw: a key the drawing does not take, a
    cell look of a type the layout has not got, a label or badge for a key no cell carries, a
    marker for a kind no layout places (each would be ignored without a word)."""
    look = data.get("look")
    if not isinstance(look, dict):
        return                         # render.py says what a look must be
    problems = []
    drawn = "drawn" if not look.get("template") else "template"
    for key in look:
        if key not in LOOK[drawn]:
            why = ("this look is drawn by its template (look.template), which reads only "
                   + ", ".join(LOOK["template"]) if drawn == "template" and key in LOOK["drawn"] else "")
            problems.append(_stray_look(look, key, "look", LOOK[drawn], path, why))
    backs = look.get("face_down")
    for value in backs if isinstance(backs, dict) and drawn == "drawn" else ():
        if value != "by" and not isinstance(backs[value], dict):
            problems.append(f"{_where(backs, value, path, True)}: look.face_down.{value}: must be the look of the "
                            "back of the cells whose `by` key has this value, e.g. {name: Hills, fill: tier2}")
    for part, names, what in (("cells", types, "cell type of layout.types"), ("labels", cell_keys, "key a cell carries"),
                              ("badges", cell_keys, "key a cell carries"), ("markers", kinds, "kind of piece a layout places")):
        group = look.get(part)
        for name in group if isinstance(group, dict) and drawn == "drawn" else ():
            if part != "labels" and not isinstance(group[name], dict):
                problems.append(f"{_where(group, name, path, True)}: look.{part}.{name}: must be a mapping such as "
                                "{name: ..., fill: ...} (see docs/maps.md)")
            elif str(name) not in names:
                problems.append(f"{_where(group, name, path)}: look.{part}.{name}: no {what} is '{name}'; "
                                + did_you_mean(name, names, f"({', '.join(sorted(names))})"))
    levels = [(w, a) for w, a in _look_levels(look) if drawn == "drawn" or w == "size"]   # a template's: its size
    for where, allowed in levels:
        node = _at(look, where)
        problems += [_stray_look(node, key, f"look.{where}", allowed, path) for key in node if key not in allowed]
    if problems:
        raise MapError("\n".join(problems))


def layout_kinds(layout) -> set:
    """The kinds of piece a layout may place: every `kind:` the section names, a start's piece
    beside it (`around_piece`), and `start` itself."""
    found, stack = set(), [layout]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found |= {str(node[k]) for k in ("kind", "around_piece") if isinstance(node.get(k), str)}
            found |= {"start"} if isinstance(node.get("starts"), dict) else set()
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _look_levels(look: dict):
    """(path, allowed keys) of every mapping of a look that has a schema: size, each cell, back,
    badge and marker style, and their variants."""
    if isinstance(look.get("size"), dict):
        yield "size", LOOK["size"]
    for part in ("cells", "badges", "markers", "face_down"):
        group = look.get(part)
        if not isinstance(group, dict):
            continue
        for name, style in group.items():
            if not isinstance(style, dict) or (part == "face_down" and name == "by"):
                continue
            yield f"{part}.{name}", LOOK[f"{part}.*"]
            for value, variant in (style.get("variants") or {}).items() if isinstance(style.get("variants"), dict) else ():
                if isinstance(variant, dict) and f"{part}.*.variants.*" in LOOK:
                    yield f"{part}.{name}.variants.{value}", LOOK[f"{part}.*.variants.*"]


def _at(node, where: str):
    for step in where.split("."):
        node = node[step] if step in node else next(v for k, v in node.items() if str(k) == step)
    return node


def _stray_look(node, key, where: str, allowed, path: Path, why: str = "") -> str:
    hint = why or did_you_mean(key, allowed, end=" ") + f"({where} takes: {', '.join(allowed)})"
    return f"{_where(node, key, path)}: {where}.{key}: unknown key; {hint}"


def check_policies(data: dict, path: Path, structure_ids) -> None:
    """MapError for a policy naming no rule: a misspelt id would leave that rule failing checks."""
    known = set(structure_ids) | set(_ids(data.get("layout")))
    problems = []
    for n, rule in enumerate(data.get("policies") or ()):
        if rule not in known:
            hint = did_you_mean(rule, known, "name the `id` of a rule in layout:")
            mark = data["policies"].item_mark(n) if hasattr(data["policies"], "item_mark") else _where(data, "policies", path, True)
            problems.append(f"{mark}: policies: '{rule}' is no rule of this map; {hint}")
    if problems:
        raise MapError("\n".join(problems))


def check_where(data: dict, path: Path, keys) -> None:
    """MapError for a `where:` key no cell or piece of a layout can carry (the checker's keys):
    it would match nothing, so a count of it passes or fails without saying why."""
    problems = []
    for where in _wheres(data.get("layout")):
        for key in where:
            if key not in keys:
                problems.append(f"{_where(where, key, path)}: where: no cell or piece of this map carries '{key}'; "
                                + did_you_mean(key, keys, f"keys they carry: {', '.join(sorted(keys))}"))
    if problems:
        raise MapError("\n".join(problems))


def _wheres(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "where" and isinstance(value, dict):
                yield value
            else:
                yield from _wheres(value)
    elif isinstance(node, list):
        for value in node:
            yield from _wheres(value)


def _ids(node):
    """Every rule id declared anywhere in the layout section (constraints, areas, pieces, seats)."""
    if isinstance(node, dict):
        if isinstance(node.get("id"), str):
            yield node["id"]
        for value in node.values():
            yield from _ids(value)
    elif isinstance(node, list):
        for value in node:
            yield from _ids(value)


def _unknown(key) -> tuple[str, str]:
    """(what is wrong, how to fix it) for a top-level key map.yaml does not take."""
    if key in REMOVED:
        return f"'{key}' {REMOVED[key][0]}", REMOVED[key][1]
    hint = did_you_mean(key, MAP_KEYS, f"{DATA_HINT} ", end=" ")
    return f"unknown key '{key}'", f"{hint}(keys map.yaml takes: {', '.join(sorted(MAP_KEYS))})"


def _mark(data: dict, key, path: Path, value: bool = False):
    """The Mark of the key (or its value), as far as the loader kept it."""
    from ..errors import Mark, display_path
    mark = getattr(data, "value_mark" if value else "key_mark", None)
    return mark(key) if mark else Mark(display_path(Path(path)), 1, 1)


def _where(data: dict, key, path: Path, value: bool = False) -> str:
    return str(_mark(data, key, path, value))
