"""The physical board: every hole a sensor can see, start holes included.

Logical positions count start pegs; a real board has five start holes per side,
``S<s>:1`` .. ``S<s>:5``, and a peg may sit in any of them. Physical hole indices are
the board's track and home indices, then five start holes per side.

Occupancy sets are kept as *byte masks*: one byte per hole, 1 if a peg is there, read
as a little-endian integer. The same layout as a Position's occupancy, so a result's
mask is one ``translate`` away, and set algebra is integer algebra.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from referee.board import PEGS_PER_SEAT, Board, BoardError
from referee.position import Position

ANY_PEG = bytes([0] + [1] * 255)  # bytes.translate table: occupied -> 1
_START_RE = re.compile(r"^S(\d+):(\d+)$")


@dataclass(frozen=True)
class PhysicalBoard:
    board: Board

    @cached_property
    def size(self) -> int:
        return self.board.board_holes + PEGS_PER_SEAT * self.board.sides

    def start_hole(self, seat: int, index: int) -> int:
        return self.board.board_holes + PEGS_PER_SEAT * seat + index - 1

    def start_holes(self, seat: int) -> range:
        first = self.start_hole(seat, 1)
        return range(first, first + PEGS_PER_SEAT)

    def seat_of_start(self, hole: int) -> int | None:
        if hole < self.board.board_holes:
            return None
        return (hole - self.board.board_holes) // PEGS_PER_SEAT

    def index(self, name: str) -> int:
        """``T2:5``, ``H1:3`` or ``S0:4`` (a start hole must name its number)."""
        match = _START_RE.match(name.strip()) if isinstance(name, str) else None
        if match:
            seat, number = int(match[1]), int(match[2])
            if not 0 <= seat < self.board.sides or not 1 <= number <= PEGS_PER_SEAT:
                raise BoardError(f"no start hole {name!r} on a {self.board.sides}-sided board")
            return self.start_hole(seat, number)
        hole = self.board.hole_index(name)
        if self.board.is_start(hole):
            raise BoardError(f"hole {name!r}: name the start hole, e.g. S0:1")
        return hole

    def name(self, hole: int) -> str:
        seat = self.seat_of_start(hole)
        if seat is None:
            return self.board.hole_name(hole)
        return f"S{seat}:{hole - self.start_hole(seat, 1) + 1}"

    def mask(self, holes: Iterable[int]) -> int:
        mask = 0
        for hole in holes:
            mask |= 1 << (8 * hole)
        return mask

    def holes(self, mask: int) -> list[int]:
        raw = mask.to_bytes(self.size, "little")
        return [hole for hole, value in enumerate(raw) if value]

    def board_mask(self, occupancy: bytes) -> int:
        """The byte mask of a position's track and home pegs."""
        return int.from_bytes(occupancy.translate(ANY_PEG), "little")

    def start_mask(self) -> int:
        return self.mask(range(self.board.board_holes, self.size))

    def start_counts(self, mask: int) -> tuple[int, ...]:
        raw = mask.to_bytes(self.size, "little")
        return tuple(sum(raw[hole] for hole in self.start_holes(seat)) for seat in range(self.board.sides))

    def fill(self, position: Position) -> int:
        """A physical board showing ``position``, start pegs in holes 1 up."""
        mask = self.board_mask(position.occupancy)
        for seat in position.board.seats:
            mask |= self.mask(self.start_holes(seat)[: position.in_start(seat)])
        return mask
