"""What every stage of the interpreter shares: the exception that hands a document
over to cairosvg, the XML names of the SVG namespace, and the element-count guard."""

from __future__ import annotations


class UnsupportedSVG(Exception):
    """The document uses something the fast path does not implement."""


_SVG_NS = '{http://www.w3.org/2000/svg}'
_XLINK_HREF = '{http://www.w3.org/1999/xlink}href'
_XML_SPACE = '{http://www.w3.org/XML/1998/namespace}space'
_MAX_ELEMENTS = 200_000  # guard against exponential <use> chains
