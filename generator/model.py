"""The typed model a game pack loads into; everything after loading reads only this."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import BuildError, Mark
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


@dataclass(slots=True)     # one per card: 50,000 in a large deck
class Item:
    id: str
    copies: int
    data: dict
    player: Player | None
    mark: Mark

    def __reduce__(self):
        """Pickled as its fields (apart.py sends a loaded pack back): unpickling makes no
        state dict to drop, which would leave a hole in the heap beside every item. A plain
        Mark goes as its three fields: pickled whole it costs a Python call each way (its
        __getnewargs__ and its __new__)."""
        if type(self.mark) is Mark:
            return _marked_item, (self.id, self.copies, self.data, self.player, *self.mark)
        return Item, (self.id, self.copies, self.data, self.player, self.mark)


def _marked_item(id: str, copies: int, data: dict, player, file: str, line: int, col: int) -> Item:
    """An Item unpickled, its Mark made again from the three fields it was pickled as."""
    return Item(id, copies, data, player, tuple.__new__(Mark, (file, line, col)))


@dataclass(frozen=True)
class Die:
    """A group whose items are dice: where each face sits on the item's face (mm)."""
    sides: int
    faces: tuple            # ((x, y, side), ...) of face 1, 2, ...
    values: str | None      # the item field naming what each face shows; None: the numbers
    tint: str | None = None  # d4, d8: the item field naming the die's colour (a list: its first entry)


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
    die: Die | None = None
    version_mark: str | None = None      # None: the pack's defaults.version_mark
    version_size: float | None = None
    new_mark: str | None = None          # None: the pack's defaults.new_mark, else beside the version
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

    def select(self, names: tuple[str, ...] | list[str]) -> list[Group]:
        """The groups named on the command line (--group), in pack order; all when none."""
        if not names:
            return list(self.groups)
        known = {g.id for g in self.groups}
        unknown = [name for name in names if name not in known]
        if unknown:
            raise BuildError(f"{self.id} has no group {', '.join(repr(u) for u in unknown)}; "
                             f"its groups are {', '.join(g.id for g in self.groups)}")
        return [g for g in self.groups if g.id in names]

    def group_data(self) -> dict:
        """What templates and handouts read as `groups` / `group`: per group its total, its
        items in order, and each item by id (fields, id, copies), so a number lives on one item
        and every face or handout that shows it reads it from there."""
        out = {}
        for group in self.groups:
            items = [{"id": i.id, "copies": i.copies, **i.data} for i in group.items]
            out[group.id] = {"total": group.total, "items": items, **{i["id"]: i for i in items}}
        return out
