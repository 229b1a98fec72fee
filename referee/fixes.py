"""The fix list: what to take off the board and what to put where, for it to show a position.

The tracker says it when the board is wrong (the way back to the turn's start, the way on
to the nearest legal result) and while a board is put back after an undo. Kept apart from
``referee.tracker`` because it is plain arithmetic on what the board holds, hole by hole,
with no sensor history: occupancy only (any peg will do), or colour by colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from referee.physical import PhysicalBoard
from referee.position import Position

Role = Literal["selected", "destination", "bump", "wrong", "put-back"]  # what a hole's light says


@dataclass(frozen=True)
class Fix:
    """One thing to do with a peg: ``remove`` it from, or ``place`` one in, ``hole``;
    ``seat`` is the colour of that peg when the colour matters (None: any peg). ``at`` is the
    hole's physical index where the tracker made the fix, so that it reads the fixes it just
    made without reading their names back; the name is for people, the page and the LEDs."""

    action: Literal["remove", "place"]
    hole: str
    seat: int | None = None
    at: int | None = field(default=None, compare=False, repr=False)

    def describe(self, colour: Callable[[int], str] = lambda seat: f"seat {seat}") -> str:
        whose = "the" if self.seat is None else f"{colour(self.seat)}'s"
        if self.action == "remove":
            return f"take {whose} peg off {self.hole}"
        return f"put {'a' if self.seat is None else whose} peg in {self.hole}"

    def __str__(self) -> str:
        return self.describe()


class BoardColours(Protocol):
    """The pegs on the board and their colours: which holes hold one, and whose (None: a peg
    whose colour cannot be told)."""

    def __contains__(self, hole: int) -> bool: ...

    def __getitem__(self, hole: int) -> int | None: ...


def guidance(fixes: Sequence[Fix]) -> dict[str, Role]:
    """The lights for a list of fixes: a peg to take off is wrong, a hole to fill is put back."""
    return {fix.hole: ("wrong" if fix.action == "remove" else "put-back") for fix in fixes}


def occupancy_fixes(
    physical: PhysicalBoard,
    occupied: int,
    turn_start: int,
    board: int,
    starts: tuple[int, ...],
    mask: int,
    wanted: tuple[int, ...],
) -> tuple[Fix, ...]:
    """Occupancy only: take off what should not be there (``board``'s holes not in
    ``mask``), then fill what is missing. Extra start pegs come off the holes filled most
    recently (not filled at ``turn_start``); missing ones go in any free start hole."""
    removes = [Fix("remove", physical.name(hole), at=hole) for hole in physical.holes(board & ~mask)]
    places = [Fix("place", physical.name(hole), at=hole) for hole in physical.holes(mask & ~board)]
    for seat, (now, want) in enumerate(zip(starts, wanted, strict=False)):
        holes = physical.start_holes(seat)
        full = sorted((h for h in holes if occupied >> (8 * h) & 1), key=lambda h: turn_start >> (8 * h) & 1)
        empty = [h for h in holes if not occupied >> (8 * h) & 1]
        removes += [Fix("remove", physical.name(h), at=h) for h in full[: max(0, now - want)]]
        places += [Fix("place", physical.name(h), at=h) for h in empty[: max(0, want - now)]]
    return tuple(removes + places)


def colour_fixes(
    physical: PhysicalBoard,
    turn_start: int,
    colours: BoardColours,
    target: Position,
    holes: Sequence[int] | None = None,
) -> tuple[Fix, ...]:
    """What to take off and put where, colour by colour, for the board to show ``target``
    (looking only at ``holes`` of the track and homes, when given). A start peg may stand
    in any start hole of its seat; extra ones come off those filled since ``turn_start``."""
    removes, places = _board_fixes(physical, colours, target, holes)
    board = target.board
    for seat in range(board.sides):
        start = physical.start_holes(seat)
        right = [h for h in start if h in colours and colours[h] in (seat, None)]
        wrong = [h for h in start if h in colours and colours[h] not in (seat, None)]
        removes += [Fix("remove", physical.name(h), colours[h], h) for h in wrong]
        want = target.in_start(seat) if seat in board.seats else 0
        newest = sorted(right, key=lambda h: turn_start >> (8 * h) & 1)
        removes += [Fix("remove", physical.name(h), seat, h) for h in newest[: max(0, len(right) - want)]]
        free = [h for h in start if h not in right]
        places += [Fix("place", physical.name(h), seat, h) for h in free[: max(0, want - len(right))]]
    return tuple(removes + places)


def _board_fixes(
    physical: PhysicalBoard, colours: BoardColours, target: Position, holes: Sequence[int] | None
) -> tuple[list[Fix], list[Fix]]:
    """The removes and places of the track and home holes (``holes``, or all of them)."""
    removes: list[Fix] = []
    places: list[Fix] = []
    for hole in range(target.board.board_holes) if holes is None else holes:
        want = target.colour_at(hole)
        if hole not in colours:
            if want is not None:
                places.append(Fix("place", physical.name(hole), want, hole))
            continue
        have = colours[hole]  # None: a peg whose colour cannot be told
        if want is None or have is not None and have != want:
            removes.append(Fix("remove", physical.name(hole), have, hole))
            if want is not None:
                places.append(Fix("place", physical.name(hole), want, hole))
    return removes, places
