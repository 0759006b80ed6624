"""Benchmark (run on demand): the declared Royal Dukes (map.yaml `layout:`, generic generator)
against the hand-written one, and what balancing does to the cuts of the board.

    python bench/bench_declared.py [--rounds 15] [--block 200] [--balanced 30]

Speed: plain layouts per CPU second (process time, so other work on a shared machine counts
less), the two generators measured in alternating blocks of the same size, best block of each.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

import yaml

from generator.maps import declared, declared_check, declared_gen, engine, royal_dukes_gen
from generator.maps.rules import MapOptions

PLAIN = MapOptions(balance=False)


def declared_rules() -> engine.MapRules:
    root = engine.builtin_root("royal-dukes")
    data = yaml.safe_load((root / "map.yaml").read_text())
    spec = declared.load(data["layout"], root / "map.yaml")
    gen = declared_gen.Generator(spec, "royal-dukes")
    return engine.MapRules("royal-dukes", root, data, gen, (("declared", declared_check.Checker(spec.source, "royal-dukes").check),))


def best_rate(generate, rounds: int, block: int, results: dict, name: str) -> None:
    rng = random.Random(1)
    start = time.process_time()
    for _ in range(block):
        generate(rng, 4, PLAIN)
    results[name] = max(results.get(name, 0.0), block / (time.process_time() - start))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--block", type=int, default=200)
    parser.add_argument("--balanced", type=int, default=30, help="balanced layouts per measurement")
    args = parser.parse_args()
    rules = declared_rules()
    rates: dict = {}
    for _ in range(args.rounds):
        best_rate(royal_dukes_gen.generate, args.rounds, args.block, rates, "hand-written")
        best_rate(rules.gen.generate, args.rounds, args.block, rates, "declared")
    print("plain Royal Dukes layouts per CPU second (best block):")
    for name, value in rates.items():
        print(f"  {name:<13} {value:>9,.0f}")
    print(f"  declared / hand-written: {rates['declared'] / rates['hand-written']:.2f}")

    times = {}
    for name, game in (("hand-written", "royal-dukes"), ("declared", rules)):
        start = time.process_time()
        for seed in range(args.balanced):
            engine.generate(game, seed, None, MapOptions())
        times[name] = (time.process_time() - start) / args.balanced
    print(f"balanced layout (CPU s): hand-written {times['hand-written']:.3f}, declared {times['declared']:.3f}, "
          f"declared / hand-written speed {times['hand-written'] / times['declared']:.2f}")

    print("\nhand-written balance, mean over layouts (plain -> balanced); only the quadrants are swapped for:")
    keys = ("region_vp_spread", "halves_vp_spread", "wedges_vp_spread", "best_first_pick")
    plain = [engine.generate("royal-dukes", s, None, PLAIN).metrics for s in range(args.balanced)]
    fair = [engine.generate("royal-dukes", s, None, MapOptions()).metrics for s in range(args.balanced)]
    for key in keys:
        print(f"  {key:<18} {statistics.mean(m[key] for m in plain):6.2f} -> {statistics.mean(m[key] for m in fair):6.2f}")
    print("declared balance (objective: VP spread over quadrants, diagonal halves and wedges):")
    plain = [engine.generate(rules, s, None, PLAIN) for s in range(args.balanced)]
    fair = [engine.generate(rules, s, None, MapOptions()) for s in range(args.balanced)]
    for cut in ("quadrants", "diagonal-halves", "wedges"):
        key = f"vp_{cut}_spread"
        print(f"  {key:<26} {statistics.mean(l.metrics[key] for l in plain):6.2f} -> "
              f"{statistics.mean(l.metrics[key] for l in fair):6.2f}")
    first = [royal_dukes_gen.metrics(l)["best_first_pick"] for l in plain], \
            [royal_dukes_gen.metrics(l)["best_first_pick"] for l in fair]
    print(f"  best_first_pick (not in its objective) {statistics.mean(first[0]):6.2f} -> {statistics.mean(first[1]):6.2f}")

    rng = random.Random(5)
    edges, pairs = Counter(), Counter()
    for _ in range(500):
        m = royal_dukes_gen.metrics(royal_dukes_gen.generate(rng, 4, MapOptions(balance=False, relaxed=True)))
        edges[m["edge_settlements"]] += 1
        pairs[m["adjacent_pairs"]] += 1
    print("\n--relaxed, 500 boards: settlements on the side", dict(sorted(edges.items())),
          "touching pairs", dict(sorted(pairs.items())))


if __name__ == "__main__":
    main()
