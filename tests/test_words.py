"""Moves and corrections in plain words (issue 13, "Plain words on the page"): no hole
codes, colours named, the places of the rules page, "Players and Equipment" (corner, in-spot
"3rd hole", come-out "8th hole after the corner", start, home)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.cards import RANKS
from referee.coach.hints import which_pegs
from referee.geometry import geometry
from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import fix_words, hole_words, say
from tests.strategies import positions

NAMES = {0: "Red", 1: "Blue", 2: "Green", 3: "Yellow"}
CODE = re.compile(r"\b[THSC]\d+(:\d+)?\b")
BOARD = Board.for_players(4)


def _say(pegs: dict[int, list[str]], card: str, text: str, rules: str = "basic", turn: int = 0) -> str:
    full = {seat: pegs.get(seat, []) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in range(4)}
    position = Position.from_pegs(BOARD, turn, full)
    move = next(m for m in legal_moves(position, card, Ruleset.preset(rules)) if m.text == text)
    return say(move, NAMES)


def test_the_issues_own_examples() -> None:
    """The rules page, Basic Game: an ace or face card brings a peg out onto the come-out hole; landing on
    a peg sends it back to start; a 7 may be split between two pegs, part of it into home."""
    assert _say({}, "A", "A S0-T0:8") == "Red comes out with an ace"
    assert _say({0: ["T0:12"], 1: ["T1:8"]}, "5", "5 T0:12-T0:17") == "Red moves 5"
    assert (
        _say({0: ["T1:3"], 1: ["T1:8"]}, "5", "5 T1:3-T1:8x")
        == "Red moves 5 to Blue's come-out hole and sends Blue's peg back to start"
    )
    assert (
        _say({2: ["T2:0", "T1:10"]}, "7", "7 T1:10-T1:13 T2:0-H2:1", turn=2)
        == "Green splits the 7: 3 from the 10th hole past Blue's corner, 4 from Green's corner into home"
    )


def test_who_played_and_whose_peg_moved() -> None:
    """The rules page, Basic Game: once a player's pegs are all home, that player moves the
    partner's pegs. The words name both, so a partner never seems to play twice a round
    (issue 33: "Blue moves 8 back" when Sky blue played it)."""
    home = ["H0:1", "H0:2", "H0:3", "H0:4", "H0:5"]
    assert _say({0: home, 2: ["T1:10"]}, "8", "8 T1:10-T1:2") == "Red: Green's peg moves 8 back"
    assert _say({0: home, 2: ["T2:0", "T1:10"]}, "7", "7 T1:10-T1:13 T2:0-H2:1") == (
        "Red splits the 7 with Green's pegs: 3 from the 10th hole past Blue's corner, 4 from Green's corner into home"
    )
    assert _say({0: home, 2: ["T1:10"]}, "5", "5 T1:10-T1:15") == "Red: Green's peg moves 5"


def test_backwards_swaps_and_jokers() -> None:
    """The rules page, Notes on Strategy:
    "8s move backwards"; North Carolina's 2 swaps two pegs; the joker jumps onto any peg."""
    assert _say({0: ["T0:8"]}, "8", "8 T0:8-T0:0") == "Red moves 8 back to Red's corner"
    swap = _say({0: ["T0:12"], 1: ["T1:12"]}, "2", "2 T0:12<>T1:12", rules="north-carolina")
    assert swap == "Red swaps places with Blue's peg on the 12th hole past Blue's corner"
    assert _say({0: ["T0:12"], 3: ["T3:16"]}, "JOKER", "JOKER T0:12-T3:16x") == (
        "Red jumps onto Yellow's peg on the 16th hole past Yellow's corner and sends Yellow's peg back to start"
    )
    assert _say({3: ["T3:16", "T1:5"]}, "JOKER", "JOKER S0-T1:5x") == (
        "Red comes out onto Yellow's peg on the 5th hole past Blue's corner with a joker and sends Yellow's peg back to start"
    )


@settings(max_examples=60, deadline=None)
@given(
    positions(players=st.sampled_from((4, 6))),
    st.sampled_from(["JOKER", "2", "7", "10"]),
    st.sampled_from(["basic", "north-carolina", "wizard-woodworks"]),
)
def test_two_moves_of_one_card_are_never_said_alike(position: Position, card: str, rules: str) -> None:
    """The rules page, Basic Game: the joker may land on any other peg; North Carolina and
    Wizard Woodworks: a 2 swaps two pegs. A hint names each choice in words, so two choices of
    one card must read differently: "onto Green's peg" alone did not say which of Green's pegs."""
    names = {seat: f"Colour{seat}" for seat in range(position.board.sides)}
    said: dict[str, str] = {}
    for move in legal_moves(position, card, Ruleset.preset(rules)):
        words = say(move, names) + which_pegs(move, names)
        assert said.setdefault(words, move.text) == move.text, (words, said[words], move.text)


def test_corrections_name_the_colour_and_the_place() -> None:
    assert fix_words("place", "T1:8", 1, NAMES) == "put Blue's peg back on Blue's come-out hole"
    assert fix_words("remove", "T0:13", 0, NAMES) == "take Red's peg off the 13th hole past Red's corner"
    assert fix_words("place", "S2:4", 2, NAMES) == "put Green's peg back in Green's start"
    assert fix_words("remove", "H3:2", None, NAMES) == "take the peg off Yellow's home, 2nd hole"
    assert hole_words("T2:3", NAMES) == "Green's in-spot" and hole_words("C1", NAMES) == "Blue's colour hole"


@settings(max_examples=60, deadline=None)
@given(positions(players=st.sampled_from((4, 6, 8))), st.sampled_from([*RANKS, "JOKER"]))
def test_no_hole_codes_and_the_mover_is_named(position: Position, card: str) -> None:
    names = {seat: f"Colour{seat}" for seat in range(position.board.sides)}
    for move in list(legal_moves(position, card, Ruleset.preset("basic")))[:20]:
        words = say(move, names)
        assert not CODE.search(words), (move.text, words)
        assert words.startswith("Colour"), (move.text, words)


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_every_hole_of_every_board_is_said_without_its_code(sides: int) -> None:
    """The rules page, "Players and Equipment": a hole is the corner, the in-spot, the come-out
    hole, start or home of a side, or counted from the side's corner; the page shows these
    words for every hole it draws (colour markers too). A name that is not one hole (a start
    area, a bare start, a typo) comes back as given."""
    names = {side: f"Colour{side}" for side in range(sides)}
    for hole in geometry(sides, markers=True).holes:
        said = hole_words(hole, names)
        assert not CODE.search(said) and said.startswith(("Colour", "the ")), (hole, said)
    assert hole_words("T3:8", names) == "Colour3's come-out hole"
    assert hole_words("T3:9", names) == "the 9th hole past Colour3's corner"
    assert hole_words("T3:0", names) == "Colour3's corner"
    assert hole_words("H3:5", names) == "Colour3's home, 5th hole"
    for name in ("S2", "S", "T2", "X1:2", "C3:1", " T1:8"):
        assert hole_words(name, names) == name
    assert fix_words("place", "S2:1", 2, names, back=False) == "put Colour2's peg in Colour2's start"
    assert fix_words("place", "C2", None, names, back=False) == "put a peg on Colour2's colour hole"


def test_each_cards_moves_on_the_teaching_panel_read_apart() -> None:
    """The rules page, Note on Table Talk: when teaching, "possible moves" may be discussed. The
    panel lists each card's moves in words, and a partner's phone the moves without their cards:
    two pegs that a 5 can move are two lines ("Red moves 5" twice said neither which), and one
    move that two cards make is one line. Checked at every turn of a self-played game."""
    from referee.coach.bots import BOTS
    from referee.game import Game
    from referee.table.session import Session
    from referee.table.teaching import moves_by_card, moves_without_cards

    game = Game(Ruleset.preset("basic"), 4, seed=5)
    session = cast(Session, SimpleNamespace(game=game, declared=None))
    bots = {seat: BOTS["greedy"](random.Random(seat)) for seat in range(4)}
    checked = 0
    while game.phase != "over":
        if game.phase == "play":
            for card, shown in moves_by_card(session, NAMES, per_card=50).items():
                results = {move.result for move in legal_moves(game.position, card, game.rules)}
                assert len(set(shown["moves"])) == len(shown["moves"]) == len(results), (card, shown)
            team = moves_without_cards(session, NAMES, most=500)
            results = {m.result for c in set(game.hand(game.turn)) for m in legal_moves(game.position, c, game.rules)}
            assert len(team) == len(results), team
            checked += 1
        bots[game.turn].act(game)
    assert checked > 100
