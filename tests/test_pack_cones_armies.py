"""Cones of Dunshire, helper C4's part: troops, Avatar standees, buildings (armies.yaml), Avatar
role cards and the Maverick's Paramilitary cards (roles.yaml), the Ledgerman's sheet and hat
(ledger.yaml). Counts in build.json equal the manifests and the rulebook, faces have the right
size in mm, and numbers on the faces are read from game.yaml data: change one in a copy of the
pack and the printed face (and the count) changes with it. Built from a copy of the pack holding
only these files, so the other parts' state is not this file's concern."""
import math
import shutil
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import ROOT, build_pack, load_build_json
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "cones-of-dunshire"
MY_FILES = ("armies.yaml", "roles.yaml", "ledger.yaml")


def groups() -> dict:
    out = {}
    for name in MY_FILES:
        out.update({g["id"]: g for g in yaml.safe_load((PACK / name).read_text())["groups"]})
    return out


def game() -> dict:
    return yaml.safe_load((PACK / "game.yaml").read_text())


def my_pack(tmp_path: Path) -> Path:
    target = tmp_path / "cones-of-dunshire"
    shutil.copytree(PACK, target)
    for path in target.glob("*.yaml"):
        if path.name not in MY_FILES + ("game.yaml", "map.yaml"):
            path.unlink()
    return target


build = build_pack


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cd-armies")
    return build(my_pack(tmp), tmp / "out")


def test_counts_equal_the_rulebook_and_the_manifest(output):
    data = load_build_json(output)
    totals = {g["id"]: g["total"] for g in data["groups"]}
    counts = {g["id"]: g.get("rulebook_count") for g in data["groups"]}
    d = game()["data"]
    # "300 Armies (60 troops)": each role's Maximum troops
    assert totals["troops"] == sum(r["max_troops"] for r in d["roles"]) == counts["troops"] == 60
    by_role = {}
    for item in data["items"]:
        if item["group"] == "troops":
            by_role[item["id"]] = by_role.get(item["id"], 0) + item.get("copies", 1)
    maxima = {r["id"]: r["max_troops"] for r in d["roles"]}
    assert {k: v for k, v in maxima.items() if v} == {k: v for k, v in by_role.items() if v}
    players = len(game()["player_colors"])
    assert totals["buildings"] == players * len(d["buildings"]) * d["buildings_per_type"] == 480
    assert totals["avatar-standees"] == totals["avatars"] == players == 8
    assert totals["paramilitary"] == len(d["paramilitary"]) == 6
    assert totals["ledger-sheet"] == totals["ledger-hat"] == 1
    for gid, group in groups().items():
        if "rulebook_count" in group:
            assert totals[gid] == group["rulebook_count"], gid


def test_sizes_in_mm(output):
    sizes = {}
    for item in load_build_json(output)["items"]:
        sizes.setdefault(item["group"], set()).add((item["width_mm"], item["height_mm"], item["sides"]))
    assert sizes["troops"] == {(16, 16, 1)}
    assert sizes["buildings"] == {(13, 13, 1)}
    assert sizes["avatar-standees"] == {(30, 76, 1)}
    assert sizes["avatars"] == sizes["paramilitary"] == {(63, 88, 2)}
    assert sizes["ledger-sheet"] == {(190, 252, 1)}
    (w, h, sides), = sizes["ledger-hat"]            # a polygon mat: its outline's extent
    points = groups()["ledger-hat"]["points"]
    assert sides == 1 and w == pytest.approx(max(x for x, _ in points) - min(x for x, _ in points), abs=0.05)
    assert h == pytest.approx(max(y for _, y in points) - min(y for _, y in points), abs=0.05)


@pytest.mark.slow
def test_the_ledger_sheet_is_one_page_on_a4_and_letter(output, tmp_path):
    assert pymupdf.open(output / "cones-of-dunshire-ledger-sheet.pdf").page_count == 1
    letter = build(my_pack(tmp_path), tmp_path / "letter", "--paper", "letter")
    assert pymupdf.open(letter / "cones-of-dunshire-ledger-sheet.pdf").page_count == 1


def test_hat_outline_is_the_cone_of_its_fields():
    hat = groups()["ledger-hat"]
    item = hat["items"][0]
    s, half = item["slant"], item["base"] / item["slant"] / 2
    ax, ay = item["apex"]
    points = hat["points"]
    assert points[0] == [ax, ay]
    arc = points[1:38]
    for (x, y) in arc:                      # every arc point lies on the circle of radius slant
        assert math.hypot(x - ax, y - ay) == pytest.approx(s, abs=0.02)
    # the arc spans base / slant radians: its length is the cone's base
    assert math.atan2(arc[-1][0] - ax, arc[-1][1] - ay) * 2 == pytest.approx(2 * half, abs=1e-3)
    assert max(x for x, _ in points) <= 299 and max(y for _, y in points) <= 169


def sheet_text(folder: Path) -> str:
    doc = pymupdf.open(folder / "cones-of-dunshire-ledger-sheet.pdf")
    return " ".join(" ".join(p.get_text().split()) for p in doc)


@pytest.mark.slow
def test_numbers_on_the_faces_come_from_game_data(tmp_path):
    """Change data in a copy: the Ledgerman's sheet, the Avatar card and the troop count follow."""
    pack = my_pack(tmp_path)
    g = yaml.safe_load((pack / "game.yaml").read_text())
    g["data"]["ledgerman_toll"] = 37
    g["data"]["buildings"][0]["rs"] = 41                  # Barracks' RS cost
    g["data"]["roles"][4]["max_troops"] = 21              # the Corporal
    g["data"]["roles"][4]["vote"] = 7
    (pack / "game.yaml").write_text(yaml.safe_dump(g, sort_keys=False, allow_unicode=True))
    # the troop token group's stated total follows the new Maximum (61 troops)
    armies = yaml.safe_load((pack / "armies.yaml").read_text())
    armies["groups"][0]["rulebook_count"] = 61
    (pack / "armies.yaml").write_text(yaml.safe_dump(armies, sort_keys=False, allow_unicode=True))
    out = build(pack, tmp_path / "out")
    text = sheet_text(out)
    assert "10 Generic RS" not in text and "37 Generic RS" in text
    assert " 41 " in f" {text} "
    totals = {x["id"]: x["total"] for x in load_build_json(out)["groups"]}
    assert totals["troops"] == 61
    faces = build(pack, tmp_path / "faces", "--paper", "face")
    doc = pymupdf.open(faces / "cones-of-dunshire-sheets.pdf")
    corporal = [" ".join(p.get_text().split()) for p in doc if "Vote Veto".upper() in p.get_text().upper()
                and "MAX TROOPS" in p.get_text()]
    assert corporal and "21" in corporal[0] and "7" in corporal[0]


def test_type_is_at_least_6_pt(output):
    for name in ("cones-of-dunshire-sheets.pdf", "cones-of-dunshire-ledger-sheet.pdf", "cones-of-dunshire-ledger-hat.pdf"):
        for page in pymupdf.open(output / name):
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        if span["text"].strip() and "Cones of Dunshire:" not in span["text"]:
                            assert span["size"] >= 6 - 0.01, (name, span["text"], span["size"])


def test_buildings_carry_the_role_tag_the_map_prints():
    """Buildings are told apart by the role's tag, not only its colour: the same tag as the map."""
    data = yaml.safe_load((PACK / "game.yaml").read_text())["data"]["roles"]
    board = map_data("cones-of-dunshire")["roles"]
    assert [(r["id"], r["label"]) for r in data] == [(r["id"], r["label"]) for r in board]
    assert len({r["label"] for r in data}) == len(data)
    from generator.manifest import load_pack
    from generator.render import FaceRenderer, expand_faces
    game = load_pack(PACK)
    renderer = FaceRenderer(game, 0.0)
    fronts, _ = expand_faces(next(g for g in game.groups if g.id == "buildings"))
    for role in data:
        face = next(f for f in fronts if f.item.player.id == role["id"])
        assert f">{role['label']}<" in renderer.svg(face), role["id"]
