"""The worked example in docs/manifests.md is built from the page itself, so the docs stay true."""
import re

from conftest import ROOT, run_cli

DOC = (ROOT / "docs" / "manifests.md").read_text()
FILE_BLOCK = re.compile(r"^`([\w./-]+)`(?: \([^)]*\))?:\n\n```[\w]*\n(.*?)```", re.M | re.S)


def write_example(folder):
    pack = folder / "my-game"
    files = dict(FILE_BLOCK.findall(DOC))
    assert {"game.yaml", "cards.yaml", "templates/spell.svg.j2", "templates/coin.svg.j2"} <= set(files)
    files["templates/coin-back.svg.j2"] = files["templates/coin.svg.j2"]     # "and coin-back alike"
    for name, text in files.items():
        (pack / name).parent.mkdir(parents=True, exist_ok=True)
        (pack / name).write_text(text)
    return pack


def test_worked_example_validates_and_builds_as_documented(tmp_path):
    write_example(tmp_path)
    code, out, err = run_cli("validate", "my-game", cwd=tmp_path)
    assert code == 0, err
    assert "my-game: ok (43 components in 3 groups)" in DOC and "ok (43 components in 3 groups)" in out
    code, out, err = run_cli("build", "my-game", cwd=tmp_path)
    assert code == 0, err
    documented = re.search(r"^(my-game: 43 components -> .*?)\n```", DOC, re.M | re.S).group(1)
    assert out.strip() == documented.strip(), out
