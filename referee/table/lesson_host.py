"""The first lesson at a running table: the table's side of ``referee.table.lessons``. It starts
a lesson and each of its steps as a game on the board, answers the lesson's buttons, takes the
lesson up again where the daemon stopped, and gives the lesson's lights and page to the table.

The table owns one ``LessonHost`` and calls it holding the table's lock; the host opens games
through the table's ``Opener`` (a step, a stored game, the game before the lesson), which
resets the board and the session as for any new game, and the table then shows them.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from referee.cards import parse_card
from referee.game import GameError
from referee.rulesets import Ruleset
from referee.table.board_hardware import BoardHardware
from referee.table.lessons import LessonError, LessonRun
from referee.table.opening import Opener
from referee.table.salvage import DAMAGED
from referee.table.session import Session, StoreFailure
from referee.table.store import Store

log = logging.getLogger("pegs.table")


class LessonHost:
    """The first lesson at the table: its steps opened on the board, its buttons, its lights."""

    def __init__(self, store: Store, hardware: BoardHardware, games: Opener) -> None:
        self._store = store
        self._hardware = hardware
        self._games = games  # opens each step's game, a stored one, or the game before the lesson
        self.run: LessonRun | None = None  # the first lesson, while one is being taught

    @property
    def setting_up(self) -> bool:
        """The board is being set up for a step: its lights, not the tracker's guesses."""
        return self.run is not None and self.run.progress.phase == "setup"

    def start(self, rules: Ruleset, players: int, learners: list[int] | None) -> None:
        run = LessonRun.start(self._store, rules, players, learners or [0])
        if self.run is not None:
            self.run.leave()
        self.run = run
        self._begin_step()

    def act(self, action: str, place: str | None) -> None:
        """One of the lesson's buttons (``Table.lesson_action``). A refused one (the disk full,
        a wrong place) changes nothing: the lesson stays at its step in memory as on disk."""
        run = self.run
        before = copy.deepcopy(run.progress) if run is not None else None
        try:
            self._act(action, place)
        except BaseException:
            if run is not None and before is not None:
                run.progress, self.run = before, run
            raise

    def _act(self, action: str, place: str | None) -> None:
        run = self.run
        if action == "resume":
            self._resume_left()
        elif run is None:
            raise GameError("no lesson is being taught: start one with Learn to play")
        elif action in ("next", "skip"):
            getattr(run, action)()
            self._begin_step()
        elif action == "repeat":
            self._begin_step()
        elif action == "show":
            run.show()
        elif action == "place":
            run.show_place(place)
        elif action == "leave":
            run.leave()
            self.run = None
            self._games.back_to_game()
        else:
            raise ValueError("'action' is next, repeat, skip, show, place, resume or leave")

    def give_way(self) -> None:
        """A game instead of the lesson: "Learn to play" offers to go on with it."""
        if self.run is not None:
            self.run.leave()
            self.run = None

    def resume_at_start(self) -> bool:
        """At start: the lesson being taught when the daemon stopped, on its step's game."""
        found = self._store.last_lesson()
        if found is None or found[1].get("left") or found[1].get("game") is None:
            return False
        try:
            run = LessonRun.resume(self._store, *found)
            session = self._games.resume_game(int(found[1]["game"]))
        except (StoreFailure, *DAMAGED) as error:  # the table starts anyway, and says so
            self._store.set_aside(f"the lesson being taught (lesson {found[0]})", error)
            return False
        self.run = run
        run.resumed(session)
        return True

    def check(self, request: str, card: str | None = None) -> None:
        """A request to the game the lesson may refuse (a card it did not ask for)."""
        if self.run is not None:
            self.run.check(request, None if card is None else parse_card(card))

    def done_pressed(self, session: Session) -> None:
        if self.run is not None:
            self.run.done_pressed(session)

    def seen(self, session: Session) -> tuple[dict[str, str], tuple[object, ...]]:
        """After a change: the lesson follows the board and the game; its lights (on the board's
        LEDs) and what of it the page shows, to tell whether anything changed."""
        run = self.run
        assert run is not None
        board = board_seen(session)
        run.sensed(session, board)
        run.follow(session)
        lights = self._hardware.on_board(run.lights(session, board))
        return lights, (run.fingerprint(), tuple(sorted(lights.items())))

    def page(self, data: dict[str, Any], session: Session) -> None:
        """The lesson's part of the page's state; while the board is set up, the set-up is what
        the page shows instead of the tracker's reading of the board."""
        run = self.run
        data["lesson"] = run.as_json(session, board_seen(session)) if run is not None else None
        data["lesson_left"] = None
        if run is None:
            found = self._store.last_lesson()
            if found is not None and found[1].get("left"):
                try:
                    data["lesson_left"] = LessonRun.resume(self._store, *found).summary()
                except LessonError as error:  # not offered, and said once on the page
                    self._store.set_aside(f"the lesson left (lesson {found[0]})", error)
        elif run.progress.phase == "setup":
            data.update(
                status="setup",
                back=[],
                forward=[],
                fixes=[],
                why_not=None,
                candidates=[],
                guidance=run.lights(session, board_seen(session)),
            )

    def _begin_step(self) -> None:
        run = self.run
        assert run is not None
        session = self._games.open_step(run.game())
        run.opened(session)
        log.info("lesson step", extra={"lesson": run.id, "step": run.step.key, "learner": run.learner})

    def _resume_left(self) -> None:
        found = self._store.last_lesson()
        if found is None or not found[1].get("left"):
            raise GameError("there is no lesson left to go on with")
        run = LessonRun.resume(self._store, *found)
        run.go_on()
        self.run = run
        self._begin_step()


def board_seen(session: Session) -> list[str]:
    """The holes the tracker has seen filled (what the sensors said, without asking them)."""
    physical = session.physical
    return [physical.name(hole) for hole in physical.holes(session.tracker.occupied)]
