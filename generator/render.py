"""Model items -> faces (one per copy and side) -> SVG documents from the Jinja2 templates.

An SVG document's user unit is the millimetre, with (0, 0) at the face's trim top-left and the
viewBox widened by the bleed, so a template draws past the cut line by drawing past its edges.
"""
from __future__ import annotations

import contextlib
import signal
import threading
import traceback
from dataclasses import dataclass

import jinja2

from . import interrupt, svgcheck, templating
from .errors import BuildError, plain_words
from .model import Game, Group, Item
from .textfit import TextFitError

SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" width="{W:.3f}mm" height="{H:.3f}mm" '
            'viewBox="{x:.3f} {y:.3f} {W:.3f} {H:.3f}">')


TEMPLATE_SECONDS = 10      # one face; a template looping for longer is a bug or an attack


class TemplateTimeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float, message: str):
    """Interrupt the block after `seconds` (main thread only, where signals are delivered)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TemplateTimeout(message)
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class FaceRef:
    group: Group
    item: Item
    side: str            # 'front' | 'back'

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.group.id, self.item.id, self.side)


def expand_faces(group: Group) -> tuple[list[FaceRef], list[FaceRef] | None]:
    """Every printed copy of a group, fronts and (for two-sided groups) the matching backs."""
    fronts = [FaceRef(group, item, "front") for item in group.items for _ in range(item.copies)]
    backs = [FaceRef(f.group, f.item, "back") for f in fronts] if group.back_template else None
    return fronts, backs


class FaceRenderer:
    """Renders each distinct face once; copies share the cached document."""

    def __init__(self, game: Game, bleed: float, lenient: bool = False):
        self.game, self.bleed = game, bleed
        self.env = templating.environment(game.root)
        self.helpers = templating.Helpers(game, lenient)
        self.cache: dict[tuple, str] = {}
        self.game_data = templating.read_only({
            "id": game.id, "title": game.title, "palette": game.palette,
            "players": [p.__dict__ for p in game.players], "notes": game.notes, "data": game.data})
        self.palette = self.game_data["palette"]
        self.groups = templating.read_only(game.group_data())

    @property
    def warnings(self) -> list[str]:
        return self.helpers.warnings

    def svg(self, face: FaceRef) -> str:
        key = face.key
        cached = self.cache.get(key)
        if cached is None:
            cached = self.cache[key] = self._render(face)
        return cached

    def _render(self, face: FaceRef) -> str:
        group, item = face.group, face.item
        name = group.template if face.side == "front" else group.back_template
        bleed = self.bleed
        context = {      # read-only: a template cannot change what the next face is given
            "item": templating.read_only({"id": item.id, **item.data}),
            "player": templating.read_only(item.player.__dict__) if item.player else None,
            "game": self.game_data, "palette": self.palette, "groups": self.groups,
            "face": templating.read_only({
                "width": group.width, "height": group.height, "bleed": bleed, "side": face.side,
                "kind": group.kind, "shape": group.shape, "orientation": group.orientation,
                "group": group.id, "corner_radius": group.corner_radius}),
            "outline": lambda grow=0.0: group.outline(grow).svg_d(),
            **self.helpers.bind(),
        }
        where = face_where(face)
        self.helpers.face = where
        try:
            with interrupt.immediate(), time_limit(TEMPLATE_SECONDS, f"template {name} ran for more than {TEMPLATE_SECONDS} s"):
                body = self.env.get_template(name).render(context)
        except (jinja2.TemplateError, TextFitError, TypeError, ValueError, ZeroDivisionError,
                AttributeError, KeyError, RecursionError, TemplateTimeout) as exc:
            raise BuildError(f"{where}: {_where(exc, name)}{_message(exc)}") from None
        unknown = svgcheck.problems(body)
        if unknown:
            raise BuildError(f"{where}: template {name}: {unknown[0]}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))
        head = SVG_HEAD.format(W=group.width + 2 * bleed, H=group.height + 2 * bleed, x=-bleed, y=-bleed)
        return head + body + "</svg>"


def face_where(face: FaceRef) -> str:
    """How errors and warnings name a face: its item's place in the manifest, group, item, side."""
    return f"{face.item.mark}: group '{face.group.id}', item '{face.item.id}' ({face.side})"


def _where(exc: BaseException, template: str) -> str:
    """'template.svg.j2 line N: ' from the traceback frames Jinja2 maps onto template lines."""
    line = getattr(exc, "lineno", None)
    if not line:
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if frame.filename.endswith(template.split("/")[-1]):
                line = frame.lineno
                break
    return f"template {template}{f' line {line}' if line else ''}: "


def _message(exc: BaseException) -> str:
    text = plain_words(getattr(exc, "message", None) or str(exc))
    if isinstance(exc, jinja2.UndefinedError):
        return f"{text}; check the name, or add the field to the item"
    return text
