"""A git revision of a pack -> changes.Baseline: the pack's folder as it was at that revision,
loaded and every distinct face rendered (nothing drawn, nothing written), as the build.json
items a build of it with today's options would have written.

What comes from the revision is the pack's own folder (its YAML, spreadsheets, icons and its
own templates/); the shared templates and fonts are today's.
"""
from __future__ import annotations

import subprocess
import tarfile
import tempfile
from pathlib import Path

from .build import BuildResult, build_items
from .request import BuildRequest, group_options
from .changes import DIGESTS, Baseline, ChangesError
from .errors import BuildError, ManifestError
from .manifest import load_pack
from .render import FaceRef, FaceRenderer

GIT_SECONDS = 60                   # one git command; a local repository answers in well under a second
MAX_ARCHIVE = 512 * 1024 * 1024    # the pack's folder at the revision, as a tar stream


def git_baseline(pack: Path, revision: str, request: BuildRequest) -> Baseline:
    top, inside = _repository(pack, revision)
    with tempfile.TemporaryDirectory(prefix="pnpgen-rev-") as tmp:
        old = _export(top, revision, inside, Path(tmp), pack.name)
        try:
            game = load_pack(old)
        except ManifestError as exc:
            raise ChangesError(f"{revision}: the pack as it was then does not load ({exc.problems[0].message}); "
                               "compare with a build folder of that version instead") from None
        result = BuildResult(game, Path(tmp), options=group_options(game, request))
        try:
            for group in game.groups:
                result.digests.update(_digests(game, group, result.options[group.id].bleed, request.lenient))
        except BuildError as exc:
            raise ChangesError(f"{revision}: a face of the pack as it was then does not render ({exc}); "
                               "compare with a build folder of that version instead") from None
        doc = {"game": game.id, "title": game.title, "face_digests": DIGESTS,
               "groups": [{"id": g.id, "name": g.name} for g in game.groups], "items": build_items(game, result)}
    return Baseline(f"{revision} (git)", doc)


def _digests(game, group, bleed: float, lenient: bool) -> dict[tuple, str]:
    """Every face of the group rendered as a build renders it (its digests are what count)."""
    renderer = FaceRenderer(game, bleed, lenient)
    for item in group.items:
        for side in ("front", "back")[:group.sides] if item.copies else ():
            renderer.svg(FaceRef(group, item, side))
    return renderer.digests()


def looks_like_revision(since: str) -> bool:
    """OLD names a folder or file that exists: a build; else it is taken for a git revision."""
    return not Path(since).exists()


def _git(args: list[str], cwd: Path, what: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=GIT_SECONDS)
    except FileNotFoundError:
        raise ChangesError(f"{what}: git is not installed; give the folder of an earlier build instead") from None
    except subprocess.TimeoutExpired:
        raise ChangesError(f"{what}: git took more than {GIT_SECONDS} s") from None
    if done.returncode:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise ChangesError(f"{what}: {said[-1] if said else 'git failed'}")
    return done.stdout


def _repository(pack: Path, revision: str) -> tuple[Path, str]:
    """The repository holding the pack, and the pack's path inside it."""
    if revision.startswith("-"):
        raise ChangesError(f"'{revision}' is neither a build folder nor a git revision")
    where = f"'{revision}' is not a build folder, and as a git revision"
    top = Path(_git(["rev-parse", "--show-toplevel"], pack, f"{where}: the pack is not in a git repository")
               .decode().strip())
    _git(["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], pack,
         f"'{revision}' is neither a build folder nor a git revision of the pack's repository")
    inside = pack.resolve().relative_to(top.resolve()).as_posix()
    return top, inside


def _export(top: Path, revision: str, inside: str, dest: Path, name: str) -> Path:
    """The pack's folder at the revision, unpacked under dest/, in a folder of the pack's own
    name (a pack without an `id` is named after its folder)."""
    archive = dest / "pack.tar"
    with open(archive, "wb") as handle:
        try:
            subprocess.run(["git", "archive", "--format=tar", f"--prefix={name}/", revision, "--", inside],
                           cwd=top, stdout=handle,
                           stderr=subprocess.PIPE, timeout=GIT_SECONDS, check=True)
        except subprocess.CalledProcessError as exc:
            said = exc.stderr.decode(errors="replace").strip().splitlines()
            raise ChangesError(f"{revision}: the pack's folder {inside} is not in that revision "
                               f"({said[-1] if said else 'git archive failed'})") from None
        except subprocess.TimeoutExpired:
            raise ChangesError(f"{revision}: git archive took more than {GIT_SECONDS} s") from None
    if archive.stat().st_size > MAX_ARCHIVE:
        raise ChangesError(f"{revision}: the pack's folder is over {MAX_ARCHIVE // 2**20} MB at that revision")
    if not hasattr(tarfile, "data_filter"):
        raise ChangesError("comparing with a git revision needs Python 3.10.12, 3.11.4 or newer (safe unpacking); "
                           "give the folder of an earlier build instead")
    with tarfile.open(archive) as tar:
        tar.extractall(dest / "tree", filter="data")       # no links out, no absolute paths
    return (dest / "tree" / name / inside).resolve()
