"""The output folder: all or nothing after any interruption, kill included; nothing planted in
it or beside it is followed; no stray files."""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, copy_pack, run_cli
from generator import cli, publish


def contents(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def files_of(tag: str, count: int = 12, size: int = 200_000) -> dict:
    return {f"part-{i}.pdf": (f"{tag} {i} ".encode() * size)[:size] for i in range(count)}


def test_files_of_other_commands_stay_and_files_of_the_last_build_go(tmp_path):
    out = tmp_path / "out" / "game"
    publish.write_atomically(out, {"game-sheets.pdf": b"1", "game-board.pdf": b"1", "build.json": b"{}"})
    (out / "game-map-7.json").write_text("a map made with pnpgen map")
    publish.write_atomically(out, {"game-sheets.pdf": b"2", "build.json": b"{}"},
                             replaces=["game-sheets.pdf", "game-board.pdf", "build.json"])
    assert contents(out) == {"build.json": b"{}", "game-map-7.json": b"a map made with pnpgen map",
                             "game-sheets.pdf": b"2"}
    assert sorted(p.name for p in out.parent.iterdir()) == ["game"], "no staging folder left"


def test_a_board_removed_from_the_pack_leaves_the_output_on_rebuild(tmp_path):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, err
    assert (out / "mini" / "mini-board.pdf").is_file()
    (pack / "board.yaml").unlink()
    code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, err
    listed = {f["path"] for f in json.loads((out / "mini" / "build.json").read_text())["files"]}
    assert {p.name for p in (out / "mini").iterdir()} == listed | {"build.json"}


def test_planted_staging_names_are_removed_never_followed(tmp_path):
    out = tmp_path / "out" / "game"
    out.parent.mkdir()
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    planted = [out.parent / ".pnpgen-1-abc.game", out.parent / f".pnpgen-{os.getpid()}-zz9.game"]
    planted[0].symlink_to(victim)
    planted[1].symlink_to(victim / "precious.txt")
    other = out.parent / ".pnpgen-1-abc.other-game"        # another folder's: not ours to touch
    other.mkdir()
    publish.write_atomically(out, {"a.pdf": b"new"})
    assert (victim / "precious.txt").read_text() == "keep me" and sorted(p.name for p in victim.iterdir()) == ["precious.txt"]
    assert not any(p.is_symlink() for p in out.parent.iterdir())
    assert sorted(p.name for p in out.parent.iterdir()) == [other.name, "game"]


def test_links_planted_in_the_output_folder_are_not_followed_nor_kept(tmp_path):
    out = tmp_path / "out" / "game"
    publish.write_atomically(out, {"a.pdf": b"old"})
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (out / "a.pdf").unlink()
    (out / "a.pdf").symlink_to(victim)                      # the new a.pdf must not go there
    (out / "b.pdf").symlink_to(victim)
    publish.write_atomically(out, {"a.pdf": b"new"})
    assert victim.read_text() == "keep me"
    assert contents(out) == {"a.pdf": b"new"}


def test_an_output_folder_that_is_a_link_is_refused(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mini").symlink_to(elsewhere)
    assert cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"]) == 1
    assert "is a symbolic link" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


def test_a_signal_after_the_switch_reports_the_new_output_and_exits_130(tmp_path, capsys, monkeypatch):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    swap = publish.swap

    def swap_then_ctrl_c(staging, out_dir):
        swap(staging, out_dir)
        os.kill(os.getpid(), signal.SIGINT)       # lands while the old output is being removed
    monkeypatch.setattr(publish, "swap", swap_then_ctrl_c)
    assert cli.main(["build", str(pack), "--out", str(out), "--quiet"]) == 130
    err = capsys.readouterr().err
    assert "interrupted by SIGINT; the new output is complete in" in err, err
    assert (out / "mini" / "build.json").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["mini"]


def _publish_in_child(out: Path, files: dict, replaces) -> int:
    """Fork; the child publishes `files` into out and exits. Returns the child's pid."""
    pid = os.fork()
    if pid == 0:                                   # pragma: no cover - the child
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            publish.write_atomically(out, files, replaces)
        finally:
            os._exit(0)
    return pid


@pytest.mark.slow
def test_publishing_killed_at_300_random_points_leaves_whole_old_or_whole_new(tmp_path):
    out = tmp_path / "out" / "game"
    old, new = files_of("old"), {**files_of("new", 9), "extra.pdf": b"only in the new build"}
    publish.write_atomically(out, old)
    start = time.monotonic()
    os.waitpid(_publish_in_child(tmp_path / "timing" / "game", new, old), 0)
    duration = time.monotonic() - start
    rng, outcomes = random.Random(19), {"old": 0, "new": 0}
    for _ in range(300):
        pid = _publish_in_child(out, new, old)
        time.sleep(rng.uniform(0, duration * 1.2))     # the kill point, not a wait for progress
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        now = contents(out)
        assert now in (old, new), sorted(now)
        outcomes["old" if now == old else "new"] += 1
        if now == new:
            publish.write_atomically(out, old, new)
    print(f"300 kills while publishing: {outcomes}")
    assert outcomes["old"] and outcomes["new"], outcomes    # the kills landed on both sides
    publish.write_atomically(out, old, new)
    assert sorted(p.name for p in out.parent.iterdir()) == ["game"], "stale folders are cleaned up"


@pytest.mark.slow
def test_a_build_killed_at_random_moments_leaves_whole_old_or_whole_new(tmp_path):
    pack = copy_pack("mini", tmp_path)
    out, reference = tmp_path / "out", tmp_path / "reference"
    assert run_cli("build", pack, "--out", out, "--quiet")[0] == 0
    old = contents(out / "mini")
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text().replace("Plain", "Changed"))
    assert run_cli("build", pack, "--out", reference, "--quiet")[0] == 0
    new = contents(reference / "mini")
    start = time.monotonic()
    assert run_cli("build", pack, "--out", tmp_path / "timing", "--quiet")[0] == 0
    duration = time.monotonic() - start
    rng, seen = random.Random(7), []
    for _ in range(int(os.environ.get("PNPGEN_KILLS", "25"))):
        proc = subprocess.Popen([sys.executable, "-m", "generator", "build", str(pack), "--out", str(out), "--quiet"],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(duration * 0.5, duration * 1.1))   # the kill point
        proc.kill()
        proc.wait()
        now = contents(out / "mini")
        assert now in (old, new), sorted(now)
        seen.append("old" if now == old else "new")
        if now == new:
            publish.write_atomically(out / "mini", old, new)
    print(f"builds killed at random moments: {seen.count('old')} left the old output, {seen.count('new')} the new")
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".pnpgen-")) == ["mini"]
