"""Two builds' build.json -> what changed between them: which faces to print again and which
components the players take out of the box and put in.

A face is what it shows (the digest of its SVG, build.json `items[].faces`), never where it
sits on a sheet, so a card that only moved is unchanged. Per item (group and id):
new (every copy printed and put in), removed (every old copy taken out), changed (a front or a
back differs: the old copies out, the new ones printed and put in), more copies (the extra ones
printed), fewer copies (some taken out, nothing printed). Pure data: build.py draws the changes
PDF from it, the CLI prints `pnpgen diff`.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import PnpError, display_path

DIGESTS = "svg-sha256-128"            # build.json `face_digests`: how items[].faces were made
MAX_BUILD_JSON = 64 * 1024 * 1024     # a build of 100,000 items is about 40 MB


class ChangesError(PnpError):
    """OLD or NEW is not an earlier build pnpgen can compare with (exit 2, like a wrong command line)."""
    exit_code = 2


@dataclass(frozen=True)
class Entry:
    """One item of one build: what it shows, how many copies."""
    group: str
    group_name: str
    kind: str
    item: str
    name: str
    copies: int
    faces: tuple[tuple[str, str], ...]        # (side, digest), in side order


@dataclass(frozen=True)
class Change:
    group: str
    group_name: str
    kind: str
    item: str
    name: str
    what: str                 # a key of WORDS
    sides: tuple[str, ...]    # 'changed': the sides whose face differs
    take_out: int             # old copies the players remove
    put_in: int               # new copies printed and put in
    old_name: str = ""        # the name the old copies carry, where it differs


WORDS = {"new": "new", "removed": "removed", "changed": "changed", "more": "more copies",
         "fewer": "fewer copies"}


@dataclass(frozen=True)
class Changes:
    game: str
    title: str
    since: str                # OLD as the user named it
    items: tuple[Change, ...]

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def to_print(self) -> dict[tuple[str, str], int]:
        """(group, item) -> copies to print, for the items that have any."""
        return {(c.group, c.item): c.put_in for c in self.items if c.put_in}

    @property
    def taken_out(self) -> int:
        return sum(c.take_out for c in self.items)

    @property
    def put_in(self) -> int:
        return sum(c.put_in for c in self.items)


@dataclass(frozen=True)
class Baseline:
    """An earlier build to compare with: its build.json, and how the user named it."""
    label: str
    doc: dict


def read_build(path: Path, label: str | None = None) -> Baseline:
    """A build folder (or its build.json) -> Baseline; anything else is refused with what to give."""
    path = Path(path)
    file = path / "build.json" if path.is_dir() else path
    where = display_path(file)
    try:
        with open(file, "rb") as handle:
            data = handle.read(MAX_BUILD_JSON + 1)
    except FileNotFoundError:
        raise ChangesError(f"{display_path(path)}: no build.json there; give the folder of an earlier build "
                           "(output/<game>, or a copy of it)") from None
    except OSError as exc:
        raise ChangesError(f"{where}: cannot read it ({(exc.strerror or str(exc)).lower()})") from None
    if len(data) > MAX_BUILD_JSON:
        raise ChangesError(f"{where}: over {MAX_BUILD_JSON // 2**20} MB, larger than any build.json pnpgen writes; "
                           "give the build.json of an earlier build")
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ChangesError(f"{where}: not UTF-8 text; give the build.json of an earlier build") from None
    except json.JSONDecodeError as exc:
        raise ChangesError(f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
                           "give an unedited build.json, or build that version again") from None
    _entries(doc, where)                   # refused here, before any work, when unreadable
    return Baseline(label or display_path(path), doc)


def compare(old: Baseline, new: dict) -> Changes:
    """What changed from the build `old` to the build.json document `new`."""
    if old.doc.get("game") != new.get("game"):
        raise ChangesError(f"{old.label} is a build of '{old.doc.get('game')}', not of '{new.get('game')}'; "
                           "compare builds of the same game")
    before, after = _entries(old.doc, old.label), _entries(new, "the new build")
    items = [c for key, entry in after.items() if (c := _change(before.get(key), entry))]
    items += [_removed(entry) for key, entry in before.items() if key not in after and entry.copies]
    return Changes(new["game"], str(new.get("title", new["game"])), old.label, tuple(items))


def shown_faces(old: Baseline) -> dict[tuple[str, str, str], str]:
    """(group, item, side) -> digest of every face the earlier build printed: a face that shows
    anything else now is new (version.stamps marks it NEW)."""
    return {(e.group, e.item, side): digest for e in _entries(old.doc, old.label).values() if e.copies
            for side, digest in e.faces}


def _change(old: Entry | None, new: Entry) -> Change | None:
    if old is None or not old.copies:
        return _made(new, "new", (), 0, new.copies) if new.copies else None
    if not new.copies:
        return _removed(old)
    sides = tuple(side for side in _sides(old, new) if dict(old.faces).get(side) != dict(new.faces).get(side))
    if sides:
        return replace(_made(new, "changed", sides, old.copies, new.copies), old_name=old.name)
    if new.copies > old.copies:
        return _made(new, "more", (), 0, new.copies - old.copies)
    if new.copies < old.copies:
        return _made(new, "fewer", (), old.copies - new.copies, 0)
    return None


def _sides(old: Entry, new: Entry) -> list[str]:
    seen = [side for side, _ in new.faces]
    return seen + [side for side, _ in old.faces if side not in seen]


def _made(entry: Entry, what: str, sides: tuple, take_out: int, put_in: int) -> Change:
    return Change(entry.group, entry.group_name, entry.kind, entry.item, entry.name, what, sides, take_out, put_in)


def _removed(entry: Entry) -> Change:
    return _made(entry, "removed", (), entry.copies, 0)


def _entries(doc, where: str) -> dict[tuple[str, str], Entry]:
    """build.json's items by (group, id); a build.json of another kind, or of a pnpgen that
    wrote no face digests, is refused."""
    if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
        raise ChangesError(f"{where}: not a pnpgen build.json (no 'items' list); give the folder of an earlier build")
    if doc.get("face_digests") != DIGESTS:
        raise ChangesError(f"{where}: this build.json has no face digests (written by an older pnpgen, "
                           "before 'pnpgen diff'); build that version of the pack again and compare with that")
    names = {g.get("id"): g.get("name") or g.get("id") for g in doc.get("groups", []) if isinstance(g, dict)}
    out = {}
    for index, item in enumerate(doc["items"]):
        try:
            entry = Entry(str(item["group"]), str(names.get(item["group"]) or item["group"]), str(item["kind"]),
                          str(item["id"]), str(item.get("name") or item["id"]), int(item["copies"]),
                          tuple((str(side), str(d)) for side, d in item["faces"].items()))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ChangesError(f"{where}: items[{index}] is not an item as pnpgen writes it (group, id, kind, "
                               "copies, faces); give an unedited build.json") from None
        out[(entry.group, entry.item)] = entry
    return out


def terminal_lines(changes: Changes) -> list[str]:
    """`pnpgen diff`: a line per changed item, then the totals."""
    if not changes:
        return [f"{changes.game}: nothing changed since {changes.since}"]
    lines = [f"{changes.game}: {len(changes.items)} item(s) changed since {changes.since}"]
    for c in changes.items:
        counts = f"-{c.take_out} +{c.put_in}"
        sides = f" ({', '.join(c.sides)})" if c.sides else ""
        lines.append(f"  {WORDS[c.what] + sides:<20} {c.group}/{c.item} \"{c.name}\"  {counts}")
    faces = sum(c.put_in for c in changes.items)
    lines.append(f"print {faces} component(s) again; the players take out {changes.taken_out} "
                 f"and put in {changes.put_in}")
    return lines


TAKE_OUT = {"changed": "old version", "removed": "no longer in the game", "fewer": "fewer copies now"}
PUT_IN = {"changed": "new version", "new": "new", "more": "more copies"}


def players_list(changes: Changes) -> tuple[list[str], list[str]]:
    """What the players do with the reprint: (take out, put in), by name and count; the old
    copies by the name they carry. Items alike in all three (ten 'Plain' cards, each of a
    number) make one line."""
    out, put = Counter(), Counter()
    for c in changes.items:
        out[(c.old_name or c.name, c.group_name, TAKE_OUT.get(c.what))] += c.take_out
        put[(c.name, c.group_name, PUT_IN.get(c.what))] += c.put_in
    return ([f"{n} x {name}  ({group}; {why})" for (name, group, why), n in out.items() if n],
            [f"{n} x {name}  ({group}; {why})" for (name, group, why), n in put.items() if n])
