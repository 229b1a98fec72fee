"""The first lesson: the rules of a rule set taught one idea at a time, each a small position
set up on the board, a card to play, and the moves that show the idea.

    steps = {step.key: step for step in lesson(Ruleset.preset("north-carolina"), 4, {0: "Red", ...})}
    steps["split-10"].teach   # "The 10 must be split between any two pegs on the board, ..."
    steps["split-10"].passes  # the moves that pass: here the splits that move an opponent's peg

The steps follow the rules, not a script: every rule a rule set changes from the basic game (a
``Ruleset`` field, a card's power) gets its step, its words made from that data and citing the
text it comes from (``referee.coach.lesson_sources``), so a house-rules file changes only the
steps its fields change. The learner is any seat (seat 0 unless told); its partners and the
opponent to its left take part where a step needs them. Words name colours and places, never
hole codes.

The steps, by idea: the turn and counting, Bluffing Joker's face-down cards
(``lesson_turns``); what each card does (``lesson_cards``); other colours and the way home
(``lesson_endgame``); the board and the practice game here.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.board import Board
from referee.coach import lesson_cards as cards
from referee.coach import lesson_endgame as endgame
from referee.coach import lesson_turns as turns
from referee.coach.lesson_sources import GENERAL
from referee.coach.lesson_step import Seats, Step, the_card
from referee.rulesets import Ruleset
from referee.words import Names

__all__ = ["PRACTICE_BOTS", "Place", "Step", "lesson", "places", "the_card"]

PRACTICE_BOTS = "family"  # the practice game's other seats: the judge, with a slip now and then


def lesson(
    rules: Ruleset, players: int = 4, names: Names | None = None, teams: list[list[int]] | None = None, learner: int = 0
) -> list[Step]:
    """Every step of the lesson for this rule set and board, in teaching order, for ``learner``."""
    seats = Seats(Board.for_players(players, teams), names or {}, learner)
    steps = [
        _board(seats),
        turns.turn(seats, rules),
        cards.come_out(seats, rules),
        turns.counting(seats, rules),
        cards.track(seats, rules),
        cards.forward(seats, rules),
        cards.eight_back(seats, rules),
    ]
    steps += [step for card, power in rules.cards for step in cards.special(seats, rules, card, power)]
    steps += [
        endgame.landing_on(seats, rules, seats.opponent),
        endgame.landing_on(seats, rules, seats.partner),
        cards.joker(seats, rules),
        endgame.in_spot(seats, rules),
        endgame.home(seats, rules),
        endgame.partners_pegs(seats, rules),
        endgame.split_into_partner(seats, rules),
        turns.bluff(seats, rules),
        _practice(seats, rules),
    ]
    return [step for step in steps if step is not None]


def _board(seats: Seats) -> Step:
    me, partners, opponents = seats.name(seats.learner), seats.partners, seats.opponents
    return Step(
        "board",
        "The board",
        f"You are {me}. Your five pegs start in your start area; the hole beside it is your come-out "
        f"hole, where a peg comes onto the track. Pegs go clockwise all the way round to your in-spot, the "
        f"3rd hole past your corner, and turn off there into your home, five holes deep ({GENERAL}). "
        f"{seats.named(partners)} {'is your partner' if len(partners) == 1 else 'are your partners'}; "
        f"{seats.named(opponents)} {'plays' if len(opponents) == 1 else 'play'} against you (the rules page, "
        "Players and Equipment). The lights show each place as this page names it.",
        seats.position({}),
        None,
        "Look at your start, come-out hole, in-spot and home on the board, then go on.",
        (),
    )


def _practice(seats: Seats, rules: Ruleset) -> Step:
    """A game short enough for one sitting: three pegs of every colour home already, the other two
    on their way round (one close to home, one half a side further back)."""
    board = seats.board
    pegs = {
        seat: [f"H{seat}:{depth}" for depth in (3, 4, 5)] + [seats.hole(seat, -3), seats.hole(seat, -11)]
        for seat in board.seats
    }
    return Step(
        "practice",
        "A short practice game",
        f"Now a real game, shortened: three pegs of every colour are home already. Deal each person "
        f"{rules.hand_size} cards from a real deck; the other seats are {PRACTICE_BOTS} bots: when it is a "
        "bot's turn, turn up the top card for it and tap that card on the page. Hints are on: ask for one "
        "whenever you are not sure (the rules page's Note on Table Talk: when teaching beginners, possible "
        "moves may be discussed).",
        seats.position(pegs),
        None,
        "Play the game to the end; ask for a hint whenever you like.",
        (),
    )


@dataclass(frozen=True)
class Place:
    """A place the first step shows on the board: its words and the physical holes it lights."""

    key: str
    words: str
    holes: tuple[str, ...]


def places(board: Board, names: Names, learner: int = 0) -> tuple[Place, ...]:
    """The places of the first step, for the learner: each lit on the board as the page names it."""
    seats = Seats(board, names, learner)
    partner, opponent = seats.partner, seats.opponent

    def start(seat: int) -> tuple[str, ...]:
        return tuple(f"S{seat}:{n}" for n in range(1, 6))

    way_round = tuple(seats.hole(learner, k) for k in range(8, 18 * board.sides + 4))
    return (
        Place("start", "Your start", start(learner)),
        Place("come-out", "Your come-out hole", (seats.hole(learner, 8),)),
        Place("way-round", "The way round, from your come-out hole to your in-spot", way_round),
        Place("in-spot", "Your in-spot", (seats.hole(learner, 3),)),
        Place("home", "Your home", tuple(f"H{learner}:{depth}" for depth in range(1, 6))),
        Place(
            "partner",
            f"{seats.name(partner)}, your {'partner' if len(seats.partners) == 1 else 'left-hand partner'}: "
            "start and come-out hole",
            (*start(partner), seats.hole(partner, 8)),
        ),
        Place(
            "opponent",
            f"{seats.name(opponent)}, an opponent: start and come-out hole",
            (*start(opponent), seats.hole(opponent, 8)),
        ),
    )
