"""A spreadsheet (CSV, XLSX, ODS) -> a group's items, each cell typed by the group's fields.

A group written `items: {from: cards.xlsx, sheet: Spells}` takes its items from a sheet: the
first row names the columns (`id`, `copies` and the group's fields; a column headed `#...` is a
note and skipped), every later row is an item, a blank cell is a missing value and a blank row is
skipped. Cells are converted to the declared types here, so every problem names the file, sheet,
row and column the designer sees in their spreadsheet program. The items come out as the same
located mappings a YAML list gives, and go through the same checks after that.
"""
from __future__ import annotations

import datetime
import hashlib
import re
from pathlib import Path

from . import sheets_read, yamlsrc
from .confine import UNREADABLE, resolve_inside
from .errors import Mark, Reporter, did_you_mean, display_path, os_error_text
from .schema import INVALID, AnyData, Color, Field, ListOf, Spec, Str, Type
from .sheets_read import FormulaWithoutResult, SheetError, blank as _blank
from .yamlsrc import SrcDict, SrcList

RESERVED_COLUMNS = ("id", "copies")
NOTE_PREFIX = "#"
MAX_CELL_VALUES = 10_000        # values a list or table cell may expand to (aliases included)
CELL = "the cell"               # what a cell's problem calls it: its mark names file, row and column

SOURCE_SPEC = Spec("items source", {
    "from": Field(Str(300), True, doc="a CSV, XLSX or ODS file in the pack folder, e.g. cards.xlsx"),
    "sheet": Field(Str(120), doc="the sheet's name (default: the first sheet; CSV files have none)"),
})


class ItemsType(Type):
    """`items:` is a list of items, or a spreadsheet they are read from."""
    description = "a list of items, or {from: cards.xlsx, sheet: Name}"
    _list = ListOf(AnyData(), 1)

    def check(self, value, mark, rep, where):
        if isinstance(value, dict):
            return SOURCE_SPEC.check(value, mark, rep, where)
        return self._list.check(value, mark, rep, where)


class CellMark(Mark):
    """A place in a spreadsheet, said the way a spreadsheet program shows it (line: the row,
    col: the column's number; sheet and column name for the message). A CSV file is text, so its
    place is said as everywhere else, `cards.csv:LINE:1` (the line its row starts on), and the
    column by name."""

    def __new__(cls, file: str, line: int, col: int, sheet: str = "", column: str = ""):
        mark = super().__new__(cls, file, line, col)
        mark.sheet, mark.column = sheet, column
        return mark

    def __str__(self) -> str:
        if self.file.lower().endswith(TEXT_SHEETS):
            return f"{self.file}:{self.line}:1" + (f": column {self.column}" if self.column else "")
        parts = [self.file] + ([f"sheet {self.sheet}"] if self.sheet else [])
        parts += [f"row {self.line}"] + ([f"column {self.column}"] if self.column else [])
        return ", ".join(parts)


READERS = sheets_read.READERS
REMEMBERED = {".xlsx", ".xlsm", ".ods"}     # their readers take 0.15-0.3 s to import and read
WIDTH_CHECKED = {".csv"}        # a lost or unquoted comma shifts every later cell of the row
TEXT_SHEETS = (".csv",)         # rows numbered by their line in the file (sheets_read.read_csv)


def read_sheet(path: Path, sheet: str | None, suffix: str) -> tuple[str, list[list]]:
    """(sheet name, [[row number, cells], ...]) of a spreadsheet, blank rows left out. XLSX and
    ODS rows are remembered in pnpgen's owner-only working folder by the file's bytes and the
    sheet asked for, so `list`, `validate` and `build` do not import and run a spreadsheet
    reader for a file read before."""
    reader = READERS[suffix]
    sheets_read.check_file_size(path)
    if suffix not in REMEMBERED:
        return reader(path, sheet)
    from . import workdir
    try:
        key = hashlib.sha256(path.read_bytes() + b"\0" + (sheet or "").encode()).hexdigest()
    except OSError:
        return reader(path, sheet)          # it says what is wrong with the file
    name, rows = workdir.remembered("sheets-rows", key, lambda: reader(path, sheet), _plain_rows, _sheet_shape)
    return name, rows


def _sheet_shape(read) -> bool:
    """What a reader gives, as a remembered entry must hold it: (sheet name, [[row number, cells]])."""
    return len(read) == 2 and isinstance(read[0], str) and all(
        len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], list) for entry in read[1]) \
        and _plain_rows(read)


def _plain_rows(read) -> bool:
    return all(type(v) in _PLAIN for _, row in read[1] for v in row)


_PLAIN = (str, int, float, bool, type(None))        # what JSON gives back as it was


# --- cells -> typed values -------------------------------------------------------------------

class CellError(ValueError):
    def __init__(self, problem: str, hint: str):
        super().__init__(problem)
        self.hint = hint


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _whole(value) -> int:
    if isinstance(value, bool):
        raise CellError(f"{value!r} is not a whole number", "write a whole number such as 3")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    raise CellError(f"{_shown(value)} is not a whole number", "write a whole number such as 3")


def _number(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            pass
        else:
            return int(number) if re.fullmatch(r"\s*[+-]?\d+\s*", value) else number
    raise CellError(f"{_shown(value)} is not a number", "write a number such as 2.5 (a point, not a comma)")


BOOL_WORDS = {"yes": True, "true": True, "y": True, "x": True, "1": True,
              "no": False, "false": False, "n": False, "0": False}


def _yes_no(value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in BOOL_WORDS:
        return BOOL_WORDS[value.strip().lower()]
    raise CellError(f"{_shown(value)} is not yes or no", "write yes or no (true/false, or tick the box)")


def _text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))       # a spreadsheet's 3 is often stored as 3.0
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def _yaml_value(value):
    """A cell holding a list or a table, written as YAML flow: [a, b] or {food: 1, wood: 2};
    read by the same checked loader as the manifests, with a smaller bound on what it expands to."""
    if not isinstance(value, str):
        return value
    rep = Reporter()
    data = yamlsrc.load_text(value, "cell", rep, max_nodes=MAX_CELL_VALUES, what="the cell")
    if rep.errors:
        problem = rep.errors[0].message.removeprefix("YAML syntax: ")
        raise CellError(f"{_shown(value)} is not a list or table ({problem})",
                        "write a list as [a, b, c] and a table as {key: value, key: value}")
    return yamlsrc.plain(data)


def _list(value):
    value = _yaml_value(value)
    if not isinstance(value, list):
        raise CellError(f"{_shown(value)} is not a list", "write a list as [a, b, c]")
    return value


def _colour(value) -> str:
    """A colour cell, checked here so its hint is a spreadsheet's (no YAML quoting to advise)."""
    text = _text(value).strip()
    if Color().check(text, None, Reporter(), CELL) is INVALID:
        raise CellError(f"{_shown(value)} is not a colour written #rrggbb", "write e.g. #c0392b")
    return text


CONVERT = {"text": _text, "int": _whole, "number": _number, "bool": _yes_no, "color": _colour,
           "list": _list, "data": _yaml_value, "image": _text}
RESERVED_TYPES = {"id": _text, "copies": _whole}


def _shown(value) -> str:
    text = str(value)
    return repr(text if len(text) <= 40 else text[:37] + "...")


# --- the whole sheet -------------------------------------------------------------------------

def items_from(source, fields: dict[str, str], root: Path, rep: Reporter) -> SrcList | None:
    """The items of `items: {from, sheet}` as located mappings, or None after reporting why not."""
    rel, sheet = source.get("from"), source.get("sheet")
    where = source.value_mark("from") if isinstance(source, SrcDict) else source.mark
    if not isinstance(rel, str) or (sheet is not None and not isinstance(sheet, str)):
        return None                  # already reported by the schema
    path, problem = resolve_inside(root, rel)
    suffix = Path(rel).suffix.lower()
    if problem or suffix not in READERS:
        rep.error(where, f"items: {problem or f'{rel} is not a spreadsheet'}",
                  "" if problem.startswith(UNREADABLE) else f"give a {', '.join(READERS)} file inside the pack folder")
        return None
    try:                                  # readable by this user: else the readers' own words
        open(path, "rb").close()
    except OSError as exc:
        rep.error(where, f"items: {UNREADABLE} '{rel}': {os_error_text(exc, 'file')}")
        return None
    file = display_path(path)
    try:
        sheet_name, rows = read_sheet(path, sheet, suffix)
    except SheetError as exc:
        rep.error(_place_of(exc, where, file, sheet), f"items from {rel}: {exc}" if exc.row is None else str(exc), exc.hint)
        return None
    except OSError as exc:
        rep.error(where, f"items: {UNREADABLE} '{rel}': {os_error_text(exc, 'file')}")
        return None
    header_row = rows[0][1] if rows and rows[0][0] == 1 else []
    header = _columns(header_row, fields, file, sheet_name, rep)
    if header is None:
        return None
    body = rows[1:] if header_row else rows
    if not body:
        rep.error(CellMark(file, 2, 1, sheet_name), "the sheet has no items below its header row",
                  "add a row per item")
        return None
    items = SrcList()
    items.mark, items.item_marks = where, []
    width = _width(header_row, body, file, rep) if suffix in WIDTH_CHECKED else None
    for number, row in body:
        if width is not None and len(row) != width:
            _report_width(row, width, len(header_row) - width, Mark(file, number, 1), rep)
            continue
        item = _item(row, header, fields, file, sheet_name, number, rep)
        if item is not None:
            items.append(item)
            items.item_marks.append(item.mark)
    return items


def _place_of(exc: SheetError, where: Mark, file: str, sheet: str | None) -> Mark:
    """Where a sheet that cannot be read goes wrong: a CSV file's line, a spreadsheet's row, or
    the `items:` that names the file."""
    if exc.line:
        return Mark(file, exc.line, exc.col)
    return where if exc.row is None else CellMark(file, exc.row, 1, sheet or "")


def _width(header: list, body: list, file: str, rep: Reporter) -> int:
    """The cells a CSV row must have. Headings at the end that no row reaches were added without
    cells below them: the rows are read as they stand (those columns empty), so one missing
    column is not a refused row per item. A note or blank heading is simply empty; a field's
    is said once, at its heading, since its blank could hide cells typed in the wrong column."""
    reached = max(len(row) for _, row in body)
    unreached = [(index, _heading(cell)) for index, cell in enumerate(header[reached:], reached)]
    fields = [(index, name) for index, name in unreached if name and not name.startswith(NOTE_PREFIX)]
    if fields:
        index, name = fields[0]
        lines = f"line {body[0][0]}" if len(body) == 1 else f"lines {body[0][0]}-{body[-1][0]}"
        rep.error(CellMark(file, 1, index + 1, "", name),
                  f"no row has a cell under this heading: the header has {len(header)} cells, "
                  f"the {len(body)} rows ({lines}) at most {reached}",
                  "add the column's cell to each row (an empty one too: a,b,), or start the heading "
                  "with # to keep it as a note")
    return min(len(header), reached)


def _heading(cell) -> str:
    return _text(cell).strip() if not _blank(cell) else ""


def _report_width(row: list, width: int, unreached: int, mark: Mark, rep: Reporter) -> None:
    """A row of a CSV with more or fewer cells than its header: its cells would land in the
    wrong columns, so it is refused rather than read shifted."""
    beside = f" (not counting the {unreached} at its end no row reaches)" if unreached else ""
    rep.error(mark, f"this row has {len(row)} cells but the header row has {width}{beside}",
              "put quotes around text that holds a comma (\"Fish, chips\")" if len(row) > width else
              "add the missing cells (empty ones too: a,,c), and put quotes around text that holds a comma")


def _columns(row: list, fields: dict, file: str, sheet: str, rep: Reporter) -> dict[int, str] | None:
    """Column index -> field name, from the header row; None after reporting a bad header."""
    known = list(RESERVED_COLUMNS) + list(fields)
    columns, ok = {}, True
    for index, cell in enumerate(row):
        name = _heading(cell)
        if not name or name.startswith(NOTE_PREFIX):
            continue
        mark = CellMark(file, 1, index + 1, sheet, name)
        if name not in known:
            rep.error(mark, f"'{name}' is not a field of this group",
                      did_you_mean(name, known, f"name the column after one of {', '.join(known)}, "
                                                "or start it with # to keep it as a note"))
            ok = False
        elif name in columns.values():
            rep.error(mark, f"column '{name}' appears twice", "keep one of them")
            ok = False
        columns[index] = name
    if ok and "id" not in columns.values():
        rep.error(CellMark(file, 1, 1, sheet), "the header row has no 'id' column",
                  "add a column headed id with a short id per item (e.g. fireball)")
        ok = False
    return columns if ok else None


def _converted(value, name: str, fields: dict):
    if isinstance(value, FormulaWithoutResult):
        raise CellError(f"the formula {value.formula} has no saved result",
                        "open the file in your spreadsheet program and save it, so its results are stored")
    return (RESERVED_TYPES.get(name) or CONVERT[fields[name]])(value)


def _item(row: list, header: dict[int, str], fields: dict, file: str, sheet: str, number: int,
          rep: Reporter) -> SrcDict | None:
    item = SrcDict()
    item.mark, item.key_marks, item.value_marks = CellMark(file, number, 1, sheet), {}, {}
    for index, name in header.items():
        value = row[index] if index < len(row) else None
        mark = CellMark(file, number, index + 1, sheet, name)
        if _blank(value):
            continue
        if isinstance(value, str) and value.startswith("="):
            converted = value        # a reference (=map..., =data...): the manifest resolves it
        else:
            try:
                converted = _converted(value, name, fields)
            except CellError as exc:
                rep.error(mark, str(exc), exc.hint)
                continue
        item[name], item.key_marks[name], item.value_marks[name] = converted, mark, mark
    if "id" not in item:
        rep.error(CellMark(file, number, 1, sheet, "id"), "this row has no id",
                  "fill in the id cell, or clear the whole row")
        return None
    return item
