"""The board's buttons and buzzer at a running table: Done (held down: the seat to play can't
move), Undo, and the beeps for a move accepted, a board that is no legal move, an undo, and a
press refused. A press arrives on the buttons' own thread; what it does, the table does under
its lock like any request from the page.

    buttons.attach(controls, done=table.press_done, hold=table.cant_move, undo=table.undo)
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from hardware.controls import Controls
from referee.game import GameError

log = logging.getLogger("pegs.table")


class Buttons:
    """The board's Done and Undo buttons and its buzzer, wired to the table (or none)."""

    def __init__(self, failed: Callable[[], None]) -> None:
        self._failed = failed  # a press went wrong (not refused): the table counts it among its errors
        self.controls: Controls | None = None

    def attach(
        self, controls: Controls, done: Callable[[], object], hold: Callable[[], object], undo: Callable[[], object]
    ) -> None:
        self.controls = controls
        controls.on_done = lambda: self._press(done)
        controls.on_hold = lambda: self._press(hold)
        controls.on_undo = lambda: self._press(undo)

    def beep(self, kind: str) -> None:
        if self.controls is not None:
            self.controls.beep(kind)

    def close(self) -> None:
        if self.controls is not None:
            self.controls.close()

    def _press(self, action: Callable[[], object]) -> None:
        try:
            action()
        except (GameError, ValueError, PermissionError) as error:  # e.g. undo with nothing to undo
            log.info("button refused", extra={"reason": str(error)})
            self.beep("illegal")
        except Exception:
            self._failed()
            log.exception("button failed")
