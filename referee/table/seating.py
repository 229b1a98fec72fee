"""Who sits where, as the table calls them: each seat's name and colour, as the game's table
chose them or else the LEDs' own (``hardware.signals``). Said once here for the session's
notices, the page's state and the LEDs, so that they never name a seat two ways; a seat
nobody named is "Seat 3" (``referee.words.name_of``: people count from 1).

    default_table(2)          # {"names": ["Red", "Yellow"], "colours": [...], "sides": {"1": "Sky blue", "3": "Blue"}}
    name(game, 1)             # "Sky blue", or what the table called seat 1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from hardware.signals import SEAT_COLOURS, SEAT_NAMES
from referee.board import Board
from referee.game import Game
from referee.words import name_of


class Seat(TypedDict):
    """A seat in play: its name and colour as the table chose them, its team (an index into
    ``State.teams``) and how many of its pegs are home and in start."""

    seat: int
    name: str
    colour: str  # "#rrggbb"
    team: int
    home: int
    start: int


def seat_default(side: int) -> tuple[str, str]:
    """A side's name and colour before anyone chooses: the LEDs' seat colour, named."""
    return SEAT_NAMES[side], "#{:02x}{:02x}{:02x}".format(*SEAT_COLOURS[side])


def names_of_sides(board: Board) -> dict[int, str]:
    """Each side of the board by its LED colour's name, as a side nobody plays is called."""
    return {side: seat_default(side)[0] for side in range(min(board.sides, len(SEAT_NAMES)))}


def default_table(players: int) -> dict[str, Any]:
    """Names and colours for the seats in play (``Board.for_players`` says which they are), and
    the names of the sides nobody plays, if any (``empty_sides``)."""
    board = Board.for_players(players)
    names = [seat_default(s)[0] for s in board.seats]
    table: dict[str, Any] = {"names": names, "colours": [seat_default(s)[1] for s in board.seats]}
    if sides := empty_sides(board, names):
        table["sides"] = sides
    return table


def empty_sides(board: Board, names: Sequence[str]) -> dict[str, str]:
    """The sides nobody plays by the names the live table calls them (``names_of_sides``), kept
    in the record for its words; a side whose name a seat took is left to the record's "seat N"."""
    taken = {name.strip().casefold() for name in names}
    return {
        str(side): name
        for side, name in names_of_sides(board).items()
        if side not in board.seats and name.casefold() not in taken
    }


def seat_list(game: Game) -> list[Seat]:
    table = {**default_table(game.board.players), **game.table}
    team_index = {seat: n for n, team in enumerate(game.board.teams) for seat in team}
    return [
        {
            "seat": seat,
            "name": table["names"][n],
            "colour": table["colours"][n],
            "team": team_index[seat],
            "home": game.position.in_home(seat),
            "start": game.position.in_start(seat),
        }
        for n, seat in enumerate(game.board.seats)
    ]


def seats(game: Game) -> list[dict[str, Any]]:
    """``seat_list`` as plain mappings, for callers that pass them on as JSON."""
    return [dict(seat) for seat in seat_list(game)]


def names(game: Game) -> dict[int, str]:
    """What the table calls each side of the board: a seat in play by the name chosen for it,
    a side nobody plays by its colour."""
    return {**names_of_sides(game.board), **{seat["seat"]: seat["name"] for seat in seat_list(game)}}


def name(game: Game, seat: int) -> str:
    """One seat's name (``names``), as a notice says it."""
    return name_of(names(game), seat)


def seat_rgb(game: Game) -> list[tuple[int, int, int]]:
    """Each side's colour for the LEDs (black for sides nobody plays)."""
    colours = {**default_table(game.board.players), **game.table}["colours"]
    by_seat = dict(zip(game.board.seats, colours, strict=True))
    return [_rgb(by_seat.get(side, "#000000")) for side in range(game.board.sides)]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
