"""A game pack -> output/<game>-preview/: an HTML contact sheet of every face, front and back.

Faces are grouped as in the manifests (file, then group), each group with its size, count and
rulebook count, each face with the notes its rendering gave (text set smaller to fit); warnings
and the built PDFs head the page. Face images are PNGs named by the hash of what they show, so a
rebuild writes only the faces that changed and the browser reloads only those. When the pack is
broken the page is an error panel (file:line: what is wrong) instead of stale faces.

`watch()` rebuilds whenever a file of the pack or a shared template changes; the page, served
over HTTP, polls state.json and reloads itself when the version there is not its own.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import html
import json
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import quote

from . import interrupt
from .build import BuildResult, build
from .request import BuildRequest, group_options
from .cache import FaceCache
from .errors import BuildError, ManifestError
from .fonts import library
from .manifest import load_pack, pack_id
from .model import Game, Group
from .parallel import in_halves
from .publish import OwnFolder
from .raster import face_png, px
from .render import FaceRef
from .templating import TEMPLATE_DIR

PREVIEW_SUFFIX = "-preview"
FACES_DIR = "faces"
DEFAULT_DPI = 100
POLL_SECONDS = 0.1        # how often watch() looks at the files (a page polls its state alike)


def preview_folder(pack_root: Path, request: BuildRequest) -> Path:
    """output/<game>-preview/, beside the build's output/<game>/: a build replaces its folder
    whole, so the preview, written far more often, keeps its own."""
    return Path(request.out_dir) / (pack_id(Path(pack_root).resolve()) + PREVIEW_SUFFIX)


# --- the page's content ----------------------------------------------------------------------

@dataclass
class FaceView:
    side: str
    image: str           # file name under faces/
    width: float
    height: float


@dataclass
class ItemView:
    id: str
    copies: int
    faces: list[FaceView]
    notes: tuple[str, ...]


@dataclass
class GroupView:
    group: Group
    bleed: float
    items: list[ItemView]
    shared_back: FaceView | None = None


@dataclass
class Contents:
    """What the page shows, and the face images it needs (file name -> (svg, group))."""
    groups: list[GroupView] = field(default_factory=list)
    images: dict[str, tuple[str, Group]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def contents(game: Game, request: BuildRequest, cache: FaceCache, dpi: float) -> Contents:
    """Render every distinct face of every group through the cache (a template error raises
    BuildError, as a build would)."""
    out, options = Contents(), group_options(game, request)
    for group in game.groups:
        bleed = options[group.id].bleed
        renderer = cache.renderer(game, bleed, request.lenient)
        view = GroupView(group, bleed, [])
        for item in group.items:
            faces, notes = [], []
            for side in ("front", "back") if group.back_template else ("front",):
                face = FaceRef(group, item, side)
                svg = renderer.svg(face)
                name = _image_name(svg, group, dpi)
                out.images[name] = (svg, group)
                faces.append(FaceView(side, name, group.width, group.height))
                notes += renderer.notes.get(face.key, ())
            view.items.append(ItemView(item.id, item.copies, faces, tuple(notes)))
        backs = {v.faces[1].image for v in view.items if len(v.faces) > 1}
        if len(backs) == 1 and len(view.items) > 1:      # one back for the whole group: shown once
            view.shared_back = view.items[0].faces[1]
            for v in view.items:
                v.faces = v.faces[:1]
        out.groups.append(view)
        out.warnings += renderer.warnings
    return out


def _image_name(svg: str, group: Group, dpi: float) -> str:
    outline = group.outline(0)
    return _named(svg, f"{group.width}|{group.height}|{outline.form}|{outline.data}|{dpi}|"
                       f"{library().content_digest()}")        # a pack font edited: drawn again


@functools.lru_cache(maxsize=200_000)
def _named(svg: str, drawn_as: str) -> str:
    """The image's file name: a hash of what it shows (remembered: a watch rebuilds often)."""
    return hashlib.sha256(f"{drawn_as}\n{svg}".encode()).hexdigest()[:24] + ".png"


# --- writing ---------------------------------------------------------------------------------

def write_preview(game: Game, request: BuildRequest, cache: FaceCache, files: list[dict],
                  dpi: float = DEFAULT_DPI) -> Path:
    """Write preview/index.html and the face images it lacks; return the page's path."""
    _check_pixels(game, dpi)
    page = contents(game, request, cache, dpi)
    with OwnFolder(preview_folder(game.root, request)) as folder, OwnFolder(folder.path / FACES_DIR, folder) as faces:
        present = set(faces.names())
        missing = [(name, svg, group) for name, (svg, group) in page.images.items()
                   if name not in present or not _plain_file(faces, name)]
        for (name, _, group), png in zip(missing, _rasterized(missing, dpi)):
            if isinstance(png, ValueError):       # e.g. an <image> pointing at a file or URL
                raise BuildError(f"{group.file}: group '{group.id}': {png}")
            faces.write(name, png)
        _publish(folder, _page_html(game, page, files))
        for stale in present:
            if stale.endswith(".png") and stale not in page.images:
                faces.remove(stale)
        return folder.path / "index.html"


MAX_PIXELS = 40_000_000     # one face image: a 600 x 800 mm board at 200 dpi is 30 million


def _check_pixels(game: Game, dpi: float) -> None:
    """Refused before drawing: a face image past MAX_PIXELS (a --dpi meant for print, not a screen)."""
    for group in game.groups:
        w, h = px(group.width, dpi), px(group.height, dpi)
        if w * h > MAX_PIXELS:
            raise BuildError(f"{group.mark}: group '{group.id}' at {dpi:g} DPI is {w} x {h} pixels, over the limit "
                             f"of {MAX_PIXELS // 1_000_000} million for a preview image; preview with a lower --dpi "
                             f"(at most {_highest_dpi(group)})")


def _highest_dpi(group: Group) -> int:
    return int((MAX_PIXELS / (group.width * group.height)) ** 0.5 * 25.4) - 1


def _plain_file(folder: OwnFolder, name: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(name, dir_fd=folder.fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


MIN_FACES_TO_FORK = 24       # below this, starting a second process costs more than it saves


def _rasterized(todo: list, dpi: float):
    """The PNG (or the ValueError) of each (name, svg, group), in order; on both cores when
    there are many (the first preview of a pack draws every face)."""
    jobs = [(svg, g.width, g.height, g.outline(0), dpi) for _, svg, g in todo]

    def draw(start: int, stop: int, advance) -> list:
        return [_png_or_error(job) for job in jobs[start:stop]]
    # parallel's workers, not a multiprocessing.Pool: a Pool ends its idle workers with SIGTERM,
    # which the CLI's handler turned into "interrupted by SIGTERM" tracebacks (and once a hang)
    return [png for half in in_halves(len(jobs), draw, minimum=MIN_FACES_TO_FORK) for png in half]


def _png_or_error(job):
    try:
        return face_png(*job)
    except ValueError as exc:
        return ValueError(str(exc))


def write_error_page(pack_root: Path, request: BuildRequest, problems: list[str]) -> Path:
    """The page when the pack cannot be built: every problem, and no faces that are not it."""
    items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in problems)
    return _write_notice(pack_root, request, "errors", (
        f'<section class="error-panel" id="errors"><h2>The pack has errors; fix them and save: '
        f"this page shows the faces again by itself</h2><ul>{items}</ul></section>"))


def write_waiting_page(pack_root: Path, request: BuildRequest) -> Path:
    """The page an open tab shows until the first build is done (then it reloads by itself)."""
    return _write_notice(pack_root, request, "building", '<p id="building">Building the preview...</p>')


def _write_notice(pack_root: Path, request: BuildRequest, title: str, body: str) -> Path:
    name = html.escape(Path(pack_root).resolve().name)
    with OwnFolder(preview_folder(pack_root, request)) as folder:
        _publish(folder, _document(f"{name}: {title}", f"<header><h1>{name}</h1></header>{body}"))
        return folder.path / "index.html"


def _publish(folder: OwnFolder, page: str) -> None:
    """index.html first, then state.json with its version: an open page that sees the new
    version reloads and finds the new page already there."""
    version = hashlib.sha256(page.encode()).hexdigest()[:16]
    folder.write("index.html", page.replace("@VERSION@", version).encode())
    folder.write("state.json", json.dumps({"version": version}).encode())


# --- HTML ------------------------------------------------------------------------------------

STYLE = """
body { font: 14px/1.4 "Liberation Sans", Arial, sans-serif; margin: 0 24px 48px; color: #222; background: #eceae4; }
header { position: sticky; top: 0; background: #eceae4; padding: 12px 0 8px; border-bottom: 1px solid #ccc; z-index: 1; }
h1 { margin: 0 0 4px; font-size: 22px; } h2 { margin: 28px 0 8px; font-size: 18px; }
h3 { margin: 20px 0 4px; font-size: 15px; } .id { color: #777; font-weight: normal; font-size: 12px; }
.meta { margin: 0 0 8px; color: #555; } .file { margin-right: 18px; }
.faces { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
figure { margin: 0; padding: 6px; background: #fff; border: 1px solid #d6d3cb; border-radius: 4px; }
figure img { display: block; max-width: 60vw; height: auto; } .sides { display: flex; gap: 6px; }
figcaption { font-size: 12px; color: #444; margin-top: 4px; } .copies { color: #a33; font-weight: bold; }
.notes { margin: 2px 0 0; padding-left: 16px; font-size: 11px; color: #8a5a00; max-width: 260px; }
.warnings { background: #fff6dd; border: 1px solid #e6c46a; padding: 4px 16px; border-radius: 4px; }
.error-panel { background: #ffe9e9; border: 2px solid #c0392b; padding: 4px 16px 12px; border-radius: 4px; }
.error-panel h2 { color: #c0392b; } .error-panel code { white-space: pre-wrap; font-size: 14px; }
"""

# A page served over HTTP (pnpgen preview --watch) reloads itself when the preview changes.
RELOAD = """
(function () {
  if (!location.protocol.startsWith("http")) return;
  var mine = document.querySelector('meta[name="pnpgen-version"]').content;
  function poll() {
    fetch("state.json", {cache: "no-store"}).then(function (r) { return r.json(); })
      .then(function (s) { if (s.version !== mine) location.reload(); else setTimeout(poll, 250); })
      .catch(function () { setTimeout(poll, 1000); });
  }
  setTimeout(poll, 250);
})();
"""


def _document(title: str, body: str) -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="pnpgen-version" content="@VERSION@"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head>\n<body>\n{body}\n<script>{RELOAD}</script></body></html>\n")


def _page_html(game: Game, page: Contents, files: list[dict]) -> str:
    faces = sum(len(v.faces) for g in page.groups for v in g.items) + sum(1 for g in page.groups if g.shared_back)
    links = "".join(f'<span class="file"><a href="../{quote(game.id)}/{quote(f["path"])}">{html.escape(f["path"])}</a>'
                    + (f' ({f["pages"]} p.)' if f.get("pages") else "") + "</span>"
                    for f in files if f["path"].endswith(".pdf"))
    fonts = ", ".join(f"{role}: {f.family}{' bold' if f.bold else ''}{' italic' if f.italic else ''}"
                      for role, f in game.fonts.items())
    head = (f"<header><h1>{html.escape(game.title)}</h1>"
            f'<p class="meta">{game.total} components in {len(game.groups)} groups, {faces} distinct faces; '
            f"fonts (embedded in the PDFs): {html.escape(fonts)}</p>"
            f'<p class="files">{links or "PDFs: being built"}</p></header>')
    sections, by_file = [], {}
    for view in page.groups:
        by_file.setdefault(view.group.file, []).append(view)
    for file, views in by_file.items():
        sections.append(f'<section class="manifest"><h2>{html.escape(Path(file).name)}</h2>'
                        + "".join(_group_html(v) for v in views) + "</section>")
    return _document(f"{game.title}: pnpgen preview", head + _warnings_html(game, page) + "".join(sections))


def _warnings_html(game: Game, page: Contents) -> str:
    lines = list(page.warnings)
    shrunk = sum(len(v.notes) > 0 for g in page.groups for v in g.items)
    if shrunk:
        lines.append(f"{shrunk} item(s) have text set smaller than asked, to fit (noted under each face)")
    unchecked = [g.name for g in game.groups if g.rulebook_count is None]
    if unchecked:
        lines.append(f"no rulebook_count, so their totals are not checked: {', '.join(unchecked)}")
    if not lines:
        return ""
    return ('<section class="warnings" id="warnings"><h2>Warnings</h2><ul>'
            + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul></section>")


def _group_html(view: GroupView) -> str:
    g = view.group
    count = (f"{g.total} components = the rulebook's {g.rulebook_count}" if g.rulebook_count is not None
             else f"{g.total} components (no rulebook count)")
    meta = [g.kind, g.shape, f"{g.width:g} × {g.height:g} mm", f"bleed {view.bleed:g} mm", count,
            "two-sided" if g.sides == 2 else "one-sided"] + (["prototype content"] if g.prototype_content else [])
    figures = [_figure(v.faces, f"{v.id}", v.copies, v.notes) for v in view.items]
    if view.shared_back:
        figures.append(_figure([view.shared_back], "back of every item", None, ()))
    return (f'<div class="group" id="group-{html.escape(g.id)}"><h3>{html.escape(g.name)} '
            f'<span class="id">{html.escape(g.id)}</span></h3><p class="meta">{html.escape(" · ".join(meta))}</p>'
            f'<div class="faces">{"".join(figures)}</div></div>')


def _figure(faces: list[FaceView], caption: str, copies: int | None, notes: tuple) -> str:
    images = "".join(f'<img src="{FACES_DIR}/{f.image}" alt="{html.escape(caption)} {f.side}" '
                     f'title="{html.escape(caption)} ({f.side})" style="width: {f.width:g}mm">' for f in faces)
    times = f' <span class="copies">×{copies}</span>' if copies is not None else ""
    noted = ("<ul class=\"notes\">" + "".join(f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>") if notes else ""
    return (f'<figure class="item"><div class="sides">{images}</div>'
            f"<figcaption>{html.escape(caption)}{times}</figcaption>{noted}</figure>")


# --- one rebuild, and the watch loop ---------------------------------------------------------

@dataclass
class Rebuilt:
    """What one rebuild did, for the command line to report."""
    page: Path
    problems: list[str]
    preview_seconds: float
    pdf_seconds: float | None = None
    result: BuildResult | None = None


class Session:
    """A pack previewed over time: the face cache and the last build's files survive rebuilds."""

    def __init__(self, pack_root: Path, request: BuildRequest, dpi: float = DEFAULT_DPI):
        self.pack_root, self.dpi = Path(pack_root).resolve(), dpi
        self.cache = FaceCache()
        self.request = dataclasses.replace(request, face_cache=self.cache)
        self.files: list[dict] = []

    def rebuild(self, on_preview: Callable[[Rebuilt], None] | None = None) -> Rebuilt:
        """Preview first (quick), then the PDFs; a problem at either step gives the error page."""
        start = time.perf_counter()
        try:
            game = load_pack(self.pack_root)
            page = write_preview(game, self.request, self.cache, self.files, self.dpi)
        except (ManifestError, BuildError) as exc:
            return self._failed(exc, start)
        done = Rebuilt(page, [], time.perf_counter() - start)
        if on_preview:
            on_preview(done)
        try:
            done.result = build(self.pack_root, self.request, game=game)
        except (ManifestError, BuildError) as exc:
            return self._failed(exc, start)
        if done.result.files != self.files:        # the page links the PDFs it now has
            self.files = done.result.files
            write_preview(game, self.request, self.cache, self.files, self.dpi)
        done.pdf_seconds = time.perf_counter() - start
        return done

    def _failed(self, exc, start: float) -> Rebuilt:
        problems = [str(p) for p in exc.problems] if isinstance(exc, ManifestError) else [str(exc)]
        page = write_error_page(self.pack_root, self.request, problems)
        return Rebuilt(page, problems, time.perf_counter() - start)


def watched_files(pack_root: Path, out_dir: Path) -> dict[str, tuple[int, int]]:
    """Every file of the pack (manifests, templates, icons, spreadsheets) and the shared
    templates, with (modification time, size); hidden files and the output folder left out."""
    out_dir = out_dir.resolve()
    state = {}
    for root in (pack_root, TEMPLATE_DIR):
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and Path(folder, d).resolve() != out_dir]
            for name in names:
                if name.startswith("."):
                    continue
                path = os.path.join(folder, name)
                try:
                    info = os.stat(path)
                except OSError:
                    continue          # removed while we looked: the next look sees it gone
                state[path] = (info.st_mtime_ns, info.st_size)
    return state


def watch(session: Session, report: Callable[[Rebuilt], None],
          report_preview: Callable[[Rebuilt], None] | None = None, poll: float = POLL_SECONDS,
          until: Callable[[], bool] = lambda: False) -> None:
    """Rebuild after every change until interrupted (Ctrl-C, SIGTERM) or until() is true."""
    out_dir = Path(session.request.out_dir)
    seen = watched_files(session.pack_root, out_dir)
    while not until():
        interrupt.check()
        time.sleep(poll)
        now = watched_files(session.pack_root, out_dir)
        if now != seen:
            seen = now
            report(session.rebuild(report_preview))


def page_url(server, pack_root: Path) -> str:
    """The page's address, with the run's secret (serve.py) that the browser keeps as a cookie."""
    return server.url(pack_id(Path(pack_root).resolve()) + PREVIEW_SUFFIX + "/index.html")
