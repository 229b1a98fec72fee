"""The page under its Content-Security-Policy in a real browser (issue "Hardening, second
round", item 6): Debian's chromium against the real daemon, with the harness of
tests/browser/ (conftest.py, pages.py). Nothing is refused (no violation reported, nothing in the console),
the styles that moved from attributes into the page's own ``<style>`` still apply, and a
move is still made by clicking holes.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import NEARLY_HOME, PIN, click_holes, new_game
from tests.real_daemon import Daemon

LISTEN = """window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});"""


def watched(browser: Browser, **options: Any) -> tuple[Page, list[str]]:
    """A new page whose console errors, uncaught errors and CSP violations are kept."""
    page = browser.new_page(**options)
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning") or "Content Security Policy" in message.text
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    page.add_init_script(LISTEN)
    return page, problems


def violations(page: Page) -> list[str]:
    return list(page.evaluate("window.__violations"))


def test_the_page_runs_under_its_policy_and_a_move_is_made_by_clicking(browser: Browser, daemon: Daemon) -> None:
    new_game(
        daemon,
        {
            "players": 2,
            "rules": "basic",
            "mode": "table",
            "pegs": NEARLY_HOME,
        },
    )
    page, problems = watched(browser, viewport={"width": 1280, "height": 900})
    response = page.goto(f"http://127.0.0.1:{daemon.port}/")
    assert response is not None and "'nonce-" in response.headers["content-security-policy"]
    turn = page.locator("#turn")
    expect(turn).to_have_text("Red to play")
    # the board's zoom, its labels' size and the legend's colours: from the page's <style> now
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#board-wrap')).getPropertyValue('--zoom').trim()")
        == "2"
    )
    assert page.evaluate("getComputedStyle(document.querySelector('.seat-label')).fontSize") == "8px"
    swatches = page.evaluate(
        "[...document.querySelectorAll('#lights .swatch')].map((s) => getComputedStyle(s).backgroundColor)"
    )
    assert len(swatches) >= 5 and all(colour not in ("", "rgba(0, 0, 0, 0)") for colour in swatches), swatches

    # a hole under the pointer in referee/words.py's words (GET /api/holes, fetched under the policy too)
    page.hover('[data-hole="H0:2"]', force=True)
    expect(page.locator("#hover")).to_have_text("Red's home, 2nd hole (H0:2)")
    page.hover('[data-hole="T3:14"]', force=True)  # seat 3 plays no part: its side by its colour
    expect(page.locator("#hover")).to_have_text("the 14th hole past Blue's corner (T3:14)")

    click_holes(page, "T3:16", "S2:1", "T3:14")  # Red bumps Yellow: the move of test_browser's short game
    expect(page.locator('[data-hole="T3:16"]')).to_have_attribute("data-guide", "destination")
    click_holes(page, "T3:16")
    page.click("#done")
    expect(turn).to_have_text("Yellow to play")
    expect(page.locator("#bumps")).to_contain_text("Red bumped Yellow back to start")

    page.fill("#pin", PIN)  # the seat links' QR codes: SVG put in by the page's script
    page.press("#pin", "Enter")
    expect(page.locator("#admin-tools")).to_be_visible()
    page.click("#seat-links")
    expect(page.locator("#seat-list .qr svg")).to_have_count(2)
    link = page.locator("#seat-list a").first.get_attribute("href")
    assert link is not None
    assert violations(page) == [] and problems == [], (violations(page), problems)
    page.close()

    phone, problems = watched(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"http://127.0.0.1:{daemon.port}" + urllib.parse.urlsplit(link).path)
    expect(phone.locator("#turn")).to_have_text("Yellow to play")
    phone.click("#zoom")  # a phone zooms the board by the page's --zoom: twice as wide on four sides
    expect(phone.locator("#zoom")).to_have_attribute("aria-pressed", "true")
    widths = phone.evaluate(
        "[document.querySelector('#board').getBoundingClientRect().width, document.querySelector('#board-wrap').clientWidth]"
    )
    assert abs(widths[0] - 2 * widths[1]) < 2, widths
    assert violations(phone) == [] and problems == [], (violations(phone), problems)
    phone.close()


def test_the_other_pages_run_under_the_policy(browser: Browser, daemon: Daemon) -> None:
    """The past games, a game's moves and a refused seat link: each with its own <style>."""
    for path in ("/games", "/games/1", "/join/0/not-a-token"):
        page, problems = watched(browser)
        page.goto(f"http://127.0.0.1:{daemon.port}{path}")
        assert page.evaluate("getComputedStyle(document.body).maxWidth") != "none", path  # its <style> applied
        refused = "the server responded with a status of 403"  # the seat link's own answer, as meant
        problems = [problem for problem in problems if not (path.startswith("/join/") and refused in problem)]
        assert violations(page) == [] and problems == [], (path, violations(page), problems)
        page.close()
