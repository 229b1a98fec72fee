"""The game review: every move judged by the chances to win it gave away against the best
move the same cards allowed, the luck of the cards apart from the choices, and each team's
turning points, in plain words.

    data = review(record.read("game-7.jsonl"))          # what ``pegs review`` prints
    data["seats"][0]["biggest"][0]["said"]               # Red's biggest mistake, in words
    data["teams"][0]["turning_points"]                   # the moves that changed the likely winner most

The judge (``referee.coach.judge``) scores each choice by the chance its team then wins. The
cards known are, in a digital game, the whole hand the seat held when it played (the referee
dealt it), at a real table only a card someone declared on the page (or turned up in Bluffing
Joker); a move made with cards nobody entered is told in words and not judged. A move the quick
judge puts at least ``INACCURACY`` below the best is looked at again, played on over sampled
deals of what the seat could not see; its size is named only where that look agrees beyond its
own noise (twice the standard error of the paired difference):

- under ``INACCURACY`` (1 in 100), or within the noise: as good as the best, near enough;
- ``INACCURACY`` to ``MISTAKE`` (1 to 4 in 100): "an inaccuracy";
- ``MISTAKE`` to ``BLUNDER`` (4 to 12 in 100): "a mistake";
- ``BLUNDER`` and more: "a blunder".

Only play-outs of several rounds over paired deals name a mistake or a blunder; a loss only
the one-round look-ahead saw, which the review's time budget left unsettled, is at most an
inaccuracy.

Luck: at each judged turn, the chance the best move with the cards held leaves, less the
chance the seat had before it saw them (the value of the position, an average draw): a good
hand is luck, not skill. A game that stopped unfinished is reviewed up to where it stopped.

The shape, everything JSON (``version`` is ``VERSION``)::

    {"version": 8,
     "game": {"players", "rules", "mode", "names": {"0": "Red", ...}, "winner": "Red & Yellow" | null,
              "over": true, "moves": 180},
     "moves": [{"number", "turn", "seat", "name", "move", "words", "cards" | null, "judged",
                "best": {"move", "words", "why", "note"} | null, "played": {"why", "note"} | null,
                "chance": 0.61 | null,       # the mover's team's chance after the move
                "lost": 0.0 | null,          # >= 0: what it gave away against the best
                "luck": 0.03 | null,         # the cards' worth against an average draw
                "size": null | "an inaccuracy" | "a mistake" | "a blunder",
                "lost_clear": 0.02 | null,   # with a size: the part of "lost" clear of the noise
                "note", "said"}, ...],
     "seats": [{"seat", "name", "moves", "judged", "best", "near", "inaccuracies", "mistakes",
                "blunders", "lost", "luck", "bumps_made", "bumps_suffered",
                "biggest": [{"number", "size", "note", "said", "lost"}, ...],  # a blunder first, then by "lost"
                "summary"}, ...],
     "teams": [{"seats", "name", "won", "lost", "luck", "turning_points": [...], "summary"}, ...],
     "sizes": {"an inaccuracy": 0.01, "a mistake": 0.04, "a blunder": 0.12}}  # each size's bar

``progress(done, total)`` is called after each move, and again after each doubtful move the
play-outs settle (a daemon shows it while it works, and may stop the review there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee import events as ev
from referee import record
from referee.coach.review_moves import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    SIZES,
    Judged,
    Known,
    given_away,
    judge_move,
    known_at,
)
from referee.coach.review_words import LUCK_AND_CHOICES, seat_entry, team_entry
from referee.coach.rollout import Budget
from referee.events import Event
from referee.words import name_of

__all__ = ["BLUNDER", "INACCURACY", "MISTAKE", "VERSION", "review", "without_cards"]
PLAYOUT_TURNS = 8_000  # turns of play-out a review may spend settling doubtful moves (its time budget: bench)
VERSION = 10  # of the shape and the judgement: bump it when either changes (stored reviews are redone)
Progress = Callable[[int, int], None]


def review(events: list[Event], progress: Progress | None = None, limit: int = 3) -> dict[str, Any]:
    """The whole review of a game record (see the module docstring for its shape). A broken
    record raises ``record.RecordError``."""
    game = record.replay(events[:1])
    names = {side: _upper_first(name) for side, name in record.side_names(events[0]).items()}
    total = sum(1 for event in events if isinstance(event, ev.Move))
    moves: list[Judged] = []
    known: Known | None = None
    drawn: dict[int, str] = {}  # each seat's last drawn card, where the record has it
    done = 0
    for event in record.walk(game, events[1:]):
        with record.checked(event):
            if isinstance(event, ev.Draw) and event.card is not None:
                drawn[event.seat] = event.card
            elif isinstance(event, ev.Play):
                known = known_at(game, event, drawn.pop(event.seat, None))
            elif isinstance(event, ev.Move):
                del moves[len(game.made) :]  # moves taken back by an undo
                moves.append(judge_move(game, event, known, names, len(moves) + 1))
                known, done = None, done + 1
                if progress is not None:
                    progress(done, total)
    del moves[len(game.made) :]
    budget = Budget(PLAYOUT_TURNS)
    for move in sorted((m for m in moves if m.doubt is not None), key=_doubt_first):
        move.settle(budget)
        if progress is not None:  # between two play-outs too: a daemon may stop the review there
            progress(done, total)
    entries = [move.entry for move in moves]
    return {
        "version": VERSION,
        "game": {
            "players": game.board.players,
            "rules": game.rules.name,
            "mode": game.mode,
            "names": {str(seat): names[seat] for seat in game.board.seats},
            "phones": [names[seat] for seat in record.phone_seats(events[0]) if seat in names],  # issue 36
            "winner": " & ".join(name_of(names, seat) for seat in game.winner) if game.winner else None,
            "over": game.phase == "over",
            "moves": len(entries),
        },
        "moves": entries,
        "seats": [seat_entry(seat, names, entries, game, limit) for seat in game.board.seats],
        "teams": [team_entry(team, names, moves, game, limit) for team in game.board.teams],
        "sizes": dict(SIZES),  # each size's bar, for a page
    }


def _doubt_first(move: Judged) -> tuple[float, int]:
    """The biggest losses the look-ahead saw are settled first (the budget may not reach all)."""
    return (-move.doubt.lost if move.doubt else 0.0, int(move.entry["number"]))


def _upper_first(text: str) -> str:
    """Names start sentences: the record's "seat 1" is said "Seat 1"."""
    return text[:1].upper() + text[1:]


def without_cards(data: dict[str, Any]) -> dict[str, Any]:
    """The review of a game not over, as anyone may read it: no hand, no better move a hand
    allowed (the game may yet go on); what each move gave away and the turning points stay."""
    moves = [_move_without_cards(entry) for entry in data["moves"]]
    by_number = {entry["number"]: entry for entry in moves}
    teams = [_team_without_cards(team) for team in data["teams"]]
    seats = [
        {
            **seat,
            "luck": None,
            "biggest": [{**e, "said": by_number[e["number"]]["said"], "note": None} for e in seat["biggest"]],
        }
        for seat in data["seats"]
    ]
    return {**data, "moves": moves, "seats": seats, "teams": teams, "cards_shown": False}


def _move_without_cards(entry: dict[str, Any]) -> dict[str, Any]:
    hidden = {"cards": None, "best": None, "played": None, "note": None, "luck": None}
    return {**entry, **hidden, "said": _said_without_cards(entry)}


def _team_without_cards(team: dict[str, Any]) -> dict[str, Any]:
    """A team's part without its draws' luck (the cards drawn) or the better moves its hands allowed."""
    points = [{**point, "said": point["said"].split(" Instead: ")[0]} for point in team["turning_points"]]
    summary = team["summary"].split(LUCK_AND_CHOICES)[0] + " Their luck is told once the game is over."
    return {**team, "luck": None, "summary": summary, "turning_points": points}


def _said_without_cards(entry: dict[str, Any]) -> str:
    if not entry.get("size"):
        return f"{entry['words']}."
    return f"{entry['words']}: {entry['size']} ({given_away(entry.get('lost_clear'), entry['lost'])})."
