"""pnpgen: print-and-play component generator.

Pipeline: manifest (YAML) -> model -> faces -> render (Jinja2 SVG) -> impose -> pdf.
"""
import os

# numpy (edges.py, export/raster.py) multiplies 3x3 colour matrices only, yet OpenBLAS starts a
# thread per core that busy-waits after each product: 1.65 % of a 10,000-card build's CPU on a
# shared 2-core machine. One thread, unless the user asked otherwise; set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import clibs  # noqa: E402
from .fonts import configure_fontconfig  # noqa: E402

__version__ = "0.1.0"

clibs.install()          # cairocffi's C declarations read as data, not parsed again (0.1 s a command)

# cairo reads the fontconfig file at its first font lookup: point it at our fonts/ before any
# drawing can happen, so output never depends on the machine's fonts.
try:
    configure_fontconfig()
    SETUP_ERROR = ""
except OSError as exc:      # no writable temporary folder at all: the CLI says so, no traceback
    SETUP_ERROR = f"cannot make pnpgen's private working folder: {exc.strerror} ({exc.filename}); set TMPDIR to a writable folder"
