"""A game pack folder -> output/<game>/: sheets PDF, board PDFs and build.json (what was built,
how to print it, and every font the PDFs embed with its file and licence).

build() reads top to bottom like the pipeline. The finished files replace the output folder
in one step (publish.write_atomically), so a failed or killed build leaves the earlier output
as it was.
"""
from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from .boardplan import BoardPlans, plan_boards
from .cache import FaceDigests, renderer_for, streamed_document
from .changes import DIGESTS, Baseline, Changes, compare, shown_faces
from .errors import BuildError
from .jsontext import DictForm, json_write
from .impose import FaceTooLarge, Options, Run, impose_runs, impose_single, placed_faces, sheet_infos
from .manifest import PAPERS, PRINT_SHOP, load_pack
from .model import Game, Group
from .pdfinfo import fonts_used, page_size, pages_of
from .publish import StagedFile, check_not_locked, write_atomically
from .render import Copies, Renderers, drawn_face_place, expand_faces, face_batch
from .presets import preset, shop_sheets
from .printer import SHIFTED_SIDES, shift_backs
from .request import BuildRequest, Progress, group_options, options_for  # noqa: F401 (library API)
from .version import stamps, titled


@dataclass
class BuildResult:
    game: Game
    out_dir: Path
    files: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    digests: FaceDigests = field(default_factory=FaceDigests)   # face key -> render.face_digest
    changes: Changes | None = None           # with --changes-since: what changed
    options: dict | None = None               # group id -> impose.Options, each resolved once (request.py)
    boards: BoardPlans | None = None          # board group id -> how it is printed, decided once from those
    fonts: list[dict] = field(default_factory=list)
    cut_lines: dict[str, list[str]] = field(default_factory=dict)   # group id -> what was done with its cuts


def build(pack_root: Path, request: BuildRequest, progress: Progress | None = None,
          game: Game | None = None) -> BuildResult:
    progress = progress or Progress()
    game = game or load_pack(pack_root)                           # manifest -> model
    if request.version is not None:
        game = replace(game, version=request.version)
    result = BuildResult(game, Path(request.out_dir) / game.id, options=group_options(game, request))
    result.boards = plan_boards(game.groups, result.options)
    check_not_locked(result.out_dir)
    built = built_groups(game, request, result)
    staged: dict[str, bytes | StagedFile] = {}
    with tempfile.TemporaryDirectory(prefix="pnpgen-build-") as scratch:    # large files wait here, not in memory
        progress.start(sum(g.total * g.sides for g in built), f"{game.id}")
        for name, role, groups in documents(game, built, result.options, result.boards):
            staged[name], meta = _render_groups(game, groups, request, progress, role, result, Path(scratch) / name)
            result.files.append({"path": name, "role": role, **meta})
            _check_output_bytes(game, staged)
        progress.finish()
        if (game.root / "map.yaml").is_file():
            staged.update(_map_files(game, request, result))
        if (game.root / "handout.yaml").is_file():
            staged.update(_handout_file(game, request, result))
        if request.changes_since is not None:
            staged.update(_changes_file(game, request, result))
        if request.tuck_boxes is not None or any(g.tuck_box not in (None, "off") for g in game.groups):
            staged.update(_tuckbox_file(game, request, result))
        result.fonts = fonts_used(staged, game.root)
        staged["build.json"] = _staged_json(Path(scratch) / "build.json", *build_json_parts(game, request, result, built))
        _check_output_bytes(game, staged)
        write_atomically(result.out_dir, staged, replaces=previous_build_files(result.out_dir))
    return result


def _staged_json(path: Path, doc, streamed: dict) -> StagedFile:
    """jsontext.json_write's text of doc, written to `path` as it is made."""
    with open(path, "wb", buffering=1 << 16) as handle:
        json_write(doc, handle, streamed)
    return StagedFile(path)


def built_groups(game: Game, request: BuildRequest, result: BuildResult) -> list[Group]:
    """The groups this build prints: those named with --group (all when none); with a print-shop
    preset, those the shop sells, each other one skipped with a line of its own."""
    groups = game.select(request.groups)
    if request.preset:
        groups, skipped = preset(request.preset).sold(groups, named=bool(request.groups))
        result.warnings += skipped
    return groups


def documents(game: Game, groups: list[Group] | None = None, options: dict | None = None,
              plans: BoardPlans | None = None) -> list[tuple[str, str, list[Group]]]:
    """The PDFs of component faces a build writes: (file name, role, groups). Every card, tile and
    chit in one sheets file; the boards laid out like cards (those that fit the paper, and those
    cut into rectangles that do: `plans`, boardplan.plan_boards, else decided here) share sheets
    in one file, <game>-boards.pdf (named after the board when there is only one); each board
    tiled across pages in a file of its own."""
    docs = []
    groups = game.groups if groups is None else groups
    options = group_options(game, BuildRequest()) if options is None else options
    sheet_groups = [g for g in groups if g.kind != "mat"]
    if sheet_groups:
        docs.append((f"{game.id}-sheets.pdf", "sheets", sheet_groups))
    boards = [g for g in groups if g.kind == "mat"]
    plans = plan_boards(boards, options) if plans is None else plans
    laid = [g for g in boards if plans[g.id].laid_like_cards]
    if laid:
        docs.append((f"{game.id}-{'boards' if len(laid) > 1 else laid[0].id}.pdf", "board", laid))
    docs += [(f"{game.id}-{g.id}.pdf", "board", [g]) for g in boards if g not in laid]
    return docs


def board_files(docs: list[tuple[str, str, list[Group]]]) -> dict[str, str]:
    """Board group id -> the file that prints it."""
    return {g.id: name for name, role, groups in docs if role == "board" for g in groups}


def layout_problems(game: Game, request: BuildRequest, options: dict | None = None) -> list[str]:
    """What laying the faces out on paper would refuse (a face too large for the paper), found
    without drawing anything, so `validate` refuses what `build` would."""
    problems, pages = [], 0
    options = group_options(game, request) if options is None else options
    plans = plan_boards(game.groups, options)
    for _, role, groups in documents(game, None, options, plans):
        try:
            sheets = plan_sheets(game, groups, request, role, options, plans=plans)
            _check_pages(sheet_infos(sheets), groups, pages)
            pages += len(sheets)
        except BuildError as exc:
            problems.append(str(exc))
    return problems


def _map_files(game: Game, request: BuildRequest, result: BuildResult) -> dict[str, bytes]:
    """One layout for the default player count, seeded from the pack so rebuilds are identical."""
    from .maps import engine
    from .maps.output import map_files
    paper, (width, height) = _paper(game, request)
    opts = Options(paper=paper, page_width=width, page_height=height, margin=game.defaults["margin"],
                   bleed=0.0, marks="none")
    try:
        layout = engine.generate(game.root, game.defaults["map_seed"])
    except engine.MapError as exc:
        raise BuildError(f"{game.id}: map: {exc}") from None
    files = {}
    for fmt in ("pdf", "json"):
        files.update(map_files([layout], fmt, f"{game.id}-map", _titled(game), opts))
    for name, data in files.items():
        pages = pages_of(data) if name.endswith(".pdf") else 0
        size = page_size(data) if pages else (None, None)      # a wide map's page is landscape
        result.files.append({"path": name, "role": "map", "pages": pages,
                             "page_width_mm": size[0], "page_height_mm": size[1]})
    return files


def _handout_file(game: Game, request: BuildRequest, result: BuildResult) -> dict[str, bytes]:
    from .handout import handout_pdf, source_for
    _, size = _paper(game, request)
    pdf = handout_pdf(source_for(game.root, game.version), size)
    name = f"{game.id}-handout.pdf"
    result.files.append({"path": name, "role": "handout", "pages": pages_of(pdf),
                         "page_width_mm": size[0], "page_height_mm": size[1]})
    return {name: pdf}


def _paper(game: Game, request: BuildRequest) -> tuple[str, tuple[float, float]]:
    """Paper for whole-page documents (maps, handouts): --paper face means the pack's paper."""
    paper = request.paper if request.paper in PAPERS else game.defaults["paper"]
    return paper, (PAPERS[paper]["width"], PAPERS[paper]["height"])


def _face_calls(renderers: Renderers, streamed: bool) -> dict:
    """PdfWriter's face_svg, face_id, face_seen and face_ahead (None: the document's faces are
    kept, not streamed): the one renderer's own methods in a document of one group (called six
    times a face), else the face's group's; and face_batch, the block each window's faces are
    rendered ahead in (their time limits share one alarm)."""
    if len(renderers) == 1:
        (one,) = renderers.values()
        calls = {"face_svg": one.svg, "face_id": one.identity, "face_seen": one.seen, "face_ahead": one.keep}
    else:
        calls = {"face_svg": lambda f: renderers[f.group.id].svg(f), "face_id": lambda f: renderers[f.group.id].identity(f),
                 "face_seen": lambda f: renderers[f.group.id].seen(f), "face_ahead": lambda f: renderers[f.group.id].keep(f)}
    return {**calls, "face_ahead": calls["face_ahead"] if streamed else None, "face_batch": face_batch}


def _render_groups(game, groups, request, progress, role, result, into: Path | None = None):
    """One document drawn: its PDF (bytes; with `into`, a StagedFile there) and its entry's
    facts for build.json."""
    from .parallel import set_print_boxes, write_pdf     # cairo and pikepdf: only when drawing,
    from .pdfwrite import PdfWriter                      # so validate starts without them
    options = result.options
    streamed = streamed_document(groups)
    renderers = Renderers({g.id: renderer_for(game, options[g.id].bleed, request.lenient, request.face_cache, streamed)
                           for g in groups})
    sheets = plan_sheets(game, groups, request, role, options, renderers, result.boards)
    infos = sheet_infos(sheets)          # each sheet's side and groups; its faces placed only when drawn
    _check_pages(infos, groups, sum(f.get("pages") or 0 for f in result.files))
    if role != "changes":
        for gid, note in (cut for sheet in infos for cut in sheet.cuts):
            if note not in result.cut_lines.setdefault(gid, []):
                result.cut_lines[gid].append(note)
    offset = _back_offset(options[groups[0].id], request)
    sheets = shift_backs(sheets, offset)
    if not offset or offset == (0.0, 0.0) or not any(s.side in SHIFTED_SIDES for s in infos):
        offset = None
    writer = PdfWriter(
        **_face_calls(renderers, streamed), face_name=drawn_face_place,
        face_outline=lambda f, grow: f.group.outline(grow),
        title=f"{game.title} - {role}", subject=f"pnpgen print-and-play {role} for {game.title}",
        face_stamp=stamps(game, _new_since(request.changes_since, renderers)))
    if request.face_cache is not None:
        # the preview's cache must learn every face, so they are all rendered here; a plain
        # build renders each page's faces in the process that draws the page
        for face, _ in placed_faces(sheets):
            writer.face_svg(face)
    pdf = write_pdf(writer, sheets, progress.advance, renderers, None if into is None else str(into))
    if any(sheet.trim for sheet in infos):
        pdf = set_print_boxes(pdf if pdf is not None else into.read_bytes(), sheets)
    for renderer in renderers.values():
        result.warnings += renderer.warnings
    for renderer in renderers.values():       # (each face's digest as 16 bytes, not copied to text)
        result.digests.update(renderer.digests())
    first = sheets[0]
    return StagedFile(into) if pdf is None else pdf, {"pages": len(sheets), "page_width_mm": round(first.width, 3),
                 "page_height_mm": round(first.height, 3), **({"back_offset_mm": list(offset)} if offset else {}),
                 **page_guide(infos, groups, options[groups[0].id].duplex)}


def _new_since(baseline: Baseline | None, renderers: Renderers):
    """With --changes-since: face -> whether it shows what the earlier build did not (NEW is
    drawn on it); without, None. Asked where the face is drawn, in whichever process."""
    if baseline is None:
        return None
    before = shown_faces(baseline)
    return lambda face: before.get(face.key) != renderers[face.group.id].digest(face)


MAX_PAGES = 10_000           # of one build: 10,000 poker cards with backs are 2,224 pages
MAX_OUTPUT_BYTES = 1 << 30   # of one build's files, held in memory until they are written together


def _check_pages(sheets: list, groups: list[Group], before: int) -> None:    # sheets or impose.SheetInfo
    """Refused before drawing: the build's pages past MAX_PAGES, naming the group with most."""
    if before + len(sheets) <= MAX_PAGES:
        return
    count = {g.id: 0 for g in groups}
    for sheet in sheets:
        for gid in set(sheet.groups) if len(groups) > 1 else (groups[0].id,):    # a board's pages name none
            count[gid] = count.get(gid, 0) + 1
    group = max(groups, key=lambda g: count.get(g.id, 0))
    raise BuildError(_too_many_pages(group, before + len(sheets), count[group.id]))


def _too_many_pages(group: Group, pages: int, its_pages: int) -> str:
    return (f"{group.mark}: group '{group.id}': the build would print {pages:,} pages ({its_pages:,} of them this "
            f"group's {group.total:,} copies), over the limit of {MAX_PAGES:,} pages; print fewer copies or a "
            "smaller face, or build groups in another pack")


def _check_output_bytes(game: Game, staged: dict[str, bytes]) -> None:
    size = sum(len(data) for data in staged.values())
    if size > MAX_OUTPUT_BYTES:
        raise BuildError(f"{game.id}: the build's files come to {size:,} bytes, over the limit of "
                         f"{MAX_OUTPUT_BYTES:,} bytes (1 GB); print fewer copies, or smaller images")


def _back_offset(opts: Options, request: BuildRequest) -> tuple[float, float] | None:
    """The printer's offset for this document's duplex flip; none for print-shop pages."""
    if not request.back_offset or opts.paper == PRINT_SHOP:
        return None
    return request.back_offset.get(opts.duplex)


def plan_sheets(game, groups, request, role, options: dict | None = None, renderers: Renderers | None = None,
                plans: BoardPlans | None = None) -> list:
    """The pages of one document: print-shop pages one face each; a board larger than the paper
    in overlapping pieces; everything else packed onto shared, duplex-safe sheets. `options`:
    group id -> Options as the build resolved them (request.group_options), else resolved here;
    `renderers`: the document's, which render the faces whose edges are read and keep them to
    be drawn (else renderers of its own); `plans`: how each board is printed, as the build
    decided it (boardplan.plan_boards), else decided here."""
    try:
        options = group_options(game, request) if options is None else options
        if plans is None:
            plans = plan_boards(groups, options)
        return _plan(game, groups, request, options, role, renderers, plans)
    except FaceTooLarge as exc:
        group = next(g for g in groups if g.id == exc.key)
        raise BuildError(f"{group.mark}: group '{group.id}': {exc}; use larger paper, a smaller face, "
                         "or kind: mat to tile it across pages") from None


def _plan(game, groups, request, options, role, renderers, plans: BoardPlans) -> list:
    opts = options[groups[0].id]
    if opts.paper == PRINT_SHOP:
        sheets = []
        for group in groups:
            fronts, backs = expand_faces(group)
            if request.preset:
                sheets += shop_sheets(fronts, backs, group, request.preset)
                continue
            sheets += impose_single(fronts, backs, group.width, group.height, options[group.id].bleed)
        return sheets
    if role == "board" and not plans[groups[0].id].laid_like_cards:
        from .tiling import impose_board      # (only boards larger than the paper)
        group = groups[0]
        def tiled(face):
            return impose_board(face, group.width, group.height, f"{_titled(game)}: {group.name}", opts,
                                outline=group.points if group.shape == "polygon" else None)
        faces = expand_faces(group)[0]
        pages = len(tiled(faces[0])) * len(faces)      # every copy is tiled alike: refused before tiling them all
        if pages > MAX_PAGES:
            raise BuildError(_too_many_pages(group, pages, pages))
        return [sheet for face in faces for sheet in tiled(face)]
    pieces = {g.id: plans[g.id].pieces for g in groups if g.kind == "mat"}
    runs = [run for g in groups for run in pieces.get(g.id) or []]
    runs += _runs(game, [g for g in groups if not pieces.get(g.id)], request, options, renderers)
    return impose_runs(runs, opts, GUIDE_TITLES.get(role, "{}").format(_titled(game)))


GUIDE_TITLES = {"changes": "{} - reprint of changed components"}    # the page guide's first words, by role


def _titled(game: Game) -> str:
    """The page guide's first words: the title, and the version where the pack has one."""
    return titled(game.title, game.version)


def _runs(game: Game, groups: list[Group], request: BuildRequest, options: dict, renderers=None) -> list[Run]:
    """Each group's faces to lay out; shared cut lines only between faces whose edges are one
    colour (edges.py), read from the faces of the groups that could share them: rendered by the
    document's renderers and kept there to be drawn (each face rendered once), else by a
    renderer per bleed (validate)."""
    from .edges import WHOLE, cut_parts
    may_share = [g for g in groups if options[g.id].cuts == "shared"
                 and g.shape in ("rect", "square", "hexagon") and options[g.id].bleed > 0]
    own: dict[float, object] = {}

    def svg_of(face):
        if renderers is not None:
            return renderers[face.group.id].keep(face)
        bleed = options[face.group.id].bleed
        if bleed not in own:
            own[bleed] = renderer_for(game, bleed, request.lenient, request.face_cache)
        return own[bleed].svg(face)
    parts = cut_parts(may_share, svg_of, lambda g: options[g.id].bleed)
    return [run for group in groups for part in parts.get(group.id, [WHOLE])
            for run in [_run(group, options[group.id], part)] if run.fronts]


def _run(group: Group, opts: Options, part=None) -> Run:
    """The group's faces (those of `part`, edges.Part, when given): on shared cuts where the
    part's edges allow, else each face with its own bleed all round."""
    edge, joins = (part.edge, part.joins) if part else ("", (True, True))
    items = None
    if part and part.items is not None:
        keep = set(part.items)
        items = [item for item in group.items if item.id in keep]
    fronts, backs = Copies.of(group, items)       # each face made where it is placed
    return Run(group.id, group.name or group.id, fronts, backs, group.width, group.height, group.shape,
               group.orientation, opts.bleed, opts.cuts if any(joins) else "separate", edge=edge, joins=joins,
               why=EDGES_WHY[joins])


EDGES_WHY = {(True, True): "", (False, False): "the faces' edges differ in colour, and a miscut would show it",
             (True, False): "their top and bottom edges differ in colour",
             (False, True): "their left and right edges differ in colour"}     # by edges.Part.joins


DUPLEX_WORDS = {"long": "print double-sided, flip on the long edge",
                "short": "print double-sided, flip on the short edge"}


def page_guide(sheets: list, groups: list[Group], duplex: str) -> dict:
    """What build.json says of a document's pages: how to print it, and per page its sheet, side
    and groups, so a user who reprints one group finds its pages at once."""
    sides = {sheet.side for sheet in sheets}
    if any(sheet.trim for sheet in sheets):
        duplex = "print-shop"
    elif not sides & {"back", "blank"}:
        duplex = "fold" if "fold" in sides else "single"
    names = {g.id: g.name or g.id for g in groups}
    pages = [{"page": i, "sheet": s.number or i, "side": s.side, "groups": list(s.groups)}
             for i, s in enumerate(sheets, 1)]
    two = [p["page"] for p in pages if p["side"] in ("front", "back") and duplex != "print-shop"]
    one = [p["page"] for p in pages if p["side"] in ("one-sided", "blank", "fold", "board")]
    group_pages = {names[k]: _ranges([p["page"] for p in pages if k in p["groups"]]) for k in names}
    how = {"double_sided": _ranges(two), "single_sided": _ranges(one),
           "advice": _advice(duplex, two, one)}
    return {"duplex": duplex, "print": how, "group_pages": group_pages, "layout": pages}


def _advice(duplex: str, two: list[int], one: list[int]) -> str:
    if duplex in DUPLEX_WORDS:
        text = f"{DUPLEX_WORDS[duplex]}: the whole file"
        if one:
            faces, blanks = one[0::2], one[1::2]
            text += (f"; or {_pages_word(two)} {_ranges(two)} double-sided and only {_pages_word(faces)} "
                     f"{_ranges(faces)} single-sided ({_pages_word(blanks)} {_ranges(blanks)} "
                     f"{'is a blank back' if len(blanks) == 1 else 'are blank backs'})")
        return text
    if duplex == "fold":
        return "print single-sided; cut out, fold on the dashed lines and glue"
    if duplex == "print-shop":
        return "for a print shop: one face per page at its trimmed size plus bleed, each back after its front"
    return "print single-sided"


def _pages_word(pages: list[int]) -> str:
    return "page" if len(pages) == 1 else "pages"


def _ranges(pages: list[int]) -> str:
    """[1, 2, 3, 5, 7, 8] -> '1-3, 5, 7-8'."""
    out, start = [], None
    for i, page in enumerate(pages):
        if start is None:
            start = page
        if i + 1 == len(pages) or pages[i + 1] != page + 1:
            out.append(f"{start}" if start == page else f"{start}-{page}")
            start = None
    return ", ".join(out)


def build_json_parts(game: Game, request: BuildRequest, result: BuildResult, built: list[Group] | None = None):
    """build.json as (doc, its items: written one by one by jsontext.json_write). Every item and
    group of the pack; the groups printed (all but those --group or a print shop left out) with
    the options they were printed with (`cuts`: as asked) and, for groups laid out on sheets,
    `cut_lines`: what was done with their cut lines, and why."""
    built_ids = {g.id for g in (game.groups if built is None else built)}
    options = group_options(game, request) if result.options is None else result.options
    groups = [{"id": g.id, "name": g.name, "kind": g.kind, "total": g.total,
               "rulebook_count": g.rulebook_count, "prototype_content": g.prototype_content,
               **({"options": asdict(options[g.id])} if g.id in built_ids else {"printed": False}),
               **({"cut_lines": sorted(result.cut_lines[g.id])} if g.id in result.cut_lines else {})}
              for g in game.groups]
    doc = {"game": game.id, "title": game.title, "version": game.version, "total_components": game.total,
           "groups": groups, "items": _ITEMS, "files": result.files, "fonts": result.fonts, "face_digests": DIGESTS}
    return doc, {_ITEMS: _item_rows(game, result)}


_ITEMS = "\0pnpgen: the items, written as they come\0"     # no key or value of build.json


def build_items(game: Game, result: BuildResult) -> list[dict]:
    """build.json `items`: per item its place in the pack, copies, size, name (its `name` or
    `title` field, else its id) and a digest per side of what it shows (changes.py compares them)."""
    return list(item_entries(game, result))


def item_entries(game: Game, result: BuildResult):
    """build_items' entries, one at a time."""
    for g in game.groups:
        for item in g.items:
            yield {"id": item.id, "group": g.id, "kind": g.kind, "shape": g.shape, "copies": item.copies,
                   "width_mm": round(g.width, 3), "height_mm": round(g.height, 3), "sides": g.sides,
                   "name": _item_name(item), "faces": _item_faces(g, item, result)}


def _item_rows(game: Game, result: BuildResult):
    """item_entries as jsontext writes them, what an item shares with its group written once
    (a test holds the two to the same text)."""
    for g in game.groups:
        form = DictForm({"group": g.id, "kind": g.kind, "shape": g.shape, "width_mm": round(g.width, 3),
                         "height_mm": round(g.height, 3), "sides": g.sides}, ("id", "copies", "name", "faces"))
        sides = DictForm({}, SIDES[:g.sides])
        for item in g.items:
            faces = _item_faces(g, item, result)
            yield form(item.id, item.copies, _item_name(item), sides(*faces.values()) if len(faces) == g.sides else faces)


def _item_name(item) -> str:
    return str(item.data.get("name") or item.data.get("title") or item.id)


def _item_faces(g: Group, item, result: BuildResult) -> dict:
    digests = result.digests
    return {side: digest for side in SIDES[:g.sides] if (digest := digests.get((g.id, item.id, side))) is not None}


SIDES = ("front", "back")


def _changes_file(game: Game, request: BuildRequest, result: BuildResult) -> dict[str, bytes]:
    """<game>-changes.pdf: only the faces new or changed since request.changes_since, and the
    extra copies, on sheets imposed like the sheets file's, then the players' list. Nothing
    changed: no file."""
    from .changes_pdf import list_pages
    from .parallel import merge
    changes = result.changes = compare(request.changes_since, {"game": game.id, "title": game.title,
                                                               "groups": [{"id": g.id, "name": g.name} for g in game.groups],
                                                               "items": build_items(game, result),
                                                               "face_digests": DIGESTS})
    if not changes:
        return {}
    name = f"{game.id}-changes.pdf"
    groups = reprint_groups(game, changes)
    warned = len(result.warnings)       # the faces told their warnings in the sheets already
    parts, meta = [], {"pages": 0, "layout": []}
    if groups:
        pdf, meta = _render_groups(game, groups, request, Progress(), "changes", result)
        parts.append(pdf)
    del result.warnings[warned:]
    size = _paper(game, request)[1]          # --paper face: the list on the pack's paper
    files = board_files(documents(game, None, result.options, result.boards))
    boards = list(dict.fromkeys(files[c.group] for c in changes.items if c.put_in and c.kind == "mat"))
    parts.append(list_pages(changes, size, boards))
    pdf = merge(parts)
    result.files.append({"path": name, "role": "changes", "since": changes.since,
                         **_with_list(meta, pages_of(pdf))})
    return {name: pdf}


def _tuckbox_file(game: Game, request: BuildRequest, result: BuildResult) -> dict[str, bytes]:
    """<game>-tuckboxes.pdf: a tuck box per card group, one net to a page."""
    from .tuckbox_draw import tuckbox_pdf
    boxes = tuck_boxes(game, request.tuck_boxes)
    if not boxes:
        result.warnings.append(f"{game.id}: no tuck boxes: the pack has no card groups")
        return {}
    paper = _paper(game, request)[1]
    bleed = request.bleed if request.bleed is not None else game.defaults["bleed"]
    pdf, nets, warnings = tuckbox_pdf(game, boxes, paper, game.defaults["margin"], bleed, request.lenient)
    result.warnings += warnings
    name = f"{game.id}-tuckboxes.pdf"
    result.files.append({"path": name, "role": "tuckboxes", "pages": len(nets), "boxes": nets, "print": {"advice": "print single-sided; cut the solid line, fold the "
                                                            "dashed ones, glue the grey flaps"}})
    return {name: pdf}


def tuck_boxes(game: Game, given: str | None) -> list[tuple[Group, str]]:
    """(card group, card thickness) of each tuck box to draw: --tuck-boxes THICKNESS for every
    card group; --tuck-boxes alone ('') every card group at its own tuck_box, else plain; without
    it, the groups whose tuck_box asks for one. tuck_box: 'off' always means none."""
    cards = [g for g in game.groups if g.kind == "card" and g.total and g.tuck_box != "off"]
    if given is None:
        return [(g, g.tuck_box) for g in cards if g.tuck_box]
    return [(g, given or g.tuck_box or "plain") for g in cards]


def reprint_groups(game: Game, changes: Changes) -> list[Group]:
    """The sheet groups with something to print again, each holding only those items, with the
    copies to print (rendered by the whole game's renderers, so every face is as in the sheets)."""
    wanted = changes.to_print
    groups = []
    for g in game.groups:
        items = [replace(i, copies=wanted[(g.id, i.id)]) for i in g.items if (g.id, i.id) in wanted]
        if items and g.kind != "mat":
            groups.append(replace(g, items=items))
    return groups


def _with_list(meta: dict, pages: int) -> dict:
    """The sheets' page guide, with the players' list as the pages after them."""
    listed = list(range(meta["pages"] + 1, pages + 1))
    layout = meta["layout"] + [{"page": p, "sheet": None, "side": "list", "groups": []} for p in listed]
    how = dict(meta.get("print", {"advice": "print single-sided"}))
    how["advice"] = how["advice"] + f"; {_pages_word(listed)} {_ranges(listed)}: the players' list"
    how["single_sided"] = ", ".join(r for r in (how.get("single_sided"), _ranges(listed)) if r)
    return {**meta, "pages": pages, "layout": layout, "print": how, "list_pages": _ranges(listed)}


def previous_build_files(out_dir: Path) -> list[str]:
    """The files an earlier build wrote (its build.json lists them): a new build replaces them
    all, so a board since removed from the pack does not linger; other files stay."""
    try:
        listed = json.loads((out_dir / "build.json").read_text(encoding="utf-8")).get("files", [])
        return [f["path"] for f in listed if isinstance(f, dict) and isinstance(f.get("path"), str)]
    except (OSError, ValueError, AttributeError):
        return []
