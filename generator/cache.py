"""Faces cached by what they are made of, so a rebuild after an edit renders only changed faces.

A face's SVG is a function of: its template and every template that one includes or imports
(their source text), the item's data and player, the face's geometry, side and bleed, the game's
fonts, icons and palette, --lenient, and only where a template reads them, `game` and `groups`
(a card showing another group's numbers re-renders when those change; the others don't). All of
that is hashed into the face's key; the cache maps keys to the rendered SVG with the warnings
and notes its rendering gave, so a cached face reports exactly what a fresh one would. What a
face is drawn from is thus the same bytes either way: PDFs and previews built through the cache
are identical to a clean build's.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from jinja2 import meta

from .render import FaceRef, FaceRenderer

READS_GAME = ("game", "groups")       # context parts hashed only for templates that read them


@dataclass(frozen=True)
class Rendered:
    svg: str
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


class FaceCache:
    """Rendered faces by key, kept across the builds of one process (pnpgen preview --watch)."""

    def __init__(self) -> None:
        self.faces: dict[str, Rendered] = {}
        self.templates: dict[tuple[str, str], tuple[frozenset, tuple]] = {}
        self.renders = 0            # faces actually rendered (not found in the cache)

    def renderer(self, game, bleed: float, lenient: bool = False) -> "CachedRenderer":
        return CachedRenderer(game, bleed, lenient, self)


def renderer_for(game, bleed: float, lenient: bool, cache: FaceCache | None) -> FaceRenderer:
    """A plain renderer for one-off builds, a cached one where a FaceCache is kept."""
    return cache.renderer(game, bleed, lenient) if cache is not None else FaceRenderer(game, bleed, lenient)


def digest(value) -> str:
    """A stable hash of plain data; key order counts (a template may loop over a mapping)."""
    text = json.dumps(value, default=repr, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class CachedRenderer(FaceRenderer):
    """FaceRenderer that looks each face up by its key before rendering it."""

    def __init__(self, game, bleed: float, lenient: bool, cache: FaceCache):
        super().__init__(game, bleed, lenient)
        self.store = cache
        self.notes: dict[tuple, tuple[str, ...]] = {}     # face key -> e.g. text set smaller
        self._templates: dict[str, tuple[str, frozenset]] = {}
        self._game_key = digest([
            sorted((k, [f.family, f.bold, f.italic]) for k, f in game.fonts.items()),
            sorted((k, [i.view_box, i.markup]) for k, i in game.icons.items()),
            game.palette, lenient, bleed])
        self._parts = {"game": digest(self.game_data), "groups": digest(self.groups)}

    def _render(self, face: FaceRef) -> str:
        key = self.face_key(face)
        hit = self.store.faces.get(key)
        if hit is None:
            warned, noted = len(self.helpers.warnings), len(self.helpers.shrunk)
            svg = super()._render(face)
            hit = self.store.faces[key] = Rendered(svg, tuple(self.helpers.warnings[warned:]),
                                                   tuple(self.helpers.shrunk[noted:]))
            self.store.renders += 1
        else:
            self.helpers.warnings.extend(hit.warnings)
        self.notes[face.key] = hit.notes
        return hit.svg

    def face_key(self, face: FaceRef) -> str:
        group, item = face.group, face.item
        name = group.template if face.side == "front" else group.back_template
        source, reads = self._template(name)
        return digest([
            source, self._game_key, [self._parts[p] for p in READS_GAME if p in reads],
            face.side, item.id, item.data, item.player.__dict__ if item.player else None,
            [group.id, group.kind, group.shape, group.orientation, group.width, group.height,
             group.corner_radius, group.points]])

    def _template(self, name: str) -> tuple[str, frozenset]:
        """(hash of the sources of the template and all it includes, the context names they read)."""
        if name not in self._templates:
            sources, reads, todo, dynamic = {}, set(), [name], False
            while todo:
                current = todo.pop()
                if current in sources:
                    continue
                source = self.env.loader.get_source(self.env, current)[0]
                sources[current] = source
                names, refs = self._parsed(current, source)
                reads |= names
                dynamic |= None in refs
                todo += [r for r in refs if r is not None]
            if dynamic:        # {% include some_variable %}: any template may be the one
                sources = {n: self.env.loader.get_source(self.env, n)[0] for n in self.env.list_templates()}
            self._templates[name] = (digest(sorted(sources.items())), frozenset(reads))
        return self._templates[name]

    def _parsed(self, name: str, source: str) -> tuple[frozenset, tuple]:
        key = (name, hashlib.sha256(source.encode()).hexdigest())
        if key not in self.store.templates:
            tree = self.env.parse(source)
            self.store.templates[key] = (frozenset(meta.find_undeclared_variables(tree)),
                                         tuple(meta.find_referenced_templates(tree)))
        return self.store.templates[key]
