"""Benchmark (run on demand): Lords of Doomspire's declared map rules (map.yaml `layout:`, what
`pnpgen map` runs) against the hand-written generator they replace (now the test oracle,
tests/map_oracles/), and what balancing does to the fairness metrics.

    python bench/bench_doomspire_declared.py [--layouts 1000] [--rounds 3] [--balanced 20]

Speed: layouts per second for `--layouts` plain layouts (balance off) made and written as one
JSON file, as `pnpgen map --count N --format json` does, the two generators in alternating rounds
in one process (best round of each), with the machine's load average; then the real command,
timed whole. Balance: the hand-written metrics (the oracle's, on every layout) and the declared
objective's, plain -> balanced, for both generators.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from generator.maps import engine, layout as layout_mod  # noqa: E402
from generator.maps.rules import MapOptions  # noqa: E402
from map_oracles import lords_of_doomspire_gen as oracle  # noqa: E402

GAME = "lords-of-doomspire"
PLAIN = MapOptions(balance=False)


def oracle_rules() -> engine.MapRules:
    """The hand-written generator behind the engine, as `python_rules:` used to wire it."""
    declared = engine.rules_for(GAME)

    class Gen:
        PLAYERS, BALANCE_TRIES, OPTIONS = oracle.PLAYERS, oracle.BALANCE_TRIES, ()
        generate, metrics, score = staticmethod(oracle.generate), staticmethod(oracle.metrics), staticmethod(oracle.score)

    return engine.MapRules(declared.id, declared.root, declared.data, Gen(), declared.checkers, declared.keys)


def batch_rate(rules, n: int) -> float:
    """Layouts per second: n plain layouts made and written as one JSON file."""
    start = time.perf_counter()
    layouts = [engine.generate(rules, seed, 4, PLAIN) for seed in range(n)]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "maps.json").write_text(layout_mod.dumps(layouts))
    return n / (time.perf_counter() - start)


def command_seconds(n: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "generator", "map", GAME, "--seed", "1", "--count", str(n),
                        "--balance", "off", "--format", "json", "--out", folder], check=True, capture_output=True)
        return time.perf_counter() - start


def oracle_metrics(layouts) -> dict:
    keys = sorted(oracle.metrics(layouts[0]))
    return {k: statistics.mean(oracle.metrics(l)[k] for l in layouts) for k in keys}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--balanced", type=int, default=20, help="seeds for the balance figures")
    args = parser.parse_args()
    declared, hand = engine.rules_for(GAME), oracle_rules()
    engine.generate(declared, 0, 4, PLAIN)        # warm both (map.yaml read once)
    engine.generate(hand, 0, 4, PLAIN)
    rates = {"hand-written": 0.0, "declared": 0.0}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        rates["hand-written"] = max(rates["hand-written"], batch_rate(hand, args.layouts))
        rates["declared"] = max(rates["declared"], batch_rate(declared, args.layouts))
    print(f"{args.layouts} plain 4-player layouts made and written (best of {args.rounds} alternating rounds; "
          f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}):")
    for name, rate in rates.items():
        print(f"  {name:<13} {rate:8,.0f} layouts/s")
    print(f"  declared / hand-written: {rates['declared'] / rates['hand-written']:.2f}")
    seconds = command_seconds(args.layouts)
    print(f"whole command `pnpgen map {GAME} --count {args.layouts} --balance off --format json`: "
          f"{seconds:.2f} s, {args.layouts / seconds:,.0f} layouts/s (load average {os.getloadavg()[0]:.2f})")

    for name, rules in (("hand-written", hand), ("declared", declared)):
        start = time.perf_counter()
        for seed in range(args.balanced):
            engine.generate(rules, seed, None, MapOptions())
        print(f"balanced default layout ({name}, {rules.gen.BALANCE_TRIES} candidates): "
              f"{(time.perf_counter() - start) / args.balanced:.3f} s")

    print(f"\nbalance, mean over {args.balanced} seeds, 4 players, plain -> balanced "
          "(hand-written metrics; the declared objective evens resources_near_starts_spread):")
    table = {}
    for name, rules in (("hand-written", hand), ("declared", declared)):
        plain = [engine.generate(rules, s, 4, PLAIN) for s in range(args.balanced)]
        fair = [engine.generate(rules, s, 4, MapOptions()) for s in range(args.balanced)]
        table[name] = (oracle_metrics(plain), oracle_metrics(fair))
        if name == "declared":
            near = [statistics.mean(l.metrics["resources_near_starts_spread"] for l in ls) for ls in (plain, fair)]
            print(f"  declared objective resources_near_starts_spread: {near[0]:.2f} -> {near[1]:.2f}")
    for key in table["declared"][0]:
        row = "  ".join(f"{name} {before[key]:6.3f} -> {after[key]:6.3f}" for name, (before, after) in table.items())
        print(f"  {key:<27} {row}")


if __name__ == "__main__":
    main()
