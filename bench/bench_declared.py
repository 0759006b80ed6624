"""Benchmark (run on demand): Royal Dukes' declared map rules (map.yaml `layout:` with --relaxed as
`options:`, what `pnpgen map` runs) against the hand-written generator they replace (now the test
oracle, tests/map_oracles/), and what balancing does to the fairness metrics.

    python bench/bench_declared.py [--layouts 1000] [--rounds 3] [--balanced 20]

Speed: layouts per second for `--layouts` plain layouts (balance off) made and written as one
JSON file, as `pnpgen map --count N --format json` does, the two generators in alternating rounds
in one process (best round of each), strict, relaxed and with 10 mountains, with the machine's load
average; then the real command, timed whole. Balance: the oracle's metrics (on every layout) and
the declared objective's, plain -> balanced, for both generators; the breaks --relaxed uses.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from generator.maps import engine, layout as layout_mod  # noqa: E402
from generator.maps.rules import MapOptions  # noqa: E402
from map_oracles import royal_dukes_gen as oracle  # noqa: E402

GAME = "royal-dukes"
PLAIN = MapOptions(balance=False)
MODES = {"strict": PLAIN, "relaxed": MapOptions(balance=False, relaxed=True),
         "10 mountains": MapOptions(balance=False, mountains=10)}
ORACLE_KEYS = ("region_vp_spread", "halves_vp_spread", "wedges_vp_spread", "region_settlement_spread",
               "best_first_pick", "mean_free_neighbours")


def oracle_rules() -> engine.MapRules:
    """The hand-written generator behind the engine, as `python_rules:` used to wire it."""
    declared = engine.rules_for(GAME)

    class Gen:
        PLAYERS, BALANCE_TRIES, OPTIONS = oracle.PLAYERS, oracle.BALANCE_TRIES, oracle.OPTIONS
        generate, metrics, score = staticmethod(oracle.generate), staticmethod(oracle.metrics), staticmethod(oracle.score)

    return engine.MapRules(declared.id, declared.root, declared.data, Gen(), declared.checkers, declared.keys)


def batch_rate(rules, n: int, options: MapOptions) -> float:
    """Layouts per second: n plain layouts made and written as one JSON file."""
    start = time.perf_counter()
    layouts = [engine.generate(rules, seed, 4, options) for seed in range(n)]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "maps.json").write_text(layout_mod.dumps(layouts))
    return n / (time.perf_counter() - start)


def command_seconds(n: int, *flags: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "generator", "map", GAME, "--seed", "1", "--count", str(n),
                        "--balance", "off", "--format", "json", "--out", folder, *flags], check=True, capture_output=True)
        return time.perf_counter() - start


def oracle_metrics(layouts) -> dict:
    return {k: statistics.mean(oracle.metrics(l)[k] for l in layouts) for k in ORACLE_KEYS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--balanced", type=int, default=20, help="seeds for the balance figures")
    args = parser.parse_args()
    declared, hand = engine.rules_for(GAME), oracle_rules()
    for options in MODES.values():               # warm both (map.yaml read, placement built once)
        engine.generate(declared, 0, 4, options)
        engine.generate(hand, 0, 4, options)
    for mode, options in MODES.items():
        rates = {"hand-written": 0.0, "declared": 0.0}
        load = os.getloadavg()[0]
        for _ in range(args.rounds):
            rates["hand-written"] = max(rates["hand-written"], batch_rate(hand, args.layouts, options))
            rates["declared"] = max(rates["declared"], batch_rate(declared, args.layouts, options))
        print(f"{mode}: {args.layouts} plain 4-player layouts made and written (best of {args.rounds} alternating "
              f"rounds; load average {load:.2f} -> {os.getloadavg()[0]:.2f}): "
              + ", ".join(f"{name} {rate:,.0f}/s" for name, rate in rates.items())
              + f"; declared / hand-written {rates['declared'] / rates['hand-written']:.2f}")
    for flags in ((), ("--relaxed",)):
        seconds = command_seconds(args.layouts, *flags)
        print(f"whole command `pnpgen map {GAME} --count {args.layouts} --balance off --format json {' '.join(flags)}`: "
              f"{seconds:.2f} s, {args.layouts / seconds:,.0f} layouts/s (load average {os.getloadavg()[0]:.2f})")

    for name, rules in (("hand-written", hand), ("declared", declared)):
        for mode, options in (("strict", MapOptions()), ("relaxed", MapOptions(relaxed=True))):
            start = time.perf_counter()
            for seed in range(args.balanced):
                engine.generate(rules, seed, None, options)
            print(f"balanced default layout ({name}, {mode}, {rules.gen.BALANCE_TRIES} candidates): "
                  f"{(time.perf_counter() - start) / args.balanced:.3f} s")

    print(f"\nbalance, mean over {args.balanced} seeds, 4 players, plain -> balanced (the oracle's metrics; the "
          "hand-written score evens region_vp and swaps types for it, the declared objective evens the VP of "
          "quadrants, diagonal halves and wedges):")
    table = {}
    for name, rules in (("hand-written", hand), ("declared", declared)):
        plain = [engine.generate(rules, s, 4, PLAIN) for s in range(args.balanced)]
        fair = [engine.generate(rules, s, 4, MapOptions()) for s in range(args.balanced)]
        table[name] = (oracle_metrics(plain), oracle_metrics(fair))
    for key in ORACLE_KEYS:
        row = "  ".join(f"{name} {before[key]:6.3f} -> {after[key]:6.3f}" for name, (before, after) in table.items())
        print(f"  {key:<26} {row}")

    print(f"\n--relaxed, {args.layouts} plain boards: breaks used (settlements on the side; touching pairs)")
    for name, rules in (("hand-written", hand), ("declared", declared)):
        edges, pairs = Counter(), Counter()
        for seed in range(args.layouts):
            m = oracle.metrics(engine.generate(rules, seed, 4, MODES["relaxed"]))
            edges[m["edge_settlements"]] += 1
            pairs[m["adjacent_pairs"]] += 1
        print(f"  {name:<13} {dict(sorted(edges.items()))}; {dict(sorted(pairs.items()))}")


if __name__ == "__main__":
    main()
