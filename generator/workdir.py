"""pnpgen's own working files (the fontconfig set-up, rasterized handout icons, cairocffi's
declarations as data), kept where no other user of the machine can plant or read anything.

The folder is $TMPDIR/pnpgen-<uid>/, created owner-only and checked before every use: a real
folder (not a link), owned by this user, closed to everyone else. When someone else got there
first (a link, another owner, open permissions), this process works in a fresh folder with an
unpredictable name instead, removed when it ends. Files are written under random names and
renamed into place, so a planted name is never opened for writing.

Nothing kept here can run code: values are JSON, read back only when they have the shape their
reader expects (anything else, a truncated entry included, is made again), and PNG icons. Each
kind's folder is bounded (MAX_ENTRIES files, MAX_BYTES): the entries used longest ago go first.
"""
from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import shutil
import stat
import tempfile
from functools import lru_cache
from pathlib import Path


MAX_ENTRIES = 1_000          # files in one kind's folder
MAX_BYTES = 32 << 20         # bytes in one kind's folder (a 400-row sheet's rows are ~0.8 MB)


class UnsafeFolder(Exception):
    pass


def private_dir(name: str) -> Path:
    """An owner-only folder for `name` (made if missing), checked to be this user's alone."""
    base = _base()
    folder = base / name
    try:
        _ensure_private(folder)
    except (UnsafeFolder, OSError):
        folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))
    return folder


@lru_cache(maxsize=1)
def _base() -> Path:
    shared = Path(tempfile.gettempdir()) / f"pnpgen-{os.getuid()}"
    try:
        _ensure_private(shared)
        return shared
    except (UnsafeFolder, OSError):
        return _process_folder()


def _process_folder() -> Path:
    """A folder for this process only, under a name nobody can guess; removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix="pnpgen-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _ensure_private(folder: Path) -> None:
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, 0o700)
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise UnsafeFolder(str(folder))


def trusted_file(path: Path) -> bool:
    """path is a plain file of this user's (not a link, not a folder) that may be read back."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid()


def write_private(path: Path, data: bytes) -> None:
    """Write path in its private folder: a new file under a random name, renamed over path;
    whatever stood at path (a broken entry, a folder) is replaced."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    prune(path.parent)


def prune(folder: Path) -> None:
    """The folder back within MAX_ENTRIES and MAX_BYTES, the entries used longest ago removed
    first (an entry read is touched: see remembered)."""
    entries = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                entries.append((info.st_mtime_ns, info.st_size, entry.path))
    total = sum(size for _, size, _ in entries)
    entries.sort()
    while entries and (len(entries) > MAX_ENTRIES or total > MAX_BYTES):
        _, size, path = entries.pop(0)
        with contextlib.suppress(OSError):
            os.unlink(path)
        total -= size


def remembered(kind: str, key: str, make, keep=lambda value: True, shape=lambda value: True):
    """make(), remembered as JSON in the private folder `kind` under `key` (a digest of what the
    value is made from), so the next process reads it instead of making it. A missing, broken,
    foreign or wrong-shaped entry (one `shape` refuses) is made again; values `keep` refuses
    (they would not come back from JSON as they were) are not remembered."""
    entry = None
    try:
        entry = private_dir(kind) / f"{key}.json"
        if trusted_file(entry):
            value = json.loads(entry.read_text(encoding="utf-8"))
            if _fits(shape, value):
                with contextlib.suppress(OSError):
                    os.utime(entry)               # used: pruned last
                return value
    except (OSError, ValueError, RecursionError):
        pass
    value = make()
    if entry is not None and keep(value):
        with contextlib.suppress(OSError, TypeError, ValueError):
            write_private(entry, json.dumps(value).encode())
    return value


def _fits(shape, value) -> bool:
    try:
        return bool(shape(value))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return False


def file_key(path: Path, *extra: str) -> str:
    """A digest naming a file as it is now (path, size, modification time) and `extra`; raises
    OSError, as reading it would, when the file cannot be read (a remembered value must not
    hide that)."""
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
    text = "\0".join([str(Path(path).resolve()), str(info.st_size), str(info.st_mtime_ns), *extra])
    return hashlib.sha256(text.encode()).hexdigest()
