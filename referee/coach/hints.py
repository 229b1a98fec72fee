"""Hints: a seat's choices ranked by the chance to win they leave, each saying why in the
words of the strategy notes, with the peg named and the difference said as people feel it.

    hints = rank(position, rules, cards=["5", "8", "K"])      # a hand; or every rank at a real table
    hints[0].words(names)    # 'Red moves 5 into home (the peg on Red's in-spot)'
    hints[0].why             # 'Your peg goes into home, all the way in: ...'
    hints[1].lost            # 0.04: the chance to win it gives away against the first

The ranking is the judge's (``referee.coach.judge``): the learned chance to win, looked ahead
over sampled deals when the caller gives what the seat cannot see. The notes only explain
(``referee.coach.explain``): a move is never ranked first because of a note.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import JOKER, RANKS
from referee.coach.explain import explain, moved_from
from referee.coach.judge import HINT_DEALS, HINT_LOOKED_AHEAD, Choice, Verdict, judge
from referee.coach.lookahead import Hidden
from referee.movegen import legal_moves
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import Names, hole_words, name_of, say

KEEP = ("A", "K", "Q", "J", "8", "10")  # kept before other cards when one must go (come-outs, 8 back, 10s)


@dataclass(frozen=True)
class Hint:
    """One choice for the seat to play: a card and its move (None: keep the joker and let
    ``card`` go), the chance to win it leaves, what it gives away against the best choice,
    and why, with ``{s<seat>}`` for the table's names."""

    card: str
    move: Move | None
    chance: float
    lost: float
    reason: str
    note: str
    follows: tuple[str, ...] = field(default=())
    breaks: tuple[str, ...] = field(default=())  # warnings it breaks that another choice keeps

    @property
    def why(self) -> str:
        return self.words_why({})

    def words_why(self, names: Names) -> str:
        return self.reason.format_map({f"s{seat}": name_of(names, seat) for seat in range(10)})

    def words(self, names: Names) -> str:
        if self.move is None:
            return f"Keep your joker and discard the {self.card}"
        return said_with_pegs(self.move, names)

    def as_json(self, names: Names) -> dict[str, Any]:
        return {
            "move": self.move.text if self.move else None,
            "words": self.words(names),
            "why": self.words_why(names),
            "note": self.note,
            "chance": round(self.chance, 3),
            "lost": round(self.lost, 3),
            **({"discard": self.card} if self.move is None else {}),
        }


def said_with_pegs(move: Move, names: Names, cards: tuple[str, ...] | None = None) -> str:
    """The move in words and the pegs it takes: two moves of one card read apart by their pegs
    ("Red moves 5 (the peg on Red's corner)"). ``cards`` as for ``referee.words.say``."""
    return say(move, names, cards) + which_pegs(move, names)


def which_pegs(move: Move, names: Names) -> str:
    """The pegs a move takes, as a finger finds them: ' (the peg on Red's in-spot)'."""
    board = move.before.board
    places = [hole_words(board.hole_name(hole), names) for hole in moved_from(move)]
    if not places:
        return ""
    if len(places) == 1:
        return f" (the peg on {places[0]})"
    return f" (the pegs on {', then '.join(places)})"


def rank(
    position: Position,
    rules: Ruleset,
    cards: Iterable[str] | None = None,
    limit: int | None = None,
    hidden: Hidden | None = None,
    rng: random.Random | None = None,
) -> list[Hint]:
    """Every legal choice of the seat to play for ``cards`` (None: every rank, as at a real
    table where the referee does not see the hand), best first. A hand whose only moves are a
    joker's also gets "keep the joker and discard a card" (the rules page, Basic Game: a
    player is never forced to play a joker). ``hidden`` and ``rng``: look the best few ahead."""
    hand = list(cards) if cards is not None else None
    choices = choices_for(position, rules, hand)
    hints = hints_of(judge(position, rules, choices, hidden, rng, HINT_LOOKED_AHEAD, deals=HINT_DEALS), rules)
    return hints[:limit] if limit else hints


def choices_for(position: Position, rules: Ruleset, hand: Sequence[str] | None) -> list[Choice]:
    """The seat's choices with ``hand`` (None: every rank), keeping the joker where only jokers move."""
    choices = [
        Choice(card, move) for card in dict.fromkeys(hand or RANKS) for move in legal_moves(position, card, rules)
    ]
    if hand is not None and choices and all(choice.card == JOKER for choice in choices):
        choices.append(Choice(spare_card(hand), None))
    return choices


def hints_of(verdicts: Sequence[Verdict], rules: Ruleset) -> list[Hint]:
    """The judge's verdicts (best first) with their reasons."""
    best = verdicts[0].chance if verdicts else 0.0
    return [
        Hint(v.card, v.move, v.chance, max(0.0, best - v.chance), said.reason, said.note, said.follows, said.breaks)
        for v, said in zip(verdicts, explain(verdicts, rules), strict=True)
    ]


def best_per_card(hints: Sequence[Hint]) -> list[Hint]:
    """The best hint of each card, best first: what a seat whose hand nobody knows can use."""
    best: dict[str, Hint] = {}
    for hint in hints:
        best.setdefault(hint.card, hint)
    return list(best.values())


def spare_card(hand: Sequence[str]) -> str:
    """The card to let go: never a joker if another will do, and cards that come out, go back 8
    or move the commonest distance last."""
    spare = [card for card in hand if card != JOKER] or list(hand)
    return min(spare, key=lambda card: (card in KEEP, KEEP.index(card) if card in KEEP else 0, card))


def hints_json(hints: Sequence[Hint], names: Mapping[int, str] | None = None) -> dict[str, Any]:
    return {"hints": [hint.as_json(names or {}) for hint in hints]}
