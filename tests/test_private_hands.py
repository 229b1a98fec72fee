"""Private hands stay private (issue 20): with the referee's cards, what the seat to play holds
reaches only its own phone and, in a teaching game, its partners' phones.

The rules page's Note on Table Talk: table talk is not allowed, "When teaching the game to
beginners, this rule may be relaxed to allow possible moves to be discussed by the team", and
even then no cards are to be given away. The Basic Game: "A player is never forced to play a
joker".

The phones here are this file's own: each a Flask test client with its own cookies, joined to a
seat by the link the table PIN shows, reading only what a page reads (the state, the event
stream, the teaching route, the hint button). The pegs are moved by ``tests/table_hands.py``,
which knows nothing of the referee's model of a move done by hand.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.cards import CARDS, RANKS
from referee.game import Game
from referee.rulesets import Ruleset
from referee.table.table import Table
from tests.simulated import PIN
from tests.table_hands import Table as Hands
from tests.table_hands import after, carry_out

OUT = {str(seat): [f"T{seat}:8", "S", "S", "S", "S"] for seat in range(4)}  # every seat has a peg out


class Phone:
    """A page at the table: its own cookies; joined to a seat by its link, or (``link`` None)
    the shared page, which joins nothing."""

    def __init__(self, app: Flask, link: str | None = None) -> None:
        self.client: FlaskClient = app.test_client()
        self.seat: int | None = None
        if link is not None:
            assert self.client.get(urlsplit(link).path).status_code == 302
            self.seat = int(urlsplit(link).path.split("/")[2])

    def csrf(self) -> dict[str, str]:
        return {"X-CSRF-Token": self.client.get("/api/me").get_json()["csrf"]}

    def post(self, path: str, body: object) -> tuple[int, Any]:
        reply = self.client.post(path, json=body, headers=self.csrf())
        return reply.status_code, reply.get_json()

    def stream(self) -> Any:
        """The first state the event stream sends."""
        reply = self.client.get("/api/events", buffered=False)
        chunks = cast(Iterator[bytes], iter(reply.response))  # a stream sends bytes
        try:
            next(chunks)  # retry:
            data = next(chunks).decode().split("data: ", 1)[1]
            return json.loads(data)
        finally:
            reply.close()

    def received(self) -> dict[str, Any]:
        """Everything this page may read now: status and body of each route, the stream's state
        (without its version: two reads of one state differ only there)."""
        seen: dict[str, Any] = {}
        for path in ("/api/state", "/api/teaching"):
            reply = self.client.get(path)
            seen[path] = (reply.status_code, reply.get_json())
        seen["/api/hint"] = self.post("/api/hint", {})
        seen["/api/events"] = self.stream()
        for state in (seen["/api/state"][1], seen["/api/events"]):
            state.pop("version")
        return seen


def seated(app: Flask, body: dict[str, Any]) -> tuple[Phone, dict[int, Phone]]:
    """A new game set up with the table PIN, and a phone joined to each seat a person plays."""
    admin = Phone(app)
    assert admin.client.post("/api/login", json={"pin": PIN}).status_code == 200
    code, answer = admin.post("/api/games", body)
    assert code == 200, answer
    links = admin.client.get("/api/seats").get_json()
    return admin, {link["seat"]: Phone(app, link["link"]) for link in links if "link" in link}


@contextmanager
def other_cards(service: Table) -> Iterator[None]:
    """The twin of the table: the seat to play holds cards of ranks it does not hold, and the
    table's cached views are dropped, so every answer is made afresh from the other hand."""
    game = service.session.game
    hand = game._state.hands[game.turn]
    held = list(hand)
    hand[:] = [card for card in CARDS if card not in held][: len(held)]
    service._state = None
    try:
        yield
    finally:
        hand[:] = held
        service._state = None


def check_privacy(service: Table, anonymous: Phone, phones: dict[int, Phone]) -> int:
    """The seat to play's team gets its lesson and hints, made from its own cards; the shared
    page and the opponents get nothing that changes when those cards do. Returns the count of
    pages that saw the cards."""
    game = service.session.game
    turn, hand = game.turn, set(game.hand(game.turn))
    team = set(game.board.team_of[turn])
    declared = service.session.declared
    outsiders = [anonymous] + [phone for seat, phone in phones.items() if seat not in team]
    for seat in sorted(team):
        reply = phones[seat].client.get("/api/teaching")
        code, lesson = reply.status_code, reply.get_json()
        assert code == 200 and lesson["seat"] == turn, (seat, lesson)
        code, asked = phones[seat].post("/api/hint", {})
        assert code == 200
        if seat != turn:  # a partner: the moves, never the cards (test_a_partner_sees_the_moves...)
            assert "teaching_moves" not in lesson and all("card" not in h for h in asked["hints"] + lesson["hints"])
            continue
        assert set(lesson["teaching_moves"]) <= hand and (
            declared is None or set(lesson["teaching_moves"]) == {declared}
        )
        assert {hint["card"] for hint in asked["hints"] + lesson["hints"]} <= hand
    seen = [phone.received() for phone in outsiders]
    for got in seen:
        state = got["/api/state"][1]
        assert got["/api/events"] == state, "the stream sends what /api/state does"
        assert "hints" not in state and "teaching_moves" not in state and state["declared"] is None
        assert got["/api/teaching"][0] == 403 and got["/api/hint"][0] == 403
    with other_cards(service):
        assert [phone.received() for phone in outsiders] == seen, "an outsider's page changed with the hidden cards"
    return len(team)


def test_in_a_digital_teaching_game_only_the_seats_team_sees_its_cards(service: Table, app: Flask) -> None:
    """A whole stretch of a digital teaching game, turn by turn: before and after the seat to
    play taps its card, the team's phones get the hints and each card's moves (from its hand
    only), while the shared page and both opponents' phones (state, event stream, teaching route,
    hint button) get nothing that depends on the seat's hidden cards."""
    _, phones = seated(app, {"players": 4, "mode": "digital", "teaching": True, "pegs": OUT})
    anonymous = Phone(app)
    hands = Hands.from_position(service.session.game.position)
    rng = random.Random(20)
    moves = 0
    for _ in range(10):
        game = service.session.game
        seat = game.turn
        phone = phones[seat]
        assert check_privacy(service, anonymous, phones) == 2  # the seat and its partner
        mine = phone.client.get("/api/hand").get_json()
        if not mine["playable"]:
            assert phone.post("/api/discard", {"card": mine["hand"][0]})[0] == 200
            continue
        card = rng.choice(mine["playable"])
        assert phone.post("/api/declare", {"card": card})[0] == 200
        assert phone.client.get("/api/hand").get_json()["declared"] == card
        check_privacy(service, anonymous, phones)
        move = rng.choice(service.session.game.legal(card))
        acts = carry_out(hands, move, rng)
        made = [f"{act.kind} {act.hole}" for act in acts if act.kind != "pause"]
        code, state = anonymous.post("/api/sim/events", {"events": [*made, "done"]})
        hands = after(hands, acts)
        assert code == 200 and service.session.game.moves[-1] == move.text, state
        moves += 1
    assert moves >= 5


def test_a_partner_may_ask_for_hints_but_only_the_seat_lights_one(service: Table, app: Flask) -> None:
    """The lights are seen by everyone at the table: lighting a hint is the seat's own choice."""
    _, phones = seated(app, {"players": 4, "mode": "digital", "teaching": True, "pegs": OUT})
    assert phones[2].post("/api/hint", {})[0] == 200
    code, refused = phones[2].post("/api/hint", {"show": True})
    assert code == 403 and "own phone" in refused["error"]
    assert phones[1].post("/api/hint", {})[0] == 403
    assert phones[0].post("/api/hint", {"show": True})[0] == 200
    assert set(service.state()["move_marks"].values()) >= {"lift", "hint"}


def test_in_a_serious_digital_game_hints_are_the_seats_own(app: Flask) -> None:
    """No teaching: the Note on Table Talk holds, so a partner gets no hint and no lesson."""
    admin, phones = seated(app, {"players": 4, "mode": "digital", "pegs": OUT})
    assert phones[0].post("/api/hint", {})[0] == 200
    assert phones[2].post("/api/hint", {})[0] == 403
    assert phones[0].client.get("/api/teaching").status_code == 409  # no lesson in a serious game
    assert admin.post("/api/hint", {})[0] == 200  # the table PIN, as before
    state = Phone(app).client.get("/api/state").get_json()
    assert state["teaching"] is False and "hints" not in state


def test_with_real_cards_the_shared_page_shows_the_declared_cards_moves(app: Flask) -> None:
    """At a real table the referee holds no hand: every rank, or the card declared for all to see."""
    admin, _ = seated(app, {"players": 4, "mode": "table", "teaching": True, "pegs": OUT})
    anonymous = Phone(app)
    assert set(anonymous.client.get("/api/state").get_json()["teaching_moves"]) == set(RANKS)
    assert admin.post("/api/declare", {"card": "5"})[0] == 200
    state = anonymous.client.get("/api/state").get_json()
    assert set(state["teaching_moves"]) == {"5"} and state["declared"] == "5"
    assert anonymous.client.get("/api/teaching").get_json()["teaching_moves"] == state["teaching_moves"]


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_a_card_that_cannot_move_is_refused_and_nobody_sees_it(
    service: Table, app: Flask, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20: "declare only what is played". Every peg in start: only an ace, a face card or
    a joker (onto a peg out) could move, so a 5 is refused with a 409 and every page reads
    byte for byte what it read before."""
    pegs = {"1": ["T1:8", "S", "S", "S", "S"]}
    if mode == "digital":  # a deal whose seat 0 holds a card that cannot move
        monkeypatch.setattr(
            "referee.table.session.random.randrange", lambda _n: _seed(pegs, lambda g: "5" in g.hand(0))
        )
    admin, phones = seated(app, {"players": 4, "mode": mode, "teaching": True, "pegs": pegs})
    player = phones[0] if mode == "digital" else admin
    pages = [Phone(app), phones[0], phones[1]]
    paths = ("/api/state", "/api/hand", f"/api/games/{service.session.game_id}/record")
    before = [[page.client.get(path).get_data() for path in paths] for page in pages]
    events = len(service.session.game.events)
    code, refused = player.post("/api/declare", {"card": "5"})
    assert code == 409 and "can't move any peg" in refused["error"] and "nobody saw it" in refused["error"]
    assert [[page.client.get(path).get_data() for path in paths] for page in pages] == before
    assert len(service.session.game.events) == events and service.session.declared is None


def test_a_bots_card_turned_up_at_a_real_table_may_be_one_that_cannot_move(service: Table, app: Flask) -> None:
    """A bot's card is turned up for all to see: it is entered, and the bot discards it."""
    admin, _ = seated(app, {"players": 4, "mode": "table", "bots": {"0": "greedy"}})
    assert admin.post("/api/declare", {"card": "5"})[0] == 200
    assert service.session.game.turn == 1 and service.session.game.moves == []


def test_a_hand_whose_only_moving_card_is_a_joker_offers_both(
    service: Table, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Basic Game: "A player is never forced to play a joker". The phone's hand says the
    joker moves and that a discard is allowed; both are accepted."""
    pegs = {"1": ["T1:8", "S", "S", "S", "S"]}  # seat 0 in start: its joker can only bump Sky blue's peg

    def joker_only(game: Game) -> bool:
        return game.movable_cards() == ["JOKER"] and len(set(game.hand(0))) > 1

    monkeypatch.setattr("referee.table.session.random.randrange", lambda _n: _seed(pegs, joker_only))
    _, phones = seated(app, {"players": 4, "mode": "digital", "pegs": pegs})
    hand = phones[0].client.get("/api/hand").get_json()
    assert hand["playable"] == ["JOKER"] and hand["must_move"] is False and hand["your_turn"] is True
    assert phones[0].post("/api/declare", {"card": "JOKER"})[0] == 200  # play it ...
    kept = next(card for card in hand["hand"] if card != "JOKER")
    assert phones[0].post("/api/discard", {"card": kept})[0] == 200  # ... or keep it and discard another
    assert service.session.game.turn == 1 and "JOKER" in service.session.game.hand(0)


def _seed(pegs: dict[str, list[str]], wanted: Any) -> int:
    """The first deal (a game's seed) whose seat 0, having drawn, is as ``wanted``."""
    for seed in range(5000):
        game = Game(Ruleset.preset("basic"), 4, seed=seed, pegs=pegs)
        game.draw()
        if wanted(game):
            return seed
    raise AssertionError("no such deal in 5000 seeds")


def test_a_refused_discard_leaves_the_digital_turn_as_it_was(service: Table, app: Flask) -> None:
    """Found offering the joker-only discard: a refused discard (a card not held) took the game
    back to before the turn's draw (the draw was not yet on disk): the hand lost a card and the
    seat was stuck drawing. Refused, nothing changes."""
    _, phones = seated(app, {"players": 4, "mode": "digital", "pegs": OUT})
    before = phones[0].client.get("/api/hand").get_data(), Phone(app).client.get("/api/state").get_json()
    missing = next(card for card in CARDS if card not in service.session.game.hand(0))
    assert phones[0].post("/api/discard", {"card": missing})[0] == 409
    after_refusal = phones[0].client.get("/api/hand").get_data(), Phone(app).client.get("/api/state").get_json()
    assert after_refusal == before and after_refusal[1]["phase"] == "play"


def test_a_partner_sees_the_moves_to_talk_over_never_the_cards(service: Table, app: Flask) -> None:
    """The rules page, Note on Table Talk: when teaching beginners the team may discuss moves,
    "but even then players should not exchange information about the cards". A partner's phone
    gets the moves the seat to play could make and the hints, none of them naming a card, and
    nothing that says which cards make no move; the seat's own phone still sees each card."""
    _, phones = seated(app, {"players": 4, "mode": "digital", "teaching": True, "pegs": OUT})
    seat = service.session.game.turn
    partner = next(other for other in service.session.game.board.team_of[seat] if other != seat)
    own = phones[seat].client.get("/api/teaching").get_json()
    assert set(own["teaching_moves"]) == set(service.session.game.hand(seat))
    theirs = phones[partner].client.get("/api/teaching").get_json()
    assert "teaching_moves" not in theirs and theirs["team_moves"]
    hinted = phones[partner].post("/api/hint", {})[1]["hints"]
    for words in [*theirs["team_moves"], *(h["words"] for h in theirs["hints"]), *(h["words"] for h in hinted)]:
        assert not re.search(r"\b(with an? (ace|king|queen|jack|joker|\d+)|the (7|9|10)\b)", words), words
    assert all("card" not in hint and "move" not in hint for hint in [*theirs["hints"], *hinted])


def test_a_move_two_of_the_hands_cards_make_waits_for_the_card(
    service: Table, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules page, Basic Game: an ace or a face card brings a peg out. Red holds an ace and
    a king and comes out without tapping a card: which card leaves the hand is Red's choice,
    so the referee asks instead of picking one; the card tapped then is the one played."""
    pegs: dict[str, list[str]] = {}

    def two_come_outs(game: Game) -> bool:
        return len(set(game.hand(0)) & {"A", "J", "Q", "K"}) >= 2

    monkeypatch.setattr("referee.table.session.random.randrange", lambda _n: _seed(pegs, two_come_outs))
    admin, phones = seated(app, {"players": 4, "mode": "digital"})
    held = service.session.game.hand(0)
    makers = [card for card in dict.fromkeys(held) if card in ("A", "J", "Q", "K")]
    code, state = admin.post("/api/sim/events", {"events": ["lift S0:1", "place T0:8", "done"]})
    assert code == 200 and state["moves"] == [] and service.session.game.hand(0) == held
    assert "Tap the card you played" in state["notice"], state["notice"]
    assert phones[0].post("/api/declare", {"card": makers[-1]})[0] == 200
    code, state = admin.post("/api/sim/events", {"events": ["done"]})  # or the settle time
    assert code == 200 and state["moves"] == [f"{makers[-1]} S0-T0:8"], state
    assert makers[0] in service.session.game.hand(0) or held.count(makers[0]) > 1


def test_a_check_a_moment_old_never_shows_or_plays_another_seats_hand(
    service: Table, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 0's phone asks while its own move commits: the web layer's look at the table still
    says seat 0 is to play, the table has moved on to seat 1. The table checks the asker again
    under the look that acts: seat 1's cards are neither shown to seat 0 nor played for it."""
    _, phones = seated(app, {"players": 4, "mode": "digital", "pegs": OUT})
    stale = service.overview()  # seat 0 to play, as the decorators read it ...
    card = phones[0].client.get("/api/hand").get_json()["playable"][0]
    assert phones[0].post("/api/declare", {"card": card})[0] == 200
    move = service.session.game.legal(card)[0]
    acts = carry_out(Hands.from_position(service.session.game.position), move, random.Random(1))
    made = [f"{act.kind} {act.hole}" for act in acts if act.kind != "pause"]
    assert Phone(app).post("/api/sim/events", {"events": [*made, "done"]})[0] == 200
    assert service.session.game.turn == 1  # ... and then the move committed
    monkeypatch.setattr(service, "overview", lambda: stale)
    seat_one = list(service.session.game.hand(1))
    code, answer = phones[0].post("/api/hint", {})
    assert code == 403 and "hints" not in answer, answer
    code, answer = phones[0].post("/api/declare", {"card": seat_one[0]})
    assert code == 403 and service.session.declared is None, answer
    code, answer = phones[0].post("/api/discard", {"card": seat_one[0]})
    assert code == 403 and service.session.game.hand(1) == seat_one, answer


def test_a_lifted_peg_lights_nothing_the_hand_would_give_away(service: Table, app: Flask) -> None:
    """The referee's cards: a peg lifted before a card is tapped lights no destination (one lit
    hole would say which cards the hand holds), on the LEDs or in the state anyone reads; once
    the card is tapped, that card's destinations are lit as at any table."""
    _, phones = seated(app, {"players": 4, "mode": "digital", "pegs": OUT})
    anyone = Phone(app)
    peg = next(hole for hole in service.session.game.position.to_json()["pegs"]["0"] if hole[0] == "T")
    state = anyone.post("/api/sim/events", {"events": [f"lift {peg}"]})[1]
    assert set(state["guidance"].values()) <= {"selected"}, state["guidance"]
    card = phones[0].client.get("/api/hand").get_json()["playable"][0]
    assert phones[0].post("/api/declare", {"card": card})[0] == 200
    state = anyone.client.get("/api/state").get_json()
    moves_from_peg = [m for m in service.session.game.legal(card) if m.text.split(" ", 1)[1].startswith(f"{peg}-")]
    assert not moves_from_peg or "destination" in state["guidance"].values(), state["guidance"]
