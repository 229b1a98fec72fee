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
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from hardware.controls import Controls
from hardware.layout import Layout
from hardware.leds import PixelStrip, Renderer
from hardware.sensors import Change, SensorBoard
from referee.game import GameError
from referee.protocol_types import NewGame, Overview
from referee.rulesets import Ruleset
from referee.settings import backends
from referee.settings.config import Config
from referee.table import health, listing, phone_seats, seat_bots, seating, simulator, teaching, view
from referee.table.board_hardware import BoardHardware
from referee.table.bot_driver import BotDriver
from referee.table.buttons import Buttons
from referee.table.game_settings import new_table
from referee.table.lesson_host import LessonHost
from referee.table.opening import Opener
from referee.table.presenter import LedPresenter
from referee.table.publishing import Publisher
from referee.table.reviews import Reviews, not_over
from referee.table.seat_bots import KINDS, Plan
from referee.table.session import Session
from referee.table.store import Store
from referee.table.view import State
from referee.table.wiring_check import WiringCheck

log = logging.getLogger("pegs.table")
TICK_S = 0.05
DURABLE_EVERY_S = 0.5  # a power cut loses at most this much of a half-made move's history


class Table:
    """One running table: the lock every change to the game takes, the ticker, and the page.

    Lock order: a sensor backend calls ``_on_change`` holding its own lock, so the table
    never calls into the sensors while holding the table lock, except for the simulated
    board, whose changes come back on the caller's own thread.

    The table owns its collaborators and calls them holding its lock; none has a lock of its
    own: the board's parts (``BoardHardware``), the simulated board's pegs (``simulator.SimulatedPegs``),
    the games it opens (``Opener``, which holds the session), what the LEDs show
    (``LedPresenter``), the bot seats (``BotDriver``), the first lesson (``LessonHost``), a
    teaching game's hints (``teaching.PerTurn``), the board's buttons and buzzer (``Buttons``)
    and its own counts (``health.Counts``). What the page reads of them is ``view``'s."""

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
        self.counts = health.Counts()
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._clock0 = time.monotonic()
        self._wiring = WiringCheck(notify=self._wiring_changed, finished=self._after_wiring_check)
        self._lights = LedPresenter(self.hardware)
        self._bots = BotDriver(failed=self.counts.count_error, ready=self._bot_ready)
        self._games = Opener(config, store, self.hardware, self._sim, self._bots, self._wiring, self._on_change)
        self._lessons = LessonHost(store, self.hardware, self._games)
        self._teaching = teaching.PerTurn()
        self._parts = view.Parts(
            store, self.hardware, self._bots, self._lights, self._lessons, self._teaching, self._wiring
        )
        self._state: State | None = None
        self._durable_at = 0.0
        self._buttons = Buttons(failed=self.counts.count_error)
        self._publisher = Publisher(self._lock, self._lights, self.reviews, self._buttons, self._wiring, self._lessons)
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
    def session(self) -> Session:
        """The game being played, with its tracker and store (``Opener`` opens it)."""
        return self._games.session

    @property
    def latencies(self) -> deque[float]:
        return self.counts.latencies

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
            if not self._lessons.resume_at_start():  # the lesson being taught, else a game
                self._games.open_latest()
            self._games.listen()
            self._look(force=True)
        threading.Thread(target=self._tick_forever, name="pegs-ticker", daemon=True).start()
        settle_memory()
        session = self.session
        log.info(
            "started",
            extra={"game": session.game_id, "rules": session.game.rules.name, "status": session.report.status},
        )
        if self.store.recovered:
            log.error("game store recovered", extra={"what": self.store.recovered})

    def stop(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._wiring.close()
        self._games.stop_listening()
        self.sensors.close()
        self.strip.close()
        self._buttons.close()
        with self._lock:
            self.session.save_turn(durable=True)
            self._publisher.wake()  # event streams end now, not at their next heartbeat
        self.reviews.close()
        self.store.close()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

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
            self._look()
            self.counts.latencies.append(time.monotonic() - change.at)
            session, pending = self.session, self.session.turn_to_save(durable=False)
        if pending is not None:  # kept across a kill -9 (made durable by the ticker)
            session.write_turn(pending, durable=False)
        if self.hardware.simulated:
            self._sim.save()

    def press_done(self) -> State:
        """The Done button: confirm the move the board shows (never a discard)."""
        self._not_while_checking()
        with self._lock:
            try:
                self.session.done(self._now_ms())
                self._lessons.done_pressed(self.session)
            finally:
                self._look()  # a refusal or a store failure has its notice too
            return self.state()

    def cant_move(self) -> State:
        """Done held down: the seat to play can't move (at a real table; with the referee's
        cards, the phone chooses the card to discard)."""
        with self._lock:
            if self.session.game.mode == "digital":
                raise GameError("choose the card to discard on your phone")
            return self.discard(self.session.game.turn, None)

    def undo(self) -> State:
        return self._command(lambda session: session.undo(), beep="undo")

    def sim_events(self, events: object) -> State:
        """Drive the simulated board: ``"lift T0:8"``, ``"place T0:13"``, ``"done"``. All of
        them are checked before any is made; a refused request moves no peg."""
        steps = self._sim.steps(events)
        if any(kind == "done" for kind, _hole in steps):
            self._not_while_checking()  # pegs may move for the check's prompts; the game waits
        with self._lock:
            self._sim.make(steps, self.press_done)  # each change is stored as it is seen (_on_change)
            return self.state()

    # -- the page's requests --------------------------------------------------------------

    def declare(self, seat: int | None, card: str) -> State:
        """``seat``: the asking phone's own, found to be the seat to play under the same look
        at the table that acts (a move committing meanwhile makes it another's turn); None:
        the table PIN, acting for the seat to play."""

        def declare(session: Session) -> None:
            self._lessons.check("declare", card)
            session.declare(session.game.turn if seat is None else seat, card)

        return self._command(declare)

    def discard(self, seat: int | None, card: str | None) -> State:
        """``seat`` as for ``declare``."""

        def discard(session: Session) -> None:
            self._lessons.check("discard")
            session.discard(session.game.turn if seat is None else seat, card)

        return self._command(discard)

    def resolve(self, text: str | None) -> State:
        return self._command(lambda session: session.resolve(text))

    def doubt(self, seat: int, doubt: bool) -> State:
        return self._command(lambda session: session.doubt(seat, doubt))

    def reveal(self, card: str) -> State:
        return self._command(lambda session: session.reveal(card))

    def send_to_start(self, seat: int, hole: str) -> State:
        return self._command(lambda session: session.send_to_start(seat, hole))

    # -- a seat played from a phone (issue 36) ----------------------------------------------

    def choose(self, seat: int | None, card: str, move: str) -> State:
        """A phone seat sends its move (``seat`` as for ``declare``): on disk, then lit."""
        return self._command(lambda session: session.choose(session.game.turn if seat is None else seat, card, move))

    def take_back(self, seat: int | None) -> State:
        """A phone takes its move back, while nobody has begun to carry it out."""
        return self._command(lambda session: session.take_back(session.game.turn if seat is None else seat))

    def stand_in(self, seat: int, by: str) -> State:
        """The table hands a phone seat to a bot (its kind), to the board or back to its phone."""

        def hand_over(session: Session) -> None:
            phone_seats.check_hand_over(session.game, seat, by, KINDS)
            session.hand_seat(seat, by)
            self._bots.seat(session.game)

        return self._command(hand_over)

    def _command(self, action: Callable[[Session], None], beep: str | None = None) -> State:
        self._not_while_checking()
        with self._lock:
            try:
                action(self.session)
            finally:
                self._look()
            if beep:
                self._buttons.beep(beep)
            return self.state()

    def new_game(self, request: NewGame) -> State:
        """Start a new game (the old one stays in the store). The board must have the sides."""
        self._not_while_checking()
        table = new_table(request)
        with self._lock:
            self._games.new_game(request, table)
            self._lessons.give_way()  # a game instead of the lesson: "Learn to play" offers to go on
            self._look(force=True)
            log.info(
                "new game",
                extra={"game": self.session.game_id, "players": request.players, "rules": request.rules.name},
            )
            return self.state()

    # -- the first lesson -----------------------------------------------------------------

    def start_lesson(self, rules: Ruleset, players: int, learners: list[int] | None = None) -> State:
        """Teach the rules on the board, step by step (``referee.table.lessons``); ``learners``:
        the seats that do each step in turn (default: the first seat, the others watch)."""
        self._not_while_checking()
        with self._lock:
            self._lessons.start(rules, players, learners)
            self._look(force=True)
            return self.state()

    def lesson_action(self, action: str, place: str | None = None) -> State:
        """The lesson's buttons: next, repeat, skip, show (the answer), place (the first step's
        places), resume (a lesson left), leave."""
        self._not_while_checking()
        with self._lock:
            self._lessons.act(action, place)
            self._look(force=True)
            return self.state()

    def hand(self, seat: int) -> dict[str, Any]:
        """A phone's view of its own cards (digital card mode)."""
        with self._lock:
            return view.hand(self.session, seat)

    # -- the wiring check -----------------------------------------------------------------

    def check_wiring(self, holes: list[str] | None = None, timeout: float = 60.0) -> State:
        with self._lock:
            if self._wiring.running:
                raise GameError("a wiring check is running already")
            self._wiring.start(self.layout, self.sensors, self.strip, holes, timeout)
            self._look(force=True)
            return self.state()

    def stop_wiring_check(self) -> State:
        if not self._wiring.running:
            raise GameError("no wiring check is running")
        self._wiring.stop()
        return self.state()

    def _wiring_changed(self) -> None:
        with self._lock:
            self._look(force=True)

    def _after_wiring_check(self) -> None:
        with self._lock:
            self.session.reconcile(self.hardware.sensed())
            self._look(force=True)

    def _not_while_checking(self) -> None:
        if self._wiring.running:
            raise GameError("a wiring check is running: finish or stop it first")

    # -- reading --------------------------------------------------------------------------

    def overview(self) -> Overview:
        with self._lock:
            return view.overview(self.session, self.hardware)

    def state(self) -> State:
        """The page's view (``view.State``); every event stream asks for it at each change, so
        it is made once per version (callers only read it)."""
        with self._lock:
            if self._state is None or self._state["version"] != self._publisher.version:
                self._state = view.state(self.session, self._publisher.version, self._parts)
            return self._state

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
        return listing.record_text(self.store.events(game_id), seat, whole)

    def health(self) -> dict[str, Any]:
        """The parts' state, and who this daemon is (``health.report``)."""
        sensors = self.sensors.health()  # not under our lock: sensor threads call us holding theirs
        with self._lock:
            return health.report(self.config, self.hardware, self.store, self.session, self.counts, sensors)

    def set_aside(self, what: str, why: str) -> None:
        """A file the page keeps (the log-ins) read damaged: named with what the store found."""
        with self._lock:
            self.store.set_aside(what, why)

    def wait(self, version: int, timeout: float) -> int:
        """Block until the state is newer than ``version`` (server-sent events)."""
        return self._publisher.wait(version, timeout, self._stop.is_set)

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
                    self._look()
                    if not self._wiring.running:
                        self._lights.animate()
                    if time.monotonic() >= self._durable_at:
                        pending = session.turn_to_save(durable=True)
                        self._durable_at = time.monotonic() + DURABLE_EVERY_S
                except Exception:  # keep refereeing; the log and the health view say what went wrong
                    self.counts.count_error()
                    log.exception("ticker failed")
            if pending is not None:  # the fsync happens outside the lock: a sensor event never waits for it
                session.write_turn(pending, durable=True)

    def _look(self, force: bool = False) -> None:
        """After anything that may have changed the game or the board: the lesson follows it,
        the bot seats do what needs no pegs moved (a doubt, a discard, a peg sent to start)
        and keep the move they chose, and then what changed is shown (``Publisher``)."""
        lesson: tuple[dict[str, str], tuple[object, ...]] = ({}, ())
        if self._lessons.run is not None:
            lesson = self._lessons.seen(self.session)
        plan = self._bots.turn(self.session) or _phone_plan(self.session)
        self._publisher.publish(self.session, self.hardware.sensors.fault, plan, lesson, force)

    def hints(self, show: bool = False, asker: int | None = None) -> dict[str, Any]:
        """The best moves for the seat to play, each with its reason; ``show``: the best one
        lit blue on the board until the board or the game changes. ``asker``: the asking
        phone's seat (None: the table PIN), checked under the same look at the table that
        takes the hand: the seat to play, or in a teaching game a partner, who gets the moves
        without their cards."""
        with self._lock:
            game = self.session.game
            names = {seat["seat"]: seat["name"] for seat in seating.seats(game)}
            teaching.check_asker(game, names, asker, show)
            partner = asker is not None and asker != game.turn
            question = teaching.Question.of(self.session)
            moment = (len(self.session.game.events), self.session.tracker.occupied)
        best = question.answer() if question else []  # the look-ahead runs without the lock
        shown = best[0].move if best else None
        if show and shown is not None:
            with self._lock:
                if moment == (len(self.session.game.events), self.session.tracker.occupied):
                    self._lights.show_hint(*moment, shown)
                    self._look(force=True)
        return {"hints": teaching.for_the_team(best, names) if partner else teaching.shown(best, names)}

    def teaching(self, seat: int | None, game_id: int) -> dict[str, Any]:
        """A teaching game's hints and each card's moves, for a phone (``teaching.for_phone``)."""
        with self._lock:
            return {
                "version": self._publisher.version,
                **teaching.for_phone(self.session, self._teaching, seat, game_id),
            }

    def _bot_ready(self) -> None:
        """A seat bot has chosen on its own thread: the next look takes its move and shows it."""
        with self._lock:
            if not self._stop.is_set():
                self._look(force=True)

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._clock0) * 1000)


def _phone_plan(session: Session) -> Plan | None:
    """The move a phone seat chose, lit like a bot's; when several moves fit the board,
    it is the one taken (``Session.intended``)."""
    plan = seat_bots.chosen_plan(session)
    if plan is not None:
        session.intended = (plan.seat, plan.move.text)
    return plan


def settle_memory() -> None:
    """What is alive once the daemon has started (the code, Flask, the board's geometry)
    lives as long as the process: freeze it out of the garbage collector's reach, so that
    a full collection, which would otherwise walk it all (some 10 ms here), cannot land in
    the middle of a lift."""
    gc.collect()
    gc.freeze()
