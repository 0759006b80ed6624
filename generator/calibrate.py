"""`pnpgen calibrate`: a two-sided page that measures how far a printer puts the back of a sheet
off its front, and saving what it measured (printer.py keeps it by printer name).

The front carries two bold target lines, one upright (for X) and one lying (for Y). The back
carries, behind each, a millimetre scale whose tick v sits v mm from where the target would be
behind a perfect print: a printer that shifts the back by s puts tick -s behind the target,
so the number read off the scale is the --back-offset to give. One page pair per duplex flip
(long edge, then short edge), as the backs of each flip lie differently behind their fronts.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SCALE = 4.0                  # mm each way from the perfect place
STEP = 0.25                  # mm between ticks
TARGET_WIDTH = 0.6           # mm: bold enough to see through the paper against a window
FLIPS = ("long", "short")


@dataclass(frozen=True)
class Targets:
    """Front: an upright line at x (from y0 to y1) and a lying one at y (from x0 to x1)."""
    x: float
    y: float
    upright: tuple[float, float]
    lying: tuple[float, float]


def targets(width: float, height: float) -> Targets:
    return Targets(width / 2, height / 2 + 40, (height / 2 - 70, height / 2 - 30), (30.0, 70.0))


def behind(point: tuple[float, float], width: float, height: float, flip: str) -> tuple[float, float]:
    """Where a point of the front lies on the back page of a perfect print (the back's own mm)."""
    x, y = point
    return (width - x, y) if flip == "long" else (x, height - y)


def ticks(width: float, height: float, flip: str) -> dict[str, list[tuple[float, float]]]:
    """Per axis, (value, position on the back page) of every tick: x positions for the X scale,
    y positions for the Y scale."""
    t = targets(width, height)
    zero_x = behind((t.x, 0.0), width, height, flip)[0]
    zero_y = behind((0.0, t.y), width, height, flip)[1]
    values = [round(-SCALE + i * STEP, 2) for i in range(int(2 * SCALE / STEP) + 1)]
    return {"x": [(v, zero_x + v) for v in values], "y": [(v, zero_y + v) for v in values]}


def calibration_pdf(width: float, height: float) -> bytes:
    """Four pages: the long-edge front and back, then the short-edge front and back."""
    import cairocffi as cairo
    from .pdfwrite import FIXED_DATE, PT_PER_MM, _Sink, new_context
    buffer = _Sink()
    surface = cairo.PDFSurface(buffer, width * PT_PER_MM, height * PT_PER_MM)
    surface.set_metadata(cairo.PDF_METADATA_TITLE, "pnpgen printer calibration")
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "pnpgen")
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
    surface.set_metadata(cairo.PDF_METADATA_MOD_DATE, FIXED_DATE)
    for flip in FLIPS:
        for draw in (_front, _back):
            ctx = new_context(surface)
            ctx.scale(PT_PER_MM, PT_PER_MM)
            draw(ctx, width, height, flip)
            ctx.show_page()
    surface.finish()
    return buffer.getvalue()


INSTRUCTIONS = [
    "Printer calibration: {flip}-edge duplex",
    "1. Print pages {pages} of this file double-sided, flip on the {flip} edge, at actual size (no fit to page).",
    "2. Hold the sheet against a window: the bold lines on this side show through on the other.",
    "3. On the other side, read the scale number the upright line falls on (X) and the lying line (Y).",
    "4. pnpgen calibrate --save NAME --duplex {flip} --back-offset=X,Y",
    "   (NAME: a name for this printer; every two-sided build then moves its backs by X,Y mm.)",
]


def _front(ctx, width, height, flip):
    t = targets(width, height)
    _text(ctx, 15, 20, [line.format(flip=flip, pages="1-2" if flip == "long" else "3-4") for line in INSTRUCTIONS])
    ctx.set_source_rgb(0, 0, 0)
    ctx.rectangle(t.x - TARGET_WIDTH / 2, t.upright[0], TARGET_WIDTH, t.upright[1] - t.upright[0])
    ctx.rectangle(t.lying[0], t.y - TARGET_WIDTH / 2, t.lying[1] - t.lying[0], TARGET_WIDTH)
    ctx.fill()
    _text(ctx, t.x + 2, t.upright[0] - 2, ["X"])
    _text(ctx, t.lying[0] - 6, t.y + 1, ["Y"])


def _back(ctx, width, height, flip):
    t = targets(width, height)
    scales = ticks(width, height, flip)
    top, bottom = sorted(behind((0, y), width, height, flip)[1] for y in t.upright)
    left, right = sorted(behind((x, 0), width, height, flip)[0] for x in t.lying)
    ctx.set_source_rgb(0, 0, 0)
    ctx.set_line_width(0.1)
    for value, x in scales["x"]:
        length = _tick_length(value)
        ctx.move_to(x, top)
        ctx.line_to(x, top + length)
        ctx.move_to(x, bottom)
        ctx.line_to(x, bottom - length)
    for value, y in scales["y"]:
        length = _tick_length(value)
        ctx.move_to(left, y)
        ctx.line_to(left + length, y)
        ctx.move_to(right, y)
        ctx.line_to(right - length, y)
    ctx.stroke()
    ctx.set_font_size(1.6)
    for value, x in scales["x"]:           # every millimetre, in two rows so they never touch
        if value % 1 == 0:
            _label(ctx, _number(value), x, top + 10.5 + 2.2 * (value % 2), centred=True)
    for value, y in scales["y"]:
        if value % 1 == 0:
            _label(ctx, _number(value), left + 9 + 3.5 * (value % 2), y + 0.55)
    _text(ctx, 15, 20, [f"Back of the {flip}-edge calibration page: X scale across, Y scale down",
                        "Read where the bold line of the other side falls; between ticks, a quarter mm each."])


def _number(value: float) -> str:
    return f"{value:+g}" if value else "0"


def _tick_length(value: float) -> float:
    return 8.0 if value % 1 == 0 else 6.0 if value % 0.5 == 0 else 4.0


def _label(ctx, text, x, y, centred=False):
    from .pdfwrite import LABEL_FONT
    ctx.select_font_face(LABEL_FONT)
    width = ctx.text_extents(text)[4]
    ctx.move_to(x - width / 2 if centred else x, y)
    ctx.show_text(text)


def _text(ctx, x, y, lines):
    from .pdfwrite import LABEL_FONT
    ctx.set_source_rgb(0, 0, 0)
    ctx.select_font_face(LABEL_FONT)
    ctx.set_font_size(3.2)
    for n, line in enumerate(lines):
        ctx.move_to(x, y + n * 5)
        ctx.show_text(line)


# --- the command ---------------------------------------------------------------------------------

def add_parser(sub) -> None:
    from .cli_common import add_out_option
    from .build_options import _offset
    from .manifest import PAPERS
    c = sub.add_parser("calibrate", help="print a page that measures your printer's duplex shift; save it by printer name",
                       description="Without --save: writes calibrate-<paper>.pdf (print it double-sided and read "
                                   "the offset off it). With --save NAME --back-offset X,Y: keeps the offset for "
                                   "that printer in your settings file; builds then move their backs by it.")
    c.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    c.add_argument("--save", metavar="NAME", help="keep --back-offset for this printer (and make it the default)")
    c.add_argument("--back-offset", type=_offset, metavar="X,Y", help="with --save: the offset read off the page")
    c.add_argument("--duplex", choices=FLIPS, default="long", help="with --save: the flip it was measured for")
    add_out_option(c)
    c.set_defaults(run=run)


def run(args) -> int:
    from .errors import UsageError, display_path
    from .manifest import PAPERS
    from .printer import save_offset
    from .publish import write_atomically
    if args.save or args.back_offset:
        if not (args.save and args.back_offset):
            raise UsageError("give both --save NAME and --back-offset=X,Y to keep a printer's offset")
        path = save_offset(args.save, args.duplex, args.back_offset)
        print(f"{display_path(path)}: printer '{args.save}', {args.duplex}-edge backs move by "
              f"{args.back_offset[0]:+g},{args.back_offset[1]:+g} mm (the default printer now)")
        return 0
    paper = PAPERS[args.paper]
    name, folder = f"calibrate-{args.paper}.pdf", Path(args.out) / "calibrate"
    write_atomically(folder, {name: calibration_pdf(paper["width"], paper["height"])})
    print(f"{display_path(folder / name)}: print pages 1-2 double-sided (long-edge flip) or 3-4 (short-edge "
          "flip), then follow the steps on the page")
    return 0
