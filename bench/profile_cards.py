"""Where a bench build's CPU goes (run on demand, not in CI): the share table of issue 29.

    python bench/profile_cards.py [--cards 10000] [--top 0]

Builds bench_cards.py's deck with `pnpgen build` in this one process (forking off: the chunks
are drawn one after the other, the same work the two processes share; the pack loaded here, not
in apart.py's child), sampling the Python
stack every millisecond of CPU time (ITIMER_PROF; a forked worker would not inherit the timer).
Each sample goes to the stage of the innermost frame a rule below names, so a helper called
from a template counts as text, not as Jinja. A sampler, not cProfile: cProfile's cost per call
(about 1 us) inflates the small, often-called functions of the hot path 2-4 times.
"""
from __future__ import annotations

import argparse
import collections
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import bench_cards  # noqa: E402

# (stage, file part, function names or None for any). A sample is in the stage of the first
# WHOLE rule any frame of its stack meets (cairo calls back into Python to write a page, so the
# page's compression shows as its write callback), else of the first RULE its innermost frame
# that meets one meets.
WHOLE = [
    ("imports", "importlib/_bootstrap", None),
    ("cairo page output", "cairocffi/", {"show_page", "finish", "flush"}),
]
RULES = [
    ("cairo drawing", "cairocffi/", None),
    ("cairo drawing", "generator/svgdraw/ops.py", None),     # thin wrappers of cairo calls
    ("SVG parse and compile at draw time", "generator/svgdraw/", None),
    ("drawing pages (pdfwrite)", "generator/pdfwrite.py", None),
    ("runs written as SVG text", "generator/facedoc.py", {"written", "svg", "face", "_written_doc", "part_svg",
                                                           "parts_svg", "block_svg", "_mm", "<lambda>", "<listcomp>",
                                                           "<genexpr>"}),
    ("shaping", "generator/shaping.py", None),
    ("text fitting (measure, wrap, shrink)", "generator/textfit.py", {"fit", "measure", "layout_lines", "_soft_break",
                                                                       "_pieces", "_block_height", "_wrap_plain",
                                                                       "_icon_words"}),
    ("text fitting (measure, wrap, shrink)", "generator/glyphs.py", None),
    ("text fitting (measure, wrap, shrink)", "generator/fonts.py", {"width", "measured", "_measured"}),
    ("runs laid out", "generator/textfit.py", None),
    ("runs laid out", "generator/facedoc.py", None),
    ("runs laid out", "generator/templating.py", {"_laid_out", "_run_style", "_parts", "_placed_runs"}),
    ("face checks", "generator/onface.py", None),
    ("face checks", "generator/svgcheck.py", None),
    ("face checks", "generator/render.py", {"parsed_face", "spliced", "well_formed_problem"}),
    ("text helpers (arguments, styles, warnings)", "generator/templating.py", {"text_box", "_box", "text_line", "style",
                                                                               "checked", "check", "_length_ok", "icon",
                                                                               "_markup"}),
    ("Jinja templates", "jinja2/", None),
    ("Jinja templates", "markupsafe/", None),
    ("Jinja templates", ".svg.j2", None),
    ("Jinja templates", "generator/templating.py", None),
    ("Jinja templates", "generator/growth.py", None),
    ("build.json and digests", "generator/build.py", {"build_json", "json_text", "build_items"}),
    ("build.json and digests", "generator/render.py", {"digests", "face_digest"}),
    ("build.json and digests", "json/", None),
    ("rendering faces (render.py)", "generator/render.py", None),
    ("PDF merge and page boxes", "pikepdf/", None),
    ("PDF merge and page boxes", "generator/parallel.py", {"merge_files", "set_print_boxes", "pictures_once"}),
    ("edge planning", "generator/edges.py", None),
    ("imposition", "generator/impose.py", None),
    ("imposition", "generator/tiling.py", None),
    ("imposition", "generator/pageguide.py", None),
    ("loading", "generator/manifest.py", None),
    ("loading", "generator/yamlsrc.py", None),
    ("loading", "generator/model.py", None),
    ("loading", "generator/schema.py", None),
    ("loading", "yaml/", None),
    ("loading", "generator/items.py", None),
]


def stage(stack: tuple) -> str:
    """The stage of a sample: stack is its (file, function) pairs, innermost first."""
    for name, part, functions in WHOLE:
        if any(part in path and (functions is None or function in functions) for path, function in stack):
            return name
    for path, function in stack:
        for name, part, functions in RULES:
            if part in path and (functions is None or function in functions):
                return name
    return "other"


class Sampler:
    """Samples of the stack, each weighted by the CPU seconds since the one before: signals
    that fall while C code runs are delivered as one when Python runs again, to the frame that
    called it (or that cairo called back)."""

    def __init__(self, every: float = 0.001):
        self.every, self.samples, self.last = every, collections.Counter(), time.process_time()

    def __enter__(self):
        self.last = time.process_time()
        signal.signal(signal.SIGPROF, self.sample)
        signal.setitimer(signal.ITIMER_PROF, self.every, self.every)
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def sample(self, signum, frame) -> None:
        now = time.process_time()
        spent, self.last = now - self.last, now
        stack = []
        while frame is not None:
            stack.append((frame.f_code.co_filename, frame.f_code.co_name))
            frame = frame.f_back
        self.samples[tuple(stack)] += spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--top", type=int, default=0, help="also list the N innermost functions with most samples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnpgen-profile-") as folder:
        pack = bench_cards.write_pack(Path(folder), bench_cards.make_cards(args.cards))
        cpu = time.process_time()
        with Sampler() as sampler:
            from generator import build, cli, manifest, parallel
            parallel.can_fork = lambda: False
            manifest.LOAD_APART_ABOVE = float("inf")      # a forked loading child would go unsampled
            build.MAX_PAGES = max(build.MAX_PAGES, 2 * (args.cards + 8) // 9)
            status = cli.main(["build", str(pack), "--out", str(Path(folder) / "out"), "--quiet"])
        cpu = time.process_time() - cpu
    if status:
        raise SystemExit(f"pnpgen build failed (exit {status})")
    shares, total = collections.Counter(), sum(sampler.samples.values())
    for stack, count in sampler.samples.items():
        shares[stage(stack)] += count
    print(f"{args.cards:,} cards, one process: {cpu:.2f} s CPU, {len(sampler.samples):,} distinct stacks sampled")
    for name, count in shares.most_common():
        print(f"  {name:44} {100 * count / total:5.1f} %  {cpu * count / total:6.2f} s")
    if args.top:
        inner = collections.Counter()
        for stack, count in sampler.samples.items():
            inner[f"{stack[0][1]} ({Path(stack[0][0]).name})"] += count
        for name, count in inner.most_common(args.top):
            print(f"    {100 * count / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
