"""The output folder -> HTTP on 127.0.0.1, for `pnpgen preview --watch`: to this user's browser only.

Every user of the machine can connect to a port on 127.0.0.1, and a web page can reach it by
DNS rebinding (its own host name made to resolve to 127.0.0.1). So, as notebook servers do,
each run makes a secret: the address printed carries it (?token=...), the first request with
it gets it back as a cookie and is sent on to the address without it, and a request that
carries neither, or names a Host other than this machine's own, is refused. Only regular files
inside the output folder are served: no folder listings, no links that lead out of it.

A client has REQUEST_SECONDS to send its whole request, and at most MAX_CLIENTS are served at
once, so idle half-requests cannot hold threads for ever; the threads are daemons, so Ctrl-C
stops the server at once whatever clients are doing.
"""
from __future__ import annotations

import errno
import hmac
import html
import mimetypes
import os
import secrets
import socket
import stat
import threading
import time
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from .errors import BuildError

HOST = "127.0.0.1"
REQUEST_SECONDS = 10.0      # to send the request line and headers; a local browser needs milliseconds
MAX_CLIENTS = 64            # connections served at once; more are closed at once
LOCAL_NAMES = ("127.0.0.1", "localhost")


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = MAX_CLIENTS

    def __init__(self, folder: Path, port: int):
        self.folder = os.path.realpath(folder)
        self.token = secrets.token_urlsafe(24)
        self.waiting: dict[socket.socket, float] = {}     # connections still sending their request
        self.lock = threading.Lock()
        self.closing = threading.Event()
        try:
            super().__init__((HOST, port), _Handler)
        except OSError as exc:
            raise BuildError(_bind_problem(port, exc)) from None
        self.port = self.server_address[1]
        self.cookie = f"pnpgen-preview-{self.port}"
        self.hosts = {f"{name}:{self.port}" for name in LOCAL_NAMES}
        threading.Thread(target=self._reap, daemon=True).start()

    def process_request(self, request, client_address):
        with self.lock:
            busy = len(self.waiting) >= MAX_CLIENTS
            if not busy:
                self.waiting[request] = time.monotonic() + REQUEST_SECONDS
        if busy:
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def arrived(self, connection) -> None:
        """The request is in: its deadline no longer applies (sending a large PDF may take longer)."""
        with self.lock:
            self.waiting.pop(connection, None)

    def _reap(self) -> None:
        """Connections past their deadline are shut down: the thread reading them sees the end."""
        while not self.closing.wait(0.25):
            now = time.monotonic()
            with self.lock:
                late = [c for c, deadline in self.waiting.items() if deadline < now]
                for connection in late:
                    del self.waiting[connection]
            for connection in late:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def shutdown_request(self, request):
        self.arrived(request)
        super().shutdown_request(request)

    def server_close(self):
        self.closing.set()
        super().server_close()

    def handle_error(self, request, client_address):
        pass        # a client that hung up or was too slow is no news for the terminal

    def knows(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(token.encode(), self.token.encode())

    def url(self, path: str) -> str:
        return f"http://{HOST}:{self.port}/{quote(path)}?token={self.token}"


def _bind_problem(port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} is in use (another pnpgen preview?); stop that one, or give another "
                "port with --port N (--port 0: any free port)")
    if exc.errno == errno.EACCES:
        return f"port {port} is reserved for the system; give a port from 1024 up with --port N (0: any free port)"
    return f"cannot serve on port {port}: {(exc.strerror or str(exc)).lower()}"


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = REQUEST_SECONDS          # no single read waits longer than this
    server_version = "pnpgen"
    sys_version = ""

    def parse_request(self) -> bool:
        parsed = super().parse_request()          # reads the headers too
        self.server.arrived(self.connection)
        return parsed

    def do_GET(self):
        self._answer(body=True)

    def do_HEAD(self):
        self._answer(body=False)

    def log_message(self, format, *args):      # the terminal is for the build's messages
        pass

    def _answer(self, body: bool) -> None:
        if (self.headers.get("Host") or "").lower() not in self.server.hosts:
            return self._refuse(HTTPStatus.FORBIDDEN, "this preview answers only to addresses of this machine "
                                                      f"(http://{HOST}:{self.server.port}/)", body)
        url = urlsplit(self.path)
        given = parse_qs(url.query).get("token", [None])[0]
        if self.server.knows(given):                 # the printed address: keep the secret as a cookie
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Set-Cookie", f"{self.server.cookie}={self.server.token}; Path=/; HttpOnly; SameSite=Strict")
            self.send_header("Location", url.path or "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if not self.server.knows(self._cookie()):
            return self._refuse(HTTPStatus.FORBIDDEN, "open the address pnpgen preview printed: it carries this run's key",
                                body)
        path = self._file(url.path)
        if path is None:
            return self._refuse(HTTPStatus.NOT_FOUND, "no such file in the preview's output folder", body)
        return self._send_file(path, body)

    def _cookie(self) -> str | None:
        try:
            jar = SimpleCookie(self.headers.get("Cookie") or "")
        except CookieError:
            return None
        morsel = jar.get(self.server.cookie)
        return morsel.value if morsel else None

    def _file(self, url_path: str) -> str | None:
        """The real path of a regular file inside the output folder that url_path names, else None."""
        relative = unquote(url_path)
        if "\0" in relative or any(part in ("..", ".") for part in relative.split("/")):
            return None
        real = os.path.realpath(os.path.join(self.server.folder, relative.lstrip("/")))
        if not real.startswith(self.server.folder.rstrip(os.sep) + os.sep):
            return None
        try:
            return real if stat.S_ISREG(os.stat(real).st_mode) else None
        except (OSError, ValueError):
            return None

    def _send_file(self, path: str, body: bool) -> None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return self._refuse(HTTPStatus.NOT_FOUND, "no such file in the preview's output folder", body)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return self._refuse(HTTPStatus.NOT_FOUND, "no such file in the preview's output folder", body)
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", mimetypes.guess_type(path)[0] or "application/octet-stream")
            self.send_header("Content-Length", str(info.st_size))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if body:
                while chunk := handle.read(1 << 16):
                    self.wfile.write(chunk)
        return None

    def _refuse(self, status: HTTPStatus, why: str, body: bool) -> None:
        text = f"<!doctype html><title>{status.value} {status.phrase}</title><p>{html.escape(why)}</p>\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(text)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(text)
        return None


def serve(folder: Path, port: int) -> PreviewServer:
    """Serve the output folder in a background thread; port 0 takes any free port, a port in
    use is a BuildError."""
    server = PreviewServer(folder, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
