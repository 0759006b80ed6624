"""Faces cached by what they are made of, so a rebuild after an edit renders only changed faces.

A face's SVG is a function of: its template and every template that one includes or imports
(their source text), the face's geometry, side and bleed, the game's fonts, icons and palette,
--lenient, the bytes of the pack's own fonts, and only as far as the templates read them: the item's fields (item.cost), its player,
`game`, and the groups they name (groups.troops: a card showing another group's numbers renders
again when those change, and no other card does). Reading a whole value (passing `item` to a
macro, looping over `groups`) counts as reading all of it. All of that is hashed into the face's
key, and with it the bytes of the pictures it draws (image(), <image href>): a face is kept with
the SHA-256 of each picture it drew, and is rendered again once one of them changes. The cache
maps keys to the SVG with the warnings and notes its rendering gave, so a cached face reports
exactly what a fresh one would, and PDFs and previews built through the cache are byte for byte
those of a clean build.

The same key lets a build stream a large document (StreamedRenderer): faces with equal keys are
the same face, so a rendered face need not be kept to know a later one is its copy.
"""
from __future__ import annotations

import hashlib
import json
from json.encoder import c_make_encoder as _c_encoder, encode_basestring
from collections import OrderedDict
from collections.abc import MutableMapping
from dataclasses import dataclass

from jinja2 import nodes

from . import art, templating
from .fonts import library
from .render import FaceRef, FaceRenderer, face_digest, face_digest_bytes, face_fields, face_place

WHOLE = None             # a template reads the item (or groups) as a whole, not field by field
BY_FIELD = ("item", "groups", "face")         # context names whose fields are hashed one by one


@dataclass(frozen=True)
class Rendered:
    svg: str
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    pictures: tuple[tuple[str, str], ...] = ()     # (name, SHA-256) of each picture drawn


class FaceCache:
    """Rendered faces by key, kept across the builds of one process (pnpgen preview --watch)."""

    def __init__(self) -> None:
        self.faces: dict[str, Rendered] = {}
        self.templates: dict[tuple[str, str], tuple] = {}      # parsed: names read, includes
        self.renders = 0            # faces actually rendered (not found in the cache)

    def renderer(self, game, bleed: float, lenient: bool = False) -> "CachedRenderer":
        return CachedRenderer(game, bleed, lenient, self)


def renderer_for(game, bleed: float, lenient: bool, cache: FaceCache | None, streamed: bool = False) -> FaceRenderer:
    """A cached renderer where a FaceCache is kept; else a streamed one for a document of many
    faces (streamed_document), a plain one (keeping every face) for any other."""
    if cache is not None:
        return cache.renderer(game, bleed, lenient)
    return (StreamedRenderer if streamed else FaceRenderer)(game, bleed, lenient)


STREAM_ABOVE = 4096      # faces (items x sides) of a document: above, its faces are streamed


def streamed_document(groups) -> bool:
    """Whether a document's faces are streamed (StreamedRenderer): drawn as they are rendered,
    told apart by their inputs. A smaller document keeps its faces (at most ~30 MB) and tells them
    apart by their SVG, which also finds faces made from other inputs alike (two tiles whose
    unshown numbers differ, a back drawn like its front): each is drawn once and painted
    twice. A streamed document draws such faces once each."""
    return sum(len(g.items) * g.sides for g in groups) > STREAM_ABOVE


def digest(value) -> str:
    """A stable hash of plain data; key order counts (a template may loop over a mapping).
    The text is json.dumps(value, default=repr, separators=(",", ":"), ensure_ascii=False),
    made by json's C encoder called directly: json.dumps with options builds a JSONEncoder and
    its closures first (a streamed build hashes every face's key twice; 4.3 -> 1.8 us a key)."""
    return hashlib.sha256(_json_text(value).encode()).hexdigest()


def _json_text(value) -> str:
    if _c_encoder is None:          # a Python without json's C accelerator
        return json.dumps(value, default=repr, separators=(",", ":"), ensure_ascii=False)
    # (markers, default, escaper, indent, separators, sort_keys, skipkeys, allow_nan)
    return "".join(_c_encoder({}, repr, encode_basestring, None, ":", ",", False, False, True)(value, 0))


class KeyedRenderer(FaceRenderer):
    """FaceRenderer that knows each face by a digest of what it is made of (face_key): the face
    cache's key, and what a streamed build tells faces apart by."""

    def __init__(self, game, bleed: float, lenient: bool, parsed: dict):
        super().__init__(game, bleed, lenient)
        self._parsed_templates = parsed     # (name, source digest) -> what _parsed found
        self._templates: dict[str, tuple] = {}
        self._game_key = digest([
            sorted((k, [f.family, f.bold, f.italic]) for k, f in game.fonts.items()),
            sorted((k, [i.view_box, i.markup]) for k, i in game.icons.items()),
            game.palette, lenient, bleed, library().content_digest()])    # the pack's font files
        self._game_data = digest(self.game_data)
        self._group_parts: dict[str, str] = {}
        self._fixed_parts: dict[tuple, tuple] = {}     # (template, group id, side) -> _fixed's answer
        self._item_fields: dict[str, tuple | None] = {}    # template -> the item's fields it reads, sorted
        self._fixed_hashes: dict[str, object] = {}    # _fixed's digest -> SHA-256 fed it (copied per face)
        self._shared_hashes: dict[str, object] = {}   # _fixed's digest -> _face_hash of a face reading no item

    def face_key(self, face: FaceRef) -> str:
        """What the face is made of, as 64 hex digits."""
        return self._face_hash(face).hexdigest()

    def _face_hash(self, face: FaceRef):
        """SHA-256 of what the face is made of: _fixed's digest, then the item's fields its templates
        read (_hash_item), then its player where they read it. Fed as tagged, length-prefixed
        bytes rather than as one JSON text of them all: a deck's cards are keyed each (json's
        encoder and the hex digits were 3 of a face's ~6 us so)."""
        group, item = face.group, face.item
        name = group.template if face.side == "front" else group.back_template
        fixed, reads, _ = self._fixed(name, face)
        if "item" not in reads and "player" not in reads:      # a shared back: one key for the group
            shared = self._shared_hashes.get(fixed)
            if shared is None:
                shared = self._shared_hashes[fixed] = self._fixed_hash(fixed)
                shared.update(b"-n")
            return shared
        h = self._fixed_hash(fixed)
        if "item" in reads:
            _hash_item(h, item, self._item_fields[name])
        else:
            h.update(b"-")
        if item.player and "player" in reads:
            _hash_tagged(h, b"p", _json_text(item.player.__dict__).encode("utf-8", "surrogatepass"))
        else:
            h.update(b"n")
        return h

    def _fixed_hash(self, fixed: str):
        """A new SHA-256 fed `fixed` (copied from one fed it once)."""
        fed = self._fixed_hashes.get(fixed)
        if fed is None:
            fed = self._fixed_hashes[fixed] = hashlib.sha256(b"pnpgen face\0" + fixed.encode() + b"\0")
        return fed.copy()

    def reads_own(self, face: FaceRef) -> bool:
        """Whether the face's key holds its item's or its player's own values."""
        reads = self._fixed(face.group.template if face.side == "front" else face.group.back_template, face)[1]
        return "item" in reads or "player" in reads

    def _fixed(self, name: str, face: FaceRef) -> tuple[str, frozenset, dict]:
        """What of a face's key is the same for every item of its group and side (hashed once),
        what its templates read and per BY_FIELD name the fields they read."""
        at = (name, face.group.id, face.side)
        if at not in self._fixed_parts:
            group = face.group
            source, reads, fields = self._template(name)
            fixed = digest([
                source, self._game_key, self._game_data if "game" in reads else None, face.side,
                self._groups_part(fields["groups"]) if "groups" in reads else None,
                _face_part(face, self.bleed, fields["face"]) if "face" in reads else None,
                [group.shape, group.orientation, group.width, group.height, group.corner_radius, group.points]])
            self._fixed_parts[at] = (fixed, reads, fields)
            self._item_fields[name] = None if fields["item"] is None else tuple(sorted(fields["item"]))
        return self._fixed_parts[at]

    def _groups_part(self, ids: frozenset | None):
        """The groups a template reads (groups.troops...): only a change of those renders it again."""
        if ids is None:
            ids = frozenset(self.groups)
        for gid in ids - self._group_parts.keys():
            self._group_parts[gid] = digest(self.groups.get(gid))
        return [[gid, self._group_parts[gid]] for gid in sorted(ids)]

    def _template(self, name: str) -> tuple[str, frozenset, dict]:
        """The hash of the sources of a template and all it includes or imports, the context
        names they read, and per BY_FIELD name the fields they read (WHOLE: all of it)."""
        if name not in self._templates:
            sources, reads, dynamic = {}, set(), False
            fields = {n: set() for n in BY_FIELD}
            for current, source, (names, refs, read_fields) in templating.template_family(self.env, name, self._parsed):
                sources[current] = source
                reads |= names
                for n in BY_FIELD:
                    fields[n] = WHOLE if WHOLE in (fields[n], read_fields[n]) else fields[n] | read_fields[n]
                dynamic |= None in refs
            if dynamic:        # {% include some_variable %}: any template may be the one
                sources = {n: self.env.loader.get_source(self.env, n)[0] for n in self.env.list_templates()}
                fields = dict.fromkeys(BY_FIELD, WHOLE)
            self._templates[name] = (digest(sorted(sources.items())), frozenset(reads),
                                     {n: None if f is WHOLE else frozenset(f) for n, f in fields.items()})
        return self._templates[name]

    def _parsed(self, name: str, source: str) -> tuple[frozenset, tuple, dict]:
        key = (name, hashlib.sha256(source.encode()).hexdigest())
        if key not in self._parsed_templates:
            tree = self.env.parse(source)
            self._parsed_templates[key] = (*templating.names_and_references(tree),
                                           {n: _fields_read(tree, n) for n in BY_FIELD})
        return self._parsed_templates[key]


class CachedRenderer(KeyedRenderer):
    """FaceRenderer that looks each face up by its key before rendering it."""

    shares_faces = False      # its keys are by content already, and each face keeps its notes

    def __init__(self, game, bleed: float, lenient: bool, cache: FaceCache):
        super().__init__(game, bleed, lenient, cache.templates)
        self.store = cache
        self.notes: dict[tuple, tuple[str, ...]] = {}     # face key -> e.g. text set smaller

    def _render(self, face: FaceRef) -> str:
        key = self.face_key(face)
        hit = self.store.faces.get(key)
        if hit is not None and not all(art.unchanged(self.game.root, name, sha) for name, sha in hit.pictures):
            hit = None          # a picture it draws has other bytes now
        if hit is None:
            said, noted, drew = len(self.helpers.said), len(self.helpers.shrunk), len(self.helpers.pictures)
            svg = super()._render(face)
            hit = self.store.faces[key] = Rendered(svg, tuple(self.helpers.said[said:]),
                                                   tuple(self.helpers.shrunk[noted:]),
                                                   tuple(dict.fromkeys(self.helpers.pictures[drew:])))
            self.store.renders += 1
        else:           # told again, naming the face where it now is (its line may have moved)
            self.helpers.face = face_place(face)
            for message in hit.warnings:
                self.helpers.warn(message)
        self.notes[face.key] = hit.notes
        return hit.svg


class StreamedRenderer(KeyedRenderer):
    """A build's renderer at any deck size. Faces are told apart by what they are made of
    (face_key), not by their SVG, so of each face rendered it keeps only its digest and what
    rendering it said (50,000 distinct cards held 145 MB of faces in each drawing process). The
    SVGs of the last KEEP faces asked for are kept (a copy drawn again, a common back), and those
    rendered ahead (keep(): edges.py's sample, the pages pdfwrite renders before drawing them)
    until they are asked for again; any other is rendered again, silently, if asked for again."""

    KEEP = 32
    KEYED = 512        # more faces than pdfwrite.AHEAD_PAGES pages hold

    def __init__(self, game, bleed: float, lenient: bool = False):
        super().__init__(game, bleed, lenient, {})
        self.digest_of = FaceDigests()                 # face key -> face_digest of each face rendered
        self.heard_digests = FaceDigests()
        self._said: dict[bytes, bytes | tuple] = {}    # identity -> digest, or (digest, warnings): once per face
        self._recent: OrderedDict[bytes, str] = OrderedDict()    # identity -> SVG, the last KEEP
        self._kept: dict[bytes, str] = {}              # identity -> SVG, until asked for again
        self._keyed: OrderedDict[tuple, bytes] = OrderedDict()   # face key -> identity, the last KEYED
        self._once: dict[tuple[str, str], dict[str, bytes]] = {}     # (group, side) -> item id -> identity
        self._alike: dict[tuple[str, str], bytes] = {}      # (group, side) -> identity of faces reading no item
        self._last_face, self._last_ident = None, b""     # the face object last asked for, its identity

    def identity(self, face: FaceRef) -> bytes:
        """The face's face_key as 16 bytes (128 bits of SHA-256: one of these per distinct face
        is kept, and 64 hex digits are 113 bytes)."""
        if face is self._last_face:         # asked again for the same placement's face
            return self._last_ident
        key = face.key
        ident = self._keyed.get(key)
        if ident is None:
            ident = self._identity_now(face, key)
        self._last_face, self._last_ident = face, ident
        return ident

    def _identity_now(self, face: FaceRef, key: tuple) -> bytes:
        """The writer asks for each face's identity when it counts the faces of all its pages,
        then again, several times, when it renders and draws their window of pages: an item's
        identity counted waits in _once until first asked for again, then stays in the LRU
        while its window is rendered and drawn (KEYED holds more than a window's faces). A
        front's key was hashed twice: 4 % of a 10,000-card build's CPU."""
        at = (key[0], key[2])
        ident = self._alike.get(at)
        if ident is not None:       # (a common back) found by its group and side: not kept per face
            return ident
        ident = self._once.get(at, {}).pop(key[1], None) or self._keyed_now(face, at)
        self._keyed[key] = ident
        if len(self._keyed) > self.KEYED:
            self._keyed.popitem(last=False)
        return ident

    def _keyed_now(self, face: FaceRef, at: tuple[str, str]) -> bytes:
        """The identity hashed, and kept: in _once till asked for again when it holds the item's
        own values, else in _alike for every face of the group and side."""
        ident = self._face_hash(face).digest()[:16]
        if self.reads_own(face):
            self._once.setdefault(at, {})[face.item.id] = ident
        else:
            self._alike[at] = ident
        return ident

    def svg(self, face: FaceRef) -> str:
        ident = self.identity(face)
        if face.key not in self.digest_of:
            known = self._said.get(ident)
            if known is None:
                return self._first(face, ident)
            self._tell_again(face, *_digest_and_warnings(known))
        svg = self._kept.pop(ident, None) or self._recent.pop(ident, None) or self._silently(face)
        self._remember(ident, svg)
        return svg

    def seen(self, face: FaceRef) -> None:
        if face.key in self.digest_of:
            return
        known = self._said.get(self.identity(face))
        if known is None:
            self.svg(face)
        else:
            self._tell_again(face, *_digest_and_warnings(known))

    def keep(self, face: FaceRef) -> str:
        """svg(face), kept until it is asked for again (drawn), however many faces come between."""
        svg = self.svg(face)
        self._kept[self.identity(face)] = svg
        return svg

    def digest(self, face: FaceRef) -> str:
        return self.digest_of.get(face.key) or face_digest(self.svg(face))

    def known_keys(self) -> set:
        return set(self.digest_of)

    def digests(self, known: set = frozenset()) -> "FaceDigests":
        out = FaceDigests()
        out.update(self.heard_digests)
        out.update(self.digest_of if not known else
                   ((key, d) for key, d in self.digest_of.stored() if key not in known))
        return out

    def _first(self, face: FaceRef, ident: bytes) -> str:
        said = len(self.helpers.said)
        svg = self._render(face)
        messages = tuple(self.helpers.said[said:])
        digest_ = face_digest_bytes(svg)
        self._said[ident] = (digest_, messages) if messages else digest_
        self._note(face, digest_, messages)
        self._remember(ident, svg)
        return svg

    def _tell_again(self, face: FaceRef, digest_: bytes, messages: tuple) -> None:
        """The same face as one rendered already (a common back): its warnings told again, here."""
        if messages:
            self.helpers.face = face_place(face)
            for message in messages:
                self.helpers.warn(message)
        self._note(face, digest_, messages)

    def _note(self, face: FaceRef, digest_: bytes, messages: tuple) -> None:
        self.digest_of[face.key] = digest_
        if messages:
            self.told[face.key] = (self.helpers.face, messages)

    def _silently(self, face: FaceRef) -> str:
        """A face rendered here before, rendered again: what it says was said the first time."""
        mark = self.helpers.remember()
        try:
            return self._render(face)
        finally:
            self.helpers.forget_since(mark)

    def _remember(self, ident: bytes, svg: str) -> None:
        self._recent[ident] = svg
        if len(self._recent) > self.KEEP:
            self._recent.popitem(last=False)


def _digest_and_warnings(said) -> tuple[bytes, tuple]:
    """StreamedRenderer._said's entry as (digest, warnings)."""
    return (said, ()) if isinstance(said, bytes) else said


_NONE: dict = {}


class FaceDigests(MutableMapping):
    """Face key (group id, item id, side) -> face_digest (32 hex digits), kept as 16 bytes under
    its group and side, keyed by the item's own id string: 100,000 faces as key tuples and hex
    text were ~25 MB in each process that held them. Faces alike (a common back) share one
    digest object."""

    def __init__(self, faces=()):
        self.by_side: dict[tuple[str, str], dict[str, bytes]] = {}
        self.update(faces)

    def __getitem__(self, key) -> str:
        group, item, side = key
        return self.by_side[group, side][item].hex()

    def __contains__(self, key) -> bool:
        group, item, side = key
        return item in self.by_side.get((group, side), ())

    def get(self, key, default=None):
        """self[key], or `default` (Mapping.get's try and KeyError, at every item of build.json)."""
        group, item, side = key
        digest_ = self.by_side.get((group, side), _NONE).get(item)
        return default if digest_ is None else digest_.hex()

    def __setitem__(self, key, digest_: str | bytes) -> None:
        group, item, side = key
        self.by_side.setdefault((group, side), {})[item] = \
            digest_ if isinstance(digest_, bytes) else bytes.fromhex(digest_)

    def __delitem__(self, key) -> None:
        group, item, side = key
        del self.by_side[group, side][item]

    def __iter__(self):
        return (key for key, _ in self.stored())

    def __len__(self) -> int:
        return sum(len(items) for items in self.by_side.values())

    def stored(self):
        """(face key, digest as 16 bytes) of each face."""
        for (group, side), items in self.by_side.items():
            for item, digest_ in items.items():
                yield (group, item, side), digest_

    def update(self, other=(), **more) -> None:
        if isinstance(other, FaceDigests):
            for at, items in other.by_side.items():
                self.by_side.setdefault(at, {}).update(items)
            return
        super().update(other, **more)


def _fields_read(node, name: str) -> set | None:
    """The fields read as name.field or name['field'] under node; WHOLE where the value itself
    is used (passed to a macro, looped over, item.items())."""
    fields = set()
    for child in node.iter_child_nodes():
        if isinstance(child, nodes.Name) and child.name == name and child.ctx == "load":
            if isinstance(node, nodes.Getattr) and node.node is child and not hasattr(dict, node.attr):
                fields.add(node.attr)
            elif (isinstance(node, nodes.Getitem) and node.node is child and isinstance(node.arg, nodes.Const)
                  and isinstance(node.arg.value, str) and not hasattr(dict, node.arg.value)):
                fields.add(node.arg.value)
            else:
                return WHOLE
            continue
        inner = _fields_read(child, name)
        if inner is WHOLE:
            return WHOLE
        fields |= inner
    return fields


def _face_part(face, bleed: float, fields: frozenset | None):
    """What of `face` (its size, side, group...) a face's key holds: the fields read, or all."""
    values = face_fields(face, bleed)
    return sorted(values.items()) if fields is None else [[n, values.get(n)] for n in sorted(fields)]


def _hash_item(h, item, fields: tuple | None) -> None:
    """h fed what of the item a face's key holds: the fields its templates read (sorted; their
    names are the templates', which the key holds already), or all of it. A field is read from
    {"id": item.id, **item.data}, without making that dict for every face. Each value tagged by
    what it is and prefixed by its length, so no two items' fields feed the same bytes."""
    if fields is None:
        _hash_tagged(h, b"w", _json_text([item.id, item.data]).encode("utf-8", "surrogatepass"))
        return
    data = item.data
    for name in fields:
        value = data[name] if name in data else item.id if name == "id" else _MISSING
        if type(value) is str:
            _hash_tagged(h, b"s", value.encode("utf-8", "surrogatepass"))
        elif value is _MISSING:
            h.update(b"m")
        else:
            _hash_tagged(h, b"j", _json_text(value).encode("utf-8", "surrogatepass"))


_MISSING = object()


def _hash_tagged(h, tag: bytes, raw: bytes) -> None:
    h.update(b"%s%d:" % (tag, len(raw)))
    h.update(raw)
