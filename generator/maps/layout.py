"""The layout data model and its JSON form (documented in docs/maps.md).

A Layout is plain data: cells and placements are dicts, so a hand-made or edited JSON file loads
into the same structure the generators produce, and the checkers read nothing else.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

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


def load(path: Path) -> list[Layout]:
    """Read a layout file; structural problems raise LayoutFileError with a located message."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise LayoutFileError(f"{path}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    items = data.get("layouts") if isinstance(data, dict) and "layouts" in data else [data]
    layouts = []
    for index, item in enumerate(items if isinstance(items, list) else [items]):
        where = f"{path}: layout {index + 1}" if len(items) > 1 else str(path)
        problem = _structure_problem(item)
        if problem:
            raise LayoutFileError(f"{where}: {problem}")
        layouts.append(Layout.from_dict(item))
    return layouts


def _structure_problem(item) -> str:
    if not isinstance(item, dict):
        return "a layout must be a JSON object"
    for key in ("game", "players", "grid", "cells"):
        if key not in item:
            return f"missing key '{key}'"
    grid = item["grid"]
    if not isinstance(grid, dict) or grid.get("type") not in ("hex", "square"):
        return "grid must be {\"type\": \"hex\", \"orientation\": ...} or {\"type\": \"square\"}"
    keys = ("q", "r") if grid["type"] == "hex" else ("x", "y")
    if not isinstance(item["cells"], list):
        return "cells must be a list"
    for n, cell in enumerate(item["cells"]):
        if not isinstance(cell, dict) or not all(isinstance(cell.get(k), int) for k in keys) or not isinstance(cell.get("type"), str):
            return f"cell {n + 1} must be an object with integer {keys[0]}, {keys[1]} and a type"
    for n, placement in enumerate(item.get("placements", [])):
        if not isinstance(placement, dict) or "kind" not in placement:
            return f"placement {n + 1} must be an object with a kind"
    if not isinstance(item["players"], int):
        return "players must be a whole number"
    return ""
