"""Paired play-outs: a few of a seat's choices played on for several rounds over the same
sampled deals, each play-out ending at a win or, cut short, at the learned value.

    verdicts = rollouts(position, rules, [best, played], hidden, random.Random(7))
    gap, error = paired_gap(verdicts[0], verdicts[1])   # what the second gives away, and its noise

The one-round look-ahead (``referee.coach.lookahead``) reads the value right after the replies;
a loss that shows only later (a peg left where an opponent will come round to it, a joker
spent that a later turn needed) is missed there. GNU Backgammon confirms a doubtful move the
same way: rollouts, truncated and finished by its evaluator, every choice over the same dice
(common random numbers), so the difference of two choices is measured on paired samples and
its noise is a fraction of either's. Every seat plays the likeliest move (``lookahead.reply``:
the most race, a 7 split where that gains more, jokers where their bump pays), its cards dealt
from the sampled deal and drawn from its stock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.cards import JOKER
from referee.coach.judge import Choice, Verdict
from referee.coach.lookahead import Deal, Hidden, reply
from referee.coach.value import chance
from referee.position import Position
from referee.rulesets import Ruleset

ROUNDS = 4  # rounds played before the value is read (a play-out ends sooner at a win)
PLAYOUTS = 24  # sampled deals, the same for every choice
JOKERS = True  # a play-out's seats play a joker where its bump pays (a joker kept then has its worth)
SPLITS = True  # and split a 7 as players do: else only an exact card fills a gap left in home
BATCH = 8  # deals played between two looks at whether a verdict is settled


def rollouts(
    position: Position,
    rules: Ruleset,
    choices: Sequence[Choice],
    hidden: Hidden,
    rng: random.Random,
    playouts: int = PLAYOUTS,
    rounds: int = ROUNDS,
) -> list[Verdict]:
    """Each choice's chance to win, the mean of its play-outs (in ``samples``, paired by deal)."""
    deals = hidden.sample(rng, playouts)
    seeds = [rng.getrandbits(32) for _ in deals]
    return [_verdict(position, rules, choice, hidden, deals, seeds, rounds) for choice in choices]


@dataclass
class Budget:
    """The turns of play-out a whole review may spend (a game's review has its time budget)."""

    turns: int

    def spend(self, turns: int) -> bool:
        """Take ``turns`` from what is left: False, and nothing taken, when too few are left."""
        if turns > self.turns:
            return False
        self.turns -= turns
        return True


def confirm(
    position: Position,
    rules: Ruleset,
    pair: tuple[Choice, Choice],
    hidden: Hidden,
    rng: random.Random,
    settle: Callable[[float, float], bool],
    budget: Budget | None = None,
    playouts: int = PLAYOUTS,
    rounds: int = ROUNDS,
) -> tuple[float, float] | None:
    """What the second of ``pair`` gives away against the first, and its standard error, over
    paired play-outs in batches of ``BATCH`` deals, stopping early once ``settle(gap, error)``
    says the verdict can no longer change (most doubtful moves are settled by the first batch)
    or ``budget`` runs out; None if not one batch was played."""
    deals = hidden.sample(rng, playouts)
    seeds = [rng.getrandbits(32) for _ in deals]
    gaps: list[float] = []
    for first in range(0, playouts, BATCH):
        batch, batch_seeds = deals[first : first + BATCH], seeds[first : first + BATCH]
        if budget is not None and not budget.spend(len(pair) * len(batch) * rounds * position.board.players):
            break
        one, other = (_verdict(position, rules, choice, hidden, batch, batch_seeds, rounds) for choice in pair)
        gaps += [a - b for a, b in zip(one.samples, other.samples, strict=True)]
        gap, error = _mean_error(gaps)
        if settle(gap, error):
            break
    return _mean_error(gaps) if gaps else None


def _verdict(
    position: Position,
    rules: Ruleset,
    choice: Choice,
    hidden: Hidden,
    deals: Sequence[Deal],
    seeds: Sequence[int],
    rounds: int,
) -> Verdict:
    found = tuple(
        _play_on(position, rules, choice, hidden, deal, random.Random(seed), rounds)
        for deal, seed in zip(deals, seeds, strict=True)
    )
    return Verdict(choice, sum(found) / len(found), looked_ahead=True, samples=found)


def paired_gap(better: Verdict, worse: Verdict) -> tuple[float, float]:
    """How far ``worse`` falls below ``better`` over the paired play-outs, and that gap's
    standard error."""
    return _mean_error([a - b for a, b in zip(better.samples, worse.samples, strict=True)])


def _mean_error(gaps: Sequence[float]) -> tuple[float, float]:
    mean = sum(gaps) / len(gaps)
    if len(gaps) < 2:
        return mean, 0.0
    variance = sum((gap - mean) ** 2 for gap in gaps) / (len(gaps) - 1)
    return mean, math.sqrt(variance / len(gaps))


def _play_on(
    position: Position,
    rules: Ruleset,
    choice: Choice,
    hidden: Hidden,
    deal: Deal,
    rng: random.Random,
    rounds: int,
) -> float:
    """One play-out of ``choice``: 1 or 0 where a team wins within ``rounds``, else the value."""
    seat, board = position.turn, position.board
    stock = list(deal.stock)
    own = hidden.kept(choice.card)
    if own is None:  # at a real table the seat's hand is not known: deal it from the stock
        own = tuple(stock.pop() for _ in range(min(len(stock), rules.hand_size - 1)))
    hands = {other: list(cards) for other, cards in deal.hands.items()}
    hands[seat] = list(own)
    pile = [choice.card]
    if rules.draw == "after":
        _draw(hands[seat], stock, pile, rng)
    now = choice.move.result if choice.move is not None else position
    turn = board.next_seat(seat)
    for _ in range(rounds * board.players):
        won = now.winner()
        if won is not None:
            return 1.0 if seat in won else 0.0
        now = _turn(now.with_turn(turn), rules, hands[turn], stock, pile, rng)
        turn = board.next_seat(turn)
    won = now.winner()
    if won is not None:
        return 1.0 if seat in won else 0.0
    return chance(now.with_turn(turn), seat)


def _turn(
    position: Position, rules: Ruleset, hand: list[str], stock: list[str], pile: list[str], rng: random.Random
) -> Position:
    """One seat's turn: draw (before or after), play the likeliest move or let a card go."""
    if rules.draw == "before":
        _draw(hand, stock, pile, rng)
    if not hand:
        return position
    answer = reply(position, hand, rules, jokers=JOKERS, splits=SPLITS)
    card = answer.card if answer.card is not None else _spare(hand)
    hand.remove(card)
    pile.append(card)
    if rules.draw == "after":
        _draw(hand, stock, pile, rng)
    return answer.move.result if answer.move is not None else position


def _draw(hand: list[str], stock: list[str], pile: list[str], rng: random.Random) -> None:
    """The top card of the stock into the hand; an empty stock is the played pile shuffled."""
    if not stock:
        stock.extend(pile)
        pile.clear()
        rng.shuffle(stock)
    if stock:
        hand.append(stock.pop())


def _spare(hand: Sequence[str]) -> str:
    """The card let go when nothing moves: any but a joker, where there is one."""
    return min(hand, key=lambda card: (card == JOKER, card))
