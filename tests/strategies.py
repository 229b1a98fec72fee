"""Hypothesis strategies (and a deterministic builder) for legal Pegs and Jokers positions.

Every seat in play has five pegs, each in its own start, its own home or on any main-track
hole, never two in one hole. Placement is biased towards what makes move generation
interesting: crowded tracks, pegs on and near in-spots (``T<s>:3``) and come-out holes
(``T<s>:8``), seats that are all or nearly home, pegs stuck part-way into home.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from referee.board import Board
from referee.position import Position

PLAYER_COUNTS = st.sampled_from([2, 4, 6, 8, 10])
OPPOSITE_TEAMS = {
    6: [[0, 3], [1, 4], [2, 5]],
    8: [[0, 4], [1, 5], [2, 6], [3, 7]],
    10: [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]],
}

# What a seat looks like: (how many pegs home, how many on the track) is drawn per profile.
PROFILES = ("busy", "busy", "busy", "racing", "nearly-home", "all-home", "starting")


def make_board(players: int, teams: str = "default") -> Board:
    """``teams``: "default" (alternating seats) or "opposite" (6 and 8 players only)."""
    if teams == "opposite" and players in OPPOSITE_TEAMS:
        return Board.for_players(players, OPPOSITE_TEAMS[players])
    return Board.for_players(players)


def hot_holes(board: Board) -> list[int]:
    """Track holes on, just before and just after every side's in-spot and come-out hole."""
    holes = set()
    for side in range(board.sides):
        for special in (board.in_spot(side), board.come_out(side)):
            for offset in range(-3, 4):
                holes.add((special + offset) % board.track_length)
    return sorted(holes)


@st.composite
def _track_hole(draw: st.DrawFn, board: Board) -> int:
    kind = draw(st.sampled_from(["in-spot", "come-out", "near", "near", "anywhere"]))
    side = draw(st.integers(0, board.sides - 1))
    if kind == "in-spot":
        return board.in_spot(side)
    if kind == "come-out":
        return board.come_out(side)
    if kind == "near":
        return draw(st.sampled_from(hot_holes(board)))
    return draw(st.integers(0, board.track_length - 1))


def _free_from(occupancy: bytearray, hole: int, track: int) -> int:
    """The first empty track hole at or after ``hole`` (there are always some: 5n <= 18n)."""
    while occupancy[hole]:
        hole = (hole + 1) % track
    return hole


@st.composite
def positions(
    draw: st.DrawFn, players: st.SearchStrategy[int] = PLAYER_COUNTS, teams: st.SearchStrategy[str] | None = None
) -> Position:
    """Random legal positions.

    ``players``: a strategy of player counts. ``teams``: a strategy of "default" or
    "opposite" (partners opposite, only on 6, 8 and 10 players; ignored otherwise); by
    default they get opposite partners about a third of the time.
    """
    count = draw(players)
    if teams is None:
        teams = st.sampled_from(["default", "default", "opposite"])
    board = make_board(count, draw(teams) if count in OPPOSITE_TEAMS else "default")
    track = board.track_length
    occupancy = bytearray(board.board_holes)
    for seat in board.seats:
        profile = draw(st.sampled_from(PROFILES))
        if profile == "all-home":
            home, on_track = 5, 0
        elif profile == "nearly-home":
            home = draw(st.integers(3, 4))
            on_track = draw(st.integers(0, 5 - home))
        elif profile == "starting":
            home, on_track = 0, draw(st.integers(0, 2))
        elif profile == "racing":
            home = draw(st.integers(0, 3))
            on_track = 5 - home
        else:  # busy: most pegs out on the track
            home = draw(st.integers(0, 2))
            on_track = draw(st.integers(max(0, 3 - home), 5 - home))
        # Home pegs: usually packed deepest-first, sometimes stuck part-way in.
        if draw(st.booleans()):
            depths = list(range(5, 5 - home, -1))
        else:
            depths = draw(st.lists(st.integers(1, 5), min_size=home, max_size=home, unique=True))
        for depth in depths:
            occupancy[board.home(seat, depth)] = seat + 1
        for _ in range(on_track):
            hole = _free_from(occupancy, draw(_track_hole(board)), track)
            occupancy[hole] = seat + 1
    turn = draw(st.sampled_from(board.seats))
    return Position(board, turn, bytes(occupancy))


def crowded_position(players: int, pegs_on_track: int, seed: int, teams: str = "default") -> Position:
    """A deterministic crowded position: ``pegs_on_track`` pegs on the track, dealt round
    the seats in turn, most of them on or near in-spots and come-out holes; each seat's
    other pegs are split between home (deepest first) and start. The turn is seat 0."""
    board = make_board(players, teams)
    if not 0 <= pegs_on_track <= 5 * board.players:
        raise ValueError(f"{players} players have {5 * board.players} pegs, not {pegs_on_track}")
    rng = random.Random(seed)
    hot = hot_holes(board)
    track = board.track_length
    occupancy = bytearray(board.board_holes)
    on_track = {seat: 0 for seat in board.seats}
    for index in range(pegs_on_track):
        seat = board.seats[index % board.players]
        wanted = rng.choice(hot) if rng.random() < 0.7 else rng.randrange(track)
        occupancy[_free_from(occupancy, wanted, track)] = seat + 1
        on_track[seat] += 1
    for seat in board.seats:
        home = rng.randint(0, 5 - on_track[seat])
        for depth in range(5, 5 - home, -1):
            occupancy[board.home(seat, depth)] = seat + 1
    return Position(board, board.seats[0], bytes(occupancy))
