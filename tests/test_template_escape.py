"""What a template prints is escaped as Jinja escapes it, though a value that is Markup already
(a helper's drawing) is printed as it is instead of being copied into a new Markup
(sandbox.Template): the same text for every kind of value, in macros and included templates."""
from __future__ import annotations

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from generator import sandbox

SOURCES = {
    "face.j2": ('{% macro m(x) %}[{{ x }}]{% endmacro %}{{ drawn }}|{{ text }}|{{ n }}|{{ f }}|{{ none }}|{{ sub }}|'
                '{{ m(text) }}{{ m(drawn) }}|{{ text ~ drawn }}|{{ drawn|upper }}|{% include "part.j2" %}'),
    "part.j2": "<{{ drawn }}{{ text }}>",
}


class Shown(Markup):
    """A Markup subclass: escaped through its __html__, as before."""


VALUES = {"drawn": Markup('<text x="1">A &amp; B</text>'), "text": '<b>"Tom" & \'Jerry\'</b>', "n": 3,
          "f": -0.5, "none": None, "sub": Shown("<i>ok</i>")}


def _output(env) -> str:
    return env.get_template("face.j2").render(VALUES)


def test_printed_values_are_what_jinja_escaping_prints():
    ours = sandbox.Sandbox(loader=jinja2.DictLoader(SOURCES), autoescape=True)
    stock = SandboxedEnvironment(loader=jinja2.DictLoader(SOURCES), autoescape=True)
    template = ours.get_template("face.j2")
    assert template.root_render_func.__globals__["escape"] is sandbox._escape      # (the fast path is in use)
    assert _output(ours) == _output(stock)
    assert '<text x="1">A &amp; B</text>|&lt;b&gt;&#34;Tom&#34; &amp; &#39;Jerry&#39;&lt;/b&gt;|3|-0.5|None|' in _output(ours)


def test_markup_is_printed_as_the_same_text_not_copied():
    drawn = VALUES["drawn"]
    assert sandbox._escape(drawn) is drawn
    assert sandbox._escape("<") == Markup("&lt;") and type(sandbox._escape(Shown("x"))) is Markup
