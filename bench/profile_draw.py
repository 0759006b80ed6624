"""CPU a face of drawing it and of checking it (run on demand, not in CI): bench_cards.py's deck
built in one process, with the drawing stage's and the face checks' entry points timed.

    python bench/profile_draw.py [--cards 2000] [--rounds 3] [--against OTHER_CHECKOUT]

Per card (a front drawn, its shared back painted), in microseconds of CPU (time.process_time
around each call, so each figure carries the timer's own ~0.5 us): `draw_svg` (compile the
face's blocks into its document's program, then the cairo calls), `svgcheck.block_problems`
(colours and fonts of the face's own blocks), `onface.outside` (text off the face),
`onface.place` (a block noted with its template line, four a bench face),
`PdfWriter._draw_sheet` (a sheet's faces and marks, draw_svg included) and cairo's `show_page`
(the page written: its recording replayed into PDF). Up to 2,048 cards the faces are kept and
told apart by their SVG; above, they are streamed (cache.STREAM_ABOVE), as at 10,000 cards.
Each round builds in a fresh process; with --against, the other checkout's
code (a worktree of main, say) is measured in the same rounds, interleaved, so a burst of other
work on the shared machine falls on both alike.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMED = (("pdfwrite", "draw_svg"), ("svgcheck", "block_problems"), ("onface", "outside"), ("onface", "place"),
         ("pdfwrite", "PdfWriter._draw_sheet"), ("cairocffi", "Context.show_page"))


def one(cards: int) -> dict:
    """Build the deck in this process (code from the working folder), each TIMED function timed."""
    sys.path[:0] = [os.getcwd(), str(ROOT / "bench")]
    import importlib

    import bench_cards
    from generator import build, cli, parallel
    parallel.can_fork = lambda: False
    build.MAX_PAGES = max(build.MAX_PAGES, 2 * (cards + 8) // 9)
    spent: dict[str, list] = {}
    for module_name, name in TIMED:
        owner = importlib.import_module(module_name if module_name == "cairocffi" else f"generator.{module_name}")
        *outer, name = name.split(".")
        for part in outer:      # a method: timed on its class
            owner = getattr(owner, part)
        function, tally = getattr(owner, name), spent.setdefault(name, [0.0, 0])

        @functools.wraps(function)
        def timed(*args, _function=function, _tally=tally, **kwargs):
            start = time.process_time()
            try:
                return _function(*args, **kwargs)
            finally:
                _tally[0] += time.process_time() - start
                _tally[1] += 1
        setattr(owner, name, timed)
    with tempfile.TemporaryDirectory(prefix="pnpgen-profile-draw-") as folder:
        pack = bench_cards.write_pack(Path(folder), bench_cards.make_cards(cards))
        if cli.main(["build", str(pack), "--out", str(Path(folder) / "out"), "--quiet"]):
            raise SystemExit("pnpgen build failed")
    return {name: total / cards * 1e6 for name, (total, _) in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same rounds")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.cards)))
        return
    roots = {"this": ROOT} | ({"other": args.against.resolve()} if args.against else {})
    runs: dict[str, list[dict]] = {label: [] for label in roots}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for label, root in roots.items():
            done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", "--cards", str(args.cards)],
                                  cwd=root, check=True, capture_output=True, text=True)
            runs[label].append(json.loads(done.stdout))
        loads.append(os.getloadavg()[0])
    print(f"{args.cards:,} cards, {args.rounds} rounds; us of CPU a card, min / median")
    for label, root in roots.items():
        cells = [f"{name:15} {min(r[name] for r in runs[label]):6.1f} / {statistics.median(r[name] for r in runs[label]):6.1f}"
                 for name in (full.split(".")[-1] for _, full in TIMED)]
        print(f"  {label:5} ({root}):\n    " + "\n    ".join(cells))
    print("load average (1 min) before and after each round: " + ", ".join(f"{x:.1f}" for x in loads))


if __name__ == "__main__":
    main()
