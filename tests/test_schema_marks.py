"""Spec.check makes a value's mark and key path only when the value has a problem to tell
(mark_free types are checked unlocated first): what it returns and every problem it tells,
with its file:line:col and key path, are those of checking each value located at once."""
from __future__ import annotations

import pytest

from generator import schema
from generator.errors import Reporter
from generator.items import FIELD_TYPES, VaryType
from generator.schema import (AnyData, Bool, Choice, Color, Field, Id, Int, Length, ListOf, MapOf, Num, Spec,
                              Str)
from generator.yamlsrc import load_text

TYPES = {"text": Str(12), "id": Id(), "int": Int(0, 9), "number": Num(-1, 1), "bool": Bool(), "color": Color(),
         "length": Length(1, 50), "choice": Choice("a", "b"), "data": AnyData(), "list": ListOf(Int(0, 3)),
         "names": MapOf(Color()), "vary": MapOf(VaryType()), **{f"field {k}": t for k, t in FIELD_TYPES.items()}}
VALUES = ["ok", "village-1", "Bad Id", "x" * 13, 3, 12, -2, 0.5, 1e16, True, "#abc", "#ABCDEF", "red", "20mm",
          "2in", "0mm", "a", "c", [1, 2], [1, 7, "x"], {"k": "#000"}, {"k": "blue"}, {"n": "1..3"}, {"n": 5}, None]
SPEC = Spec("thing", {name.replace(" ", "_"): Field(t) for name, t in TYPES.items()})


def checked(text: str, located_at_once: bool, monkeypatch):
    data = load_text(text, "pack.yaml", Reporter())
    reporter = Reporter()
    with monkeypatch.context() as patch:
        if located_at_once:
            for kind in {type(t) for t in TYPES.values()} | {ListOf, MapOf}:
                patch.setattr(kind, "mark_free", False, raising=False)
            for t in TYPES.values():
                patch.setattr(t, "mark_free", False, raising=False)
        record = SPEC.check(data, None, reporter, "things[3]")
    return record.values, [(str(p.mark), p.message, p.hint, p.warning) for p in reporter.problems]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_every_problem_told_as_when_located_at_once(value, monkeypatch):
    import json
    text = "".join(f"{name.replace(' ', '_')}: {json.dumps(value)}\n" for name in TYPES)
    assert checked(text, False, monkeypatch) == checked(text, True, monkeypatch)


def test_a_clean_value_makes_no_mark_and_a_wrong_one_its_own(monkeypatch):
    data = load_text("id: a\ncount: 3\nname: ok\n", "pack.yaml", Reporter())
    made = []
    original = type(data).value_mark
    monkeypatch.setattr(type(data), "value_mark", lambda self, key: made.append(key) or original(self, key))
    spec = Spec("item", {"id": Field(Id()), "count": Field(Int(0, 2)), "name": Field(Str())})
    reporter = Reporter()
    spec.check(data, None, reporter, "items[1]")
    assert made == ["count"]
    [problem] = reporter.problems
    assert (str(problem.mark), problem.message) == ("pack.yaml:2:8", "items[1].count is 3, above the largest allowed 2")


def test_mark_free_types_return_the_same_whatever_mark_and_path():
    """What mark_free promises, for every type that declares it."""
    from generator.errors import Mark
    for name, kind in TYPES.items():
        if not kind.mark_free:
            continue
        for value in VALUES:
            one = kind.check(value, Mark("a.yaml", 1, 1), Reporter(), "x")
            two = kind.check(value, Mark("b.yaml", 9, 9), Reporter(), "things[2].y")
            assert one == two or (one is schema.INVALID and two is schema.INVALID), (name, value)


def test_a_refused_picture_is_read_once(tmp_path, monkeypatch):
    """A picture field is checked located at once: a second, unlocated pass would read a refused
    image twice (art.load keeps only the pictures it accepts)."""
    from generator import art
    from generator.items import Picture
    (tmp_path / "bad.png").write_bytes(b"not a png")
    read = []

    def refuse(rel, path, size):
        read.append(rel)
        raise art.ArtError(f"'{rel}' is not a picture")
    monkeypatch.setattr(art, "_read", refuse)
    data = load_text("picture: bad.png\n", "pack.yaml", Reporter())
    reporter = Reporter()
    Spec("item", {"picture": Field(Picture(tmp_path))}).check(data, None, reporter, "items[1]")
    assert read == ["bad.png"]
    [problem] = reporter.problems
    assert (str(problem.mark), problem.message) == ("pack.yaml:1:10", "items[1].picture: 'bad.png' is not a picture")
