"""Why a move is good or not, in the words of the strategy notes, after the judge has ranked it.

The notes (``referee.coach.notes``) are advice written by good players, not a way to count:
the judge (``referee.coach.judge``) ranks the moves by the chance to win, and the notes then
say why. A move cites the note it follows; where the best move breaks a note another move
keeps, it says why the note gives way here ("usually keep two pegs out, but this is worth
more here: about 8 in 100 more chances to win"). A move is never ranked by a note.

    said = explain(verdicts, rules)        # one Said per verdict, in the same order
    said[0].reason, said[0].note           # 'Your peg goes into home, all the way in: ...', its source
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.board import Board
from referee.coach.judge import Verdict
from referee.coach.notes import BY_NAME, EXCUSE_WORDS, NOTES, RACE, Excuse, Note, Seen, excuse_for, in_these_rules
from referee.moves import Move, Step
from referee.rulesets import Ruleset
from referee.words import travelled

KEEP_JOKER = "Keep your joker for a double or triple play later: no other card can move, so let a card go instead"


@dataclass(frozen=True)
class Said:
    reason: str  # one or two sentences, with {s<seat>} where a seat's name goes
    note: str  # the source of the note it cites (the race's rule where no note speaks)
    follows: tuple[str, ...]  # the notes it follows (advice, or a warning others break)
    breaks: tuple[str, ...]  # the warnings it breaks that another choice keeps


def explain(verdicts: Sequence[Verdict], rules: Ruleset) -> list[Said]:
    """The reasons for the judge's verdicts (best first), each against the best."""
    seen = [Seen.of(v.card, v.move, rules) if v.move is not None else None for v in verdicts]
    applied = [{note.name: note.applies(s) for note in NOTES} if s else None for s in seen]
    _only_on_offer(applied)
    kept = _kept_by(applied)
    best = verdicts[0].chance if verdicts else 0.0
    return [
        _said(verdict, s, times, kept, verdicts, best)
        for verdict, s, times in zip(verdicts, seen, applied, strict=True)
    ]


def _only_on_offer(applied: Sequence[dict[str, int] | None]) -> None:
    """A warning against doing one thing instead of another ("attacking an opponent instead of
    putting a teammate into a scoring position") is not broken where no choice does the other."""
    for note in NOTES:
        if note.instead_of and not any(times and times[note.instead_of] for times in applied):
            for times in applied:
                if times is not None:
                    times[note.name] = 0


def _kept_by(applied: Sequence[Mapping[str, int] | None]) -> dict[str, tuple[int, int]]:
    """Per warning some choice breaks more often than another: the index of the first (best
    judged) choice that breaks it least, and how often that is."""
    kept: dict[str, tuple[int, int]] = {}
    for note in NOTES:
        if note.kind != "warning":
            continue
        counts = [times[note.name] if times is not None else 0 for times in applied]
        if counts and max(counts) > min(counts):
            kept[note.name] = (counts.index(min(counts)), min(counts))
    return kept


def _said(
    verdict: Verdict,
    seen: Seen | None,
    applied: Mapping[str, int] | None,
    kept: Mapping[str, tuple[int, int]],
    verdicts: Sequence[Verdict],
    best: float,
) -> Said:
    if seen is None or applied is None:
        return Said(_sentence(KEEP_JOKER) + _standing(verdict, best), BY_NAME["joker"].source, ("joker",), ())
    effect = effect_words(seen)
    follows = [note for note in NOTES if note.kind == "advice" and applied[note.name]]
    least = {name: fewest for name, (_, fewest) in kept.items()}
    follows += [note for note in NOTES if note.name in least and applied[note.name] == 0]  # kept, others break it
    breaks = [note for note in NOTES if note.name in least and applied[note.name] > least[note.name]]
    if breaks and verdict.chance >= best - SAME:
        keeper = verdicts[kept[breaks[0].name][0]]
        reason = _gives_way(
            effect or plain_words(seen), breaks[0], verdict.chance - keeper.chance, excuse_for(breaks[0], seen)
        )
        cited = breaks[0]
    elif breaks:
        reason = _sentence(f"{effect or plain_words(seen)}, though {_whose_clause(breaks[0].why, seen)}")
        cited = breaks[0]
    elif cited_follows := [n for n in follows if n.kind == "advice" or (n.heed and verdict.chance >= best - SAME)]:
        cited = cited_follows[0]  # a warning kept is praise only for a move as good as the best
        clause = _whose_clause(cited.why if cited.kind == "advice" else cited.heed, seen)
        reason = _sentence(f"{effect}: {clause}" if effect else clause)
    else:
        cited = None
        reason = _sentence(effect or plain_words(seen))
    return Said(
        in_these_rules(reason, seen.rules) + _standing(verdict, best),
        cited.source if cited else RACE,
        tuple(note.name for note in follows),
        tuple(note.name for note in breaks),
    )


SAME = 0.005  # half a point of the chance to win: as good as the best, as far as words go


def _gives_way(did: str, note: Note, more: float, excuse: Excuse | None) -> str:
    """The best move (``did``, in words) breaks a note: say what the note usually asks and why
    it gives way (the note's own exception, where one applies)."""
    usually = note.heed.removeprefix("in the endgame ").removeprefix("it ").replace("your peg", "a peg")
    if more >= SAME:
        judged = f"this is worth more: {chance_words(more, 'more')}"
    else:  # a tie, near enough: saying "worth more" would claim a gain the judge did not find
        judged = "this does as well: as many chances to win, near enough"
    why = f"{EXCUSE_WORDS[excuse]}, and {judged}" if excuse is not None else f"here {judged}"
    return _sentence(f"{did}. Usually a move {usually}, but {why}")


def _standing(verdict: Verdict, best: float) -> str:
    lost = best - verdict.chance
    if lost < SAME:
        return ""
    return f" {_sentence(chance_words(lost, 'fewer') + ' than the best move')}"


def chance_words(amount: float, direction: str) -> str:
    """A difference in the chance to win as people feel it: 'about 1 in 10 more chances to win'."""
    if amount >= 0.095:
        return f"about {round(amount * 10)} in 10 {direction} chances to win"
    if amount >= 0.005:
        return f"about {max(1, round(amount * 100))} in 100 {direction} chances to win"
    return f"less than 1 in 100 {direction} chances to win"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


_YOU = re.compile(r"\b([Yy])ou(r?)\b")


_ADVICE = (  # what a hint tells the seat to do, as the table is told what the seat could have done
    ("Keep your joker and discard the", "{mover} keeps the joker and discards the"),
    ("Keep your joker for", "{mover} keeps the joker for"),
    ("so let a card go instead", "so {mover} lets a card go instead"),
)


def in_third_person(text: str, mover: str) -> str:
    """A hint's words, written to the seat that moves ("your peg goes into home", "Keep your
    joker"), as the whole table reads them in a review ("Red's peg goes into home", "Red keeps
    the joker")."""
    for advice, told in _ADVICE:
        text = text.replace(advice, told.format(mover=mover))
    return _YOU.sub(lambda found: f"{mover}'s" if found.group(2) else mover, text)


def _whose_clause(clause: str, seen: Seen) -> str:
    """A note's clause speaks of "your peg" and "your home". Where the move takes only other
    colours' pegs (a partner's, or an opponent's with North Carolina's 10), they are "the peg"
    and "its home"; where it moves two pegs (a split), "a peg" and then "the peg", since the note
    may speak of either and the words before it name the other."""
    after, pegs = seen.after, [step for step in seen.move.steps if not step.swap]
    moved = {after.colour_at(step.target) for step in pegs}
    if len(pegs) > 1:
        clause = clause.replace("your peg", "a peg", 1).replace("your peg", "the peg")
    if moved == {seen.seat}:
        return clause
    return clause.replace("your peg", "the peg").replace("your home", "its home")


def _whose(seen: Seen, seat: int) -> str:
    return "your" if seat == seen.seat else f"{{s{seat}}}'s"


def plain_words(seen: Seen) -> str:
    """A move no note speaks to: how far it takes the peg, which anyone can count on the board."""
    step = seen.move.steps[0]
    distance = travelled(seen.board, step)
    whose = _whose(seen, seen.owner(seen.after, step.target))
    direction = "further round" if distance >= 0 else "back"
    return f"{whose} peg moves {abs(distance)} hole{'s' if abs(distance) != 1 else ''} {direction}"


def effect_words(seen: Seen) -> str:
    """What the move does that matters, as anyone can see it on the board ('' for a plain move)."""
    board, move = seen.board, seen.move
    said = [
        f"{_whose(seen, bump.seat)} peg "
        + ("goes back to start" if board.is_start(bump.target) else "jumps to its in-spot")
        for bump in move.bumps
    ]
    for step in move.steps:
        colour = seen.after.colour_at(step.target) if not step.swap else None
        if colour is not None:
            _step_effect(seen, board, step, colour, said)
    if not said and move.steps and move.steps[0].swap:
        said.append("two pegs swap places")
    return " and ".join(dict.fromkeys(said))


def _step_effect(seen: Seen, board: Board, step: Step, colour: int, said: list[str]) -> None:
    whose = _whose(seen, colour)
    if board.is_start(step.source):
        said.insert(0, "a new peg comes out" if colour == seen.seat else f"{{s{colour}}} gets a new peg out")
    elif board.is_home(step.target):
        deepest = not any(
            board.home(colour, depth) not in seen.after.on_board(colour)
            for depth in range(board.depth(step.target) + 1, 6)
        )
        goes = "moves deeper into home" if board.is_home(step.source) else "goes into home"
        said.append(f"{whose} peg {goes}" + (", all the way in" if deepest else ""))
    elif board.is_track(step.target):
        before_in_spot = (board.in_spot(colour) - step.target) % board.track_length
        its = "your" if colour == seen.seat else "its"
        if before_in_spot == 0:
            said.append(f"{whose} peg stops on {its} in-spot, ready to go home")
        elif before_in_spot <= 13 and _toward_home(board, step, colour):
            holes = f"{before_in_spot} hole{'s' if before_in_spot > 1 else ''}"
            said.append(f"{whose} peg stops {holes} before {its} in-spot, ready to go home")


def _toward_home(board: Board, step: Step, colour: int) -> bool:
    """Did the step bring the peg nearer its in-spot (not a runner just setting off)?"""
    track = board.track_length
    return (board.in_spot(colour) - step.target) % track < (board.in_spot(colour) - step.source) % track


def moved_from(move: Move) -> tuple[int, ...]:
    """The holes the move's pegs leave, in step order (start pegs left out)."""
    board = move.before.board
    return tuple(step.source for step in move.steps if not board.is_start(step.source))
