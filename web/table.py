"""What the web page needs of a running table: a typed protocol, so that ``web`` never
imports the daemon (``referee.table`` satisfies it) and never reaches into its game
without its lock. The types the two hand each other, ``Overview`` and ``Unavailable``
(the table cannot do that now: 503), are the engine's (``referee.protocol_types``), so the daemon
needs nothing of ``web``; they are named here too, as part of the web's view.

    app = create_app(table)      # any object with these methods and attributes
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from referee.protocol_types import NewGame, Overview, Unavailable
from referee.rulesets import Ruleset

__all__ = ["Json", "NewGame", "Overview", "StateJson", "Table", "Unavailable", "WebSettings"]
Json = dict[str, object]
StateJson = Mapping[str, object]
"""The page's state (``referee.table.view.State``), which every action answers with."""


class WebSettings(Protocol):
    """What the page reads of the daemon's config (``referee.settings.config.Config``)."""

    @property
    def home(self) -> tuple[str, ...]:
        """The home network: the owner's pages open only from these addresses (``web.home``)."""
        ...


class Table(Protocol):
    """Everything the page may ask of a running table (docs/design.md, "The Table protocol")."""

    data_dir: str
    configured_pin: str | None
    allowed_hosts: tuple[str, ...]  # names the page answers to besides the machine's own

    @property
    def config(self) -> WebSettings: ...

    @property
    def stopped(self) -> bool: ...

    def overview(self) -> Overview: ...

    def state(self) -> StateJson: ...

    def health(self) -> Json: ...

    def set_aside(self, what: str, why: str) -> None:
        """A file the page keeps (the log-ins) was read damaged: named where the table names
        what it found damaged (the page, /api/health, ``pegs doctor``)."""
        ...

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

    def sim_events(self, events: object) -> StateJson: ...

    def press_done(self) -> StateJson: ...

    def undo(self) -> StateJson: ...

    def declare(self, seat: int | None, card: str) -> StateJson: ...

    def discard(self, seat: int | None, card: str | None) -> StateJson: ...

    def resolve(self, text: str | None) -> StateJson: ...

    def doubt(self, seat: int, doubt: bool) -> StateJson: ...

    def reveal(self, card: str) -> StateJson: ...

    def send_to_start(self, seat: int, hole: str) -> StateJson: ...

    def check_wiring(self) -> StateJson: ...

    def stop_wiring_check(self) -> StateJson: ...

    def new_game(self, request: NewGame) -> StateJson: ...

    def choose(self, seat: int | None, card: str, move: str) -> StateJson: ...

    def take_back(self, seat: int | None) -> StateJson: ...

    def stand_in(self, seat: int, by: str) -> StateJson: ...

    def hints(self, show: bool = False, asker: int | None = None) -> Json: ...

    def start_lesson(self, rules: Ruleset, players: int, learners: list[int] | None = None) -> StateJson: ...

    def lesson_action(self, action: str, place: str | None = None) -> StateJson: ...
