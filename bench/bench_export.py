"""Benchmark (run on demand, not in CI): time `pnpgen export png` and `pnpgen export tts` of each
pack against `pnpgen build` of the same pack, in one run, as ratios.

    python bench/bench_export.py [GAME...] [--repeat 3]

Each command runs in a fresh process (as a user runs it), --repeat times in turn (build, png,
tts, build, png, tts, ...), so load from other work on the machine falls on all three alike; the
median of each is reported.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["royal-dukes", "shires", "dragon-towers", "lords-of-doomspire", "cones-of-dunshire"]
COMMANDS = {"build": ["build"], "png": ["export", "png"], "tts": ["export", "tts"]}


def timed(args: list[str]) -> float:
    """Seconds of one run of pnpgen in a new process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)      # the packs' warnings
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=PACKS)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(f"{'pack':<20} {'build s':>8} {'png s':>7} {'tts s':>7} {'png/build':>10} {'tts/build':>10} {'files png':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            times = {name: [] for name in COMMANDS}
            for _ in range(args.repeat):
                for name, command in COMMANDS.items():
                    seconds = timed([*command, game, "--out", tmp, "--quiet"])
                    times[name].append(seconds)
            med = {name: statistics.median(values) for name, values in times.items()}
            files = sum(1 for f in (Path(tmp) / game / "png").rglob("*.png"))
            print(f"{game:<20} {med['build']:>8.2f} {med['png']:>7.2f} {med['tts']:>7.2f} "
                  f"{med['png'] / med['build']:>10.2f} {med['tts'] / med['build']:>10.2f} {files:>10}")


if __name__ == "__main__":
    main()
