"""A quote left open in a manifest is named where it opens, not where YAML gives up reading."""
from __future__ import annotations

import pytest

from conftest import run_cli
from generator import yamlsrc
from generator.errors import Reporter

GAME = ("id: x\n"
        "title: {q}X\n"
        "subtitle: A prototype          # printed under the 'title'\n"
        "players: {{min: 2, max: 4}}\n"
        "player_colors:\n"
        "  - {{id: red, name: Red, color: \"#b03a2e\"}}\n"
        "  - {{id: blue, name: Blue, color: '#1f618d'}}\n"
        "notes: [\"one\", 'two']\n")


def problems(text: str) -> list[str]:
    reporter = Reporter()
    assert yamlsrc.load_text(text, "game.yaml", reporter) is None
    return [str(p) for p in reporter.problems]


@pytest.mark.parametrize("quote, gave_up, inside", [('"', "7:3", '\\"'), ("'", "3:53", "twice ('')")])
def test_an_unclosed_quote_is_named_where_it_opens(quote, gave_up, inside):
    found = problems(GAME.format(q=quote))
    assert found == [f"game.yaml:2:8: YAML syntax: the quote {quote} opened here is not closed on its line, "
                     f"so YAML read on as one text and gave up at {gave_up}; "
                     f"close it on this line (a {quote} inside the text is written {inside})"], found


def test_an_unclosed_quote_at_the_end_of_the_file_is_named_where_it_opens():
    assert problems("id: x\ntitle: \"X\n") == [
        "game.yaml:2:8: YAML syntax: the quote \" opened here is not closed on its line, so YAML read on "
        "as one text and gave up at the end of the file; close it on this line (a \" inside the text is written \\\")"]


def test_a_text_in_quotes_over_lines_on_purpose_is_not_blamed_for_an_error_below_it():
    found = problems("title: \"a long\n  title\"\nid: x\nnotes: [\n")
    assert len(found) == 1 and found[0].startswith("game.yaml:5:1: YAML syntax: ") and "opened here" not in found[0], found


def test_validate_names_the_quote_in_a_starter_pack(tmp_path):
    code, _, _ = run_cli("new", tmp_path / "x")
    assert code == 0
    game = tmp_path / "x" / "game.yaml"
    lines = game.read_text().splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if line.startswith("title:"))
    lines[number] = 'title: "X\n'
    game.write_text("".join(lines))
    code, out, err = run_cli("validate", ".", cwd=tmp_path / "x")
    assert code == 1 and "Traceback" not in out + err
    assert err.startswith(f"game.yaml:{number + 1}:8: YAML syntax: the quote \" opened here is not closed"), err


def test_an_unclosed_quote_at_the_end_of_a_file_without_a_last_newline():
    assert problems("id: x\ntitle: 'X")[0].startswith(
        "game.yaml:2:8: YAML syntax: the quote ' opened here is not closed on its line, so YAML read on as one "
        "text and gave up at the end of the file;")


def test_a_bad_escape_inside_closed_quotes_is_not_called_unclosed():
    found = problems('id: x\ntitle: "C:\\q"\n')
    assert len(found) == 1 and "escape" in found[0] and "not closed" not in found[0], found


def test_a_spreadsheet_cell_with_an_unclosed_quote_says_so_in_a_cells_words():
    from generator.sheets_source import CellError, _yaml_value
    with pytest.raises(CellError) as told:
        _yaml_value("[a, 'b]")
    assert str(told.value) == "\"[a, 'b]\" is not a list or table (the quote ' is not closed)"
