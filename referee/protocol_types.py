"""What the daemon tells the front ends it serves, in words both sides may import.

The daemon (``referee.table``) runs without the web page's package, and the page (``web``)
never imports the daemon: each sees the other only through this module and the typed
``web.table.Table`` protocol the daemon satisfies. Both may import the engine, so the
types they hand each other live here, next to it: they import only the engine's types and
decide nothing.

- ``Unavailable``: the table cannot do that now (its store is failing); raised by the
  daemon (``referee.table.store.StoreError``), answered 503 by the page.
- ``Overview``: who may act now, read under the table's lock in one go (``Table.overview``).
- ``NewGame``: a new game as the page asks for it (``Table.new_game``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.events import Mode
from referee.rulesets import Ruleset


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
    bots: tuple[int, ...] = ()  # seats a bot plays: no phone joins them


@dataclass(frozen=True)
class NewGame:
    """A new game as the page asks for it: built once from the request (``web/starting.py``),
    checked whole by the table before anything changes (``game_settings.new_table``)."""

    players: int
    rules: Ruleset
    mode: Mode = "table"
    teams: list[list[int]] | None = None
    names: Sequence[str] | None = None  # one per seat in play, else the seats' colours
    colours: Sequence[str] | None = None
    pegs: dict[str, list[str]] | None = None  # a set-up position: seat -> five holes
    bots: dict[str, str] | None = None  # seat -> a bot's kind
    phones: list[int] | None = None  # seats played from a phone
    teach: bool = False  # a teaching game: hints and each card's moves shown
