"""The first lesson: the rules of a rule set taught one idea at a time, each a small position
set up on the board, a card to play, and the moves that show the idea.

    steps = lesson(Ruleset.preset("north-carolina"), players=4, names={0: "Red", ...})
    steps[4].teach      # "A 7 may be split between two of your pegs ..."
    steps[4].passes     # the moves that pass: here only the splits

The steps follow the rules, not a script: a card that splits, swaps or moves back in this
rule set gets a step of its own, so a house-rules file changes only the steps its cards
change. The learner is any seat (seat 0 unless told); its first partner and the opponent to
its left take part where a step needs them. Words name colours and places, never hole codes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.board import Board
from referee.cards import JOKER
from referee.movegen import legal_moves, mover_seats
from referee.moves import Move
from referee.position import Position
from referee.rulesets import CardPower, Ruleset
from referee.words import Names, name_of, say

PRACTICE_BOTS = "strategic"  # the practice game's other seats


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
    """Who is who in a lesson: the learner, a partner, an opponent, and what the table calls them."""

    board: Board
    names: Names
    learner: int = 0

    @property
    def partner(self) -> int:
        """The learner's first partner clockwise."""
        return self.board.partners_clockwise(self.learner)[1]

    @property
    def opponent(self) -> int:
        """The opponent to the learner's left, whose side comes next on the way round."""
        seat = self.board.next_seat(self.learner)
        while seat in self.board.team_of[self.learner]:
            seat = self.board.next_seat(seat)
        return seat

    def name(self, seat: int) -> str:
        return name_of(self.names, seat)

    def hole(self, seat: int, k: int) -> str:
        """The k-th hole past ``seat``'s corner (k may run past 17 onto the next sides, or below 0
        back onto the side before)."""
        side, k = divmod(seat * 18 + k, 18)
        return f"T{side % self.board.players}:{k}"

    def position(self, pegs: Mapping[int, list[str]]) -> Position:
        full = {seat: list(pegs.get(seat, [])) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in self.board.seats}
        return Position.from_pegs(self.board, self.learner, full)


def lesson(
    rules: Ruleset, players: int = 4, names: Names | None = None, teams: list[list[int]] | None = None, learner: int = 0
) -> list[Step]:
    """Every step of the lesson for this rule set and board, in teaching order, for ``learner``."""
    seats = Seats(Board.for_players(players, teams), names or {}, learner)
    steps = [_board(seats), _come_out(seats, rules), _forward(seats, rules), _eight_back(seats, rules)]
    steps += [step for card, power in rules.cards for step in _special(seats, rules, card, power)]
    steps += [
        _landing_on(seats, rules, seats.opponent),
        _landing_on(seats, rules, seats.partner),
        _joker(seats, rules),
        _home(seats, rules),
        _partners_pegs(seats, rules),
        _practice(seats, rules),
    ]
    return [step for step in steps if step is not None]


def _moves(
    position: Position, card: str, rules: Ruleset, keep: Callable[[Move], bool] = lambda _: True
) -> tuple[Move, ...]:
    return tuple(move for move in legal_moves(position, card, rules) if keep(move))


def _board(seats: Seats) -> Step:
    me, partner, opponent = seats.name(seats.learner), seats.name(seats.partner), seats.name(seats.opponent)
    return Step(
        "board",
        "The board",
        f"You are {me}. Your five pegs start in your start area; the hole beside it is your come-out "
        f"hole, where a peg comes onto the track. Pegs go clockwise all the way round to your in-spot, the "
        f"3rd hole past your corner, and turn off there into your home, five holes deep. {partner} is "
        f"your partner; {opponent} plays against you (the rules page, Movement of pegs - general rules). "
        "The lights show each place as this page names it.",
        seats.position({}),
        None,
        "Look at your start, come-out hole, in-spot and home on the board, then go on.",
        (),
    )


def _come_out_cards(rules: Ruleset) -> list[str]:
    return [card for card, power in rules.cards if power.come_out]


def _title(rules: Ruleset) -> str:
    """The rule set as players name it: "the North Carolina rules"."""
    return f"{rules.name.replace('-', ' ').title()} rules"


def the_card(card: str) -> str:
    """ "the ace", "the joker", "the 7": a card as the task names it."""
    return "the " + {"A": "ace", "J": "jack", "Q": "queen", "K": "king", JOKER: "joker"}.get(card, card)


def _card_list(cards: list[str]) -> str:
    words = {"A": "an ace", "J": "a jack", "Q": "a queen", "K": "a king", JOKER: "a joker", "8": "an 8"}
    said = [words.get(card, f"a {card}") for card in cards]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]


def _come_out(seats: Seats, rules: Ruleset) -> Step:
    cards = _come_out_cards(rules)
    card = cards[0]
    position = seats.position({})
    passes = _moves(position, card, rules, lambda move: seats.board.is_start(move.steps[0].source))
    return Step(
        "come-out",
        "Coming out",
        f"A peg leaves start only onto its own come-out hole, with {_card_list(cards)} (the rules page, "
        "Movement of pegs - effects of individual cards).",
        position,
        card,
        f"Play {the_card(card)}: bring a peg out of your start onto your come-out hole.",
        passes,
    )


def _forward(seats: Seats, rules: Ruleset) -> Step | None:
    position = seats.position({seats.learner: [seats.hole(seats.learner, 9), seats.hole(seats.learner, 13)]})
    passes = _moves(position, "5", rules)
    return Step(
        "forward",
        "Moving forward",
        "A number card moves one of your pegs forward that many holes, the full count, no less; you may "
        "never land on or pass over your own peg (the rules page, Movement of pegs - general rules).",
        position,
        "5",
        "Play the 5. One of your pegs can't use it: it would pass your other peg.",
        passes,
    )


def _eight_back(seats: Seats, rules: Ruleset) -> Step | None:
    if 8 not in rules.power("8").backward:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 11)]})
    in_spot = seats.board.in_spot(seats.learner)
    passes = _moves(position, "8", rules, lambda move: move.steps[0].target == in_spot)
    return Step(
        "eight-back",
        "The 8 goes backwards",
        "An 8 moves a peg 8 holes backwards. That is why, after coming out, it is good to move 1, 2 or 3 "
        "forward: an 8 then takes the peg back to or past its in-spot, ready to go home (the rules page, "
        "Notes on Strategy).",
        position,
        "8",
        "Your peg is 3 past its come-out hole. Play the 8: take it back to your in-spot.",
        passes,
    )


def _special(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> list[Step]:
    """A step for each thing a card does beyond moving one peg forward: a split, a swap, a move back."""
    steps = (
        _split_step(seats, rules, card, power),
        _swap_step(seats, rules, card, power),
        _back_step(seats, rules, card, power),
    )
    return [step for step in steps if step is not None]


def _split_step(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> Step | None:
    """Two of the learner's pegs to share the count between, when the card splits."""
    if power.split is None:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 10), seats.hole(seats.opponent, 2)]})
    passes = _moves(position, card, rules, lambda move: len(move.steps) == 2 and not move.steps[0].swap)
    if not passes:
        return None
    how = {
        "forward": "both forward",
        "forward-backward": "one forward and the other backward",
        "any": "each part forward or backward",
    }[power.split.directions]
    must = "must be split" if power.split.required else "may be split"
    return Step(
        f"split-{card}",
        f"Splitting the {card}",
        f"The {card} {must} between two pegs, {how}; the two parts add up to {power.split.total} "
        f"({_title(rules)}: {power.describe()}).",
        position,
        card,
        f"Play {the_card(card)} and split it between your two pegs.",
        passes,
    )


def _swap_step(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> Step | None:
    """The learner's peg and an opponent's on the main track, when the card swaps."""
    if not power.swap:
        return None
    position = seats.position(
        {seats.learner: [seats.hole(seats.learner, 12)], seats.opponent: [seats.hole(seats.opponent, 15)]}
    )
    passes = _moves(position, card, rules, lambda move: move.steps[0].swap)
    if not passes:
        return None
    return Step(
        f"swap-{card}",
        f"{the_card(card).capitalize()} swaps",
        f"The {card} may swap the places of two pegs of different colours on the main track "
        f"({_title(rules)}: {power.describe()}).",
        position,
        card,
        f"Play {the_card(card)}: swap your peg with {seats.name(seats.opponent)}'s.",
        passes,
    )


def _back_step(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> Step | None:
    """A peg to move back, when a card other than the 8 (which has its own step) also goes back."""
    backward = [n for n in power.backward if card != "8"]
    if not backward:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 12)]})
    passes = _moves(position, card, rules, lambda move: _went_back(seats.board, move))
    if not passes:
        return None
    return Step(
        f"back-{card}",
        f"{the_card(card).capitalize()} can go back",
        f"{_card_list([card]).capitalize()} may also move a peg {backward[0]} hole{'s' if backward[0] > 1 else ''} "
        f"backwards ({_title(rules)}: {power.describe()}).",
        position,
        card,
        f"Play {the_card(card)} and move your peg backwards.",
        passes,
    )


def _went_back(board: Board, move: Move) -> bool:
    step = move.steps[0]
    return (
        board.is_track(step.source)
        and board.is_track(step.target)
        and (step.source - step.target) % board.track_length < 18
    )


def _landing_on(seats: Seats, rules: Ruleset, victim: int) -> Step:
    """A 5 that lands on ``victim``'s peg: an opponent's goes back to start, a partner's on to its in-spot."""
    position = seats.position({seats.learner: [seats.hole(seats.learner, 12)], victim: [seats.hole(seats.learner, 17)]})
    passes = _moves(position, "5", rules, lambda move: any(bump.seat == victim for bump in move.bumps))
    cited = "(the rules page, Movement of pegs - general rules)"
    if victim == seats.opponent:
        return Step(
            "bump-opponent",
            "Landing on an opponent",
            f"Land exactly on an opponent's peg and it goes back to its start {cited}. Passing over it does nothing.",
            position,
            "5",
            f"Play the 5: land on {seats.name(victim)}'s peg.",
            passes,
        )
    return Step(
        "bump-partner",
        "Landing on your partner",
        "Land exactly on your partner's peg and it jumps ahead to its own in-spot, ready to go home, unless "
        f"a peg of your partner's is already there {cited}.",
        position,
        "5",
        f"Play the 5: land on {seats.name(victim)}'s peg and send it to its in-spot.",
        passes,
    )


def _joker(seats: Seats, rules: Ruleset) -> Step | None:
    if not rules.jokers_for(seats.board.players):
        return None
    opponent = seats.opponent
    position = seats.position({opponent: [seats.hole(opponent, 12)]})
    passes = _moves(position, JOKER, rules, lambda move: any(bump.seat == opponent for bump in move.bumps))
    return Step(
        "joker",
        "The joker",
        "A joker moves one of your pegs, even one in start, onto any other colour's peg on the main track, "
        "never to an empty hole. Nobody is forced to play one: keep it for a double play if you can (the "
        "rules page, Movement of pegs - effects of individual cards; Common Errors).",
        position,
        JOKER,
        f"Play the joker: jump a peg from your start onto {seats.name(opponent)}'s peg.",
        passes,
    )


def _home(seats: Seats, rules: Ruleset) -> Step:
    position = seats.position({seats.learner: [seats.hole(seats.learner, 1)]})
    deepest = seats.board.home(seats.learner, 5)
    passes = _moves(position, "7", rules, lambda move: move.steps[-1].target == deepest)
    return Step(
        "home",
        "Going home",
        "A peg turns into home at its in-spot and must use the exact count; pegs never back in, and the "
        "first one home goes all the way to the end, or the others get stuck behind it: the Kiss of Death "
        "(the rules page, Endgame; Common Errors).",
        position,
        "7",
        "Play the 7: 2 to your in-spot and 5 into home, all the way to the end.",
        passes,
    )


def _partners_pegs(seats: Seats, rules: Ruleset) -> Step:
    partner = seats.partner
    home = [f"H{seats.learner}:{depth}" for depth in range(1, 6)]
    position = seats.position({seats.learner: home, partner: [seats.hole(partner, 12)]})
    passes = _moves(position, "3", rules, lambda move: move.before.colour_at(move.steps[0].source) == partner)
    team = rules.movers == "team"
    teach = (
        f"In the {_title(rules)} you may move any peg of your team at any time, your partner's too "
        f'({_title(rules)}: "you may move any of the pegs belonging to your team").'
        if team
        else "When all five of your pegs are home, you use your turns to move your partner's pegs "
        "(the rules page, Endgame)."
    )
    assert partner in mover_seats(position, rules)
    return Step(
        "partners-pegs",
        "Moving your partner's pegs",
        teach,
        position,
        "3",
        f"All your pegs are home. Play the 3 with {seats.name(partner)}'s peg.",
        passes,
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
            f"{seats.name(partner)}, your partner: start and come-out hole",
            (*start(partner), seats.hole(partner, 8)),
        ),
        Place(
            "opponent",
            f"{seats.name(opponent)}, an opponent: start and come-out hole",
            (*start(opponent), seats.hole(opponent, 8)),
        ),
    )
