"""Benchmark (run on demand, not in CI): build a synthetic deck of distinct cards and compare
with drawing the same cards straight onto a PDF with reportlab's canvas (the floor).

    python bench/bench_cards.py [--cards 1000] [--jobs N]

Each card has a title, six lines of body text with an inline icon, a shared back; A4, crop marks.
Reports cards/s, output size and peak memory of each approach, measured in one run.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("gain lose draw discard wood ore grain gold each player may must before after your turn "
         "attack defend trade build road city knight dragon tower cone mana harvest").split()

GAME = """title: Bench Deck
players: {min: 1, max: 1}
player_colors: [{id: red, name: Red, color: "#aa2222"}]
palette: {ink: "#222222", paper: "#f7f1e3", band: "#35586e"}
fonts:
  title: {family: Liberation Serif, weight: bold}
  body: {family: Liberation Sans}
icons: {gem: icons/gem.svg}
defaults: {paper: a4, duplex: long, bleed: 3mm, marks: crop}
"""
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M6 3h12l4 6-10 12'
        'L2 9z M6 3l3 6h6l3-6 M2 9h20 M9 9l3 12 3-12" fill-rule="evenodd"/></svg>')
FRONT = """<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" height="{{ face.height + 2 * face.bleed }}" fill="{{ palette.paper }}"/>
<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" height="{{ 14 + face.bleed }}" fill="{{ palette.band }}"/>
{{ text_line(item.title, 5, 9.5, face.width - 10, size=12, min_size=7, font='title', color=palette.paper) }}
{{ text_line(item.kind, 5, 19, face.width - 10, size=7, min_size=6, align='left') }}
<circle cx="{{ face.width - 9 }}" cy="20" r="5" fill="{{ palette.band }}"/>
{{ text_line(item.cost, face.width - 14, 22.2, 10, size=10, font='title', color=palette.paper) }}
{{ text_box(item.body, 5, 28, face.width - 10, 52, size=8, min_size=6) }}
"""
BACK = """<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" height="{{ face.height + 2 * face.bleed }}" fill="{{ palette.band }}"/>
{{ icon('gem', face.width / 2 - 12, face.height / 2 - 12, 24, color=palette.paper) }}
"""


def make_cards(n: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    cards = []
    for i in range(n):
        lines = [" ".join(rng.choice(WORDS) for _ in range(5)).capitalize() + "." for _ in range(6)]
        lines[2] = lines[2][:-1] + " :gem:."
        cards.append({"id": f"card-{i}", "title": f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}",
                      "kind": rng.choice(["Action", "Event", "Item"]), "cost": rng.randint(0, 9),
                      "body": "\n".join(lines)})
    return cards


def write_pack(folder: Path, cards: list[dict]) -> Path:
    pack = folder / "bench-deck"
    (pack / "templates").mkdir(parents=True)
    (pack / "icons").mkdir()
    (pack / "game.yaml").write_text(GAME)
    (pack / "icons" / "gem.svg").write_text(ICON)
    (pack / "templates" / "front.svg.j2").write_text(FRONT)
    (pack / "templates" / "back.svg.j2").write_text(BACK)
    deck = {"groups": [{"id": "deck", "kind": "card", "size": "poker", "template": "front.svg.j2",
                        "back_template": "back.svg.j2", "rulebook_count": len(cards),
                        "fields": {"title": "text", "kind": "text", "cost": "int", "body": "text"},
                        "items": cards}]}
    (pack / "deck.yaml").write_text(json.dumps(deck))      # JSON is YAML
    return pack


CPU: dict[str, float] = {}   # CPU seconds (user + system, workers included) of the last timed_child per label


def timed_child(args: list[str], label: str = "") -> tuple[float, int]:
    """Run a child process; return (wall seconds, its peak resident memory in MB). Its CPU time
    goes to CPU[label]: on a shared machine wall time counts other people's work too."""
    start = time.perf_counter()
    proc = subprocess.Popen(args)
    _, status, usage = __import__("os").wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{args} failed")
    CPU[label] = usage.ru_utime + usage.ru_stime
    return wall, usage.ru_maxrss // 1024


IN_PROCESS = """
import sys, time, resource
sys.path.insert(0, {bench!r})
from pathlib import Path
import generator
from generator import parallel
from generator.build import BuildRequest, build
import generator.pdfwrite, generator.fonts, fontTools.ttLib, pikepdf   # build imports these lazily: "after imports"
parallel.MIN_PAGES_PER_CHUNK = {min_pages}
start = time.perf_counter()
build(Path({pack!r}), BuildRequest(out_dir=Path({out!r})))
print(time.perf_counter() - start)
"""


def in_process(pack: Path, out: Path, parallel: bool) -> float:
    """Seconds of build() alone (load, render, draw, write), after the imports."""
    code = IN_PROCESS.format(bench=str(ROOT / "bench"), pack=str(pack), out=str(out),
                             min_pages=8 if parallel else 10**9)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return float(result.stdout.strip().splitlines()[-1])


def reportlab_floor(cards: list[dict], out: Path) -> None:
    """The same cards drawn directly with reportlab (no SVG): the speed floor."""
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas
    from reportlab.lib.utils import simpleSplit

    pdfmetrics.registerFont(TTFont("Sans", str(ROOT / "fonts" / "LiberationSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("SerifB", str(ROOT / "fonts" / "LiberationSerif-Bold.ttf")))
    c = canvas.Canvas(str(out), pagesize=(210 * mm, 297 * mm))
    w, h = 63 * mm, 88 * mm
    for start in range(0, len(cards), 9):
        for slot, card in enumerate(cards[start:start + 9]):
            x = (10.5 + (slot % 3) * 63) * mm
            y = (297 - 16.5 - (slot // 3 + 1) * 88) * mm
            c.saveState()
            c.translate(x, y)
            c.setFillColorRGB(0.97, 0.95, 0.89)
            c.rect(0, 0, w, h, stroke=0, fill=1)
            c.setFillColorRGB(0.21, 0.35, 0.43)
            c.rect(0, h - 14 * mm, w, 14 * mm, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("SerifB", 12)
            c.drawCentredString(w / 2, h - 9.5 * mm, card["title"])
            c.setFillColorRGB(0.13, 0.13, 0.13)
            c.setFont("Sans", 8)
            y0 = h - 31 * mm
            for line in simpleSplit(card["body"].replace(":gem:", "*"), "Sans", 8, w - 10 * mm):
                c.drawString(5 * mm, y0, line)
                y0 -= 9.6
            path = c.beginPath()
            path.moveTo(10, 10); path.lineTo(20, 10); path.lineTo(15, 18); path.close()
            c.drawPath(path, fill=1, stroke=0)
            c.restoreState()
        c.showPage()
    c.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=1000)
    args = parser.parse_args()
    cards = make_cards(args.cards)
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-"))
    try:
        pack = write_pack(work, cards)
        out = work / "out"
        # warm the fontconfig cache and the imports once, so both runs are measured alike
        subprocess.run([sys.executable, "-c", "import generator.pdfwrite"], check=True, cwd=ROOT)
        load_before = __import__("os").getloadavg()[0]
        load_s, _ = timed_child([sys.executable, "-m", "generator", "validate", str(pack)], "validate")
        wall, peak = timed_child([sys.executable, "-m", "generator", "build", str(pack), "--out", str(out), "--quiet"],
                                 "build")
        pdf = out / "bench-deck" / "bench-deck-sheets.pdf"
        size = pdf.stat().st_size
        floor_pdf = work / "floor.pdf"
        code = (f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import bench_cards as b; "
                f"b.reportlab_floor(b.make_cards({args.cards}), __import__('pathlib').Path({str(floor_pdf)!r}))")
        floor_wall, floor_peak = timed_child([sys.executable, "-c", code], "floor")
        floor_code = (f"import sys, time; sys.path.insert(0, {str(ROOT / 'bench')!r}); import bench_cards as b; "
                      f"cards = b.make_cards({args.cards}); t = time.perf_counter(); "
                      f"b.reportlab_floor(cards, __import__('pathlib').Path({str(floor_pdf)!r})); print(time.perf_counter() - t)")
        floor_in = float(subprocess.run([sys.executable, "-c", floor_code], capture_output=True, text=True,
                                        check=True).stdout.strip())
        one = min(in_process(pack, work / "o1", False) for _ in range(2))
        two = min(in_process(pack, work / "o2", True) for _ in range(2))
        n = args.cards
        print(f"cards: {n} distinct, shared back, A4, crop marks")
        print(f"pnpgen build (whole command): {wall:.2f} s = {n / wall:,.0f} cards/s; "
              f"{size / 1e6:.2f} MB ({size / n / 1e3:.2f} KB/card); peak {peak} MB")
        print(f"  of which load + validate alone: {load_s:.2f} s")
        print(f"reportlab canvas floor:       {floor_wall:.2f} s = {n / floor_wall:,.0f} cards/s; "
              f"{floor_pdf.stat().st_size / 1e6:.2f} MB; peak {floor_peak} MB")
        print(f"ratio pnpgen / floor (speed): {floor_wall / wall:.2f}")
        print(f"build() alone, after imports: 1 process {one:.2f} s = {n / one:,.0f} cards/s; "
              f"2 processes {two:.2f} s = {n / two:,.0f} cards/s (x{one / two:.2f})")
        print(f"reportlab drawing alone:      {floor_in:.2f} s = {n / floor_in:,.0f} cards/s; "
              f"pnpgen 2 processes / floor: {floor_in / two:.2f}")
        print(f"CPU (user + system, workers included): validate {CPU['validate']:.2f} s; build "
              f"{CPU['build']:.2f} s = {CPU['build'] / n * 1e3:.2f} ms/card; reportlab floor {CPU['floor']:.2f} s; "
              f"floor / pnpgen CPU: {CPU['floor'] / CPU['build']:.2f}")
        print(f"load average (1 min) before / after: {load_before:.1f} / {__import__('os').getloadavg()[0]:.1f} "
              "(2 cores: above 2, wall times include other work)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
