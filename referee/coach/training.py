"""Fitting the value's weights to the results of self-played games.

    samples = collect(Ruleset.preset("basic"), players=4, seeds=range(200))
    weights = fit(samples)                   # one weight per ``features.NAMES``
    log_loss(weights, held_out)              # how well they predict games they never saw

Each sample is a position after a move, every team's features there, and which team went on
to win: a value fitted to many of them is the chance to win as the games were played. The
fit is a softmax over the teams (a logistic regression with two), by Newton's method with a
little ridge, in plain Python: a dozen weights need no numerical library.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from referee.coach.features import NAMES, features
from referee.coach.selfplay import play_one
from referee.rulesets import Ruleset

EVERY = 3  # one position in three: neighbours in a game say nearly the same
RIDGE = 1.0  # the penalty on the weights' squares, summed over the samples' Hessians
BOT = "greedy"  # the self-play: fast, and the same players the play-out reference uses


@dataclass(frozen=True)
class Sample:
    teams: tuple[tuple[float, ...], ...]  # each team's features, in the board's team order
    winner: int  # the index of the team that won


def collect(rules: Ruleset, players: int, seeds: Iterable[int], every: int = EVERY) -> list[Sample]:
    """Samples from one self-played game per seed."""
    return [sample for seed in seeds for sample in game_samples(rules, players, seed, every)]


def game_samples(rules: Ruleset, players: int, seed: int, every: int = EVERY) -> Iterator[Sample]:
    game, _ = play_one(rules, players, seed, BOT)
    board = game.board
    if game.winner is None:
        return
    winner = board.teams.index(game.winner)
    rng = random.Random(seed)
    offset = rng.randrange(every)
    for number, move in enumerate(game.made):
        if number % every != offset:
            continue
        after = move.result.with_turn(board.next_seat(move.before.turn))
        if after.winner() is None:
            yield Sample(tuple(features(after, team) for team in board.teams), winner)


def fit(samples: Sequence[Sample], iterations: int = 12, ridge: float = RIDGE) -> tuple[float, ...]:
    """The weights that best predict the winners (maximum likelihood, a ridge against
    wild weights on rare features)."""
    size = len(NAMES)
    weights = [0.0] * size
    for _ in range(iterations):
        gradient = [-ridge * w for w in weights]
        hessian = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for sample in samples:
            _accumulate(sample, weights, gradient, hessian)
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return tuple(weights)


def _accumulate(sample: Sample, weights: Sequence[float], gradient: list[float], hessian: list[list[float]]) -> None:
    """One sample's part of the log-likelihood's gradient and (negated) Hessian."""
    chances = _softmax([sum(w * x for w, x in zip(weights, team, strict=True)) for team in sample.teams])
    size = len(weights)
    mean = [sum(p * team[i] for p, team in zip(chances, sample.teams, strict=True)) for i in range(size)]
    won = sample.teams[sample.winner]
    for i in range(size):
        gradient[i] += won[i] - mean[i]
    for p, team in zip(chances, sample.teams, strict=True):
        centred = [x - m for x, m in zip(team, mean, strict=True)]
        for i in range(size):
            if centred[i]:
                row, weight = hessian[i], p * centred[i]
                for j in range(size):
                    row[j] += weight * centred[j]


def _softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    exp = [math.exp(score - top) for score in scores]
    total = sum(exp)
    return [value / total for value in exp]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting (a dozen unknowns)."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        solution[r] = (rows[r][size] - sum(rows[r][c] * solution[c] for c in range(r + 1, size))) / rows[r][r]
    return solution


def log_loss(weights: Sequence[float], samples: Sequence[Sample]) -> float:
    """The mean negative log-likelihood of the winners: lower is better; a coin between two
    teams scores ln 2 = 0.693."""
    total = 0.0
    for sample in samples:
        chances = _softmax([sum(w * x for w, x in zip(weights, team, strict=True)) for team in sample.teams])
        total -= math.log(max(chances[sample.winner], 1e-12))
    return total / max(1, len(samples))


def chance_log_loss(samples: Sequence[Sample]) -> float:
    """The same for a value that knows nothing: every team equally likely."""
    return sum(math.log(len(sample.teams)) for sample in samples) / max(1, len(samples))
