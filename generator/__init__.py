"""pnpgen: print-and-play component generator.

Pipeline: manifest (YAML) -> model -> faces -> render (Jinja2 SVG) -> impose -> pdf.
"""
from . import clibs
from .fonts import configure_fontconfig

__version__ = "0.1.0"

clibs.install()          # cairocffi's C declarations read as data, not parsed again (0.1 s a command)

# cairo reads the fontconfig file at its first font lookup: point it at our fonts/ before any
# drawing can happen, so output never depends on the machine's fonts.
try:
    configure_fontconfig()
    SETUP_ERROR = ""
except OSError as exc:      # no writable temporary folder at all: the CLI says so, no traceback
    SETUP_ERROR = f"cannot make pnpgen's private working folder: {exc.strerror} ({exc.filename}); set TMPDIR to a writable folder"
