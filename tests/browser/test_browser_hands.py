"""Private hands and the marks of a bot's move, in a real browser (issue 20). The harness (Debian's
chromium, the daemon, setting a game up with the table PIN) is tests/browser/'s.

The rules page's Note on Table Talk: when teaching beginners "possible moves" may be "discussed
by the team", and no cards are given away; the Basic Game: "A player is never forced to play a
joker".
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import ARTIFACTS, PIN, new_game, seat_links
from tests.real_daemon import Daemon


def seat_pages(browser: Browser, daemon: Daemon) -> dict[int, Page]:
    """A phone page joined to each seat, by the links the table PIN shows."""
    phones = {}
    for seat in seat_links(browser, daemon):
        phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        phone.goto(f"http://127.0.0.1:{daemon.port}" + urllib.parse.urlsplit(seat["link"]).path)
        phones[seat["seat"]] = phone
    return phones


def test_a_digital_teaching_game_shows_its_lesson_to_the_seats_team_only(browser: Browser, daemon: Daemon) -> None:
    """The seat to play's phone and its partner's show the hints and each card's moves; the
    shared page and an opponent's phone show neither, and the shared page's Hint is locked."""
    new_game(
        daemon,
        {
            "players": 4,
            "mode": "digital",
            "teaching": True,
            "pegs": {str(s): [f"T{s}:8", "S", "S", "S", "S"] for s in range(4)},
        },
    )
    phones = seat_pages(browser, daemon)
    shared = browser.new_page(viewport={"width": 1280, "height": 900})
    shared.goto(f"http://127.0.0.1:{daemon.port}/")
    expect(shared.locator("#turn")).to_have_text("Red to play")
    for seat in (0, 2):  # Red and its partner Yellow
        expect(phones[seat].locator("#teaching-moves dt").first).to_be_visible()
        expect(phones[seat].locator("#hints li").first).to_be_visible()
    expect(phones[2].locator("#show-hint")).to_be_disabled()  # lighting it is Red's own choice
    for page in (shared, phones[1]):
        expect(page.locator("#hint")).to_be_visible()
        expect(page.locator("#hint")).to_be_disabled()
        expect(page.locator("#teaching")).to_be_hidden()
        expect(page.locator("#hints-box")).to_be_hidden()
    phones[0].screenshot(path=str(ARTIFACTS / "teaching-phone.png"), full_page=True)
    for page in (shared, *phones.values()):
        page.close()


def test_a_hand_whose_only_moving_card_is_a_joker_offers_both(browser: Browser, daemon: Daemon) -> None:
    """The phone lights the joker to play and offers a discard of any other card, saying both."""
    new_game(daemon, {"players": 4, "mode": "digital"})
    phones = seat_pages(browser, daemon)
    phone = phones.pop(0)
    for other in phones.values():
        other.close()
    hand = {
        "seat": 0,
        "hand": ["5", "JOKER", "9", "3", "6", "2"],
        "playable": ["JOKER"],
        "your_turn": True,
        "must_move": False,
        "free_come_out": False,
        "declared": None,
    }
    phone.route("**/api/hand", lambda route: route.fulfill(json=hand))
    phone.reload()
    note = phone.locator("#hand-note")
    expect(note).to_contain_text("Only your Joker can move a peg: play it, or keep it and discard")
    expect(phone.locator('#hand button[aria-label="Play Joker"]')).to_be_enabled()
    five = phone.locator('#hand button[aria-label="Card 5"]')
    expect(five).to_have_attribute("aria-disabled", "true")
    five.click(force=True)  # a greyed card says why it can't be played (aria-disabled, tappable)
    expect(note).to_have_text("No peg can move with 5 now: play Joker.")
    expect(phone.locator('#hand button[aria-label^="Discard"]')).to_have_count(6)
    with phone.expect_request("**/api/discard") as sent:
        phone.click('#hand button[aria-label="Discard 9"]')
    assert json.loads(sent.value.post_data or "{}") == {"card": "9"}
    phone.screenshot(path=str(ARTIFACTS / "joker-only.png"), full_page=True)
    phone.close()


@pytest.mark.parametrize("colour", ["#56b4e9", "#0028ff"])  # a sky-blue bot; a blue one
def test_a_bots_move_is_marked_on_the_board_whatever_its_colour(browser: Browser, daemon: Daemon, colour: str) -> None:
    """Seat 0 is a bot in ``colour`` and must play a 5 (the Basic Game: a 5 moves five) onto
    Blue's peg: the page rings the peg to lift (dashed, ↑) and where it goes (solid, ↓) in black
    and white, whatever the pegs' colours, and dots Blue's way back to start (!)."""
    pegs = {"0": ["T0:10", "S", "S", "S", "S"], "3": ["T0:15", "S", "S", "S", "S"]}
    new_game(
        daemon,
        {
            "players": 4,
            "mode": "table",
            "bots": {"0": "greedy"},
            "pegs": pegs,
            "colours": [colour, *[c for c in ("#56b4e9", "#f0e442", "#0028ff", "#e62800") if c != colour][:3]],
        },
    )
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    page.click('#declare-cards button[aria-label="Declare 5"]')
    expect(page.locator("#bot-plan")).to_contain_text("Lift the peg marked ↑")
    for hole, role, glyph in (("T0:10", "lift", "↑"), ("T0:15", "hint", "↓"), ("S3:5", "bump", "!")):
        mark = page.locator(f'#guides g.mark[data-hole="{hole}"]')
        expect(mark).to_have_attribute("data-mark", role)
        expect(mark.locator("text")).to_have_text(glyph)
        # Web-first assertions, retried: the board is drawn again on every update, and a style
        # read once from a ring just replaced came back empty ('' for rgb(0, 0, 0)).
        expect(mark.locator("circle.under")).to_have_css("stroke", "rgb(0, 0, 0)")
        expect(mark.locator("circle.over")).to_have_css("stroke", re.compile(r"rgb\(255, (255, 255|154, 60)\)"))
    lift = page.locator('#guides g.mark[data-hole="T0:10"] circle.over')
    expect(lift).not_to_have_css("stroke-dasharray", re.compile("^(none|)$"))  # dashed on the peg to lift
    expect(page.locator('#guides g.mark[data-hole="T0:15"] circle.over')).to_have_css("stroke-dasharray", "none")
    expect(page.locator("#lights .swatch.flash")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / f"bot-marks-{colour[1:]}.png"))
    state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))
    assert state["move_marks"] == {"T0:10": "lift", "T0:15": "hint", "S3:5": "bump"}
    page.close()
