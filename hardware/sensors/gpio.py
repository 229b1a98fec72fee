"""Sensors on the Pi's own pins through gpiozero, for a prototype with a few holes."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from hardware.sensors.board import Change, SensorBoard


class GpioSensors(SensorBoard):
    """One gpiozero ``DigitalInputDevice`` per hole, for prototypes with a few sensors on Pi pins.

        from gpiozero.pins.mock import MockFactory
        sensors = GpioSensors({"T0:0": 17, "T0:1": "GPIO27"}, pin_factory=MockFactory())

    ``active_low=True`` suits A3144 hall sensors and reed switches to ground: the Pi's pull-up
    holds the line high and a peg's magnet pulls it low. ``active_low=False`` uses the
    pull-down, for sensors that drive the line high. ``bounce_time`` (seconds) is handed
    to gpiozero's pin driver: with lgpio (the default on Raspberry Pi OS, and the Pi 5's
    only choice) it is the kernel's debounce, a level must hold that long to be reported;
    reed switches chatter, hall sensors hardly do. (MockFactory pins ignore it.) A repeated
    edge in the same direction is never reported twice. Not gpiozero's ``Button``: every
    Button runs a thread that polls for "held", ten times a second.
    """

    backend = "gpio"

    def __init__(
        self,
        pins: Mapping[str, int | str],
        active_low: bool = True,
        bounce_time: float | None = 0.02,
        pin_factory: Any = None,
    ) -> None:
        super().__init__()
        from gpiozero import DigitalInputDevice  # only here: a Pi or a mock

        if not pins:
            raise ValueError("GpioSensors needs at least one hole -> pin")
        self.pins = dict(pins)
        self.active_low = active_low
        self._inputs: dict[str, Any] = {}
        self._state: dict[str, bool] = {}
        try:
            for hole, pin in self.pins.items():
                device = DigitalInputDevice(pin, pull_up=active_low, bounce_time=bounce_time, pin_factory=pin_factory)
                device.when_activated = lambda hole=hole: self._edge(hole, True)
                device.when_deactivated = lambda hole=hole: self._edge(hole, False)
                self._inputs[hole] = device
        except Exception:
            self.close()
            raise
        with self._lock:
            self._state = {hole: bool(device.is_active) for hole, device in self._inputs.items()}

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            return frozenset(hole for hole, occupied in self._state.items() if occupied)

    def close(self) -> None:
        with self._lock:
            for device in self._inputs.values():
                device.close()
            self._inputs.clear()
        super().close()

    def health(self) -> dict[str, Any]:
        return {**super().health(), "pins": {hole: str(pin) for hole, pin in self.pins.items()}}

    def _edge(self, hole: str, occupied: bool) -> None:
        at = time.monotonic()
        with self._lock:
            if self._closed or self._state.get(hole) == occupied:
                return
            self._state[hole] = occupied
            self._emit([Change(hole, occupied, at)])
