"""The first lesson's steps (referee/coach/lesson.py, `pegs lesson`): the rules of each rule set
taught one idea at a time, each step a position, a card and the moves that show the idea.

Every sentence a lesson may say is listed here (``CLAIMS``) with the check that it holds for the
rule set it teaches: a pattern the sentence (its citation left off) must match whole, and a check
made on the engine (legal moves, whose pegs move, a game's turn, the Bluffing Joker protocol) or
on the rule set's data. A sentence no pattern matches is a sentence nobody checks, and fails.
The checks read the rule texts the lesson cites: the rules page's Basic Game, Movement of pegs
(general rules, effects of individual cards), Endgame, Notes on Strategy, Arizona, North
Carolina, Kilpatrick and Bluffing Joker rules, and Hatcher's variations, Social Security.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import bluff
from referee.board import Board
from referee.cards import CARDS, JOKER
from referee.coach.lesson import PRACTICE_BOTS, Step, lesson, places
from referee.events import Play, event_to_json
from referee.game import Game, GameError
from referee.movegen import free_come_outs, legal_moves, mover_seats
from referee.moves import Move
from referee.position import Position
from referee.rulesets import MAX_SPLIT_WEIGHT, PRESETS, Ruleset, Split
from referee.words import name_of

CITATION = re.compile(r"\s\((?:[^()]|\([^()]*\))*\)(?=\.$)")
NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", JOKER: "joker"}


@dataclass(frozen=True, repr=False)
class Lesson:
    """One step of a lesson, with what it was made for."""

    rules: Ruleset
    board: Board
    names: dict[int, str]
    learner: int
    step: Step
    steps: list[Step]

    @property
    def partners(self) -> tuple[int, ...]:
        return self.board.partners_clockwise(self.learner)[1:]

    @property
    def opponents(self) -> list[int]:
        """Clockwise from the learner's left: the first is the opponent to its left."""
        seats = self.board.seats
        at = seats.index(self.learner)
        clockwise = [*seats[at + 1 :], *seats[:at]]
        return [seat for seat in clockwise if seat not in self.board.team_of[self.learner]]

    def hole(self, seat: int, k: int) -> int:
        return (seat * 18 + k) % self.board.track_length

    def position(self, pegs: dict[int, list[int | str]]) -> Position:
        named = {
            seat: [hole if isinstance(hole, str) else self.board.hole_name(hole) for hole in pegs.get(seat, [])]
            for seat in self.board.seats
        }
        full = {seat: named[seat] + ["S"] * (5 - len(named[seat])) for seat in self.board.seats}
        return Position.from_pegs(self.board, self.learner, full)

    def moves(self, pegs: dict[int, list[int | str]], card: str) -> list[Move]:
        return list(legal_moves(self.position(pegs), card, self.rules))

    def name(self, seat: int) -> str:
        return name_of(self.names, seat)

    def game(self, hand: list[str], pegs: dict[int, list[str]]) -> Game:
        """A digital game whose learner holds ``hand``, the pegs where given (the others in start)."""
        full = {str(seat): holes + ["S"] * (5 - len(holes)) for seat, holes in pegs.items()}
        game = Game(self.rules, self.board.players, pegs=full)
        dealt = {str(seat): hand if seat == self.learner else ["8"] * len(hand) for seat in self.board.seats}
        events: list[dict[str, Any]] = [
            event_to_json(game.events[0]),
            {"event": "deal", "hands": dealt, "stock": ["3"] * 40},
            {"event": "turn", "seat": self.learner, "number": 1, "extra": False},
        ]
        return Game.from_events(events)


def phase_of(game: Game) -> str:
    """The game's phase, read afresh (an action changes it)."""
    return game.phase


def sentences(teach: str) -> list[str]:
    """The sentences of a step's words, each without the citation that ends it."""
    return [CITATION.sub("", sentence) for sentence in re.split(r"(?<=\.)\s+(?=[A-Z])", teach)]


def card_of(word: str) -> str:
    """ "the ace" / "an ace" / "a 10" -> the card."""
    word = re.sub(r"^(the|an|a) ", "", word)
    return next((card for card, name in NAMES.items() if name == word), word)


def cards_in(words: str) -> list[str]:
    return [card_of(word) for word in re.split(r", | or | and ", words)]


Check = Callable[[re.Match[str], Lesson], bool]
CLAIMS: list[tuple[re.Pattern[str], Check]] = []


def claim(pattern: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        CLAIMS.append((re.compile(pattern), check))
        return check

    return register


def check_sentence(sentence: str, lesson: Lesson) -> bool:
    """The sentence matches exactly one claim, and that claim holds."""
    matched = [(found, check) for pattern, check in CLAIMS if (found := pattern.fullmatch(sentence))]
    assert len(matched) == 1, f"{lesson.step.key}: {len(matched)} claims match {sentence!r}"
    found, check = matched[0]
    return check(found, lesson)


# -- the board --------------------------------------------------------------------------------


@claim(r"You are (?P<me>[\w ]+)\.")
def _you(found: re.Match[str], lesson: Lesson) -> bool:
    return found["me"] == lesson.name(lesson.learner)


@claim(
    r"Your five pegs start in your start area; the hole beside it is your come-out hole, where a peg comes onto "
    r"the track\."
)
def _start_and_come_out(found: re.Match[str], lesson: Lesson) -> bool:
    board, me = lesson.board, lesson.learner
    out = {move.steps[0].target for move in lesson.moves({}, "A") if move.steps[0].source == board.start(me)}
    return out == {board.come_out(me)}


@claim(
    r"Pegs go clockwise all the way round to your in-spot, the 3rd hole past your corner, and turn off there into "
    r"your home, five holes deep\."
)
def _way_round(found: re.Match[str], lesson: Lesson) -> bool:
    board, me = lesson.board, lesson.learner
    return board.in_spot(me) == lesson.hole(me, 3) and [board.home(me, depth) for depth in range(1, 6)] == list(
        range(board.home(me, 1), board.home(me, 1) + 5)
    )


@claim(r"(?P<partners>.+) (is your partner|are your partners); (?P<opponents>.+) plays? against you\.")
def _who(found: re.Match[str], lesson: Lesson) -> bool:
    partners = re.split(r", | and ", found["partners"])
    opponents = re.split(r", | and ", found["opponents"])
    return sorted(partners) == sorted(map(lesson.name, lesson.partners)) and sorted(opponents) == sorted(
        map(lesson.name, lesson.opponents)
    )


@claim(r"The lights show each place as this page names it\.")
def _places(found: re.Match[str], lesson: Lesson) -> bool:
    keys = {place.key for place in places(lesson.board, lesson.names, lesson.learner)}
    return {"start", "come-out", "in-spot", "home"} <= keys


# -- the turn ---------------------------------------------------------------------------------


@claim(
    r"At your turn you first draw one card from the stock, so you hold (?P<held>\d+), then play one of them and "
    r"move as it says\."
)
def _draw_first(found: re.Match[str], lesson: Lesson) -> bool:
    game = lesson.game(["3"] * lesson.rules.hand_size, {})
    if game.phase != "draw":
        return False
    game.draw()
    return len(game.hand(lesson.learner)) == int(found["held"]) and phase_of(game) == "play"


@claim(
    r"At your turn you first play one of your (?P<held>\d+) cards and move as it says, then draw one from the "
    r"stock to hold (?P=held) again\."
)
def _play_first(found: re.Match[str], lesson: Lesson) -> bool:
    me = lesson.learner
    game = lesson.game(["3"] * lesson.rules.hand_size, {me: [lesson.board.hole_name(lesson.hole(me, 9))]})
    if game.phase != "play" or len(game.hand(me)) != int(found["held"]):
        return False
    game.play("3", game.legal("3")[0])
    while (doubter := game.doubter_to_answer) is not None:  # Bluffing Joker: nobody doubts
        game.respond(doubter, False)
    game.draw()
    return len(game.hand(me)) == int(found["held"]) and game.turn != me


@claim(
    r"If any card you hold, but a joker, can move a peg, you must play one that does, even if the move is bad for "
    r"you; only when none can do you discard a card without moving, and that ends your turn\."
)
def _must_move(found: re.Match[str], lesson: Lesson) -> bool:
    """A 3 that moves may not be discarded; a hand of 3s with every peg in start is."""
    me, hand = lesson.learner, ["3"] * lesson.rules.hand_size
    moving = lesson.game(hand, {me: [lesson.board.hole_name(lesson.hole(me, 9))]})
    stuck = lesson.game(hand, {})
    for game in (moving, stuck):
        if game.phase == "draw":
            game.draw()
    try:
        moving.discard("3")
        return False
    except GameError:
        pass
    stuck.discard("3")
    return stuck.turn != me or stuck.phase == "draw"


# -- coming out and counting ------------------------------------------------------------------


@claim(r"(?P<cards>.+) brings a peg out of your start onto your own come-out hole\.")
def _come_out(found: re.Match[str], lesson: Lesson) -> bool:
    cards = cards_in(found["cards"].lower())
    out = lesson.board.come_out(lesson.learner)
    brings = [card for card in CARDS if any(move.steps[0].target == out for move in lesson.moves({}, card))]
    return cards == [card for card in brings if card != JOKER]


@claim(r"The joker brings one out too, onto another colour's peg: a later step shows it\.")
def _joker_comes_out(found: re.Match[str], lesson: Lesson) -> bool:
    opponent = lesson.opponents[0]
    moves = lesson.moves({opponent: [lesson.hole(opponent, 12)]}, JOKER)
    later = [step.key for step in lesson.steps[lesson.steps.index(lesson.step) :]]
    start = lesson.board.start(lesson.learner)
    return any(move.steps[0].source == start for move in moves) and "joker" in later


@claim(r"Counting brings one out free: the next step says when\.")
def _counting_said(found: re.Match[str], lesson: Lesson) -> bool:
    return lesson.steps[lesson.steps.index(lesson.step) + 1].key == "counting" and lesson.rules.counting is not None


@claim(r"No peg ever goes into another colour's start or home\.")
def _own_home_only(found: re.Match[str], lesson: Lesson) -> bool:
    """A peg of the learner's just before each other colour's in-spot never turns into that home."""
    board, me = lesson.board, lesson.learner
    for other in board.seats:
        if other == me:
            continue
        for card in CARDS:
            for move in lesson.moves({me: [lesson.hole(other, 1)]}, card):
                if any(board.is_home(step.target) and board.owner(step.target) != me for step in move.steps):
                    return False
    return True


@claim(
    r"If none of your cards can move a peg, for example when all your pegs are in start and you hold no card that "
    r"comes out, you discard one: that is counting\."
)
def _counting(found: re.Match[str], lesson: Lesson) -> bool:
    game = lesson.game(["3"] * lesson.rules.hand_size, {})
    if game.phase == "draw":
        game.draw()
    return not game.must_move() and lesson.rules.counting is not None


@claim(
    r"After (?P<before>\d+) such turns? in a row, on the (?P<turn>\d+)(st|nd|rd|th) you discard any card and bring "
    r"a peg (?P<whose>out onto your|of your team out onto its) come-out hole free, even if you hold a card that comes "
    r"out\."
)
def _counted(found: re.Match[str], lesson: Lesson) -> bool:
    """The free come-out (the engine's ``free_come_outs``) lands on the come-out holes said."""
    turn, board, me = int(found["turn"]), lesson.board, lesson.learner
    free = {move.steps[0].target for move in free_come_outs(lesson.position({}), "3", lesson.rules)}
    team = found["whose"] == "of your team out onto its"
    said = {board.come_out(seat) for seat in (board.team_of[me] if team else (me,))}
    return lesson.rules.counting == turn and int(found["before"]) == turn - 1 and free == said


# -- the cards on the track -------------------------------------------------------------------


@claim(r"Out on the track, a peg moves (?P<said>.+)\.")
def _track(found: re.Match[str], lesson: Lesson) -> bool:
    """Each "N forward with the jack ..." holds: from 9 past its corner the peg lands N further on."""
    me, said = lesson.learner, []
    for group in re.split(r"(?:,| and) (?=\d)", found["said"]):
        parts = re.fullmatch(r"([\d or]+) forward with (.+)", group)
        assert parts, group
        counts = tuple(int(n) for n in parts[1].split(" or "))
        for card in cards_in(parts[2]):
            said.append(card)
            landed = {move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 9)]}, card)}
            if lesson.rules.power(card).forward != counts or not {lesson.hole(me, 9 + n) for n in counts} <= landed:
                return False
    deck = [card for card, _power in lesson.rules.cards]  # each said once; cards of one count are said together
    return sorted(said, key=deck.index) == [
        card for card, power in lesson.rules.cards if power.come_out and power.forward
    ]


@claim(
    r"(?P<cards>.+) moves (?P<whose>one of your pegs|a peg of your team) forward that many holes, the full count, no "
    r"less\."
)
def _numbers(found: re.Match[str], lesson: Lesson) -> bool:
    me, cards = lesson.learner, cards_in(found["cards"].lower())
    numbers = [
        card for card in ("2", "3", "4", "5", "6", "7", "9", "10") if int(card) in lesson.rules.power(card).forward
    ]
    for card in cards:
        landed = {move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 9)]}, card)}
        if lesson.hole(me, 9 + int(card)) not in landed:
            return False
    team = found["whose"] == "a peg of your team"
    return cards == numbers and team == (lesson.rules.movers == "team")


@claim(r"A peg may never land on or pass over a peg of its own colour\.")
def _own_colour(found: re.Match[str], lesson: Lesson) -> bool:
    me = lesson.learner
    behind, ahead = lesson.hole(me, 9), lesson.hole(me, 13)
    return all(
        move.steps[0].source != behind for card in ("4", "5") for move in lesson.moves({me: [behind, ahead]}, card)
    )


@claim(r"An 8 moves a peg 8 holes backwards\.")
def _eight(found: re.Match[str], lesson: Lesson) -> bool:
    me = lesson.learner
    return {move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 12)]}, "8")} >= {lesson.hole(me, 4)}


@claim(
    r"That is why, after coming out, it is good to move 1, 2 or 3 forward: an 8 then takes the peg back to or past "
    r"its in-spot, ready to go home\."
)
def _strategy_note(found: re.Match[str], lesson: Lesson) -> bool:
    """The rules page, Notes on Strategy, note 1 and 2: the board's geometry makes it so (1 to 3
    forward, then 8 back, reaches the in-spot or passes it; 4 forward does not)."""
    board, me = lesson.board, lesson.learner
    track = board.track_length
    short = [(board.come_out(me) + k - 8 - board.in_spot(me)) % track for k in (1, 2, 3, 4)]
    return all(gap == 0 or gap > track - 18 for gap in short[:3]) and 0 < short[3] < 18


# -- splits, swaps, moves back ----------------------------------------------------------------

SPLIT_PEGS = {
    "two of your pegs": (False, "own-then-partner"),
    "two different pegs of your team": (False, "team"),
    "any two pegs on the board, your partners' and your opponents' too (an opponent's only along the main track)": (
        True,
        None,
    ),
}
DIRECTIONS = {
    "both forward": "forward",
    "one forward and the other backward": "forward-backward",
    "each part forward or backward": "any",
}


@claim(
    r"The (?P<card>\w+) (?P<must>must|may) be split between (?P<pegs>.+), (?P<how>both forward|one forward and the "
    r"other backward|each part forward or backward); the two parts add up to (?P<total>\d+)\."
)
def _split(found: re.Match[str], lesson: Lesson) -> bool:
    split = lesson.rules.power(found["card"]).split
    any_peg, movers = SPLIT_PEGS[found["pegs"]]
    step = lesson.step
    opponents = set(lesson.opponents)
    moved = {step.position.colour_at(part.source) for move in step.passes for part in move.steps}  # type: ignore[union-attr]
    return (
        split is not None
        and split.required == (found["must"] == "must")
        and split.total == int(found["total"])
        and split.directions == DIRECTIONS[found["how"]]
        and split.any_peg == any_peg
        and (any_peg or lesson.rules.movers == movers)
        and all(len(move.steps) == 2 for move in step.passes)
        and bool(moved & opponents) == any_peg
    )


@claim(r"You may not move one peg the whole count\.")
def _split_required(found: re.Match[str], lesson: Lesson) -> bool:
    me, card = lesson.learner, lesson.step.card
    assert card is not None
    split = lesson.rules.power(card).split
    assert split is not None
    whole = {lesson.hole(me, 9 + split.total), lesson.hole(me, 9 - split.total)}
    return split.required and not [
        move for move in lesson.moves({me: [lesson.hole(me, 9)]}, card) if move.steps[0].target in whole
    ]


@claim(
    r"The (?P<card>\w+) may swap the places of any two pegs of different colours on the main track, whoever's they "
    r"are; nobody is sent anywhere\."
)
def _swap(found: re.Match[str], lesson: Lesson) -> bool:
    """A swap of two other colours' pegs, an opponent's and a partner's, bumps nobody."""
    partner, opponent = lesson.partners[0], lesson.opponents[0]
    pegs: dict[int, list[int | str]] = {
        lesson.learner: [lesson.hole(lesson.learner, 9)],
        partner: [lesson.hole(partner, 12)],
        opponent: [lesson.hole(opponent, 12)],
    }
    swaps = [move for move in lesson.moves(pegs, found["card"]) if move.steps[0].swap]
    others = {lesson.hole(partner, 12), lesson.hole(opponent, 12)}
    return any({move.steps[0].source, move.steps[0].target} == others for move in swaps) and not any(
        move.bumps for move in swaps
    )


@claim(r"(A|An) (?P<card>\w+) may also move a peg (?P<counts>[\d or]+) holes? backwards\.")
def _back(found: re.Match[str], lesson: Lesson) -> bool:
    card = card_of(found["card"])
    counts = tuple(int(n) for n in found["counts"].split(" or "))
    me = lesson.learner
    landed = {move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 12)]}, card)}
    return lesson.rules.power(card).backward == counts and {lesson.hole(me, 12 - n) for n in counts} <= landed


# -- other colours ----------------------------------------------------------------------------


@claim(r"Land exactly on an opponent's peg and it goes back to its start\.")
def _bump_opponent(found: re.Match[str], lesson: Lesson) -> bool:
    opponent = lesson.opponents[0]
    return all(
        bump.seat == opponent and lesson.board.is_start(bump.target)
        for move in lesson.step.passes
        for bump in move.bumps
    ) and bool(lesson.step.passes)


@claim(r"Passing over a peg of another colour does nothing to it\.")
def _pass_over(found: re.Match[str], lesson: Lesson) -> bool:
    me, opponent, partner = lesson.learner, lesson.opponents[0], lesson.partners[0]
    pegs: dict[int, list[int | str]] = {
        me: [lesson.hole(me, 10)],
        opponent: [lesson.hole(me, 12)],
        partner: [lesson.hole(me, 13)],
    }
    mine = [move for move in lesson.moves(pegs, "5") if move.steps[0].source == lesson.hole(me, 10)]
    return [move.bumps for move in mine] == [()]


@claim(r"Land exactly on a partner's peg and it jumps ahead to its own in-spot, ready to go home\.")
def _bump_partner(found: re.Match[str], lesson: Lesson) -> bool:
    partner = lesson.partners[0]
    bumps = [bump for move in lesson.step.passes for bump in move.bumps]
    return bool(bumps) and all(bump.seat == partner and bump.target == lesson.board.in_spot(partner) for bump in bumps)


@claim(r"If that partner already has a peg on its in-spot, landing on its peg is not allowed\.")
def _partner_on_in_spot(found: re.Match[str], lesson: Lesson) -> bool:
    me, partner = lesson.learner, lesson.partners[0]
    pegs: dict[int, list[int | str]] = {
        me: [lesson.hole(me, 12)],
        partner: [lesson.hole(me, 17), lesson.hole(partner, 3)],
    }
    return not any(move.steps[0].target == lesson.hole(me, 17) for move in lesson.moves(pegs, "5"))


# -- the joker --------------------------------------------------------------------------------


def _joker_sources(lesson: Lesson, start_too: bool) -> set[str]:
    """Where the joker's pegs come from with a learner's peg on the track and an opponent's to
    land on ("start", "track"); ``start_too``: the learner still has pegs in start."""
    me, opponent = lesson.learner, lesson.opponents[0]
    mine: list[int | str] = (
        [lesson.hole(me, 9)] if start_too else [lesson.hole(me, 9), *[f"H{me}:{d}" for d in range(1, 5)]]
    )
    pegs: dict[int, list[int | str]] = {me: mine, opponent: [lesson.hole(opponent, 12)]}
    if not start_too:
        pegs.update({partner: [f"H{partner}:{d}" for d in range(1, 6)] for partner in lesson.partners})
    board = lesson.board
    return {"start" if board.is_start(move.steps[0].source) else "track" for move in lesson.moves(pegs, JOKER)}


@claim(
    r"A joker moves (one of your pegs|a peg of your team), from start or from the main track, onto any other "
    r"colour's peg on the main track, never to an empty hole\."
)
def _joker_own(found: re.Match[str], lesson: Lesson) -> bool:
    return _joker_sources(lesson, True) == {"start", "track"} and _joker_lands_on_pegs(lesson)


def _joker_lands_on_pegs(lesson: Lesson) -> bool:
    """Every joker move lands on a peg of another colour on the main track, none on an empty hole."""
    me, opponent = lesson.learner, lesson.opponents[0]
    position = lesson.position({me: [lesson.hole(me, 9)], opponent: [lesson.hole(opponent, 12)]})
    landings = [(position.colour_at(move.steps[0].target), move) for move in legal_moves(position, JOKER, lesson.rules)]
    return bool(landings) and all(
        colour is not None
        and colour != _colour_from(position, move.steps[0].source)
        and lesson.board.is_track(move.steps[0].target)
        for colour, move in landings
    )


def _colour_from(position: Position, hole: int) -> int | None:
    """The colour of the peg leaving ``hole``: a start area's seat, else the peg there."""
    board = position.board
    return hole - board.board_holes if board.is_start(hole) else position.colour_at(hole)


@claim(r"A joker moves a peg of your team onto any other colour's peg on the main track, never to an empty hole\.")
def _joker_team(found: re.Match[str], lesson: Lesson) -> bool:
    return lesson.rules.joker_from == "team-start-first" and _joker_lands_on_pegs(lesson)


@claim(
    r"While your team has pegs in start, it must be one of those; only when all your team's starts are empty may "
    r"it be a peg from the main track\."
)
def _joker_start_first(found: re.Match[str], lesson: Lesson) -> bool:
    """Arizona Rules, rule 6."""
    return _joker_sources(lesson, True) == {"start"} and _joker_sources(lesson, False) == {"track"}


@claim(r"The peg it lands on goes back to its start, or on to its in-spot if it is a partner's\.")
def _joker_lands(found: re.Match[str], lesson: Lesson) -> bool:
    partner, opponent = lesson.partners[0], lesson.opponents[0]
    pegs: dict[int, list[int | str]] = {partner: [lesson.hole(partner, 12)], opponent: [lesson.hole(opponent, 12)]}
    sent = {bump.seat: bump.target for move in lesson.moves(pegs, JOKER) for bump in move.bumps}
    board = lesson.board
    return sent.get(partner) == board.in_spot(partner) and board.is_start(sent.get(opponent, -1))


@claim(r"Nobody is forced to play a joker: keep it for a double play if you can\.")
def _joker_not_forced(found: re.Match[str], lesson: Lesson) -> bool:
    """The rules page, Basic Game: "A player is never forced to play a joker"."""
    opponent = lesson.opponents[0]
    hand = [JOKER] + ["3"] * (lesson.rules.hand_size - 1)
    game = lesson.game(hand, {opponent: [lesson.board.hole_name(lesson.hole(opponent, 12))]})
    if game.phase == "draw":
        game.draw()
    return bool(game.legal(JOKER)) and not game.must_move()


# -- the way home -----------------------------------------------------------------------------


@claim(r"At its in-spot a peg may turn into its home, or go on round the track\.")
def _may_turn(found: re.Match[str], lesson: Lesson) -> bool:
    me, board = lesson.learner, lesson.board
    targets = {move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 1)]}, "4")}
    return targets >= {board.home(me, 2), lesson.hole(me, 5)}


@claim(
    r"A card's full count must always be used: a 6 does not fit into the five holes of home, so a peg on its "
    r"in-spot goes on along the track\."
)
def _full_count(found: re.Match[str], lesson: Lesson) -> bool:
    me = lesson.learner
    return [move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 3)]}, "6")] == [lesson.hole(me, 9)]


@claim(
    r"A peg may not go forward along the main track past its in-spot: there it must turn into its home, and when "
    r"home has no room for the card's full count, that peg cannot move this turn\."
)
def _must_turn(found: re.Match[str], lesson: Lesson) -> bool:
    """Kilpatrick Rules, rule 2."""
    me, board = lesson.learner, lesson.board
    turning = {move.steps[0].target for move in lesson.moves({me: [lesson.hole(me, 1)]}, "4")}
    return turning == {board.home(me, 2)} and not lesson.moves({me: [lesson.hole(me, 3)]}, "6")


@claim(r"Going into home takes the exact count too\.")
def _exact(found: re.Match[str], lesson: Lesson) -> bool:
    me, board = lesson.learner, lesson.board
    into = [move for move in lesson.moves({me: [lesson.hole(me, 1)]}, "10") if board.is_home(move.steps[0].target)]
    return not into and bool(lesson.step.passes)


@claim(r"A peg turns into home only moving forward: no backing in, and pegs in home never move back\.")
def _no_backing(found: re.Match[str], lesson: Lesson) -> bool:
    me, board = lesson.learner, lesson.board
    back = lesson.moves({me: [lesson.hole(me, 11)]}, "8")
    in_home = lesson.moves({me: [f"H{me}:1"]}, "8")
    return not in_home and all(not board.is_home(move.steps[0].target) for move in back)


@claim(r"The first one home goes all the way to the end, or the others get stuck behind it: the Kiss of Death\.")
def _kiss_of_death(found: re.Match[str], lesson: Lesson) -> bool:
    """A peg at the first home hole blocks the one on the in-spot from going in past it."""
    me, board = lesson.learner, lesson.board
    stuck = lesson.moves({me: [f"H{me}:1", lesson.hole(me, 3)]}, "3")
    return all(not board.is_home(move.steps[0].target) or move.steps[0].source != lesson.hole(me, 3) for move in stuck)


# -- partners and the team --------------------------------------------------------------------


@claim(r"When all five of your pegs are home, you use your turns to move the pegs of (?P<left>[\w ]+), your partner\.")
def _one_partner(found: re.Match[str], lesson: Lesson) -> bool:
    return len(lesson.partners) == 1 and _partner_order(lesson, [found["left"]])


@claim(
    r"When all five of your pegs are home, you use your turns to move the pegs of (?P<left>[\w ]+), your left-hand "
    r"partner, the next partner clockwise; once (?P=left)'s are home too, those of the next partner round the table "
    r"who still has pegs to move: (?P<others>.+)\."
)
def _partners_in_order(found: re.Match[str], lesson: Lesson) -> bool:
    """The rules page, Endgame: "your left-hand partner ... the next partner around the table"."""
    return _partner_order(lesson, [found["left"], *found["others"].split(", then ")])


def _partner_order(lesson: Lesson, said: list[str]) -> bool:
    """Whose pegs the learner moves as its partners' come home one after the other: in the order said."""
    me, order = lesson.learner, []
    home: dict[int, list[int | str]] = {me: [f"H{me}:{d}" for d in range(1, 6)]}
    for _ in lesson.partners:
        pegs: dict[int, list[int | str]] = {
            **home,
            **{p: [lesson.hole(p, 12)] for p in lesson.partners if p not in home},
        }
        (seat,) = mover_seats(lesson.position(pegs), lesson.rules)
        order.append(lesson.name(seat))
        home[seat] = [f"H{seat}:{d}" for d in range(1, 6)]
    return lesson.rules.movers == "own-then-partner" and order == said


@claim(r"You may move any peg of your team at any time, your partners' too\.")
def _team_moves(found: re.Match[str], lesson: Lesson) -> bool:
    position = lesson.position({})
    return set(mover_seats(position, lesson.rules)) == set(lesson.board.team_of[lesson.learner])


@claim(r"(?P<partners>.+) (is|are) on your team\.")
def _on_your_team(found: re.Match[str], lesson: Lesson) -> bool:
    return sorted(re.split(r", | and ", found["partners"])) == sorted(map(lesson.name, lesson.partners))


@claim(r"Your team wins together: the first team with every one of its pegs home wins\.")
def _team_wins(found: re.Match[str], lesson: Lesson) -> bool:
    team = lesson.board.team_of[lesson.learner]
    all_home = {seat: [f"H{seat}:{d}" for d in range(1, 6)] for seat in team}
    almost = {**all_home, lesson.learner: all_home[lesson.learner][1:]}
    return lesson.position(all_home).winner() == team and lesson.position(almost).winner() is None  # type: ignore[arg-type]


@claim(r"A split may take your last peg home and move your left-hand partner's peg with the rest\.")
def _split_into_partner(found: re.Match[str], lesson: Lesson) -> bool:
    """North Carolina Rules, rule 2; the basic game has no such move from the same position."""
    step, left = lesson.step, lesson.partners[0]
    assert step.position is not None and step.card is not None
    basic = Ruleset.preset("basic")
    colours = {step.position.colour_at(move.steps[1].source) for move in step.passes}
    return colours == {left} and not [
        move for move in legal_moves(step.position, step.card, basic) if len(move.steps) == 2
    ]


# -- Bluffing Joker ---------------------------------------------------------------------------


def _come_out_text(lesson: Lesson) -> str:
    me = lesson.learner
    return f"A S{me}-{lesson.board.hole_name(lesson.board.come_out(me))}"


def _declared(lesson: Lesson) -> bluff.Bluff:
    return bluff.declaration(lesson.board, Play(lesson.learner, "3", "A", _come_out_text(lesson)))


@claim(
    r"Every card is played face down and declared: you may declare it to be any card you like, and move as that "
    r"card moves\."
)
def _face_down(found: re.Match[str], lesson: Lesson) -> bool:
    """The shown 3 could not have brought the peg out: declared an ace, the move stands unless doubted."""
    position = lesson.position({})
    return lesson.rules.bluffing and not bluff.explains(position, lesson.rules, "3", _come_out_text(lesson))


@claim(r"Before you move, your opponents may doubt it, the next one clockwise first, then the others round the table\.")
def _doubters(found: re.Match[str], lesson: Lesson) -> bool:
    clockwise = bluff.clockwise(lesson.board, lesson.learner)
    return _declared(lesson).doubters == [seat for seat in clockwise if seat in lesson.opponents]


@claim(
    r"A doubt that catches a bluff lets the doubter send one of the bluffer's pegs on the track back to start, and "
    r"the bluffer does not move; a wrong doubt lets the player move and send one of the doubter's pegs back to start\."
)
def _doubt_outcome(found: re.Match[str], lesson: Lesson) -> bool:
    declared = _declared(lesson)
    declared.doubter = declared.doubters[0]
    caught, wrong = bluff.loser(declared, False), bluff.loser(declared, True)
    me = lesson.learner
    return (caught.chooser, caught.victim) == (declared.doubter, me) and (wrong.chooser, wrong.victim) == (
        me,
        declared.doubter,
    )


@claim(r"Whoever has no peg on the track to lose gives the other an extra turn instead, to take or leave\.")
def _extra_turn(found: re.Match[str], lesson: Lesson) -> bool:
    """Pegs in start or home are no pegs to lose (home pegs are safe: the club sheet)."""
    me, board = lesson.learner, lesson.board
    safe = lesson.position({me: [f"H{me}:{d}" for d in range(1, 4)]})
    out = lesson.position({me: [lesson.hole(me, 9)]})
    return not bluff.on_track(board, safe, me) and bluff.on_track(board, out, me)


# -- the practice game ------------------------------------------------------------------------


@claim(r"Now a real game, shortened: three pegs of every colour are home already\.")
def _shortened(found: re.Match[str], lesson: Lesson) -> bool:
    position = lesson.step.position
    return position is not None and all(position.in_home(seat) == 3 for seat in lesson.board.seats)


@claim(
    r"Deal each person (?P<hand>\d+) cards from a real deck; the other seats are (?P<bots>\w+) bots: when it is a "
    r"bot's turn, turn up the top card for it and tap that card on the page\."
)
def _deal(found: re.Match[str], lesson: Lesson) -> bool:
    return int(found["hand"]) == lesson.rules.hand_size and found["bots"] == PRACTICE_BOTS


@claim(r"Hints are on: ask for one whenever you are not sure\.")
def _hints(found: re.Match[str], lesson: Lesson) -> bool:
    """The rules page, Note on Table Talk: hints are for teaching games; the step is the last, a game."""
    return lesson.step.key == "practice" and lesson.step is lesson.steps[-1]


# -- the tests --------------------------------------------------------------------------------

TABLE_NAMES = dict(
    enumerate(("Red", "Sky blue", "Yellow", "Blue", "White", "Orange", "Pink", "Green", "Purple", "Lime"))
)
CODE = re.compile(r"\b[THSC]\d+(:\d+)?\b")
ORDER = [
    "board",
    "turn",
    "come-out",
    "counting",
    "track",
    "forward",
    "eight-back",
    "split",
    "bump-opponent",
    "bump-partner",
    "joker",
    "in-spot",
    "home",
    "partners-pegs",
    "split-partner",
    "bluff",
    "practice",
]


def kind(key: str) -> str:
    return "split" if key.split("-")[0] in ("split", "swap", "back") and key != "split-partner" else key


def check_lesson(rules: Ruleset, players: int, learner: int = 0) -> list[Step]:
    """Every step in the order above, its passing moves legal for its card, its words free of
    hole codes and citing a rule, and every sentence it says a claim that holds."""
    board = Board.for_players(players)
    steps = lesson(rules, players, TABLE_NAMES, learner=learner)
    kinds = [kind(step.key) for step in steps]
    assert [each for each in ORDER if each in kinds] == list(dict.fromkeys(kinds))
    assert kinds[0] == "board" and kinds[-1] == "practice"
    for step in steps:
        assert not CODE.search(step.teach + step.task), (step.key, step.teach, step.task)
        assert "(" in step.teach, f"{step.key} cites no rule"
        assert step.position is not None
        if step.card is None:
            assert not step.passes
        else:
            assert step.passes, step.key
            legal = {move.text for move in legal_moves(step.position, step.card, rules)}
            assert {move.text for move in step.passes} <= legal
        told = Lesson(rules, board, TABLE_NAMES, learner, step, steps)
        for sentence in sentences(step.teach):
            assert check_sentence(sentence, told), f"{rules.name}, {players} players, {step.key}: {sentence!r}"
    return steps


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_every_step_can_be_done_and_every_sentence_holds(preset: str, players: int) -> None:
    check_lesson(Ruleset.preset(preset), players)


@st.composite
def house_rules(draw: st.DrawFn) -> Ruleset:
    """A family's rules: a preset with some of its fields and cards changed, as a TOML file would."""
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    rules = replace(
        rules,
        name="grandma",
        movers=draw(st.sampled_from(["own-then-partner", "team"])),
        joker_from=draw(st.sampled_from(["own", "team-start-first"])),
        home_entry=draw(st.sampled_from(["may", "must"])),
        hand_size=draw(st.integers(1, 8)),
        draw=draw(st.sampled_from(["before", "after"])),
        counting=draw(st.none() | st.integers(2, 10)),
        bluffing=draw(st.booleans()),
        split_into_partner=draw(st.booleans()),
    )
    if draw(st.booleans()):
        rules = rules.with_card("10", backward=(draw(st.integers(1, 3)),))
    if draw(st.booleans()):
        rules = rules.with_card("2", swap=True)
    if draw(st.booleans()):
        rules = rules.with_card("9", split=Split(9, draw(st.sampled_from(["forward", "forward-backward"]))))
    if draw(st.booleans()):
        rules = rules.with_card("K", forward=(draw(st.integers(10, 13)),))
    assume(rules.split_weight <= MAX_SPLIT_WEIGHT)  # heavier splits are refused (referee.rulesets)
    return rules


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.sampled_from([4, 6, 8, 10]), st.integers(0, 9))
def test_every_house_rules_lesson_says_only_what_its_rules_do(rules: Ruleset, players: int, learner: int) -> None:
    """Rules as data: whatever a house-rules file changes, every step's moves are legal and every
    sentence holds for it, for any learner (the turn step says draw before or after exactly as
    ``rules.draw`` says; the joker step says a start peg is compulsory exactly where it is)."""
    check_lesson(rules, players, learner % players)


def keys(rules: Ruleset, players: int = 4) -> list[str]:
    return [step.key for step in lesson(rules, players, TABLE_NAMES)]


def step_of(rules: Ruleset, key: str, players: int = 4) -> Step:
    return next(step for step in lesson(rules, players, TABLE_NAMES) if step.key == key)


def test_a_peg_comes_out_with_the_joker_too() -> None:
    """The rules page, Movement of pegs - effects of individual cards: "you must play a jack, queen,
    king, ace (to move it to its 'come out' hole) or a joker": never "only onto its come-out hole"."""
    teach = step_of(Ruleset.preset("basic"), "come-out").teach
    assert " only " not in teach and "The joker brings one out too" in teach
    jokerless = replace(Ruleset.preset("basic"), name="jokerless", jokers_per_deck=0, added_jokers=())
    assert "joker" not in step_of(jokerless, "come-out").teach and "joker" not in keys(jokerless)


def test_counting_is_taught_where_a_rule_set_has_it() -> None:
    """North Carolina Rules, rule 9: "on the third turn ... come out free"; Eileen Becker: "on the
    fourth turn after being stuck for three turns"; the basic game has no counting."""
    assert "on the 3rd you discard any card" in step_of(Ruleset.preset("north-carolina"), "counting").teach
    assert "After 3 such turns in a row, on the 4th" in step_of(Ruleset.preset("becker"), "counting").teach
    assert "counting" not in keys(Ruleset.preset("basic"))


def test_the_turn_follows_the_rule_sets_draw_and_hand() -> None:
    """The rules page, Basic Game: "Draw one card ... so that you hold six cards"; Arizona Rules,
    rule 1: "first playing a card ... finally drawing"; Kilpatrick Rules: "Only 3 cards"."""
    assert "first draw one card from the stock, so you hold 6" in step_of(Ruleset.preset("basic"), "turn").teach
    kilpatrick = step_of(Ruleset.preset("kilpatrick"), "turn").teach
    assert "first play one of your 3 cards" in kilpatrick
    assert "(the rules page, Advanced Game: Arizona Rules, rule 1; Kilpatrick Rules, rule 1)" in kilpatrick


def test_arizona_jokers_take_a_start_peg_first() -> None:
    """Arizona Rules, rule 6: "if your team has any pegs in their start areas, you must move one of
    these pegs"; the basic game: "any one of your pegs (for example one in the start area)"."""
    for preset in ("arizona", "kilpatrick"):
        assert "While your team has pegs in start, it must be one of those" in step_of(PRESETS[preset], "joker").teach
    assert "from start or from the main track" in step_of(PRESETS["basic"], "joker").teach


def test_kilpatrick_teaches_its_in_spot_and_the_others_may_go_on() -> None:
    """Kilpatrick Rules, rule 2: "it must turn into its home track when it reaches the in-spot";
    the rules page, Movement of pegs - general rules: "a peg may take the branch"."""
    kilpatrick = step_of(Ruleset.preset("kilpatrick"), "in-spot")
    assert "must turn into its home" in kilpatrick.teach and [move.text for move in kilpatrick.passes] == [
        "6 T0:12-T1:0"
    ]
    basic = step_of(Ruleset.preset("basic"), "in-spot")
    assert "may turn into its home" in basic.teach and [move.text for move in basic.passes] == ["6 T0:3-T0:9"]


def test_partners_pegs_in_order_on_a_six_sided_board() -> None:
    """The rules page, Endgame: "you move the pegs of your left-hand partner ... If left partner's
    pegs are also all home, you move the pegs of the next partner around the table"."""
    step = step_of(Ruleset.preset("basic"), "partners-pegs", players=6)
    assert "the pegs of Yellow, your left-hand partner" in step.teach and "to move: White" in step.teach
    assert {move.before.colour_at(move.steps[0].source) for move in step.passes} == {2}
    arizona = step_of(Ruleset.preset("arizona"), "partners-pegs", players=6)
    assert "at any time" in arizona.teach and "All your pegs are home" not in arizona.task


def test_north_carolina_teaches_its_own_cards() -> None:
    """North Carolina Rules: the ace also moves back 1 (and 11 forward), the 2 swaps, the 9 splits
    forward and back, the 10 must split over any two pegs, opponents' too (rule 8), and a split may
    take the last peg home and go on with the partner's (rule 2); the basic game has none of these."""
    nc = keys(Ruleset.preset("north-carolina"))
    assert {"back-A", "swap-2", "split-7", "split-9", "split-10", "split-partner", "counting"} <= set(nc)
    ten = step_of(Ruleset.preset("north-carolina"), "split-10")
    assert "your opponents' too" in ten.teach
    assert all({move.before.colour_at(step.source) for step in move.steps} == {0, 1} for move in ten.passes)
    assert not {"back-A", "swap-2", "split-9", "split-10", "split-partner"} & set(keys(Ruleset.preset("basic")))


def test_social_security_and_bluffing_joker_teach_their_own_rule() -> None:
    """Hatcher's variations, Social Security: "Jack moves forward eleven holes ..."; the rules page,
    Bluffing Joker: "all cards played are played face-down"."""
    track = step_of(Ruleset.preset("social-security"), "track").teach
    assert "11 forward with the jack, 12 forward with the queen and 13 forward with the king" in track
    assert "Hatcher's variations, Social Security" in track
    assert "bluff" in keys(Ruleset.preset("bluffing-joker")) and "bluff" not in keys(Ruleset.preset("basic"))


def test_a_sentence_nobody_checks_fails() -> None:
    """The catalogue is complete only if an unknown sentence is refused."""
    step = step_of(Ruleset.preset("basic"), "home")
    told = Lesson(Ruleset.preset("basic"), Board.for_players(4), TABLE_NAMES, 0, step, [step])
    with pytest.raises(AssertionError, match="0 claims match"):
        check_sentence("A peg may jump over the moon.", told)
    assert not check_sentence("You are Blue.", told)


def test_you_cannot_pass_your_own_peg() -> None:
    """The rules page, Movement of pegs - general rules: "You may never land on or pass over a
    hole occupied by one of your own pegs": the forward step's 5 moves the front peg only."""
    assert [move.text for move in step_of(Ruleset.preset("basic"), "forward").passes] == ["5 T0:13-T1:0"]


def test_home_by_the_exact_count_all_the_way_in() -> None:
    """The rules page, Endgame: the first peg home goes "all the way to the end of the home track"."""
    assert [move.text for move in step_of(Ruleset.preset("basic"), "home").passes] == ["7 T0:1-H0:5"]


def test_house_rules_change_only_the_steps_of_the_cards_they_change(tmp_path: Path) -> None:
    """A family's own rules: the basic game with a 9 that splits and a 10 that also goes back 1."""
    house = tmp_path / "ours.toml"
    house.write_text(
        'base = "basic"\nname = "Grandma"\n[cards.9]\nforward = [9]\nsplit = {total = 9, directions = "forward-backward"}\n[cards.10]\nbackward = [1]\n',
        encoding="utf-8",
    )
    ours = {step.key: step.as_json(TABLE_NAMES) for step in lesson(Ruleset.from_toml(house), 4, TABLE_NAMES)}
    basic = {step.key: step.as_json(TABLE_NAMES) for step in lesson(Ruleset.preset("basic"), 4, TABLE_NAMES)}
    assert set(ours) - set(basic) == {"split-9", "back-10"} and not set(basic) - set(ours)
    assert all(ours[key] == basic[key] for key in basic)  # the same steps, word for word
    assert "(Grandma rules, as in the rules page, Advanced Game: Arizona Rules, rule 4)" in ours["split-9"]["teach"]
    assert "(Grandma rules, as in the rules page, Other Variations (Eileen Becker))" in ours["back-10"]["teach"]


def test_pegs_lesson_prints_the_steps_and_refuses_bad_input() -> None:
    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee.cli", "lesson", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    done = pegs("--rules", "north-carolina", "--players", "6")
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert data["rules"] == "north-carolina" and data["players"] == 6
    come_out = next(step for step in data["steps"] if step["key"] == "come-out")
    assert come_out["card"] == "A" and come_out["passes"][0]["words"] == "Red comes out with an ace"
    assert come_out["position"]["players"] == 6
    for bad in (["--rules", "poker"], ["--players", "5"]):
        refused = pegs(*bad)
        assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.strip().splitlines()) == 1
