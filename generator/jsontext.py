"""A JSON document -> its text as json.dumps(doc, indent=1, sort_keys=True) writes it, written
a piece at a time (build.json of 50,000 cards is 17 MB of text), its longest lists made entry by
entry as they are written.
"""
from __future__ import annotations

import json
import math


def json_write(doc, out, streamed: dict | None = None) -> None:
    """json.dumps(doc, indent=1, sort_keys=True) + newline as UTF-8, its pieces given to
    out.write() as they come (build.json's file): with an indent, json.dumps keeps every piece in
    a list until the end (about 4x the text: 17 MB for the build.json of 10,000 cards, 85 MB at
    50,000), and the text encoded afterwards is a second copy.
    `streamed`: placeholder text -> an iterable written as a list where the placeholder stands
    in doc (at the top level's values), each entry made and written in turn (build.json's 50,000
    item dicts made at once and dropped grew the process by 50 MB)."""
    lists = {json.dumps(mark): values for mark, values in (streamed or {}).items()}
    for piece in json.JSONEncoder(indent=1, sort_keys=True).iterencode(doc):
        if piece in lists:
            _write_list(out, lists[piece], 1)
        else:
            out.write(piece.encode())
    out.write(b"\n")


def _write_list(out, values, level: int) -> None:
    """A list as json.dumps(indent=1) writes it as a value at nesting `level`: each entry on a line
    of its own, indented one step deeper (JSON text holds no raw newline but between tokens)."""
    inner = "\n" + " " * (level + 1)
    head = "[" + inner
    for value in values:
        out.write((head + indented(value, level + 1)).encode())
        head = "," + inner
    out.write(b"[]" if head.startswith("[") else ("\n" + " " * level + "]").encode())


def indented(value, level: int = 0) -> str:
    """json.dumps(value, indent=1, sort_keys=True) for a value at nesting `level` (its inner lines
    indented level + 1 spaces), 3x faster on build.json's item dicts: json.dumps with an indent
    runs the pure-Python encoder, building its closures anew at each call. Scalars go to the C
    string escaper and the number reprs json itself uses; any other type to json.dumps."""
    write = _WRITERS.get(type(value))
    if write is None:
        return json.dumps(value, indent=1, sort_keys=True).replace("\n", "\n" + " " * level)
    return write(value, level)


def _dict(value: dict, level: int) -> str:
    if not value:
        return "{}"
    if not all(type(key) is str for key in value):     # json's own key coercion and its errors
        return json.dumps(value, indent=1, sort_keys=True).replace("\n", "\n" + " " * level)
    inner = ",\n" + " " * (level + 1)
    parts = []
    for key, item in sorted(value.items()):
        head = _KEYS.get(key) or _key(key)
        kind = type(item)               # strings and ints inline: most of an item's values
        parts.append(head + _string(item) if kind is str else
                     head + int.__repr__(item) if kind is int else head + indented(item, level + 1))
    return "{" + inner[1:] + inner.join(parts) + "\n" + " " * level + "}"


class DictForm:
    """Dicts with the same keys, `fixed` of them with the same value in each (build.json's items
    share their group's kind, shape and size): form(*values) is a dict of them with its `own`
    keys' values, in that order, which indented() writes as it writes the dict, the text of the
    fixed keys and values made once per nesting level (10,000 items: 81 -> 27 ms)."""

    def __init__(self, fixed: dict, own: tuple[str, ...]):
        if not all(type(key) is str for key in (*fixed, *own)) or set(fixed) & set(own):
            raise ValueError("a DictForm's keys are strings, each fixed or own")
        self.fixed, self.own = fixed, own
        self._texts: dict[int, tuple[str, list[int]]] = {}   # level -> (%-format of the text, own values' order in it)

    def __call__(self, *values) -> "Filled":
        return Filled(self, values)

    def text(self, values: tuple, level: int) -> str:
        """indented({**fixed, **dict(zip(own, values))}, level)."""
        form, order = self._texts.get(level) or self._made(level)
        return form % tuple([indented(values[index], level + 1) for index in order])

    def _made(self, level: int) -> tuple[str, list[int]]:
        """The text at `level` with the fixed values in it and %s where each own value goes."""
        inner = ",\n" + " " * (level + 1)
        parts, order = [], []
        for key in sorted((*self.fixed, *self.own)):
            head = (_KEYS.get(key) or _key(key)).replace("%", "%%")
            if key in self.fixed:
                parts.append(head + indented(self.fixed[key], level + 1).replace("%", "%%"))
            else:
                parts.append(head + "%s")
                order.append(self.own.index(key))
        self._texts[level] = ("{" + inner[1:] + inner.join(parts) + "\n" + " " * level + "}", order)
        return self._texts[level]


class Filled(tuple):
    """A DictForm's dict: (the form, its own values)."""

    def __new__(cls, form: DictForm, values: tuple):
        return tuple.__new__(cls, (form, values))


def _key(key: str) -> str:
    """'"key": ', kept for the next dict while few keys are kept (build.json's items share theirs)."""
    head = _string(key) + ": "
    if len(_KEYS) < 256:
        _KEYS[key] = head
    return head


_KEYS: dict[str, str] = {}


def _list(value, level: int) -> str:
    if not value:
        return "[]"
    inner = ",\n" + " " * (level + 1)
    return "[" + inner[1:] + inner.join(indented(item, level + 1) for item in value) + "\n" + " " * level + "]"


def _float(value: float, level: int) -> str:
    if value != value or value in (math.inf, -math.inf):
        return json.dumps(value)                        # NaN, Infinity, -Infinity as json writes them
    return float.__repr__(value)


_string = json.encoder.encode_basestring_ascii          # the C escaper json.dumps uses (ensure_ascii)
_WRITERS = {
    dict: _dict, list: _list, tuple: _list, float: _float,
    str: lambda value, level: _string(value),
    int: lambda value, level: int.__repr__(value),
    bool: lambda value, level: "true" if value else "false",
    type(None): lambda value, level: "null",
    Filled: lambda value, level: value[0].text(value[1], level),
}
