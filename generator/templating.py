"""Jinja2 SVG templates -> face markup. Templates run sandboxed with autoescaping, so every
string from a manifest reaches the SVG as text, never as markup, and a pack's template cannot
reach Python internals, files or the network.

Helpers given to every template (sizes of text in points, everything else in mm):
  text_box(text, x, y, w, h, size=9, min_size=6, font='body', color=None, align='left',
           valign='top', line_height=1.2)   wrap + shrink to fit, inline :icon: tokens
  text_line(text, x, y, w, size=9, min_size=5, font='body', color=None, align='center')
           one line on the baseline y, shrunk to fit w
  icon(name, x, y, size, color=None)         an icon from game.yaml in a size x size square
  outline(grow=0)                            SVG path data of the face outline, grown by mm
  hex_corners(cx, cy, flat, orientation='pointy')   'x,y x,y ...' for <polygon points>
  hex_grid(cols, rows, flat, x=0, y=0, orientation='pointy')  centres of an offset hex grid
  arrow(x1, y1, x2, y2, shorten=0, head=1.5)  SVG path data of an arrow with its head
  on(color, dark=None, light='#ffffff')      the colour to draw on `color`: `light` on dark
           colours, `dark` (default: the palette's ink) on light ones (a white player's pieces)
  image(src, x, y, w, h, fit='cover', focus='center')   a picture of the pack in the box:
           cover (fill the box, cropped; focus says which part stays), contain (all of it,
           placed by focus), fill (stretched)
"""
from __future__ import annotations

import hashlib
import math
import os
import weakref
from pathlib import Path
from typing import NamedTuple

import jinja2
import jinja2.bccache
import jinja2.meta
from markupsafe import Markup

from . import art, confine, facedoc, growth, onface
from .sandbox import MAX_RANGE, Sandbox
from .errors import did_you_mean, display_path, os_error_text
from .glyphs import composed, snippet
from .fonts import library
from .resources import TEMPLATE_DIR
from .shapes import SQRT3, hex_points
from .textfit import ICON_TOKEN, Style, TextFitError, block_parts, fit, icon_svg, layout_lines
from .units import MAX_MM, mm_to_pt, pt_to_mm

READABLE_PT = 6            # text shrunk below this is a warning naming the face
_MM_PER_PT = pt_to_mm(1.0)     # (pt_to_mm(size) is size times it: the same product, without a call)


MAX_TEMPLATE_CHARS = 1_000_000   # a template's own source; the largest shipped one is a few KB
MAX_BUILT = growth.MAX_BUILT


def _length_ok(value) -> bool:
    if type(value) is float:        # the usual case: a comparison with NaN is false, with inf too
        return -MAX_MM <= value <= MAX_MM
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and abs(value) <= MAX_MM)


def physical(*names):
    """A helper whose named numeric arguments must be finite and within MAX_MM: a NaN or a
    1e308 reaches no drawing, and the message names the argument. (text_box and text_line,
    called several times a card, check theirs in their own body with check_lengths: this
    wrapper's repacking of the arguments costs more than the check.)"""
    def wrap(function):
        code = function.__code__
        params = code.co_varnames[1:code.co_argcount]
        positions = [(index, name) for index, name in enumerate(params) if name in names]
        # by how many arguments are given by position: the checked ones among them, and the
        # checked ones after them (given by keyword, or their default: no check)
        given = [[(index, name) for index, name in positions if index < count] for count in range(len(params) + 1)]
        after = [[name for index, name in positions if index >= count] for count in range(len(params) + 1)]

        def checked(self, *args, **kwargs):
            count = min(len(args), len(params))
            for index, name in given[count]:
                value = args[index]
                kind = type(value)
                if not ((kind is float or kind is int) and -MAX_MM <= value <= MAX_MM):
                    _check_length(function.__name__, name, value)
            if kwargs:
                for name in after[count]:
                    if name in kwargs:
                        value = kwargs[name]
                        kind = type(value)
                        if not ((kind is float or kind is int) and -MAX_MM <= value <= MAX_MM):
                            _check_length(function.__name__, name, value)
            return function(self, *args, **kwargs)
        checked.__name__, checked.__doc__ = function.__name__, function.__doc__
        return checked
    return wrap


def check_lengths(function: str, names: tuple, values: tuple) -> None:
    """ValueError naming the first of `values` (a helper's arguments `names`, in the order of its
    parameters) that is not a length within ±MAX_MM, as physical() words it."""
    for value in values:        # (most calls: plain numbers in range, one pass, no call per value)
        kind = type(value)
        if not ((kind is float or kind is int) and -MAX_MM <= value <= MAX_MM):     # (NaN fails it)
            break
    else:
        return
    for name, value in zip(names, values):
        _check_length(function, name, value)


def _check_length(function: str, name: str, value) -> None:
    if value is not None and not _length_ok(value):
        raise ValueError(f"{function}(): {name}={value!r} is not a length within "
                         f"±{MAX_MM:g} mm; pass a finite number")


class ConfinedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that reads a pack's templates only from inside the pack, and shared
    ones only from inside templates/: a link leading elsewhere is refused, not followed."""

    def __init__(self, searchpath_and_bounds: list[tuple[Path, Path]]):
        super().__init__([str(path) for path, _ in searchpath_and_bounds])
        self.bounds = {str(path): bound for path, bound in searchpath_and_bounds}

    def get_source(self, environment, template):
        for folder in self.searchpath:
            if os.path.isdir(folder) and not os.access(folder, os.R_OK | os.X_OK):
                raise jinja2.exceptions.TemplateError(
                    f"template '{template}': cannot open the folder {display_path(Path(folder))}: "
                    "permission denied; check the folder's permissions")
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except jinja2.TemplateNotFound:       # an OSError too, told by check_template
            raise
        except OSError as exc:                # found, but this user may not read it
            raise jinja2.exceptions.TemplateError(
                f"template '{template}' ({display_path(Path(exc.filename or template))}): cannot read it: "
                f"{os_error_text(exc, 'file')}") from None
        bound = next((b for path, b in self.bounds.items() if filename.startswith(path.rstrip("/") + "/")), None)
        if bound is None or confine.read_problem(Path(filename), bound):
            raise jinja2.exceptions.SecurityError(
                f"template '{template}' leads outside the game pack (to {os.path.realpath(filename)}); "
                "templates may only read the pack's own files and pnpgen's templates/")
        if len(source) > MAX_TEMPLATE_CHARS:      # compiling 12 MB of template takes seconds per face
            raise jinja2.exceptions.TemplateError(
                f"template '{template}' is {len(source):,} characters long, over the limit of "
                f"{MAX_TEMPLATE_CHARS:,}; draw repeated parts with a loop or an icon")
        return source, filename, uptodate


def environment(pack_root: Path) -> jinja2.Environment:
    """Templates are looked up in the pack's own templates/ first, then in the shared templates/."""
    loader = ConfinedLoader([(Path(pack_root) / "templates", Path(pack_root)), (TEMPLATE_DIR, TEMPLATE_DIR)])
    return Sandbox(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                   trim_blocks=True, lstrip_blocks=True, auto_reload=False, cache_size=400,
                   bytecode_cache=COMPILED)


class _CompiledHere(jinja2.BytecodeCache):
    """Compiled templates shared by the environments of this process (a pack's check and each
    of its renderers make their own: shires' validate compiled 71 times for 21 environments), by
    the template's name and source. Kept in memory only: compiled code is never written to disk,
    where a tampered entry would run as pnpgen."""

    def __init__(self) -> None:
        self.code: dict[str, object] = {}

    def get_bucket(self, environment, name, filename, source):
        key = hashlib.sha256(f"{name}\0{source}".encode("utf-8", "surrogatepass")).hexdigest()
        bucket = jinja2.bccache.Bucket(environment, key, "")
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket) -> None:
        bucket.code = self.code.get(bucket.key)

    def dump_bytecode(self, bucket) -> None:
        if len(self.code) >= MAX_COMPILED:      # a long --watch session: the oldest versions go
            del self.code[next(iter(self.code))]
        self.code[bucket.key] = bucket.code


MAX_COMPILED = 2_000
COMPILED = _CompiledHere()


def generate(template: jinja2.Template, context: dict, merged: bool = False):
    """template.generate(context), with the template's globals flattened once per template:
    Jinja copies them out of a ChainMap key by key on every call (4.5 us a card). The
    context made is the one Jinja makes (globals under the given names, the same globals_keys).
    `merged`: `context` is {**flat_globals(env), **what the template is given} already (a
    renderer makes that once per group: 0.5 us a card)."""
    flat = _FLAT_GLOBALS.get(template)
    if flat is None:
        flat = _FLAT_GLOBALS[template] = dict(template.globals)
    env = template.environment
    ctx = env.context_class(env, context if merged else {**flat, **context}, template.name, template.blocks,
                            globals=flat)
    try:
        yield from template.root_render_func(ctx)
    except Exception:
        yield env.handle_exception()     # (raises it, its traceback on the template's lines)


_FLAT_GLOBALS: "weakref.WeakKeyDictionary[jinja2.Template, dict]" = weakref.WeakKeyDictionary()


def flat_globals(env: jinja2.Environment) -> dict:
    """The globals every template of `env` is given (a template's own globals are env's: none
    is loaded with globals of its own), as generate flattens them."""
    return dict(env.make_globals(None))


def template_family(env: jinja2.Environment, name: str, parse):
    """(name, source, parse(name, source)) for the template and, in turn, every template it
    includes or imports. parse's result holds, second, the names the template references
    (None for one chosen at run time: not followed, the caller decides what it means)."""
    todo, seen = [name], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        source = env.loader.get_source(env, current)[0]
        parsed = parse(current, source)
        yield current, source, parsed
        todo += [ref for ref in parsed[1] if ref is not None]


def names_and_references(tree) -> tuple[frozenset, tuple]:
    """The context names a parsed template reads, and the templates it references."""
    return (frozenset(jinja2.meta.find_undeclared_variables(tree)),
            tuple(jinja2.meta.find_referenced_templates(tree)))


def reads_any(env: jinja2.Environment, name: str, names: tuple[str, ...]) -> bool:
    """Whether the template, or any template it includes or imports, reads one of `names` from
    its context (an include chosen at run time: it may)."""
    try:
        for _, _, (read, referenced) in template_family(env, name, lambda _, source: names_and_references(env.parse(source))):
            if set(names) & read or None in referenced:
                return True
    except (jinja2.TemplateError, OSError, UnicodeError, RecursionError, MemoryError):
        return True         # rendering it will say what is wrong, with its place
    return False


def check_template(env: jinja2.Environment, name: str) -> str:
    """'' when the template exists and compiles, else what is wrong."""
    try:
        env.get_template(name)
    except jinja2.TemplateNotFound:
        return f"template '{name}' not found"
    except jinja2.TemplateSyntaxError as exc:
        return f"template '{name}' line {exc.lineno}: {exc.message}"
    except jinja2.TemplateError as exc:
        return str(exc)
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError) as exc:
        # Jinja turned the template into Python that Python refuses (a keyword given twice, a
        # literal too large): the line numbers are the generated code's, so only the reason is told
        return f"template '{name}' cannot be compiled: {getattr(exc, 'msg', None) or exc}"
    return ""


class Helpers:
    """The drawing helpers of one game, bound to its fonts, palette and icons."""

    def __init__(self, game, lenient: bool = False):
        self.game, self.lenient = game, lenient
        self._warned: dict[str, list[str]] = {}   # message -> the faces it was given for
        self.shrunk: list[str] = []       # text set below its size to fit: shown by the preview
        self.said: list[str] = []          # every warning in order, face by face (the face cache replays them)
        self._styles = {}
        self.face = ""                  # the face being rendered, as warnings name it
        self.bounds = None              # (width, height) in mm of that face: text must stay on it
        self.placed = onface.Placed()   # the text blocks drawn on that face
        self.runs: facedoc.RunTable | None = None   # where a renderer keeps the runs as they are (else: SVG text)
        self._run_styles: dict[tuple, facedoc.RunStyle] = {}
        self._blocks: dict[tuple, _Block] = {}      # text_box's arguments -> the block it laid out
        self.pictures: list[tuple[str, str]] = []   # (name, digest) of every picture drawn, in order (the face cache checks them)

    def remember(self) -> tuple:
        """Where what the helpers said stands now (forget_since undoes what follows)."""
        return (len(self.said), len(self.shrunk), len(self.pictures), {m: len(f) for m, f in self._warned.items()})

    def forget_since(self, mark: tuple) -> None:
        said, shrunk, pictures, warned = mark
        del self.said[said:], self.shrunk[shrunk:], self.pictures[pictures:]
        self._warned = {m: faces[:warned[m]] for m, faces in self._warned.items() if m in warned}

    def warn(self, message: str) -> None:
        self._warned.setdefault(message, []).append(self.face)
        self.said.append(message)

    @property
    def warnings(self) -> list[str]:
        """Each warning once, on the first face it concerns, with how many more faces share it."""
        out = []
        for message, faces in self._warned.items():
            more = f" (the same on {len(faces) - 1} more faces)" if len(faces) > 1 else ""
            out.append(f"{faces[0] + ': ' if faces[0] else ''}{message}{more}")
        return out

    def style(self, font: str, color: str | None) -> Style:
        key = (font, color)
        if key not in self._styles:
            role = self.game.fonts.get(font)
            if role is None:
                raise TextFitError(f"font role '{font}' is not declared in game.yaml fonts")
            metrics = library().metrics(role.family, role.bold, role.italic)
            self._styles[key] = Style(role.family, role.bold, role.italic, metrics,
                                      color or self.game.palette.get("ink", "#000000"))
        return self._styles[key]

    def text_box(self, text, x, y, w, h, size=9, min_size=6, font="body", color=None,
                 align="left", valign="top", line_height=1.2, max_lines=None):
        check_lengths("text_box", _BOX_LENGTHS, (x, y, w, h, size, min_size, line_height))
        if max_lines is not None:
            check_lengths("text_box", ("max_lines",), (max_lines,))
        return self._box(text, x, y, w, h, size, min_size, font, color, align, valign, line_height, max_lines)

    def _box(self, text, x, y, w, h, size, min_size, font, color, align, valign, line_height, max_lines):
        """text_box with its arguments checked (text_line's: checked once, not twice)."""
        text = str(text)
        key = (text, x, y, w, h, size, min_size, font, color, align, valign, line_height, max_lines)
        try:
            block = self._blocks.get(key)
        except TypeError:           # an unhashable argument: laid out (and refused) below
            key = block = None
        if block is None:
            block = self._laid_out(text if text.isascii() else composed(text), x, y, w, h, size, min_size, font,
                                   color, align, valign, line_height, max_lines)      # (ASCII is composed)
            if key is not None:
                if len(self._blocks) >= MAX_BLOCKS:
                    self._blocks.clear()
                self._blocks[key] = block
        for told, message in block.said:        # what laying it out says, said on every face it is on
            (self.warn if told else self.shrunk.append)(message)
        table = self.runs
        if table is None or not block.has_runs:     # its SVG (icons alone are written so too)
            markup, first = block.svg, None
        else:                           # its placeholder, its parts kept in the face's table
            first = len(table.blocks)
            markup = table.placeholder(block.parts, block.svg)
        if self.bounds is not None:     # checked on the face, where its transforms are known
            onface.place(self.placed, first, markup, block.shown, block.extent)
        return _markup(markup)

    def _laid_out(self, text, x, y, w, h, size, min_size, font, color, align, valign, line_height,
                  max_lines) -> "_Block":
        """A text block fitted and laid out (what text_box draws), or TextFitError."""
        style = self.style(font, color)
        unknown = [name for name in ICON_TOKEN.findall(text) if name not in self.game.icons] if ":" in text else ()
        if unknown:
            raise TextFitError(f"icon ':{unknown[0]}:' in {snippet(text)} is not declared in game.yaml icons; "
                               + _icon_hint(unknown[0], self.game.icons, ":{}:"))
        said = []
        fitted = fit(text, w, h, size, min_size, style, self.game.icons, line_height, max_lines)
        if fitted is None:
            message = (f"text {snippet(text)} does not fit its {w:g} x {h:g} mm box even at {min_size:g} pt; "
                       "shorten the text, or enlarge the box or lower min_size in the template")
            if not self.lenient:
                raise TextFitError(message)
            said.append((True, message))
            fitted = _truncated(text, w, h, min_size, style, self.game.icons, line_height)
        size_mm, lines = fitted
        if mm_to_pt(size_mm) < size - 0.01:
            said.append((False, f"text {snippet(text)} set at {round(mm_to_pt(size_mm), 2):g} pt to fit (asked {size:g} pt)"))
        if size_mm < pt_to_mm(READABLE_PT) - 1e-9:
            said.append((True, f"text {snippet(text)} is shrunk to "
                               f"{size_mm / pt_to_mm(1):.2f} pt to fit, below the {READABLE_PT} pt most players "
                               f"can read; shorten the text or enlarge its box"))
        parts, extent = block_parts(lines, x, y, w, h, size_mm, style, self.game.icons, align, valign, line_height,
                                    self._run_style(style, size_mm))
        return _Block(parts, extent, snippet(text), tuple(said), facedoc.parts_svg(parts), tuple in map(type, parts))

    def _run_style(self, style: Style, size_mm: float) -> facedoc.RunStyle:
        """How runs of this style and size are written: made once (the drawing stage keys its
        cache by the object)."""
        key = (style.family, style.bold, style.italic, str(style.color), size_mm)
        run_style = self._run_styles.get(key)
        if run_style is None:
            run_style = self._run_styles[key] = facedoc.run_style(style.family, size_mm, style.bold, style.italic,
                                                                   style.color)
        return run_style

    def text_line(self, text, x, y, w, size=9, min_size=5, font="body", color=None, align="center"):
        check_lengths("text_line", _LINE_LENGTHS, (x, y, w, size, min_size))
        style = self._styles.get((font, color)) or self.style(font, color)
        top, h = y - style.metrics.ascent * (size * _MM_PER_PT), 10 * (size * _MM_PER_PT)
        # the box's top and height from checked numbers: within range but at the very edge, where
        # text_box refuses them as it always has
        box = self._box if -MAX_MM <= top <= MAX_MM and -MAX_MM <= h <= MAX_MM else self.text_box
        # one line, shrunk to fit: never wrapped onto a second line
        return box(str(text).replace("\n", " "), x, top, w, h, size, min_size, font, color, align, "top", 1.2, 1)

    @physical("x", "y", "size")
    def icon(self, name, x, y, size, color=None):
        icon = self.game.icons.get(name)
        if icon is None:
            raise TextFitError(f"icon '{name}' is not declared in game.yaml icons; " + _icon_hint(name, self.game.icons))
        markup = icon_svg(icon, x, y, size, color)
        self.placed.note(markup)
        return Markup(markup)

    def picture(self, src) -> art.Art:
        """A picture of the pack, loaded and checked (ArtError says why not), noted as drawn."""
        found = art.load(self.game.root, src)
        self.pictures.append((found.name, found.digest))
        return found

    @physical("x", "y", "w", "h")
    def image(self, src, x, y, w, h, fit="cover", focus="center"):
        picture = self.picture(src)
        if fit not in FITS:
            hint = did_you_mean(fit, FITS)
            raise ValueError(f"image(): fit={fit!r} is not one of {', '.join(FITS)}" + (f"; {hint}" if hint else ""))
        if not (w > 0 and h > 0):
            raise ValueError(f"image(): the box {w:g} x {h:g} mm is empty; give a positive width and height")
        fx, fy = focus_point(focus)
        placed = FITS[fit](picture.width, picture.height, w, h)
        if picture.raster:
            self._check_resolution(picture, placed)
        return Markup(_picture_svg(picture, x, y, w, h, fit, fx, fy, placed))

    def _check_resolution(self, picture, placed) -> None:
        """Below MIN_DPI at the size it prints, a warning naming the face and the dpi."""
        dpi = min(picture.width / placed[0], picture.height / placed[1]) * 25.4
        if dpi < MIN_DPI - 0.5:
            self.warn(f"image '{picture.name}' prints at {dpi:.0f} dpi ({picture.width:g} x {picture.height:g} pixels "
                      f"over {placed[0]:.1f} x {placed[1]:.1f} mm), below the {MIN_DPI} dpi a print needs to look "
                      "sharp; use a larger image")

    def on(self, color, dark=None, light="#ffffff"):
        return light if luminance(color) < 0.6 else (dark or self.game.palette.get("ink", "#000000"))

    def bind(self) -> dict:
        return {"text_box": self.text_box, "text_line": self.text_line, "icon": self.icon,
                "hex_corners": hex_corners, "hex_grid": hex_grid, "arrow": arrow, "on": self.on,
                "image": self.image}


_BOX_LENGTHS = ("x", "y", "w", "h", "size", "min_size", "line_height")     # text_box's lengths (and max_lines)
_LINE_LENGTHS = ("x", "y", "w", "size", "min_size")


class _Block(NamedTuple):
    """A text block as text_box laid it out, kept for the next face that asks for the same text
    in the same box: its parts (textfit.block_parts), its ink's box, its text as messages show it, and
    what laying it out said ((True, a warning) or (False, a note that it was shrunk)), in order;
    and its parts' SVG text (written once: the face's SVG holds it), and whether it has runs
    (else it is icons alone)."""
    parts: tuple
    extent: tuple
    shown: str
    said: tuple
    svg: str
    has_runs: bool


def _markup(text: str) -> Markup:
    """Markup(text) for a str, without Markup.__new__'s checks in Python (an __html__ method,
    an encoding: a str has neither): four times a card."""
    return str.__new__(Markup, text)


MAX_BLOCKS = 4096           # text blocks remembered per renderer; the oldest are all dropped at once
MIN_DPI = 200               # a picture printed at less looks soft
# fit -> the size (mm) the whole picture is drawn at in a w x h box
FITS = {
    "cover": lambda iw, ih, w, h: (iw * max(w / iw, h / ih), ih * max(w / iw, h / ih)),
    "contain": lambda iw, ih, w, h: (iw * min(w / iw, h / ih), ih * min(w / iw, h / ih)),
    "fill": lambda iw, ih, w, h: (w, h),
}
FOCUS = {"center": (0.5, 0.5), "centre": (0.5, 0.5), "top": (0.5, 0.0), "bottom": (0.5, 1.0),
         "left": (0.0, 0.5), "right": (1.0, 0.5), "top-left": (0.0, 0.0), "top-right": (1.0, 0.0),
         "bottom-left": (0.0, 1.0), "bottom-right": (1.0, 1.0)}


def focus_point(focus) -> tuple[float, float]:
    """image()'s focus as fractions of the picture across and down: a name ('top', 'bottom-left'),
    'x,y' or a pair of numbers from 0 to 1."""
    if isinstance(focus, str) and focus.strip().lower() in FOCUS:
        return FOCUS[focus.strip().lower()]
    parts = focus.split(",") if isinstance(focus, str) else focus
    try:
        fx, fy = (float(p) for p in parts)
    except (TypeError, ValueError):
        fx = fy = math.nan
    if not (0 <= fx <= 1 and 0 <= fy <= 1):
        raise ValueError(f"image(): focus={focus!r} is neither one of {', '.join(FOCUS)} nor two fractions "
                         "from 0 to 1 such as '0.5,0.2' (across, down)")
    return fx, fy


def _picture_svg(picture, x, y, w, h, fit, fx, fy, placed) -> str:
    """The SVG of a picture in its box: cover as a nested <svg> whose viewBox is the part of
    the picture that shows (plain SVG, so cairosvg and browsers draw it alike), contain and
    fill as an <image> of the size it is drawn."""
    href = picture.href
    if fit == "cover":
        scale = placed[0] / picture.width
        sw, sh = w / scale, h / scale
        sx, sy = (picture.width - sw) * fx, (picture.height - sh) * fy
        if picture.view_box:
            sx, sy = sx + picture.view_box[0], sy + picture.view_box[1]
        return (f'<svg x="{x:.4f}" y="{y:.4f}" width="{w:.4f}" height="{h:.4f}" '
                f'viewBox="{sx:.4f} {sy:.4f} {sw:.4f} {sh:.4f}" preserveAspectRatio="none">'
                f'<image href="{href}" x="{(picture.view_box or (0, 0))[0]:.4f}" y="{(picture.view_box or (0, 0))[1]:.4f}" '
                f'width="{picture.width:.4f}" height="{picture.height:.4f}" preserveAspectRatio="none"/></svg>')
    dx, dy = x + (w - placed[0]) * fx, y + (h - placed[1]) * fy
    return (f'<image href="{href}" x="{dx:.4f}" y="{dy:.4f}" width="{placed[0]:.4f}" height="{placed[1]:.4f}" '
            f'preserveAspectRatio="none"/>')


def _icon_hint(name: str, icons, written: str = "{}") -> str:
    """The closest declared icon, written as the template wrote the name; else how to declare it."""
    return did_you_mean(written.format(name), [written.format(known) for known in icons],
                        f"add it under icons: in game.yaml ({name}: icons/{name}.svg), or use one declared there")


def luminance(color) -> float:
    """Relative lightness 0..1 of a #rrggbb colour (0.5 for anything else)."""
    text = str(color)
    if not (text.startswith("#") and len(text) == 7):
        return 0.5
    r, g, b = (int(text[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def hex_corners(cx, cy, flat, orientation="pointy") -> str:
    w, h = (flat, flat * 2 / SQRT3) if orientation == "pointy" else (flat * 2 / SQRT3, flat)
    return " ".join(f"{cx - w / 2 + x:.3f},{cy - h / 2 + y:.3f}" for x, y in hex_points(w, h, orientation))


def hex_grid(cols, rows, flat, x=0.0, y=0.0, orientation="pointy"):
    """Centres of a cols x rows hex grid whose bounding box starts at (x, y); odd rows shifted
    right (pointy) or odd columns shifted down (flat). Each: {col, row, cx, cy}."""
    if cols * rows > MAX_RANGE:
        raise jinja2.exceptions.SecurityError(f"hex_grid() of {cols:,} x {rows:,} cells is over the limit of {MAX_RANGE:,}")
    radius = flat / SQRT3
    cells = []
    for row in range(rows):
        for col in range(cols):
            if orientation == "pointy":
                cx = x + flat / 2 + col * flat + (flat / 2 if row % 2 else 0)
                cy = y + radius + row * 1.5 * radius
            else:
                cx = x + radius + col * 1.5 * radius
                cy = y + flat / 2 + row * flat + (flat / 2 if col % 2 else 0)
            cells.append({"col": col, "row": row, "cx": cx, "cy": cy})
    return cells


def arrow(x1, y1, x2, y2, shorten=0.0, head=1.5) -> str:
    """SVG path data of an arrow from (x1, y1) to (x2, y2): a line (stroke it) and a head (it is
    closed, so fill it too); both ends pulled in by `shorten` mm."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    ax, ay = x1 + ux * shorten, y1 + uy * shorten
    bx, by = x2 - ux * shorten, y2 - uy * shorten
    lx, ly = bx - ux * head, by - uy * head
    px, py = -uy * head * 0.6, ux * head * 0.6
    return (f"M{ax:.3f},{ay:.3f}L{lx:.3f},{ly:.3f}"
            f"M{bx:.3f},{by:.3f}L{lx + px:.3f},{ly + py:.3f}L{lx - px:.3f},{ly - py:.3f}Z")


def _truncated(text, w, h, min_pt, style, icons, line_height):
    """--lenient: the text at its smallest size, cut at the last whole line that fits, with '...'."""
    size = pt_to_mm(min_pt)
    words = text.split()
    while words:
        candidate = " ".join(words) + "..."
        lines = layout_lines(candidate, w, size, style, icons)
        if lines is not None and (len(lines) - 1) * size * line_height + size <= h:
            return size, lines
        words.pop()
    return size, []
