"""A designer's own pack, as they would make one: copied or renamed built-in packs, packs without
seats, and everything `validate` must refuse before `build` would (issue 13, points 1 and 4)."""
from __future__ import annotations

import json
import re
import shutil

import pymupdf
import pytest

from conftest import ROOT, copy_pack, load_build_json, run_cli


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def both_refuse(pack, *fragments: str) -> str:
    """validate and build both fail, each naming every fragment; the messages are returned."""
    v_code, v_out, v_err = run_cli("validate", pack)
    b_code, _, b_err = run_cli("build", pack, "--out", pack.parent / "out", "--quiet")
    assert v_code == 1 and b_code == 1, (v_out, v_err, b_err)
    for fragment in fragments:
        assert re.search(fragment, v_err), (fragment, v_err)
        assert re.search(fragment, b_err), (fragment, b_err)
    for text in (v_err, b_err):
        assert "Traceback" not in text and "generator." not in text and "object" not in text
    return v_err


# --- 1. a pack is itself, wherever it lives ----------------------------------------------------

@pytest.fixture(scope="module")
def renamed_royal_dukes(tmp_path_factory):
    """components/royal-dukes copied to another folder under another name, and built."""
    base = tmp_path_factory.mktemp("elsewhere")
    pack = base / "my games" / "duchy"
    shutil.copytree(ROOT / "components" / "royal-dukes", pack)
    code, out, err = run_cli("build", pack, "--out", base / "out", "--quiet")
    assert code == 0, err
    return pack, base / "out" / "duchy"


def test_a_renamed_copy_builds_everything_the_original_does(renamed_royal_dukes):
    pack, out = renamed_royal_dukes
    info = load_build_json(out)
    assert info["game"] == "duchy"
    roles = {f["role"] for f in info["files"]}
    assert {"sheets", "board", "map", "handout"} <= roles
    assert {f["path"] for f in info["files"]} >= {"duchy-sheets.pdf", "duchy-map.pdf", "duchy-map.json",
                                                  "duchy-handout.pdf"}
    layout = json.loads((out / "duchy-map.json").read_text())
    assert layout["game"] == "duchy" and len(layout["cells"]) == 100
    handout = pymupdf.open(out / "duchy-handout.pdf")
    assert handout.page_count == 2 and "Royal Dukes" in handout[0].get_text()


def test_a_renamed_copy_maps_and_checks_like_the_original(renamed_royal_dukes, tmp_path):
    pack, _ = renamed_royal_dukes
    code, out, err = run_cli("map", pack, "--seed", "7", "--out", tmp_path)
    assert code == 0, err
    copy_file = tmp_path / "duchy" / "duchy-map-4p-7.json"
    code, out, err = run_cli("map", "royal-dukes", "--seed", "7", "--out", tmp_path)
    original = json.loads((tmp_path / "royal-dukes" / "royal-dukes-map-4p-7.json").read_text())
    copy = json.loads(copy_file.read_text())
    assert copy.pop("game") == "duchy" and original.pop("game") == "royal-dukes"
    assert copy == original                              # the same layout from the same seed
    code, out, err = run_cli("map", pack, "--check", copy_file)
    assert code == 0 and "legal duchy layout for 4 players" in out, out + err
    code, out, err = run_cli("map", "--check", copy_file)         # which pack? it must be told
    assert code == 1 and "pnpgen map PACK --check" in err


def test_game_yaml_id_names_the_output(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "game.yaml", "title: Test Pack", "id: my-cards\ntitle: Test Pack")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err
    assert (tmp_path / "out" / "my-cards" / "my-cards-sheets.pdf").is_file()
    assert not (tmp_path / "out" / "mini").exists()


def test_a_plain_deck_needs_no_seats(tmp_path):
    pack = copy_pack("mini", tmp_path)
    text = (pack / "game.yaml").read_text()
    text = re.sub(r"players: .*\n", "", text)
    text = re.sub(r"player_colors:\n(  - .*\n)+", "", text)
    (pack / "game.yaml").write_text(text)
    code, out, err = run_cli("validate", pack)
    assert code == 0, err
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err


def test_a_per_player_group_without_seats_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    text = re.sub(r"player_colors:\n(  - .*\n)+", "", (pack / "game.yaml").read_text())
    (pack / "game.yaml").write_text(text)
    edit(pack / "cards.yaml", "    kind: card\n", "    kind: card\n    per_player: true\n")
    both_refuse(pack, r"cards\.yaml:\d+:\d+: group 'cards' is per_player but game\.yaml lists no player_colors")


def test_a_copy_that_changes_the_map_numbers_gets_its_own_map(tmp_path):
    """Every built-in game's map is declared: a copy with a seventh village (in its `layout:`)
    maps and builds by its own numbers."""
    pack = tmp_path / "variant"
    shutil.copytree(ROOT / "components" / "royal-dukes", pack)
    edit(pack / "map.yaml", "- {type: village, count: 6}", "- {type: village, count: 7}")
    edit(pack / "map.yaml", "count: settlement, exactly: &settlements 20", "count: settlement, exactly: &settlements 21")
    edit(pack / "map.yaml", "count: village, exactly: 6,", "count: village, exactly: 7,")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0 and "no map layout" not in err, err
    layout = json.loads((tmp_path / "out" / "variant" / "variant-map.json").read_text())
    assert [c["type"] for c in layout["cells"]].count("village") == 7
    assert (tmp_path / "out" / "variant" / "variant-map.pdf").is_file()


# --- 4. validate finds everything build would refuse -------------------------------------------

def test_groups_in_a_reserved_file_are_an_error(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "board.yaml").rename(pack / "map.yaml")
    both_refuse(pack, r"map\.yaml:1:1: map\.yaml is reserved for the map rules .*board\.yaml")


def test_a_board_may_not_write_over_the_map(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "board.yaml", "id: board", "id: map")
    both_refuse(pack, r"board\.yaml:\d+:\d+: a board group called 'map' would write over")


@pytest.mark.parametrize("template_line, fragment", [
    ('<rect fill="{{ palette.clear }}"/>', r"line 6: the palette has no colour 'clear' \(its colours: ink, card, back\); "),
    ('<rect fill="{{ palette.bak }}"/>', r"line 6: the palette has no colour 'bak' \(its colours: ink, card, back\); did you "
                                         r"mean palette\.back\? add it to game\.yaml's palette, or use one of its colours \(the same on 10 more items\)"),
    ('<rect fill="bogus"/>', r"line 6: fill='bogus' is not a colour"),
    ('<rect fill="redd"/>', r"line 6: fill='redd' is not a colour \(it would print black\); did you mean 'red'\? \(the same"),
    ('<rect fill="ink"/>', r"line 6: fill='ink' is not a colour \(it would print black\); did you mean \{\{ palette\.ink \}\}\? \(the same"),
    ('<text font-family="DejaVu Sans">x</text>', r"font-family 'DejaVu Sans' is neither in the pack's fonts/ nor one of pnpgen's"),
    ('<rect width="2" height="2" transform="translate(nan,5)"/>', r"line 6: transform='translate\(nan,5\)' is not a list of "
                                                                  r"transforms of numbers \(its other words would be skipped\)"),
    ('<rect width="2" height="2" transform="rotate(45deg)"/>', r"line 6: transform='rotate\(45deg\)' is not a list of transforms"),
    ('<rect width="2" height="2" style="transform: rotate(90)"/>', r"line 6: transform: rotate\(90\) in a style attribute "
                                                                   r"is not drawn; write it as the element's own transform="),
    ("{{ text_box('a :stra: here', 5, 5, 40, 10) }}", r"icon ':stra:' .* did you mean ':star:'\?"),
    ("{{ text_box('a :gem: here', 5, 5, 40, 10) }}", r"icon ':gem:' .* not declared in game\.yaml icons; "
                                                     r"add it under icons: in game\.yaml \(gem: icons/gem\.svg\), or use one"),
    ("{{ icon('stra', 5, 5, 4) }}", r"icon 'stra' is not declared in game\.yaml icons; did you mean 'star'\?"),
    ("{{ item.title.nope() }}", r"template card\.svg\.j2 line \d"),
    ('<rect width="{{ 12 / (item.title|length * 0) }}"/>', r"line 6: division by zero: a value this line divides by is 0 "
                                                                r"for this item; give the item another value, or guard the line"),
    ('<rect width="{{ face.widht }}"/>', r"line 6: face has no 'widht' \(face holds what pnpgen tells a template of the "
                                         r"face: width, height, .*\); did you mean face\.width\? an item's own field is read as item\.widht"),
])
def test_template_mistakes_are_located_errors(tmp_path, template_line, fragment):
    pack = copy_pack("mini", tmp_path)
    template = pack / "templates" / "card.svg.j2"
    template.write_text(template.read_text() + template_line + "\n")
    both_refuse(pack, r"cards\.yaml:\d+:\d+: group 'cards', item '[a-z0-9-]+' \(front\)", fragment)


def test_a_palette_key_named_like_a_method_is_the_key(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "game.yaml", 'back: "#0000ff"', 'back: "#0000ff", clear: "#123456"')
    template = pack / "templates" / "card.svg.j2"
    template.write_text(template.read_text() + '<rect width="3" height="3" fill="{{ palette.clear }}"/>\n')
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err


def test_vary_values_take_the_declared_type(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "fields: {title: text, body: text, n: int}",
         "fields: {title: text, body: text, n: int, rank: text}")
    edit(pack / "cards.yaml", "vary: {n: 1..10}", "vary: {n: [1, 2], rank: [A, 2, 10]}")
    edit(pack / "cards.yaml", "rulebook_count: 12", "rulebook_count: 8")
    template = pack / "templates" / "card.svg.j2"
    template.write_text(template.read_text() + "{% if item.rank is defined %}{{ text_line(item.rank ~ '|' ~ (item.rank is string), 5, 70, 50) }}{% endif %}\n")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err
    text = "".join(page.get_text() for page in pymupdf.open(tmp_path / "out" / "mini" / "mini-sheets.pdf"))
    assert text.count("10|True") == 2 and text.count("2|True") >= 2 and "False" not in text


def test_vary_value_of_the_wrong_type_is_an_error(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "vary: {n: 1..10}", "vary: {n: [1, two, 3, 4, 5, 6, 7, 8, 9, 10]}")
    both_refuse(pack, r"cards\.yaml:\d+:\d+: items\[1\]\.vary\.n must be a whole number, not text")


def test_text_shrunk_below_6_pt_is_a_warning_naming_the_face(tmp_path):
    pack = copy_pack("mini", tmp_path)
    template = pack / "templates" / "card.svg.j2"
    template.write_text(template.read_text() + "{{ text_line('A rather long line of text', 5, 75, 20, size=9, min_size=4) }}\n")
    code, out, err = run_cli("validate", pack)
    assert code == 0, err
    assert re.search(r"warning: .*cards\.yaml:\d+:\d+: group 'cards', item 'plain-1' \(front\): text 'A rather "
                     r"long line of text' is shrunk to [45]\.\d\d pt .* \(the same on \d+ more faces\)", err), err
    assert err.count("A rather long line") == 1


def test_handout_reading_a_missing_map_says_so(tmp_path):
    pack = tmp_path / "nomap"
    shutil.copytree(ROOT / "components" / "royal-dukes", pack)
    (pack / "map.yaml").unlink()
    both_refuse(pack, r"handout\.yaml:\d+:\d+: .*'map' is undefined.*this pack has none")
