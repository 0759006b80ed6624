"""export replaces its folder (output/<game>/png/) whole, through a staging folder nobody can
guess or plant, and after any kill the next run finds the earlier export whole, with no staging
folders left beside it."""
import os
import signal

import pytest

from conftest import copy_pack
from generator import publish
from generator.errors import BuildError
from generator.export import export
from generator.export.common import ExportRequest


def pngs(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_link_planted_at_the_old_staging_name_is_not_followed(tmp_path):
    """export once wrote into .pnpgen-export-<pid>-png, whatever stood there."""
    pack = copy_pack("mini", tmp_path)
    game = tmp_path / "out" / "mini"
    game.mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.mkdir()
    for name in (f".pnpgen-export-{os.getpid()}-png", f".pnpgen-export-{os.getpid()}-png-old"):
        os.symlink(victim, game / name)
    export(pack, "png", ExportRequest(out_dir=tmp_path / "out", dpi=30))
    assert list(victim.iterdir()) == []
    assert (game / "png" / "cards").is_dir() and not (game / "png").is_symlink()


def _export_killed_between_the_renames(pack, out) -> None:
    """In a child: an export on a system without RENAME_EXCHANGE, SIGKILLed after its first rename."""
    pid = os.fork()
    if pid == 0:                                       # pragma: no cover - the child
        try:
            publish._renameat2 = lambda *a: False
            renames, rename = [], os.rename

            def rename_then_die(src, dst, *a, **k):
                rename(src, dst, *a, **k)
                renames.append(dst)
                if len(renames) == 1:
                    os.kill(os.getpid(), signal.SIGKILL)
            os.rename = rename_then_die
            export(pack, "png", ExportRequest(out_dir=out, dpi=40))
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def test_a_kill_between_the_two_renames_is_repaired_by_the_next_run(tmp_path):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    export(pack, "png", ExportRequest(out_dir=out, dpi=30))
    old = pngs(out / "mini" / "png")
    _export_killed_between_the_renames(pack, out)
    assert not (out / "mini" / "png").exists()          # the state the kill left
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text().replace("kind: card", "kind: crad"))
    with pytest.raises(Exception):                       # a failing run repairs too
        export(pack, "png", ExportRequest(out_dir=out, dpi=30))
    assert pngs(out / "mini" / "png") == old
    assert sorted(p.name for p in (out / "mini").iterdir()) == ["png"], "staging folders left behind"


def test_an_export_swaps_its_folder_in_one_rename_where_the_system_can(tmp_path, monkeypatch):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    export(pack, "png", ExportRequest(out_dir=out, dpi=30))
    renames = []
    monkeypatch.setattr(os, "rename", lambda *a, **k: renames.append(a))
    export(pack, "png", ExportRequest(out_dir=out, dpi=40))
    assert renames == []                                 # RENAME_EXCHANGE: png/ never missing
    assert sorted(p.name for p in (out / "mini").iterdir()) == ["png"]


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to give a folder to another user")
def test_an_output_folder_of_another_user_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    game = tmp_path / "out" / "mini"
    game.mkdir(parents=True)
    os.chown(game, 4242, 4242)
    with pytest.raises(BuildError, match=r"mini belongs to another user \(uid 4242\)"):
        export(pack, "png", ExportRequest(out_dir=tmp_path / "out", dpi=30))
    assert list(game.iterdir()) == []
