"""The bot seats at a running table, real or simulated board: at each look at the game
(``Table._publish``) a bot seat does what needs no pegs moved, and the move it chose is kept
for the LEDs and the page until a person has made it (``referee.table.seat_bots``).

A bot that fails is logged and counted once for that state of the game, not at every tick.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from referee.game import Game, GameError
from referee.table.phone_seats import standing_bots
from referee.table.seat_bots import Plan, SeatBots, bot_kinds
from referee.table.session import Session

log = logging.getLogger("pegs.table")


class BotDriver:
    """The game's bot seats at the table: each look lets them act and keeps the move chosen."""

    def __init__(self, failed: Callable[[], None], ready: Callable[[], None] = lambda: None) -> None:
        self._failed = failed  # a bot could not act: the table counts it among its errors
        self._ready = ready  # a bot thinking on its own thread has chosen: look at the game again
        self.bots = SeatBots({}, None)  # the game's bot seats (set with each session)
        self.plan: Plan | None = None  # the move a bot chose, for a person to make
        self._failed_at: tuple[int, int] | None = None  # (game, events) where a bot last failed

    def seat(self, game: Game) -> None:
        """The bots of ``game``'s table settings take their seats, and those standing in for a
        phone now (``phone_seats.standing_bots``)."""
        kinds = {**bot_kinds(game.table, tuple(game.board.seats)), **standing_bots(game)}
        self.bots = SeatBots(kinds, game.seed, self._ready)

    def turn(self, session: Session) -> Plan | None:
        """Let a bot seat act, and keep (and return) the move it chose, if any."""
        self.plan = plan = self._act(session)
        session.intended = None if plan is None else (plan.seat, plan.move.text)
        return plan

    def is_bot(self, seat: int) -> bool:
        return seat in self.bots.kinds

    def kinds(self) -> dict[str, str]:
        """``{seat: kind}`` of the bot seats, as the page reads them."""
        return {str(seat): kind for seat, kind in self.bots.kinds.items()}

    def plan_json(self, names: Mapping[int, str]) -> dict[str, Any] | None:
        """The move a bot chose, as the page shows it (None: no bot is waiting for a person)."""
        plan = self.plan
        return None if plan is None else plan.as_json(self.bots.kinds[plan.seat], names)

    def _act(self, session: Session) -> Plan | None:
        state = (session.game_id, len(session.game.events))
        if not self.bots or state == self._failed_at:
            return None
        try:
            return self.bots.act(session)
        except (GameError, ValueError, PermissionError):
            log.exception("a bot could not act")
            self._failed()
            self._failed_at = state
            return None
