"""Items read from spreadsheets (CSV, XLSX, ODS): the same cards as written in YAML, typed by the
group's fields, and every problem named by file, sheet, row and column."""
import json
import re
from pathlib import Path

import openpyxl
import pytest
from pyexcel_ods3 import save_data

from conftest import copy_pack, load_build_json, run_cli
from generator.manifest import load_pack

DECK = """groups:
  - id: cards
    kind: card
    size: poker
    template: card.svg.j2
    back_template: card-back.svg.j2
    rulebook_count: 12
    fields: {{title: text, body: text, n: int, gold: bool, weight: number, tags: list}}
    items: {items}
"""
HEADER = ["id", "title", "body", "n", "copies", "gold", "weight", "tags", "# designer's note"]
ROWS = [
    ["plain", "Plain", "A :star: card.", 1, 9, "yes", 1.5, "[a, b]", "keep"],
    [None, None, None, None, None, None, None, None, None],          # a blank row is skipped
    ["escape", "Fish & <b>", "Fish & chips", 2, 2, False, 2, None, None],
    ["seven", "Seven", "Lucky", 7, None, None, None, None, None],    # blank copies: 1
]


def write_csv(path: Path, rows) -> None:
    lines = [",".join("" if v is None else f'"{v}"' if ("," in str(v) or '"' in str(v)) else str(v)
                      for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")


def write_xlsx(path: Path, rows, sheet="Spells") -> None:
    book = openpyxl.Workbook()
    book.active.title = "Cover"
    page = book.create_sheet(sheet)
    for row in rows:
        page.append(row)
    book.save(path)


def write_ods(path: Path, rows, sheet="Spells") -> None:
    save_data(str(path), {"Cover": [["nothing here"]], sheet: [["" if v is None else v for v in r] for r in rows]})


WRITERS = {"csv": (write_csv, ""), "xlsx": (write_xlsx, ", sheet: Spells"), "ods": (write_ods, ", sheet: Spells")}


def sheet_pack(tmp_path: Path, fmt: str, rows) -> Path:
    pack = copy_pack("mini", tmp_path)
    writer, sheet = WRITERS[fmt]
    writer(pack / f"cards.{fmt}", rows)
    (pack / "cards.yaml").write_text(DECK.format(items=f"{{from: cards.{fmt}{sheet}}}"))
    return pack


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_items_from_a_spreadsheet_are_typed_by_the_fields(fmt, tmp_path):
    game = load_pack(sheet_pack(tmp_path, fmt, [HEADER] + ROWS))
    cards = next(g for g in game.groups if g.id == "cards")
    assert [(i.id, i.copies) for i in cards.items] == [("plain", 9), ("escape", 2), ("seven", 1)]
    plain, escape, seven = (i.data for i in cards.items)
    assert plain == {"title": "Plain", "body": "A :star: card.", "n": 1, "gold": True, "weight": 1.5,
                     "tags": ["a", "b"]}
    assert escape == {"title": "Fish & <b>", "body": "Fish & chips", "n": 2, "gold": False, "weight": 2}
    assert seven == {"title": "Seven", "body": "Lucky", "n": 7}          # blank cells: missing
    assert type(plain["n"]) is int and type(plain["gold"]) is bool


def test_a_deck_from_a_spreadsheet_builds_like_the_same_deck_in_yaml(tmp_path):
    """The faces printed from an XLSX sheet are byte for byte those of the YAML list."""
    from_sheet = sheet_pack(tmp_path / "a", "xlsx", [HEADER[:5]] + [r[:5] for r in ROWS])
    in_yaml = copy_pack("mini", tmp_path / "b")
    items = [{"id": r[0], "title": r[1], "body": r[2], "n": r[3], **({"copies": r[4]} if r[4] else {})}
             for r in ROWS if r[0]]
    (in_yaml / "cards.yaml").write_text(DECK.format(items=json.dumps(items)))
    outs = []
    for pack, out in ((from_sheet, tmp_path / "oa"), (in_yaml, tmp_path / "ob")):
        code, _, err = run_cli("build", pack, "--out", out, "-q")
        assert code == 0, err
        outs.append(out / "mini")
    assert (outs[0] / "mini-sheets.pdf").read_bytes() == (outs[1] / "mini-sheets.pdf").read_bytes()
    assert load_build_json(outs[0])["items"] == load_build_json(outs[1])["items"]


def problems(pack: Path) -> list[str]:
    code, out, err = run_cli("validate", ".", cwd=pack)      # paths shown relative to the pack
    assert code == 1 and "Traceback" not in out + err, err
    return err.strip().splitlines()


def test_a_cell_of_the_wrong_type_is_named_by_file_sheet_row_and_column(tmp_path):
    rows = [HEADER] + ROWS
    rows[3] = ["escape", "Fish", "Fish & chips", "three", 2, "maybe", "2,5", "[a, b", None]
    found = problems(sheet_pack(tmp_path, "xlsx", rows))
    assert found[:3] == [
        "cards.xlsx, sheet Spells, row 4, column n: 'three' is not a whole number; write a whole number such as 3",
        "cards.xlsx, sheet Spells, row 4, column gold: 'maybe' is not yes or no; write yes or no (true/false, or tick the box)",
        "cards.xlsx, sheet Spells, row 4, column weight: '2,5' is not a number; write a number such as 2.5 (a point, not a comma)",
    ]
    # the YAML parser's own words (libyaml's and PyYAML's differ) between the value and the hint
    assert re.fullmatch(r"cards\.xlsx, sheet Spells, row 4, column tags: '\[a, b' is not a list or table \(.*expected ',' or "
                        r"'\]'.*\); write a list as \[a, b, c\] and a table as \{key: value, key: value\}", found[3]), found
    assert len(found) == 4


@pytest.mark.parametrize("fmt", ["csv", "ods"])
def test_csv_and_ods_cells_are_located_alike(fmt, tmp_path):
    rows = [HEADER[:5]] + [r[:5] for r in ROWS]
    rows[1] = ["plain", "Plain", "x", 1, "nine"]
    where = "cards.csv:2:1: column copies" if fmt == "csv" else "cards.ods, sheet Spells, row 2, column copies"
    assert problems(sheet_pack(tmp_path, fmt, rows)) == [
        f"{where}: 'nine' is not a whole number; write a whole number such as 3"]


def test_a_cell_checked_after_reading_is_named_once_in_the_sheets_terms(tmp_path):
    """A cell refused by the field's own check (a bound, a colour, a picture) is named by file,
    line and column once; no YAML key path (items[7].copies) repeats the place."""
    pack = csv_pack(tmp_path, "id,copies,title,hue,art\n"
                              "ok,1,A,#102030,\n"
                              "many,100001,B,#102030,\n"
                              "pale,1,C,red,\n"
                              "lost,1,D,#102030,art/nope.png\n",
                    fields="{title: text, hue: color, art: image}")
    found = problems(pack)
    assert sorted(found) == [
        "cards.csv:3:1: column copies: the cell is 100001, above the largest allowed 100000; use at most 100000",
        "cards.csv:4:1: column hue: 'red' is not a colour written #rrggbb; write e.g. #c0392b",
        "cards.csv:5:1: column art: image 'art/nope.png' not found in the game pack; "
        "put the file in the pack folder and give its path from there, e.g. 'art/goblin.jpg'"], found


BAD_SHEETS = {
    "unknown column": ([["id", "titel"], ["a", "A"]], "", "cards.xlsx, sheet Spells, row 1, column titel: 'titel' is not a field of this group; did you mean 'title'?"),
    "no id column": ([["title"], ["A"]], "", "cards.xlsx, sheet Spells, row 1: the header row has no 'id' column"),
    "row without id": ([["id", "title"], [None, "A"]], "", "cards.xlsx, sheet Spells, row 2, column id: this row has no id"),
    "bad id": ([["id", "title"], ["Big Card", "A"]], "", "cards.xlsx, sheet Spells, row 2, column id: the cell 'Big Card' is not allowed here"),
    "empty sheet": ([["id", "title"]], "", "cards.xlsx, sheet Spells, row 2: the sheet has no items below its header row"),
    "twice": ([["id", "title", "title"], ["a", "A", "B"]], "", "cards.xlsx, sheet Spells, row 1, column title: column 'title' appears twice"),
    "formula": ([["id", "title", "n"], ["a", "A", "=1+2"]], "", "cards.xlsx, sheet Spells, row 2, column n: the formula =1+2 has no saved result"),
    "wrong sheet": ([["id"], ["a"]], "Spels", "cards.yaml:8:19: items from cards.xlsx: no sheet named 'Spels'; did you mean 'Spells'?"),
}


@pytest.mark.parametrize("case", sorted(BAD_SHEETS))
def test_a_broken_sheet_is_reported_where_it_is_broken(case, tmp_path):
    rows, sheet, expected = BAD_SHEETS[case]
    pack = copy_pack("mini", tmp_path)
    write_xlsx(pack / "cards.xlsx", rows)
    (pack / "cards.yaml").write_text(DECK.replace("    rulebook_count: 12\n", "").format(
        items=f"{{from: cards.xlsx, sheet: {sheet or 'Spells'}}}"))
    found = problems(pack)
    assert len(found) == 1 and found[0].startswith(expected), found


@pytest.mark.parametrize("source, expected", [
    ("{from: missing.csv}", "cards.yaml:8:19: items: file 'missing.csv' not found"),
    ("{from: ../outside.csv}", "cards.yaml:8:19: items: '../outside.csv' points outside the game pack"),
    ("{from: card.svg.j2}", "cards.yaml:8:19: items: card.svg.j2 is not a spreadsheet"),
    ("{from: cards.csv, sheet: One}", "cards.yaml:8:19: items from cards.csv: a CSV file has no sheets"),
    ("{form: cards.csv}", "cards.yaml:8:13: unknown key 'form' in groups[1].items; did you mean 'from'?"),
])
def test_a_bad_items_source_is_reported_at_its_line(source, expected, tmp_path):
    pack = copy_pack("mini", tmp_path)
    (tmp_path / "outside.csv").write_text("id\na\n")
    (pack / "card.svg.j2").write_text("x")
    write_csv(pack / "cards.csv", [["id"], ["a"]])
    (pack / "cards.yaml").write_text(DECK.replace("    rulebook_count: 12\n", "").format(items=source))
    assert any(p.startswith(expected) for p in problems(pack)), problems(pack)


def test_a_csv_exported_with_semicolons_and_references(tmp_path):
    """Excel in many countries writes ';' between cells; a cell may hold a =data reference."""
    pack = copy_pack("mini", tmp_path)
    (pack / "cards.csv").write_text("id;title;body;n;copies\nplain;Plain, really;Body;=data.ten;12\n")
    game_yaml = pack / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "data: {ten: 10}\n")
    (pack / "cards.yaml").write_text(DECK.format(items="{from: cards.csv}"))
    cards = next(g for g in load_pack(pack).groups if g.id == "cards")
    assert [(i.id, i.copies, i.data["title"], i.data["n"]) for i in cards.items] == [("plain", 12, "Plain, really", 10)]


def test_dragon_towers_keeps_its_missions_in_a_spreadsheet():
    root = Path(__file__).resolve().parent.parent / "components" / "dragon-towers"
    assert "from: missions.xlsx" in (root / "cards.yaml").read_text()
    missions = next(g for g in load_pack(root).groups if g.id == "missions")
    assert [i.id for i in missions.items] == ["settler", "mana-lord", "warlord", "skyborne", "hunter",
                                              "explorer", "treasurer", "pioneer"]
    assert all(i.copies == 1 and i.data["renown"] == 1 and i.data["condition"].endswith(".")
               for i in missions.items)


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_spreadsheet_read_before_is_not_read_again_until_it_changes(suffix, tmp_path, monkeypatch):
    from generator import sheets_source, workdir
    path = tmp_path / f"cards{suffix}"

    def save(rows):
        if suffix == ".ods":
            save_data(str(path), {"Cards": rows})
        else:
            book = openpyxl.Workbook()
            book.active.title = "Cards"
            for row in rows:
                book.active.append(row)
            book.save(path)
    reads = []
    real = sheets_source.READERS[suffix]
    monkeypatch.setitem(sheets_source.READERS, suffix, lambda p, s: reads.append(p) or real(p, s))
    rows = [["id", "cost"], [f"card-{tmp_path.name}", 3]]       # bytes no earlier run has seen
    save(rows)
    first = sheets_source.read_sheet(path, "Cards", suffix)
    assert sheets_source.read_sheet(path, "Cards", suffix) == first == ("Cards", [[1, rows[0]], [2, rows[1]]])
    assert len(reads) == 1
    save(rows[:1] + [[f"card-{tmp_path.name}", 4]])
    assert sheets_source.read_sheet(path, "Cards", suffix)[1][1] == [2, rows[1][:1] + [4]] and len(reads) == 2
    for entry in workdir.private_dir("sheets-rows").iterdir():   # a broken entry is read past
        entry.write_text("{not json")
    assert sheets_source.read_sheet(path, "Cards", suffix)[1][1] == [2, rows[1][:1] + [4]] and len(reads) == 3


# --- nothing silent: a row read as the designer wrote it, or refused where it is -----------------

def csv_pack(tmp_path: Path, text: str, fields: str = "{title: text, body: text, n: int}") -> Path:
    pack = copy_pack("mini", tmp_path)
    (pack / "cards.csv").write_bytes(text.encode())
    (pack / "cards.yaml").write_text(DECK.replace("    rulebook_count: 12\n", "").format(items="{from: cards.csv}")
                                     .replace("{title: text, body: text, n: int, gold: bool, weight: number, tags: list}", fields))
    return pack


def test_a_csv_row_with_a_cell_too_many_or_too_few_is_refused_not_shifted(tmp_path):
    """An unquoted comma splits a text in two and moves every later cell one column on; a lost
    cell moves them back. Neither row is read; each is named with its counts."""
    pack = csv_pack(tmp_path, "id,title,body,copies\n"
                              "ok,Fine,Body,2\n"
                              "fish,Fish, chips,Body,3\n"
                              "short,Short,4\n")
    assert problems(pack) == [
        "cards.csv:3:1: this row has 5 cells but the header row has 4; "
        "put quotes around text that holds a comma (\"Fish, chips\")",
        "cards.csv:4:1: this row has 3 cells but the header row has 4; "
        "add the missing cells (empty ones too: a,,c), and put quotes around text that holds a comma"]


def test_a_misfit_csv_row_is_named_by_the_line_it_starts_on_past_quoted_line_breaks(tmp_path):
    """Rows 2 and 3 hold quoted cells of three and two lines, blank lines sit between rows, and
    the file ends its lines the Windows way: the short row 5 starts on line 10, as an editor
    numbers it, the long row 6 on line 11."""
    pack = csv_pack(tmp_path, "id,title,body,copies\r\n"
                              "a,A,\"one\r\ntwo\r\nthree\",1\r\n"
                              "b,B,\"four\r\nfive\",1\r\n"
                              "\r\n"
                              "c,C,Body,1\r\n"
                              "\r\n"
                              "short,Short,4\r\n"
                              "long,Long,Body,1,9\r\n")
    found = problems(pack)
    assert [line.split(": this row")[0] for line in found] == ["cards.csv:10:1", "cards.csv:11:1"]
    assert found[0].startswith("cards.csv:10:1: this row has 3 cells but the header row has 4; add the missing cells")


def test_a_bad_csv_cell_is_named_by_the_line_its_row_starts_on_like_a_misfit_row(tmp_path):
    """A text editor's line, not the count of rows: after a quoted cell of three lines the bad
    cell's row (the fourth) starts on line 6, and so does a template's mistake on that item."""
    pack = csv_pack(tmp_path, "id,title,body,n\n"
                              "a,A,\"one\ntwo\nthree\",1\n"
                              "b,B,Body,2\n"
                              "c,C,Body,three\n")
    assert problems(pack) == ["cards.csv:6:1: column n: 'three' is not a whole number; write a whole number such as 3"]
    (pack / "cards.csv").write_text("id,title,body,n\na,A,\"one\ntwo\nthree\",1\nb,B,Body,2\nc,C,Body,3\n")
    items = next(g for g in load_pack(pack).groups if g.id == "cards").items
    assert [str(i.mark).rsplit("/", 1)[-1] for i in items] == ["cards.csv:2:1", "cards.csv:5:1", "cards.csv:6:1"]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_csv_saved_as_windows_1252_is_named_at_its_first_accented_letter(tmp_path, newline):
    """Excel's plain 'CSV' on Windows is Windows-1252: the problem is told at the byte that is not
    UTF-8 (line 4, past a quoted line break; column 4), not at the items: line of the YAML."""
    text = newline.join(["id,title,body,n", 'a,"A' + newline + 'a",Body,1', "b,Bé,Body,2", ""])
    pack = csv_pack(tmp_path, "")
    (pack / "cards.csv").write_bytes(text.encode("cp1252"))
    assert problems(pack) == ["cards.csv:4:4: not UTF-8 text (byte 0xe9 here); "
                              "save it as 'CSV UTF-8' (or export it as UTF-8) from your spreadsheet program"]


def test_a_csv_cell_over_the_csv_modules_limit_is_named_by_its_line(tmp_path):
    """A cell longer than the csv module reads (131,072 characters) stops the reading at the
    line its row starts on, past a quoted line break in the row before."""
    pack = csv_pack(tmp_path, "id,title,body,copies\n"
                              "a,A,\"one\ntwo\",1\n"
                              "b,B," + "x" * 140_000 + ",1\n")
    assert problems(pack) == ["cards.csv:4:1: not a valid CSV file (field larger than field limit (131072)); "
                              "save it again from your spreadsheet program"]


def test_csv_cells_keep_quoted_line_breaks_and_unicode_separators(tmp_path):
    """Read by the csv module's rules: a quoted line break is part of its cell, and U+2028,
    vertical tab, form feed, NEL and RS are characters of a cell, not ends of rows."""
    odd = ["\u2028", "\x0b", "\x0c", "\x85", "\x1e", "\x1c", "\u2029"]
    lines = ['id,title,body', 'quoted,"line one\nline two","a\r\nb"']
    lines += [f"odd{i},a{ch}b,x" for i, ch in enumerate(odd)]
    pack = csv_pack(tmp_path, "\r\n".join(lines) + "\r\n")
    cards = next(g for g in load_pack(pack).groups if g.id == "cards")
    assert [i.id for i in cards.items] == ["quoted"] + [f"odd{i}" for i in range(len(odd))]
    assert cards.items[0].data == {"title": "line one\nline two", "body": "a\r\nb"}
    assert [i.data["title"] for i in cards.items[1:]] == [f"a{ch}b" for ch in odd]


def test_an_ods_row_is_named_by_its_number_after_repeated_blank_rows(tmp_path):
    """A saved ODS writes empty rows as one row repeated: the bad cell below them is
    in row 44, as the spreadsheet program shows it."""
    from sheetfiles import ods_bytes, ods_row, ods_table
    pack = copy_pack("mini", tmp_path)
    rows = (ods_row(["id", "title", "n"]) + ods_row(["a", "A", 1]) + ods_row([None, None, None], 2)
            + ods_row(["b", "B", 2]) + ods_row([None, None, None], 38) + ods_row(["c", "C", "three"])
            + ods_row([None, None, None], 1_048_000))
    (pack / "cards.ods").write_bytes(ods_bytes(ods_table("Cover", ods_row(["x"])) + ods_table("Spells", rows)))
    (pack / "cards.yaml").write_text(DECK.replace("    rulebook_count: 12\n", "").format(items="{from: cards.ods, sheet: Spells}"))
    assert problems(pack) == [
        "cards.ods, sheet Spells, row 44, column n: 'three' is not a whole number; write a whole number such as 3"]


def test_rows_past_the_limit_are_refused_not_dropped(tmp_path):
    from generator.sheets_read import MAX_ROWS
    body = "".join(f"c{i},C\n" for i in range(MAX_ROWS)) + "\n\nlast,Last\n"
    pack = csv_pack(tmp_path, "id,title\n" + body, fields="{title: text}")
    assert problems(pack) == [
        f"cards.csv:{MAX_ROWS + 4}:1: the sheet has more than 100,000 item rows below its header, the limit; "
        "this row is past it; split the items into two files or sheets, each read by its own group"]


def test_rows_up_to_the_limit_and_blank_rows_after_it_are_read(tmp_path):
    from generator.sheets_read import MAX_ROWS, read_csv
    path = tmp_path / "cards.csv"
    path.write_text("id\n" + "".join(f"c{i}\n" for i in range(MAX_ROWS)) + ",\n" * 5)
    _, rows = read_csv(path, None)
    assert len(rows) == MAX_ROWS + 1 and rows[-1] == [MAX_ROWS + 1, [f"c{MAX_ROWS - 1}"]]


def test_an_xlsx_whose_dimension_claims_a_million_rows_is_read_by_its_cells(tmp_path):
    """The sheet says A1:XFD1048576 and has an empty cell in its last row: read as claimed, that
    is a million rows of 16,384 cells; read by its cells, two items."""
    from sheetfiles import xlsx_bytes

    def claim(name, data):
        if "sheet1" not in name:
            return data
        data = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', data)
        return data.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"/></row></sheetData>')
    pack = copy_pack("mini", tmp_path)
    (pack / "cards.xlsx").write_bytes(xlsx_bytes([["id", "title"], ["a", "A"], ["b", "B"]], claim))
    (pack / "cards.yaml").write_text(DECK.replace("    rulebook_count: 12\n", "").format(items="{from: cards.xlsx, sheet: Spells}"))
    cards = next(g for g in load_pack(pack).groups if g.id == "cards")
    assert [(i.id, i.data) for i in cards.items] == [("a", {"title": "A"}), ("b", {"title": "B"})]


# --- a heading added without cells below it ----------------------------------------------------

def test_a_note_heading_added_without_cells_is_an_empty_column(tmp_path):
    """`#notes` added to the header only: no row reaches it, so every row is read as written
    (the note empty), and a row short of the others is still refused, counted without it."""
    pack = csv_pack(tmp_path, "id,title,body,n,#notes,\n"
                              "a,A,Body,1\n"
                              "b,B,Body,2\n")
    items = next(g for g in load_pack(pack).groups if g.id == "cards").items
    assert [(i.id, i.data) for i in items] == [("a", {"title": "A", "body": "Body", "n": 1}),
                                              ("b", {"title": "B", "body": "Body", "n": 2})]
    (pack / "cards.csv").write_text("id,title,body,n,#notes\na,A,Body,1\nb,B,2\n")
    assert problems(pack) == [
        "cards.csv:3:1: this row has 3 cells but the header row has 4 (not counting the 1 at its end no row "
        "reaches); add the missing cells (empty ones too: a,,c), and put quotes around text that holds a comma"]


def test_a_field_heading_added_without_cells_is_said_once_at_the_heading(tmp_path):
    rows = "".join(f"c{k},Card {k},Body,{k}\n" for k in range(300))
    pack = csv_pack(tmp_path, "id,title,body,n,flavour\n" + rows,
                    fields="{title: text, body: text, n: int, flavour: text}")
    assert problems(pack) == [
        "cards.csv:1:1: column flavour: no row has a cell under this heading: the header has 5 cells, "
        "the 300 rows (lines 2-301) at most 4; add the column's cell to each row (an empty one too: a,b,), "
        "or start the heading with # to keep it as a note"]
