"""Benchmark (run on demand): Shires from its declared rules (components/shires/map.yaml
`layout:`, what `pnpgen map shires` uses) against the hand-written generator it replaced
(tests/map_oracles/shires_gen.py), and what balancing does.

    python bench/bench_shires.py [--runs 3] [--count 1000] [--balanced 30]

1. The whole command `pnpgen map shires --count 1000 --balance off --format json`, wall time,
   the declared rules and the hand-written generator (patched in for the run) in alternating
   runs, best run of each, with the load average (the machine is shared).
2. Plain layouts per CPU second of each generator alone, in alternating blocks.
3. One balanced layout (the default): CPU seconds.
4. Balance: the oracle's metrics and the declared objective, plain -> balanced, for both.
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

from generator.maps import engine  # noqa: E402
from generator.maps.rules import MapOptions  # noqa: E402
from bench_oracles import OracleGen  # noqa: E402  (the hand-written generator behind the engine's interface)
from map_oracles import shires_gen  # noqa: E402

PLAIN = MapOptions(balance=False)
# the command; with `hand`, the hand-written generator standing in for the declared one
HAND = """
import sys
sys.path.insert(0, {tests!r})
sys.path.insert(0, {bench!r})
from generator.maps import engine
from map_oracles import shires_check, shires_gen
from bench_oracles import OracleGen
declared = engine.rules_for("shires")
hand = engine.MapRules(declared.id, declared.root, declared.data, OracleGen(shires_gen, "shires"),
                       (("python", shires_check.check),), shires_check.KEYS)
if {hand!r}:
    engine._rules_at.cache_clear()
    real = engine._rules_at
    engine._rules_at = lambda root: hand if root == declared.root else real(root)
from generator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def command(which: str, count: int, out: str) -> float:
    args = ["map", "shires", "--seed", "1", "--count", str(count), "--balance", "off", "--format", "json", "--out", out]
    # the same start-up for both: the oracle imported, the engine patched only for the hand-written
    argv = [sys.executable, "-c", HAND.format(tests=str(ROOT / "tests"), bench=str(ROOT / "bench"), hand=which == "hand-written"), *args]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{which}: {done.stderr}")
    return took


def gen_rate(generate, block: int) -> float:
    rng = random.Random(1)
    start = time.process_time()
    for _ in range(block):
        generate(rng, 4, PLAIN)
    return block / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--balanced", type=int, default=30)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    best: dict = {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.runs):
            for which in ("hand-written", "declared"):
                best[which] = min(best.get(which, 1e9), command(which, args.count, out))
    print(f"whole command, {args.count} plain layouts (best of {args.runs} runs, wall s -> layouts/s):")
    for which, took in best.items():
        print(f"  {which:<13} {took:7.2f} s  {args.count / took:8,.0f} /s")
    print(f"  declared / hand-written speed: {best['hand-written'] / best['declared']:.2f}")

    declared = engine.generator_of("shires")
    rates: dict = {}
    for _ in range(5):
        rates["hand-written"] = max(rates.get("hand-written", 0.0), gen_rate(shires_gen.generate, 500))
        rates["declared"] = max(rates.get("declared", 0.0), gen_rate(declared.generate, 500))
    print("generator alone, plain layouts per CPU second (best block of 500):")
    for which, rate in rates.items():
        print(f"  {which:<13} {rate:8,.0f}")
    print(f"  declared / hand-written: {rates['declared'] / rates['hand-written']:.2f}")

    start = time.process_time()
    for seed in range(args.balanced):
        engine.generate("shires", seed, None, MapOptions())
    print(f"one balanced layout (default, {declared.BALANCE_TRIES} tries): "
          f"{(time.process_time() - start) / args.balanced:.3f} CPU s")

    hand = engine.MapRules("shires", engine.builtin_root("shires"), {}, OracleGen(shires_gen, "shires"),
                           (("python", lambda layout: []),))
    keys = ("start_value_spread", "start_wood_spread", "start_wood_min", "start_trade_spread",
            "start_missing_resource", "wood_hamlet_share", "radius")
    for name, rules in (("hand-written", hand), ("declared", "shires")):
        plain = [engine.generate(rules, s, None, PLAIN) for s in range(args.balanced)]
        fair = [engine.generate(rules, s, None, MapOptions()) for s in range(args.balanced)]
        print(f"{name} generator, mean over {args.balanced} layouts, plain -> balanced:")
        for key in keys:
            before = statistics.mean(shires_gen.metrics(l)[key] for l in plain)
            after = statistics.mean(shires_gen.metrics(l)[key] for l in fair)
            print(f"  {key:<24} {before:6.2f} -> {after:6.2f}")
        picks = [[declared.metrics(l)["building_picks_spread"] for l in ls] for ls in (plain, fair)]
        print(f"  {'building_picks_spread':<24} {statistics.mean(picks[0]):6.2f} -> {statistics.mean(picks[1]):6.2f}"
              f"   (the declared objective)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
