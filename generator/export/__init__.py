"""A game pack -> files for somewhere other than a home printer: output/<game>/<format>/.

Each format is an entry in FORMATS: a function (game, ExportRequest, progress, ExportResult)
-> {relative path: bytes}. export() loads the pack, runs the format, and replaces the format's folder only
when every file is ready, so a failed export leaves the earlier one as it was.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import importlib

from .. import interrupt
from ..errors import BuildError, display_path
from ..manifest import load_pack, pack_id
from ..publish import check_not_locked, new_staging, output_lock, remove, repair, swap
from .common import ExportRequest, ExportResult

# format -> "module:function"; imported when used, so the command line starts without cairo
FORMATS = {"png": "png:export_png", "tts": "tts:export_tts"}


def format_function(fmt: str):
    module, function = FORMATS[fmt].split(":")
    return getattr(importlib.import_module(f".{module}", __name__), function)


def export(pack_root: Path, fmt: str, request: ExportRequest, progress=None) -> ExportResult:
    from ..request import Progress
    progress = progress or Progress()
    _repair(Path(request.out_dir) / pack_id(Path(pack_root).resolve()) / fmt)
    game = load_pack(pack_root)                                    # manifest -> model
    if request.version is not None:
        game = replace(game, version=request.version)
    folder = Path(request.out_dir) / game.id / fmt
    result = ExportResult(game, folder)
    check_not_locked(folder.parent)
    files = format_function(fmt)(game, request, progress, result)       # model -> files
    interrupt.check()
    with output_lock(folder.parent):
        replace_folder(folder, files)
    result.files = sorted(files)
    return result


def _repair(folder: Path) -> None:
    """An export killed mid-swap last time: the earlier export put back first, whatever this
    run then does (a broken pack, say)."""
    if folder.parent.is_dir() and not folder.parent.is_symlink():
        with output_lock(folder.parent):
            repair(folder)


def _write_or_link(path: Path, data: bytes, written: dict[int, Path]) -> None:
    """Identical copies (the same bytes object) become hard links to the first: a tenth of the
    disk writes for a pack of many copies, and as many fewer files to delete next time."""
    first = written.get(id(data))
    if first is not None:
        try:
            os.link(first, path)
            return
        except OSError:           # a file system without hard links: write the copy
            pass
    path.write_bytes(data)
    written.setdefault(id(data), path)


def replace_folder(folder: Path, files: dict[str, bytes]) -> None:
    """Write the files into a staging folder beside `folder` (made by mkdtemp: a name nobody can
    guess, so nothing planted is followed), then swap it in whole (publish.swap: one rename
    where the system can): no file of an earlier export lingers, and a failure, a signal or a
    kill leaves the earlier export untouched."""
    with interrupt.deferred():
        staging = None
        try:
            repair(folder)
            staging = new_staging(folder)
            written: dict[int, Path] = {}          # copies share their bytes object: one file, linked
            for name, data in files.items():
                interrupt.check()
                path = staging / name
                path.parent.mkdir(parents=True, exist_ok=True)
                _write_or_link(path, data, written)
            interrupt.check()                      # last moment to stop with the old export whole
            swap(staging, folder)
        except OSError as exc:
            raise BuildError(f"cannot write {display_path(folder)}: {exc.strerror}") from None
        finally:
            if staging is not None:
                remove(staging)                    # the old export once swapped, else the new
