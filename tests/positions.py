"""Positions built tersely and moves read as text, for the engine's tests.

position(s0=["T0:8", "S", "S", "S", "S"], s2=[...])   # seats as keyword ``s<n>``
texts(pos, "7")                                        # the legal moves' notation
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee import NotationError, Position, Ruleset, legal_moves, parse_move


def position(
    players: int = 4, turn: int = 0, teams: Sequence[Sequence[int]] | None = None, **pegs: list[str]
) -> Position:
    """``position(s0=["T0:8", "S", ...], s2=[...])``: seats as keyword ``s<n>``."""
    data: dict[str, Any] = {"players": players, "turn": turn, "pegs": {name[1:]: holes for name, holes in pegs.items()}}
    if teams is not None:
        data["teams"] = [list(team) for team in teams]
    return Position.from_json(data)


def texts(pos: Position, card: str, rules: str = "basic") -> set[str]:
    return {move.text for move in legal_moves(pos, card, Ruleset.preset(rules))}


def results(pos: Position, card: str, rules: str = "basic") -> list[dict[str, list[str]]]:
    return [move.result.pegs_json() for move in legal_moves(pos, card, Ruleset.preset(rules))]


def is_legal(pos: Position, text: str, rules: str = "basic") -> bool:
    """Whether ``text`` names a legal move, its steps in the order written."""
    try:
        parse_move(pos, text, Ruleset.preset(rules))
    except NotationError:
        return False
    return True
