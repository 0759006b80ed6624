"""A pack's own pictures on faces (issue 23, part 4): the `image` field type, the image() helper and
raw <image href="art/...">, drawn on svgdraw's fast path. Every picture here is made by Pillow in
the test; the PDFs are read as a printer would (pikepdf for the streams, PyMuPDF for pixels).
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pikepdf
import pymupdf
import pytest
from PIL import Image

from conftest import run_cli

RED, GREEN, BLUE, YELLOW, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 255, 255)
QUADRANTS = (RED, GREEN, BLUE, YELLOW)        # top-left, top-right, bottom-left, bottom-right
BLEED = 3.0
DPI = 100

GAME = """title: Art Test
fonts:
  title: {family: Liberation Serif, weight: bold}
  body: {family: Liberation Sans}
defaults: {bleed: 3mm}
"""
# a white card with the item's picture in a 50 x 25 mm box at (5, 10), as the item says
CARD = """<rect x="-3" y="-3" width="69" height="94" fill="#ffffff"/>
{{ image(item.art, 5, 10, 50, 25, fit=item.fit, focus=item.focus) }}
"""


def quadrants(width: int, height: int, colours=QUADRANTS, mode="RGB") -> Image.Image:
    """A picture in four coloured quadrants."""
    px = np.zeros((height, width, len(mode)), np.uint8)
    h2, w2 = height // 2, width // 2
    for (rows, cols), colour in zip(((slice(0, h2), slice(0, w2)), (slice(0, h2), slice(w2, None)),
                                     (slice(h2, None), slice(0, w2)), (slice(h2, None), slice(w2, None))), colours):
        px[rows, cols] = colour
    return Image.fromarray(px, mode)


def encoded(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def make_pack(folder, items: list[dict], pictures: dict[str, bytes], template: str = CARD, fields=None):
    (folder / "templates").mkdir(parents=True)
    (folder / "art").mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "templates" / "card.svg.j2").write_text(template)
    for rel, data in pictures.items():
        (folder / rel).write_bytes(data)
    fields = fields or {"art": "image", "fit": "text", "focus": "text"}
    items = [{"fit": "cover", "focus": "center", **item} for item in items] if "fit" in fields else items
    deck = {"groups": [{"id": "deck", "kind": "card", "size": "poker", "template": "card.svg.j2",
                        "fields": fields, "items": items}]}
    (folder / "cards.yaml").write_text(json.dumps(deck))
    return folder


def build(pack, *options) -> tuple:
    code, out, err = run_cli("build", pack, "--out", pack.parent / "out", *options)
    assert code == 0, err
    return pack.parent / "out" / pack.name / f"{pack.name}-sheets.pdf", out + err


def page_pixels(pdf, number: int = 0) -> np.ndarray:
    with pymupdf.open(pdf) as doc:
        pix = doc[number].get_pixmap(dpi=DPI)
        return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]


def at(pixels: np.ndarray, x_mm: float, y_mm: float) -> tuple:
    """The colour at a point of the face (mm from its trim's top-left) on a --paper face page."""
    scale = DPI / 25.4
    return tuple(int(v) for v in pixels[round((y_mm + BLEED) * scale), round((x_mm + BLEED) * scale)])


def near(colour, expected, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def pdf_images(pdf) -> list:
    """Every image in the file (on pages or inside forms), its alpha masks aside:
    (width, height, filter, colour space, has a mask, the stream's bytes as stored)."""
    with pikepdf.open(pdf) as doc:
        images = [obj for obj in doc.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]
        masks = {image.SMask.objgen for image in images if "/SMask" in image}
        return [(int(image.Width), int(image.Height), str(image.get("/Filter")), str(image.get("/ColorSpace")),
                 "/SMask" in image, image.read_raw_bytes()) for image in images if image.objgen not in masks]


# --- the JPEG stream: the file's own bytes, once per PDF ---------------------------------------

def test_jpeg_embedded_as_its_own_stream_once(tmp_path):
    jpeg = encoded(quadrants(600, 900), "JPEG", quality=88)
    pack = make_pack(tmp_path / "jpeg", [{"id": "a", "art": "art/q.jpg"}, {"id": "b", "art": "art/q.jpg", "fit": "fill"},
                                         {"id": "c", "art": "art/q.jpg", "copies": 3}], {"art/q.jpg": jpeg})
    pdf, _ = build(pack)
    images = pdf_images(pdf)
    assert len(images) == 1, [i[:5] for i in images]          # five faces, one picture, embedded once
    width, height, filter_, space, _, raw = images[0]
    assert (width, height, filter_, space) == (600, 900, "/DCTDecode", "/DeviceRGB")
    assert raw == jpeg                                     # byte for byte the file: not re-compressed


# --- fit and focus, as a person sees the printed card ------------------------------------------

# 600 x 900 px (2:3) into the 50 x 25 mm box at (5, 10): where each colour shows
FITS = {
    # stretched: the four quadrants fill the box's four quarters
    ("fill", "center"): {(17, 16): RED, (43, 16): GREEN, (17, 29): BLUE, (43, 29): YELLOW},
    # the whole picture, 16.7 x 25 mm, centred: white either side
    ("contain", "center"): {(10, 22): WHITE, (50, 22): WHITE, (26, 16): RED, (34, 16): GREEN, (26, 29): BLUE,
                            (34, 29): YELLOW},
    # placed at the left
    ("contain", "left"): {(7, 16): RED, (19, 29): YELLOW, (30, 22): WHITE},
    # 50 x 75 mm, its middle 25 mm showing: the line between top and bottom across the middle
    ("cover", "center"): {(17, 13): RED, (43, 13): GREEN, (17, 32): BLUE, (43, 32): YELLOW},
    # its top 25 mm: only the top quadrants
    ("cover", "top"): {(17, 13): RED, (43, 32): GREEN},
    # focus as fractions across, down: its bottom
    ("cover", "0.5,1"): {(17, 13): BLUE, (43, 32): YELLOW},
}


def test_fit_and_focus_crop_as_they_say(tmp_path):
    jpeg = encoded(quadrants(600, 900), "JPEG", quality=92)
    items = [{"id": f"c{n}", "art": "art/q.jpg", "fit": fit, "focus": focus} for n, (fit, focus) in enumerate(FITS)]
    pack = make_pack(tmp_path / "fits", items, {"art/q.jpg": jpeg})
    pdf, _ = build(pack, "--paper", "face")
    for page, ((fit, focus), expected) in enumerate(FITS.items()):
        pixels = page_pixels(pdf, page)
        for (x, y), colour in expected.items():
            assert near(at(pixels, x, y), colour), (fit, focus, (x, y), at(pixels, x, y), colour)
        assert near(at(pixels, 3, 22), WHITE) and near(at(pixels, 57, 22), WHITE)     # nothing outside the box
        assert near(at(pixels, 30, 8), WHITE) and near(at(pixels, 30, 37), WHITE)


def test_transparency_kept(tmp_path):
    """A PNG whose right half is transparent and bottom-left half see-through, over a blue card."""
    px = np.zeros((200, 200, 4), np.uint8)
    px[:, :100] = (255, 0, 0, 255)
    px[100:, :100] = (255, 0, 0, 128)
    png = encoded(Image.fromarray(px, "RGBA"), "PNG")
    template = '<rect x="-3" y="-3" width="69" height="94" fill="#0000ff"/>\n{{ image(item.art, 10, 10, 40, 40) }}\n'
    pack = make_pack(tmp_path / "alpha", [{"id": "a", "art": "art/a.png"}], {"art/a.png": png}, template)
    pdf, _ = build(pack, "--paper", "face")
    pixels = page_pixels(pdf)
    assert near(at(pixels, 20, 20), RED)
    assert near(at(pixels, 40, 20), BLUE)                  # transparent: the card shows through
    assert near(at(pixels, 20, 40), (128, 0, 127), 20)     # half: red over blue
    assert [i[4] for i in pdf_images(pdf)] == [True]       # an /SMask carries the alpha


def test_exif_orientation_applied(tmp_path):
    """A camera's landscape pixels with EXIF 'turn 90 degrees clockwise' (6) print upright; the JPEG is
    re-encoded (its pixels are turned), the only way a PDF shows it turned."""
    stored = quadrants(900, 600)                         # red, green / blue, yellow as stored
    exif = Image.Exif()
    exif[0x0112] = 6
    jpeg = encoded(stored, "JPEG", quality=92, exif=exif.tobytes())
    pack = make_pack(tmp_path / "exif", [{"id": "a", "art": "art/turned.jpg", "fit": "fill"}], {"art/turned.jpg": jpeg})
    pdf, _ = build(pack, "--paper", "face")
    pixels = page_pixels(pdf)
    # turned clockwise: blue, red / yellow, green
    for (x, y), colour in {(17, 16): BLUE, (43, 16): RED, (17, 29): YELLOW, (43, 29): GREEN}.items():
        assert near(at(pixels, x, y), colour), ((x, y), at(pixels, x, y))
    [(width, height, filter_, _, _, raw)] = pdf_images(pdf)
    assert (width, height, filter_) == (600, 900, "/DCTDecode") and raw != jpeg


def test_cmyk_jpeg_printed_in_its_colours(tmp_path):
    cmyk = quadrants(400, 400, ((255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (0, 0, 0, 255)), "CMYK")
    jpeg = encoded(cmyk, "JPEG", quality=95)
    pack = make_pack(tmp_path / "cmyk", [{"id": "a", "art": "art/cmyk.jpg", "fit": "fill"}], {"art/cmyk.jpg": jpeg})
    pdf, _ = build(pack, "--paper", "face")
    pixels = page_pixels(pdf)
    cyan, magenta, yellow, black = (0, 255, 255), (255, 0, 255), (255, 255, 0), (0, 0, 0)
    for (x, y), colour in {(17, 16): cyan, (43, 16): magenta, (17, 29): yellow, (43, 29): black}.items():
        assert near(at(pixels, x, y), colour, 50), ((x, y), at(pixels, x, y), colour)
    [(_, _, filter_, space, _, _)] = pdf_images(pdf)
    assert (filter_, space) == ("/DCTDecode", "/DeviceRGB")    # converted, not left as CMYK for the printer to guess


# --- raw <image href>, SVG and WebP art, exports -----------------------------------------------

def test_raw_image_href_svg_and_webp_art(tmp_path):
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="10" height="10" fill="#ff0000"/>'
           b'<rect x="10" width="10" height="10" fill="#00ff00"/></svg>')
    webp = encoded(quadrants(300, 300), "WEBP", quality=90)
    template = ('<rect x="-3" y="-3" width="69" height="94" fill="#ffffff"/>\n'
                '<image href="art/two.svg" x="5" y="5" width="40" height="20"/>\n'
                '{{ image("art/q.webp", 5, 40, 40, 40, fit="fill") }}\n')
    pack = make_pack(tmp_path / "raw", [{"id": "a"}], {"art/two.svg": svg, "art/q.webp": webp}, template,
                     fields={"n": "int"})
    pdf, _ = build(pack, "--paper", "face")
    pixels = page_pixels(pdf)
    assert near(at(pixels, 15, 15), RED) and near(at(pixels, 35, 15), GREEN)
    assert near(at(pixels, 15, 50), RED) and near(at(pixels, 35, 70), YELLOW)
    # the SVG drawn as vectors: the only image in the PDF is the WebP's, re-encoded as JPEG
    assert [(i[0], i[1], i[2]) for i in pdf_images(pdf)] == [(300, 300, "/DCTDecode")]


def test_png_export_shows_the_pdf_pixels(tmp_path):
    jpeg = encoded(quadrants(600, 900), "JPEG", quality=92)
    pack = make_pack(tmp_path / "export", [{"id": "a", "art": "art/q.jpg", "fit": "cover", "focus": "top"}],
                     {"art/q.jpg": jpeg})
    pdf, _ = build(pack, "--paper", "face")
    code, _, err = run_cli("export", "png", pack, "--out", tmp_path / "out", "--dpi", str(DPI))
    assert code == 0, err
    [png] = list((tmp_path / "out" / "export" / "png").rglob("*.png"))
    exported = np.asarray(Image.open(png).convert("RGB"))
    printed = page_pixels(pdf)
    for x, y in ((17, 13), (43, 32), (20, 22), (3, 22), (30, 37)):
        assert near(at(exported, x, y), at(printed, x, y), 12), ((x, y), at(exported, x, y), at(printed, x, y))


# --- resolution --------------------------------------------------------------------------------

def test_low_resolution_warned_with_item_and_dpi(tmp_path):
    small = encoded(quadrants(120, 180), "JPEG")         # 120 px over 50 mm (cover): 61 dpi
    sharp = encoded(quadrants(600, 900), "JPEG")         # 305 dpi
    pack = make_pack(tmp_path / "dpi", [{"id": "blurry", "art": "art/small.jpg"}, {"id": "crisp", "art": "art/big.jpg"}],
                     {"art/small.jpg": small, "art/big.jpg": sharp})
    _, said = build(pack)
    assert "item 'blurry'" in said and "image 'art/small.jpg' prints at 61 dpi" in said, said
    assert "crisp" not in said and "big.jpg" not in said
    code, _, err = run_cli("preview", pack, "--out", tmp_path / "preview")
    assert code == 0, err
    page = next((tmp_path / "preview").rglob("index.html")).read_text()
    assert "prints at 61 dpi" in page and "blurry" in page


# --- the face cache ----------------------------------------------------------------------------

def test_face_cache_renders_again_when_the_picture_changes(tmp_path):
    from generator.cache import FaceCache
    from generator.manifest import load_pack as load_game
    from generator.render import FaceRef
    pack = make_pack(tmp_path / "cache", [{"id": "a", "art": "art/q.png"}], {"art/q.png": encoded(quadrants(60, 90), "PNG")})
    cache = FaceCache()

    def svg():
        game = load_game(pack)
        group = game.groups[0]
        return cache.renderer(game, 3.0).svg(FaceRef(group, group.items[0], "front"))
    first, again = svg(), svg()
    assert first == again and cache.renders == 1
    (pack / "art" / "q.png").write_bytes(encoded(quadrants(60, 90, (BLUE, BLUE, BLUE, BLUE)), "PNG"))
    changed = svg()
    assert changed != first and cache.renders == 2


# --- the docs' example ---------------------------------------------------------------------------

def test_docs_picture_example_builds(tmp_path):
    """docs/manifests.md, Pictures: its deck and template, with the worked example's game.yaml."""
    import re
    from conftest import ROOT
    doc = (ROOT / "docs" / "manifests.md").read_text()
    section = doc[doc.index("### Pictures"):doc.index("## Print layout")]
    deck, template = re.findall(r"```(?:yaml|jinja)\n(.*?)```", section, re.S)
    game = re.search(r"^`game\.yaml`:\n\n```yaml\n(.*?)```", doc, re.M | re.S).group(1)
    pack = tmp_path / "monsters"
    (pack / "templates").mkdir(parents=True)
    (pack / "art").mkdir()
    (pack / "game.yaml").write_text(re.sub(r"^icons:.*\n", "", game, flags=re.M))
    (pack / "monsters.yaml").write_text(deck)
    (pack / "templates" / "monster.svg.j2").write_text(template)
    pictures = {name: encoded(quadrants(600, 900, colours), "JPEG") for name, colours in
                (("goblin", QUADRANTS), ("troll", (BLUE, BLUE, GREEN, GREEN)))}
    for name, data in pictures.items():
        (pack / "art" / f"{name}.jpg").write_bytes(data)
    pdf, said = build(pack, "--paper", "face")
    assert "dpi" not in said
    assert sorted(i[5] for i in pdf_images(pdf)) == sorted(pictures.values())
    top = at(page_pixels(pdf, 0), 31.5, 10)            # focus='top': the goblin's top half shows
    assert near(top, RED) or near(top, GREEN), top


def test_a_picture_in_both_halves_of_a_large_pdf_is_stored_once(tmp_path):
    """40 pages are drawn in two parts (two processes where there are two cores) and merged; the
    picture every card shows was in both."""
    jpeg = encoded(quadrants(600, 900), "JPEG")
    pack = make_pack(tmp_path / "halves", [{"id": f"c{n}", "art": "art/q.jpg", "focus": f"0.5,{n / 40}"} for n in range(40)],
                     {"art/q.jpg": jpeg})
    pdf, _ = build(pack, "--paper", "face")
    images = pdf_images(pdf)
    assert [i[5] for i in images] == [jpeg]
    assert near(at(page_pixels(pdf, 39), 17, 32), BLUE)        # the last page still shows it
    code, _, err = run_cli("build", pack, "--out", tmp_path / "again", "--paper", "face", "--quiet")
    assert code == 0, err
    assert (tmp_path / "again" / "halves" / "halves-sheets.pdf").read_bytes() == pdf.read_bytes()   # byte for byte


# --- colour profiles ----------------------------------------------------------------------------

SRGB_ICC = Path(pikepdf.__file__).parent / "pdfa" / "data" / "sRGB.icc"      # shipped with pikepdf


def swapped_profile() -> bytes:
    """pikepdf's sRGB profile with its red and blue primaries swapped (and its name changed): a
    picture tagged with it means blue where its pixels say red."""
    import struct
    icc = bytearray(SRGB_ICC.read_bytes())
    entries = {}
    for i in range(struct.unpack(">I", icc[128:132])[0]):
        sig, offset, size = struct.unpack(">4sII", icc[132 + 12 * i:144 + 12 * i])
        entries[sig] = (132 + 12 * i, offset, size)
    (red_at, *red), (blue_at, *blue) = entries[b"rXYZ"], entries[b"bXYZ"]
    icc[red_at + 4:red_at + 12], icc[blue_at + 4:blue_at + 12] = struct.pack(">II", *blue), struct.pack(">II", *red)
    return bytes(icc).replace(b"sRGB", b"swap")


def test_icc_profile_converted_and_srgb_passed_through(tmp_path):
    swapped = encoded(quadrants(400, 400), "JPEG", quality=95, icc_profile=swapped_profile())
    tagged = encoded(quadrants(400, 400), "JPEG", quality=95,
                     icc_profile=SRGB_ICC.read_bytes())
    pack = make_pack(tmp_path / "icc", [{"id": "a", "art": "art/swapped.jpg", "fit": "fill"},
                                        {"id": "b", "art": "art/srgb.jpg", "fit": "fill"}],
                     {"art/swapped.jpg": swapped, "art/srgb.jpg": tagged})
    pdf, _ = build(pack, "--paper", "face")
    pixels = page_pixels(pdf, 0)
    for (x, y), colour in {(17, 16): BLUE, (43, 16): GREEN, (17, 29): RED, (43, 29): (0, 255, 255)}.items():
        assert near(at(pixels, x, y), colour, 50), ((x, y), at(pixels, x, y), colour)
    raws = [i[5] for i in pdf_images(pdf)]
    assert tagged in raws and swapped not in raws and len(raws) == 2    # sRGB as it is; the other converted


# --- spreadsheets ----------------------------------------------------------------------------------

def test_image_column_of_a_spreadsheet(tmp_path):
    pack = make_pack(tmp_path / "sheet", [], {"art/goblin.jpg": encoded(quadrants(600, 900), "JPEG")})
    deck = json.loads((pack / "cards.yaml").read_text())
    deck["groups"][0]["items"] = {"from": "cards.csv"}
    (pack / "cards.yaml").write_text(json.dumps(deck))
    (pack / "cards.csv").write_text("id,art,fit,focus\ngoblin,art/goblin.jpg,cover,top\n")
    pdf, _ = build(pack, "--paper", "face")
    assert near(at(page_pixels(pdf), 17, 32), RED)            # its top: red and green only
    (pack / "cards.csv").write_text("id,art,fit,focus\ngoblin,art/goblin.jpg,cover,top\ntroll,art/gobiln.jpg,fill,center\n")
    code, _, err = run_cli("validate", pack)
    assert code == 1 and "Traceback" not in err
    assert ("cards.csv:3:1: column art: image 'art/gobiln.jpg' not found in the game pack; "
            "did you mean 'art/goblin.jpg'?") in err, err
