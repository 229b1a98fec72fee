"""A new game asked for from the page, checked before anything changes: its table settings
(names, colours, bot seats, phone seats, a teaching game) and whether the engine takes it at all, so that a
refused request neither starts a game nor makes a simulated board take its size.

    table = new_table(NewGame(4, Ruleset.preset("basic"), bots={"1": "greedy"}))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.board import Board
from referee.events import Mode
from referee.game import Game
from referee.protocol_types import NewGame
from referee.settings.config import Config
from referee.table import seating
from referee.table.phone_seats import phone_seats
from referee.table.seat_bots import bot_kinds


def new_table(request: NewGame) -> dict[str, Any]:
    """The game's table settings (``seating.default_table`` with what was asked); a ValueError
    (or the engine's ``GameError``) for a request the game cannot start with."""
    players, mode = request.players, request.mode
    table: dict[str, Any] = dict(seating.default_table(players))
    if request.teach:
        table["teaching"] = True
    board = Board.for_players(players)
    seats = board.seats
    if request.bots:
        table["bots"] = {str(seat): kind for seat, kind in bot_kinds({"bots": request.bots}, seats).items()}
    if request.phones:
        table["phones"] = list(phone_seats({"phones": request.phones}, seats, bot_kinds(table, seats)))
        if mode != "digital":
            raise ValueError("a seat played from a phone needs the referee's cards: 'mode' must be 'digital'")
    for key, given in (("names", request.names), ("colours", request.colours)):
        if given is not None:
            if len(given) != len(table[key]):
                raise ValueError(f"'{key}' needs one entry per player ({len(table[key])})")
            table[key] = list(given)
    _all_different(table["names"], "name", str.casefold)
    _all_different(table["colours"], "colour", str.lower)
    table.pop("sides", None)
    if sides := seating.empty_sides(board, table["names"]):  # after the names chosen: none given twice
        table["sides"] = sides
    if mode not in ("table", "digital"):
        raise ValueError("'mode' must be 'table' or 'digital'")
    Game(request.rules, players, mode=mode, teams=request.teams, pegs=request.pegs, table=table)
    return table


def config_game(config: Config) -> NewGame:
    """The game the config names, started when the table has none to resume."""
    mode: Mode = "digital" if config.mode == "digital" else "table"  # the config allows only these two
    return NewGame(config.players, config.ruleset(), mode, config.teams)


def _all_different(values: Sequence[str], what: str, same: Callable[[str], str]) -> None:
    """Two seats with one name or one colour can't be told apart on the board or in the record
    ("Mum bumped Mum back to start")."""
    seen: dict[str, int] = {}
    for seat, value in enumerate(values):
        key = same(value.strip())
        if key in seen:
            raise ValueError(
                f"seats {seen[key] + 1} and {seat + 1} have the same {what} ({value.strip()}): give each its own"
            )
        seen[key] = seat
