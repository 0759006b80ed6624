"""pnpgen export png | tts, and print-shop presets: tested on packs copied to folders of other
names, outside components/, the way a user keeps their own game."""
from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path
from urllib.parse import unquote, urlparse

import cairocffi as cairo
import pymupdf
import pytest

from conftest import copy_pack, run_cli
from generator.manifest import load_pack
from generator.presets import load_presets
from generator.render import FaceRenderer, expand_faces
from generator.errors import ManifestError
from generator.export.raster import png_bytes, rasterize, trim_window

TTS_OBJECTS = {"DeckCustom", "Card", "Custom_Tile", "Custom_Dice", "Die_4", "Die_8"}
DECK_FIELDS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}


def own_pack(name: str, tmp_path: Path, folder: str) -> Path:
    """A built-in or fixture pack copied under a folder name of the user's choosing."""
    pack = copy_pack(name, tmp_path / "src")
    target = tmp_path / folder
    pack.rename(target)
    return target


def export(fmt, pack, out, *options):
    code, stdout, stderr = run_cli("export", fmt, pack, "--out", out, "--quiet", *options)
    assert code == 0, stderr
    return out / pack.name / fmt


def png_size(path: Path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


def pixels(surface: cairo.ImageSurface, x=0, y=0, w=None, h=None) -> list[bytes]:
    """Rows of raw pixel bytes of a rectangle of the surface."""
    surface.flush()
    w, h = w or surface.get_width(), h or surface.get_height()
    data, stride = bytes(surface.get_data()), surface.get_stride()
    return [data[(y + r) * stride + 4 * x:(y + r) * stride + 4 * (x + w)] for r in range(h)]


def mean_difference(rows_a: list[bytes], rows_b: list[bytes]) -> float:
    total = count = 0
    for a, b in zip(rows_a, rows_b):
        total += sum(abs(p - q) for p, q in zip(a, b))
        count += len(a)
    return total / count


def file_of(url: str) -> Path:
    assert url.startswith("file://"), url
    return Path(unquote(urlparse(url).path))


# --- presets -----------------------------------------------------------------------------------

def test_presets_carry_the_print_md_figures():
    presets = load_presets()
    assert set(presets) == {"thegamecrafter", "makeplayingcards", "drivethrucards"}
    tgc = {p.id: p for p in presets["thegamecrafter"].products}
    assert (tgc["poker"].px_w, tgc["poker"].px_h) == (825, 1125)
    assert (tgc["mini"].px_w, tgc["mini"].px_h) == (600, 825)
    assert (tgc["tarot"].px_w, tgc["tarot"].px_h) == (900, 1500)
    mpc = {p.id: p for p in presets["makeplayingcards"].products}
    assert (mpc["poker"].px_w, mpc["poker"].px_h) == (822, 1122)
    assert (mpc["mini"].px_w, mpc["mini"].px_h, mpc["tarot"].px_w, mpc["tarot"].px_h) == (597, 822, 897, 1497)
    assert (tgc["hex-medium"].trim_w, tgc["hex-medium"].trim_h) == pytest.approx((63.5, 55.88))   # 2.5 x 2.2 in
    dtc = {p.id: p for p in presets["drivethrucards"].products}
    # DriveThruCards' mini is the Mini American, 1 5/8 x 2 1/2 in (41.3 x 63.5 mm), not 1.75 x 2.5 in
    assert (round(dtc["mini"].trim_w, 1), round(dtc["mini"].trim_h, 1)) == (41.3, 63.5)
    for preset in presets.values():
        assert {"poker", "mini", "square", "tarot"} <= {p.id for p in preset.products}, preset.id
        for p in preset.products:        # the image is the trim plus a bleed of 3 mm or so (3.8: TGC's medium hex)
            assert 2.5 < (p.full_w - p.trim_w) / 2 < 4 and 2.5 < (p.full_h - p.trim_h) / 2 < 4, (preset.id, p.id)
            assert p.source.strip(), (preset.id, p.id)          # every figure says where it comes from


def test_a_broken_preset_file_is_reported_with_its_line(tmp_path):
    bad = tmp_path / "presets.yaml"
    bad.write_text("shop:\n  name: Shop\n  dpi: 300\n  source: here\n  products:\n"
                   "    poker: {name: poker card, trim: {width: 2.5in, height: 3.5in}, pixels: [760, 1125]}\n"
                   "    mini: {name: mini, trim: {width: 1.75in, height: 2.5in}, pixls: [600, 825]}\n")
    with pytest.raises(ManifestError) as exc:
        load_presets(bad)
    text = str(exc.value)
    assert re.search(r"presets.yaml:6:\d+: .*less than 1.5 mm bleed", text), text
    assert re.search(r"presets.yaml:6:\d+: .*source", text), text          # a product without its source
    assert re.search(r"presets.yaml:7:\d+: unknown key 'pixls'.*did you mean 'pixels'", text), text


# --- png -------------------------------------------------------------------------------------

def test_png_export_names_sizes_and_determinism(tmp_path):
    pack = own_pack("mini", tmp_path, "Our Game")
    folder = export("png", pack, tmp_path / "out", "--dpi", "150")
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png"))
    game = load_pack(pack)
    expected = sum(g.total * g.sides for g in game.groups)
    assert len(names) == expected
    assert "cards/escape-1-front.png" in names and "cards/escape-2-back.png" in names
    assert "board/board-1-front.png" in names
    # poker 63 x 88 mm plus 3 mm bleed each side at 150 DPI
    assert png_size(folder / "cards/escape-1-front.png") == (round(69 * 150 / 25.4), round(94 * 150 / 25.4))
    again = export("png", pack, tmp_path / "again", "--dpi", "150")
    for name in names:
        assert (folder / name).read_bytes() == (again / name).read_bytes(), name


def test_png_shows_the_same_face_as_the_pdf(tmp_path):
    """One renderer: the print-shop PDF page, rasterized by PyMuPDF, looks like the PNG."""
    pack = own_pack("mini", tmp_path, "pdf-vs-png")
    out = tmp_path / "out"
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet", "--paper", "face")
    assert code == 0, stderr
    folder = export("png", pack, out, "--dpi", "100", "--group", "cards")
    page = pymupdf.open(out / pack.name / f"{pack.name}-sheets.pdf")[0]
    shot = page.get_pixmap(dpi=100)
    png = cairo.ImageSurface.create_from_png(str(folder / "cards" / "plain-1-1-front.png"))
    assert abs(shot.width - png.get_width()) <= 1 and abs(shot.height - png.get_height()) <= 1   # rounding
    # compare as RGB rows: PyMuPDF gives RGB, cairo BGRA (little-endian)
    cairo_rows = [bytes(v for i in range(0, len(r), 4) for v in (r[i + 2], r[i + 1], r[i])) for r in pixels(png)]
    width = min(shot.width, png.get_width())
    cairo_rows = [row[:3 * width] for row in cairo_rows]
    mupdf_rows = [shot.samples[y * shot.stride: y * shot.stride + 3 * width] for y in range(shot.height)]
    assert mean_difference(cairo_rows, mupdf_rows) < 6
    other = cairo.ImageSurface.create_from_png(str(folder / "cards" / "escape-1-front.png"))
    other_rows = [bytes(v for i in range(0, len(r), 4) for v in (r[i + 2], r[i + 1], r[i]))[:3 * width] for r in pixels(other)]
    assert mean_difference(other_rows, mupdf_rows) > mean_difference(cairo_rows, mupdf_rows)


def test_preset_gives_the_shops_pixels_and_refuses_what_it_does_not_sell(tmp_path):
    pack = own_pack("mini", tmp_path, "shop game")
    out = tmp_path / "out"
    folder = export("png", pack, out, "--preset", "thegamecrafter", "--group", "cards")
    for image in folder.rglob("*.png"):
        assert png_size(image) == (825, 1125), image
    before = {p: p.read_bytes() for p in folder.rglob("*.png")}
    code, _, stderr = run_cli("export", "png", pack, "--out", out, "--preset", "makeplayingcards", "--group", "board")
    assert code == 1                             # a group named with --group is refused, not skipped
    assert re.search(r"board.yaml:\d+:\d+: group 'board' is 300.0 x 400.0 mm, a size MakePlayingCards does not sell", stderr), stderr
    assert "poker card 63.5 x 88.9 mm" in stderr and "Traceback" not in stderr
    assert {p: p.read_bytes() for p in folder.rglob("*.png")} == before      # earlier export untouched
    code, _, stderr = run_cli("export", "png", pack, "--out", out, "--preset", "makeplayingcards")
    assert code == 0, stderr                     # unnamed: the unsold board is skipped, one line
    assert len(re.findall(r"board.yaml:\d+:\d+: group 'board' skipped: 300.0 x 400.0 mm is a size MakePlayingCards "
                          r"does not sell", stderr)) == 1, stderr
    assert {p.parent.name for p in folder.rglob("*.png")} == {"cards"}


def test_build_paper_face_with_a_preset_sets_the_shop_page_and_trim(tmp_path):
    pack = own_pack("mini", tmp_path, "face-preset")
    (pack / "board.yaml").unlink()
    out = tmp_path / "out"
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet", "--paper", "face", "--preset", "drivethrucards")
    assert code == 0, stderr
    mm = 72 / 25.4
    for page in pymupdf.open(out / pack.name / "face-preset-sheets.pdf"):
        assert page.rect.width / mm == pytest.approx(69.85, abs=0.05)        # 825 px at 300 DPI
        assert page.rect.height / mm == pytest.approx(95.25, abs=0.05)
        trim = page.trimbox
        assert trim.width / mm == pytest.approx(63.5, abs=0.05) and trim.height / mm == pytest.approx(88.9, abs=0.05)
    code, _, stderr = run_cli("build", pack, "--out", out, "--preset", "drivethrucards")
    assert code == 2 and "--paper face" in stderr
    code, _, stderr = run_cli("build", pack, "--out", out, "--group", "cards")
    assert code == 2 and "--paper face" in stderr


def test_build_face_preset_skips_unsold_groups_a_line_each_and_takes_group(tmp_path):
    """Every built-in pack has a group a shop does not sell: the build prints the others, one
    line per skipped group; --group picks groups; naming an unsold group is refused."""
    pack = own_pack("royal-dukes", tmp_path, "shop-dukes")
    out = tmp_path / "out"
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet", "--paper", "face", "--preset", "makeplayingcards")
    assert code == 0, stderr
    game = load_pack(pack)
    shop = load_presets()["makeplayingcards"]
    unsold = [g for g in game.groups if shop.product_for(g) is None]
    sold = [g for g in game.groups if g not in unsold]
    assert unsold and sold
    for g in unsold:
        assert len(re.findall(rf"group '{g.id}' skipped: .* a size MakePlayingCards does not sell", stderr)) == 1, stderr
    pages = pymupdf.open(out / "shop-dukes" / "shop-dukes-sheets.pdf").page_count
    assert pages == sum(g.total * g.sides for g in sold if g.kind != "mat")
    built = json.loads((out / "shop-dukes" / "build.json").read_text())
    assert {g["id"] for g in built["groups"] if g.get("printed") is False} == {g.id for g in unsold}
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet", "--paper", "face", "--group", sold[0].id)
    assert code == 0, stderr
    pages = pymupdf.open(out / "shop-dukes" / "shop-dukes-sheets.pdf").page_count
    assert pages == sold[0].total * sold[0].sides                       # that group alone
    code, _, stderr = run_cli("build", pack, "--out", out, "--paper", "face", "--preset", "makeplayingcards",
                              "--group", unsold[0].id)
    assert code == 1 and f"group '{unsold[0].id}' is" in stderr and "Traceback" not in stderr
    code, _, stderr = run_cli("build", pack, "--out", out, "--paper", "face", "--group", "nope")
    assert code == 1 and "no group 'nope'" in stderr


# --- tts -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tts_royal(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tts")
    pack = own_pack("royal-dukes", tmp, "Dukes Copy")
    folder = export("tts", pack, tmp / "out", "--max-px", "2048")
    return pack, folder, json.loads((folder / "Dukes Copy.json").read_text())


def _objects(save):
    for obj in save["ObjectStates"]:
        yield obj
        yield from obj.get("ContainedObjects", [])


def test_tts_save_has_the_structure_tts_reads(tts_royal):
    pack, folder, save = tts_royal
    assert isinstance(save["ObjectStates"], list) and save["SaveName"] == "Royal Dukes"
    names = {o["Name"] for o in _objects(save)}
    assert names <= TTS_OBJECTS and {"DeckCustom", "Custom_Tile"} <= names
    game = load_pack(pack)
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile" and not o["Locked"]]
    assert len(tiles) == sum(g.total for g in game.groups if g.kind in ("tile", "chit"))     # one per copy
    hexes = {o["CustomImage"]["CustomTile"]["Type"] for o in tiles}
    assert hexes == {1}                          # Royal Dukes' counters and settlements are hexes
    boards = [o for o in save["ObjectStates"] if o["Locked"]]        # mats: locked box tiles
    assert len(boards) == sum(g.total for g in game.groups if g.kind == "mat")
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in boards} == {0}
    for obj in _objects(save):
        assert set(obj["Transform"]) == {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
        assert re.fullmatch(r"[0-9a-f]{6}", obj["GUID"])
    assert len({o["GUID"] for o in _objects(save)}) == len(list(_objects(save)))


def test_tts_deck_ids_are_key_times_100_plus_cell(tmp_path):
    pack = own_pack("mini", tmp_path, "Big Deck")
    cards = (pack / "cards.yaml").read_text().replace("n: 1..10", "n: 1..80").replace("rulebook_count: 12", "rulebook_count: 82")
    (pack / "cards.yaml").write_text(cards)
    folder = export("tts", pack, tmp_path / "out")
    save = json.loads((folder / "Big Deck.json").read_text())
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    assert set(deck["CustomDeck"]) == {"1", "2"}                 # 82 cards: 69 + 13
    ids = deck["DeckIDs"]
    assert ids == [c["CardID"] for c in deck["ContainedObjects"]] and len(ids) == 82
    for key, sheet in deck["CustomDeck"].items():
        assert set(sheet) == DECK_FIELDS
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        assert sheet["UniqueBack"] is True                      # the fixture's backs name their card
        cells = [i % 100 for i in ids if i // 100 == int(key)]
        assert cells == list(range(len(cells)))                 # key * 100 + cell, cell by cell
        assert max(cells) < sheet["NumWidth"] * sheet["NumHeight"] - 1      # the last cell: hidden card
    for card in deck["ContainedObjects"]:
        assert set(card["CustomDeck"]) == {str(card["CardID"] // 100)}
    assert deck["ContainedObjects"][0]["Nickname"] == "Plain"           # names from item titles


def test_every_sprite_cell_shows_the_face_it_claims(tmp_path):
    pack = own_pack("mini", tmp_path, "sprites")
    folder = export("tts", pack, tmp_path / "out", "--max-px", "1500")
    save = json.loads((folder / "sprites.json").read_text())
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    game = load_pack(pack)
    group = next(g for g in game.groups if g.id == "cards")
    fronts, backs = expand_faces(group)
    renderer = FaceRenderer(game, 0.0)
    sheet_def = deck["CustomDeck"]["1"]
    sheet = cairo.ImageSurface.create_from_png(str(file_of(sheet_def["FaceURL"])))
    back_sheet = cairo.ImageSurface.create_from_png(str(file_of(sheet_def["BackURL"])))
    cols, rows = sheet_def["NumWidth"], sheet_def["NumHeight"]
    cw, ch = sheet.get_width() // cols, sheet.get_height() // rows
    assert max(sheet.get_width(), sheet.get_height()) <= 1500
    for card, front, back in zip(deck["ContainedObjects"], fronts, backs):
        cell = card["CardID"] % 100
        x, y = (cell % cols) * cw, (cell // cols) * ch
        other = next(f for f in fronts[fronts.index(front):] + fronts if renderer.svg(f) != renderer.svg(front))
        for image, face, wrong in ((sheet, front, other), (back_sheet, back, backs[fronts.index(other)])):
            crop = pixels(image, x, y, cw, ch)
            claimed = mean_difference(crop, pixels(rasterize(renderer.svg(face), trim_window(group, cw, ch))))
            unclaimed = mean_difference(crop, pixels(rasterize(renderer.svg(wrong), trim_window(group, cw, ch))))
            assert claimed < 0.5 and claimed < unclaimed, (card["Nickname"], cell, face.side, claimed, unclaimed)


def test_every_referenced_file_exists_and_respects_max_px(tts_royal):
    _, folder, save = tts_royal
    urls = []
    for obj in _objects(save):
        for sheet in obj.get("CustomDeck", {}).values():
            urls += [sheet["FaceURL"], sheet["BackURL"]]
        image = obj.get("CustomImage", {})
        urls += [u for u in (image.get("ImageURL"), image.get("ImageSecondaryURL")) if u]
    assert urls
    for url in set(urls):
        path = file_of(url)
        assert path.is_file() and path.parent == folder / "images", url
        assert max(png_size(path)) <= 2048, url
    assert (folder / "Dukes Copy.png").is_file()                   # the saved object's thumbnail


def test_tts_base_url_and_determinism(tmp_path):
    pack = own_pack("mini", tmp_path, "hosted")
    one = export("tts", pack, tmp_path / "a", "--base-url", "https://example.org/hosted/")
    export("tts", pack, tmp_path / "a", "--base-url", "https://example.org/hosted/")
    text = (one / "hosted.json").read_text()
    urls = re.findall(r'"(https://[^"]+)"', text)
    assert urls and all(u.startswith("https://example.org/hosted/") for u in urls)
    for url in urls:
        assert (one / "images" / url.rsplit("/", 1)[1]).is_file()
    assert "file://" not in text
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    third = export("tts", pack, tmp_path / "b", "--base-url", "https://example.org/hosted/")
    assert files == sorted(p.relative_to(third) for p in third.rglob("*") if p.is_file())
    for name in files:
        assert (one / name).read_bytes() == (third / name).read_bytes(), name


def test_export_usage_errors(tmp_path):
    pack = own_pack("mini", tmp_path, "errs")
    code, _, stderr = run_cli("export", "tts", pack, "--preset", "thegamecrafter", "--out", tmp_path)
    assert code == 2 and "--preset" in stderr
    code, _, stderr = run_cli("export", "png", pack, "--group", "cardz", "--out", tmp_path)
    assert code == 1 and "no group 'cardz'" in stderr and "cards" in stderr and "Traceback" not in stderr


def test_png_encoder_round_trips_pixels_with_partial_transparency():
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 40, 30)
    ctx = cairo.Context(surface)
    ctx.set_source_rgba(0.9, 0.2, 0.1, 0.5)        # half transparent, anti-aliased edges
    ctx.arc(20, 15, 11.3, 0, 6.3)
    ctx.fill()
    data = png_bytes(surface, 300)
    assert b"pHYs" in data and b"tIME" not in data
    back = cairo.ImageSurface.create_from_png(io.BytesIO(data))
    diffs = [abs(a - b) for a, b in zip(bytes(back.get_data()), bytes(surface.get_data()))]
    assert max(diffs) <= 1                             # premultiplied rounding at most
    assert png_size_bytes(data) == (40, 30) and data[25] == 6          # colour type 6: RGBA
    ctx.set_operator(cairo.OPERATOR_DEST_OVER)         # the same circle on white: fully opaque
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    opaque = png_bytes(surface, 300)
    assert opaque[25] == 2                             # colour type 2: RGB, no alpha stored
    back = cairo.ImageSurface.create_from_png(io.BytesIO(opaque))
    assert bytes(back.get_data()) == bytes(surface.get_data())


def png_size_bytes(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


def test_every_component_kind_has_a_tts_object():
    from generator.export import tts
    from generator.kinds import KINDS
    assert set(KINDS) == set(tts.OBJECTS_OF_KIND) == set(tts.ROW_OF_KIND)
    assert all(callable(getattr(tts.TtsExport, method)) for method in tts.OBJECTS_OF_KIND.values())


def test_a_build_keeps_the_exports_and_an_export_keeps_the_build(tmp_path):
    pack = own_pack("mini", tmp_path, "both")
    out = tmp_path / "out"
    folder = export("png", pack, out, "--dpi", "50", "--group", "cards")
    images = sorted(p.relative_to(folder) for p in folder.rglob("*.png"))
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, stderr
    assert sorted(p.relative_to(folder) for p in folder.rglob("*.png")) == images
    export("tts", pack, out)
    assert (out / "both" / "both-sheets.pdf").is_file() and (out / "both" / "tts" / "both.json").is_file()
    assert not [p for p in (out / "both").iterdir() if p.name.startswith(".")]      # no staging left


def test_tts_tiles_have_their_shape_both_sides_and_a_stack_per_item(tmp_path):
    pack = own_pack("mini", tmp_path, "chits")
    (pack / "chits.yaml").write_text(
        "groups:\n"
        "  - id: coins\n    kind: chit\n    shape: circle\n    size: 20mm\n"
        "    template: card.svg.j2\n    back_template: card-back.svg.j2\n"
        "    fields: {title: text, body: text}\n"
        "    items:\n      - {id: gold, title: Gold, body: '1', copies: 3}\n"
        "      - {id: silver, title: Silver, body: '2', copies: 2}\n"
        "  - id: crates\n    kind: chit\n    shape: square\n    size: 15mm\n"
        "    template: card.svg.j2\n    fields: {title: text, body: text}\n"
        "    items:\n      - {id: crate, title: Crate, body: x}\n")
    folder = export("tts", pack, tmp_path / "out", "--group", "coins", "--group", "crates", "--lenient")
    save = json.loads((folder / "chits.json").read_text())
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    by_name = {}
    for tile in tiles:
        by_name.setdefault(tile["Nickname"], []).append(tile)
    assert {k: len(v) for k, v in by_name.items()} == {"Gold": 3, "Silver": 2, "Crate": 1}
    for name, stack in by_name.items():
        image = stack[0]["CustomImage"]
        assert image["CustomTile"]["Type"] == (0 if name == "Crate" else 2)        # box, circle
        two_sided = name != "Crate"
        assert (image["ImageURL"] != image["ImageSecondaryURL"]) == two_sided
        assert len({(t["Transform"]["posX"], t["Transform"]["posZ"]) for t in stack}) == 1      # one pile
        assert sorted(t["Transform"]["posY"] for t in stack) == [t["Transform"]["posY"] for t in stack]
    gold = cairo.ImageSurface.create_from_png(str(file_of(by_name["Gold"][0]["CustomImage"]["ImageURL"])))
    corner = pixels(gold, 0, 0, 2, 2)
    assert all(row[3::4] == b"\x00\x00" for row in corner)        # a circle: transparent corners
