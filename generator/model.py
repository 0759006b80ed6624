"""The typed model a game pack loads into; everything after loading reads only this."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import Mark
from .shapes import SHAPES, Outline


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    color: str


@dataclass(frozen=True)
class FontRole:
    family: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Icon:
    name: str
    view_box: tuple[float, float, float, float]
    markup: str          # the icon's SVG elements, already checked and serialised


@dataclass
class Item:
    id: str
    copies: int
    data: dict
    player: Player | None
    mark: Mark


@dataclass
class Group:
    id: str
    name: str
    kind: str
    shape: str
    orientation: str
    width: float
    height: float
    corner_radius: float
    points: tuple | None
    template: str
    back_template: str | None
    bleed: float | None
    cuts: str | None
    rulebook_count: int | None
    prototype_content: bool
    items: list[Item]
    file: str
    mark: Mark
    notes: list[str] = field(default_factory=list)
    version_mark: str | None = None      # None: the pack's defaults.version_mark
    version_size: float | None = None
    tuck_box: str | None = None          # a card thickness (tuckbox.py) or 'off'; None: only with --tuck-boxes

    @property
    def sides(self) -> int:
        return 2 if self.back_template else 1

    @property
    def total(self) -> int:
        return sum(item.copies for item in self.items)

    def outline(self, grow: float = 0.0) -> Outline:
        return SHAPES[self.shape].outline(self.width, self.height, self.orientation, grow,
                                          self.corner_radius, self.points)


@dataclass
class Game:
    id: str
    title: str
    root: Path
    players_min: int
    players_max: int
    players_default: int
    players: list[Player]
    palette: dict
    fonts: dict[str, FontRole]
    icons: dict[str, Icon]
    defaults: dict
    notes: list[str]
    groups: list[Group]
    data: dict = field(default_factory=dict)
    version: str = ""

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)

    def group_data(self) -> dict:
        """What templates and handouts read as `groups` / `group`: per group its total, its
        items in order, and each item by id (fields, id, copies), so a number lives on one item
        and every face or handout that shows it reads it from there."""
        out = {}
        for group in self.groups:
            items = [{"id": i.id, "copies": i.copies, **i.data} for i in group.items]
            out[group.id] = {"total": group.total, "items": items, **{i["id"]: i for i in items}}
        return out
