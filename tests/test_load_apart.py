"""A large pack is loaded in a forked child (apart.py), which sends back the model and every
problem: the same model, the same messages at the same file:line:col, as loading it here."""
import json
import os
import pickle
from pathlib import Path

import pytest

from conftest import ROOT, copy_pack
from generator import apart, manifest, model
from generator.errors import ManifestError, Reporter
from test_manifest_errors import BAD_INPUTS, overlay


@pytest.fixture
def forks(monkeypatch):
    """Loading apart whatever the pack's size; counts the children forked (pytest's own
    threads would otherwise keep apart.py from forking at all)."""
    count = []
    fork = os.fork

    def counted():
        count.append(1)
        return fork()
    monkeypatch.setattr(manifest, "LOAD_APART_ABOVE", -1)
    monkeypatch.setattr(apart, "_may_fork", lambda: True)
    monkeypatch.setattr(os, "fork", counted)
    return count


def loaded_here(pack: Path, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(manifest, "LOAD_APART_ABOVE", 1 << 62)
        return outcome(pack)


def outcome(pack: Path):
    """The model, or the text of every problem."""
    try:
        return manifest.load_pack(pack)
    except ManifestError as exc:
        return [str(p) for p in exc.problems]


@pytest.mark.parametrize("name", sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml")))
def test_a_pack_loaded_apart_is_the_model_loaded_here(name, forks, monkeypatch):
    pack = ROOT / "components" / name
    here = loaded_here(pack, monkeypatch)
    assert forks == []
    there = outcome(pack)
    assert forks == [1]
    assert there == here
    assert [i.mark for g in there.groups for i in g.items] == [i.mark for g in here.groups for i in g.items]


@pytest.mark.parametrize("case", sorted(p.name for p in BAD_INPUTS.iterdir()))
def test_a_broken_pack_loaded_apart_tells_the_same_problems(case, tmp_path, forks, monkeypatch):
    pack = copy_pack("mini", tmp_path)
    overlay(case, pack)
    here = loaded_here(pack, monkeypatch)
    there = outcome(pack)
    assert forks == [1]
    assert isinstance(here, list) and there == here


def test_the_problems_join_those_the_caller_gathered(tmp_path, forks):
    pack = copy_pack("mini", tmp_path)
    overlay("bad-color", pack)
    rep = Reporter()
    rep.warn(manifest.Mark("earlier.yaml", 1, 1), "said before")
    with pytest.raises(ManifestError) as raised:
        manifest.load_pack(pack, rep)
    assert str(raised.value.problems[0]) == "earlier.yaml:1:1: warning: said before"
    assert len(raised.value.problems) == len(rep.problems) > 1


def test_only_a_pack_of_more_source_bytes_than_the_bound_is_loaded_apart(tmp_path, monkeypatch):
    pack = copy_pack("mini", tmp_path)
    (pack / "cards.csv").write_text("id,title\n" + "x,y\n" * 10)
    size = manifest._source_bytes(pack)
    assert size == sum(p.stat().st_size for p in pack.glob("*.yaml")) + (pack / "cards.csv").stat().st_size
    calls = []
    monkeypatch.setattr(apart, "result_of", lambda job: calls.append(job) or job())
    monkeypatch.setattr(manifest, "LOAD_APART_ABOVE", size)
    manifest.load_pack(pack)
    assert calls == []
    monkeypatch.setattr(manifest, "LOAD_APART_ABOVE", size - 1)
    manifest.load_pack(pack)
    assert len(calls) == 1


def test_a_deck_loaded_apart_keeps_every_items_place(tmp_path, forks, monkeypatch):
    """A deck written one card a line: each item's mark is its own line, as loaded here."""
    pack = copy_pack("mini", tmp_path)
    cards = [{"id": f"c{i}", "copies": 1} for i in range(300)]
    text = json.dumps({"groups": [{"id": "many", "kind": "card", "size": "poker", "template": "card.svg.j2",
                                   "items": cards}]}, indent=0)
    (pack / "many.yaml").write_text(text)
    there = outcome(pack)
    assert forks == [1]
    items = next(g for g in there.groups if g.id == "many").items
    lines = text.splitlines()
    assert [lines[i.mark.line - 1].strip() for i in items[:3]] == ['{', '{', '{']
    assert [i.mark.line for i in items] == [i.mark.line for i in
                                            next(g for g in loaded_here(pack, monkeypatch).groups if g.id == "many").items]
    assert len({i.mark.line for i in items}) == 300


def test_a_child_that_gives_no_result_leaves_the_job_to_the_caller(monkeypatch):
    monkeypatch.setattr(apart, "_may_fork", lambda: True)
    assert apart.result_of(lambda: {"kept": [1, 2]}) == {"kept": [1, 2]}
    assert apart.result_of(lambda: 1 / 0) is None            # the caller runs it and shows the traceback
    assert apart.result_of(lambda: os._exit(3)) is None
    assert apart.result_of(lambda: lambda: 0) is None        # a result that cannot be sent


def test_no_child_is_forked_beside_other_threads(monkeypatch):
    monkeypatch.setattr(apart.threading, "active_count", lambda: 2)
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked"))
    assert apart.result_of(lambda: 1) is None


def test_items_pickle_as_their_fields():
    """A plain Mark goes as its three fields (no Python call per Mark to pickle and unpickle it);
    any other mark, a spreadsheet cell's, whole, with what it says beyond them."""
    item = model.Item("a", 2, {"title": "T"}, None, manifest.Mark("f.yaml", 3, 4))
    assert item.__reduce__() == (model._marked_item, ("a", 2, {"title": "T"}, None, "f.yaml", 3, 4))
    back = pickle.loads(pickle.dumps(item))
    assert back == item and type(back.mark) is manifest.Mark
    from generator.sheets_source import CellMark
    cell = CellMark("cards.xlsx", 4, 2, "Spells", "title")
    item = model.Item("b", 1, {}, None, cell)
    assert item.__reduce__() == (model.Item, ("b", 1, {}, None, cell))
    back = pickle.loads(pickle.dumps(item))
    assert back == item and str(back.mark) == str(cell) == "cards.xlsx, sheet Spells, row 4, column title"


def test_the_readme_states_the_bound():
    """README, Large decks: 'more than 1 MB' of YAML files and spreadsheets is loaded apart."""
    assert manifest.LOAD_APART_ABOVE == 1 << 20
    assert "come to more than 1 MB is read in a forked child" in " ".join((ROOT / "README.md").read_text().split())


def test_the_result_is_read_once_the_child_has_ended(monkeypatch):
    """Parent and child are never both large at once: the parent unpickles the result only after
    the child has ended (reading it from a pipe as it came, `pnpgen load` of 50,000 cards had
    both at their largest together)."""
    pids, alive = [], []
    fork, load = os.fork, pickle.load

    def forked():
        pid = fork()
        pids.append(pid)
        return pid

    def loading(stream):
        try:
            os.kill(pids[0], 0)
            alive.append(True)
        except ProcessLookupError:
            alive.append(False)
        return load(stream)
    monkeypatch.setattr(apart, "_may_fork", lambda: True)
    monkeypatch.setattr(os, "fork", forked)
    monkeypatch.setattr(apart.pickle, "load", loading)
    assert apart.result_of(lambda: list(range(100_000))) == list(range(100_000))
    assert alive == [False]
