"""The running table: sensors -> session -> LEDs, with the lock, the ticker and the page.

One ``Table`` owns one board. Sensor changes arrive on the sensor backend's thread; a
ticker thread lets the session commit a move once the board has settled. Nothing is
prepared ahead: a sensor event asks the move generator only for what it needs (see
``referee.turns``). Everything that touches the session happens under one lock, and the session stores every accepted move before the
LEDs or the page show it.

    table = Table.build(Config.simulated("data"))
    table.start()
    table.sim_events(["lift S0:1", "place T0:8", "done"])
    table.state()["moves"]          # ['A S0-T0:8'] (any card that explains it, at a real table)
"""

from __future__ import annotations

import gc
import logging
import resource
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from hardware.controls import Controls
from hardware.layout import Layout
from hardware.leds import PixelStrip, Renderer
from hardware.sensors import Change, SensorBoard
from hardware.signals import SEAT_NAMES
from referee import record
from referee.board import Board
from referee.events import Event, Start
from referee.game import GameError, Mode
from referee.protocol_types import Overview
from referee.rulesets import Ruleset
from referee.settings import backends
from referee.settings.config import Config, ConfigError
from referee.table import phone_seats, seat_bots, seating, simulator, teaching, view
from referee.table.board_hardware import BoardHardware
from referee.table.bot_driver import BotDriver
from referee.table.buttons import Buttons
from referee.table.game_settings import new_table
from referee.table.lesson_host import LessonHost
from referee.table.lessons import StepGame
from referee.table.presenter import LedPresenter
from referee.table.reviews import Reviews, not_over
from referee.table.salvage import DAMAGED
from referee.table.seat_bots import KINDS, Plan
from referee.table.session import Session
from referee.table.store import Store, StoreError
from referee.table.wiring_check import WiringCheck
from referee.tracker import Report
from referee.words import say

log = logging.getLogger("pegs.table")
TICK_S = 0.05
DURABLE_EVERY_S = 0.5  # a power cut loses at most this much of a half-made move's history
RESUME_TRIES = 5  # unfinished games tried, newest first, before a new game is started


class Table:
    """Lock order: a sensor backend calls ``_on_change`` holding its own lock, so the table
    never calls into the sensors while holding the table lock, except for the simulated
    board, whose changes come back on the caller's own thread.

    The table owns its collaborators and calls them holding its lock; none has a lock of its
    own: the board's parts (``BoardHardware``), the simulated board's pegs (``simulator.SimulatedPegs``),
    what the LEDs show (``LedPresenter``), the bot seats (``BotDriver``), the first lesson
    (``LessonHost``), a teaching game's hints (``teaching.PerTurn``) and the board's buttons
    and buzzer (``Buttons``)."""

    session: Session

    def __init__(
        self,
        config: Config,
        store: Store,
        layout: Layout,
        sensors: SensorBoard,
        strip: PixelStrip,
        controls: Controls | None = None,
    ) -> None:
        self.config = config
        self.data_dir = config.data_dir
        self.configured_pin = config.pin
        self.allowed_hosts = config.allowed_hosts
        self.store = store
        self.reviews = Reviews(store)  # past games' reviews, made on a worker thread of their own
        self.hardware = BoardHardware(layout, sensors, strip, config)  # a simulated board takes each game's size
        self._sim = simulator.SimulatedPegs(self.hardware, config.data_dir)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._version = 0
        self._stop = threading.Event()
        self._clock0 = time.monotonic()
        self._wiring = WiringCheck(notify=self._wiring_changed, finished=self._after_wiring_check)
        self._published: _Seen | None = None
        self._lights = LedPresenter(self.hardware)
        self._bots = BotDriver(failed=self._count_error, ready=self._bot_ready)
        self._lessons = LessonHost(
            store,
            self.hardware,
            self._open_step,
            self._resume_game,
            lambda: self._reset_board(self._back_to_game),
            lambda: self._publish(force=True),
        )
        self._teaching = teaching.PerTurn()
        self._state: dict[str, Any] | None = None
        self._durable_at = 0.0
        self._unsubscribe: Callable[[], None] = lambda: None
        self.latencies: deque[float] = deque(maxlen=2000)  # sensor change -> LED frame written, seconds
        self.errors = 0
        self.started = time.time()
        self._buttons = Buttons(failed=self._count_error)
        if controls is not None:
            self.attach_controls(controls)

    def attach_controls(self, controls: Controls) -> None:
        """The board's buttons and buzzer: Done (held: can't move), Undo, and beeps."""
        self._buttons.attach(controls, done=self.press_done, hold=self.cant_move, undo=self.undo)

    @property
    def controls(self) -> Controls | None:
        return self._buttons.controls

    # -- the board's parts (a simulated board's change with each game's size) -----------------

    @property
    def layout(self) -> Layout:
        return self.hardware.layout

    @property
    def sensors(self) -> SensorBoard:
        return self.hardware.sensors

    @property
    def strip(self) -> PixelStrip:
        return self.hardware.strip

    @property
    def renderer(self) -> Renderer:
        return self.hardware.renderer

    @property
    def _plan(self) -> Plan | None:
        """The move a bot chose, for a person to make (``BotDriver.plan``)."""
        return self._bots.plan

    # -- building and running ----------------------------------------------------------

    @classmethod
    def build(cls, config: Config) -> Table:
        """Open the store, the layout, the sensors, the LEDs and the buttons the config names."""
        store = Store.open(config.data_dir)
        layout = backends.layout_for(config)
        return cls(
            config,
            store,
            layout,
            backends.sensors_for(config, layout),
            backends.strip_for(config, layout),
            backends.controls_for(config),
        )

    def start(self) -> None:
        with self._lock:
            self._open_session()
            self._unsubscribe = self.sensors.subscribe(self._on_change)
            self._publish(force=True)
        threading.Thread(target=self._tick_forever, name="pegs-ticker", daemon=True).start()
        settle_memory()
        log.info(
            "started",
            extra={
                "game": self.session.game_id,
                "rules": self.session.game.rules.name,
                "status": self.session.report.status,
            },
        )
        if self.store.recovered:
            log.error("game store recovered", extra={"what": self.store.recovered})

    def stop(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._wiring.close()
        self._unsubscribe()
        self.sensors.close()
        self.strip.close()
        self._buttons.close()
        with self._lock:
            self.session.save_turn(durable=True)
            self._changed.notify_all()  # event streams end now, not at their next heartbeat
        self.reviews.close()
        self.store.close()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _open_session(self) -> None:
        """The lesson being taught, else the newest unfinished game whose events are whole, else
        a new game: what is damaged is set aside and named (``_whole``), never a reason to stop."""
        if self._lessons.resume_at_start():
            return
        config = self.config
        for game_id in self.store.unfinished(RESUME_TRIES):
            if _whole(self.store, f"game {game_id}", partial(self._resume_game, game_id)):
                return
        self._new_session(config.ruleset(), config.players, config.mode, config.teams, None, None)  # type: ignore[arg-type]
        log.info("new game", extra={"game": self.session.game_id, "players": config.players})

    def _resume_game(self, game_id: int) -> Session:
        start = self.store.events(game_id)[0]
        players = start.players if isinstance(start, Start) else None
        if self.hardware.simulated and isinstance(players, int):
            self.hardware.fit(Board.for_players(players).sides)
        restored = self.hardware.simulated and self._sim.restore()
        session = self._session_of(game_id)
        if session.game.board.sides != self.layout.sides:
            raise ConfigError(f"it is for {session.game.board.sides} sides, this board has {self.layout.sides}")
        colours = seating.seat_rgb(session.game)  # read before anything changes: a damaged colour is refused here
        if self.hardware.simulated and not restored:  # the saved pegs were another board's: the game's places
            physical = session.physical
            self._sim.put(physical.name(h) for h in physical.holes(physical.fill(session.game.position)))
            session.reconcile(self.hardware.sensed())
        self.session = session
        self._bots.seat(self.session.game)
        self.renderer.set_seat_colours(colours)
        log.info(
            "resumed game",
            extra={"game": game_id, "moves": len(self.session.game.moves), "status": self.session.report.status},
        )
        return self.session

    def _session_of(self, game_id: int) -> Session:
        """The stored game, with its turn if that fits it; a turn that does not (a damaged
        ``turn-<game>.json``, a hole number out of range) is set aside, and the game resumes
        from its last move."""
        sensed = self.hardware.sensed()
        try:
            return Session.resume(self.store, game_id, settle_ms=self.config.settle_ms, sensed=sensed)
        except DAMAGED as error:
            if self.store.turn(game_id) is None:
                raise  # the game itself
            self.store.set_turn_aside(game_id, error)
        return Session.resume(self.store, game_id, settle_ms=self.config.settle_ms, sensed=sensed)

    def _new_session(
        self,
        rules: Ruleset,
        players: int,
        mode: Mode,
        teams: list[list[int]] | None,
        table: dict[str, Any] | None,
        pegs: dict[str, list[str]] | None,
        first: int | None = None,
    ) -> None:
        self.hardware.fit(Board.for_players(players).sides)
        session = Session.new(
            self.store,
            rules,
            players,
            mode=mode,
            teams=teams,
            pegs=pegs,
            first=first,
            table=table or seating.default_table(players),
            settle_ms=self.config.settle_ms,
        )
        if self.hardware.simulated:  # a simulated board's pegs jump to their places; a wooden one shows what to fix
            self._sim.put(session.physical.name(h) for h in session.physical.holes(session.tracker.occupied))
        self.session = session
        self._bots.seat(session.game)
        session.reconcile(self.hardware.sensed())
        self.renderer.set_seat_colours(seating.seat_rgb(session.game))

    def _open_step(self, step: StepGame) -> Session:
        """A lesson's step: its game on the board, as a new game (``LessonHost``)."""
        table = {**seating.default_table(step.players), **step.table}
        self._reset_board(
            lambda: self._new_session(step.rules, step.players, "table", None, table, step.pegs, step.first)
        )
        return self.session

    def _back_to_game(self) -> None:
        """After a lesson, the game before it (or a new one): a simulated board's pegs jump to
        its places (a wooden one shows what to put back)."""
        self._open_session()
        if self.hardware.simulated:
            session, physical = self.session, self.session.physical
            self._sim.put(physical.name(h) for h in physical.holes(physical.fill(session.game.position)))
            session.reconcile(self.hardware.sensed())

    # -- sensors and buttons in -------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if change.hole.startswith("C") or self._wiring.running:
            return  # colour-marker holes: the rules ignore them; a wiring check owns the board
        with self._lock:
            try:
                self.session.sense(
                    int((change.at - self._clock0) * 1000), "place" if change.occupied else "lift", change.hole
                )
            except ValueError:
                log.warning("change on a hole the game does not use", extra={"hole": change.hole})
                return
            self._publish()
            self.latencies.append(time.monotonic() - change.at)
            session, pending = self.session, self.session.turn_to_save(durable=False)
        if pending is not None:  # kept across a kill -9 (made durable by the ticker)
            session.write_turn(pending, durable=False)
        if self.hardware.simulated:
            self._sim.save()

    def press_done(self) -> dict[str, Any]:
        """The Done button: confirm the move the board shows (never a discard)."""
        self._not_while_checking()
        with self._lock:
            try:
                self.session.done(self._now_ms())
                self._lessons.done_pressed(self.session)
            finally:
                self._publish()  # a refusal or a store failure has its notice too
            return self.state()

    def cant_move(self) -> dict[str, Any]:
        """Done held down: the seat to play can't move (at a real table; with the referee's
        cards, the phone chooses the card to discard)."""
        with self._lock:
            if self.session.game.mode == "digital":
                raise GameError("choose the card to discard on your phone")
            return self.discard(self.session.game.turn, None)

    def undo(self) -> dict[str, Any]:
        return self._command(lambda session: session.undo(), beep="undo")

    def sim_events(self, events: object) -> dict[str, Any]:
        """Drive the simulated board: ``"lift T0:8"``, ``"place T0:13"``, ``"done"``. All of
        them are checked before any is made; a refused request moves no peg."""
        steps = self._sim.steps(events)
        if any(kind == "done" for kind, _hole in steps):
            self._not_while_checking()  # pegs may move for the check's prompts; the game waits
        with self._lock:
            self._sim.make(steps, self.press_done)  # each change is stored as it is seen (_on_change)
            return self.state()

    # -- the page's requests --------------------------------------------------------------

    def declare(self, seat: int | None, card: str) -> dict[str, Any]:
        """``seat``: the asking phone's own, found to be the seat to play under the same look
        at the table that acts (a move committing meanwhile makes it another's turn); None:
        the table PIN, acting for the seat to play."""

        def declare(session: Session) -> None:
            self._lessons.check("declare", card)
            session.declare(session.game.turn if seat is None else seat, card)

        return self._command(declare)

    def discard(self, seat: int | None, card: str | None) -> dict[str, Any]:
        """``seat`` as for ``declare``."""

        def discard(session: Session) -> None:
            self._lessons.check("discard")
            session.discard(session.game.turn if seat is None else seat, card)

        return self._command(discard)

    def resolve(self, text: str | None) -> dict[str, Any]:
        return self._command(lambda session: session.resolve(text))

    def doubt(self, seat: int, doubt: bool) -> dict[str, Any]:
        return self._command(lambda session: session.doubt(seat, doubt))

    def reveal(self, card: str) -> dict[str, Any]:
        return self._command(lambda session: session.reveal(card))

    def send_to_start(self, seat: int, hole: str) -> dict[str, Any]:
        return self._command(lambda session: session.send_to_start(seat, hole))

    # -- a seat played from a phone (issue 36) ----------------------------------------------

    def choose(self, seat: int | None, card: str, move: str) -> dict[str, Any]:
        """A phone seat sends its move (``seat`` as for ``declare``): on disk, then lit."""
        return self._command(lambda session: session.choose(session.game.turn if seat is None else seat, card, move))

    def take_back(self, seat: int | None) -> dict[str, Any]:
        """A phone takes its move back, while nobody has begun to carry it out."""
        return self._command(lambda session: session.take_back(session.game.turn if seat is None else seat))

    def stand_in(self, seat: int, by: str) -> dict[str, Any]:
        """The table hands a phone seat to a bot (its kind), to the board or back to its phone."""

        def hand_over(session: Session) -> None:
            phone_seats.check_hand_over(session.game, seat, by, KINDS)
            session.hand_seat(seat, by)
            self._bots.seat(session.game)

        return self._command(hand_over)

    def _command(self, action: Callable[[Session], None], beep: str | None = None) -> dict[str, Any]:
        self._not_while_checking()
        with self._lock:
            try:
                action(self.session)
            finally:
                self._publish()
            if beep:
                self._buttons.beep(beep)
            return self.state()

    def new_game(
        self,
        players: int,
        rules: Ruleset,
        *,
        mode: str = "table",
        teams: list[list[int]] | None = None,
        names: Sequence[str] | None = None,
        colours: Sequence[str] | None = None,
        pegs: dict[str, list[str]] | None = None,
        bots: dict[str, str] | None = None,
        phones: list[int] | None = None,
        teach: bool = False,
    ) -> dict[str, Any]:
        """Start a new game (the old one stays in the store). The board must have the sides."""
        self._not_while_checking()
        table = new_table(
            rules,
            players,
            mode,
            teams=teams,
            names=names,
            colours=colours,
            pegs=pegs,
            bots=bots,
            phones=phones,
            teach=teach,
        )
        with self._lock:
            self._reset_board(lambda: self._new_session(rules, players, mode, teams, table, pegs))  # type: ignore[arg-type]
            self._lessons.give_way()  # a game instead of the lesson: "Learn to play" offers to go on
            self._publish(force=True)
            log.info("new game", extra={"game": self.session.game_id, "players": players, "rules": rules.name})
            return self.state()

    def _reset_board(self, start: Callable[[], None]) -> None:
        """Start another game on the board: the old session must not hear the board being reset."""
        self._unsubscribe()
        try:
            start()
        finally:
            self._unsubscribe = self.sensors.subscribe(self._on_change)
        self._wiring.forget()

    # -- the first lesson -----------------------------------------------------------------

    def start_lesson(self, rules: Ruleset, players: int, learners: list[int] | None = None) -> dict[str, Any]:
        """Teach the rules on the board, step by step (``referee.table.lessons``); ``learners``:
        the seats that do each step in turn (default: the first seat, the others watch)."""
        self._not_while_checking()
        with self._lock:
            self._lessons.start(rules, players, learners)
            return self.state()

    def lesson_action(self, action: str, place: str | None = None) -> dict[str, Any]:
        """The lesson's buttons: next, repeat, skip, show (the answer), place (the first step's
        places), resume (a lesson left), leave."""
        self._not_while_checking()
        with self._lock:
            self._lessons.act(action, place)
            self._publish(force=True)
            return self.state()

    def hand(self, seat: int) -> dict[str, Any]:
        """A phone's view of its own cards (digital card mode)."""
        with self._lock:
            game = self.session.game
            if game.mode != "digital":
                raise ValueError("the cards are real at this table: there is no hand to show")
            if seat not in game.board.seats:
                raise ValueError(f"no seat {seat} in this game")
            mine = seat == game.turn and game.phase == "play"
            return {
                "seat": seat,
                "hand": game.hand(seat),
                "playable": sorted(game.movable_cards()) if mine else [],
                "your_turn": mine,
                "must_move": game.must_move() if mine else False,
                "free_come_out": mine and game.free_come_out_due(),
                "declared": self.session.declared if mine else None,
                **self._phone_hand(seat, mine),
            }

    def _phone_hand(self, seat: int, mine: bool) -> dict[str, Any]:
        """A phone seat's own view (issue 36): who plays it now, and on its turn each card's
        moves in words and the move it sent, if any."""
        game = self.session.game
        by = phone_seats.played_by(game, seat)
        if by is None:
            return {}
        names = {row["seat"]: row["name"] for row in seating.seats(game)}
        moves = phone_seats.options(game, seat) if mine and by == phone_seats.PHONE else {}
        return {
            "phone": by,
            "moves": {card: [{"text": m.text, "words": say(m, names)} for m in found] for card, found in moves.items()},
            "chosen": seat_bots.plan_json(seat_bots.chosen_plan(self.session), names) if mine else None,
        }

    # -- the wiring check -----------------------------------------------------------------

    def check_wiring(self, holes: list[str] | None = None, timeout: float = 60.0) -> dict[str, Any]:
        with self._lock:
            if self._wiring.running:
                raise GameError("a wiring check is running already")
            self._wiring.start(self.layout, self.sensors, self.strip, holes, timeout)
            self._publish(force=True)
            return self.state()

    def stop_wiring_check(self) -> dict[str, Any]:
        if not self._wiring.running:
            raise GameError("no wiring check is running")
        self._wiring.stop()
        return self.state()

    def _wiring_changed(self) -> None:
        with self._lock:
            self._publish(force=True)

    def _after_wiring_check(self) -> None:
        with self._lock:
            self.session.reconcile(self.hardware.sensed())
            self._publish(force=True)

    def _not_while_checking(self) -> None:
        if self._wiring.running:
            raise GameError("a wiring check is running: finish or stop it first")

    # -- reading --------------------------------------------------------------------------

    def overview(self) -> Overview:
        with self._lock:
            game = self.session.game
            penalty = game.penalty
            return Overview(
                self.session.game_id,
                game.turn,
                game.board.sides,
                tuple(game.board.seats),
                game.doubter_to_answer,
                penalty[0] if penalty else None,
                tuple(seating.seat_default(side) for side in range(len(SEAT_NAMES))),
                any(hole.startswith("C") for hole in self.layout.pixel_of),
                view.light_legend(),
                teaching.hand_seen_by(game),
                tuple(int(seat) for seat in game.table.get("bots", {})),
            )

    def state(self) -> dict[str, Any]:
        """The page's view; every event stream asks for it at each change, so it is made once
        per version (callers only read it)."""
        with self._lock:
            if self._state is not None and self._state["version"] == self._version:
                return self._state
            data = {
                "version": self._version,
                **view.session_state(self.session),
                "wiring": self._wiring.status,
                "simulate": self.hardware.simulated,
                "store_recovered": self.store.recovered,
                "sensor_error": self.sensors.fault,
                "bots": self._bots.kinds(),
                "bot": None,
            }
            names = {seat["seat"]: seat["name"] for seat in data["seats"]}
            data["bot"] = self._bots.plan_json(names)
            data["phones"] = phone_seats.kinds(self.session.game)
            data["phone"] = seat_bots.plan_json(seat_bots.chosen_plan(self.session), names)
            data["move_marks"] = dict(self._lights.move_marks)
            game = self.session.game
            if game.mode == "digital" and not self._bots.is_bot(game.turn):
                data["declared"] = None  # a card tapped on a phone stays on it until played (/api/hand)
            self._lessons.page(data, self.session)
            data["store_recovered"] = self.store.recovered  # a lesson left may have been found damaged just now
            data["teaching"] = bool(game.table.get("teaching"))
            if data["teaching"] and game.mode == "table":  # digital: the seat's cards, for its team (lesson)
                taught = self._teaching.get(self.session, names)
                data["hints"], data["teaching_moves"] = taught.hints, taught.moves
            leds = self._lights.page_leds(self._wiring.running)
            if leds is not None:
                data["leds"] = leds
            self._state = data
            return data

    def seats(self) -> list[dict[str, Any]]:
        with self._lock:
            return seating.seats(self.session.game)

    def games(self) -> list[dict[str, Any]]:
        """Each game played, as its row in the list (``Store.listed``: made once per version)."""
        return self.store.listed()

    def review(self, game_id: int) -> dict[str, Any]:
        """A game's review, or how far its making has got (``referee.table.reviews``): any game
        but the one being played (a win may be undone: over only while it is)."""
        with self._lock:
            game = self.session.game
            if game_id == self.session.game_id and game.phase != "over":
                raise not_over(game_id)
        return self.reviews.status(game_id)

    def record(self, game_id: int, seat: int | None = None, whole: bool = False) -> str:
        """The game's record: whole once the game is over (or for ``whole``: the table
        PIN), else without the cards ``seat`` may not see (``record.redacted``)."""
        events = self.store.events(game_id)
        if whole or _over(events):
            return record.dumps(events)
        return record.dumps(record.redacted(events, seat))

    def health(self) -> dict[str, Any]:
        """The parts' state, and who this daemon is: its config file (None when simulated) and
        its board, so ``pegs doctor`` takes only its own daemon's word for the sensor board."""
        from hardware.sensors import channels_needed

        sensors = self.sensors.health()  # not under our lock: sensor threads call us holding theirs
        with self._lock:
            layout = self.layout
            board = {
                "sides": layout.sides,
                "holes": len(layout.hole_names),
                "channels": channels_needed(layout),
                "file": self.config.layout,
            }
            return {
                "config": self.config.path,
                "layout": board,
                "uptime_s": round(time.time() - self.started, 1),
                "game": self.session.game_id,
                "sensors": sensors,
                "leds": {"backend": type(self.strip).__name__, "frames": self.strip.writes},
                "store": {
                    "path": str(self.store.path),
                    "ok": self.session.store_error is None,
                    "error": self.session.store_error,
                    "recovered": self.store.recovered,
                },
                "errors": self.errors,
                "latency_ms": view.percentiles(list(self.latencies)),
                "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            }

    def wait(self, version: int, timeout: float) -> int:
        """Block until the state is newer than ``version`` (server-sent events)."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > version or self._stop.is_set(), timeout)
            return self._version

    # -- the ticker and the LEDs ------------------------------------------------------------

    def _tick_forever(self) -> None:
        while not self._stop.wait(TICK_S):
            if self._wiring.running:
                continue
            pending = None
            with self._lock:
                try:
                    session = self.session
                    session.tick(self._now_ms())
                    self._publish()
                    if not self._wiring.running:
                        self._lights.animate()
                    if time.monotonic() >= self._durable_at:
                        pending = session.turn_to_save(durable=True)
                        self._durable_at = time.monotonic() + DURABLE_EVERY_S
                except Exception:  # keep refereeing; the log and the health view say what went wrong
                    self.errors += 1
                    log.exception("ticker failed")
            if pending is not None:  # the fsync happens outside the lock: a sensor event never waits for it
                session.write_turn(pending, durable=True)

    def _publish(self, force: bool = False) -> None:
        """Show the session's report on the LEDs and tell the page, if anything changed."""
        session = self.session
        lesson_lights: dict[str, str] = {}
        lesson: tuple[object, ...] = ()
        if self._lessons.run is not None:
            lesson_lights, lesson = self._lessons.seen(session)
        plan = self._bots.turn(session) or self._phone_plan(session)
        report = session.report
        seen = _Seen(
            _look(report),
            session.tracker.occupied,
            len(session.game.events),
            len(session.game.moves),
            session.notice,
            session.store_error,
            session.declared,
            self.hardware.sensors.fault,
            lesson,
            session.chosen,
            tuple(phone_seats.kinds(session.game).values()),
        )
        if not force and seen == self._published:
            return  # the ticker polls 20 times a second: tell the page only what changed
        if session.game.phase == "over":  # ready by the time someone opens it
            self.reviews.prepare(session.game_id)
        before = self._published
        self._published = seen
        if before is not None and report.status == "illegal" and before.look[0] != "illegal":
            self._buttons.beep("illegal")
        if before is not None and len(session.game.moves) > before.moves:
            self._buttons.beep("accepted")
        if not self._wiring.running:  # the wiring check lights the holes itself
            self._lights.show(session, plan, lesson_lights, self._lessons.setting_up)
        self._version += 1
        self._changed.notify_all()

    def _phone_plan(self, session: Session) -> Plan | None:
        """The move a phone seat chose, lit like a bot's; when several moves fit the board,
        it is the one taken (``Session.intended``)."""
        plan = seat_bots.chosen_plan(session)
        if plan is not None:
            session.intended = (plan.seat, plan.move.text)
        return plan

    def hints(self, show: bool = False, asker: int | None = None) -> dict[str, Any]:
        """The best moves for the seat to play, each with its reason; ``show``: the best one
        lit blue on the board until the board or the game changes. ``asker``: the asking
        phone's seat (None: the table PIN), checked under the same look at the table that
        takes the hand: the seat to play, or in a teaching game a partner, who gets the moves
        without their cards."""
        with self._lock:
            game = self.session.game
            names = {seat["seat"]: seat["name"] for seat in seating.seats(game)}
            if asker is not None and asker not in teaching.hand_seen_by(game):
                raise PermissionError(f"only {names[game.turn]}'s phone may ask for its hints now")
            if show and asker is not None and asker != game.turn:
                raise PermissionError(
                    f"the lights are for everyone: only {names[game.turn]}'s own phone may light its hint"
                )
            partner = asker is not None and asker != game.turn
            question = teaching.Question.of(self.session)
            moment = (len(self.session.game.events), self.session.tracker.occupied)
        best = question.answer() if question else []  # the look-ahead runs without the lock
        shown = best[0].move if best else None
        if show and shown is not None:
            with self._lock:
                if moment == (len(self.session.game.events), self.session.tracker.occupied):
                    self._lights.show_hint(*moment, shown)
                    self._publish(force=True)
        return {"hints": teaching.for_the_team(best, names) if partner else teaching.shown(best, names)}

    def teaching(self, seat: int | None, game_id: int) -> dict[str, Any]:
        """A teaching game's hints and each card's moves, for the phone of ``seat`` in game
        ``game_id``. The rules page's Note on Table Talk relaxes table talk for the team when
        teaching beginners, and even then gives no cards away: with the referee's cards they
        show the seat to play's hand, so only its own phone and its partners' get them; with
        real cards (every rank, or the card declared for all to see) any page may."""
        with self._lock:
            game = self.session.game
            if not game.table.get("teaching"):
                raise GameError("each card's moves are shown in teaching games only: ask for a hint instead")
            if game.mode == "digital" and (game_id != self.session.game_id or seat not in teaching.hand_seen_by(game)):
                raise PermissionError("the cards of the seat to play are for its own phone and its partners' only")
            taught = self._teaching.get(self.session, {seat["seat"]: seat["name"] for seat in seating.seats(game)})
            if game.mode == "digital" and seat != game.turn:  # a partner's phone: the moves, not the cards
                return {
                    "version": self._version,
                    "seat": game.turn,
                    "hints": taught.team_hints,
                    "team_moves": taught.team_moves,
                }
            return {"version": self._version, "seat": game.turn, "hints": taught.hints, "teaching_moves": taught.moves}

    def _count_error(self) -> None:
        self.errors += 1

    def _bot_ready(self) -> None:
        """A seat bot has chosen on its own thread: the next look takes its move and shows it."""
        with self._lock:
            if not self._stop.is_set():
                self._publish(force=True)

    # -- helpers -------------------------------------------------------------------------------

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._clock0) * 1000)


@dataclass(frozen=True)
class _Seen:
    """What the LEDs and the page were last told."""

    look: tuple[object, ...]
    board: int
    events: int
    moves: int
    notice: str | None
    store_error: str | None
    declared: str | None
    sensor_fault: str | None
    lesson: tuple[object, ...] = ()  # the lesson's progress and lights
    chosen: str | None = None  # a phone seat's move (issue 36)
    phones: tuple[str, ...] = ()  # who plays each phone seat now


def _look(report: Report) -> tuple[object, ...]:
    """What of a report the page and the LEDs show."""
    return (report.status, report.move, report.candidates, report.guidance, report.back, report.forward, report.amend)


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


def settle_memory() -> None:
    """What is alive once the daemon has started (the code, Flask, the board's geometry)
    lives as long as the process: freeze it out of the garbage collector's reach, so that
    a full collection, which would otherwise walk it all (some 10 ms here), cannot land in
    the middle of a lift."""
    gc.collect()
    gc.freeze()


def _over(events: list[Event]) -> bool:
    """Whether the recorded game is over (a record that does not replay: not known to be)."""
    try:
        return record.replay(events).phase == "over"
    except record.RecordError:
        return False
