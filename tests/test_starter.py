"""`pnpgen new PATH`: a starter pack that validates and builds at once, written without ever
overwriting a file (issue 23)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pymupdf
import pytest

from conftest import MM, run_cli


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_new_pack_builds_with_its_art_map_and_handout(tmp_path):
    code, out, err = run_cli("new", "Goblin Market", cwd=tmp_path)
    assert code == 0, err
    pack = tmp_path / "Goblin Market"
    assert "cd Goblin Market" in out
    assert {"game.yaml", "cards.csv", "cards.yaml", "tiles.yaml", "map.yaml", "handout.yaml",
            "templates/card.svg.j2", "art/ranger.png"} <= set(tree(pack))
    code, out, err = run_cli("build", "-q", cwd=pack / "templates")      # from a folder inside the pack
    assert code == 0, err
    built = pack / "output" / "goblin-market"
    assert {"goblin-market-sheets.pdf", "goblin-market-map.pdf", "goblin-market-handout.pdf"} <= \
        {p.name for p in built.iterdir()}
    with pymupdf.open(built / "goblin-market-sheets.pdf") as doc:
        first = doc[0]
        assert first.rect.width / MM == pytest.approx(210, abs=0.5)     # the pack's A4
        assert "Ranger" in first.get_text()
        assert first.get_images(), "the card art is not on the first sheet"
    with pymupdf.open(built / "goblin-market-handout.pdf") as doc:
        assert "Goblin Market" in doc[0].get_text()


def test_title_from_option_is_quoted_into_yaml(tmp_path):
    code, _, err = run_cli("new", "pack", "--title", 'The "Best": Game #1', cwd=tmp_path)
    assert code == 0, err
    code, out, err = run_cli("validate", cwd=tmp_path / "pack")
    assert code == 0, err
    code, out, _ = run_cli("list", cwd=tmp_path / "pack")
    assert 'The "Best": Game #1' in out.splitlines()[0]


def test_same_name_gives_the_same_bytes(tmp_path):
    for name in ("a", "b"):
        assert run_cli("new", f"{name}/my-game", cwd=tmp_path)[0] == 0
    assert tree(tmp_path / "a" / "my-game") == tree(tmp_path / "b" / "my-game")


def test_never_overwrites_a_file(tmp_path):
    pack = tmp_path / "mine"
    assert run_cli("new", "mine", cwd=tmp_path)[0] == 0
    (pack / "cards.csv").write_text("id,copies,title,cost,text,art\nmy,1,My own card,1,Mine,art/ranger.png\n")
    before = tree(pack)
    code, _, err = run_cli("new", "mine", cwd=tmp_path)
    assert code == 2 and "never overwrites" in err and "cards.csv" in err
    assert tree(pack) == before


def test_one_file_in_the_way_means_nothing_is_written(tmp_path):
    folder = tmp_path / "half"
    (folder / "templates").mkdir(parents=True)
    (folder / "templates" / "card.svg.j2").write_text("mine")
    code, _, err = run_cli("new", str(folder), cwd=tmp_path)
    assert code == 2 and "templates/card.svg.j2" in err and "Traceback" not in err
    assert tree(folder) == {"templates/card.svg.j2": hashlib.sha256(b"mine").hexdigest()}


def test_a_file_as_the_folder_is_refused(tmp_path):
    (tmp_path / "taken").write_text("x")
    code, _, err = run_cli("new", "taken", cwd=tmp_path)
    assert code == 2 and "is a file" in err
