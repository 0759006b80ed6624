"""A text block is laid out once per renderer for the same text in the same box (templating.py
text_box), and what laying it out says is said on every face it is on; the cheap paths of the
text stage give what the long ones gave."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from generator import glyphs, templating, textfit
from generator.facedoc import RunTable
from generator.manifest import load_pack

MINI = ROOT / "tests" / "fixtures" / "mini"
LONG = "A rule far too long for its little box, so it is set small " * 3


@pytest.fixture
def helpers(monkeypatch):
    """Helpers of the mini pack keeping runs as a renderer does, counting every fit()."""
    made = templating.Helpers(load_pack(MINI))
    made.runs = RunTable()
    made.fits = []

    def counted(*args, **kwargs):
        made.fits.append(args[0])
        return textfit.fit(*args, **kwargs)
    monkeypatch.setattr(templating, "fit", counted)
    return made


def on_face(helpers, name, *args, **kwargs):
    """text_box on a face of its own: (its markup, the runs it left in the face's table)."""
    helpers.face = name
    helpers.runs.clear()
    markup = helpers.text_box(*args, **kwargs)
    return str(markup), [(r.x, r.y, r.text, r.style) for r in helpers.runs.runs]


def test_the_same_block_is_laid_out_once_and_drawn_alike(helpers):
    first = on_face(helpers, "face A", "Gain two wood.", 5, 20, 50, 20)
    second = on_face(helpers, "face B", "Gain two wood.", 5, 20, 50, 20)
    assert second == first and first[1]
    assert helpers.fits == ["Gain two wood."]
    other = on_face(helpers, "face C", "Gain two wood.", 5, 20, 30, 20)       # another box: laid out again
    assert helpers.fits == ["Gain two wood."] * 2
    assert other[1][0][:3] == first[1][0][:3]        # (left-aligned at the same place either way)


def test_what_a_block_says_is_said_on_every_face_it_is_on(helpers):
    for name in ("face A", "face B", "face C"):
        on_face(helpers, name, LONG, 5, 20, 30, 12, size=9, min_size=4)
    assert len(helpers.fits) == 1
    assert len(helpers.shrunk) == 3 and len(set(helpers.shrunk)) == 1
    below = [w for w in helpers.warnings if "below the 6 pt" in w]
    assert len(below) == 1 and below[0].startswith("face A: ") and below[0].endswith("(the same on 2 more faces)")
    assert helpers.said.count(helpers.said[0]) == 3


def test_a_block_that_cannot_be_set_is_refused_every_time(helpers):
    for _ in range(2):
        with pytest.raises(textfit.TextFitError, match="does not fit its 10 x 3 mm box"):
            on_face(helpers, "face A", LONG, 5, 20, 10, 3, size=9, min_size=8)
    assert len(helpers.fits) == 2
    helpers.lenient = True
    for name in ("face A", "face B"):
        on_face(helpers, name, LONG, 5, 20, 10, 3, size=9, min_size=8)
    cut = [w for w in helpers.warnings if "does not fit" in w]
    assert len(cut) == 1 and cut[0].endswith("(the same on 1 more faces)")


def test_the_blocks_kept_are_bounded(helpers, monkeypatch):
    monkeypatch.setattr(templating, "MAX_BLOCKS", 2)
    for word in ("one", "two", "three", "one"):
        on_face(helpers, "face A", word, 5, 20, 30, 10)
    assert len(helpers._blocks) <= 2
    assert helpers.fits == ["one", "two", "three", "one"]      # 'one' was dropped with the others


def test_an_unhashable_argument_is_laid_out_and_refused_as_before(helpers):
    with pytest.raises(TypeError):
        on_face(helpers, "face A", "Text", 5, 20, 30, 10, color=["#000000"])
    assert not helpers._blocks


def test_plain_lines_and_icon_lines_are_placed_as_the_long_way_places_them(helpers):
    style = helpers.style("body", None)
    text = "Gain two\u00adwood and one ore :star: then draw a card, then pass the dice on."
    fitted = textfit.fit(text, 30, 40, 9, 6, style, helpers.game.icons)
    lines = fitted[1]
    assert any(textfit._plain_run(line) for line in lines) and not all(textfit._plain_run(line) for line in lines)
    size = fitted[0]
    parts = textfit.block_parts(lines, 5, 20, 30, 40, size, style, helpers.game.icons, "center", "top", 1.2,
                                helpers._run_style(style, size))[0]
    pieces = [piece for part in parts for piece in        # (an icon: where its transform puts it)
              ([("text", run.x, run.y, run.text) for run in part] if type(part) is tuple else [("icon", part.transform)])]
    space = style.metrics.width(" ", size)
    expected, baseline = [], 20 + style.metrics.ascent * size
    for line in lines:     # every line through _segments: what block_parts gave before its plain path
        line_w = sum(w for _, w in line) * size + space * max(0, len(line) - 1)
        for kind, value, left, _ in textfit._segments(line, 5 + (30 - line_w) / 2, size, space, style.metrics):
            expected.append(("text", left, baseline, value) if kind == "text" else
                            ("icon", textfit._icon_markup(helpers.game.icons[value], left, baseline, size, style).transform))
        baseline += size * 1.2
    assert pieces == expected


def test_glyph_check_in_one_step_says_what_the_long_check_says():
    covered = {c: 0.5 for c in "abcdefghij "}
    assert glyphs.problem("abc\ndef\tghi\u00ad", covered) == ""         # blanks need no glyph
    assert "'é'" in glyphs.problem("abc\né", covered)
    assert glyphs.problem("abc", frozenset("abc")) == "" and "'d'" in glyphs.problem("abcd", frozenset("abc"))


def test_a_build_loads_without_what_only_some_builds_need():
    """Start-up: what a card pack's build does not use before drawing is not imported
    (git revisions, tar files, board tiling, tuck boxes, subprocesses, tracebacks)."""
    code = ("import sys; from pathlib import Path; import generator.cli, generator.build; "
            "from generator.manifest import load_pack; load_pack(Path(sys.argv[1])); "
            "print(' '.join(m for m in ('tarfile', 'subprocess', 'ctypes.util', 'traceback', "
            "'generator.changes_git', 'generator.tiling', 'generator.tuckbox') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code, str(MINI)], capture_output=True, text=True, check=True,
                            cwd=ROOT, timeout=120).stdout.split()
    assert loaded == []


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1e308, 10**20, True, "5"])
def test_a_helper_refuses_a_number_that_is_no_length(helpers, value):
    """The fast path of the helpers' argument check (a plain int or float in range) lets no
    other value through."""
    with pytest.raises(ValueError, match=r"text_line\(\): x=.* is not a length within"):
        helpers.text_line("Gain", value, 12, 40)
    assert str(helpers.text_line("Gain", 5, 12.5, 40)).startswith("<pnpgen-run ")


@pytest.mark.parametrize("text", ["Gain \x07 wood", "Gain\rwood", "Gain\x7fwood", "Gain\u00e9 wood"])
def test_text_outside_printable_ascii_still_gets_the_whole_glyph_check(helpers, text):
    """fit() skips the glyph check only for printable ASCII (and newlines) in a font that has all
    of it: a control character or any other goes through glyphs.problem, as before."""
    style = helpers.style("body", None)
    assert style.metrics.covers_ascii
    expected = glyphs.problem(text, style.metrics.widths, shaped=True)
    if expected:
        with pytest.raises(textfit.TextFitError, match="has no glyph"):
            textfit.fit(text, 40, 20, 9, 6, style, {})
    else:
        assert textfit.fit(text, 40, 20, 9, 6, style, {})


def test_a_font_missing_an_ascii_letter_is_checked_the_long_way(helpers):
    real = helpers.style("body", None)
    metrics = textfit.FontMetrics.__new__(textfit.FontMetrics)
    metrics.__dict__.update(real.metrics.__dict__, _word_cache={},
                            widths={c: w for c, w in real.metrics.widths.items() if c != "q"})
    metrics.covers_ascii = all(chr(code) in metrics.widths for code in range(0x20, 0x7F))
    style = textfit.Style(real.family, False, False, metrics, "#000000")
    assert not metrics.covers_ascii
    with pytest.raises(textfit.TextFitError, match="has no glyph for 'q'"):
        textfit.fit("quick", 40, 20, 9, 6, style, {})


def test_plain_paragraphs_wrap_where_the_queue_wraps_them(helpers):
    """_wrap_plain (paragraphs without a soft hyphen) breaks where layout_lines' general loop
    breaks, at every width from too narrow to wide, icons included."""
    style = helpers.style("body", None)
    text = "Gain two wood and one ore :star: then draw a card,\n\nthen pass the dice on. Unbreakable"
    measured = textfit.measure(text, style, helpers.game.icons)
    assert all(type(p) is textfit._Plain for p in measured)
    general = [list(p) for p in measured]       # plain lists: the queue's path
    for tenth in range(20, 600, 7):
        width, size = tenth / 10, 3.0
        assert textfit.layout_lines(measured, width, size, style, helpers.game.icons) == \
            textfit.layout_lines(general, width, size, style, helpers.game.icons)


def test_a_faces_svg_is_its_markup_with_each_block_written(helpers):
    """RunTable.face joins the document's markup split at its placeholders with the blocks' SVG:
    the text written() gives by replacing each placeholder, the same on every face of the document."""
    import xml.etree.ElementTree as ET
    from generator.facedoc import Document
    table = helpers.runs
    for title, escaped in (("One & <two>", "One &amp; &lt;two&gt;"), ("Three 'four'", "Three &#x27;four&#x27;")):
        table.clear()
        first = str(helpers.text_box(title, 5, 5, 40, 10))
        second = str(helpers.text_line("Kind", 5, 30, 40))
        markup = f'<svg xmlns="http://www.w3.org/2000/svg">{first}<g>{second}</g>{first}</svg>'
        doc = Document(markup, ET.fromstring(markup), table.nonce)
        face = table.face(doc)
        assert str(face) == table.written(markup)
        assert face.count(f">{escaped}</text>") == 2 and face.count("<text ") == 3 and "pnpgen-run" not in face


def test_the_helpers_argument_check_names_the_first_bad_argument_in_order(helpers):
    with pytest.raises(ValueError, match=r"text_box\(\): y=nan"):
        helpers.text_box("Gain", 5, float("nan"), 40, 10, min_size=float("inf"), size=float("nan"))
    with pytest.raises(ValueError, match=r"text_box\(\): size=nan"):
        helpers.text_box("Gain", 5, 5, 40, 10, min_size=float("inf"), size=float("nan"))
    with pytest.raises(TypeError):         # given twice: Python says so, as before
        helpers.text_box("Gain", 5, 5, 40, 10, 9, size=9)


def test_text_line_at_the_edge_of_the_range_is_refused_as_text_box_refuses_it(helpers):
    """text_line checks its own arguments; the box it asks for (its top above the baseline, its
    height from the size) out of range is still refused by text_box's check."""
    with pytest.raises(ValueError, match=r"text_box\(\): h=.* is not a length within"):
        helpers.text_line("Gain", 5, 12, 40, size=5000)
    with pytest.raises(ValueError, match=r"text_box\(\): h=-.* is not a length within"):
        helpers.text_line("Gain", 5, 12, 40, size=-5000, min_size=-6000)
    with pytest.raises(ValueError, match=r"text_box\(\): y=.* is not a length within"):
        helpers.text_line("Gain", 5, -9999.9, 40, size=9)


@pytest.mark.parametrize("value", [float("nan"), -float("inf"), 1e308, True, "5"])
def test_every_helper_refuses_a_number_that_is_no_length_by_position_or_keyword(helpers, value):
    """text_box and text_line check their lengths in their own body, icon() through physical();
    each names itself and the argument, given by position or by keyword."""
    icon = next(iter(helpers.game.icons))
    calls = [("text_box", "w", lambda: helpers.text_box("Gain", 5, 5, value, 10)),
             ("text_box", "line_height", lambda: helpers.text_box("Gain", 5, 5, 40, 10, line_height=value)),
             ("text_box", "max_lines", lambda: helpers.text_box("Gain", 5, 5, 40, 10, max_lines=value)),
             ("text_line", "min_size", lambda: helpers.text_line("Gain", 5, 12, 40, 9, value)),
             ("text_line", "w", lambda: helpers.text_line("Gain", 5, 12, w=value)),
             ("icon", "size", lambda: helpers.icon(icon, 5, 5, value)),
             ("icon", "y", lambda: helpers.icon(icon, 5, y=value, size=4))]
    for name, argument, call in calls:
        with pytest.raises(ValueError, match=rf"^{name}\(\): {argument}=.* is not a length within"):
            call()
    assert helpers.text_box("Gain", 5, 5, 40, 10, max_lines=None, line_height=1) and helpers.icon(icon, 5, 5, 4)


def test_a_remembered_intact_answer_is_the_full_checks_for_that_output_and_block_count():
    """RunTable.intact remembers its answer per output and number of blocks: asked again, and
    for every output a template may make of its placeholders, it says what the whole check says."""
    from generator import facedoc
    table = facedoc.RunTable()
    mark = table.placeholder_start
    outputs = [f'<g>{mark}0"/>{mark}1"/></g>', f'<g>{mark}0"/>{mark}1"/>{mark}1"/></g>',
               f'<g>{mark}0"/>{mark}2"/></g>', f'<g>{mark}00"/></g>', f'<G>{mark.upper()}0"/></G>',
               f'<g>{mark}0"/>{mark}1</g>', '<g>no placeholder</g>', f'<g>{mark}0"/>Pnpgen</g>']
    answers = {}
    for blocks in range(1, 4):
        table.clear()
        for _ in range(blocks):
            table.placeholder(((),))
        for output in outputs * 2:      # the second time remembered
            assert table.intact(output) == table._intact(output)
            answers[output, blocks] = table.intact(output)
    assert answers[outputs[0], 2] and not answers[outputs[0], 1] and not answers[outputs[1], 2]
    assert answers[outputs[2], 3] and not answers[outputs[2], 2] and answers[outputs[6], 1]
    assert not any(answers[output, 3] for output in outputs[3:6] + outputs[7:])
