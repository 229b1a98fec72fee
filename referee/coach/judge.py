"""The one judge: the seat's choices, each with the chance its team wins after it.

    verdicts = judge(position, rules, options)                         # quick: the value after each move
    verdicts = judge(position, rules, options, hidden=hidden, rng=rng)  # and the best few looked ahead
    verdicts[0].chance - verdicts[3].chance                             # what the fourth gives away

Hints, the bots, the expert and the review all ask it. Quick, a choice is worth the learned
value (``referee.coach.value``) of the position it leaves, the next seat to play. Looking
ahead, the best few are played on over the same sampled deals of the cards the seat cannot
see (``referee.coach.lookahead``): every other seat replies, the seat makes its next move with
the cards it keeps, and the value is read there. That is where a peg left in reach, or a joker
kept for a later turn, shows: backgammon programs judge moves the same way, a learned value
with a shallow search on top.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.coach.lookahead import Hidden, play_round
from referee.coach.race import gain
from referee.coach.value import chance
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset

LOOKED_AHEAD = 4  # the quick judge's best few that are played on
DEALS = 12  # sampled deals of the hidden cards per look-ahead (a bot's move, a review's check)
HINT_DEALS, HINT_LOOKED_AHEAD = 16, 3  # a hint's: the same work as a bot's, and measured better (README)
WORK = 3000  # most replies per decision: on a crowded board fewer deals are played
SHORTLIST = 150  # a North Carolina 10 may split 14,000 ways: the value judges those that gain most


@dataclass(frozen=True)
class Choice:
    """A card and what it does: a move, or None to keep the joker and let ``card`` go."""

    card: str
    move: Move | None


@dataclass(frozen=True)
class Verdict:
    choice: Choice
    chance: float  # the seat's team's chance to win after the choice, 0 to 1
    looked_ahead: bool = False
    samples: tuple[float, ...] = ()  # looking ahead: the chance after each sampled deal (the same deals for all)

    @property
    def card(self) -> str:
        return self.choice.card

    @property
    def move(self) -> Move | None:
        return self.choice.move


def judge(
    position: Position,
    rules: Ruleset,
    choices: Sequence[Choice],
    hidden: Hidden | None = None,
    rng: random.Random | None = None,
    looked_ahead: int = LOOKED_AHEAD,
    also: Choice | None = None,
    deals: int = DEALS,
) -> list[Verdict]:
    """The choices of the seat to play, best first. With ``hidden`` and ``rng`` the quick
    judge's best ``looked_ahead`` (and ``also``, where given: the move a review judges) are
    played on and ranked above the rest by what they lead to."""
    quick = sorted((_quick(position, choice) for choice in shortlist(position, choices, also)), key=_order)
    if hidden is None or rng is None or len(quick) < 2 or looked_ahead < 2:
        return quick
    chosen = [verdict.choice for verdict in quick[:looked_ahead]]
    if also is not None and also not in chosen:
        chosen.append(also)
    ahead = sorted(_look_ahead(position, rules, chosen, hidden, rng, deals), key=_order)
    return ahead + _on_the_same_scale(quick, ahead)


def _on_the_same_scale(quick: Sequence[Verdict], ahead: Sequence[Verdict]) -> list[Verdict]:
    """The choices not looked ahead, their chances moved by the looked-ahead ones' mean shift
    (a round later the chances differ from right after the move), never above the last looked
    ahead: what one gives away against the best is then counted on one scale."""
    first = {verdict.choice: verdict.chance for verdict in quick}
    shift = sum(verdict.chance - first[verdict.choice] for verdict in ahead) / len(ahead)
    floor, looked = ahead[-1].chance, {verdict.choice for verdict in ahead}
    rest = [verdict for verdict in quick if verdict.choice not in looked]
    return [replace(verdict, chance=min(floor, max(0.0, verdict.chance + shift))) for verdict in rest]


def noise(better: Verdict, worse: Verdict) -> float:
    """The standard error of the difference between two looked-ahead verdicts (paired: the
    same deals); 0 when either was judged quick, which has no sampling noise of its own."""
    pairs = list(zip(better.samples, worse.samples, strict=False))
    if len(pairs) < 2:
        return 0.0
    gaps = [a - b for a, b in pairs]
    mean = sum(gaps) / len(gaps)
    variance = sum((gap - mean) ** 2 for gap in gaps) / (len(gaps) - 1)
    return math.sqrt(variance / len(gaps))


def shortlist(
    position: Position, choices: Sequence[Choice], also: Choice | None = None, size: int = SHORTLIST
) -> list[Choice]:
    """At most ``size`` choices (and ``also``): those that gain most in the race when there are more."""
    if len(choices) <= size:
        return list(choices)
    board = position.board
    team = set(board.team_of[position.turn])
    kept = sorted(choices, key=lambda c: gain(board, team, c.move) if c.move else 0, reverse=True)[:size]
    return kept if also is None or also in kept else [*kept, also]


def after(position: Position, choice: Choice) -> Position:
    """The position a choice leaves, the next seat to play."""
    board = position.board
    result = choice.move.result if choice.move is not None else position
    return result.with_turn(board.next_seat(position.turn))


def _quick(position: Position, choice: Choice) -> Verdict:
    return Verdict(choice, chance(after(position, choice), position.turn))


def _order(verdict: Verdict) -> tuple[float, str]:
    """Best first; equal chances in the order of the notation, so a judgement repeats."""
    move = verdict.move
    return (-verdict.chance, move.text if move is not None else f"~{verdict.card}")


def _look_ahead(
    position: Position, rules: Ruleset, choices: Sequence[Choice], hidden: Hidden, rng: random.Random, count: int
) -> list[Verdict]:
    board, seat = position.board, position.turn
    replies = max(1, position.board.players) * len(choices)
    deals = hidden.sample(rng, count)[: max(2, WORK * count // DEALS // replies)]
    verdicts = []
    for choice in choices:
        start = choice.move.result if choice.move is not None else position
        found = []
        for deal in deals:
            end, last = start, seat
            for answer in play_round(start, deal, rules, seat, hidden.kept(choice.card)):
                last = answer.seat
                if answer.move is not None:
                    end = answer.move.result
            found.append(chance(end.with_turn(board.next_seat(last)), seat))
        verdicts.append(Verdict(choice, sum(found) / len(found), looked_ahead=True, samples=tuple(found)))
    return verdicts
