"""Benchmark (run on demand): each declared built-in game (map.yaml `layout:`) against the
hand-written generator it replaced, kept as a test oracle in tests/map_oracles/ (issue 24).

    python bench/bench_oracles.py [--games dragon-towers cones-of-dunshire] [--count 1000] [--rounds 3]
                                  [--balanced 20]

1. Speed, whole command: `pnpgen map GAME --count 1000 --balance off --format json` as its own
   process (start-up, generation, JSON written), declared and hand-written interleaved round by
   round, best round of each (wall seconds and the process's CPU seconds), with the load average.
2. The balanced default (`pnpgen map GAME --seed S`, one layout): the generation time in process,
   mean and worst over --balanced seeds, for both generators.
3. Balance: the oracle's own metrics (written apart from the declared objective) on plain and
   balanced layouts of both generators, means over --balanced seeds; the metrics the declared
   objective optimises and the ones it does not.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from generator.maps import engine  # noqa: E402
from generator.maps.rules import MapOptions  # noqa: E402

GAMES = ("dragon-towers", "royal-dukes", "cones-of-dunshire")


def oracle(game: str):
    return importlib.import_module(f"map_oracles.{game.replace('-', '_')}_gen")


class OracleGen:
    """The hand-written generator behind the engine's generator interface."""

    def __init__(self, module, game_id: str):
        self.module, self.game_id = module, game_id
        self.PLAYERS = module.PLAYERS
        self.OPTIONS = getattr(module, "OPTIONS", ())
        self.BALANCE_TRIES = getattr(module, "BALANCE_TRIES", 40)

    def generate(self, rng, players, options):
        layout = self.module.generate(rng, players, options)
        layout.game = self.game_id
        return layout

    def metrics(self, layout):
        return self.module.metrics(layout)

    def score(self, metrics):
        return self.module.score(metrics)


def oracle_rules(game: str) -> engine.MapRules:
    rules = engine.rules_for(game)
    return dataclasses.replace(rules, gen=OracleGen(oracle(game), rules.id))


def run_command(which: str, game: str, argv: list) -> None:
    """In the child: the CLI's map command, its generator the declared one or the oracle."""
    if which == "oracle":
        real = engine._rules_at
        engine._rules_at = functools.lru_cache(maxsize=None)(
            lambda root: dataclasses.replace(real(root), gen=OracleGen(oracle(game), real(root).id)))
    from generator.cli import main
    sys.exit(main(["map", game, *argv]))


def whole_command(which: str, game: str, count: int, out: str) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--run", which, game, "--count", str(count), "--balance", "off",
                    "--seed", "1", "--format", "json", "--out", out], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def speed(games, count: int, rounds: int) -> None:
    print(f"1. whole command, {count:,} layouts, --balance off (best of {rounds} interleaved rounds); "
          f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    best = {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(rounds):
            for game in games:
                for which in ("oracle", "declared"):
                    wall, cpu = whole_command(which, game, count, out)
                    old = best.get((game, which), (1e9, 1e9))
                    best[(game, which)] = (min(old[0], wall), min(old[1], cpu))
    for game in games:
        (ow, oc), (dw, dc) = best[(game, "oracle")], best[(game, "declared")]
        print(f"  {game:<18} hand-written {count / ow:7.0f} layouts/s ({ow:.2f} s wall, {oc:.2f} s CPU); "
              f"declared {count / dw:7.0f} layouts/s ({dw:.2f} s, {dc:.2f} s CPU); declared/hand-written "
              f"{ow / dw:.2f} (CPU {oc / dc:.2f})")
    print(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def balanced(games, n: int) -> None:
    print(f"\n2. balanced default, one layout (process seconds, {n} seeds: mean / worst)")
    for game in games:
        for name, rules in (("hand-written", oracle_rules(game)), ("declared", engine.rules_for(game))):
            times = []
            for seed in range(n):
                start = time.process_time()
                engine.generate(rules, seed, None, MapOptions())
                times.append(time.process_time() - start)
            print(f"  {game:<18} {name:<13} {statistics.mean(times):.3f} / {max(times):.3f}")


def balance(games, n: int) -> None:
    print(f"\n3. balance by the oracle's metrics, mean over {n} seeds (plain -> balanced)")
    for game in games:
        module = oracle(game)
        low, high, default = engine.player_counts(game)
        for players in sorted({default, high}):
            for name, rules in (("hand-written", oracle_rules(game)), ("declared", engine.rules_for(game))):
                plain = [module.metrics(engine.generate(rules, s, players, MapOptions(balance=False))) for s in range(n)]
                fair = [module.metrics(engine.generate(rules, s, players, MapOptions())) for s in range(n)]
                keys = [k for k, v in plain[0].items() if isinstance(v, (int, float)) and not isinstance(v, bool)
                        and all(isinstance(m.get(k), (int, float)) for m in plain + fair)]
                shown = ", ".join(f"{k} {statistics.mean(m[k] for m in plain):.2f}->{statistics.mean(m[k] for m in fair):.2f}"
                                  for k in keys)
                score = f"score {statistics.mean(module.score(m) for m in plain):.2f}->{statistics.mean(module.score(m) for m in fair):.2f}"
                print(f"  {game} {players}p {name:<13} {score}; {shown}")


def main() -> None:
    if sys.argv[1:2] == ["--run"]:
        run_command(sys.argv[2], sys.argv[3], sys.argv[4:])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=[g for g in GAMES if _has_oracle(g)])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--balanced", type=int, default=20)
    args = parser.parse_args()
    speed(args.games, args.count, args.rounds)
    balanced(args.games, args.balanced)
    balance(args.games, args.balanced)


def _has_oracle(game: str) -> bool:
    return (ROOT / "tests" / "map_oracles" / f"{game.replace('-', '_')}_gen.py").exists()


if __name__ == "__main__":
    main()
