"""Benchmark (run on demand): layouts per second per game, plain and balanced, and what
balancing changes in each game's score.

    python bench/bench_maps.py [--seconds 3] [--balanced 10]
"""
from __future__ import annotations

import argparse
import statistics
import time

from generator.maps import engine
from generator.maps.rules import MapOptions


def rate(game: str, balance: bool, seconds: float, limit: int) -> tuple[float, list]:
    """Layouts per second (counting until `seconds` pass or `limit` layouts), and the layouts."""
    layouts, start, seed = [], time.perf_counter(), 0
    while time.perf_counter() - start < seconds and len(layouts) < limit:
        layouts.append(engine.generate(game, seed, None, MapOptions(balance=balance)))
        seed += 1
    return len(layouts) / (time.perf_counter() - start), layouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--balanced", type=int, default=10, help="balanced layouts per game")
    args = parser.parse_args()
    print(f"{'game':<20} {'plain/s':>9} {'balanced s/layout':>18} {'score plain':>12} {'score balanced':>15}")
    for game in engine.GAMES:
        plain_rate, plain = rate(game, False, args.seconds, 100_000)
        balanced_rate, balanced = rate(game, True, args.seconds * 10, args.balanced)
        gen = engine.generator_of(game)
        plain_score = statistics.mean(gen.score(gen.metrics(l)) for l in plain[: args.balanced])
        balanced_score = statistics.mean(l.metrics["score"] for l in balanced)
        print(f"{game:<20} {plain_rate:>9,.0f} {1 / balanced_rate:>18.3f} {plain_score:>12.3f} {balanced_score:>15.3f}")


if __name__ == "__main__":
    main()
