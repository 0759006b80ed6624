"""Streamed faces (cache.StreamedRenderer): a document of many faces is rendered, drawn and dropped
face by face, its faces told apart by what they are made of. Its files and warnings are those the
same document gives when it keeps its faces (cache.streamed_document decides by size; these tests
move the threshold instead of building 4,096 faces)."""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import write_deck
from generator import cache, parallel
from generator.build import BuildRequest, build
from generator.changes import read_build

FRONT = ('<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" '
         'height="{{ face.height + 2 * face.bleed }}" fill="{{ palette.paper }}"/>\n'
         '{{ text_line(item.title, 5, 10, 30, size=12, min_size=2) }}\n')
# a back too small for its words: every card's back warns
BACK = ('<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" '
        'height="{{ face.height + 2 * face.bleed }}" fill="{{ palette.ink }}"/>\n'
        '{{ text_line("A back with too many words", 5, 10, 20, size=9, min_size=2) }}\n')


def _deck(folder, cards: int = 120):
    """A deck of distinct cards (some titles too long, some cards in three copies) with one back."""
    titles = [f"Card {n}" for n in range(cards)]
    for n in (n for n in (3, 40, 77, 110) if n < cards):
        titles[n] = f"Card {n} has a title far too long to stay readable"
    pack = write_deck(folder, titles, {"front.svg.j2": FRONT, "back.svg.j2": BACK})
    deck = json.loads((pack / "deck.yaml").read_text())
    for n in (n for n in (5, 40, 90) if n < cards):
        deck["groups"][0]["items"][n]["copies"] = 3
    (pack / "deck.yaml").write_text(json.dumps(deck))
    return pack


def _built(pack, out, monkeypatch, streamed: bool, split: bool = True, **request):
    monkeypatch.setattr(cache, "STREAM_ABOVE", 0 if streamed else 10**9)
    monkeypatch.setattr(parallel, "MIN_PAGES_PER_CHUNK", 8 if split else 10**9)
    result = build(pack, BuildRequest(out_dir=out, **request))
    folder = out / result.game.id
    return result, {f.name: f.read_bytes() for f in sorted(folder.iterdir())}


@pytest.mark.parametrize("split", [True, False], ids=["two processes", "one process"])
def test_a_streamed_document_gives_the_files_and_warnings_of_one_that_keeps_its_faces(tmp_path, monkeypatch, split):
    pack = _deck(tmp_path / "deck")
    kept, kept_files = _built(pack, tmp_path / "kept", monkeypatch, streamed=False, split=split)
    streamed, streamed_files = _built(pack, tmp_path / "streamed", monkeypatch, streamed=True, split=split)
    assert kept.files[0]["pages"] >= 16 or not split      # two chunks: a worker drew half
    assert streamed_files == kept_files                    # the PDF and build.json, byte for byte
    assert streamed.warnings == kept.warnings
    back = [w for w in streamed.warnings if "A back with" in w]
    assert len(back) == 1 and "the same on 119 more faces" in back[0], "each card's back warns, copies once"


def _renderers_made(monkeypatch) -> list:
    """Every StreamedRenderer the build makes, appended to the list returned as it is made."""
    renderers, real_init = [], cache.StreamedRenderer.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        renderers.append(self)
    monkeypatch.setattr(cache.StreamedRenderer, "__init__", init)
    return renderers


def test_a_streamed_build_renders_each_face_once_and_keeps_only_the_last_few(tmp_path, monkeypatch):
    pack = _deck(tmp_path / "deck")
    rendered, renderers = [], _renderers_made(monkeypatch)
    real_render = cache.StreamedRenderer._render
    monkeypatch.setattr(cache.StreamedRenderer, "_render", lambda self, face: rendered.append(face.key) or real_render(self, face))
    monkeypatch.setattr(cache.StreamedRenderer, "KEEP", 4)
    result, _ = _built(pack, tmp_path / "out", monkeypatch, streamed=True, split=False)
    fronts = [key for key in rendered if key[2] == "front"]
    assert len(fronts) == len(set(fronts)) == 120, "a copy is drawn from the face rendered just before"
    assert [key for key in rendered if key[2] == "back"] == [("deck", "card-0", "back")]
    [renderer] = renderers
    assert len(renderer._recent) <= 4 and not renderer._kept
    assert len(result.digests) == 240 and len(set(result.digests.values())) == 121


def test_a_streamed_build_hashes_each_face_key_once_though_the_writer_asks_again_later(tmp_path, monkeypatch):
    """The writer counts every face of its pages, then renders and draws them page by page: a
    front's key counted is kept until asked for again (then dropped), not hashed a second time
    after the LRU of keys has let it go; the shared back's key is hashed once in all. (Separate
    cuts: no face's edges are read before the writer counts; a large deck's are a sample.)"""
    pack = _deck(tmp_path / "deck")
    keyed, renderers = [], _renderers_made(monkeypatch)
    real_key = cache.StreamedRenderer._face_hash
    monkeypatch.setattr(cache.StreamedRenderer, "_face_hash", lambda self, face: keyed.append(face.key) or real_key(self, face))
    monkeypatch.setattr(cache.StreamedRenderer, "KEYED", 100)    # one window of pages (72 faces), not all 240
    _built(pack, tmp_path / "out", monkeypatch, streamed=True, split=False, cuts="separate")
    fronts = [key for key in keyed if key[2] == "front"]
    assert len(fronts) == len(set(fronts)) == 120
    assert [key for key in keyed if key[2] == "back"] == [("deck", "card-0", "back")]
    [renderer] = renderers
    assert not any(renderer._once.values()), "each key kept is dropped once asked for again"


def test_new_is_marked_alike_on_a_streamed_document(tmp_path, monkeypatch):
    pack = _deck(tmp_path / "deck", cards=60)
    _built(pack, tmp_path / "before", monkeypatch, streamed=False)
    shutil.copytree(tmp_path / "before" / "deck", tmp_path / "old")
    deck = json.loads((pack / "deck.yaml").read_text())
    deck["groups"][0]["items"][7]["title"] = "Card 7, edited"
    (pack / "deck.yaml").write_text(json.dumps(deck))
    since = read_build(tmp_path / "old")
    _, kept = _built(pack, tmp_path / "kept", monkeypatch, streamed=False, changes_since=since)
    _, streamed = _built(pack, tmp_path / "streamed", monkeypatch, streamed=True, changes_since=since)
    assert "deck-changes.pdf" in kept
    assert streamed == kept


def without_repeated_keys(pdf: bytes) -> bytes:
    """The whole PDF's repeated resource keys blanked at once, in bytes: what blanking a file a
    piece at a time must give."""
    from generator.pdfwrite import _RESOURCE_DICT, _deduped, _repeats
    return _RESOURCE_DICT.sub(lambda match: _deduped(match) if _repeats(match.group(1)) else match.group(0), pdf)


def test_a_part_written_to_a_file_has_its_repeated_resource_keys_blanked_in_place(tmp_path):
    """cairo writes a drawing worker's chunk to its file by name; its repeated resource entries
    (a back painted 9 times on a page) are then blanked in that file, as without_repeated_keys
    blanks them in bytes: every other byte, and so the file's length, stays."""
    from generator.pdfwrite import blank_repeated_keys
    pdf = (b"%PDF-1.5\n1 0 obj << /Resources << /XObject << /x6 6 0 R /x6 6 0 R /x7 7 0 R /x6 6 0 R >> >> >>\n"
           b"2 0 obj << /Resources << /Font << /f-0-0 9 0 R >> >> >>\n%%EOF\n")
    (tmp_path / "part.pdf").write_bytes(pdf)
    blank_repeated_keys(str(tmp_path / "part.pdf"))
    blanked = (tmp_path / "part.pdf").read_bytes()
    assert blanked == without_repeated_keys(pdf)
    assert blanked.count(b"/x6 6 0 R") == 1 and len(blanked) == len(pdf)


def _forms(pdf: bytes) -> int:
    import io
    import pikepdf
    with pikepdf.Pdf.open(io.BytesIO(pdf)) as doc:
        return sum(1 for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form")


def test_look_alike_faces_made_from_other_data_are_drawn_once_only_where_the_document_keeps_its_faces(tmp_path, monkeypatch):
    """README: a kept document finds faces alike by their SVG, a streamed one by what they are
    made of, so two cards whose shown words are equal but whose data differ are each drawn."""
    look_alike = '<rect x="0" y="0" width="{{ face.width }}" height="{{ face.height }}" fill="{{ palette.paper }}"/>\n' \
                 '{{ text_line(item.title[:4], 5, 10, 30, size=12) }}\n'
    pack = write_deck(tmp_path / "deck", ["Card one", "Card two"], {"front.svg.j2": look_alike, "back.svg.j2": BACK})
    _, kept = _built(pack, tmp_path / "kept", monkeypatch, streamed=False, split=False)
    _, streamed = _built(pack, tmp_path / "streamed", monkeypatch, streamed=True, split=False)
    assert _forms(kept["deck-sheets.pdf"]) == _forms(streamed["deck-sheets.pdf"]) + 1   # the two fronts: one form


@pytest.mark.parametrize("piece", [7, 40, 64, 1 << 20])
def test_a_part_read_piece_by_piece_is_blanked_as_a_whole(piece, tmp_path, monkeypatch):
    """cairo writes a chunk to a file as it draws; blanking its repeated resource keys reads it
    a piece at a time, cut after an 'endobj', so no dictionary is split across two pieces."""
    from generator import pdfwrite
    objects = [b"%d 0 obj << /Resources << /XObject << /x6 6 0 R /x6 6 0 R /x%d %d 0 R /x6 6 0 R >> >> >>\nendobj\n"
               % (n, n, n) for n in range(1, 30)]
    pdf = b"%PDF-1.5\n" + b"".join(objects) + b"stream\x00\xffendob\nendstream\n%%EOF\n"
    (tmp_path / "part.pdf").write_bytes(pdf)
    monkeypatch.setattr(pdfwrite, "READ_PIECE", piece)
    pdfwrite.blank_repeated_keys(str(tmp_path / "part.pdf"))
    copied = (tmp_path / "part.pdf").read_bytes()
    assert copied == without_repeated_keys(pdf)
    assert copied.count(b"/x6 6 0 R") == 29 and len(copied) == len(pdf)


def test_a_face_key_digest_is_the_hash_of_what_json_dumps_writes():
    """cache.digest calls json's C encoder itself: the text it hashes is json.dumps's, for every
    kind of value a key holds (unicode, floats, nested lists, tuples, None, what only repr names),
    and a value holding itself is refused as json.dumps refuses it."""
    import hashlib
    values = [["a" * 64, [["name", "Épée \u2028 \"q\"\n"], ["cost", 3], ["x", 1.5, float("nan"), -0.0]], None],
              {"b": 1, "a": (2, [3.25, {}]), "z": [True, False, None]}, "plain", 7, object, [[], {}]]
    for value in values:
        text = json.dumps(value, default=repr, separators=(",", ":"), ensure_ascii=False)
        assert cache.digest(value) == hashlib.sha256(text.encode()).hexdigest()
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        cache.digest(loop)
