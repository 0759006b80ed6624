"""A group's items as written (in its YAML, or rows of a spreadsheet) -> items as printed
(model.Item): '=map...' and '=data...' references resolved, one item per player in per-player
groups and per combination of `vary`, each value checked against the group's declared fields."""
from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

from . import art
from .errors import Reporter
from .model import Item
from .schema import INVALID, AnyData, Bool, Color, Field, Id, Int, ListOf, MapOf, Num, Spec, Str, Type
from .sheets_source import CELL, items_from
from .yamlsrc import SrcDict

MAX_GROUP_TOTAL = 200_000      # faces in one group


class VaryType(Type):
    """Values an item is repeated over: a list, or a range written '1..6'."""
    description = "a list of values or a range such as 1..6"
    mark_free = True

    def check(self, value, mark, rep, where):
        if isinstance(value, list) and value:
            return list(value)
        if isinstance(value, str):
            match = re.match(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$", value)
            if match and int(match.group(1)) <= int(match.group(2)) and int(match.group(2)) - int(match.group(1)) < 10_000:
                return list(range(int(match.group(1)), int(match.group(2)) + 1))
        rep.error(mark, f"{where} must be a non-empty list or a range like 1..6, not {value!r}",
                  "write e.g. number: 1..6 or number: [1, 2, 3]")
        return INVALID


class Picture(Str):
    """A picture inside the pack (field type `image`): checked when the pack loads (art.load: the
    file, its format and size), kept as the path written, which templates give to image()."""
    description = "the path of a picture inside the game pack, e.g. art/goblin.jpg"
    mark_free = False       # a refused picture would be read twice (Spec.check's two passes)

    def __init__(self, root: Path | None = None):
        super().__init__(1000)
        self.root = root

    def check(self, value, mark, rep, where):
        value = super().check(value, mark, rep, where)
        if value is INVALID or self.root is None:
            return value
        try:
            art.load(self.root, value)
        except art.ArtError as exc:
            rep.error(mark, str(exc) if where == CELL else f"{where}: {exc}")     # the image names itself
            return INVALID
        return value


class SheetRow(Spec):
    """An item read from a spreadsheet row. Its cells' marks already say the file, the line (or
    sheet and row) and the column by name, so a cell's problem names it "the cell", not by a
    YAML key path that would say the place a second time."""

    def key_where(self, where: str, key) -> str:
        return CELL


FIELD_TYPES = {"text": Str(), "int": Int(), "number": Num(), "bool": Bool(), "color": Color(),
               "list": ListOf(AnyData()), "data": AnyData(), "image": Picture()}

REFERENCE = re.compile(r"^=(map|data)((?:\.[A-Za-z0-9_{}-]+)+)$")


def resolve_reference(text: str, sources: dict, seat: int | None):
    """'=map.tiles_per_player.water' -> that value of map.yaml ('=data....' reads game.yaml data);
    '{player}' in the path is the player's seat number (1, 2, ...) in per-player groups.
    Numbers shared with the map rules or other data are so written once."""
    match = REFERENCE.match(text)
    if not match:
        raise LookupError(f"'{text}' is not a reference; write =map.some.key or =data.some.key")
    path = match.group(2)
    if "{player}" in path:
        if seat is None:
            raise LookupError(f"'{text}' uses {{player}} outside a per_player group")
        path = path.replace("{player}", str(seat))
    value = sources.get(match.group(1))
    if value is None:
        raise LookupError(f"'{text}': this pack has no {'map.yaml' if match.group(1) == 'map' else 'data in game.yaml'}")
    for step in path.strip(".").split("."):
        if isinstance(value, dict):
            key = int(step) if step.isdigit() and int(step) in value else step
            if key not in value:
                raise LookupError(f"'{text}': no '{step}' there")
            value = value[key]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            raise LookupError(f"'{text}': no '{step}' there")
    return value


def _resolved(raw, sources, seat, rep: Reporter):
    """An item mapping with its '=...' references replaced (top-level values and vary values)."""
    if not isinstance(raw, SrcDict) or not _refers(raw):
        return raw                      # nothing to replace: the mapping as read (nothing changes it)
    out = raw.like()
    for key, value in raw.items():
        if isinstance(value, str) and value.startswith("="):
            try:
                value = resolve_reference(value, sources, seat)
            except LookupError as exc:
                rep.error(raw.value_mark(key), str(exc), "check the path against the file it names")
                continue
        elif key == "vary" and isinstance(value, SrcDict):
            value = _resolved(value, sources, seat, rep)
        out[key] = value
    return out


def _refers(raw: SrcDict) -> bool:
    """Whether an item has a reference to resolve: a value, or a vary's value, written '=...'."""
    for key, value in raw.items():
        if (isinstance(value, str) and value.startswith("=")) or (key == "vary" and isinstance(value, SrcDict)):
            return True
    return False


_NOT_DATA = frozenset(("id", "copies", "vary"))     # an item's own keys, not its fields


def expand_items(g, players, rep: Reporter, sources: dict | None = None) -> list[Item] | None:
    """Items as written -> items as printed: references resolved (per player where they name
    the player), then one item per value combination of `vary`, per player."""
    root = (sources or {}).get("root")
    declared = {name: Field(Picture(root) if kind == "image" else FIELD_TYPES[kind])
                for name, kind in (g.fields or {}).items() if kind}
    raw_items = g.source["items"]
    from_sheet = isinstance(raw_items, dict)     # items: {from: cards.xlsx, sheet: ...}
    item_spec = (SheetRow if from_sheet else Spec)(f"item of {g.id}", {
        "id": Field(Id(), True, doc="a short id"), "copies": Field(Int(0, 100_000), default=1),
        "vary": Field(MapOf(VaryType())), **declared})
    if from_sheet:
        raw_items = items_from(raw_items, g.fields or {}, sources["root"], rep)
        if raw_items is None:
            return None
    items = []
    owners = players if g.per_player else [None]
    for seat, owner in enumerate(owners, 1):     # each player's set stays together
        for index, raw in enumerate(raw_items):
            mark = raw_items.item_mark(index)
            raw = _resolved(raw, sources or {}, seat if owner else None, rep)
            rec = item_spec.check(raw, mark, rep, f"items[{index + 1}]")
            if rec is INVALID or rec.values["id"] is None:
                continue
            values = rec.values
            vary = _typed_vary(rec, declared, rep, index) if values.get("vary") else {}
            data = {k: v for k, v in values.items() if v is not None and k not in _NOT_DATA}
            combos = math.prod(len(choices) for choices in vary.values()) if vary else 1
            if len(items) + combos * (values["copies"] or 1) > MAX_GROUP_TOTAL:   # before making them
                rep.error(rec.value_mark("vary") if vary else mark,
                          f"group '{g.id}' would have more than {MAX_GROUP_TOTAL:,} faces "
                          f"({len(items) + combos:,} items after vary{', per player' if owner else ''})",
                          "split the group, or vary over fewer values")
                return items
            for combo in itertools.product(*vary.values()) if vary else ((),):     # (an item without vary: itself)
                suffix = ("".join(f"-{v}" for v in combo) + (f"-{owner.id}" if owner else "")) if combo or owner else ""
                items.append(Item(id=values["id"] + suffix, copies=values["copies"] or 0,
                                  data={**data, **dict(zip(vary, combo))} if combo else data, player=owner, mark=mark))
    check_unique([(item.id, item.mark) for item in items], f"item id in group '{g.id}'", rep)
    return items


def _typed_vary(rec, declared: dict, rep: Reporter, index: int) -> dict:
    """The item's vary values, each converted to its field's declared type (a text field varied
    over [A, 2, 10] holds the texts 'A', '2', '10'), so templates see what fields promise."""
    out = {}
    for name, values in (rec.vary or {}).items():
        if name not in declared:
            rep.error(rec.value_mark("vary"), f"vary names '{name}', which is not in the group's fields",
                      f"add '{name}: int' (or text) under fields")
            continue
        typed = [declared[name].type.check(v, rec.value_mark("vary"), rep, f"items[{index + 1}].vary.{name}")
                 for v in values]
        out[name] = [v for v in typed if v is not INVALID]
    return out


def check_unique(pairs, what: str, rep: Reporter) -> None:
    seen = {}
    for key, mark in pairs:
        if key in seen:
            rep.error(mark, f"{what} '{key}' is used twice (also at {seen[key]})", "give each a distinct id")
        else:
            seen[key] = mark
