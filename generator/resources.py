"""pnpgen's own files -> where they are: the fonts, the shared templates and the built-in packs.

An installed wheel carries them inside the package, in generator/shipped/ (the build copies the
checkout's top-level fonts/, templates/ and components/ there: see setup.py); an editable install
reads them from the checkout beside the package. Both are found from the package's own folder,
never from the working folder.
"""
from __future__ import annotations

from pathlib import Path

SHIPPED_FOLDERS = ("fonts", "templates", "components")


def _shipped_root() -> Path:
    package = Path(__file__).parent     # (importlib.resources.files: 3 ms more at every start)
    packaged = package / "shipped"
    return packaged if packaged.is_dir() else package.parent


SHIPPED_ROOT = _shipped_root()
FONT_DIR = SHIPPED_ROOT / "fonts"
TEMPLATE_DIR = SHIPPED_ROOT / "templates"
BUILTIN_PACKS = SHIPPED_ROOT / "components"
