"""What the sensors have shown of the turn being followed: the holes filled now and when it
began, the colours the lifts and places allow (``Worlds``), and how far the places have
followed the lights.

Its own module because three readers share it as it changes: the tracker (``referee.tracker``,
which feeds it and judges the board), its colour reading (``referee.colour_reading``: which
colour stands where, what to put back) and the results on their way (``referee.on_the_way``:
which legal results the board may still become, and the lights for them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.physical import PhysicalBoard
from referee.turns import Turn
from referee.worlds import Worlds

Colours = dict[int, int | None]  # physical hole -> seat of the peg there (None: colour unknown)


@dataclass
class Seen:
    """The board as the sensors showed it this turn, and what the tracker made of its colours."""

    physical: PhysicalBoard
    occupied: int  # the physical holes holding a peg now (a byte mask)
    turn: Turn = field(init=False)  # the turn being followed: its position and legal results
    worlds: Worlds = field(default_factory=Worlds)  # every reading of the colours the events allow
    turn_start: int = 0  # the holes filled when the turn began
    restoring: Colours | None = None  # while the board is put back: the colours it stood with
    asked: dict[int, int] = field(default_factory=dict)  # hole -> the colour the last fixes asked to put there
    following: bool = True  # the places so far went where the lights asked
    trusted: set[int] = field(default_factory=set)  # holes filled where the lights asked, while followed

    def __post_init__(self) -> None:
        self.board_only = self.physical.mask(range(self.physical.board.board_holes))

    def board_and_starts(self) -> tuple[int, tuple[int, ...]]:
        """The track and home holes filled now, and how many pegs stand in each start area."""
        return self.occupied & self.board_only, self.physical.start_counts(self.occupied)
