"""What the web page needs of a running table: a typed protocol, so that ``web`` never
imports the daemon (``referee.table`` satisfies it) and never reaches into its game
without its lock.

    app = create_app(table)      # any object with these methods and attributes
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from referee.rulesets import Ruleset

Json = dict[str, object]


class Unavailable(RuntimeError):
    """The table cannot do it now: its storage failed (HTTP 503). Nothing was changed."""


@dataclass(frozen=True)
class Overview:
    """Who may act now, read under the table's lock in one go."""

    game_id: int
    turn: int
    sides: int
    seats: tuple[int, ...]
    doubter: int | None  # Bluffing Joker: the opponent asked to doubt
    chooser: int | None  # Bluffing Joker: who picks the peg that goes back to start
    palette: tuple[tuple[str, str], ...]  # every side's default name and colour
    markers: bool  # the board has colour-marker holes
    lights: tuple[tuple[str, str, str, str], ...] = ()  # the LED legend: role, colour, rhythm, words
    hand_seen_by: tuple[int, ...] = ()  # phones that may see the seat to play's cards (its own; a teaching game's team)


class Table(Protocol):
    data_dir: str
    configured_pin: str | None
    allowed_hosts: tuple[str, ...]  # names the page answers to besides the machine's own

    @property
    def stopped(self) -> bool: ...

    def overview(self) -> Overview: ...

    def state(self) -> Json: ...

    def health(self) -> Json: ...

    def seats(self) -> list[Json]: ...

    def hand(self, seat: int) -> Json: ...

    def teaching(self, seat: int | None, game_id: int) -> Json: ...

    def games(self) -> list[Json]: ...

    def record(self, game_id: int, seat: int | None = None, whole: bool = False) -> str: ...

    def review(self, game_id: int) -> Json:
        """A finished game's review: ``{"state": "done", "review": {...}}``, or while it is made
        ``{"state": "working", "done": n, "total": m}``, or ``{"state": "failed", "error": ...}``.
        A game not over raises ``referee.game.GameError`` (its cards are still hidden)."""
        ...

    def wait(self, version: int, timeout: float) -> int: ...

    def sim_events(self, events: object) -> Json: ...

    def press_done(self) -> Json: ...

    def undo(self) -> Json: ...

    def declare(self, seat: int, card: str) -> Json: ...

    def discard(self, seat: int, card: str | None) -> Json: ...

    def resolve(self, text: str | None) -> Json: ...

    def doubt(self, seat: int, doubt: bool) -> Json: ...

    def reveal(self, card: str) -> Json: ...

    def send_to_start(self, seat: int, hole: str) -> Json: ...

    def check_wiring(self) -> Json: ...

    def stop_wiring_check(self) -> Json: ...

    def new_game(self, players: int, rules: Ruleset, *, mode: str = "table", teams: list[list[int]] | None = None,
                 names: Sequence[str] | None = None, colours: Sequence[str] | None = None,
                 pegs: dict[str, list[str]] | None = None, bots: dict[str, str] | None = None,
                 teach: bool = False) -> Json: ...  # fmt: skip

    def hints(self, show: bool = False) -> Json: ...

    def start_lesson(self, rules: Ruleset, players: int, learners: list[int] | None = None) -> Json: ...

    def lesson_action(self, action: str, place: str | None = None) -> Json: ...
