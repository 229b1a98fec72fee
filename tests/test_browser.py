"""The page in a real browser: Debian's chromium driven by Playwright, against the real
daemon (``pegs serve --simulate``). A whole short game is played by clicking holes.

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import http.cookiejar
import json
import shutil
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_daemon import Daemon

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PIN = "1357"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: scripts/ensure-chromium.sh installs it")
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    running = Daemon(tmp_path, extra=["--pin", PIN])
    running.start()
    yield running
    running.stop()


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
            return json.load(response)  # type: ignore[no-any-return]

    call("/api/login", {"pin": PIN})
    token = str(call("/api/me")["csrf"])
    call("/api/games", body, {"X-CSRF-Token": token})
    return lambda path, data: call(path, data, {"X-CSRF-Token": token})


def seat_links(browser: object, daemon: Daemon) -> list[dict[str, Any]]:
    """The seat links, as the page shows them once unlocked with the table PIN."""
    admin = browser.new_page()  # type: ignore[attr-defined]
    admin.goto(f"http://127.0.0.1:{daemon.port}/")
    admin.fill("#pin", PIN)
    admin.press("#pin", "Enter")
    playwright.expect(admin.locator("#admin-tools")).to_be_visible()
    links: list[dict[str, Any]] = admin.evaluate("fetch('/api/seats').then((r) => r.json())")
    admin.close()
    return links


def click_holes(page: object, *holes: str) -> None:
    for hole in holes:
        page.click(f'[data-hole="{hole}"]', force=True)  # type: ignore[attr-defined]
        page.wait_for_function(  # type: ignore[attr-defined]
            "hole => document.querySelector(`[data-hole='${hole}']`) !== null", arg=hole
        )


def test_a_whole_short_game_by_clicking_holes(browser: object, daemon: Daemon) -> None:
    """Two players, most pegs home already: Red bumps Yellow, Yellow comes out, Red goes home."""
    new_game(
        daemon,
        {
            "players": 2,
            "rules": "basic",
            "mode": "table",
            "pegs": {"0": ["H0:2", "H0:3", "H0:4", "H0:5", "T3:14"], "2": ["H2:2", "H2:3", "H2:4", "H2:5", "T3:16"]},
        },
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    turn = page.locator("#turn")
    playwright.expect(turn).to_have_text("Red to play")

    click_holes(page, "T3:16", "S2:1", "T3:14")  # Yellow's peg off to its start, Red's peg lifted
    playwright.expect(page.locator('[data-hole="T3:16"]')).to_have_attribute("data-guide", "destination")
    click_holes(page, "T3:16")
    page.click("#done")
    playwright.expect(turn).to_have_text("Yellow to play")
    playwright.expect(page.locator("#bumps")).to_contain_text("Red bumped Yellow back to start")
    page.screenshot(path=str(ARTIFACTS / "game-1-bump.png"))

    click_holes(page, "S2:1", "T2:8")  # Yellow comes out with an ace or a picture
    page.click("#done")
    playwright.expect(turn).to_have_text("Red to play")

    click_holes(page, "T3:16", "H0:1")  # a 6 takes Red's last peg home: Red wins
    page.click("#done")
    playwright.expect(turn).to_contain_text("Red wins")
    playwright.expect(page.locator("#moves li")).to_have_count(3)
    page.screenshot(path=str(ARTIFACTS / "game-2-win.png"), full_page=True)
    state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))
    assert state["winner"] == [0] and len(state["moves"]) == 3
    page.close()


def test_the_page_is_usable_at_phone_size(browser: object, daemon: Daemon) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    playwright.expect(page.locator("#turn")).to_have_text("Red to play")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    board = page.locator("svg").first.bounding_box()
    assert board is not None and board["width"] >= 340  # the board fills the width
    page.tap('[data-hole="S0:1"]')
    playwright.expect(page.locator('[data-hole="T0:8"]')).to_have_attribute("data-guide", "destination")
    page.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
    page.close()


def test_a_family_presses_done_after_every_move_and_declares_a_bluff(browser: object, daemon: Daemon) -> None:
    """The table-session issue, on the page: Done after a settled move confirms it (nobody
    loses a turn), "Can't move" passes deliberately, and at a Bluffing Joker table the move
    counts only once its card is declared on the page (the rules page, Bluffing Joker)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    turn = page.locator("#turn")
    playwright.expect(turn).to_have_text("Red to play")  # the page's script is running
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    playwright.expect(page.locator("#cant-move")).to_be_enabled()  # unlocked with the table PIN
    click_holes(page, "S0:1", "T0:8")
    playwright.expect(turn).to_have_text("Sky blue to play", timeout=5000)  # settled and committed
    page.click("#done")  # the habit: Done after the move anyway
    playwright.expect(page.locator("#notice")).to_have_text("Red's move stands.")
    playwright.expect(turn).to_have_text("Sky blue to play")
    page.click("#cant-move")
    playwright.expect(turn).to_have_text("Yellow to play")
    playwright.expect(page.locator("#moves li")).to_have_count(2)  # the move, and the turn Sky blue could not move
    playwright.expect(page.locator("#moves li").first).to_have_text("Sky blue could not move")

    new_game(daemon, {"players": 4, "rules": "bluffing-joker", "mode": "table"})
    page.reload()
    playwright.expect(page.locator("#declare")).to_be_visible()
    click_holes(page, "S0:1", "T0:8")
    page.click("#done")
    playwright.expect(page.locator("#notice")).to_contain_text("declare the card")
    page.click('#declare-cards button[aria-label="Declare A"]')
    playwright.expect(page.locator("#status")).to_contain_text("doubt")
    page.screenshot(path=str(ARTIFACTS / "bluff-declared.png"), full_page=True)
    page.close()


def test_a_bot_fills_a_seat_and_a_person_moves_its_pegs(browser: object, daemon: Daemon) -> None:
    """Issue 13: any seat of a new game can be a bot; at a real table someone turns up its
    card, the page says the bot's move in words and the LEDs show it; a person makes it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    playwright.expect(page.locator("#turn")).to_have_text("Red to play")
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.click("#new-game")
    page.select_option('select.player[data-seat="1"]', "beginner")
    page.click('#new-game-dialog button[value="start"]')
    playwright.expect(page.locator("#new-game-dialog")).not_to_be_visible()
    click_holes(page, "S0:1", "T0:8")  # Red comes out
    page.click("#done")
    plan = page.locator("#bot-plan")
    playwright.expect(plan).to_contain_text("turn up a card for it")
    page.click('#declare-cards button[aria-label="Declare K"]')
    playwright.expect(plan).to_contain_text("plays K")
    playwright.expect(page.locator("#leds circle[stroke]").first).to_be_attached()
    click_holes(page, "S1:1", "T1:8")  # the person moves the bot's peg out
    page.click("#done")
    playwright.expect(page.locator("#turn")).to_have_text("Yellow to play")
    playwright.expect(plan).to_be_hidden()
    page.close()


def test_hints_on_request_and_for_everyone_in_a_teaching_game(browser: object, daemon: Daemon) -> None:
    """Issue 13: a Hint button for the seat to play; a teaching game shows hints and each
    card's moves in words to everyone (the rules page, Note on Table Talk)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    playwright.expect(page.locator("#turn")).to_have_text("Red to play")
    playwright.expect(page.locator("#hints-box")).to_be_hidden()  # a serious game: none unless asked
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.click("#hint")
    playwright.expect(page.locator("#hints li").first).to_contain_text("Red comes out")
    page.click("#new-game")
    page.check("#ng-teaching")
    page.click('#new-game-dialog button[value="start"]')
    viewer = browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    viewer.goto(f"http://127.0.0.1:{daemon.port}/")  # no PIN: anyone at the table
    playwright.expect(viewer.locator("#hints li").first).to_contain_text("Red comes out")
    playwright.expect(viewer.locator("#teaching-moves")).to_contain_text("Red comes out with an ace")
    viewer.close()
    page.close()


def test_on_a_phone_the_seat_to_play_sees_its_cards_first(browser: object, daemon: Daemon) -> None:
    """Issue 13: "on a phone the only playable card can sit below the fold"."""
    new_game(daemon, {"players": 4, "mode": "digital"})
    links = seat_links(browser, daemon)
    turn = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))["turn"]
    link = next(seat["link"] for seat in links if seat["seat"] == turn)
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    phone.goto(f"http://127.0.0.1:{daemon.port}" + urllib.parse.urlsplit(link).path)
    playwright.expect(phone.locator("#hand button").first).to_be_visible()
    hand, board = phone.locator("#hand-box").bounding_box(), phone.locator("#board-wrap").bounding_box()
    assert hand is not None and board is not None and hand["y"] < board["y"]
    assert hand["y"] + hand["height"] < 844  # within the first screen
    phone.close()


def test_a_finished_teaching_game_with_a_bot_seat_opens_its_review(browser: object, daemon: Daemon) -> None:
    """Issue 20: "The browser test plays a teaching game with a bot seat and opens its review."
    Two players at a real table, Yellow a bot: each card played is declared, so the review
    judges every move against the best that card allowed."""
    post = new_game(
        daemon,
        {
            "players": 2,
            "rules": "basic",
            "mode": "table",
            "teaching": True,
            "bots": {"2": "greedy"},
            "pegs": {"0": ["H0:2", "H0:3", "H0:4", "H0:5", "T3:14"], "2": ["H2:2", "H2:3", "H2:4", "H2:5", "T3:16"]},
        },
    )
    for card, events in (
        ("2", ["lift T3:16", "place S2:1", "lift T3:14", "place T3:16", "done"]),  # Red bumps Yellow
        ("A", ["lift S2:1", "place T2:8", "done"]),  # the bot's card turned up; a person moves
        ("6", ["lift T3:16", "place H0:1", "done"]),
    ):  # Red's last peg home: Red wins
        post("/api/declare", {"card": card})
        post("/api/sim/events", {"events": events})
    state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))
    assert state["winner"] == [0]
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)  # type: ignore[attr-defined]
    page.goto(f"http://127.0.0.1:{daemon.port}/games/{state['game']}")
    page.click("text=Review this game")
    moves = page.locator("#moves li")
    playwright.expect(moves).to_have_count(3)  # after the progress bar, if the review was still being made
    playwright.expect(moves.first).to_contain_text("Red moves 2 to Yellow's peg and sends Yellow's peg back to start")
    playwright.expect(moves.first).to_contain_text("the best move with that card")
    playwright.expect(page.locator("#seats")).to_contain_text("Red made 2 moves")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # a phone reads it without scrolling sideways
    page.screenshot(path=str(ARTIFACTS / "review.png"), full_page=True)
    page.close()
