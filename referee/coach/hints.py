"""Hints: a seat's legal moves ranked by the strategy notes of the rule texts, each saying why
in words a newcomer can see on the board.

    hints = rank(position, rules, cards=["5", "8", "K"])     # a hand; or every rank at a real table
    hints[0].move.text, hints[0].why, hints[0].note          # 'K S0-T0:8', 'A new peg comes out ...', ...

A move's value is the race it wins (``referee.coach.race.gain``, counted lightly) plus the
advice it follows. A move that breaks a warning of the notes (``referee.coach.notes``) ranks
below every move that breaks none, unless something outweighs the warning (its own exception,
the endgame, a big bump, or no other move avoids it); then the hint says what outweighs it.
Warnings are judged against the other moves on offer: "play your smallest card" is broken by
a 9 only when a smaller card could be played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.board import Board
from referee.cards import JOKER, RANKS
from referee.coach.notes import BY_NAME, EXCUSE_WORDS, NOTES, RACE, Note, Seen, excuse_for
from referee.coach.race import gain
from referee.movegen import legal_moves
from referee.moves import Move, Step
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import Names, name_of, say, travelled

RACE_WEIGHT = 0.25  # a hole of the race against a note's weight (the notes decide, the race breaks ties)
BREACH = 50.0  # below every move that breaks no note: more than any race a single card can win
EXCUSED = 0.5  # what is left of a warning's weight when something outweighs it
BASIC = Ruleset.preset("basic")  # how far cards reach when a caller does not say (the danger exception)
KEEP = ("A", "K", "Q", "J", "8", "10")  # kept before other cards when one must go (come-outs, 8 back, 10s)


@dataclass(frozen=True)
class Hint:
    """One option for the seat to play: a card and its move (None: keep the joker and discard
    ``card``), its score, and one sentence saying why, with ``{s<seat>}`` for the table's names.
    ``score`` ranks hints (a broken note puts a move below every move that breaks none);
    ``value`` is the same judgement as a player weighs it, where a note may lose to the race."""

    card: str
    move: Move | None
    score: float
    reason: str
    note: str
    breaks: tuple[str, ...] = field(default=())  # warnings it breaks that nothing outweighs
    value: float = 0.0  # the score with broken notes weighed by their weight alone: what a bot plays by

    @property
    def why(self) -> str:
        return self.words_why({})

    def words_why(self, names: Names) -> str:
        seats = range(10)
        return self.reason.format_map({f"s{seat}": name_of(names, seat) for seat in seats})

    def words(self, names: Names) -> str:
        if self.move is None:
            return f"Keep your joker and discard the {self.card}"
        return say(self.move, names)

    def as_json(self, names: Names) -> dict[str, Any]:
        return {
            "move": self.move.text if self.move else None,
            "words": self.words(names),
            "why": self.words_why(names),
            "note": self.note,
            "score": round(self.score, 2),
            **({"discard": self.card} if self.move is None else {}),
        }


@dataclass(frozen=True)
class Options:
    """What the other moves on offer do, so a warning counts only where it could be avoided."""

    floors: Mapping[str, int]  # per warning: the fewest times any option breaks it
    offered: frozenset[str]  # advice notes some option follows
    breakers: Mapping[str, int]  # per avoidable warning: how many options break it

    @classmethod
    def none(cls) -> Options:
        return cls({}, frozenset(), {})

    @classmethod
    def of(cls, applied: Sequence[Mapping[str, int]], extra_free: bool = False) -> Options:
        """From each option's count of each note (``applied``); ``extra_free``: one more option
        (keeping a joker) breaks no warning."""
        counts = {note.name: [times[note.name] for times in applied] for note in NOTES}
        floors = {name: 0 if extra_free else min(times, default=0) for name, times in counts.items()}
        offered = frozenset(name for name, times in counts.items() if BY_NAME[name].kind == "advice" and any(times))
        breakers = {
            name: sum(1 for n in times if n > floors[name])
            for name, times in counts.items()
            if BY_NAME[name].kind == "warning" and max(times, default=0) > floors[name]
        }
        return cls(floors, offered, breakers)


def judge(card: str, move: Move, rules: Ruleset | None = None, options: Options | None = None) -> Hint:
    """One move's score and the sentence that explains it. Without ``options`` every warning
    it breaks counts as avoidable; ``rules`` say how far opponents' cards reach (basic if not given)."""
    seen = Seen.of(card, move, rules or BASIC)
    return _judge(seen, _applied(seen), options or Options.none())


def _applied(seen: Seen) -> dict[str, int]:
    """How many times each note applies to the move: worked out once, for the options and the hint."""
    return {note.name: note.applies(seen) for note in NOTES}


def _judge(seen: Seen, applied: Mapping[str, int], options: Options) -> Hint:
    score = gain(seen.board, set(seen.team), seen.move) * RACE_WEIGHT
    # (which kind of clause speaks first, its weight, the clause, its note): a broken note, one
    # outweighed by its own exception, advice followed, a warning heeded, one nothing avoids
    said: list[tuple[int, float, str, Note]] = []
    broken: list[Note] = []
    for note in NOTES:
        times = applied[note.name]
        if note.kind == "advice":
            score += note.weight * times
            if times:
                said.append((2, note.weight * times, note.why, note))
            continue
        if note.instead_of is not None and note.instead_of not in options.offered:
            continue
        if not times:
            if note.name in options.breakers and note.heed:  # the move keeps a note others break
                said.append((3, options.breakers[note.name] * note.weight, note.heed, note))
            continue
        excess = times - options.floors.get(note.name, 0)
        named = excuse_for(note, seen) if excess > 0 else "no other move"
        if named is not None:
            score -= note.weight * max(excess, times) * EXCUSED
            said.append((4 if excess <= 0 else 1, note.weight, f"{note.why}, but {EXCUSE_WORDS[named]}", note))
        else:
            score -= note.weight * excess
            said.append((0, note.weight * excess, note.why, note))
            broken.append(note)
    value, score = score, score - BREACH * len(broken)
    effect = _effect(seen)
    if not said:
        return Hint(seen.card, seen.move, score, _sentence(effect or _plain(seen)), RACE, value=value)
    kind, _, clause, note = min(said, key=lambda entry: (entry[0], -entry[1]))
    joint = ", though " if kind in (0, 1, 4) else ": "
    reason = f"{effect}{joint}{clause}" if effect else clause
    return Hint(seen.card, seen.move, score, _sentence(reason), note.source, tuple(note.name for note in broken), value)


def _plain(seen: Seen) -> str:
    """A move no note speaks to: how far it takes the peg, which anyone can count on the board."""
    step = seen.move.steps[0]
    distance = travelled(seen.board, step)
    whose = _whose(seen, seen.after.colour_at(step.target) or seen.seat)
    direction = "further round" if distance >= 0 else "back"
    return f"{whose} peg moves {abs(distance)} hole{'s' if abs(distance) != 1 else ''} {direction}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _whose(seen: Seen, seat: int) -> str:
    return "your" if seat == seen.seat else f"{{s{seat}}}'s"


def _effect(seen: Seen) -> str:
    """What the move does that matters, as anyone can see it on the board ('' for a plain move)."""
    board, move = seen.board, seen.move
    said: list[str] = []
    for bump in move.bumps:
        if board.is_start(bump.target):
            said.append(f"{_whose(seen, bump.seat)} peg goes back to start")
        else:
            said.append(f"{_whose(seen, bump.seat)} peg jumps to its in-spot")
    for step in move.steps:
        colour = seen.after.colour_at(step.target) if not step.swap else None
        if colour is None:
            continue
        whose = _whose(seen, colour)
        if board.is_start(step.source):
            said.insert(0, "a new peg comes out" if colour == seen.seat else f"{{s{colour}}} gets a new peg out")
        elif board.is_home(step.target):
            deepest = not any(
                board.home(colour, depth) not in seen.after.on_board(colour)
                for depth in range(board.depth(step.target) + 1, 6)
            )
            said.append(f"{whose} peg goes into home" + (", all the way in" if deepest else ""))
        elif board.is_track(step.target):
            before_in_spot = (board.in_spot(colour) - step.target) % board.track_length
            if before_in_spot == 0:
                said.append(
                    f"{whose} peg stops on {whose.replace('your', 'its') if colour != seen.seat else 'your'} "
                    "in-spot, ready to go home"
                )
            elif before_in_spot <= 13 and _toward_home(board, step, colour):
                said.append(
                    f"{whose} peg stops {before_in_spot} hole{'s' if before_in_spot > 1 else ''} before "
                    f"{'your' if colour == seen.seat else 'its'} in-spot, ready to go home"
                )
    if not said and move.steps and move.steps[0].swap:
        said.append("two pegs swap places")
    return " and ".join(dict.fromkeys(said))


def _toward_home(board: Board, step: Step, colour: int) -> bool:
    """Did the step bring the peg nearer its in-spot (not a runner just setting off)?"""
    track = board.track_length
    return (board.in_spot(colour) - step.target) % track < (board.in_spot(colour) - step.source) % track


def rank(
    position: Position,
    rules: Ruleset,
    cards: Iterable[str] | None = None,
    limit: int | None = None,
    shortlist: int | None = None,
) -> list[Hint]:
    """Every legal move of the seat to play for ``cards`` (None: every rank, as at a real table
    where the referee does not see the hand), best first. ``shortlist``: judge only that many
    of the moves that gain most in the race (a North Carolina 10 splits thousands of ways).
    A hand whose only moves are a joker's also gets "keep the joker and discard a card"
    (the rules page, Basic Game: a player is never forced to play a joker)."""
    hand = list(cards) if cards is not None else None
    options = [(card, move) for card in dict.fromkeys(hand or RANKS) for move in legal_moves(position, card, rules)]
    if shortlist is not None and len(options) > shortlist:
        team = set(position.board.team_of[position.turn])
        options = sorted(options, key=lambda option: gain(position.board, team, option[1]), reverse=True)[:shortlist]
    hints = assess(options, rules, hand)
    return hints[:limit] if limit else hints


def assess(options: Sequence[tuple[str, Move]], rules: Ruleset, hand: Sequence[str] | None = None) -> list[Hint]:
    """The options judged against each other, best first; with the ``hand`` known and only a
    joker able to move, keeping it (and discarding) is an option too."""
    keep = hand is not None and bool(options) and all(card == JOKER for card, _ in options)
    seen = [Seen.of(card, move, rules) for card, move in options]
    applied = [_applied(s) for s in seen]
    context = Options.of(applied, extra_free=keep)
    hints = [_judge(s, times, context) for s, times in zip(seen, applied, strict=True)]
    if hints and all(hint.breaks for hint in hints) and not keep:  # say what outweighs the note
        hints = [replace(hint, reason=f"{hint.reason[:-1]}; every other move breaks a note too.") for hint in hints]
    if keep and hand is not None:
        hints.append(keep_joker(hand))
    hints.sort(key=lambda hint: (-hint.score, hint.move.text if hint.move else ""))
    return hints


def keep_joker(hand: Sequence[str]) -> Hint:
    spare = spare_card(hand)
    return Hint(
        spare,
        None,
        0.0,
        "Your joker is worth more kept for a double or triple play later: no other card "
        "can move, so keep it and discard a card instead.",
        BY_NAME["joker"].source,
    )


def spare_card(hand: Sequence[str]) -> str:
    """The card to let go: never a joker if another will do, and cards that come out, go back 8
    or move the commonest distance last."""
    spare = [card for card in hand if card != JOKER] or list(hand)
    return min(spare, key=lambda card: (card in KEEP, KEEP.index(card) if card in KEEP else 0, card))


def hints_json(hints: Sequence[Hint], names: Mapping[int, str] | None = None) -> dict[str, Any]:
    return {"hints": [hint.as_json(names or {}) for hint in hints]}
