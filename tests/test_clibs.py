"""cairo's declarations read from remembered data (generator/clibs.py): the same library, the same
drawing, no parsing again, nothing printed, and a broken entry made again."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator import clibs

ROOT = Path(__file__).resolve().parent.parent

# draws a page with a path, a dash, a clip, an image and text, writes its PDF's bytes to argv[1],
# and prints what it loaded cairo's declarations from and the names cairo's library object has
DRAW = """
import sys
{first}
import cairocffi
out = sys.argv[1]
surface = cairocffi.PDFSurface(out, 200, 100)
surface.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, "2020-01-01T00:00:00Z")
ctx = cairocffi.Context(surface)
ctx.set_source_rgb(0.2, 0.4, 0.6)
ctx.rectangle(10, 10, 80, 40)
ctx.clip_preserve()
ctx.fill()
ctx.reset_clip()
ctx.set_dash([3.0, 1.5])
ctx.move_to(0, 90); ctx.curve_to(40, 60, 80, 120, 190, 90); ctx.stroke()
image = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 4, 4)
image.get_data()[:] = bytes(range(64))
image.mark_dirty()
ctx.set_source_surface(image, 120, 20); ctx.paint_with_alpha(0.5)
ctx.set_source_rgb(0, 0, 0)
ctx.select_font_face("Liberation Sans"); ctx.set_font_size(12)
ctx.move_to(100, 80); ctx.show_text("Quartz glyph")
surface.finish()
print(type(cairocffi.ffi).__module__, len([n for n in dir(cairocffi.cairo) if n.startswith("cairo_")]))
"""


def _run(tmp_path: Path, out: Path, first: str) -> list[str]:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", DRAW.format(first=first), str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.split()


def _entries(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob(f"pnpgen-{os.getuid()}/cffi/*.json"))


def test_remembered_declarations_draw_what_cairocffi_draws(tmp_path):
    stock = _run(tmp_path, tmp_path / "stock.pdf", "import cairocffi, generator")   # cairocffi first: its own module
    assert not _entries(tmp_path)
    first = _run(tmp_path, tmp_path / "first.pdf", "import generator")       # parses, remembers
    assert len(_entries(tmp_path)) == 1
    again = _run(tmp_path, tmp_path / "again.pdf", "import generator")       # reads the data back
    assert stock[0] == "cffi.api" and again[0] == "_cffi_backend"
    assert stock[1] == first[1] == again[1] and int(stock[1]) > 300     # every cairo function declared
    pdf = (tmp_path / "stock.pdf").read_bytes()
    assert b"/FontFile" in pdf and b"/Image" in pdf
    assert (tmp_path / "first.pdf").read_bytes() == pdf
    assert (tmp_path / "again.pdf").read_bytes() == pdf


def test_nothing_is_printed_when_the_declarations_are_first_remembered(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", "import generator, cairocffi"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    assert len(_entries(tmp_path)) == 1
    assert done.stdout == "" and done.stderr == ""


@pytest.mark.parametrize("broken", ['{"_version": "9729", "_types": ""}', '{"_version": 9729}', "[1, 2",
                                    '{"_version": 9729, "_types": "", "_code": "import os"}'])
def test_a_broken_or_foreign_entry_is_made_again(tmp_path, broken):
    _run(tmp_path, tmp_path / "first.pdf", "import generator")
    [entry] = _entries(tmp_path)
    good = json.loads(entry.read_text())
    entry.write_text(broken)
    again = _run(tmp_path, tmp_path / "again.pdf", "import generator")
    assert again[0] == "_cffi_backend"
    assert json.loads(entry.read_text()) == good
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "first.pdf").read_bytes()


def test_entries_are_data_in_the_shape_cffi_writes():
    assert clibs._is_declared({"_version": 0x2601, "_types": "\x00\x01", "_globals": ["A", 1]})
    assert not clibs._is_declared({"_version": True, "_types": ""})           # a bool is not cffi's int
    assert not clibs._is_declared({"_version": 1, "_types": "", "_globals": [{"a": 1}]})
    assert not clibs._is_declared({"_types": ""})
    assert clibs._decoded({"_globals": ["\xffA", 3, ["x"]]}) == {"_globals": (b"\xffA", 3, (b"x",))}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sonames are Linux's")
def test_a_library_is_loaded_by_its_soname_and_an_unknown_one_is_searched():
    assert clibs.library("cairo") == "libcairo.so.2"
    assert clibs.library("fontconfig") == "libfontconfig.so.1"
    assert clibs.library("no-such-library-pnpgen") is None
