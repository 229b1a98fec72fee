"""Opening games on the board: the newest unfinished game at start (or a new one), a new game
asked for, a lesson's step, and the game before a lesson once it is left. Each opens the same
way: the board takes the game's size, a simulated board's pegs jump to their places (a wooden
one shows what to fix), the bot seats sit down and the LEDs take the seats' colours.

The table and its lesson host (``LessonHost``) share one ``Opener``, called holding the
table's lock; it owns the session being played and the table's ear on the sensors, which it
closes while a game is opened so that the old session never hears the board being reset.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from hardware.sensors import Change
from referee.board import Board
from referee.events import Start
from referee.protocol_types import NewGame
from referee.settings.config import Config, ConfigError
from referee.table import seating, simulator
from referee.table.board_hardware import BoardHardware
from referee.table.bot_driver import BotDriver
from referee.table.game_settings import config_game
from referee.table.lessons import StepGame
from referee.table.salvage import DAMAGED
from referee.table.session import Session
from referee.table.store import Store, StoreError
from referee.table.wiring_check import WiringCheck

log = logging.getLogger("pegs.table")
RESUME_TRIES = 5  # unfinished games tried, newest first, before a new game is started


class Opener:
    """Opens games on the board and holds the session of the one being played."""

    session: Session

    def __init__(
        self,
        config: Config,
        store: Store,
        hardware: BoardHardware,
        sim: simulator.SimulatedPegs,
        bots: BotDriver,
        wiring: WiringCheck,
        on_change: Callable[[Change], None],
    ) -> None:
        self._config = config
        self._store = store
        self._hardware = hardware
        self._sim = sim
        self._bots = bots
        self._wiring = wiring
        self._on_change = on_change  # the table's: a sensor change on the game being played
        self._unsubscribe: Callable[[], None] = lambda: None

    def listen(self) -> None:
        self._unsubscribe = self._hardware.sensors.subscribe(self._on_change)

    def stop_listening(self) -> None:
        self._unsubscribe()

    def open_latest(self) -> None:
        """The newest unfinished game whose events are whole, else a new game: what is damaged
        is set aside and named (``_whole``), never a reason to stop."""
        for game_id in self._store.unfinished(RESUME_TRIES):
            if _whole(self._store, f"game {game_id}", partial(self.resume_game, game_id)):
                return
        self._new_session(config_game(self._config), None)
        log.info("new game", extra={"game": self.session.game_id, "players": self._config.players})

    def new_game(self, request: NewGame, table: dict[str, Any]) -> None:
        """A new game asked for, with its table settings checked (``new_table``)."""
        self._reset_board(lambda: self._new_session(request, table))

    def open_step(self, step: StepGame) -> Session:
        """A lesson's step: its game on the board, as a new game."""
        table = {**seating.default_table(step.players), **step.table}
        request = NewGame(step.players, step.rules, "table", pegs=step.pegs)
        self._reset_board(lambda: self._new_session(request, table, step.first))
        return self.session

    def back_to_game(self) -> None:
        """After a lesson, the game before it (or a new one): a simulated board's pegs jump to
        its places (a wooden one shows what to put back)."""
        self._reset_board(self._back_to_game)

    def resume_game(self, game_id: int) -> Session:
        """A stored game on the board again: its session."""
        start = self._store.events(game_id)[0]
        players = start.players if isinstance(start, Start) else None
        if self._hardware.simulated and isinstance(players, int):
            self._hardware.fit(Board.for_players(players).sides)
        restored = self._hardware.simulated and self._sim.restore()
        session = self._session_of(game_id)
        if session.game.board.sides != self._hardware.layout.sides:
            raise ConfigError(
                f"it is for {session.game.board.sides} sides, this board has {self._hardware.layout.sides}"
            )
        colours = seating.seat_rgb(session.game)  # read before anything changes: a damaged colour is refused here
        if self._hardware.simulated and not restored:  # the saved pegs were another board's: the game's places
            self._put_pegs_as_the_game(session)
        self.session = session
        self._bots.seat(self.session.game)
        self._hardware.renderer.set_seat_colours(colours)
        log.info(
            "resumed game",
            extra={"game": game_id, "moves": len(self.session.game.moves), "status": self.session.report.status},
        )
        return self.session

    def _session_of(self, game_id: int) -> Session:
        """The stored game, with its turn if that fits it; a turn that does not (a damaged
        ``turn-<game>.json``, a hole number out of range) is set aside, and the game resumes
        from its last move."""
        sensed = self._hardware.sensed()
        settle_ms = self._config.settle_ms
        try:
            return Session.resume(self._store, game_id, settle_ms=settle_ms, sensed=sensed)
        except DAMAGED as error:
            if self._store.turn(game_id) is None:
                raise  # the game itself
            self._store.set_turn_aside(game_id, error)
        return Session.resume(self._store, game_id, settle_ms=settle_ms, sensed=sensed)

    def _new_session(self, request: NewGame, table: dict[str, Any] | None, first: int | None = None) -> None:
        self._hardware.fit(Board.for_players(request.players).sides)
        session = Session.new(
            self._store,
            request.rules,
            request.players,
            mode=request.mode,
            teams=request.teams,
            pegs=request.pegs,
            first=first,
            table=table or seating.default_table(request.players),
            settle_ms=self._config.settle_ms,
        )
        if self._hardware.simulated:  # a simulated board's pegs jump to their places; a wooden one shows what to fix
            self._sim.put(session.physical.name(h) for h in session.physical.holes(session.tracker.occupied))
        self.session = session
        self._bots.seat(session.game)
        session.reconcile(self._hardware.sensed())
        self._hardware.renderer.set_seat_colours(seating.seat_rgb(session.game))

    def _back_to_game(self) -> None:
        self.open_latest()
        if self._hardware.simulated:
            self._put_pegs_as_the_game(self.session)

    def _put_pegs_as_the_game(self, session: Session) -> None:
        """A simulated board's pegs where the game has them; the session compares afresh."""
        physical = session.physical
        self._sim.put(physical.name(h) for h in physical.holes(physical.fill(session.game.position)))
        session.reconcile(self._hardware.sensed())

    def _reset_board(self, start: Callable[[], None]) -> None:
        """Start another game on the board: the old session must not hear the board being reset."""
        self._unsubscribe()
        try:
            start()
        finally:
            self.listen()
        self._wiring.forget()


def _whole(store: Store, what: str, open_it: Callable[[], object]) -> bool:
    """Open a stored thing read from the card (``open_it``); if it is damaged, set it aside
    (``Store.set_aside``: named on the page, in ``/api/health`` and by ``pegs doctor``) and say
    so, and the caller goes on with the next. The one place start-up tells damage from a bug."""
    try:
        open_it()
    except (StoreError, *DAMAGED) as error:
        store.set_aside(what, error)
        return False
    return True
