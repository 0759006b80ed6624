"""What players must tell apart stays apart without colour: every per-player piece against the
same piece of every other seat, and each set of resource tokens against each other, rendered and
compared in greyscale and in protanopia, deuteranopia and tritanopia simulations (Machado et al.
2009, severity 1). Two faces count as told apart when enough of the picture differs clearly."""
import itertools

import numpy
import pymupdf
import pytest

from conftest import ROOT
from generator.manifest import load_pack
from generator.maps.render import png_bytes
from generator.render import FaceRenderer, expand_faces

DPI = 60
CLEAR = 40            # levels (of 255) a pixel must differ by to count
ENOUGH = 0.001        # share of the face that must differ clearly: a seat digit or emblem is 0.15-1 %
VIEWS = {
    "greyscale": ((0.299, 0.587, 0.114),) * 3,
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
# groups of told-apart sets that are not per player: one item per kind of resource
RESOURCE_SETS = {"shires": "resource-tokens", "dragon-towers": "resources", "cones-of-dunshire": "resources",
                 "lords-of-doomspire": "resources"}
# Per-player pieces that never leave their owner's own board, so nobody tells them apart by owner.
OWN_BOARD = {("shires", "resource-tokens")}
PACKS = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))


def pixels(renderer, face):
    svg = renderer.svg(face)
    group = face.group
    dpi = max(DPI, 160 * 25.4 / min(group.width, group.height))      # small pieces: 160 px across
    pix = pymupdf.Pixmap(png_bytes(svg, group.width, group.height, dpi))
    rgb = numpy.frombuffer(pix.samples, dtype=numpy.uint8).reshape(pix.height, pix.width, pix.n)[..., :3]
    return rgb.astype(numpy.float32)


def simulated(image, view):
    return image @ numpy.array(VIEWS[view], dtype=numpy.float32).T


def share_clearly_different(one, two):
    return float((numpy.abs(one - two).max(axis=2) > CLEAR).mean())


def pairs_to_tell_apart(game):
    """(label, face, face) for every pair a player must tell apart."""
    for group in game.groups:
        fronts, _ = expand_faces(group)
        on_the_table = group.kind == "chit" or "standee" in group.id or group.id in ("boats", "flags", "die-stickers")
        if any(face.item.player for face in fronts) and on_the_table and (game.id, group.id) not in OWN_BOARD:
            by_item: dict = {}
            for face in fronts:
                key = face.item.id.rsplit("-" + face.item.player.id, 1)[0]
                by_item.setdefault(key, {}).setdefault(face.item.player.id, face)
            for key, seats in list(by_item.items())[:1]:      # the group's pieces differ alike
                for (pa, fa), (pb, fb) in itertools.combinations(seats.items(), 2):
                    yield f"{group.id}/{key}: {pa} vs {pb}", fa, fb
        elif RESOURCE_SETS.get(game.id) == group.id:
            kinds: dict = {}
            for face in fronts:
                player = face.item.player.id if face.item.player else ""
                if player in ("", game.players[0].id):
                    kinds.setdefault(face.item.id, face)
            for (ia, fa), (ib, fb) in itertools.combinations(kinds.items(), 2):
                yield f"{group.id}: {ia} vs {ib}", fa, fb


@pytest.mark.parametrize("pack", PACKS)
def test_pieces_stay_apart_in_greyscale_and_for_colour_blind_players(pack):
    game = load_pack(ROOT / "components" / pack)
    renderer = FaceRenderer(game, 0.0)
    cache: dict = {}
    too_alike = []
    checked = 0
    for label, fa, fb in pairs_to_tell_apart(game):
        images = [cache.setdefault(f.key, pixels(renderer, f)) for f in (fa, fb)]
        if images[0].shape != images[1].shape:
            continue                                   # different sizes: told apart by size
        checked += 1
        for view in VIEWS:
            share = share_clearly_different(*(simulated(image, view) for image in images))
            if share < ENOUGH:
                too_alike.append(f"{label} in {view}: {share:.2%} differ")
    assert checked, "no pairs found"
    assert not too_alike, "\n".join(too_alike[:30])
