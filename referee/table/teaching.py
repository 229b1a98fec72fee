"""What the page shows a learner: hints for the seat to play, and each card's moves in words.

    hints_for(session, names)          # the best 3 moves, each with its reason and its note
    moves_by_card(session, names)      # {"5": ["Red moves 5", ...], ...}: a newcomer's first game

With the referee's cards (digital mode) the seat's own hand is used; at a real table the hand
is unknown, so every rank is considered (or only the card declared). The rules page's Note on
Table Talk: "When teaching the game to beginners, this rule may be relaxed to allow possible
moves to be discussed by the team", and even then no cards are given away: so a teaching game
shows these on every page at a real table, and with the referee's cards only on the phones of
the seat to play and its partners (``Table.lesson``); a serious game shows hints only when the
seat asks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.cards import CARDS, RANKS
from referee.coach.expert import advise
from referee.coach.hints import Hint, rank
from referee.movegen import legal_moves
from referee.table.session import Session
from referee.words import say

HINTS = 3
PER_CARD = 8
SHORTLIST = 150  # judged moves at most (a North Carolina 10 splits thousands of ways)


def _cards(session: Session) -> list[str]:
    game = session.game
    if session.declared is not None:
        return [session.declared]
    if game.mode == "digital":
        return list(dict.fromkeys(game.hand(game.turn)))
    return list(RANKS)


def rank_for(session: Session, limit: int = HINTS) -> list[Hint]:
    game = session.game
    if game.phase != "play":
        return []
    ranked = rank(game.position, game.rules, _cards(session), shortlist=SHORTLIST)
    # The expert's look-ahead, seeded by the moment so that asking twice gives the same answer.
    seen = advise(game, ranked, random.Random(f"{game.seed}:{len(game.events)}"))
    return seen[:limit]


def hints_for(session: Session, names: Mapping[int, str], limit: int = HINTS) -> list[dict[str, Any]]:
    return shown(rank_for(session, limit), names)


def shown(hints: list[Hint], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Hints as the page shows them: in words, with the card each plays."""
    return [{**hint.as_json(names), "card": hint.card} for hint in hints]


def moves_by_card(session: Session, names: Mapping[int, str], per_card: int = PER_CARD) -> dict[str, Any]:
    """Each card's legal moves in words (the first ``per_card``, and how many more)."""
    game = session.game
    if game.phase != "play":
        return {}
    shown: dict[str, Any] = {}
    for card in sorted(_cards(session), key=CARDS.index):
        words, more = [], 0
        for count, move in enumerate(legal_moves(game.position, card, game.rules)):
            if count < per_card:
                words.append(say(move, names))
            else:
                more += 1
        shown[card] = {"moves": words, "more": more}
    return shown
