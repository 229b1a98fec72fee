"""What the learned value reads of a position: a few numbers per team, each something a
player can see on the board (how far the team's pegs have come, how many wait in start or
sit home, how many an opponent can reach), so that what the value weighs can be said.

    features(position, team)     # one float per name in NAMES, for that team

The weights are not set here: ``referee.coach.value`` learns them from the results of
self-played games. A feature is only a question put to the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.board import Board
from referee.coach.race import progress
from referee.position import Position

NAMES = (
    "race",  # how far the team's pegs have come, 0 (all in start) to 1 (all home)
    "race_squared",  # the same, squared: the last holes of the race count more
    "in_start",  # the share of the team's pegs still in start (each needs a come-out card)
    "home",  # the share already home
    "finishing",  # 1 with one peg left to bring home, 0.5 with two, 0 with more
    "reachable_near",  # progress at stake on pegs an opponent is 1 to 9 holes behind
    "reachable_far",  # progress at stake on pegs an opponent is 10 to 13 holes behind
    "reachable_back",  # progress at stake on pegs an opponent is 8 holes ahead of (an 8 back)
    "home_stretch",  # pegs on the track within 13 holes of their in-spot: one card from home
    "on_in_spot",  # pegs waiting on their own in-spot for the exact count
    "home_gaps",  # home pegs with an empty hole deeper in: the pegs behind them need exact counts
    "waits",  # how long until the team plays again, 0 (it is its turn) to nearly 1
)
NEAR, FAR = range(1, 10), range(10, 14)
BACK = 8


def features(position: Position, team: Sequence[int]) -> tuple[float, ...]:
    """The team's numbers, in the order of ``NAMES``."""
    board = position.board
    pegs = 5 * len(team)
    full = board.track_length + 15  # a peg at the bottom of home (progress's largest value)
    enemies = [
        hole for seat in board.seats if seat not in team for hole in position.on_board(seat) if board.is_track(hole)
    ]
    race = start = home = stretch = on_spot = gaps = 0.0
    near = far = back = 0.0
    for seat in team:
        for hole in position.pegs(seat):
            gone = progress(board, seat, hole)
            race += gone
            if board.is_start(hole):
                start += 1
            elif board.is_home(hole):
                home += 1
                gaps += _gap_below(position, seat, hole)
            else:
                to_spot = (board.in_spot(seat) - hole) % board.track_length
                on_spot += to_spot == 0
                stretch += 0 < to_spot <= 13
                reach = _reachable(board, hole, enemies)
                near += gone * (reach == "near")
                far += gone * (reach == "far")
                back += gone * (reach == "back")
    share = race / (pegs * full)
    left = pegs - home
    return (
        share,
        share * share,
        start / pegs,
        home / pegs,
        1.0 if left == 1 else 0.5 if left == 2 else 0.0,
        near / (pegs * full),
        far / (pegs * full),
        back / (pegs * full),
        stretch / pegs,
        on_spot / pegs,
        gaps / pegs,
        _waits(board, position.turn, team),
    )


def _reachable(board: Board, hole: int, enemies: Sequence[int]) -> str:
    """How the nearest threat reaches a track peg: 'near', 'far', 'back' or ''."""
    track = board.track_length
    found = ""
    for enemy in enemies:
        behind = (hole - enemy) % track
        if behind in NEAR:
            return "near"
        if behind in FAR:
            found = "far"
        elif not found and (enemy - hole) % track == BACK:
            found = "back"
    return found


def _gap_below(position: Position, seat: int, hole: int) -> int:
    board = position.board
    return any(position.colour_at(board.home(seat, depth)) is None for depth in range(board.depth(hole) + 1, 6))


def _waits(board: Board, turn: int, team: Sequence[int]) -> float:
    """Seats that play before the team next does, as a share of the seats."""
    seats = board.seats
    order = seats.index(turn)
    for ahead in range(len(seats)):
        if seats[(order + ahead) % len(seats)] in team:
            return ahead / len(seats)
    return 1.0
