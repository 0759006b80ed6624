"""Sheets made page by page (impose.Imposed), faces made when asked for (render.Copies) and face
digests kept compact (cache.FaceDigests): what a 50,000-card build needs to stay small, each
giving exactly what the lists it replaces gave."""
import gc
import pickle
import sys
from types import SimpleNamespace

import pytest

from conftest import ROOT
from generator.cache import FaceDigests
from generator.impose import Imposed, Options, Placement, Run, impose_runs, placed_faces, sheet_infos
from generator.model import Item
from generator.printer import SHIFTED_SIDES, shift_backs
from generator.render import Copies, expand_faces

A4 = Options("a4", 210, 297)


def _runs(backs=True):
    def run(key, n, w, h, shape="rect", two=True):
        fronts = [f"{key}{i}" for i in range(n)]
        return Run(key, key.title(), fronts, [f"back-{f}" for f in fronts] if two and backs else None, w, h, shape)
    return [run("cards", 40, 63, 88), run("chits", 7, 20, 20), run("hexes", 5, 40, 46.19, "hexagon", False),
            run("stickers", 30, 14, 14, two=False)]


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_sheets_made_when_asked_for_tell_what_the_sheets_made_show(duplex):
    """Page count, each page's number, side, groups and cut notes (build.json's page guide, the
    page limit) and each face with its widest bleed (what the PDF writer counts before drawing)
    are known without placing a face, and agree with the sheets when they are made."""
    opts = Options("a4", 210, 297, duplex=duplex)
    sheets = impose_runs(_runs(), opts, "Game")
    made = list(sheets)
    assert isinstance(sheets, Imposed) and len(sheets) == len(made) > 4
    infos = sheet_infos(sheets)
    assert [(i.number, i.side, i.groups, i.cuts) for i in infos] == [(s.number, s.side, s.groups, s.cuts) for s in made]
    assert list(placed_faces(sheets)) == [(p.face, max(p.bleed)) for s in made for p in s.placements]
    assert all(s.label for s in made)                 # each labelled as it is made


def test_a_slice_is_the_same_sheets_and_a_view_of_the_plan():
    sheets = impose_runs(_runs(), A4, "Game")
    part = sheets[3:7]
    assert isinstance(part, Imposed) and part.plan is sheets.plan and len(part) == 4
    whole = list(sheets)
    for a, b in zip(part, whole[3:7]):
        assert (a.number, a.side, a.placements, a.lines, a.ticks, a.label) == \
            (b.number, b.side, b.placements, b.lines, b.ticks, b.label)
    assert sheets[-1].number == whole[-1].number and sheets[-1].side == whole[-1].side
    with pytest.raises(IndexError):
        sheets[len(sheets)]


def test_no_placement_outlives_the_sheet_it_was_made_for():
    """Drawing a document holds one page's placements at a time, never all of them."""
    gc.collect()
    before = sum(isinstance(o, Placement) for o in gc.get_objects())
    sheets = impose_runs([Run("deck", "Deck", list(range(900)), list(range(900)), 63, 88)], A4, "Game")
    peak = sum(isinstance(o, Placement) for o in gc.get_objects()) - before
    assert peak == 0          # planned, none placed yet
    for sheet in sheets:
        assert sheet.placements
        peak = max(peak, sum(isinstance(o, Placement) for o in gc.get_objects()) - before)
    assert len(sheets) == 200 and peak <= 2 * 9       # a front and its back


def test_backs_are_shifted_as_they_are_made():
    sheets = impose_runs(_runs(), A4, "Game")
    shifted = shift_backs(sheets, (0.5, -1.0))
    assert isinstance(shifted, Imposed)
    for sheet in shifted:
        assert sheet.shift == ((0.5, -1.0) if sheet.side in SHIFTED_SIDES else (0.0, 0.0))
    assert {s.side for s in shifted} >= {"front", "back"}
    assert shift_backs(sheets, (0.0, 0.0)) is sheets


def _group(copies, back=True):
    items = [Item(f"i{n}", c, {}, None, None) for n, c in enumerate(copies)]
    return SimpleNamespace(id="g", items=items, back_template="b.svg.j2" if back else None)


@pytest.mark.parametrize("copies", [[1] * 7, [2, 0, 3, 1], [0, 0], []])
def test_copies_are_the_faces_expand_faces_lists(copies):
    group = _group(copies)
    fronts, backs = Copies.of(group)
    listed = expand_faces(group)
    for lazy, eager in zip((fronts, backs), listed):
        assert len(lazy) == len(eager) and list(lazy) == eager
        assert lazy[1:3] == eager[1:3]
        if eager:
            assert lazy[-1] == eager[-1]
        with pytest.raises(IndexError):
            lazy[len(eager)]
    assert Copies.of(_group(copies, back=False))[1] is None


def test_copies_of_some_items_and_joined_runs():
    group = _group([2, 1, 3])
    some = Copies.of(group, [group.items[0], group.items[2]])[0]
    assert [f.key for f in some] == [("g", "i0", "front")] * 2 + [("g", "i2", "front")] * 3
    joined = Copies.joined([some, Copies.of(group)[0]])
    assert list(joined) == list(some) + expand_faces(group)[0]


def test_face_digests_keep_hex_digests_as_bytes_and_travel_whole():
    digests = FaceDigests({("g", "a", "front"): "0f" * 16})
    digests[("g", "a", "back")] = bytes.fromhex("ab" * 16)
    assert digests[("g", "a", "back")] == "ab" * 16 and ("g", "a", "front") in digests
    assert ("g", "b", "front") not in digests and digests.get(("h", "a", "front")) is None
    copy = pickle.loads(pickle.dumps(digests))
    merged = FaceDigests()
    merged.update(copy)
    merged.update({("h", "c", "front"): "cd" * 16})
    assert dict(merged) == {("g", "a", "front"): "0f" * 16, ("g", "a", "back"): "ab" * 16,
                            ("h", "c", "front"): "cd" * 16}
    assert len(merged) == 3


def test_a_build_keeps_its_sheets_pdf_and_build_json_on_disk_until_they_are_written(tmp_path, monkeypatch):
    """The finished PDF and build.json wait in a temporary folder (publish.StagedFile), not in
    memory, and the output holds exactly their bytes."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_cards
    from generator import build as build_module, publish
    from generator.request import BuildRequest
    pack = bench_cards.write_pack(tmp_path, bench_cards.make_cards(12))
    staged = {}
    write = publish.write_atomically

    def writing(out_dir, files, replaces=()):
        staged.update({name: data.read() if isinstance(data, publish.StagedFile) else None
                       for name, data in files.items()})
        write(out_dir, files, replaces)
    monkeypatch.setattr(build_module, "write_atomically", writing)
    result = build_module.build(pack, BuildRequest(out_dir=tmp_path / "out"))
    assert set(staged) == {"bench-deck-sheets.pdf", "build.json"}
    for name, data in staged.items():
        assert data is not None and (result.out_dir / name).read_bytes() == data
