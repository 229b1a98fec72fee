"""The real daemon, ``pegs serve --simulate`` in a process of its own, for the tests that kill it,
crowd it or drive it from a browser.

    daemon = Daemon(tmp_path, extra=["--pin", PIN])
    daemon.start()                     # waits until /api/state answers
    daemon.post("/api/sim/events", {"events": ["lift S0:1"]})
    daemon.kill(); daemon.start()      # SIGKILL, then the same data dir again

``PageDaemon`` talks to it as the table's page does (a session cookie, the PIN, the CSRF token).
The ``daemon`` fixture (``tests/conftest.py``) is a started ``Daemon`` with the table PIN.
"""

from __future__ import annotations

import http.cookiejar
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.simulated import PIN


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Daemon:
    """``pegs serve --simulate --data DATA --port <free> EXTRA...`` and plain JSON requests to it."""

    def __init__(self, data: Path, extra: list[str] | None = None) -> None:
        self.data, self.port, self.extra = data, free_port(), extra or []
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> float:
        """Start it and wait until it answers; the seconds that took."""
        started = time.monotonic()
        argv = ["serve", "--simulate", "--data", str(self.data), "--port", str(self.port), *self.extra]
        process = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.process = process
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.get("/api/state")
                return time.monotonic() - started
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None:
                    said = process.stderr.read() if process.stderr else ""
                    raise AssertionError(f"the daemon died: {said}") from None
                time.sleep(0.05)
        raise AssertionError("the daemon did not answer within 30 s")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            raise AssertionError(f"POST {path} {body}: {error.code} {error.read().decode()}") from None


class PageDaemon(Daemon):
    """The daemon, talked to like the table's page: a session cookie, the PIN, the
    ``Origin`` header and the CSRF token that state-changing requests need."""

    def __init__(self, data: Path) -> None:
        super().__init__(data, ["--pin", PIN])
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf: str | None = None
        self.last: dict[str, Any] = {}  # the last state the daemon answered before a kill

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> Any:
        with self.opener.open(self.url(path), timeout=10) as response:
            body = json.load(response)
        if path == "/api/state":
            self.last = body
        return body

    def post(self, path: str, body: Any) -> Any:
        headers = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{self.port}"}
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        request = urllib.request.Request(self.url(path), data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            with self.opener.open(request, timeout=10) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as error:
            raise AssertionError(f"POST {path} {body}: {error.code} {error.read().decode()}") from None
        if isinstance(answer, dict) and "status" in answer and "moves" in answer:
            self.last = answer
        return answer

    def login(self) -> None:
        self.csrf = self.post("/api/login", {"pin": PIN})["csrf"]

    def events(self, *events: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.post("/api/sim/events", {"events": list(events)})
        return answer

    def state(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.get("/api/state")
        return answer

    def new_game(self, rules: str, pegs: dict[str, list[str]]) -> dict[str, Any]:
        state: dict[str, Any] = self.post("/api/games", {"players": 4, "rules": rules, "mode": "table", "pegs": pegs})
        assert state["status"] == "synced" and state["turn"] == 0 and state["moves"] == [], state
        return state

    def power_cut(self) -> dict[str, Any]:
        """SIGKILL, start again on the same data dir, and return the first state it shows."""
        self.kill()
        self.start()
        self.login()
        return self.state()
