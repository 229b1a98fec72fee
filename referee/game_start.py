"""A game's start event: everything needed to set the game up again, written when a game
begins and read back first when a record is replayed (``Game.from_events``).

Kept apart from ``referee.game`` because it is the record's one event that is not a turn's:
it says which game the other events are played in (players, teams, the whole rule set, the
card mode, the seed, pegs already out, how the table shows it), and a record without a
sound one is refused before anything is replayed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee import events as ev
from referee.board import Board
from referee.events import Event, EventError
from referee.game_state import GameError, Mode
from referee.position import Position
from referee.rulesets import Ruleset, from_mapping


def start_event(
    board: Board, rules: Ruleset, mode: Mode, seed: int, first: int, pegs: Position | None, table: dict[str, Any]
) -> ev.Start:
    """The record's first event; ``pegs``: the position the game begins from, when pegs were
    already on the board (a game begun before the box was on)."""
    return ev.Start(
        board.players,
        tuple(tuple(team) for team in board.teams),
        rules.to_mapping(),
        mode,
        seed,
        first,
        {seat: tuple(holes) for seat, holes in pegs.pegs_json().items()} if pegs is not None else None,
        table or None,
    )


def start_of(events: Sequence[Event | Mapping[str, object]]) -> ev.Start:
    """A record's start event (its first), read; GameError when it has none or a bad one."""
    try:
        start = ev.as_event(events[0]) if events else None
    except EventError as error:
        if not (isinstance(events[0], Mapping) and events[0].get("event") == "start"):
            raise GameError("a game record starts with a start event") from None
        raise GameError(f"bad start event: {error}") from None
    if not isinstance(start, ev.Start):
        raise GameError("a game record starts with a start event")
    return start


def arguments(start: ev.Start) -> dict[str, Any]:
    """The ``Game`` arguments a start event records (a bad rule set raises ValueError)."""
    return {
        "rules": from_mapping(start.rules),
        "players": start.players,
        "mode": start.mode,
        "seed": start.seed or 0,
        "teams": [list(team) for team in start.teams],
        "first": start.first,
        "pegs": {seat: list(holes) for seat, holes in start.pegs.items()} if start.pegs is not None else None,
        "table": dict(start.table) if start.table is not None else None,
    }
