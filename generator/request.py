"""What a build is asked for (BuildRequest), how it reports progress, and the options each
group is printed with: resolved once where a build, validate or preview starts (group_options)
and handed down, so no later stage goes back up to derive them again.

Below build.py: validate, preview, export and the changes commands read these from here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .impose import Options
from .manifest import PAPERS, PRINT_SHOP
from .model import Game, Group
from .presets import shop_options

if TYPE_CHECKING:
    from .cache import FaceCache
    from .changes import Baseline


@dataclass
class BuildRequest:
    paper: str | None = None
    duplex: str | None = None
    bleed: float | None = None
    marks: str | None = None
    out_dir: Path = Path("output")
    lenient: bool = False
    cuts: str | None = None
    preset: str | None = None      # --paper face: a print shop's page sizes (presets.py)
    groups: tuple[str, ...] = ()   # --paper face: only these groups (all when empty)
    face_cache: FaceCache | None = None      # kept across builds by pnpgen preview --watch
    changes_since: Baseline | None = None    # --changes-since: also write <game>-changes.pdf
    tuck_boxes: str | None = None            # --tuck-boxes: card thickness (tuckbox.card_thickness)
    back_offset: dict | None = None          # duplex mode -> (x, y) mm every back page moves (printer.py)
    version: str | None = None               # --version: instead of game.yaml's


class Progress:
    """What build() reports while it works; the CLI shows it, library users may ignore it."""

    def start(self, total: int, label: str) -> None: ...
    def advance(self, n: int = 1) -> None: ...
    def finish(self) -> None: ...


class GroupOptions(dict):
    """Group id -> the Options it is printed with, each resolved once, when a stage first asks
    for it: a print shop's options exist only for the groups it sells, the only ones printed."""

    def __init__(self, game: Game, request: BuildRequest):
        super().__init__()
        self.game, self.request = game, request
        self.groups = {group.id: group for group in game.groups}

    def __missing__(self, group_id: str) -> Options:
        options = self[group_id] = options_for(self.game, self.groups[group_id], self.request)
        return options


def group_options(game: Game, request: BuildRequest) -> GroupOptions:
    return GroupOptions(game, request)


def options_for(game: Game, group: Group, request: BuildRequest) -> Options:
    """Command line beats the group's own setting, which beats the game's defaults."""
    d = game.defaults
    paper = request.paper or d["paper"]
    bleed = request.bleed if request.bleed is not None else group.bleed if group.bleed is not None else d["bleed"]
    cuts = request.cuts or group.cuts or d["cuts"]
    if paper == PRINT_SHOP and request.preset:
        return shop_options(group, request.preset)
    if paper == PRINT_SHOP:      # the page is the face plus its bleed
        return Options(paper=paper, page_width=group.width + 2 * bleed, page_height=group.height + 2 * bleed,
                       margin=0.0, bleed=bleed, duplex="long", marks="none", cuts=cuts)
    return Options(paper=paper, page_width=PAPERS[paper]["width"], page_height=PAPERS[paper]["height"],
                   margin=d["margin"], bleed=bleed, duplex=request.duplex or d["duplex"],
                   marks=request.marks or d["marks"], cuts=cuts)
