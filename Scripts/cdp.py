"""cdp: headless Chromium driven over the DevTools protocol on a pipe, for the scripts that
measure and picture the player (studio-latency, make-player-images). Commands go to the
browser's fd 3 and replies come from its fd 4, each a JSON message ending in a NUL byte, as
Tests/AnimCLITests/ChromiumDriver.swift does."""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time


class Chromium:
    """Headless Chromium over the DevTools protocol on a pipe (fd 3 in, fd 4 out; NUL-ended
    JSON messages), as Tests/AnimCLITests/ChromiumDriver.swift does."""

    def __init__(self, executable, width=1280, height=800):
        self.profile = tempfile.mkdtemp(prefix="studio-latency-profile-")
        to_child, self.out = os.pipe()
        self.inp, from_child = os.pipe()

        def place():
            # High copies first, so that placing one at 3 or 4 cannot clobber the other (and a
            # pipe already at 3 still loses its close-on-exec flag).
            a, b = fcntl.fcntl(to_child, fcntl.F_DUPFD, 100), fcntl.fcntl(from_child, fcntl.F_DUPFD, 100)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
             "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + self.profile,
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=place, close_fds=False)
        os.close(to_child)
        os.close(from_child)
        self.buffer = b""
        self.next_id = 1
        self.session = None

    def send(self, method, params=None, page=True, timeout=60):
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if page and self.session:
            msg["sessionId"] = self.session
        self.next_id += 1
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        end = time.time() + timeout
        while time.time() < end:
            while b"\0" not in self.buffer:
                chunk = os.read(self.inp, 1 << 20)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == msg["id"]:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
        raise RuntimeError(f"{method}: no reply")

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"}, page=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, page=False)["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})

    def eval(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r.get("result", {}).get("value")

    def wait(self, expression, timeout=30, poll=0.002):
        end = time.time() + timeout
        while time.time() < end:
            try:
                v = self.eval(expression)
            except RuntimeError:
                v = None  # the page is still loading (no document yet)
            if v:
                return v
            time.sleep(poll)
        raise RuntimeError(f"timed out waiting for {expression}")

    def quit(self):
        try:
            os.write(self.out, b'{"id":0,"method":"Browser.close"}\0')
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def screenshot(self, path, width, height):
        """A PNG of the viewport's top-left width × height CSS pixels."""
        r = self.send("Page.captureScreenshot", {"format": "png", "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))
