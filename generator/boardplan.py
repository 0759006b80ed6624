"""A pack's boards + the options resolved for them -> how each board is printed, decided once per
build and handed down (to the list of documents, to their pages, to the reprint list):

- `whole`: it fits the paper with its bleed (either way round), laid out like a card, several to
  a sheet where they fit;
- `pieces`: a board shaped of rectangles (an L-shaped ocean) too large for the paper whose
  rectangles each fit: cut apart, and the rectangles laid out like cards;
- `tiled`: anything else larger than the paper, in overlapping page-sized pieces (tiling.py);
- `print-shop`: with --paper face, a page of its own size per face, like every other face.
"""
from __future__ import annotations

from dataclasses import dataclass

from .impose import Options, Run, fits_on_a_sheet
from .manifest import PRINT_SHOP
from .model import Group
from .render import expand_faces


@dataclass(frozen=True)
class BoardPlan:
    how: str                        # whole | pieces | tiled | print-shop
    pieces: tuple[Run, ...] = ()    # `pieces`: a run per rectangle of each copy

    @property
    def laid_like_cards(self) -> bool:
        """Laid out on shared sheets with other boards, rather than in a file of its own."""
        return self.how in ("whole", "pieces")


class BoardPlans(dict):
    """Board group id -> how it is printed, each decided once, when a stage first asks for it
    (as request.GroupOptions resolves options: a print shop's exist only for the groups it sells)."""

    def __init__(self, groups: list[Group], options: dict[str, Options]):
        super().__init__()
        self.groups, self.options = {g.id: g for g in groups if g.kind == "mat"}, options

    def __missing__(self, group_id: str) -> BoardPlan:
        plan = self[group_id] = plan_board(self.groups[group_id], self.options[group_id])
        return plan


def plan_boards(groups: list[Group], options: dict[str, Options]) -> BoardPlans:
    """How each board (kind: mat) of `groups` is printed, with the options resolved for it."""
    return BoardPlans(groups, options)


def plan_board(group: Group, opts: Options) -> BoardPlan:
    if opts.paper == PRINT_SHOP:
        return BoardPlan("print-shop")
    if fits_on_a_sheet(_one_face(group, opts), opts):
        return BoardPlan("whole")
    pieces = _in_pieces(group, opts)
    return BoardPlan("pieces", tuple(pieces)) if pieces else BoardPlan("tiled")


def _one_face(group: Group, opts: Options) -> Run:
    """The board's size and shape as a run, to ask whether one face fits a sheet."""
    return Run(group.id, group.name or group.id, [group], None, group.width, group.height, group.shape,
               group.orientation, opts.bleed, opts.cuts)


def _in_pieces(group: Group, opts: Options) -> list[Run] | None:
    """A board shaped of rectangles too large for the paper, as its rectangles cut apart, when
    each of them fits the paper; else None, and the board is tiled."""
    if group.shape != "polygon":
        return None
    from .tiling import parts_of          # (only boards larger than the paper)
    runs = []
    for face in expand_faces(group)[0]:
        parts = parts_of(face, group.points, group.width, group.height)
        if not parts:
            return None
        for part in parts:
            runs.append(Run(group.id, f"{group.name} (in {part.count} pieces)", [part], None, part.w, part.h,
                            "rect", "pointy", opts.bleed, "separate", why="a board's pieces are cut apart"))
    return runs if all(fits_on_a_sheet(run, opts) for run in runs) else None
