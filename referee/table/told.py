"""The moves list as the table tells it: every move, every discard and every doubt, in the
order played, each saying who did it.

A bot that could not move discards; a doubt catches a bluff and the move never counts: both
are turns the people at the table saw, so the list says them beside the moves that stand
(Bluffing Joker, the rules page: a bluff doubted successfully costs the bluffer a peg, or
gives the doubter an extra turn when the bluffer has none out).

    told(game, history(game, names), name)   # [{"seat": 1, "words": "...", "move": None}, ...]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypedDict

from referee import events as ev
from referee import record
from referee.game import Game
from referee.words import card_word, hole_words

Kind = Literal["move", "discard", "doubt"]


class Told(TypedDict):
    """One line of the moves list: a move, a discard or a doubt, and who."""

    seat: int  # who played (a doubt: who doubted)
    kind: Kind
    words: str
    move: str | None  # a move's notation; None for a discard or a doubt


class Said(TypedDict):
    """A move that stands, as ``view.history`` says it."""

    seat: int
    move: str
    words: str


def told(game: Game, history: Sequence[Said], name: Callable[[int], str]) -> list[Told]:
    """The turns that stand, in words; the moves' own words are ``history``'s, in order."""
    events = record.effective(game.events)
    if sum(isinstance(event, ev.Move) for event in events) != len(history):
        return [
            {"seat": h["seat"], "kind": "move", "words": h["words"], "move": h["move"]} for h in history
        ]  # not expected
    moves, said = iter(history), list[Told]()
    doubt = _Doubt()
    for event in events:
        if isinstance(event, ev.Move):
            entry = next(moves)
            said.append({"seat": entry["seat"], "kind": "move", "words": entry["words"], "move": entry["move"]})
        elif isinstance(event, ev.Discard):
            card = f" and discarded {card_word(event.card)}" if event.card else ""
            said.append(
                {
                    "seat": event.seat,
                    "kind": "discard",
                    "words": f"{name(event.seat)} could not move{card}",
                    "move": None,
                }
            )
        else:
            said.extend(doubt.follow(event, name))
    return said


class _Doubt:
    """A doubted card, from the play to what it cost."""

    def __init__(self) -> None:
        self.play: ev.Play | None = None
        self.doubter: int | None = None
        self.shown: str | None = None

    def follow(self, event: ev.Event, name: Callable[[int], str]) -> list[Told]:
        match event:
            case ev.Play(declared=str()):
                self.play, self.doubter, self.shown = event, None, event.card
            case ev.Doubt(seat=seat, doubt=True):
                self.doubter = seat
            case ev.Reveal(card=card):
                self.shown = card
            case ev.PenaltyDue(victim=victim):
                return self._outcome(victim == self._bluffer(), "", name)
            case ev.Extra(seat=seat) if self.doubter is not None and self.play is not None:
                caught = seat == self.doubter
                loser = self.play.seat if caught else self.doubter
                return self._outcome(
                    caught, f" {name(loser)} has no peg out, so {name(seat)} may take an extra turn.", name
                )
            case ev.Extra(seat=seat):
                return [{"seat": seat, "kind": "doubt", "words": f"{name(seat)} may take an extra turn.", "move": None}]
            case ev.Penalty(seat=seat, hole=hole, by=by):
                where = hole_words(hole, name)
                words = f"{name(by)} sent {name(seat)}'s peg on {where} back to start."
                return [{"seat": by, "kind": "doubt", "words": words, "move": None}]
        return []

    def _bluffer(self) -> int | None:
        return self.play.seat if self.play is not None else None

    def _outcome(self, caught: bool, extra: str, name: Callable[[int], str]) -> list[Told]:
        if self.play is None or self.doubter is None or self.play.declared is None:
            return []
        bluffer, doubter = self.play.seat, self.doubter
        declared = card_word(self.play.declared).split(" ", 1)[1]  # "Red's king", "Red's 5"
        shown = card_word(self.shown) if self.shown else "another card"
        if caught:
            words = f"{name(doubter)} doubted {name(bluffer)}'s {declared}: it was {shown}, a bluff. The move does not count."
        else:
            words = f"{name(doubter)} doubted {name(bluffer)}'s {declared}: it was {shown}, no bluff. The move stands."
        self.play = self.doubter = None
        return [{"seat": doubter, "kind": "doubt", "words": words + extra, "move": None}]
