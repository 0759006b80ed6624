"""What every stage of the interpreter shares: the exception that hands a document
over to cairosvg, the XML names of the SVG namespace, the element-count guard, and the
refusal of DOCTYPEs and entities."""

from __future__ import annotations

import re


class UnsupportedSVG(Exception):
    """The document uses something the fast path does not implement."""


_SVG_NS = '{http://www.w3.org/2000/svg}'
_XLINK_HREF = '{http://www.w3.org/1999/xlink}href'
_XML_SPACE = '{http://www.w3.org/XML/1998/namespace}space'
_MAX_ELEMENTS = 200_000  # guard against exponential <use> chains

_DOCTYPE_RE = re.compile(r'<!\s*(?:DOCTYPE|ENTITY)', re.IGNORECASE)
_DOCTYPE_BRE = re.compile(rb'<!\s*(?:DOCTYPE|ENTITY)', re.IGNORECASE)


def _check_safe(svg_text):
    if isinstance(svg_text, str):
        if '<!' in svg_text and _DOCTYPE_RE.search(svg_text):
            raise ValueError('SVG must not contain a DOCTYPE or entities')
    elif b'<!' in svg_text and _DOCTYPE_BRE.search(svg_text):
        raise ValueError('SVG must not contain a DOCTYPE or entities')
