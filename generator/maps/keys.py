"""A pack's map.yaml as read -> the same data, or a MapError naming each top-level key nothing
reads (`map.yaml:LINE:COL: unknown key 'bogus'; did you mean 'look'? ...`).

A key no reader looks at would change nothing and say nothing: a designer who edits it expects an
effect. So map.yaml takes only the keys below; `layout:` and `policies:` are checked further by
declared.py and here, `look:` by the renderer, and `data:` is free-form, read by the pack's own
manifests (`=map.data.KEY`) and handout (`{{ map.data.KEY }}`), never by the map engine.
"""
from __future__ import annotations

import difflib
from pathlib import Path

from .rules import MapError

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
    "python_rules": "was removed: the map now comes from `layout:`, the rules in the map vocabulary "
                    "(docs/maps.md); delete python_rules and declare the rules under layout:",
}
DATA_HINT = ("the map engine reads only layout, look and policies; declare the map's rules under "
             "layout: (docs/maps.md) and put numbers your manifests or handout read under data:")


def check_keys(data: dict, path: Path) -> dict:
    """data when every top-level key is one map.yaml takes; else MapError, one line per key."""
    problems = [f"{_where(data, key, path)}: {_unknown(key)}" for key in data if key not in MAP_KEYS]
    policies = data.get("policies")
    if policies is not None and not (isinstance(policies, list) and all(isinstance(p, str) for p in policies)):
        problems.append(f"{_where(data, 'policies', path, value=True)}: policies: must be a list of rule ids "
                        f"(policies: [settlement-edge]), not {policies!r:.60}")
    if data.get("data") is not None and not isinstance(data["data"], dict):
        problems.append(f"{_where(data, 'data', path, value=True)}: data: must be a mapping of keys "
                        f"(data: {{settlements: 20}}), not {data['data']!r:.60}")
    if problems:
        raise MapError("\n".join(problems))
    return data


def check_policies(data: dict, path: Path, structure_ids) -> None:
    """MapError for a policy naming no rule: a misspelt id would leave that rule failing checks."""
    known = set(structure_ids) | set(_ids(data.get("layout")))
    problems = []
    for n, rule in enumerate(data.get("policies") or ()):
        if rule not in known:
            close = difflib.get_close_matches(rule, sorted(known), 1, 0.6)
            hint = f"did you mean '{close[0]}'?" if close else "name the `id` of a rule in layout:"
            mark = data["policies"].item_mark(n) if hasattr(data["policies"], "item_mark") else _where(data, "policies", path, True)
            problems.append(f"{mark}: policies: '{rule}' is no rule of this map; {hint}")
    if problems:
        raise MapError("\n".join(problems))


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


def _unknown(key) -> str:
    if key in REMOVED:
        return f"'{key}' {REMOVED[key]}"
    close = difflib.get_close_matches(str(key), list(MAP_KEYS), 1, 0.6)
    hint = f"did you mean '{close[0]}'? " if close else f"{DATA_HINT} "
    return f"unknown key '{key}'; {hint}(keys map.yaml takes: {', '.join(sorted(MAP_KEYS))})"


def _where(data: dict, key, path: Path, value: bool = False) -> str:
    """file:line:col of the key (or its value), as far as the loader kept it."""
    from ..errors import display_path
    mark = getattr(data, "value_mark" if value else "key_mark", None)
    return str(mark(key)) if mark else display_path(Path(path))
