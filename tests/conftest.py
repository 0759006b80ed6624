"""Shared helpers: build packs into temporary folders, run the CLI as a user would."""
from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# A printer offset saved by the person running the tests (pnpgen calibrate --save) would shift
# every back page the tests build: the tests read settings from a folder of their own.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="pnpgen-test-config-")


def _remove_config_home(owner: int = os.getpid(), folder: str = os.environ["XDG_CONFIG_HOME"]) -> None:
    """Removed when the test process ends, so runs leave no folders in $TMPDIR (a forked child
    that exits normally shares the atexit list: only the process that made it removes it)."""
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


atexit.register(_remove_config_home)
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MM = 72 / 25.4          # PDF points per millimetre


def run_cli(*args, cwd=None, timeout=300):
    """Run `python -m generator ...` as its own process; return (exit code, stdout, stderr).

    The process is a fork of this one, which has the libraries imported already: a fresh
    interpreter spends longer importing cairo, pikepdf and reportlab than most commands take.
    The child runs the CLI's main() as __main__ would, writing to its own stdout/stderr files,
    with its own working folder, signal handlers and exit code; a traceback lands in its stderr."""
    with tempfile.TemporaryDirectory() as tmp:
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        pid = os.fork()
        if pid == 0:
            _cli_child([str(a) for a in args], cwd or ROOT, out_path, err_path)
        code = _wait(pid, timeout)
        return code, out_path.read_text(), err_path.read_text()


def _cli_child(argv: list[str], cwd: Path, out_path: Path, err_path: Path) -> None:
    """In the forked child: become `python -m generator ARGV` and exit with its code."""
    code = 1
    try:
        os.chdir(cwd)
        for fd, path in ((1, out_path), (2, err_path)):
            target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(target, fd)
            os.close(target)
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        sys.stdin = open(0, closefd=False)
        sys.stdout = open(1, "w", closefd=False, encoding="utf-8")
        sys.stderr = open(2, "w", closefd=False, encoding="utf-8")
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM):
            signal.signal(signum, signal.SIG_DFL)
        from generator.cli import main
        code = main(argv)
    except SystemExit as exc:              # argparse's usage errors
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:                  # what the interpreter would print
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def _wait(pid: int, timeout: float) -> int:
    """The child's exit code (like subprocess: -N when killed by signal N), woken by its exit."""
    handle = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([handle], [], [], timeout)
    finally:
        os.close(handle)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise subprocess.TimeoutExpired(["pnpgen", "(forked)"], timeout)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def pytest_xdist_auto_num_workers(config):
    """-n auto: one worker per core, at most four: each worker builds the packs its tests share
    once, so more workers mostly repeat those builds."""
    return max(1, min(os.cpu_count() or 1, 4))


def start_on_terminal(argv):
    """pnpgen with its stderr on a pseudo-terminal (as a user at a shell sees it, with progress
    bars, shown from the first step); (process, reader fd)."""
    main_fd, child_fd = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "generator", *map(str, argv)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=child_fd,
                            env={**os.environ, "PNPGEN_PROGRESS_AFTER": "0"})
    os.close(child_fd)
    return proc, main_fd


DECK_GAME = """title: Test Deck
players: {min: 1, max: 1}
player_colors: [{id: red, name: Red, color: "#aa2222"}]
palette: {ink: "#222222", paper: "#f7f1e3"}
fonts: {body: {family: Liberation Sans}}
defaults: {paper: a4, duplex: long, bleed: 3mm, marks: crop}
"""


def write_deck(folder: Path, titles, templates: dict[str, str]) -> Path:
    """A pack of one poker-card deck, a card per title (field `title`), drawn by front.svg.j2
    and back.svg.j2 of `templates` (name -> source)."""
    (folder / "templates").mkdir(parents=True)
    (folder / "game.yaml").write_text(DECK_GAME)
    for name, text in templates.items():
        (folder / "templates" / name).write_text(text)
    items = [{"id": f"card-{n}", "title": title} for n, title in enumerate(titles)]
    deck = {"groups": [{"id": "deck", "kind": "card", "size": "poker", "template": "front.svg.j2",
                        "back_template": "back.svg.j2", "fields": {"title": "text"}, "items": items}]}
    (folder / "deck.yaml").write_text(json.dumps(deck))
    return folder


def read_until(fd, proc, text: str | None, limit: float = 120) -> str:
    """What the process wrote to its terminal until `text` appears (None: until it closes the
    terminal) or it ends; woken by each write, never waiting a fixed time for the process."""
    seen, deadline = "", time.monotonic() + limit
    while (text is None or text not in seen) and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:           # the process ended and closed the terminal
                break
            if not chunk:
                break
            seen += chunk.decode(errors="replace")
        elif proc.poll() is not None:
            break
    return seen


def copy_pack(name: str, dest: Path) -> Path:
    source = FIXTURES / name if (FIXTURES / name).is_dir() else ROOT / "components" / name
    target = dest / name
    shutil.copytree(source, target)
    return target


_BUILDS: dict = {}


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """build(pack, *options) -> output folder of that pack, built once per session."""
    def build(pack: str, *options: str) -> Path:
        key = (pack, options)
        if key not in _BUILDS:
            out = tmp_path_factory.mktemp("out")
            path = FIXTURES / pack if (FIXTURES / pack).is_dir() else pack
            code, stdout, stderr = run_cli("build", path, "--out", out, "--quiet", *options)
            assert code == 0, stderr
            _BUILDS[key] = out / Path(str(path)).name
        return _BUILDS[key]
    return build


def load_build_json(folder: Path) -> dict:
    return json.loads((folder / "build.json").read_text())


# --- helpers the game-pack tests share -------------------------------------------------------

def build_pack(pack: Path, out: Path, *options: str) -> Path:
    """Build a pack folder into out/; return out/<pack> (fails the test on a non-zero exit)."""
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet", *options)
    assert code == 0, stderr
    return out / Path(pack).name


def pack_subset(source: Path, files, dest: Path) -> Path:
    """A copy of a pack with only the named files (and its icons): one part of a pack tested
    apart from the others."""
    pack = dest / source.name
    pack.mkdir(parents=True)
    for name in files:
        shutil.copy(source / name, pack / name)
    shutil.copytree(source / "icons", pack / "icons")
    return pack


def group_items(build_info: dict, group: str) -> list[dict]:
    return [item for item in build_info["items"] if item["group"] == group]


def indexed_build_info(folder: Path) -> dict:
    """build.json with its groups by id."""
    data = load_build_json(folder)
    return {"groups": {g["id"]: g for g in data["groups"]}, "items": data["items"]}


def assert_item_sizes(build_info: dict, group: str, width: float, height: float, sides: int,
                      tol: float = 0.1) -> None:
    items = group_items(build_info, group)
    assert items, f"no items in group {group}"
    for item in items:
        assert item["width_mm"] == pytest.approx(width, abs=tol)
        assert item["height_mm"] == pytest.approx(height, abs=tol)
        assert item["sides"] == sides


def assert_text_inside(page, number: int, inset_pt: float, min_pt: float = 6.0) -> None:
    """Every text span of a one-face page is at least min_pt and, judged by its glyphs (the span
    box less 10 % of the size top and bottom, i.e. without the line's leading), inside the trim
    box shrunk by inset_pt."""
    trim = page.trimbox
    safe = type(trim)(trim.x0 + inset_pt, trim.y0 + inset_pt, trim.x1 - inset_pt, trim.y1 - inset_pt)
    spans = [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
             for s in line["spans"] if s["text"].strip()]
    assert spans, f"page {number} has no text"
    for span in spans:
        assert span["size"] >= min_pt - 0.01, (number, span["text"], span["size"])
        x0, y0, x1, y1 = span["bbox"]
        glyphs = type(trim)(x0, y0 + 0.1 * span["size"], x1, y1 - 0.1 * span["size"])
        assert safe.contains(glyphs), (number, span["text"])


def word_centres(page, text: str) -> list[tuple[float, float]]:
    """Centres (mm) of every occurrence of a word on a PDF page."""
    return [((w[0] + w[2]) / 2 / MM, (w[1] + w[3]) / 2 / MM) for w in page.get_text("words") if w[4] == text]


def _char_lines(page) -> list[list[tuple[str, tuple]]]:
    """The page's text lines as (character, bbox) lists, read once: PyMuPDF's get_textbox walks
    every character of the page in Python for each box asked, which made a sheet of chits take
    seconds."""
    raw = page.get_text("rawdict")
    return [[(ch["c"], ch["bbox"]) for span in line["spans"] for ch in span["chars"]]
            for block in raw["blocks"] if block["type"] == 0 for line in block["lines"]]


def _text_in(lines, rect) -> str:
    """What page.get_textbox(rect) returns: the characters overlapping rect, a line break
    between lines that have any."""
    x0, y0, x1, y1 = rect
    parts = []
    for line in lines:
        chars = [c for c, (a, b, c2, d) in line if not (x0 >= c2 or y0 >= d or x1 <= a or y1 <= b)]
        if chars:
            parts.append("".join(chars))
    return "\n".join(parts)


def face_texts(pack: Path, pdf: Path, **request) -> list[tuple[str, str, str, str]]:
    """(group, item, side, the text inside its trim) for every face of a sheets PDF, placed by the
    same layout the build used (build with the same options as `request`)."""
    import pymupdf
    from generator.build import BuildRequest, plan_sheets
    from generator.manifest import load_pack
    game = load_pack(pack)
    sheets = plan_sheets(game, [g for g in game.groups if g.kind != "mat"], BuildRequest(**request), "sheets")
    doc = pymupdf.open(pdf)
    assert len(doc) == len(sheets)
    out = []
    for page, sheet in zip(doc, sheets):
        lines = _char_lines(page)
        for p in sheet.placements:
            rect = (p.x * MM, p.y * MM, (p.x + p.w) * MM, (p.y + p.h) * MM)
            out.append((p.face.group.id, p.face.item.id, p.face.side, _text_in(lines, rect)))
    return out
