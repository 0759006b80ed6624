"""build.json is written as json.dumps(indent=1, sort_keys=True) writes it, without holding
every piece of the text in a list first (build.json_bytes)."""
from __future__ import annotations

import json

from generator.build import json_bytes


def test_json_bytes_are_what_json_dumps_writes():
    doc = {"items": [{"id": f"card-{i}", "name": "Épée \u2028 \"quoted\"", "faces": {"front": "ab" * 16},
                      "width_mm": 63.0, "copies": i, "printed": i % 2 == 0, "note": None} for i in range(50)],
           "files": [], "groups": {}, "game": "deck"}
    assert json_bytes(doc) == (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode()
