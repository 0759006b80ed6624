"""Values remembered between runs in pnpgen's private folder (workdir.remembered): font faces
and metrics, spreadsheet rows. What comes back is what reading the file gives; a changed,
unreadable or tampered file is never hidden by what was remembered."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from conftest import ROOT
from generator import fonts, workdir


@pytest.fixture
def private(tmp_path, monkeypatch):
    """A private folder of this test's own (workdir's base is per process, cached)."""
    base = tmp_path / "work"
    base.mkdir(mode=0o700)
    monkeypatch.setattr(workdir, "_base", lambda: base)
    return base


def test_a_value_is_made_once_then_read_back(private):
    made = []
    make = lambda: made.append(1) or {"widths": {"a": 0.5, "é": 0.556}, "n": [1, 2.5, None]}  # noqa: E731
    first = workdir.remembered("things", "k1", make)
    assert workdir.remembered("things", "k1", make) == first and len(made) == 1


def test_a_broken_or_foreign_entry_is_made_again(private):
    made = []
    workdir.remembered("things", "k2", lambda: made.append(1) or [1])
    entry = private / "things" / "k2.json"
    entry.write_text("{broken")
    assert workdir.remembered("things", "k2", lambda: made.append(1) or [1]) == [1] and len(made) == 2
    entry.unlink()
    entry.symlink_to(ROOT / "README.md")          # not a plain file of ours: not read
    assert workdir.remembered("things", "k2", lambda: made.append(1) or [1]) == [1] and len(made) == 3


def test_font_metrics_remembered_equal_those_read_from_the_file(private, tmp_path):
    font = tmp_path / "Sans.ttf"
    shutil.copy(ROOT / "fonts" / "LiberationSans-Regular.ttf", font)
    read = fonts._read_metrics(font)
    for _ in range(2):                              # made, then read back
        metrics = fonts.FontMetrics(font)
        assert metrics.widths == read["widths"] and len(metrics.widths) > 2000
        assert (metrics.ascent, metrics.descent, metrics.cap_height) == (read["ascent"], read["descent"], read["cap_height"])
    assert fonts._describe(font).family == "Liberation Sans"


def test_a_changed_font_is_read_again(private, tmp_path):
    font = tmp_path / "Face.ttf"
    shutil.copy(ROOT / "fonts" / "LiberationSans-Regular.ttf", font)
    assert not fonts._describe(font).bold
    shutil.copy(ROOT / "fonts" / "LiberationSans-Bold.ttf", font)
    os.utime(font, ns=(1, 10**18))                 # and another time stamp, as any edit gives
    assert fonts._describe(font).bold


def test_an_unreadable_font_is_an_error_even_when_remembered(private, tmp_path):
    font = tmp_path / "Face.ttf"
    shutil.copy(ROOT / "fonts" / "LiberationSans-Regular.ttf", font)
    fonts._describe(font)
    font.chmod(0)
    if os.access(font, os.R_OK):                   # root reads anything: make it unreadable otherwise
        font.unlink()
    with pytest.raises(OSError):
        fonts._describe(font)


# --- nothing that runs code, nothing corrupt trusted, nothing unbounded -----------------------

def test_no_compiled_template_is_kept_between_runs(tmp_path, monkeypatch):
    """Jinja's bytecode cache held marshalled code: a tampered entry ran as pnpgen. What a run
    keeps now is JSON, PNG icons and the fontconfig set-up; an old templates-compiled/ folder is
    neither read nor written (left alone: an older pnpgen may be using it at this moment)."""
    import tempfile
    from conftest import copy_pack, run_cli
    from generator import templating
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    base = tmp_path / f"pnpgen-{os.getuid()}"
    (base / "templates-compiled").mkdir(parents=True)
    os.chmod(base, 0o700)
    (base / "templates-compiled" / "old.cache").write_bytes(b"marshalled code")
    workdir._base.cache_clear()
    try:
        assert templating.environment(copy_pack("mini", tmp_path)).bytecode_cache is templating.COMPILED   # in memory
        code, _, err = run_cli("validate", copy_pack("mini", tmp_path / "b"))
        assert code == 0, err
        assert workdir._base() == base
        assert [p.name for p in (base / "templates-compiled").iterdir()] == ["old.cache"]
        for entry in base.rglob("*"):
            if entry.is_file() and entry.parent.name not in ("fontconfig", "templates-compiled"):
                assert entry.suffix in (".json", ".png"), entry
                if entry.suffix == ".json":
                    json.loads(entry.read_text())
    finally:
        workdir._base.cache_clear()


@pytest.mark.parametrize("text", ['{"widths": {"a": 0.5}}', '["Sans"]', '[1, 2, 3]', '{"widths": [], "ascent": 1, '
                                  '"descent": 1, "cap_height": 1}', '"just a string"', '{"wid', "", "[]", "[[]]",
                                  '[["Sans", false, false, "P", "0", null]]', '[["Sans", false, false, "P", 0, {"name": 1}]]'])
def test_a_wrong_shaped_or_truncated_entry_is_made_again_not_a_traceback(private, tmp_path, text):
    font = tmp_path / "Sans.ttf"
    shutil.copy(ROOT / "fonts" / "LiberationSans-Regular.ttf", font)
    for kind, key in (("font-metrics", workdir.file_key(font, "metrics-2", "0")), ("font-faces", workdir.file_key(font, "faces-3"))):
        (private / kind).mkdir(mode=0o700, exist_ok=True)
        (private / kind / f"{key}.json").write_text(text)
    assert fonts._describe(font).family == "Liberation Sans"
    assert fonts.FontMetrics(font).widths == fonts._read_metrics(font)["widths"]


def test_a_wrong_shaped_sheet_entry_is_read_again(private, tmp_path):
    from generator import sheets_source
    import openpyxl
    book = openpyxl.Workbook()
    book.active.append(["id", "name"])
    book.active.append(["a", "Alpha"])
    book.save(tmp_path / "s.xlsx")
    first = sheets_source.read_sheet(tmp_path / "s.xlsx", None, ".xlsx")
    assert first[1] == [[1, ["id", "name"]], [2, ["a", "Alpha"]]]
    [entry] = (private / "sheets-rows").iterdir()
    for text in ('["Sheet", [["id"], 5]]', '["Sheet"]', '{"a": 1}', '["Sheet", [[1, [{"x": 1}]]]]', '["Sheet", 7]',
                 '["Sheet", [["1", ["id"]]]]', '["Sheet", [[1]]]', '["Sheet", [["id", "name"]]]'):
        entry.write_text(text)
        assert sheets_source.read_sheet(tmp_path / "s.xlsx", None, ".xlsx") == first


def test_the_folder_of_a_kind_is_bounded_the_oldest_entries_going_first(private, monkeypatch):
    monkeypatch.setattr(workdir, "MAX_BYTES", 10 << 20)
    big = "x" * (800 << 10)                       # a 400-row sheet's rows are about this size
    for n in range(40):
        workdir.remembered("sheets-rows", f"k{n:02d}", lambda: [big])
        os.utime(private / "sheets-rows" / f"k{n:02d}.json", ns=(n * 10**9, n * 10**9))
    names = sorted(p.name for p in (private / "sheets-rows").iterdir())
    size = sum(p.stat().st_size for p in (private / "sheets-rows").iterdir())
    assert size <= 10 << 20 and names[-1] == "k39.json" and "k00.json" not in names
    monkeypatch.setattr(workdir, "MAX_ENTRIES", 5)
    workdir.remembered("sheets-rows", "last", lambda: [1])
    assert len(list((private / "sheets-rows").iterdir())) == 5


def test_a_template_is_compiled_once_per_process_whatever_its_environments(tmp_path):
    """Kept in memory only (the working folder holds no code), shared by the environments a
    pack's check and renderers make: the second copy of a pack compiles nothing."""
    from conftest import copy_pack
    from generator import templating
    first = templating.environment(copy_pack("mini", tmp_path / "a"))
    first.get_template("card.svg.j2")
    second = templating.environment(copy_pack("mini", tmp_path / "b"))

    def compile_again(*args, **kwargs):
        raise AssertionError("compiled again")
    second.compile = compile_again
    assert second.get_template("card.svg.j2") is not first.get_template("card.svg.j2")   # its own Template
    (tmp_path / "b" / "mini" / "templates" / "card.svg.j2").write_text("changed {{ 1 }}")
    third = templating.environment(tmp_path / "b" / "mini")
    assert third.get_template("card.svg.j2").render() == "changed 1"       # a new source compiles anew
