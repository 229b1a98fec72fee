"""The chance that each team wins from a position, learned from the results of self-played
games: the one number hints, bots and the review judge moves by.

    chances(position)            # {(0, 2): 0.62, (1, 3): 0.38}: every team's chance, summing to 1
    chance(position, seat)       # the chance of that seat's team

Each team gets a score, the learned weights times its ``referee.coach.features``; the chances
are the scores' softmax (a logistic curve with two teams). The weights are fitted, one set per
number of players, by ``pegs train`` (``referee.coach.training``) and shipped in
``data/value.json`` with how they were made and how well they predict games they never saw.
A won position is 1 for the winners and 0 for the others, whatever the weights say.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from referee.coach.features import NAMES, features
from referee.position import Position

DATA = "value.json"


class ValueFileError(ValueError):
    """The shipped weights are missing, damaged or were made for other features."""


@dataclass(frozen=True)
class Weights:
    """One weight per feature, for one number of players."""

    players: int
    weights: tuple[float, ...]

    def score(self, numbers: Sequence[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, numbers, strict=True))


def chances(position: Position) -> dict[tuple[int, ...], float]:
    """Every team's chance to win from ``position`` (the seat to play moves next)."""
    board = position.board
    won = position.winner()
    if won is not None:
        return {team: 1.0 if team == won else 0.0 for team in board.teams}
    weights = model(board.players)
    scores = {team: weights.score(features(position, team)) for team in board.teams}
    top = max(scores.values())
    exp = {team: math.exp(score - top) for team, score in scores.items()}
    total = sum(exp.values())
    return {team: value / total for team, value in exp.items()}


def chance(position: Position, seat: int) -> float:
    """The chance that ``seat``'s team wins from ``position``."""
    return chances(position)[position.board.team_of[seat]]


OVERRIDE: dict[int, Weights] = {}
"""Weights tried in play instead of the shipped ones (``referee.coach.trial``, by ``pegs train``)."""


def model(players: int) -> Weights:
    """The weights for ``players`` (the nearest number trained, for a count never trained)."""
    if players in OVERRIDE:
        return OVERRIDE[players]
    trained = _load()
    if players in trained:
        return trained[players]
    nearest = min(trained, key=lambda count: (abs(count - players), count))
    return trained[nearest]


@cache
def _load() -> Mapping[int, Weights]:
    text = resources.files("referee.coach").joinpath("data", DATA).read_text(encoding="utf-8")
    return weights_from_json(json.loads(text))


def weights_from_json(data: Any) -> dict[int, Weights]:
    """The per-player-count weights of a ``value.json``, checked against ``NAMES``."""
    if not isinstance(data, dict) or data.get("features") != list(NAMES):
        raise ValueFileError("the value's weights were made for other features: run `pegs train` again")
    models = data.get("models")
    if not isinstance(models, dict) or not models:
        raise ValueFileError("the value file holds no weights")
    found: dict[int, Weights] = {}
    for key, entry in models.items():
        numbers = entry.get("weights") if isinstance(entry, dict) else None
        if not isinstance(numbers, list) or len(numbers) != len(NAMES):
            raise ValueFileError(f"the value's weights for {key} players are not {len(NAMES)} numbers")
        if not all(isinstance(n, int | float) and math.isfinite(n) for n in numbers):
            raise ValueFileError(f"the value's weights for {key} players are not all finite numbers")
        found[int(key)] = Weights(int(key), tuple(float(n) for n in numbers))
    return found
