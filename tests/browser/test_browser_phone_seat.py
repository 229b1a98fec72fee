"""A seat played from a phone in a real browser (issue 36, "Tests"): Grandma's phone in its own
browser context at phone size (390 x 844) and the table's page beside it, against the real
daemon on the simulated board. The phone chooses a card and a move in words and sends it; the
table's page marks the move on the board; the test's own hands (tests/led_hands.py) carry out
what it marks, with a wrong carry-out refused first, a knock, a bot standing in for a turn and a
kill -9 restart on the way. Yellow, at the board, plays her own turns by hand (tests/table_hands.py).

The game starts with most pegs home, so that it is played to its end (a win) in half a minute.
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import re
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, expect

from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset
from tests.browser.pages import ARTIFACTS, PHONE, PIN
from tests.led_hands import from_the_lights, plain
from tests.real_daemon import Daemon
from tests.table_hands import Table as Hands
from tests.table_hands import after, carry_out, put_back, wrong_destination

NOT_HERS = "That is not Grandma's move: the lights show the one Grandma chose."


class Hand:
    """The table's PIN over HTTP, joined to Yellow's seat too: a person at the board."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def call(self, path: str, data: object | None = None) -> Any:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.daemon.port}{path}",
            data=None if data is None else json.dumps(data).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.token},
        )
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)

    def login(self) -> None:
        self.call("/api/login", {"pin": PIN})
        self.token = str(self.call("/api/me")["csrf"])

    def events(self, acts: list[Any], done: bool = True) -> Any:
        return self.call("/api/sim/events", {"events": [f"{a.kind} {a.hole}" for a in acts] + (["done"] * done)})


def marks(page: Page) -> dict[str, str]:
    """What the table's page marks on the board for the move to make: hole -> lift, hint, bump."""
    found: dict[str, str] = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#guides [data-mark]')]"
        ".map((g) => [g.dataset.hole, g.dataset.mark]))"
    )
    return found


def yellow_plays(hand: Hand, board: Hands, rng: random.Random) -> Hands:
    """Yellow, at the board: the first card of her hand that moves, its first move, by hand."""
    state = hand.call("/api/state")
    mine = hand.call("/api/hand")
    position = Position.from_json(state["position"])
    for card in mine["playable"]:
        moves = sorted(legal_moves(position, card, Ruleset.preset("basic")), key=lambda m: "-H" not in m.text)
        move = next(iter(moves), None)  # home first: she wants to win
        if move is not None:
            hand.call("/api/declare", {"card": card})
            acts = carry_out(board, move, rng)
            hand.events(acts)
            return after(board, acts)
    hand.call("/api/discard", {"card": mine["hand"][0]})
    return board


def phone_chooses(phone: Page, table: Page, rng: random.Random) -> str | None:
    """Grandma taps a card, then one of its moves (a move home first: she wants to win), and
    sends it; a move the lights do not show plainly (tests/led_hands.py) she takes back and
    chooses again. Her move's words, or None when no card moves and she discarded."""
    # Her turn's own words, not the last turn's "On your turn, choose a card here": read before
    # the phone has its new hand, they sent her looking for cards a discard turn does not show.
    expect(phone.locator("#phone-move")).to_contain_text(re.compile("tap a card|discard one"))
    if "discard" in phone.locator("#phone-move").inner_text():  # Can't move: she discards from the phone
        phone.locator("#hand .discard").first.click()
        expect(phone.locator("#phone-move")).not_to_contain_text("discard")
        return None
    cards = phone.locator("#phone-move .phone-cards button")
    expect(cards.first).to_be_visible()
    count = cards.count()
    for index in rng.sample(range(count), count):
        cards.nth(index).click()
        moves = phone.locator("#phone-move .phone-moves button")
        expect(moves.first).to_be_visible()
        texts = [moves.nth(n).get_attribute("title") or "" for n in range(moves.count())]
        for n in sorted(range(len(texts)), key=lambda n: ("-H" not in texts[n], len(texts[n].split())))[:3]:
            if phone.locator("#phone-move .sent").count():
                phone.locator("#phone-move").get_by_role("button", name="Take back").click()  # not plain: back
                cards.nth(index).click()
            choice = phone.locator("#phone-move .phone-moves button").nth(n)
            words = choice.inner_text()
            choice.click()
            expect(phone.locator("#phone-move .chosen")).to_contain_text(words)  # shown before sent
            phone.locator("#phone-move").get_by_role("button", name="Send", exact=True).click()
            expect(phone.locator("#phone-move .sent")).to_contain_text("Sent:")
            expect(table.locator("#bot-plan")).to_contain_text(words)
            if plain(marks(table)):
                return words
    raise AssertionError("no move the lights show plainly")


def test_grandma_plays_from_her_phone_beside_the_tables_page(browser: Browser, daemon: Daemon) -> None:
    rng = random.Random(36)
    hand = Hand(daemon)
    hand.login()
    # Most pegs home already, so that the game ends within minutes; a peg on the track: every card moves one.
    pegs = {"0": ["H0:3", "H0:4", "H0:5", "T0:10", "S"], "2": ["H2:3", "H2:4", "H2:5", "T2:5", "S"]}
    hand.call("/api/games", {"players": 2, "names": ["Grandma", "Yellow"], "phones": [0], "pegs": pegs})
    links = hand.call("/api/seats")
    hand.opener.open(f"http://127.0.0.1:{daemon.port}{urlsplit(links[1]['link']).path}")  # Yellow's seat
    board = Hands.from_position(Position.from_json(hand.call("/api/state")["position"]))
    phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    phone.goto(f"http://127.0.0.1:{daemon.port}{urlsplit(links[0]['link']).path}")  # its link, on this machine
    table = browser.new_page(viewport={"width": 1280, "height": 900})
    table.goto(f"http://127.0.0.1:{daemon.port}/")
    table.fill("#pin", PIN)
    table.press("#pin", "Enter")
    expect(table.locator("#phone-seats")).to_be_visible()
    played, stood_in, restarted = 0, False, False
    for _ in range(400):
        if hand.call("/api/state")["phase"] == "over":
            break
        if hand.call("/api/state")["turn"] == 2:
            board = yellow_plays(hand, board, rng)
            continue
        if played == 3 and not stood_in:  # her phone is quiet: a bot stands in for a turn, then it is hers again
            table.select_option("#phone-seats select", "family")
            expect(phone.locator("#phone-move")).to_contain_text("A family bot plays your turns")
            expect(table.locator("#bot-plan")).to_contain_text("Lift the peg", timeout=15000)
            acts = from_the_lights(board, marks(table), rng)
            hand.events(acts)
            board = after(board, acts)
            table.select_option("#phone-seats select", "phone")
            expect(table.locator("#phone-seats select")).to_have_value("phone")
            stood_in = True
            continue
        words = phone_chooses(phone, table, rng)
        if words is None:
            continue
        expect(table.locator("#bot-plan")).to_contain_text("Grandma plays")
        expect(table.locator("#bot-plan")).to_contain_text(words)
        lit = marks(table)
        assert plain(lit), lit
        if played == 1:  # a wrong carry-out: refused with the reason, put back as the lights show
            before = dict(board.pegs)
            wrong = wrong_destination(board, [0], rng)
            assert wrong is not None
            if lit.get(wrong[1].hole) != "hint":
                hand.events(wrong)
                expect(table.locator("#why")).to_contain_text(NOT_HERS)
                back = put_back(after(board, wrong), before, rng)
                hand.events(back, done=False)
        if played == 2:  # a knock on the lit peg, and a restart between the choice and the carrying out
            lift = next(hole for hole, role in lit.items() if role == "lift")
            hand.call("/api/sim/events", {"events": [f"lift {lift}", f"place {lift}"]})
            daemon.kill()
            daemon.start()
            restarted = True
            hand.login()
            hand.opener.open(f"http://127.0.0.1:{daemon.port}{urlsplit(links[1]['link']).path}")
            expect(phone.locator("#phone-move .sent")).to_contain_text(words, timeout=15000)
            expect(table.locator("#bot-plan")).to_contain_text(words, timeout=15000)
            assert marks(table) == lit  # still shown, still lit
        acts = from_the_lights(board, lit, rng)
        state = hand.events(acts)
        board = after(board, acts)
        assert state["phone"] is None and (state["turn"] == 2 or state["phase"] == "over"), state["notice"]
        played += 1
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-seat.png"), full_page=True)
    assert played >= 4 and stood_in and restarted and hand.call("/api/state")["phase"] == "over"
    phone_context.close()
    table.close()
