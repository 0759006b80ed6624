"""Benchmark (run on demand, not in CI): where a build's memory is, stage by stage, in the parent
and in a drawing worker, for the bench deck of bench_cards.py.

    python bench/bench_memory.py [--cards 50000] [--top 6] [--no-trace]

One `pnpgen build` runs in this process with tracemalloc on (Python's own allocations; cairo's
and qpdf's are in RSS only). A snapshot is taken after loading, after planning (the pages packed,
edges read), when every face of a chunk is rendered (before its first page is drawn), when
half its pages are drawn, when its PDF is written, before and after the merge and after build.json.
Each line: the process (parent or worker), the stage, RSS now and the process's peak RSS so far
(the merge, inside qpdf, is the parent's peak), Python's traced memory now and its peak,
and the largest allocation sites (file:line, MB). A forked worker writes its lines to a file the
parent prints. --no-trace: RSS alone, at full speed (tracemalloc makes a build 2-3x slower and
its own bookkeeping adds to RSS).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import bench_cards  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")
LINES: list[dict] = []
PARENT = os.getpid()
OUT: Path | None = None
TOP = 6


def rss_mb() -> float:
    with open("/proc/self/statm", "rb") as handle:
        return int(handle.read().split()[1]) * PAGE / 1e6


def snap(stage: str) -> None:
    line = {"pid": os.getpid(), "who": "parent" if os.getpid() == PARENT else "worker", "stage": stage,
            "rss": rss_mb(), "max": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3}
    if tracemalloc.is_tracing():
        now, peak = tracemalloc.get_traced_memory()
        stats = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)]) \
            .statistics("lineno")
        line.update(now=now / 1e6, peak=peak / 1e6,
                    top=[(f"{_short(s.traceback[0].filename)}:{s.traceback[0].lineno}", s.size / 1e6)
                         for s in stats[:TOP]])
    if os.getpid() == PARENT:
        LINES.append(line)
    else:
        with open(OUT / f"worker-{os.getpid()}.jsonl", "a") as handle:
            handle.write(json.dumps(line) + "\n")


def _short(name: str) -> str:
    for root in (str(ROOT) + "/", "/usr/lib/python3"):
        if name.startswith(root):
            return name[len(root):]
    return name.rsplit("/site-packages/", 1)[-1]


def hooked(owner, name: str, before: str | None = None, after: str | None = None) -> None:
    """owner.name wrapped: a snapshot before and/or after each call."""
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        if before:
            snap(before)
        result = original(*args, **kwargs)
        if after:
            snap(after)
        return result
    setattr(owner, name, wrapper)


def hook_stages() -> None:
    from generator import build, parallel, pdfwrite
    hooked(build, "load_pack", after="after load")
    hooked(build, "plan_sheets", after="after planning")
    hooked(parallel, "merge_files", before="before merge", after="after merge")
    hooked(build, "_staged_json", after="after build.json")
    hooked(build, "write_atomically", after="after writing the files")
    draw = pdfwrite.PdfWriter._draw_sheet
    written = pdfwrite.PdfWriter._write

    def write(self, sheets, progress, into=None):
        self._bench_pages = (0, len(sheets))
        pdf = written(self, sheets, progress, into)
        size = len(pdf) if into is None else os.path.getsize(into)
        snap(f"chunk of {len(sheets)} pages written ({size / 1e6:.0f} MB PDF)")
        return pdf

    def draw_sheet(self, *args):
        done, total = self._bench_pages
        if done == 0:
            snap("faces rendered, first page")
        elif done == total // 2:
            snap("half the pages drawn")
        self._bench_pages = (done + 1, total)
        return draw(self, *args)
    pdfwrite.PdfWriter._write, pdfwrite.PdfWriter._draw_sheet = write, draw_sheet


def main() -> None:
    global OUT, TOP
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--top", type=int, default=6, help="allocation sites shown per stage")
    parser.add_argument("--no-trace", action="store_true", help="RSS only, no tracemalloc")
    args = parser.parse_args()
    TOP = args.top
    work = Path(tempfile.mkdtemp(prefix="pnpgen-memory-"))
    OUT = work
    pack = bench_cards.write_pack(work, bench_cards.make_cards(args.cards))
    from generator import build, cli
    build.MAX_PAGES = max(build.MAX_PAGES, 2 * (args.cards + 8) // 9)
    hook_stages()
    if not args.no_trace:
        tracemalloc.start()
    snap("start")
    status = cli.main(["build", str(pack), "--out", str(work / "out"), "--quiet"])
    lines = LINES + [json.loads(line) for f in sorted(work.glob("worker-*.jsonl")) for line in f.read_text().splitlines()]
    print(f"{args.cards:,} cards, exit {status}; MB")
    for line in lines:
        traced = f" traced {line['now']:6.1f} (peak {line['peak']:6.1f})" if "now" in line else ""
        print(f"{line['who']:6} {line['stage']:42} RSS {line['rss']:6.1f} (peak {line['max']:6.1f}){traced}")
        for where, size in line.get("top", []):
            print(f"{'':10}{size:7.1f}  {where}")


if __name__ == "__main__":
    main()
