"""This commit's teaching as ``scripts/judge_quality.py`` plugs it in: the hint the page gives
first (the judge, looked ahead) and the size word the review gives a move.

    .venv/bin/python scripts/judge_quality.py --ranker scripts.judge_adapters:top_hint \\
        --review scripts.judge_adapters:review_label
"""

from __future__ import annotations

import random

from referee.coach.hints import choices_for, rank
from referee.coach.judge import Choice
from referee.coach.lookahead import Hidden
from referee.coach.review_moves import Known, assess
from referee.game import Game
from referee.moves import Move


def top_hint(game: Game) -> tuple[str, Move | None]:
    """The first hint for the seat to play with its hand, as the Hint button gives it."""
    seat = game.turn
    hand = game.hand(seat)
    hints = rank(game.position, game.rules, hand, hidden=Hidden.of(game, seat), rng=random.Random(len(game.events)))
    return hints[0].card, hints[0].move


def review_label(game: Game, card: str, move: Move | None) -> str:
    """What the review calls ``card`` and ``move`` played here: best, good, or a size word."""
    seat = game.turn
    hand = tuple(game.hand(seat))
    known = Known(hand, card, Hidden.of(game, seat))
    choices = choices_for(game.position, game.rules, hand)
    played = next((c for c in choices if c.card == card and _same(c.move, move)), None)
    if played is None:
        played = Choice(card, move)
        choices.append(played)
    best, mine, _lost, size, _clear = assess(game, choices, played, known, len(game.events))
    if size is not None:
        return {"an inaccuracy": "inaccuracy", "a mistake": "mistake", "a blunder": "blunder"}[size]
    return "best" if best.choice == mine.choice else "good"


def _same(one: Move | None, other: Move | None) -> bool:
    if one is None or other is None:
        return one is other
    return one.text == other.text
