"""`pnpgen export FORMAT GAME...`: the command line of the export stage (parsing and printing)."""
from __future__ import annotations

import argparse
from pathlib import Path

from .. import build_options
from ..cli_common import (GAME_HELP, TerminalProgress, _bleed, _dpi, _positive, add_out_option, for_each_pack,
                          resolve_packs)
from ..errors import UsageError, display_path
from ..presets import load_presets
from .common import ExportRequest


def add_parser(sub) -> None:
    from . import FORMATS
    e = sub.add_parser("export", help="images for print shops (png) or a Tabletop Simulator saved object (tts)",
                       description="png: every face and back as its own PNG with bleed. tts: a folder Tabletop "
                                   "Simulator loads as a Saved Object (decks, tiles, boards).")
    e.add_argument("format", choices=sorted(FORMATS), help="png or tts")
    e.add_argument("games", nargs="*", metavar="GAME", help=GAME_HELP)
    e.add_argument("--dpi", type=_dpi, help="resolution (png default 300; tts default 200, limited by --max-px)")
    e.add_argument("--preset", choices=sorted(load_presets()),
                   help="png: the print shop's image sizes (thegamecrafter, makeplayingcards, drivethrucards)")
    e.add_argument("--bleed", type=_bleed, metavar="MM", help="png: bleed in mm (default: the pack's)")
    e.add_argument("--group", action="append", default=[], metavar="ID", help="export only this group (repeatable)")
    e.add_argument("--max-px", type=_max_px, default=4096, metavar="PX",
                   help="tts: no image side over this many pixels (default 4096)")
    e.add_argument("--base-url", metavar="URL", help="tts: where you will host the images folder, for play online "
                   "(default: file:// addresses of this machine)")
    e.add_argument("--image-folder", type=_image_folder, metavar="FOLDER",
                   help="tts: the folder the images/ files will sit in on the computer that runs Tabletop Simulator, "
                        r"e.g. 'C:\Users\me\Documents\pnpgen\my-game' (written as a local path, as TTS reads them)")
    add_out_option(e)
    e.add_argument("--lenient", action="store_true", help="text that does not fit is a warning, not an error")
    build_options.add_version(e, "every image (and tts: the saved object's name)")
    e.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    e.set_defaults(run=run)


def run(args) -> int:
    from . import export
    if args.format != "png" and (args.preset or args.bleed is not None):
        raise UsageError("--preset and --bleed are for png export; Tabletop Simulator shows faces cut at the trim line")
    if args.format != "tts" and (args.base_url or args.image_folder or args.max_px != 4096):
        raise UsageError("--base-url, --image-folder and --max-px are for tts export")
    if args.base_url and args.image_folder:
        raise UsageError("give --base-url (images hosted online) or --image-folder (images on the TTS computer), not both")
    request = ExportRequest(out_dir=Path(args.out), dpi=args.dpi, preset=args.preset, bleed=args.bleed,
                            groups=tuple(args.group), max_px=args.max_px, base_url=args.base_url,
                            image_folder=args.image_folder, lenient=args.lenient, version=args.pack_version)

    def report(pack, result):
        if not args.quiet:
            print(f"{pack.name}: {len(result.files)} files -> {display_path(result.folder)}/")
            for note in result.notes:
                print(f"  {note}")
    failed = for_each_pack(args.games or [str(p) for p in resolve_packs([], all_by_default=False)], lambda pack: export(pack, args.format, request,
                                                               TerminalProgress(not args.quiet)),
                               report, "not exported")
    return 1 if failed else 0


MIN_MAX_PX = 256      # a sprite cell smaller than this shows nothing legible


def _max_px(text: str) -> int:
    value = _positive(text)            # a whole number up to 10000
    if value < MIN_MAX_PX:
        raise argparse.ArgumentTypeError(f"--max-px must be at least {MIN_MAX_PX}")
    return value


MAX_FOLDER_CHARS = 400


def _image_folder(text: str) -> str:
    """A folder path on the TTS computer: plain text without control characters, not a URL."""
    folder = text.strip()
    if not folder or len(folder) > MAX_FOLDER_CHARS:
        raise argparse.ArgumentTypeError(f"give a folder path of 1 to {MAX_FOLDER_CHARS} characters")
    if any(ord(c) < 32 or c in '"<>|?*' for c in folder):
        raise argparse.ArgumentTypeError("a folder path has no control characters and none of \" < > | ? *")
    if "://" in folder:
        raise argparse.ArgumentTypeError("that is an address: for images hosted online use --base-url")
    return folder
