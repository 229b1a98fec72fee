"""What a step of the first lesson is (``Step``), who takes part in it (``Seats``), and the
words the steps share: cards and people named as the table names them, never hole codes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.board import Board
from referee.cards import JOKER
from referee.movegen import legal_moves
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import Names, name_of, say


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    teach: str  # the idea, in the rule set's own terms, citing the rule by its section
    position: Position | None  # what to set up on the board (None: the practice game)
    card: str | None  # the card to play (None: nothing to play: look, then go on)
    task: str  # what the learner is asked to do
    passes: tuple[Move, ...]  # the moves that show the idea

    def shows_the_idea(self, move: Move) -> bool:
        """Whether ``move`` is one of the moves this step asks for (a legal move may not be)."""
        return any(move.key == passing.key for passing in self.passes)

    def missed(self, move: Move, names: Names) -> str:
        """Why a legal move that is not this step's is taken back, in words."""
        return f"{say(move, names)}: that is a legal move, but not the one this step is about. {self.task}"

    def as_json(self, names: Names) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "teach": self.teach,
            "task": self.task,
            "card": self.card,
            "position": self.position.to_json() if self.position else None,
            "passes": [
                {"move": move.text, "words": say(move, names), "result": move.result.pegs_json()}
                for move in self.passes
            ],
        }


@dataclass(frozen=True)
class Seats:
    """Who is who in a lesson: the learner, its partners, its opponents, and what the table calls them."""

    board: Board
    names: Names
    learner: int = 0

    @property
    def partners(self) -> tuple[int, ...]:
        """The learner's partners clockwise from its left: the first is its left-hand partner."""
        return self.board.partners_clockwise(self.learner)[1:]

    @property
    def partner(self) -> int:
        """The learner's left-hand partner, the first clockwise."""
        return self.partners[0]

    @property
    def opponents(self) -> tuple[int, ...]:
        """The learner's opponents clockwise from its left."""
        seat, found = self.board.next_seat(self.learner), []
        while seat != self.learner:
            if seat not in self.board.team_of[self.learner]:
                found.append(seat)
            seat = self.board.next_seat(seat)
        return tuple(found)

    @property
    def opponent(self) -> int:
        """The opponent to the learner's left, whose side comes next on the way round."""
        return self.opponents[0]

    def name(self, seat: int) -> str:
        return name_of(self.names, seat)

    def named(self, seats: tuple[int, ...]) -> str:
        """ "Sky blue", "Sky blue and White", "Sky blue, White and Pink"."""
        return and_list([self.name(seat) for seat in seats])

    def hole(self, seat: int, k: int) -> str:
        """The k-th hole past ``seat``'s corner (k may run past 17 onto the next sides, or below 0
        back onto the side before)."""
        side, k = divmod(seat * 18 + k, 18)
        return f"T{side % self.board.players}:{k}"

    def position(self, pegs: Mapping[int, list[str]]) -> Position:
        full = {seat: list(pegs.get(seat, [])) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in self.board.seats}
        return Position.from_pegs(self.board, self.learner, full)

    def home(self, seat: int, depths: range = range(1, 6)) -> list[str]:
        return [f"H{seat}:{depth}" for depth in depths]


def moves(
    position: Position, card: str, rules: Ruleset, keep: Callable[[Move], bool] = lambda _: True
) -> tuple[Move, ...]:
    """The legal moves of ``card`` that show a step's idea (``keep``)."""
    return tuple(move for move in legal_moves(position, card, rules) if keep(move))


def and_list(words: list[str], last: str = "and") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


CARD_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", JOKER: "joker"}


def the_card(card: str) -> str:
    """ "the ace", "the joker", "the 7": a card as the task names it."""
    return "the " + CARD_NAMES.get(card, card)


def card_list(cards: list[str]) -> str:
    """ "an ace, a jack, a queen or a king"."""
    words = {"A": "an ace", "J": "a jack", "Q": "a queen", "K": "a king", JOKER: "a joker", "8": "an 8"}
    return and_list([words.get(card, f"a {card}") for card in cards], "or")


def whose(rules: Ruleset) -> str:
    """The pegs a player moves, as a sentence's object: "one of your pegs", "a peg of your team"."""
    return "a peg of your team" if rules.movers == "team" else "one of your pegs"


def ordinal(number: int) -> str:
    return f"{number}{'th' if 10 <= number % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"
