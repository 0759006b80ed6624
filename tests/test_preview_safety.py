"""pnpgen preview writes only into folders of its own, never through a planted link, and
pnpgen preview --watch serves the output folder to this user's browser only: a request needs
the run's secret (from the printed address, then a cookie) and a Host of this machine; only
regular files inside the folder are served; slow clients are cut off; a port in use or out of
range is an error, never a traceback or silently another port."""
import http.client
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT, copy_pack, run_cli
from generator import serve


@pytest.fixture
def served(tmp_path):
    folder = tmp_path / "out"
    (folder / "game-preview").mkdir(parents=True)
    (folder / "game-preview" / "index.html").write_text("<p>the page</p>")
    (folder / "game").mkdir()
    (folder / "game" / "game-sheets.pdf").write_bytes(b"%PDF-1.7 sheets")
    (tmp_path / "secret.txt").write_text("the victim's own file")
    server = serve.serve(folder, 0)
    yield server, folder
    server.shutdown()
    server.server_close()


def get(server, path: str, host: str | None = None, cookie: str | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Host": f"127.0.0.1:{server.port}" if host is None else host}
    if cookie:
        headers["Cookie"] = cookie
    connection.putrequest("GET", path, skip_host=True)
    for key, value in headers.items():
        connection.putheader(key, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def signed_in(server) -> str:
    """The cookie a browser keeps after opening the printed address."""
    response, _ = get(server, f"/game-preview/index.html?token={server.token}")
    assert response.status == 303 and response.getheader("Location") == "/game-preview/index.html"
    cookie = response.getheader("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    return cookie.split(";")[0]


def test_the_printed_address_gives_a_cookie_and_the_cookie_gives_the_files(served):
    server, _ = served
    url = serve.PreviewServer.url(server, "game-preview/index.html")
    assert re.fullmatch(rf"http://127\.0\.0\.1:{server.port}/game-preview/index\.html\?token=[\w-]{{32}}", url)
    cookie = signed_in(server)
    response, body = get(server, "/game-preview/index.html", cookie=cookie)
    assert response.status == 200 and body == b"<p>the page</p>"
    response, body = get(server, "/game/game-sheets.pdf", cookie=cookie)
    assert response.status == 200 and body == b"%PDF-1.7 sheets"
    assert response.getheader("Content-Type") == "application/pdf"


@pytest.mark.parametrize("cookie", [None, "pnpgen-preview-1=nope", "garbage;;=="])
def test_a_request_without_the_runs_secret_gets_nothing(served, cookie):
    server, _ = served
    for path in ("/game-preview/index.html", "/game/game-sheets.pdf", "/", "/game/", f"/?token=wrong"):
        response, body = get(server, path, cookie=cookie)
        assert response.status == 403 and b"sheets" not in body and b"the page" not in body
        assert b"open the address pnpgen preview printed" in body


def test_a_host_other_than_this_machine_is_refused_even_with_the_secret(served):
    """DNS rebinding: a web page whose own name resolves to 127.0.0.1 sends its name as Host."""
    server, _ = served
    cookie = signed_in(server)
    for host in ("evil.example", f"evil.example:{server.port}", f"127.0.0.1:{server.port + 1}", ""):
        response, body = get(server, "/game-preview/index.html", host=host, cookie=cookie)
        assert response.status == 403 and b"the page" not in body
    response, _ = get(server, "/game-preview/index.html", host=f"localhost:{server.port}", cookie=cookie)
    assert response.status == 200


def test_only_regular_files_inside_the_output_folder_are_served(served, tmp_path):
    server, folder = served
    cookie = signed_in(server)
    os.symlink(tmp_path / "secret.txt", folder / "game" / "link.txt")
    os.symlink(tmp_path, folder / "game" / "up")
    os.mkfifo(folder / "game" / "fifo")
    for path in ("/game/", "/", "/game", "/game/link.txt", "/game/up/secret.txt", "/../secret.txt",
                 "/game/%2e%2e/%2e%2e/secret.txt", "/%00", "/game/%00.pdf", "/%ff%fe", "/game/fifo"):
        response, body = get(server, path, cookie=cookie)
        assert response.status == 404, path
        assert b"victim" not in body and b"<a href" not in body      # no listing, no outside file


def test_slow_clients_are_cut_off_and_do_not_hold_threads(served, monkeypatch):
    server, _ = served
    monkeypatch.setattr(serve, "REQUEST_SECONDS", 1.0)
    threads = len(threading.enumerate())
    idle = []
    for _ in range(40):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /game-preview/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n")     # and never the rest
        idle.append(s)
    deadline = time.monotonic() + 20
    closed = set()
    while len(closed) < len(idle) and time.monotonic() < deadline:
        ready, _, _ = select.select([s for s in idle if s not in closed], [], [], deadline - time.monotonic())
        for s in ready:
            assert s.recv(4096) == b"", "the half-request was answered as if whole"
            closed.add(s)
    assert len(closed) == len(idle), f"{len(idle) - len(closed)} idle clients still connected"
    for s in idle:
        s.close()
    while len(threading.enumerate()) > threads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(threading.enumerate()) <= threads


def test_more_clients_than_the_limit_are_turned_away_at_once(served, monkeypatch):
    server, _ = served
    monkeypatch.setattr(serve, "MAX_CLIENTS", 5)
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
    deadline = time.monotonic() + 10
    while len(server.waiting) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    extra = socket.create_connection(("127.0.0.1", server.port))
    extra.settimeout(10)
    assert extra.recv(10) == b""                  # closed, not queued behind the idle ones
    for s in idle + [extra]:
        s.close()


def test_a_port_in_use_is_an_error_not_another_port(tmp_path):
    pack = copy_pack("mini", tmp_path)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        code, out, err = run_cli("preview", pack, "--watch", "--port", str(port), "--out", tmp_path / "out")
    finally:
        taken.close()
    assert code == 1 and "Traceback" not in err and "http://" not in out
    assert f"port {port} is in use (another pnpgen preview?)" in err and "--port 0" in err


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_a_port_out_of_range_is_a_usage_error(tmp_path, port):
    result = subprocess.run([sys.executable, "-m", "generator", "preview", "mini", "--watch", "--port", port],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "argument --port:" in result.stderr


def test_ctrl_c_stops_the_watch_at_once_with_idle_clients_connected(tmp_path):
    pack = copy_pack("mini", tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "generator", "preview", pack, "--watch", "--port", "0",
                             "--out", tmp_path / "out"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line, deadline = "", time.monotonic() + 60
        while not line.startswith("preview: ") and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], deadline - time.monotonic())[0]:
                line = proc.stdout.readline()
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
        for s in idle:
            s.sendall(b"GET / HTTP/1.1\r\n")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)           # stops within the second, not after the clients
        for s in idle:
            s.close()
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130 and "Traceback" not in err, err


# --- what the preview writes ------------------------------------------------------------------

def test_links_planted_at_the_old_guessable_names_are_never_followed(tmp_path):
    """Another user who can write --out once planted links at .index.html.<pid>.tmp (and the like)
    and had the preview overwrite the victim's own file."""
    from generator import preview
    from generator.build import BuildRequest
    pack = copy_pack("mini", tmp_path)
    folder = tmp_path / "out" / "mini-preview"
    folder.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    for name in ("index.html", "state.json"):
        os.symlink(victim, folder / f".{name}.{os.getpid()}.tmp")
    os.symlink(victim, folder / "state.json")
    page = preview.write_waiting_page(pack, BuildRequest(out_dir=tmp_path / "out"))
    assert victim.read_text() == "mine"
    assert page.is_file() and not page.is_symlink() and not (folder / "state.json").is_symlink()
    assert '"version"' in (folder / "state.json").read_text()


def test_a_planted_faces_link_is_refused_and_the_other_folder_untouched(tmp_path):
    pack = copy_pack("mini", tmp_path)
    other = tmp_path / "holiday-photos"
    other.mkdir()
    (other / "beach.png").write_bytes(b"\x89PNG a photo")
    (tmp_path / "out" / "mini-preview").mkdir(parents=True)
    os.symlink(other, tmp_path / "out" / "mini-preview" / "faces")
    code, _, err = run_cli("preview", pack, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in err
    assert "mini-preview/faces is a link or a file, not a folder of this user's" in err
    assert sorted(p.name for p in other.iterdir()) == ["beach.png"]


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to give a folder to another user")
def test_a_preview_folder_of_another_user_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    folder = tmp_path / "out" / "mini-preview"
    folder.mkdir(parents=True)
    os.chown(folder, 4242, 4242)
    code, _, err = run_cli("preview", pack, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in err
    assert "mini-preview belongs to another user (uid 4242)" in err
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("dpi", ["6000", "10000"])
def test_a_dpi_for_print_not_for_a_screen_is_refused_before_drawing(tmp_path, dpi):
    """--dpi 6000 peaked at 3 GB; --dpi 10000 was a cairo traceback."""
    pack = copy_pack("mini", tmp_path)
    code, _, err = run_cli("preview", pack, "--dpi", dpi, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in err
    assert re.search(rf"board\.yaml:2:5: group 'board' at {dpi} DPI is \d+ x \d+ pixels, over the limit of 40 million "
                     r"for a preview image; preview with a lower --dpi \(at most 462\)", err), err
    page = (tmp_path / "out" / "mini-preview" / "index.html").read_text()
    assert 'id="errors"' in page and "over the limit of 40 million" in page
    assert not list((tmp_path / "out" / "mini-preview").glob("faces/*.png"))


def test_a_browser_keeping_cookies_gets_the_page_its_images_state_and_pdfs(tmp_path):
    """What tests/test_preview_browser.py checks in Chromium, with urllib's cookie jar (it runs
    where Chromium is missing): the printed address, then everything the page loads."""
    import http.cookiejar
    import urllib.parse
    import urllib.request
    pack = copy_pack("mini", tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "generator", "preview", pack, "--watch", "--port", "0",
                             "--out", tmp_path / "out"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline, line, printed = time.monotonic() + 60, "", ""
        while "PDFs after" not in line and time.monotonic() < deadline:      # the first rebuild done
            if select.select([proc.stdout], [], [], deadline - time.monotonic())[0]:
                line = proc.stdout.readline()
                printed = printed or (line if line.startswith("preview: ") else "")
        url = printed.split()[1]
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(url, timeout=30) as response:
            page = response.read().decode()
            assert response.url == url.split("?")[0] and "<h1>Test Pack</h1>" in page
        image = re.search(r'src="(faces/[0-9a-f]+\.png)"', page).group(1)
        pdf = re.search(r'href="(\.\./mini/mini-sheets\.pdf)"', page).group(1)
        for path, start in ((image, b"\x89PNG"), ("state.json", b'{"version"'), (pdf, b"%PDF")):
            with browser.open(urllib.parse.urljoin(url, path), timeout=30) as response:    # as a browser resolves ..
                assert response.read().startswith(start), path
        stranger = urllib.request.build_opener()                  # another user's client, no cookie
        with pytest.raises(urllib.error.HTTPError, match="403"):
            stranger.open(url.split("?")[0], timeout=30)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert proc.returncode == 143
