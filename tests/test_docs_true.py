"""Lines of the docs a new user found wrong (issue 27), held to the code: figures the docs quote
are the figures pnpgen uses, and the docs cite nothing a reader of the repository cannot open."""
import re

import pytest

from conftest import ROOT
from generator.presets import load_presets

DOCS = ROOT / "docs"


@pytest.mark.parametrize("doc", ["export.md", "handouts.md", "manifests.md"])
def test_a_doc_cites_nothing_outside_the_repository(doc):
    text = (DOCS / doc).read_text()
    assert "PRINT.md" not in text and "../shared" not in text and "/work/" not in text


def test_the_export_doc_quotes_the_presets_pixels():
    """Every 'name W x H' of the preset table and of the paragraph on sources is the preset's."""
    text = (DOCS / "export.md").read_text()
    presets = load_presets()
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|$", text, re.M)}
    assert set(rows) == set(presets)
    quoted = {"thegamecrafter": rows["thegamecrafter"] + re.search(r"The Game Crafter's\npixels are .*?\)", text, re.S).group(),
              "makeplayingcards": rows["makeplayingcards"] + ", poker " + re.search(r"poker template's, (\d+ x \d+)", text).group(1),
              "drivethrucards": rows["drivethrucards"]}
    for preset_id, words in quoted.items():
        products = {p.id: (p.px_w, p.px_h) for p in presets[preset_id].products}
        pairs = re.findall(r"(poker|mini|bridge|tarot|square)\b[^,\d]*(?:\([^)]*\) )?(\d+) x (\d+)", words)
        assert len(pairs) >= 4, words
        for name, w, h in pairs:
            assert products[name] == (int(w), int(h)), (preset_id, name, w, h)


def test_the_handout_doc_makes_no_claim_about_which_packs_have_manifests():
    text = (DOCS / "handouts.md").read_text()
    assert "only Royal Dukes" not in text and "Required sections" not in text
