"""Finished files -> the output folder, all or nothing.

A command's files are written into a fresh folder beside the output folder (a name nobody can
guess, made by mkdtemp, so nothing planted there is followed), with every other file the output
folder holds carried over by hard link; then that folder and the output folder swap places in
one rename (renameat2 RENAME_EXCHANGE). Whenever the process stops, killed included, the output
folder is either the whole old one or the whole new one. The old one is then removed.

The output folder itself is the lock (flock on the directory): no lock file is left behind.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import re
import secrets
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from . import interrupt
from .errors import BuildError, display_path, os_error_text

STAGING = re.compile(r"^\.pnpgen-(\d+)-[a-z0-9_]+\.(.*)$")   # .pnpgen-<pid>-<random>.<folder>
RENAME_EXCHANGE = 2
OLD = "old"                # inside a staging folder: the output a two-rename swap moved aside
_AT_FDCWD = -100


class StagedFile:
    """A finished file waiting on disk in a private temporary folder, not in memory, until
    write_atomically puts it in place (a 50,000-card build's sheets PDF is 26 MB, its build.json
    17 MB). len() is its size in bytes, as of bytes."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def __len__(self) -> int:
        return self.path.stat().st_size

    def read(self) -> bytes:
        return self.path.read_bytes()

    def pieces(self, size: int = 1 << 20):
        """Its bytes, `size` at a time."""
        with open(self.path, "rb") as handle:
            while piece := handle.read(size):
                yield piece


def check_not_locked(out_dir: Path) -> None:
    """Fail early, before the work, when another command is writing the same folder."""
    if out_dir.is_dir() and not out_dir.is_symlink():
        with output_lock(out_dir):
            pass


@contextlib.contextmanager
def output_lock(out_dir: Path):
    """An exclusive lock on out_dir (made if missing) while files are switched into it."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        if out_dir.is_symlink():
            raise BuildError(f"{display_path(out_dir)} is a symbolic link; pnpgen replaces its output folder "
                             "whole: remove the link, or give --out the folder it points to")
        out_dir.mkdir(exist_ok=True)
        handle = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        raise _cannot_write(out_dir, exc) from None
    try:
        owner = os.fstat(handle).st_uid
        if owner != os.getuid():     # its owner could swap in links between our checks and writes
            raise BuildError(f"{display_path(out_dir)} belongs to another user (uid {owner}); pnpgen writes only "
                             "into folders of its own user: give --out a folder of yours")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BuildError(f"another pnpgen command is writing {display_path(out_dir)}; "
                             "wait for it to finish, or write into another folder with --out") from None
        yield
    finally:
        os.close(handle)


def write_atomically(out_dir: Path, files: dict[str, bytes | StagedFile], replaces: Iterable[str] = ()) -> None:
    """Make out_dir hold `files`, plus the files it held already except those named in `replaces`
    (a previous build's files), in one step."""
    dropped = set(replaces) | set(files)
    with interrupt.deferred(), output_lock(out_dir):
        try:
            repair(out_dir)
            staging = new_staging(out_dir)
        except OSError as exc:
            raise _cannot_write(out_dir, exc) from None
        switched = False
        try:
            _fill(staging, files, out_dir, lambda name: name not in dropped)
            interrupt.check()                  # last moment to stop with the old output whole
            swap(staging, out_dir)
            switched = True
        except OSError as exc:
            raise _cannot_write(out_dir, exc) from None
        finally:
            remove(staging)                    # the old output once switched, else the new
        if interrupt.received():
            raise interrupt.Interrupted(interrupt.received(), _after_switch_message(out_dir, switched))


def _cannot_write(out_dir: Path, exc: OSError) -> BuildError:
    """Which folder refused, and what to do: the files go into out_dir's parent first (the --out
    folder), then the two swap places, so both must be writable."""
    folder = Path(exc.filename).parent if exc.filename else out_dir
    return BuildError(f"cannot write {display_path(out_dir)}: {display_path(folder)}: "
                      f"{os_error_text(exc, 'folder')} (this user must be able to write it), "
                      f"or give another folder with --out")


def _after_switch_message(out_dir: Path, switched: bool) -> str:
    done = "the new output is complete in" if switched else "earlier output left as it was in"
    return f"interrupted by {_signal_name()}; {done} {display_path(out_dir)}"


def _signal_name() -> str:
    import signal
    return signal.Signals(interrupt.received()).name


def _fill(staging: Path, files: dict[str, bytes | StagedFile], out_dir: Path, keep: Callable[[str], bool]) -> None:
    os.chmod(staging, 0o777 & ~_umask())       # mkdtemp makes it owner-only; output is ordinary
    for name, data in files.items():
        interrupt.check()
        fd = os.open(staging / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
        with os.fdopen(fd, "wb") as handle:
            handle.writelines(data.pieces() if isinstance(data, StagedFile) else (data,))
            handle.flush()
            os.fsync(handle.fileno())
    for entry in os.scandir(out_dir):
        if not keep(entry.name) or entry.name.startswith("."):
            continue
        if entry.is_file(follow_symlinks=False):
            _carry_over(Path(entry.path), staging / entry.name)
        elif entry.is_dir(follow_symlinks=False):        # an export's folder (png/, tts/)
            _carry_over_tree(Path(entry.path), staging / entry.name)
    _fsync_dir(staging)


def _carry_over_tree(source: Path, target: Path) -> None:
    """A folder of an earlier command, file by file (links are not followed)."""
    os.mkdir(target)
    for entry in os.scandir(source):
        if entry.is_file(follow_symlinks=False):
            _carry_over(Path(entry.path), target / entry.name)
        elif entry.is_dir(follow_symlinks=False):
            _carry_over_tree(Path(entry.path), target / entry.name)


def _carry_over(source: Path, target: Path) -> None:
    """A file of an earlier command (a map made with `pnpgen map`) stays: linked, else copied."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as src, open(target, "xb") as dst:
            shutil.copyfileobj(src, dst)


def swap(staging: Path, out_dir: Path) -> None:
    """staging becomes out_dir and out_dir becomes staging, in one step (out_dir may be missing)."""
    if not os.path.lexists(out_dir):
        os.rename(staging, out_dir)
        _fsync_dir(out_dir.parent)
        return
    if _renameat2(staging, out_dir, RENAME_EXCHANGE):
        _fsync_dir(out_dir.parent)
        return
    # no RENAME_EXCHANGE (not Linux, or a file system without it): two renames; a kill between
    # them leaves the old output whole in the staging name and no out_dir, which repair() puts back
    aside = new_staging(out_dir)
    os.rename(out_dir, aside / OLD)
    os.rename(staging, out_dir)
    os.rename(aside, staging)
    _fsync_dir(out_dir.parent)


def _renameat2(source: Path, target: Path, flags: int) -> bool:
    """renameat2(2) through libc; False when the system or file system cannot do it."""
    libc = ctypes.CDLL(None, use_errno=True)
    call = getattr(libc, "renameat2", None)
    if call is None:
        return False
    if call(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(target))


def repair(out_dir: Path) -> None:
    """What a killed command left beside out_dir put right, with the lock held: when it died
    between the two renames of a swap without RENAME_EXCHANGE, out_dir is missing and its old
    content waits in a staging folder, and goes back; then folders of commands that are gone,
    and anything planted under their names, are removed without following links."""
    stale = []
    for entry in os.scandir(out_dir.parent):
        match = STAGING.match(entry.name)
        if not match or match.group(2) != out_dir.name:
            continue
        if _alive(int(match.group(1))) and not entry.is_symlink():
            continue
        stale.append(Path(entry.path))
    for path in stale:
        old = path / OLD
        if not os.path.lexists(out_dir) and _ours(path) and _ours(old) and old.is_dir():
            os.rename(old, out_dir)
    for path in stale:
        remove(path)



def remove(path: Path) -> None:
    """Remove a file, a link (never its target) or a folder tree; what cannot go stays."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid():
        shutil.rmtree(path, ignore_errors=True)   # rmtree unlinks links, never follows them
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _ours(path: Path) -> bool:
    """path is a folder of this user's, not a link."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def new_staging(out_dir: Path) -> Path:
    """A new folder beside out_dir, owner-only, under a name made at random (mkdtemp)."""
    return Path(tempfile.mkdtemp(prefix=f".pnpgen-{os.getpid()}-", suffix=f".{out_dir.name}", dir=out_dir.parent))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class OwnFolder:
    """A folder this user owns, held open by its descriptor: files are made in it under names
    nobody can guess (O_EXCL, never following a link) and renamed into place, so another user who
    can write the folder above cannot plant a link at a name pnpgen is about to write, nor swap
    the folder for a link to another one between a check and a write. A folder that is a link,
    or that belongs to another user, is refused."""

    def __init__(self, path: Path, parent: "OwnFolder | None" = None):
        self.path = Path(path)
        name = self.path.name if parent else str(self.path)
        at = parent.fd if parent else None
        try:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, 0o777, dir_fd=at) if at is not None else os.makedirs(name, exist_ok=False)
            self.fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=at)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise BuildError(f"{display_path(self.path)} is a link or a file, not a folder of this user's; "
                                 "remove it, or give --out another folder") from None
            raise _cannot_write(self.path, exc) from None
        owner = os.fstat(self.fd).st_uid
        if owner != os.getuid():
            os.close(self.fd)
            raise BuildError(f"{display_path(self.path)} belongs to another user (uid {owner}); pnpgen writes only "
                             "into folders of its own user: give --out a folder of yours")

    def __enter__(self) -> "OwnFolder":
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.fd)

    def names(self) -> list[str]:
        return os.listdir(self.fd)

    def holds(self, name: str, data: bytes) -> bool:
        """name is a plain file here holding exactly data (a link is never read)."""
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=self.fd)
        except OSError:
            return False
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(fd)
            return stat.S_ISREG(info.st_mode) and info.st_size == len(data) and handle.read() == data

    def write(self, name: str, data: bytes) -> None:
        """name holds data: written under a random name, then renamed over whatever was there."""
        if self.holds(name, data):
            return
        for _ in range(100):
            temporary = f".{name}.{secrets.token_hex(8)}.tmp"
            try:
                fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666, dir_fd=self.fd)
                break
            except FileExistsError:
                continue
        else:
            raise BuildError(f"cannot write {display_path(self.path / name)}: no free temporary name")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=self.fd)
            raise

    def remove(self, name: str) -> None:
        """A file (or a planted link, never its target) removed from this folder."""
        with contextlib.suppress(FileNotFoundError, IsADirectoryError, PermissionError):
            os.unlink(name, dir_fd=self.fd)
