"""A seat played from a phone (issue 36): "On that phone, on its turn: ... the move chosen ...
shown before it is sent, and taken back while nobody has carried it out. ... At the board: the
LEDs show the chosen move as they show a bot's ..., and whoever is nearest carries it out. The
referee takes exactly that move; a different one is refused with the reason ... If the phone
goes quiet, the table can hand the seat to a bot or to a person at the board and back, at the
start of a turn, with nothing lost (a stand-in). The record, the replay and the review name the
seat as played from a phone."

The people at the board are tests/table_hands.py (a move carried out in any order a person
could follow, with knocks) and tests/led_hands.py (a move followed from the lights alone),
neither of which knows the referee's model of a move carried out by hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import referee.table.session as session_module
from hardware.leds import MemoryStrip
from referee import record
from referee.game import Game, GameError
from referee.moves import Move
from referee.protocol_types import NewGame
from referee.rulesets import Ruleset
from referee.table.table import Table
from referee.table.view import State
from tests.led_hands import from_the_lights, plain
from tests.simulated import started
from tests.table_hands import Act, after, carry_out, put_back, wrong_destination
from tests.table_hands import Table as Hands

NAMES = ["Red", "Grandma", "Yellow", "Blue"]
NOT_HERS = "That is not Grandma's move: the lights show the one Grandma chose."


class Board:
    """The pegs as the people at the board see them, and their hands on them."""

    def __init__(self, service: Table) -> None:
        self.service = service
        self.hands = Hands.from_position(service.session.game.position)

    def act(self, acts: list[Act], done: bool = True) -> State:
        events = [f"{act.kind} {act.hole}" for act in acts if act.kind != "pause"]
        state = self.service.sim_events([*events, *(["done"] if done else [])])
        self.hands = after(self.hands, acts)
        return state

    def wrong_then_put_back(self, rng: random.Random, chosen: str) -> None:
        """A peg of Grandma's moved somewhere the lights do not show: refused, then put back."""
        stands = dict(self.hands.pegs)
        acts = wrong_destination(self.hands, [1], rng)
        assert acts is not None
        if _lit(self.service).get(acts[1].hole) == "hint":
            return  # by chance the very move chosen: not a wrong one
        state = self.act(acts)
        assert state["status"] == "illegal" and state["why_not"] == NOT_HERS, (chosen, state["why_not"])
        assert state["notice"] is not None and NOT_HERS in state["notice"]
        assert state["moves"] == self.service.session.game.moves
        assert set(state["guidance"].values()) <= {"wrong", "put-back", "destination", "selected", "bump"}
        assert state["phone"] is not None and state["phone"]["move"] == chosen  # still the move to make
        self.act(put_back(self.hands, stands, rng), done=False)
        assert self.service.state()["status"] == "synced"


def _lit(service: Table) -> dict[str, str]:
    return dict(service.state()["move_marks"])


def _move(game: Game, card: str, text: str) -> Move:
    return next(move for move in [*game.legal(card), *game.free_come_outs(card)] if move.text == text)


def _person(service: Table, board: Board, rng: random.Random) -> None:
    """A person at the board plays the seat to play: a card, and its first move."""
    game, seat = service.session.game, service.session.game.turn
    playable = game.playable()
    if not playable:
        service.discard(seat, game.hand(seat)[0])
        return
    card = min(playable)
    service.declare(seat, card)
    move = playable[card][0]
    state = board.act(carry_out(board.hands, move, rng))
    if state["status"] == "ambiguous":
        service.resolve(move.text)  # several moves fit the board: the person taps theirs
    assert service.session.game.moves[-1] == move.text


def _phone(service: Table, board: Board, rng: random.Random, wrong: bool) -> str | None:
    """Grandma's phone chooses, the lights show it, a person carries it out (a wrong carry-out
    first, when ``wrong``); the move taken, or None when she could only discard."""
    hand = service.hand(1)
    assert hand["phone"] == "phone" and hand["your_turn"]
    options: list[tuple[str, str]] = [
        (card, move["text"]) for card, moves in sorted(hand["moves"].items()) for move in moves
    ]
    if not options:  # Can't move: she discards from the phone
        service.discard(1, hand["hand"][0])
        return None
    card, text = rng.choice(options)
    state = service.choose(1, card, text)
    phone = state["phone"]
    assert phone is not None and phone["move"] == text and phone["card"] == card
    assert phone["words"].startswith("Grandma") and state["moves"] == service.session.game.moves
    strip, marks = service.strip, state["move_marks"]
    assert isinstance(strip, MemoryStrip) and "lift" in marks.values()
    for hole, role in marks.items():  # what the page marks is what the LEDs show
        shown = service.renderer.render({hole: role}, 1)[service.layout.pixel(hole)]
        assert shown != (0, 0, 0) and role in ("lift", "hint", "bump")
    if wrong:
        board.wrong_then_put_back(rng, text)
    move = _move(service.session.game, card, text)
    acts = from_the_lights(board.hands, marks, rng) if plain(marks) else carry_out(board.hands, move, rng, hovers=0.2)
    done = board.act(acts)
    assert done["moves"][-1] == text and done["phone"] is None, done["notice"]
    return text


@pytest.mark.parametrize("dealt", [3, 17], indirect=True)
def test_grandma_plays_from_her_phone_and_the_board_carries_out_her_moves(dealt: Table) -> None:
    service, rng = dealt, random.Random(36)
    state = service.new_game(NewGame(4, Ruleset.preset("basic"), mode="digital", names=NAMES, phones=[1]))
    assert state["phones"] == {"1": "phone"} and state["mode"] == "digital"
    board = Board(service)
    taken, wrong = 0, 0
    for _ in range(40):
        if service.session.game.turn == 1:
            taken += _phone(service, board, rng, wrong=taken % 3 == 1) is not None
            wrong += taken % 3 == 1
        else:
            _person(service, board, rng)
    assert taken >= 6 and wrong >= 2
    told = "\n".join(record.narrate(service.store.events(service.session.game_id)))
    assert "turn 2: Grandma (phone)" in told


@pytest.fixture
def phone_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    """Grandma (seat 0, to play first) on her phone, Yellow at the board; seed 0 deals her a
    queen and a king, both of which come out."""
    monkeypatch.setattr(session_module, "random", SimpleNamespace(randrange=lambda _n: 0))
    with started(tmp_path) as service:
        service.new_game(NewGame(2, Ruleset.preset("basic"), names=["Grandma", "Yellow"], phones=[0], mode="digital"))
        yield service


def _as_stored(service: Table) -> tuple[Any, ...]:
    session = service.session
    state = {key: value for key, value in service.state().items() if key != "version"}
    return (
        session.tracker.to_json(),
        session.declared,
        len(session.game.events),
        service.store.turn(session.game_id),
        state,
    )


def test_bad_choices_are_refused_with_a_reason_and_change_nothing(phone_first: Table) -> None:
    service = phone_first
    game = service.session.game
    playable = game.playable()
    card = min(playable)
    move = playable[card][0].text
    unheld = next(
        c for c in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") if c not in game.hand(0)
    )
    before = _as_stored(service)
    refusals: list[tuple[Callable[[], object], type[Exception], str]] = [
        (lambda: service.choose(2, card, move), PermissionError, "Grandma's turn, not Yellow's"),
        (lambda: service.choose(0, unheld, f"{unheld} S0-T0:8"), ValueError, f"does not hold {unheld}"),
        (lambda: service.choose(0, card, "K T0:9-T0:19"), ValueError, "not a move"),
        (lambda: service.choose(0, "Z", move), ValueError, "card"),
        (lambda: service.take_back(0), GameError, "no move sent"),
        (lambda: service.stand_in(1, "family"), ValueError, "not played from a phone"),
        (lambda: service.stand_in(0, "genius"), ValueError, "'phone', 'board' or a bot"),
    ]
    for call, error, words in refusals:
        with pytest.raises(error, match=words):
            call()
        assert _as_stored(service) == before
    service.choose(0, card, move)
    chosen = _as_stored(service)
    stored = service.store.turn(service.session.game_id)
    assert chosen[0]["turn"]["only"] == move and stored is not None and stored["tracker"]["turn"]["only"] == move
    lift = next(hole for hole, role in service.state()["move_marks"].items() if role == "lift")
    refusals = [
        (lambda: service.choose(0, card, move), GameError, "chosen already"),
        (lambda: service.declare(0, card), GameError, "take it back"),
        (lambda: service.stand_in(0, "board"), GameError, "carry it out or take it back"),
    ]
    for call, error, words in refusals:
        with pytest.raises(error, match=words):
            call()
        assert _as_stored(service) == chosen
    service.sim_events([f"lift {lift}"])  # the board begins to carry it out
    midway = _as_stored(service)
    for call in (lambda: service.take_back(0), lambda: service.choose(0, card, move)):
        with pytest.raises(GameError):
            call()
        assert _as_stored(service) == midway
    service.sim_events([f"place {lift}"])  # a knock: put straight back, nobody carries it out yet
    service.take_back(0)
    assert service.state()["phone"] is None and service.session.chosen is None


def test_a_knock_and_done_before_a_choice(phone_first: Table) -> None:
    """Done before the phone has chosen says so; a knock while it is lit changes nothing."""
    service = phone_first
    assert service.press_done()["notice"] == "Grandma chooses on the phone: the lights will show the move to make."
    card = min(service.session.game.playable())
    move = service.session.game.playable()[card][0].text
    service.choose(0, card, move)
    notice = service.press_done()["notice"]
    assert notice is not None and "Grandma chose on the phone" in notice
    lift = next(hole for hole, role in service.state()["move_marks"].items() if role == "lift")
    state = service.sim_events([f"lift {lift}", f"place {lift}", "done"])
    assert state["moves"] == [] and state["phone"] is not None and state["phone"]["move"] == move
    assert state["status"] == "synced"


@pytest.mark.parametrize("dealt", [11], indirect=True)
def test_a_quiet_phone_is_stood_in_for_and_comes_back_across_a_restart(dealt: Table, tmp_path: Path) -> None:
    rng = random.Random(7)
    service = dealt
    service.new_game(NewGame(4, Ruleset.preset("basic"), names=NAMES, phones=[1], mode="digital"))
    board = Board(service)
    _person(service, board, rng)
    state = service.stand_in(1, "family")  # her battery: a bot plays for her
    assert state["phones"] == {"1": "family"} and state["bots"] == {"1": "family"}
    with pytest.raises(GameError, match="not played from the phone"):
        service.choose(1, "A", "A S1-T1:8")
    plan = _bot_plan(service, 1)
    if plan is not None:
        board.act(carry_out(board.hands, _move(service.session.game, plan["card"], plan["move"]), rng))
    service.stop()  # the table stops; a new one opens the same store
    with started(tmp_path) as service:
        board.service = service  # the pegs stay where they were
        assert service.state()["phones"] == {"1": "family"}
        while service.session.game.turn != 2:  # the bot plays her next turn too
            plan = _bot_plan(service, 1)
            if plan is None:
                _person(service, board, rng)
            else:
                board.act(carry_out(board.hands, _move(service.session.game, plan["card"], plan["move"]), rng))
        service.stand_in(1, "board")  # someone at the board plays her turns
        assert service.state()["phones"] == {"1": "board"} and service.state()["bots"] == {}
        service.stand_in(1, "phone")  # she is back
        while service.session.game.turn != 1:
            _person(service, board, rng)
        assert _phone(service, board, rng, wrong=False) is not None or service.session.game.turn != 1
        told = "\n".join(record.narrate(service.store.events(service.session.game_id)))
        assert "Grandma's turns are played by a family bot (standing in)" in told
        assert "Grandma plays from the phone again" in told


def _bot_plan(service: Table, seat: int) -> dict[str, Any] | None:
    """The move the bot standing in for ``seat`` chose (it thinks on its own thread), or None
    when it is not that seat's turn (or the bot discarded)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and service.session.game.turn == seat:
        plan = service.state()["bot"]
        if plan is not None:
            return dict(plan)
        time.sleep(0.02)
    return None


def test_the_seat_event_is_checked_and_undo_keeps_it() -> None:
    game = Game(Ruleset.preset("basic"), 4, mode="digital", seed=5, table={"phones": [1]})
    for seat, by in ((7, "family"), (1, "Family"), (1, "")):
        with pytest.raises(GameError):
            game.hand_seat(seat, by)
    game.draw()
    card, moves = next(iter(game.playable().items()))
    game.play(card, moves[0])
    game.hand_seat(1, "board")
    game.undo()  # takes back Red's move, not the table's choice of who plays Grandma
    assert game.seated_by(1) == "board" and game.moves == []
    again = Game.from_events(game.events)
    assert again.seated_by(1) == "board" and again.events == game.events
    assert record.effective(game.events)[-1] == game.events[-2]  # the seat event, kept after the undo


def test_the_review_names_the_seat_played_from_a_phone() -> None:
    """The record, the replay and the review name the seat as played from a phone (issue 36)."""
    from referee.coach.review import review
    from tests.records import PHONE

    events = record.loads(PHONE)
    assert review(events)["game"]["phones"] == ["Grandma"]
    assert record.shown_names(events[0]) == {0: "Red", 2: "Grandma (phone)"}
