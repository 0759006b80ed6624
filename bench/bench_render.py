"""CPU of making faces from their templates (run on demand, not in CI): bench_cards.py's deck
built in one process, whole or with cairo's drawing of each face left out.

    python bench/bench_render.py [--cards 10000] [--rounds 5] [--against OTHER_CHECKOUT]

Two figures per round, each from a fresh process, CPU seconds (time.process_time: user +
system of this one process, the build never forks here):
- `build`: `pnpgen build` of the deck, the whole command after the deck is written;
- `no draw`: the same build with pdfwrite's draw_svg a no-op: every face is still rendered,
  checked, identified, kept and counted exactly as the writer asks for it, and the pages, their
  marks and the PDF are still made, so what rendering costs is a larger part of the figure.
With --against, the other checkout's code (an extract of main, say) is measured in the same
rounds, interleaved, so a burst of other work on the shared machine falls on both alike.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("build", "no draw")


def one(cards: int, mode: str) -> float:
    """CPU seconds of building the deck in this process (code from the working folder)."""
    sys.path[:0] = [os.getcwd(), str(ROOT / "bench")]
    import bench_cards
    from generator import build, cli, parallel, pdfwrite
    parallel.can_fork = lambda: False
    build.MAX_PAGES = max(build.MAX_PAGES, 2 * (cards + 8) // 9)
    if mode == "no draw":
        pdfwrite.draw_svg = lambda ctx, svg: None
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-render-") as folder:
        pack = bench_cards.write_pack(Path(folder), bench_cards.make_cards(cards))
        start = time.process_time()
        if cli.main(["build", str(pack), "--out", str(Path(folder) / "out"), "--quiet"]):
            raise SystemExit("pnpgen build failed")
        return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=MODES, help="one of the two figures")
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same rounds")
    parser.add_argument("--one", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.cards, args.one)))
        return
    roots = {"this": ROOT} | ({"other": args.against.resolve()} if args.against else {})
    modes = (args.only,) if args.only else MODES
    runs = {(label, mode): [] for label in roots for mode in modes}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for mode in modes:
            for label, root in roots.items():
                done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", mode,
                                       "--cards", str(args.cards)], cwd=root, check=True, capture_output=True, text=True)
                runs[label, mode].append(json.loads(done.stdout))
        loads.append(os.getloadavg()[0])
    print(f"{args.cards:,} cards, {args.rounds} rounds; CPU s, min / median (each round)")
    for mode in modes:
        for label, root in roots.items():
            r = runs[label, mode]
            print(f"  {mode:8} {label:5} {min(r):7.3f} / {statistics.median(r):7.3f}   "
                  + " ".join(f"{x:.3f}" for x in r) + f"   ({root})")
    print("load average (1 min) before and after each round: " + ", ".join(f"{x:.1f}" for x in loads))


if __name__ == "__main__":
    main()
