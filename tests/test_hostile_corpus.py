"""The hostile-input corpus, by the classes of issue 17: inputs that once gave a traceback, hung,
blew up memory, gave silently wrong output, or were refused without saying where.

Every case runs the real command in a child process under an address-space limit and asserts:
the exit status; the message and its place (file:line:col, template and line, JSON path, or the
option); no traceback; the child's peak memory (its own ru_maxrss from wait4) under a bound; that
it ended within a generous time bound (a hang shows as a kill, not as a slow pass); and that the
earlier output is byte for byte what it was.
"""
from __future__ import annotations

import base64
import gzip
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from conftest import FIXTURES, ROOT, copy_pack
import sheetfiles

ADDRESS_SPACE = 2 << 30        # the child may map 2 GB; a blow-up fails with MemoryError, not the machine
PEAK_MEMORY_MB = 600           # resident peak allowed; a normal build of the test pack needs ~60 MB
TIME_BOUND = 120               # s; killed past this (the cases end in seconds; this only catches hangs)


@dataclass
class Case:
    name: str
    setup: Callable[[Path, Path], None]       # (pack, work folder) -> None
    argv: tuple                                # {pack}, {work} and {out} filled in
    place: str                                 # regex the message must match, with its place
    code: int = 1
    pack: str = "mini"
    marks: tuple = field(default_factory=tuple)


def write(rel: str, text: str | bytes):
    def setup(pack, work):
        target = pack / rel
        target.write_bytes(text) if isinstance(text, bytes) else target.write_text(text)
    return setup


def replace(rel: str, old: str, new: str):
    def setup(pack, work):
        text = (pack / rel).read_text()
        assert old in text, f"{old!r} not in {rel}"
        (pack / rel).write_text(text.replace(old, new))
    return setup


def template(text: str):
    return write("templates/card.svg.j2", text)


def layout_file(text_of: Callable[[dict], str]):
    def setup(pack, work):
        (work / "l.json").write_text(text_of(good_layout()))
    return setup


_LAYOUT: dict = {}


def good_layout() -> dict:
    """A legal Royal Dukes layout as pnpgen writes it (a fresh copy each time)."""
    if not _LAYOUT:
        from generator.maps import engine
        from generator.maps.layout import dumps
        from generator.maps.rules import MapOptions
        _LAYOUT.update(json.loads(dumps([engine.generate("royal-dukes", 7, 4, MapOptions())])))
    return json.loads(json.dumps(_LAYOUT))


def with_value(path: str, raw: str):
    """The good layout with the value at path (a.b[2].c) replaced by raw JSON text."""
    def text_of(layout):
        marker = "\u2603MARK\u2603"
        node, keys = layout, re.findall(r"[^.\[\]]+", path)
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        last = keys[-1]
        node[int(last) if isinstance(node, list) else last] = marker
        return json.dumps(layout).replace(json.dumps(marker), raw)
    return text_of


def image_template(data: bytes, mime: str):
    return template(f'<image href="data:{mime};base64,{base64.b64encode(data).decode()}" '
                    'x="0" y="0" width="5" height="5"/>')


def gif_claiming(width: int, height: int) -> bytes:
    """A tiny GIF whose header claims width x height pixels (a decompression bomb's header)."""
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("P", (2, 2)).save(buffer, "GIF")
    data = bytearray(buffer.getvalue())
    data[6:10] = width.to_bytes(2, "little") + height.to_bytes(2, "little")
    return bytes(data)


def png_bytes() -> bytes:
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (40, 40), "red").save(buffer, "PNG")
    return buffer.getvalue()


def both(*setups):
    def setup(pack, work):
        for step in setups:
            step(pack, work)
    return setup


def big_icon_on_4000_faces(pack, work):
    """An icon of 12,000 paths (366 KB, under the 512 KB limit) on 4,000 distinct faces."""
    paths = "".join(f'<path d="M{i % 20} {i % 17} L{i * 7 % 23} {i * 3 % 19} L{i * 5 % 21} 3 Z"/>' for i in range(12_000))
    (pack / "icons" / "star.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">{paths}</svg>')
    (pack / "templates" / "card.svg.j2").write_text("{{ icon('star', 5, 5, 20) }}<text x='5' y='50'>{{ item.id }}</text>")
    replace("cards.yaml", "vary: {n: 1..10}", "vary: {n: 1..4000}")(pack, work)
    replace("cards.yaml", "rulebook_count: 12", "rulebook_count: 4002")(pack, work)


def with_art(value: str, files: dict):
    """The first card names the picture `value` in an `image` field; `files` (path inside the pack
    -> bytes, a function giving them, or ("link", target)) are written first."""
    def setup(pack, work):
        for rel, data in files.items():
            path = pack / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, tuple):
                os.symlink(data[1], path)
            else:
                path.write_bytes(data() if callable(data) else data)
        replace("cards.yaml", "fields: {title: text, body: text, n: int}",
                "fields: {title: text, body: text, n: int, art: image}")(pack, work)
        replace("cards.yaml", "{id: plain, title: Plain,", f"{{id: plain, title: Plain, art: {value},")(pack, work)
    return setup


def picture(fmt: str = "PNG", size=(40, 40), mode="RGB") -> bytes:
    from PIL import Image
    buffer = io.BytesIO()
    Image.new(mode, size).save(buffer, fmt)
    return buffer.getvalue()


ART = r"cards\.yaml:11:\d+: items\[1\]\.art: image "


def fifo(rel: str):
    def setup(pack, work):
        os.mkfifo(pack / rel)
    return setup


def symlink(rel: str, target: str):
    def setup(pack, work):
        os.symlink(target, pack / rel)
    return setup


def sixty_thousand_bad_items(pack, work):
    items = "".join(f"      - {{id: C{i}, title: 5, body: [x], n: abc}}\n" for i in range(60_000))
    (pack / "cards.yaml").write_text("groups:\n  - id: cards\n    kind: card\n    size: poker\n"
                                     "    template: card.svg.j2\n    fields: {title: text, body: text, n: int}\n"
                                     "    items:\n" + items)


def merge_bomb(pack, work):
    wide = ", ".join(f"k{i}: {i}" for i in range(1000))
    (pack / "m.yaml").write_text(f"a: &a {{{wide}}}\nb:\n" + "".join(
        f"  - {{<<: *a, z{i}: 1}}\n" for i in range(20_000)))


def svgz_bomb(pack, work):
    head = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
    (pack / "icons" / "star.svg").write_bytes(gzip.compress(head + b" " * 100_000_000 + b"</svg>"))


def handout_step(text: str):
    return replace("handout.yaml", "Flip coins to decide turn order.", text)


def both(*setups):
    def setup(pack, work):
        for one in setups:
            one(pack, work)
    return setup


def sheet_items(name: str, data: Callable[[], bytes], fields: str = "{title: text, body: text, n: int}"):
    """The test deck's items read from the spreadsheet `name` (its bytes made by data()), in
    place of its YAML list; XLSX and ODS from their sheet Spells."""
    def setup(pack, work):
        (pack / name).write_bytes(data())
        text = (pack / "cards.yaml").read_text().replace("{title: text, body: text, n: int}", fields)
        sheet = "" if name.endswith(".csv") else ", sheet: Spells"
        (pack / "cards.yaml").write_text(text[:text.index("    items:\n")] + f"    items: {{from: {name}{sheet}}}\n")
    return setup


def big_csv(pack, work):
    """A CSV of 1 GB (sparse: no disk is spent), its header first."""
    sheet_items("cards.csv", lambda: b"id,title\n")(pack, work)
    with open(pack / "cards.csv", "r+b") as handle:
        handle.truncate(1 << 30)


def shared_strings_of(megabytes: int):
    def write(put):
        put(b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')
        chunk = b"<si><t>xy</t></si>" * 58_255          # about 1 MB
        for _ in range(megabytes):
            put(chunk)
        put(b"</sst>")
    return lambda: sheetfiles.xlsx_with_part([["id", "title"], ["a", "A"]], "xl/sharedStrings.xml", write)


def claims_a_million_rows(name: str, data: bytes) -> bytes:
    if "sheet1" not in name:
        return data
    data = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', data)
    return data.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"/></row></sheetData>')


def with_dtd(name: str, data: bytes) -> bytes:
    return b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>' + data if "sheet1" in name else data


ODS_FLOOD = sheetfiles.ods_row(["id", "title"]) + (
    '<table:table-row table:number-rows-repeated="1048575"><table:table-cell office:value-type="string" '
    'table:number-columns-repeated="16384"><text:p>x</text:p></table:table-cell></table:table-row>')
ALIAS_BOMB = "[" + ", ".join(["&a [x, x, x, x, x, x, x, x, x]"] + [
    f"&{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]" for i in range(8)]) + "]"


# a declared map for the test pack (a square board of 16 cells), and its hostile variants
MINI_MAP = """layout:
  board: {grid: square, shape: rectangle, cols: 4, rows: 4}
  players: {min: 2, max: 2}
  types:
    rock: {values: {vp: 1}}
    volcano: {}
  deal:
    - {type: rock, count: 3}
  constraints:
    - {id: rocks-apart, not_adjacent: [rock, rock], quote: No two rocks touch.}
"""


def map_yaml(old: str = "", new: str = ""):
    def setup(pack, work):
        assert old in MINI_MAP
        (pack / "map.yaml").write_text(MINI_MAP.replace(old, new, 1) if old else (new or MINI_MAP))
    return setup


def layout_for_game(game: str):
    """A legal layout whose `game` names a pack by a path (it must name one under components/);
    {work} in it is a folder holding a planted map.yaml and game.yaml."""
    def setup(pack, work):
        (work / "planted").mkdir()
        (work / "planted" / "map.yaml").write_text(MINI_MAP)
        (work / "planted" / "game.yaml").write_text("title: Planted\n")
        (work / "l.json").write_text(json.dumps({**good_layout(), "game": game.format(work=work)}))
    return setup


def alias_bomb(pack, work):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
              f"*a{i - 1}, *a{i - 1}]" for i in range(1, 10)]
    (pack / "map.yaml").write_text("\n".join(lines) + "\n" + MINI_MAP.replace("{values: {vp: 1}}", "{values: {vp: *a9}}"))


MAP = ("map", "{pack}", "--seed", "1", "--out", "{out}")
BUILD = ("build", "{pack}", "--out", "{out}", "--quiet")
CHECK = ("map", "--check", "{work}/l.json")
HANDOUT = ("handout", "{pack}", "--out", "{out}")
FRONT = r"cards\.yaml:11:9: group 'cards', item 'plain-1' \(front\): template card\.svg\.j2"

TRACEBACKS = [
    Case("yaml nested 1,000 deep", write("deep.yaml", "x: " + "[" * 1000 + "]" * 1000 + "\n"), BUILD,
         r"deep\.yaml:1:\d+: lists and mappings nested more than 64 deep"),
    Case("yaml nested 100,000 deep (libyaml would crash)", write("deep.yaml", "x:\n  " + "- " * 100_000 + "a\n"), BUILD,
         r"deep\.yaml:2:\d+: lists and mappings nested more than 64 deep"),
    Case("template output with an unclosed tag", template('<g>\n<rect x="0" y="0" width="5" height="5">\n</g>'), BUILD,
         FRONT + r" line 3: its output is not well-formed SVG \(mismatched tag\) near .</g>"),
    Case("template output with a raw &", template('<text x="1" y="5">Fish & chips</text>'), BUILD,
         FRONT + r" line 1: its output is not well-formed SVG"),
    Case("template attribute without quotes", template('<rect x=0 y="0" width="5" height="5"/>'), BUILD,
         FRONT + r" line 1: its output is not well-formed SVG"),
    Case("text size 1e308", template("{{ text_line('hi', 5, 12, 50, size=1e308) }}"), BUILD,
         FRONT + r" line 1: text_line\(\): size=1e\+308 is not a length"),
    Case("scale(1e308)", template('<g transform="scale(1e308)"><rect width="5" height="5"/></g>'), BUILD,
         FRONT + r": the number 1e\+308 in the SVG is not finite"),
    Case("embedded image that is garbage", image_template(b"not an image at all" * 20, "image/png"), BUILD,
         FRONT + r": an embedded image is in no format pnpgen reads"),
    Case("embedded GIF of 14,000 x 14,000 pixels", image_template(gif_claiming(14_000, 14_000), "image/gif"), BUILD,
         FRONT + r": an embedded image of 14000 x 14000 pixels is over the 40 megapixel limit"),
    Case("embedded PNG cut in half", image_template(png_bytes()[:60], "image/png"), BUILD,
         FRONT + r": an embedded image is broken"),
    Case("a picture cut in half", with_art("art/half.png", {"art/half.png": png_bytes()[:60]}), BUILD,
         ART + r"'art/half\.png' is broken"),
    Case("layout JSON nested 100,000 deep", layout_file(lambda _: "[" * 100_000 + "]" * 100_000), CHECK,
         r"l\.json:1:33: JSON nested more than 32 deep"),
    Case("layouts: 5", layout_file(lambda _: '{"layouts": 5}'), CHECK,
         r"l\.json: layouts: must be a non-empty list of layouts, not 5"),
    Case("layout with a 4,301-digit integer", layout_file(with_value("players", "9" * 4301)), CHECK,
         r"l\.json: players: the number 9{20}\.\.\. is not a finite number"),
    Case("map --dpi 3000", lambda pack, work: None,
         ("map", "royal-dukes", "--seed", "1", "--format", "png", "--dpi", "3000", "--out", "{out}"),
         r"argument --dpi: 3000 is outside 30-600", code=2),
    Case("handout.yaml that is a list", write("handout.yaml", "- a\n- b\n"), HANDOUT,
         r"handout\.yaml:1:1: .*must be a mapping", pack="royal-dukes"),
    Case("handout heading with crossed bold and italic",
         replace("handout.yaml", "heading: Setup", 'heading: "**bold *both** italic*"'), HANDOUT,
         r"handout\.yaml:\d+:\d+: handout heading: \*\*bold\*\* and \*italic\* markup cross", pack="royal-dukes"),
    Case("handout table with one long unbreakable word", replace(
        "handout.yaml", "          rows:\n            - [Monk,", "          rows:\n            - [%s, x, y, z]\n"
        "            - [Monk," % ("W" * 3000)), HANDOUT,
         r"handout\.yaml:\d+:\d+: section 'Setup', table: the word 'W{30}\.\.\.' \(3000 characters\) is too long "
         r"for the column 'Rank'", pack="royal-dukes"),
    Case("map.yaml nested 10,000 deep", map_yaml(new="layout:\n  types:\n    x: " + "[" * 10_000 + "]" * 10_000 + "\n"),
         MAP, r"map\.yaml:3:\d+: lists and mappings nested more than 64 deep", code=2),
    Case("handout table row taller than a column", replace(
        "handout.yaml", "          rows:\n            - [Monk,", "          rows:\n            - [x, %s, y, z]\n"
        "            - [Monk," % ("ab " * 1500)), HANDOUT,
         r"handout\.yaml:\d+:\d+: handout: section 'Setup' holds a table row taller than a whole column", pack="royal-dukes"),
    Case("a DTD in an XLSX part", sheet_items("cards.xlsx", lambda: sheetfiles.xlsx_bytes(
        [["id", "title"], ["a", "A"]], with_dtd)), BUILD,
         r"cards\.yaml:10:\d+: items from cards\.xlsx: its part xl/worksheets/sheet1\.xml declares a DTD"),
]

HANGS = [
    Case("handout table from a 100,000-item group", both(
        replace("settlements.yaml", "{id: village, name: Village, vp: 1, icon: village, copies: 6}",
                "{id: village, icon: village, vary: {vp: 1..1000, name: [%s]}}" % ", ".join(f"n{i}" for i in range(100))),
        replace("settlements.yaml", "rulebook_count: 20", "rulebook_count: 100014")), HANDOUT,
         r"handout\.yaml:\d+:\d+: section 'Setup', table: 'from: settlements' makes 100,0\d\d rows, one per item, "
         r"over the limit of 400", pack="royal-dukes"),
    Case("a 366 KB icon on 4,000 faces", big_icon_on_4000_faces, BUILD,
         r"cards\.yaml:11:9: group 'cards', item 'plain-\d+' \(front\): template card\.svg\.j2: the distinct faces "
         r"drawn into this PDF hold more than 1,000,000 SVG elements, the limit \(this face 12,00\d\)"),
    Case("a 2,000 mm mat in 1,000 copies (88,000 pages)", both(replace("board.yaml", "{id: board}", "{id: board, copies: 1000}"), replace(
        "board.yaml", "size: {width: 300mm, height: 400mm}", "size: {width: 2000mm, height: 2000mm}")),
         BUILD, r"board\.yaml:2:\d+: group 'board': the build would print \d{2},\d{3} pages \(.* of them this group's "
         r"1,000 copies\), over the limit of 10,000 pages"),
    Case("wide YAML merge-key bomb", merge_bomb, BUILD,
         r"m\.yaml:\d+:\d+: (file expands to more than 2,000,000 values|more than 10,000 merge keys)"),
    Case("60,000 items each wrong: capped and counted", sixty_thousand_bad_items, BUILD,
         r"cards\.yaml: 179,800 more problems not shown"),
    Case("an SVG coordinate of 1e308", template('<rect x="1e308" y="0" width="5" height="5"/>'), BUILD,
         FRONT + r": the number 1e\+308 in the SVG is not finite or not within"),
    Case("a gzip-bombed .svgz icon", svgz_bomb, BUILD,
         r"game\.yaml:11:15: icon 'star' \(icons/star\.svg\): unpacks to over the 512 KB limit"),
    Case("a component file that is a FIFO", fifo("f.yaml"), BUILD,
         r"f\.yaml:1:1: 'f\.yaml' is not a regular file"),
    Case("a layout file that is a FIFO", lambda pack, work: os.mkfifo(work / "l.json"), CHECK,
         r"l\.json: not a regular file"),
    Case("handout loops without bound", handout_step(
        "{% for i in range(10000) %}{% for j in range(10000) %}x{% endfor %}{% endfor %}"), HANDOUT,
         r"handout\.yaml:\d+:\d+: section 'Setup', steps: output is over 100,000 characters for one handout text",
         pack="royal-dukes"),
    Case("handout loops for ever, writing nothing", handout_step(
        "{% for i in range(10000) %}{% for j in range(10000) %}{% for k in range(10000) %}{% endfor %}{% endfor %}{% endfor %}"),
         HANDOUT, r"handout\.yaml:\d+:\d+: section 'Setup', steps: an expression ran for more than 10 s",
         pack="royal-dukes", marks=(pytest.mark.slow,)),
]

def crowded_map(pack, work):
    """2,000 cells, 400 tiles, each closing every cell to the other kind: 597 s of dealing before
    a board's work was bounded."""
    (pack / "map.yaml").write_text("""layout:
  board: {grid: hex, shape: rectangle, cols: 40, rows: 50}
  players: {min: 2, max: 2}
  types: {plain: {}, a: {}, b: {}}
  fill: plain
  deal: [{type: a, count: 200}, {type: b, count: 200}]
  constraints:
    - {id: far, min_distance: [a, b], distance: 100, quote: x}
    - {id: apart, not_adjacent: [a, a], quote: x}
""")


HANGS.append(Case("map placement rules that close the whole board", crowded_map,
                  ("map", "{pack}", "--seed", "1", "--balance", "off", "--out", "{out}"),
                  r"mini: no layout meets every rule of .*map\.yaml in 400 boards; boards rejected by: dealing \(over "
                  r"100,000 cell updates on one board", code=2))

MEMORY = [
    Case("vary over three lists of 1,000", replace(
        "cards.yaml", "vary: {n: 1..10}", "vary: {n: 1..1000, title: [%s], body: [%s]}" % (
            ", ".join(f"t{i}" for i in range(1000)), ", ".join(f"b{i}" for i in range(1000)))), BUILD,
         r"cards\.yaml:\d+:\d+: group 'cards' would have more than 200,000 faces \(1,000,000,000 items after vary\)"),
    Case("template string multiplication", template("{{ 'x' * 10**20 }}"), BUILD,
         FRONT + r" line 1: repeating 1 characters 100,000,000,000,000,000,000 times is over the limit"),
    Case("template list multiplication", template("{{ [1, 2] * 10**9 }}"), BUILD,
         FRONT + r" line 1: repeating 2 items 1,000,000,000 times is over the limit"),
    Case("template integer power", template("{{ 9 ** (10 ** 9) }}"), BUILD,
         FRONT + r" line 1: 9 \*\* 1000000000 is too large a number"),
    Case("template |center(3e9)", template("{{ 'x'|center(3000000000) }}"), BUILD,
         FRONT + r" line 1: \|center would build 3,000,000,000 characters, over the limit of 1,000,000 characters"),
    Case("template string doubled with ~", template(
        "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}"),
         BUILD, FRONT + r" line 1: joining with ~ would build 1,048,576 characters, over the limit of 1,000,000"),
    Case("template '%3000000000s' formatting", template("{{ '%3000000000s' % 'x' }}"), BUILD,
         FRONT + r" line 1: formatting with % to a width of 3,000,000,000 would build"),
    Case("template str.ljust(10**9)", template("{{ 'x'.ljust(10 ** 9) }}"), BUILD,
         FRONT + r" line 1: ljust\(\) would build 1,000,000,000 characters"),
    Case("template lipsum(10**9)", template("{{ lipsum(10 ** 9) }}"), BUILD,
         FRONT + r" line 1: lipsum\(1000000000\): at most 100 paragraphs"),
    Case("template output of 10 GB", template("{% for i in range(10000) %}{{ 'x' * 1000000 }}{% endfor %}"), BUILD,
         FRONT + r": output is over 16,000,000 characters for one face"),
    Case("a template of 12 million characters", template("<g/>" * 3_000_000), BUILD,
         r"cards\.yaml:6:15: template 'card\.svg\.j2' is 12,000,000 characters long, over the limit"),
    Case("a component symlinked to /dev/zero", symlink("z.yaml", "/dev/zero"), BUILD,
         r"z\.yaml:1:1: 'z\.yaml' is a link to a file outside the game pack"),
    Case("map --check /dev/zero", lambda pack, work: None, ("map", "--check", "/dev/zero"),
         r"/dev/zero: not a regular file"),
    Case("an XLSX whose sharedStrings unpack to 200 MB", sheet_items("cards.xlsx", shared_strings_of(200)), BUILD,
         r"cards\.yaml:10:\d+: items from cards\.xlsx: the file unpacks to more than 128 MB, the limit for a spreadsheet"),
    Case("an XLSX whose dimension claims 1,048,576 rows of 16,384 cells", sheet_items("cards.xlsx", lambda: sheetfiles.xlsx_bytes(
        [["id", "title", "n"], ["a", "A", "many"]], claims_a_million_rows)), BUILD,
         r"cards\.xlsx, sheet Spells, row 2, column n: 'many' is not a whole number"),
    Case("an ODS of a million repeated rows of 16,384 cells", sheet_items("cards.ods", lambda: sheetfiles.ods_bytes(
        sheetfiles.ods_table("Spells", ODS_FLOOD))), BUILD,
         r"cards\.ods, sheet Spells, row 2: the sheet holds more than 2,000,000 cells, the limit"),
    Case("a CSV of 1 GB", big_csv, BUILD,
         r"cards\.yaml:10:\d+: items from cards\.csv: the file is 1,024 MB, over the 64 MB limit for a spreadsheet"),
    Case("a list cell holding a YAML alias bomb", sheet_items("cards.csv", lambda: (
        'id,title,tags\na,A,"%s"\n' % ALIAS_BOMB).encode(), "{title: text, tags: list}"), BUILD,
         r"cards\.csv:2:1: column tags: '\[&a .*' is not a list or table \(the cell expands to more than 10,000 values"),
    Case("a picture of 9 MB", with_art("art/big.png", {"art/big.png": lambda: b"\x89PNG\r\n\x1a\n" + bytes(9 << 20)}), BUILD,
         ART + r"'art/big\.png' is 9\.0 MB, over the 8 MB limit"),
    Case("a picture of 48 megapixels", with_art("art/bomb.png", {"art/bomb.png": lambda: picture("PNG", (8000, 6000), "1")}), BUILD,
         ART + r"'art/bomb\.png' is 8,000 x 6,000 pixels, over the 40 megapixel limit"),
    Case("a picture linked to /dev/zero", with_art("art/z.png", {"art/z.png": ("link", "/dev/zero")}), BUILD,
         ART + r"'art/z\.png' is a link to a file outside the game pack"),
    Case("map.yaml alias bomb", alias_bomb, MAP, r"map\.yaml:\d+:\d+: file expands to more than 2,000,000 values", code=2),
    Case("map board of 10^6 cells", map_yaml("shape: rectangle, cols: 4, rows: 4",
                                             "shape: rows, rows: [%s]" % ", ".join(f"[{r}, 0, 999]" for r in range(1000))),
         MAP, r"map\.yaml:2:\d+: layout\.board\.rows\[3\]: makes a board of 3,000 cells, over the limit of 2,000", code=2),
    Case("map board row of 10^7 cells", map_yaml("shape: rectangle, cols: 4, rows: 4", "shape: rows, rows: [[0, 0, 9999999]]"),
         MAP, r"map\.yaml:2:\d+: layout\.board\.rows\[1\]: makes a board of 10,000,000 cells", code=2),
    Case("map deals 10^5 tiles onto 16 cells", map_yaml("count: 3", "count: 100000"),
         MAP, r"map\.yaml:\d+:\d+: layout\.deal: deals 100,000 tiles with 2 players onto 16 free cells", code=2),
]

SILENT = [
    Case("NaN corner radius", replace("cards.yaml", "corner_radius: 0mm", "corner_radius: .nan"), BUILD,
         r"cards\.yaml:5:20: groups\[1\]\.corner_radius: 'nan' is not a finite length"),
    Case("corner radius of 1e30 mm", replace("cards.yaml", "corner_radius: 0mm", "corner_radius: " + "1" + "0" * 30 + "mm"),
         BUILD, r"cards\.yaml:5:20: .* is longer than 10 m"),
    Case("id with a trailing newline", replace("cards.yaml", "{id: plain,", '{id: "plain\\n",'), BUILD,
         r"cards\.yaml:11:\d+: items\[1\]\.id 'plain\\n' is not allowed here"),
    Case("a number of 21 digits in data", replace("cards.yaml", "{id: escape,", "{id: escape, n: 100000000000000000000,"),
         BUILD, r"cards\.yaml:12:\d+: items\[2\]\.n is a number of about 21 digits"),
    Case("a .yml file", write("extra.yml", "groups: []\n"), BUILD,
         r"extra\.yml:1:1: 'extra\.yml' would be ignored: pnpgen reads only files ending in \.yaml"),
    Case("NaN coordinate", template('<rect x="nan" y="0" width="5" height="5"/>'), BUILD,
         FRONT + r": the number nan in the SVG"),
    Case("outline() grown to 1e9 mm", template('<path d="{{ outline(1e9) }}"/>'), BUILD,
         FRONT + r" line 1: outline\(1000000000\.0\): grow by a finite number of mm"),
    Case("icon with a NaN viewBox", write("icons/star.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 nan 1"/>'),
         BUILD, r"game\.yaml:11:15: icon 'star' \(icons/star\.svg\): the <svg> element needs a viewBox"),
    Case("layouts: []", layout_file(lambda _: '{"layouts": []}'), CHECK,
         r"l\.json: layouts: must be a non-empty list of layouts, not an empty list"),
    Case("hex grid without orientation", layout_file(with_value("grid", '{"type": "hex"}')), CHECK,
         r"l\.json: grid\.orientation: a hex grid needs"),
    Case("layout cell with an unknown key", layout_file(with_value("cells[3].colour", '"red"')), CHECK,
         r"l\.json: cells\[3\]\.colour: unknown key; known keys are label, q, r, type, vp"),
    Case("layout cell key misspelt", layout_file(lambda good: json.dumps(
        {"layouts": [good, {**good, "cells": [*good["cells"][:5], {**good["cells"][5], "lable": "A6"}, *good["cells"][6:]]}]})),
         CHECK, r"l\.json: layouts\[1\]\.cells\[5\]\.lable: unknown key; did you mean 'label'\?"),
    Case("layout placement with an unknown key", layout_file(lambda good: json.dumps(
        {**good, "placements": [{"kind": "start", "cell": [0, 0], "ownr": 1}]})), CHECK,
         r"l\.json: placements\[0\]\.ownr: unknown key; known keys are cell, kind"),
    Case("layout grid with an unknown key", layout_file(with_value("grid.orientaton", '"flat"')), CHECK,
         r"l\.json: grid\.orientaton: unknown key; did you mean 'orientation'\?"),
    Case("layout with an unknown top-level key", layout_file(with_value("player", '4')), CHECK,
         r"l\.json: player: unknown key; did you mean 'players'\? known keys are cells, game"),
    Case("a CSV row with a cell too many", sheet_items("cards.csv", lambda: b"id,title,n\na,A,1\nb,Fish, chips,2\n"), BUILD,
         r"cards\.csv:3:1: this row has 4 cells but the header row has 3; put quotes around text that holds a comma"),
    Case("a CSV row with a cell too few", sheet_items("cards.csv", lambda: b"id,title,n\na,A,1\nb,2\n"), BUILD,
         r"cards\.csv:3:1: this row has 2 cells but the header row has 3"),
    Case("sheet rows past row 100,001", sheet_items("cards.csv", lambda: b"id,title\n" + b"".join(
        b"c%d,C\n" % i for i in range(100_001))), BUILD,
         r"cards\.csv:100002:1: the sheet has more than 100,000 item rows below its header, the limit"),
    Case("a card size of one length", replace("cards.yaml", "size: poker", "size: 63mm"), BUILD,
         r"cards\.yaml:4:11: this card is a rectangle: its size needs a width and a height, not one length; "
         r"write size: \{width: 63mm, height: 63mm\} for a square card"),
    Case("text drawn below its face", template("{{ text_line('Lost', 5, 100, 40) }}"), BUILD,
         FRONT + r" line 1: text 'Lost' is drawn outside its 63 x 88 mm face \(from x [\d.]+, y 9[\d.]+"),
    Case("a <text> of the template's own below its face", template('<text x="5" y="95" font-size="3">Gone</text>'), BUILD,
         FRONT + r" line 1: text 'Gone' is drawn outside its 63 x 88 mm face \(at x 5\.0, y 95\.0 mm on the face\); move it"),
    Case("text moved off its face by a transform", template(
        '<g transform="translate(60 0)">{{ text_box(item.body, 5, 20, 40, 30) }}</g>'), BUILD,
         FRONT + r" line 1: text 'A :star: card\.' is drawn outside its 63 x 88 mm face"),
    Case("a build with faults in two templates", both(
        template('<rect width="5" height="5" fill="redd"/>'), write("templates/card-back.svg.j2", "{{ text_line('B', 5, 99, 9) }}")),
         BUILD, r"(?s)" + FRONT + r" line 1: fill='redd' .*\n.*\(back\): template card-back\.svg\.j2 line 1: text 'B' is "
         r"drawn outside"),
    Case("map.yaml value of 1.0e+400 (Infinity in the layout)", map_yaml("vp: 1", "vp: 1.0e+400"), MAP,
         r"map\.yaml:5:\d+: layout\.types\.rock\.values\.vp: the number inf is not finite or not within", code=2),
    Case("map.yaml value of 21 digits", map_yaml("vp: 1", "vp: 100000000000000000000"), MAP,
         r"map\.yaml:5:\d+: layout\.types\.rock\.values\.vp: the number 100000000000000000000 is not finite", code=2),
    Case("map --seed 10^20", lambda pack, work: None, ("map", "royal-dukes", "--seed", "1" + "0" * 20, "--out", "{out}"),
         r"argument --seed: 100000000000000000000 is outside 0-1,000,000,000,000", code=2),
    Case("map --mountains -7", lambda pack, work: None, ("map", "royal-dukes", "--mountains", "-7", "--out", "{out}"),
         r"argument --mountains: -7 is outside 0-10,000", code=2),
    Case("map --mountains for a game without mountains", map_yaml(), (*MAP, "--mountains", "3"),
         r"mini takes no --mountains: its map rules have no such option", code=2),
    Case("map rule on a type never dealt", map_yaml("not_adjacent: [rock, rock]", "not_adjacent: [volcano, volcano]"), MAP,
         r"map\.yaml:10:\d+: layout\.constraints\[1\]\.not_adjacent: 'volcano' is never on the board", code=2),
]

UNPLACED = [
    Case("a picture that is not there", with_art("art/goblin.png", {"art/goblin.jpg": picture("JPEG")}), BUILD,
         ART + r"'art/goblin\.png' not found in the game pack; did you mean 'art/goblin\.jpg'\?"),
    Case("a picture outside the pack", with_art("../outside.png", {"../outside.png": picture()}), BUILD,
         ART + r"'\.\./outside\.png' points outside the game pack"),
    Case("a picture linked out of the pack", with_art("art/passwd.png", {"art/passwd.png": ("link", "/etc/passwd")}), BUILD,
         ART + r"'art/passwd\.png' is a link to a file outside the game pack \(/etc/passwd\)"),
    Case("a GIF picture", with_art("art/anim.gif", {"art/anim.gif": picture("GIF")}), BUILD,
         ART + r"'art/anim\.gif' is a GIF file; pnpgen draws PNG, JPEG, WebP and SVG art"),
    Case("a raw <image href> that is not there", template('<image href="art/nope.png" x="0" y="0" width="5" height="5"/>'),
         BUILD, FRONT + r" line 1: image 'art/nope\.png' not found in the game pack"),
    Case("an icon that is a PNG image", write("icons/star.svg", png_bytes()), BUILD,
         r"game\.yaml:11:15: icon 'star' \(icons/star\.svg\): the file is a PNG image"),
    Case("<image href> to a file", template('<image href="/etc/passwd" x="0" y="0" width="5" height="5"/>'), BUILD,
         FRONT + r" line 1: image '/etc/passwd' is an absolute path; give its path inside the game pack"),
    Case("<image href> to a URL", template('<image href="http://example.com/a.png" width="5" height="5"/>'), BUILD,
         FRONT + r": SVG refers to an external resource \(http://example\.com/a\.png\)"),
    Case("external <use>", template('<use href="other.svg#a"/>'), BUILD,
         FRONT + r": SVG refers to an external resource"),
    Case("DOCTYPE with entities in a template", template('<!DOCTYPE svg [<!ENTITY a "b">]>\n<text>&a;</text>'), BUILD,
         FRONT + r" line 1: its output is not well-formed SVG"),
    Case("layout cell without coordinates", layout_file(with_value("cells[3]", '{"type": "empty"}')), CHECK,
         r"l\.json: cells\[3\]: must be an object with integer q, r and a type"),
    Case("second layout of a file with text players", layout_file(
        lambda good: json.dumps({"layouts": [good, {**good, "players": "four"}]})), CHECK,
         r"l\.json: layouts\[1\]\.players: must be a whole number, not \"four\""),
    Case("preview --port 70000", lambda pack, work: None,
         ("preview", "{pack}", "--watch", "--port", "70000", "--out", "{out}"),
         r"argument --port: 70000 is not a port: give 1024-65535, or 0 for any free port", code=2),
    Case("--check of a layout whose game is a path", layout_for_game("../docs/examples/hex-island"), CHECK,
         r"l\.json: no map rules for '\.\./docs/examples/hex-island': name the pack whose rules"),
    Case("--check of a layout whose game is an absolute path", layout_for_game("{work}/planted"), CHECK,
         r"l\.json: no map rules for '/.*/planted': name the pack whose rules"),
    Case("--out that is a file", lambda pack, work: (work / "a-file").write_text("x"),
         ("build", "{pack}", "--out", "{work}/a-file", "--quiet"), r"argument --out: '.*a-file' is a file, not a folder",
         code=2),
    Case("--out under a file", lambda pack, work: (work / "a-file").write_text("x"),
         ("build", "{pack}", "--out", "{work}/a-file/sub", "--quiet"), r"argument --out: '.*a-file' is a file, not a folder",
         code=2),
    Case("an ODS cell below repeated blank rows", sheet_items("cards.ods", lambda: sheetfiles.ods_bytes(sheetfiles.ods_table(
        "Spells", sheetfiles.ods_row(["id", "n"]) + sheetfiles.ods_row([None, None], 42) + sheetfiles.ods_row(["a", "many"])
        + sheetfiles.ods_row([None, None], 1_000_000)))), BUILD,
         r"cards\.ods, sheet Spells, row 44, column n: 'many' is not a whole number"),
    Case("a card size written 63x88mm", replace("cards.yaml", "size: poker", "size: 63x88mm"), BUILD,
         r"cards\.yaml:4:11: .*'63x88mm' is not a size; write a rectangle as size: \{width: 63mm, height: 88mm\}"),
    Case("a colour misspelt in a template", template('<rect width="5" height="5" fill="redd"/>'), BUILD,
         FRONT + r" line 1: fill='redd' is not a colour \(it would print black\); did you mean 'red'\? "
         r"\(the same on 10 more items\)"),
    Case("a colour missing from the palette", template('<rect width="5" height="5" fill="{{ palette.gld }}"/>'), BUILD,
         FRONT + r" line 1: the palette has no colour 'gld' \(its colours: ink, card, back\); add it to game\.yaml's palette"),
]

CLASSES = {"traceback": TRACEBACKS, "hang": HANGS, "memory": MEMORY, "silent": SILENT, "unplaced": UNPLACED}


def test_each_class_has_at_least_five_cases():
    assert all(len(cases) >= 5 for cases in CLASSES.values()), {k: len(v) for k, v in CLASSES.items()}


def _params():
    for cls, cases in CLASSES.items():
        for case in cases:
            yield pytest.param(case, id=f"{cls}: {case.name}", marks=case.marks)


@dataclass
class Outcome:
    code: int
    err: str
    seconds: float
    peak_mb: float


def run_bounded(argv: list[str], cwd: Path) -> Outcome:
    """The CLI in a child under ADDRESS_SPACE; its own peak memory from wait4; killed after
    TIME_BOUND (a condition on the clock, not a wait: the child is reaped as soon as it ends)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    err_path = cwd / ".stderr"
    start = time.monotonic()
    with open(err_path, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "generator", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=err, preexec_fn=limit)
        killer = threading.Timer(TIME_BOUND, proc.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    text = err_path.read_text(errors="replace")
    err_path.unlink()
    return Outcome(proc.returncode, text, time.monotonic() - start, usage.ru_maxrss / 1024)


@pytest.fixture(scope="module")
def earlier_output(tmp_path_factory):
    """An output folder as an earlier good run left it: the test pack built, and files where
    handout and map would write."""
    out = tmp_path_factory.mktemp("earlier")
    code = subprocess.run([sys.executable, "-m", "generator", "build", FIXTURES / "mini", "--out", out, "--quiet"],
                          cwd=ROOT, capture_output=True).returncode
    assert code == 0
    for game, name in (("royal-dukes", "royal-dukes-handout.pdf"), ("royal-dukes", "royal-dukes-map-4p-1.png")):
        (out / game).mkdir(exist_ok=True)
        (out / game / name).write_bytes(b"%PDF- earlier output " + name.encode())
    return out


def snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", list(_params()))
def test_hostile_input(case: Case, tmp_path, earlier_output, record_property):
    pack = copy_pack(case.pack, tmp_path)
    out = tmp_path / "out"
    shutil.copytree(earlier_output, out)
    before = snapshot(out)
    case.setup(pack, tmp_path)
    argv = [a.format(pack=pack, work=tmp_path, out=out) for a in case.argv]
    result = run_bounded(argv, tmp_path)
    # the figures of every case, for the worst case's time and memory (pytest --junitxml=FILE)
    record_property("seconds", round(result.seconds, 2))
    record_property("peak_mb", round(result.peak_mb, 1))
    assert result.seconds < TIME_BOUND, f"killed after {TIME_BOUND} s: a hang"
    assert result.code == case.code, result.err[-2000:]
    assert "Traceback" not in result.err and "Exception ignored" not in result.err, result.err[-3000:]
    assert re.search(case.place, result.err), result.err[-2000:]
    assert result.peak_mb < PEAK_MEMORY_MB, f"peak memory {result.peak_mb:.0f} MB"
    assert snapshot(out) == before, "the earlier output changed"
    assert len(result.err.splitlines()) <= 210, "problems past the cap are counted, not printed"


@pytest.mark.parametrize("loader_name", ["SafeLoader", "CSafeLoader"])
@pytest.mark.parametrize("text", ["x: " + "[" * 1000 + "]" * 1000 + "\n",
                                  "x: " + "{a: " * 300 + "1" + "}" * 300 + "\n"])
def test_deep_flow_nesting_refused_at_one_place_by_either_parser(loader_name, text, tmp_path, monkeypatch):
    """PyYAML's pure-Python parser gives events up to level 65; libyaml as bundled since PyYAML
    6.0.2 refuses deep flow nesting itself before giving any. Both name the same bracket."""
    import yaml
    from generator import yamlsrc
    from generator.errors import Reporter
    loader = getattr(yaml, loader_name, None)
    if loader is None:
        pytest.skip("this PyYAML has no libyaml")
    monkeypatch.setattr(yamlsrc, "SAFE_LOADER", loader)
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    reporter = Reporter()
    assert yamlsrc.load_yaml(path, reporter) is None
    [problem] = reporter.errors
    # the top mapping is level 1, so the 64th bracket opens level 65
    opener = yamlsrc.first_bracket_past(text, yamlsrc.MAX_DEPTH - 1)
    assert (problem.mark.line, problem.mark.col) == (1, opener + 1)
    assert "nested more than 64 deep" in problem.message
