"""What an export is asked to do, what it gives back, and the choices every format shares."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BuildError
from ..model import Game, Group


@dataclass
class ExportRequest:
    out_dir: Path = Path("output")
    dpi: float | None = None          # None: the format's default
    preset: str | None = None         # print-shop preset id (png)
    bleed: float | None = None        # None: the pack's
    groups: tuple[str, ...] = ()      # only these groups (all when empty)
    max_px: int = 4096                # tts: no image side over this
    base_url: str | None = None       # tts: where the images will be hosted (file:// otherwise)
    image_folder: str | None = None   # tts: the folder the images will sit in on the machine running TTS
    lenient: bool = False
    version: str | None = None        # --version: instead of game.yaml's


@dataclass
class ExportResult:
    game: Game
    folder: Path
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)     # what the user should know or do next


def selected_groups(game: Game, request: ExportRequest) -> list[Group]:
    """The groups asked for with --group (all when none), each name checked."""
    return game.select(request.groups)


def pack_bleed(game: Game, group: Group, request: ExportRequest) -> float:
    """Command line beats the group's own bleed, which beats the game's default (as in build)."""
    if request.bleed is not None:
        return request.bleed
    return group.bleed if group.bleed is not None else game.defaults["bleed"]
