"""Benchmark (run on demand, not in CI): build a synthetic deck of distinct cards and compare
with drawing the same cards straight onto a PDF with reportlab's canvas (the floor).

    python bench/bench_cards.py [--cards 1000 10000 50000] [--rounds 3] [--only build load ...]

Each card has a title shrunk to fit, a kind line, a cost in a disc, six lines of body text with
an inline icon, and the pack's one shared back; A4, 3 mm bleed, crop marks, long-edge duplex.

Contenders, run as separate commands in interleaved rounds (round 1 runs each once, then round
2 ...), so a burst of other work on the shared machine falls on all of them alike:
- `load`: the pack read into the model (manifest.load_pack) and nothing else;
- `validate`: `pnpgen validate` (loads, renders and checks every face; draws nothing);
- `build`: `pnpgen build` (the whole command);
- `floor`: the same cards drawn with reportlab with the same work as pnpgen's deck: backs, kind
  line, cost disc, crop marks, bleed and clip, the inline icon as a path, shrink-to-fit, and
  duplex order (the shared back drawn once as a form and painted per back page, mirrored for
  long-edge duplex);
- `old floor`: the first floor (no backs, kind line, cost disc, marks or bleed, `*` for the
  icon, no shrink-to-fit; half the pages), kept as a second line.

Also reported: start-up, the CPU of `pnpgen build` of a one-card pack up to its first face.

Reported per contender: min and median over the rounds of CPU time (user + system, forked
workers included: wait4's rusage counts the children a process reaped), wall time, and the
peak memory of the whole process tree, the command and every process below it, sampled from
/proc every 10 ms: their resident sizes summed (RSS: pages a forked worker still shares with its
parent count in both, an upper bound) and their proportional sizes summed (PSS: a shared page
split between its sharers); "largest" is the largest one process's peak RSS (wait4). Above 10,000 cards the deck needs more pages
than one build allows (build.MAX_PAGES): the bench lifts that limit for its own build.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
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



# ---- measuring a command: CPU of it and its workers, peak memory of its whole process tree

PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


class TreeMemory(threading.Thread):
    """Samples the memory of a process and all its descendants until stopped: the sum of their
    resident sizes (RSS; a page a forked worker still shares with its parent counts twice) and
    of their proportional sizes (PSS; a shared page split between those sharing it: what the
    machine really spends). A process is recognised by its parent's pid when first seen."""

    def __init__(self, root: int, every: float = 0.01):
        super().__init__(daemon=True)
        self.root, self.every, self.peak_kb, self.peak_pss_kb = root, every, 0, 0
        self.parent: dict[int, int | None] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            tree = self.tree()
            self.peak_kb = max(self.peak_kb, sum(_rss_kb(pid) for pid in tree))
            self.peak_pss_kb = max(self.peak_pss_kb, sum(_pss_kb(pid) for pid in tree))
            self.done.wait(self.every)

    def tree(self) -> set[int]:
        tree = {self.root}
        pids = sorted(int(name) for name in os.listdir("/proc") if name.isdigit())
        for pid in pids:
            if pid not in self.parent:
                self.parent[pid] = _ppid(pid)
        for pid in pids:                         # a child's pid is almost always above its parent's
            if pid in tree or self.parent.get(pid) in tree:
                tree.add(pid)
        return tree


def _ppid(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return int(handle.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * PAGE_KB
    except (OSError, IndexError, ValueError):
        return 0


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, IndexError, ValueError):
        pass
    return 0


def measured(args: list[str]) -> dict:
    """Run a command; its wall seconds, CPU seconds (its reaped workers included) and the peak
    memory in MB of its process tree."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL)
    sampler = TreeMemory(proc.pid)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    sampler.done.set()
    sampler.join()
    proc.returncode = status
    if status != 0:
        raise SystemExit(f"{' '.join(args)} failed (status {status})")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "tree_mb": sampler.peak_kb / 1024, "pss_mb": sampler.peak_pss_kb / 1024,
            "largest_mb": usage.ru_maxrss / 1024}


# ---- the floors: the same deck drawn straight onto a PDF with reportlab, no templates, no SVG

MM = 72 / 25.4
PAGE_W, PAGE_H, CARD_W, CARD_H, BLEED = 210.0, 297.0, 63.0, 88.0, 3.0
LEFT, TOP, COLS, ROWS = 10.5, 15.0, 3, 3          # where pnpgen's imposition puts a 3 x 3 block
PAPER, BAND, INK = (0.969, 0.945, 0.890), (0.208, 0.345, 0.431), (0.133, 0.133, 0.133)
GEM = [[(6, 3), (18, 3), (22, 9), (12, 21), (2, 9)], [(6, 3), (9, 9), (15, 9), (18, 3)],
       [(2, 9), (22, 9)], [(9, 9), (12, 21), (15, 9)]]      # icons/gem.svg's path, in its 24-unit box


def read_deck(pack: Path) -> list[dict]:
    return json.loads((pack / "deck.yaml").read_text())["groups"][0]["items"]


class Floor:
    """reportlab drawing the bench deck with the work pnpgen's templates and imposition do."""

    def __init__(self, out: Path):
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont
        from reportlab.pdfgen import canvas
        pdfmetrics.registerFont(TTFont("Sans", str(ROOT / "fonts" / "LiberationSans-Regular.ttf")))
        pdfmetrics.registerFont(TTFont("SerifB", str(ROOT / "fonts" / "LiberationSerif-Bold.ttf")))
        self.width = pdfmetrics.stringWidth
        face = pdfmetrics.getFont("Sans").face
        self.ascent, self.cap = face.ascent / 1000, face.capHeight / 1000
        self.c = canvas.Canvas(str(out), pagesize=(PAGE_W * MM, PAGE_H * MM), initialFontName="Sans")
        self.back_drawn = False

    def deck(self, cards: list[dict]) -> None:
        for number, start in enumerate(range(0, len(cards), COLS * ROWS), 1):
            sheet = cards[start:start + COLS * ROWS]
            self.page([(slot, card) for slot, card in enumerate(sheet)], False,
                      f"Bench Deck | front of sheet {number} - print double-sided, flip on the long edge | deck")
            self.page([(slot, None) for slot in range(len(sheet))], True, f"Bench Deck | back of sheet {number} | deck")
        self.c.save()

    def page(self, faces: list, back: bool, label: str) -> None:
        c = c0 = self.c
        rows, cols = (len(faces) + COLS - 1) // COLS, min(len(faces), COLS)
        for slot, card in faces:
            col, row = slot % COLS, slot // COLS
            if back:                                   # long-edge duplex: columns mirrored
                col = COLS - 1 - col
            x, y = LEFT + col * CARD_W, TOP + row * CARD_H
            bleed = (BLEED if col == 0 or (back and col == COLS - 1 - (cols - 1)) else 0,
                     BLEED if row == 0 else 0,
                     BLEED if col == COLS - 1 or (not back and col == cols - 1) else 0,
                     BLEED if row == rows - 1 else 0)
            c.saveState()
            c.translate(x * MM, (PAGE_H - y) * MM)      # the card's top-left; y up from here
            clip = c.beginPath()
            clip.rect(-bleed[0] * MM, -(CARD_H + bleed[3]) * MM, (CARD_W + bleed[0] + bleed[2]) * MM,
                      (CARD_H + bleed[1] + bleed[3]) * MM)
            c.clipPath(clip, stroke=0, fill=0)
            if back:
                self.paint_back()
            else:
                self.front(card)
            c.restoreState()
        self.marks(rows, cols, back)
        c0.setFillColorRGB(0.25, 0.25, 0.25)
        c0.setFont("Sans", 2.2 * MM)
        c0.drawString(5 * MM, (PAGE_H - 291.4) * MM, label)
        c0.showPage()

    def marks(self, rows: int, cols: int, back: bool) -> None:
        c = self.c
        left = LEFT + (COLS - cols) * CARD_W if back else LEFT
        right, bottom = left + cols * CARD_W, TOP + rows * CARD_H
        c.setLineWidth(0.25)
        c.setStrokeColorRGB(0, 0, 0)
        path = c.beginPath()
        for i in range(cols + 1):
            x = left + i * CARD_W
            for y0 in (TOP - BLEED - 3.5, bottom + BLEED + 1.5):
                path.moveTo(x * MM, (PAGE_H - y0) * MM)
                path.lineTo(x * MM, (PAGE_H - y0 - 2) * MM)
        for i in range(rows + 1):
            y = TOP + i * CARD_H
            for x0 in (left - BLEED - 2.5, right + BLEED + 0.5):
                path.moveTo(x0 * MM, (PAGE_H - y) * MM)
                path.lineTo((x0 + 2) * MM, (PAGE_H - y) * MM)
        c.drawPath(path, stroke=1, fill=0)

    def front(self, card: dict) -> None:
        c = self.c
        c.setFillColorRGB(*PAPER)
        c.rect(-BLEED * MM, -(CARD_H + BLEED) * MM, (CARD_W + 2 * BLEED) * MM, (CARD_H + 2 * BLEED) * MM, stroke=0, fill=1)
        c.setFillColorRGB(*BAND)
        c.rect(-BLEED * MM, -14 * MM, (CARD_W + 2 * BLEED) * MM, (14 + BLEED) * MM, stroke=0, fill=1)
        c.circle((CARD_W - 9) * MM, -20 * MM, 5 * MM, stroke=0, fill=1)
        c.setFillColorRGB(*PAPER)
        self.line(card["title"], 5, 9.5, CARD_W - 10, 12, 7, "SerifB", "center")
        self.line(str(card["cost"]), CARD_W - 14, 22.2, 10, 10, 5, "SerifB", "center")
        c.setFillColorRGB(*INK)
        self.line(card["kind"], 5, 19, CARD_W - 10, 7, 6, "Sans", "left")
        self.box(card["body"], 5, 28, CARD_W - 10, 52, 8, 6)

    def line(self, text: str, x: float, y: float, w: float, size: float, least: float, font: str, align: str) -> None:
        """One line shrunk in 0.25 pt steps until it fits w mm; baseline at y mm."""
        width = self.width(text, font, size)
        while width > w * MM and size > least:
            size -= 0.25
            width = self.width(text, font, size)
        left = x * MM + ((w * MM - width) / 2 if align == "center" else 0)
        self.c.setFont(font, size)
        self.c.drawString(left, -y * MM, text)

    def box(self, text: str, x: float, y: float, w: float, h: float, size: float, least: float) -> None:
        """Wrapped into w mm, shrunk until it fits h mm; :gem: drawn as the icon, an em high."""
        words = [[(word, self.width(word.replace(":gem:", ""), "Sans", 1.0) + (1.15 if ":gem:" in word else 0))
                  for word in paragraph.split()] for paragraph in text.split("\n")]
        while True:
            lines = self.wrap(words, w * MM, size)
            if (len(lines) - 1) * size * 1.2 + size <= h * MM or size <= least:
                break
            size -= 0.25
        c, space = self.c, self.width(" ", "Sans", size)
        baseline = -y * MM - self.ascent * size
        c.setFont("Sans", size)
        for line in lines:
            pen, run = x * MM, []
            for word, unit in line:
                if ":gem:" in word:
                    before = word[: word.index(":gem:")]
                    run.append(before)
                    text_w = self.width(" ".join(run), "Sans", size)
                    c.drawString(pen, baseline, " ".join(run))
                    self.gem(pen + text_w + 0.075 * size, baseline + self.cap * size / 2 + size / 2, size)
                    pen += text_w + 1.15 * size
                    run = [word[word.index(":gem:") + 5:]]
                else:
                    run.append(word)
            c.drawString(pen, baseline, " ".join(run))
            baseline -= size * 1.2

    def wrap(self, words: list, width: float, size: float) -> list:
        space, lines = self.width(" ", "Sans", size), []
        for paragraph in words:
            line, used = [], 0.0
            for word, unit in paragraph:
                extra = unit * size + (space if line else 0)
                if line and used + extra > width:
                    lines.append(line)
                    line, used, extra = [], 0.0, unit * size
                line.append((word, unit))
                used += extra
            lines.append(line)
        return lines

    def gem(self, left: float, top: float, size: float) -> None:
        """The icon's path in a size-pt square whose top-left is (left, top), even-odd filled."""
        scale = size / 24
        path = self.c.beginPath()
        for points in GEM:
            path.moveTo(left + points[0][0] * scale, top - points[0][1] * scale)
            for px, py in points[1:]:
                path.lineTo(left + px * scale, top - py * scale)
            path.close()
        self.c.drawPath(path, stroke=0, fill=1, fillMode=0)     # 0: even-odd

    def paint_back(self) -> None:
        """The shared back: drawn once into a form the first time, then painted."""
        c = self.c
        if not self.back_drawn:
            c.beginForm("back", -BLEED * MM, -(CARD_H + BLEED) * MM, (CARD_W + BLEED) * MM, BLEED * MM)
            c.setFillColorRGB(*BAND)
            c.rect(-BLEED * MM, -(CARD_H + BLEED) * MM, (CARD_W + 2 * BLEED) * MM, (CARD_H + 2 * BLEED) * MM, stroke=0, fill=1)
            c.setFillColorRGB(*PAPER)
            self.gem((CARD_W / 2 - 12) * MM, -(CARD_H / 2 - 12) * MM, 24 * MM)
            c.endForm()
            self.back_drawn = True
        c.doForm("back")


def equal_work_floor(pack: Path, out: Path) -> None:
    Floor(out).deck(read_deck(pack))


def old_floor(pack: Path, out: Path) -> None:
    """The first floor: fronts only, title, body with `*` for the icon, one path; no backs,
    kind line, cost disc, marks, bleed or shrink-to-fit."""
    from reportlab.lib.units import mm
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    cards = read_deck(pack)
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


FLOORS = {"floor": equal_work_floor, "old floor": old_floor}

# ---- the contenders, as commands

LOAD = "from pathlib import Path; from generator.manifest import load_pack; load_pack(Path({pack!r}))"
PNPGEN = ("import sys; from generator import build, cli; build.MAX_PAGES = max(build.MAX_PAGES, {pages}); "
          "sys.exit(cli.main({args!r}))")
FLOOR = ("import sys; sys.path.insert(0, {bench!r}); from pathlib import Path; import bench_cards as b; "
         "b.FLOORS[{name!r}](Path({pack!r}), Path({out!r}))")


STARTUP = ("import sys, time; from generator import build, cli\n"
           "def drawing(*args):\n    print(time.process_time()); raise SystemExit(0)\n"
           "build._render_groups = drawing\n"
           "cli.main(['build', {pack!r}, '--out', {out!r}, '--quiet'])")


def startup(work: Path, runs: int = 5) -> list[float]:
    """CPU seconds of `pnpgen build` of a one-card pack from the process's start to the first
    face it would render and draw (interpreter, imports, options, loading, planning)."""
    pack = write_pack(work / "one", make_cards(1))
    code = STARTUP.format(pack=str(pack), out=str(work / "one-out"))
    return sorted(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                       cwd=ROOT).stdout) for _ in range(runs))


def commands(pack: Path, work: Path, cards: int) -> dict[str, list[str]]:
    py, bench = sys.executable, str(ROOT / "bench")
    pages = 2 * (cards + 8) // 9
    return {
        "load": [py, "-c", LOAD.format(pack=str(pack))],
        "validate": [py, "-c", PNPGEN.format(pages=pages, args=["validate", str(pack)])],
        "build": [py, "-c", PNPGEN.format(pages=pages, args=["build", str(pack), "--out", str(work / "out"), "--quiet"])],
        **{name: [py, "-c", FLOOR.format(bench=bench, name=name, pack=str(pack), out=str(work / f"{name}.pdf"))]
           for name in FLOORS},
    }


def run_size(cards: int, rounds: int, only: list[str] | None = None) -> None:
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-"))
    try:
        pack = write_pack(work, make_cards(cards))
        todo = {name: args for name, args in commands(pack, work, cards).items() if not only or name in only}
        # pnpgen compiled to bytecode as an installed copy is (PYTHONDONTWRITEBYTECODE would make
        # every run compile it again, while reportlab's is compiled at install); the fontconfig
        # cache and the imports warmed once, so every contender starts alike
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True, cwd=ROOT)
        subprocess.run([sys.executable, "-c", "import generator.pdfwrite, reportlab.pdfgen.canvas"], check=True, cwd=ROOT)
        runs: dict[str, list[dict]] = {name: [] for name in todo}
        loads = [os.getloadavg()[0]]
        for _ in range(rounds):
            for name, args in todo.items():
                runs[name].append(measured(args))
            loads.append(os.getloadavg()[0])
        made = {"build": work / "out" / "bench-deck" / "bench-deck-sheets.pdf",
                **{name: work / f"{name}.pdf" for name in FLOORS}}
        sizes = {name: path.stat().st_size for name, path in made.items() if name in todo}
        report(cards, rounds, runs, sizes, loads)
        first = startup(work)
        print(f"start-up, one-card pack, to the first face drawn: CPU min {first[0]:.3f} s, "
              f"median {statistics.median(first):.3f} s ({len(first)} runs)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(cards: int, rounds: int, runs: dict, sizes: dict, loads: list[float]) -> None:
    def stat(name, key, how):
        return how([r[key] for r in runs[name]])
    print(f"\n{cards:,} distinct cards, shared back, A4, 3 mm bleed, crop marks, long-edge duplex; "
          f"{rounds} interleaved rounds, min / median")
    print(f"{'':10} {'CPU s':>13} {'wall s':>13} {'cards/s (wall)':>15} {'tree RSS MB':>13} {'tree PSS MB':>13} "
          f"{'largest MB':>10} {'PDF MB':>7}")
    for name in runs:
        size = f"{sizes[name] / 1e6:7.2f}" if name in sizes else ""
        print(f"{name:10} {stat(name, 'cpu', min):6.2f} {stat(name, 'cpu', statistics.median):6.2f} "
              f"{stat(name, 'wall', min):6.2f} {stat(name, 'wall', statistics.median):6.2f} "
              f"{cards / stat(name, 'wall', min):7,.0f} {cards / stat(name, 'wall', statistics.median):7,.0f} "
              f"{stat(name, 'tree_mb', min):6.0f} {stat(name, 'tree_mb', statistics.median):6.0f} "
              f"{stat(name, 'pss_mb', min):6.0f} {stat(name, 'pss_mb', statistics.median):6.0f} "
              f"{stat(name, 'largest_mb', max):10.0f} {size}")
    if "build" not in runs:
        return
    build = [r["cpu"] for r in runs["build"]]
    for name in (n for n in FLOORS if n in runs):
        floor = [r["cpu"] for r in runs[name]]
        print(f"CPU ratio {name} / pnpgen build: min {min(floor) / min(build):.2f}, "
              f"median {statistics.median(floor) / statistics.median(build):.2f} (above 1: pnpgen is faster)")
    print(f"pnpgen build CPU: {statistics.median(build) / cards * 1e3:.3f} ms/card, "
          f"{cards / statistics.median(build):,.0f} cards per CPU second")
    print("load average (1 min) before and after each round: " + ", ".join(f"{x:.1f}" for x in loads)
          + " (2 cores: above 2, wall times include other work)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, nargs="+", default=[1000], help="deck sizes, e.g. 1000 10000 50000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=["load", "validate", "build", *FLOORS],
                        help="run only these contenders (e.g. --only build: memory work, where the floors do not change)")
    args = parser.parse_args()
    for cards in args.cards:
        run_size(cards, args.rounds, args.only)


if __name__ == "__main__":
    main()
