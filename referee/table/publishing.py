"""Telling the LEDs and the page what changed, and nothing else: the table looks at the game
after every change (the bot seats act first, ``Table._look``), then hands the publisher what
it saw. The ticker looks twenty times a second, so only a change is shown: the LEDs lit, a
beep for a wrong board or an accepted move, a review made ready once a game is over, and the
live pages woken with the state's new version (``wait``).

The table calls it holding its lock, which the publisher's condition shares.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from referee.table import phone_seats
from referee.table.buttons import Buttons
from referee.table.lesson_host import LessonHost
from referee.table.presenter import LedPresenter
from referee.table.reviews import Reviews
from referee.table.seat_bots import Plan
from referee.table.session import Session
from referee.table.wiring_check import WiringCheck
from referee.tracker import Report


class Publisher:
    """Shows what changed on the LEDs and tells the live pages, once per change."""

    def __init__(
        self,
        lock: threading.RLock,
        lights: LedPresenter,
        reviews: Reviews,
        buttons: Buttons,
        wiring: WiringCheck,
        lessons: LessonHost,
    ) -> None:
        self._changed = threading.Condition(lock)
        self.version = 0  # grows at every change the page is told of
        self._published: _Seen | None = None
        self._lights = lights
        self._reviews = reviews
        self._buttons = buttons
        self._wiring = wiring
        self._lessons = lessons

    def publish(
        self,
        session: Session,
        sensor_fault: str | None,
        plan: Plan | None,
        lesson: tuple[dict[str, str], tuple[object, ...]],
        force: bool = False,
    ) -> None:
        """Show the session's report (with a move to make, ``plan``, and the lesson's lights
        and progress) on the LEDs and tell the page, if anything changed."""
        lesson_lights, progress = lesson
        report = session.report
        seen = _Seen.of(session, sensor_fault, progress)
        if not force and seen == self._published:
            return  # the ticker polls 20 times a second: tell the page only what changed
        if session.game.phase == "over":  # ready by the time someone opens it
            self._reviews.prepare(session.game_id)
        before = self._published
        self._published = seen
        if before is not None and report.status == "illegal" and before.look[0] != "illegal":
            self._buttons.beep("illegal")
        if before is not None and len(session.game.moves) > before.moves:
            self._buttons.beep("accepted")
        if not self._wiring.running:  # the wiring check lights the holes itself
            self._lights.show(session, plan, lesson_lights, self._lessons.setting_up)
        self.version += 1
        self._changed.notify_all()

    def wait(self, version: int, timeout: float, stopped: Callable[[], bool]) -> int:
        """Block until the state is newer than ``version`` (server-sent events) or ``stopped``."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version or stopped(), timeout)
            return self.version

    def wake(self) -> None:
        """Wake every waiting page now (the table stops: its streams end at once)."""
        with self._changed:
            self._changed.notify_all()


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

    @classmethod
    def of(cls, session: Session, sensor_fault: str | None, lesson: tuple[object, ...]) -> _Seen:
        game = session.game
        return cls(
            _look(session.report),
            session.tracker.occupied,
            len(game.events),
            len(game.moves),
            session.notice,
            session.store_error,
            session.declared,
            sensor_fault,
            lesson,
            session.chosen,
            tuple(phone_seats.kinds(game).values()),
        )


def _look(report: Report) -> tuple[object, ...]:
    """What of a report the page and the LEDs show."""
    return (report.status, report.move, report.candidates, report.guidance, report.back, report.forward, report.amend)
