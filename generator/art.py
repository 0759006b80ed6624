"""A pack's pictures: a path inside the pack -> a checked image (Art), and for drawing, its
pixels in sRGB or the JPEG stream a PDF embeds as it is.

`load(root, rel)` refuses, with a reason a designer can act on, whatever would print wrong or
read what it should not: a path leading outside the pack (a link included), a missing file
(with the pack's image files that are close), a format other than PNG, JPEG, WebP or SVG,
more than MAX_BYTES or MAX_PIXELS, a truncated or garbage file. A loaded image is known by the
SHA-256 of its bytes: templates get `href="pnpgen-art:<digest>"` (`href`), so a face's SVG
changes when the picture does, and svgdraw finds the image again with `lookup(digest)`.

Pillow reads and converts (EXIF orientation applied, ICC profiles and CMYK turned into sRGB);
cairo is not needed here.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import confine
from .errors import close_to, os_error_text

MAX_BYTES = 8 * 1024 * 1024          # one image file (the bound data: URLs have had since 2024)
MAX_PIXELS = 40_000_000              # after decoding: a 40 MP image is 160 MB of RGBA
HREF_PREFIX = "pnpgen-art:"
SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".svg")
RASTER_FORMATS = {"PNG": "png", "JPEG": "jpeg", "WEBP": "webp"}
OTHER_FORMATS = {b"GIF8": "GIF", b"II*\x00": "TIFF", b"MM\x00*": "TIFF", b"BM": "BMP", b"%PDF": "PDF",
                 b"\x00\x00\x00\x0cjP": "JPEG 2000", b"8BPS": "Photoshop"}
REENCODE_QUALITY = 95                # a JPEG that cannot pass through unchanged (rotated, CMYK, ICC)
MAX_LISTED = 20_000                  # pack files looked at for a did-you-mean
_ORIENTATION = 0x0112
_TURNED = (5, 6, 7, 8)               # EXIF orientations that swap width and height


class ArtError(ValueError):
    """An image a pack names cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class Art:
    name: str            # as the pack names it, e.g. art/goblin.jpg
    path: Path           # the file, every link resolved
    digest: str          # SHA-256 of its bytes
    kind: str            # png, jpeg, webp, svg
    width: float         # pixels as printed (EXIF orientation applied); an SVG's viewBox width
    height: float
    view_box: tuple = ()     # SVG only: (x, y, w, h)

    @property
    def href(self) -> str:
        return HREF_PREFIX + self.digest

    @property
    def raster(self) -> bool:
        return self.kind != "svg"


_loaded: dict[tuple, Art] = {}        # (file, inode, size, mtime) -> Art: each file read once per change
_by_digest: dict[str, Art] = {}
_lock = threading.Lock()


def load(root: Path, rel) -> Art:
    """The image `rel` names inside the pack at `root`, checked; ArtError when it cannot be used."""
    if not isinstance(rel, str) or not rel.strip():
        raise ArtError(f"an image is named by its path inside the game pack, e.g. 'art/goblin.jpg', not {rel!r}")
    path = _inside(Path(root), rel)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ArtError(f"cannot read image '{rel}': {_os_error(exc)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ArtError(f"image '{rel}' is not a regular file")
    key = (str(path), info.st_ino, info.st_size, info.st_mtime_ns)
    art = _loaded.get(key)
    if art is None or art.name != rel:
        art = _read(rel, path, info.st_size)
        with _lock:
            _loaded[key] = art
            _by_digest[art.digest] = art
    return art


def lookup(digest: str) -> Art | None:
    """An image loaded in this process (or before it was forked), by digest."""
    return _by_digest.get(digest)


def unchanged(root: Path, rel: str, digest: str) -> bool:
    """Whether the pack's image `rel` still has these bytes (the face cache asks)."""
    try:
        return load(root, rel).digest == digest
    except ArtError:
        return False


def _os_error(exc: OSError) -> str:
    return os_error_text(exc, "file")


def _inside(root: Path, rel: str) -> Path:
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", rel) and not re.match(r"^[a-zA-Z]:[\\/]", rel):
        raise ArtError(f"image '{rel[:80]}' is a URL; images are files inside the game pack, e.g. 'art/goblin.jpg'")
    if Path(rel).is_absolute():
        raise ArtError(f"image '{rel[:80]}' is an absolute path; give its path inside the game pack, e.g. 'art/goblin.jpg'")
    path = root / rel
    try:
        exists = path.exists() or path.is_symlink()
    except OSError as exc:      # a name too long for the file system, a loop of links
        raise ArtError(f"image '{rel[:80]}': {(exc.strerror or str(exc)).lower()}") from None
    if exists and not confine.inside(path, root):
        how = "is a link to a file" if _link_on_the_way(root, rel) else "points"
        raise ArtError(f"image '{rel[:80]}' {how} outside the game pack ({os.path.realpath(path)}); "
                       "copy the picture into the pack folder")
    if not exists:
        if not confine.inside(path, root):
            raise ArtError(f"image '{rel[:80]}' points outside the game pack; images are files inside it")
        close = close_to(rel, pack_images(root), 3, 0.5)
        hint = f"did you mean {' or '.join(repr(c) for c in close)}?" if close else \
            "put the file in the pack folder and give its path from there, e.g. 'art/goblin.jpg'"
        raise ArtError(f"image '{rel[:80]}' not found in the game pack; {hint}")
    return Path(os.path.realpath(path))


def _link_on_the_way(root: Path, rel: str) -> bool:
    path = root
    for part in Path(rel).parts:
        path = path / part
        if path.is_symlink():
            return True
    return False


def pack_images(root: Path) -> list[str]:
    """The pack's image files by their paths inside it (links not followed), for did-you-mean."""
    found, seen = [], 0
    for parent, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "output")
        for name in sorted(files):
            seen += 1
            if name.lower().endswith(SUFFIXES):
                found.append(Path(os.path.relpath(os.path.join(parent, name), root)).as_posix())
        if seen > MAX_LISTED:
            break
    return found


def _read(rel: str, path: Path, size: int) -> Art:
    if size > MAX_BYTES:
        raise ArtError(f"image '{rel}' is {size / 2**20:.1f} MB, over the {MAX_BYTES // 2**20} MB limit; "
                       "save it smaller (a card needs about 750 x 1050 pixels at 300 dpi)")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ArtError(f"cannot read image '{rel}': {_os_error(exc)}") from None
    if len(data) > MAX_BYTES:
        raise ArtError(f"image '{rel}' grew over the {MAX_BYTES // 2**20} MB limit while being read")
    digest = hashlib.sha256(data).hexdigest()
    if _looks_like_svg(data):
        box = _svg_box(rel, data)
        return Art(rel, path, digest, "svg", box[2], box[3], box)
    width, height, kind = _raster_size(rel, data)
    return Art(rel, path, digest, kind, width, height)


def _looks_like_svg(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<svg" in data[:65536]


def _svg_box(rel: str, data: bytes) -> tuple:
    """An SVG picture's viewBox (or width and height): the size it is placed by."""
    import xml.etree.ElementTree as ET       # (an SVG picture only: not loaded at start-up)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ArtError(f"image '{rel}' is not SVG text (not UTF-8); save it as a plain SVG file") from None
    if re.search(r"<!\s*(?:DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise ArtError(f"image '{rel}': SVG must not contain a DOCTYPE or entities; save it as a plain SVG file")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ArtError(f"image '{rel}' is not well-formed SVG ({exc}); save it again from the drawing program") from None
    numbers = [float(v) for v in re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", root.get("viewBox") or "")]
    if len(numbers) != 4:
        sizes = [re.fullmatch(r"\s*(\d+\.?\d*)\s*(?:px)?\s*", root.get(k) or "") for k in ("width", "height")]
        numbers = [0.0, 0.0, *(float(m.group(1)) for m in sizes)] if all(sizes) else []
    if len(numbers) != 4 or not all(abs(v) <= 1e6 for v in numbers) or numbers[2] <= 0 or numbers[3] <= 0:
        raise ArtError(f"image '{rel}': the <svg> element needs a viewBox such as '0 0 600 840' to be placed by")
    return tuple(numbers)


def _pillow():
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None       # our own bound, with the size in its message
    return Image


def _raster_size(rel: str, data: bytes) -> tuple[int, int, str]:
    """(width, height as printed, kind). A PNG or WebP is decoded whole here, so a garbage or
    truncated file is refused at load, not halfway through drawing; a JPEG, which PDFs embed
    undecoded, is checked for its structure only (markers up to the image data, and the end
    marker: a cut file has none), which costs nothing next to decoding it."""
    other = next((name for magic, name in OTHER_FORMATS.items() if data.startswith(magic)), None)
    if other:
        raise ArtError(f"image '{rel}' is a {other} file; pnpgen draws PNG, JPEG, WebP and SVG art: "
                       "save it as PNG (or JPEG for photographs and paintings)")
    Image = _pillow()
    try:
        with Image.open(io.BytesIO(data), formats=list(RASTER_FORMATS)) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ArtError(f"image '{rel}' is {width:,} x {height:,} pixels, over the "
                               f"{MAX_PIXELS // 1_000_000} megapixel limit; save it smaller")
            kind = RASTER_FORMATS[image.format]
            orientation = image.getexif().get(_ORIENTATION, 1)
            if kind != "jpeg":
                image.load()
            elif not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
                raise OSError("the file ends before its last picture data")
    except ArtError:
        raise
    except Image.UnidentifiedImageError:
        raise ArtError(f"image '{rel}' is in no format pnpgen reads; save it as PNG, JPEG, WebP or SVG") from None
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as exc:
        raise ArtError(f"image '{rel}' is broken ({str(exc)[:80] or type(exc).__name__}); "
                       "save the whole file again") from None
    if orientation in _TURNED:
        width, height = height, width
    return width, height, kind


# --- for drawing ------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def data_of(art: Art) -> bytes:
    """The image's bytes, read again and checked against the digest it was loaded with."""
    with open(art.path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if hashlib.sha256(data).hexdigest() != art.digest:
        raise ArtError(f"image '{art.name}' changed while the build was running; build again")
    return data


def for_pdf(art: Art, reduce: int):
    """(pixels, JPEG stream or None) for a PDF. The stream, when there is one, is what the PDF
    embeds: the file's own bytes where they print as they are (no EXIF turn, no colour profile
    other than sRGB, RGB or grey), else the corrected image re-encoded at quality 95 when it is
    an opaque JPEG or lossy WebP; the pixels are then the image at 1/reduce (a JPEG decodes that
    from its own scaled data, for a fraction of the time). Without a stream (PNG, transparency)
    the pixels are the whole image, compressed losslessly by cairo."""
    Image = _pillow()
    data = data_of(art)
    image = Image.open(io.BytesIO(data))
    if art.kind == "jpeg" and _passes_through(image):
        image.draft("RGB", (max(1, image.width // reduce), max(1, image.height // reduce)))
        return image.convert("RGB"), data
    lossy = art.kind == "jpeg" or (art.kind == "webp" and not _webp_lossless(data))
    corrected = _corrected(image)
    if not lossy or corrected.mode != "RGB":
        return corrected, None
    out = io.BytesIO()
    corrected.save(out, "JPEG", quality=REENCODE_QUALITY, subsampling=0, optimize=True)
    return corrected.reduce(reduce), out.getvalue()


def _passes_through(image) -> bool:
    if image.mode not in ("RGB", "L") or image.getexif().get(_ORIENTATION, 1) not in (1, None):
        return False
    icc = image.info.get("icc_profile")
    return not icc or _is_srgb(icc)


@lru_cache(maxsize=64)
def _is_srgb(icc: bytes) -> bool:
    from PIL import ImageCms
    try:
        description = ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc)))
    except (OSError, ImageCms.PyCMSError):
        return False
    return "srgb" in description.lower().replace(" ", "")


def _webp_lossless(data: bytes) -> bool:
    return b"VP8L" in data[12:64]


def _has_alpha(image) -> bool:
    return image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (image.mode == "P" and "transparency" in image.info)


def pixels(art: Art):
    """The image as printed, in sRGB: a Pillow image in mode RGB (opaque) or RGBA, its EXIF
    orientation applied."""
    return _corrected(_pillow().open(io.BytesIO(data_of(art))))


def _corrected(image):
    """EXIF orientation applied; ICC profile (or CMYK without one) converted to sRGB."""
    from PIL import ImageCms, ImageOps
    if image.getexif().get(_ORIENTATION, 1) not in (1, None):
        image = ImageOps.exif_transpose(image)
    alpha = _has_alpha(image)
    icc = image.info.get("icc_profile")
    if image.mode == "P":
        image = image.convert("RGBA" if alpha else "RGB")
    if icc and not _is_srgb(icc):
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            mode = "RGBA" if alpha and image.mode in ("RGBA", "LA") else "RGB"
            if image.mode == "LA":
                image = image.convert("RGBA")
            return ImageCms.profileToProfile(image, source, _srgb(), outputMode=mode)
        except (OSError, ImageCms.PyCMSError):
            pass      # a broken profile: the plain conversion below
    if alpha:
        return image.convert("RGBA")
    return image.convert("RGB")


@lru_cache(maxsize=1)
def _srgb():
    from PIL import ImageCms
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


def svg_text(art: Art) -> str:
    return data_of(art).decode("utf-8-sig")
