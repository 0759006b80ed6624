"""map.yaml takes only the keys something reads (issue 26, nothing fails silently): `layout`,
`look`, `policies` for the map engine and `data` for the pack's manifests and handout. Any other
top-level key, a left-over `python_rules:`, a policy naming no rule, is refused at its
file:line:col by `pnpgen map`, `validate` and `build`, with nothing written; the numbers under
`data:` are the layout's own (aliases), and the few that cannot be are held equal to it here."""
from __future__ import annotations

import re
import shutil

import pytest
import yaml

from conftest import ROOT, run_cli
from generator.maps import engine
from generator.maps.keys import MAP_KEYS

RD = ROOT / "components" / "royal-dukes"
TAKES = "(keys map.yaml takes: data, layout, look, policies)"


@pytest.fixture
def duchy(tmp_path):
    pack = tmp_path / "duchy"
    shutil.copytree(RD, pack)
    return pack


def _append(pack, text: str) -> int:
    """Append text to map.yaml; the line number its first line lands on."""
    path = pack / "map.yaml"
    before = path.read_text()
    path.write_text(before + text)
    return before.count("\n") + 1


def test_a_stray_top_level_key_is_refused_with_its_place_and_the_close_match(duchy, tmp_path):
    line = _append(duchy, "loook: {}\n")
    code, out, err = run_cli("map", duchy, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()
    assert f"duchy/map.yaml:{line}:1: unknown key 'loook'; did you mean 'look'? {TAKES}" in err
    assert "Traceback" not in err


def test_a_key_like_no_other_says_where_the_map_and_the_data_go(duchy, tmp_path):
    """The oracle-only sections the built-in packs once carried (`settlements:`) are refused too:
    changing them changed nothing."""
    line = _append(duchy, "settlements:\n  village: {number: 7}\n")
    code, out, err = run_cli("map", duchy, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2
    assert re.search(rf"duchy/map\.yaml:{line}:1: unknown key 'settlements'; the map engine reads only "
                     rf"layout, look and policies; declare the map's rules under layout: \(docs/maps\.md\) "
                     rf"and put numbers your manifests or handout read under data: {re.escape(TAKES)}", err), err


def test_python_rules_has_its_own_message(duchy, tmp_path):
    line = _append(duchy, "python_rules: royal_dukes\n")
    code, out, err = run_cli("map", duchy, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2
    assert (f"duchy/map.yaml:{line}:1: 'python_rules' was removed: the map now comes from `layout:`, the rules "
            f"in the map vocabulary (docs/maps.md)") in err


def test_every_stray_key_is_named_at_once(duchy, tmp_path):
    line = _append(duchy, "bogus: 1\nboard: {cols: 10}\n")
    code, out, err = run_cli("map", duchy, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2 and f"map.yaml:{line}:1: unknown key 'bogus'" in err and f"map.yaml:{line + 1}:1: unknown key 'board'" in err


def test_validate_refuses_it(duchy):
    line = _append(duchy, "bogus: 1\n")
    code, out, err = run_cli("validate", duchy)
    assert code == 1 and f"duchy/map.yaml:{line}:1: unknown key 'bogus'" in out + err
    assert "Traceback" not in out + err


def test_build_refuses_it_once_and_leaves_earlier_output_as_it_was(duchy, tmp_path):
    out_dir = tmp_path / "out"
    earlier = out_dir / "duchy" / "duchy-map.json"
    earlier.parent.mkdir(parents=True)
    earlier.write_text("earlier\n")
    line = _append(duchy, "bogus: 1\n")
    code, out, err = run_cli("build", duchy, "--out", out_dir, "--quiet")
    assert code == 1 and err.count(f"map.yaml:{line}:1: unknown key 'bogus'") == 1, err
    assert [p.name for p in earlier.parent.iterdir()] == ["duchy-map.json"] and earlier.read_text() == "earlier\n"


def test_a_policy_naming_no_rule_is_refused(duchy, tmp_path):
    path = duchy / "map.yaml"
    text = path.read_text()
    assert text.count("free-connected, settlement-access") == 1
    path.write_text(text.replace("free-connected, settlement-access", "free-conected, settlement-access"))
    code, out, err = run_cli("map", duchy, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2 and re.search(r"duchy/map\.yaml:\d+:\d+: policies: 'free-conected' is no rule of this map; "
                                   r"did you mean 'free-connected'\?", err), err


@pytest.mark.parametrize("value", ["[1, 2]", "oops"])
def test_data_must_be_a_mapping(duchy, tmp_path, value):
    path = duchy / "map.yaml"
    text = path.read_text()
    assert text.count("\ndata:\n") == 1
    path.write_text(text.replace("\ndata:\n", f"\ndata: {value}\nold_data:\n"))
    code, out, err = run_cli("map", duchy, "--seed", "1", "--out", tmp_path / "out")
    assert code == 2 and re.search(r"map\.yaml:\d+:7: data: must be a mapping of keys, not .*; e\.g\. data: \{settlements: 20\}", err), err


@pytest.mark.parametrize("game", engine.GAMES)
def test_the_built_in_packs_hold_only_the_keys_map_yaml_takes(game):
    data = yaml.safe_load((ROOT / "components" / game / "map.yaml").read_text())
    assert set(data) <= set(MAP_KEYS) and "layout" in data


# --- data: the layout's numbers, written once ----------------------------------------------

def _map(game):
    return yaml.safe_load((ROOT / "components" / game / "map.yaml").read_text())


def test_shires_exploration_blanks_are_the_layouts_exploration_tiles():
    """The one list data: cannot alias (the layout keeps a value per tile)."""
    m = _map("shires")
    per_tile = m["layout"]["types"]["blank"]["tiles"]["values"]["exploration"]
    assert m["data"]["exploration_blanks"] == [n for n, explore in sorted(per_tile.items()) if explore]


def test_doomspire_board_size_and_starting_pieces_are_the_layouts():
    m = _map("lords-of-doomspire")
    rows = m["layout"]["board"]["rows"]
    land = [row for row, first, last in rows if row not in (-1, len(rows) - 2)]
    assert m["data"]["board"]["size"] == len(land) == rows[0][2] - rows[0][1] - 1
    for place in m["layout"]["seats"]["places"]:
        kinds = [piece["kind"] for piece in place["pieces"]]
        assert kinds.count("knight") == m["data"]["setup"]["knights_per_player"]
        assert kinds.count("boat") == m["data"]["setup"]["boats_per_player"]


def test_a_number_changed_in_the_layout_changes_what_the_pack_prints(tmp_path):
    """data: aliases the layout: one edit to Dragon Towers' Water count changes the map, the
    printed hexes and the handout together."""
    pack = tmp_path / "dragon-isles"
    shutil.copytree(ROOT / "components" / "dragon-towers", pack)
    path = pack / "map.yaml"
    text = path.read_text()
    for old, new in (("- {type: water, count: &water 5}", "- {type: water, count: &water 6}"),
                     ("set_count: water, exactly: 5", "set_count: water, exactly: 6")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text)
    hexes_yaml = pack / "hexes.yaml"         # 4 seats x 27 tiles now: the pack counts them from the map
    hexes_yaml.write_text(hexes_yaml.read_text().replace("rulebook_count: 104", "rulebook_count: 108", 1))
    from generator.manifest import load_pack
    hexes = next(g for g in load_pack(pack).groups if g.id == "hexes")
    water = [item for item in hexes.items if item.data.get("terrain") == "water"]
    assert water and {item.copies for item in water} == {6}
    code, out, err = run_cli("map", pack, "--seed", "4", "--players", "2", "--format", "json", "--out", tmp_path / "out")
    layout = yaml.safe_load((tmp_path / "out" / "dragon-isles" / "dragon-isles-map-2p-4.json").read_text())
    assert code == 0 and sum(c["type"] == "water" for c in layout["cells"]) == 12


# --- inside the sections: each part nothing would read or draw -----------------------------

DOOMSPIRE = ROOT / "components" / "lords-of-doomspire"
TOWERS = ROOT / "components" / "dragon-towers"


def _refused(tmp_path, source, old: str, new: str) -> str:
    """What the map engine says of a copy of the pack with one edit of its map.yaml."""
    pack = tmp_path / source.name
    shutil.copytree(source, pack)
    text = (pack / "map.yaml").read_text()
    assert text.count(old) == 1, old
    (pack / "map.yaml").write_text(text.replace(old, new))
    with pytest.raises(engine.MapError) as caught:
        engine.rules_for(pack)
    return str(caught.value)


@pytest.mark.parametrize("source, old, new, said", [
    (DOOMSPIRE, "    knight: {name: Knight, shape: shield}", "    knight: {name: Knight, shape: shield, colour: red}",
     r"map\.yaml:\d+:\d+: look\.markers\.knight\.colour: unknown key; \(look\.markers\.knight takes: name, fill"),
    (DOOMSPIRE, "    knight: {name: Knight, shape: shield}", "    knigth: {name: Knight, shape: shield}",
     r"look\.markers\.knigth: no kind of piece a layout places is 'knigth'; did you mean 'knight'\?"),
    (DOOMSPIRE, '    temple: {name: Temple, fill: "#cdb8ea", icon: temple}', '    tempel: {name: Temple, fill: "#cdb8ea", icon: temple}',
     r"look\.cells\.tempel: no cell type of layout\.types is 'tempel'; did you mean 'temple'\?"),
    (DOOMSPIRE, '    starred: "starred"', '    stared: "starred"',
     r"look\.labels\.stared: no key a cell carries is 'stared'; did you mean 'starred'\?"),
    (DOOMSPIRE, "  owner_key: owner\n", "  owner_key: owner\n  legend: true\n",
     r"look\.legend: unknown key; \(look takes: cells, face_down"),
    (DOOMSPIRE, "where: {starred: false}, exactly: 0", "where: {stared: false}, exactly: 0",
     r"map\.yaml:\d+:\d+: where: no cell or piece of this map carries 'stared'; did you mean 'starred'\?"),
    (DOOMSPIRE, "taken: &seating {2: [nw, se],", "taken: &seating {two: [nw, se], 2: [nw, se],",
     r"layout\.seats\.taken: has the key 'two', not a player count this map allows; key it by 2-4"),
    (TOWERS, '    number: {name: "Empty', '    numbre: {name: "Empty',
     r"look\.badges\.numbre: no key a cell carries is 'numbre'; did you mean 'number'\?"),
    (RD, "  size: {width: 278.5, height: 239.7}", "  size: {width: 278.5, height: 239.7}\n  cells: {}",
     r"look\.cells: unknown key; this look is drawn by its template \(look\.template\), which reads only"),
    (RD, "  size: {width: 278.5, height: 239.7}", "  size: {width: 278.5, heigth: 239.7}",
     r"look\.size\.heigth: unknown key; did you mean 'height'\?"),
])
def test_a_part_nothing_reads_is_refused_at_its_place(tmp_path, source, old, new, said):
    message = _refused(tmp_path, source, old, new)
    assert re.search(said, message), message
    assert re.search(r"map\.yaml:\d+:\d+: ", message), message


# --- the docs say what the loader takes ---------------------------------------------------

def _doc_section(title: str) -> str:
    doc = (ROOT / "docs" / "maps.md").read_text()
    return doc.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_docs_list_exactly_the_keys_map_yaml_takes():
    rows = re.findall(r"^\| `(\w+)` \|", _doc_section("What map.yaml holds"), re.M)
    assert sorted(rows) == sorted(MAP_KEYS)


def test_the_docs_list_the_look_keys_the_check_takes():
    from generator.maps.keys import LOOK
    text = " ".join(_doc_section("What map.yaml holds").split())
    said = {part: set(re.findall(r"`(\w+)`", re.search(rf"{part}'?s? ([^;]*);", text).group(1)))
            for part in ("a badge", "a marker")}
    styles = set(re.findall(r"`(\w+)`", re.search(r"for a style ([^;]*);", text).group(1)))
    cells = set(re.findall(r"`(\w+)`", re.search(r"a cell's also ([^;]*);", text).group(1)))
    template = set(re.findall(r"`(\w+)`", re.search(r"takes only ([^;]*);", text).group(1)))
    assert styles == set(LOOK["face_down.*"])
    assert styles | cells == set(LOOK["cells.*"])
    assert styles | said["a badge"] == set(LOOK["badges.*"])
    assert styles | said["a marker"] == set(LOOK["markers.*"])
    assert template == set(LOOK["template"])


def test_the_handout_and_preview_refuse_it_too(duchy, tmp_path):
    """load_pack reads map.yaml for references: every command that loads the pack says it, before
    anything is drawn."""
    line = _append(duchy, "bogus: 1\n")
    for command in (("handout", duchy, "--out", tmp_path / "out"), ("preview", duchy, "--out", tmp_path / "out")):
        code, out, err = run_cli(*command)
        assert code != 0 and f"duchy/map.yaml:{line}:1: unknown key 'bogus'" in err, (command, err)
    assert not list((tmp_path / "out").rglob("*.pdf"))       # (preview's page shows the problem)
