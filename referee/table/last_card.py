"""The last card played, of a turn that still stands, as the page says it: named when it was
declared, dealt or turned up by a doubt; at a real table where nobody named it, the one card
that makes its move, or the cards that could have.
"""

from __future__ import annotations

from referee import events as ev
from referee import record
from referee.events import Event
from referee.game import Game
from referee.words import card_word, cards_for, cards_words


def last_card(events: list[Event]) -> str | None:
    """The card last named, of a turn that still stands (an undone turn's card is back in
    hand): as declared or dealt. None at a real table where nobody named it (``last_played``)."""
    return record.named_card(last_play(events))


def last_play(events: list[Event]) -> ev.Play | ev.Discard | None:
    """The last card played or discarded, of a turn that still stands."""
    for event in reversed(record.effective(events)):
        if isinstance(event, (ev.Play, ev.Discard)):
            return event
        if isinstance(event, ev.Start):
            return None
    return None


def turned_up(events: list[Event], play: ev.Play | ev.Discard | None) -> str | None:
    """Bluffing Joker: the card a doubt turned up after ``play`` (the one really played); a
    card nobody doubted stays face down."""
    if not isinstance(play, ev.Play) or play.declared is None:
        return None
    effective = record.effective(events)
    after = effective[next(n for n in range(len(effective) - 1, -1, -1) if effective[n] is play) + 1 :]
    shown = next((event.card for event in after if isinstance(event, ev.Reveal)), None)
    doubted = any(isinstance(event, ev.Doubt) and event.doubt for event in after)
    return shown or (play.card if doubted else None)  # the referee's own cards need no turning up


def card_seat(events: list[Event]) -> int | None:
    play = last_play(events)
    return play.seat if play is not None else None


def declared_instead(events: list[Event], shown: str | None) -> str | None:
    play = last_play(events)
    declared = play.declared if isinstance(play, ev.Play) else None
    return declared if declared is not None and shown is not None and shown != declared else None


def last_played(game: Game) -> tuple[str | None, str | None]:
    """(the card, in words) last played, of a turn that still stands: as declared or dealt,
    or, at a real table where nobody named it, the one card that makes the move; several
    could: (None, "an ace or a face card")."""
    events = record.effective(game.events)
    for n in range(len(events) - 1, -1, -1):
        event = events[n]
        if isinstance(event, ev.Start):
            break
        if not isinstance(event, (ev.Play, ev.Discard)):
            continue
        card = turned_up(game.events, event) or record.named_card(event)
        if card:
            return card, card_word(card)
        if isinstance(event, ev.Play) and game.made and any(isinstance(later, ev.Move) for later in events[n + 1 :]):
            cards = cards_for(game.made[-1], game.rules)  # the last move that stands is this play's
            if len(cards) == 1:
                return cards[0], card_word(cards[0])
            return None, cards_words(cards) if cards else None
        break
    return None, None
