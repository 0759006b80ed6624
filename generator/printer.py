"""A home printer's duplex offset: `--back-offset X,Y`, or the per-user settings file that keeps
it by printer name -> the shift of every back page of a two-sided document.

Printers put the back of a sheet a millimetre or more off the front, differently on every model
and for long- and short-edge flips. `pnpgen calibrate` prints a page that measures it; the
offset given is how far to move what is drawn on each back page, in that page's own
millimetres (x to the right, y down), so fronts are never touched.

The settings file is $XDG_CONFIG_HOME/pnpgen/printers.yaml (~/.config/pnpgen/printers.yaml):

    default: office
    printers:
      office: {long: [0.5, -1.0], short: [0.0, 0.75]}
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import yaml

from .errors import PnpError, display_path

MOST = 10.0                      # mm: a printer further off than this needs mending, not an offset
SHIFTED_SIDES = ("back", "blank")
MAX_SETTINGS = 64 * 1024
_OFFSET = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


class PrinterError(PnpError):
    exit_code = 2


def parse_offset(text: str) -> tuple[float, float]:
    """'0.5,-1' -> (0.5, -1.0), each within ±MOST mm."""
    match = _OFFSET.match(text)
    if not match:
        raise PrinterError(f"back offset '{text}': write X,Y in millimetres, such as 0.5,-1 (read it off the "
                           "page pnpgen calibrate prints)")
    x, y = float(match.group(1)), float(match.group(2))
    if abs(x) > MOST or abs(y) > MOST:
        raise PrinterError(f"back offset {x:g},{y:g} mm: each must be within ±{MOST:g} mm; a printer further off "
                           "than that needs its paper guides set, not an offset")
    return x, y


def shift_backs(sheets, offset: tuple[float, float] | None):
    """The sheets with every back page (and blank back) shifted by offset; the rest as they were.
    Sheets made when asked for (impose.Imposed) stay so: each is shifted as it is made."""
    if not offset or offset == (0.0, 0.0):
        return sheets
    if hasattr(sheets, "shifted_backs"):
        return sheets.shifted_backs(offset, SHIFTED_SIDES)
    return [replace(s, shift=offset) if s.side in SHIFTED_SIDES else s for s in sheets]


def settings_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pnpgen" / "printers.yaml"


def read_settings(path: Path | None = None) -> dict:
    """The settings file as {'default': name or None, 'printers': {name: {duplex: (x, y)}}};
    no file: nothing set. A wrong file is refused, naming it and what to write."""
    path = path or settings_file()
    if not os.path.exists(path):  # none saved, or a home this process cannot see into (another user's)
        return {"default": None, "printers": {}}
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SETTINGS + 1)
    except FileNotFoundError:
        return {"default": None, "printers": {}}
    except OSError as exc:
        raise PrinterError(f"{display_path(path)}: cannot read it ({(exc.strerror or str(exc)).lower()})") from None
    where = display_path(path)
    if len(data) > MAX_SETTINGS:
        raise PrinterError(f"{where}: over {MAX_SETTINGS // 1024} KB; it holds a few printers' offsets")
    try:
        raw = yaml.safe_load(data.decode("utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise PrinterError(f"{where}{at}: not readable YAML; fix it or delete it and save the offset again "
                           "(pnpgen calibrate --save NAME --back-offset=X,Y)") from None
    return _checked(raw, where)


def _checked(raw, where: str) -> dict:
    if not isinstance(raw, dict) or not isinstance(raw.get("printers", {}), dict):
        raise PrinterError(f"{where}: expected 'default: NAME' and 'printers: {{NAME: {{long: [X, Y], short: [X, Y]}}}}'")
    printers = {}
    for name, sides in raw.get("printers", {}).items():
        if not isinstance(sides, dict) or set(sides) - {"long", "short"}:
            raise PrinterError(f"{where}: printers.{name}: give long: [X, Y] and/or short: [X, Y]")
        printers[str(name)] = {}
        for duplex, value in sides.items():
            if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)):
                raise PrinterError(f"{where}: printers.{name}.{duplex}: give [X, Y] in millimetres")
            printers[str(name)][duplex] = parse_offset(f"{value[0]},{value[1]}")
    default = raw.get("default")
    if default is not None and str(default) not in printers:
        raise PrinterError(f"{where}: default '{default}' is not one of the printers ({', '.join(printers) or 'none'})")
    return {"default": None if default is None else str(default), "printers": printers}


def offset_for(printer: str | None, duplex: str, settings: dict) -> tuple[tuple[float, float] | None, str]:
    """The offset a build uses for a duplex mode: the named printer's, else the default one's;
    and where it came from, for the build's summary."""
    name = printer or settings["default"]
    if name is None:
        return None, ""
    if name not in settings["printers"]:
        raise PrinterError(f"printer '{name}' has no saved offset (saved: {', '.join(settings['printers']) or 'none'}); "
                           "measure it with pnpgen calibrate, then pnpgen calibrate --save NAME --back-offset=X,Y")
    offset = settings["printers"][name].get(duplex)
    return offset, f"printer '{name}'" if offset else ""


def save_offset(name: str, duplex: str, offset: tuple[float, float], path: Path | None = None) -> Path:
    """The offset kept for the printer and duplex mode, the printer made the default."""
    path = path or settings_file()
    settings = read_settings(path)
    printers = {n: {d: list(v) for d, v in sides.items()} for n, sides in settings["printers"].items()}
    printers.setdefault(name, {})[duplex] = list(offset)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = ("# pnpgen: each printer's back offset in mm, per duplex flip (pnpgen calibrate)\n"
            + yaml.safe_dump({"default": name, "printers": printers}, sort_keys=True))
    temporary = path.with_name(path.name + ".new")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
    return path
