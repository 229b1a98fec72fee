"""A fit tried in play: how often the strong bot, judging by a set of weights, beats the race
(the beginner) at a board size. ``pegs train`` keeps a size's own fit unless another size's
plays clearly better there.

    rate = plays(8, weights, games=200, seed=1)   # the strong bot's team win rate

Predicting who wins is not the same as choosing well. The weights fitted to 1,000 greedy
games at 8 players change sign from one set of games to another (the positions of a game share
its winner, so long games are few samples), and the strong bot judging by them won 52.5% of
200 games against the race there, where the 4-player fit's won 89% (README, "Teaching"). The
check is an outcome, not a log-loss.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from referee.coach import value
from referee.coach.value import Weights

CLEARLY = 3.0  # standard errors of the difference another size's fit must win by to be used
TRIED_BOT, AGAINST = "strong", "beginner"


@contextmanager
def weights_in_use(weights: Weights) -> Iterator[None]:
    """Within the block, the judge reads ``weights`` at their board size."""
    value.OVERRIDE[weights.players] = weights
    try:
        yield
    finally:
        value.OVERRIDE.pop(weights.players, None)


def plays(players: int, weights: Sequence[float], games: int, seed: int, processes: int = 2) -> float:
    """The strong bot's team win rate against the beginner's at ``players``, judging by
    ``weights``; teams swapped every other game, the presets in turn."""
    seeds = list(range(seed, seed + games))
    jobs = [(players, tuple(weights), seeds[i::processes]) for i in range(processes)]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        won = sum(pool.map(_wins, jobs))
    return won / games


def _wins(job: tuple[int, tuple[float, ...], list[int]]) -> int:
    from referee.coach.selfplay import won_with_sides_swapped
    from referee.rulesets import PRESETS, Ruleset

    players, weights, seeds = job
    presets = sorted(PRESETS)
    with weights_in_use(Weights(players, weights)):
        return sum(
            won_with_sides_swapped(Ruleset.preset(presets[seed % len(presets)]), players, seed, TRIED_BOT, AGAINST)
            for seed in seeds
        )


def chosen(own: int, rates: Mapping[int, float], games: int) -> int:
    """The size whose fit to use at size ``own``: its own, unless another's win rate is
    higher by ``CLEARLY`` standard errors of the difference (so that chance, over several
    sizes tried, almost never swaps a fit that plays as well)."""
    best = max(rates, key=lambda size: (rates[size], size == own))
    if best == own:
        return own
    mine, theirs = rates[own], rates[best]
    error = math.sqrt((mine * (1 - mine) + theirs * (1 - theirs)) / games)
    return best if theirs - mine > CLEARLY * max(error, 1e-9) else own
