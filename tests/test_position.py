"""Board geometry and the position format of docs/design.md."""

from __future__ import annotations

import pytest

from referee import Board, BoardError, Position, PositionError


def test_hole_names_follow_design() -> None:
    """docs/design.md, "Seats, holes and teams":
    global index 18*s + k; T<s>:3 is the in-spot, T<s>:8 the come-out."""
    board = Board.for_players(8)
    assert board.track_length == 144
    assert board.hole_index("T3:5") == 59 and board.hole_name(59) == "T3:5"
    assert board.hole_name(board.in_spot(2)) == "T2:3" and board.hole_name(board.come_out(2)) == "T2:8"
    assert board.hole_name(board.home(7, 5)) == "H7:5"
    assert board.hole_index("S4:2") == board.hole_index("S4") == board.hole_index("S", seat=4)
    for hole in range(board.board_holes):
        assert board.hole_index(board.hole_name(hole)) == hole


@pytest.mark.parametrize("name", ["T4:1", "T0:18", "H0:0", "H0:6", "X1:1", "T0", "", "S9:1"])
def test_bad_hole_names(name: str) -> None:
    with pytest.raises(BoardError):
        Board.for_players(4).hole_index(name)


def test_teams() -> None:
    """The rules page: "They sit alternately"; the Ukrainian translation:
    3 teams of 2 or 4 teams of 2, partners opposite."""
    assert Board.for_players(6).teams == ((0, 2, 4), (1, 3, 5))
    assert Board.for_players(8, [[3, 7], [0, 4], [1, 5], [2, 6]]).team_of[3] == (3, 7)
    assert Board.for_players(6, [[0, 3], [1, 4], [2, 5]]).partners_clockwise(4) == (4, 1)
    assert Board.for_players(6).partners_clockwise(4) == (4, 0, 2)
    assert Board.for_players(2).seats == (0, 2)
    with pytest.raises(BoardError, match="do not fit"):
        Board.for_players(4, [[0, 1], [2, 3]])
    with pytest.raises(BoardError, match="players must be"):
        Board.for_players(5)


def test_position_round_trip() -> None:
    data = {
        "players": 6,
        "turn": 3,
        "teams": [[0, 3], [1, 4], [2, 5]],
        "pegs": {"0": ["T0:8", "S", "S", "S", "H0:5"], "3": ["T5:17", "H3:1", "S", "S", "S"]},
    }
    position = Position.from_json(data)
    again = Position.from_json(position.to_json())
    assert again == position
    assert position.pegs_json()["0"] == ["T0:8", "H0:5", "S", "S", "S"]
    assert position.pegs_json()["1"] == ["S"] * 5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not valid JSON"),
        ([], "must be a JSON object"),
        ({"players": 5}, "players must be 2, 4, 6, 8 or 10"),
        ({"players": 4, "turn": 7}, "'turn' must be a seat"),
        ({"players": 2, "turn": 1}, "'turn' must be a seat"),
        ({"players": 4, "pegs": {"0": ["S", "S", "S", "S"]}}, "exactly 5 holes"),
        ({"players": 4, "pegs": {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T0:8", "S", "S", "S", "S"]}}, "two pegs"),
        ({"players": 4, "pegs": {"0": ["H1:1", "S", "S", "S", "S"]}}, "another seat's start or home"),
        ({"players": 4, "pegs": {"x": ["S", "S", "S", "S", "S"]}}, "keys must be seat numbers"),
        ({"players": 2, "pegs": {"1": ["S", "S", "S", "S", "S"]}}, "seat 1 is not in play"),
        ({"players": 4, "pegs": {"0": ["T0:99", "S", "S", "S", "S"]}}, "track holes run"),
        ({"players": 4, "colour": "red"}, "unknown position keys"),
    ],
)
def test_bad_positions_are_refused_clearly(data: object, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_json(data)  # type: ignore[arg-type]
