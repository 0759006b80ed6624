"""generator/data/presets.yaml -> checked print-shop presets (Preset, Product).

A product is what a shop cuts (trim size) and the image it asks for (pixels with the bleed, at
the shop's resolution). A face is sold as a product when its trim size is the product's within
MATCH_MM, either way round; the face keeps its own size and is centred on the product's image,
its bleed drawn out to the image's edges.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import BuildError, Reporter
from .impose import Options, Placement, Sheet
from .manifest import DATA_DIR
from .model import Group
from .schema import Field, Int, Length, ListOf, MapOf, Spec, Str, Id, INVALID
from .yamlsrc import load_yaml

PRESETS_FILE = DATA_DIR / "presets.yaml"
MATCH_MM = 1.0         # 63 x 88 mm cards are sold as 2.5 x 3.5 in poker cards
MIN_BLEED_MM = 1.5     # an image with less bleed than this per side is a mistake in the data

_SIZE = Spec("trim", {"width": Field(Length(5, 1000), True), "height": Field(Length(5, 1000), True)})
_PRODUCT = Spec("product", {
    "name": Field(Str(80), True, doc="what the shop calls it, e.g. poker card"),
    "trim": Field(_SIZE, True, doc="the finished size, {width, height}"),
    "pixels": Field(ListOf(Int(1, 20_000), 2, 2), True, doc="[width, height] of the image, bleed included"),
    "source": Field(Str(400), True, doc="where this product's trim and pixels come from"),
})
_PRESET = Spec("preset", {
    "name": Field(Str(80), True, doc="the shop's name"),
    "dpi": Field(Int(72, 1200), True, doc="the resolution the shop asks for"),
    "source": Field(Str(400), True, doc="where the figures come from"),
    "products": Field(MapOf(_PRODUCT, Id()), True, doc="product id -> product"),
})


@dataclass(frozen=True)
class Product:
    id: str
    name: str
    shop: str
    trim_w: float          # mm
    trim_h: float
    px_w: int
    px_h: int
    dpi: int
    source: str = ""

    @property
    def full_w(self) -> float:
        return self.px_w * 25.4 / self.dpi

    @property
    def full_h(self) -> float:
        return self.px_h * 25.4 / self.dpi

    def describe(self) -> str:
        return f"{self.name} {self.trim_w:.1f} x {self.trim_h:.1f} mm"


@dataclass(frozen=True)
class Preset:
    id: str
    name: str
    dpi: int
    source: str
    products: tuple[Product, ...]

    def product_for(self, group: Group) -> Product | None:
        """The product a group's faces are sold as, turned to the face's orientation; None when
        the shop sells no such size."""
        w, h = group.width, group.height
        for p in self.products:
            if abs(p.trim_w - w) <= MATCH_MM and abs(p.trim_h - h) <= MATCH_MM:
                return p
            if abs(p.trim_h - w) <= MATCH_MM and abs(p.trim_w - h) <= MATCH_MM:      # landscape face
                return Product(p.id, p.name, p.shop, p.trim_h, p.trim_w, p.px_h, p.px_w, p.dpi, p.source)
        return None

    def sold(self, groups: list[Group], named: bool) -> tuple[list[Group], list[str]]:
        """The groups this shop sells, and a line for each one skipped. Groups named with
        --group are not skipped but refused, and so is a selection of which nothing is sold."""
        unsold = [g for g in groups if self.product_for(g) is None]
        if unsold and (named or len(unsold) == len(groups)):
            raise self.refuse(unsold, "choose groups it sells (--group ID, repeatable)")
        return ([g for g in groups if g not in unsold],
                [f"{g.mark}: group '{g.id}' skipped: {g.width:.1f} x {g.height:.1f} mm is a size {self.name} "
                 "does not sell" for g in unsold])

    def refuse(self, groups: list[Group], other_way: str = "") -> BuildError:
        """Every group the shop does not sell, with what it does sell."""
        lines = [f"{g.mark}: group '{g.id}' is {g.width:.1f} x {g.height:.1f} mm, a size {self.name} does not sell"
                 for g in groups]
        sells = "; ".join(p.describe() for p in self.products)
        return BuildError("\n".join(lines) + f"\n{self.name} sells (within {MATCH_MM:g} mm, either way round): {sells}."
                          f"\nChange the size, {other_way + ', ' if other_way else ''}or leave out --preset")


@lru_cache(maxsize=None)
def load_presets(path: Path = PRESETS_FILE) -> dict[str, Preset]:
    """Every preset in the file, checked; a mistake is a ManifestError with file:line:col."""
    rep = Reporter()
    data = load_yaml(path, rep)
    checked = MapOf(_PRESET, Id()).check(data, getattr(data, "mark", None), rep, "presets") if data is not None else INVALID
    presets = {}
    if checked is not INVALID:
        for preset_id, rec in checked.items():
            products = tuple(_product(preset_id, rec, pid, prod, rep) for pid, prod in (rec.products or {}).items()
                             if None not in (prod.name, prod.trim, prod.pixels, rec.dpi)   # else reported
                             and None not in (prod.trim.width, prod.trim.height))
            # the `source` key by name: a Record's .source attribute is its YAML mapping
            presets[preset_id] = Preset(preset_id, rec.name, rec.dpi, rec.values.get("source"), products)
    rep.raise_if_errors()
    return presets


def _product(preset_id, rec, product_id, prod, rep) -> Product:
    product = Product(product_id, prod.name, rec.name, prod.trim.width, prod.trim.height, *prod.pixels, rec.dpi,
                      prod.values.get("source"))
    for trim, full, axis in ((product.trim_w, product.full_w, "width"), (product.trim_h, product.full_h, "height")):
        if (full - trim) / 2 < MIN_BLEED_MM:
            rep.error(prod.value_mark("pixels"), f"{preset_id}.{product_id}: the image {axis} ({full:.2f} mm at "
                      f"{rec.dpi} DPI) leaves less than {MIN_BLEED_MM} mm bleed round the {trim:.2f} mm trim",
                      "check the pixels and the trim size against the shop's template")
    return product


def unconfirmed_products() -> str:
    """The products whose figures no public source confirmed, for --help: 'shop product, ...'."""
    return ", ".join(f"{shop_id} {p.id}" for shop_id, shop in load_presets().items() for p in shop.products
                     if "not confirmed" in p.source) or "none"


def preset(preset_id: str) -> Preset:
    presets = load_presets()
    if preset_id not in presets:
        raise BuildError(f"unknown print-shop preset '{preset_id}'; use one of {', '.join(presets)}")
    return presets[preset_id]


# --- `pnpgen build --paper face --preset ID`: one face per page at the shop's image size -------

def shop_options(group: Group, preset_id: str):
    """Page options for a group's print-shop pages: the page is the shop's image (trim plus its
    bleed), the face's bleed drawn out to the page edges."""
    product = _sold(group, preset_id)
    margin_x, margin_y = (product.full_w - group.width) / 2, (product.full_h - group.height) / 2
    return Options(paper="face", page_width=product.full_w, page_height=product.full_h, margin=0.0,
                   bleed=max(margin_x, margin_y), duplex="long", marks="none")


def shop_sheets(fronts: list, backs: list | None, group: Group, preset_id: str) -> list:
    """One page per face and back, the face centred; TrimBox = the shop's trim, centred too
    (the shop cuts there: within MATCH_MM of the face's own trim line)."""
    product = _sold(group, preset_id)
    W, H, w, h = product.full_w, product.full_h, group.width, group.height
    mx, my = (W - w) / 2, (H - h) / 2
    trim = ((W - product.trim_w) / 2, (H - product.trim_h) / 2, product.trim_w, product.trim_h)
    sheets = []
    for i, front in enumerate(fronts):
        for side, face in (("front", front), ("back", backs[i] if backs else None)):
            if face is not None:
                placement = Placement(mx, my, w, h, (mx, my, mx, my), face, False)
                sheets.append(Sheet(W, H, side if backs else "one-sided", [placement], trim=trim, number=i + 1))
    return sheets


def _sold(group: Group, preset_id: str) -> Product:
    shop = preset(preset_id)
    product = shop.product_for(group)
    if product is None:
        raise shop.refuse([group])
    return product
