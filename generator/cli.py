"""Command line: pnpgen list | validate | build | ... Printing happens here and in cli_common (what
every command shares), nowhere else.

Start-up stays short: the drawing libraries (cairo, pikepdf, reportlab) are imported by the
commands that draw, not here, and a command run makes only its own parser (COMMANDS).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from . import SETUP_ERROR, __version__, build_options, interrupt
from .errors import ManifestError, PnpError, UsageError, did_you_mean, display_path
from .cli_common import (GAME_HELP, GAMES_HELP, MAX_DPI, MIN_DPI, TerminalProgress, _bleed, _dpi,
                         _positive, _whole_number, _whole_number_within, add_out_option, components_dir,
                         default_out, for_each_pack, looked_in, not_a_pack, pack_here, print_problems, resolve_packs)
from .manifest import PAPERS, PRINT_SHOP, find_pack, is_bare_name, list_packs, load_pack, pack_id


def cmd_list(args) -> int:
    """The pack the working folder is in, marked, then the packs of components_dir()."""
    here = pack_here()
    others = list_packs(components_dir())
    for pack in ([here] if here else []) + [p for p in others if p != here]:
        name = f"{pack.name} (here)" if pack == here else pack.name
        try:
            game = load_pack(pack)
        except ManifestError as exc:
            print(f"{name:<22} (invalid: {len(exc.problems)} problem(s); run pnpgen validate {display_path(pack)})")
            continue
        groups = ", ".join(f"{g.id} {g.total}" for g in game.groups)
        print(f"{name:<22} {game.title:<24} {game.total:>5} components  ({groups})")
    return 0


def cmd_validate(args) -> int:
    from .validate import validate
    failed = 0
    for pack in resolve_packs(args.games):
        try:
            result = validate(pack, progress=TerminalProgress(True))
        except ManifestError as exc:
            print_problems(exc.problems)
            failed += 1
            continue
        for error in result.errors:
            print(error, file=sys.stderr)
        for warning in result.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        if result.errors:
            failed += 1
            print(f"{_pack_named(pack)}: {len(result.errors)} problem(s); build would refuse this pack", file=sys.stderr)
            continue
        game = result.game
        print(f"{_pack_named(pack)}: ok ({game.total} components in {len(game.groups)} groups); "
              f"{result.faces} distinct faces rendered")
    return 1 if failed else 0


def _pack_named(pack: Path) -> str:
    """A pack as a summary line names it: its path from here, or its folder's name when the
    working folder is in it (not '.' or '..')."""
    shown = display_path(pack)
    return pack.name if set(Path(shown).parts) <= {".", ".."} else shown


def _request(args):
    from .request import BuildRequest
    from .build_options import resolve
    request = BuildRequest(paper=args.paper, duplex=args.duplex, bleed=args.bleed, marks=args.marks,
                           out_dir=Path(args.out), lenient=args.lenient, cuts=args.cuts,
                           preset=getattr(args, "preset", None), groups=tuple(getattr(args, "group", None) or ()))
    games = getattr(args, "games", None) or ([args.game] if getattr(args, "game", None) else [])
    return resolve(args, request, lambda: resolve_packs(games, all_by_default=False)[0])


def cmd_build(args) -> int:
    if args.preset and args.paper != PRINT_SHOP:
        raise UsageError("--preset sets print-shop page sizes: use it with --paper face")
    if args.group and args.paper != PRINT_SHOP:
        raise UsageError("--group picks the groups of print-shop files: use it with --paper face")
    request = _request(args)

    def report(pack, result):
        if not args.quiet:
            print(f"{pack.name}: {result.game.total} components -> {display_path(result.out_dir)}/")
            for line in _printing_summary(result.files):
                print(f"  {line}")
            for line in build_options.summary(result):
                print(f"  {line}")
    failed = for_each_pack(args.games, lambda pack: _build_or_every_problem(pack, request, not args.quiet),
                           report, "not built")
    return 1 if failed else 0


def _build_or_every_problem(pack: Path, request, show_progress: bool):
    """build(); when a face stops it, validate finds the pack's other problems too (every face
    rendered, the sheets planned, map and handout), so one run tells all of them."""
    from .build import build
    from .errors import BuildError
    try:
        return build(pack, request, TerminalProgress(show_progress))
    except ManifestError:
        raise
    except BuildError as first:
        from .validate import validate
        try:
            found = validate(pack, request).errors
        except PnpError:
            found = []
        said = [line for problem in found for line in problem.splitlines()]
        # what validate did not find too (an embedded image, say); a map problem build names as
        # 'GAME: map: FILE:LINE:COL: ...' is the same one validate names from FILE on
        unsaid = [line for line in str(first).splitlines()
                  if not any(s.startswith(line.split(": map: ", 1)[-1]) for s in said)]
        raise BuildError("\n".join(unsaid + found)) from None


def cmd_preview(args) -> int:
    from . import preview, serve
    pack = resolve_packs([args.game] if args.game else [], all_by_default=False)[0]
    session = preview.Session(pack, _request(args), args.dpi)
    if not args.watch:
        return _report_rebuild(session.rebuild())
    preview.write_waiting_page(pack, session.request)
    server = serve.serve(Path(args.out), args.port)
    try:
        print(f"preview: {preview.page_url(server, pack)}  (rebuilt on every save; Ctrl-C stops)", flush=True)
        _report_rebuild(session.rebuild())
        preview.watch(session, _report_rebuild, _report_preview)      # until Ctrl-C
    finally:
        server.shutdown()
        server.server_close()
    return 0


def _report_preview(done) -> None:
    print(f"preview updated after {done.preview_seconds:.2f} s; building the PDFs", flush=True)


def _report_rebuild(done) -> int:
    for problem in done.problems:
        print(problem, file=sys.stderr, flush=True)
    if done.problems:
        print(f"not built: the page shows the problems ({display_path(done.page)})", file=sys.stderr, flush=True)
        return 1
    for warning in done.result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"{display_path(done.page)}: preview after {done.preview_seconds:.2f} s, PDFs after "
          f"{done.pdf_seconds:.2f} s", flush=True)
    return 0


def _printing_summary(files: list[dict]) -> list[str]:
    """A line per file: its pages and how to print them (build.json holds the page-by-page guide)."""
    lines = []
    for f in files:
        if not f.get("pages"):
            lines.append(f["path"])
            continue
        how = f.get("print", {}).get("advice")
        moved = f" (backs moved {f['back_offset_mm'][0]:+g},{f['back_offset_mm'][1]:+g} mm)" if "back_offset_mm" in f else ""
        lines.append(f"{f['path']} ({f['pages']} p.)" + (f": {how}" if how else "") + moved)
    return lines


def cmd_map(args) -> int:
    from .maps import engine
    from .maps.output import map_files
    from .maps.rules import MapOptions
    from .impose import Options
    from .publish import write_atomically
    pack = find_pack(args.game, components_dir()) if args.game else pack_here()
    if args.game and pack is None:
        raise not_a_pack(args.game, components_dir())
    if args.check:
        return _check_layouts(args.check, pack)
    if pack is None:
        raise UsageError("name a game (pnpgen map royal-dukes), run it inside a pack's folder, or give a layout "
                         "file to check (pnpgen map --check FILE.json)")
    try:
        rules = engine.rules_for(pack)
        engine.checked_players(rules, args.players)     # before the seed is told: no map is made
    except engine.MapError as exc:
        raise UsageError(str(exc)) from None
    game_id = rules.id
    _bound_png_count(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**9)
    if args.seed is None:
        print(f"seed: {seed} (use --seed {seed} to make this map again)", file=sys.stderr)
    options = MapOptions(balance=args.balance == "on", relaxed=args.relaxed, mountains=args.mountains,
                         budget=args.budget)
    progress = TerminalProgress(True, "maps")
    layouts, failed = _map_layouts(engine, rules, seed, args, options, progress)
    title = _game_title(pack, game_id, args.pack_version)
    paper = Options(paper=args.paper, page_width=PAPERS[args.paper]["width"],
                    page_height=PAPERS[args.paper]["height"], bleed=0.0, marks="none")
    # the player count in the name: runs for 2, 3 and 4 players never overwrite each other
    count = f"{layouts[0].players}p"
    stem = f"{game_id}-map-{count}-{seed}" if args.count == 1 else f"{game_id}-maps-{count}-{seed}-x{args.count}"
    progress.start(args.count, f"drawing {args.format}")      # JSON: nothing drawn, nothing shown
    try:
        files = map_files(layouts, args.format, stem, title, paper, args.dpi, progress.advance)
    finally:
        progress.finish()
    out = Path(args.out) / game_id
    write_atomically(out, files)
    for name in files:
        print(display_path(out / name))
    if failed:
        print(f"error: {len(failed)} of {args.count} seeds found no layout: "
              + "; ".join(f"seed {s}: {reason}" for s, reason in failed[:5])
              + (f"; and {len(failed) - 5} more seeds" if len(failed) > 5 else ""), file=sys.stderr)
        return 1
    return 0


def _map_layouts(engine, rules, seed: int, args, options, progress) -> tuple[list, list]:
    """The layouts of seeds seed..seed+count-1 that could be made, and (seed, why) of those
    that could not: one seed that finds no layout does not lose the others."""
    from .maps.declared_gen import NoLayout
    progress.start(args.count, f"{rules.id} layouts")
    layouts, failed = [], []
    try:
        for i in range(args.count):
            try:
                layouts.append(engine.generate(rules, seed + i, args.players, options))
            except NoLayout as exc:
                if args.count == 1:
                    raise
                failed.append((seed + i, str(exc)))
            progress.advance()
    except engine.MapError as exc:
        raise UsageError(str(exc)) from None
    finally:
        progress.finish()
    if not layouts:
        raise UsageError(f"no seed of {seed}-{seed + args.count - 1} found a layout; the first: {failed[0][1]}")
    return layouts, failed


MAX_MAPS = 1000          # layouts per run: at most ~3 min of balanced search (Cones, 0.19 s each), files held in memory
MAX_PNG_PIXELS = MAX_MAPS * 150 ** 2      # PNGs are held until written: 1000 maps at 150 dpi (~260 MB)


def _bound_png_count(args) -> None:
    """PNGs grow with the square of --dpi: fewer maps at once as it rises."""
    most = MAX_PNG_PIXELS // args.dpi ** 2
    if args.format == "png" and args.count > most:
        raise UsageError(f"argument --count: {args.count} PNG maps at {args.dpi} dpi is over the limit of {most} "
                         f"at once ({MAX_MAPS} at 150 dpi); make them in batches (--seed S, S+{most}, ...) or "
                         f"lower --dpi")


def _check_layouts(path: str, pack: Path | None) -> int:
    """Each layout against every checker of its pack: rulebook rules decide (exit 1), policies
    are notes; checkers that disagree on legality are named."""
    from .maps import engine
    from .maps.layout import LayoutFileError, load
    try:
        layouts = load(Path(path))
    except LayoutFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    broken = 0
    for index, layout in enumerate(layouts):
        where = path if len(layouts) == 1 else f"{path}: layouts[{index}]"
        try:
            unknown = engine.unknown_keys(layout, pack, "" if len(layouts) == 1 else f"layouts[{index}]")
            if unknown:
                print("\n".join(f"{path}: {problem}" for problem in unknown), file=sys.stderr)
                broken += 1
                continue
            opinions = engine.check_all(layout, pack)
        except engine.MapError as exc:
            print(f"{where}: {exc}", file=sys.stderr)
            broken += 1
            continue
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            # a value of the right JSON type that the game's rules cannot read (a cell type it
            # does not have, a placement on no cell): refused with the layout it is in
            print(f"{where}: the {layout.game} checker cannot read this layout ({type(exc).__name__}: "
                  f"{str(exc)[:80]}); compare it with one made by pnpgen map {layout.game} --format json",
                  file=sys.stderr)
            broken += 1
            continue
        violations = opinions[0][1]
        illegal = engine.broken_rules(violations)
        for violation in illegal:
            print(f"{where}: {violation}")
        for violation in violations:
            if violation.policy:
                print(f"{where}: note: {violation}")
        for name, others in opinions[1:]:
            if bool(engine.broken_rules(others)) != bool(illegal):
                verdict = "illegal" if engine.broken_rules(others) else "legal"
                print(f"{where}: note: the {name} rules find this layout {verdict}: "
                      + "; ".join(f"{v.rule}: {v.message}" for v in engine.broken_rules(others)))
        if illegal:
            broken += 1
        else:
            print(f"{where}: legal {layout.game} layout for {layout.players} players")
    return 1 if broken else 0


def cmd_handout(args) -> int:
    from .publish import write_atomically
    from .handout import handout_pdf, source_for
    folder = find_handout(args.game) if args.game else _handout_here()
    paper = PAPERS[args.paper]
    try:
        pdf = handout_pdf(source_for(folder, args.pack_version), (paper["width"], paper["height"]))
    except ManifestError as exc:
        print_problems(exc.problems)
        return 1
    game_id = pack_id(folder)
    out = Path(args.out) / game_id
    write_atomically(out, {f"{game_id}-handout.pdf": pdf})
    print(display_path(out / f"{game_id}-handout.pdf"))
    return 0


def find_handout(name: str) -> Path:
    folder = find_pack(name, components_dir(), marker="handout.yaml")
    if folder is not None:
        return folder
    where = looked_in(name, components_dir(), "handout.yaml") if is_bare_name(name) else f"{name} has no handout.yaml"
    raise UsageError(f"no handout for '{name}': {where}")


def cmd_new(args) -> int:
    from .starter import write_starter
    folder = Path(args.path).expanduser()
    written = write_starter(folder, args.title)
    print(f"{display_path(folder)}: a starter pack of {len(written)} files; now:\n"
          f"  cd {display_path(folder)}\n  pnpgen build        # the PDFs in output/\n"
          f"  pnpgen preview --watch   # every face in the browser, rebuilt as you edit")
    return 0


def _handout_here() -> Path:
    here = resolve_packs([], all_by_default=False)[0]
    if not (here / "handout.yaml").is_file():
        raise UsageError(f"the pack {display_path(here)} has no handout.yaml; see docs/handouts.md to write one")
    return here


def _game_title(pack, game_id: str, version: str | None = None) -> str:
    """The title a map prints, with the version (--version, else game.yaml's)."""
    from .version import titled
    if pack is not None:
        try:
            game = load_pack(pack)
            return titled(game.title, game.version if version is None else version)
        except ManifestError:
            pass
    return titled(game_id.replace("-", " ").title(), version or "")


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; `command`: only that command's (a run of one command need not
    make the other nine nor import what they take)."""
    p = argparse.ArgumentParser(prog="pnpgen", description="Print-and-play component generator.")
    p.add_argument("--version", action="version", version=f"pnpgen {__version__}")
    # one command's parser names them all in its usage, as the whole one does (an unknown option
    # is told with it)
    named = {"metavar": "{" + ",".join(COMMANDS) + "}"} if command else {}
    sub = p.add_subparsers(dest="command", required=True, **named)
    for name, add in COMMANDS.items():
        if command in (None, name):
            add(sub)
    p.commands = sub.choices        # each command's own parser, to tell a mistake in its usage
    return p


def _add_list(sub) -> None:
    sub.add_parser("list", help="the game packs found, with their component totals").set_defaults(run=cmd_list)


def _add_validate(sub) -> None:
    v = sub.add_parser("validate", help="check manifests; print every problem as file:line:col")
    v.add_argument("games", nargs="*", metavar="GAME", help=GAMES_HELP)
    v.set_defaults(run=cmd_validate)


def _add_build(sub) -> None:
    from .presets import load_presets, unconfirmed_products     # (the print shops: only build's parser)
    b = sub.add_parser("build", help="build print-ready PDFs into output/<game>/")
    b.add_argument("games", nargs="*", metavar="GAME", help=GAMES_HELP)
    _build_options(b)
    b.add_argument("--preset", choices=sorted(load_presets()),
                   help="with --paper face: pages at this print shop's image size, TrimBox at its trim; groups "
                        "of sizes the shop does not sell are skipped, a line each. Sizes marked 'not confirmed' "
                        "in docs/export.md: " + unconfirmed_products())
    b.add_argument("--group", action="append", default=[], metavar="ID",
                   help="with --paper face: only this group (repeatable)")
    build_options.add_build_only(b)
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    b.set_defaults(run=cmd_build)


def _add_preview(sub) -> None:
    pv = sub.add_parser("preview", help="an HTML contact sheet of every face; --watch rebuilds on every change")
    pv.add_argument("game", nargs="?", metavar="GAME", help=GAME_HELP)
    pv.add_argument("--watch", action="store_true",
                    help="serve the page on this machine, rebuild when a file of the pack changes; the page refreshes itself")
    pv.add_argument("--port", type=_port, default=8765, help="port for --watch (default 8765; 0: any free port)")
    pv.add_argument("--dpi", type=_positive, default=100, help="resolution of the face images (default 100)")
    _build_options(pv)
    pv.set_defaults(run=cmd_preview)


def _add_map(sub) -> None:
    m = sub.add_parser("map", help="generate rules-legal map layouts, or check one (--check FILE.json)")
    m.add_argument("game", nargs="?", metavar="GAME", help=GAME_HELP + " with a map.yaml")
    m.add_argument("--check", metavar="FILE.json", help="check a layout file and print each broken rule "
                                                        "(against GAME's rules when given, else the layout's game)")
    m.add_argument("--players", type=int, help="player count (default: the game's usual count)")
    m.add_argument("--seed", type=_map_seed, help=f"random seed, 0 to {MAX_SEED:,} (default: a new one, printed)")
    m.add_argument("--count", type=_map_count, default=1, help=f"how many layouts (seeds S, S+1, ...; at most {MAX_MAPS})")
    m.add_argument("--format", choices=["json", "svg", "pdf", "png"], default="json")
    m.add_argument("--balance", choices=["on", "off"], default="on", help="search for fair layouts (default on)")
    m.add_argument("--relaxed", action="store_true", help="the looser placement the game's map.yaml options: declares (Royal Dukes: "
                   "a few settlements on the side of the map or touching)")
    m.add_argument("--mountains", type=_map_option_count, default=0, metavar="K", help="Royal Dukes: K mountain hexes")
    m.add_argument("--budget", type=_map_budget, metavar="N", help="declared rules: boards dealt before a seed "
                                                                     "gives up (default 400)")
    m.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="paper for --format pdf")
    m.add_argument("--dpi", type=_dpi, default=150, help=f"resolution for --format png ({MIN_DPI}-{MAX_DPI})")
    build_options.add_version(m, "the map's title and page guide")
    add_out_option(m)
    m.set_defaults(run=cmd_map)


def _add_handout(sub) -> None:
    h = sub.add_parser("handout", help="typeset the game's rule summary (handout.yaml) as a two-page PDF")
    h.add_argument("game", nargs="?", metavar="GAME", help=GAME_HELP)
    h.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    build_options.add_version(h, "the handout's foot")
    add_out_option(h)
    h.set_defaults(run=cmd_handout)


def _add_new(sub) -> None:
    n = sub.add_parser("new", help="write a starter pack (deck with art, hex tiles, map rules, handout) into a folder")
    n.add_argument("path", metavar="PATH", help="the new pack's folder (made if missing; nothing in it is overwritten)")
    n.add_argument("--title", help="the game's title (default: from the folder's name)")
    n.set_defaults(run=cmd_new)


def _add_export(sub) -> None:
    from .export.command import add_parser
    add_parser(sub)


def _add_diff(sub) -> None:
    from .changes_command import add_parser
    add_parser(sub)


def _add_calibrate(sub) -> None:
    from .calibrate import add_parser
    add_parser(sub)


# The commands, in the order `pnpgen --help` lists them: each adds its own parser.
COMMANDS = {"list": _add_list, "validate": _add_validate, "build": _add_build, "preview": _add_preview,
            "map": _add_map, "handout": _add_handout, "new": _add_new, "export": _add_export,
            "diff": _add_diff, "calibrate": _add_calibrate}


def _build_options(p: argparse.ArgumentParser) -> None:
    """The options of build, which preview takes too."""
    p.add_argument("--paper", choices=sorted(PAPERS) + [PRINT_SHOP],
                   help="paper size (default: the pack's, usually a4); 'face': one face per page at "
                        "print-shop size, with TrimBox and BleedBox")
    p.add_argument("--duplex", choices=["long", "short", "none"],
                   help="backs for long- or short-edge duplex, or none: fronts and backs side by side to fold and glue")
    p.add_argument("--bleed", type=_bleed, metavar="MM", help="bleed in mm (default: the pack's, usually 3)")
    p.add_argument("--marks", choices=["crop", "lines", "none"], help="crop marks, full cut lines, or none")
    p.add_argument("--cuts", choices=["shared", "separate"],
                   help="shared: cards may abut on one cut line where that fits more; separate: every face "
                        "keeps its own bleed (default: the pack's, usually shared)")
    add_out_option(p)
    p.add_argument("--lenient", action="store_true", help="text that does not fit is a warning, not an error")
    build_options.add_shared(p)


_port = _whole_number_within(0, 65535, lambda value: f"{value} is not a port: give 1024-65535, or 0 for any free port")


def _map_count(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give 1 or more layouts")
    if value > MAX_MAPS:
        raise argparse.ArgumentTypeError(f"{value} is over the limit of {MAX_MAPS} layouts at once; "
                                         f"make them in batches (--seed S, S+{MAX_MAPS}, ...)")
    return value


MAX_SEED = 10 ** 12      # seeds S..S+999 stay within the numbers a layout file may hold (±10^15)


_map_seed = _whole_number_within(0, MAX_SEED, lambda value: f"{value} is outside 0-{MAX_SEED:,}")


def _map_budget(text: str) -> int:
    from .maps.declared_gen import MAX_BUDGET
    value = _whole_number(text)
    if not 1 <= value <= MAX_BUDGET:
        raise argparse.ArgumentTypeError(f"{value} is outside 1-{MAX_BUDGET:,} boards")
    return value


_map_option_count = _whole_number_within(0, 10_000, lambda value: f"{value} is outside 0-10,000")


def parse(words: list[str]) -> argparse.Namespace:
    """The command line read, or exit 2 with what is wrong told by the parser it concerns: an
    unknown command or option with the closest known one, in that command's usage."""
    command = words[0] if words and words[0] in COMMANDS else None
    whole = parser(command)
    if words and command is None and not words[0].startswith("-"):
        listed = f"pnpgen --help tells what each of {', '.join(COMMANDS)} does"
        whole.error(f"unknown command '{words[0]}'; " + did_you_mean(words[0], COMMANDS, listed, end=f" ({listed})"))
    args, extra = whole.parse_known_args(words)
    if extra:
        own = whole.commands[args.command]
        own.error(f"unrecognized arguments: {' '.join(extra)}" + _option_hint(extra, own, args.command))
    return args


def _option_hint(extra: list[str], own: argparse.ArgumentParser, command: str) -> str:
    """'; did you mean --paper?' for the first unknown option that is close to a known one."""
    known = [o for action in own._actions for o in action.option_strings if o.startswith("--")]
    misplaced = [w for w in extra if w.split("=", 1)[0] in own._option_string_actions]
    if misplaced:       # pnpgen -q build: an option of the command, written before it
        return f"; write {misplaced[0]} after the command: pnpgen {command} {misplaced[0]} ..."
    for word in extra:
        if word.startswith("--"):
            hint = did_you_mean(word.split("=", 1)[0], known)
            if hint:
                return f"; {hint} (pnpgen {command} --help lists them)"
    return ""


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else list(argv))
    if SETUP_ERROR:
        print(f"error: {SETUP_ERROR}", file=sys.stderr)
        return 1
    previous = interrupt.install()
    try:
        if getattr(args, "out", "") is None:
            args.out = default_out(args)
        code = args.run(args)
        interrupt.check()            # a signal noted while the last files were switched in
        return code
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except interrupt.Interrupted as exc:
        print(exc, file=sys.stderr)
        return exc.exit_code
    except PnpError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:          # the reader went away (pnpgen list | head): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    finally:
        if argv is None:
            interrupt.hold()         # the process ends with this exit code, whatever comes now
        else:
            interrupt.restore(previous)
