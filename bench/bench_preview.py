"""Benchmark (run on demand, not in CI): the designer's loop on a 500-card pack.

    python bench/bench_preview.py [--cards 500] [--edits 5]

Runs `pnpgen preview --watch`'s loop (in a thread of this process, as the command does) on the
synthetic deck of bench_cards.py, saves an edit of one field of one card, and times the save ->
preview page written, and save -> PDFs written, the file watcher's polling included. Then checks
that the PDFs and the preview equal those of a clean build, and times a clean build() of this
tree without and with the face cache against one of --against (default main). All figures from
one run; ratios against the 0.3 s / 1 s aims and the baseline.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_cards import make_cards, write_pack          # noqa: E402
from generator import preview                           # noqa: E402
from generator.build import BuildRequest                 # noqa: E402

PREVIEW_AIM, PDF_AIM = 0.3, 1.0


def edit_one_card(pack: Path, index: int) -> None:
    """Change the cost of card `index` and save, as an editor does (a new file moved in place)."""
    deck = pack / "deck.yaml"
    data = json.loads(deck.read_text())
    card = data["groups"][0]["items"][index]
    card["cost"] = (card["cost"] + 1) % 10
    saving = deck.with_name(".deck.yaml.swp")
    saving.write_text(json.dumps(data))
    os.replace(saving, deck)


def loop_times(pack: Path, out: Path, edits: int) -> tuple[list[float], list[float], float, list[int]]:
    session = preview.Session(pack, BuildRequest(out_dir=out))
    start = time.perf_counter()
    session.rebuild()
    first = time.perf_counter() - start
    events, stop = [], threading.Event()
    seen = threading.Condition()

    def note(kind):
        def record(done):
            with seen:
                events.append((kind, time.perf_counter(), done))
                seen.notify_all()
        return record
    watcher = threading.Thread(target=preview.watch, args=(session, note("pdf"), note("preview")),
                               kwargs={"until": stop.is_set}, daemon=True)
    watcher.start()
    to_preview, to_pdf, renders = [], [], []
    try:
        for n in range(edits):
            time.sleep(0.3)             # the editor's pace, not a wait for a result
            events.clear()
            before = session.cache.renders
            saved = time.perf_counter()
            edit_one_card(pack, 37 * n + 11)
            with seen:
                if not seen.wait_for(lambda: any(k == "pdf" for k, _, _ in events), timeout=60):
                    raise SystemExit("no rebuild within 60 s")
            stamps = {kind: at for kind, at, _ in events}
            problems = [p for _, _, done in events for p in done.problems]
            if problems:
                raise SystemExit("\n".join(problems))
            to_preview.append(stamps["preview"] - saved)
            to_pdf.append(stamps["pdf"] - saved)
            renders.append(session.cache.renders - before)
    finally:
        stop.set()
        watcher.join()
    return to_preview, to_pdf, first, renders


def same_files(a: Path, b: Path) -> bool:
    names = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file() and not p.name.startswith("."))
    other = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file() and not p.name.startswith("."))
    return names == other and all((a / n).read_bytes() == (b / n).read_bytes() for n in names)


CLEAN_BUILD = """
import sys, time
sys.path.insert(0, {src!r})
from pathlib import Path
from generator.build import BuildRequest, build
extra = {{}}
if {cache}:
    from generator.cache import FaceCache
    extra = {{"face_cache": FaceCache()}}
start = time.perf_counter()
build(Path({pack!r}), BuildRequest(out_dir=Path({out!r}), **extra))
print(time.perf_counter() - start)
"""


def clean_builds(pack: Path, out: Path, against: str, runs: int = 3) -> dict[str, float]:
    """Seconds of a clean build() (best of `runs`, fresh processes taking turns) by this tree
    without and with a face cache, and by the revision `against` (git archive, imports warm)."""
    other = out / "against-src"
    other.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", against, "generator", "fonts", "templates"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
    kinds = {"this tree": (ROOT, False), "this tree + cache": (ROOT, True), against: (other, False)}
    best = dict.fromkeys(kinds, float("inf"))
    for _ in range(runs):
        for name, (src, cache) in kinds.items():
            code = CLEAN_BUILD.format(src=str(src), cache=cache, pack=str(pack), out=str(out / "o"))
            seconds = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                           check=True).stdout.split()[-1])
            best[name] = min(best[name], seconds)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=500)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--against", default="main", help="git revision whose clean build is the baseline")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-preview-"))
    try:
        pack = write_pack(work, make_cards(args.cards))
        to_preview, to_pdf, first, renders = loop_times(pack, work / "live", args.edits)
        # a clean preview of the edited pack, in a fresh session: must equal the live one
        preview.Session(pack, BuildRequest(out_dir=work / "clean")).rebuild()
        identical = same_files(work / "live", work / "clean")
        clean = clean_builds(pack, work / "b", args.against)
        faces = 2 * args.cards
        med_preview, med_pdf = statistics.median(to_preview), statistics.median(to_pdf)
        print(f"pack: {args.cards} distinct cards + shared back ({faces} faces), A4; {args.edits} edits of one field")
        print(f"first preview + PDFs (clean, every face rendered and rasterized): {first:.2f} s")
        print(f"faces rendered again per edit: {renders}")
        print(f"save -> preview written: median {med_preview:.3f} s (max {max(to_preview):.3f}); "
              f"{med_preview / PREVIEW_AIM:.2f} of the {PREVIEW_AIM} s aim")
        print(f"save -> PDFs written:    median {med_pdf:.3f} s (max {max(to_pdf):.3f}); "
              f"{med_pdf / PDF_AIM:.2f} of the {PDF_AIM} s aim")
        print(f"(the watcher looks every {preview.POLL_SECONDS} s: about half of that is in each figure)")
        print(f"live output equals a clean build's, byte for byte: {identical}")
        base = clean[args.against]
        print("clean build(), best of 3 fresh processes each: " + "; ".join(
            f"{name} {sec:.2f} s ({sec / base:.2f} of {args.against})" for name, sec in clean.items()))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
