"""The hole grammar (``referee/holes.py``): the names of docs/design.md, "Seats, holes and
teams", and the numbers behind them, read the same way by the engine, the words and the
hardware layout."""

from __future__ import annotations

import pytest

from referee import holes
from referee.board import Board
from referee.holes import HoleName


def test_a_track_index_is_its_side_and_number() -> None:
    """The rules page, "Players and Equipment": each side has its corner, in-spot (the 3rd hole
    after the corner) and come-out hole (the 8th); the track counts 18 holes a side from T0:0."""
    assert holes.track_parts(0) == (0, holes.CORNER)
    assert holes.track_parts(17) == (0, 17)
    assert holes.track_parts(18) == (1, holes.CORNER)
    assert holes.track_parts(18 * 3 + holes.IN_SPOT) == (3, holes.IN_SPOT)
    assert holes.track_parts(18 * 9 + holes.COME_OUT) == (9, holes.COME_OUT)


@pytest.mark.parametrize("players", [2, 4, 6, 8, 10])
def test_track_parts_name_every_track_hole_as_the_board_does(players: int) -> None:
    board = Board.for_players(players)
    for index in range(board.track_length):
        assert holes.track(*holes.track_parts(index)) == board.hole_name(index)


def test_a_bare_start_is_the_seats_own() -> None:
    """A logical position names a start peg ``S``, whoever's it is; the board reads it as the
    seat's own start area."""
    assert holes.OWN_START == "S"
    assert holes.split(holes.OWN_START) == HoleName("S", None, None)
    board = Board.for_players(4)
    assert board.hole_index(holes.OWN_START, 3) == board.hole_index(holes.start_area(3)) == board.start(3)


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("T2:5", HoleName("T", 2, 5)),
        ("H0:1", HoleName("H", 0, 1)),
        ("S1:4", HoleName("S", 1, 4)),
        ("S1", HoleName("S", 1, None)),
        ("C3", HoleName("C", 3, None)),
        ("T1:99", HoleName("T", 1, 99)),  # ranges are the caller's to check
        ("C", None),  # a marker names its side
        ("C3:1", None),  # and has no number
        ("T1", None),
        ("X1:2", None),
        (" T1:8", None),
        ("T1:8 ", None),
        ("", None),
        (7, None),
    ],
)
def test_split_takes_names_apart_and_nothing_else(name: object, parts: HoleName | None) -> None:
    assert holes.split(name) == parts


def test_names_and_split_agree() -> None:
    for side in range(10):
        assert holes.split(holes.track(side, 17)) == HoleName("T", side, 17)
        assert holes.split(holes.home(side, 5)) == HoleName("H", side, 5)
        assert holes.split(holes.start(side, 2)) == HoleName("S", side, 2)
        assert holes.split(holes.start_area(side)) == HoleName("S", side, None)
        assert holes.split(holes.marker(side)) == HoleName("C", side, None)
