"""Spreadsheet files written byte by byte for the tests: XLSX parts rewritten after openpyxl saved
them, and ODS files from their content.xml alone, so a test can say exactly what a hostile or odd
file holds (repeated rows, a DTD, a dimension that lies, a part that unpacks to gigabytes)."""
from __future__ import annotations

import io
import zipfile
from typing import Callable

import openpyxl

ODS_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
            '<office:body><office:spreadsheet>')
ODS_TAIL = "</office:spreadsheet></office:body></office:document-content>"
ODS_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')


def ods_bytes(tables: str, head: str = ODS_HEAD) -> bytes:
    """An ODS file whose content.xml holds `tables` (<table:table> elements)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", ODS_MANIFEST, zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", head + tables + ODS_TAIL, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def ods_cell(value) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, (int, float)):
        return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"><text:p>{value}</text:p></table:table-cell>'


def ods_row(cells, repeat: int = 1) -> str:
    times = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{times}>" + "".join(ods_cell(v) for v in cells) + "</table:table-row>"


def ods_table(name: str, rows: str) -> str:
    return f'<table:table table:name="{name}">{rows}</table:table>'


def xlsx_bytes(rows, edit: Callable[[str, bytes], bytes] = lambda name, data: data) -> bytes:
    """An XLSX of one sheet (Spells) holding rows, each part then passed through edit(name, bytes)."""
    book = openpyxl.Workbook()
    book.active.title = "Spells"
    for row in rows:
        book.active.append(row)
    saved = io.BytesIO()
    book.save(saved)
    out = io.BytesIO()
    with zipfile.ZipFile(saved) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            target.writestr(name, edit(name, source.read(name)))
    return out.getvalue()


def xlsx_with_part(rows, part: str, write: Callable[[Callable[[bytes], None]], None]) -> bytes:
    """An XLSX whose part `part` is written in pieces by write(put) (compressed as it goes, so a
    part of gigabytes needs no gigabytes here)."""
    plain = xlsx_bytes(rows)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(plain)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        names = source.namelist() + ([part] if part not in source.namelist() else [])
        for name in names:
            if name == part:
                info = zipfile.ZipInfo(name)
                info.compress_type = zipfile.ZIP_DEFLATED
                with target.open(info, "w", force_zip64=True) as stream:
                    write(stream.write)
            else:
                target.writestr(name, source.read(name))
    return out.getvalue()
