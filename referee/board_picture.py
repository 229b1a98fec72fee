"""A text picture of the board, one line per side, for ``pegs replay`` and logs.

      side    ---^----*---------   home        start
    > seat 0  ........0.......1.   0 . . . 0   2
      seat 1  ...1..............   . . . . .   4

Each side shows its 18 track holes (``^`` marks the in-spot column, ``*`` the come-out),
its home holes 1..5 and how many pegs wait in start. Pegs show as their seat number.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.board import COME_OUT, HOME_SIZE, IN_SPOT, SIDE_LENGTH
from referee.position import Position


def picture(position: Position, names: Mapping[int, str] | None = None) -> str:
    """The board as text; pegs are their seat's number counted from 1 (seat 10's shows 0)."""
    board = position.board
    ruler = "".join("^" if k == IN_SPOT else "*" if k == COME_OUT else "-" for k in range(SIDE_LENGTH))
    lines = [f"  side      {ruler}   home        start"]
    for side in range(board.sides):
        track = "".join(_peg(position, SIDE_LENGTH * side + k) for k in range(SIDE_LENGTH))
        home = " ".join(_peg(position, board.home(side, depth)) for depth in range(1, HOME_SIZE + 1))
        in_play = side in board.seats
        start = str(position.in_start(side)) if in_play else "-"
        marker = ">" if side == position.turn else " "
        label = (names or {}).get(side, f"seat {side + 1}")[:8] if in_play else f"side {side + 1}"
        lines.append(f"{marker} {label:<8}  {track}   {home}   {start}")
    return "\n".join(lines)


def _peg(position: Position, hole: int) -> str:
    colour = position.colour_at(hole)
    return "." if colour is None else str((colour + 1) % 10)
