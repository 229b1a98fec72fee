"""Issue "Hardening, second round: a refused request changes nothing", item 1: "A refused
discard or reveal freezes a digital game until a restart. ... A refused request must leave the
game exactly as it was, in memory and on disk. Prove it with a property test: for random games
and every endpoint that changes state, a refused request leaves ``state()``, the hands and the
stored record byte-identical."

A real table on a simulated board, driven through Flask's test client as the page drives it
(the table PIN, a seat's phone): random games (rule sets with and without Bluffing Joker,
digital and real cards) are played some legal moves in, doubts, reveals and penalties
included, and between them requests that the game should refuse are fired at every route that
changes something. For each one answered 4xx: ``GET /api/state`` (its version included), every
hand, the stored events and the record as downloaded are byte for byte what they were, and the
game still plays on. No answer is ever a 5xx.
"""

from __future__ import annotations

import contextlib
import json
import random
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.cards import CARDS
from referee.coach.bots import RandomBot
from referee.events import event_to_json
from referee.game import Game
from referee.moves import Move
from referee.physical import PhysicalBoard, by_hand
from referee.rulesets import Ruleset
from referee.table.store import StoreError
from referee.table.table import Table
from tests.simulated import log_in, started
from web import create_app

PRESETS = ("basic", "bluffing-joker", "north-carolina", "arizona", "kilpatrick")


@dataclass
class Sitting:
    table: Table
    admin: FlaskClient  # the table PIN
    phones: dict[int, FlaskClient]  # each seat's phone, joined by its link

    def post(self, path: str, body: Any, client: FlaskClient | None = None) -> Any:
        return (client or self.admin).post(path, json=body)

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.admin.get("/api/state").get_json()
        return state


@pytest.fixture(scope="module")
def sitting() -> Iterator[Sitting]:
    with tempfile.TemporaryDirectory() as data, started(Path(data)) as table:
        admin = create_app(table).test_client()
        admin.environ_base["HTTP_X_CSRF_TOKEN"] = log_in(admin)["X-CSRF-Token"]
        yield Sitting(table, admin, {})


def new_game(s: Sitting, rules: str, mode: str, players: int, seed: int, **more: Any) -> None:
    """A new game with the table PIN (its deal seeded), and a phone joined to each seat."""
    with mock.patch("referee.table.session.random.randrange", return_value=seed):
        reply = s.post("/api/games", {"players": players, "rules": rules, "mode": mode, **more})
    assert reply.status_code == 200, reply.get_json()
    s.phones = {}
    for link in s.admin.get("/api/seats").get_json():
        if "link" not in link:
            continue  # a bot's seat: no phone joins it
        phone = s.admin.application.test_client()
        assert phone.get(urlsplit(link["link"]).path).status_code == 302
        phone.environ_base["HTTP_X_CSRF_TOKEN"] = phone.get("/api/me").get_json()["csrf"]
        s.phones[link["seat"]] = phone


def snapshot(s: Sitting) -> tuple[bytes, dict[int, list[str]], str, bytes]:
    """What a refusal must leave alone: the page's state, every hand, the stored record."""
    table, game_id = s.table, s.table.session.game_id
    game = table.session.game
    hands = {seat: game.hand(seat) for seat in game.board.seats}
    events = json.dumps([event_to_json(event) for event in table.store.events(game_id)], sort_keys=True)
    record = s.admin.get(f"/api/games/{game_id}/record").get_data()
    return s.admin.get("/api/state").get_data(), hands, events, record


# -- playing on: what the table's people do ------------------------------------------------------


def put_back(s: Sitting) -> None:
    """Follow the lights until the board shows the game (after an undo, a penalty, a caught bluff)."""
    for _ in range(40):
        state = s.state()
        if not state["fixes"]:
            return
        fix = state["fixes"][0]
        kind = "lift" if fix["action"] == "remove" else "place"
        assert s.post("/api/sim/events", {"events": [f"{kind} {fix['hole']}"]}).status_code == 200
    raise AssertionError(f"the board was not put back: {s.state()['fixes']}")


def play_on(s: Sitting, rng: random.Random) -> bool:
    """One legal thing for whoever is to act: a doubt, a revealed card, a penalty, or a card
    played on the board (declared first where the table needs it), or a discard when nothing
    moves. False once the game is over, or when the only moves are swaps (the sensors see
    no change: the page asks which move it was, not this test)."""
    game = s.table.session.game
    phase = game.phase
    if phase == "over":
        return False
    if phase == "doubt":
        reply = s.post("/api/doubt", {"doubt": rng.random() < 0.4})
    elif phase == "reveal":
        declared = s.state()["bluff"]["declared"]  # turned up honestly, or a bluff caught
        reply = s.post("/api/reveal", {"card": declared if rng.random() < 0.5 else rng.choice(CARDS)})
    elif phase == "penalty":
        penalty = game.penalty
        assert penalty is not None
        board = game.board
        holes = [board.hole_name(h) for h in game.position.on_board(penalty[1]) if board.is_track(h)]
        reply = s.post("/api/penalty", {"hole": rng.choice(holes)})
    else:
        put_back(s)
        reply = play_a_card(s, rng)
        if reply is None:
            return False
    assert reply.status_code == 200, reply.get_json()
    put_back(s)
    return True


def play_a_card(s: Sitting, rng: random.Random) -> Any:
    game = s.table.session.game
    phone = s.phones[game.turn]
    if game.mode == "digital":
        options = [(card, move) for card, moves in sorted(game.playable().items()) for move in moves]
        if game.free_come_out_due():
            options += [
                (card, move) for card in sorted(set(game.hand(game.turn))) for move in game.free_come_outs(card)
            ]
        if not options:
            return s.post("/api/discard", {"card": rng.choice(game.hand(game.turn))}, phone)
    else:
        options = [(card, move) for card in CARDS for move in game.legal(card)]
        if not options:
            return s.post("/api/discard", {"card": None}, phone)
    options = [(card, move) for card, move in options if not any(step.swap for step in move.steps)]
    if not options:
        return None
    card, move = rng.choice(options)
    assert s.post("/api/declare", {"card": card}, phone).status_code == 200  # (at a real table: a card declared before)
    return carry_out(s, move, rng, phone)


def carry_out(s: Sitting, move: Move, rng: random.Random, phone: FlaskClient) -> Any:
    """A person makes ``move`` on the board and presses Done (and taps the move, if the board
    alone cannot tell it from another)."""
    game = s.table.session.game
    physical = PhysicalBoard(game.board)
    filled = [physical.index(hole) for hole in s.state()["occupied"]]
    events = [f"{e.kind} {physical.name(e.holes[0])}" for e in by_hand(game.position, move, rng, occupied=filled)]
    assert s.post("/api/sim/events", {"events": events}).status_code == 200
    before = len(game.events)
    reply = s.post("/api/done", {}, phone)
    if reply.get_json()["status"] == "ambiguous":
        reply = s.post("/api/resolve", {"move": move.text}, phone)
    assert len(s.table.session.game.events) > before, (
        move.text,
        reply.get_json()["status"],
        reply.get_json()["notice"],
    )
    return reply


# -- what should be refused ---------------------------------------------------------------------------

BAD_GAMES = [
    {"players": 5},
    {"players": 6, "teams": [[0, 1], [2, 3], [4, 5]]},
    {"players": 6, "pegs": {"0": ["T0:8"]}},
    {"players": 4, "bots": {"0": "x"}},
    {"teaching": 1},
    {"pegs": []},
    {"players": 8, "rules": "texas"},
    {"mode": "poker"},
    {"names": ["\x00"] * 4},
    {"players": 10, "bots": {str(s): "greedy" for s in range(10)}},
]


def refusals(s: Sitting, rng: random.Random) -> list[tuple[str, Any, FlaskClient]]:
    """Requests the game should refuse now, at every route that changes something."""
    game = s.table.session.game
    turn, admin = game.turn, s.admin
    phone = s.phones[turn]
    other = s.phones[rng.choice([seat for seat in game.board.seats if seat != turn])]
    hand = game.hand(turn) if game.mode == "digital" else []
    unheld = sorted(set(CARDS) - set(hand)) or ["A"]
    dead = [card for card in CARDS if not game.legal(card) and not game.free_come_outs(card)] or ["5"]
    board = game.board
    seats = list(board.seats)
    wrong_holes = ["T9:99", "S0:1", "H0:1", "nowhere", board.hole_name(board.come_out(rng.choice(seats)))]
    asks: list[tuple[str, Any, FlaskClient]] = [
        ("/api/discard", {"card": None}, phone),
        ("/api/discard", {"card": rng.choice(unheld)}, phone),
        ("/api/discard", {"card": rng.choice(hand or ["7"])}, phone),
        ("/api/discard", {"card": rng.choice(CARDS)}, other),  # not its turn: 403
        ("/api/discard", {"card": "11"}, phone),
        ("/api/reveal", {"card": rng.choice(CARDS)}, phone),
        ("/api/reveal", {"card": "X"}, admin),
        ("/api/reveal", {"card": None}, admin),
        ("/api/doubt", {"doubt": rng.random() < 0.5}, other),
        ("/api/doubt", {"doubt": 1}, admin),
        ("/api/penalty", {"hole": rng.choice(wrong_holes)}, admin),
        ("/api/penalty", {"hole": rng.choice(wrong_holes)}, other),
        ("/api/declare", {"card": rng.choice(dead)}, phone),
        ("/api/declare", {"card": rng.choice(unheld)}, phone),
        ("/api/declare", {"card": "joker!"}, phone),
        ("/api/resolve", {"move": rng.choice([None, "A S0-T0:8"])}, phone),
        ("/api/done", {}, other),
        ("/api/undo", {}, phone),  # the table PIN's: 403 from a phone
        ("/api/games", rng.choice(BAD_GAMES), admin),
        ("/api/sim/events", {"events": [rng.choice(["lift Q1", "jump S0:1", "lift T5:3"]), "done"]}, admin),
        ("/api/sim/events", {"events": ["done", f"lift {rng.choice(empty_holes(s) or ['T0:1'])}"]}, admin),
        (f"/api/lesson/{rng.choice(['next', 'repeat', 'skip', 'show'])}", {}, phone),
        ("/api/lesson/place", {"place": "the moon"}, admin),
        ("/api/lesson/resume", {}, admin),
        ("/api/lesson/bogus", {}, admin),
        ("/api/hint", {"show": 1}, phone),
        ("/api/wiring", {"action": "check"}, admin),
        ("/api/wiring", {"action": "stop"}, admin),
        ("/api/undo", {}, admin),  # refused with nothing to undo, or past a revealed card
    ]
    return asks


def empty_holes(s: Sitting) -> list[str]:
    occupied = set(s.state()["occupied"])
    return [
        f"T{side}:{k}"
        for side in range(s.table.session.game.board.sides)
        for k in range(1, 19)
        if f"T{side}:{k}" not in occupied
    ]


# -- the property --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(PRESETS),
    mode=st.sampled_from(["digital", "table"]),
    players=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 2**31 - 1),
    moves=st.integers(0, 20),
    tries=st.integers(3, 20),
)
def test_a_refused_request_changes_nothing(
    sitting: Sitting, rules: str, mode: str, players: int, seed: int, moves: int, tries: int
) -> None:
    s, rng = sitting, random.Random(seed)
    new_game(s, rules, mode, players, seed)
    for _ in range(moves):
        play_on(s, rng)
    for _ in range(tries):
        if rng.random() < 0.3:
            play_on(s, rng)
        path, body, client = rng.choice(refusals(s, rng))
        before = snapshot(s)
        reply = s.post(path, body, client)
        assert reply.status_code < 500, (path, body, reply.get_json())
        if reply.status_code < 400:  # accepted after all (a discard when nothing moves): play on from there
            put_back(s)
            continue
        event(f"refused in the {s.table.session.game.phase} phase: {path.split('/api/')[1].split('/')[0]}")
        after = snapshot(s)
        assert after[0] == before[0], (path, body, reply.get_json(), "the page's state changed")
        assert after[1] == before[1], (path, body, reply.get_json(), "a hand changed")
        assert after[2] == before[2], (path, body, reply.get_json(), "the stored events changed")
        assert after[3] == before[3], (path, body, reply.get_json(), "the record changed")
    while s.table.session.game.phase != "over" and rng.random() < 0.5:  # and the game plays on
        play_on(s, rng)


# -- the issue's own cases --------------------------------------------------------------------------------


def test_the_issues_refused_discard_and_reveal_leave_a_digital_game_playable(sitting: Sitting) -> None:
    """The issue's steps: a new digital game, then from the phone of the seat to play a discard
    of null, of a card it does not hold, of a card while a move is possible, and a reveal."""
    s = sitting
    for seed in range(40):
        new_game(s, "basic", "digital", 4, seed)
        if s.table.session.game.must_move():
            break
    game, turn = s.table.session.game, s.table.session.game.turn
    phone = s.phones[turn]
    hand = game.hand(turn)
    assert len(hand) == 6 and game.phase == "play"
    before = snapshot(s)
    unheld = next(card for card in CARDS if card not in hand)
    for path, body in [
        ("/api/discard", {"card": None}),
        ("/api/discard", {"card": unheld}),
        ("/api/discard", {"card": hand[0]}),
        ("/api/reveal", {"card": "7"}),
    ]:
        reply = s.post(path, body, phone)
        assert reply.status_code == 409, reply.get_json()
        assert snapshot(s) == before
    assert s.table.session.game.hand(turn) == hand and s.table.session.game.phase == "play"
    assert s.phones[turn].get("/api/hand").get_json()["playable"]  # hints and moves are still there
    undo = s.post("/api/undo", {})
    assert undo.status_code == 409 and "nothing to undo" in undo.get_json()["error"]
    assert snapshot(s) == before
    rng = random.Random(1)
    assert play_on(s, rng) and s.table.session.game.turn != turn  # the move is taken
    undone = s.post("/api/undo", {})
    assert undone.status_code == 200 and undone.get_json()["moves"] == [] and undone.get_json()["turn"] == turn
    assert s.table.session.game.hand(turn) == hand  # the card is back, the same draw drawn again


def test_a_greedy_bot_seat_never_freezes_a_digital_game(sitting: Sitting) -> None:
    """The issue: "a greedy bot seat fell into it too". Bot seats play whole turns of a
    digital game (a person moves the pegs each bot chose): no bot action is ever refused."""
    s, rng = sitting, random.Random(3)
    new_game(s, "basic", "digital", 4, 11, bots={"1": "greedy", "2": "greedy", "3": "greedy"})
    errors = s.table.counts.errors
    for _ in range(40):
        put_back(s)
        state, game = bots_acted(s)
        if game.phase == "over":
            break
        if state["bot"] is not None and state["bot"]["seat"] == game.turn:
            plan = s.table._plan
            assert plan is not None
            assert carry_out(s, plan.move, rng, s.admin).status_code == 200
        elif game.turn == 0:
            assert play_on(s, rng)
        else:
            raise AssertionError(f"bot seat {game.turn} neither moved nor discarded: {state['notice']}")
    assert s.table.counts.errors == errors and len(s.table.session.game.moves) > 4


def bots_acted(s: Sitting, seconds: float = 3.0) -> tuple[dict[str, Any], Any]:
    """The state once the bots have done what they do by themselves (the ticker lets them act:
    a bot that discards passes the turn, and the next bot chooses at the next tick)."""
    deadline = time.monotonic() + seconds
    while True:
        state, game = s.state(), s.table.session.game
        settled = game.phase == "over" or game.turn == 0 or (state["bot"] or {}).get("seat") == game.turn
        if settled or time.monotonic() > deadline:
            return state, game
        time.sleep(0.02)


def test_a_refused_new_game_leaves_the_simulated_board_alone(sitting: Sitting) -> None:
    """A new game the engine refuses (teams, pegs) used to give the simulated board the new
    game's size first: an empty board of six sides under a game of four."""
    s = sitting
    new_game(s, "basic", "table", 4, 5)
    board = (s.table.layout.sides, sorted(s.table.sensors.snapshot()))
    before = snapshot(s)
    for body in ({"players": 6, "pegs": {"0": ["T0:8"]}}, {"players": 8, "teams": [[0, 1], [2, 3], [4, 5], [6, 7]]}):
        assert s.post("/api/games", body).status_code == 400
        assert (s.table.layout.sides, sorted(s.table.sensors.snapshot())) == board and snapshot(s) == before
    assert play_on(s, random.Random(5)) and len(s.table.session.game.events) > 3


def test_a_move_the_store_cannot_save_leaves_a_digital_turn_as_it_was(sitting: Sitting) -> None:
    """The freeze of the issue, by way of the disk: a digital game's first move that the store
    could not save put the game back to what the disk held, before the turn's draw (a card gone
    from the hand, the draw phase, every move then refused). It is now back where it was."""
    s = sitting
    new_game(s, "basic", "digital", 4, 2)
    session = s.table.session
    game, turn = session.game, session.game.turn
    hand, events, state = game.hand(turn), list(game.events), s.state()
    card, moves = next(iter(sorted(game.playable().items())))
    assert s.post("/api/declare", {"card": card}, s.phones[turn]).status_code == 200

    def full(*_args: object) -> None:
        raise StoreError("the game store could not save: disk full")

    with mock.patch.object(s.table.store, "append", full):
        physical = PhysicalBoard(game.board)
        filled = [physical.index(hole) for hole in state["occupied"]]
        events_by_hand = [
            f"{e.kind} {physical.name(e.holes[0])}"
            for e in by_hand(game.position, moves[0], random.Random(2), occupied=filled)
        ]
        s.post("/api/sim/events", {"events": events_by_hand})
        assert s.post("/api/done", {}, s.phones[turn]).status_code == 503
        # looked at while the disk is still full: once it is back, the table's ticker may
        # commit the move on its own before the test's next line
        assert session.game is game and game.events == events and game.hand(turn) == hand and game.phase == "play"
        assert "disk full" in s.state()["store_error"]
    s.post("/api/done", {}, s.phones[turn])  # the disk is back: Done, or the ticker before it, saves the move
    assert s.state()["moves"] == [moves[0].text]
    assert s.table.store.events(session.game_id)[: len(events)] == events


@settings(max_examples=100, deadline=None)
@given(
    rules=st.sampled_from(PRESETS),
    mode=st.sampled_from(["digital", "table"]),
    players=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 2**31 - 1),
    turns=st.integers(0, 60),
)
def test_a_refused_engine_action_changes_nothing(rules: str, mode: str, players: int, seed: int, turns: int) -> None:
    """The engine on its own: after random play, every action refused (wrong phase, wrong
    seat, a card not held, a discard while a card moves, a bad hole, nothing to undo) leaves
    the record, the hands and the state exactly as they were."""
    game = Game(Ruleset.preset(rules), players, mode=mode, seed=seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    bots = {seat: RandomBot(random.Random(f"{seed}:{seat}")) for seat in game.board.seats}
    for _ in range(turns):
        if game.phase == "over":
            break
        if game.phase == "reveal":
            game.reveal(rng.choice(CARDS))
        elif game.mode == "digital" or game.phase != "play":
            bots[game.turn].act(game)
        else:  # real cards: any card that moves, declared where the rules ask
            options = [move for card in CARDS for move in game.legal(card)]
            if not options:
                game.discard(None)
                continue
            move = rng.choice(options)
            game.play(None, move, declared=move.card if game.rules.bluffing else None)

    def seen() -> tuple[object, ...]:
        return (
            json.dumps([event_to_json(event) for event in game.events]),
            {seat: game.hand(seat) for seat in game.board.seats},
            game.phase,
            game.position,
            game.turn,
            game.stock_size,
            game.discards,
            game.history,
            game.made,
            game.bumps,
            game.winner,
            game.penalty,
            game.doubter_to_answer,
            game.turn_number,
            [game.count(seat) for seat in game.board.seats],
        )

    held = game.hand(game.turn)
    others = [seat for seat in game.board.seats if seat != game.doubter_to_answer]
    attempts = [
        lambda: game.discard(None),
        lambda: game.discard(rng.choice([c for c in CARDS if c not in held] or ["A"])),
        lambda: game.discard(rng.choice(held or ["A"])),
        lambda: game.reveal("X"),
        lambda: game.reveal("7"),
        lambda: game.respond(rng.choice(others), True),
        lambda: game.respond(game.turn, 1),  # type: ignore[arg-type]
        lambda: game.send_to_start(game.turn, "T9:99"),
        lambda: game.send_to_start(game.turn, "S0:1"),
        lambda: game.play("A", "A nowhere"),
        lambda: game.play(None, "7 T0:1-T0:8"),
        game.draw,
        game.decline_extra_turn,
        game.undo,
    ]
    for attempt in attempts:
        before = seen()
        try:
            attempt()
        except ValueError:  # GameError, CardError, ...: refused
            assert seen() == before
            event(f"engine refusals in the {game.phase} phase")
            continue
        return  # accepted (a discard when nothing moves, an undo): a new game state to attack next time


def test_a_lesson_button_the_store_cannot_save_leaves_the_lesson_at_its_step(sitting: Sitting) -> None:
    """Disk full: next, skip and place answered 503 yet moved the lesson on in memory (a
    restart went back). Refused, the lesson stays where it was; once the disk is back the same
    button works."""
    s = sitting
    assert s.post("/api/lesson", {"rules": "basic", "players": 4}).status_code == 200
    before = s.state()["lesson"]

    def full(*_args: object, **_kwargs: object) -> Any:
        raise StoreError("the game store could not save: disk full")

    writes = ("create", "append", "save_turn", "save_lesson", "create_lesson")
    with contextlib.ExitStack() as stack:
        for name in writes:
            stack.enter_context(mock.patch.object(s.table.store, name, full))
        for action, body in (("next", {}), ("skip", {}), ("skip", {}), ("place", {"place": None})):
            reply = s.post(f"/api/lesson/{action}", body)
            assert reply.status_code in (400, 409, 503), (action, reply.get_json())
    assert s.post("/api/lesson/repeat", {}).status_code == 200  # the disk is back: the step again, drawn afresh
    again = s.state()["lesson"]
    assert (again["step"], again["key"], again["learner"]) == (before["step"], before["key"], before["learner"])
    assert s.post("/api/lesson/skip", {}).status_code == 200
    assert s.state()["lesson"]["step"] == before["step"] + 1
    assert s.post("/api/lesson/leave", {}).status_code == 200
