"""`pnpgen diff OLD NEW` and what `pnpgen build --changes-since OLD` prints: the command line of
changes.py (parsing and printing)."""
from __future__ import annotations

from pathlib import Path

from .changes import Changes, compare, read_build, terminal_lines
from .errors import UsageError


def add_parser(sub) -> None:
    d = sub.add_parser("diff", help="what changed between two builds: items new, changed, removed, copies added",
                       description="Compares the build.json of two builds of one game, face by face (what each "
                                   "face shows, not where it sits on the sheet).")
    d.add_argument("old", metavar="OLD", help="an earlier build's folder (output/<game>, or a copy) or its build.json")
    d.add_argument("new", metavar="NEW", help="a later build's folder or its build.json")
    d.set_defaults(run=run_diff)


def run_diff(args) -> int:
    old, new = read_build(Path(args.old), args.old), read_build(Path(args.new), args.new)
    print("\n".join(terminal_lines(compare(old, new.doc))))
    return 0


def baseline(games: list[str], since: str | None, request, the_pack):
    """--changes-since, read once where the command starts: one pack, and its earlier build
    (a folder) or a git revision of it (faces rendered with `request`'s options); the_pack()
    is the pack's folder (the CLI finds it)."""
    if since is None:
        return None
    from .changes_git import git_baseline, looks_like_revision     # tarfile, subprocess: only when asked
    if len(games) > 1:
        raise UsageError("--changes-since compares one pack with its earlier build: name one GAME")
    if not looks_like_revision(since):
        return read_build(Path(since), since)
    return git_baseline(the_pack(), since, request)


def summary(changes: Changes | None, pdf: str) -> list[str]:
    """The build summary's lines about --changes-since."""
    if changes is None:
        return []
    if not changes:
        return [f"nothing changed since {changes.since}: no {pdf} written"]
    return terminal_lines(changes)[1:]
