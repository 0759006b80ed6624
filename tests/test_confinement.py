"""Nothing outside the pack, the project's templates/ and fonts/ is ever read: links and '..'
included, for templates, components, icons and handouts alike."""
import socket

import pytest

from conftest import copy_pack, run_cli


def secret_file(tmp_path):
    folder = tmp_path / "private"
    folder.mkdir()
    (folder / "secret.txt").write_text("groups: []\nSECRET-4711\n")
    (folder / "secret.svg.j2").write_text("SECRET-4711")
    return folder


def assert_refused(pack, tmp_path, *expected):
    for command in (["validate", pack], ["build", pack, "--out", tmp_path / "out", "--quiet"]):
        code, out, err = run_cli(*command)
        assert code == 1, (command, out, err)
        assert "Traceback" not in err and "SECRET-4711" not in out + err
        for text in expected:
            assert text in err, err
    assert not (tmp_path / "out" / pack.name).exists()


def test_a_template_folder_linked_out_of_the_pack_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "etc").symlink_to(secret_file(tmp_path))
    card = pack / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + "<text x='1' y='5'>{% include 'etc/secret.svg.j2' %}</text>")
    assert_refused(pack, tmp_path, "templates/etc", "outside the game pack")


def test_an_include_through_a_link_is_refused_at_build_time_too(tmp_path, capsys):
    from generator import cli
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "etc").symlink_to("/etc")
    card = pack / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + "<text x='1' y='5'>{% include 'etc/hostname' %}</text>")
    from generator import templating
    env = templating.environment(pack)
    with pytest.raises(Exception) as raised:
        env.get_template("etc/hostname")
    assert "leads outside the game pack" in str(raised.value)
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and socket.gethostname() not in err


def test_dot_dot_in_an_include_is_refused(tmp_path, capsys):
    from generator import cli
    pack = copy_pack("mini", tmp_path)
    secret_file(tmp_path)
    card = pack / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + "{% include '../../private/secret.svg.j2' %}")
    code = cli.main(["build", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "../../private/secret.svg.j2" in err and "SECRET-4711" not in err


def test_a_pack_whose_templates_folder_is_a_link_out_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    outside = tmp_path / "outside-templates"
    (pack / "templates").rename(outside)
    (pack / "templates").symlink_to(outside)
    assert_refused(pack, tmp_path, "outside the game pack")


@pytest.mark.parametrize("name", ["extra.yaml", "game.yaml", "cards.yaml"])
def test_a_manifest_linked_out_of_the_pack_is_refused(tmp_path, name):
    pack = copy_pack("mini", tmp_path)
    secret = secret_file(tmp_path) / "secret.txt"
    if (pack / name).exists():
        (pack / name).unlink()
    (pack / name).symlink_to(secret)
    assert_refused(pack, tmp_path, f"{name}:1:1", "outside the game pack")


def test_links_inside_the_pack_are_fine(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "same-card.svg.j2").symlink_to(pack / "templates" / "card.svg.j2")
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text().replace("template: card.svg.j2", "template: same-card.svg.j2"))
    code, _, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err


@pytest.mark.parametrize("name", ["handout.yaml", "map.yaml"])
def test_a_handout_or_map_file_linked_out_of_the_pack_is_refused(tmp_path, name):
    pack = copy_pack("royal-dukes", tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text((pack / name).read_text().replace("Goal", "SECRET-4711"))
    (pack / name).unlink()
    (pack / name).symlink_to(secret)
    code, out, err = run_cli("handout", pack, "--out", tmp_path / "out")
    assert code == 1 and "outside the game pack" in err and "Traceback" not in err, err
    assert not (tmp_path / "out" / "royal-dukes").exists()
