"""The referee daemon: sensors -> tracker -> game -> LEDs, published to the web page.

One ``Service`` owns one board. Sensor changes arrive on the sensor backend's thread; a
ticker thread commits a move once the board has settled. Everything that touches the
game happens under one lock, and every accepted event is on disk (``Store``) before the
LEDs or the page show it, so a power cut never loses an accepted move.

    service = Service.build(Config.simulated("data"))
    service.start()
    service.sim_events(["lift S0:1", "place T0:8", "done"])
    service.state()["moves"]          # ['A S0-T0:8'] (any card that explains it, at a real table)
"""

from __future__ import annotations

import json
import logging
import os
import random
import resource
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hardware.controls import Controls
from hardware.layout import Layout, default_layout
from hardware.leds import SEAT_COLOURS, MemoryStrip, NeoPixelSpiStrip, NeoPixelStrip, PixelStrip, Renderer
from hardware.sensors import Change, GpioSensors, SensorBoard, SerialSensors, SimulatedSensors
from referee.table.config import Config, ConfigError
from referee.game import Game, GameError
from referee.moves import Move
from referee.physical import PhysicalBoard, SensorEvent
from referee.rulesets import Ruleset
from referee.table.store import Store, StoreError
from referee.tracker import Report, Tracker

log = logging.getLogger("pegs.service")
TICK_S = 0.05
SIM_BOARD = "simulated-board.json"


class Service:
    """Lock order: a sensor backend calls ``_on_change`` holding its own lock, so the service
    never calls into the sensors while holding the service lock, except for the simulated
    board, whose changes come back on the caller's own thread."""

    def __init__(self, config: Config, store: Store, layout: Layout, sensors: SensorBoard, strip: PixelStrip) -> None:
        self.config = config
        self.store = store
        self.layout = layout
        self.sensors = sensors
        self.strip = strip
        self.renderer = Renderer(layout, brightness=config.brightness, max_amps=config.max_amps)
        self._declared: str | None = None
        self._wiring: dict[str, Any] | None = None  # a wiring check from the page, while it runs and after
        self._wiring_cancel = threading.Event()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._version = 0
        self._stop = threading.Event()
        self._clock0 = time.monotonic()
        self.latencies: deque[float] = deque(maxlen=2000)  # sensor change -> LED frame written, seconds
        self.errors = 0
        self.started = time.time()
        self.controls: Any = None

    # -- building and running ----------------------------------------------------------

    @classmethod
    def build(cls, config: Config) -> Service:
        """Open the store, the layout, the sensors and the LEDs the configuration names."""
        store = Store.open(config.data_dir)
        sides = 4 if config.players == 2 else config.players
        layout = Layout.from_toml(config.layout) if config.layout else default_layout(sides)
        if layout.sides != sides:
            raise ConfigError(f"the layout is for {layout.sides} sides, the game for {config.players} players")
        service = cls(config, store, layout, _sensors(config, layout), _strip(config, layout))
        if any(pin is not None for pin in (config.done_pin, config.undo_pin, config.buzzer_pin)):
            service.attach_controls(Controls(config.done_pin, config.undo_pin, config.buzzer_pin))
        return service

    def attach_controls(self, controls: Any) -> None:
        """The board's buttons and buzzer: "done", "undo", and beeps for accepted and illegal."""
        self.controls = controls
        controls.on_done = lambda: self._button(self.press_done)
        controls.on_undo = lambda: self._button(self.undo)

    def _button(self, action: Callable[[], object]) -> None:
        try:
            action()
        except GameError as error:  # e.g. "done" when the player must move: say so, keep going
            log.info("button refused", extra={"reason": str(error)})
            self._beep("illegal")

    def _beep(self, kind: str) -> None:
        if self.controls is not None:
            self.controls.beep(kind)

    @property
    def rules(self) -> Ruleset:
        return self.game.rules

    def start(self) -> None:
        with self._lock:
            self._open_game()
            self.tracker = Tracker(self.game.position, self.rules, moves=self._candidates(),
                                   settle_ms=self.config.settle_ms, occupied=self._sensed())  # fmt: skip
            self._report = self.tracker.report()
            self._published_board = self.tracker.occupied
            self._unsubscribe = self.sensors.subscribe(self._on_change)
            self._show(self._report)
        self._ticker = threading.Thread(target=self._tick_forever, name="pegs-ticker", daemon=True)
        self._ticker.start()
        log.info("started", extra={"game": self.game_id, "rules": self.rules.name, "status": self._report.status})

    def stop(self) -> None:
        self._stop.set()
        self._wiring_cancel.set()
        self._unsubscribe()
        self.sensors.close()
        self.strip.close()
        self.store.close()

    def _open_game(self) -> None:
        game_id = self.store.last_unfinished()
        if game_id is None:
            game = Game(self.config.ruleset(), self.config.players, mode=self.config.mode,  # type: ignore[arg-type]
                        seed=random.randrange(2**31), teams=self.config.teams, table=_default_table(self.config.players))  # fmt: skip
            self.game_id = self.store.create(game.events)
            self.game = game
            self._saved = len(game.events)
            log.info("new game", extra={"game": self.game_id, "players": self.config.players})
        else:
            self.game = Game.from_events(self.store.events(game_id))
            self.game_id, self._saved = game_id, len(self.game.events)
            log.info("resumed game", extra={"game": game_id, "moves": len(self.game.moves)})
        self._auto_draw()
        if self.game.board.sides != self.layout.sides:
            if not isinstance(self.sensors, SimulatedSensors):
                raise ConfigError(f"the last game is for {self.game.board.sides} sides, this board has {self.layout.sides}")
            self._resize(self.game.board.sides)
        self.physical = PhysicalBoard(self.game.board)
        self.renderer.set_seat_colours(self._seat_rgb())
        if isinstance(self.sensors, SimulatedSensors):
            saved = self._simulated_board()
            self.sensors.set(saved if saved is not None else self._names(self.physical.fill(self.game.position)))

    # -- sensors in --------------------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if change.hole.startswith("C") or self._checking():
            return  # colour-marker holes: the rules ignore them; a wiring check owns the board
        with self._lock:
            try:
                hole = self.physical.index(change.hole)
            except ValueError:
                log.warning("change on a hole the game does not use", extra={"hole": change.hole})
                return
            ms = int((change.at - self._clock0) * 1000)
            report = self.tracker.feed(SensorEvent(ms, "place" if change.occupied else "lift", (hole,)))
            self._react(report)
            self.latencies.append(time.monotonic() - change.at)
        if isinstance(self.sensors, SimulatedSensors):
            self._save_simulated_board()

    def press_done(self) -> dict[str, Any]:
        """The "done" button: commit the move the board shows now; on an unchanged board at a
        real table it means "I cannot move" and discards."""
        if self._checking():
            raise GameError("a wiring check is running: finish or stop it first")
        with self._lock:
            report = self.tracker.feed(SensorEvent(self._now_ms(), "done"))
            if not report.committed and report.status == "synced" and self.game.phase == "play":
                self._act(lambda: self.game.discard(None if self.game.mode == "table" else self._first_card()))
                return self.state()
            self._react(report)
            return self.state()

    def undo(self) -> dict[str, Any]:
        with self._lock:
            self._act(self.game.undo, hold=True)
            return self.state()

    def sim_events(self, events: list[str]) -> dict[str, Any]:
        """Drive the simulated board: ``"lift T0:8"``, ``"place T0:13"``, ``"done"``."""
        if not isinstance(self.sensors, SimulatedSensors):
            raise PermissionError("simulated sensor events are only accepted with --simulate")
        if not isinstance(events, list) or not events:
            raise ValueError("'events' must be a non-empty list like [\"lift S0:1\", \"place T0:8\", \"done\"]")
        steps = [_parse_sim_event(text) for text in events]
        with self._lock:
            self._check_sim_steps(steps)  # all of them, before any is applied
            for kind, hole in steps:
                if kind == "done":
                    self.press_done()
                else:
                    getattr(self.sensors, kind)(hole)
            return self.state()

    def _check_sim_steps(self, steps: list[tuple[str, str]]) -> None:
        occupied = set(self.sensors.snapshot())
        for kind, hole in steps:
            if kind == "done":
                continue
            if hole not in self.layout.pixel_of:
                raise ValueError(f"no hole {hole!r} on this board")
            if kind == "lift" and hole not in occupied:
                raise ValueError(f"cannot lift from {hole}: it is empty")
            if kind == "place" and hole in occupied:
                raise ValueError(f"cannot place in {hole}: it already holds a peg")
            (occupied.discard if kind == "lift" else occupied.add)(hole)

    # -- checking the wiring from the page ---------------------------------------------------

    def check_wiring(self, holes: list[str] | None = None, timeout: float = 60.0) -> dict[str, Any]:
        """Walk the LEDs, then ask for a peg in every hole (``hardware.wiring.selftest``). The
        game pauses; afterwards the board is compared with it again, as after a restart."""
        from hardware.wiring import WiringCancelled, selftest

        with self._lock:
            if self._checking():
                raise GameError("a wiring check is running already")
            self._wiring_cancel.clear()
            self._wiring = {"running": True, "step": "Starting the wiring check", "hole": None}
            self._version += 1
            self._changed.notify_all()

        def prompt(step: Any) -> None:
            with self._lock:
                self._wiring = {"running": True, "step": str(step), "hole": step.hole, "action": step.action,
                                "index": step.index, "total": step.total}  # fmt: skip
                self._version += 1
                self._changed.notify_all()

        def run() -> None:
            result: dict[str, Any]
            try:
                report = selftest(self.layout, self.sensors, self.strip, prompt, timeout=timeout, led_delay=0.02,
                                  holes=holes, cancel=self._wiring_cancel)  # fmt: skip
                result = {"running": False, "ok": report.ok, "text": str(report), "report": report.to_json()}
            except WiringCancelled as stopped:
                result = {"running": False, "ok": None, "text": str(stopped)}
            except Exception as error:  # report it on the page; the game goes on
                log.exception("wiring check failed")
                result = {"running": False, "ok": False, "text": f"the wiring check failed: {error}"}
            with self._lock:
                self._wiring = result
                self.tracker = Tracker(self.game.position, self.rules, moves=self._candidates(),
                                       settle_ms=self.config.settle_ms, occupied=self._sensed())  # fmt: skip
                self._publish(self.tracker.report())
            log.info("wiring check", extra={"ok": result["ok"], "result": result["text"]})

        threading.Thread(target=run, name="pegs-wiring", daemon=True).start()
        return self.state()

    def stop_wiring_check(self) -> dict[str, Any]:
        if not self._checking():
            raise GameError("no wiring check is running")
        self._wiring_cancel.set()
        return self.state()

    def _checking(self) -> bool:
        return bool(self._wiring and self._wiring.get("running"))

    # -- the table's page: seats, cards, new games -------------------------------------------

    def seats(self) -> list[dict[str, Any]]:
        game = self.game
        table = {**_default_table(game.board.players), **game.table}
        team_index = {seat: n for n, team in enumerate(game.board.teams) for seat in team}
        return [{"seat": seat, "name": table["names"][n], "colour": table["colours"][n], "team": team_index[seat],
                 "home": game.position.in_home(seat), "start": game.position.in_start(seat)}
                for n, seat in enumerate(game.board.seats)]  # fmt: skip

    def new_game(self, players: int, rules: Ruleset, *, mode: str = "table", teams: list[list[int]] | None = None,
                 names: list[str] | None = None, colours: list[str] | None = None,
                 pegs: dict[str, list[str]] | None = None) -> dict[str, Any]:  # fmt: skip
        """Start a new game (the old one stays in the store). The board must have the sides."""
        sides = 4 if players == 2 else players
        simulated = isinstance(self.sensors, SimulatedSensors)
        if sides != self.layout.sides and not simulated:
            raise ValueError(f"this board has {self.layout.sides} sides: {players} players need {sides}")
        table = _default_table(players)
        for key, given in (("names", names), ("colours", colours)):
            if given is not None:
                if len(given) != len(table[key]):
                    raise ValueError(f"'{key}' needs one entry per player ({len(table[key])})")
                table[key] = list(given)
        game = Game(rules, players, mode=mode, seed=random.randrange(2**31), teams=teams, pegs=pegs,  # type: ignore[arg-type]
                    table=table)  # fmt: skip
        with self._lock:
            self.game, self.game_id = game, self.store.create(game.events)
            self._saved = len(game.events)
            self._auto_draw()
            self._save()
            self._unsubscribe()  # the old tracker must not hear the board being reset
            if sides != self.layout.sides:
                self._resize(sides)
            self.physical = PhysicalBoard(game.board)
            self.renderer.set_seat_colours(self._seat_rgb())
            self._declared = None
            if simulated:  # a simulated board's pegs jump to their places; a wooden one shows what to fix
                self.sensors.set(self._names(self.physical.fill(game.position)))  # type: ignore[attr-defined]
                self._save_simulated_board()
            self.tracker = Tracker(game.position, self.rules, moves=self._candidates(),
                                   settle_ms=self.config.settle_ms, occupied=self._sensed())  # fmt: skip
            self._unsubscribe = self.sensors.subscribe(self._on_change)
            self._publish(self.tracker.report())
            log.info("new game", extra={"game": self.game_id, "players": players, "rules": rules.name})
            return self.state()

    def _resize(self, sides: int) -> None:
        """A simulated board of another size: new holes, new LEDs (not yet listened to)."""
        self.layout = default_layout(sides)
        self.sensors = SimulatedSensors(self.layout)
        self.strip = MemoryStrip(self.layout.pixels)
        self.renderer = Renderer(self.layout, brightness=self.config.brightness, max_amps=self.config.max_amps)

    def hand(self, seat: int) -> dict[str, Any]:
        """A phone's view of its own cards (digital card mode)."""
        with self._lock:
            game = self.game
            if game.mode != "digital":
                raise ValueError("the cards are real at this table: there is no hand to show")
            if seat not in game.board.seats:
                raise ValueError(f"no seat {seat} in this game")
            mine = seat == game.turn and game.phase == "play"
            playable = sorted(game.playable()) if mine else []
            return {"seat": seat, "hand": game.hand(seat), "playable": playable, "your_turn": mine,
                    "must_move": game.must_move() if mine else False,
                    "free_come_out": mine and game.free_come_out_due(), "declared": self._declared if mine else None}  # fmt: skip

    def declare(self, seat: int, card: str) -> dict[str, Any]:
        """The player to move says which card they play: only its moves are accepted now."""
        from referee.cards import parse_card

        with self._lock:
            self._check_turn(seat)
            card = parse_card(card)
            if self.game.mode == "digital" and card not in self.game.hand(seat):
                raise ValueError(f"seat {seat} does not hold {card}")
            self._declared = card
            self.tracker.restrict(moves=self._candidates())
            self._publish(self.tracker.report())
            return self.state()

    def discard(self, seat: int, card: str | None) -> dict[str, Any]:
        with self._lock:
            self._check_turn(seat)
            self._act(lambda: self.game.discard(card if self.game.mode == "digital" else None))
            return self.state()

    def resolve(self, text: str | None) -> dict[str, Any]:
        """Someone taps the move that was made, of several that fit (or "nothing moved")."""
        with self._lock:
            report = self._report
            if report.status != "ambiguous":
                raise ValueError("there is no ambiguous move to resolve now")
            if text is None:
                self.tracker.forget_colours()
                self._publish(self.tracker.report())
                return self.state()
            chosen = [move for move in report.candidates if move.text == text]
            if not chosen:
                raise ValueError(f"{text!r} is not one of the moves that fit")
            self._accept(chosen[0], amend=False)
            return self.state()

    def doubt(self, seat: int, doubt: bool) -> dict[str, Any]:
        """Bluffing Joker: the next opponent clockwise doubts the declaration, or lets it pass."""
        with self._lock:
            self._act(lambda: self.game.respond(seat, doubt))
            return self.state()

    def reveal(self, card: str) -> dict[str, Any]:
        """Bluffing Joker at a real table: the doubted card, turned face up."""
        with self._lock:
            self._act(lambda: self.game.reveal(card))
            return self.state()

    def send_to_start(self, seat: int, hole: str) -> dict[str, Any]:
        """Bluffing Joker: the winner of a doubt sends one of the loser's pegs back to start."""
        with self._lock:
            self._act(lambda: self.game.send_to_start(seat, hole))
            return self.state()

    def _check_turn(self, seat: int | None) -> None:
        if seat is not None and seat != self.game.turn:
            raise PermissionError(f"it is seat {self.game.turn}'s turn, not seat {seat}'s")
        if self.game.phase != "play":
            raise GameError(f"cannot play now: the game is in its {self.game.phase} phase")

    def _bluff_state(self) -> dict[str, Any] | None:
        game = self.game
        if not self.rules.bluffing or game.phase not in ("doubt", "reveal", "penalty"):
            return None
        penalty = game.penalty
        return {"declared": _last_card(game.events), "doubter": game.doubter_to_answer,
                "chooser": penalty[0] if penalty else None, "victim": penalty[1] if penalty else None}  # fmt: skip

    def _seat_rgb(self) -> list[tuple[int, int, int]]:
        colours = {**_default_table(self.game.board.players), **self.game.table}["colours"]
        by_seat = dict(zip(self.game.board.seats, colours, strict=True))
        return [_rgb(by_seat.get(side, "#000000")) for side in range(self.game.board.sides)]

    # -- the game ----------------------------------------------------------------------------

    def _tick_forever(self) -> None:
        while not self._stop.wait(TICK_S):
            if self._checking():
                continue
            with self._lock:
                try:
                    self._react(self.tracker.poll(self._now_ms()))
                except Exception:  # keep refereeing; the log and the health view say what went wrong
                    self.errors += 1
                    log.exception("ticker failed")

    def _react(self, report: Report) -> None:
        if report.committed and self.game.phase in ("doubt", "reveal", "penalty"):
            report.committed = False  # the move already stands, waiting for the opponents' doubts
        if report.committed and report.move is not None:
            self._accept(report.move, amend=report.amend)
            return
        self._publish(report, force=False)

    def _accept(self, move: Move, amend: bool) -> None:
        def play() -> None:
            if amend:
                self.game.undo()  # back to before that turn's draw: draw again, then the amended move
                self._auto_draw()
            free = move in self._free
            card = None if self.game.mode == "table" else move.card
            declared = move.card if self.rules.bluffing else None
            self.game.play(card, move, free=free, declared=declared)

        try:
            self._act(play)
        except StoreError:
            self.tracker.retract()  # not saved, so not taken: the next "done" or tick tries again
            raise
        self._beep("accepted")
        log.info("move", extra={"game": self.game_id, "move": move.text, "amend": amend})

    def _act(self, action: Callable[[], None], hold: bool = False) -> None:
        """Do something to the game, write its events to disk, then show it."""
        try:
            action()
            self._declared = None
            self._auto_draw()
        except GameError as error:
            log.warning("refused", extra={"reason": str(error)})
            raise
        finally:
            self._save()
        if self.game.phase in ("doubt", "reveal"):
            self._publish(self.tracker.report())  # the board shows the declared move while opponents doubt
            return
        self.tracker.next_turn(self.game.position, moves=self._candidates())
        if hold or self.rules.bluffing:  # a caught bluff or a penalty: the board must follow the game
            self.tracker.hold()
        self._publish(self.tracker.report())

    def _save(self) -> None:
        new = self.game.events[self._saved :]
        if not new:
            return
        try:
            self.store.append(self.game_id, new, self._saved)  # on disk before anyone is told
        except StoreError:
            # Not on disk, so not accepted: back to what the store holds, and say so.
            self.game = Game.from_events(self.store.events(self.game_id))
            self.errors += 1
            log.exception("could not store the game's events")
            raise
        self._saved = len(self.game.events)

    def _auto_draw(self) -> None:
        """With the referee's cards, the draw is a formality the daemon does for the player."""
        while self.game.mode == "digital" and self.game.phase == "draw":
            self.game.draw()

    def _candidates(self) -> list[Move] | None:
        """The moves the tracker may accept: any card at a real table, the hand's otherwise."""
        self._free: set[Move] = set()
        if self.game.phase == "over":
            return []
        if self.game.mode == "table" and self._declared is None:
            return None
        moves: list[Move] = []
        cards = [self._declared] if self._declared else list(dict.fromkeys(self.game.hand(self.game.turn)))
        for card in cards:
            moves += self.game.legal(card)
            free = self.game.free_come_outs(card)
            self._free.update(free)
            moves += free
        return moves

    def _first_card(self) -> str:
        """The card a "done" press discards in digital mode; the page lets a player choose."""
        return self.game.hand(self.game.turn)[0]

    # -- out: LEDs and subscribers -----------------------------------------------------------

    def _publish(self, report: Report, force: bool = True) -> None:
        if not force and _same(report, self._report) and self.tracker.occupied == self._published_board:
            return  # the ticker polls 20 times a second: tell the page only what changed
        if report.status == "illegal" and self._report.status != "illegal":
            self._beep("illegal")
        self._report = report
        self._published_board = self.tracker.occupied
        self._show(report)
        self._version += 1
        self._changed.notify_all()

    def _show(self, report: Report) -> None:
        if self._checking():
            return  # the wiring check lights the holes itself
        turn = None if self.game.phase == "over" else self.game.turn
        guidance = {hole: role for hole, role in report.guidance.items() if hole in self.layout.pixel_of}
        self.strip.show(self.renderer.render(guidance, turn))

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def wait(self, version: int, timeout: float) -> int:
        """Block until the state is newer than ``version`` (server-sent events)."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > version or self._stop.is_set(), timeout)
            return self._version

    def state(self) -> dict[str, Any]:
        with self._lock:
            game, report = self.game, self._report
            position = game.position.to_json()
            data = {
                "version": self._version,
                "game": self.game_id,
                "position": position,
                "turn": game.turn,
                "phase": game.phase,
                "mode": game.mode,
                "winner": list(game.winner) if game.winner else None,
                "status": report.status,
                "guidance": report.guidance,
                "back": [str(fix) for fix in report.back],
                "forward": [str(fix) for fix in report.forward],
                "candidates": [move.to_json() for move in report.candidates] if report.status == "ambiguous" else [],
                "move": report.move.text if report.move else None,
                "moves": game.moves,
                "history": [{"seat": seat, "move": text} for seat, text in game.history],
                "bumps": game.bumps,
                "rules": {
                    "name": self.rules.name,
                    "summary": self.rules.summary,
                    "cards": {card: power.describe() for card, power in self.rules.cards},
                },
                "occupied": self._names(self.tracker.occupied),
                "seats": self.seats(),
                "teams": [list(team) for team in game.board.teams],
                "sides": game.board.sides,
                "last_card": _last_card(game.events),
                "declared": self._declared,
                "bluff": self._bluff_state(),
                "wiring": self._wiring,
                "simulate": isinstance(self.sensors, SimulatedSensors),
            }
            if isinstance(self.strip, MemoryStrip):
                colours = self.strip.hex()
                data["leds"] = {hole: colours[pixel] for hole, pixel in self.layout.pixel_of.items()}
            return data

    def health(self) -> dict[str, Any]:
        sensors = self.sensors.health()  # not under our lock: sensor threads call us holding theirs
        with self._lock:
            latencies = sorted(self.latencies)
            return {
                "uptime_s": round(time.time() - self.started, 1),
                "game": self.game_id,
                "sensors": sensors,
                "leds": {"backend": type(self.strip).__name__, "frames": self.strip.writes},
                "store": str(self.store.path),
                "errors": self.errors,
                "latency_ms": _percentiles(latencies),
                "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            }

    # -- helpers -------------------------------------------------------------------------------

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._clock0) * 1000)

    def _sensed(self) -> list[int]:
        return [self.physical.index(h) for h in self.sensors.snapshot() if not h.startswith("C")]

    def _names(self, mask: int) -> list[str]:
        return [self.physical.name(h) for h in self.physical.holes(mask)]

    def _simulated_board(self) -> list[str] | None:
        path = Path(self.config.data_dir) / SIM_BOARD
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return saved if isinstance(saved, list) and all(isinstance(h, str) for h in saved) else None

    def _save_simulated_board(self) -> None:
        """The simulated board keeps its pegs across restarts, as a wooden one does."""
        path = Path(self.config.data_dir) / SIM_BOARD
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(sorted(self.sensors.snapshot())), encoding="utf-8")
        os.replace(temporary, path)


SEAT_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Cyan", "Orange", "White")


def seat_default(side: int) -> tuple[str, str]:
    """A side's name and colour before anyone chooses: the LEDs' seat colour, named."""
    return SEAT_NAMES[side], "#{:02x}{:02x}{:02x}".format(*SEAT_COLOURS[side])


def _default_table(players: int) -> dict[str, list[str]]:
    """Names and colours for the seats in play."""
    seats = (0, 2) if players == 2 else tuple(range(players))
    return {"names": [seat_default(s)[0] for s in seats], "colours": [seat_default(s)[1] for s in seats]}


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _last_card(events: list[dict[str, Any]]) -> str | None:
    """The card last played: as declared or dealt, or at a real table the card the move shows."""
    shown = None
    for event in reversed(events):
        if event["event"] == "move" and shown is None:
            shown = event["text"].split()[0]
        if event["event"] in ("play", "discard"):
            card = event.get("declared") or event.get("card") or (shown if event["event"] == "play" else None)
            return str(card) if card else None
        if event["event"] == "start":
            return None
    return None


def _sensors(config: Config, layout: Layout) -> SensorBoard:
    if config.sensors == "serial":
        return SerialSensors.open(layout, port=config.port, vid_pid=config.vid_pid)
    if config.sensors == "gpio":
        return GpioSensors(config.pins, active_low=config.active_low)
    return SimulatedSensors(layout)


def _strip(config: Config, layout: Layout) -> PixelStrip:
    if config.leds == "neopixel":
        return NeoPixelStrip(layout.pixels, config.led_pin)
    if config.leds == "neopixel-spi":
        return NeoPixelSpiStrip(layout.pixels)
    return MemoryStrip(layout.pixels)


def _parse_sim_event(text: Any) -> tuple[str, str]:
    words = text.split() if isinstance(text, str) else []
    if words == ["done"]:
        return "done", ""
    if len(words) == 2 and words[0] in ("lift", "place"):
        return words[0], words[1]
    raise ValueError(f"bad simulated event {text!r}: use 'lift HOLE', 'place HOLE' or 'done'")


def _same(a: Report, b: Report) -> bool:
    """Reports that would look the same on the page and the LEDs."""
    return (a.status, a.move, a.candidates, a.guidance, a.back, a.forward, a.amend) == (
        b.status, b.move, b.candidates, b.guidance, b.back, b.forward, b.amend)  # fmt: skip


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None}
    return {"p50": round(values[len(values) // 2] * 1000, 3),
            "p99": round(values[min(len(values) - 1, round(0.99 * (len(values) - 1)))] * 1000, 3)}  # fmt: skip


def iter_states(service: Service, timeout: float = 15.0) -> Iterator[dict[str, Any]]:
    """Each new state as it happens (for server-sent events); a heartbeat every ``timeout``."""
    version = -1
    while not service.stopped:
        version = service.wait(version, timeout)
        yield service.state()
