"""The board beyond the tracker's report, in words: a split half made (whose it is, and what is
left of it), and why a peg moved from one hole to another is not a legal move. The session's
notices, the page's state and the LEDs all ask here, so each reads a session the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from referee.board import PEGS_PER_SEAT
from referee.game import Game
from referee.reasons import why_not
from referee.table import seating
from referee.tracker import Report, Tracker, Unfinished
from referee.words import split_words


class Turn(Protocol):
    """What of a session this reads (``referee.table.session.Session``)."""

    game: Game
    report: Report
    tracker: Tracker
    insisted: bool
    declared: str | None

    @property
    def chosen(self) -> str | None: ...

    def unfinished(self) -> Unfinished | None: ...


def finishing_seat(session: Turn) -> int | None:
    """Whose split is half made and may still be finished: the page and the board show that
    seat's turn until it is (the next seat's turn only begins with its own move)."""
    unfinished = None if session.insisted else session.unfinished()
    return None if unfinished is None else unfinished.seat


def finishing(session: Turn, colour: Callable[[int], str]) -> str | None:
    """A split half made, in words, while it may still be finished (and Done has not said it is)."""
    unfinished = None if session.insisted else session.unfinished()
    return None if unfinished is None else split_words(session.game.board, colour, *unfinished)


def why_not_shown(session: Turn) -> str | None:
    """Why the board is not a legal move, when one peg went from one hole to another. While a
    move is on its way (status "moving") only when every peg is down and the one peg's move
    breaks a rule by itself: what the lights then ask for is a split nobody made. A split
    whose first part is down is on its way, not wrong, until Done says it is finished."""
    report = session.report
    if report.status == "moving" and (
        session.tracker.restoring
        or not _all_pegs_down(session)
        or (not session.insisted and session.unfinished() is not None)
    ):
        return None
    if session.chosen is not None and report.status == "illegal":  # issue 36: the phone's move, no other
        name = seating.name(session.game, session.game.turn)
        return f"That is not {name}'s move: the lights show the one {name} chose."
    back = report.back
    taken = [fix.hole for fix in back if fix.action == "remove"]
    put = [fix.hole for fix in back if fix.action == "place"]
    if len(taken) != 1 or len(put) != 1:
        return None
    board = session.game.board

    def index(name: str) -> int:
        if name.startswith("S"):
            return board.board_holes + int(name[1:].split(":")[0])
        return board.hole_index(name)

    names = {seat["seat"]: seat["name"] for seat in seating.seat_list(session.game)}
    card = session.declared if report.status == "illegal" else None
    try:
        return why_not(session.game.position, session.game.rules, index(put[0]), index(taken[0]), card, names)
    except ValueError:
        return None


def _all_pegs_down(session: Turn) -> bool:
    """No peg in hand: the sensors feel as many pegs as the game has."""
    return session.tracker.occupied.bit_count() == PEGS_PER_SEAT * len(session.game.board.seats)
