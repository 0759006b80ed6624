"""A game pack -> every problem `build` would meet, found without writing a file: the manifests
checked, every distinct face rendered through its template (and its SVG checked for unknown
colours and fonts), the sheets planned (a face too large for the paper), the art of every card
group's tuck box rendered (as `build --tuck-boxes` draws it), the map generated and drawn, the
handout typeset in memory.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .build import layout_problems, tuck_boxes
from .request import BuildRequest, Progress, group_options
from .errors import BuildError, ManifestError, display_path
from .manifest import load_pack
from .model import Game
from .parallel import in_halves
from .render import (MAX_ELEMENTS, FaceRef, FaceRenderer, Renderers, TemplateTooSlow, drawn_elements, face_place,
                     too_many_elements)


@dataclass
class Validation:
    game: Game
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    faces: int = 0


def validate(pack_root: Path, request: BuildRequest | None = None, progress: Progress | None = None) -> Validation:
    """Raises ManifestError for manifest problems; the rest (faces, map, handout) are listed."""
    request = request or BuildRequest()
    progress = progress or Progress()
    game = load_pack(pack_root)
    result = Validation(game)
    options = group_options(game, request)
    faces = _printed_faces(game, request, options)
    progress.start(len(faces), f"{game.id} (validate)")
    _render_every_face(faces, result, progress)
    progress.finish()
    result.errors += layout_problems(game, request, options)
    _check_tuck_boxes(game, request, result)
    if (game.root / "map.yaml").is_file():
        _check_map(game, result)
    if (game.root / "handout.yaml").is_file():
        _check_handout(game, result)
    return result


def _printed_faces(game: Game, request: BuildRequest, options: dict) -> list[tuple[FaceRenderer, FaceRef]]:
    """Every distinct face build would draw, with the renderer of its group."""
    faces = []
    for group in game.groups:
        renderer = FaceRenderer(game, options[group.id].bleed, request.lenient)
        sides = ("front", "back") if group.back_template else ("front",)
        faces += [(renderer, FaceRef(group, item, side)) for item in group.items if item.copies for side in sides]
    return faces


def _render_every_face(faces: list, result: Validation, progress: Progress) -> None:
    """Rendered on both cores: each half's errors and warnings come back in face order. A fault
    of a template met on many faces is reported once, with the number of faces it affects."""
    renderers = Renderers({id(r): r for r, _ in faces})

    def render(start: int, end: int, advance) -> tuple[int, list[tuple[str, str]], list]:
        known = renderers.known()
        done, errors, too_slow = 0, [], {}
        drawn, elements = set(), [0]
        for renderer, face in faces[start:end]:
            where, template = face_place(face), _template_of(face)
            try:
                if template in too_slow:    # it would run out of time again: told as the same fault
                    errors.append((where, too_slow[template]))
                else:
                    svg = renderer.svg(face)
                    done += 1
                    if svg not in drawn:        # bounded as drawing it would be (pdfwrite)
                        drawn.add(svg)
                        elements[0] += drawn_elements(svg)
                        if elements[0] > MAX_ELEMENTS:
                            errors.append((where, _without(where, too_many_elements(where, svg))))
                            break
            except TemplateTooSlow as exc:
                too_slow[template] = _without(where, str(exc))
                errors.append((where, too_slow[template]))
            except BuildError as exc:
                errors.append((where, _without(where, str(exc))))
            advance(1)
        return done, errors, renderers.told_since(known)

    halves = in_halves(len(faces), render, progress.advance)
    for done, errors, told in halves[1:]:
        renderers.hear(told)
    found = []
    for done, errors, _ in halves:
        result.faces += done
        found += errors
    result.errors += once_each(found)
    result.warnings += [w for r in renderers.values() for w in r.warnings]


def _template_of(face: FaceRef) -> tuple[str, str]:
    return face.group.id, face.group.template if face.side == "front" else face.group.back_template


def _without(where: str, text: str) -> str:
    """A face's error without the face's place in front (the rest says what is wrong)."""
    return text[len(where) + 2:] if text.startswith(where + ": ") else text


def once_each(errors: list[tuple[str, str]]) -> list[str]:
    """(face place, problem) pairs -> a line per distinct problem, at its first place, with how
    many more items have it: a template's mistake is told once, not once per card."""
    places: dict[str, list[str]] = {}           # problem -> the places of its faces, in order
    for where, problem in errors:
        places.setdefault(problem, []).append(where)
    lines = []
    for problem, wheres in places.items():
        more = len({w.rsplit(" (", 1)[0] for w in wheres}) - 1      # items: front and back count once
        lines.append(f"{wheres[0]}: {problem}"
                     + (f" (the same on {more:,} more item{'s' if more > 1 else ''})" if more else ""))
    return lines


def _check_tuck_boxes(game: Game, request: BuildRequest, result: Validation) -> None:
    """The front, back and spines of the card groups' tuck boxes (tuckbox/*.svg.j2, the pack's own
    or the shared ones), rendered as build draws them. The boxes this build draws (the groups'
    own tuck_box, or --tuck-boxes) are held to everything build holds them to; every other card
    group's box (as --tuck-boxes would add it) is rendered leniently, so a template's mistake is
    found before anyone asks for boxes, while text too long for a box nobody asked for is not."""
    from .tuckbox import box_for, net
    from .tuckbox_draw import art_faces
    bleed = request.bleed if request.bleed is not None else game.defaults["bleed"]
    drawn = tuck_boxes(game, request.tuck_boxes)
    others = [(g, t) for g, t in tuck_boxes(game, "") if g.id not in {d.id for d, _ in drawn}]
    strict, lenient = FaceRenderer(game, bleed, request.lenient), FaceRenderer(game, bleed, True)
    found = []
    for renderer, boxes in ((strict, drawn), (lenient, others)):
        for group, thickness in boxes:
            box = box_for(group.width, group.height, group.total, thickness)
            for face in art_faces(group, box, net(box)).values():
                try:
                    renderer.svg(face)
                except BuildError as exc:       # TemplateTooSlow too
                    where = face_place(face)
                    found.append((where, _without(where, str(exc))))
    result.errors += once_each(found)
    result.warnings += strict.warnings


def _check_map(game: Game, result: Validation) -> None:
    from .maps import engine
    from .maps.output import render_layout
    try:
        layout = engine.generate(game.root, game.defaults["map_seed"])
        render_layout(layout, game.title)
    except (engine.MapError, BuildError) as exc:
        text, where = str(exc), display_path(game.root / "map.yaml")
        result.errors.append(text if text.startswith((where, str(game.root))) else f"{where}: map: {text}")


def _check_handout(game: Game, result: Validation) -> None:
    from .handout import handout_pdf, source_for
    from .manifest import PAPERS
    paper = PAPERS[game.defaults["paper"]]
    try:
        handout_pdf(source_for(game.root), (paper["width"], paper["height"]))
    except ManifestError as exc:
        result.errors += [str(p) for p in exc.problems]
