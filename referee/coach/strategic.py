"""The strategic bot's look-ahead: what the opponents can do to our pegs with their next cards.

    exposure(move.result, team)     # progress our pegs stand to lose, to subtract from a move's score

Greedy counts only the race a move wins; the hints add the strategy notes of the rule texts
(the rules page's Notes on Strategy and Common Errors, the club sheet's Hints for good play).
The look-ahead is where it pays most and costs least: a peg of ours that an opponent's peg can
reach with one card (10s and face cards most of all: the Notes on Strategy, "making 10 the
easiest distance to move"; 8s from in front) is
likely to be sent back to start, so a move that leaves pegs exposed scores less.
"""

from __future__ import annotations

from referee.board import Board
from referee.coach.race import progress
from referee.position import Position

# How likely one opponent peg is to have a card that reaches a peg this many holes ahead of it:
# 4 decks hold 16 of each rank and 64 "tens" (10, J, Q, K); a hand holds 5 cards.
REACH = {distance: 0.3 for distance in range(1, 10)} | {10: 0.8, 11: 0.0, 12: 0.0, 13: 0.0}
BACK_EIGHT = 0.3  # an opponent 8 holes ahead can move back onto us
EXPOSURE = 0.5  # how much of a reachable peg's progress the look-ahead counts as lost


def exposure(position: Position, team: set[int]) -> float:
    """The progress our team's track pegs stand to lose to one opponent card each."""
    board: Board = position.board
    track = board.track_length
    ours = [(seat, hole) for seat in team for hole in position.on_board(seat) if board.is_track(hole)]
    theirs = [
        hole for seat in board.seats if seat not in team for hole in position.on_board(seat) if board.is_track(hole)
    ]
    lost = 0.0
    for seat, hole in ours:
        chance = 0.0
        for enemy in theirs:
            behind = (hole - enemy) % track
            chance = max(chance, REACH.get(behind, 0.0), BACK_EIGHT if (enemy - hole) % track == 8 else 0.0)
        lost += chance * progress(board, seat, hole) * EXPOSURE
    return lost
