"""pnpgen validate renders the tuck box art: a mistake in a pack's templates/tuckbox/ (or the
shared ones) is found and located as a face's is, before anyone builds the boxes."""
from __future__ import annotations

import json

import pymupdf

from conftest import MM, run_cli
from test_tuckbox import write_decks

TOO_LONG = ("<rect x='0' y='0' width='{{ face.width }}' height='{{ face.height }}' fill='#ffffff'/>"
            "{{ text_line('The Grand Compendium of Every Spell Ever Cast', 2, 10, 8, size=8) }}")


def with_template(folder, name: str, text: str, tuck_box: str | None = None):
    pack = write_decks(folder)
    (pack / "templates" / "tuckbox").mkdir()
    (pack / "templates" / "tuckbox" / name).write_text(text)
    if tuck_box:
        decks = json.loads((pack / "decks.yaml").read_text())
        decks["groups"][0]["tuck_box"] = tuck_box
        (pack / "decks.yaml").write_text(json.dumps(decks))
    return pack


def test_a_template_mistake_is_found_and_located_once(tmp_path):
    pack = with_template(tmp_path / "decks", "spine.svg.j2", "<g>\n{{ item.shelf }}\n</g>")
    code, stdout, stderr = run_cli("validate", pack)
    assert code == 1, stdout
    lines = [line for line in stderr.splitlines() if "shelf" in line]
    assert len(lines) == 1                                  # both spines of all three decks: told once
    assert "decks.yaml:1:" in lines[0]                       # the group's line
    assert "group 'spells.tuckbox-spine-left'" in lines[0]
    assert "template tuckbox/spine.svg.j2 line 2: no key 'shelf' here" in lines[0]
    assert "(the same on 5 more items)" in lines[0]
    # build refuses the same when it draws the boxes, and builds without them
    code, _, said = run_cli("build", pack, "--out", tmp_path / "out", "-q", "--tuck-boxes")
    assert code == 1 and "template tuckbox/spine.svg.j2 line 2: no key 'shelf' here" in said
    code, _, said = run_cli("build", pack, "--out", tmp_path / "out", "-q")
    assert code == 0, said


def test_text_too_long_counts_where_the_box_is_drawn(tmp_path):
    """A box the pack asks for (tuck_box) is held to what build holds it to; the same art on a box
    nobody asked for is no error."""
    asked = with_template(tmp_path / "asked", "front.svg.j2", TOO_LONG, tuck_box="plain")
    code, _, stderr = run_cli("validate", asked)
    assert code == 1
    (line,) = [line for line in stderr.splitlines() if "Grand Compendium" in line]
    assert "group 'spells.tuckbox-front'" in line and "template tuckbox/front.svg.j2 line 1" in line
    assert "does not fit" in line
    code, _, said = run_cli("build", asked, "--out", tmp_path / "out", "-q")
    assert code == 1 and "does not fit" in said
    unasked = with_template(tmp_path / "unasked", "front.svg.j2", TOO_LONG)
    code, stdout, stderr = run_cli("validate", unasked)
    assert code == 0, stderr
    assert "Grand Compendium" not in stderr


def test_the_shared_templates_pass_for_every_card_group_of_a_pack(tmp_path):
    code, stdout, stderr = run_cli("validate", write_decks(tmp_path / "decks"))
    assert code == 0 and "tuckbox" not in stderr, stderr


def test_a_narrow_deck_with_a_long_name_gets_its_box(tmp_path):
    """Standees 20 mm wide: the shared templates keep less margin and wrap the deck's name,
    rather than refusing the build (the built-in packs' standee groups are this narrow)."""
    pack = write_decks(tmp_path / "decks")
    decks = json.loads((pack / "decks.yaml").read_text())
    decks["groups"][0].update(name="Knight standees of the realm", size={"width": "20mm", "height": "60mm"},
                              tuck_box="plain")
    (pack / "decks.yaml").write_text(json.dumps(decks))
    with open(pack / "game.yaml", "a") as handle:
        handle.write("version: v4\n")
    code, _, stderr = run_cli("validate", pack)
    assert code == 0, stderr
    code, _, stderr = run_cli("build", pack, "--out", tmp_path / "out", "-q")
    assert code == 0, stderr
    page = pymupdf.open(tmp_path / "out" / "decks" / "decks-tuckboxes.pdf")[0]
    guide_top = page.rect.height - 15 * MM
    on_net = [w[4] for w in page.get_text("words") if w[4] in ("Knight", "realm") and w[3] < guide_top]
    assert on_net.count("Knight") >= 3 and on_net.count("realm") >= 3       # front, back, spines
    assert "Test Deck v4 | tuck box for Knight standees of the realm" in page.get_text()
