"""A headless Chromium the tests drive over the DevTools protocol (on a pipe: no port, no extra
package): open a page, evaluate JavaScript in it, take screenshots. The page stays open between
calls, so a test sees what a designer's open tab would see."""
from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--hide-scrollbars"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, profile_dir, timeout: float = 30.0, height: int = 3000):
        self.timeout, self.next_id, self.buffer = timeout, 0, b""
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def pipes_on_3_and_4():         # where --remote-debugging-pipe expects them
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        self.proc = subprocess.Popen([chromium(), *FLAGS, f"--user-data-dir={profile_dir}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=pipes_on_3_and_4, pass_fds=(3, 4))
        os.close(to_browser_r)
        os.close(from_browser_w)
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)
        # a window tall enough for a whole preview page: a screenshot shows all of it
        self.call("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": False}, session=True)

    def call(self, method: str, params: dict | None = None, session: bool = False) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply["result"]

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise BrowserError("no answer from the browser in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise BrowserError("the browser closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url}, session=True)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                     "awaitPromise": True}, session=True)
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30.0):
        """Poll a JavaScript condition in the page until it is truthy; bounded by `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except BrowserError:          # the page is between two loads
                value = None
            if value:
                return value
            time.sleep(0.05)      # the next look, not a wait for something
        raise BrowserError(f"still false after {timeout} s: {expression}")

    def screenshot(self, path) -> bytes:
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"])
        with open(path, "wb") as handle:
            handle.write(data)
        return data

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
