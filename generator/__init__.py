"""pnpgen: print-and-play component generator.

Pipeline: manifest (YAML) -> model -> faces -> render (Jinja2 SVG) -> impose -> pdf.
"""
from .fonts import configure_fontconfig

__version__ = "0.1.0"

# cairo reads the fontconfig file at its first font lookup: point it at our fonts/ before any
# drawing can happen, so output never depends on the machine's fonts.
configure_fontconfig()
