"""Game pack folder (game.yaml + component YAML files) -> checked model (model.Game).

Every problem is gathered with its file:line:col before loading stops; nothing is built from a
pack that has errors.
"""
from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import yaml

from . import apart, confine, templating
from .errors import Mark, ManifestError, Problem, Reporter, did_you_mean, display_path, os_error_text
from .fonts import activate, library
from .icons import load_icons
from .items import FIELD_TYPES, MAX_GROUP_TOTAL, check_unique, expand_items
from .kinds import KINDS
from .model import Die, FontRole, Game, Group, Player
from .packfonts import pack_library
from .schema import INVALID, AnyData, Bool, Choice, Color, Field, Id, Int, Length, ListOf, MapOf, Num, Spec, Str, Type
from .shapes import SHAPES
from .sheets_source import ItemsType
from .version import PATTERN as VERSION_PATTERN, PLACES as VERSION_PLACES
from .yamlsrc import SAFE_LOADER, SrcDict, load_yaml, paused_gc

DATA_DIR = Path(__file__).parent / "data"
PAPERS = yaml.load((DATA_DIR / "papers.yaml").read_text(), Loader=SAFE_LOADER)    # libyaml's: at every start
PRINT_SHOP = "face"     # --paper face: one face per page at print-shop size
SIZES = yaml.load((DATA_DIR / "sizes.yaml").read_text(), Loader=SAFE_LOADER)
# Files of a pack that hold no components, each read by its own stage; any other *.yaml holds groups.
RESERVED_FILES = {"game.yaml": "the game's title, players, palette and fonts",
                  "handout.yaml": "the rule-summary handout (docs/handouts.md)",
                  "map.yaml": "the map rules (docs/maps.md)"}
NON_COMPONENT_FILES = set(RESERVED_FILES)


_WIDTH_BY_HEIGHT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:mm|cm|in)?\s*[x×*]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*$")


class SizeType(Type):
    """A face size: a named size, one length (side, diameter, across flats) or {width, height}."""
    description = "a named size (poker, mini, ...), {width, height}, or for hexagons, circles and squares one length like 25mm"
    limits = (3.0, 2000.0)

    def check(self, value, mark, rep, where):
        if isinstance(value, str) and value in SIZES:
            return (float(SIZES[value]["width"]), float(SIZES[value]["height"]))
        if isinstance(value, dict):
            rec = Spec("size", {"width": Field(Length(*self.limits), True),
                                "height": Field(Length(*self.limits), True)}).check(value, mark, rep, where)
            if rec is INVALID or None in (rec.width, rec.height):
                return INVALID
            return (rec.width, rec.height)
        pair = _WIDTH_BY_HEIGHT.match(value) if isinstance(value, str) else None
        if pair:
            width, height, unit = pair.group(1), pair.group(2), pair.group(3) or "mm"
            rep.error(mark, f"{where}: '{value}' is not a size",
                      f"write a rectangle as size: {{width: {width}{unit}, height: {height}{unit}}}")
            return INVALID
        if isinstance(value, str) and not re.match(r"^\s*[\d.]", value):
            rep.error(mark, f"{where}: unknown size name '{value}'",
                      did_you_mean(value, SIZES, f"use one of {', '.join(SIZES)}, a length, or width/height"))
            return INVALID
        return Length(*self.limits).check(value, mark, rep, where)


PLAYER_SPEC = Spec("player colour", {
    "id": Field(Id(), True, doc="a short id such as red"),
    "name": Field(Str(40), True, doc="the colour's name"),
    "color": Field(Color(), True, doc="'#rrggbb'"),
})
FONT_SPEC = Spec("font role", {
    "family": Field(Str(80), True, doc="a family shipped in fonts/"),
    "weight": Field(Choice("normal", "bold"), default="normal"),
    "style": Field(Choice("normal", "italic"), default="normal"),
})
DEFAULTS_SPEC = Spec("defaults", {
    "paper": Field(Choice(*PAPERS), default="a4"),
    "duplex": Field(Choice("long", "short", "none"), default="long"),
    "bleed": Field(Length(0, 10), default=3.0),
    "marks": Field(Choice("crop", "lines", "none"), default="crop"),
    "margin": Field(Length(0, 30), default=5.0),
    "cuts": Field(Choice("shared", "separate"), default="shared",
                  doc="shared: rectangles may abut on one cut line where that fits more; separate: each keeps its own bleed"),
    "map_seed": Field(Int(0, 2**31), default=1, doc="the seed of the map layout a build includes"),
    "version_mark": Field(Choice(*VERSION_PLACES), default="bottom-right",
                          doc="where each face shows the version (hexes and circles: centred), or off"),
    "version_size": Field(Length(0.8, 6), default=1.4, doc="the version's text height"),
    "new_mark": Field(Choice(*VERSION_PLACES), doc="where a face changed since --changes-since OLD shows NEW "
                      "(default: before the version, at version_mark), or off"),
})
GAME_SPEC = Spec("game", {
    "id": Field(Id(), doc="the game's id, used in output names (default: the pack folder's name)"),
    "title": Field(Str(120), True, doc="the game's title"),
    "version": Field(Str(40, VERSION_PATTERN, "letters, digits, spaces and . _ + -, e.g. 'v2' or '0.3 beta'"),
                     default="", doc="printed small on every face and on the page guide (--version overrides)"),
    "subtitle": Field(Str(200), default=""),
    "players": Field(Spec("players", {
        "min": Field(Int(1, 20), True), "max": Field(Int(1, 20), True), "default": Field(Int(1, 20)),
    }), doc="min, max and default player counts (leave out for a game without seats)"),
    "player_colors": Field(ListOf(PLAYER_SPEC, 1, 20), doc="a list of {id, name, color}, one per seat"),
    "palette": Field(MapOf(Color()), default={}),
    "fonts": Field(MapOf(FONT_SPEC), True, doc="roles such as title and body, each {family, weight}"),
    "icons": Field(MapOf(Str(300)), default={}),
    "defaults": Field(DEFAULTS_SPEC, default=None),
    "notes": Field(ListOf(Str()), default=[]),
    "rulebook": Field(Str(300), default=""),
    "data": Field(AnyData(), default={}, doc="numbers and tables templates and handouts read (game.data)"),
})
DIE_SIDES = (4, 6, 8)       # d6: a texture of the item's own faces; d4, d8: TTS's numbered dice and a key
DIE_SPEC = Spec("die", {
    "sides": Field(Int(4, 8), True, doc="4, 6 or 8"),
    "faces": Field(ListOf(ListOf(Num(0, 2000), 3, 3), 6, 6),
                   doc="d6: where face 1, 2, ... sits on the item's face: [x, y, side] in mm from its top-left"),
    "values": Field(Str(60), doc="the item field listing what each face shows (d6 default: the numbers; "
                                 "d4 and d8: required, it makes the key to TTS's numbered die)"),
    "tint": Field(Str(60), doc="d4 and d8: the item field naming the die's colour, a palette key or '#rrggbb' "
                               "(of a list field, its first entry)"),
})
GROUP_SPEC = Spec("component group", {
    "id": Field(Id(), True, doc="a short id such as counters"),
    "name": Field(Str(120), default=""),
    "kind": Field(Choice(*KINDS), True, doc="one of " + ", ".join(KINDS)),
    "shape": Field(Choice(*SHAPES)),
    "orientation": Field(Choice("pointy", "flat"), default="pointy"),
    "size": Field(SizeType(), doc=SizeType.description + " (polygons: their points)"),
    "points": Field(ListOf(ListOf(Num(-2000, 2000), 2, 2), 3, 200)),
    "corner_radius": Field(Length(0, 50)),
    "template": Field(Str(200), True, doc="a template file under templates/"),
    "back_template": Field(Str(200)),
    "bleed": Field(Length(0, 10)),
    "cuts": Field(Choice("shared", "separate"), doc="overrides the pack's defaults.cuts for this group"),
    "per_player": Field(Bool(), default=False),
    "rulebook_count": Field(Int(0, MAX_GROUP_TOTAL)),
    "prototype_content": Field(Bool(), default=False),
    "version_mark": Field(Choice(*VERSION_PLACES), doc="overrides the pack's defaults.version_mark for this group"),
    "tuck_box": Field(Str(20), doc="plain, sleeved or a card thickness in mm: a tuck box for this group; 'off': none"),
    "version_size": Field(Length(0.8, 6), doc="overrides the pack's defaults.version_size for this group"),
    "new_mark": Field(Choice(*VERSION_PLACES), doc="overrides the pack's defaults.new_mark for this group"),
    "fields": Field(MapOf(Choice(*FIELD_TYPES)), default={}),
    "notes": Field(ListOf(Str()), default=[]),
    "items": Field(ItemsType(), True, doc="the list of items, or {from: cards.xlsx, sheet: Name}"),
    "die": Field(DIE_SPEC, doc="each item is a die (e.g. a fold-and-glue net): export tts makes it a rollable die"),
})
FILE_SPEC = Spec("components file", {
    "groups": Field(ListOf(GROUP_SPEC, 1), True, doc="a list of component groups"),
    "notes": Field(ListOf(Str()), default=[]),
})


def find_pack(name_or_path: str, components_dir: Path, marker: str = "game.yaml") -> Path | None:
    """A pack is the path of any folder with a game.yaml, else a folder name under components/.
    A path always means that path: ./royal-dukes is the folder here, never the built-in pack."""
    for candidate in pack_candidates(name_or_path, components_dir):
        try:
            if (candidate / marker).is_file():
                return candidate.resolve()
        except OSError as exc:               # a folder this user may not open
            raise ManifestError([Problem(Mark(display_path(candidate)), f"cannot open the pack folder: "
                                         f"{os_error_text(exc, 'folder')} (this user must be able to read it)")]) from None
    return None


def pack_id(root: Path) -> str:
    """The game id of a pack folder without loading it: game.yaml `id`, else the folder's name
    (what build, map and handout name their output after)."""
    path = Path(root) / "game.yaml"      # read by the checked loader: bounded, never a traceback
    data = load_yaml(path, Reporter()) if path.is_file() else None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and re.match(r"^[a-z0-9][a-z0-9-]*$", value) else Path(root).name


def pack_candidates(name_or_path: str, components_dir: Path) -> list[Path]:
    """Where a command-line GAME may be: the path first; a bare name also under components/."""
    path = Path(name_or_path).expanduser()
    return [path, components_dir / name_or_path] if is_bare_name(name_or_path) else [path]


def is_bare_name(name_or_path: str) -> bool:
    """A GAME written as a name (royal-dukes), looked for here and under components/, not a path."""
    return "/" not in name_or_path and not name_or_path.startswith((".", "~"))


def enclosing_pack(folder: Path) -> Path | None:
    """The pack a folder is in: the nearest of it and the folders above it with a game.yaml."""
    for candidate in (folder, *folder.parents):
        try:
            if (candidate / "game.yaml").is_file():
                return candidate.resolve()
        except OSError:               # a folder above that this user may not look into
            return None
    return None


def list_packs(components_dir: Path) -> list[Path]:
    return sorted(p.parent for p in components_dir.glob("*/game.yaml"))


LOAD_APART_ABOVE = 1 << 20    # bytes of a pack's sources: above, it is loaded in a forked child (apart.py)
SOURCE_SUFFIXES = (".yaml", ".csv", ".xlsx", ".xlsm", ".ods")


def load_pack(root: Path, reporter: Reporter | None = None) -> Game:
    """Load and check a whole pack; raise ManifestError listing every problem. A large pack is
    loaded in a forked child that sends back the model and the problems: the scraps of
    reading it never take room in this process (50,000 cards: 130 MB)."""
    rep = reporter or Reporter()
    root = Path(root).resolve()
    loaded = apart.result_of(lambda: _loaded(root)) if _source_bytes(root) > LOAD_APART_ABOVE else None
    if loaded is None:
        return _load_pack(root, rep)
    game, problems = loaded
    for problem in problems:
        (rep.warn if problem.warning else rep.error)(problem.mark, problem.message, problem.hint)
    rep.raise_if_errors()
    activate(pack_library(root, Reporter()))     # as the child did; its problems came with the rest
    return game


def _loaded(root: Path) -> tuple[Game | None, list[Problem]]:
    """In the child: the model (None when the pack has errors) and every problem told."""
    rep = Reporter()
    try:
        return _load_pack(root, rep), rep.problems
    except ManifestError as exc:
        return None, exc.problems


def _source_bytes(root: Path) -> int:
    """The size of the files a pack's components are read from: its YAML files, and the
    spreadsheets beside them and one folder down."""
    with contextlib.suppress(OSError):
        files = [*root.glob("*.yaml"), *(p for pattern in ("*", "*/*") for p in root.glob(pattern)
                                         if p.suffix.lower() in SOURCE_SUFFIXES[1:])]
        return sum(p.stat().st_size for p in files if p.is_file())
    return 0


@paused_gc()
def _load_pack(root: Path, rep: Reporter) -> Game:
    game_file = root / "game.yaml"
    raw = load_pack_yaml(game_file, root, rep)
    game_rec = GAME_SPEC.check(raw, Mark(display_path(game_file), 1, 1), rep, "") if raw is not None else INVALID
    if raw is not None and not isinstance(raw, dict):
        game_rec = INVALID
    players = []
    activate(pack_library(root, rep))          # the pack's fonts/ first, then pnpgen's
    if game_rec is not INVALID:
        players = _check_game(game_rec, rep)
    env = templating.environment(root)
    sources = {"root": root, "data": game_rec.data if game_rec is not INVALID else None,
               "game_read": game_rec is not INVALID,
               "map": load_pack_yaml(root / "map.yaml", root, rep) if (root / "map.yaml").exists() else None}
    if isinstance(sources["map"], dict):       # a map.yaml key nothing reads: said before anything is drawn
        from .maps.keys import top_level_problems
        for problem in top_level_problems(sources["map"], root / "map.yaml"):
            rep.error(problem.mark, problem.message, problem.hint)
    for link in confine.links_leaving(root / "templates", root):
        rep.error(Mark(display_path(link), 1, 1), f"'{link.name}' is a link to {os.path.realpath(link)}, outside the "
                  "game pack; templates may only read the pack's files", "copy what it needs into the pack")
    for path in sorted(root.iterdir()):
        if path.suffix.lower() in (".yml", ".yaml") and path.suffix != ".yaml":
            rep.error(Mark(display_path(path), 1, 1), f"'{path.name}' would be ignored: pnpgen reads only files "
                      "ending in .yaml", f"rename it to '{path.stem}.yaml'")
    groups = []
    for path in sorted(root.glob("*.yaml")):
        if path.name in NON_COMPONENT_FILES:
            _check_reserved_file(path, root, rep)
            continue
        try:
            groups.extend(_load_component_file(path, root, players, env, rep, sources))
        except (TypeError, AttributeError, KeyError, ValueError):
            # a value already reported as wrong tripped a later check: the report stands
            if not rep.errors:
                raise
    check_unique([(g.id, g.mark) for g in groups], "group id", rep)
    _check_output_names(groups, rep)
    rep.raise_if_errors()
    if game_rec is INVALID:
        raise ManifestError(rep.problems)
    seats = game_rec.players
    game = Game(
        id=game_rec.id or root.name, title=game_rec.title, root=root,
        players_min=seats.min if seats else 0, players_max=seats.max if seats else 0,
        players_default=(seats.default or seats.max) if seats else 0,
        players=players, palette=dict(game_rec.palette),
        fonts={role: FontRole(f.family, f.weight == "bold", f.style == "italic") for role, f in game_rec.fonts.items()},
        icons=load_icons(root, game_rec, rep),
        defaults=dict(game_rec.defaults.values) if game_rec.defaults else
        dict(DEFAULTS_SPEC.check({}, Mark(display_path(game_file)), rep, "defaults").values),
        notes=list(game_rec.notes), groups=groups, data=game_rec.data or {}, version=game_rec.version or "")
    rep.raise_if_errors()
    return game


def _check_game(rec, rep: Reporter) -> list[Player]:
    p = rec.players
    if p and None not in (p.min, p.max):
        if p.min > p.max:
            rep.error(rec.value_mark("players"), f"players: min {p.min} is above max {p.max}", "swap them")
        if p.default is not None and not p.min <= p.default <= p.max:
            rep.error(rec.value_mark("players"), f"players: default {p.default} is outside {p.min}-{p.max}",
                      "choose a default within min and max")
    for role, font in (rec.fonts or {}).items():
        if font and font.family is not None:
            _check_font_role(rec, role, font, rep)
    players = [Player(c.id, c.name, c.color) for c in rec.player_colors or []
               if c and None not in (c.id, c.name, c.color)]
    if rec.player_colors and p and p.max and len(players) < p.max:
        rep.error(rec.value_mark("player_colors"), f"{len(players)} player colours for up to {p.max} players",
                  "add a colour for every seat")
    check_unique([(pl.id, rec.value_mark("player_colors")) for pl in players], "player colour id", rep)
    return players


def _check_font_role(rec, role: str, font, rep: Reporter) -> None:
    """The role's family and style are a face of the pack's fonts or of pnpgen's."""
    fonts = library()
    bold, italic = font.weight == "bold", font.style == "italic"
    if fonts.face(font.family, bold, italic) is not None:
        return
    fonts_src = rec.source.get("fonts")
    mark = fonts_src.value_mark(role) if isinstance(fonts_src, SrcDict) else rec.mark
    styles = sorted(f.style for f in fonts.faces.values() if f.family == font.family)
    if styles:
        rep.error(mark, f"font role '{role}': family '{font.family}' has no {font.weight}, {font.style} face "
                  f"(it has {', '.join(styles)})", "choose one of those, or add the face's file to the pack's fonts/")
    else:
        rep.error(mark, f"font role '{role}': family '{font.family}' ({font.weight}, {font.style}) is neither "
                  "in the pack's fonts/ nor one of pnpgen's", fonts.unknown_family_hint(font.family))


def _check_reserved_file(path: Path, root: Path, rep: Reporter) -> None:
    """A reserved file that holds component groups would be silently skipped: say so."""
    raw = load_pack_yaml(path, root, Reporter())
    if isinstance(raw, SrcDict) and "groups" in raw:
        free = "components.yaml" if path.name != "map.yaml" else "board.yaml"
        rep.error(raw.key_mark("groups"),
                  f"{path.name} is reserved for {RESERVED_FILES[path.name]}, so its groups would not be built",
                  f"move the groups to another file, e.g. {free} (reserved names: {', '.join(sorted(RESERVED_FILES))})")


# Output files a build writes besides one PDF per mat: a mat group must not take their names.
RESERVED_OUTPUT_STEMS = ("sheets", "boards", "map", "handout")


def _check_output_names(groups: list[Group], rep: Reporter) -> None:
    for group in groups:
        if group.kind == "mat" and group.id in RESERVED_OUTPUT_STEMS:
            rep.error(group.mark, f"a board group called '{group.id}' would write over the build's own "
                                  f"<game>-{group.id}.pdf",
                      f"rename the group (reserved for boards: {', '.join(RESERVED_OUTPUT_STEMS)})")


def load_pack_yaml(path: Path, root: Path, rep: Reporter):
    """A YAML file of the pack, refused when it is a link out of the pack (or not a file)."""
    problem = confine.read_problem(path, root)
    if problem:
        rep.error(Mark(display_path(path), 1, 1), problem, "copy the file into the game pack instead of linking it")
        return None
    return load_yaml(path, rep)


def _load_component_file(path: Path, root: Path, players, env, rep: Reporter, sources: dict) -> list[Group]:
    raw = load_pack_yaml(path, root, rep)
    if raw is None:
        return []
    rec = FILE_SPEC.check(raw, Mark(display_path(path), 1, 1), rep, "")
    if rec is INVALID or not rec.groups:
        return []
    out = []
    for index, group_rec in enumerate(rec.groups):
        if group_rec is INVALID or group_rec.id is None:
            continue
        group = _build_group(group_rec, display_path(path), players, env, rep, sources)
        if group is not None:
            out.append(group)
    return out


def _build_group(g, file: str, players, env, rep: Reporter, sources: dict) -> Group | None:
    for key in ("template", "back_template"):
        name = getattr(g, key)
        if name:
            problem = templating.check_template(env, name)
            if problem:
                rep.error(g.value_mark(key), problem, "create the template or fix its name; templates are looked up in "
                          "the pack's templates/ folder, then in templates/" if problem.endswith("not found") else "")
    kind = KINDS.get(g.kind)
    shape = g.shape or kind.default_shape if kind else None
    if kind is not None and g.size is None and shape != "polygon" and "size" not in g.source:
        rep.error(g.mark, f"group '{g.id}': missing required key 'size'", f"add 'size:' ({SizeType.description})")
    if kind is None or (g.size is None and shape != "polygon") or g.items is None:
        return None
    if shape not in kind.shapes:
        rep.error(g.value_mark("shape"), f"a {g.kind} cannot be a {shape}",
                  f"use one of {', '.join(kind.shapes)} for kind {g.kind}")
        return None
    size = g.size
    if shape in ("square", "circle", "hexagon"):
        if isinstance(size, tuple):
            rep.error(g.value_mark("size"), f"a {shape} takes one length ({SHAPES[shape].size_doc})",
                      "write e.g. size: 25mm")
            return None
        width, height = SHAPES[shape].box(size, g.orientation)
    elif shape == "polygon":
        if not g.points:
            rep.error(g.mark, "a polygon needs 'points'", "add points: [[x, y], ...] in mm")
            return None
        xs, ys = [p[0] for p in g.points], [p[1] for p in g.points]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
    elif not isinstance(size, tuple):
        rep.error(g.value_mark("size"), f"this {g.kind} is a rectangle: its size needs a width and a height, not one length",
                  f"write size: {{width: {size:g}mm, height: {size:g}mm}} for a square {g.kind}, or a named size "
                  f"({', '.join(SIZES)})")
        return None
    else:
        width, height = size
    points = tuple((x - min(p[0] for p in g.points), y - min(p[1] for p in g.points)) for x, y in g.points) if shape == "polygon" else None
    if g.per_player and not players:
        if sources["game_read"]:        # else game.yaml's own error says what is wrong
            rep.error(g.value_mark("per_player"), f"group '{g.id}' is per_player but game.yaml lists no player_colors",
                      "add players and player_colors to game.yaml, or remove per_player")
        return None
    errors_before = len(rep.errors)
    items = expand_items(g, players, rep, sources)
    if items is None:        # the spreadsheet they come from could not be read: reported
        return None
    total = sum(item.copies for item in items)
    if total > MAX_GROUP_TOTAL:
        rep.error(g.value_mark("items"), f"group '{g.id}' has {total:,} faces, over the limit of {MAX_GROUP_TOTAL:,}",
                  "split the group or lower the copies")
    elif g.rulebook_count is not None and total != g.rulebook_count and len(rep.errors) == errors_before:
        # counted only when every item read cleanly: a bad copies cell is the one error to show
        rep.error(g.value_mark("rulebook_count"),
                  f"group '{g.id}' has {total} components (sum of copies) but rulebook_count is {g.rulebook_count}",
                  "fix the copies of its items, or the count if the rulebook says otherwise")
    die = _die(g, float(width), float(height), rep)
    return Group(
        id=g.id, name=g.name or g.id, kind=g.kind, shape=shape, orientation=g.orientation,
        width=float(width), height=float(height),
        corner_radius=g.corner_radius if g.corner_radius is not None else kind.corner_radius,
        points=points, template=g.template, back_template=g.back_template, bleed=g.bleed, cuts=g.cuts,
        rulebook_count=g.rulebook_count, prototype_content=g.prototype_content, items=items,
        file=file, mark=g.mark, notes=list(g.notes or []), die=die,
        version_mark=g.version_mark, version_size=g.version_size, new_mark=g.new_mark,
        tuck_box=_tuck_box(g, rep))


def _die(g, width: float, height: float, rep: Reporter) -> Die | None:
    """The group's `die`, each face's square inside the item's face."""
    if g.die is None or g.die.sides is None:
        return None
    values = g.die.values.get("values")          # by name: a Record's .values is its mapping
    if g.die.sides not in DIE_SIDES:
        rep.error(g.die.value_mark("sides"), f"a die of {g.die.sides} sides cannot be exported",
                  f"use one of {', '.join(map(str, DIE_SIDES))}, or leave out die")
        return None
    if (g.die.sides == 6) != (g.die.faces is not None) or (g.die.sides != 6 and not values):
        rep.error(g.die.mark, f"a d{g.die.sides} needs " + ("faces: [[x, y, side], ...], one per face" if g.die.sides == 6
                  else "values: the item field listing its faces, and no faces"),
                  "a d6's texture is cut from the item's face; a d4 or d8 is TTS's numbered die with a key")
        return None
    faces = tuple(tuple(float(v) for v in f) for f in g.die.faces or ())
    for n, (x, y, side) in enumerate(faces, 1):
        if side <= 0 or x + side > width + 0.01 or y + side > height + 0.01:
            rep.error(g.die.value_mark("faces"), f"die face {n} [{x:g}, {y:g}, {side:g}] does not fit the "
                      f"{width:g} x {height:g} mm face", "give [x, y, side] in mm from the face's top-left corner")
            return None
    for key, name in (("values", values), ("tint", g.die.tint)):
        if name and name not in (g.fields or {}):
            rep.error(g.die.value_mark(key), f"die {key} '{name}' is not one of the group's fields",
                      f"name a field of the items ({', '.join(g.fields or {}) or 'none declared'})")
            return None
    return Die(g.die.sides, faces, values, g.die.tint)


def _tuck_box(g, rep: Reporter) -> str | None:
    """A group's tuck_box: a card thickness tuckbox.py knows, or 'off'; only for cards."""
    value = g.tuck_box
    if value is None or value == "off":
        return value
    if g.kind != "card":
        rep.error(g.value_mark("tuck_box"), f"tuck_box is for card groups; '{g.id}' is a {g.kind}",
                  "remove it, or make the group kind: card")
        return None
    from .tuckbox import ThicknessError, card_thickness     # (its data: read only for a pack with tuck boxes)
    try:
        card_thickness(value)
    except ThicknessError as exc:
        rep.error(g.value_mark("tuck_box"), f"tuck_box: {exc}", "e.g. tuck_box: sleeved")
        return None
    return value
