"""The sandbox templates run in (maps' and handouts' expressions too): range() and growth bounded,
and what a template is given read-only, with a missing key or colour said in words."""
from __future__ import annotations

import sys

import jinja2
import markupsafe
from jinja2.sandbox import SandboxedEnvironment, modifies_known_mutable

from . import growth
from .errors import close_to
from .glyphs import snippet
from .schema import type_name

MAX_RANGE = 10_000
_NUMBERS = frozenset({int, float})
_AS_THEY_ARE = frozenset({str, int, float, bool, type(None)})     # what read_only returns unchanged
# The frame that called one of pnpgen's own helpers (a template's code), while the helper runs:
# onface finds the template line there, without walking the helper's frames to it. One for the
# process: templates render on its main thread (the preview server's threads only serve files).
CALLER: list = [None]


class Template(jinja2.Template):
    """A template whose printed value that is Markup already (a helper's drawing) is printed as it
    is: Jinja's escape() copied it into a new Markup, two Python calls (0.8 us) for each of a
    face's helpers. Anything else is escaped as before."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        module = template.root_render_func.__globals__      # the compiled template's namespace
        if module.get("escape") is markupsafe.escape:
            module["escape"] = _escape
        return template


def _escape(value):
    return value if type(value) is _MARKUP else markupsafe.escape(value)


_MARKUP = markupsafe.Markup


class Sandbox(SandboxedEnvironment):
    """The sandbox, with range() bounded so a template cannot loop forever, and what it is
    given read-only: a template may build its own lists and dicts, but calling palette.update()
    or item.tags.append() would change every face drawn after it."""

    template_class = Template
    intercepted_binops = frozenset(["*", "**", "+", "%"])
    code_generator_class = growth.GrowthChecks
    check_concat = staticmethod(growth.check_concat)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.globals["range"] = _bounded_range
        growth.bound_globals(self.globals)
        self.filters = dict(self.filters)
        growth.bound_filters(self.filters)

    def call_binop(self, context, operator, left, right):
        """'x' * 10**20, [1] * 10**9, 9 ** 10**9 refused before Python tries them (growth.py).
        Numbers added or multiplied (a template's arithmetic: most of its binops) are what
        growth lets pass: done at once."""
        if type(left) in _NUMBERS and type(right) in _NUMBERS:
            if operator == "+":
                return left + right
            if operator == "*":
                return left * right
        growth.check_binop(operator, left, right)
        return super().call_binop(context, operator, left, right)

    trusted_calls: frozenset = frozenset()     # pnpgen's own helpers, as the renderer gives them

    def call(__self, __context, __obj, *args, **kwargs):
        """'x'.center(10**9) and the like refused before Python tries them (growth.py). pnpgen's
        own helpers (trusted_calls: none takes the context, none is a str method, each bounds its
        arguments) are called at once, as Jinja's Context.call would call them: the sandbox's
        checks were 4 of a card's ~300 us."""
        try:
            trusted = __obj in __self.trusted_calls
        except TypeError:           # unhashable: not one of them (the call below says what is wrong)
            trusted = False
        if trusted:
            if kwargs:
                kwargs.pop("_block_vars", None)
                kwargs.pop("_loop_vars", None)
            CALLER[0] = sys._getframe(1)        # (its instruction is the call while the helper runs)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:
                return __self.undefined("value was undefined because a callable raised a StopIteration exception")
            finally:
                CALLER[0] = None
        growth.check_call(__obj, args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    # `a.b` on a mapping reads its key b first, so a palette or data key is never mistaken for a
    # Python method (palette.clear is the colour 'clear'); on what the template is given, a name
    # that is neither a key nor a dict method is a missing key, named with the keys there. A
    # missing key or index is said in words, never with Python's class names.
    def getattr(self, obj, attribute):
        if isinstance(obj, dict) and isinstance(attribute, str):
            if attribute in obj:
                return obj[attribute]
            if isinstance(obj, ReadOnlyDict) and not hasattr(dict, attribute):
                return self.undefined(hint=_missing_key(obj, attribute))
        value = super().getattr(obj, attribute)
        if isinstance(value, jinja2.Undefined) and not isinstance(obj, jinja2.Undefined) \
                and not hasattr(obj, attribute):    # (an attribute the sandbox refused keeps its message)
            return self.undefined(hint=f"{type_name(obj)} {snippet(str(obj))} has no {attribute!r}")
        return value

    def getitem(self, obj, argument):
        if isinstance(obj, dict):
            if argument in obj:
                return obj[argument]
            return self.undefined(hint=_missing_key(obj, argument))
        if isinstance(obj, (list, tuple)) and isinstance(argument, int) and not -len(obj) <= argument < len(obj):
            return self.undefined(hint=f"there is no entry {argument} in a list of {len(obj)}")
        return super().getitem(obj, argument)

    def is_safe_attribute(self, obj, attr, value):
        if isinstance(obj, (ReadOnlyDict, ReadOnlyList)) and modifies_known_mutable(obj, attr):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def unsafe_undefined(self, obj, attribute):
        if isinstance(obj, (ReadOnlyDict, ReadOnlyList)):
            key = f"{_missing_key(obj, attribute)}; and " if isinstance(obj, ReadOnlyDict) else ""
            return self.undefined(
                f"{key}{attribute}() would change a {type(obj).__name__} the template is given, and every face "
                f"drawn after it; templates read what they are given: make a copy to change, e.g. "
                f"{{% set mine = dict(palette) %}} or {{% set mine = list(item.tags) %}}",
                obj=obj, name=attribute, exc=jinja2.exceptions.SecurityError)
        return super().unsafe_undefined(obj, attribute)


SHOWN_KEYS = 12


def _missing_key(obj: dict, key) -> str:
    keys = [str(k) for k in obj]
    shown = ", ".join(keys[:SHOWN_KEYS]) + (f" and {len(keys) - SHOWN_KEYS} more" if len(keys) > SHOWN_KEYS else "")
    if isinstance(obj, Palette):
        close = close_to(key, keys)
        return (f"the palette has no colour {key!r} (its colours: {shown or 'none'}); "
                + (f"did you mean palette.{close[0]}? " if close else "")
                + "add it to game.yaml's palette, or use one of its colours")
    if isinstance(obj, FaceFields):
        close = close_to(key, keys)
        return (f"face has no {key!r} (face holds what pnpgen tells a template of the face: {shown}); "
                + (f"did you mean face.{close[0]}? " if close else "")
                + f"an item's own field is read as item.{key}")
    return f"no key {key!r} here (the keys are: {shown or 'none'})"


def _refuse(self, *args, **kwargs):
    raise TypeError(f"{type(self).__name__} is read-only: templates cannot change what they are given")


class ReadOnlyDict(dict):
    """A dict a template reads but cannot change (a dict still, for |tojson, |dictsort, ...).
    Named 'dict' in messages ("'dict object' has no attribute 'nope'"): that is what it is
    to the pack's author."""
    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = __ior__ = _refuse


class Palette(ReadOnlyDict):
    """The game's colours: a missing one is said to be missing from the palette."""


class FaceFields(ReadOnlyDict):
    """What pnpgen tells a template of the face (size, bleed, side...): a missing key is not the
    item's to add."""


class ReadOnlyList(list):
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __iadd__ = __imul__ = _refuse


for _cls, _name in ((ReadOnlyDict, "dict"), (Palette, "dict"), (FaceFields, "dict"), (ReadOnlyList, "list")):
    _cls.__module__, _cls.__name__, _cls.__qualname__ = "builtins", _name, _name
del _cls, _name


def read_only(value):
    """value with every dict and list in it (deeply) made read-only for templates."""
    if isinstance(value, dict):      # (an item's fields each face: strings and numbers kept as they are)
        return value if isinstance(value, ReadOnlyDict) else \
            ReadOnlyDict({key: item if type(item) in _AS_THEY_ARE else read_only(item) for key, item in value.items()})
    if isinstance(value, list) and not isinstance(value, ReadOnlyList):
        return ReadOnlyList(read_only(item) for item in value)
    if type(value) is tuple:
        return tuple(read_only(item) for item in value)
    return value


def read_only_item(item_id: str, data: dict) -> ReadOnlyDict:
    """read_only({"id": item_id, **data}), made in one go when every value is a plain one (a
    card's words and numbers: 0.6 against 1.7 us a face)."""
    if _AS_THEY_ARE.issuperset(map(type, data.values())):
        fields = ReadOnlyDict(id=item_id)
        dict.update(fields, data)
        return fields
    return read_only({"id": item_id, **data})


def _bounded_range(*args):
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise jinja2.exceptions.SecurityError(f"range() of {len(r):,} steps is over the limit of {MAX_RANGE:,}")
    return r
