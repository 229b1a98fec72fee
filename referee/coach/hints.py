"""Hints: a seat's legal moves, ranked by the strategy notes of the rule texts, each saying why.

    hints = rank(position, rules, cards=["5", "8", "K"])     # a hand; or every rank at a real table
    hints[0].move.text, hints[0].why, hints[0].note          # 'K S0-T0:8', 'It brings ...', '000 ...'

A move's score is the race it wins (how much nearer home it brings the team, less what it
costs the others, from ``referee.coach.race.gain``) plus the judgement of each note that applies.
The notes are data (``NOTES``): a name, where the advice comes from, a weight, a test of the
move and the sentence that explains it. The note with the largest say explains the hint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.board import Board
from referee.cards import JOKER, RANKS
from referee.coach.race import gain
from referee.movegen import legal_moves
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import Names, say

CORNER, IN_SPOT, COME_OUT, SIDE = 0, 3, 8, 18
CARD_VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13, JOKER: 14} | {str(n): n for n in range(2, 11)}


@dataclass(frozen=True)
class Seen:
    """A move as the notes look at it: who moves, where their pegs end, what it bumps."""

    move: Move
    seat: int
    team: frozenset[int]
    landed: tuple[int, ...]  # holes our team's pegs moved to (track and home)

    @property
    def board(self) -> Board:
        return self.move.before.board

    @property
    def after(self) -> Position:
        return self.move.result


@dataclass(frozen=True)
class Note:
    name: str
    source: str  # the rule text and note it comes from
    weight: float  # per time it applies: positive advice, negative warning
    applies: Callable[[Seen], int]  # how many times (0: not at all)
    why: str


def _landed_on(kind: int) -> Callable[[Seen], int]:
    """Our pegs landing on ``kind`` holes (corner, in-spot, come-out) of opponents' sides."""

    def count(seen: Seen) -> int:
        board = seen.board
        hits = 0
        for hole in seen.landed:
            if board.is_track(hole) and hole % SIDE == kind:
                side = hole // SIDE
                if kind == CORNER or (side in board.seats and side not in seen.team):
                    hits += 1
        return hits

    return count


def _short_hop(seen: Seen) -> int:
    """A peg 1 to 3 holes past its own come-out hole: an 8 back takes it to or past its in-spot."""
    return sum(1 for hole in seen.landed
               if seen.board.is_track(hole) and (hole - seen.board.come_out(seen.seat)) % seen.board.track_length in (1, 2, 3))  # fmt: skip


def _lurks(seen: Seen) -> int:
    """A peg 10 holes short of a partner's come-out hole (10s and face cards are the commonest)."""
    board = seen.board
    partners = [seat for seat in seen.team if seat != seen.seat]
    return sum(1 for hole in seen.landed for partner in partners
               if board.is_track(hole) and (board.come_out(partner) - hole) % board.track_length == 10)  # fmt: skip


def _home_run(seen: Seen) -> int:
    """A runner parked on a partner's come-out hole: the partner coming out sends it to its in-spot."""
    board = seen.board
    return sum(1 for hole in seen.landed for partner in seen.team
               if partner != seen.seat and hole == board.come_out(partner))  # fmt: skip


def _teammate_scores(seen: Seen) -> int:
    """A teammate's peg sent on to its in-spot (Arizona, North Carolina: a partner bumped goes there)."""
    return sum(1 for bump in seen.move.bumps if bump.seat in seen.team and not seen.board.is_start(bump.target))


def _attack(seen: Seen) -> int:
    return sum(1 for bump in seen.move.bumps if bump.seat not in seen.team)


def _joker_too_soon(seen: Seen) -> int:
    """A joker spent on less than a double play, while the team still has pegs to bring round."""
    if seen.move.card != JOKER or len(seen.move.bumps) >= 2:
        return 0
    return 1 if sum(seen.after.in_home(seat) for seat in seen.team) < 5 * len(seen.team) - 2 else 0


def _bound_up(seen: Seen) -> int:
    """Home holes left empty below a peg of ours: the Kiss of Death (a peg stuck short of the end)."""
    before, after = _gaps(seen.move.before, seen.seat), _gaps(seen.after, seen.seat)
    return max(0, after - before)


def _all_the_way_in(seen: Seen) -> int:
    return max(0, _gaps(seen.move.before, seen.seat) - _gaps(seen.after, seen.seat))


def _gaps(position: Position, seat: int) -> int:
    """Our pegs in home that are not all the way in (an empty home hole lies deeper)."""
    board = position.board
    depths = {board.depth(hole) for hole in position.on_board(seat) if board.is_home(hole)}
    return sum(1 for depth in depths if any(deeper not in depths for deeper in range(depth + 1, 6)))


def _too_few_on_board(seen: Seen) -> int:
    """Fewer than two movable pegs of ours on the board after the move (9s, 7s and jokers need two)."""
    board = seen.board
    movable = [hole for hole in seen.after.on_board(seen.seat) if board.is_track(hole)]
    left = 5 - seen.after.in_home(seen.seat) - len(movable)
    return 1 if len(movable) < 2 and left > 0 else 0


def _endgame_big_card(seen: Seen) -> int:
    """Last pegs near home: a big card that does not go all the way in spends the exact count."""
    board = seen.board
    out = [hole for seat in seen.team for hole in seen.after.on_board(seat) if board.is_track(hole)]
    waiting = sum(seen.after.in_start(seat) for seat in seen.team)
    if len(out) != 1 or waiting or any(board.is_home(hole) for hole in seen.landed if hole in out):
        return 0
    return CARD_VALUE.get(seen.move.card, 0)


NOTES: tuple[Note, ...] = (
    Note("corner", "002 Hints for good play: avoid the corners (000 Notes on Strategy: a risky position)",
         -8, _landed_on(CORNER), "It leaves a peg on a corner, 10 holes from a neighbour's come-out hole."),
    Note("come-out", "002 Hints for good play: avoid the opponents' COME OUT spot",
         -8, _landed_on(COME_OUT), "It leaves a peg on an opponent's come-out hole, where any peg coming out lands on it."),
    Note("in-spot", "002 Hints for good play: avoid the opponents' IN SPOT",
         -6, _landed_on(IN_SPOT), "It leaves a peg on an opponent's in-spot, in the way of their way home."),
    Note("short hop", "000 Notes on Strategy: after coming out, move 1, 2 or 3 forward",
         5, _short_hop, "It keeps the peg 1 to 3 past its come-out hole, so an 8 backwards brings it to its in-spot."),
    Note("lurk", "000 Notes on Strategy: lurk 10 short of a partner's come-out hole",
         4, _lurks, "It waits 10 short of a partner's come-out hole, where a 10 or a face card sets up a home run."),
    Note("home run", "000 Notes on Strategy: set up a home run",
         5, _home_run, "It parks a runner on a partner's come-out hole: the partner coming out sends it to its in-spot."),
    Note("teammate", "000 Common Errors: put a teammate into a scoring position rather than attack",
         6, _teammate_scores, "It sends a teammate's peg on to its in-spot, a scoring position."),
    Note("attack", "000 Common Errors: attacking an opponent instead of helping a teammate",
         -2, _attack, "It spends the move on an attack; an opponent sent to start is only two moves from home entry."),
    Note("joker", "000 Common Errors: playing a joker too soon (hold it for a double or triple play)",
         -7, _joker_too_soon, "It spends a joker on a single play; held, it could make a double or triple play."),
    Note("bound up", "000 Common Errors: getting bound up in HOME (the Kiss of Death)",
         -6, _bound_up, "It leaves a peg in home short of the end, where it can bind the home track."),
    Note("all the way in", "000 Common Errors: getting bound up in HOME (move the first arrival all the way in)",
         3, _all_the_way_in, "It moves a peg deeper into home, so the home track does not bind up."),
    Note("two pegs out", "000 Common Errors: keep at least 2 movable pegs per player on the board",
         -3, _too_few_on_board, "It leaves fewer than two movable pegs out, and 7s, 9s and jokers need two."),
    Note("smallest card", "000 Common Errors: in the endgame play your smallest card",
         -0.5, _endgame_big_card, "In the endgame a big card spends the count; a small one keeps an exact count possible."),
)
RACE = "000 the object of the game: move all your team's pegs from START to HOME"


@dataclass(frozen=True)
class Hint:
    card: str
    move: Move
    score: float
    why: str
    note: str

    def as_json(self, names: Names) -> dict[str, Any]:
        return {"move": self.move.text, "words": say(self.move, names), "why": self.why, "note": self.note,
                "score": round(self.score, 2)}  # fmt: skip


def judge(card: str, move: Move) -> Hint:
    """One move's score and the note that explains it."""
    board = move.before.board
    seat = move.before.turn
    team = frozenset(board.team_of[seat])
    landed = tuple(step.target for step in move.steps if move.result.colour_at(step.target) in team)
    seen = Seen(move, seat, team, landed)
    race = gain(board, set(team), move)
    said = [(note.weight * times, note) for note in NOTES if (times := note.applies(seen))]
    score = race + sum(amount for amount, _ in said)
    if race > 0:
        why = f"It brings your team {race} hole{'s' if race != 1 else ''} nearer home"
    elif race < 0:
        why = f"It costs your team {-race} hole{'s' if race != -1 else ''}"
    else:
        why = "It keeps the race as it is"
    if not said:
        return Hint(card, move, score, why + _bump_clause(seen) + ".", RACE)
    amount, note = max(said, key=lambda entry: abs(entry[0]))
    clause = note.why.removeprefix("It ").rstrip(".")
    joined = f"{why}, and {clause}" if amount > 0 else f"{why}, though it {clause}"
    return Hint(card, move, score, joined + ".", note.source)


def _bump_clause(seen: Seen) -> str:
    if _teammate_scores(seen):
        return " and puts a teammate's peg on its in-spot"
    if _attack(seen):
        return " and sends an opponent back to start"
    return ""


def rank(position: Position, rules: Ruleset, cards: Iterable[str] | None = None, limit: int | None = None,
         shortlist: int | None = None) -> list[Hint]:  # fmt: skip
    """Every legal move of the seat to play for ``cards`` (None: every rank, as at a real table
    where the referee does not see the hand), best first. ``shortlist``: judge only that many
    of the moves that gain most in the race (a North Carolina 10 splits thousands of ways)."""
    options = [(card, move) for card in dict.fromkeys(cards or RANKS) for move in legal_moves(position, card, rules)]
    if shortlist is not None and len(options) > shortlist:
        team = set(position.board.team_of[position.turn])
        options = sorted(options, key=lambda option: gain(position.board, team, option[1]), reverse=True)[:shortlist]
    hints = [judge(card, move) for card, move in options]
    hints.sort(key=lambda hint: (-hint.score, hint.move.text))
    return hints[:limit] if limit else hints


def hints_json(hints: Sequence[Hint], names: Mapping[int, str] | None = None) -> dict[str, Any]:
    return {"hints": [hint.as_json(names or {}) for hint in hints]}
