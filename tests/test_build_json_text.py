"""build.json is written as json.dumps(indent=1, sort_keys=True) writes it, without holding
every piece of the text in a list first (jsontext.json_bytes; a build writes the same text
straight to a file with jsontext.json_write)."""
from __future__ import annotations

import json

from generator.jsontext import json_bytes


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
