"""A printer's duplex offset: the calibration page, the settings file, and backs moved by exactly
the offset while fronts stay where they were."""
from __future__ import annotations

import json
import shutil

import pymupdf
import pytest

from conftest import FIXTURES, MM, run_cli, word_centres
from generator.calibrate import behind, targets, ticks
from generator.printer import PrinterError, parse_offset, read_settings


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("shift", [(0.75, -1.25), (-2.0, 0.5), (0.0, 0.0)])
def test_the_tick_behind_the_target_reads_the_offset_to_give(flip, shift):
    """A printer that moves the back by `shift` puts the tick numbered -shift behind each
    target line: the number read is the --back-offset that undoes the shift."""
    W, H = 210.0, 297.0
    t = targets(W, H)
    scales = ticks(W, H, flip)
    line_x = behind((t.x, 0), W, H, flip)[0]
    line_y = behind((0, t.y), W, H, flip)[1]
    read_x = next(v for v, x in scales["x"] if abs(x + shift[0] - line_x) < 1e-9)
    read_y = next(v for v, y in scales["y"] if abs(y + shift[1] - line_y) < 1e-9)
    assert (read_x, read_y) == (-shift[0], -shift[1])


def test_calibration_pdf_puts_the_zero_ticks_behind_the_targets(tmp_path):
    code, stdout, stderr = run_cli("calibrate", "--out", tmp_path)
    assert code == 0, stderr
    doc = pymupdf.open(tmp_path / "calibrate" / "calibrate-a4.pdf")
    assert len(doc) == 4
    t = targets(210, 297)
    for back, flip in ((doc[1], "long"), (doc[3], "short")):
        zeros = word_centres(back, "0")
        assert any(abs(x - behind((t.x, 0), 210, 297, flip)[0]) < 0.1 for x, _ in zeros), flip
        assert any(abs(y - 0.1 - behind((0, t.y), 210, 297, flip)[1]) < 0.6 for _, y in zeros), flip
    assert "pnpgen calibrate --save NAME --duplex short --back-offset=X,Y" in doc[2].get_text()


def words(page) -> list[tuple[str, float, float]]:
    return [(w[4], w[0] / MM, w[1] / MM) for w in page.get_text("words")]


def build_mini(tmp_path, name, *options) -> pymupdf.Document:
    code, _, stderr = run_cli("build", FIXTURES / "mini", "--out", tmp_path / name, "-q", *options)
    assert code == 0, stderr
    return pymupdf.open(tmp_path / name / "mini" / "mini-sheets.pdf")


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_move_by_exactly_the_offset_and_fronts_stay(tmp_path, duplex):
    plain = build_mini(tmp_path, "plain", "--duplex", duplex)
    moved = build_mini(tmp_path, "moved", "--duplex", duplex, "--back-offset", "1.25,-0.5")
    assert len(plain) == len(moved) == 4
    for number, (a, b) in enumerate(zip(plain, moved)):
        before, after = words(a), words(b)
        assert [w[0] for w in before] == [w[0] for w in after] and before
        dx, dy = (1.25, -0.5) if number % 2 else (0.0, 0.0)         # pages 2 and 4 are the backs
        for (_, x0, y0), (_, x1, y1) in zip(before, after):
            assert (x1 - x0, y1 - y0) == pytest.approx((dx, dy), abs=0.01)


def test_saved_printer_offset_is_used_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    code, stdout, stderr = run_cli("calibrate", "--save", "office", "--back-offset=-0.75,1", "--duplex", "long")
    assert code == 0, stderr
    settings = read_settings(tmp_path / "config" / "pnpgen" / "printers.yaml")
    assert settings == {"default": "office", "printers": {"office": {"long": (-0.75, 1.0)}}}
    plain = build_mini(tmp_path, "plain", "--back-offset", "0,0")
    moved = build_mini(tmp_path, "moved")
    (_, x0, y0), (_, x1, y1) = words(plain[1])[0], words(moved[1])[0]
    assert (x1 - x0, y1 - y0) == pytest.approx((-0.75, 1.0), abs=0.01)
    assert words(plain[0]) == words(moved[0])
    code, _, stderr = run_cli("build", FIXTURES / "mini", "--out", tmp_path / "x", "--printer", "home")
    assert code == 2 and "printer 'home' has no saved offset (saved: office)" in stderr


@pytest.mark.parametrize("text, message", [("1", "write X,Y in millimetres"), ("12,0", "within ±10 mm")])
def test_bad_offsets_refused(text, message):
    with pytest.raises(PrinterError, match=message):
        parse_offset(text)


def test_broken_settings_file_named_with_its_line(tmp_path):
    path = tmp_path / "printers.yaml"
    path.write_text("printers:\n  office: {long: [1, }\n")
    with pytest.raises(PrinterError, match=r"printers.yaml:2:\d+: not readable YAML"):
        read_settings(path)
    path.write_text("default: home\nprinters:\n  office: {long: [1, 2]}\n")
    with pytest.raises(PrinterError, match="default 'home' is not one of the printers"):
        read_settings(path)


def test_boards_and_print_shop_pages_never_move(tmp_path):
    def build(name, *options):
        code, _, stderr = run_cli("build", FIXTURES / "mini", "--out", tmp_path / name, "-q", *options)
        assert code == 0, stderr
        return tmp_path / name / "mini"
    plain, moved = build("plain"), build("moved", "--back-offset", "2,2")
    for a, b in zip(pymupdf.open(plain / "mini-board.pdf"), pymupdf.open(moved / "mini-board.pdf")):
        assert words(a) == words(b)
    shop, shop_moved = build("shop", "--paper", "face"), build("shop-moved", "--paper", "face", "--back-offset", "2,2")
    assert (shop / "mini-sheets.pdf").read_bytes() == (shop_moved / "mini-sheets.pdf").read_bytes()
    files = {f["path"]: f for f in json.loads((moved / "build.json").read_text())["files"]}
    assert files["mini-sheets.pdf"]["back_offset_mm"] == [2.0, 2.0] and "back_offset_mm" not in files["mini-board.pdf"]
