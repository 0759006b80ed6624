"""pnpgen's working files on a shared machine: every planted-file attack runs with a private
TMPDIR; nothing planted there is followed, trusted or fatal."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

OTHER_UID = 65534          # 'nobody': files planted by another user (needs root to plant)


def pnpgen(tmpdir, *args, cwd=ROOT):
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    env.pop("FONTCONFIG_FILE", None)
    proc = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def tmpdir_(tmp_path):
    folder = tmp_path / "tmp"
    folder.mkdir()
    os.chmod(folder, 0o1777)            # a shared /tmp: world-writable, sticky
    return folder


@pytest.fixture
def victim(tmp_path):
    folder = tmp_path / "victim"
    folder.mkdir()
    (folder / "fonts.conf").write_text("the victim's own file")
    (folder / "precious.png").write_bytes(b"the victim's picture")
    return folder


def victim_untouched(folder):
    return sorted(p.name for p in folder.iterdir()) == ["fonts.conf", "precious.png"] and \
        (folder / "fonts.conf").read_text() == "the victim's own file" and \
        (folder / "precious.png").read_bytes() == b"the victim's picture"


def handout_ok(tmpdir, out):
    code, _, err = pnpgen(tmpdir, "handout", "royal-dukes", "--out", out)
    assert code == 0 and "Traceback" not in err, err
    return out / "royal-dukes" / "royal-dukes-handout.pdf"


def test_our_folder_planted_as_a_link_is_not_followed(tmpdir_, victim, tmp_path):
    (tmpdir_ / f"pnpgen-{os.getuid()}").symlink_to(victim)
    code, out, err = pnpgen(tmpdir_, "--version")
    assert code == 0 and "pnpgen" in out, err
    assert handout_ok(tmpdir_, tmp_path / "out").is_file()
    assert victim_untouched(victim)


def test_an_open_folder_with_planted_entries_is_not_trusted(tmpdir_, victim, tmp_path):
    ours = tmpdir_ / f"pnpgen-{os.getuid()}"
    (ours / "fontconfig").mkdir(parents=True)
    (ours / "icons").mkdir()
    os.chmod(ours, 0o777)
    (ours / "fontconfig" / "fonts.conf").mkdir()                     # would break every command
    for name in ("fonts.conf.tmp", f"fonts.{os.getpid() + 1}.tmp"):
        (ours / "fontconfig" / name).symlink_to(victim / "fonts.conf")
    code, out, err = pnpgen(tmpdir_, "--version")
    assert code == 0 and "Traceback" not in err, err
    handout_ok(tmpdir_, tmp_path / "out")
    assert victim_untouched(victim)
    assert (ours / "fontconfig" / "fonts.conf").is_dir(), "an untrusted folder is left alone, not used"
    assert [p.name for p in tmpdir_.iterdir()] == [ours.name], "a process's own folder goes when it ends"


def test_a_broken_cache_of_our_own_is_rebuilt(tmpdir_, tmp_path):
    handout_ok(tmpdir_, tmp_path / "first")
    ours = tmpdir_ / f"pnpgen-{os.getuid()}"
    icons = sorted((ours / "icons").glob("*.png"))
    assert icons, "the handout's icons are cached"
    [conf] = (ours / "fontconfig").glob("fonts-*.conf")          # named by the font folder
    conf.unlink()
    conf.mkdir()                                                       # broken: a folder
    icons[0].write_bytes(b"not a png")                                 # broken: garbage
    icons[1].unlink()
    icons[1].symlink_to(tmp_path / "elsewhere.png")                    # broken: a link
    code, _, err = pnpgen(tmpdir_, "--version")
    assert code == 0 and "Traceback" not in err, err
    pdf = handout_ok(tmpdir_, tmp_path / "second")
    assert conf.is_file() and icons[0].read_bytes()[:4] == b"\x89PNG" and not icons[1].is_symlink()
    assert not (tmp_path / "elsewhere.png").exists()
    assert pdf.read_bytes() == (tmp_path / "first" / "royal-dukes" / "royal-dukes-handout.pdf").read_bytes()


@pytest.mark.skipif(os.getuid() != 0, reason="planting as another user needs root")
def test_folders_another_user_made_first_do_not_stop_us(tmpdir_, victim, tmp_path):
    for name in (f"pnpgen-{os.getuid()}", "pnpgen-icons", f"pnpgen-fontconfig-{os.getuid()}"):
        folder = tmpdir_ / name
        (folder / "icons").mkdir(parents=True)
        (folder / "fontconfig").mkdir()
        for sub in ("icons", "fontconfig", "."):
            os.chown(folder / sub, OTHER_UID, OTHER_UID)
            os.chmod(folder / sub, 0o755)
    pdf = handout_ok(tmpdir_, tmp_path / "out")
    reference = handout_ok(tmp_path, tmp_path / "reference")        # a clean TMPDIR
    assert pdf.read_bytes() == reference.read_bytes()
    for name in ("icons", "fontconfig"):
        assert list((tmpdir_ / f"pnpgen-{os.getuid()}" / name).iterdir()) == [], "nothing written into theirs"
