"""The strategy notes of the rule texts, as data: what each one says, where it says it, and
how to tell whether a move follows it or breaks it.

The sources, named as players know them:

- the rules page's *Notes on Strategy* and *Common Errors* (the main Pegs and Jokers rules page);
- the club sheet's *Hints for good play* ("avoid, if possible, positioning your peg at any
  of the corners, in the opponents COME OUT spot, in the opponents IN SPOT");
- Larry Hatcher's variations on the same sheet ("the area between the opponents COME OUT
  and IN SPOT tends to be a safe area").

A note is *advice* (a move that follows it is worth saying so) or a *warning* (a move that
breaks it, where another choice keeps it, is told so). Notes never rank a move: the judge
(``referee.coach.judge``) does, by the chance to win, and ``referee.coach.explain`` says in
the notes' words why. A warning has its own exceptions ("unless the peg is in imminent
danger"), the endgame or a big bump: where the best move breaks a warning, the hint names
the exception that applies, if one does. Some warnings only count when the better way is on
offer ("attacking an opponent *instead of* putting a teammate into a scoring position").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from referee.board import Board
from referee.cards import JOKER
from referee.coach.race import progress
from referee.holes import COME_OUT, CORNER, IN_SPOT, SIDE_LENGTH
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import cards_words

SIDE = SIDE_LENGTH  # a track hole's number along its side is hole % SIDE
NEAR_HOME = 14  # holes from the end of home within which one card could finish a peg
CARD_VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13, JOKER: 14} | {str(n): n for n in range(2, 11)}

STRATEGY = "the rules page's Notes on Strategy"
ERRORS = "the rules page's Common Errors"
CLUB = "the club sheet's Hints for good play"
HATCHER = "Larry Hatcher's variations on the club sheet"
RACE = "the rules page's Basic Game: the first team to bring all its pegs home wins"

Excuse = Literal["danger", "endgame", "big bump", "no other move"]
EXCUSE_WORDS: dict[Excuse, str] = {
    "danger": "the peg was in danger where it stood",
    "endgame": "it is the endgame",
    "big bump": "it sends a peg that was nearly home back to start",
    "no other move": "no other move avoids it",
}


@dataclass(frozen=True)
class Seen:
    """A move as the notes look at it: who moves, where our team's pegs end, what it bumps."""

    card: str
    move: Move
    seat: int
    team: frozenset[int]
    landed: tuple[int, ...]  # holes our team's pegs moved to (track and home)
    rules: Ruleset

    @classmethod
    def of(cls, card: str, move: Move, rules: Ruleset) -> Seen:
        board = move.before.board
        seat = move.before.turn
        team = frozenset(board.team_of[seat])
        landed = tuple(step.target for step in move.steps if move.result.colour_at(step.target) in team)
        return cls(card, move, seat, team, landed, rules)

    @property
    def board(self) -> Board:
        return self.move.before.board

    @property
    def before(self) -> Position:
        return self.move.before

    @property
    def after(self) -> Position:
        return self.move.result

    def opponent(self, seat: int) -> bool:
        return seat in self.board.seats and seat not in self.team

    def owner(self, position: Position, hole: int) -> int:
        """The colour of the peg in ``hole``, or the mover's where it is empty (seat 0's pegs
        are colour 0, so ``colour_at(hole) or seat`` would give them to the mover)."""
        colour = position.colour_at(hole)
        return self.seat if colour is None else colour


TEN = "a 10 or a face card"  # the notes' words for the cards that move a peg 10 holes: the basic game's


def in_these_rules(text: str, rules: Ruleset) -> str:
    """A note's words with the cards that move a peg exactly 10 holes under ``rules``: the notes
    were written for the basic game, and Social Security's face cards move 11 to 13 while North
    Carolina's 10 must be split."""
    return text.replace(TEN, _tens(rules)) if TEN in text else text


@functools.lru_cache(maxsize=64)  # a daemon reads each game's rules anew: equal rules, one entry
def _tens(rules: Ruleset) -> str:
    tens = [card for card in CARD_VALUE if card != JOKER and 10 in rules.power(card).forward]
    return cards_words(tens) if tens else "a card that moves 10"


@dataclass(frozen=True)
class Note:
    name: str
    source: str
    kind: Literal["advice", "warning"]
    applies: Callable[[Seen], int]  # how many times (0: not at all)
    why: str  # the clause that explains it: "it leaves your peg on a corner, ..."
    heed: str = ""  # a warning's clause for a move that keeps it when others would not
    excuses: tuple[Excuse, ...] = ()  # what may outweigh a warning (besides "no other move")
    instead_of: str | None = None  # a warning that counts only when a move following this note is on offer


# -- where pegs stand ----------------------------------------------------------------------


def reach(rules: Ruleset) -> tuple[frozenset[int], frozenset[int]]:
    """How far one card can take a peg forward, and back, under these rules."""
    cards = [rules.power(card) for card in CARD_VALUE if card != JOKER]
    return (
        frozenset(n for power in cards for n in power.forward),
        frozenset(n for power in cards for n in power.backward),
    )


def threatened(position: Position, seat: int, hole: int, rules: Ruleset) -> bool:
    """Can an opponent send the peg on ``hole`` back to start with one ordinary card?"""
    board = position.board
    if not board.is_track(hole):
        return False
    team = board.team_of[seat]
    forward, backward = reach(rules)
    track = board.track_length
    for other in board.seats:
        if other in team:
            continue
        if hole == board.come_out(other) and position.in_start(other):
            return True
        for enemy in position.on_board(other):
            if board.is_track(enemy) and ((hole - enemy) % track in forward or (enemy - hole) % track in backward):
                return True
    return False


def endgame(position: Position, team: frozenset[int] | tuple[int, ...]) -> bool:
    """The seat to play, or its whole team, has brought every peg out and has at most one a
    player still on the track."""
    board = position.board

    def last_pegs(seats: Sequence[int]) -> bool:
        if any(position.in_start(seat) for seat in seats):
            return False
        return sum(1 for seat in seats for hole in position.on_board(seat) if board.is_track(hole)) <= len(seats)

    return last_pegs([position.turn]) or last_pegs(sorted(team))


def to_home(board: Board, position: Position, seat: int, hole: int) -> int:
    """Holes a track peg must still travel to the deepest free hole of its home."""
    free = [depth for depth in range(5, 0, -1) if board.home(seat, depth) not in position.on_board(seat)]
    return (board.in_spot(seat) - hole) % board.track_length + (free[0] if free else 0)


def _gaps(position: Position, seat: int) -> int:
    """Our pegs in home that are not all the way in (an empty home hole lies deeper)."""
    board = position.board
    depths = {board.depth(hole) for hole in position.on_board(seat) if board.is_home(hole)}
    return sum(1 for depth in depths if any(deeper not in depths for deeper in range(depth + 1, 6)))


def _movable_out(position: Position, seat: int) -> int:
    return sum(1 for hole in position.on_board(seat) if position.board.is_track(hole))


# -- the tests of the notes ------------------------------------------------------------------


def _corner(seen: Seen) -> int:
    """Any corner, as the club sheet says: each is 10 past the come-out hole of the seat before it."""
    board = seen.board
    return sum(1 for hole in seen.landed if board.is_track(hole) and hole % SIDE == CORNER)


def _opponent_come_out(seen: Seen) -> int:
    board = seen.board
    return sum(
        1
        for hole in seen.landed
        if board.is_track(hole)
        and hole % SIDE == COME_OUT
        and seen.opponent(hole // SIDE)
        and seen.after.in_start(hole // SIDE)
    )


def _opponent_in_spot(seen: Seen) -> int:
    board = seen.board
    return sum(
        1 for hole in seen.landed if board.is_track(hole) and hole % SIDE == IN_SPOT and seen.opponent(hole // SIDE)
    )


def _safe_stretch(seen: Seen) -> int:
    """Between an opponent's in-spot and come-out hole: their own pegs turn home before it and
    come out past it, and the seat before them needs 14 or more to reach it."""
    board = seen.board
    return sum(
        1
        for hole in seen.landed
        if board.is_track(hole) and IN_SPOT < hole % SIDE < COME_OUT and seen.opponent(hole // SIDE)
    )


def _short_hop(seen: Seen) -> int:
    """A peg 1 to 3 past its own come-out hole, from it: an 8 back then takes it to its in-spot."""
    board, count = seen.board, 0
    for step in seen.move.steps:
        colour = seen.after.colour_at(step.target)
        if colour in seen.team and step.source == board.come_out(colour) and board.is_track(step.target):
            count += (step.target - step.source) % board.track_length in (1, 2, 3)
    return count


def _lurk_partner(seen: Seen) -> int:
    """10 short of a partner's come-out hole: a 10 or a face card then sets up a home run."""
    board = seen.board
    return sum(
        1
        for hole in seen.landed
        for partner in seen.team
        if partner != seen.after.colour_at(hole)
        and seen.after.in_start(partner)
        and board.is_track(hole)
        and (board.come_out(partner) - hole) % board.track_length == 10
    )


def _lurk_in_spot(seen: Seen) -> int:
    """10 short of an opponent's in-spot, where their pegs stop on the way home."""
    board = seen.board
    return sum(
        1
        for hole in seen.landed
        for other in board.seats
        if seen.opponent(other) and board.is_track(hole) and (board.in_spot(other) - hole) % board.track_length == 10
    )


def _home_run(seen: Seen) -> int:
    """A runner on a partner's come-out hole: the partner coming out sends it to its in-spot."""
    board = seen.board
    return sum(
        1
        for hole in seen.landed
        for partner in seen.team
        if partner != seen.after.colour_at(hole) and hole == board.come_out(partner) and seen.after.in_start(partner)
    )


def _ready_for_runner(seen: Seen) -> int:
    """A peg brought out onto its come-out hole while a partner's runner is coming up behind it."""
    board = seen.board
    track = board.track_length
    count = 0
    for step in seen.move.steps:
        if not board.is_start(step.source):
            continue
        colour = step.source - board.board_holes
        if step.target != board.come_out(colour):
            continue
        runners = [
            hole
            for partner in seen.team
            if partner != colour
            for hole in seen.after.on_board(partner)
            if board.is_track(hole)
        ]
        count += any(1 <= (step.target - hole) % track <= 13 for hole in runners)
    return count


def _teammate_scores(seen: Seen) -> int:
    """A teammate's peg sent on to its in-spot (a partner bumped goes there)."""
    return sum(1 for bump in seen.move.bumps if bump.seat in seen.team and not seen.board.is_start(bump.target))


def _attack_instead(seen: Seen) -> int:
    """Opponents sent back by a move that puts no teammate on its in-spot."""
    if _teammate_scores(seen):
        return 0
    return sum(1 for bump in seen.move.bumps if seen.opponent(bump.seat))


def _big_bump(seen: Seen) -> bool:
    """An opponent's peg sent back from the last quarter of its way round."""
    board = seen.board
    return any(
        seen.opponent(bump.seat) and progress(board, bump.seat, bump.source) > 3 * board.track_length // 4
        for bump in seen.move.bumps
    )


def _joker_single(seen: Seen) -> int:
    """A joker spent on one bump: 'hold it until you can get a double or triple play'."""
    return 1 if seen.card == JOKER and len(seen.move.bumps) < 2 else 0


def _into_home_short(seen: Seen) -> int:
    """A peg turned into home that stops short of the deepest hole it could have filled."""
    board, count = seen.board, 0
    for step in seen.move.steps:
        if board.is_home(step.target) and not board.is_home(step.source):
            owner = board.owner(step.target)
            if owner is not None and _gaps(seen.after, owner) > _gaps(seen.before, owner):
                count += 1
    return count


def _all_the_way_in(seen: Seen) -> int:
    return sum(max(0, _gaps(seen.before, seat) - _gaps(seen.after, seat)) for seat in seen.team)


def _too_few_out(seen: Seen) -> int:
    """Fewer than two movable pegs of the seat's own out after the move, while some wait in start.
    Coming out and going all the way home never count against it."""
    seat, after = seen.seat, seen.after
    if not after.in_start(seat) or _movable_out(after, seat) >= 2:
        return 0
    if any(seen.board.is_start(step.source) for step in seen.move.steps) or _all_the_way_in(seen):
        return 0
    return 1


def _last_peg_tens(seen: Seen) -> int:
    """The team's last peg left a whole number of 10s from the end of its home."""
    board, after = seen.board, seen.after
    out = [(seat, hole) for seat in seen.team for hole in after.on_board(seat) if board.is_track(hole)]
    if len(out) != 1 or any(after.in_start(seat) for seat in seen.team) or out[0][1] not in seen.landed:
        return 0
    seat, hole = out[0]
    distance = to_home(board, after, seat, hole)
    return 1 if distance >= 10 and distance % 10 == 0 else 0


def _big_card_in_endgame(seen: Seen) -> int:
    """In the endgame, near home, a card that takes no peg home: the smaller the better (a peg
    still far off follows the note on 10s instead)."""
    board, before = seen.board, seen.before
    if not endgame(before, seen.team) or any(board.is_home(hole) for hole in seen.landed):
        return 0
    near = any(
        board.is_track(hole) and to_home(board, before, seat, hole) <= NEAR_HOME
        for seat in seen.team
        for hole in before.on_board(seat)
    )
    return CARD_VALUE.get(seen.card, 0) if near else 0


NOTES: tuple[Note, ...] = (
    Note(
        "corner",
        CLUB,
        "warning",
        _corner,
        "it leaves your peg on a corner, 10 holes past a come-out hole, where a peg that comes out and plays a 10 "
        "or a face card lands on it",
        excuses=("big bump", "endgame"),
        heed="it keeps your peg off the corners, where a peg that comes out and plays a 10 or a face card lands",
    ),
    Note(
        "come-out",
        CLUB,
        "warning",
        _opponent_come_out,
        "it leaves your peg on an opponent's come-out hole: the next peg they bring out lands on it",
        excuses=("big bump", "endgame"),
        heed="it keeps your peg off an opponent's come-out hole, where their next peg out lands",
    ),
    Note(
        "in-spot",
        CLUB,
        "warning",
        _opponent_in_spot,
        "it leaves your peg on an opponent's in-spot, where their pegs stop on the way home",
        excuses=("big bump", "endgame"),
        heed="it keeps your peg off an opponent's in-spot, where their pegs stop on the way home",
    ),
    Note(
        "safe stretch",
        HATCHER,
        "advice",
        _safe_stretch,
        "your peg stops between an opponent's in-spot and come-out hole, a stretch that tends to be safe",
    ),
    Note(
        "short hop",
        STRATEGY,
        "advice",
        _short_hop,
        "it keeps your peg 1 to 3 holes past its come-out hole, so an 8 backwards later takes it to its "
        "in-spot, ready to go home",
    ),
    Note(
        "lurk for a partner",
        STRATEGY,
        "advice",
        _lurk_partner,
        "your peg waits 10 holes before a partner's come-out hole, where a 10 or a face card sets up a home run",
    ),
    Note(
        "lurk for an in-spot",
        STRATEGY,
        "advice",
        _lurk_in_spot,
        "your peg waits 10 holes before an opponent's in-spot, where a 10 or a face card catches their pegs going home",
    ),
    Note(
        "home run",
        STRATEGY,
        "advice",
        _home_run,
        "it parks your peg on a partner's come-out hole: when the partner comes out, your peg jumps to its in-spot",
    ),
    Note(
        "ready for a runner",
        STRATEGY,
        "advice",
        _ready_for_runner,
        "your peg stands just ahead of a partner's peg, so when the partner lands on it, it jumps straight to its in-spot",
    ),
    Note(
        "teammate",
        ERRORS,
        "advice",
        _teammate_scores,
        "it puts a teammate into a scoring position, ready to go home",
    ),
    Note(
        "attack instead",
        ERRORS,
        "warning",
        _attack_instead,
        "it attacks an opponent when it could put a teammate on its in-spot; a peg sent to start is only two "
        "moves from going home again",
        instead_of="teammate",
        heed="it puts a teammate on its in-spot rather than attack an opponent: a peg sent to start is only two moves "
        "from going home again",
    ),
    Note(
        "joker",
        ERRORS,
        "warning",
        _joker_single,
        "it spends a joker on a single play; kept, it could make a double or triple play later",
        excuses=("endgame", "big bump"),
        heed="it keeps your joker for a double or triple play later",
    ),
    Note(
        "into home short",
        ERRORS,
        "warning",
        _into_home_short,
        "it stops short of the end of home; better wait for the exact count to go all the way in and rely on your "
        "partners",
        excuses=("danger",),
        heed="it keeps to the exact count for going all the way home",
    ),
    # Common Errors' "Getting bound up ... the Kiss of Death" is said by "into home short" (a peg
    # entering home) and "all the way in": a peg within home only ever moves deeper, so no move
    # inside home can leave more of them short of the end.
    Note(
        "all the way in",
        ERRORS,
        "advice",
        _all_the_way_in,
        "it leaves room behind it, so your home does not bind up",
    ),
    Note(
        "two pegs out",
        ERRORS,
        "warning",
        _too_few_out,
        "it leaves you fewer than two pegs out to move; 7s, 9s and jokers need two",
        heed="it keeps at least two pegs out to move; 7s, 9s and jokers need two",
    ),
    Note(
        "tens to go",
        STRATEGY,
        "advice",
        _last_peg_tens,
        "it leaves your team's last peg a run of 10s from the end of home, and 10s are the commonest cards",
    ),
    Note(
        "smallest card",
        ERRORS,
        "warning",
        _big_card_in_endgame,
        "in the endgame a big card that does not go home wastes the count; play your smallest card and give your "
        "partners more chances to get home",
        heed="in the endgame it plays the smallest card, which keeps the exact count for going home",
    ),
)
BY_NAME = {note.name: note for note in NOTES}


def excuse_for(note: Note, seen: Seen) -> Excuse | None:
    """What outweighs a warning for this move, from the note's own exceptions."""
    for excuse in note.excuses:
        if excuse == "endgame" and endgame(seen.before, seen.team):
            return excuse
        if excuse == "big bump" and _big_bump(seen):
            return excuse
        if excuse == "danger" and any(
            threatened(seen.before, seen.owner(seen.before, step.source), step.source, seen.rules)
            for step in seen.move.steps
        ):
            return excuse
    return None
