"""What a game is at one moment: the state its events build, and the few types the game's
parts share (a phase, the error an action raises; the events themselves are ``referee.events``).

Its own module so that the parts of a game kept apart from ``referee.game`` (the Bluffing
Joker protocol in ``referee.bluff``, the cards in ``referee.stock``, undo in
``referee.undo``) can read and change the state without importing the ``Game`` class; the
Bluffing Joker's own pieces of state (``Bluff``, ``Penalty``) are here too, so the state
imports nothing that changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from referee.events import Bump, Event
from referee.moves import Move
from referee.position import Position

Mode = Literal["digital", "table"]
Phase = Literal["draw", "play", "doubt", "reveal", "penalty", "over"]
MODES = ("digital", "table")


class GameError(ValueError):
    """An action the rules or the game's phase do not allow now."""


@dataclass
class Bluff:
    """A face-down card waiting for the opponents' doubts (Bluffing Joker)."""

    seat: int
    declared: str
    card: str | None  # the real card; None at a real table until it is turned up
    text: str  # the move announced with it
    doubters: list[int]
    doubter: int | None = None


@dataclass
class Penalty:
    """``chooser`` must send one of ``victim``'s pegs on the track back to start."""

    chooser: int
    victim: int


@dataclass
class State:
    """Everything the events of a game have built so far; ``referee.state_changes`` changes it."""

    position: Position
    phase: Phase = "play"
    hands: dict[int, list[str]] = field(default_factory=dict)
    stock: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    extra_turns: dict[int, list[int]] = field(default_factory=dict)  # seat -> turn numbers won in
    turn_number: int = 0
    extra_turn: bool = False
    acted: bool = False
    bluff: Bluff | None = None
    penalty: Penalty | None = None
    winner: tuple[int, ...] | None = None
    bumps: list[Bump] = field(default_factory=list)
    reshuffles: int = 0
    made: list[Move] = field(default_factory=list)  # the accepted moves, as history lists them
    seated: dict[int, str] = field(default_factory=dict)  # seat -> who plays it now, when handed over (``Seated``)

    def copy(self) -> State:
        """A copy sharing nothing that an event changes in place (positions, moves and
        events are never changed, only replaced)."""
        bluff = replace(self.bluff, doubters=list(self.bluff.doubters)) if self.bluff else None
        return replace(
            self,
            hands={seat: list(cards) for seat, cards in self.hands.items()},
            stock=list(self.stock),
            discards=list(self.discards),
            counts=dict(self.counts),
            extra_turns={seat: list(won) for seat, won in self.extra_turns.items()},
            bluff=bluff,
            penalty=replace(self.penalty) if self.penalty else None,
            bumps=list(self.bumps),
            made=list(self.made),
            seated=dict(self.seated),
        )


@dataclass(frozen=True)
class Checkpoint:
    """A game as it was (``Game.checkpoint``), to go back to exactly (``Game.rollback``)."""

    events: int
    effective: tuple[Event, ...]
    state: State
    known_move: Move | None
