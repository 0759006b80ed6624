"""Typed declarations of what a manifest may say, and the checker that applies them.

Each type checks one value and returns it cleaned (lengths in mm, colours normalised) or INVALID
after reporting a located problem. Records (Spec) report unknown keys with the closest known one.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .errors import Mark, Reporter, did_you_mean
from .units import parse_length
from .yamlsrc import SrcDict, SrcList

INVALID = object()
MAX_NUMBER = 1e15          # beyond any count, score or size a game prints; larger is a typo or an attack
_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def type_name(value) -> str:
    if value is None:
        return "nothing"
    return {bool: "yes/no", int: "a whole number", float: "a number", str: "text",
            SrcDict: "a mapping", SrcList: "a list"}.get(type(value), type(value).__name__)


class Type:
    description = "a value"
    # True where what check returns does not depend on the mark and key path it is given (they
    # only go into the problems it tells): Spec.check then makes them for a value only when it
    # has something to tell (five marks and key paths a card of a deck, nearly always unused)
    mark_free = False

    def check(self, value, mark: Mark, rep: Reporter, where: str):
        return value

    def wrong(self, value, mark, rep, where):
        rep.error(mark, f"{where} must be {self.description}, not {type_name(value)}",
                  f"write {self.description}")
        return INVALID


class Str(Type):
    description = "text"
    mark_free = True

    def __init__(self, max_len: int = 10_000, pattern: str | None = None, example: str = ""):
        self.max_len, self.pattern = max_len, re.compile(pattern) if pattern else None
        self.example = example

    def check(self, value, mark, rep, where):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            return self.wrong(value, mark, rep, where)
        if len(value) > self.max_len:
            rep.error(mark, f"{where} is {len(value)} characters long, over the limit of {self.max_len}",
                      "shorten it")
            return INVALID
        if self.pattern and not self.pattern.fullmatch(value):   # fullmatch: no trailing newline
            rep.error(mark, f"{where} {value!r} is not allowed here", f"use {self.example}")
            return INVALID
        return value


class Id(Str):
    def __init__(self):
        super().__init__(80, r"^[a-z0-9][a-z0-9-]*$", "lowercase letters, digits and dashes, e.g. 'village-1'")


class Num(Type):
    description = "a number"
    integer = False
    mark_free = True

    def __init__(self, minimum=None, maximum=None):
        self.minimum, self.maximum = minimum, maximum

    def check(self, value, mark, rep, where):
        ok = isinstance(value, int) if self.integer else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok:
            return self.wrong(value, mark, rep, where)
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            rep.error(mark, f"{where} is {_short(value)}, not a finite number within ±{MAX_NUMBER:.0e}",
                      "write an ordinary number (.nan and .inf are not numbers a game can print)")
            return INVALID
        return _bounded(value, self.minimum, self.maximum, mark, rep, where, "")


class Int(Num):
    description = "a whole number"
    integer = True


class Bool(Type):
    description = "yes or no (true/false)"
    mark_free = True

    def check(self, value, mark, rep, where):
        return value if isinstance(value, bool) else self.wrong(value, mark, rep, where)


class Length(Type):
    description = "a length such as 63mm or 2.5in"
    mark_free = True

    def __init__(self, minimum=None, maximum=None):
        self.minimum, self.maximum = minimum, maximum

    def check(self, value, mark, rep, where):
        try:
            mm = parse_length(value)
        except ValueError as exc:
            rep.error(mark, f"{where}: {exc}", "write e.g. 63mm, 2.5in or 6.3cm")
            return INVALID
        return _bounded(mm, self.minimum, self.maximum, mark, rep, where, " mm")


class Color(Type):
    description = "a colour such as '#c0392b'"
    mark_free = True

    def check(self, value, mark, rep, where):
        if not isinstance(value, str) or not _COLOR.fullmatch(value):
            rep.error(mark, f"{where} must be a colour written '#rrggbb', not {value!r}",
                      "quote it in YAML, e.g. color: '#c0392b'")
            return INVALID
        if len(value) == 4:
            value = "#" + "".join(c * 2 for c in value[1:])
        return value.lower()


class Choice(Type):
    mark_free = True

    def __init__(self, *choices):
        self.choices = choices
        self.description = "one of " + ", ".join(map(str, choices))

    def check(self, value, mark, rep, where):
        if value in self.choices:
            return value
        rep.error(mark, f"{where} is {value!r}, which is not one of {', '.join(map(str, self.choices))}",
                  did_you_mean(value, self.choices, f"use one of {', '.join(map(str, self.choices))}"))
        return INVALID


class AnyData(Type):
    """Free data for templates: text, numbers, yes/no, or lists and mappings of them."""
    description = "plain data"
    mark_free = True


class ListOf(Type):
    def __init__(self, item: Type, min_len: int = 0, max_len: int = 100_000):
        self.item, self.min_len, self.max_len = item, min_len, max_len
        self.description = f"a list of {item.description}"
        self.mark_free = item.mark_free

    def check(self, value, mark, rep, where):
        if not isinstance(value, list):
            return self.wrong(value, mark, rep, where)
        if not self.min_len <= len(value) <= self.max_len:
            rep.error(mark, f"{where} has {len(value)} entries; it needs {self.min_len} to {self.max_len}",
                      "add or remove entries")
            return INVALID
        out = []
        kind, heard = self.item, _Heard()
        for i, item in enumerate(value):
            if kind.mark_free:          # as in Spec.check: located only to tell a problem
                checked = kind.check(item, mark, heard, where)
            if not kind.mark_free or heard.told:
                heard.told = False
                item_mark = value.item_mark(i) if isinstance(value, SrcList) else mark
                checked = kind.check(item, item_mark, rep, f"{where}[{i + 1}]")
            if checked is not INVALID:
                out.append(checked)
        return out


class MapOf(Type):
    """A mapping with free keys (ids) and values of one type."""

    def __init__(self, value: Type, key: Type | None = None):
        self.value, self.key = value, key or Str(80)
        self.description = f"a mapping of names to {value.description}"
        self.mark_free = value.mark_free and self.key.mark_free

    def check(self, value, mark, rep, where):
        if not isinstance(value, dict):
            return self.wrong(value, mark, rep, where)
        out = {}
        for key, item in value.items():
            kmark = value.key_mark(key) if isinstance(value, SrcDict) else mark
            vmark = value.value_mark(key) if isinstance(value, SrcDict) else mark
            if self.key.check(key, kmark, rep, f"{where} key") is INVALID:
                continue
            checked = self.value.check(item, vmark, rep, f"{where}.{key}")
            if checked is not INVALID:
                out[key] = checked
        return out


@dataclass
class Field:
    type: Type
    required: bool = False
    default: Any = None
    doc: str = ""


@dataclass
class Record:
    """The checked values of a Spec, with the source mapping for later located messages."""
    values: dict
    source: Any = None
    mark: Mark | None = None

    def __getattr__(self, name):
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def key_mark(self, key) -> Mark:
        if isinstance(self.source, SrcDict):
            return self.source.key_mark(key)
        return self.mark

    def value_mark(self, key) -> Mark:
        if isinstance(self.source, SrcDict):
            return self.source.value_mark(key)
        return self.mark


class Spec(Type):
    """A record with declared keys. Unknown keys are errors naming the closest known key."""

    def __init__(self, name: str, fields: dict[str, Field], doc: str = "", extra: Type | None = None):
        self.name, self.fields, self.doc, self.extra = name, fields, doc, extra
        self.description = f"a mapping ({name})"

    def check(self, value, mark, rep, where):
        if not isinstance(value, dict):
            return self.wrong(value, mark, rep, where)
        here = getattr(value, "mark", mark)
        out = {}
        located = isinstance(value, SrcDict)
        fields, extra, heard = self.fields, self.extra, _Heard()
        for key, item in value.items():
            spec = fields.get(key)
            if spec is None and extra is None:
                self.unknown_key(key, value.key_mark(key) if located else mark, rep, where)
                continue
            kind = spec.type if spec else extra
            if kind.mark_free:          # checked unlocated; located again only to tell its problem
                checked = kind.check(item, here, heard, where)
            if not kind.mark_free or heard.told:
                heard.told = False
                vmark = value.value_mark(key) if located else mark
                checked = kind.check(item, vmark, rep, self.key_where(where, key))
            out[key] = None if checked is INVALID else checked     # already reported
        for key, spec in fields.items():
            if key in value:
                continue
            if spec.required:
                rep.error(here, f"{where + ': ' if where else ''}missing required key '{key}'",
                          f"add '{key}:' ({spec.doc or spec.type.description})")
            out[key] = None if spec.required else spec.default
        return Record(out, value, here)

    def key_where(self, where: str, key) -> str:
        """How a value's problem names it: by its key path (groups[2].size)."""
        return f"{where}.{key}" if where else str(key)

    def unknown_key(self, key, mark, rep, where):
        hint = did_you_mean(key, self.fields, f"known keys: {', '.join(self.fields)}")
        rep.error(mark, f"unknown key '{key}'{' in ' + where if where else ''}", hint)


class _Heard(Reporter):
    """Notes only whether a check told anything (Spec.check's first, unlocated pass)."""
    problems = ()

    def __init__(self) -> None:     # no lists: one is made for every record checked
        self.told = False

    def error(self, mark, message, hint="") -> None:
        self.told = True

    warn = error


def _short(value) -> str:
    """A number as a message shows it: huge integers by their digit count, not in full."""
    if isinstance(value, int) and abs(value) > MAX_NUMBER:
        return f"a number of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    return f"{value:g}"


def _bounded(value, minimum, maximum, mark, rep, where, unit):
    if minimum is not None and value < minimum:
        rep.error(mark, f"{where} is {value:g}{unit}, below the smallest allowed {minimum:g}{unit}",
                  f"use at least {minimum:g}{unit}")
        return INVALID
    if maximum is not None and value > maximum:
        rep.error(mark, f"{where} is {value:g}{unit}, above the largest allowed {maximum:g}{unit}",
                  f"use at most {maximum:g}{unit}")
        return INVALID
    return value
