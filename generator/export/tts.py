"""Model -> a Tabletop Simulator saved object: <game>.json, its thumbnail <game>.png, images/.

Card groups become decks drawn from sprite sheets (at most 10 x 7 cells, the last one the hidden
card; several sheets when a deck is larger), card ids = sheet key x 100 + cell. Tiles and chits
become custom tiles of their shape with both sides, one stacked object per copy; mats become
locked box tiles (the way public mods lay boards, and sized by the same sourced rule). Every image
is drawn by raster.draw_face from the FaceRenderer's SVG, the same faces the PDFs show. Sizes keep
the printed proportions: data/tts.yaml gives, with their sources, how tall a card and a tile are
at scale 1. Objects are laid out in rows: boards, then decks, then tiles.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..manifest import DATA_DIR
from ..errors import BuildError
from ..model import Game, Group, Item
from ..render import FaceRef, FaceRenderer, expand_faces
from ..version import stamps, titled
from .common import ExportRequest, ExportResult, selected_groups
from .raster import Window, draw_face, new_sheet, png_bytes, px as px_of, rasterize, rasterize_turned, trim_window
from .workers import run_jobs

TTS = yaml.safe_load((DATA_DIR / "tts.yaml").read_text())
DEFAULT_DPI = 200          # sharp on screen when zoomed in, sheets stay under 4096 px
THUMBNAIL_PX = 256
IMAGES = "images"
HIDDEN_GREY = (0.45, 0.45, 0.45)
# what each component kind becomes (a TtsExport method) and the row of the table it goes to:
# boards in front, decks behind them, tiles and chits at the back
OBJECTS_OF_KIND = {"mat": "boards", "card": "decks", "tile": "tile_stacks", "chit": "tile_stacks"}
CARD_TINT = TTS["card"]["tint"]
D6 = TTS["d6"]
NUMBERED_DIE_MM = 25         # table room for a die at TTS's default size: layout only
NOTECARD_MM = 60
MM = TTS["units_per_mm"]             # table units per millimetre, for positions only
ROW_OF_KIND = {"mat": 0, "card": 1, "tile": 2, "chit": 2}


@dataclass
class Placed:
    """An object with its footprint on the table (TTS units), positioned by the layout."""
    state: dict
    width: float
    depth: float


@dataclass
class Sheet:
    key: int                    # the CustomDeck key: card ids on this sheet are key * 100 + cell
    cols: int
    rows: int
    faces: list[FaceRef] = field(default_factory=list)

    def card_id(self, cell: int) -> int:
        return self.key * 100 + cell


class TtsExport:
    def __init__(self, game: Game, request: ExportRequest, progress, result: ExportResult):
        self.game, self.request, self.progress, self.result = game, request, progress, result
        self.dpi = request.dpi or DEFAULT_DPI
        self.renderer = FaceRenderer(game, 0.0, request.lenient)     # trim only: TTS shows no bleed
        self.files: dict[str, bytes] = {}
        self.jobs: dict[str, tuple] = {}          # file name -> (drawing job, faces it shows)
        self.next_key = 1
        self.url = image_address(request, (Path(request.out_dir) / game.id / "tts").resolve())
        self.thumbnail: str | None = None
        self.stamp_of = stamps(game)              # the version where the sheets print it
        # every object says which version it is when hovered on the table
        self.description = titled(game.title, game.version) if game.version else ""

    # -- images ------------------------------------------------------------------------------

    def add_image(self, name: str, draw, weight: int = 0) -> str:
        """Queue an image: `draw()` returns its surface; it runs (on both cores) in run()."""
        self.jobs[f"{IMAGES}/{name}"] = (lambda: png_bytes(draw(), None), weight)
        return self.url(name)

    def face_size(self, group: Group) -> tuple[int, int]:
        """Pixels of one face: dpi, no side over --max-px."""
        scale = min(self.dpi / 25.4, self.request.max_px / max(group.width, group.height))
        return max(1, int(group.width * scale)), max(1, int(group.height * scale))

    def face_image(self, face: FaceRef, size: tuple[int, int]):
        group = face.group
        clip = None if group.shape in ("rect", "square") else group.outline(0.0)
        draw = rasterize_turned if turned(group) else rasterize
        return draw(self.renderer.svg(face), trim_window(group, *size), clip, marks=self.stamp_of(face))

    def face_job(self, face: FaceRef, size: tuple[int, int]):
        """A drawing job for one face; its SVG rendered now, so template errors surface here."""
        self.renderer.svg(face)
        return lambda: self.face_image(face, size)

    # -- decks -------------------------------------------------------------------------------
    def decks(self, group: Group) -> list[Placed]:
        return [self.deck(group)]

    def deck(self, group: Group) -> Placed:
        fronts, backs = expand_faces(group)
        sheets = self.sheets(fronts)
        cell_w, cell_h = self.cell_size(group, sheets)
        distinct_backs = {self.renderer.svg(b) for b in backs} if backs else set()
        unique_back = len(distinct_backs) > 1
        shared_back = None
        if not unique_back:
            draw_back = ((lambda: self.face_image(backs[0], (cell_w, cell_h))) if backs
                         else (lambda: self.plain_back(cell_w, cell_h)))
            shared_back = self.add_image(f"{group.id}-back.png", draw_back, len(backs) if backs else 0)
        back_of = dict(zip(map(id, fronts), backs)) if backs else {}
        custom, cards = {}, []
        for sheet in sheets:
            face_url = self.draw_sheet(group, sheet, cell_w, cell_h, f"{group.id}-{sheet.key}.png")
            back_url = shared_back
            if unique_back:
                back_sheet = Sheet(sheet.key, sheet.cols, sheet.rows, [back_of[id(f)] for f in sheet.faces])
                back_url = self.draw_sheet(group, back_sheet, cell_w, cell_h, f"{group.id}-{sheet.key}-backs.png")
            custom[str(sheet.key)] = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.cols,
                                      "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back,
                                      "Type": card_type(group)}
            for cell, face in enumerate(sheet.faces):
                cards.append(self.card(group, face.item, sheet.card_id(cell), {str(sheet.key): custom[str(sheet.key)]}))
        width, depth = self.footprint(group)
        if len(cards) == 1:             # TTS makes a deck of two cards or more
            state = cards[0]
        else:
            state = self.base("DeckCustom", group.name, card_scale(group), face_down=True, tint=CARD_TINT)
            state.update({"SidewaysCard": group.width > group.height, "DeckIDs": [c["CardID"] for c in cards],
                          "CustomDeck": custom, "ContainedObjects": cards, "HideWhenFaceDown": True,
                          "Hands": False})          # a deck is not held; its cards are
        self.keep_thumbnail(fronts[0], (cell_w, cell_h))
        return Placed(state, width, depth)

    def sheets(self, fronts: list[FaceRef]) -> list[Sheet]:
        """Fronts cut into sheets of at most columns x rows - 1 (the last cell: the hidden card)."""
        cols_max, rows_max = TTS["sheet"]["columns"], TTS["sheet"]["rows"]
        per_sheet = cols_max * rows_max - 1
        sheets = []
        for start in range(0, len(fronts), per_sheet):
            chunk = fronts[start:start + per_sheet]
            cols = min(cols_max, max(2, len(chunk) + 1))
            rows = max(2, math.ceil((len(chunk) + 1) / cols))
            sheets.append(Sheet(self.next_key, cols, rows, chunk))
            self.next_key += 1
        return sheets

    def cell_size(self, group: Group, sheets: list[Sheet]) -> tuple[int, int]:
        """One cell size for all of a deck's sheets: dpi, no sheet side over --max-px."""
        cols, rows = max(s.cols for s in sheets), max(s.rows for s in sheets)
        scale = min(self.dpi / 25.4, self.request.max_px / (cols * group.width),
                    self.request.max_px / (rows * group.height))
        return max(1, int(group.width * scale)), max(1, int(group.height * scale))

    def draw_sheet(self, group: Group, sheet: Sheet, cell_w: int, cell_h: int, name: str) -> str:
        svgs = [self.renderer.svg(face) for face in sheet.faces]     # templates run here, in order
        window, marks = trim_window(group, cell_w, cell_h), self.stamp_of(sheet.faces[0])

        def draw():
            surface, ctx = new_sheet(sheet.cols * cell_w, sheet.rows * cell_h)
            for cell, svg in enumerate(svgs):
                ctx.save()
                ctx.translate((cell % sheet.cols) * cell_w, (cell // sheet.cols) * cell_h)
                draw_face(ctx, svg, window, marks=marks)
                ctx.restore()
            hidden = sheet.cols * sheet.rows - 1          # the hidden card's cell, shown in hands
            ctx.rectangle((hidden % sheet.cols) * cell_w, (hidden // sheet.cols) * cell_h, cell_w, cell_h)
            ctx.set_source_rgb(*HIDDEN_GREY)
            ctx.fill()
            return surface
        return self.add_image(name, draw, len(svgs))

    def plain_back(self, w: int, h: int):
        """One-sided cards still need a back in TTS: plain grey."""
        surface, ctx = new_sheet(w, h)
        ctx.set_source_rgb(*HIDDEN_GREY)
        ctx.paint()
        return surface

    def card(self, group: Group, item: Item, card_id: int, custom: dict) -> dict:
        state = self.base("Card", item_title(group, item), card_scale(group), face_down=True,
                          salt=str(card_id), tint=CARD_TINT)
        state.update({"CardID": card_id, "CustomDeck": custom, "SidewaysCard": group.width > group.height,
                      "HideWhenFaceDown": True, "Hands": True})
        return state

    # -- tiles, chits, boards ----------------------------------------------------------------
    def tile_stacks(self, group: Group, locked: bool = False) -> list[Placed]:
        fronts, backs = expand_faces(group)
        size = self.face_size(group)
        placed, done = [], set()
        for index, front in enumerate(fronts):
            item = front.item
            if item.id in done:
                continue
            done.add(item.id)
            front_url = self.add_image(f"{group.id}-{item.id}-front.png", self.face_job(front, size), item.copies)
            back_url = (self.add_image(f"{group.id}-{item.id}-back.png", self.face_job(backs[index], size), item.copies)
                        if backs else front_url)
            self.keep_thumbnail(front, size)
            base = {"CustomImage": {"ImageURL": front_url, "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
                                    "WidthScale": 0.0,
                                    "CustomTile": {"Type": TTS["tile"]["types"][tile_kind(group)],
                                                   "Thickness": TTS["tile"]["thickness"],
                                                   "Stackable": not locked, "Stretch": TTS["tile"]["stretch"]}}}
            width, depth = self.footprint(group)
            stack = []
            for copy in range(item.copies):
                state = self.base("Custom_Tile", item_title(group, item), tile_scale(group),
                                  salt=f"{group.id}/{item.id}/{copy}", locked=locked)
                state.update(base)
                if turned(group):                   # the image was turned: turn the object back
                    state["Transform"]["rotY"] = (state["Transform"]["rotY"] + TTS["tile"]["flat_hex_turn"]) % 360
                stack.append(state)
            placed.append(Placed({"stack": stack} if len(stack) > 1 or not locked else stack[0], width, depth))
        return placed

    def boards(self, group: Group) -> list[Placed]:
        """Mats as locked box tiles, one per copy side by side: a Custom_Board's size follows its
        image's pixels (Knowledge Base, "Custom Board") by a factor no public source gives."""
        placed = []
        for p in self.tile_stacks(group, locked=True):
            placed += [Placed(s, p.width, p.depth) for s in p.state["stack"]] if "stack" in p.state else [p]
        return placed

    # -- dice --------------------------------------------------------------------------------
    def dice(self, group: Group) -> list[Placed]:
        """A group whose items are dice (`die:`): a d6 is a Custom_Dice per copy with a texture per
        item; a d4 or d8 is TTS's own numbered die per copy and a Notecard with the key."""
        if group.die.sides != 6:
            return self.numbered_dice(group)
        fronts, _ = expand_faces(group)
        placed, done = [], set()
        for front in fronts:
            item = front.item
            if item.id in done:
                continue
            done.add(item.id)
            self.keep_thumbnail(front, self.face_size(group))
            url = self.add_image(f"{group.id}-{item.id}-die.png", self.die_texture(front), item.copies)
            values = die_values(group, item)
            for copy in range(item.copies):
                state = self.base("Custom_Dice", item_title(group, item), 1.0, salt=f"{group.id}/{item.id}/{copy}")
                state["Transform"]["rotY"] = 0.0
                state["CustomImage"] = {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                        "WidthScale": 0.0, "CustomDice": {"Type": D6["type"]}}
                state["RotationValues"] = [{"Value": values[n - 1], "Rotation": dict(zip("xyz", map(float, turn)))}
                                           for n, turn in sorted(D6["rotation_values"].items())]
                placed.append(Placed(state, NUMBERED_DIE_MM * MM, NUMBERED_DIE_MM * MM))   # TTS's default size
        return placed

    def numbered_dice(self, group: Group) -> list[Placed]:
        spec = TTS["numbered_dice"][group.die.sides]
        placed, keys = [], []
        for item in group.items:
            values = die_values(group, item)
            name = item_title(group, item) if item_title(group, item) != group.name else item.id
            keys.append(f"{name}: " + ", ".join(f"{n} = {v}" for n, v in enumerate(values, 1)))
            for copy in range(item.copies):
                state = self.base(spec["name"], f"{name} ({', '.join(map(str, values))})", 1.0,
                                  salt=f"{group.id}/{item.id}/{copy}")
                state["ColorDiffuse"] = die_tint(self.game, group, item)
                state["Transform"]["rotY"] = 0.0
                state["RotationValues"] = [{"Value": n, "Rotation": dict(zip("xyz", map(float, turn)))}
                                           for n, turn in enumerate(spec["rotation_values"], 1)]
                placed.append(Placed(state, NUMBERED_DIE_MM * MM, NUMBERED_DIE_MM * MM))
        note = self.base("Notecard", f"{group.name}: which number is which face", 1.0, salt=group.id)
        note["Description"] = "\n".join(keys)
        return [Placed(note, NOTECARD_MM * MM, NOTECARD_MM * MM)] + placed

    def die_texture(self, front: FaceRef):
        """A drawing job: the item's face rendered once here, each die face cut from it into its
        cell of TTS's d6 texture (tts.yaml d6.cells), turned as the cell says."""
        svg, group = self.renderer.svg(front), front.group
        cell = max(1, min(self.request.max_px // D6["grid"], px_of(group.die.faces[0][2], self.dpi)))

        def draw():
            surface, ctx = new_sheet(D6["grid"] * cell, D6["grid"] * cell)
            for n, (x, y, side) in enumerate(group.die.faces, 1):
                column, row, turn = D6["cells"][n]
                ctx.save()
                ctx.translate(column * cell, row * cell)
                if turn:
                    ctx.translate(cell / 2, cell / 2)
                    ctx.rotate(math.radians(turn))
                    ctx.translate(-cell / 2, -cell / 2)
                draw_face(ctx, svg, Window(x, y, side, side, cell, cell))
                ctx.restore()
            return surface
        return draw

    # -- objects -----------------------------------------------------------------------------
    def base(self, name: str, nickname: str, scale: float, face_down: bool = False, salt: str = "",
             tint: float = 1.0, locked: bool = False) -> dict:
        guid = hashlib.sha1(f"{self.game.id}/{name}/{nickname}/{salt}".encode()).hexdigest()[:6]
        return {"GUID": guid, "Name": name, "Nickname": nickname, "Description": self.description, "GMNotes": "",
                "Transform": {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
                              "rotZ": 180.0 if face_down else 0.0,
                              "scaleX": scale, "scaleY": 1.0, "scaleZ": scale},
                "ColorDiffuse": {"r": tint, "g": tint, "b": tint}, "Locked": locked, "Grid": True, "Snap": True,
                "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True,
                "GridProjection": False, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}

    def footprint(self, group: Group) -> tuple[float, float]:
        """Table space (TTS units) the object takes as the sheets show it, for the layout."""
        return group.width * MM, group.height * MM

    def keep_thumbnail(self, face: FaceRef, size: tuple[int, int]) -> None:
        """TTS shows <game>.png beside the saved object: the first object's face."""
        if self.thumbnail is None:
            scale = THUMBNAIL_PX / max(size)
            self.thumbnail = f"{self.game.id}.png"
            svg, window = self.renderer.svg(face), trim_window(face.group, max(1, int(size[0] * scale)),
                                                               max(1, int(size[1] * scale)))
            clip = None if face.group.shape in ("rect", "square") else face.group.outline(0.0)
            self.jobs[self.thumbnail] = (lambda: png_bytes(rasterize(svg, window, clip), None), 0)     # upright

    # -- the whole game ----------------------------------------------------------------------
    def run(self) -> dict[str, bytes]:
        groups = selected_groups(self.game, self.request)
        self.progress.start(sum(g.total * g.sides for g in groups), f"{self.game.id} tts")
        rows: list[list[Placed]] = [[] for _ in range(max(ROW_OF_KIND.values()) + 1)]
        for g in sorted(groups, key=lambda g: g.kind != "card" or g.die is not None):   # cards first: the thumbnail
            if g.die is not None:           # dice lie with the tiles
                rows[ROW_OF_KIND["tile"]] += self.dice(g)
            else:
                rows[ROW_OF_KIND[g.kind]] += getattr(self, OBJECTS_OF_KIND[g.kind])(g)
        objects = lay_out(rows)
        self.result.warnings += self.renderer.warnings
        save = {"SaveName": titled(self.game.title, self.game.version), "GameMode": self.game.title, "GameType": "", "GameComplexity": "",
                "Tags": [], "Date": "", "VersionNumber": "",
                "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
                "LuaScript": "", "LuaScriptState": "", "TabStates": {}, "ObjectStates": objects}
        images = run_jobs([job for job, _ in self.jobs.values()], self.progress.advance,
                          [weight for _, weight in self.jobs.values()])
        self.files.update(zip(self.jobs, images))
        self.files[f"{self.game.id}.json"] = (json.dumps(save, indent=2, sort_keys=True) + "\n").encode()
        return self.files


def item_title(group: Group, item: Item) -> str:
    """What players call the item: its title or name field, else the group's name; with the
    player's colour for a per-player item."""
    title = group.name
    for key in ("title", "name"):
        value = item.data.get(key)
        if isinstance(value, str) and value.strip():
            title = value.strip()
            break
    return f"{title} ({item.player.name})" if item.player else title


WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]|\\")


def image_address(request: ExportRequest, folder: Path):
    """name -> the address the save gives for images/<name>: under --base-url (hosted online); in
    --image-folder, written as a local path of the TTS computer, with backslashes for a Windows
    folder (the form of the Knowledge Base's example, 'Asset Importing'); else a file:// address
    of this machine's export folder."""
    if request.base_url:
        base = request.base_url.rstrip("/")
        return lambda name: f"{base}/{name}"
    if request.image_folder:
        folder_text = request.image_folder.rstrip("/\\")
        sep = "\\" if WINDOWS_PATH.search(folder_text) else "/"
        return lambda name: sep.join((folder_text, name))
    base = (folder / IMAGES).as_uri()
    return lambda name: f"{base}/{name}"


def die_values(group: Group, item: Item) -> list:
    """What each face shows: the item's `values` list (one entry a face), else the numbers."""
    if not group.die.values:
        return list(range(1, group.die.sides + 1))
    listed = item.data.get(group.die.values)
    if not isinstance(listed, list) or len(listed) != group.die.sides:
        raise BuildError(f"{item.mark}: item '{item.id}': {group.die.values} must list {group.die.sides} faces "
                         f"for its d{group.die.sides}, one each; write {group.die.values}: [...]")
    return [str(v) for v in listed]


def die_tint(game: Game, group: Group, item: Item) -> dict:
    """The colour TTS tints a numbered die with: the item's `tint` field (a palette key or
    '#rrggbb'; of a list, its first entry, e.g. a d4's main corner colour); white without one."""
    value = item.data.get(group.die.tint) if group.die.tint else None
    if isinstance(value, list) and value:
        value = value[0]
    if value is None:
        return {"r": 1.0, "g": 1.0, "b": 1.0}
    colour = game.palette.get(value, value) if isinstance(value, str) else None
    if not (isinstance(colour, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", colour)):
        raise BuildError(f"{item.mark}: item '{item.id}': its die tint {value!r} is neither a palette colour nor "
                         "'#rrggbb'; name a colour of game.yaml's palette")
    return {key: round(int(colour[i:i + 2], 16) / 255, 4) for key, i in (("r", 1), ("g", 3), ("b", 5))}


def turned(group: Group) -> bool:
    """A pointy-topped hex: TTS's hex tile is flat-topped, so its image is turned a quarter."""
    return group.kind != "card" and group.shape == "hexagon" and group.orientation == "pointy"


def tile_kind(group: Group) -> str:
    return "rounded" if group.shape == "rect" and group.corner_radius > 0 else group.shape


def card_type(group: Group) -> int:
    """CustomDeck Type: square corners (a die net, a corner radius of 0) or TTS's rounded card."""
    return TTS["card"]["types"]["square" if group.corner_radius == 0 else "rounded"]


def card_scale(group: Group) -> float:
    """TTS keeps a card's height and takes its width from the cell's aspect: scale 1 is a poker
    card's height (data/tts.yaml)."""
    return round(group.height / TTS["card"]["height_mm_at_scale_1"], 4)


def tile_scale(group: Group) -> float:
    """A tile's height is its scale times tts.yaml's height at scale 1; its width follows the
    image's aspect. A turned hex's image is as high as the hex is wide on the sheets."""
    image_height = group.width if turned(group) else group.height
    return round(image_height / TTS["tile"]["height_mm_at_scale_1"], 4)


def object_size_mm(state: dict, image_aspect: float) -> tuple[float, float]:
    """The (width, depth) in millimetres an object shows on the table by tts.yaml's rules, before
    its turn: what tests compare with the printed sizes."""
    t = state["Transform"]
    base = TTS["card"]["height_mm_at_scale_1"] if state["Name"] in ("Card", "DeckCustom") \
        else TTS["tile"]["height_mm_at_scale_1"]
    depth = base * t["scaleZ"]
    return depth * image_aspect * t["scaleX"] / t["scaleZ"], depth


def lay_out(rows: list[list[Placed]]) -> list[dict]:
    """Rows of objects left to right, wrapping at the table width, each row behind the last;
    a tile stack's copies piled up where it stands."""
    gap, limit = TTS["layout"]["gap_mm"] * MM, TTS["layout"]["table_width_mm"] * MM
    objects, z = [], 0.0
    for row in rows:
        x, depth = -limit / 2, 0.0
        for p in row:
            if x + p.width > limit / 2 and x > -limit / 2:
                x, z, depth = -limit / 2, z - depth - gap, 0.0
            cx, cz = x + p.width / 2, z - p.depth / 2
            for level, state in enumerate(p.state["stack"] if "stack" in p.state else [p.state]):
                state["Transform"].update({"posX": round(cx, 3), "posY": round(1.0 + 0.2 * level, 3),
                                           "posZ": round(cz, 3)})
                objects.append(state)
            x += p.width + gap
            depth = max(depth, p.depth)
        if row:
            z -= depth + gap
    return objects


def export_tts(game: Game, request: ExportRequest, progress, result: ExportResult) -> dict[str, bytes]:
    files = TtsExport(game, request, progress, result).run()
    result.notes.append(f"load it in Tabletop Simulator: copy {game.id}.json and {game.id}.png into "
                        "Documents/My Games/Tabletop Simulator/Saves/Saved Objects/, then Objects > Saved Objects")
    if request.image_folder:
        result.notes.append(f"copy the files of images/ into {request.image_folder} on the computer that runs "
                            "Tabletop Simulator")
    elif not request.base_url:
        result.notes.append("the images are addressed on this computer: for Tabletop Simulator on another one, "
                            "export with --image-folder (or --base-url to play online)")
    return files
