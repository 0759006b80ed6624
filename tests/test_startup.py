"""Start-up (issue 29): a command makes only its own parser, with the same help and errors as
the whole one, and what a build does not need before drawing is not loaded at start."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from generator import cli


def subparser(parser, name: str):
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices[name]


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_one_commands_parser_is_that_of_the_whole(name):
    whole, alone = cli.parser(), cli.parser(name)
    assert subparser(alone, name).format_help() == subparser(whole, name).format_help()
    assert alone.format_usage() == whole.format_usage()
    assert list(subparser(alone, name)._option_string_actions) == list(subparser(whole, name)._option_string_actions)


def test_an_unknown_option_is_told_with_the_whole_usage(capsys):
    outputs = []
    for make in (lambda: cli.parser(), lambda: cli.parser("build")):
        with pytest.raises(SystemExit) as stop:
            make().parse_args(["build", "--bogus"])
        outputs.append((stop.value.code, capsys.readouterr().err))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 2 and "{list,validate,build,preview,map,handout,new,export,diff,calibrate}" in outputs[0][1]
    assert "unrecognized arguments: --bogus" in outputs[0][1]


# Loaded only by the commands or files that need them: the other commands' modules, the
# spreadsheet readers' (zip, CSV), the icon reader's gzip, importlib.resources (the package's
# folder is its own __file__'s).
NOT_AT_START = ("generator.export.command", "generator.calibrate", "generator.preview", "generator.maps.engine",
                "zipfile", "csv", "gzip", "importlib.resources")


def test_a_build_loads_at_start_only_what_it_needs():
    code = ("import sys; from generator import build, cli; cli.parser('build'); "
            f"print(' '.join(m for m in {NOT_AT_START!r} if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                            timeout=120).stdout.split()
    assert loaded == []
