"""The game review: every move of a finished game, and where the referee knew the cards, the
best move those cards allowed and what the difference cost, said in plain words.

    data = review(record.read("game-7.jsonl"))          # what ``pegs review`` prints
    data["seats"][0]["biggest"][0]["said"]               # Red's biggest slip, in words

Chess players learn from a review; this one judges each move with the hints' ranking
(``referee.coach.hints``): the cards known are, in a digital game, the whole hand the seat
held when it played (the referee dealt it), at a real table only a card someone declared on
the page (or turned up in Bluffing Joker); a move made with cards nobody entered is told in
words and not judged. The cost of a move is how far its score falls short of the best move's;
no figure is ever shown to people, only a size word:

- under ``NEAR`` (2): as good as the best, near enough (the ranking is not that exact);
- ``NEAR`` to ``SLIP`` (2 to 6): "a small slip", about a few holes of the race given away;
- ``SLIP`` to ``BIG`` (6 to 15): "a slip", about what one of the notes weighs;
- ``BIG`` (15) and more: "a big slip", a note broken and the race lost as well.

The shape (``VERSION`` 1), everything JSON::

    {"version": 1,
     "game": {"players": 4, "rules": "basic", "mode": "digital", "names": {"0": "Red", ...},
              "winner": "Red & Yellow" | null},
     "moves": [{"number": 1, "turn": 1, "seat": 0, "name": "Red", "move": "K S0-T0:8",
                "words": "Red comes out with a king",
                "cards": ["K", "5", ...] | null,      # what the referee knew the seat held
                "judged": true,                       # false: cards unknown, nothing below
                "best": {"move", "words", "why", "note"} | null,
                "played": {"why", "note"} | null,
                "cost": 0.0 | null,                   # >= 0; for sorting, never shown
                "size": null | "a small slip" | "a slip" | "a big slip",
                "note": "the rules page's ..." | null, # the note that explains the slip
                "said": "Red comes out with a king: the best move with that hand."}, ...],
     "seats": [{"seat": 0, "name": "Red", "moves": 40, "judged": 38, "best": 30, "near": 4,
                "slips": 4, "bumps_made": 3, "bumps_suffered": 2,
                "biggest": [{"number": 17, "size": "a big slip", "note": ..., "said": ...,
                             "cost": 18.0}, ...],     # at most ``limit``, biggest first
                "summary": "Red made 40 moves ..."}, ...]}

``progress(done, total)`` is called after each move (a daemon shows it while it works).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee import events as ev
from referee import record
from referee.coach.hints import Hint, judge, rank
from referee.events import Event
from referee.game import Game
from referee.movegen import parse_move
from referee.moves import Move
from referee.words import Names, name_of, say

VERSION = 1  # of the shape and the judgement: bump it when either changes (stored reviews are redone)
NEAR, SLIP, BIG = 1.0, 4.0, 20.0
SHORTLIST = 150  # moves judged per turn (a North Carolina 7 or 10 splits thousands of ways)
SLIPS = 3  # the biggest slips listed for each seat
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class _Known:
    """What the referee knew of the cards when a seat played."""

    cards: tuple[str, ...]
    card: str | None  # the card played (digital: from the hand; at a table: the one declared)


def review(events: list[Event], progress: Progress | None = None, limit: int = SLIPS) -> dict[str, Any]:
    """The whole review of a game record (see the module docstring for its shape). A broken
    record raises ``record.RecordError``."""
    game = record.replay(events[:1])
    names = {seat: _upper_first(name) for seat, name in record.seat_names(events[0]).items()}
    total = sum(1 for event in events if isinstance(event, ev.Move))
    moves: list[dict[str, Any]] = []
    known: _Known | None = None
    done = 0
    for event in record.walk(game, events[1:]):
        with record.checked(event):
            if isinstance(event, ev.Play):
                known = _known(game, event)
            elif isinstance(event, ev.Move):
                del moves[len(game.made) :]  # moves taken back by an undo
                moves.append(_judged(game, event, known, names, len(moves) + 1))
                known, done = None, done + 1
                if progress is not None:
                    progress(done, total)
    del moves[len(game.made) :]
    return {
        "version": VERSION,
        "game": {
            "players": game.board.players,
            "rules": game.rules.name,
            "mode": game.mode,
            "names": {str(seat): name for seat, name in names.items()},
            "winner": " & ".join(name_of(names, seat) for seat in game.winner) if game.winner else None,
        },
        "moves": moves,
        "seats": [_seat(seat, names, moves, game, limit) for seat in game.board.seats],
    }


def _known(game: Game, event: ev.Play) -> _Known | None:
    """At a play event, before the card leaves the hand: the cards the referee knew."""
    if game.mode == "digital":
        return _Known(tuple(game.hand(event.seat)), event.card)
    card = event.declared or event.card  # Bluffing Joker: the card announced
    return _Known((card,), card) if card else None


def _judged(game: Game, event: ev.Move, known: _Known | None, names: Names, number: int) -> dict[str, Any]:
    """One accepted move, judged against the best its known cards allowed."""
    entry: dict[str, Any] = {
        "number": number,
        "turn": game.turn_number,
        "seat": event.seat,
        "name": name_of(names, event.seat),
        "move": event.text,
        "cards": list(known.cards) if known else None,
        "judged": False,
        "best": None,
        "played": None,
        "cost": None,
        "size": None,
        "note": None,
    }
    if known is None:
        entry["words"] = say(_made(game, event), names) + _free(event)
        entry["said"] = entry["words"] + "."
        return entry
    best, played = _best_and_played(game, event, known)
    cost = round(best.score - played.score, 2)
    size = _size(cost)
    words = played.words(names) + _free(event)
    entry.update(
        words=words,
        judged=True,
        cost=cost,
        size=size,
        best={
            "move": best.move.text if best.move else None,
            "words": best.words(names),
            "why": best.words_why(names),
            "note": best.note,
        },
        played={"why": played.words_why(names), "note": played.note},
        note=_lesson(best, played) if size else None,
        said=_said(words, best, played, size, names, len(known.cards) > 1),
    )
    return entry


def _best_and_played(game: Game, event: ev.Move, known: _Known) -> tuple[Hint, Hint]:
    """The best move the known cards allowed and the move made, each judged by the hints' ranking."""
    options = rank(game.position, game.rules, list(known.cards), shortlist=SHORTLIST)
    if game.mode == "table":  # one declared card: "keep the joker" needs the whole hand
        options = [hint for hint in options if hint.move is not None]
    played = next((hint for hint in options if hint.move is not None and hint.move.text == event.text), None)
    if event.free:  # counting: the free come-out was one more choice
        options += [judge(move.card, move, game.rules) for move in game.free_come_outs(known.card or event.text[:1])]
    if played is None:  # a free come-out, a bluff, or beyond the shortlist: judged on its own
        move = _made(game, event)
        played = judge(move.card, move, game.rules)
    best = max(options, key=lambda hint: hint.score, default=played)
    return (played if best.score <= played.score else best), played


def _made(game: Game, event: ev.Move) -> Move:
    """The move an event names, from the position before it (a free come-out too)."""
    if event.free:
        for move in game.free_come_outs(event.text.split()[0]):
            if move.text == event.text:
                return move
    return parse_move(game.position, event.text, game.rules)


def _size(cost: float) -> str | None:
    if cost < NEAR:
        return None
    if cost < SLIP:
        return "a small slip"
    return "a slip" if cost < BIG else "a big slip"


def _lesson(best: Hint, played: Hint) -> str:
    """The note that explains the difference: the warning the move made broke, if it broke
    one, else the advice (or the race) the better move follows."""
    return played.note if played.breaks else best.note


def _free(event: ev.Move) -> str:
    return " (free, after turns without moving)" if event.free else ""


def _said(words: str, best: Hint, played: Hint, size: str | None, names: Names, hand: bool) -> str:
    with_what = "that hand" if hand else "that card"
    better = best.words(names) if best.move is not None else _lower_first(best.words(names))
    if best is played:
        return f"{words}: the best move with {with_what}. {played.words_why(names)}"
    if size is None:
        return f"{words}: as good as the best move with {with_what}, near enough ({better})."
    return f"{words}: {size}. Better: {better}. {best.words_why(names)} The move made: {played.words_why(names)}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _upper_first(text: str) -> str:
    """Names start sentences: the record's "seat 1" is said "Seat 1"."""
    return text[:1].upper() + text[1:]


def _seat(seat: int, names: Names, moves: list[dict[str, Any]], game: Game, limit: int) -> dict[str, Any]:
    """One seat's numbers, its biggest slips and a plain summary."""
    mine = [entry for entry in moves if entry["seat"] == seat]
    judged = [entry for entry in mine if entry["judged"]]
    best = sum(1 for entry in judged if entry["cost"] == 0)
    near = sum(1 for entry in judged if entry["cost"] > 0 and entry["size"] is None)
    slips = sorted((entry for entry in judged if entry["size"]), key=lambda entry: (-entry["cost"], entry["number"]))
    bumps = [bump for bump in game.bumps if not bump.penalty]
    made = sum(1 for bump in bumps if bump.by == seat)
    suffered = sum(1 for bump in bumps if bump.seat == seat)
    name = name_of(names, seat)
    biggest = [{key: entry[key] for key in ("number", "size", "note", "said", "cost")} for entry in slips[:limit]]
    return {
        "seat": seat,
        "name": name,
        "moves": len(mine),
        "judged": len(judged),
        "best": best,
        "near": near,
        "slips": len(slips),
        "bumps_made": made,
        "bumps_suffered": suffered,
        "biggest": biggest,
        "summary": _summary(name, len(mine), len(judged), best, near, slips, made, suffered),
    }


def _summary(
    name: str, moves: int, judged: int, best: int, near: int, slips: list[dict[str, Any]], made: int, suffered: int
) -> str:
    said = [f"{name} made {_count(moves, 'move')}."]
    if judged == 0:
        said.append("The referee did not know the cards, so none of them could be judged.")
    else:
        known = "all of them" if judged == moves else f"{judged} of them"
        said.append(
            f"With the cards known for {known}, {best} {'was' if best == 1 else 'were'} the best move"
            + (f" and {near} nearly as good." if near else ".")
        )
        if slips:
            said.append(f"{_count(len(slips), 'slip')}; the biggest, {slips[0]['size']} at move {slips[0]['number']}.")
        else:
            said.append("No slips at all.")
    bumped = f"was bumped {_count(suffered, 'time')}" if suffered else "was never bumped"
    said.append(f"{name} bumped {_count(made, 'peg')} and {bumped}.")
    return " ".join(said)


def _count(number: int, thing: str) -> str:
    return f"{'no' if number == 0 else number} {thing}{'' if number == 1 else 's'}"
