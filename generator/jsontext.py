"""A JSON document -> its text as json.dumps(doc, indent=1, sort_keys=True) writes it, written
a piece at a time (build.json of 50,000 cards is 17 MB of text), its longest lists made entry by
entry as they are written.
"""
from __future__ import annotations

import io
import json


def json_bytes(doc, streamed: dict | None = None) -> bytes:
    """json_write's text as bytes, written into chunks joined once at the end (_Chunks)."""
    out = _Chunks()
    json_write(doc, out, streamed)
    return out.getvalue()


def json_write(doc, out, streamed: dict | None = None) -> None:
    """json.dumps(doc, indent=1, sort_keys=True) + newline as UTF-8, its pieces given to
    out.write() as they come (a file, or _Chunks): with an indent, json.dumps keeps every piece in
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


class _Chunks:
    """Bytes written a piece at a time, kept in chunks of about CHUNK bytes and joined once: one
    buffer grown to the whole text is moved by realloc each time it grows, and the holes it
    leaves stay in the heap (build.json of 50,000 cards, 17 MB: +62 MB RSS)."""

    CHUNK = 1 << 20

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.buffer = io.BytesIO()

    def write(self, data: bytes) -> None:
        self.buffer.write(data)
        if self.buffer.tell() >= self.CHUNK:
            self.chunks.append(self.buffer.getvalue())
            self.buffer = io.BytesIO()

    def getvalue(self) -> bytes:
        return b"".join([*self.chunks, self.buffer.getvalue()])


def _write_list(out, values, level: int) -> None:
    """A list as json.dumps(indent=1) writes it as a value at nesting `level`: each entry on a line
    of its own, indented one step deeper (JSON text holds no raw newline but between tokens)."""
    inner = "\n" + " " * (level + 1)
    head = "[" + inner
    for value in values:
        out.write(head.encode())
        out.write(json.dumps(value, indent=1, sort_keys=True).replace("\n", inner).encode())
        head = "," + inner
    out.write(b"[]" if head.startswith("[") else ("\n" + " " * level + "]").encode())
