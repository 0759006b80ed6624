"""Paper used by each built-in pack against an area bound, on A4 and Letter.

    python bench/bench_paper.py [--packs royal-dukes shires ...] [--papers a4 letter]

Sheets of paper: a front page and its back (or a one-sided page and its blank back) are one
sheet. The area bound is the area of every face with 3 mm bleed all round (rectangles and circles
by their bounding box, hexagons by their own area, since hexagons tile and a grid of circles is a
fair packing) over the printable area of a sheet (the paper less 5 mm all round), for the one-
and the two-sided faces apart, added. A ratio of 1.00 uses paper like a perfect cutter would;
under 1.00 is possible where faces share cut lines (no bleed between them).

The figure is measured on the planned sheets (build() with drawing replaced), so the script runs
on any version of pnpgen that draws through build.write_pdf or parallel.write_pdf, for
before/after comparisons. Boards laid out like cards share one file (<game>-boards.pdf) since
boards share sheets: "+mats" counts its pages.
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator import build as build_module            # noqa: E402
from generator import parallel                         # noqa: E402
from generator.manifest import PAPERS, load_pack       # noqa: E402

BLEED = 3.0
MARGIN = 5.0


def face_area(group) -> float:
    w, h = group.width + 2 * BLEED, group.height + 2 * BLEED
    if group.shape == "hexagon":
        across = min(group.width, group.height) + 2 * BLEED
        return math.sqrt(3) / 2 * across ** 2
    return w * h


def measure(pack: Path, paper: str) -> dict:
    planned: list[tuple[str, list]] = []

    def capture(writer, sheets, *rest):
        planned.append((writer.title, sheets))
        return b""
    # build() draws through parallel.write_pdf (imported when it draws); older versions had it in build
    drawer = parallel if hasattr(parallel, "write_pdf") else build_module
    real = drawer.write_pdf
    drawer.write_pdf = capture
    game = load_pack(pack)
    # build() also writes maps and handouts: replace those steps by nothing
    saved = build_module._map_files, build_module._handout_file
    build_module._map_files = lambda *a, **k: {}
    build_module._handout_file = lambda *a, **k: {}
    try:
        with tempfile.TemporaryDirectory() as out:
            try:
                build_module.build(pack, build_module.BuildRequest(paper=paper, out_dir=Path(out)))
            except Exception:      # an old build may choke on the empty PDF after planning: enough
                pass
    finally:
        drawer.write_pdf = real
        build_module._map_files, build_module._handout_file = saved
    W, H = PAPERS[paper]["width"], PAPERS[paper]["height"]
    printable = (W - 2 * MARGIN) * (H - 2 * MARGIN)
    result = {}
    for part, groups, docs in (
            ("sheets", [g for g in game.groups if g.kind != "mat"], [s for t, s in planned if t.endswith("sheets")]),
            ("mats", [g for g in game.groups if g.kind == "mat"], [s for t, s in planned if t.endswith("board")])):
        tiled = [s for s in docs if any(sheet.side == "board" for sheet in s)]
        laid = [s for s in docs if s not in tiled]
        sheets = sum(1 for doc in laid for sheet in doc if sheet.side not in ("back", "blank"))
        tiled_groups = {sheet.placements[0].face.group.id for doc in tiled for sheet in doc}
        bound, whole = 0.0, 0
        for sides in (1, 2):
            share = sum(face_area(g) * g.total for g in groups
                        if g.sides == sides and g.id not in tiled_groups) / printable
            bound += share
            whole += math.ceil(share - 1e-9)
        result[part] = (sheets, bound, whole, sum(len(doc) for doc in tiled))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", nargs="*", default=None)
    parser.add_argument("--papers", nargs="*", default=["a4", "letter"])
    args = parser.parse_args()
    packs = [ROOT / "components" / p for p in args.packs] if args.packs else \
        sorted(p for p in (ROOT / "components").iterdir() if (p / "game.yaml").is_file())
    print("sheets: the sheets PDF; +mats: with the boards that fit a page; bound: area bound, and")
    print("whole: the same rounded up to whole sheets for one- and two-sided faces apart\n")
    print(f"{'pack':20} {'paper':6} {'sheets':>6} {'bound':>6} {'ratio':>5} {'whole':>5} {'ratio':>5}   "
          f"{'+mats':>5} {'bound':>6} {'ratio':>5} {'whole':>5} {'ratio':>5}  tiled boards (pages)")
    for pack in packs:
        for paper in args.papers:
            r = measure(pack, paper)
            s, b, w, _ = r["sheets"]
            ms, mb, mw, tiled = r["mats"]
            print(f"{pack.name:20} {paper:6} {s:6d} {b:6.2f} {s / b:5.2f} {w:5d} {s / w:5.2f}   "
                  f"{s + ms:5d} {b + mb:6.2f} {(s + ms) / (b + mb):5.2f} {w + mw:5d} {(s + ms) / (w + mw):5.2f}  {tiled}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
