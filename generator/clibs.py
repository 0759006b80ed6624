"""The C libraries pnpgen draws with (cairo, fontconfig), loaded without their start-up cost.

Two costs, measured on a 1-card build (0.13 s of the process tree's CPU, a tenth of a 1,000-card
build, paid by every `pnpgen` command that draws):

- `import cairocffi` hands cairo's C declarations (about 1,200 names) to cffi, which parses them
  with pycparser: about 0.08 s, the same result every time. cffi can write what it parsed as data
  ("out-of-line ABI mode": the `_types`, `_globals`, ... that a generated module passes to
  `_cffi_backend.FFI`). We remember that data as JSON in our private folder (workdir.remembered),
  keyed by the cffi version (its C backend's) and the declarations' text, and give cairocffi an ffi
  built from it: the same declarations, the same C calls, loaded in about 3 ms. Only data is read
  back, never code: the remembered entry is checked for its shape and decoded into bytes and ints.
- `ctypes.util.find_library` runs `ldconfig -p` (and for a name it cannot find, a C compiler): five
  calls in a build, about 10-30 ms of subprocesses each. On Linux the library's usual soname is
  tried first, which the dynamic loader finds the way it finds everything else.

`install()` (called when the generator package loads) puts a finder before Python's own for the one
module `cairocffi.ffi`. Anything unexpected (xcffib installed, which cairocffi's stock module would
include; a cffi that refuses the data; no private folder) falls back to cairocffi's stock module, so
this can only make loading faster, never different.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import sys

from . import workdir

# a library's usual soname on Linux, loaded directly before asking find_library
SONAMES = {"cairo": "libcairo.so.2", "fontconfig": "libfontconfig.so.1"}
MODULE = "cairocffi.ffi"
FFI_NAME = "pnpgen_cairo_ffi"
_KEYS = ("_version", "_types", "_globals", "_struct_unions", "_enums", "_typenames")


def library(name: str) -> str | None:
    """What ctypes.CDLL / ffi.dlopen should load for the C library `name` ("cairo", "fontconfig"),
    or None when it cannot be found."""
    soname = SONAMES.get(name) if sys.platform.startswith("linux") else None
    if soname and _loads(soname):
        return soname
    import ctypes.util          # (runs subprocesses: only when the soname is not there)
    return ctypes.util.find_library(name)


def _loads(soname: str) -> bool:
    import ctypes
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def install() -> None:
    """Let `import cairocffi` read its declarations from data (once per process, idempotent)."""
    if not any(isinstance(finder, _CairoFFIFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _CairoFFIFinder())


class _CairoFFIFinder:
    """A finder of sys.meta_path (plain classes: importlib.abc costs 11 ms of imports)."""

    def find_spec(self, fullname, path, target=None):
        if fullname != MODULE:
            return None
        stock = importlib.machinery.PathFinder.find_spec(fullname, path)
        if stock is None or stock.loader is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _FastLoader(stock), origin=stock.origin)


class _FastLoader:
    def __init__(self, stock):
        self.stock = stock

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        try:
            ffi = _remembered_ffi()
        except Exception:               # whatever it is, cairocffi's own module still works
            ffi = None
        if ffi is None:
            self.stock.loader.exec_module(module)
            return
        module.ffi = ffi
        module.__getattr__ = _no_pixbuf
        _skip_library_search(ffi)


def _no_pixbuf(name: str):
    if name == "ffi_pixbuf":            # cairocffi.pixbuf's, which pnpgen never uses
        raise ImportError("cairocffi.pixbuf needs cairocffi's stock ffi module, and pnpgen loaded "
                          "its declarations from data (generator/clibs.py)")
    raise AttributeError(f"module {MODULE!r} has no attribute {name!r}")


def _remembered_ffi():
    import importlib.util
    if importlib.util.find_spec("xcffib") is not None:    # the stock module would include its ffi
        return None
    import _cffi_backend        # (not the cffi package: 1.7 ms of imports; its version is the backend's)
    constants = sys.modules["cairocffi.constants"]      # imported by cairocffi just before its ffi
    headers = constants._CAIRO_HEADERS  # pylint: disable=protected-access
    # what the data is made from: the declarations, and the cffi that reads them
    key = hashlib.sha256("\0".join([_cffi_backend.__version__, headers]).encode()).hexdigest()
    data = workdir.remembered("cffi", key, lambda: _declared(headers), shape=_is_declared)
    return _cffi_backend.FFI(FFI_NAME, **_decoded(data))


def _declared(headers: str) -> dict:
    """cffi's out-of-line data for `headers`, as JSON values (bytes as latin-1 text, tuples as
    lists): what `ffi.emit_python_code` would write as a module, read back with literal_eval."""
    import ast
    import io
    import os
    import tempfile

    import cffi
    ffi = cffi.FFI()
    ffi.cdef(headers)
    ffi.set_source(FFI_NAME, None)
    fd, path = tempfile.mkstemp(suffix=".py")
    os.close(fd)
    try:
        with contextlib.redirect_stdout(io.StringIO()):     # cffi says "generating <path>"
            ffi.emit_python_code(path)
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
    call = next(node for node in ast.walk(tree) if isinstance(node, ast.Call))
    values = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
    return {name: _as_json(value) for name, value in values.items()}


def _as_json(value):
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, tuple):
        return [_as_json(item) for item in value]
    return value


def _from_json(value):
    if isinstance(value, str):
        return value.encode("latin-1")
    if isinstance(value, list):
        return tuple(_from_json(item) for item in value)
    return value


def _decoded(data: dict) -> dict:
    return {name: _from_json(value) for name, value in data.items()}


def _is_declared(data) -> bool:
    """The remembered entry has the keys and value types cffi's data has, nothing else."""
    return (isinstance(data, dict) and set(data) <= set(_KEYS) and {"_version", "_types"} <= set(data)
            and isinstance(data["_version"], int) and all(_plain(value) for value in data.values()))


def _plain(value) -> bool:
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _skip_library_search(ffi) -> None:
    """cairocffi looks cairo up with find_library before trying 'libcairo.so.2' itself; where
    that soname loads, let its lookups answer None at once so it goes straight to the soname."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ffi.dlopen(SONAMES["cairo"])
    except OSError:
        return
    sys.modules["cairocffi"].find_library = _not_searched


def _not_searched(name):
    return None
