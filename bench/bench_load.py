"""Benchmark (run on demand, not in CI): loading + manifest validation (load_pack) of a pack of
N distinct items, the time users wait before any drawing (``pnpgen validate``, ``list``, the
start of ``build``). Template rendering of every face is not part of this figure.

    python bench/bench_load.py [--items 10000] [--repeat 5] [--against ../main]

The pack is the bench deck of bench_cards.py (title, kind, cost, six lines of body text per
card), written as block YAML as a designer would. Reports, from one run: load_pack whole (cold:
first call in a fresh process; warm: best of the repeats), its parts (YAML parsing by libyaml
alone; building the positioned data; checking), per-item cost, and `pnpgen list` / start-up
wall times.

With --against DIR (another checkout), only load_pack whole is measured, for this checkout and
that one in interleaved rounds of fresh processes, of the deck as bench_cards writes it (JSON,
which is YAML) and as block YAML: CPU of the process and of its forked loading child.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import bench_cards  # noqa: E402

# CPU time of this process (time.process_time), not wall time: the machine is shared and
# other people's work would otherwise be counted in ours.
IN_PROCESS = """
import sys, time
from pathlib import Path
start = time.process_time()
from generator.manifest import load_pack
imported = time.process_time()
game = load_pack(Path({pack!r}))
cold = time.process_time() - imported
warm = []
for _ in range({repeat}):
    t = time.process_time(); load_pack(Path({pack!r})); warm.append(time.process_time() - t)
print(imported - start, cold, min(warm), game.total)
"""

# load_pack whole, a large pack's forked loading child included (apart.py); the first call warms
AGAINST = """
import resource, sys, time
from pathlib import Path
from generator.manifest import load_pack
def cpu():
    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
load_pack(Path({pack!r}))
best = 9e9
for _ in range({repeat}):
    t = cpu(); load_pack(Path({pack!r})); best = min(best, cpu() - t)
print(best)
"""

PARTS = """
import sys, time
from pathlib import Path
import yaml
from generator.errors import Reporter
from generator.yamlsrc import SAFE_LOADER, load_yaml, paused_gc
path = Path({deck!r})
text = path.read_text()
best_parse = best_build = 9e9
for _ in range({repeat}):
    with paused_gc():
        t = time.process_time(); loader = SAFE_LOADER(text); loader.get_single_node(); loader.dispose()
        best_parse = min(best_parse, time.process_time() - t)
    t = time.process_time(); load_yaml(path, Reporter()); best_build = min(best_build, time.process_time() - t)
print(best_parse, best_build)
"""


def command(args: list[str], repeat: int = 3) -> str:
    """Best CPU time (user + system) and best wall time of a command, as text."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        best_wall = min(best_wall, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return f"{best_cpu:.3f} s CPU ({best_wall:.3f} s wall)"


def write_block_yaml(pack: Path) -> Path:
    """bench_cards writes JSON (valid YAML); rewrite the deck as the block YAML people write."""
    deck = pack / "deck.yaml"
    data = yaml.safe_load(deck.read_text())
    deck.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    return deck


def against(other: Path, items: int, repeat: int, rounds: int = 4) -> None:
    """load_pack of this checkout and of `other`, interleaved, each round in fresh processes."""
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-load-"))
    try:
        cards = bench_cards.make_cards(items)
        packs = {"JSON": bench_cards.write_pack(work / "json", cards)}
        packs["block YAML"] = bench_cards.write_pack(work / "block", cards)
        write_block_yaml(packs["block YAML"])
        checkouts = {"this": ROOT, "against": other.resolve()}
        seconds = {(deck, name): [] for deck in packs for name in checkouts}
        loads = [os.getloadavg()[0]]
        for turn in range(rounds):
            for deck, pack in packs.items():
                for name in list(checkouts)[:: 1 if turn % 2 == 0 else -1]:
                    seconds[deck, name].append(float(subprocess.run(
                        [sys.executable, "-c", AGAINST.format(pack=str(pack), repeat=repeat)], capture_output=True,
                        text=True, check=True, cwd=checkouts[name]).stdout))
            loads.append(os.getloadavg()[0])
        print(f"load_pack of {items:,} cards, CPU s (process and loading child), best of {repeat} per process, "
              f"{rounds} interleaved rounds, min / median; load average {min(loads):.1f}-{max(loads):.1f}")
        for (deck, name), times in seconds.items():
            print(f"  {deck:10} {name:7} {checkouts[name]}: {min(times):.3f} / {statistics.median(times):.3f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same rounds")
    args = parser.parse_args()
    if args.against:
        return against(args.against, args.items, args.repeat)
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-load-"))
    try:
        pack = bench_cards.write_pack(work, bench_cards.make_cards(args.items))
        deck = write_block_yaml(pack)
        run = lambda code: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,  # noqa: E731
                                          check=True, cwd=ROOT).stdout.split()
        imports, cold, warm, total = map(float, run(IN_PROCESS.format(pack=str(pack), repeat=args.repeat)))
        parse, build = map(float, run(PARTS.format(deck=str(deck), repeat=args.repeat)))
        n = args.items
        print(f"pack: {n:,} distinct cards, {deck.stat().st_size / 1e6:.1f} MB of block YAML, {int(total):,} faces")
        print(f"load_pack (load + validate), CPU s, warm: {warm:.3f} s = {warm / n * 1e6:.0f} us/item; "
              f"cold (first in a process): {cold:.3f} s")
        print(f"  YAML parse alone (libyaml compose, the floor): {parse:.3f} s ({parse / warm:.0%} of load_pack)")
        print(f"  YAML + positions (yamlsrc.load_yaml): {build:.3f} s; checks and model: {warm - build:.3f} s")
        print(f"imports before loading: {imports:.3f} s")
        pnpgen = [sys.executable, "-m", "generator"]
        print(f"pnpgen --help: {command(pnpgen + ['--help'])}; pnpgen list (built-in packs): "
              f"{command(pnpgen + ['list'])}; pnpgen validate (this pack): {command(pnpgen + ['validate', str(pack)], 1)}")
        print(f"load average (1 min): {os.getloadavg()[0]:.1f} on 2 cores (above 2, wall times include other work)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
