"""Undo: which turn "take back the last turn" returns to, and the limit it never passes.

Kept apart from ``referee.game`` because it is a rule of the table, not of the game: a
turn may be taken back, but never once it showed the table something new (a deal, a
reshuffle, a card turned up or doubted), and the game rebuilds itself from the record
up to the turn found here.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.events import Deal, Doubt, Event, Reshuffle, Reveal, Seated, Turn
from referee.game_state import GameError

# Events after which undo may not go back: they revealed something new to the table (a
# doubt too, when it doubted: the card is then turned up).
NEW_INFORMATION = (Deal, Reshuffle, Reveal)


def undo_target(effective: Sequence[Event]) -> int:
    """The index of the ``turn`` event to go back to (the record kept up to it, itself
    included): the turn being played, or the one before if this one has not begun."""
    markers = [i for i, event in enumerate(effective) if isinstance(event, Turn)]
    if not markers:  # a record whose undo comes before any turn: nothing to take back
        raise GameError("nothing to undo")
    target = markers[-1]
    if not begun(effective[target + 1 :]):
        if len(markers) < 2:
            raise GameError("nothing to undo")
        target = markers[-2]
    if any(_news(event) for event in effective[target + 1 :]):
        raise GameError("cannot undo past new information (a reshuffle or a revealed card)")
    return target


def begun(since_turn: Sequence[Event]) -> bool:
    """Whether a turn with these events after its ``turn`` event has begun: a seat handed
    over (``Seated``) is the table's doing, not the turn's."""
    return any(not isinstance(event, Seated) for event in since_turn)


def _news(event: Event) -> bool:
    return isinstance(event, NEW_INFORMATION) or isinstance(event, Doubt) and event.doubt


def turn_so_far(effective: Sequence[Event]) -> list[str]:
    """The events of the turn being played, by kind, since its ``turn`` event."""
    kinds: list[str] = []
    for event in reversed(effective):
        if isinstance(event, Turn):
            break
        if not isinstance(event, Seated):
            kinds.append(event.kind)
    return kinds[::-1]
