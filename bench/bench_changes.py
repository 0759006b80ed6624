"""Paper saved by `pnpgen build --changes-since`: a 200-card deck built, 12 of its cards edited,
built again with --changes-since; the sheets PDF against the changes PDF, in pages and in
sheets of paper (a front and its back are one sheet; the players' list one more), and the
wall-clock of each build.

    python bench/bench_changes.py [--cards 200] [--changed 12] [--paper a4]
"""
from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FRONT = ('<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" '
         'height="{{ face.height + 2 * face.bleed }}" fill="#f7f1e3"/>'
         "{{ text_line(item.name, 5, 12, face.width - 10, size=10) }}"
         "{{ text_box(item.text, 5, 20, face.width - 10, 50, size=8) }}")
BACK = ('<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" '
        'height="{{ face.height + 2 * face.bleed }}" fill="#223355"/>')
GAME = """title: Bench Deck
players: {min: 1, max: 1}
player_colors: [{id: red, name: Red, color: "#aa2222"}]
palette: {ink: "#222222"}
fonts: {body: {family: Liberation Sans}}
defaults: {paper: %s, duplex: long, bleed: 3mm, marks: crop}
"""


def write_pack(folder: Path, cards: int, edited: int, paper: str) -> None:
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME % paper)
    (folder / "templates" / "front.svg.j2").write_text(FRONT)
    (folder / "templates" / "back.svg.j2").write_text(BACK)
    items = [{"id": f"c{n}", "name": f"Card {n}",
              "text": f"Gain {n % 7 + 1} gold{' and draw a card' if n < edited else ''}."} for n in range(cards)]
    deck = {"groups": [{"id": "deck", "name": "Deck", "kind": "card", "size": "poker", "template": "front.svg.j2",
                        "back_template": "back.svg.j2", "fields": {"name": "text", "text": "text"}, "items": items}]}
    (folder / "deck.yaml").write_text(json.dumps(deck))


def build(pack: Path, out: Path, *options) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build", str(pack), "--out", str(out), "-q", *options],
                   check=True)
    return time.perf_counter() - start


def pages(folder: Path, role: str) -> dict:
    return next(f for f in json.loads((folder / "build.json").read_text())["files"] if f["role"] == role)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=200)
    ap.add_argument("--changed", type=int, default=12)
    ap.add_argument("--paper", default="a4")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pack, out = tmp / "deck", tmp / "out"
        write_pack(pack, args.cards, 0, args.paper)
        first = build(pack, out)
        shutil.copytree(out / "deck", tmp / "old")
        write_pack(pack, args.cards, args.changed, args.paper)
        second = build(pack, out, "--changes-since", str(tmp / "old"))
        sheets, changes = pages(out / "deck", "sheets"), pages(out / "deck", "changes")
    full = sheets["pages"]
    listed = len(changes["list_pages"].split(","))
    reprint = changes["pages"]
    paper_full = math.ceil(full / 2)
    paper_changes = math.ceil((reprint - listed) / 2) + listed
    print(f"{args.cards}-card deck, {args.changed} cards edited, {args.paper}:")
    print(f"  whole deck again: {full} pages, {paper_full} sheets of paper (build {first:.2f} s)")
    print(f"  changes PDF:      {reprint} pages ({listed} the players' list), {paper_changes} sheets of paper "
          f"(build with --changes-since {second:.2f} s)")
    print(f"  saved: {full - reprint} pages, {paper_full - paper_changes} sheets "
          f"({100 * (paper_full - paper_changes) / paper_full:.0f}% of the paper)")


if __name__ == "__main__":
    main()
