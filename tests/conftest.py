"""Shared helpers: build positions tersely and read moves as text."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

from referee import NotationError, Position, Ruleset, legal_moves, parse_move

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def position(players: int = 4, turn: int = 0, teams: Any = None, **pegs: list[str]) -> Position:
    """``position(s0=["T0:8", "S", ...], s2=[...])``: seats as keyword ``s<n>``."""
    data: dict[str, Any] = {"players": players, "turn": turn, "pegs": {name[1:]: holes for name, holes in pegs.items()}}
    if teams is not None:
        data["teams"] = teams
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
