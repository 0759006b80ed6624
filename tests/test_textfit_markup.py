"""Code-built SVG from text helpers: every value a template passes is escaped, so the markup
stays well-formed whatever a colour or text contains."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from generator.fonts import library
from generator.model import Icon
from generator.textfit import Style, icon_svg, measure, render_block

HOSTILE = 'red" onload="alert(1)'


def parsed(markup: str) -> ET.Element:
    return ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{markup}</svg>')


def test_a_colour_with_quotes_stays_one_attribute_value():
    metrics = library().metrics("Liberation Sans")
    style = Style("Liberation Sans", False, False, metrics, HOSTILE)
    one_line = measure("Gain <two> & more", style, {})     # one paragraph, set as one line
    root = parsed(render_block(one_line, 0, 0, 50, 20, 3.0, style, {}))
    texts = root.findall("{http://www.w3.org/2000/svg}text")
    assert texts and all(t.get("fill") == HOSTILE and t.get("onload") is None for t in texts)
    assert " ".join(t.text for t in texts) == "Gain <two> & more"


def test_an_icon_colour_with_quotes_stays_one_attribute_value():
    icon = Icon("gem", (0.0, 0.0, 24.0, 24.0), '<path d="M0 0h24v24z"/>')
    group = parsed(icon_svg(icon, 1, 2, 5, HOSTILE))[0]
    assert group.get("fill") == HOSTILE and group.get("onload") is None
