"""The luck of a draw: how much better the best move is with the card the seat drew than with
an average card from those it could have drawn, so a review can tell "we lost because of the
cards" from "we lost because of our moves" (backgammon reviews count the dice the same way).

    luck(position, rules, kept=("5", "9", "2", "Q"), drawn="K", unseen=hidden.unseen)   # +0.03

Only the draw is luck: which cards a seat keeps from turn to turn is its own choice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import islice

from referee.coach.judge import Choice, after, shortlist
from referee.coach.value import chance
from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset

READ = 300  # a card's moves read at most (a North Carolina 10 splits thousands of ways)
PER_CARD = 12  # of those, the ones that gain most in the race are judged


def luck(position: Position, rules: Ruleset, kept: Sequence[str], drawn: str, unseen: Sequence[str]) -> float:
    """The best chance ``kept`` and ``drawn`` allow, less its average over every card the seat
    could have drawn instead (``drawn`` or one of ``unseen``, each copy as likely)."""
    pool = Counter([drawn, *unseen])
    best = {card: _best(position, rules, card) for card in pool.keys() | set(kept)}
    floor = max((best[card] for card in kept), default=0.0)
    average = sum(max(floor, best[card]) * count for card, count in pool.items()) / sum(pool.values())
    return max(floor, best[drawn]) - average


def _best(position: Position, rules: Ruleset, card: str) -> float:
    """The best chance one card allows (passing the turn where it cannot move)."""
    choices = [Choice(card, move) for move in islice(legal_moves(position, card, rules), READ)]
    choices = shortlist(position, choices, size=PER_CARD)
    if not choices:
        return chance(after(position, Choice(card, None)), position.turn)
    return max(chance(after(position, choice), position.turn) for choice in choices)
