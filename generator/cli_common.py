"""What the commands' parsers and reports share (cli and the export, changes and calibrate
commands alike): option types, --out, finding the packs named, the progress bar, and the loop
that runs a command over each pack and tells its problems. Below every command module, so none
of them imports the CLI's own module.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .errors import ManifestError, PnpError, UsageError, did_you_mean, display_path
from .manifest import enclosing_pack, find_pack, is_bare_name, list_packs
from .resources import BUILTIN_PACKS


def components_dir() -> Path:
    """Packs are looked up in ./components, else among the built-in packs pnpgen ships."""
    local = Path("components")
    return local if local.is_dir() else BUILTIN_PACKS


def pack_here() -> Path | None:
    """The pack the working folder is in (its game.yaml here or in a folder above), or None."""
    return enclosing_pack(Path.cwd())


def resolve_packs(names: list[str], all_by_default: bool = True) -> list[Path]:
    """The packs named; with no names, the pack the working folder is in, else every pack of
    components_dir() (or, for a command that takes one pack, a usage error)."""
    root = components_dir()
    if not names and (here := pack_here()) is not None:
        return [here]
    if not names and not all_by_default:
        raise UsageError("name a game pack (a name under components/ or a pack folder), or run the "
                         "command inside a pack's folder")
    if not names:
        packs = list_packs(root)
        if not packs:
            raise UsageError(f"no game packs found in {display_path(root)}/ (a pack is a folder with a game.yaml)")
        return packs
    packs = []
    for name in names:
        pack = find_pack(name, root)
        if pack is None:
            raise not_a_pack(name, root)
        packs.append(pack)
    return packs


def not_a_pack(name: str, root: Path) -> UsageError:
    """A GAME that names no pack: where it was looked for, the closest pack's name, the known ones."""
    known = [p.name for p in list_packs(root)]
    if not is_bare_name(name):
        return UsageError(f"'{name}' is not a game pack: {name} has no game.yaml (a pack is a folder with one); "
                          f"pnpgen new {name} writes a starter pack there")
    listed = f"{_packs_named(root)}: {', '.join(known) or 'none'}"
    return UsageError(f"'{name}' is not a game pack: {looked_in(name, root, 'game.yaml')}; "
                      + did_you_mean(name, known, f"{listed}; pnpgen new {name} writes a starter pack",
                                     end=f" ({listed})"))


def looked_in(name: str, root: Path, marker: str) -> str:
    """Where a bare GAME name was looked for, in the words of the one who typed it: the folder
    they are in, then ./components or pnpgen's built-in packs (never the installed package's
    folder, which means nothing to them)."""
    here = spoken_folder(Path.cwd())
    if root == BUILTIN_PACKS:
        return f"there is no {name}/{marker} in this folder ({here}) nor among pnpgen's built-in packs"
    return f"neither {name}/ nor {display_path(root)}/{name}/ in this folder ({here}) has a {marker}"


def _packs_named(root: Path) -> str:
    return "built-in packs" if root == BUILTIN_PACKS else f"packs in {display_path(root)}/"


def spoken_folder(folder: Path) -> str:
    """A folder as its user says it: under their home folder, written from ~."""
    try:
        return "~/" + str(folder.relative_to(Path.home())) if folder != Path.home() else "~"
    except (ValueError, RuntimeError):        # outside home, or no home at all
        return str(folder)


class TerminalProgress:
    """A build.Progress: a one-line bar on stderr, shown only on a terminal and only once work
    takes a moment (PNPGEN_PROGRESS_AFTER seconds, 0.5 unless set: the tests set 0, so what they
    see does not depend on the machine's speed)."""

    def __init__(self, enabled: bool, unit: str = "faces"):
        self.enabled = enabled and sys.stderr.isatty()
        self.unit = unit
        self.total = self.done = 0
        self.label, self.started, self.shown = "", 0.0, False

    def start(self, total, label):
        self.total, self.done, self.label, self.started, self.shown = max(total, 1), 0, label, time.monotonic(), False

    def advance(self, n=1):
        self.done += n
        if self.enabled and (self.shown or time.monotonic() - self.started >= _progress_after()):
            self.shown = True
            width = 30
            filled = int(width * min(self.done, self.total) / self.total)
            sys.stderr.write(f"\r{self.label:<20} [{'#' * filled}{'.' * (width - filled)}] "
                             f"{self.done}/{self.total} {self.unit}")
            sys.stderr.flush()

    def finish(self):
        if self.shown:
            sys.stderr.write("\n")


def _progress_after() -> float:
    try:
        return float(os.environ.get("PNPGEN_PROGRESS_AFTER", "0.5"))
    except ValueError:
        return 0.5


MAX_PROBLEMS_SHOWN = 200     # a pack wrong everywhere: the first ones, then how many more


def print_problems(problems) -> None:
    """Every warning and the first MAX_PROBLEMS_SHOWN errors, then a count of the rest by file:
    a file wrong 60,000 times is reported in one screen, in time linear in the errors."""
    shown, rest = 0, {}
    lines = []
    for problem in problems:
        if problem.warning or shown < MAX_PROBLEMS_SHOWN:
            shown += not problem.warning
            lines.append(str(problem))
        else:
            rest[problem.mark.file] = rest.get(problem.mark.file, 0) + 1
    for file, count in rest.items():
        lines.append(f"{file}: {count:,} more problem{'s' if count > 1 else ''} not shown; fix the ones above first")
    print("\n".join(lines), file=sys.stderr)


def for_each_pack(games: list[str], work, report, undone: str) -> int:
    """work(pack) for each pack; after each that succeeds, its warnings, then report(pack,
    result); a pack that fails is told (every problem, then that its earlier output stays) and
    the next one runs. Returns how many failed."""
    failed = 0
    for pack in resolve_packs(games):
        try:
            result = work(pack)
        except ManifestError as exc:
            print_problems(exc.problems)
        except PnpError as exc:
            print("\n".join(f"error: {line}" for line in str(exc).splitlines()), file=sys.stderr)
        else:
            for warning in result.warnings:
                print(f"warning: {warning}", file=sys.stderr)
            report(pack, result)
            continue
        print(f"{pack.name}: {undone}, earlier output left as it was", file=sys.stderr)
        failed += 1
    return failed


GAME_HELP = ("pack name under components/ or a pack folder (default: the pack the working folder is in)")
GAMES_HELP = ("pack names under components/ or pack folders (default: the pack the working folder is in, "
              "else every pack)")


def add_out_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=_out_folder, metavar="DIR",
                   help="output folder (default: output/ here, or in the pack's folder when GAME is left out "
                        "inside a pack)")


def default_out(args) -> str:
    """output/ in the working folder, but output/ beside game.yaml when the command acts on the
    pack it was started in (from any folder below it) without naming it."""
    named = getattr(args, "games", None) or getattr(args, "game", None)
    here = None if named else pack_here()
    return str(here / "output") if here is not None else "output"


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def _whole_number_within(low: int, high: int, outside):
    """An argparse type: a whole number from low to high; outside(value) says what is wrong
    with one past them."""
    def parse(text: str) -> int:
        value = _whole_number(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(outside(value))
        return value
    return parse


_positive = _whole_number_within(1, 10_000, lambda value: "must be between 1 and 10000")


MIN_DPI, MAX_DPI = 30, 600      # 600 dpi: a 400 mm board is 90 megapixels already


_dpi = _whole_number_within(MIN_DPI, MAX_DPI, lambda value: f"{value} is outside {MIN_DPI}-{MAX_DPI}; 300 prints sharp")


def _out_folder(text: str) -> str:
    """--out names a folder (made if missing); a file there is refused before any work."""
    path = Path(text)
    while not path.exists() and path != path.parent:    # the nearest part that exists
        path = path.parent
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"'{path}' is a file, not a folder; give a folder for the output")
    return text


def _bleed(text: str) -> float:
    try:
        value = float(text.removesuffix("mm"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of millimetres") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError("bleed must be between 0 and 10 mm")
    return value
