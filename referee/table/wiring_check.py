"""The wiring check from the page: walk the LEDs, then ask for a peg in every hole.

The game pauses while it runs (sensor changes are the check's, not moves); afterwards
the table compares the board with the game again, as after a restart.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from hardware.layout import Layout
from hardware.leds import PixelStrip
from hardware.sensors import SensorBoard

log = logging.getLogger("pegs.wiring")


class WiringCheck:
    """One check at a time, on its own thread; ``status`` is what the page shows."""

    def __init__(self, notify: Callable[[], None], finished: Callable[[], None]) -> None:
        self._notify = notify  # the status changed: publish it (called without the caller's lock)
        self._finished = finished  # the check ended: reconcile the game with the board
        self._cancel = threading.Event()
        self.status: dict[str, Any] | None = None

    @property
    def running(self) -> bool:
        return bool(self.status and self.status.get("running"))

    def start(
        self,
        layout: Layout,
        sensors: SensorBoard,
        strip: PixelStrip,
        holes: list[str] | None = None,
        timeout: float = 60.0,
    ) -> None:
        from hardware.wiring import WiringCancelled, selftest

        if self.running:
            raise RuntimeError("a wiring check is running already")
        self._cancel.clear()
        self.status = {"running": True, "step": "Starting the wiring check", "hole": None}

        def prompt(step: Any) -> None:
            self.status = {
                "running": True,
                "step": str(step),
                "hole": step.hole,
                "action": step.action,
                "index": step.index,
                "total": step.total,
            }
            self._notify()

        def run() -> None:
            result: dict[str, Any]
            try:
                report = selftest(
                    layout, sensors, strip, prompt, timeout=timeout, led_delay=0.02, holes=holes, cancel=self._cancel
                )
                result = {"running": False, "ok": report.ok, "text": str(report), "report": report.to_json()}
            except WiringCancelled as stopped:
                result = {"running": False, "ok": None, "text": str(stopped)}
            except Exception as error:  # report it on the page; the game goes on
                log.exception("wiring check failed")
                result = {"running": False, "ok": False, "text": f"the wiring check failed: {error}"}
            self.status = result
            log.info("wiring check", extra={"ok": result["ok"], "result": result["text"]})
            self._finished()

        threading.Thread(target=run, name="pegs-wiring", daemon=True).start()

    def stop(self) -> None:
        if not self.running:
            raise RuntimeError("no wiring check is running")
        self._cancel.set()

    def close(self) -> None:
        self._cancel.set()

    def forget(self) -> None:
        """A new game: the last check's result is old news."""
        if not self.running:
            self.status = None
