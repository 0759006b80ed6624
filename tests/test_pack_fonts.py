"""A pack's own fonts/ folder: its fonts print in font roles and raw <text>, embedded and subset
in the PDFs, measured with their own metrics, seen by that pack only; a family nobody has is
refused with the families there are; a broken font file is a located error (docs/manifests.md,
"Your own fonts")."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pymupdf
import pytest

from conftest import FIXTURES, ROOT, copy_pack, run_cli
from test_hostile_corpus import earlier_output, run_bounded, snapshot, TIME_BOUND  # noqa: F401 (a fixture)

SHIPPED = ROOT / "fonts"
MM_PER_PT = 25.4 / 72


def make_font(dest: Path, family: str, source: str = "LiberationSerif-Regular.ttf", widen: float = 1.0,
              style: str = "Regular") -> Path:
    """One of pnpgen's fonts under another family name (and PostScript name), its advance widths
    multiplied by `widen`, so text set in it is told apart from text set in the original."""
    from fontTools.ttLib import TTFont
    font = TTFont(SHIPPED / source)
    postscript = f"{family.replace(' ', '')}-{style}"
    names = {1: family, 2: style, 4: f"{family} {style}", 6: postscript, 16: family, 17: style}
    for record in font["name"].names:
        if record.nameID in names:
            record.string = names[record.nameID]
    if widen != 1.0:
        hmtx = font["hmtx"]
        for glyph, (advance, lsb) in list(hmtx.metrics.items()):
            hmtx.metrics[glyph] = (round(advance * widen), lsb)
    dest.parent.mkdir(parents=True, exist_ok=True)
    font.save(dest)
    return dest


def pack_with_font(tmp_path: Path, name: str = "goblins", widen: float = 1.6, **font) -> Path:
    """The test pack as `name`, with fonts/Goblin.ttf (family 'Goblin Hand') and a licence
    beside it; the body role and a raw <text> set in it."""
    pack = copy_pack("mini", tmp_path / f"{name}-src")
    pack = Path(shutil.move(pack, tmp_path / name))
    make_font(pack / "fonts" / "Goblin.ttf", "Goblin Hand", widen=widen, **font)
    shutil.copy(SHIPPED / "LICENSE-Liberation-OFL.txt", pack / "fonts" / "OFL.txt")
    edit(pack / "game.yaml", "body: {family: Liberation Sans}", "body: {family: Goblin Hand}")
    template = pack / "templates" / "card.svg.j2"
    template.write_text(template.read_text() + '<text x="5" y="70" font-family="Goblin Hand" font-size="4">raw goblin</text>\n')
    return pack


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new))


def built(pack: Path, out: Path, *more) -> Path:
    code, _, err = run_cli("build", pack, *more, "--out", out, "--quiet")
    assert code == 0, err
    return out / pack.name


def spans(page) -> list[dict]:
    return [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]]


def span_width_ems(page, text: str) -> float:
    """How wide the PDF sets `text` (a span of the page), in ems of its size."""
    [chars, *_] = [s["chars"] for b in page.get_text("rawdict")["blocks"] for line in b.get("lines", [])
                   for s in line["spans"] if "".join(c["c"] for c in s["chars"]) == text]
    size = next(s["size"] for s in spans(page) if s["text"] == text)
    return (chars[-1]["bbox"][2] - chars[0]["origin"][0]) / size


def ems(font_file: Path, text: str, widen: float = 1.0) -> float:
    from fontTools.ttLib import TTFont
    font = TTFont(font_file)
    cmap, hmtx, upm = font.getBestCmap(), font["hmtx"].metrics, font["head"].unitsPerEm
    return sum(round(hmtx[cmap[ord(c)]][0] * widen) for c in text) / upm


# --- printing with a pack font ---------------------------------------------------------------

def test_a_pack_font_prints_in_a_role_and_in_raw_text_embedded_and_subset(tmp_path):
    out = built(pack_with_font(tmp_path, widen=1.0), tmp_path / "out")
    doc = pymupdf.open(out / "goblins-sheets.pdf")
    fonts = {f[3]: f[1] for f in doc[0].get_fonts()}
    [goblin] = [name for name in fonts if name.endswith("+GoblinHand-Regular")]
    assert re.fullmatch(r"[A-Z]{6}\+GoblinHand-Regular", goblin), "a subset (tagged name)"
    assert fonts[goblin] == "ttf", "the font program is embedded"
    embedded = doc.extract_font(doc[0].get_fonts()[list(fonts).index(goblin)][0])
    assert 0 < len(embedded[3]) < (SHIPPED / "LiberationSerif-Regular.ttf").stat().st_size / 5, "only the glyphs used"
    by_font = {}
    for span in spans(doc[0]):
        by_font.setdefault(span["font"], []).append(span["text"])
    goblin_text = " ".join(by_font[next(f for f in by_font if "GoblinHand" in f)])
    assert "raw goblin" in goblin_text, "raw <text font-family> is set in the pack font"
    assert "A card." in goblin_text.replace("  ", " "), "the body role is set in the pack font"


def test_build_json_lists_every_font_with_its_file_and_licence(tmp_path):
    out = built(pack_with_font(tmp_path), tmp_path / "out")
    fonts = json.loads((out / "build.json").read_text())["fonts"]
    by_name = {f["postscript_name"]: f for f in fonts}
    assert by_name["GoblinHand-Regular"] == {
        "postscript_name": "GoblinHand-Regular", "family": "Goblin Hand", "style": "regular", "source": "pack",
        "file": "fonts/Goblin.ttf", "licence": "fonts/OFL.txt", "documents": ["goblins-sheets.pdf"]}
    assert by_name["LiberationSerif-Bold"] == {
        "postscript_name": "LiberationSerif-Bold", "family": "Liberation Serif", "style": "bold",
        "source": "pnpgen", "file": "LiberationSerif-Bold.ttf", "licence": "LICENSE-Liberation-OFL.txt",
        "documents": ["goblins-sheets.pdf"]}
    assert set(by_name) == {"GoblinHand-Regular", "LiberationSerif-Bold", "LiberationSans"}, \
        "every font the PDFs embed, and only those"


def test_text_is_measured_with_the_pack_fonts_metrics(tmp_path):
    """Goblin Hand is Liberation Serif with every advance 1.6 times wider. Ten Ms at 10 pt fit a
    40 mm line in Liberation Serif but not in Goblin Hand: the line must be refused at a 10 pt
    minimum, and shrunk to end inside the line when it may shrink."""
    pack = pack_with_font(tmp_path)
    card = pack / "templates" / "card.svg.j2"
    card.write_text('<rect x="-5" y="-5" width="80" height="100" fill="#ffffff"/>\n'
                    "{{ text_line('MMMMMMMMMM', 5, 20, 40, size=10, min_size=MIN, align='left') }}\n")
    assert ems(SHIPPED / "LiberationSerif-Regular.ttf", "M" * 10) * 10 * MM_PER_PT < 40 < \
        ems(SHIPPED / "LiberationSerif-Regular.ttf", "M" * 10, 1.6) * 10 * MM_PER_PT
    edit(card, "MIN", "10")
    code, _, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and re.search(r"'MMMMMMMMMM'.*does not fit", err), err
    edit(card, "min_size=10", "min_size=4")
    code, _, err = run_cli("export", "png", pack, "--group", "cards", "--bleed", "0", "--dpi", "200",
                           "--out", tmp_path / "png", "-q")
    assert code == 0, err
    from PIL import Image
    [front] = [p for p in (tmp_path / "png").rglob("*.png") if "plain" in p.name and "back" not in p.name][:1]
    image = Image.open(front).convert("L")
    px_per_mm = image.width / 63.5
    band = image.crop((0, int(10 * px_per_mm), image.width, int(21 * px_per_mm)))
    inked = [x for x in range(band.width) if min(band.getpixel((x, y)) for y in range(band.height)) < 128]
    left, right = inked[0] / px_per_mm, (inked[-1] + 1) / px_per_mm
    assert 5 <= left < 6.5 and 40 < right <= 45.2, f"ink from {left:.1f} to {right:.1f} mm: the line is 5-45 mm"


def test_a_font_collection_gives_each_of_its_faces(tmp_path):
    from fontTools.ttLib import TTCollection, TTFont
    pack = pack_with_font(tmp_path, widen=1.0)
    regular = make_font(tmp_path / "r.ttf", "Goblin Hand")
    bold = make_font(tmp_path / "b.ttf", "Goblin Hand", "LiberationSerif-Bold.ttf", style="Bold")
    (pack / "fonts" / "Goblin.ttf").unlink()
    collection = TTCollection()
    collection.fonts = [TTFont(regular), TTFont(bold)]
    collection.save(pack / "fonts" / "Goblin.ttc")
    edit(pack / "game.yaml", "title: {family: Liberation Serif, weight: bold}", "title: {family: Goblin Hand, weight: bold}")
    out = built(pack, tmp_path / "out")
    names = {f[3].split("+")[-1] for f in pymupdf.open(out / "goblins-sheets.pdf")[0].get_fonts()}
    assert {"GoblinHand-Regular", "GoblinHand-Bold"} <= names and "LiberationSerif-Bold" not in names
    files = {f["postscript_name"]: f["file"] for f in json.loads((out / "build.json").read_text())["fonts"]}
    assert files["GoblinHand-Bold"] == files["GoblinHand-Regular"] == "fonts/Goblin.ttc"


def test_a_pack_font_is_seen_by_its_own_pack_only(tmp_path):
    """Three packs in one run: two bring different fonts of one family name, each prints its
    own; the third, built between them, has no such family and is refused."""
    serif = pack_with_font(tmp_path, "serif-goblins", widen=1.0)
    sans = pack_with_font(tmp_path, "sans-goblins", widen=1.5, source="LiberationSans-Regular.ttf")
    plain = copy_pack("mini", tmp_path / "plain-src")
    plain = Path(shutil.move(plain, tmp_path / "plain"))
    card = plain / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + '<text x="5" y="70" font-family="Goblin Hand" font-size="4">raw goblin</text>\n')
    out = tmp_path / "out"
    code, _, err = run_cli("build", serif, plain, sans, "--out", out, "--quiet")
    assert code == 1
    assert re.search(r"font-family 'Goblin Hand' is neither in the pack's fonts/ nor one of pnpgen's", err), err
    assert "plain: not built" in err and "goblins: not built" not in err, err
    widths = {}
    for pack in (serif, sans):
        page = pymupdf.open(out / pack.name / f"{pack.name}-sheets.pdf")[0]
        widths[pack.name] = span_width_ems(page, "raw goblin")
    assert widths["serif-goblins"] == pytest.approx(ems(SHIPPED / "LiberationSerif-Regular.ttf", "raw goblin"), rel=0.01)
    assert widths["sans-goblins"] == pytest.approx(ems(SHIPPED / "LiberationSans-Regular.ttf", "raw goblin", 1.5), rel=0.01)


# --- what is refused -------------------------------------------------------------------------

def test_a_missing_family_lists_the_pack_fonts_and_suggests_the_closest(tmp_path):
    pack = pack_with_font(tmp_path)
    edit(pack / "game.yaml", "body: {family: Goblin Hand}", "body: {family: Goblin Hnd}")
    code, _, err = run_cli("validate", pack)
    assert code == 1
    assert re.search(r"game\.yaml:\d+:\d+: font role 'body': family 'Goblin Hnd' \(normal, normal\) is neither in the "
                     r"pack's fonts/ nor one of pnpgen's; did you mean 'Goblin Hand'\? the families available are "
                     r"Goblin Hand \(the pack's fonts/\) and Liberation Sans, Liberation Serif \(pnpgen's\)", err), err
    edit(pack / "game.yaml", "body: {family: Goblin Hnd}", "body: {family: Goblin Hand, style: italic}")
    code, _, err = run_cli("validate", pack)
    assert re.search(r"font role 'body': family 'Goblin Hand' has no normal, italic face \(it has regular\)", err), err


def test_a_missing_family_in_raw_text_suggests_the_closest(tmp_path):
    pack = pack_with_font(tmp_path)
    edit(pack / "templates" / "card.svg.j2", 'font-family="Goblin Hand"', 'font-family="goblin-hand"')
    code, _, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "Traceback" not in err
    assert re.search(r"cards\.yaml:\d+:\d+: group 'cards', item '[\w-]+' \(front\).*font-family 'goblin-hand' is neither "
                     r"in the pack's fonts/ nor one of pnpgen's \(another font would be printed in its place\); "
                     r"did you mean 'Goblin Hand'\?", err), err


def _font_without_unicode_cmap(path: Path) -> bytes:
    from fontTools.ttLib import TTFont
    font = TTFont(SHIPPED / "LiberationSans-Regular.ttf")
    font["cmap"].tables = [t for t in font["cmap"].tables if (t.platformID, t.platEncID) == (1, 0)]
    font.save(path)
    return path.read_bytes()


def _without(table: str):
    def make(path: Path) -> bytes:
        from fontTools.ttLib import TTFont
        font = TTFont(SHIPPED / "LiberationSans-Regular.ttf")
        del font[table]
        font.save(path)
        return path.read_bytes()
    return make


BROKEN_FONTS = [
    ("not a font", "Bad.ttf", lambda p: b"these are not the glyphs you are looking for\n" * 50,
     r"fonts/Bad\.ttf:1:1: 'Bad\.ttf' is not a font pnpgen can use: not a TrueType or OpenType font"),
    ("an empty file", "Empty.otf", lambda p: b"",
     r"fonts/Empty\.otf:1:1: 'Empty\.otf' is not a font pnpgen can use: not a TrueType or OpenType font"),
    ("cut short", "Cut.ttf", lambda p: (SHIPPED / "LiberationSans-Regular.ttf").read_bytes()[:60_000],
     r"fonts/Cut\.ttf:1:1: 'Cut\.ttf' is not a font pnpgen can use: the file is cut short: its '\w+' table ends at "
     r"byte [\d,]+ of 60,000"),
    ("no Unicode character map", "NoMap.ttf", _font_without_unicode_cmap,
     r"fonts/NoMap\.ttf:1:1: .*: the font has no usable character map"),
    ("no cmap table at all", "NoCmap.ttf", _without("cmap"),
     r"fonts/NoCmap\.ttf:1:1: .*: the font has no 'cmap' table"),
    ("a collection claiming 100,000 faces", "Many.ttc", lambda p: b"ttcf\x00\x01\x00\x00\x00\x01\x86\xa0" + bytes(64),
     r"fonts/Many\.ttc:1:1: .*: a font collection claiming 100000 faces"),
    ("a web font", "Web.woff2", lambda p: b"wOF2" + bytes(100),
     r"fonts/Web\.woff2:1:1: 'Web\.woff2' is a web font, which cairo cannot embed in a PDF; convert it to TTF or OTF"),
]


@pytest.mark.parametrize("file_name, make, place", [c[1:] for c in BROKEN_FONTS], ids=[c[0] for c in BROKEN_FONTS])
def test_a_broken_font_file_is_a_located_error(file_name, make, place, tmp_path, earlier_output):
    """In the hostile corpus's way (tests/test_hostile_corpus.py): a child under a memory bound,
    no traceback, the message at its place, the earlier output untouched."""
    pack = copy_pack("mini", tmp_path)
    (pack / "fonts").mkdir()
    (pack / "fonts" / file_name).write_bytes(make(tmp_path / file_name))
    out = tmp_path / "out"
    shutil.copytree(earlier_output, out)
    before = snapshot(out)
    result = run_bounded(["build", str(pack), "--out", str(out), "--quiet"], tmp_path)
    assert result.seconds < TIME_BOUND and result.code == 1, result.err
    assert "Traceback" not in result.err and re.search(place, result.err), result.err
    assert snapshot(out) == before


def test_a_font_linked_from_outside_the_pack_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "fonts").mkdir()
    (pack / "fonts" / "Linked.ttf").symlink_to(SHIPPED / "LiberationSans-Regular.ttf")
    code, _, err = run_cli("validate", pack)
    assert code == 1 and re.search(r"fonts/Linked\.ttf:1:1: 'Linked\.ttf' is a link to a file outside the game pack", err), err


def test_licence_texts_and_read_me_files_beside_the_fonts_are_not_fonts(tmp_path):
    pack = pack_with_font(tmp_path)
    (pack / "fonts" / "README.md").write_text("Goblin Hand, drawn by a goblin.\n")
    code, out, err = run_cli("validate", pack)
    assert code == 0 and not err, err


@pytest.fixture
def shipped_fonts_after():
    """Tests that load a pack in this process leave pnpgen's fonts active, as they found them."""
    yield
    from generator import fonts
    fonts.activate(fonts.shipped())


def test_the_preview_caches_follow_the_pack_font_bytes(tmp_path, shipped_fonts_after):
    """An edited pack font (same names, other widths) renders the faces again and draws new
    preview images, though no template, field or family name changed."""
    from generator import preview
    from generator.cache import FaceCache
    from generator.manifest import load_pack
    from generator.render import expand_faces
    pack = pack_with_font(tmp_path, widen=1.0)
    cache = FaceCache()

    def keys():
        game = load_pack(pack)
        group = game.groups[0]
        front = expand_faces(group)[0][0]
        return cache.renderer(game, 3.0).face_key(front), preview._image_name("<svg/>", group, 100)
    first = keys()
    assert keys() == first
    make_font(pack / "fonts" / "Goblin.ttf", "Goblin Hand", widen=1.2)
    assert all(a != b for a, b in zip(keys(), first))


def make_otf(dest: Path, family: str) -> Path:
    """An OpenType font with CFF outlines (Liberation Sans's printable ASCII, redrawn), named family."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.ttLib import TTFont
    source = TTFont(SHIPPED / "LiberationSans-Regular.ttf")
    cmap = {code: glyph for code, glyph in source.getBestCmap().items() if 32 <= code < 127}
    order, glyphs, hmtx = [".notdef", *sorted(set(cmap.values()))], source.getGlyphSet(), source["hmtx"].metrics
    charstrings = {}
    for name in order:
        pen = T2CharStringPen(hmtx[name][0], glyphs)
        glyphs[name].draw(pen)
        charstrings[name] = pen.getCharString()
    postscript = family.replace(" ", "") + "-Regular"
    builder = FontBuilder(source["head"].unitsPerEm, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(cmap)
    builder.setupCFF(postscript, {"FullName": family}, charstrings, {})
    builder.setupHorizontalMetrics({name: hmtx[name] for name in order})
    builder.setupHorizontalHeader(ascent=source["hhea"].ascent, descent=source["hhea"].descent)
    builder.setupNameTable({"familyName": family, "styleName": "Regular", "psName": postscript})
    builder.setupOS2(sCapHeight=source["OS/2"].sCapHeight, usWinAscent=source["OS/2"].usWinAscent,
                     usWinDescent=source["OS/2"].usWinDescent)
    builder.setupPost()
    dest.parent.mkdir(parents=True, exist_ok=True)
    builder.save(dest)
    return dest


def test_an_opentype_font_with_cff_outlines_is_embedded_as_cff(tmp_path):
    pack = pack_with_font(tmp_path)
    make_otf(pack / "fonts" / "orcs" / "Orc.otf", "Orc Script")
    edit(pack / "templates" / "card.svg.j2", 'font-family="Goblin Hand"', 'font-family="Orc Script"')
    out = built(pack, tmp_path / "out")
    page = pymupdf.open(out / "goblins-sheets.pdf")[0]
    [orc] = [f for f in page.get_fonts() if f[3].endswith("+OrcScript-Regular")]
    assert orc[1] == "cff", "the CFF program is embedded"
    assert any(s["text"] == "raw goblin" and "OrcScript" in s["font"] for s in spans(page))
    files = {f["postscript_name"]: f for f in json.loads((out / "build.json").read_text())["fonts"]}
    assert files["OrcScript-Regular"]["file"] == "fonts/orcs/Orc.otf"
    assert files["OrcScript-Regular"]["licence"] is None, "no licence file beside it"


def test_a_pack_family_replaces_pnpgens_family_of_that_name(tmp_path):
    """fonts/Mine.ttf calls itself Liberation Sans (regular only): the pack's regular prints,
    and pnpgen's bold Liberation Sans is not mixed in."""
    pack = pack_with_font(tmp_path)
    make_font(pack / "fonts" / "Mine.ttf", "Liberation Sans", widen=1.3)
    edit(pack / "game.yaml", "body: {family: Goblin Hand}", "body: {family: Liberation Sans}")
    out = built(pack, tmp_path / "out")
    files = {f["postscript_name"]: f["file"] for f in json.loads((out / "build.json").read_text())["fonts"]}
    assert files["LiberationSans-Regular"] == "fonts/Mine.ttf" and "LiberationSans" not in files, files
    edit(pack / "game.yaml", "body: {family: Liberation Sans}", "body: {family: Liberation Sans, weight: bold}")
    code, _, err = run_cli("validate", pack)
    assert code == 1 and re.search(r"family 'Liberation Sans' has no bold, normal face \(it has regular\)", err), err


def test_a_character_the_pack_font_lacks_is_refused_naming_the_font(tmp_path):
    from fontTools.ttLib import TTFont
    pack = pack_with_font(tmp_path)
    font = TTFont(pack / "fonts" / "Goblin.ttf")
    for table in font["cmap"].tables:
        table.cmap.pop(ord("Z"), None)
    font.save(pack / "fonts" / "Goblin.ttf")
    edit(pack / "templates" / "card.svg.j2", "raw goblin", "raw Zombie")
    code, _, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and re.search(r"text 'raw Zombie' in font 'Goblin Hand' \(Goblin\.ttf\): the font has no glyph "
                                   r"for 'Z'", err), err


def test_generic_families_are_liberation_sans():
    from generator import fonts
    for generic in ("sans-serif", "serif"):
        assert fonts.shipped().resolve(generic).family == "Liberation Sans"


def test_the_font_folder_is_bounded(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "fonts").mkdir()
    with open(pack / "fonts" / "Huge.ttf", "wb") as handle:
        handle.truncate(65 * 2**20)                 # sparse: never read, refused by its size
    code, _, err = run_cli("validate", pack)
    assert code == 1 and re.search(r"fonts/Huge\.ttf:1:1: 'Huge\.ttf' is 65 MB, over the 64 MB a font file may have", err)
    (pack / "fonts" / "Huge.ttf").unlink()
    for n in range(201):
        (pack / "fonts" / f"F{n:03}.ttf").write_bytes(b"x")      # each its own error; the 201st not read
    code, _, err = run_cli("validate", pack)
    assert code == 1 and re.search(r"fonts/F200\.ttf:1:1: more than 200 font files in \S*fonts", err), err


def make_variable_font(dest: Path, family: str) -> Path:
    """A variable font of Liberation Sans's printable ASCII: weight 400 is Liberation Sans,
    weight 700 the same glyphs drawn 1.5 times wider; named instances Regular and Bold."""
    from fontTools import subset, varLib
    from fontTools.designspaceLib import AxisDescriptor, DesignSpaceDocument, InstanceDescriptor, SourceDescriptor
    from fontTools.ttLib import TTFont

    def master(widen: float) -> TTFont:
        font = TTFont(SHIPPED / "LiberationSans-Regular.ttf")
        cut = subset.Subsetter(subset.Options(layout_features=[], name_IDs=["*"], hinting=False, notdef_outline=True))
        cut.populate(unicodes=range(32, 127))
        cut.subset(font)
        glyf, hmtx = font["glyf"], font["hmtx"].metrics
        for name in font.getGlyphOrder():
            glyph = glyf[name]
            if glyph.numberOfContours > 0:
                glyph.coordinates.scale((widen, 1))
                glyph.recalcBounds(glyf)
            for component in getattr(glyph, "components", []):
                component.x = round(component.x * widen)
            advance, lsb = hmtx[name]
            hmtx[name] = (round(advance * widen), round(lsb * widen))
        return font
    design = DesignSpaceDocument()
    axis = AxisDescriptor()
    axis.tag, axis.name, axis.minimum, axis.default, axis.maximum = "wght", "Weight", 400, 400, 700
    design.addAxis(axis)
    for widen, weight in ((1.0, 400), (1.5, 700)):
        source = SourceDescriptor()
        source.font, source.location = master(widen), {"Weight": weight}
        design.addSource(source)
    for style, weight in (("Regular", 400), ("Bold", 700)):
        instance = InstanceDescriptor()
        instance.familyName, instance.styleName, instance.location = family, style, {"Weight": weight}
        design.addInstance(instance)
    font, _, _ = varLib.build(design)
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = family
    font.save(dest)
    return dest


def test_a_variable_font_prints_its_named_instances(tmp_path):
    """Wobble Bold is drawn 1.5 times wider than Wobble Regular: the PDF must print the Bold
    instance's outlines and widths (cairo 1.16 alone would embed the default outlines)."""
    pack = pack_with_font(tmp_path)
    make_variable_font(pack / "fonts" / "Wobble.ttf", "Wobble")
    edit(pack / "game.yaml", "title: {family: Liberation Serif, weight: bold}", "title: {family: Wobble, weight: bold}")
    edit(pack / "templates" / "card.svg.j2", 'font-family="Goblin Hand"', 'font-family="Wobble"')
    card = pack / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + '<text x="5" y="50" font-family="Wobble" font-weight="bold" font-size="10">H</text>\n')
    out = built(pack, tmp_path / "out")
    page = pymupdf.open(out / "goblins-sheets.pdf")[0]
    names = {f[3].split("+")[-1]: f[1] for f in page.get_fonts()}
    assert names["Wobble-Bold"] == names["Wobble-Regular"] == "ttf"
    sans = SHIPPED / "LiberationSans-Regular.ttf"
    assert span_width_ems(page, "raw goblin") == pytest.approx(ems(sans, "raw goblin"), rel=0.01)
    assert span_width_ems(page, "Plain") == pytest.approx(ems(sans, "Plain", 1.5), rel=0.01)
    from fontTools.ttLib import TTFont
    [h, *_] = [s for s in spans(page) if s["text"] == "H"]
    assert h["font"] == "Wobble-Bold"
    ink = page.get_pixmap(dpi=600, clip=h["bbox"], colorspace=pymupdf.csGRAY)
    columns = [x for x in range(ink.width) if any(ink.pixel(x, y)[0] < 100 for y in range(ink.height))]
    drawn = (columns[-1] - columns[0] + 1) / 600 * 72 / h["size"]          # ems
    font = TTFont(sans)
    glyph = font["glyf"][font.getBestCmap()[ord("H")]]
    default = (glyph.xMax - glyph.xMin) / font["head"].unitsPerEm
    assert drawn == pytest.approx(1.5 * default, rel=0.05), "the Bold instance's outlines, not the default ones"
    fonts = {f["postscript_name"]: f for f in json.loads((out / "build.json").read_text())["fonts"]}
    assert (fonts["Wobble-Bold"]["file"], fonts["Wobble-Bold"]["instance"], fonts["Wobble-Bold"]["style"]) == \
        ("fonts/Wobble.ttf", "Bold", "bold")


def test_a_face_drawn_by_cairosvg_prints_the_pack_font_too(tmp_path):
    """A gradient sends the whole face to cairosvg, which chooses fonts by name: it must be
    given the pack's face as the fast path is."""
    pack = pack_with_font(tmp_path, widen=1.0)
    card = pack / "templates" / "card.svg.j2"
    card.write_text('<defs><linearGradient id="g"><stop offset="0" stop-color="#ffffff"/>'
                    '<stop offset="1" stop-color="#dddddd"/></linearGradient></defs>\n'
                    '<rect width="20" height="20" fill="url(#g)"/>\n'
                    '<text x="5" y="40" font-family="Goblin Hand" font-size="5">slow goblin</text>\n')
    out = built(pack, tmp_path / "out")
    page = pymupdf.open(out / "goblins-sheets.pdf")[0]
    assert any(s["text"] == "slow goblin" and s["font"] == "GoblinHand-Regular" for s in spans(page)), \
        [(s["text"], s["font"]) for s in spans(page)]


def test_pack_fonts_are_never_registered_with_fontconfig(tmp_path, shipped_fonts_after):
    """Loading a pack makes its fonts the active library, but fontconfig (what cairo and
    cairosvg would look names up in) still knows pnpgen's fonts only."""
    from generator import fonts
    from generator.manifest import load_pack
    pack = pack_with_font(tmp_path)
    load_pack(pack)
    assert fonts.library().resolve("Goblin Hand").file == (pack / "fonts" / "Goblin.ttf").resolve()
    fonts.resolved_file.cache_clear()
    assert fonts.resolved_file("Goblin Hand").parent.resolve() == fonts.FONT_DIR.resolve()


def test_a_variable_font_builds_byte_identically_whenever_its_instances_are_made(tmp_path, monkeypatch):
    """Its static instances are made afresh in another private folder at another time: the
    PDFs must not change (fontTools would stamp the instance with the time it was made)."""
    from fontTools.ttLib.tables import _h_e_a_d
    from generator import workdir
    pack = pack_with_font(tmp_path)
    make_variable_font(pack / "fonts" / "Wobble.ttf", "Wobble")
    edit(pack / "game.yaml", "title: {family: Liberation Serif, weight: bold}", "title: {family: Wobble, weight: bold}")
    pdfs = []
    for when in (1, 2):
        private = tmp_path / f"private-{when}"
        private.mkdir(mode=0o700)
        monkeypatch.setattr(workdir, "_base", lambda: private)           # the forked CLI inherits both
        monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_000_000_000 + when * 86_400)
        out = built(pack, tmp_path / f"out-{when}")
        assert list((private / "font-instances").glob("*.ttf")), "made here, this time"
        pdfs.append((out / "goblins-sheets.pdf").read_bytes())
    assert pdfs[0] == pdfs[1]


REPLACED_WHILE_RUNNING = """
import os, sys
sys.path[:0] = [{tests!r}, {root!r}]
from pathlib import Path
import pymupdf
from generator.build import BuildRequest, build
from test_pack_fonts import make_font, span_width_ems
pack, tmp = Path({pack!r}), Path({tmp!r})
for widen in (1.0, 1.6):
    make_font(tmp / "new.ttf", "Goblin Hand", widen=widen)
    os.replace(tmp / "new.ttf", pack / "fonts" / "Goblin.ttf")        # as font editors save
    build(pack, BuildRequest(out_dir=tmp / f"out-{{widen}}"))
    page = pymupdf.open(tmp / f"out-{{widen}}" / "goblins" / "goblins-sheets.pdf")[0]
    print(span_width_ems(page, "raw goblin"))
"""


def test_a_font_replaced_between_two_builds_of_one_process_is_drawn_anew(tmp_path):
    """preview --watch builds again in the same process after every save: a pack font saved
    anew (a new file renamed over the old, as font editors do) must be drawn as it now is, not
    from the old file cairo still holds."""
    import subprocess
    import sys
    pack = pack_with_font(tmp_path, widen=1.0)
    script = REPLACED_WHILE_RUNNING.format(tests=str(ROOT / "tests"), root=str(ROOT), pack=str(pack), tmp=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first, second = map(float, done.stdout.split())
    serif = SHIPPED / "LiberationSerif-Regular.ttf"
    assert first == pytest.approx(ems(serif, "raw goblin"), rel=0.01)
    assert second == pytest.approx(ems(serif, "raw goblin", 1.6), rel=0.01)
