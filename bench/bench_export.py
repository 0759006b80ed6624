"""Benchmark (run on demand, not in CI): time `pnpgen export png` and `pnpgen export tts` of each
pack against `pnpgen build` of the same pack, in one run, as ratios.

    python bench/bench_export.py [GAME...] [--repeat 3]

Each command runs in a fresh process (as a user runs it), --repeat times in turn (build, png,
tts, build, png, tts, ...), so load from other work on the machine falls on all three alike; the
median of each is reported, wall-clock and CPU time (the process and its workers, user + system):
on a shared machine the CPU ratios are the steadier figure.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["royal-dukes", "shires", "dragon-towers", "lords-of-doomspire", "cones-of-dunshire"]
COMMANDS = {"build": ["build"], "png": ["export", "png"], "tts": ["export", "tts"]}


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)     # waited-for children and their workers
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of pnpgen in a new process."""
    start, cpu = time.perf_counter(), cpu_of_children()
    subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)      # the packs' warnings
    return time.perf_counter() - start, cpu_of_children() - cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=PACKS)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(f"{'':<20} {'wall seconds':^23} {'wall ratio':^21} {'CPU seconds':^23} {'CPU ratio':^21}")
    print(f"{'pack':<20} " + f"{'build':>7} {'png':>7} {'tts':>7} {'png/b':>10} {'tts/b':>10} " * 2 + f"{'png files':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            walls = {name: [] for name in COMMANDS}
            cpus = {name: [] for name in COMMANDS}
            for _ in range(args.repeat):
                for name, command in COMMANDS.items():
                    wall, cpu = timed([*command, game, "--out", tmp, "--quiet"])
                    walls[name].append(wall)
                    cpus[name].append(cpu)
            line = f"{game:<20} "
            for times in (walls, cpus):
                med = {name: statistics.median(values) for name, values in times.items()}
                line += (f"{med['build']:>7.2f} {med['png']:>7.2f} {med['tts']:>7.2f} "
                         f"{med['png'] / med['build']:>10.2f} {med['tts'] / med['build']:>10.2f} ")
            files = sum(1 for f in (Path(tmp) / game / "png").rglob("*.png"))
            print(line + f"{files:>10}", flush=True)


if __name__ == "__main__":
    main()
