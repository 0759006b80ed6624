"""Benchmark (run on demand, not in CI): a deck of pictures. 300 poker cards, each with its own
1,500 x 2,100 px JPEG (made here, in a temporary folder), against the same deck drawn without art.

    python bench/bench_art.py [--cards 300] [--repeat 1]

Reported: whole `pnpgen build` CPU time (the process and its workers, user + system) and wall time
of each deck, runs interleaved (art, plain, art, plain...) so load from other work on the machine
falls on both alike, and their ratio; the sheets PDF's size against the sum of the JPEGs' bytes
(aim: at most 1.10, the art is embedded as it is); the peak memory of the build's process tree
(the sum of the processes' proportional set sizes, sampled every 20 ms; aim: under 500 MB) and
the largest single process's peak RSS.
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

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1500, 2100)
GAME = """title: Art Bench
fonts:
  title: {family: Liberation Serif, weight: bold}
  body: {family: Liberation Sans}
"""
TITLE = "{{ text_line(item.title, 31.5, 80, 55, size=12, font='title') }}\n"
ART = "{{ image(item.art, -3, -3, 69, 94) }}\n" + TITLE
PLAIN = '<rect x="-3" y="-3" width="69" height="94" fill="#b08850"/>\n' + TITLE


def painting(seed: int) -> Image.Image:
    """A picture that compresses like a painting: soft shapes of colour with fine grain."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (14, 10, 3), dtype=np.uint8)
    base = np.asarray(Image.fromarray(coarse).resize(SIZE, Image.BICUBIC), dtype=np.int16)
    grain = rng.integers(-12, 13, (SIZE[1], SIZE[0], 1), dtype=np.int16)
    return Image.fromarray(np.clip(base + grain, 0, 255).astype(np.uint8))


def make_packs(folder: Path, cards: int) -> tuple[Path, Path, int]:
    """(the pack with art, the same deck without, the sum of the JPEGs' bytes)."""
    art_pack, plain_pack = folder / "art-deck", folder / "plain-deck"
    total = 0
    for pack, template in ((art_pack, ART), (plain_pack, PLAIN)):
        (pack / "templates").mkdir(parents=True)
        (pack / "game.yaml").write_text(GAME)
        (pack / "templates" / "card.svg.j2").write_text(template)
    (art_pack / "art").mkdir()
    for n in range(cards):
        path = art_pack / "art" / f"card-{n:03d}.jpg"
        painting(n).save(path, "JPEG", quality=88)
        total += path.stat().st_size
    for pack, fields in ((art_pack, {"title": "text", "art": "image"}), (plain_pack, {"title": "text"})):
        items = [{"id": f"card-{n:03d}", "title": f"Card {n}", **({"art": f"art/card-{n:03d}.jpg"} if "art" in fields else {})}
                 for n in range(cards)]
        deck = {"groups": [{"id": "deck", "kind": "card", "size": "poker", "template": "card.svg.j2",
                            "fields": fields, "items": items}]}
        (pack / "deck.yaml").write_text(json.dumps(deck))
    return art_pack, plain_pack, total


def tree_pss_kb(pid: int) -> int:
    """The proportional set size of pid and every process below it, in KB (shared pages counted
    once across the tree, as forked workers share their parent's)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo += children.get(current, [])
        try:
            with open(f"/proc/{current}/smaps_rollup") as handle:
                total += next(int(line.split()[1]) for line in handle if line.startswith("Pss:"))
        except (OSError, StopIteration):
            continue
    return total


def build(pack: Path, out: Path) -> dict:
    """One `pnpgen build` in a new process: wall and CPU seconds (it and its workers), peak tree
    PSS, and the largest single process's peak RSS (wait4's, over it and its waited-for workers)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "generator", "build", str(pack), "--out", str(out), "--quiet"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, tree_pss_kb(proc.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"build of {pack.name} failed; run pnpgen build {pack} to see why")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "tree_mb": peak / 1024,
            "rss_mb": usage.ru_maxrss / 1024}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cards", type=int, default=300)
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-art-") as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        art_pack, plain_pack, jpeg_bytes = make_packs(folder, args.cards)
        print(f"{args.cards} JPEGs of {SIZE[0]} x {SIZE[1]} px, {jpeg_bytes / 2**20:.1f} MB in all "
              f"(made in {time.perf_counter() - start:.0f} s)")
        runs = {"art": [], "plain": []}
        for _ in range(args.repeat):
            for name, pack in (("art", art_pack), ("plain", plain_pack)):
                runs[name].append(build(pack, folder / "out"))
                if name == "art":
                    pdf = folder / "out" / art_pack.name / f"{art_pack.name}-sheets.pdf"
                    pdf_bytes = pdf.stat().st_size
        med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()}
        for name in runs:
            m = med[name]
            print(f"{name:>5}: CPU {m['cpu']:6.2f} s, wall {m['wall']:6.2f} s, peak tree PSS {m['tree_mb']:5.0f} MB, "
                  f"largest process RSS {m['rss_mb']:5.0f} MB")
        print(f"CPU ratio art/plain: {med['art']['cpu'] / med['plain']['cpu']:.2f}  "
              f"(wall {med['art']['wall'] / med['plain']['wall']:.2f})")
        print(f"sheets PDF {pdf_bytes / 2**20:.1f} MB / JPEGs {jpeg_bytes / 2**20:.1f} MB = {pdf_bytes / jpeg_bytes:.3f}")


if __name__ == "__main__":
    main()
