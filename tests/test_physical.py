"""Physical holes: what a position file puts on a real board (docs/design.md, "Position file")."""

from __future__ import annotations

import pytest

from referee import Position
from referee.physical import PhysicalBoard, physical_holes
from referee.position import PositionError


def names(data: dict[str, object], pegs: dict[str, list[str]] | None = None) -> set[str]:
    position = Position.from_json(data)
    physical = PhysicalBoard(position.board)
    given = data["pegs"] if pegs is None else pegs
    assert isinstance(given, dict)
    return {physical.name(hole) for hole in physical_holes(position, given)}


def test_named_start_holes_are_taken_as_named_and_bare_ones_fill_from_one() -> None:
    """A position may name physical start holes (``S1:2`` means that hole holds a peg); a
    bare ``S`` fills that seat's remaining start holes from 1 up; a seat left out fills all."""
    data: dict[str, object] = {
        "players": 4,
        "pegs": {"0": ["T0:8", "S", "S0:2", "H0:5", "S"], "1": ["T0:13", "S1:2", "S1:3", "S1:4", "S1:5"]},
    }
    holes = names(data)
    seat0 = {"T0:8", "T0:13", "H0:5", "S0:1", "S0:2", "S0:3"}  # T0:13 is seat 1's peg
    assert {name for name in holes if name[:2] in ("S0", "T0", "H0")} == seat0
    assert {name for name in holes if name.startswith("S1")} == {"S1:2", "S1:3", "S1:4", "S1:5"}
    assert {name for name in holes if name.startswith("S2")} == {f"S2:{i}" for i in range(1, 6)}


def test_bare_start_pegs_match_fill() -> None:
    position = Position.from_json({"players": 6, "pegs": {"2": ["T2:8", "S", "S", "S", "H2:1"]}})
    physical = PhysicalBoard(position.board)
    assert physical_holes(position, {"2": ["T2:8", "S", "S", "S", "H2:1"]}) == tuple(
        physical.holes(physical.fill(position))
    )


@pytest.mark.parametrize(
    ("seat1", "message"),
    [
        (["T0:13", "S0:2", "S", "S", "S"], "seat 1: peg cannot be in S0:2, another seat's start hole"),
        (["T0:13", "S1:2", "S1:2", "S", "S"], "seat 1: two pegs in start hole S1:2"),
    ],
)
def test_start_holes_must_be_the_seats_own_and_distinct(seat1: list[str], message: str) -> None:
    data: dict[str, object] = {"players": 4, "pegs": {"1": ["T0:13", "S", "S", "S", "S"]}}
    with pytest.raises(PositionError) as error:
        names(data, {"1": seat1})
    assert str(error.value) == message
