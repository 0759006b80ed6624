"""pnpgen preview --watch in a real browser (Debian's Chromium, headless): the page shows every
face, follows each save by itself, and shows an error panel, not stale faces, when a save breaks
the pack. Screenshots are checked pixel by pixel and kept in the test's folder."""
import select
import subprocess
import sys
import time

import pymupdf
import pytest

from browser import Browser, chromium
from conftest import ROOT, copy_pack

pytestmark = pytest.mark.skipif(chromium() is None, reason="needs Chromium: apt-get install chromium (.ci/run installs it)")

GREEN, MAGENTA, PANEL_RED = (0, 255, 0), (255, 0, 255), (192, 57, 43)
IMAGES_SHOWN = ("document.images.length > 0 && Array.from(document.images)"
                ".every(i => i.complete && i.naturalWidth > 0)")
VERSION = "document.querySelector('meta[name=\"pnpgen-version\"]').content"


def pixels(png: bytes, colour: tuple, tolerance: int = 8) -> int:
    """How many pixels of a screenshot have this colour."""
    pix = pymupdf.Pixmap(png)
    data, n = pix.samples, pix.n
    return sum(1 for i in range(0, len(data), n * 7)          # every 7th pixel is plenty
               if all(abs(data[i + c] - colour[c]) <= tolerance for c in range(3)))


def start_watch(pack, out, log):
    proc = subprocess.Popen([sys.executable, "-m", "generator", "preview", pack, "--watch", "--port", "0",
                             "--out", out], cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and select.select([proc.stdout], [], [], deadline - time.monotonic())[0]:
        line = proc.stdout.readline()
        if line.startswith("preview: http://127.0.0.1:"):
            return proc, line.split()[1]
        if not line:
            break
    proc.kill()
    pytest.fail(f"pnpgen preview --watch printed no address: {log.name}")


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.slow
def test_the_open_page_follows_every_save(tmp_path):
    pack = copy_pack("mini", tmp_path).rename(tmp_path / "my game")     # any folder, any name
    with open(tmp_path / "watch.log", "w") as log:
        proc, url = start_watch(pack, tmp_path / "out", log)
        browser = Browser(tmp_path / "profile")
        try:
            browser.open(url)
            browser.wait_for(IMAGES_SHOWN)
            assert browser.evaluate("document.querySelectorAll('figure').length") >= 4
            first = browser.screenshot(tmp_path / "1-faces.png")
            assert pixels(first, GREEN) > 5000 and pixels(first, MAGENTA) == 0     # the green card faces
            browser.wait_for("!!document.querySelector('.files a')")          # the PDFs follow the faces
            link = "document.querySelector('.files a')"
            assert browser.evaluate(f"{link}.textContent") == "my game-sheets.pdf"
            assert browser.evaluate(f"fetch({link}.href).then(r => r.status + ' ' + r.headers.get('content-type'))") \
                == "200 application/pdf"

            version = browser.evaluate(VERSION)
            edit(pack / "game.yaml", 'card: "#00ff00"', 'card: "#ff00ff"')        # the designer saves
            browser.wait_for(f"{VERSION} !== '{version}' && {IMAGES_SHOWN}")
            edited = browser.screenshot(tmp_path / "2-edited.png")
            assert pixels(edited, MAGENTA) > 5000 and pixels(edited, GREEN) == 0

            edit(pack / "cards.yaml", "kind: card", "kind: crad")                 # a save that breaks it
            browser.wait_for("!!document.getElementById('errors')")
            broken = browser.screenshot(tmp_path / "3-error.png")
            panel = browser.evaluate("document.getElementById('errors').innerText")
            assert "cards.yaml:3:11: groups[1].kind is 'crad'" in panel and "did you mean 'card'?" in panel
            assert browser.evaluate("document.images.length") == 0                  # no stale faces
            assert pixels(broken, PANEL_RED) > 500 and pixels(broken, MAGENTA) == 0

            edit(pack / "cards.yaml", "kind: crad", "kind: card")                 # fixed: faces again
            browser.wait_for(f"!document.getElementById('errors') && {IMAGES_SHOWN}")
            assert pixels(browser.screenshot(tmp_path / "4-fixed.png"), MAGENTA) > 5000
        finally:
            browser.close()
            proc.terminate()
            proc.wait(timeout=30)
    assert proc.returncode == 143                       # stopped by SIGTERM, as every command is
    assert "Traceback" not in (tmp_path / "watch.log").read_text()
