"""What the page says through a real game, in Debian's chromium at phone and desktop sizes
(issue 33, "At the table, third round"): the live stream through a quiet table, new games of
another size, the words of the record. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.pages import DESKTOP, PHONE, PIN, click_holes, new_game, shot
from tests.real_daemon import Daemon


def open_page(browser: Browser, daemon: Daemon, viewport: ViewportSize = DESKTOP, clock: bool = False) -> Page:
    page = browser.new_page(viewport=viewport)
    if clock:
        page.clock.install()
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    expect(page.locator("#turn")).not_to_have_text("Pegs and Jokers")  # the state is in: taps count
    return page


def test_a_quiet_table_stays_live(browser: Browser, daemon: Daemon) -> None:
    """People think for minutes: the page stays on the live stream (its watchdog fires only
    after 40 s without a word from the daemon, and the daemon's heartbeat must reach it)."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table"})
    page = open_page(browser, daemon, clock=True)
    connection = page.locator("#conn")
    expect(connection).to_have_text("Live")
    for _ in range(4):  # two quiet minutes on the page's clock, a real second between
        page.clock.fast_forward(30_000)
        page.wait_for_timeout(1500)
    expect(connection).to_have_text("Live")


def test_new_games_of_other_sizes_redraw_the_board(browser: Browser, daemon: Daemon) -> None:
    """Three new games within seconds, 4, 6 then 4 players: the page draws each one's board
    (a 6-sided board left drawn for a 4-player game answers taps with holes it doesn't have)."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table"})
    page = open_page(browser, daemon)
    sixth_side = page.locator('[data-hole="T5:3"]')
    expect(sixth_side).to_have_count(0)
    new_game(daemon, {"players": 6, "rules": "basic", "mode": "table"})
    expect(sixth_side).to_have_count(1)
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table"})
    expect(sixth_side).to_have_count(0)
    expect(page.locator("#turn")).to_have_text("Red to play")


def unlock(page: Page) -> None:
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    expect(page.locator("#admin-tools")).to_be_visible()


def test_new_game_refuses_two_seats_alike(browser: Browser, daemon: Daemon) -> None:
    """Two seats named "Mum", or two in one colour, can't be told apart ("Mum bumped Mum back
    to start"): the dialog says so and no game starts."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table"})
    page = open_page(browser, daemon)
    unlock(page)
    game = page.evaluate("fetch('/api/state').then((r) => r.json()).then((s) => s.game)")
    page.click("#new-game")
    page.fill("#ng-name-0", "Mum")
    page.fill("#ng-name-2", " mum ")
    page.click('#new-game-form button[value="start"]')
    expect(page.locator("#ng-error")).to_contain_text("seats 1 and 3 have the same name")
    page.fill("#ng-name-2", "Dad")
    page.locator('#ng-seats input[type="color"]').nth(3).evaluate(
        "(input, colour) => { input.value = colour; }",
        page.locator('#ng-seats input[type="color"]').nth(0).input_value(),
    )
    page.click('#new-game-form button[value="start"]')
    expect(page.locator("#ng-error")).to_contain_text("seats 1 and 4 have the same colour")
    assert page.evaluate("fetch('/api/state').then((r) => r.json()).then((s) => s.game)") == game


def test_a_caught_bluff_is_told(browser: Browser, daemon: Daemon) -> None:
    """The rules page, Bluffing Joker: "If a bluff is doubted successfully ... If the bluffing
    player has no pegs out of start yet, the player that doubted successfully has the option to
    take an extra turn". Red declares a king, Sky blue doubts, a 5 is turned up: the page says
    so, the last card is the 5, and the board goes back without blaming Sky blue."""
    new_game(daemon, {"players": 4, "rules": "bluffing-joker", "mode": "table"})
    page = open_page(browser, daemon)
    unlock(page)
    click_holes(page, "S0:1", "T0:8")  # Red comes out
    page.click("#done")
    page.click('#declare-cards button[aria-label="Declare K"]')
    page.get_by_role("button", name="Doubt it").click()
    page.get_by_role("button", name="5", exact=True).click()
    caught = "Sky blue doubted Red's king: it was a 5, a bluff. The move does not count."
    expect(page.locator("#moves li").first).to_contain_text(caught)
    expect(page.locator("#moves li").first).to_contain_text("Sky blue may take an extra turn")
    expect(page.locator("#last-card")).to_have_text("5 — Red (declared K)")
    status = page.locator("#status")
    expect(status).to_contain_text(caught)
    expect(status).not_to_contain_text("before Sky blue's move")
    expect(status).not_to_contain_text("can't move")
    shot(page, "bluff-caught")
    click_holes(page, "T0:8", "S0:1")  # Red's peg goes back
    expect(page.locator("#turn")).to_have_text("Sky blue to play")
    expect(status).to_have_text("Lift a peg to begin the move")


def test_done_after_a_move_with_a_bot_next(browser: Browser, daemon: Daemon) -> None:
    """The habit of pressing Done after every move: with a bot to play next, Done after Red's
    move (taken already, the board settled) says it stands, never "Nothing has moved"."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "bots": {"1": "beginner"}})
    page = open_page(browser, daemon)
    unlock(page)
    click_holes(page, "S0:1", "T0:8")  # Red comes out
    expect(page.locator("#turn")).to_have_text("Sky blue to play", timeout=5000)
    page.click("#done")
    expect(page.locator("#notice")).to_have_text("Red's move stands.")
    page.click("#done")  # and again, as people do
    expect(page.locator("#notice")).to_have_text(
        "Sky blue is a bot: turn up a card for it and tap that card on the page."
    )


def test_a_bots_move_reads_whole_on_a_phone(browser: Browser, daemon: Daemon) -> None:
    """A phone's header is one line per item, cut short; whoever carries out a bot's move must
    read it whole: it is said again under the board, nothing cut off."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "bots": {"0": "greedy"}})
    page = open_page(browser, daemon, PHONE)
    unlock(page)
    page.click('#declare-cards button[aria-label="Declare K"]')
    whole = page.locator("#bot-move")
    expect(whole).to_be_visible()
    expect(whole).to_contain_text("Red (greedy bot) plays K: Red comes out with a king. Lift the peg")
    assert whole.evaluate("p => p.scrollWidth <= p.clientWidth && p.getBoundingClientRect().right <= innerWidth")
    shot(page, "phone-bot-move")
    desktop = open_page(browser, daemon, DESKTOP)
    expect(desktop.locator("#bot-plan")).to_be_visible()
    expect(desktop.locator("#bot-move")).to_be_hidden()  # the header has room for it there


HOUSE = """base = "arizona"
name = "Grandma's rules"
hand_size = 6

[cards.10]
forward = [10]
backward = [1]
"""


def test_house_rules_say_what_the_file_says(browser: Browser, daemon: Daemon, tmp_path: Path) -> None:
    """The README's house rules on Arizona ("Play then draw (5 cards)") with 6 cards in hand:
    the dialog says the file is used once it is chosen, and the rules panel's summary agrees
    with the file; preset names read as the rules page titles them ("North Carolina")."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table"})
    page = open_page(browser, daemon)
    unlock(page)
    page.click("#new-game")
    expect(page.locator("#ng-rules option[value='north-carolina']")).to_have_text("North Carolina")
    file = tmp_path / "grandma.toml"
    file.write_text(HOUSE)
    page.set_input_files("#ng-house", str(file))
    expect(page.locator("#ng-rules-summary")).to_contain_text("House rules from grandma.toml")
    page.click('#new-game-form button[value="start"]')
    expect(page.locator("#new-game-dialog")).to_be_hidden()
    page.click("#rules summary")  # the rules panel, opened
    rules = page.locator("#rules")
    expect(rules).to_contain_text("Arizona, with: 6 cards in hand; 10: 10 forward, 1 back.")
    expect(rules).not_to_contain_text("5 cards")
    expect(page.locator("#rules-name")).to_have_text("Grandma's rules")


def fits(page: Page, selector: str) -> bool:
    return bool(page.evaluate(f"document.querySelector({selector!r}).scrollWidth <= innerWidth"))


def test_a_phone_reaches_everything_without_scrolling_sideways(browser: Browser, daemon: Daemon) -> None:
    """At 390 px: a wrong PIN is said beside the PIN box (a toast would cover it), New game's
    person-or-bot choice of every seat is on screen, Past games shows its Review links, and the
    board's place names are not drawn 5 px tall (they come with Zoom board)."""
    new_game(daemon, {"players": 6, "rules": "basic", "mode": "table"})
    page = open_page(browser, daemon, PHONE)
    page.fill("#pin", "0000")
    page.press("#pin", "Enter")
    expect(page.locator("#pin-error")).to_contain_text("wrong PIN")
    expect(page.locator("#toast")).to_be_hidden()
    unlock(page)
    expect(page.locator("#pin-error")).to_be_hidden()
    names = page.locator(".place-name").first
    assert names.bounding_box() is None  # not drawn unzoomed
    page.click("#zoom")
    assert (names.bounding_box() or {"height": 0})["height"] >= 8
    shot(page, "phone-zoomed")
    page.click("#zoom")
    page.click("#new-game")
    for select in page.locator("#ng-seats select.player").all():
        box = select.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate("(d => d.scrollWidth <= d.clientWidth)(document.querySelector('#new-game-dialog'))")
    shot(page, "phone-new-game")
    page.goto(f"http://127.0.0.1:{daemon.port}/games")
    assert fits(page, "html")
    expect(page.locator("td[data-label='Review']").first).to_be_in_viewport()
    shot(page, "phone-past-games")


def test_the_hover_line_follows_the_board(browser: Browser, daemon: Daemon) -> None:
    """The line under the board says what the hole under the pointer is now: once Red's peg
    is placed and the move taken, its hole no longer reads "may go here"."""
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table"})
    page = open_page(browser, daemon)
    click_holes(page, "S0:1")
    page.hover('[data-hole="T0:8"]', force=True)
    hover = page.locator("#hover")
    expect(hover).to_have_text("Red's come-out hole (T0:8): may go here")
    page.click('[data-hole="T0:8"]', force=True)
    expect(page.locator("#turn")).to_have_text("Sky blue to play", timeout=5000)
    expect(hover).to_have_text("Red's come-out hole (T0:8)")


def test_half_a_split_reads_as_a_move_on_its_way(browser: Browser, daemon: Daemon) -> None:
    """The rules page, Basic Game: a 7 may be split between two pegs. Red's 4 past her own peg
    is the first half of 3 and 4: the page says what is left and lights where it goes, never
    "Not a legal move", and the second half makes it the seven (issue 33 #1, #3)."""
    new_game(
        daemon, {"players": 4, "rules": "basic", "mode": "table", "pegs": {"0": ["T0:12", "T0:14", "S", "S", "S"]}}
    )
    page = open_page(browser, daemon, PHONE)
    click_holes(page, "T0:12", "T0:16")
    status = page.locator("#status")
    expect(status).to_have_text("Red: 3 more of the 7")
    expect(page.locator("#turn")).to_have_text("Red is finishing a split")
    expect(page.locator('[data-hole="T0:17"]')).to_have_attribute("data-guide", "destination")
    expect(page.locator('[data-hole="T0:16"]')).to_have_class("peg s0")  # Red's, not a stray
    page.wait_for_timeout(1500)  # a pause to think commits nothing
    expect(status).to_have_text("Red: 3 more of the 7")
    assert "Not a legal move" not in (page.locator("#why").text_content() or "")
    shot(page, "phone-half-a-split")
    click_holes(page, "T0:14", "T0:17")
    expect(page.locator("#turn")).to_have_text("Sky blue to play", timeout=5000)
    expect(page.locator("#moves li").first).to_contain_text("Red splits the 7")


def test_a_peg_to_bump_is_lit_and_a_refusal_says_why(browser: Browser, daemon: Daemon) -> None:
    """The rules page, Basic Game: landing on another player's peg sends it back to start, so
    lifting Red's peg lights Blue's peg a 5 reaches as "may go here"; and a peg moved 11 holes,
    which no card does, is refused with that reason, not a bare "Not a legal move" (issue 33 #2, #4)."""
    pegs = {"0": ["T0:8", "S", "S", "S", "S"], "3": ["T0:13", "S", "S", "S", "S"]}
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "pegs": pegs})
    page = open_page(browser, daemon)
    click_holes(page, "T0:8")
    expect(page.locator('[data-hole="T0:13"]')).to_have_attribute("data-guide", "destination")
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "pegs": {"0": ["T0:9", "S", "S", "S", "S"]}})
    expect(page.locator('[data-hole="T0:13"]')).not_to_have_attribute("data-guide", "destination")
    click_holes(page, "T0:9", "T1:2")
    expect(page.locator("#status")).to_contain_text("No card moves a peg 11 holes")
