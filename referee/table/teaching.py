"""What the page shows a learner: hints for the seat to play, and each card's moves in words.

    hints_for(session, names)          # the best 3 moves, each with its reason and its note
    moves_by_card(session, names)      # {"5": {"moves": ["Red moves 5 (the peg on Red's corner)", ...], "more": 0}}

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
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import CARDS, RANKS
from referee.coach.hints import Hint, best_per_card, rank, said_with_pegs
from referee.coach.judge import DEALS
from referee.coach.lookahead import Hidden
from referee.coach.outlook import outlook
from referee.game import Game, GameError
from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset
from referee.table import seating
from referee.table.session import Session

HINTS = 3
PER_CARD = 8


def _cards(session: Session) -> list[str]:
    game = session.game
    if session.declared is not None:
        return [session.declared]
    if game.mode == "digital":
        return list(dict.fromkeys(game.hand(game.turn)))
    return list(RANKS)


@dataclass(frozen=True)
class Question:
    """What a hint needs to know, taken from the game under the table's lock; the answer is
    worked out after it is let go (the expert's look-ahead takes tens of milliseconds, and
    the sensors must not wait for it)."""

    position: Position
    rules: Ruleset
    cards: tuple[str, ...]
    hidden: Hidden
    moment: str  # seeds the look-ahead: asking twice at one moment gives one answer

    @classmethod
    def of(cls, session: Session) -> Question | None:
        game = session.game
        if game.phase != "play":
            return None
        return cls(
            game.position,
            game.rules,
            tuple(_cards(session)),
            Hidden.of(game, game.turn),
            f"{game.seed}:{len(game.events)}",
        )

    def answer(self, limit: int = HINTS, look_ahead: bool = True) -> list[Hint]:
        """The best choices, the first few looked ahead. With the hand unknown (a real table,
        no card declared) the best move of each card the seat may hold, best first: three
        ways to play a 7 help nobody who holds no 7."""
        rng = random.Random(self.moment)
        hidden = self.hidden if look_ahead else None
        ranked = rank(self.position, self.rules, self.cards, hidden=hidden, rng=rng if look_ahead else None)
        if self.hand_unknown:
            return best_per_card(ranked)
        ranked = ranked[:limit]
        if look_ahead and ranked:
            found = outlook(self.position, self.rules, ranked[0].move, self.hidden.sample(rng, DEALS))
            if found:
                ranked[0] = replace(ranked[0], reason=f"{ranked[0].reason} Looking ahead: {found}.")
        return ranked

    @property
    def hand_unknown(self) -> bool:
        return self.cards == tuple(RANKS)


def rank_for(session: Session, limit: int = HINTS) -> list[Hint]:
    """The hints by the quick judge (no look-ahead): quick enough to make while a page is
    being published."""
    question = Question.of(session)
    return question.answer(limit, look_ahead=False) if question else []


def hand_seen_by(game: Game) -> tuple[int, ...]:
    """The seats whose phones may see what the seat to play's cards allow: its own, and
    in a teaching game its partners' too."""
    return game.board.team_of[game.turn] if game.table.get("teaching") else (game.turn,)


@dataclass(frozen=True)
class Taught:
    """One turn's teaching: for the seat to play (or real cards everyone sees), the hints and
    each card's moves; for its partners' phones the same hints and moves without the cards."""

    hints: list[dict[str, Any]]
    moves: dict[str, Any]
    team_hints: list[dict[str, Any]]
    team_moves: list[str]


class PerTurn:
    """A teaching game's hints and each card's moves, worked out once per turn state (every
    page asks for them at every change; the table asks holding its lock)."""

    def __init__(self) -> None:
        self._cache: tuple[object, Taught] = (None, Taught([], {}, [], []))

    def get(self, session: Session, names: Mapping[int, str]) -> Taught:
        key = (session.game_id, len(session.game.events), session.declared)
        if self._cache[0] != key:
            ranked = rank_for(session)
            taught = Taught(shown(ranked, names), moves_by_card(session, names), for_the_team(ranked, names), [])
            self._cache = (key, replace(taught, team_moves=moves_without_cards(session, names)))
        return self._cache[1]


def for_the_team(hints: list[Hint], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Hints as partners see them (the rules page, Note on Table Talk: the team may discuss
    moves, but exchanges no information about the cards): the move, never the card it takes."""
    return [
        {
            "words": said_with_pegs(hint.move, names, ()) if hint.move else "Play no card: discard one",
            "why": hint.words_why(names),
            "note": hint.note,
        }
        for hint in hints
    ]


def moves_without_cards(session: Session, names: Mapping[int, str], most: int = 3 * PER_CARD) -> list[str]:
    """Every move the seat to play's cards allow, each once, none saying its card."""
    game, said = session.game, dict[str, None]()
    if game.phase != "play":
        return []
    for card in sorted(_cards(session), key=CARDS.index):
        for move in legal_moves(game.position, card, game.rules):
            said[said_with_pegs(move, names, ())] = None
    return list(said)[:most]


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
                words.append(said_with_pegs(move, names))  # two pegs' 5s read apart
            else:
                more += 1
        shown[card] = {"moves": words, "more": more}
    return shown


def check_asker(game: Game, names: Mapping[int, str], asker: int | None, show: bool) -> None:
    """Who may ask for hints (``asker``: a phone's seat; None: the table PIN): the seat to
    play, or in a teaching game a partner, who gets the moves without their cards; only the
    seat's own phone may light its hint (``show``) for everyone to see."""
    if asker is not None and asker not in hand_seen_by(game):
        raise PermissionError(f"only {names[game.turn]}'s phone may ask for its hints now")
    if show and asker is not None and asker != game.turn:
        raise PermissionError(f"the lights are for everyone: only {names[game.turn]}'s own phone may light its hint")


def for_phone(session: Session, per_turn: PerTurn, seat: int | None, game_id: int) -> dict[str, Any]:
    """A teaching game's hints and each card's moves, for the phone of ``seat`` in game
    ``game_id``. The rules page's Note on Table Talk relaxes table talk for the team when
    teaching beginners, and even then gives no cards away: with the referee's cards they
    show the seat to play's hand, so only its own phone and its partners' get them; with
    real cards (every rank, or the card declared for all to see) any page may."""
    game = session.game
    if not game.table.get("teaching"):
        raise GameError("each card's moves are shown in teaching games only: ask for a hint instead")
    if game.mode == "digital" and (game_id != session.game_id or seat not in hand_seen_by(game)):
        raise PermissionError("the cards of the seat to play are for its own phone and its partners' only")
    taught = per_turn.get(session, {row["seat"]: row["name"] for row in seating.seats(game)})
    if game.mode == "digital" and seat != game.turn:  # a partner's phone: the moves, not the cards
        return {"seat": game.turn, "hints": taught.team_hints, "team_moves": taught.team_moves}
    return {"seat": game.turn, "hints": taught.hints, "teaching_moves": taught.moves}
