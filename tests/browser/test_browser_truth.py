"""The page tells the truth in every corner, and reads well on a phone: in a real browser
(Debian's chromium, the real daemon; the harness is tests/browser/'s), at desk size
(1280x900) and phone size (390x844). Screenshots go to ``test-artifacts/truth-*.png``.

The rules page is cited for the reasons: Movement of pegs - general rules ("You may never
land on or pass over a hole occupied by one of your own pegs"; each player moves her own
pegs), Endgame (a partner's pegs once yours are home).
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.pages import DESKTOP, PHONE, PIN, click_holes, new_game, seat_links, shot
from tests.real_daemon import Daemon

SIZES: dict[str, ViewportSize] = {"desk": DESKTOP, "phone": PHONE}
RED_FIRST = {
    "0": ["T0:10", "T0:4", "T0:11", "S", "S"],
    "1": ["T1:3", "S", "S", "S", "S"],
    "2": ["T2:3", "S", "S", "S", "S"],
    "3": ["T3:3", "S", "S", "S", "S"],
}


def open_page(browser: Browser, daemon: Daemon, size: str, path: str = "/") -> Page:
    phone = size == "phone"
    page = browser.new_page(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page.goto(f"http://127.0.0.1:{daemon.port}{path}")
    expect(page.locator("#turn")).not_to_have_text("Pegs and Jokers")  # the page's script has the state: taps count
    return page


def log_in(page: Page) -> None:
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    expect(page.locator("#admin-tools")).to_be_visible()


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return {"x": found["x"], "y": found["y"], "width": found["width"], "height": found["height"]}


def overlaps(a: Mapping[str, float], b: Mapping[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def check_layout(page: Page, size: str) -> None:
    """On a phone the banner stays short and scrolls away rather than covering the board; the
    whole refusal is readable under the board."""
    if size != "phone":
        return
    assert box(page, "#top")["height"] <= 90, box(page, "#top")
    assert page.evaluate("getComputedStyle(document.querySelector('#top')).position") != "sticky"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    why = box(page, "#why")
    assert why["y"] >= box(page, "#board")["y"] + box(page, "#board")["height"] - 1  # below the board, not over it
    page.evaluate("window.scrollTo(0, 400)")
    top = box(page, "#top")
    assert top["y"] + top["height"] <= 0 or not overlaps(top, box(page, "#board"))
    page.evaluate("window.scrollTo(0, 0)")


def status_text(page: Page) -> str:
    return str(page.locator("#status").inner_text())


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_moving_another_colours_peg_says_why(browser: Browser, daemon: Daemon, size: str) -> None:
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "pegs": RED_FIRST})
    page = open_page(browser, daemon, size)
    expect(page.locator("#turn")).to_have_text("Red to play")
    click_holes(page, "T1:3", "T1:5")  # Red moves Sky blue's peg
    expect(page.locator("#status")).to_contain_text("Red can't move Sky blue's peg")
    assert "Movement of pegs - general rules" in status_text(page)
    assert ").:" not in status_text(page) and ").:" not in page.locator("body").inner_text()
    expect(page.locator("#fixes")).to_contain_text("Sky blue")
    if size == "phone":
        expect(page.locator("#why")).to_be_visible()
        expect(page.locator("#why")).to_contain_text("Red can't move Sky blue's peg")
    shot(page, f"truth-other-colour-{size}", full_page=False)
    check_layout(page, size)
    page.close()


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_passing_your_own_peg_with_no_card_named_says_why(browser: Browser, daemon: Daemon, size: str) -> None:
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "pegs": RED_FIRST})
    page = open_page(browser, daemon, size)
    expect(page.locator("#turn")).to_have_text("Red to play")
    click_holes(page, "T0:4", "T0:13")  # past Red's own peg on T0:10 and T0:11
    expect(page.locator("#status")).to_contain_text("You can't pass your own peg")
    assert "is moving" not in status_text(page)
    expect(page.locator('[data-hole="T0:13"]')).to_have_attribute("data-guide", "wrong")  # no split invited
    expect(page.locator('[data-hole="T0:4"]')).to_have_attribute("data-guide", "put-back")
    expect(page.locator('[data-guide="destination"]')).to_have_count(0)
    page.click("#done")
    expect(page.locator("#notice")).to_contain_text("You can't pass your own peg")
    assert "not finished yet" not in page.locator("body").inner_text()
    shot(page, f"truth-own-peg-{size}", full_page=False)
    check_layout(page, size)
    page.close()


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_after_undo_the_page_says_put_the_board_back(browser: Browser, daemon: Daemon, size: str) -> None:
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "table", "pegs": RED_FIRST})
    page = open_page(browser, daemon, size)
    log_in(page)
    click_holes(page, "T0:11", "T0:16")  # a 5
    page.click("#done")
    expect(page.locator("#turn")).to_have_text("Sky blue to play")
    page.click("#undo")
    expect(page.locator("#status")).to_contain_text("Put the board back as before Red's move")
    expect(page.locator("#notice")).to_contain_text("Put the board back as before Red's move")
    page.click("#done")
    expect(page.locator("#notice")).to_contain_text("Put the board back as before Red's move")
    body = page.locator("body").inner_text().lower()
    assert "not a legal move" not in body
    shot(page, f"truth-undo-{size}", full_page=False)
    click_holes(page, "T0:16", "T0:11")
    expect(page.locator("#status")).not_to_contain_text("Put the board back")
    page.close()


def test_after_a_win_the_page_never_says_cant_move(browser: Browser, daemon: Daemon) -> None:
    new_game(
        daemon,
        {
            "players": 2,
            "rules": "basic",
            "mode": "table",
            "pegs": {"0": ["H0:2", "H0:3", "H0:4", "H0:5", "T3:16"], "2": ["H2:2", "H2:3", "H2:4", "H2:5", "T3:10"]},
        },
    )
    page = open_page(browser, daemon, "phone")
    click_holes(page, "T3:16", "H0:1")
    page.click("#done")
    expect(page.locator("#turn")).to_contain_text("Red wins")
    page.fill("#sim-events", "done")  # Done pressed on the board after the win
    page.press("#sim-events", "Enter")
    expect(page.locator("#why")).to_contain_text("The game is over")
    for text in ("Can't move", "Can’t move", "can't move"):
        assert text not in page.locator("body").inner_text()
    shot(page, "truth-win", full_page=False)
    page.close()


def test_a_phone_on_a_finished_games_seat_link_is_told_live(browser: Browser, daemon: Daemon) -> None:
    new_game(daemon, {"players": 4, "mode": "digital"})
    link = next(seat for seat in seat_links(browser, daemon) if seat["seat"] == 1)
    phone = open_page(browser, daemon, "phone", urllib.parse.urlsplit(link["link"]).path)
    expect(phone.locator("#whoami")).to_contain_text("This phone plays Sky blue")
    assert box(phone, "#top")["height"] <= 90  # the banner, with the seat's line, stays short
    expect(phone.locator("#game-ended")).to_be_hidden()
    new_game(daemon, {"players": 4, "mode": "digital"})  # the table starts another game: no reload here
    ended = phone.locator("#game-ended")
    expect(ended).to_be_visible()
    expect(ended).to_contain_text("The game this phone played as Sky blue has ended")
    expect(ended).to_contain_text("new QR code")
    assert "Play a card from your hand" not in phone.locator("body").inner_text()
    shot(phone, "truth-seat-link-ended", full_page=False)
    phone.close()


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_a_digital_game_refuses_another_colours_peg_with_the_reason(
    browser: Browser, daemon: Daemon, size: str
) -> None:
    new_game(daemon, {"players": 4, "rules": "basic", "mode": "digital", "pegs": RED_FIRST})
    page = open_page(browser, daemon, size)
    expect(page.locator("#turn")).to_have_text("Red to play")
    expect(page.locator("#status")).to_contain_text("Red plays a card")  # a watcher holds no hand
    click_holes(page, "T3:3", "T3:4")
    expect(page.locator("#status")).to_contain_text("Red can't move Blue's peg")
    assert ").:" not in page.locator("body").inner_text()
    shot(page, f"truth-digital-other-colour-{size}", full_page=False)
    check_layout(page, size)
    page.close()


def label_boxes(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll('.seat-label')]
        .filter((label) => label.textContent).map((label) => {
          const b = label.getBoundingClientRect();
          const mark = label.previousElementSibling;
          return {name: label.textContent, mark: mark ? mark.textContent : '',
                  x: b.x, y: b.y, width: b.width, height: b.height};
        })""")
    return found


@pytest.mark.parametrize(("size", "players"), [("desk", 4), ("phone", 4), ("phone", 8)])
def test_the_last_card_never_covers_a_seats_name(browser: Browser, daemon: Daemon, size: str, players: int) -> None:
    pegs = (
        RED_FIRST
        if players == 4
        else {str(seat): (["T0:11"] if seat == 0 else []) + ["S"] * (5 - (seat == 0)) for seat in range(players)}
    )
    new_game(daemon, {"players": players, "rules": "basic", "mode": "table", "pegs": pegs})
    page = open_page(browser, daemon, size)
    click_holes(page, "T0:11", "T0:16")  # a 5
    page.click("#done")
    expect(page.locator("#turn")).to_have_text("Sky blue to play", timeout=15_000)  # a busy CI machine
    expect(page.locator("#board-card")).not_to_have_text("")
    card = box(page, "#board-card")
    for label in label_boxes(page):
        assert not overlaps(card, label), (label, card)
    shot(page, f"truth-last-card-{size}-{players}", full_page=False)
    page.close()


@pytest.mark.parametrize("players", [6, 8])
def test_under_deuteranopia_names_and_team_marks_tell_seats_apart(
    browser: Browser, daemon: Daemon, players: int
) -> None:
    new_game(daemon, {"players": players, "mode": "table"})
    page = open_page(browser, daemon, "phone")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "deuteranopia"})
    expect(page.locator("#turn")).to_have_text("Red to play")
    labels = label_boxes(page)
    assert len(labels) == players
    names = [label["name"] for label in labels]
    assert len(set(names)) == players and "Orange" in names and "Yellow" in names  # told apart by name
    state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/api/state", timeout=10))
    team_of = {seat: n for n, team in enumerate(state["teams"]) for seat in team}
    by_name = {seat["name"]: seat["seat"] for seat in state["seats"]}
    for a in labels:
        assert a["mark"], a  # a shape, not colour alone
        for b in labels:
            partners = team_of[by_name[a["name"]]] == team_of[by_name[b["name"]]]
            assert (a["mark"] == b["mark"]) == partners, (a, b)
    for a in labels:  # the marks and names stay readable: no two labels overlap
        for b in labels:
            assert a is b or not overlaps(a, b), (a, b)
    shot(page, f"truth-deuteranopia-{players}", full_page=False)
    page.close()


def test_a_refusal_names_the_seat_as_the_page_does(browser: Browser, daemon: Daemon) -> None:
    new_game(daemon, {"players": 4, "mode": "digital"})
    link = next(seat for seat in seat_links(browser, daemon) if seat["seat"] == 1)
    phone = open_page(browser, daemon, "phone", urllib.parse.urlsplit(link["link"]).path)
    expect(phone.locator("#whoami")).to_contain_text("This phone plays Sky blue")
    said = phone.evaluate("""async () => {
        const me = await (await fetch('/api/me')).json();
        const reply = await fetch('/api/hint', {method: 'POST', body: JSON.stringify({show: true}),
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf}});
        return (await reply.json()).error;
    }""")
    assert "Red's" in said and "seat 0" not in said and "seat 1" not in said, said
    phone.close()
