"""A past game's row in the list of games (``GET /games``), made from its stored events without
replaying them: the names, the moves that stand, and the winners while the record still ends in
its win (a win undone is not a win, whatever the games row says); and a game's record as the
page hands it out (``record_text``).

The store makes each row once per version of its game and keeps it (``Store.listed``), so the
list costs a query however often it is asked for; a game whose events cannot be read is listed
as damaged, and the others stay readable.
"""

from __future__ import annotations

from typing import Any

from referee import events as ev
from referee import record
from referee.events import Event
from referee.file_reading import excerpt


def row(events: list[Event], winner: list[int] | None) -> dict[str, Any]:
    """What the list shows of a game: ``players`` (names, bots marked), ``moves`` that stand,
    ``winners`` (names) and ``over``; ``damaged`` None."""
    start = events[0]
    if not isinstance(start, ev.Start):
        raise TypeError("its first event is not its start")
    standing = record.effective(events)
    over = bool(winner) and any(isinstance(event, ev.Win) for event in standing)
    names = record.seat_names(start)
    return {
        "players_named": " & ".join(record.shown_names(start).values()),
        "moves": sum(1 for event in standing if isinstance(event, ev.Move)),
        "winners": " & ".join(names.get(seat, f"seat {seat + 1}") for seat in winner or ()) if over else "",
        "over": over,
        "winner": winner if over else None,
        "damaged": None,
    }


def damaged(error: object) -> dict[str, Any]:
    """The row of a game whose events cannot be read: said so, with why."""
    return {"players_named": "", "moves": 0, "winners": "", "over": False, "winner": None, "damaged": excerpt(error)}


def record_text(events: list[Event], seat: int | None, whole: bool) -> str:
    """A game's record: whole once the game is over (or for ``whole``: the table PIN), else
    without the cards ``seat`` may not see (``record.redacted``)."""
    if whole or _over(events):
        return record.dumps(events)
    return record.dumps(record.redacted(events, seat))


def _over(events: list[Event]) -> bool:
    """Whether the recorded game is over (a record that does not replay: not known to be)."""
    try:
        return record.replay(events).phase == "over"
    except record.RecordError:
        return False
