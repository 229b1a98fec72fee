"""The page in a real browser: Debian's chromium driven by Playwright, against the real
daemon (``pegs serve --simulate``). A whole short game is played by clicking holes.

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

from playwright.sync_api import Browser, expect

from tests.browser.pages import ARTIFACTS, NEARLY_HOME, PIN, click_holes, new_game, seat_links
from tests.real_daemon import Daemon


def test_a_whole_short_game_by_clicking_holes(browser: Browser, daemon: Daemon) -> None:
    """Two players, most pegs home already: Red bumps Yellow, Yellow comes out, Red goes home."""
    new_game(
        daemon,
        {
            "players": 2,
            "rules": "basic",
            "mode": "table",
            "pegs": NEARLY_HOME,
        },
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    turn = page.locator("#turn")
    expect(turn).to_have_text("Red to play")

    click_holes(page, "T3:16", "S2:1", "T3:14")  # Yellow's peg off to its start, Red's peg lifted
    expect(page.locator('[data-hole="T3:16"]')).to_have_attribute("data-guide", "destination")
    click_holes(page, "T3:16")
    page.click("#done")
    expect(turn).to_have_text("Yellow to play")
    expect(page.locator("#bumps")).to_contain_text("Red bumped Yellow back to start")
    page.screenshot(path=str(ARTIFACTS / "game-1-bump.png"))

    click_holes(page, "S2:1", "T2:8")  # Yellow comes out with an ace or a picture
    page.click("#done")
    expect(turn).to_have_text("Red to play")

    click_holes(page, "T3:16", "H0:1")  # a 6 takes Red's last peg home: Red wins
    page.click("#done")
    expect(turn).to_contain_text("Red wins")
    expect(page.locator("#moves li")).to_have_count(3)
    page.screenshot(path=str(ARTIFACTS / "game-2-win.png"), full_page=True)
    state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))
    assert state["winner"] == [0] and len(state["moves"]) == 3
    page.close()


def test_the_page_is_usable_at_phone_size(browser: Browser, daemon: Daemon) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    expect(page.locator("#turn")).to_have_text("Red to play")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    board = page.locator("svg").first.bounding_box()
    assert board is not None and board["width"] >= 340  # the board fills the width
    page.tap('[data-hole="S0:1"]')
    expect(page.locator('[data-hole="T0:8"]')).to_have_attribute("data-guide", "destination")
    page.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
    page.close()


def test_a_family_presses_done_after_every_move_and_declares_a_bluff(browser: Browser, daemon: Daemon) -> None:
    """The table-session issue, on the page: Done after a settled move confirms it (nobody
    loses a turn), "Can't move" passes deliberately, and at a Bluffing Joker table the move
    counts only once its card is declared on the page (the rules page, Bluffing Joker)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    turn = page.locator("#turn")
    expect(turn).to_have_text("Red to play")  # the page's script is running
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    expect(page.locator("#cant-move")).to_be_enabled()  # unlocked with the table PIN
    click_holes(page, "S0:1", "T0:8")
    expect(turn).to_have_text("Sky blue to play", timeout=5000)  # settled and committed
    page.click("#done")  # the habit: Done after the move anyway
    expect(page.locator("#notice")).to_have_text("Red's move stands.")
    expect(turn).to_have_text("Sky blue to play")
    page.click("#cant-move")
    expect(turn).to_have_text("Yellow to play")
    expect(page.locator("#moves li")).to_have_count(2)  # the move, and the turn Sky blue could not move
    expect(page.locator("#moves li").first).to_have_text("Sky blue could not move")

    new_game(daemon, {"players": 4, "rules": "bluffing-joker", "mode": "table"})
    page.reload()
    expect(page.locator("#declare")).to_be_visible()
    click_holes(page, "S0:1", "T0:8")
    page.click("#done")
    expect(page.locator("#notice")).to_contain_text("declare the card")
    page.click('#declare-cards button[aria-label="Declare A"]')
    expect(page.locator("#status")).to_contain_text("doubt")
    page.screenshot(path=str(ARTIFACTS / "bluff-declared.png"), full_page=True)
    page.close()


def test_a_bot_fills_a_seat_and_a_person_moves_its_pegs(browser: Browser, daemon: Daemon) -> None:
    """Issue 13: any seat of a new game can be a bot; at a real table someone turns up its
    card, the page says the bot's move in words and the LEDs show it; a person makes it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    expect(page.locator("#turn")).to_have_text("Red to play")
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.click("#new-game")
    page.select_option('select.player[data-seat="1"]', "beginner")
    page.click('#new-game-dialog button[value="start"]')
    expect(page.locator("#new-game-dialog")).not_to_be_visible()
    click_holes(page, "S0:1", "T0:8")  # Red comes out
    page.click("#done")
    plan = page.locator("#bot-plan")
    expect(plan).to_contain_text("turn up a card for it")
    page.click('#declare-cards button[aria-label="Declare K"]')
    expect(plan).to_contain_text("plays K")
    expect(page.locator("#leds circle[stroke]").first).to_be_attached()
    click_holes(page, "S1:1", "T1:8")  # the person moves the bot's peg out
    page.click("#done")
    expect(page.locator("#turn")).to_have_text("Yellow to play")
    expect(plan).to_be_hidden()
    page.close()


def test_hints_on_request_and_for_everyone_in_a_teaching_game(browser: Browser, daemon: Daemon) -> None:
    """Issue 13: a Hint button for the seat to play; a teaching game shows hints and each
    card's moves in words to everyone (the rules page, Note on Table Talk)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    expect(page.locator("#turn")).to_have_text("Red to play")
    expect(page.locator("#hints-box")).to_be_hidden()  # a serious game: none unless asked
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.click("#hint")
    expect(page.locator("#hints li").first).to_contain_text("Red comes out")
    page.click("#new-game")
    page.check("#ng-teaching")
    page.click('#new-game-dialog button[value="start"]')
    viewer = browser.new_page(viewport={"width": 390, "height": 844})
    viewer.goto(f"http://127.0.0.1:{daemon.port}/")  # no PIN: anyone at the table
    expect(viewer.locator("#hints li").first).to_contain_text("Red comes out")
    expect(viewer.locator("#teaching-moves")).to_contain_text("Red comes out with an ace")
    viewer.close()
    page.close()


def test_on_a_phone_the_seat_to_play_sees_its_cards_first(browser: Browser, daemon: Daemon) -> None:
    """Issue 13: "on a phone the only playable card can sit below the fold"."""
    new_game(daemon, {"players": 4, "mode": "digital"})
    links = seat_links(browser, daemon)
    turn = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))["turn"]
    link = next(seat["link"] for seat in links if seat["seat"] == turn)
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"http://127.0.0.1:{daemon.port}" + urllib.parse.urlsplit(link).path)
    expect(phone.locator("#hand button").first).to_be_visible()
    hand, board = phone.locator("#hand-box").bounding_box(), phone.locator("#board-wrap").bounding_box()
    assert hand is not None and board is not None and hand["y"] < board["y"]
    assert hand["y"] + hand["height"] < 844  # within the first screen
    phone.close()


def test_a_finished_teaching_game_with_a_bot_seat_opens_its_review(browser: Browser, daemon: Daemon) -> None:
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
            "pegs": NEARLY_HOME,
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
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(f"http://127.0.0.1:{daemon.port}/games/{state['game']}")
    page.click("text=Review this game")
    moves = page.locator("#moves li")
    expect(moves).to_have_count(3)  # after the progress bar, if the review was still being made
    expect(moves.first).to_contain_text("Red moves 2 to Yellow's peg and sends Yellow's peg back to start")
    expect(moves.first).to_contain_text("the best move with that card")
    expect(page.locator("#seats")).to_contain_text("Red made 2 moves")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # a phone reads it without scrolling sideways
    page.screenshot(path=str(ARTIFACTS / "review.png"), full_page=True)
    page.close()
