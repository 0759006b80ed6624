"""pnpgen as a designer installs it: an sdist and a wheel built from this checkout, the wheel
installed into a fresh virtual environment outside the checkout, every command run from an empty
folder on a built-in pack and on a copy of one (issue 23).

The fresh environment borrows the already installed dependencies (cairo, reportlab, ...) through
a .pth line, so no network is needed for them; pnpgen itself comes only from the wheel, and the
test checks that it is the wheel's copy that runs."""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pymupdf
import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow
SHIPPED = ("fonts/LICENSE-Liberation-OFL.txt", "fonts/LiberationSans-Regular.ttf",
           "templates/royal-dukes", "components/royal-dukes/game.yaml", "components/shires/map.yaml")


def run(argv, cwd, timeout=600):
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def ok(argv, cwd):
    done = run(argv, cwd)
    assert done.returncode == 0, f"{argv}: {done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """An sdist, and a wheel built from that sdist (as `python -m build` does)."""
    out = tmp_path_factory.mktemp("dist")
    # built from a copy: builds write into their source folder (egg-info), and the test workers
    # that each need a wheel would otherwise write the checkout's at once
    source = out / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "output", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis"))
    ok([sys.executable, "-m", "build", "--outdir", out, source], cwd=out)
    return out


@pytest.fixture(scope="module")
def pnpgen(dist, tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("venv") / "env"
    ok([sys.executable, "-m", "venv", "--without-pip", venv], cwd=venv.parent)
    python = venv / "bin" / "python"
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], venv).stdout.strip())
    here = sysconfig.get_paths()
    (site / "zz-borrowed-dependencies.pth").write_text(f"{here['purelib']}\n{here['platlib']}\n")
    [wheel] = dist.glob("*.whl")
    ok([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel], cwd=venv)
    return venv / "bin" / "pnpgen"


def test_sdist_and_wheel_carry_fonts_licences_templates_and_packs(dist):
    [sdist] = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    [wheel] = dist.glob("*.whl")
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    for path in SHIPPED:
        assert any(n == path or n.startswith(path + "/") for n in in_sdist), f"{path} not in the sdist"
        assert any(n == f"generator/shipped/{path}" or n.startswith(f"generator/shipped/{path}/")
                   for n in in_wheel), f"{path} not in the wheel"
    tracked = subprocess.run(["git", "ls-files", "fonts", "templates", "components"], cwd=ROOT,
                             capture_output=True, text=True).stdout.split()
    if tracked:            # a git checkout: every tracked file of the three folders is shipped
        missing = [p for p in tracked if f"generator/shipped/{p}" not in in_wheel]
        assert not missing, missing[:5]


def test_the_installed_copy_runs_not_the_checkout(pnpgen, tmp_path):
    python = pnpgen.parent / "python"
    done = ok([python, "-c", "import generator, generator.resources as r; print(generator.__file__); "
                             "print(r.FONT_DIR)"], tmp_path)
    package, fonts = done.stdout.split()
    venv = pnpgen.parent.parent
    assert Path(package).is_relative_to(venv) and Path(fonts).is_relative_to(venv)
    assert not Path(package).is_relative_to(ROOT)


def _pdf_pages_with_embedded_fonts(path: Path) -> int:
    """The page count, after checking every font of every page is embedded and one we ship."""
    with pymupdf.open(path) as doc:
        for page in doc:
            for _, ext, _, basefont, *_ in page.get_fonts():
                assert ext != "n/a" and "Liberation" in basefont, f"{basefont} in {path.name}"
        return doc.page_count


def test_every_command_on_a_builtin_pack_from_an_empty_folder(pnpgen, tmp_path):
    listed = ok([pnpgen, "list"], tmp_path).stdout
    assert {"royal-dukes", "shires", "cones-of-dunshire", "dragon-towers", "lords-of-doomspire"} <= \
        {line.split()[0] for line in listed.splitlines()}
    _every_command(pnpgen, tmp_path, ["royal-dukes"], tmp_path / "output" / "royal-dukes", "royal-dukes")


def test_every_command_on_a_copied_pack_run_inside_it(pnpgen, tmp_path):
    shipped = pnpgen.parent.parent.glob("lib/python*/site-packages/generator/shipped/components/royal-dukes")
    pack = tmp_path / "my games" / "dukes"
    shutil.copytree(next(shipped), pack)
    listed = ok([pnpgen, "list"], pack / "icons").stdout.splitlines()
    assert listed[0].split()[:2] == ["dukes", "(here)"]
    # no GAME: the pack the working folder is in, its output beside its game.yaml
    _every_command(pnpgen, pack / "icons", [], pack / "output" / "dukes", "dukes")
    assert not (pack / "icons" / "output").exists()


def _every_command(pnpgen, cwd: Path, game: list[str], out: Path, game_id: str) -> None:
    ok([pnpgen, "validate", *game], cwd)
    ok([pnpgen, "build", *game, "-q"], cwd)
    assert _pdf_pages_with_embedded_fonts(out / f"{game_id}-sheets.pdf") >= 2
    ok([pnpgen, "map", *game, "--seed", "7", "--format", "pdf"], cwd)
    [map_pdf] = out.glob(f"{game_id}-map-*p-7.pdf")            # named with the player count
    assert _pdf_pages_with_embedded_fonts(map_pdf) == 1
    ok([pnpgen, "handout", *game], cwd)
    assert _pdf_pages_with_embedded_fonts(out / f"{game_id}-handout.pdf") == 2
    ok([pnpgen, "preview", *game, "--dpi", "30"], cwd)
    assert (out.parent / f"{game_id}-preview" / "index.html").is_file()
    ok([pnpgen, "export", "png", *game, "--dpi", "40", "-q"], cwd)
    assert len(list((out / "png").rglob("*.png"))) > 100
    ok([pnpgen, "export", "tts", *game, "-q"], cwd)
    assert (out / "tts" / f"{game_id}.json").is_file()


def test_a_name_that_is_no_pack_is_told_without_the_installed_folder(pnpgen, tmp_path):
    """From a wheel the built-in packs live in site-packages: the message names them by name."""
    done = run([pnpgen, "build", "zzz"], tmp_path)
    assert done.returncode == 2, done.stderr
    assert "site-packages" not in done.stderr and "shipped" not in done.stderr, done.stderr
    from generator.cli_common import spoken_folder        # (the folder as the user says it: ~/... under home)
    assert done.stderr.startswith(f"error: 'zzz' is not a game pack: there is no zzz/game.yaml in this folder "
                                  f"({spoken_folder(tmp_path)}) nor among pnpgen's built-in packs; built-in packs: "
                                  "cones-of-dunshire, dragon-towers,"), done.stderr
