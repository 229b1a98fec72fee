"""The record names only what is known, and past games are listed as they are (issue "The page
tells the truth in every corner"): "A card nobody named is written down as a fact ... Say what
is known: 'Red comes out (an ace or a face card)' ... a card is named only when it was declared
or the move allows one card only"; "Undo ... 'Last card' must go back too"; games left for a
new one are "unfinished", not "still being played"; the replay shows the turns where a seat
could not move, and bots' seats as bots."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from referee import record
from referee.board import Board
from referee.cli import main as cli
from referee.coach.selfplay import play_one
from referee.events import Event, Move, Play, Start, Turn, Undo
from referee.movegen import legal_moves
from referee.position import Position
from referee.protocol_types import NewGame
from referee.rulesets import Ruleset
from referee.table import view
from referee.table.table import Table
from referee.table.view import State
from referee.words import cards_for, cards_words, say

NAMES = {0: "Red", 1: "Blue", 2: "Green", 3: "Yellow"}
BOARD = Board.for_players(4)
UNNAMED = "Red comes out (an ace or a face card)"


def _move(pegs: dict[int, list[str]], card: str, text: str, rules: Ruleset) -> Any:
    full = {seat: pegs.get(seat, []) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in range(4)}
    position = Position.from_pegs(BOARD, 0, full)
    return next(m for m in legal_moves(position, card, rules) if m.text == text)


# -- the words -------------------------------------------------------------------------


def test_a_card_nobody_named_is_said_as_the_cards_that_make_the_move() -> None:
    basic = Ruleset.preset("basic")
    come_out = _move({}, "A", "A S0-T0:8", basic)
    assert cards_for(come_out, basic) == ("A", "J", "Q", "K")
    assert say(come_out, NAMES, cards_for(come_out, basic)) == UNNAMED
    assert say(come_out, NAMES) == "Red comes out with an ace"  # the card was named: said as played
    ten = _move({0: ["T0:10"]}, "10", "10 T0:10-T1:2", basic)
    assert say(ten, NAMES, cards_for(ten, basic)) == "Red moves 10 (a 10 or a face card)"


def test_the_words_come_from_the_rule_sets_cards() -> None:
    """Social Security: J, Q and K move 11, 12 and 13, so a 10 is a 10 and a 13 only a king."""
    social = Ruleset.preset("social-security")
    ten = _move({0: ["T0:10"]}, "10", "10 T0:10-T1:2", social)
    assert cards_for(ten, social) == ("10",) and say(ten, NAMES, ("10",)) == "Red moves 10"
    thirteen = _move({0: ["T0:10"]}, "K", "K T0:10-T1:5", social)
    assert cards_for(thirteen, social) == ("K",)
    aces_only = Ruleset.preset("basic")
    for face in ("J", "Q", "K"):
        aces_only = aces_only.with_card(face, come_out=False)
    come_out = _move({}, "A", "A S0-T0:8", aces_only)
    assert say(come_out, NAMES, cards_for(come_out, aces_only)) == "Red comes out with an ace"  # one card only


def test_a_move_only_one_card_makes_names_it() -> None:
    """Basic: only the 8 goes back; Becker's 10 also goes 1 back, as North Carolina's ace does."""
    basic = Ruleset.preset("basic")
    back = _move({0: ["T0:10"]}, "8", "8 T0:10-T0:2", basic)
    assert cards_for(back, basic) == ("8",) and say(back, NAMES, ("8",)) == "Red moves 8 back"
    four = _move({0: ["T0:10"]}, "4", "4 T0:10-T0:14", basic)
    assert cards_for(four, basic) == ("4",) and "(" not in say(four, NAMES, ("4",))
    becker = Ruleset.preset("becker")
    one_back = _move({0: ["T0:10"]}, "10", "10 T0:10-T0:9", becker)
    assert cards_for(one_back, becker) == ("10",)
    carolina = Ruleset.preset("north-carolina")
    one_back = _move({0: ["T0:10"]}, "A", "A T0:10-T0:9", carolina)
    assert cards_for(one_back, carolina) == ("A",)
    assert cards_words(["A", "J", "Q", "K", "JOKER"]) == "an ace, a face card or a joker"


def test_a_digital_game_names_its_cards() -> None:
    game, _ = play_one(Ruleset.preset("basic"), 4, 5, "greedy")
    names = tuple(NAMES.values())
    said = [entry["words"] for entry in view.history(game, names)]
    assert any("comes out with" in words for words in said) and not any("face card)" in words for words in said)
    assert "comes out with" in "\n".join(record.narrate(game.events))


def test_effective_events_leave_out_what_was_undone() -> None:
    events: list[Event] = [
        Start(4, ((0, 2), (1, 3)), {"name": "basic"}, "table", 0, 0),
        Turn(0, 1, False),
        Play(0, "K"),
        Move(0, "K S0-T0:8"),
        Turn(1, 2, False),
        Undo(),
    ]
    assert [event.kind for event in record.effective(events)] == ["start", "turn"]
    assert record.named_cards(events) == []
    assert record.named_cards(events[:-1]) == ["K"]


# -- a real table ------------------------------------------------------------------------


@dataclass
class Tables:
    service: Table
    client: FlaskClient
    path: Path


@pytest.fixture
def table(service: Table, client: FlaskClient, tmp_path: Path) -> Tables:
    return Tables(service, client, tmp_path)


def _settle(service: Table, seconds: float = 1.5) -> State:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and service.state()["status"] not in ("synced", "illegal"):
        time.sleep(0.05)
    return service.state()


def _replay_text(service: Table, game_id: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``pegs replay`` prints for the game's record."""
    path = tmp_path / "game.jsonl"
    path.write_text(service.record(game_id, whole=True), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    return capsys.readouterr().out


def test_a_king_nobody_named_is_never_written_down_as_an_ace(table: Tables, capsys: pytest.CaptureFixture[str]) -> None:
    service = table.service
    state = service.sim_events(["lift S0:1", "place T0:8", "done"])  # Red used a king and said nothing
    assert state["moves"] == ["A S0-T0:8"]  # the generator's first card, kept in the notation
    assert state["history"][0]["words"] == UNNAMED
    assert state["last_card"] is None and state["last_card_words"] == "an ace or a face card"
    game_id = state["game"]
    page = table.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert UNNAMED in page and "with an ace" not in page and "(S0-T0:8)" in page
    listing = table.client.get("/games").get_data(as_text=True)
    assert "still being played" in listing
    said = _replay_text(service, game_id, table.path, capsys)
    assert UNNAMED in said and "with an ace" not in said and "A S0-T0:8" not in said


def test_a_declared_card_is_named_and_undo_brings_last_card_back(
    table: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    service = table.service
    service.declare(0, "K")
    state = service.sim_events(["lift S0:1", "place T0:8", "done"])
    assert state["history"][0]["words"] == "Red comes out with a king"
    assert state["last_card"] == "K" and state["last_card_words"] == "a king"
    service.declare(1, "Q")
    state = service.sim_events(["lift S1:1", "place T1:8", "done"])
    assert state["last_card"] == "Q" and len(state["history"]) == 2
    state = service.undo()
    assert state["last_card"] == "K" and state["last_card_words"] == "a king" and len(state["history"]) == 1
    state = service.undo()
    assert state["last_card"] is None and state["last_card_words"] is None and state["history"] == []
    said = _replay_text(service, state["game"], table.path, capsys)
    assert "Red comes out with a king" in said


def test_past_games_say_unfinished_and_hide_empty_ones(table: Tables) -> None:
    service = table.service
    left = service.sim_events(["lift S0:1", "place T0:8", "done"])["game"]
    rules = service.session.game.rules
    empty = service.new_game(NewGame(4, rules))["game"]
    running = service.new_game(NewGame(4, rules, names=["Ann", "Bo", "Cy", "Di"]))["game"]
    listing = table.client.get("/games").get_data(as_text=True)
    assert f'href="/games/{left}"' in listing and "unfinished" in listing
    assert f'href="/games/{empty}"' not in listing  # left with no move made
    assert f'href="/games/{running}"' in listing and "still being played" in listing  # the running one, empty or not
    page = table.client.get(f"/games/{left}").get_data(as_text=True)
    assert "Unfinished" in page and "Still being played" not in page


def test_the_replay_shows_a_turn_that_could_not_move_and_marks_bots(
    table: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    service = table.service
    game_id = service.new_game(NewGame(4, service.session.game.rules, bots={"1": "greedy"}))["game"]
    state = service.cant_move()  # Red could not move
    assert state["turn"] == 1
    page = table.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Red could not move" in page and "Sky blue (bot)" in page and "(a bot's turn)" not in page
    assert service.cant_move()["turn"] == 2  # the bot's seat could not move either
    page = table.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Sky blue could not move <small>(a bot's turn)</small>" in page
    said = _replay_text(service, game_id, table.path, capsys)
    assert "Red could not move" in said and "Sky blue (bot)" in said
