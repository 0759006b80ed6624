"""What a player meets when a pnpgen Tabletop Simulator export loads (issue 25): each object kind
re-read from the export and checked against the structure of public mods' saves and the figures
of generator/data/tts.yaml (hex images flat-topped, tiles Stretch true, true relative sizes)."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import cairocffi as cairo
import pytest
import yaml

from conftest import copy_pack, run_cli
from generator.manifest import DATA_DIR, load_pack

TTS = yaml.safe_load((DATA_DIR / "tts.yaml").read_text())


def exported(tmp, name: str, *options):
    """A copy of a built-in pack exported to Tabletop Simulator: (its model, the tts folder, the save)."""
    pack = copy_pack(name, tmp)
    code, _, stderr = run_cli("export", "tts", pack, "--out", tmp / "out", "--quiet", *options)
    assert code == 0, stderr
    folder = tmp / "out" / name / "tts"
    return load_pack(pack), folder, json.loads((folder / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def royal(tmp_path_factory):
    """Royal Dukes: a card deck (player aids), pointy-topped hex counters, a board."""
    return exported(tmp_path_factory.mktemp("table"), "royal-dukes", "--max-px", "2048")


def image(url: str) -> cairo.ImageSurface:
    assert url.startswith("file://"), url
    return cairo.ImageSurface.create_from_png(unquote(urlparse(url).path))


def alpha(surface: cairo.ImageSurface, fx: float, fy: float) -> int:
    """Alpha of the pixel at fractions (fx, fy) of the image's width and height."""
    x, y = int(fx * (surface.get_width() - 1)), int(fy * (surface.get_height() - 1))
    surface.flush()
    return bytes(surface.get_data())[y * surface.get_stride() + 4 * x + 3]     # BGRA, little-endian


def by_group(game, save):
    """The group each top-level object was made from, by its nickname."""
    names = {}
    for group in game.groups:
        names[group.name] = group
        for item in group.items:
            for key in ("title", "name"):
                if isinstance(item.data.get(key), str):
                    names[item.data[key].strip()] = group
    out = []
    for obj in save["ObjectStates"]:
        nickname = obj["Nickname"].split(" (")[0]
        out.append((obj, names.get(nickname) or names.get(obj["Nickname"])))
    return out


def table_size_mm(obj: dict, aspect: float) -> tuple[float, float]:
    """(width, depth) on the table by tts.yaml's sourced rules, computed here apart from the
    exporter: height = the kind's height at scale 1 x scale, width = height x the image's aspect,
    swapped when the object is turned a quarter."""
    t = obj["Transform"]
    card = obj["Name"] in ("Card", "DeckCustom")
    depth = (TTS["card"] if card else TTS["tile"])["height_mm_at_scale_1"] * t["scaleZ"]
    width = depth * aspect
    return (depth, width) if round(t["rotY"]) % 180 == 90 else (width, depth)


def test_hex_tiles_are_flat_topped_and_turned_back(royal):
    game, _, save = royal
    hexes = [(o, g) for o, g in by_group(game, save) if o["Name"] == "Custom_Tile"
             and o["CustomImage"]["CustomTile"]["Type"] == TTS["tile"]["types"]["hexagon"]]
    assert hexes
    for obj, group in hexes[:5]:
        assert group.orientation == "pointy"                  # pnpgen draws Royal Dukes' hexes pointy-topped
        face = image(obj["CustomImage"]["ImageURL"])
        assert face.get_width() > face.get_height()           # flat-topped: corner to corner across
        assert alpha(face, 0.02, 0.02) == 0 and alpha(face, 0.98, 0.98) == 0       # corners transparent
        assert alpha(face, 0.35, 0.01) == 255                 # a flat top edge spans the middle half...
        assert alpha(face, 0.01, 0.35) == 0                   # ...and the left side is a point
        assert obj["Transform"]["rotY"] % 180 == 90           # the object turned back: art upright


def test_tiles_and_boards_have_the_fields_of_real_saves(royal):
    game, _, save = royal
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    for obj in tiles:
        tile = obj["CustomImage"]["CustomTile"]
        assert tile["Stretch"] is True and tile["Thickness"] == 0.2
        assert obj["Transform"]["scaleX"] == obj["Transform"]["scaleZ"]      # the image's aspect makes the shape
    boards = [o for o in tiles if o["Locked"]]
    assert [o["Nickname"] for o in boards] == ["Board"] and not boards[0]["CustomImage"]["CustomTile"]["Stackable"]
    assert all(not o["Locked"] for o in save["ObjectStates"] if o not in boards)
    assert {"GameType", "GameComplexity", "Tags"} <= set(save)


def test_decks_and_cards_have_the_fields_of_real_saves(royal):
    game, _, save = royal
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    assert deck["Hands"] is False and all(c["Hands"] is True for c in deck["ContainedObjects"])
    for obj in [deck] + deck["ContainedObjects"]:
        assert obj["ColorDiffuse"] == {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}
    group = next(g for g in game.groups if g.kind == "card")
    expected = 1 if group.corner_radius == 0 else 0          # TTS: 0 rounded rectangle, 1 rectangle
    assert {s["Type"] for s in deck["CustomDeck"].values()} == {expected}


def test_card_tile_and_board_keep_their_printed_proportions(royal):
    """Sizes on the table, from the saved scale and the image's aspect, against the millimetres
    printed on the sheets: every ratio within 2 %."""
    game, _, save = royal
    sizes = {}
    for obj, group in by_group(game, save):
        if obj["Name"] == "DeckCustom":
            sheet = next(iter(obj["CustomDeck"].values()))
            surface = image(sheet["FaceURL"])
            aspect = (surface.get_width() / sheet["NumWidth"]) / (surface.get_height() / sheet["NumHeight"])
        else:
            surface = image(obj["CustomImage"]["ImageURL"])
            aspect = surface.get_width() / surface.get_height()
        sizes.setdefault(group.kind, (table_size_mm(obj, aspect), (group.width, group.height)))
    assert {"card", "chit", "mat"} <= set(sizes)                  # Royal Dukes: hex chits
    kinds = sorted(sizes)
    for a in kinds:
        (tw, td), (pw, ph) = sizes[a]
        assert tw / td == pytest.approx(pw / ph, rel=0.02), a        # each object's own shape
        for b in kinds:
            (uw, ud), (qw, qh) = sizes[b]
            assert tw / uw == pytest.approx(pw / qw, rel=0.02), (a, b)     # widths in true proportion
            assert td / ud == pytest.approx(ph / qh, rel=0.02), (a, b)


def test_a_scale_1_card_and_tile_are_the_sourced_sizes():
    """tts.yaml's figures against their sources: the poker card's height (Clank Legacy's cards
    at scale 1) and 1.318 / 3.5 of it for a tile (its 29 in boards at scale 22.0)."""
    assert TTS["card"]["height_mm_at_scale_1"] == pytest.approx(3.5 * 25.4)
    assert TTS["tile"]["height_mm_at_scale_1"] == pytest.approx(88.9 * 1.318 / 3.5, abs=0.01)
    assert 29 / 22.0 == pytest.approx(1.318, abs=0.001)       # Clank: 29 in boards at scale 22.0


def test_image_folder_addresses_the_images_where_they_will_sit(tmp_path):
    """--image-folder: every image as a local path of the TTS computer (a Windows folder with
    backslashes, as the Knowledge Base's example path), each naming a file of images/."""
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    windows = "C:\\Users\\me\\Documents\\pnpgen\\mini\\"
    code, stdout, stderr = run_cli("export", "tts", pack, "--out", out, "--image-folder", windows)
    assert code == 0, stderr
    assert windows in stdout                                  # the note says where to copy images/
    folder = out / "mini" / "tts"
    text = (folder / "mini.json").read_text()
    assert "file://" not in text
    paths = [v for v in _urls(json.loads(text))]
    assert paths and all(p.startswith("C:\\Users\\me\\Documents\\pnpgen\\mini\\") for p in paths)
    for path in paths:
        assert (folder / "images" / path.rsplit("\\", 1)[1]).is_file(), path
    code, _, stderr = run_cli("export", "tts", pack, "--out", out, "--image-folder", "/srv/tts images/")
    assert code == 0, stderr
    assert all(p.startswith("/srv/tts images/") and "\\" not in p
               for p in _urls(json.loads((folder / "mini.json").read_text())))


def test_image_folder_refusals(tmp_path):
    pack = copy_pack("mini", tmp_path)
    for options, words in ((["--image-folder", "C:\\x", "--base-url", "https://example.org/"], "not both"),
                           (["--image-folder", "https://example.org/imgs"], "--base-url"),
                           (["--image-folder", "bad\x01name"], "control characters")):
        code, _, stderr = run_cli("export", "tts", pack, "--out", tmp_path / "out", *options)
        assert code == 2 and words in stderr and "Traceback" not in stderr, (options, stderr)
    assert not (tmp_path / "out").exists()


def _urls(save):
    objects = list(save["ObjectStates"])
    for obj in list(objects):
        objects += obj.get("ContainedObjects", [])
    for obj in objects:
        for sheet in obj.get("CustomDeck", {}).values():
            yield sheet["FaceURL"]
            yield sheet["BackURL"]
        image = obj.get("CustomImage", {})
        yield from (u for u in (image.get("ImageURL"), image.get("ImageSecondaryURL")) if u)


@pytest.fixture(scope="module")
def shires_dice(tmp_path_factory):
    game, _, save = exported(tmp_path_factory.mktemp("dice"), "shires", "--group", "die-nets")
    return game, save


def test_dice_are_custom_d6_with_the_rotation_values_of_real_saves(shires_dice):
    game, save = shires_dice
    group = next(g for g in game.groups if g.id == "die-nets")
    dice = save["ObjectStates"]
    assert {o["Name"] for o in dice} == {"Custom_Dice"} and len(dice) == group.total      # 13 dice, one per copy
    for die in dice:
        assert die["CustomImage"]["CustomDice"] == {"Type": 1}
        turns = [tuple(r["Rotation"][a] for a in "xyz") for r in die["RotationValues"]]
        assert turns == [(-90, 0, 0), (0, 0, 0), (0, 0, -90), (0, 0, 90), (0, 0, -180), (90, 0, 0)]
    militia = next(i for i in group.items if i.id == "militia")
    first = next(d for d in dice if d["Nickname"] == "Militia")
    assert [r["Value"] for r in first["RotationValues"]] == militia.data["faces"]      # hit, blank, ...


def test_each_die_cell_holds_the_face_it_claims(shires_dice):
    """The texture's 3 x 3 cells (the top row unused; 2, 4, 5; then 1 and 6 turned half round, 3):
    each cell, turned upright, against that face cut from the net rendered alone, and against
    the other faces of the same die."""
    from generator.export.raster import Window, draw_face, new_sheet
    from generator.render import FaceRenderer, expand_faces
    game, save = shires_dice
    group = next(g for g in game.groups if g.id == "die-nets")
    renderer = FaceRenderer(game, 0.0)
    cells = TTS["d6"]["cells"]
    for die in {d["Nickname"]: d for d in save["ObjectStates"]}.values():
        texture = image(die["CustomImage"]["ImageURL"])
        cell = texture.get_width() // 3
        assert texture.get_width() == texture.get_height() == 3 * cell
        front = next(f for f in expand_faces(group)[0] if f.item.data["name"] == die["Nickname"])
        svg = renderer.svg(front)

        def alone(n):                      # face n cut from the net, upright, cell x cell
            x, y, side = group.die.faces[n - 1]
            surface, ctx = new_sheet(cell, cell)
            draw_face(ctx, svg, Window(x, y, side, side, cell, cell))
            return surface

        for n in range(1, 7):
            column, row, turn = cells[n]
            crop, ctx = new_sheet(cell, cell)          # the texture's cell, turned back upright
            ctx.translate(cell / 2, cell / 2)
            ctx.rotate(-turn * 3.141592653589793 / 180)
            ctx.translate(-cell / 2, -cell / 2)
            ctx.set_source_surface(texture, -column * cell, -row * cell)
            ctx.rectangle(0, 0, cell, cell)
            ctx.fill()
            claimed = difference(crop, alone(n))
            assert claimed < 2.0, (die["Nickname"], n, claimed)
            others = [difference(crop, alone(m)) for m in range(1, 7)
                      if die["RotationValues"][m - 1]["Value"] != die["RotationValues"][n - 1]["Value"]]
            assert all(claimed < other for other in others), (die["Nickname"], n, claimed, others)
        assert alpha(texture, 0.5, 0.1) == 0                  # the top row is unused


def difference(a: cairo.ImageSurface, b: cairo.ImageSurface) -> float:
    """Mean absolute difference of two same-sized surfaces' bytes, trimmed by 2 px all round
    (resampling at the cell's edges)."""
    a.flush(), b.flush()
    w, h, stride = a.get_width(), a.get_height(), a.get_stride()
    da, db = bytes(a.get_data()), bytes(b.get_data())
    total = count = 0
    for y in range(2, h - 2):
        ra, rb = da[y * stride + 8:y * stride + 4 * (w - 2)], db[y * stride + 8:y * stride + 4 * (w - 2)]
        total += sum(abs(p - q) for p, q in zip(ra, rb))
        count += len(ra)
    return total / count


def test_d4_and_d8_are_tts_numbered_dice_with_a_note_saying_which_number_is_which(tmp_path):
    """No public source shows TTS's d4 and d8 texture layouts: Cones of Dunshire's large and
    special dice come across as TTS's own Die_8 and Die_4, one per copy, and a Notecard each
    group listing, per die, the face every number stands for."""
    pack = copy_pack("cones-of-dunshire", tmp_path)
    code, _, stderr = run_cli("export", "tts", pack, "--out", tmp_path / "out", "--quiet",
                              "--group", "dice-d4", "--group", "dice-d8")
    assert code == 0, stderr
    save = json.loads((tmp_path / "out" / "cones-of-dunshire" / "tts" / "cones-of-dunshire.json").read_text())
    game = load_pack(pack)
    by_name = {}
    for obj in save["ObjectStates"]:
        by_name.setdefault(obj["Name"], []).append(obj)
    assert len(by_name["Die_4"]) == 12 and len(by_name["Die_8"]) == 12 and len(by_name["Notecard"]) == 2
    for die in by_name["Die_4"] + by_name["Die_8"]:
        assert [r["Value"] for r in die["RotationValues"]] == list(range(1, len(die["RotationValues"]) + 1))
        assert len(die["RotationValues"]) == int(die["Name"][-1])
    d4 = next(g for g in game.groups if g.id == "dice-d4")
    key = next(n for n in by_name["Notecard"] if n["Nickname"].startswith(d4.name))["Description"].splitlines()
    assert len(key) == len(d4.items)
    for item, line in zip(d4.items, key):
        assert line == f"{item.id}: " + ", ".join(f"{n} = {c}" for n, c in enumerate(item.data["corners"], 1))
    for die in by_name["Die_4"]:                 # tinted its main colour, the first corner's
        item = next(i for i in d4.items if die["Nickname"].startswith(i.id + " "))
        colour = game.palette[item.data["corners"][0]]
        assert die["ColorDiffuse"] == pytest.approx({k: int(colour[i:i + 2], 16) / 255
                                                     for k, i in (("r", 1), ("g", 3), ("b", 5))}, abs=1e-3)
    assert all(d["ColorDiffuse"] == {"r": 1.0, "g": 1.0, "b": 1.0} for d in by_name["Die_8"])     # four colours: none
    # the d8's listed faces are the net's: game.data rs_types x large_faces_per_color
    d8 = next(g for g in game.groups if g.id == "dice-d8")
    data = game.data
    printed = [t["name"] for t in data["rs_types"] for _ in range(data["dice"]["large_faces_per_color"])]
    assert d8.items[0].data["faces"] == printed
    note = next(n for n in by_name["Notecard"] if n["Nickname"].startswith(d8.name))["Description"]
    assert note == "d8: " + ", ".join(f"{n} = {f}" for n, f in enumerate(printed, 1))


PACKS = ["royal-dukes", "shires", "dragon-towers", "lords-of-doomspire", "cones-of-dunshire"]


def group_of_image(game, url: str):
    """The group an image was drawn for: images are named <group id>-..., longest id first."""
    name = url.rsplit("/", 1)[-1]
    return next(g for g in sorted(game.groups, key=lambda g: -len(g.id)) if name.startswith(g.id + "-"))


@pytest.mark.slow
@pytest.mark.parametrize("name", PACKS)
def test_every_pack_exports_objects_as_real_saves_have_them(name, tmp_path):
    """Each built-in pack exported and re-read, object kind by object kind: the fields of public
    mods' saves, hexes flat-topped, and every object's size on the table one scale of its printed
    millimetres (all within 2 % of each other)."""
    pack = copy_pack(name, tmp_path)
    code, _, stderr = run_cli("export", "tts", pack, "--out", tmp_path / "out", "--quiet", "--max-px", "1024")
    assert code == 0, stderr
    save = json.loads((tmp_path / "out" / name / "tts" / f"{name}.json").read_text())
    game = load_pack(pack)
    scales = []
    for obj in save["ObjectStates"]:
        kind = obj["Name"]
        if kind == "DeckCustom":
            assert obj["Hands"] is False and obj["ColorDiffuse"]["r"] == TTS["card"]["tint"]
            sheet = next(iter(obj["CustomDeck"].values()))
            group = group_of_image(game, sheet["FaceURL"])
            assert sheet["Type"] == (1 if group.corner_radius == 0 else 0)
            surface = image(sheet["FaceURL"])
            aspect = (surface.get_width() / sheet["NumWidth"]) / (surface.get_height() / sheet["NumHeight"])
        elif kind == "Card":
            sheet = next(iter(obj["CustomDeck"].values()))
            group = group_of_image(game, sheet["FaceURL"])
            surface = image(sheet["FaceURL"])
            aspect = (surface.get_width() / sheet["NumWidth"]) / (surface.get_height() / sheet["NumHeight"])
        elif kind == "Custom_Tile":
            tile = obj["CustomImage"]["CustomTile"]
            assert tile["Stretch"] is True and tile["Thickness"] == TTS["tile"]["thickness"]
            group = group_of_image(game, obj["CustomImage"]["ImageURL"])
            surface = image(obj["CustomImage"]["ImageURL"])
            aspect = surface.get_width() / surface.get_height()
            assert obj["Locked"] is (group.kind == "mat")
            if tile["Type"] == TTS["tile"]["types"]["hexagon"]:
                assert aspect > 1.1 and alpha(surface, 0.35, 0.01) == 255 and alpha(surface, 0.01, 0.35) == 0
                assert (obj["Transform"]["rotY"] % 180 == 90) is (group.orientation == "pointy")
        elif kind == "Custom_Dice":
            assert obj["CustomImage"]["CustomDice"]["Type"] == 1 and len(obj["RotationValues"]) == 6
            continue
        elif kind in ("Die_4", "Die_8"):
            assert len(obj["RotationValues"]) == int(kind[-1])
            continue
        else:
            assert kind == "Notecard" and obj["Description"], kind
            continue
        width, depth = table_size_mm(obj, aspect)
        scales.append((width / group.width, depth / group.height, group.id))
    assert scales
    w0, d0, _ = scales[0]
    for w, d, group_id in scales:
        assert w / w0 == pytest.approx(1, rel=0.02) and d / d0 == pytest.approx(1, rel=0.02), (group_id, w / w0, d / d0)
        assert w / d == pytest.approx(1, rel=0.02), group_id          # one scale across and deep
