"""Model items -> faces (one per copy and side) -> SVG documents from the Jinja2 templates.

An SVG document's user unit is the millimetre, with (0, 0) at the face's trim top-left and the
viewBox widened by the bleed, so a template draws past the cut line by drawing past its edges.
"""
from __future__ import annotations

import bisect
import hashlib
import itertools
import html
import re
import weakref
import xml.etree.ElementTree as ET
import xml.parsers.expat
from collections.abc import Sequence
from dataclasses import dataclass

import jinja2

from . import art, interrupt, onface, svgcheck, templating
from .sandbox import FaceFields, Palette, read_only, read_only_item
from .errors import BuildError, plain_words
from .facedoc import Document, Face, RunTable, opened
from .specialize import specialized
from .model import Game, Group, Item
from .textfit import TextFitError
from .timelimit import TemplateTimeout, face_batch, time_limit  # noqa: F401 (handout.py's, build.py's)

SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" width="{W:.3f}mm" height="{H:.3f}mm" '
            'viewBox="{x:.3f} {y:.3f} {W:.3f} {H:.3f}">')


TEMPLATE_SECONDS = 10      # one face; a template looping for longer is a bug or an attack
MAX_FACE_CHARS = 16_000_000   # one face's SVG; the largest built-in board is far below



SPECIALIZE_AT = 256         # items in a group from which its templates are specialized: a compile (~4 ms)
                            # against ~20 us saved a face
MAX_DOCUMENTS = 64          # distinct markups of one renderer kept parsed (cards of a template share one)
MAX_DOCUMENT_CHARS = 1_000_000     # ... and their characters in all
MAX_ELEMENTS = 1_000_000    # SVG elements of the distinct faces one PDF (or part) draws: ~20 s of cairo


def drawn_elements(svg: str) -> int:
    return svg.elements() if type(svg) is Face else opened(svg)     # (a Face counted from its parts)


def too_many_elements(place: str, svg: str) -> str:
    return (f"{place}: the distinct faces drawn into this PDF hold more than {MAX_ELEMENTS:,} SVG elements, "
            f"the limit (this face {drawn_elements(svg):,}); use a simpler icon (fewer paths), or draw it on "
            "fewer faces")

class TemplateTooSlow(BuildError):
    """A face's template ran past TEMPLATE_SECONDS: its other faces would too (validate skips them)."""


@dataclass(frozen=True, slots=True, init=False)    # made each time a sheet or the writer asks: ~6 a face
class FaceRef:
    group: Group
    item: Item
    side: str            # 'front' | 'back'

    def __init__(self, group: Group, item: Item, side: str):
        # the slots set through their descriptors: a frozen dataclass's own __init__ calls
        # object.__setattr__ for each, 0.2 us more a face made
        _SET_GROUP(self, group)
        _SET_ITEM(self, item)
        _SET_SIDE(self, side)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.group.id, self.item.id, self.side)


_SET_GROUP, _SET_ITEM, _SET_SIDE = FaceRef.group.__set__, FaceRef.item.__set__, FaceRef.side.__set__


def expand_faces(group: Group) -> tuple[list[FaceRef], list[FaceRef] | None]:
    """Every printed copy of a group, fronts and (for two-sided groups) the matching backs."""
    fronts = [FaceRef(group, item, "front") for item in group.items for _ in range(item.copies)]
    backs = [FaceRef(f.group, f.item, "back") for f in fronts] if group.back_template else None
    return fronts, backs


class Copies(Sequence):
    """The faces of one side of every printed copy of some items, in order, each FaceRef made when
    it is asked for: what a build lays out and draws (50,000 cards' fronts and backs were 100,000
    objects that the plan held and each drawing process touched). `parts`: (group, its items)."""

    def __init__(self, side: str, parts: list[tuple[Group, list[Item]]]):
        self.side, self.parts = side, parts
        self._starts: list[int] = []        # each part's first index
        self._ends: list[list[int] | None] = []     # per part, where each item's copies end; None: one each
        total = 0
        for _, items in parts:
            self._starts.append(total)
            single = all(item.copies == 1 for item in items)
            self._ends.append(None if single else list(itertools.accumulate(item.copies for item in items)))
            total += len(items) if single else (self._ends[-1][-1] if items else 0)
        self._len = total
        # one part, one copy of each item (a deck): a face is its item's, found without a search
        self._single = parts[0] if len(parts) == 1 and self._ends[0] is None else None

    @classmethod
    def of(cls, group: Group, items: list[Item] | None = None) -> tuple["Copies", "Copies | None"]:
        """expand_faces(group) made when asked for; only `items` (of the group) when given."""
        parts = [(group, group.items if items is None else items)]
        return cls("front", parts), (cls("back", parts) if group.back_template else None)

    @classmethod
    def joined(cls, sides: list["Copies"]) -> "Copies":
        """The copies one after the other (runs of alike groups packed together)."""
        return cls(sides[0].side, [part for copies in sides for part in copies.parts])

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):
        if self._single is not None and type(index) is int and 0 <= index < self._len:
            return FaceRef(self._single[0], self._single[1][index], self.side)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        at = bisect.bisect_right(self._starts, index) - 1
        (group, items), ends, index = self.parts[at], self._ends[at], index - self._starts[at]
        return FaceRef(group, items[index if ends is None else bisect.bisect_right(ends, index)], self.side)


class FaceRenderer:
    """Renders each distinct face once; copies share the cached document."""

    shares_faces = True       # items whose face reads nothing of them share one rendering

    def __init__(self, game: Game, bleed: float, lenient: bool = False):
        self.game, self.bleed = game, bleed
        self.env = templating.environment(game.root)
        self.helpers = templating.Helpers(game, lenient)
        self.helpers.runs = RunTable()      # the helpers' runs reach the drawing as they are
        self.env.trusted_calls = frozenset(self.helpers.bind().values())
        self.cache: dict[tuple, str] = {}
        self._documents: dict[str, Document] = {}     # markup -> its parsed document (_keep)
        self._kept_chars = 0
        self._settings: dict[tuple, tuple] = {}     # (group, side) -> _setting's answer
        self.told: dict[tuple, tuple[str, tuple[str, ...]]] = {}   # face key -> (its place, its warnings)
        self._shared: dict[tuple, tuple] = {}     # shared key -> the face key first rendered for it
        self._reads: dict[tuple, bool] = {}      # (template, names) -> whether it reads any of them
        self._limits: dict[str, time_limit] = {}     # template -> the time limit of its faces
        self._heads: dict[str, str] = {}     # group -> its faces' <svg> tag
        self._last_markup: dict[tuple, tuple] = {}   # (group, template) -> (blocks, output, markup) of its last face
        self.heard_digests: dict[tuple, str] = {}   # face key -> digest, of faces another process rendered
        self.game_data = read_only({
            "id": game.id, "title": game.title, "version": game.version,
            "palette": Palette(read_only(game.palette)),
            "players": [p.__dict__ for p in game.players], "notes": game.notes, "data": game.data})
        self.palette = self.game_data["palette"]

    @property
    def warnings(self) -> list[str]:
        return self.helpers.warnings

    @property
    def groups(self) -> dict:
        """`groups` as templates read it: every group's items, made when a template first reads it
        (50,000 cards: 30 MB)."""
        return _template_groups(self.game)

    def reads(self, name: str, names: tuple[str, ...]) -> bool:
        """Whether template `name` (or one it includes or imports) reads any of `names`."""
        if (name, names) not in self._reads:
            self._reads[name, names] = templating.reads_any(self.env, name, names)
        return self._reads[name, names]

    def svg(self, face: FaceRef) -> str:
        key = face.key
        cached = self.cache.get(key)
        if cached is None:
            same = self._shared_key(face) if self.shares_faces else key
            shared = self._shared.get(same)
            if shared is None:
                said = len(self.helpers.said)
                cached = self._render(face)
                self.told[key] = (self.helpers.face, tuple(self.helpers.said[said:]))
                self._shared[same] = key
            else:        # the same face as one rendered already (a common back): told again, here
                cached, messages = self.cache[shared], self.told[shared][1]
                self.helpers.face = face_place(face)
                for message in messages:
                    self.helpers.warn(message)
                self.told[key] = (self.helpers.face, messages)
            self.cache[key] = cached
        return cached

    def identity(self, face: FaceRef):
        """What tells two faces apart when they are drawn (equal: drawn once, painted twice): here
        the SVG itself; a renderer that knows faces by their inputs says less."""
        return self.svg(face)

    def keep(self, face: FaceRef) -> str:
        """svg(face), kept to be drawn later (here every face is kept)."""
        return self.svg(face)

    def seen(self, face: FaceRef) -> None:
        """The face is drawn (painted from another's drawing): told about as svg(face) would."""
        self.svg(face)

    def digest(self, face: FaceRef) -> str:
        return face_digest(self.svg(face))

    def known_keys(self) -> set:
        """The keys of the faces rendered here so far."""
        return set(self.told)

    def _shared_key(self, face: FaceRef) -> tuple:
        """A face whose templates never read the item nor its player is the same for every item of
        its group: rendered once, as (group, side)."""
        name = face.group.template if face.side == "front" else face.group.back_template
        return face.key if self.reads(name, ("item", "player")) else (face.group.id, None, face.side)

    def told_since(self, known: set) -> list[tuple]:
        """What rendering each face not in `known` said, in the order they were rendered:
        (key, face place, warnings), faces that said nothing left out. A drawing worker sends
        this back to its parent."""
        return [(key, *said) for key, said in self.told.items() if said[1] and key not in known]

    def digests(self, known: set = frozenset()) -> dict[tuple, str]:
        """Face key -> face_digest of its SVG, for each face rendered here and not in `known`,
        and those heard from other processes: what a face shows, wherever it is placed."""
        by_document: dict[int, str] = {}          # a shared face's one SVG is hashed once
        out = dict(self.heard_digests)
        for key, svg in self.cache.items():
            if key not in known:
                if id(svg) not in by_document:
                    by_document[id(svg)] = face_digest(svg)
                out[key] = by_document[id(svg)]
        return out

    def hear(self, told: list[tuple], digests: dict | None = None) -> None:
        """Warnings of faces rendered in another process, said here as if rendered here (a face
        both processes rendered counts once), and their digests."""
        self.heard_digests.update(digests or {})
        for key, place, messages in told:
            if key in self.told:
                continue
            self.told[key] = (place, messages)
            self.helpers.face = place
            for message in messages:
                self.helpers.warn(message)

    def _render(self, face: FaceRef) -> str:
        group, item = face.group, face.item
        name, context, template = self._setting(face)
        context = context.copy()        # read-only values: a template cannot change what the next face is given
        context["item"] = read_only_item(item.id, item.data)
        context["player"] = read_only(item.player.__dict__) if item.player else None
        where = face_place(face)
        self.helpers.face, self.helpers.bounds = where, (group.width, group.height)
        runs = self.helpers.runs
        body = self._output(name, context, where, template)
        head = self._head(group)
        body, markup = self._same_markup(group, name, body) or self._markup(body, name, context, where, template, group, head)
        doc = self._document(markup, runs)      # once per markup: every check below reads its tree
        if doc is None:            # told as the SVG the blocks write reads (markup as the fallback)
            problem = (well_formed_problem(runs.written(markup), self.env, name, len(head))
                       or well_formed_problem(markup, self.env, name, len(head)))
            raise BuildError(f"{where}: {problem}")
        blocks = tuple(runs.blocks)
        nonce = runs.nonce if blocks else ""       # (none: the helpers wrote SVG text)
        off = onface.outside(doc.root, body, self.helpers.placed, group.width, group.height, nonce,
                             lambda text: _template_line(self.env, name, text), blocks)
        if off and not self.helpers.lenient:
            raise BuildError(f"{where}: template {name}{off}")
        if off:                 # --lenient: printed as drawn (cut at the trim), and told
            self.helpers.warn(f"template {name}{off}")
        unknown = self._problems(doc, blocks, nonce)
        if unknown:
            written, problem = unknown[0]
            raise BuildError(f"{where}: template {name}{_template_line(self.env, name, written)}: {problem}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))
        if markup not in self._documents:
            doc.root = None         # not kept (too large): the drawing parses it again, as it did before
        if blocks and not (doc.spliced and _inline_icons_alone(blocks)):
            return runs.written(markup)     # a block where no drawing operation can stand: as SVG text
        return runs.face(doc)

    def _same_markup(self, group: Group, name: str, output: str) -> tuple[str, str] | None:
        """The last face's (body, markup) when this face's template gave the same output with as
        many blocks (a deck's cards most often do: the helpers' text stands behind placeholders),
        else None. The same strings again: their checks and their hash are not worked out anew."""
        last = self._last_markup.get((group.id, name))
        if last is not None and last[0] == len(self.helpers.runs.blocks) and last[1] == output:
            return last[1], last[2]
        return None

    def _markup(self, body: str, name: str, context: dict, where: str, template, group: Group,
                head: str) -> tuple[str, str]:
        """(body, markup): the template's output as the face holds it (rendered again as SVG
        text where the template reworked a helper's output (|upper, slices...), pictures packed)
        and the face's SVG, its <svg> tag (`head`) around that. Remembered for the next face of the
        template when neither was needed (and the output is short)."""
        runs = self.helpers.runs
        if not runs.intact(body):
            body = self._pack_pictures(self._output_as_text(name, context, where, template), name, where)
        elif "<image" in body:          # (each face's pictures are loaded and noted: never remembered)
            body = self._pack_pictures(body, name, where)
        elif len(body) <= MAX_DOCUMENT_CHARS // 16:
            markup = head + body + "</svg>"
            self._last_markup[group.id, name] = (len(runs.blocks), body, markup)
            return body, markup
        return body, head + body + "</svg>"

    def _head(self, group: Group) -> str:
        """The face's <svg> tag: its size with the bleed (written once per group)."""
        head = self._heads.get(group.id)
        if head is None:
            bleed = self.bleed
            head = self._heads[group.id] = SVG_HEAD.format(W=group.width + 2 * bleed, H=group.height + 2 * bleed,
                                                           x=-bleed, y=-bleed)
        return head

    def _document(self, markup: str, runs) -> Document | None:
        """The face's markup parsed (facedoc.Document, shared by the faces of equal markup), or
        None when it is not well-formed XML. A comment holding a block is checked as the blocks
        are written (a '--' in the text would end it)."""
        doc = self._documents.get(markup)
        if doc is None:
            try:
                root = ET.fromstring(markup)
            except ET.ParseError:
                return None
            doc = Document(markup, root, runs.nonce)
            self._keep(doc)
        if runs.blocks and "<!--" in markup:
            try:
                xml.parsers.expat.ParserCreate().Parse(runs.written(markup), True)
            except xml.parsers.expat.ExpatError:
                return None
        return doc

    def _keep(self, doc: Document) -> None:
        """Keep a document for the faces of equal markup: the last MAX_DOCUMENTS, of at most
        MAX_DOCUMENT_CHARS of markup in all (a parsed tree is ~8 times its text); one dropped
        keeps its text (its faces' drawing parses it again)."""
        if len(doc.markup) > MAX_DOCUMENT_CHARS // 16:
            return
        kept = self._documents
        kept[doc.markup] = doc
        self._kept_chars += len(doc.markup)
        while len(kept) > MAX_DOCUMENTS or self._kept_chars > MAX_DOCUMENT_CHARS:
            oldest = kept.pop(next(iter(kept)))
            self._kept_chars -= len(oldest.markup)
            oldest.root = None

    def _problems(self, doc: Document, blocks: tuple, nonce: str) -> list[tuple[str, str]]:
        """svgcheck.tree_problems of the face: its markup's own elements checked once."""
        if doc.clean is None:
            doc.clean = not svgcheck.tree_problems(doc.root, self.palette)
        if not doc.clean:
            return svgcheck.tree_problems(doc.root, self.palette, blocks, nonce)
        return svgcheck.block_problems(doc.placeholders, blocks, self.palette) if nonce else []

    def _setting(self, face: FaceRef) -> tuple[str, dict, object]:
        """What is the same for every face of a group and side, worked out once: its template's
        name; the context a face's own `item` and `player` are set in (the template's globals,
        as templating.generate gives them, and the helpers bound, `face`, `outline`...); and the
        template it is rendered with (None: the template as it is)."""
        key = (face.group.id, face.side)
        setting = self._settings.get(key)
        if setting is None:
            group = face.group
            name = group.template if face.side == "front" else group.back_template
            context = {**templating.flat_globals(self.env), "item": None, "player": None,
                       "game": self.game_data, "palette": self.palette,
                       "groups": self.groups if self.reads(name, ("groups",)) else _NO_GROUPS,
                       "face": FaceFields(face_fields(face, self.bleed)),
                       "outline": lambda grow=0.0: group.outline(_grow(grow, group)).svg_d(),
                       **self.helpers.bind()}
            setting = self._settings[key] = (name, context, self._group_template(face, name, context))
        return setting

    def _group_template(self, face: FaceRef, name: str, context: dict):
        """The template a face of this group is rendered with: in a group of many items, with
        what it works out from `face`, `palette` and `game` alone done once (specialize.py);
        None: the template as it is."""
        many = len(face.group.items) >= SPECIALIZE_AT and self.reads(name, ("item", "player"))
        return specialized(self.env, name, context) if many else None

    def _output(self, name: str, context: dict, where: str, template=None) -> str:
        """The template's output for one face (rendered with `template` when given, a
        specialized copy of it), its helpers' runs in self.helpers.runs."""
        self.helpers.placed = onface.Placed()
        if self.helpers.runs is not None:
            self.helpers.runs.clear()
        try:
            with interrupt.immediate(), self._time_limit(name):
                return bounded_output(template or self.env.get_template(name), context, merged=True)
        except (jinja2.TemplateError, TextFitError, TypeError, ValueError, ArithmeticError, MemoryError, NameError, SyntaxError,
                AttributeError, KeyError, RecursionError, TemplateTimeout) as exc:
            raised = TemplateTooSlow if isinstance(exc, TemplateTimeout) else BuildError
            raise raised(f"{where}: {_where(exc, name)}{_message(exc)}") from None

    def _time_limit(self, name: str) -> "time_limit":
        """The time limit of a face of template `name` (one per template: it is entered again for
        each face, never inside itself)."""
        limit = self._limits.get(name)
        if limit is None:
            limit = self._limits[name] = time_limit(TEMPLATE_SECONDS, f"template {name} ran for more than {TEMPLATE_SECONDS} s")
        return limit

    def _output_as_text(self, name: str, context: dict, where: str, template=None) -> str:
        """The output again, the helpers writing their runs as SVG text (what the template then
        did to that text is what it prints, as before runs were kept apart); what the helpers
        said was said the first time."""
        helpers, table = self.helpers, self.helpers.runs
        said = helpers.remember()
        helpers.runs = None
        try:
            return self._output(name, context, where, template)
        finally:
            helpers.runs = table
            table.clear()
            helpers.forget_since(said)

    def _pack_pictures(self, body: str, name: str, where: str) -> str:
        """A raw <image href="art/x.png"> names a picture inside the pack: loaded and checked like
        image()'s, and pointed at by its digest (data: URLs and pictures image() placed stay)."""
        if "<image" not in body:
            return body

        def one(match):
            quote, value = match.group(2), html.unescape(match.group(3))
            if value.startswith(("data:", "#", art.HREF_PREFIX)) or _URL.match(value):
                return match.group(0)       # a URL: svgdraw's fallback refuses it, saying so
            try:
                href = self.helpers.picture(value).href
            except art.ArtError as exc:
                line = _template_line(self.env, name, match.group(3))
                raise BuildError(f"{where}: template {name}{line}: {exc}") from None
            return f"{match.group(1)}{quote}{href}{quote}"

        return _IMAGE_TAG.sub(lambda tag: _HREF.sub(one, tag.group(0)), body)


_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+:")
_IMAGE_TAG = re.compile(r"<image\b[^>]*>")
_HREF = re.compile(r"(\s(?:xlink:)?href\s*=\s*)([\"'])(.*?)\2", re.S)


class Renderers(dict):
    """Group id -> FaceRenderer of one document, as the drawing workers share them: each
    process renders the faces of its own pages, and the workers' warnings come back to the
    parent (render the same faces in any split and the same warnings are told, in order)."""

    def known(self) -> dict[str, set]:
        return {gid: r.known_keys() for gid, r in self.items()}

    def told_since(self, known: dict[str, set]) -> dict[str, tuple[list, dict]]:
        return {gid: (r.told_since(known[gid]), r.digests(known[gid])) for gid, r in self.items()}

    def hear(self, told: dict[str, tuple[list, dict]]) -> None:
        for gid, (said, digests) in told.items():
            self[gid].hear(said, digests)


_NO_GROUPS = read_only({})       # given to a template that never reads `groups`
_groups_made: tuple = (lambda: None, None)      # (weak reference to a game, its `groups`)


def _template_groups(game: Game) -> dict:
    """`groups` as templates read it, made once per game: every group's renderer shares it
    (a pack of 30 groups made it 30 times per document)."""
    global _groups_made
    if _groups_made[0]() is not game:
        _groups_made = (weakref.ref(game), read_only(game.group_data()))
    return _groups_made[1]


def face_fields(face: FaceRef, bleed: float) -> dict:
    """What a template reads as `face`."""
    group = face.group
    return {"width": group.width, "height": group.height, "bleed": bleed, "side": face.side, "kind": group.kind,
            "shape": group.shape, "orientation": group.orientation, "group": group.id,
            "corner_radius": group.corner_radius}


def face_digest(svg: str) -> str:
    """A face's content as 128 bits: equal digests, equal faces (build.json; changes.py compares them)."""
    return hashlib.sha256(svg.encode()).hexdigest()[:32]


def face_digest_bytes(svg: str) -> bytes:
    """face_digest as its 16 bytes (a streamed build keeps them so)."""
    return hashlib.sha256(svg.encode()).digest()[:16]


def face_place(face: FaceRef) -> str:
    """Where a face comes from, for messages: its item's file:line:col, group, item and side."""
    return f"{face.item.mark}: group '{face.group.id}', item '{face.item.id}' ({face.side})"


def drawn_face_place(face: FaceRef) -> str:
    """face_place with the template that drew it: for problems found while drawing its SVG."""
    name = face.group.template if face.side == "front" else face.group.back_template
    return f"{face_place(face)}: template {name}"


def _grow(grow, group) -> float:
    """outline(grow): a finite margin no larger than the face itself."""
    limit = max(group.width, group.height)
    if not isinstance(grow, (int, float)) or isinstance(grow, bool) or not abs(grow) <= limit:
        raise ValueError(f"outline({grow!r}): grow by a finite number of mm within ±{limit:g} (the face's size)")
    return grow


class OutputTooLarge(ValueError):
    pass


def bounded_output(template, context, limit: int = MAX_FACE_CHARS, what: str = "one face",
                   merged: bool = False) -> str:
    """The template's output, stopped as soon as it passes `limit` characters (not after);
    `merged`: the context holds the template's globals already (templating.generate)."""
    parts, size = [], 0
    for chunk in templating.generate(template, context, merged):
        size += len(chunk)
        if size > limit:
            raise OutputTooLarge(f"output is over {limit:,} characters for {what}; draw less, or use fewer repeats")
        parts.append(chunk)
    return "".join(parts)


def _inline_icons_alone(blocks: tuple) -> bool:
    """Whether no inline icon of the blocks holds an id (another element, or the face's own, may
    name it: such a face is drawn from its SVG text, where it is in the face's document)."""
    return all(type(part) is tuple or "id=" not in part.markup for block in blocks for part in block)


def well_formed_problem(svg: str, env, name: str, head_chars: int) -> str:
    """'' when the face's SVG is well-formed XML, else the template, its line where it can be
    found, and what is wrong, quoting the output there. Expat alone: fast, and no drawing
    library is needed, so validate finds it too."""
    parser = xml.parsers.expat.ParserCreate()
    try:
        parser.Parse(svg, True)
        return ""
    except xml.parsers.expat.ExpatError as exc:
        line_text = svg.split("\n")[exc.lineno - 1]
        start = (head_chars if exc.lineno == 1 else 0)
        col = max(exc.offset, start)
        near = line_text[max(start, col - 30): col + 30].strip()
        where = _template_line(env, name, line_text[max(start, col - 12): col + 1].strip())
        return (f"template {name}{where}: its output is not well-formed SVG "
                f"({xml.parsers.expat.ErrorString(exc.code)}) near {near!r}; close every tag, quote every "
                "attribute, and write & as &amp; (values given to the template are escaped for you)")


def _template_line(env, name: str, fragment: str) -> str:
    """' line N' when the output's text at the error is written in exactly one template line."""
    try:
        source = env.loader.get_source(env, name)[0]
    except jinja2.TemplateError:
        return ""
    for probe in (fragment, fragment[-8:], fragment[:8]):
        if len(probe) >= 3:
            hits = [n for n, line in enumerate(source.splitlines(), 1) if probe in line]
            if len(hits) == 1:
                return f" line {hits[0]}"
    return ""


def _where(exc: BaseException, template: str) -> str:
    """'template.svg.j2 line N: ' from the traceback frames Jinja2 maps onto template lines."""
    line = getattr(exc, "lineno", None)
    if not line:
        import traceback        # (textwrap, tokenize, ...: only for a message)
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if frame.filename.endswith(template.split("/")[-1]):
                line = frame.lineno
                break
    return f"template {template}{f' line {line}' if line else ''}: "


def _message(exc: BaseException) -> str:
    text = plain_words(getattr(exc, "message", None) or str(exc))
    if isinstance(exc, jinja2.UndefinedError) and "; " not in text:      # (a message with its own fix has "; ")
        return f"{text}; check the name, or add the field to the item"
    if isinstance(exc, ZeroDivisionError):
        return (f"{text}: a value this line divides by is 0 for this item; give the item another value, "
                "or guard the line ({% if item.x %}...{% endif %})")
    return text
