"""What the browser tests share: Chromium's path and flags, where screenshots go, the page's
common sizes, a game set up through the API as the page does, the seat links the table PIN
shows, and clicks on holes.

Screenshots go to ``test-artifacts/`` (``shot``).
"""

from __future__ import annotations

import http.cookiejar
import json
import shutil
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.real_daemon import Daemon
from tests.simulated import PIN

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
# Two players, each one peg from home, Red's just behind Yellow's: a bump and a win are a few taps away.
NEARLY_HOME = {"0": ["H0:2", "H0:3", "H0:4", "H0:5", "T3:14"], "2": ["H2:2", "H2:3", "H2:4", "H2:5", "T3:16"]}

__all__ = ["ARTIFACTS", "DESKTOP", "NEARLY_HOME", "PHONE", "PIN", "click_holes", "new_game", "seat_links", "shot"]


def shot(page: Page, name: str, full_page: bool = True) -> None:
    """A screenshot of ``page`` as ``test-artifacts/NAME.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def new_game(daemon: Daemon, body: dict[str, object]) -> Callable[[str, object], dict[str, object]]:
    """Set the game up through the API, logged in with the table PIN, as the page does; gives
    back a way to post more as the table PIN."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    base = f"http://127.0.0.1:{daemon.port}"

    def call(path: str, data: object | None = None, headers: dict[str, str] | None = None) -> dict[str, object]:
        request = urllib.request.Request(
            base + path,
            data=None if data is None else json.dumps(data).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        with opener.open(request, timeout=10) as response:
            answer: dict[str, object] = json.load(response)
        return answer

    call("/api/login", {"pin": PIN})
    token = str(call("/api/me")["csrf"])
    call("/api/games", body, {"X-CSRF-Token": token})
    return lambda path, data: call(path, data, {"X-CSRF-Token": token})


def seat_links(browser: Browser, daemon: Daemon) -> list[dict[str, Any]]:
    """The seat links, as the page shows them once unlocked with the table PIN."""
    admin = browser.new_page()
    admin.goto(f"http://127.0.0.1:{daemon.port}/")
    admin.fill("#pin", PIN)
    admin.press("#pin", "Enter")
    expect(admin.locator("#admin-tools")).to_be_visible()
    links: list[dict[str, Any]] = admin.evaluate("fetch('/api/seats').then((r) => r.json())")
    admin.close()
    return links


def click_holes(page: Page, *holes: str) -> None:
    """Tap each hole of the simulated board and wait until the daemon has answered the tap, as
    a person sees the peg land before pressing Done (a Done clicked at once could overtake the
    tap: the test then failed now and then, the turn left where it was)."""
    for hole in holes:
        with page.expect_response(lambda response: response.request.method == "POST" and "/api/" in response.url):
            page.click(f'[data-hole="{hole}"]', force=True)
