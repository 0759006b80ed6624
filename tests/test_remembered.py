"""Values remembered between runs in pnpgen's private folder (workdir.remembered): font faces
and metrics, spreadsheet rows. What comes back is what reading the file gives; a changed,
unreadable or tampered file is never hidden by what was remembered."""
from __future__ import annotations

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
