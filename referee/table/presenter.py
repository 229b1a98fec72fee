"""What the LEDs show, and the same marks for the page: the tracker's guidance (or, while a
split nobody made is on the board, its fixes), a bot's chosen move or a hint someone asked to
see, and a lesson's lights, rendered for the strip. It keeps what it last lit, so that a blink
or a pulse counts from when that guidance appeared, and the frame at full level, so that the
page is not told of a blink's off phase.

The table calls it under its lock, from ``Table._publish`` (a sensor change's path to the
LEDs: nothing is worked out here that the report has not already) and from the ticker.
"""

from __future__ import annotations

import time

from hardware.leds import Frame, MemoryStrip
from referee.moves import Move
from referee.table.board_hardware import BoardHardware
from referee.table.reading import finishing_seat, why_not_shown
from referee.table.seat_bots import Plan
from referee.table.session import Session


class LedPresenter:
    """What the LEDs show of the session, and the same marks for the page."""

    def __init__(self, hardware: BoardHardware) -> None:
        self._hardware = hardware
        self._lit: tuple[dict[str, str], int | None] = ({}, None)  # guidance, turn
        self._lit_since = 0.0  # when that guidance appeared: blinking and pulsing count from it
        self._peak: Frame | None = None  # the LEDs at full level, for the page (a blink's off phase is not news)
        self._shown_hint: tuple[int, int, Move] | None = None  # a hint lit blue: while events and board stay
        self.move_marks: dict[str, str] = {}  # what the LEDs show of a bot's move or a hint lit on request

    def show_hint(self, events: int, occupied: int, move: Move) -> None:
        """Light ``move`` until the game (its ``events``) or the board (``occupied``) changes."""
        self._shown_hint = (events, occupied, move)

    def show(self, session: Session, plan: Plan | None, lesson_lights: dict[str, str], setting_up: bool) -> None:
        """Light the session's report, with a move to make and a lesson's lights; ``setting_up``:
        a lesson's set-up lights only, not the tracker's guesses about moves."""
        report = session.report
        layout, renderer = self._hardware.layout, self._hardware.renderer
        finishing = finishing_seat(session)  # a split on its way: still that seat's turn on the board
        turn = None if session.game.phase == "over" else finishing if finishing is not None else session.game.turn
        lit = report.guidance
        if report.status == "moving" and why_not_shown(session):  # a split nobody made: the fixes, as the page
            lit = {fix.hole: "put-back" if fix.action == "place" else "wrong" for fix in report.back}
        guidance: dict[str, str] = {h: role for h, role in lit.items() if h in layout.pixel_of}
        if setting_up:
            guidance = {}
        self.move_marks = {**self._plan_lights(session, plan, guidance), **lesson_lights}  # what the page marks too
        guidance = {**self.move_marks, **guidance}
        if (guidance, turn) != self._lit:
            self._lit, self._lit_since = (guidance, turn), time.monotonic()
        self._peak = renderer.render(guidance, turn)
        self._hardware.strip.show(renderer.render(guidance, turn, time.monotonic() - self._lit_since))

    def animate(self) -> None:
        """Redraw a blinking or pulsing light (the strip writes only frames that differ)."""
        guidance, turn = self._lit
        if not self._hardware.renderer.animated(guidance):
            return
        self._hardware.strip.show(self._hardware.renderer.render(guidance, turn, time.monotonic() - self._lit_since))

    def page_leds(self, wiring: bool) -> dict[str, str] | None:
        """Each hole's colour as the page draws it, for a strip kept in memory (a simulated
        board); while the wiring check (``wiring``) lights the holes, what it lit."""
        strip, layout = self._hardware.strip, self._hardware.layout
        if not isinstance(strip, MemoryStrip):
            return None
        shown = self._peak if self._peak is not None and not wiring else strip.frame
        colours = [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in shown]
        return {hole: colours[pixel] for hole, pixel in layout.pixel_of.items()}

    def _plan_lights(self, session: Session, plan: Plan | None, guidance: dict[str, str]) -> dict[str, str]:
        """A move to show while the tracker shows nothing: a hint someone asked for (until the
        board or the game changes), or a bot's chosen move. Its holes and roles (``Plan.lights``:
        the peg to lift, where it goes, a bumped peg's way back), on the board's LEDs only."""
        if guidance:
            return {}
        shown = self._shown_hint
        if shown is not None:
            events, occupied, move = shown
            if events == len(session.game.events) and occupied == session.tracker.occupied:
                return self._hardware.on_board(Plan(session.game.turn, move.card, move).lights(session))
            self._shown_hint = None
        return {} if plan is None else self._hardware.on_board(plan.lights(session))
