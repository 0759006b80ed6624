"""The gaps issue 17 left open, each a class: unknown keys in layout files (per game), a handout
table word too long for its column, unreadable pack files and unwritable output folders, and
`map --count` without bound or sign of life. Each case asserts the exit status, the message's
place, no traceback, and the earlier output byte-identical."""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import traceback
from pathlib import Path

import pytest

import conftest
from conftest import FIXTURES, ROOT, read_until, run_cli, start_on_terminal

GAMES = ("royal-dukes", "shires", "lords-of-doomspire", "dragon-towers", "cones-of-dunshire")


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "Exception ignored" not in err, err[-3000:]


def snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- 1. layouts pnpgen writes pass its own --check, key for key -------------------------------

def _map_then_check(pack, out: Path, *options: str) -> str:
    code, stdout, err = run_cli("map", pack, "--seed", "11", "--count", "2", "--out", out, *options)
    assert code == 0, err
    written = Path(stdout.split()[-1] if Path(stdout.split()[-1]).is_absolute() else ROOT / stdout.split()[-1])
    code, stdout, err = run_cli("map", pack, "--check", written)
    no_traceback(err)
    assert "unknown key" not in err and code == 0, err
    assert stdout.count("legal") == 2, stdout
    return written.read_text()


@pytest.mark.parametrize("game", GAMES)
def test_written_layouts_pass_the_key_check_at_every_player_count(game, tmp_path):
    from generator.maps import engine
    low, high, _ = engine.player_counts(game)
    for players in sorted({low, high}):
        _map_then_check(game, tmp_path, "--players", str(players), "--format", "json")


@pytest.mark.parametrize("game", ["shires", "cones-of-dunshire", "dragon-towers", "royal-dukes"])
def test_a_copied_pack_under_another_name_writes_layouts_its_check_accepts(game, tmp_path):
    """A copy maps by its declaration: its own layouts pass, and a misspelt cell key is refused
    with its JSON path."""
    pack = tmp_path / "our-own-map"
    shutil.copytree(ROOT / "components" / game, pack)
    data = json.loads(_map_then_check(pack, tmp_path / "out", "--format", "json"))
    cell = data["layouts"][1]["cells"][2]
    cell["tpye"] = cell["type"]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    code, _, err = run_cli("map", pack, "--check", tmp_path / "bad.json")
    no_traceback(err)
    assert code == 1
    assert re.search(r"bad\.json: layouts\[1\]\.cells\[2\]\.tpye: unknown key; did you mean 'type'\? "
                     r"known keys are .*\bq, r\b.*type", err), err


# --- 4. map --count: bounded, with progress on a terminal -------------------------------------

def run_on_terminal(argv: list) -> tuple[int, str]:
    """Exit code and everything pnpgen wrote on its terminal, read until it closes it."""
    proc, master = start_on_terminal(argv)
    try:
        shown = read_until(master, proc, None, limit=300)
    finally:
        os.close(master)
    return proc.wait(timeout=300), shown


def test_many_maps_show_progress_on_a_terminal_and_nowhere_else(tmp_path):
    argv = ["map", "lords-of-doomspire", "--seed", "3", "--count", "12", "--format", "png", "--out", tmp_path]
    code, shown = run_on_terminal(argv)
    assert code == 0, shown
    no_traceback(shown)
    assert re.search(r"\rlords-of-doomspire layouts +\[#{30}\] 12/12 maps", shown), shown
    assert re.search(r"\rdrawing png +\[#{30}\] 12/12 maps", shown), shown
    assert re.search(r"\r.*\[#{0,29}\.+\] \d+/12 maps", shown), "no step before the end was shown"
    code, _, err = run_cli(*argv[:-1], tmp_path / "again")
    assert code == 0 and "maps" not in err and "\r" not in err, err
    assert snapshot(tmp_path / "lords-of-doomspire") == snapshot(tmp_path / "again" / "lords-of-doomspire")


@pytest.mark.parametrize("options, place", [
    (("--count", "10000"), r"argument --count: 10000 is over the limit of 1000 layouts at once; make them in batches"),
    (("--count", "0"), r"argument --count: 0: give 1 or more layouts"),
    (("--count", "many"), r"argument --count: 'many' is not a whole number"),
    (("--count", "100", "--format", "png", "--dpi", "600"),
     r"argument --count: 100 PNG maps at 600 dpi is over the limit of 62 at once \(1000 at 150 dpi\)"),
])
def test_map_count_is_bounded_with_an_option_error(options, place, tmp_path):
    out = tmp_path / "out"
    (out / "royal-dukes").mkdir(parents=True)
    (out / "royal-dukes" / "royal-dukes-map-4p-1.json").write_text("earlier output\n")
    before = snapshot(out)
    code, stdout, err = run_cli("map", "royal-dukes", "--seed", "1", *options, "--out", out)
    no_traceback(err)
    assert code == 2 and re.search(place, err), err
    assert stdout == "" and snapshot(out) == before


# --- 3. unreadable pack files, unwritable output folders --------------------------------------

NOBODY = 65534


def run_as_nobody(*argv, before=lambda: None) -> tuple[int, str, str]:
    """pnpgen in a forked child that drops root for uid/gid 65534 (so file permissions bind, as
    they do for any user), then runs the CLI as run_cli does. The interpreter and its libraries
    stay those already imported here: the warm-up fixture has run each command once."""
    from generator import fonts, workdir
    # codecs jinja and fontTools load on first use; the stdlib is root's alone, so load them here
    import encodings.unicode_escape, encodings.utf_16_be, encodings.mac_roman  # noqa: F401,E401
    any_font = next(fonts.FONT_DIR.glob("*.ttf"))     # fontTools' modules, which remembered fonts spare us
    fonts._read_face(any_font), fonts._read_metrics(any_font)
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o777)
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        pid = os.fork()
        if pid == 0:
            try:
                if os.getuid() == 0:
                    os.setgroups([])
                    os.setgid(NOBODY)
                    os.setuid(NOBODY)
                # what a process of that user starts with: its own private folder, not root's
                workdir._base.cache_clear()
                fonts.configure_fontconfig()
                before()
            except BaseException:              # never run the command as root by mistake
                err_path.write_text(traceback.format_exc())
                os._exit(99)
            conftest._cli_child([str(a) for a in argv], ROOT, out_path, err_path)
        code = conftest._wait(pid, 300)
        return code, out_path.read_text(), err_path.read_text()


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """Each command run once here, in this process, on packs at other paths: the child that
    drops root inherits every library they import (the interpreter's own files are root's)."""
    import contextlib
    import io
    from generator.cli import main
    work = tmp_path_factory.mktemp("warm")
    shutil.copytree(FIXTURES / "mini", work / "mini")
    shutil.copytree(ROOT / "components" / "royal-dukes", work / "rd")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", str(work / "mini"), "--out", str(work / "out"), "--quiet"]) == 0
        assert main(["handout", str(work / "rd"), "--out", str(work / "out")]) == 0
        assert main(["map", str(work / "rd"), "--seed", "1", "--format", "pdf", "--out", str(work / "out")]) == 0


@pytest.fixture
def shared(warmed):
    """A folder that user can read (pytest's own are root's alone), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="pnpgen-perm-"))
    os.chmod(folder, 0o755)
    yield folder
    for path in [folder, *folder.rglob("*")]:          # chmod 000 parts back, so they can go
        if not path.is_symlink():
            os.chmod(path, 0o755)
    shutil.rmtree(folder)


def _readable_copy(source: Path, folder: Path) -> tuple[Path, Path]:
    """A copy of the pack under folder that user can read, and an output folder it can write,
    holding earlier output."""
    pack = folder / source.name
    shutil.copytree(source, pack)
    out = folder / "out"
    (out / pack.name).mkdir(parents=True)
    (out / pack.name / "earlier.pdf").write_bytes(b"%PDF- earlier output")
    for path in [pack, *pack.rglob("*"), out, *out.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
        if os.getuid() == 0 and path.is_relative_to(out):
            os.chown(path, NOBODY, NOBODY)
    return pack, out


MINI_BUILD = ("build", "{pack}", "--out", "{out}", "--quiet")
UNREADABLE_CASES = [
    ("component file", "cards.yaml", MINI_BUILD,
     r"mini/cards\.yaml:1:1: cannot read file: Permission denied; check the path and its permissions"),
    ("template", "templates/card.svg.j2", MINI_BUILD,
     r"mini/cards\.yaml:6:15: template 'card\.svg\.j2' \(\S*mini/templates/card\.svg\.j2\): cannot read it: "
     r"permission denied; check the file's permissions"),
    ("templates folder", "templates", MINI_BUILD,
     r"mini/cards\.yaml:6:15: template 'card\.svg\.j2': cannot open the folder \S*mini/templates: "
     r"permission denied; check the folder's permissions"),
    ("icon", "icons/star.svg", MINI_BUILD,
     r"mini/game\.yaml:11:15: icon 'star': cannot read 'icons/star\.svg': permission denied; check the file's permissions"),
    ("icons folder", "icons", MINI_BUILD,
     r"mini/game\.yaml:11:15: icon 'star': cannot read 'icons/star\.svg': permission denied; check the folder's permissions"),
    ("spreadsheet of items", "cards.csv", MINI_BUILD,
     r"mini/cards\.yaml:\d+:\d+: items: cannot read 'cards\.csv': permission denied; check the file's permissions"),
    ("pack folder", ".", MINI_BUILD,
     r"error: \S*/mini: cannot open the pack folder: permission denied; check the folder's permissions"),
    ("handout.yaml", "handout.yaml", ("handout", "{pack}", "--out", "{out}"),
     r"royal-dukes/handout\.yaml:1:1: cannot read file: Permission denied; check the path and its permissions"),
    ("layout file to check", "l.json", ("map", "{pack}", "--check", "{pack}/l.json"),
     r"royal-dukes/l\.json: cannot read: permission denied; check the file's permissions"),
    ("map.yaml", "map.yaml", ("map", "{pack}", "--seed", "1", "--out", "{out}"),
     r"royal-dukes/map\.yaml: cannot read the map rules: permission denied; check the file's permissions"),
]


@pytest.mark.parametrize("what, rel, argv, place", UNREADABLE_CASES, ids=[c[0] for c in UNREADABLE_CASES])
def test_an_unreadable_pack_file_is_refused_with_its_place(what, rel, argv, place, shared):
    pack, out = _readable_copy(FIXTURES / "mini" if "mini" in place else ROOT / "components" / "royal-dukes", shared)
    if rel == "l.json":                     # a layout the pack's own map passes
        from generator.maps import engine
        from generator.maps.layout import dumps
        (pack / "l.json").write_text(dumps([engine.generate(pack, 1)]))
    if rel == "cards.csv":                  # the deck's items from a spreadsheet beside it
        (pack / "cards.csv").write_text("id,title,body,n\n" + "".join(f"c{n},Card {n},From a sheet,{n}\n"
                                                                    for n in range(1, 13)))
        text = (pack / "cards.yaml").read_text()
        (pack / "cards.yaml").write_text(re.sub(r"(?s)    items:\n.*", "    items: {from: cards.csv}\n", text, count=1))
    before = snapshot(out)
    os.chmod(pack / rel, 0)
    code, stdout, err = run_as_nobody(*(a.format(pack=pack, out=out) for a in argv))
    no_traceback(err)
    assert code != 0 and re.search(place, err), err
    assert snapshot(out) == before, "the earlier output changed"


def test_an_unreadable_font_of_pnpgens_is_named(shared):
    from generator import fonts
    pack, out = _readable_copy(FIXTURES / "mini", shared)
    own_fonts = shared / "fonts"
    shutil.copytree(fonts.FONT_DIR, own_fonts)
    os.chmod(own_fonts, 0o755)
    (own_fonts / "LiberationSans-Regular.ttf").chmod(0)
    before = snapshot(out)

    def with_these_fonts():                # pnpgen's fonts/, as a broken install would leave it
        fonts.FONT_DIR = own_fonts
        fonts.shipped.cache_clear()
    code, _, err = run_as_nobody("build", pack, "--out", out, "--quiet", before=with_these_fonts)
    no_traceback(err)
    assert code == 1 and re.search(r"error: \S*fonts/LiberationSans-Regular\.ttf: cannot read this font of "
                                   r"pnpgen's: permission denied; check the file's permissions", err), err
    assert snapshot(out) == before


WRITE_COMMANDS = {"build": ("mini", MINI_BUILD),
                  "handout": ("royal-dukes", ("handout", "{pack}", "--out", "{out}")),
                  "map": ("royal-dukes", ("map", "{pack}", "--seed", "1", "--format", "pdf", "--out", "{out}"))}


@pytest.mark.parametrize("command", sorted(WRITE_COMMANDS))
@pytest.mark.parametrize("folder", ["read-only", "not this user's"])
def test_an_output_folder_that_cannot_be_written_is_named(command, folder, shared):
    name, argv = WRITE_COMMANDS[command]
    pack, out = _readable_copy(FIXTURES / name if name == "mini" else ROOT / "components" / name, shared)
    target = out
    if folder == "read-only":
        os.chmod(out, 0o555)
    else:                                   # root's folder: a new folder inside it cannot be made
        if os.getuid() != 0:
            pytest.skip("needs root to give the folder to another user")
        os.chown(out, 0, 0)
        target = out / "new"
    before = snapshot(out)
    code, stdout, err = run_as_nobody(*(a.format(pack=pack, out=target) for a in argv))
    no_traceback(err)
    assert code == 1, err
    assert re.search(rf"cannot write \S*{re.escape(str(target.name))}/{pack.name}: \S*/out: permission denied; "
                     r"check the folder's permissions \(this user must be able to write it\), or give another "
                     r"folder with --out", err), err
    assert stdout == "" and snapshot(out) == before


# --- 2. a table word longer than its column ----------------------------------------------------

COUNTER_TABLE = "          widths: [23, 45, 20, 12]\n          rows:\n"


def handout_with_row(tmp_path: Path, row: str) -> tuple[Path, int]:
    """A copy of Royal Dukes whose counter table (Rank 23 %, Influence 45 %, ...) starts with
    `row`; and the handout.yaml line of that table block."""
    pack = tmp_path / "rd"
    shutil.copytree(ROOT / "components" / "royal-dukes", pack)
    text = (pack / "handout.yaml").read_text()
    assert COUNTER_TABLE in text
    (pack / "handout.yaml").write_text(text.replace(COUNTER_TABLE, COUNTER_TABLE + f"            - {row}\n"))
    lines = text[:text.index(COUNTER_TABLE)].splitlines()
    return pack, len(lines) - 1                 # the "- table:" line above columns:


def rank_cell_spans(pdf: Path, first: str):
    """The text spans of the Rank cell starting with `first` (text, size, bbox), and the right
    edge its text must keep within (the Influence column starts 2 pt padding further)."""
    import pymupdf
    for page in pymupdf.open(pdf):
        spans = [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]
                 if s["text"].strip()]
        start = next((n for n, s in enumerate(spans) if s["text"].startswith(first)), None)
        if start is None:
            continue
        header = next(s for s in spans if s["text"] == "Influence" and s["bbox"][1] < spans[start]["bbox"][1])
        below = [s for s in spans if s["bbox"][1] > spans[start]["bbox"][1] - 1]
        next_row = min(s["bbox"][1] for s in below if s["text"] == "Monk")
        column = [s for s in below if s["bbox"][0] < header["bbox"][0] - 1 and s["bbox"][1] < next_row - 1]
        return sorted(column, key=lambda s: s["bbox"][1]), header["bbox"][0] - 2 * 2
    raise AssertionError(f"{first!r} is not on the page")


@pytest.mark.parametrize("word, lines", [("Archdukes", 2), ("Grandmastership", 3)])
def test_a_table_word_wider_than_its_column_is_broken_with_hyphens_inside_it(word, lines, tmp_path):
    """The cell keeps the size of the table's other cells (never under 9.5 pt, docs/handouts.md);
    the word is broken where the line is full, each break marked with a hyphen, and no part
    passes the column."""
    pack, _ = handout_with_row(tmp_path, f'[{word}, "x", "1-2", "3"]')
    code, _, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 0, err
    spans, right = rank_cell_spans(tmp_path / "out" / "rd" / "rd-handout.pdf", word[:4])
    parts = [s["text"] for s in spans]
    assert len(parts) == lines and all(p.endswith("-") for p in parts[:-1]), parts
    assert "".join(p[:-1] for p in parts[:-1]) + parts[-1] == word
    assert spans[0]["size"] >= 9.5 - 0.01
    assert all(s["size"] == pytest.approx(spans[0]["size"]) and s["bbox"][2] <= right + 0.3 for s in spans), spans


@pytest.mark.parametrize("row, place", [
    ('[Grandmasterofthetemplarsandhospitallers, "x", "1-2", "3"]',
     r"section 'Setup', table: the word 'Grandmasterofthetemplarsandhos\.\.\.' \(39 characters\) is too long for "
     r"the column 'Rank' \(\d+\.\d mm for text\): at 9\.5 pt it would be broken across more than 3 lines; widen "
     r"that column \(the table's widths:\), shorten the word, or give it a space or a hyphen"),
    ('[x, "%s", "1-2", "3"]' % ("ab " * 1500),
     r"handout: section 'Setup' holds a table row taller than a whole column, which cannot be broken \(a row "
     r"\d+ mm tall with the header, taller than a column \(\d+ mm\)\); shorten the row"),
])
def test_a_table_cell_that_cannot_fit_is_refused_with_its_line(row, place, tmp_path):
    pack, line = handout_with_row(tmp_path, row)
    out = tmp_path / "out"
    (out / "rd").mkdir(parents=True)
    (out / "rd" / "rd-handout.pdf").write_bytes(b"%PDF- earlier output")
    before = snapshot(out)
    code, stdout, err = run_cli("handout", pack, "--out", out)
    no_traceback(err)
    assert code == 1, err
    where = rf"rd/handout\.yaml:{line}:\d+: " if "word" in place else r"rd/handout\.yaml:\d+:\d+: "
    assert re.search(where + place, err), err
    assert stdout == "" and snapshot(out) == before
