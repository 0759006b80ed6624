"""A spreadsheet file (CSV, XLSX, ODS) -> its rows of cell values, numbered as a spreadsheet
program shows them; bounded in what it reads, unpacks and keeps.

Every reader gives `(sheet name, [[row number, cells], ...])` with blank rows left out, so a row
is named by the number the designer sees even after runs of empty rows. What a file may cost is
bounded before it is spent: the file's size, what its zip parts unpack to (read, never trusted
from the zip's directory alone), the rows and the cells kept. A limit reached is a SheetError
that says the limit in words and, where there is one, the row.
"""
from __future__ import annotations

import datetime
import io
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import did_you_mean

MB = 1024 * 1024
MAX_FILE_BYTES = 64 * MB        # a 100,000-row sheet of ten columns is about 10 MB as a file
MAX_UNPACKED_BYTES = 128 * MB   # what an XLSX or ODS unpacks to; that sheet unpacks to about 60 MB
MAX_ROWS = 100_000              # item rows below the header
MAX_CELLS = 2_000_000           # cells kept, blanks between values included
MAX_COLUMNS = 1_000             # header cells looked at in an XLSX sheet
_DTD = b"<!DOCTYPE"


class SheetError(Exception):
    """The file cannot be read as a spreadsheet at all; `row`: where, when one row is why (`line`,
    `col`: in a CSV file, the line that row starts on, or the place that is wrong)."""

    def __init__(self, problem: str, hint: str = "save it again from your spreadsheet program",
                 row: int | None = None, line: int | None = None, col: int = 1):
        super().__init__(problem)
        self.hint, self.row, self.line, self.col = hint, row, line, col


@dataclass(frozen=True)
class FormulaWithoutResult:
    formula: str


def blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


class _Rows:
    """The rows kept, with the limits on them: a row past MAX_ROWS that holds anything is refused
    (never dropped), and so is a sheet of more than MAX_CELLS cells."""

    def __init__(self) -> None:
        self.kept: list[list] = []
        self.cells = 0

    def add(self, number: int, cells: list, label: int | None = None) -> None:
        """`number`: the row's place in the sheet (held to the limits); `label`: what names it
        in messages, when not that (a CSV row: the line it starts on)."""
        if all(blank(v) for v in cells):
            return
        if number > MAX_ROWS + 1:
            raise SheetError(f"the sheet has more than {MAX_ROWS:,} item rows below its header, the limit; this row is past it",
                             "split the items into two files or sheets, each read by its own group", row=number, line=label)
        self.room_for(len(cells), number, label)
        self.cells += len(cells)
        self.kept.append([label or number, cells])

    def room_for(self, count: int, number: int, label: int | None = None) -> None:
        """Refuse, before they are made, cells that would pass MAX_CELLS."""
        if self.cells + count > MAX_CELLS:
            raise SheetError(f"the sheet holds more than {MAX_CELLS:,} cells, the limit",
                             "keep only the columns and rows of the items", row=number, line=label)


# --- the file itself -------------------------------------------------------------------------

def check_file_size(path: Path) -> None:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise SheetError(f"the file is {size / MB:,.0f} MB, over the {MAX_FILE_BYTES // MB} MB limit for a spreadsheet",
                         "split the items into several files")


def _check_zip(path: Path) -> None:
    """An XLSX or ODS is a zip of XML parts: refuse one that unpacks to more than
    MAX_UNPACKED_BYTES (counted while unpacking) or whose XML declares a DTD (entities can
    expand without end; spreadsheet programs never write one)."""
    import zipfile          # (each reader's modules: loaded only when a pack has such a file)
    try:
        with zipfile.ZipFile(path) as archive:
            total = 0
            for info in archive.infolist():
                with archive.open(info) as part:
                    tail = b""
                    while chunk := part.read(MB):
                        total += len(chunk)
                        if total > MAX_UNPACKED_BYTES:
                            raise SheetError(f"the file unpacks to more than {MAX_UNPACKED_BYTES // MB} MB, "
                                             "the limit for a spreadsheet", "split the items into several files")
                        if _DTD in tail + chunk:
                            raise SheetError(f"its part {info.filename} declares a DTD (<!DOCTYPE>), which pnpgen "
                                             "does not read")
                        tail = chunk[-len(_DTD):]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError) as exc:
        raise SheetError(f"not a readable spreadsheet file ({exc})") from None


# --- CSV ---------------------------------------------------------------------------------------

def read_csv(path: Path, sheet: str | None) -> tuple[str, list]:
    """Read with the csv module's own rules: a quoted cell may hold commas, quotes and line
    breaks, and only \\n, \\r\\n or \\r end a row (not U+2028, form feed or NEL, which are text).
    Each row is numbered by the line it starts on, as a text editor numbers it: after a quoted
    cell holding line breaks that is not its count of rows."""
    if sheet:
        raise SheetError("a CSV file has no sheets", "remove 'sheet:', or save the sheets as XLSX or ODS")
    rows = _Rows()
    for number, line, row in _records(path):
        rows.add(number, row, line)
    return "", rows.kept


def _records(path: Path):
    """(row number, the line it starts on, its cells) of each row of a CSV file."""
    import csv
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise SheetError(f"the file is over the {MAX_FILE_BYTES // MB} MB limit for a spreadsheet",
                         "split the items into several files")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _not_utf8(data, exc.start) from None
    first = re.split(r"\r\n|\r|\n", text, maxsplit=1)[0]
    delimiter = max(",;\t", key=first.count)    # Excel writes ';' where ',' is the decimal comma
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    number, end = 0, 0          # end: the last line of the row before
    try:
        for number, row in enumerate(reader, 1):
            yield number, end + 1, row
            end = reader.line_num
    except csv.Error as exc:
        raise SheetError(f"not a valid CSV file ({exc})", row=number + 1, line=end + 1) from None


def _not_utf8(data: bytes, start: int) -> SheetError:
    """Where a CSV file stops being UTF-8 (line, and column in bytes): a file saved as 'CSV'
    by Excel on Windows is Windows-1252, and its first accented letter is where it shows."""
    line_start = max(data.rfind(b"\n", 0, start), data.rfind(b"\r", 0, start)) + 1
    line = data.count(b"\n", 0, start) + 1 if b"\n" in data[:start] else data.count(b"\r", 0, start) + 1
    return SheetError(f"not UTF-8 text (byte 0x{data[start]:02x} here)",
                      "save it as 'CSV UTF-8' (or export it as UTF-8) from your spreadsheet program",
                      row=line, line=line, col=start - line_start + 1)


# --- XLSX --------------------------------------------------------------------------------------

def read_xlsx(path: Path, sheet: str | None) -> tuple[str, list]:
    import zipfile

    from openpyxl.utils.exceptions import InvalidFileException
    _check_zip(path)
    try:
        name, rows = _xlsx_rows(path, sheet, formulas=True)
        if any(_is_formula(v) for _, row in rows for v in row):
            # formulas are read as their results, as last saved by the spreadsheet program
            _, values = _xlsx_rows(path, name, formulas=False)
            results = dict((number, row) for number, row in values)
            rows = [[number, [_formula_result(f, v) for f, v in _padded(row, results.get(number, []))]]
                    for number, row in rows]
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as exc:
        raise SheetError(f"not a readable XLSX file ({exc})") from None
    return name, rows


def _xlsx_rows(path: Path, sheet: str | None, formulas: bool) -> tuple[str, list]:
    import openpyxl
    book = openpyxl.load_workbook(path, read_only=True, data_only=not formulas)
    try:                # a read-only workbook keeps its file open until closed
        name = sheet_name(book.sheetnames, sheet)
        page = book[name]
        page.reset_dimensions()     # the size the file claims (up to 1,048,576 rows) is not trusted
        header = next(page.iter_rows(min_row=1, max_row=1, max_col=MAX_COLUMNS, values_only=True), ())
        width = max((i + 1 for i, v in enumerate(header) if not blank(v)), default=1)
        rows = _Rows()
        for number, row in enumerate(page.iter_rows(min_row=1, max_col=width, values_only=True), 1):
            rows.add(number, list(row))
        return name, rows.kept
    finally:
        book.close()


def _padded(row: list, other: list):
    return zip(row, list(other) + [None] * (len(row) - len(other)))


def _is_formula(value) -> bool:
    return isinstance(value, str) and value.startswith("=")


def _formula_result(formula, value):
    if _is_formula(formula) and value is None:
        return FormulaWithoutResult(formula)
    return value


# --- ODS ---------------------------------------------------------------------------------------

_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0 "
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0 "
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0 "
_CELLS = {_TABLE + "table-cell", _TABLE + "covered-table-cell"}


def read_ods(path: Path, sheet: str | None) -> tuple[str, list]:
    import zipfile
    from xml.parsers import expat
    _check_zip(path)
    reader = _OdsReader(sheet)
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler, parser.EndElementHandler = reader.start, reader.end
    parser.CharacterDataHandler = reader.text
    parser.StartDoctypeDeclHandler = reader.doctype
    try:
        with zipfile.ZipFile(path) as archive, archive.open("content.xml") as content:
            parser.ParseFile(content)
    except (KeyError, zipfile.BadZipFile, expat.ExpatError, OSError, ValueError) as exc:
        raise SheetError(f"not a readable ODS file ({exc})") from None
    name = sheet_name(reader.names, sheet)
    return name, reader.rows.kept


class _OdsReader:
    """content.xml, streamed: the rows of one table, numbered with their repeats counted.
    Repeated blank rows and cells (a saved sheet ends in 1,048,576 of them) are counted and
    never made; repeated values are made only within the cell limit."""

    def __init__(self, wanted: str | None):
        self.wanted, self.names, self.rows = wanted, [], _Rows()
        self.reading = False            # inside the wanted table
        self.number = 1                 # the next row's number
        self.cells: list = []
        self.pending_blanks = 0
        self.cell: dict | None = None   # the cell being read: attributes, text parts
        self.notes = 0                  # depth inside office:annotation (comments are not values)

    def doctype(self, *args) -> None:
        raise SheetError("content.xml declares a DTD (<!DOCTYPE>), which pnpgen does not read")

    def start(self, tag: str, attrs: dict) -> None:
        if tag == _TABLE + "table":
            name = attrs.get(_TABLE + "name", "")
            self.names.append(name)
            self.reading = (name == self.wanted) if self.wanted is not None else len(self.names) == 1
            self.number = 1
        elif not self.reading:
            return
        elif tag == _TABLE + "table-row":
            self.cells, self.pending_blanks = [], 0
            self.row_repeat = _repeat(attrs, "number-rows-repeated")
        elif tag in _CELLS:
            self.cell = {"attrs": attrs, "text": [], "paragraphs": 0}
        elif self.cell is not None:
            self._cell_part(tag, attrs)

    def _cell_part(self, tag: str, attrs: dict) -> None:
        if tag == _OFFICE + "annotation":
            self.notes += 1
        elif self.notes:
            return
        elif tag == _TEXT + "p":
            if self.cell["paragraphs"]:
                self.cell["text"].append("\n")
            self.cell["paragraphs"] += 1
        elif tag == _TEXT + "s":
            self.cell["text"].append(" " * min(_repeat(attrs, "c", _TEXT), 1000))
        elif tag == _TEXT + "tab":
            self.cell["text"].append("\t")
        elif tag == _TEXT + "line-break":
            self.cell["text"].append("\n")

    def text(self, data: str) -> None:
        if self.cell is not None and not self.notes and self.cell["paragraphs"]:
            self.cell["text"].append(data)

    def end(self, tag: str) -> None:
        if not self.reading:
            return
        if tag == _TABLE + "table":
            self.reading = False
        elif tag == _OFFICE + "annotation":
            self.notes -= 1
        elif tag in _CELLS and self.cell is not None:
            self._end_cell()
        elif tag == _TABLE + "table-row":
            self._end_row()

    def _end_cell(self) -> None:
        attrs, text = self.cell["attrs"], "".join(self.cell["text"])
        self.cell = None
        repeat = _repeat(attrs, "number-columns-repeated")
        value = _ods_value(attrs, text)
        if blank(value):
            self.pending_blanks += repeat
            return
        self.rows.room_for(len(self.cells) + self.pending_blanks + repeat, self.number)
        self.cells.extend([None] * self.pending_blanks + [value] * repeat)
        self.pending_blanks = 0

    def _end_row(self) -> None:
        repeat, cells = self.row_repeat, self.cells
        if cells:
            self.rows.room_for(len(cells) * min(repeat, MAX_ROWS + 2), self.number)
        for offset in range(repeat if cells else 0):
            self.rows.add(self.number + offset, list(cells))
        self.number += repeat


def _repeat(attrs: dict, name: str, space: str = _TABLE) -> int:
    try:
        return max(1, int(attrs.get(space + name, 1)))
    except ValueError:
        return 1


def _ods_value(attrs: dict, text: str):
    kind = attrs.get(_OFFICE + "value-type")
    reader = _ODS_VALUES.get(kind)
    if reader is None:
        formula = attrs.get(_TABLE + "formula")
        if kind is None and formula and not text:
            return FormulaWithoutResult(formula.split(":", 1)[-1])     # "of:=1+2" -> "=1+2"
        return text or None
    try:
        return reader(attrs, text)
    except (KeyError, ValueError):
        return text or None


def _number(attrs: dict, text: str):
    number = float(attrs[_OFFICE + "value"])
    return int(number) if number.is_integer() else number


def _date(attrs: dict, text: str):
    value = attrs[_OFFICE + "date-value"]
    return datetime.datetime.fromisoformat(value) if "T" in value else datetime.date.fromisoformat(value)


def _time(attrs: dict, text: str):
    match = re.fullmatch(r"PT(\d+)H(\d+)M(\d+)(?:\.\d+)?S", attrs[_OFFICE + "time-value"])
    if not match:
        raise ValueError("not a time")
    hours, minutes, seconds = (int(g) for g in match.groups())
    return datetime.time(hours % 24, minutes, seconds)


_ODS_VALUES = {"float": _number, "percentage": _number, "currency": _number, "date": _date, "time": _time,
               "boolean": lambda attrs, text: attrs[_OFFICE + "boolean-value"] == "true",
               "string": lambda attrs, text: text or attrs.get(_OFFICE + "string-value")}


def sheet_name(names: list[str], wanted: str | None) -> str:
    if not names:
        raise SheetError("the file has no sheets")
    if wanted is None:
        return names[0]
    if wanted not in names:
        hint = did_you_mean(wanted, names, f"its sheets: {', '.join(names)}")
        raise SheetError(f"no sheet named '{wanted}'", hint)
    return wanted


READERS = {".csv": read_csv, ".xlsx": read_xlsx, ".xlsm": read_xlsx, ".ods": read_ods}
