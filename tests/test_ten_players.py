"""Ten players, as Larry Hatcher's variations describe (item 2): "Many games are played with
as many as ten players. And it is much more fun and exciting this way, especially if you
add another deck and at least four more Jokers!" """

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee import Board, BoardError, Ruleset, legal_moves
from referee.cards import JOKER
from referee.coach.selfplay import play_one
from referee.events import event_to_json
from referee.game import Game
from referee.physical import PhysicalBoard, by_hand
from referee.rulesets import PRESETS, RulesetError, from_mapping
from referee.tracker import Tracker
from tests.positions import position, texts

S = "S"


def test_ten_sides_name_every_hole_and_wrap_round() -> None:
    """Hatcher's variations, item 2: up to ten players; docs/design.md, "Seats, holes and teams":
    seat s owns T<s>:0..17, S<s>:1..5, H<s>:1..5."""
    board = Board.for_players(10)
    assert board.sides == 10 and board.track_length == 180
    assert [board.hole_name(board.hole_index(name)) for name in ("T9:17", "H9:5")] == ["T9:17", "H9:5"]
    assert PhysicalBoard(board).name(PhysicalBoard(board).index("S9:5")) == "S9:5"
    start = position(players=10, turn=9, s9=["T9:15", S, S, S, S])
    assert "5 T9:15-T0:2" in texts(start, "5")  # round the corner from the tenth side to the first


def test_teams_of_five_alternate_or_five_pairs_sit_opposite() -> None:
    """The rules page: partners "sit alternately"; the Ukrainian translation seats
    partners opposite for teams of two."""
    assert Board.for_players(10).teams == ((0, 2, 4, 6, 8), (1, 3, 5, 7, 9))
    pairs = [[s, s + 5] for s in range(5)]
    assert Board.for_players(10, pairs).teams == tuple(tuple(pair) for pair in pairs)
    with pytest.raises(BoardError, match="do not fit 10 players"):
        Board.for_players(10, [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]])


def test_ten_players_add_a_deck_and_four_jokers() -> None:
    """Hatcher's variations, item 2:
    "add another deck and at least four more Jokers": eight players play with 4 decks
    and 8 jokers, ten with 5 decks and 5 x 2 + 4 = 14 jokers; house rules may add more."""
    basic = Ruleset.preset("basic")
    assert (basic.decks_for(8), basic.jokers_for(8)) == (4, 8)
    assert (basic.decks_for(10), basic.jokers_for(10)) == (5, 14)
    game = Game(basic, 10, seed=3)
    dealt = [card for seat in range(10) for card in game.hand(seat)]
    assert len(dealt) == 50 and game.stock_size == 5 * 52 + 14 - 50
    assert (dealt + game._state.stock).count(JOKER) == 14
    house = from_mapping({"base": "basic", "extra_jokers": 2, "decks": {"10": 6}})
    assert house.decks_for(10) == 6 and house.jokers_for(10) == 6 * 2 + 4 + 2
    assert from_mapping(house.to_mapping()) == house
    with pytest.raises(RulesetError, match="is not a player count"):
        from_mapping({"base": "basic", "decks": {"12": 6}})


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_preset_plays_a_whole_game_on_ten_sides(rules: str) -> None:
    """Hatcher's ten-player game under every rule set: bots play to a win and the record replays."""
    game, stats = play_one(Ruleset.preset(rules), 10, 5, "greedy")
    assert game.phase == "over" and game.winner is not None and stats.moves > 0
    assert Game.from_events(json.loads(json.dumps([event_to_json(e) for e in game.events]))).winner == game.winner


def test_the_tracker_follows_a_move_by_hand_on_ten_sides() -> None:
    """The tracker contract (docs/design.md, "The tracker")
    on the largest board: a legal move carried out by hand."""
    start = position(players=10, turn=7, s7=["T7:8", "T6:2", S, S, S], s8=["T7:13", S, S, S, S])
    rules = Ruleset.preset("north-carolina")
    move = next(m for m in legal_moves(start, "5", rules) if m.bumps)
    tracker = Tracker(start, rules)
    for event in by_hand(start, move, random.Random(2)):
        tracker.feed(event)
    report = tracker.poll(10_000)
    assert report.status == "move" and report.move is not None and report.move.key == move.key


def test_pegs_moves_and_selfplay_take_ten_players(tmp_path: Path) -> None:
    """The CLI contract (docs/design.md, "The pegs command") on ten sides."""
    data = {"players": 10, "turn": 9, "pegs": {"9": ["T9:8", S, S, S, S]}}
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "moves", json.dumps(data), "--card", "7"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert {"7 T9:8-T9:15"} <= {move["text"] for move in json.loads(done.stdout)["moves"]}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee.cli",
            "selfplay",
            "--players",
            "10",
            "--games",
            "1",
            "--bot",
            "greedy",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == 10
