"""The options of `pnpgen build` that go beyond laying out the sheets (--changes-since,
--tuck-boxes, --back-offset, --printer, --version): their parsers, resolved once where the command starts
into the BuildRequest, and their lines in the build's summary."""
from __future__ import annotations

import argparse

from .printer import PrinterError, offset_for, parse_offset, read_settings


def add_build_only(b: argparse.ArgumentParser) -> None:
    b.add_argument("--changes-since", metavar="OLD", help="also write <game>-changes.pdf: only the faces new or "
                   "changed since the build in folder OLD (or the pack at git revision OLD), and the players' "
                   "list of what to take out and put in; those faces carry NEW")
    b.add_argument("--tuck-boxes", nargs="?", const="", type=_thickness, metavar="THICKNESS",
                   help="also write <game>-tuckboxes.pdf: a tuck box per card group, for cards plain, sleeved, or "
                        "THICKNESS mm thick (alone: each group's tuck_box, else plain)")


def add_shared(p: argparse.ArgumentParser) -> None:
    """Build and preview (both write the PDFs): the version and the printer's back offset."""
    add_version(p)
    p.add_argument("--back-offset", type=_offset, metavar="X,Y",
                   help="move every back page by X,Y mm (x right, y down, as the back page is drawn) to make up "
                        "for your printer's duplex shift; measure it with pnpgen calibrate")
    p.add_argument("--printer", metavar="NAME", help="use the back offset saved for this printer "
                   "(pnpgen calibrate --save NAME; default: the printer saved last)")


def add_version(p: argparse.ArgumentParser, what: str = "every face and page guide") -> None:
    """--version, for every command that prints the pack's version (build, preview, map, handout, export)."""
    p.add_argument("--version", dest="pack_version", type=_version, metavar="TEXT",
                   help=f"the version printed on {what}, instead of game.yaml's (\"\": none)")


def resolve(args, request, the_pack):
    """The request with these options resolved (an earlier build read, a git revision rendered,
    the printer's offset looked up), before any work; the_pack(): the one pack named."""
    from .changes_command import baseline
    request.tuck_boxes = getattr(args, "tuck_boxes", None)
    request.version = args.pack_version
    request.back_offset = back_offsets(args.back_offset, args.printer)
    request.changes_since = baseline(getattr(args, "games", []), getattr(args, "changes_since", None), request,
                                     the_pack)
    return request


def back_offsets(given: tuple[float, float] | None, printer: str | None) -> dict | None:
    """Per duplex flip, the offset: --back-offset for both, else the printer's saved ones."""
    if given is not None:
        return {"long": given, "short": given}
    settings = read_settings()
    offsets = {duplex: offset_for(printer, duplex, settings)[0] for duplex in ("long", "short")}
    return {d: o for d, o in offsets.items() if o} or None


def summary(result) -> list[str]:
    from .changes_command import summary as changes_summary
    return changes_summary(result.changes, f"{result.game.id}-changes.pdf")


def _thickness(text: str) -> str:
    from .tuckbox import ThicknessError, card_thickness
    try:
        text and card_thickness(text)
    except ThicknessError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _version(text: str) -> str:
    import re
    from .version import PATTERN
    if text and not re.fullmatch(PATTERN, text):
        raise argparse.ArgumentTypeError(f"'{text}': use up to 40 letters, digits, spaces and . _ + -, e.g. v2")
    return text


def _offset(text: str) -> tuple[float, float]:
    try:
        return parse_offset(text)
    except PrinterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
