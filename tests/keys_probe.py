"""Every mapping of a pack's YAML files, one at a time, gets a key nothing reads: is it refused
with its file and line? (issue 26, nothing fails silently.)

    python tests/keys_probe.py [GAME ...]      # every built-in pack when none is named

For each YAML file of a pack, each mapping in it (found by PyYAML's composer, with its place) is
given the key `zz_nothing_reads_this: 1` as its first key, on a copy of the pack; the file is then
read as pnpgen reads it (manifests by load_pack, map.yaml by the map engine and the map drawing,
handout.yaml by the handout reader). A mapping counts as refused when the problem names the file
and the line of the stray key. Mappings at the same key path (every item of a group) share a
schema, so one of each is tried (`sample`). The free-form mappings pnpgen hands on to templates
and references unread (game.yaml `data:`, map.yaml `data:`, an item's fields...) are listed in
FREE_FORM, each with why; the probe skips them and everything inside them.
"""
from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STRAY = "zz_nothing_reads_this"

# Key paths (`*` one key, `[*]` any list item; everything below a path too) of the mappings whose
# keys are the designer's own names, read by their own rules, templates, references or handout,
# so no key there is a stray one. docs/manifests.md and docs/maps.md say the same.
FREE_FORM = {
    "game.yaml": ("data",),                              # numbers templates and handouts read (game.data)
    "*": ("groups[*].items[*].*",),                      # an item field of type data or list: its template reads it
    "map.yaml": (
        "data",                                          # numbers the pack's manifests and handout read (map.data)
        "layout.types.*.values",                         # the values a type writes onto its cells (rules read them)
        "layout.types.*.tiles.values.*",                 # each numbered tile's own value, by tile number
        "layout.starts.fields",                          # fields copied onto each start
        "layout.outside[*].values", "layout.outside[*].piece",   # a space's values, the piece set on it
        "layout.areas[*].values",                        # values every cell of a place carries
        "layout.pieces[*].fields", "layout.seats.places[*].pieces[*]",   # a piece's own fields
        "layout.objective[*].as",                        # value -> the amount it counts for
        "layout.constraints[*].where.*", "layout.pieces[*].where.*",   # a value compared whole ({food: 1})
        "layout.pieces[*].pile.counts.*",                # the pile's names -> how many, per player count
        "look.item",                                     # the map template's own values
        "look.cells.*.variants", "look.markers.*.variants",   # looks by the values of the `by` key
    ),
}


def mappings(text: str):
    """(key path, line, column, flow, line of the key holding it) of every block or flow mapping
    in a YAML text (lines from 0), outermost first."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    found = []

    def walk(node, path, held_at):
        if isinstance(node, yaml.MappingNode):
            if node.value:
                first = node.value[0][0]
                found.append((path, first.start_mark.line, first.start_mark.column, node.flow_style, held_at))
            for key, value in node.value:
                walk(value, f"{path}.{key.value}" if path else str(key.value), key.start_mark.line)
        elif isinstance(node, yaml.SequenceNode):
            for value in node.value:
                walk(value, f"{path}[*]", value.start_mark.line)
    if root is not None:
        walk(root, "", 0)
    return found


def _free(name: str, path: str) -> bool:
    for pattern in FREE_FORM.get(name, ()) + FREE_FORM.get("*", ()):
        rx = re.escape(pattern).replace(r"\[\*\]", "\0").replace(r"\*", r"[^.\[]+").replace("\0", r"\[\*\]")
        if re.fullmatch(rx + r"(?:[.\[].*)?", path):
            return True
    return False


def with_stray(text: str, line: int, column: int, flow: bool) -> str:
    """text with the stray key put first in the mapping whose first key is at (line, column)."""
    lines = text.split("\n")
    row = lines[line]
    key = f"{STRAY}: 1, " if flow else f"{STRAY}: 1\n" + " " * column
    lines[line] = row[:column] + key + row[column:]
    return "\n".join(lines)


def problem_of(pack: Path, name: str) -> str:
    """What pnpgen says reading the pack, or '' when it reads it without a word."""
    from generator.errors import PnpError
    from generator.maps import engine
    try:
        if name == "map.yaml":
            engine._rules_at.cache_clear()
            from generator.maps.output import _load_pack, render_layout
            from generator.maps.rules import MapOptions
            _load_pack.cache_clear()
            layout = engine.generate(pack, 1, options=MapOptions(balance=False))
            render_layout(layout, "probe")
        elif name == "handout.yaml":
            from generator.handout import load_handout, source_for
            load_handout(source_for(pack))
        else:
            from generator.manifest import load_pack
            load_pack(pack)
    except (PnpError, engine.MapError) as exc:
        return str(exc)
    except Exception as exc:          # noqa: BLE001 - a traceback is a finding too
        return f"TRACEBACK {type(exc).__name__}: {exc}"
    return ""


def sample(found):
    """One mapping per key path (list indices folded)."""
    seen, out = set(), []
    for item in found:
        if item[0] not in seen:
            seen.add(item[0])
            out.append(item)
    return out


def probe(game_root: Path, work: Path, files=None):
    """[(file, key path, line, what was said)] for each mapping whose stray key was not refused
    at its file:line."""
    silent = []
    names = files or sorted(p.name for p in game_root.glob("*.yaml"))
    for name in names:
        text = (game_root / name).read_text(encoding="utf-8")
        for path, line, column, flow, held_at in sample(mappings(text)):
            if _free(name, path):
                continue
            pack = work / game_root.name
            if pack.exists():
                shutil.rmtree(pack)
            shutil.copytree(game_root, pack)
            (pack / name).write_text(with_stray(text, line, column, flow), encoding="utf-8")
            said = problem_of(pack, name)
            # refused at its place: the message names the file and the stray key's line (or the
            # line of the key holding the mapping, for a problem with the mapping as a whole)
            places = "|".join(str(n + 1) for n in range(held_at, line + 1))
            if not re.search(rf"{re.escape(name)}:(?:{places}):\d+:", said):
                silent.append((name, path or "(top)", line + 1, said.splitlines()[0][:160] if said else "accepted"))
    return silent


def main(games) -> int:
    from generator.resources import BUILTIN_PACKS
    games = games or sorted(p.name for p in BUILTIN_PACKS.iterdir() if (p / "game.yaml").is_file())
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for game in games:
            for name, path, line, said in probe(BUILTIN_PACKS / game, Path(work)):
                failed += 1
                print(f"{game}/{name}:{line}: {path}: {said}")
    print(f"{failed} mapping(s) took a stray key without refusing it at its place")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
