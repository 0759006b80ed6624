"""build.json is written as json.dumps(indent=1, sort_keys=True) writes it, without holding
every piece of the text in a list first (a build writes it straight to a file with
jsontext.json_write)."""
from __future__ import annotations

import io
import json

from generator.jsontext import json_write


def json_bytes(doc, streamed=None) -> bytes:
    """What json_write gives a file, as bytes."""
    out = io.BytesIO()
    json_write(doc, out, streamed)
    return out.getvalue()


def test_json_bytes_are_what_json_dumps_writes():
    doc = {"items": [{"id": f"card-{i}", "name": "Épée \u2028 \"quoted\"", "faces": {"front": "ab" * 16},
                      "width_mm": 63.0, "copies": i, "printed": i % 2 == 0, "note": None} for i in range(50)],
           "files": [], "groups": {}, "game": "deck"}
    assert json_bytes(doc) == (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode()


def test_a_streamed_list_is_written_as_json_dumps_writes_it_whole():
    """build.json's items are made one at a time and written where their placeholder stands."""
    entries = [{"id": f"card-{i}", "name": "Épée \u2028 \"q\"\n", "faces": {"front": "ab", "back": None},
                "sizes": [1, [2, {}], []], "copies": i} for i in range(7)]
    made = []

    def one_by_one():
        for entry in entries:
            made.append(entry)
            yield entry
    doc = {"items": "\0items\0", "files": [{"path": "x"}], "game": "deck", "zz": "\0none\0"}
    whole = {**doc, "items": entries, "zz": []}
    assert json_bytes(doc, {"\0items\0": one_by_one(), "\0none\0": iter([])}) == \
        (json.dumps(whole, indent=1, sort_keys=True) + "\n").encode()
    assert made == entries


AWKWARD = [
    {"id": "card-1", "group": "deck", "copies": 3, "width_mm": 63.0, "height_mm": 88.9, "sides": 2, "name": "Épée",
     "faces": {"front": "ab" * 16, "back": None}},
    {"é\u2028\"\\\n\t\x00\x1f": "\ud83d\ude00 \U0001f600 </script> \u00ff \u2029", "": ""},
    {"floats": [0.1, -0.0, 1e300, 1e-300, 5e-324, 123456789.125, float("nan"), float("inf"), float("-inf")]},
    {"ints": [0, -1, 2 ** 80, True, False, None], "nested": [[], [[]], [{}], {"a": [1, {"b": []}]}], "empty": {}},
    {"tuple": (1, "two", (3.0,)), "z": 1, "a": {"z": {}, "a": []}, "m": [[1, 2], [3, [4, [5]]]]},
    {1: "int key", 3: 2}, {2.5: "float key", True: None}, [], {}, "", 0, -7.25, None, "plain",
]


def test_indented_writes_what_json_dumps_with_indent_writes():
    """jsontext.indented, build.json's item writer, against json.dumps(indent=1, sort_keys=True) at
    three nesting levels, for the values that an escaper or a number writer gets wrong."""
    from generator.jsontext import indented
    for value in AWKWARD:
        for level in (0, 1, 3):
            assert indented(value, level) == json.dumps(value, indent=1, sort_keys=True).replace("\n", "\n" + " " * level)


def test_a_streamed_list_of_awkward_values_is_what_json_dumps_writes():
    doc = {"items": "\0items\0", "game": "x"}
    assert json_bytes(doc, {"\0items\0": iter(AWKWARD)}) == \
        (json.dumps({**doc, "items": AWKWARD}, indent=1, sort_keys=True) + "\n").encode()


def test_a_dict_form_writes_what_indented_writes_of_its_dict():
    """jsontext.DictForm (build.json's items: their group's part written once) at three levels,
    with awkward fixed and own values, and a '%' in keys and values (the form is %-formatted)."""
    from generator.jsontext import DictForm, indented
    fixed = {"group": "d%s%%", "kind": "card", "width_mm": 63.5, "z%": [1, {"a": None}], "sides": 2}
    form = DictForm(fixed, ("id", "copies", "name", "faces", "%s"))
    for values in [("card-1", 3, "Épée \u2028 \"q\" %d", {"front": "ab" * 16, "back": "cd"}, -0.0),
                   ("", 0, "", {}, float("nan")), ("x", True, None, [1, [2]], "%(a)s")]:
        whole = {**fixed, **dict(zip(form.own, values))}
        for level in (0, 2, 3):
            assert indented(form(*values), level) == indented(whole, level) == \
                json.dumps(whole, indent=1, sort_keys=True).replace("\n", "\n" + " " * level)


def test_build_json_items_are_written_as_their_dicts_would_be(tmp_path):
    """build.json's item rows (DictForm) against build_items' dicts written whole: every item of
    a pack with one- and two-sided groups, an item without a name, and a face left out."""
    from generator import build, manifest
    from generator.cache import FaceDigests
    from generator.resources import BUILTIN_PACKS
    game = manifest.load_pack(BUILTIN_PACKS / "shires")
    digests = FaceDigests()
    for n, group in enumerate(game.groups):
        for i, item in enumerate(group.items):
            for side in ("front", "back")[:group.sides]:
                if (n + i) % 7:             # now and then a face without a digest
                    digests[group.id, item.id, side] = f"{n:08x}{i:08x}".ljust(32, "e")
    result = build.BuildResult(game, tmp_path, digests=digests)
    doc = {"items": "\0items\0"}
    written = json_bytes(doc, {"\0items\0": build._item_rows(game, result)})
    assert written == json_bytes({"items": build.build_items(game, result)})
    assert len(build.build_items(game, result)) == sum(len(g.items) for g in game.groups) > 20
