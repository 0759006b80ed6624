"""Reads stay where they belong: a pack's files inside the pack, shared templates inside the
project's templates/. A pack may come from someone else; a link inside it (or a '..') must not
make pnpgen print the reader's own files.

Paths are compared after resolving every symbolic link, so a link that stays inside the pack is
fine and one that leaves it is refused, whatever it is called.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from .errors import os_error_text


def inside(path: Path, root: Path) -> bool:
    """path, every link followed, is root or below it."""
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def read_problem(path: Path, root: Path) -> str:
    """'' when path may be read as one of root's files, else what is wrong with it."""
    if not inside(path, root):
        return f"'{path.name}' is a link to a file outside the game pack ({os.path.realpath(path)})"
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"cannot read '{path.name}': {exc.strerror}"
    if not stat.S_ISREG(mode):
        return f"'{path.name}' is not a regular file"
    return ""


def links_leaving(folder: Path, root: Path) -> list[Path]:
    """Every entry under folder (links not followed into) that resolves outside root."""
    if not folder.exists() and not folder.is_symlink():
        return []
    if not inside(folder, root):
        return [folder]
    found = []
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(parent) / name
            if path.is_symlink() and not inside(path, root):
                found.append(path)
    return sorted(found)


UNREADABLE = "cannot read"


def resolve_inside(root: Path, rel: str) -> tuple[Path | None, str]:
    """Resolve a pack-relative path; refuse URLs, absolute paths and escapes (symlinks too)."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", rel):
        return None, f"'{rel}' is a URL; nothing is fetched from the network"
    if Path(rel).is_absolute():
        return None, f"'{rel}' is an absolute path"
    try:
        path = (root / rel).resolve()
        if not inside(path, root) or path == root.resolve():
            return None, f"'{rel}' points outside the game pack"
        if not path.is_file():
            return None, f"file '{rel}' not found"
    except PermissionError as exc:   # a folder on the way this user may not open
        return None, f"{UNREADABLE} '{rel[:60]}': {os_error_text(exc, 'folder')}"
    except OSError as exc:        # a name too long for the file system, a loop of links
        return None, f"'{rel[:60]}': {exc.strerror}"
    return path, ""
