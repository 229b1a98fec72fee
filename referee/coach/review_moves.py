"""One move of a game under review: what the seat knew, the best its cards allowed, what the
move gave away (confirmed by a look-ahead before it is named), and the luck of the cards."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from referee import events as ev
from referee.coach.hints import Hint, choices_for, hints_of, which_pegs
from referee.coach.judge import Choice, Verdict, judge, noise
from referee.coach.lookahead import Hidden
from referee.coach.luck import luck
from referee.coach.value import chances
from referee.game import Game
from referee.movegen import parse_move
from referee.moves import Move
from referee.words import Names, name_of, say

INACCURACY, MISTAKE, BLUNDER = 0.01, 0.02, 0.08  # chances to win given away
BEYOND_NOISE = 2.0  # standard errors of the paired difference a size must clear
LOOKED_AHEAD = 2  # the quick judge's best few played on beside the move made
Chances = dict[tuple[int, ...], float]


@dataclass(frozen=True)
class Known:
    """What the seat knew when it played: its cards (as far as the referee knew them) and
    the cards it could not see."""

    cards: tuple[str, ...]
    card: str | None  # the card played (digital: from the hand; at a table: the one declared)
    hidden: Hidden
    drawn: str | None = None  # the card the seat drew last, where the referee dealt it


@dataclass(frozen=True)
class Judged:
    entry: dict[str, Any]
    seat: int
    before: Chances  # every team's chance before the move (its seat to play)
    after: Chances  # and after it


def known_at(game: Game, event: ev.Play, drawn: str | None = None) -> Known | None:
    """At a play event, before the card leaves the hand: the cards the referee knew."""
    hidden = Hidden.of(game, event.seat)
    if game.mode == "digital":
        return Known(tuple(game.hand(event.seat)), event.card, hidden, drawn)
    card = event.declared or event.card  # Bluffing Joker: the card announced
    return Known((card,), card, hidden) if card else None


def judge_move(game: Game, event: ev.Move, known: Known | None, names: Names, number: int) -> Judged:
    """One accepted move, judged against the best its known cards allowed."""
    position, board = game.position, game.board
    made = _made(game, event)
    before = chances(position.with_turn(event.seat))
    after = chances(made.result.with_turn(board.next_seat(event.seat)))
    team = board.team_of[event.seat]
    entry: dict[str, Any] = {
        "number": number,
        "turn": game.turn_number,
        "seat": event.seat,
        "name": name_of(names, event.seat),
        "move": event.text,
        "words": say(made, names) + which_pegs(made, names) + _free(event),
        "cards": list(known.cards) if known else None,
        "judged": known is not None,
        "best": None,
        "played": None,
        "chance": round(after[team], 3),
        "lost": None,
        "luck": None,
        "size": None,
        "note": None,
    }
    if known is None:
        entry["said"] = entry["words"] + "."
    else:
        entry.update(_judged(game, event, made, known, names, number))
    return Judged(entry, event.seat, before, after)


def _judged(game: Game, event: ev.Move, made: Move, known: Known, names: Names, number: int) -> dict[str, Any]:
    choices = choices_for(game.position, game.rules, known.cards)
    if game.mode == "table":  # one declared card: "keep the joker" needs the whole hand
        choices = [choice for choice in choices if choice.move is not None]
    if event.free:  # counting: the free come-out was one more choice
        choices += [Choice(move.card, move) for move in game.free_come_outs(known.card or event.text.split()[0])]
    played = next((c for c in choices if c.move is not None and c.move.text == event.text), None)
    if played is None:  # a free come-out, a bluff, or a move the card did not explain
        played = Choice(known.card or made.card, made)
        choices.append(played)
    best, mine, lost, size = assess(game, choices, played, known, number)
    shown = hints_of([best, mine], game.rules) if best is not mine else hints_of([mine], game.rules) * 2
    best_hint, played_hint = shown if best is not mine else (None, None)  # None: the move made was the best
    words = say(made, names) + which_pegs(made, names) + _free(event)
    return {
        "best": _best_json(shown[0], names),
        "played": {"why": shown[1].words_why(names), "note": None},
        "lost": lost,
        "luck": _luck(game, known),
        "size": size,
        "note": (played_hint.note if played_hint and played_hint.breaks else best_hint.note)
        if size and best_hint
        else None,
        "said": _said(words, best_hint, played_hint, lost, size, names, len(known.cards) > 1),
    }


def assess(
    game: Game, choices: list[Choice], played: Choice, known: Known, number: int
) -> tuple[Verdict, Verdict, float, str | None]:
    """The best choice, the one played, what it gave away and its size word (None: as good as
    the best, near enough): the quick judge first, a look-ahead where it sees a loss."""
    quick = judge(game.position, game.rules, choices, also=played)
    best, mine = quick[0], _find(quick, played)
    lost = round(max(0.0, best.chance - mine.chance), 3)
    if lost < INACCURACY:
        return best, mine, lost, None
    return _confirmed(game, choices, played, known, number)


def _confirmed(
    game: Game, choices: list[Choice], played: Choice, known: Known, number: int
) -> tuple[Verdict, Verdict, float, str | None]:
    """The quick judge saw a loss: play the best few and the move made on over sampled deals,
    and name a size only where the loss stands clear of the sampling noise."""
    rng = random.Random(number)
    ahead = judge(game.position, game.rules, choices, known.hidden, rng, LOOKED_AHEAD, also=played)
    best, mine = ahead[0], _find(ahead, played)
    lost = max(0.0, best.chance - mine.chance)
    clear = lost > BEYOND_NOISE * noise(best, mine)
    size = None if not clear or lost < INACCURACY else size_word(lost)
    return best, mine, round(lost, 3), size


def _luck(game: Game, known: Known) -> float | None:
    """The drawn card's worth against an average draw, where the referee dealt it."""
    if known.drawn is None or known.drawn not in known.cards:
        return None
    kept = list(known.cards)
    kept.remove(known.drawn)
    return round(luck(game.position, game.rules, kept, known.drawn, known.hidden.unseen), 3)


def size_word(lost: float) -> str:
    if lost < MISTAKE:
        return "an inaccuracy"
    return "a mistake" if lost < BLUNDER else "a blunder"


def _find(verdicts: list[Verdict], choice: Choice) -> Verdict:
    return next(verdict for verdict in verdicts if verdict.choice == choice)


def _best_json(hint: Hint, names: Names) -> dict[str, Any]:
    return {
        "move": hint.move.text if hint.move else None,
        "words": hint.words(names),
        "why": hint.words_why(names),
        "note": hint.note,
    }


def _made(game: Game, event: ev.Move) -> Move:
    """The move an event names, from the position before it (a free come-out too)."""
    if event.free:
        for move in game.free_come_outs(event.text.split()[0]):
            if move.text == event.text:
                return move
    return parse_move(game.position, event.text, game.rules)


def _free(event: ev.Move) -> str:
    return " (free, after turns without moving)" if event.free else ""


def _said(
    words: str, best: Hint | None, played: Hint | None, lost: float, size: str | None, names: Names, hand: bool
) -> str:
    with_what = "that hand" if hand else "that card"
    if best is None or played is None:
        return f"{words}: the best move with {with_what}."
    better = best.words(names) if best.move is not None else _lower_first(best.words(names))
    if size is None:
        return f"{words}: as good as the best move with {with_what}, near enough ({better})."
    gave = f"about {max(1, round(lost * 100))} in 100 chances to win given away"
    return f"{words}: {size} ({gave}). Better: {better}. {best.words_why(names)}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
