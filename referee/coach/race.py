"""How far along the race a peg is, and how much a move changes the race between the teams.

progress(board, seat, hole)     # 0 in start, more the nearer home
gain(board, team, move)         # our progress gained less the others'
"""

from __future__ import annotations

from referee.board import Board
from referee.moves import Move


def progress(board: Board, seat: int, hole: int) -> int:
    """How far along its journey a peg is: 0 in start, more the closer to home it gets."""
    track = board.track_length
    if board.is_start(hole):
        return 0
    if board.is_home(hole):
        return track + 5 + 2 * board.depth(hole)
    return track - (board.in_spot(seat) - hole) % track


def gain(board: Board, team: set[int], move: Move) -> int:
    """The change in (our progress - theirs) a move makes, from its steps and bumps alone."""
    colours: dict[int, int | None] = {}  # holes changed by earlier steps of this move

    def colour_at(hole: int) -> int:
        if board.is_start(hole):
            return hole - board.board_holes
        colour = colours[hole] if hole in colours else move.before.colour_at(hole)
        assert colour is not None
        return colour

    def moved(seat: int, source: int, target: int) -> int:
        return _signed(team, seat, progress(board, seat, target) - progress(board, seat, source))

    total = 0
    for step in move.steps:
        colour = colour_at(step.source)
        if step.swap:
            other = colour_at(step.target)
            total += moved(colour, step.source, step.target) + moved(other, step.target, step.source)
            colours[step.source], colours[step.target] = other, colour
            continue
        total += moved(colour, step.source, step.target)
        colours[step.source], colours[step.target] = None, colour
        for bump in step.bumps:
            total += moved(bump.seat, bump.source, bump.target)
            if not board.is_start(bump.target):
                colours[bump.target] = bump.seat
    return total


def _signed(team: set[int], seat: int, amount: int) -> int:
    return amount if seat in team else -amount
