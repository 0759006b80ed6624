"""The layout data model and its JSON form (documented in docs/maps.md).

A Layout is plain data: cells and placements are dicts, so a hand-made or edited JSON file loads
into the same structure the generators produce, and the checkers read nothing else.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import did_you_mean, os_error_text
from ..yamlsrc import first_bracket_past
from .grid import Cell


@dataclass
class Layout:
    game: str
    seed: int | None
    players: int
    grid: dict                                   # {"type": "hex", "orientation": "pointy"} | {"type": "square"}
    cells: list[dict]                            # each: q, r (hex) or x, y (square), type, ...
    placements: list[dict] = field(default_factory=list)   # each: kind, cell [a, b], ...
    metrics: dict = field(default_factory=dict)
    root: Path | None = field(default=None, compare=False, repr=False)   # the pack it was made from (not saved)

    @property
    def grid_type(self) -> str:
        return self.grid["type"]

    def coord(self, cell: dict) -> Cell:
        return (cell["q"], cell["r"]) if self.grid_type == "hex" else (cell["x"], cell["y"])

    def by_coord(self) -> dict[Cell, dict]:
        return {self.coord(c): c for c in self.cells}

    def to_dict(self) -> dict:
        return {"game": self.game, "seed": self.seed, "players": self.players, "grid": self.grid,
                "cells": self.cells, "placements": self.placements, "metrics": self.metrics}

    @classmethod
    def from_dict(cls, data: dict) -> "Layout":
        return cls(game=data["game"], seed=data.get("seed"), players=data["players"],
                   grid=data["grid"], cells=data["cells"], placements=data.get("placements", []),
                   metrics=data.get("metrics", {}))


TOP_KEYS = ("game", "seed", "players", "grid", "cells", "placements", "metrics")
GRID_KEYS = ("type", "orientation")
SHOWN_UNKNOWN = 12          # unknown keys named before "and N more"


def unknown_key(where: str, key, known) -> str:
    """'where.key: unknown key; did you mean ...? known keys are ...' for a key no reader knows."""
    hint = did_you_mean(key, known, end=" ")
    return (f"{where + '.' if where else ''}{key}: unknown key; {hint}known keys are "
            f"{', '.join(sorted(known))}")


@dataclass(frozen=True)
class LayoutKeys:
    """The keys one game's cells and placements may carry: its checker declares them, and a key
    outside them (a typo like `colour`) is refused rather than silently ignored."""
    cells: frozenset
    placements: frozenset

    def unknown(self, layout: "Layout", where: str = "") -> list[str]:
        at = f"{where}." if where else ""
        found = [unknown_key(f"{at}{part}[{n}]", key, known)
                 for part, items, known in (("cells", layout.cells, self.cells),
                                            ("placements", layout.placements, self.placements))
                 for n, item in enumerate(items) for key in item if key not in known]
        if len(found) > SHOWN_UNKNOWN:
            found[SHOWN_UNKNOWN:] = [f"{at}cells, placements: {len(found) - SHOWN_UNKNOWN} more unknown keys not shown"]
        return found


def make_cell(grid_type: str, coord: Cell, type_: str, **extra) -> dict:
    keys = ("q", "r") if grid_type == "hex" else ("x", "y")
    return {keys[0]: coord[0], keys[1]: coord[1], "type": type_, **extra}


def dumps(layouts: list[Layout]) -> str:
    """One layout as an object, several as {"layouts": [...]}; stable key order, so identical
    layouts give identical bytes."""
    data = layouts[0].to_dict() if len(layouts) == 1 else {"layouts": [l.to_dict() for l in layouts]}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


class LayoutFileError(Exception):
    pass


MAX_LAYOUT_BYTES = 20 * 1024 * 1024    # far above any layout file; /dev/zero stops here
MAX_JSON_DEPTH = 32                    # a layout nests 4 deep
MAX_LAYOUTS = 10_000
MAX_JSON_NUMBER = 10 ** 15
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class _Odd:
    """A JSON number no layout can hold (NaN, Infinity, or thousands of digits), kept as its
    text so the check can name it and its JSON path."""

    def __init__(self, text: str):
        self.text = text


def _number(text: str):
    if len(text.lstrip("-")) > 16:
        return _Odd(text)
    value = float(text) if any(c in text for c in ".eE") else int(text)
    return value if abs(value) <= MAX_JSON_NUMBER else _Odd(text)


def read_bounded(path: Path, limit: int, what: str) -> str:
    """A regular file's text, at most `limit` bytes: a FIFO, a device (/dev/zero) or a folder is
    refused before anything is read."""
    import os
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise LayoutFileError(f"{path}: cannot read: {os_error_text(exc, 'file')}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LayoutFileError(f"{path}: not a regular file; give the path of a {what}")
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise LayoutFileError(f"{path}: over the {limit // (1024 * 1024)} MB limit for a {what}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LayoutFileError(f"{path}: not UTF-8 text; give the path of a {what}") from None


def _too_deep(text: str) -> int | None:
    """Offset of the first bracket nested past MAX_JSON_DEPTH (strings blanked first), or None."""
    blanked = _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)
    return first_bracket_past(blanked, MAX_JSON_DEPTH)


def load(path: Path) -> list[Layout]:
    """Read a layout file; every problem raises LayoutFileError naming the file and the JSON
    path of the bad value (layouts[2].cells[5].q)."""
    text = read_bounded(Path(path), MAX_LAYOUT_BYTES, "layout file (.json)")
    deep = _too_deep(text)
    if deep is not None:
        line = text.count("\n", 0, deep) + 1
        col = deep - text.rfind("\n", 0, deep)
        raise LayoutFileError(f"{path}:{line}:{col}: JSON nested more than {MAX_JSON_DEPTH} deep; a layout "
                              "nests four levels (see docs/maps.md)")
    try:
        data = json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_Odd)
    except json.JSONDecodeError as exc:
        raise LayoutFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    if isinstance(data, dict) and "layouts" in data:
        items, base = data["layouts"], "layouts"
        if not isinstance(items, list) or not items:
            raise LayoutFileError(f"{path}: layouts: must be a non-empty list of layouts, not {_shown(items)}")
        if len(items) > MAX_LAYOUTS:
            raise LayoutFileError(f"{path}: layouts: {len(items):,} layouts, over the limit of {MAX_LAYOUTS:,}")
        if len(data) > 1:
            raise LayoutFileError(f"{path}: {sorted(set(data) - {'layouts'})[0]}: unknown key beside 'layouts'")
    else:
        items, base = [data], ""
    layouts = []
    for index, item in enumerate(items):
        where = f"{base}[{index}]" if base else ""
        problem = _structure_problem(item, where)
        if problem:
            raise LayoutFileError(f"{path}: {problem}")
        layouts.append(Layout.from_dict(item))
    return layouts


def _shown(value) -> str:
    if isinstance(value, _Odd):
        return f"the number {value.text[:20]}{'...' if len(value.text) > 20 else ''}"
    if isinstance(value, (dict, list)):
        return ("an empty " if not value else "a ") + ("object" if isinstance(value, dict) else "list")
    return json.dumps(value)[:40]


def _odd_number(value, where: str) -> str:
    """A located problem for the first NaN, infinity or oversized number anywhere in value."""
    stack = [(value, where)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, _Odd):
            return f"{at or '(top)'}: {_shown(node)} is not a finite number within ±{MAX_JSON_NUMBER:.0e}"
        if isinstance(node, dict):
            stack.extend((v, f"{at}.{k}" if at else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, f"{at}[{n}]") for n, v in enumerate(node))
    return ""


def _structure_problem(item, where: str = "") -> str:
    """'' when item has a layout's shape, else 'json.path: what is wrong'."""
    at = (lambda key: f"{where}.{key}" if where else key)
    if not isinstance(item, dict):
        return f"{where or '(top)'}: a layout must be a JSON object, not {_shown(item)}"
    odd = _odd_number(item, where)
    if odd:
        return odd
    for key in ("game", "players", "grid", "cells"):
        if key not in item:
            return f"{where or '(top)'}: missing key '{key}'"
    stray = [key for key in item if key not in TOP_KEYS]
    if stray:
        return unknown_key(where, stray[0], TOP_KEYS)
    grid = item["grid"]
    if not isinstance(grid, dict) or grid.get("type") not in ("hex", "square"):
        return f"{at('grid')}: must be {{\"type\": \"hex\", \"orientation\": \"pointy\" or \"flat\"}} or {{\"type\": \"square\"}}"
    stray = [key for key in grid if key not in GRID_KEYS]
    if stray:
        return unknown_key(at("grid"), stray[0], GRID_KEYS)
    if grid["type"] == "hex" and grid.get("orientation") not in ("pointy", "flat"):
        return f"{at('grid.orientation')}: a hex grid needs \"orientation\": \"pointy\" or \"flat\", not {_shown(grid.get('orientation'))}"
    keys = ("q", "r") if grid["type"] == "hex" else ("x", "y")
    if not isinstance(item["cells"], list) or not item["cells"]:
        return f"{at('cells')}: must be a non-empty list of cells"
    for n, cell in enumerate(item["cells"]):
        if not isinstance(cell, dict) or not all(isinstance(cell.get(k), int) and not isinstance(cell.get(k), bool)
                                                 for k in keys) or not isinstance(cell.get("type"), str):
            return f"{at('cells')}[{n}]: must be an object with integer {keys[0]}, {keys[1]} and a type"
    placements = item.get("placements", [])
    if not isinstance(placements, list):
        return f"{at('placements')}: must be a list"
    for n, placement in enumerate(placements):
        if not isinstance(placement, dict) or "kind" not in placement:
            return f"{at('placements')}[{n}]: must be an object with a kind"
    if not isinstance(item["players"], int) or isinstance(item["players"], bool):
        return f"{at('players')}: must be a whole number, not {_shown(item['players'])}"
    if not isinstance(item["game"], str):
        return f"{at('game')}: must be a game's name, not {_shown(item['game'])}"
    return ""
